"""Modelica names of Python things: identifiers checked, and the full name of a Python class.

Input: Python identifiers, classes and their modules. Output: checked names, and
``full_name(cls)``: the class's package (its module's dotted name; none for ``__main__`` and
for a file loaded by path; a module's ``__modelica_package__`` string overrides both), then
the names of the classes it is nested in, then its own.
"""
from __future__ import annotations

import keyword
import re
import sys

from compiler.lang.lexer import KEYWORDS
from cosim.build.errors import BuildError

_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
PACKAGE_ATTRIBUTE = "__modelica_package__"


def modelica_name(python_name: str) -> str:
    """The Modelica name of a Python attribute: a trailing _ after a Python keyword goes
    (``lambda_`` is ``lambda``), as PEP 8 spells such names."""
    if python_name.endswith("_") and keyword.iskeyword(python_name[:-1]):
        return python_name[:-1]
    return python_name


def check_identifier(name: str, what: str, span) -> str:
    if not _IDENTIFIER.match(name):
        raise BuildError(f"{what} name '{name}' is not a Modelica identifier (ASCII letters, "
                         "digits and _)", span)
    if name in KEYWORDS:
        raise BuildError(f"{what} name '{name}' is a Modelica keyword", span)
    return name


def module_package(cls, span) -> tuple[str, ...]:
    """The package path of the classes of ``cls``'s module."""
    module = sys.modules.get(cls.__module__)
    explicit = getattr(module, PACKAGE_ATTRIBUTE, None)
    if explicit is not None:
        parts = tuple(explicit.split(".")) if explicit else ()
        what = f"{PACKAGE_ATTRIBUTE} part"
    elif cls.__module__ == "__main__":
        return ()
    else:
        parts = tuple(cls.__module__.split("."))
        what = f"package (module {cls.__module__}) part"
    for part in parts:
        try:
            check_identifier(part, what, span)
        except BuildError as error:
            raise BuildError(f"{error.message}: set {PACKAGE_ATTRIBUTE} = \"Name\" (or \"\" "
                             "for top-level classes) in the module", span) from None
    return parts


def full_name(cls) -> tuple[str, ...]:
    """The parts of the Modelica full name of a Python model class."""
    chain = []
    scope = cls
    while scope is not None:
        chain.append(scope.__name__)
        parent = scope.__dict__.get("__modelica_parent__")
        if parent is None:
            break
        scope = parent
    outermost = scope
    return module_package(outermost, outermost.__modelica_info__.span) + tuple(reversed(chain))
