"""Flattening: a model class of a library -> ``compiler.flat.FlatModel``.

Input: a ``compiler.library.Library`` and a class name. Output: the flat model (scalar
variables, scalar equations, algorithms, functions), or a ``FlattenError`` at its source.
"""
from compiler.flatten.driver import flatten
from compiler.flatten.errors import FlattenError

__all__ = ["FlattenError", "flatten"]
