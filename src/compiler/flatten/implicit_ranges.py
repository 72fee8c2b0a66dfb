"""Implicit iteration ranges: ``for i loop ... x[i] ... end for`` (MLS 11.2.2.2, 8.3.2).

Input: a for-index without ``in ...``, the AST of the loop body (or the expression of a
reduction) and the ``Env`` the loop is read in. Output: the values the index takes, deduced
from the dimensions it subscripts: ``1:size(x, k)`` for an Integer dimension, ``false:true``
for a Boolean one, ``E.e1:E.en`` for one indexed by enumeration ``E``. Every dimension the
index subscripts must give the same range, and it must subscript at least one. In a function
(``function_range``) sizes may be known only while running: the range is ``1:size(x, k)``,
and asserts check that the other arrays agree.
"""
from __future__ import annotations

from dataclasses import fields, is_dataclass

from compiler import flat
from compiler.flatten.errors import FlattenError
from compiler.flatten.names import declared_node
from compiler.flatten.walk import ast_references
from compiler.lang import ast, unparse


def implicit_range(index: ast.ForIndex, body, env) -> tuple:
    """The values of ``index``, deduced from its uses as a subscript in ``body``."""
    found = None  # (range, description of the dimension it came from)
    for ref, position, dimension in subscript_uses(index.name, body):
        size, index_type = _dimension(ref, position, dimension, env)
        described = (f"dimension {dimension + 1} of '{_stripped_text(ref, position)}' "
                     f"({_range_text(size, index_type)})")
        if found is None:
            found = ((size, index_type), described)
        elif found[0] != (size, index_type):
            raise FlattenError(f"the range of for-index '{index.name}' cannot be deduced: it "
                               f"subscripts {found[1]} and {described}, which differ "
                               "(MLS 11.2.2.2)", index.span)
    if found is None:
        raise _not_a_subscript(index)
    size, index_type = found[0]
    return _range_values(size, index_type, env)


def function_range(index: ast.ForIndex, body) -> tuple:
    """In a function: the range ``1:size(x, k)`` of the first array the index subscripts
    (AST), and the statements asserting that the others have that size too."""
    uses = list(subscript_uses(index.name, body))
    if not uses:
        raise _not_a_subscript(index)
    assigned = set(_assigned_names(body))
    sizes = []
    for ref, position, dimension in uses:
        array = _stripped(ref, position)
        if array.parts[0].name in assigned and len(array.parts) == 1:
            raise FlattenError(f"the range of for-index '{index.name}' is deduced from "
                               f"'{unparse(array)}', which the loop assigns: its size must not "
                               "change in the loop (MLS 11.2.2.2)", index.span)
        size = ast.Call(ast.ComponentRef((ast.RefPart("size"),)),
                        (array, ast.IntLit(dimension + 1)), span=index.span)
        if size not in sizes:
            sizes.append(size)
    checks = tuple(ast.CallStmt(ast.Call(ast.ComponentRef((ast.RefPart("assert"),)), (
        ast.Binary("==", sizes[0], other),
        ast.StrLit(f"the range of for-index '{index.name}' cannot be deduced: "
                   f"{unparse(sizes[0])} and {unparse(other)} differ (MLS 11.2.2.2)")),
        span=index.span), span=index.span) for other in sizes[1:])
    return ast.Range(ast.IntLit(1), None, sizes[0], index.span), checks


def _not_a_subscript(index: ast.ForIndex) -> FlattenError:
    return FlattenError(f"for-index '{index.name}' has no range ('in ...') and is not used "
                        "as a subscript, from which its range would be deduced "
                        "(MLS 11.2.2.2)", index.span)


def _assigned_names(node):
    """The first names of the variables that statements in ``node`` assign whole."""
    if type(node) is tuple:
        for item in node:
            yield from _assigned_names(item)
        return
    if type(node) is ast.Assign:
        targets = node.target.elements if type(node.target) is ast.TupleExpr else (node.target,)
        for target in targets:
            if type(target) is ast.ComponentRef and not target.parts[-1].subscripts:
                yield target.parts[0].name
        return
    if is_dataclass(node):
        for item in fields(node):
            if item.name != "span":
                yield from _assigned_names(getattr(node, item.name))


def subscript_uses(name: str, body):
    """(reference, part position, subscript position) of each subscript that is the bare
    index ``name``."""
    for ref in ast_references(body):
        for position, part in enumerate(ref.parts):
            for dimension, subscript in enumerate(part.subscripts):
                if type(subscript) is ast.ComponentRef and not subscript.is_global and \
                        len(subscript.parts) == 1 and subscript.parts[0].name == name and \
                        not subscript.parts[0].subscripts:
                    yield ref, position, dimension


def _dimension(ref: ast.ComponentRef, position: int, dimension: int, env) -> tuple:
    """The size and index type ("" Integer, "Boolean" or an enumeration) of dimension
    ``dimension`` of the array that part ``position`` of ``ref`` names."""
    node = declared_node(ref, position, env)
    if node is not None:
        if dimension >= len(node.dims):
            raise FlattenError(f"'{_stripped_text(ref, position)}' has {len(node.dims)} "
                               "dimensions, fewer than it is given subscripts", ref.span)
        index_types = node.index_types or ("",) * len(node.dims)
        return node.dims[dimension], index_types[dimension]
    return _value_dimension(ref, position, dimension, env), ""


def _value_dimension(ref: ast.ComponentRef, position: int, dimension: int, env) -> int:
    """The size of the dimension from the value of the reference without subscripts (a
    constant of a package, an element of a record value): Integer dimensions only."""
    from compiler.flatten import translate as translation
    from compiler.flatten.values import shape
    leading = len(shape(translation.translate(_stripped(ref, position - 1), env))) \
        if position > 0 else 0
    sizes = shape(translation.translate(_stripped(ref, position), env))
    if leading + dimension >= len(sizes):
        raise FlattenError(f"'{_stripped_text(ref, position)}' has fewer dimensions than it is "
                           "given subscripts", ref.span)
    return sizes[leading + dimension]


def _stripped(ref: ast.ComponentRef, position: int) -> ast.ComponentRef:
    parts = tuple(ast.RefPart(part.name, (), part.span) for part in ref.parts[:position + 1])
    return ast.ComponentRef(parts, ref.is_global, ref.span)


def _stripped_text(ref: ast.ComponentRef, position: int) -> str:
    return unparse(_stripped(ref, position))


def _range_text(size: int, index_type: str) -> str:
    if index_type == "Boolean":
        return "false:true"
    return f"1:{size}" if not index_type else f"the literals of {index_type}"


def _range_values(size: int, index_type: str, env) -> tuple:
    if index_type == "Boolean":
        return flat.Const(False), flat.Const(True)
    if index_type:
        from compiler.flatten.names import enumeration_literals
        return tuple(flat.EnumConst(index_type, name, ordinal) for ordinal, name in
                     enumerate(enumeration_literals(env.ctx, index_type), start=1))
    return tuple(flat.Const(k) for k in range(1, size + 1))
