"""Generic traversal of flat equations, statements and expressions.

Input: any ``compiler.flat`` node (or tuples or lists of them). Output: every node inside it, parents
before children (``nodes``); used to find states, when-assigned variables and reinits. Also the
component references of an AST expression (``ast_references``).
"""
from __future__ import annotations

from dataclasses import fields, is_dataclass

from compiler import flat
from compiler.lang import ast

# Child field names per flat node type; spans and plain values are not walked.
_FIELDS = {
    kind: tuple(item.name for item in fields(kind) if item.name != "span")
    for kind in vars(flat).values() if isinstance(kind, type) and is_dataclass(kind)
}
_LEAVES = frozenset({flat.Const, flat.Var, flat.EnumConst})


def nodes(root):
    """Every flat node in ``root``, depth first, parents first."""
    stack = [root]
    pop, push = stack.pop, stack.append
    while stack:
        item = pop()
        kind = type(item)
        if kind is tuple or kind is list:
            stack.extend(reversed(item))
            continue
        names = _FIELDS.get(kind)
        if names is None:
            continue
        yield item
        if kind in _LEAVES:
            continue
        for name in reversed(names):
            push(getattr(item, name))


def ast_references(node):
    """The component references inside an AST expression (those in their subscripts too)."""
    if type(node) is ast.ComponentRef:
        yield node
        for part in node.parts:
            for subscript in part.subscripts:
                yield from ast_references(subscript)
        return
    if type(node) is tuple:
        for item in node:
            yield from ast_references(item)
        return
    if is_dataclass(node):
        for item in fields(node):
            if item.name != "span":
                yield from ast_references(getattr(node, item.name))
