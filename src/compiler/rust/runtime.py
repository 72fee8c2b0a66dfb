"""Where the Rust runtime (rust_templates/) lives, and its modules in the order the emitted
file holds them (``support`` first: its macros serve the modules after it)."""
from __future__ import annotations

import functools
from pathlib import Path

RUNTIME_MODULES = ("support", "lu", "sparse", "data", "loops", "radau", "simulation", "fmi3",
                   "program")


@functools.lru_cache(maxsize=None)
def rust_template_dir() -> Path:
    """rust_templates/: beside the compiler package when installed, at the top of a checkout."""
    here = Path(__file__).resolve()
    for candidate in (here.parents[1] / "rust_templates", here.parents[3] / "rust_templates"):
        if (candidate / "radau.rs").is_file():
            return candidate
    raise FileNotFoundError("the Rust runtime (rust_templates/radau.rs) is not installed with "
                            "the compiler")


@functools.lru_cache(maxsize=None)
def runtime_text(name: str) -> str:
    """The text of runtime module ``name`` (rust_templates/<name>.rs)."""
    return (rust_template_dir() / f"{name}.rs").read_text()
