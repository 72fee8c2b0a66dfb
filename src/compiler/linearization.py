"""The linear structure of a ``System``'s blocks, for the Jacobians that code generators build.

Input: blocks of a ``compiler.system.System``. Output: their unknowns, their rows in residual
form with partials, whether the partials are complete, and symbolic forward-mode tangents
through assignments (d v / d seed as IR expressions, by the chain rule on the partials).
"""
from __future__ import annotations

from compiler.symbolic import ONE, add, is_const, mul, neg
from compiler.system import AlgorithmBlock, Assignment, LinearBlock, MixedBlock, NewtonBlock


def block_unknowns(block) -> list[str]:
    """What a linear or Newton block computes: its variables (then, for a Newton block, the
    variables of its inner assignments)."""
    if type(block) is LinearBlock:
        return list(block.vars)
    return list(block.vars) + [item.var for item in block.inner]


def residual_rows(block) -> list:
    """The partials of each row of a linear or Newton block in residual form (an inner
    assignment y := g is the row y - g = 0), in the order of ``block_unknowns``' equations."""
    if type(block) is LinearBlock:
        return [row.partials for row in block.equations]
    rows = [((item.var, ONE),) + tuple((name, neg(expr)) for name, expr in item.partials)
            for item in block.inner]
    return rows + [item.partials for item in block.residuals]


def partials_complete(blocks) -> bool:
    """Whether every block gives the partials an analytic Jacobian needs (none goes through
    a mixed block: differences)."""
    for block in blocks:
        kind = type(block)
        if kind is AlgorithmBlock or kind is MixedBlock:
            return False
        if kind is Assignment and not block.has_partials:
            return False
        if kind is NewtonBlock and not block.has_jacobian:
            return False
        if kind is LinearBlock and not all(row.has_partials for row in block.equations):
            return False
    return True


def tangent_of(partials, tangent: dict):
    """Sum of partial * tangent over the variables with a tangent; None when none has one
    (the result does not depend on the seeds)."""
    total = None
    for name, expr in partials:
        seed = tangent.get(name)
        if seed is None:
            continue
        term = mul(expr, seed)
        total = term if total is None else add(total, term)
    return total


def propagate(assignments, tangent: dict) -> dict:
    """Tangents of the variables of ``assignments`` (in order) added to ``tangent`` (a dict
    name -> IR expression, seeded by the caller); a zero tangent counts as none."""
    for item in assignments:
        value = tangent_of(item.partials, tangent)
        if value is not None and not is_const(value, 0):
            tangent[item.var] = value
    return tangent
