"""Numeric start values of a ``Dae``, for the choices index reduction checks numerically.

Input: a ``Dae``. Output: an evaluation ``Environment`` holding parameters (from their
bindings), every other variable at its start value (0, false or the first literal without
one) and latched relations as written; what cannot be evaluated (user functions) is NaN.
"""
from __future__ import annotations

import math

from compiler.causalize.dae import CONSTANT, PARAMETER, Dae
from compiler.symbolic.evaluate import Environment, EvaluationError, evaluate

_DEFAULT = {"Real": 0.0, "Integer": 0, "Boolean": False, "String": ""}


def start_environment(dae: Dae, time: float = 0.0) -> Environment:
    """Values of every variable of ``dae`` at its start (see the module docstring)."""
    table = dae.table()
    values: dict = {"time": time}
    env = Environment(values, initial=True)
    evaluating: set = set()

    def value_of(name):
        if name in values:
            return values[name]
        item = table[name]
        if name in evaluating:  # a cycle through bindings: not ours to report here
            return math.nan
        evaluating.add(name)
        for dependency in _expression(item).variables() if _expression(item) else ():
            if dependency in table:
                value_of(dependency)
        expr = _expression(item)
        try:
            result = evaluate(expr, env) if expr is not None else _DEFAULT.get(item.type, 1)
        except EvaluationError:
            result = math.nan
        values[name] = result
        return result

    for name in table:
        value_of(name)
    for relation in dae.relations:
        try:
            values[relation.var] = bool(evaluate(_raw(relation), env))
        except EvaluationError:
            values[relation.var] = False
    return env


def vanishing_test(dae: Dae):
    """A test whether an expression of parameters is 0 at their values (NaN is not), which
    builds the start environment of ``dae`` at its first use only."""
    env = []

    def vanishes(expr) -> bool:
        if not env:
            env.append(start_environment(dae))
        try:
            return float(evaluate(expr, env[0])) == 0.0
        except (EvaluationError, TypeError, ValueError):
            return False
    return vanishes


def _expression(item):
    if item.kind in (PARAMETER, CONSTANT) and item.binding is not None:
        return item.binding
    return item.start


def _raw(relation):
    from compiler.symbolic import relation as make
    return make(relation.op, relation.lhs, relation.rhs)
