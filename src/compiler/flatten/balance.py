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


def check_balance(top, records, counts, model_name: str, used_names) -> None:
    """``counts`` lists (number of scalar equations, owning instance); ``used_names(owner)``
    gives the variable names that the equations of ``owner`` mention (only called to explain
    an imbalance)."""
    unknowns = sum(1 for record in records if is_unknown(record))
    equations = sum(count for count, _ in counts)
    if unknowns == equations:
        return
    local_unknowns, local_equations, order = _local_counts(top, records, counts)
    guilty = [owner for owner in order if local_unknowns[owner] != local_equations[owner]]
    totals = (f"{equations} equation{'s' if equations != 1 else ''} for {unknowns} "
              f"unknown{'s' if unknowns != 1 else ''}")
    culprit = max(guilty, key=lambda owner: (_depth(owner), -order[owner])) if guilty else top
    hint = _unconnected_inputs(culprit, records, used_names)
    if culprit is top:
        raise FlattenError(f"model {model_name} is not balanced: {totals}{hint}", top.span)
    own_e, own_u = local_equations[culprit], local_unknowns[culprit]
    raise FlattenError(
        f"model {model_name} is not balanced ({totals}): component '{culprit.path}' "
        f"({culprit.info.kind} {culprit.info.name}) has {own_e} equation"
        f"{'s' if own_e != 1 else ''} for {own_u} unknown{'s' if own_u != 1 else ''}{hint}",
        culprit.span)


def _local_counts(top, records, counts):
    """Unknowns and equations per model instance (inputs and flows of a component's public
    connectors count as unknowns of the level above, which must determine them)."""
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
    return local_unknowns, local_equations, order


def _unconnected_inputs(culprit, records, used_names) -> str:
    """``; unconnected inputs: a.u, b.u`` for inputs of the culprit's components that none of
    its equations mentions (the usual cause of a missing equation), else empty."""
    candidates = [record for record in records if record.interface == "input" and
                  is_unknown(record) and record.owner is not culprit and
                  record.owner.parent is not None and record.owner.parent.owner is culprit]
    if not candidates:
        return ""
    used = used_names(culprit)
    names = [record.name for record in candidates if record.name not in used]
    return f"; unconnected inputs: {', '.join(names)}" if names else ""


def _depth(instance) -> int:
    depth = 0
    while instance.parent is not None:
        depth += 1
        instance = instance.parent
    return depth
