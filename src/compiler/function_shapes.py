"""The sizes of a user function's outputs at one call, from the shapes of its arguments.

Input: a ``flat.Function`` and, for each input, the shape of the argument passed (a tuple of
sizes, () for scalars) and its value when it is a literal Integer. Output: the shape of each
output, e.g. ``(3,)`` for ``output Real u[size(v, 1)]`` called with a 3-vector ``v``.
Dimensions may be expressions of literals, ``size(input, k)`` and Integer inputs given as
literals (arithmetic, ``integer``, ``mod``, ``div``, ``max``, if-expressions...); anything
else gives ``None`` (unknown).
"""
from __future__ import annotations

import math

from compiler import flat


def output_shapes(function: flat.Function, shapes: dict, values: dict) -> list:
    """Shape of each output of ``function`` (``None`` for an output whose size is not known
    at the call): ``shapes`` and ``values`` map input names to argument shapes and values."""
    result = []
    for output in function.outputs:
        sizes = tuple(_dimension(dim, shapes, values) for dim in output.dims)
        result.append(None if None in sizes else sizes)
    return result


def _dimension(node, shapes: dict, values: dict):
    """An output size: an Integer from the known argument shapes and values, else None."""
    value = _value(node, shapes, values)
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return int(value) if float(value).is_integer() else None


_CALLS = {"integer": lambda x: int(math.floor(x)), "floor": math.floor, "ceil": math.ceil,
          "abs": abs, "max": max, "min": min,
          "mod": lambda a, b: a - math.floor(a / b) * b, "div": lambda a, b: int(a / b),
          "rem": lambda a, b: a - int(a / b) * b}
_BINARY = {"+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b,
           "/": lambda a, b: a / b, "^": lambda a, b: a ** b,
           "<": lambda a, b: a < b, "<=": lambda a, b: a <= b, ">": lambda a, b: a > b,
           ">=": lambda a, b: a >= b, "==": lambda a, b: a == b, "<>": lambda a, b: a != b,
           "and": lambda a, b: a and b, "or": lambda a, b: a or b}


def _value(node, shapes: dict, values: dict):
    """The number an expression of literals, Integer arguments and argument sizes is."""
    kind = type(node)
    if kind is flat.Const:
        return node.value if isinstance(node.value, (int, float)) else None
    if kind is flat.Var:
        return values.get(node.name)
    if kind is flat.Call:
        if node.name == "size" and len(node.args) == 2 and type(node.args[0]) is flat.Var:
            shape = shapes.get(node.args[0].name)
            k = _value(node.args[1], shapes, values)
            return shape[k - 1] if shape is not None and isinstance(k, int) and \
                0 < k <= len(shape) else None
        function = _CALLS.get(node.name)
        args = [_value(arg, shapes, values) for arg in node.args]
        if function is None or any(arg is None for arg in args):
            return None
        try:
            return function(*args)
        except (ArithmeticError, TypeError, ValueError):
            return None
    if kind is flat.Binary:
        left, right = _value(node.left, shapes, values), _value(node.right, shapes, values)
        if left is None or right is None or node.op not in _BINARY:
            return None
        try:
            return _BINARY[node.op](left, right)
        except (ArithmeticError, TypeError):
            return None
    if kind is flat.Unary:
        operand = _value(node.operand, shapes, values)
        if operand is None:
            return None
        return (not operand) if node.op == "not" else -operand
    if kind is flat.IfExpr:
        condition = _value(node.condition, shapes, values)
        if condition is None:
            return None
        return _value(node.then if condition else node.else_, shapes, values)
    return None


def count(shape) -> int:
    """Number of scalars of a shape."""
    total = 1
    for size in shape:
        total *= size
    return total
