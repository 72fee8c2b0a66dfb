"""Compile an FMU's sources with gcc into binaries/x86_64-linux/<identifier>.so.

The runtime and the generated code compile with ``C_FLAGS``, warnings included; the C code
of external functions' libraries (and model_external.c, which holds their Include texts)
with ``LIBRARY_FLAGS`` and their definitions, warnings off: it is not ours to change. A
library object is kept in a cache folder under the digest of its preprocessed text, so
that the libraries of the Modelica Standard Library compile once, not once per model.
"""
from __future__ import annotations

import functools
import hashlib
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
LIBRARY_FLAGS = ("-O2", "-fPIC", "-fvisibility=hidden", "-w")


@dataclass(frozen=True, slots=True)
class LibraryCode:
    """Sources compiled as library code: names in the sources folder, ``-D`` definitions
    (name, value), system libraries to link (``m`` for ``-lm``), and the folder of the
    object cache (None: no cache)."""
    sources: tuple[str, ...] = ()
    definitions: tuple[tuple[str, str], ...] = ()
    libraries: tuple[str, ...] = ()
    cache: Path | None = None

    def flags(self) -> list[str]:
        return [*LIBRARY_FLAGS, *(f"-D{name}={value}" for name, value in self.definitions)]


@dataclass(frozen=True, slots=True)
class BuildResult:
    binary: Path
    warnings: str  # what gcc printed on success


def gcc_path() -> str:
    """The C compiler (PackageError when there is none)."""
    gcc = shutil.which("gcc") or shutil.which("cc")
    if gcc is None:
        raise PackageError("no C compiler found: install gcc to build FMUs")
    return gcc


def run_gcc(command: list[str], cwd: Path) -> subprocess.CompletedProcess:
    # C locale: plain ASCII quotes in gcc's messages, whatever the user's locale
    return subprocess.run(command, capture_output=True, text=True, cwd=cwd, env={**os.environ, "LC_ALL": "C"})


def _failure(what: str, result: subprocess.CompletedProcess) -> PackageError:
    message = result.stderr.strip() or result.stdout.strip()
    return PackageError(f"building {what} failed:\n{message}")


def check_compiled(what: str, result: subprocess.CompletedProcess) -> None:
    """A failed gcc run as PackageError with gcc's message (``what``: what was being built)."""
    if result.returncode != 0:
        raise _failure(what, result)


def compile_binary(sources_dir: Path, source_names: tuple[str, ...], identifier: str, target: Path,
                   extra_flags: tuple[str, ...] = (), library: LibraryCode = LibraryCode(),
                   prebuilt: tuple[Path, ...] = ()) -> BuildResult:
    """Build the shared library; a gcc failure raises PackageError with gcc's own message.
    ``warnings`` of the result are those of ``source_names`` (library code compiles quietly).
    ``prebuilt``: objects compiled before (the runtime's, compiler.fmu.runtime_objects),
    linked in as they are.

    Each source compiles in its own gcc process, as many at once as there are cores (largest
    first), then one link: on several cores that is several times faster than one gcc call
    over all files.
    """
    gcc = gcc_path()
    target.parent.mkdir(parents=True, exist_ok=True)
    includes = ["-I.", f"-I{fmi_headers_dir()}"]
    with tempfile.TemporaryDirectory(prefix="cosim-build-") as objects_dir:
        names = tuple(source_names) + library.sources
        objects = [str(Path(objects_dir) / f"{k}_{Path(name).stem}.o") for k, name in enumerate(names)]
        # run in the sources folder so that messages name files as the FMU's sources/ does
        commands = [[gcc, *C_FLAGS, *extra_flags, *includes, "-c", name, "-o", obj]
                    for name, obj in zip(source_names, objects)]
        commands += [[gcc, *library.flags(), *extra_flags, *includes, "-c", name, "-o", obj]
                     for name, obj in zip(library.sources, objects[len(source_names):])]
        # largest first: a big model.c then compiles on one core while the runtime's files
        # share the others, instead of starting last and running alone
        order = sorted(range(len(commands)), key=lambda k: -(sources_dir / names[k]).stat().st_size)
        with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
            futures = {k: pool.submit(_compile, commands[k], sources_dir,
                                      library.cache if k >= len(source_names) else None)
                       for k in order}
            results = [futures[k].result() for k in range(len(commands))]
        for result in results:
            check_compiled(f"{identifier}.so", result)
        link_libraries = [f"-l{name}" for name in library.libraries if name != "m"]
        link = run_gcc([gcc, *extra_flags, "-shared", *objects, *map(str, prebuilt), "-o", str(target.resolve()), "-lm",
                     *link_libraries], sources_dir)
        if link.returncode != 0:
            raise _failure(f"{identifier}.so", link)
    linked = _own_lines(link.stderr, library.sources)
    warnings = "\n".join(text for text in [r.stderr.strip() for r in results[:len(source_names)]]
                         + [linked] if text)
    return BuildResult(target, warnings)


def _own_lines(messages: str, library_sources) -> str:
    """The linker's messages without those about library code (glibc warns where a
    library calls tmpnam, say)."""
    stems = [Path(name).stem for name in library_sources]
    return "\n".join(line for line in messages.strip().splitlines()
                     if not any(f"{stem}.o" in line or f"{stem}.c:" in line for stem in stems))


def _compile(command: list[str], cwd: Path, cache: Path | None) -> subprocess.CompletedProcess:
    """One gcc -c; with a cache folder, the object comes from there when the preprocessed
    text and the command were compiled before (and goes there otherwise)."""
    if cache is None:
        return run_gcc(command, cwd)
    output = command[command.index("-o") + 1]
    preprocess = [item for item in command[:command.index("-o")] if item != "-c"] + ["-E", "-P"]
    text = run_gcc(preprocess, cwd)
    if text.returncode != 0:
        return run_gcc(command, cwd)   # the failure, with gcc's message
    digest = hashlib.sha256(" ".join([*command[1:command.index("-o")], gcc_version(command[0])])
                            .encode() + b"\0" + text.stdout.encode()).hexdigest()
    cached = cache / f"{digest}.o"
    if cached.is_file():
        shutil.copyfile(cached, output)
        return subprocess.CompletedProcess(command, 0, "", "")
    result = run_gcc(command, cwd)
    if result.returncode == 0:
        cache.mkdir(parents=True, exist_ok=True)
        staged = cache / f".{digest}.{os.getpid()}.partial"
        shutil.copyfile(output, staged)
        os.replace(staged, cached)
    return result


@functools.lru_cache(maxsize=None)
def gcc_version(gcc: str) -> str:
    return run_gcc([gcc, "--version"], Path.cwd()).stdout.split("\n", 1)[0]
