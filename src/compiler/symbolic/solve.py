"""Linear structure of IR expressions: affine forms and solving for one variable.

Input: an expression (a residual ``lhs - rhs``) and the names of the unknowns. Output: its
affine form ``sum(coefficient * unknown) + rest`` when it is linear in them (coefficients free
of the unknowns), or None; ``solve_for`` turns a residual linear in one variable into that
variable's explicit value.
"""
from __future__ import annotations

from compiler.symbolic.expr import ONE, ZERO, Op, Var, add, div, if_, is_const, mul, neg, sub


def affine_form(expr, unknowns) -> tuple[dict, object] | None:
    """``(coefficients, rest)`` with ``expr == sum(coefficients[v] * v) + rest``, or None.

    ``unknowns`` is a set (or frozenset) of names; the coefficients and ``rest`` read none of
    them. Linearity is structural: through ``+ - *``, division by a free expression, negation
    and if-expressions whose condition is free of the unknowns.
    """
    if expr.variables().isdisjoint(unknowns):
        return {}, expr
    kind = type(expr)
    if kind is Var:
        return {expr.name: ONE}, ZERO
    if kind is not Op:
        return None
    name, args = expr.op, expr.args
    if name in ("+", "-"):
        left, right = affine_form(args[0], unknowns), affine_form(args[1], unknowns)
        if left is None or right is None:
            return None
        return _combine(left, right, add if name == "+" else sub)
    if name == "neg":
        inner = affine_form(args[0], unknowns)
        return None if inner is None else _scale(inner, neg)
    if name == "*":
        a, b = args
        if a.variables().isdisjoint(unknowns):
            inner = affine_form(b, unknowns)
            return None if inner is None else _scale(inner, lambda item: mul(a, item))
        if b.variables().isdisjoint(unknowns):
            inner = affine_form(a, unknowns)
            return None if inner is None else _scale(inner, lambda item: mul(item, b))
        return None
    if name == "/":
        a, b = args
        if not b.variables().isdisjoint(unknowns):
            return None
        inner = affine_form(a, unknowns)
        return None if inner is None else _scale(inner, lambda item: div(item, b))
    if name == "if":
        return _affine_if(args, unknowns)
    return None


def _combine(left, right, operator):
    coefficients = dict(left[0])
    for key, value in right[0].items():
        coefficients[key] = operator(coefficients.get(key, ZERO), value)
    return coefficients, operator(left[1], right[1])


def _scale(form, scale):
    return {key: scale(value) for key, value in form[0].items()}, scale(form[1])


def _affine_if(args, unknowns):
    condition, then, else_ = args
    if not condition.variables().isdisjoint(unknowns):
        return None
    a, b = affine_form(then, unknowns), affine_form(else_, unknowns)
    if a is None or b is None:
        return None
    keys = list(a[0]) + [key for key in b[0] if key not in a[0]]
    coefficients = {key: if_(condition, a[0].get(key, ZERO), b[0].get(key, ZERO))
                    for key in keys}
    return coefficients, if_(condition, a[1], b[1])


def solve_for(residual, name: str):
    """The value of ``name`` that makes ``residual`` zero, when the residual is linear in it
    with a coefficient that does not read it; otherwise None."""
    form = affine_form(residual, (name,))
    if form is None:
        return None
    coefficient = form[0].get(name)
    if coefficient is None or is_const(coefficient, 0):
        return None
    rest = form[1]
    if is_const(coefficient, 1):
        return neg(rest)
    if is_const(coefficient, -1):
        return rest
    if type(coefficient) is Op and coefficient.op == "neg":
        return div(rest, coefficient.args[0])
    return div(neg(rest), coefficient)
