"""Modelica arrays among the FMU's inputs, outputs and parameters as FMI 3.0 array variables
(``cosim compile --fmi-arrays``).

Input: a ``ModelInterface`` whose variables are scalars (generated code unrolls arrays, so an
array ``u`` is ``u[1]``, ``u[2]``, ...). Output: the same interface with ``arrays``: for each
array whose elements are all there (a full grid from 1), of one type, causality, variability
and unit, none of them an alias or a state, an ``ArrayVariable`` that the layout gives one value
reference and consecutive slots in row-major order.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass, replace
from itertools import product

ELEMENT = re.compile(r"(?P<base>.+)\[(?P<indices>\d+(?:,\d+)*)\]\Z")
GROUPED_CAUSALITIES = ("input", "output", "parameter")


@dataclass(frozen=True, slots=True)
class ArrayVariable:
    name: str
    shape: tuple[int, ...]
    elements: tuple[str, ...]  # the element variables' names, row-major
    variability: str           # the elements' (an output of discrete and continuous ones: continuous)


def with_fmi_arrays(interface):
    """``interface`` with its whole interface arrays grouped (``ModelInterface.arrays``)."""
    return replace(interface, arrays=tuple(_groups(interface.variables)))


def _groups(variables) -> list[ArrayVariable]:
    # aliases share a value reference and states are pointed at by scalar derivatives: neither
    # can become an element of an array variable
    aliased = {v.alias_of for v in variables if v.alias_of} | \
        {v.derivative_of for v in variables if v.derivative_of}
    candidates: dict[str, dict[tuple[int, ...], object]] = {}
    for variable in variables:
        match = ELEMENT.match(variable.name)
        if match and variable.causality in GROUPED_CAUSALITIES:
            indices = tuple(int(i) for i in match["indices"].split(","))
            candidates.setdefault(match["base"], {})[indices] = variable
    names = {v.name for v in variables}
    groups = []
    for base, elements in candidates.items():
        group = _group(base, elements, aliased, names)
        if group is not None:
            groups.append(group)
    return groups


def _group(base: str, elements: dict, aliased: set, names: set) -> ArrayVariable | None:
    ranks = {len(indices) for indices in elements}
    if len(ranks) != 1 or base in names:
        return None
    rank = ranks.pop()
    shape = tuple(max(indices[d] for indices in elements) for d in range(rank))
    grid = list(product(*[range(1, n + 1) for n in shape]))
    if len(grid) != len(elements) or set(grid) != set(elements) or math.prod(shape) < 2:
        return None
    members = [elements[indices] for indices in grid]
    kinds = {(v.type, v.causality, v.unit) for v in members}
    if len(kinds) != 1 or any(v.alias_of or v.name in aliased for v in members):
        return None
    variability = _variability(members)
    if variability is None:
        return None
    return ArrayVariable(base, shape, tuple(v.name for v in members), variability)


def _variability(members) -> str | None:
    """One variability for all elements; an output may mix discrete and continuous ones."""
    found = {v.variability for v in members}
    if len(found) == 1:
        return found.pop()
    if members[0].causality == "output" and found <= {"discrete", "continuous"}:
        return "continuous"
    return None
