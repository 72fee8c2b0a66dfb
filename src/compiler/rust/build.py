"""Build the one Rust source file of a model with rustc alone: a program, the binary of an
FMU (a ``cdylib`` exporting the fmi3 functions) or a WebAssembly module.

Input: the text of ``<identifier>.rs`` (``compiler.rust.emit_rust``). Output: the built file.
No crates and no cargo: ``rustc -O`` with the flags below, which Debian 12's rustc 1.63
understands too. Warnings are part of the contract as for C: the emitted Rust builds clean,
and ``BuildResult.warnings`` holds what rustc printed otherwise.
"""
from __future__ import annotations

import functools
import os
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from compiler.errors import PackageError

WASM_TARGET = "wasm32-unknown-unknown"
# the program (default) or, with --cfg fmi, the FMU's library; edition 2018 for `crate::`
# paths and `dyn` (rustc's default is 2015)
RUSTC_FLAGS = ("--edition", "2018", "-O", "-C", "debuginfo=0", "-C", "strip=symbols")
KINDS = {
    "program": (),
    "fmu": ("--crate-type", "cdylib", "--cfg", "fmi"),
    # a library of the fmi3 functions for a WebAssembly host (no file system, no process)
    "wasm": ("--crate-type", "cdylib", "--cfg", "fmi", "--target", WASM_TARGET),
}


@dataclass(frozen=True, slots=True)
class BuildResult:
    binary: Path
    warnings: str  # what rustc printed on success


def find_rustc() -> str | None:
    """rustc on the PATH, else rustup's in ~/.cargo/bin, else None."""
    found = shutil.which("rustc")
    if found:
        return found
    candidate = Path.home() / ".cargo" / "bin" / "rustc"
    return str(candidate) if candidate.is_file() else None


def require_rustc() -> str:
    rustc = find_rustc()
    if rustc is None:
        raise PackageError("no Rust compiler found: install rustc (Debian's package `rustc`, "
                           "or rustup) to build with --backend rust")
    return rustc


@functools.lru_cache(maxsize=None)
def rustc_version(rustc: str) -> str:
    """``rustc -V``: part of the cache key of built Rust models."""
    result = subprocess.run([rustc, "-V"], capture_output=True, text=True)
    return result.stdout.strip()


def wasm_unavailable(rustc: str) -> str | None:
    """Why this toolchain cannot build for wasm32-unknown-unknown, or None when it can (its
    standard library for that target is installed: ``rustup target add``)."""
    result = subprocess.run([rustc, "--print", "target-libdir", "--target", WASM_TARGET],
                            capture_output=True, text=True)
    folder = Path(result.stdout.strip()) if result.returncode == 0 else None
    if folder is None or not any(folder.glob("libstd-*.rlib")):
        return (f"this Rust toolchain ({rustc_version(rustc)}) has no standard library for "
                f"{WASM_TARGET}: add it with `rustup target add {WASM_TARGET}`")
    return None


def binary_name(identifier: str, kind: str) -> str:
    """The file rustc writes for ``kind``."""
    return {"program": identifier, "fmu": f"lib{identifier}.so",
            "wasm": f"{identifier}.wasm"}[kind]


def build(source: str, identifier: str, kind: str, target: Path) -> BuildResult:
    """Build ``source`` (the text of ``<identifier>.rs``) as ``kind`` into ``target``; a
    failure raises PackageError with rustc's own message."""
    rustc = require_rustc()
    if kind == "wasm":
        why = wasm_unavailable(rustc)
        if why:
            raise PackageError(f"cannot build {identifier} for {WASM_TARGET}: {why}")
    with tempfile.TemporaryDirectory(prefix="cosim-rust-") as work:
        source_path = Path(work) / f"{identifier}.rs"
        source_path.write_text(source)
        built = Path(work) / binary_name(identifier, kind)
        command = [rustc, *RUSTC_FLAGS, *KINDS[kind], "--crate-name", identifier,
                   source_path.name, "-o", built.name]
        # C locale and no colours: rustc's messages as plain text
        result = subprocess.run(command, capture_output=True, text=True, cwd=work,
                                env={**os.environ, "LC_ALL": "C", "CARGO_TERM_COLOR": "never"})
        if result.returncode != 0:
            message = result.stderr.strip() or result.stdout.strip()
            raise PackageError(f"building {identifier}.rs ({kind}) failed:\n{message}")
        target.parent.mkdir(parents=True, exist_ok=True)
        staged = target.with_name(f".{target.name}.partial")
        shutil.copyfile(built, staged)
        shutil.copymode(built, staged)
        os.replace(staged, target)
        return BuildResult(target, result.stderr.strip())
