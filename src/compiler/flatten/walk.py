"""Generic traversal of flat equations, statements and expressions.

Input: any ``compiler.flat`` node (or tuples of them). Output: every node inside it, parents
before children (``nodes``); used to find states, when-assigned variables and reinits.
"""
from __future__ import annotations

from dataclasses import fields, is_dataclass

_FIELDS: dict = {}


def _child_fields(kind) -> tuple:
    names = _FIELDS.get(kind)
    if names is None:
        names = _FIELDS[kind] = tuple(item.name for item in fields(kind) if item.name != "span")
    return names


def nodes(root):
    """Every flat node in ``root``, depth first, parents first."""
    stack = [root]
    while stack:
        item = stack.pop()
        if type(item) is tuple:
            stack.extend(reversed(item))
            continue
        if not is_dataclass(item):
            continue
        yield item
        children = [getattr(item, name) for name in _child_fields(type(item))]
        stack.extend(reversed(children))
