"""Relations that move with time alone: their instants and exact switching.

Input: the ``Dae`` after alias elimination. Output: the ``Dae`` whose relations with a
distance ``a * time + rest`` (``a`` a nonzero constant, ``rest`` changing only at events:
parameters, discrete variables, Real variables only when-equations assign) switch at the
instant ``-rest / a``, a time event, and exactly (see ``compiler.system.Relation``): time only
moves on, so they cannot chatter, and they switch together with a sample or another time
event at their instant, as time events do in other tools.
"""
from __future__ import annotations

from dataclasses import replace

from compiler.causalize.dae import CONSTANT, DISCRETE, PARAMETER, Dae, with_changes
from compiler.symbolic import Const, affine_form, div, neg
from compiler.symbolic.transform import all_names


def with_instants(dae: Dae) -> Dae:
    at_events = {item.name for item in dae.variables
                 if item.kind in (PARAMETER, CONSTANT, DISCRETE)}
    at_events |= {item.when_var for item in dae.equations if item.when_var}
    relations = tuple(_with_instant(item, at_events) for item in dae.relations)
    return with_changes(dae, relations=relations)


def _with_instant(relation, at_events: set):
    form = affine_form(relation.distance, {"time"})
    if form is None:
        return relation
    coefficients, rest = form
    slope = coefficients.get("time")
    if type(slope) is not Const or slope.value == 0 or not all_names(rest) <= at_events:
        return relation
    return replace(relation, exact=True, instant=neg(div(rest, slope)))
