"""Python models as FMUs: what ``cosim compile``, ``cosim run`` and SSP components of type
``text/x-python`` do with a model class or a ``.py`` file.

Input: a model class, or a ``.py`` file and a class name (dotted for a nested class; default:
the file's last model class). Output: the class, its flat model, or its FMU (through the
compiler's cache of compiled FMUs, as for ``.mo`` sources).
"""
from __future__ import annotations

import os
from pathlib import Path

from compiler.compile import fmu_from_flat
from cosim.build.classes import is_model_class
from cosim.build.load import flatten_class, load_class


def is_python_model(target) -> bool:
    """A model class, or the path of a Python file."""
    return is_model_class(target) or (isinstance(target, (str, os.PathLike))
                                      and Path(target).suffix.lower() == ".py")


def model_class(target, model: str | None = None):
    """The class ``target`` is or names (``model`` in the file ``target``)."""
    if is_model_class(target):
        return target
    return load_class(target, model)


def flatten_python(target, model: str | None = None, libs=(), environ=None):
    return flatten_class(model_class(target, model), libs, environ)


def compile_python(target, model: str | None = None, libs=(), output=None,
                   environ=None, fmi_arrays: bool = False) -> Path:
    """The FMU of a Python model, written to ``output`` as ``compiler.compile_fmu`` does."""
    return fmu_from_flat(flatten_python(target, model, libs, environ), output, environ,
                         fmi_arrays)
