"""The runtime's object files, compiled once for every model.

The runtime (fmu_templates/*.c) knows no model at compile time: it reads the model's sizes
at run time from the MODEL constants of model_info.c (model.h). So its objects depend only on
its own files, the FMI headers, the C flags and gcc, and a folder of the object cache named by
the digest of those, ``runtime-<digest>/``, holds them for every model built with them. Only
the model's own files are compiled per model; the FMU's sources/ still hold the runtime, so
that the binary can be rebuilt from them alone.
"""
from __future__ import annotations

import functools
import hashlib
import os
import shutil
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from compiler.fmu.build import C_FLAGS, check_compiled, gcc_path, gcc_version, run_gcc
from compiler.fmu.runtime_files import fmi_headers_dir, template_dir


@dataclass(frozen=True, slots=True)
class RuntimeObjects:
    objects: tuple[Path, ...]
    warnings: str   # what gcc printed for the files compiled now ("" when all were cached)


def runtime_objects(names: tuple[str, ...], cache: Path, extra_flags: tuple[str, ...] = ()) -> RuntimeObjects:
    """The objects of the runtime sources ``names`` (in fmu_templates/), from ``cache``,
    compiling the missing ones into it first (PackageError with gcc's message on a failure)."""
    gcc = gcc_path()
    folder = cache / f"runtime-{_digest(gcc, tuple(extra_flags))}"
    missing = [name for name in names if not (folder / _object_name(name)).is_file()]
    warnings = _compile(gcc, tuple(missing), folder, tuple(extra_flags)) if missing else ""
    return RuntimeObjects(tuple(folder / _object_name(name) for name in names), warnings)


def _object_name(source: str) -> str:
    return f"{Path(source).stem}.o"


def _compile(gcc: str, names: tuple[str, ...], folder: Path, extra_flags: tuple[str, ...]) -> str:
    """Compile ``names`` in the template folder (it holds no config.h, so a runtime file that
    wanted one fails here) and move each object into ``folder`` atomically: a concurrent
    build of the same runtime finds either no object or a whole one."""
    folder.mkdir(parents=True, exist_ok=True)
    includes = ["-I.", f"-I{fmi_headers_dir()}"]
    with tempfile.TemporaryDirectory(prefix=".staging-", dir=folder) as staging:
        commands = [[gcc, *C_FLAGS, *extra_flags, *includes, "-c", name,
                     "-o", str(Path(staging) / _object_name(name))] for name in names]
        with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
            results = list(pool.map(lambda command: run_gcc(command, template_dir()), commands))
        for result in results:
            check_compiled("the FMU runtime", result)
        for name in names:
            os.replace(Path(staging) / _object_name(name), folder / _object_name(name))
    return "\n".join(text for text in (result.stderr.strip() for result in results) if text)


@functools.lru_cache(maxsize=None)
def _digest(gcc: str, extra_flags: tuple[str, ...]) -> str:
    """What the runtime's objects depend on: every C file and header of the templates and of
    the FMI headers, the flags and gcc's version."""
    digest = hashlib.sha256(" ".join([*C_FLAGS, *extra_flags, gcc_version(gcc)]).encode())
    for folder in (template_dir(), fmi_headers_dir()):
        for path in sorted(folder.glob("*.[ch]")):
            digest.update(path.name.encode() + b"\0")
            digest.update(path.read_bytes())
    return digest.hexdigest()[:32]


__all__ = ["RuntimeObjects", "runtime_objects"]
