"""Values of expressions while flattening: scalars, arrays and records of flat expressions.

Input: flat expressions. Output: a *value* is a flat expression (a scalar), a tuple of values
(an array, row-major nesting) or a ``RecordValue``; helpers give shapes, apply functions
element by element, select elements and build the array algebra Modelica defines.
"""
from __future__ import annotations

from compiler import flat


class RecordValue:
    """A record (or connector) value: field name -> value, in declaration order."""

    __slots__ = ("type", "fields")

    def __init__(self, type_name: str, fields: dict):
        self.type = type_name
        self.fields = fields

    def __repr__(self) -> str:
        return f"RecordValue({self.type}, {self.fields})"


class ShapeError(Exception):
    """Internal: two values that must have the same shape do not."""


def shape(value) -> tuple:
    dims = []
    while type(value) is tuple:
        dims.append(len(value))
        if not value:
            break
        value = value[0]
    return tuple(dims)


def is_array(value) -> bool:
    return type(value) is tuple


def scalars(value) -> list:
    """The scalars of a value in row-major order (record fields in declaration order)."""
    if type(value) is tuple:
        return [item for element in value for item in scalars(element)]
    if type(value) is RecordValue:
        return [item for element in value.fields.values() for item in scalars(element)]
    return [value]


def reshape(items: list, dims: tuple):
    """Nested tuples of ``dims`` from a row-major list."""
    if not dims:
        return items[0]
    if len(dims) == 1:
        return tuple(items)
    step = len(items) // dims[0] if dims[0] else 0
    return tuple(reshape(items[i * step:(i + 1) * step], dims[1:]) for i in range(dims[0]))


def elementwise(function, value):
    if type(value) is tuple:
        return tuple(elementwise(function, item) for item in value)
    return function(value)


def elementwise2(function, left, right):
    """``function`` on corresponding elements; a scalar side is used for every element."""
    left_array, right_array = type(left) is tuple, type(right) is tuple
    if left_array and right_array:
        if len(left) != len(right):
            raise ShapeError(f"sizes {shape(left)} and {shape(right)} differ")
        return tuple(elementwise2(function, a, b) for a, b in zip(left, right))
    if left_array:
        return tuple(elementwise2(function, a, right) for a in left)
    if right_array:
        return tuple(elementwise2(function, left, b) for b in right)
    return function(left, right)


def if_value(condition, then, else_):
    """``if condition then then else else_`` element by element over arrays and field by
    field over records (both branches of the same shape and record type)."""
    if type(then) is RecordValue or type(else_) is RecordValue:
        if type(then) is not RecordValue or type(else_) is not RecordValue or \
                then.fields.keys() != else_.fields.keys():
            raise ShapeError("the branches of an if-expression are not records of one type")
        return RecordValue(then.type, {name: if_value(condition, item, else_.fields[name])
                                       for name, item in then.fields.items()})
    if type(then) is tuple or type(else_) is tuple:
        if type(then) is not tuple or type(else_) is not tuple or len(then) != len(else_):
            raise ShapeError("the branches of an if-expression differ in size")
        return tuple(if_value(condition, a, b) for a, b in zip(then, else_))
    return flat.IfExpr(condition, then, else_)


def select(value, path: tuple):
    """The part of ``value`` that ``path`` picks: 1-based indices and record field names."""
    for key in path:
        if type(key) is str:
            if type(value) is tuple:
                value = tuple(select(item, (key,)) for item in value)
                continue
            if type(value) is not RecordValue or key not in value.fields:
                raise ShapeError(f"the value has no field '{key}'")
            value = value.fields[key]
        else:
            if type(value) is not tuple or not 1 <= key <= len(value):
                raise ShapeError(f"the value has no element [{key}]")
            value = value[key - 1]
    return value


def to_expr(value) -> flat.Expr:
    """A single flat expression for a value (arrays become nested ``ArrayExpr``)."""
    if type(value) is tuple:
        return flat.ArrayExpr(tuple(to_expr(item) for item in value))
    if type(value) is RecordValue:
        raise ShapeError(f"a record of type {value.type} cannot be used here")
    return value


def constant(python_value) -> flat.Expr | tuple:
    """The value for an evaluated Python value (nested tuples for arrays)."""
    if type(python_value) is tuple:
        return tuple(constant(item) for item in python_value)
    if type(python_value) is flat.EnumConst:
        return python_value
    return flat.Const(python_value)


# ----------------------------------------------------------------------------- array algebra
def add(a, b, op: str):
    return elementwise2(lambda x, y: flat.Binary(op, x, y), a, b)


def multiply(a, b):
    """``*``: scalar times anything, dot product, matrix-vector and matrix-matrix products."""
    sa, sb = shape(a), shape(b)
    if not sa or not sb:
        return elementwise2(lambda x, y: flat.Binary("*", x, y), a, b)
    if len(sa) == 1 and len(sb) == 1:
        if sa != sb:
            raise ShapeError(f"vectors of sizes {sa[0]} and {sb[0]} cannot be multiplied")
        return sum_of([flat.Binary("*", x, y) for x, y in zip(a, b)])
    if len(sa) == 2 and len(sb) == 1:
        if sa[1] != sb[0]:
            raise ShapeError(f"a {sa[0]}x{sa[1]} matrix cannot multiply a vector of size {sb[0]}")
        return tuple(multiply(row, b) for row in a)
    if len(sa) == 1 and len(sb) == 2:
        if sa[0] != sb[0]:
            raise ShapeError(f"a vector of size {sa[0]} cannot multiply a {sb[0]}x{sb[1]} matrix")
        return tuple(multiply(a, column) for column in transpose(b))
    if len(sa) == 2 and len(sb) == 2:
        if sa[1] != sb[0]:
            raise ShapeError(f"matrices of sizes {sa[0]}x{sa[1]} and {sb[0]}x{sb[1]} cannot be "
                             "multiplied")
        columns = transpose(b)
        return tuple(tuple(multiply(row, column) for column in columns) for row in a)
    raise ShapeError(f"'*' is not defined for arrays of sizes {sa} and {sb}")


def _fold(op: str, items: list, empty: int):
    if not items:
        return flat.Const(empty)
    total = items[0]
    for item in items[1:]:
        total = flat.Binary(op, total, item)
    return total


def sum_of(items: list):
    return _fold("+", items, 0)


def product_of(items: list):
    return _fold("*", items, 1)


def transpose(matrix):
    dims = shape(matrix)
    if len(dims) < 2:
        raise ShapeError("transpose needs a matrix")
    return tuple(tuple(row[j] for row in matrix) for j in range(dims[1]))


def concatenate(dim: int, parts: list):
    """``cat(dim, parts...)`` with ``dim`` counted from 1. An empty part (``()``: its sizes
    after the first are not known) adds nothing along the first dimension, and parts all
    empty make an empty array (``[zeros(0, 1); b]`` is ``b`` as a column)."""
    if all(_empty(part) for part in parts):
        return ()
    if dim == 1:
        parts = [part for part in parts if not _empty(part)]
    shapes = [shape(part) for part in parts]
    if any(len(s) < dim for s in shapes):
        raise ShapeError(f"cat({dim}, ...) needs arrays with at least {dim} dimensions")
    rest = {s[:dim - 1] + s[dim:] for s in shapes}
    if len(rest) > 1:
        raise ShapeError("cat: the arrays differ in sizes other than dimension "
                         f"{dim}: {', '.join(map(str, shapes))}")
    if dim == 1:
        return tuple(item for part in parts for item in part)
    return tuple(concatenate(dim - 1, [part[i] for part in parts])
                 for i in range(shapes[0][0]))


def _empty(value) -> bool:
    return type(value) is tuple and not value


def promote(value, ndims: int):
    """``value`` with trailing singleton dimensions added up to ``ndims``."""
    if len(shape(value)) >= ndims:
        return value
    if type(value) is tuple:
        return tuple(promote(item, ndims - 1) for item in value)
    result = value
    for _ in range(ndims):
        result = (result,)
    return result
