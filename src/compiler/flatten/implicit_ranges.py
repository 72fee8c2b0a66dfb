"""Implicit iteration ranges: ``for i loop ... x[i] ... end for`` (MLS 11.2.2.2, 8.3.2).

Input: a for-index without ``in ...``, the AST of the loop body (or the expression of a
reduction) and the ``Env`` the loop is read in. Output: the values the index takes, deduced
from the dimensions it subscripts: ``1:size(x, k)`` for an Integer dimension, ``false:true``
for a Boolean one, ``E.e1:E.en`` for one indexed by enumeration ``E``. Every dimension the
index subscripts must give the same range, and it must subscript at least one.
"""
from __future__ import annotations

from compiler import flat
from compiler.flatten.errors import FlattenError
from compiler.flatten.names import declared_node
from compiler.flatten.walk import ast_references
from compiler.lang import ast, unparse


def implicit_range(index: ast.ForIndex, body, env) -> tuple:
    """The values of ``index``, deduced from its uses as a subscript in ``body``."""
    found = None  # (range, description of the dimension it came from)
    for ref, position, dimension in _subscript_uses(index.name, body):
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
        raise FlattenError(f"for-index '{index.name}' has no range ('in ...') and is not used "
                           "as a subscript, from which its range would be deduced "
                           "(MLS 11.2.2.2)", index.span)
    size, index_type = found[0]
    return _range_values(size, index_type, env)


def _subscript_uses(name: str, body):
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
