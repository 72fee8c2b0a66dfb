"""Event-generating functions in continuous context (part of ``lower``).

Input: ``floor``, ``ceil``, ``integer``, ``div``, ``mod`` or ``rem`` with converted arguments.
Output: an expression reading a hidden discrete variable ``$floor[k]`` that holds floor(q)
between events, with an equation that updates it when one of its two latched relations
``q < pre(F)`` and ``q >= pre(F) + 1`` fires (initialization sets it to floor(q)); the other
functions are written with it: ceil(q) = -floor(-q), div = truncation, mod and rem.
"""
from __future__ import annotations

from compiler.causalize.dae import DaeEquation
from compiler.symbolic import (
    INTEGER, ONE, REAL, ZERO, add, div, function, if_, mul, neg, or_, pre_var, sub, var)


def event_function(lowering, name: str, args: tuple):
    """``name(*args)`` changing only at events."""
    if name in ("floor", "integer"):
        return latched_floor(lowering, args[0], INTEGER if name == "integer" else REAL)
    if name == "ceil":
        return neg(latched_floor(lowering, neg(args[0]), REAL))
    x, y = args
    type_ = INTEGER if x.type == INTEGER and y.type == INTEGER else REAL
    if name == "mod":
        return sub(x, mul(latched_floor(lowering, div(x, y), type_), y))
    quotient = _truncated(lowering, div(x, y), type_)
    return quotient if name == "div" else sub(x, mul(quotient, y))


def _truncated(lowering, q, type_):
    positive = lowering.convert.hooks.relation(">=", q, ZERO, True)
    return if_(positive, latched_floor(lowering, q, type_),
               neg(latched_floor(lowering, neg(q), type_)))


def latched_floor(lowering, q, type_: str):
    """The hidden variable holding floor(q) (one per argument and type)."""
    key = (q, type_)
    found = lowering.floors.get(key)
    if found is not None:
        return found
    name = f"$floor[{len(lowering.floors) + 1}]"
    lowering.hidden_variable(name, type_)
    node = var(name, type_)
    lowering.floors[key] = node
    # the relations compare with the value before the event iteration: compared with the
    # value the iteration sets, they would switch back and undo it
    before = pre_var(node)
    # without hysteresis: q may jump onto an integer at an event (floor(1) is 1), and the
    # thresholds move away as soon as the value changes, so nothing chatters
    below = lowering.latch("<", q, before, exact=True)
    above = lowering.latch(">=", q, add(before, ONE), exact=True)
    value = function("integer", q) if type_ == INTEGER else function("floor", q)
    lowering.equations.append(DaeEquation(node, if_(or_(below, above), value, pre_var(node)),
                                          lowering.span, when_var=name, initial_rhs=value))
    return node

