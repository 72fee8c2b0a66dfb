"""Derivatives of user-function calls through their derivative annotations (MLS 12.7.1).

Input: the model's functions. Output: ``call_rule(functions)``, the ``calls`` argument of
``compiler.symbolic.diff`` and ``time_derivative``: a call of ``f`` becomes a call of the first
first-order derivative function of ``f`` that applies (its ``zeroDerivative`` inputs do not
change), with the derivatives of the other Real inputs (those of ``noDerivative`` left out)
after the inputs, giving the derivative of the same Real output. Given ``generated`` (a
``Generated``), a call of a function without a derivative annotation calls the derivative
function generated from its algorithm (``compiler.flatten.partial_derivatives``).
"""
from __future__ import annotations

from dataclasses import replace

from compiler import flat
from compiler.flatten.partial_derivatives import Unsupported, derivative_function
from compiler.function_shapes import count, output_shapes
from compiler.symbolic import REAL, Array, Const, INTEGER, call, is_const


def call_rule(functions, generated=None):
    """The rule differentiating calls of ``functions`` (``flat.Function`` values), through
    derivative functions generated into ``generated`` where they have no annotation."""
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
        if generated is None or function.derivatives:
            return None
        return _generated_call(generated, function, node, derivatives)
    return rule


def _generated_call(generated, function, node, derivatives):
    """The call of the derivative function generated from ``function``'s algorithm, or None
    where it cannot be generated."""
    output = _real_output(function, node)
    if output is None:
        return None
    try:
        name, differentiated = generated.derivative(function.name)
    except Unsupported:
        return None
    extra = tuple(d for port, d in zip(function.inputs, derivatives)
                  if port.name in differentiated)
    return call(name, node.args + extra, output, REAL)


class Generated:
    """Derivative functions generated from the algorithms of ``functions`` on demand: of a
    function called by index reduction, and of the user functions it calls in turn."""

    def __init__(self, functions):
        self.functions = {item.name: item for item in functions}
        self.created: dict[str, flat.Function] = {}  # function -> its derivative function
        self.names: dict[str, str] = {}

    def derivative(self, name: str):
        """(the derivative function's name, the inputs whose derivatives it takes)."""
        function = self.functions[name]
        for item in function.derivatives:
            if item.order == 1 and not item.zero_derivative and item.name in self.functions:
                return item.name, _differentiated(function, item)
        differentiated = tuple(port.name for port in function.inputs if port.type == REAL)
        if name not in self.names:
            taken = set(self.functions) | set(self.names.values())
            derivative = f"{name}_der"
            while derivative in taken:
                derivative += "_"
            # named before it is built, so that recursive functions call it
            self.names[name] = derivative
            try:
                self.created[name] = derivative_function(derivative, function, self)
            except Unsupported:
                del self.names[name]
                raise
        return self.names[name], differentiated

    def __call__(self, name: str):
        return self.derivative(name)

    def with_functions(self, functions) -> tuple:
        """``functions`` with each differentiated one annotated with its generated derivative
        function, and those derivative functions after them."""
        if not self.created:
            return tuple(functions)
        annotated = tuple(
            replace(item, derivatives=item.derivatives + (
                flat.FunctionDerivative(self.names[item.name]),))
            if item.name in self.created else item for item in functions)
        return annotated + tuple(self.created.values())


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
