"""Compile an FMU's sources with gcc into binaries/x86_64-linux/<identifier>.so."""
from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from compiler.errors import PackageError
from compiler.fmu.runtime_files import fmi_headers_dir

PLATFORM = "x86_64-linux"
# Warnings are part of the contract: the runtime builds clean with these, and so must
# generated model code (tests check that the warnings text stays empty).
C_FLAGS = ("-std=c99", "-O2", "-fPIC", "-fvisibility=hidden", "-Wall", "-Wextra", "-Wpedantic")


@dataclass(frozen=True, slots=True)
class BuildResult:
    binary: Path
    warnings: str  # what gcc printed on success


def _run(command: list[str], cwd: Path) -> subprocess.CompletedProcess:
    # C locale: plain ASCII quotes in gcc's messages, whatever the user's locale
    return subprocess.run(command, capture_output=True, text=True, cwd=cwd, env={**os.environ, "LC_ALL": "C"})


def _failure(identifier: str, result: subprocess.CompletedProcess) -> PackageError:
    message = result.stderr.strip() or result.stdout.strip()
    return PackageError(f"building {identifier}.so failed:\n{message}")


def compile_binary(sources_dir: Path, source_names: tuple[str, ...], identifier: str, target: Path,
                   extra_flags: tuple[str, ...] = ()) -> BuildResult:
    """Build the shared library; a gcc failure raises PackageError with gcc's own message.

    Each source compiles in its own gcc process, as many at once as there are cores (largest
    first), then one link: on several cores that is several times faster than one gcc call
    over all files.
    """
    gcc = shutil.which("gcc") or shutil.which("cc")
    if gcc is None:
        raise PackageError("no C compiler found: install gcc to build FMUs")
    target.parent.mkdir(parents=True, exist_ok=True)
    includes = ["-I.", f"-I{fmi_headers_dir()}"]
    with tempfile.TemporaryDirectory(prefix="cosim-build-") as objects_dir:
        objects = [str(Path(objects_dir) / f"{Path(name).stem}.o") for name in source_names]
        # run in the sources folder so that messages name files as the FMU's sources/ does
        commands = [[gcc, *C_FLAGS, *extra_flags, *includes, "-c", name, "-o", obj]
                    for name, obj in zip(source_names, objects)]
        # largest first: a big model.c then compiles on one core while the runtime's files
        # share the others, instead of starting last and running alone
        order = sorted(range(len(commands)), key=lambda k: -(sources_dir / source_names[k]).stat().st_size)
        with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
            futures = {k: pool.submit(_run, commands[k], sources_dir) for k in order}
            results = [futures[k].result() for k in range(len(commands))]
        for result in results:
            if result.returncode != 0:
                raise _failure(identifier, result)
        link = _run([gcc, *extra_flags, "-shared", *objects, "-o", str(target.resolve()), "-lm"], sources_dir)
        if link.returncode != 0:
            raise _failure(identifier, link)
    warnings = "\n".join(r.stderr.strip() for r in results + [link] if r.stderr.strip())
    return BuildResult(target, warnings)
