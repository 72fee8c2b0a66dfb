"""The balance check: as many scalar equations as unknowns, else name the guilty component.

Input: the run's variables and the equation counts with the instance owning each. Output:
nothing, or a ``FlattenError`` giving both totals and the deepest component whose own
equations do not match its own unknowns (Modelica's local balance: inputs and flow variables
of a component's public connectors are determined by the level above).
"""
from __future__ import annotations

from collections import defaultdict

from compiler.flatten.errors import FlattenError


def is_unknown(record) -> bool:
    return record.variability in ("", "discrete") and not (
        record.top_interface and record.causality == "input")


def check_balance(top, records, counts, model_name: str) -> None:
    """``counts`` is a list of (number of scalar equations, owning instance)."""
    unknowns = sum(1 for record in records if is_unknown(record))
    equations = sum(count for count, _ in counts)
    if unknowns == equations:
        return
    local_unknowns: dict = defaultdict(int)
    local_equations: dict = defaultdict(int)
    order: dict = {}
    for record in records:
        if not is_unknown(record):
            continue
        owner = record.owner
        order.setdefault(owner, len(order))
        local_unknowns[owner] += 1
        if record.interface and owner is not top:
            local_unknowns[owner] -= 1
            above = owner.parent.owner
            order.setdefault(above, len(order))
            local_unknowns[above] += 1
    for count, owner in counts:
        order.setdefault(owner, len(order))
        local_equations[owner] += count
    guilty = [owner for owner in order if local_unknowns[owner] != local_equations[owner]]
    totals = (f"{equations} equation{'s' if equations != 1 else ''} for {unknowns} "
              f"unknown{'s' if unknowns != 1 else ''}")
    if not guilty:
        raise FlattenError(f"model {model_name} is not balanced: {totals}", top.span)
    culprit = max(guilty, key=lambda owner: (_depth(owner), -order[owner]))
    if culprit is top:
        raise FlattenError(f"model {model_name} is not balanced: {totals}", top.span)
    own_e, own_u = local_equations[culprit], local_unknowns[culprit]
    raise FlattenError(
        f"model {model_name} is not balanced ({totals}): component '{culprit.path}' "
        f"({culprit.info.kind} {culprit.info.name}) has {own_e} equation"
        f"{'s' if own_e != 1 else ''} for {own_u} unknown{'s' if own_u != 1 else ''}",
        culprit.span)


def _depth(instance) -> int:
    depth = 0
    while instance.parent is not None:
        depth += 1
        instance = instance.parent
    return depth
