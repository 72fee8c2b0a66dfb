"""``(out0, out1) = spatialDistribution(in0, in1, x, positiveVelocity, initialPoints,
initialValues)`` (MLS 3.7.4.2) as flat equations.

Input: the equation's targets (an ``ast.TupleExpr``), the call and its ``Env``. Output: one
flat equation per target, ``out = spatialDistribution(end, in0, in1, x, positiveVelocity,
p1, ..., pn, v1, ..., vn)`` with ``end`` 0 for out0 and 1 for out1 (the causalization
numbers equal calls as one operator: ``compiler.system.Spatial``). The operator has no
value of its own, so any other use of it is refused (``builtins.UNSUPPORTED``).
"""
from __future__ import annotations

from compiler import flat
from compiler.flatten.errors import FlattenError, NotEvaluable
from compiler.flatten.exprtypes import check_same_type, is_parameter_expression

NAME = "spatialDistribution"
# initialPoints and initialValues where not given (MLS 3.7.4.2)
_DEFAULT_POINTS = (flat.Const(0.0), flat.Const(1.0))
_DEFAULT_VALUES = (flat.Const(0.0), flat.Const(0.0))
_ARGUMENTS = ("in0", "in1", "x", "positiveVelocity", "initialPoints", "initialValues")


def spatial_equations(targets: list, call, env, span) -> list:
    """The flat equations of ``(out0, out1) = spatialDistribution(...)``; ``targets`` are
    the translated outputs (None where skipped)."""
    from compiler.flatten.builtins import _arguments, _scalar, _value
    if len(targets) != 2:
        raise FlattenError(f"{NAME}() has 2 outputs, {len(targets)} are used", span)
    in0, in1, x, positive, points, values = _arguments(call, _ARGUMENTS, NAME, 4)
    scalars = [_scalar(arg, env, NAME) for arg in (in0, in1, x, positive)]
    ctx = env.ctx
    for name, value in zip(_ARGUMENTS, scalars):
        check_same_type("Boolean" if name == "positiveVelocity" else "Real", value, ctx,
                        call.span, f"argument {name} of {NAME}()")
    points = _DEFAULT_POINTS if points is None else _vector(_value(points, env), "initialPoints", call)
    values = _DEFAULT_VALUES if values is None else _vector(_value(values, env), "initialValues", call)
    if len(points) != len(values):
        raise FlattenError(f"{NAME}(): initialPoints has {len(points)} elements, initialValues "
                           f"{len(values)}: they must have the same size", call.span)
    for name, items in (("initialPoints", points), ("initialValues", values)):
        if not is_parameter_expression(items, ctx):
            raise FlattenError(f"{NAME}(): {name} must be a parameter expression (MLS 3.7.4.2)",
                               call.span)
    _check_points(points, ctx, call.span)
    for target in targets:
        if target is not None and type(target) is tuple:
            raise FlattenError(f"the outputs of {NAME}() are scalars", span)
    return [flat.Equation(target, flat.Call(NAME, (flat.Const(end), *scalars, *points, *values)),
                          span)
            for end, target in enumerate(targets) if target is not None]


def _vector(value, name: str, call) -> tuple:
    if type(value) is not tuple or any(type(item) is tuple for item in value) or not value:
        raise FlattenError(f"{NAME}(): {name} must be a non-empty vector", call.span)
    return value


def _check_points(points, ctx, span) -> None:
    """initialPoints rise from 0 to 1 where they are known."""
    from compiler.flatten.evaluate import evaluate
    try:
        known = [float(evaluate(item, ctx)) for item in points]
    except (NotEvaluable, TypeError, ValueError):
        return
    if known[0] != 0.0 or known[-1] != 1.0 or any(b < a for a, b in zip(known, known[1:])):
        raise FlattenError(f"{NAME}(): initialPoints must rise from 0 to 1, not "
                           f"{{{', '.join(f'{p:g}' for p in known)}}} (MLS 3.7.4.2)", span)
