"""Compile an FMU's sources with gcc into binaries/x86_64-linux/<identifier>.so."""
from __future__ import annotations

import shutil
import subprocess
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


def compile_binary(sources_dir: Path, source_names: tuple[str, ...], identifier: str, target: Path,
                   extra_flags: tuple[str, ...] = ()) -> BuildResult:
    """Build the shared library; a gcc failure raises PackageError with gcc's own message."""
    gcc = shutil.which("gcc") or shutil.which("cc")
    if gcc is None:
        raise PackageError("no C compiler found: install gcc to build FMUs")
    target.parent.mkdir(parents=True, exist_ok=True)
    command = [gcc, *C_FLAGS, *extra_flags, "-shared", f"-I{sources_dir}", f"-I{fmi_headers_dir()}",
               *[str(sources_dir / name) for name in source_names], "-o", str(target), "-lm"]
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        message = result.stderr.strip() or result.stdout.strip()
        raise PackageError(f"building {identifier}.so failed:\n{message}")
    return BuildResult(target, result.stderr.strip())
