"""The sizes of a user function's outputs at one call, from the shapes of its arguments.

Input: a ``flat.Function`` and, for each input, the shape of the argument passed (a tuple of
sizes, () for scalars) and its value when it is a literal Integer. Output: the shape of each
output, e.g. ``(3,)`` for ``output Real u[size(v, 1)]`` called with a 3-vector ``v``.
Dimensions may be literals, ``size(input, k)``, Integer inputs given as literals, and sums,
differences and products of these; anything else gives ``None`` (unknown).
"""
from __future__ import annotations

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
    kind = type(node)
    if kind is flat.Const and isinstance(node.value, int) and not isinstance(node.value, bool):
        return node.value
    if kind is flat.Var:
        return values.get(node.name)
    if kind is flat.Call and node.name == "size" and len(node.args) == 2 \
            and type(node.args[0]) is flat.Var:
        shape = shapes.get(node.args[0].name)
        k = _dimension(node.args[1], shapes, values)
        return shape[k - 1] if shape is not None and k is not None and 0 < k <= len(shape) \
            else None
    if kind is flat.Binary and node.op in ("+", "-", "*"):
        left, right = _dimension(node.left, shapes, values), _dimension(node.right, shapes, values)
        if left is None or right is None:
            return None
        return left + right if node.op == "+" else left - right if node.op == "-" \
            else left * right
    return None


def count(shape) -> int:
    """Number of scalars of a shape."""
    total = 1
    for size in shape:
        total *= size
    return total
