"""Where the Rust runtime (rust_templates/) lives, and its modules in the order the emitted
file holds them (``support`` first: its macros serve the modules after it)."""
from __future__ import annotations

import functools
from pathlib import Path

from compiler.fmu.runtime_files import installed_folder

RUNTIME_MODULES = ("support", "lu", "sparse", "data", "loops", "radau", "simulation", "fmi3",
                   "program")


@functools.lru_cache(maxsize=None)
def rust_template_dir() -> Path:
    """rust_templates/: beside the compiler package when installed, at the top of a checkout."""
    return installed_folder("rust_templates", "radau.rs", "the Rust runtime")


@functools.lru_cache(maxsize=None)
def runtime_text(name: str) -> str:
    """The text of runtime module ``name`` (rust_templates/<name>.rs)."""
    return (rust_template_dir() / f"{name}.rs").read_text()
