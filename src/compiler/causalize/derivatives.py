"""Derivatives of user-function calls through their derivative annotations (MLS 12.7.1).

Input: the model's functions. Output: ``call_rule(functions)``, the ``calls`` argument of
``compiler.symbolic.diff`` and ``time_derivative``: a call of ``f`` becomes a call of the first
first-order derivative function of ``f`` that applies (its ``zeroDerivative`` inputs do not
change), with the derivatives of the other Real inputs (those of ``noDerivative`` left out)
after the inputs, giving the derivative of the same Real output.
"""
from __future__ import annotations

from compiler.function_shapes import count, output_shapes
from compiler.symbolic import REAL, Array, Const, INTEGER, call, is_const


def call_rule(functions):
    """The rule differentiating calls of ``functions`` (``flat.Function`` values)."""
    table = {item.name: item for item in functions}
    # a derivative function -> how many derivative inputs it takes after the inputs of the
    # function it is the derivative of (``foo1(x, b, der_x)`` of ``foo0(x, b)``: 1)
    taken = {item.name: _differentiated(function, item) for function in functions
             for item in function.derivatives if item.order == 1}

    def rule(node, derivatives):
        function = table.get(node.function)
        if function is None:
            return None
        for item in function.derivatives:
            if item.order not in (1, 2) or item.name not in table:
                continue
            if not all(_is_zero(d) for port, d in zip(function.inputs, derivatives)
                       if port.name in item.zero_derivative):
                continue
            output = _real_output(function, node)
            if output is None:
                return None
            extra = tuple(d for port, d in zip(function.inputs, derivatives)
                          if port.name in _differentiated(function, item))
            inputs = len(table[item.name].inputs)
            if item.order == 2 or len(node.args) + len(extra) != inputs:
                # the derivative of a derivative function ``foo1(x, der_x)`` as
                # ``foo2(x, der_x, der_2_x)``: der(x) is der_x, given already; only the
                # derivatives of its derivative inputs follow (MLS 12.7.1)
                count = len(taken.get(function.name, ()))
                if not count or len(node.args) + count != inputs:
                    continue
                extra = tuple(derivatives[len(node.args) - count:len(node.args)])
            return call(item.name, node.args + extra, output, REAL)
        return None
    return rule


def _differentiated(function, item) -> tuple:
    """The inputs of ``function`` whose derivatives its derivative function ``item`` takes:
    the Real ones not in noDerivative or zeroDerivative."""
    omitted = set(item.no_derivative) | set(item.zero_derivative)
    return tuple(port.name for port in function.inputs
                 if port.type == REAL and port.name not in omitted)


def _real_output(function, node):
    """The position of the call's result among the Real results (the derivative function's
    results), or None where output sizes are not known."""
    shapes, values = {}, {}
    for port, arg in zip(function.inputs, node.args):
        shapes[port.name] = _shape(arg)
        if type(arg) is Const and arg.type == INTEGER:
            values[port.name] = int(arg.value)
    position = real = 0
    for port, shape in zip(function.outputs, output_shapes(function, shapes, values)):
        if shape is None:
            return None
        size = count(shape)
        if node.output < position + size:
            return real + node.output - position if port.type == REAL else None
        position += size
        real += size if port.type == REAL else 0
    return None


def _shape(node) -> tuple:
    if type(node) is not Array:
        return ()
    return (len(node.elements),) + (_shape(node.elements[0]) if node.elements else ())


def _is_zero(derivative) -> bool:
    if type(derivative) is Array:
        return all(_is_zero(item) for item in derivative.elements)
    return is_const(derivative, 0)
