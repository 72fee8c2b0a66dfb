"""C identifiers for Modelica names: unique, readable, stable.

Input: Modelica names in a fixed order. Output: a dict name -> C identifier (``mass[1].s`` ->
``mass_1_s``, ``der(x)`` -> ``der_x``, ``$rel[1]`` -> ``rel_1``); a name whose identifier is
taken gets a numbered suffix, so the first in the order keeps the plain form.
"""
from __future__ import annotations

import re

from compiler.fmu.interface import C_KEYWORDS

_NOT_IDENTIFIER = re.compile(r"[^A-Za-z0-9_]+")


def plain_identifier(name: str) -> str:
    """The readable C form of one name (not necessarily unique)."""
    text = _NOT_IDENTIFIER.sub("_", name).strip("_")
    if not text or text[0].isdigit():
        text = f"v_{text}"
    return f"{text}_" if text in C_KEYWORDS else text


def c_identifiers(names, taken=()) -> dict[str, str]:
    """Unique identifiers for ``names`` (in order), avoiding those in ``taken``."""
    used = set(taken)
    result: dict[str, str] = {}
    for name in names:
        base = plain_identifier(name)
        candidate, number = base, 2
        while candidate in used:
            candidate = f"{base}_{number}"
            number += 1
        used.add(candidate)
        result[name] = candidate
    return result
