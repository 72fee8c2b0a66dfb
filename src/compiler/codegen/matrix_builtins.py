"""The matrix built-ins of function bodies (MLS 10.3.5): identity, diagonal, outerProduct,
skew, transpose, as sizes and single elements of a row-major flat C array.

Each is written element by element like the other array expressions of ``BodyWriter``:
``shape`` gives the C sizes, ``element`` the scalar at a flat position, so that they nest in
element-wise operators and matrix products without temporaries of their own.
"""
from __future__ import annotations

MATRIX_BUILTINS = frozenset({"identity", "diagonal", "outerProduct", "skew", "transpose"})


def matrix_type(writer, node) -> str:
    """Modelica element type of the result: identity is Integer, the others keep their
    arguments' type."""
    if node.name == "identity":
        return "Integer"
    types = [writer.type_of(arg) for arg in node.args]
    return "Real" if "Real" in types else types[0]


def matrix_shape(writer, node) -> tuple[str, ...]:
    name, args = node.name, node.args
    if name == "identity":
        n = f"(size_t)({writer.expr(args[0])})"
        return n, n
    if name == "diagonal":
        n = _vector_size(writer, args[0], name)
        return n, n
    if name == "outerProduct":
        return _vector_size(writer, args[0], name), _vector_size(writer, args[1], name)
    if name == "skew":
        return "3", "3"
    sizes = writer.shape(args[0])   # transpose: the first two dimensions swapped
    if len(sizes) < 2:
        raise writer.error("transpose() of an array of fewer than two dimensions")
    return (sizes[1], sizes[0]) + sizes[2:]


def matrix_element(writer, node, index: str) -> str:
    """The scalar at flat position ``index`` (a C expression) of the result."""
    name, args = node.name, node.args
    columns = writer.shape(node)[1]
    row, column = f"({index}) / {columns}", f"({index}) % {columns}"
    if name == "identity":
        return f"({row} == {column})"
    if name == "diagonal":
        return f"({row} == {column} ? {writer.element(args[0], row)} : 0)"
    if name == "outerProduct":
        return f"({writer.element(args[0], row)} * {writer.element(args[1], column)})"
    if name == "skew":
        # skew(x) * y = cross(x, y): {{0, -x3, x2}, {x3, 0, -x1}, {-x2, x1, 0}}
        x, _ = writer.materialized(args[0], "Real")
        table = f"0, -{x}[2], {x}[1], {x}[2], 0, -{x}[0], -{x}[1], {x}[0], 0"
        return f"((const double[]){{{table}}})[{index}]"
    sizes = writer.shape(args[0])   # transpose
    inner = " * ".join(sizes[2:])
    if inner:   # the trailing dimensions stay together: (i, j, rest) from (j, i, rest)
        rest, outer = f"({index}) % ({inner})", f"({index}) / ({inner})"
        i, j = f"({outer}) / {sizes[0]}", f"({outer}) % {sizes[0]}"
        return writer.element(args[0], f"(({j}) * {sizes[1]} + {i}) * ({inner}) + {rest}")
    return writer.element(args[0], f"({column}) * {sizes[1]} + {row}")


def _vector_size(writer, arg, name: str) -> str:
    sizes = writer.shape(arg)
    if len(sizes) != 1:
        raise writer.error(f"{name}() of anything but vectors")
    return sizes[0]
