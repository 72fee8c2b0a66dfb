"""Greedy tearing of a nonlinear algebraic loop.

Input: the residuals of one strongly connected block and its unknowns. Output: iteration
(tear) variables, the other unknowns as explicit assignments in evaluation order, and the
residuals left for Newton. Heuristic: solve any equation that has one unknown left and is
linear in it; when none has, tear the unknown that occurs in the most remaining equations.
"""
from __future__ import annotations

from compiler.symbolic import solve_for


def tear(residuals: list, unknowns: list[str]):
    """``(tears, inner, left)``: tear names, ``(k, name, value)`` assignments in order, and the
    indices of the residuals left over (as many as tears)."""
    block = set(unknowns)
    open_unknowns = set(unknowns)
    occurs = [residual.variables() & block for residual in residuals]
    remaining = set(range(len(residuals)))
    tears, inner = [], []
    while open_unknowns:
        step = _solvable(residuals, occurs, remaining, open_unknowns)
        if step is not None:
            k, name, value = step
            inner.append(step)
            remaining.discard(k)
            open_unknowns.discard(name)
            continue
        counts = {name: 0 for name in open_unknowns}
        for k in remaining:
            for name in occurs[k] & open_unknowns:
                counts[name] += 1
        chosen = max(sorted(counts), key=lambda name: counts[name])
        tears.append(chosen)
        open_unknowns.discard(chosen)
    return tears, inner, sorted(remaining)


def _solvable(residuals, occurs, remaining, open_unknowns):
    for k in sorted(remaining):
        left = occurs[k] & open_unknowns
        if len(left) != 1:
            continue
        (name,) = left
        value = solve_for(residuals[k], name)
        if value is not None:
            return k, name, value
    return None
