"""Where the C runtime (fmu_templates/) and the FMI headers live."""
from __future__ import annotations

import functools
import re
from pathlib import Path

import fmpy

RUNTIME_SOURCES = ("fmi3Functions.c", "instance.c", "events.c", "cosimulation.c", "crossing.c",
                   "radau5.c", "dense_lu.c", "sparse_lu.c", "model_support.c", "delays.c")
RUNTIME_HEADERS = ("model.h", "instance.h", "crossing.h", "radau5.h", "dense_lu.h", "dense_lu_impl.h",
                   "sparse_lu.h", "sparse_lu_impl.h", "model_support.h", "delays.h")
# added for models that call external functions, hold external objects or make Strings
EXTERNAL_RUNTIME_SOURCES = ("external_support.c",)
EXTERNAL_RUNTIME_HEADERS = ("external_support.h", "ModelicaUtilities.h")


def installed_folder(name: str, marker: str, what: str) -> Path:
    """The folder ``name`` of a runtime: beside the compiler package when installed, at the
    top of a checkout; ``marker`` is a file it must hold, ``what`` names it in the error."""
    here = Path(__file__).resolve()
    for candidate in (here.parents[1] / name, here.parents[3] / name):
        if (candidate / marker).is_file():
            return candidate
    raise FileNotFoundError(f"{what} ({name}/{marker}) is not installed with the compiler")


@functools.lru_cache(maxsize=None)
def template_dir() -> Path:
    """fmu_templates/: beside the compiler package when installed, at the top of a checkout."""
    return installed_folder("fmu_templates", "model.h", "the FMU runtime")


def fmi_headers_dir() -> Path:
    """The FMI 3.0 headers that fmpy ships (fmi3Functions.h, ...)."""
    return Path(fmpy.__file__).parent / "c-code"


def fmi_schema(name: str) -> Path:
    return Path(fmpy.__file__).parent / "schema" / "fmi3" / name


@functools.lru_cache(maxsize=None)
def log_categories() -> tuple[tuple[str, str], ...]:
    """(name, description) of the runtime's log categories, read from instance.h so that
    modelDescription.xml lists exactly what the C code logs."""
    text = (template_dir() / "instance.h").read_text()
    return tuple(re.findall(r'X\(\w+, "(\w+)", "([^"]*)"\)', text))
