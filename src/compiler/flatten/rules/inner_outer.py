"""Outer components (MLS 5.4): not modified, and the matching inner component is of a subtype
of the outer's type with the same dimensions.

Input: the outer declaration with its merged modification, its type and dimensions (None for
``:``), and the inner component's instantiated node. Output: nothing, or a ``FlattenError``
at the outer declaration.
"""
from __future__ import annotations

from compiler.flatten.errors import FlattenError
from compiler.flatten.rules.types import subtype_problem


def check_outer(decl, mod, outer_info, outer_dims: tuple, inner, classes) -> None:
    if mod is not None and not mod.empty and not decl.inner:  # (inner outer: the inner's)
        raise FlattenError(f"outer component '{decl.name}' cannot be modified; modify the inner "
                           "one (MLS 5.4)", mod.span or decl.span)
    if len(outer_dims) != len(inner.dims) or any(
            size is not None and size != found for size, found in zip(outer_dims, inner.dims)):
        raise FlattenError(f"outer component '{decl.name}' has sizes {_sizes(outer_dims)}, the "
                           f"inner one {_sizes(inner.dims)} (MLS 5.4)", decl.span)
    if not inner.elements:
        return
    inner_info = inner.elements[0].info
    problem = subtype_problem(classes, inner_info, outer_info)
    if problem is not None:
        raise FlattenError(f"the inner '{decl.name}' is not a subtype of the outer one: "
                           f"{problem} (MLS 5.4)", decl.span)


def _sizes(dims: tuple) -> str:
    return "[" + ", ".join(":" if size is None else str(size) for size in dims) + "]"
