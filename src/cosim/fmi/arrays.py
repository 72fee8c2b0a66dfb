"""FMI 3.0 array variables: their shapes, elements and start values.

Input: a ``VariableInfo`` with ``<Dimension>``s and the sizes its structural parameters have
(value reference -> value). Output: the shape (``()`` for a scalar), the names of its elements
as result columns (``y[1]``, ``A[2,3]``: one-based, row-major as FMI 3.0 serializes arrays)
and the start values, one per element.
"""
from __future__ import annotations

import math
from typing import Mapping

from cosim.fmi.description import ModelInfo, VariableInfo


class ShapeError(ValueError):
    """A dimension whose size cannot be known (a missing or non-integer size parameter)."""


def structural_sizes(info: ModelInfo, values: Mapping[str, object] = {}) -> dict[int, int]:
    """Value reference -> value of every integer variable a dimension refers to: ``values``
    (by name: the parameters a run sets) over the start values."""
    references = {d.reference for v in info.variables for d in v.dimensions
                  if d.reference is not None}
    sizes = {}
    for reference in references:
        variable = info.by_reference(reference)
        if variable is None:
            continue
        value = values.get(variable.name, variable.start)
        try:
            sizes[reference] = int(str(value).split()[0]) if value is not None else None
        except ValueError:
            sizes[reference] = None
    return sizes


def shape(variable: VariableInfo, sizes: Mapping[int, int | None]) -> tuple[int, ...]:
    """The shape of ``variable`` with ``sizes`` of its size parameters; ``ShapeError``."""
    result = []
    for dimension in variable.dimensions:
        size = dimension.size if dimension.size is not None else sizes.get(dimension.reference)
        if size is None or size < 0:
            raise ShapeError(f"the size of a dimension of '{variable.name}' (value reference "
                             f"{dimension.reference}) is not known")
        result.append(int(size))
    return tuple(result)


def count(shape_: tuple[int, ...]) -> int:
    return math.prod(shape_) if shape_ else 1


def element_names(name: str, shape_: tuple[int, ...]) -> list[str]:
    """``name`` for a scalar, else ``name[i,j]`` for each element in row-major order."""
    if not shape_:
        return [name]
    names = []
    for flat in range(count(shape_)):
        indices, rest = [], flat
        for size in reversed(shape_):
            indices.append(rest % size + 1)
            rest //= size
        names.append(f"{name}[{','.join(str(i) for i in reversed(indices))}]")
    return names


def flat_index(indices: tuple[int, ...], shape_: tuple[int, ...]) -> int:
    """The row-major position of one-based ``indices``; ``IndexError`` when out of range."""
    if len(indices) != len(shape_):
        raise IndexError(f"{len(indices)} indices for {len(shape_)} dimensions")
    flat = 0
    for index, size in zip(indices, shape_):
        if not 1 <= index <= size:
            raise IndexError(f"index {index} out of range 1..{size}")
        flat = flat * size + index - 1
    return flat


def start_values(variable: VariableInfo, n: int) -> list:
    """The ``n`` start values of ``variable`` (text tokens as the XML has them; a scalar start
    repeats over an array, as FMI 3.0 allows); ``None`` for each when it has none."""
    start = variable.start
    if start is None:
        return [None] * n
    if variable.type in ("String",) or not isinstance(start, str):
        tokens = list(start) if isinstance(start, (list, tuple)) else [start]
    else:
        tokens = start.split() or [""]
    if len(tokens) == 1:
        return tokens * n
    return (tokens + [None] * n)[:n]
