"""A content-hash cache of compiled FMUs, so that an unchanged model is not compiled twice.

Input: the parts that determine an FMU (flat model text, source locations, model identifier,
the content of external C files and resources) and the environment. Output: the cache entry ``<cache>/fmus/<key>.fmu``. The key also covers
the compiler's own sources, the emitter version, the C runtime and the C flags, so a change to
any of them is a new key. The folder is ``$COSIM_CACHE_DIR/fmus``, else
``$XDG_CACHE_HOME/cosim/fmus`` or ``~/.cache/cosim/fmus``; the least recently used entries
beyond ``MAX_ENTRIES`` are removed.
"""
from __future__ import annotations

import functools
import hashlib
import os
import shutil
from pathlib import Path

from compiler.codegen import EMITTER_VERSION
from compiler.fmu.build import C_FLAGS
from compiler.fmu.runtime_files import (
    EXTERNAL_RUNTIME_HEADERS, EXTERNAL_RUNTIME_SOURCES, RUNTIME_HEADERS, RUNTIME_SOURCES,
    template_dir)

MAX_ENTRIES = 200


def cache_dir(environ=None, kind: str = "fmus") -> Path:
    """The folder of cached FMUs (see the module docstring); ``kind="objects"``: that of
    the compiled objects of external functions' libraries (compiler.fmu.build)."""
    environ = os.environ if environ is None else environ
    if environ.get("COSIM_CACHE_DIR"):
        return Path(environ["COSIM_CACHE_DIR"]) / kind
    base = environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "cosim" / kind


@functools.lru_cache(maxsize=1)
def toolchain_digest() -> str:
    """Digest of everything besides the model that shapes an FMU: the compiler's Python
    sources, the emitter version, the runtime's C sources and the C flags."""
    digest = hashlib.sha256(f"emitter {EMITTER_VERSION}\nflags {' '.join(C_FLAGS)}\n".encode())
    package = Path(__file__).resolve().parent
    for path in sorted(package.rglob("*.py")):
        digest.update(path.relative_to(package).as_posix().encode())
        digest.update(path.read_bytes())
    for name in RUNTIME_SOURCES + RUNTIME_HEADERS + EXTERNAL_RUNTIME_SOURCES + EXTERNAL_RUNTIME_HEADERS:
        digest.update(name.encode())
        digest.update((template_dir() / name).read_bytes())
    return digest.hexdigest()


def cache_key(*parts: str) -> str:
    """The key of an FMU made from ``parts`` by the current toolchain."""
    digest = hashlib.sha256(toolchain_digest().encode())
    for part in parts:
        digest.update(len(part).to_bytes(8, "little"))
        digest.update(part.encode())
    return digest.hexdigest()


def lookup(key: str, environ=None, kind: str = "fmus", suffix: str = ".fmu") -> Path | None:
    """The cached FMU of ``key``, or None; a hit counts as a use (for pruning). ``kind`` and
    ``suffix``: another cache of built files (the Rust backend's: ``compiler.rust.compile``)."""
    path = cache_dir(environ, kind) / f"{key}{suffix}"
    if not path.is_file():
        return None
    try:
        os.utime(path)
    except OSError:
        pass
    return path


def store(key: str, fmu: Path, environ=None, kind: str = "fmus", suffix: str = ".fmu") -> Path:
    """Put a copy of ``fmu`` into the cache under ``key`` (atomically: concurrent compiles of
    the same model both succeed) and prune old entries. Returns the entry."""
    folder = cache_dir(environ, kind)
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / f"{key}{suffix}"
    staged = folder / f".{key}.{os.getpid()}.partial"
    shutil.copyfile(fmu, staged)
    shutil.copymode(fmu, staged)   # a cached program stays executable
    os.replace(staged, target)
    _prune(folder, suffix)
    return target


def _prune(folder: Path, suffix: str = ".fmu") -> None:
    used = []
    for path in folder.glob(f"*{suffix}"):
        try:
            used.append((path.stat().st_mtime, path))
        except OSError:   # removed by another process meanwhile
            continue
    for _, path in sorted(used, reverse=True)[MAX_ENTRIES:]:
        try:
            path.unlink()
        except OSError:
            pass
