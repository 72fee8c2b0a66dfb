"""Symbolic differentiation of IR expressions: partial (w.r.t. a variable) and in time.

Input: an IR expression and the variable, or a rule giving each variable's time derivative.
Output: the derivative, simplified. Shared subexpressions are differentiated once (``memo``);
a user-function call is differentiated by ``calls(node, derivatives of the arguments)`` where
given (derivative annotations), else it is ``NotDifferentiable``, as is delay().
"""
from __future__ import annotations

import math

from compiler.symbolic.expr import (
    ONE, REAL, ZERO, Array, Call, Const, Op, Var, add, array, const, div, function, if_,
    is_const, mul, neg, power, relation, sub)


class NotDifferentiable(Exception):
    """The derivative needs the derivative of a user function (``node``, a ``Call``) or of
    a delay() with respect to its time (``node``, its ``Op``)."""

    def __init__(self, node):
        super().__init__(self.describe(node))
        self.node = node

    @staticmethod
    def describe(node) -> str:
        if type(node) is Call:
            return f"the function {node.function}"
        return "spatialDistribution()" if node.op == "spatial" else "delay()"


def diff(expr, name: str, memo: dict | None = None, calls=None):
    """``d expr / d name`` with every other variable (and every ``pre`` value) held fixed."""
    one = ONE

    def leaf(node):
        return one if node.name == name else ZERO

    def relevant(node):
        return name in node.variables()
    return _derivative(expr, leaf, relevant, {} if memo is None else memo, calls)


def time_derivative(expr, derivative_of, memo: dict | None = None, calls=None):
    """``d expr / d time``; ``derivative_of(var)`` is the derivative of a variable leaf (an
    expression) or None where the variable is constant in time (parameters, discrete values).
    """
    def leaf(node):
        if node.name == "time":
            return ONE
        found = derivative_of(node)
        return ZERO if found is None else found
    return _derivative(expr, leaf, _always, {} if memo is None else memo, calls)


def _always(node) -> bool:
    return True


def _derivative(node, leaf, relevant, memo, calls=None):
    done = memo.get(node)
    if done is not None:
        return done
    kind = type(node)
    if node.type != REAL or kind is Const or not relevant(node):
        result = ZERO
    elif kind is Var:
        result = leaf(node)
    elif kind is Op:
        result = _op_derivative(node, [_derivative(arg, leaf, relevant, memo, calls)
                                       if arg.type == REAL else ZERO for arg in node.args])
    elif kind is Call:
        d = [_argument_derivative(arg, leaf, relevant, memo, calls) for arg in node.args]
        if all(_is_zero(item) for item in d):
            result = ZERO
        else:
            result = calls(node, d) if calls is not None else None
            if result is None:
                raise NotDifferentiable(node)
    else:
        result = ZERO
    memo[node] = result
    return result


def _argument_derivative(arg, leaf, relevant, memo, calls):
    """The derivative of a call's argument (an array element by element; ZERO for a
    non-Real one)."""
    if type(arg) is Array:
        return array(_argument_derivative(item, leaf, relevant, memo, calls)
                     for item in arg.elements)
    return _derivative(arg, leaf, relevant, memo, calls) if arg.type == REAL else ZERO


def _is_zero(derivative) -> bool:
    if type(derivative) is Array:
        return all(_is_zero(item) for item in derivative.elements)
    return is_const(derivative, 0)


def _op_derivative(node: Op, d: list):
    name, args = node.op, node.args
    if all(is_const(item, 0) for item in d):
        return ZERO
    rule = _RULES.get(name)
    if rule is not None:
        return rule(args, d, node)
    return ZERO  # pre, initial, floor, ceil, sign, integer, div: piecewise constant


def _product(args, d, node):
    a, b = args
    return add(mul(d[0], b), mul(a, d[1]))


def _quotient(args, d, node):
    a, b = args
    if is_const(d[1], 0):
        return div(d[0], b)
    return div(sub(mul(d[0], b), mul(a, d[1])), mul(b, b))


def _power(args, d, node):
    a, b = args
    if is_const(d[1], 0):
        exponent = b
        if type(b) is Const:
            lowered = power(a, const(b.value - 1, b.type))
        else:
            lowered = power(a, sub(b, ONE))
        return mul(mul(exponent, lowered), d[0])
    log_a = function("log", a)
    if is_const(d[0], 0):
        return mul(mul(node, log_a), d[1])
    return mul(node, add(mul(d[1], log_a), div(mul(b, d[0]), a)))


def _unary(outer):
    """Rule for ``f(x)`` with ``f'(x) = outer(x, node)``."""
    def rule(args, d, node):
        return mul(outer(args[0], node), d[0])
    return rule


def _sqrt_one_minus_square(x):
    return function("sqrt", sub(ONE, mul(x, x)))


def _atan2(args, d, node):
    y, x = args
    return div(sub(mul(x, d[0]), mul(y, d[1])), add(mul(x, x), mul(y, y)))


def _min_max(name):
    def rule(args, d, node):
        a, b = args
        first = relation("<" if name == "min" else ">", a, b)
        return if_(first, d[0], d[1])
    return rule


def _mod(args, d, node):
    x, y = args
    return sub(d[0], mul(function("floor", div(x, y)), d[1]))


def _rem(args, d, node):
    x, y = args
    return sub(d[0], mul(function("div", x, y), d[1]))


def _delay(args, d, node):
    # d/dt expr(t - T(t)) needs the derivative of the recorded history: not available
    raise NotDifferentiable(node)


_RULES = {
    "+": lambda args, d, node: add(d[0], d[1]),
    "-": lambda args, d, node: sub(d[0], d[1]),
    "neg": lambda args, d, node: neg(d[0]),
    "*": _product,
    "/": _quotient,
    "^": _power,
    "if": lambda args, d, node: if_(args[0], d[1], d[2]),
    "sin": _unary(lambda x, node: function("cos", x)),
    "cos": _unary(lambda x, node: neg(function("sin", x))),
    "tan": _unary(lambda x, node: div(ONE, power(function("cos", x), const(2)))),
    "asin": _unary(lambda x, node: div(ONE, _sqrt_one_minus_square(x))),
    "acos": _unary(lambda x, node: neg(div(ONE, _sqrt_one_minus_square(x)))),
    "atan": _unary(lambda x, node: div(ONE, add(ONE, mul(x, x)))),
    "sinh": _unary(lambda x, node: function("cosh", x)),
    "cosh": _unary(lambda x, node: function("sinh", x)),
    "tanh": _unary(lambda x, node: sub(ONE, mul(node, node))),
    "exp": _unary(lambda x, node: node),
    "log": _unary(lambda x, node: div(ONE, x)),
    "log10": _unary(lambda x, node: div(ONE, mul(x, const(math.log(10.0))))),
    "sqrt": _unary(lambda x, node: div(ONE, mul(const(2.0), node))),
    "abs": _unary(lambda x, node: function("sign", x)),
    "atan2": _atan2,
    "min": _min_max("min"),
    "max": _min_max("max"),
    "mod": _mod,
    "rem": _rem,
    "delay": _delay,
    "spatial": _delay,   # (so is a spatialDistribution()'s end: it reads a recorded profile)
}
