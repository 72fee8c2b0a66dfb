"""Greedy tearing of a nonlinear algebraic loop.

Input: the residuals of one strongly connected block, its unknowns and the names of the
variables that vary in time. Output: iteration (tear) variables, the other unknowns as
explicit assignments in evaluation order, and the residuals left for Newton. Heuristic:
solve an equation that has one unknown left and is linear in it; when none is, tear the
unknown that occurs in the most remaining equations, of several such one with a start value
(the guess Newton starts from: a joint angle's 0 rather than a rotation matrix entry's 0
that no angle gives).

An Integer or Boolean unknown of the loop (``valued``) is computed only from its own equation,
once what that reads is known, and is never torn: Newton iterates on Real values.

Solving ``c * x + b = 0`` for ``x`` divides by ``c``. A coefficient of parameters and
constants is safe; one that reads unknowns of the block is taken next (the iteration
controls them, and physical coefficients such as a resistance stay away from zero); one that
reads other time-varying variables is never divided by: such a variable may well pass
through zero (``P = v * i`` with a sine voltage ``v``, 0 at the start), so the equation is
left as a residual and the division never happens. Nor is a coefficient of parameters that
is 0 at their values (a rod's length along an axis it does not extend in), nor one that is
0 in a branch of an if-expression: an if-equation whose branches read different unknowns
(a tank port: ``p = ...`` while the level is above it, ``m_flow = 0`` when it is not) has
no value for an unknown in the branches that do not read it. The initialization divides by
no unknown at all (``by_unknowns`` false): it iterates from start values, far from the
solution, through which a flow's velocity may pass, and a residual torn through
``p := (W - v A dp') / (v A)`` is scaled by 1 / v, so Newton crawls where v is small.
"""
from __future__ import annotations

from compiler.symbolic import Op, affine_form, is_const, solve_for

SAFE, BY_UNKNOWNS = 0, 1  # how safe the division of a solved equation is, best first


def tear(residuals: list, unknowns: list[str], varying=frozenset(), guessed=frozenset(),
         vanishes=None, by_unknowns: bool = True, valued=None):
    """``(tears, inner, left)``: tear names, ``(k, name, value)`` assignments in order, and the
    indices of the residuals left over (as many as tears). ``varying``: the names of the
    variables that change in time (the block's unknowns among them or not); ``guessed``: the
    names of those with a start value; ``vanishes``: whether an expression of parameters is 0
    at their values; ``by_unknowns``: whether a coefficient reading unknowns of the block may
    be divided by; ``valued``: ``name: (k, value)`` for the unknowns residual ``k`` defines
    as ``name = value`` (see the module docstring)."""
    valued = valued or {}
    block = set(unknowns)
    open_unknowns = set(unknowns)
    occurs = [residual.variables() & block for residual in residuals]
    remaining = set(range(len(residuals)))
    solutions: dict = {}
    tears, inner = [], []
    while open_unknowns:
        step = _solvable(residuals, occurs, remaining, open_unknowns, block, set(varying),
                         solutions, vanishes, by_unknowns, valued)
        if step is not None:
            k, name, value = step
            inner.append(step)
            remaining.discard(k)
            open_unknowns.discard(name)
            continue
        counts = {name: 0 for name in open_unknowns if name not in valued}
        assert counts, "the valued unknowns of a loop must not depend on each other in a cycle"
        for k in remaining:
            for name in occurs[k] & counts.keys():
                counts[name] += 1
        chosen = max(sorted(counts), key=lambda name: (counts[name], name in guessed))
        tears.append(chosen)
        open_unknowns.discard(chosen)
    return tears, inner, sorted(remaining)


def _solvable(residuals, occurs, remaining, open_unknowns, block, varying, solutions,
              vanishes, by_unknowns, valued):
    """The first equation with one open unknown whose solution is safe, else (with
    ``by_unknowns``) the first whose solution divides only by unknowns of the block; None if
    neither. A valued unknown comes from its own equation only."""
    best = None
    for k in sorted(remaining):
        left = occurs[k] & open_unknowns
        if len(left) != 1:
            continue
        (name,) = left
        if name in valued:
            if valued[name][0] == k:
                return k, name, valued[name][1]
            continue
        if (k, name) not in solutions:
            solutions[k, name] = _solution(residuals[k], name, block, varying, vanishes)
        found = solutions[k, name]
        if found is None:
            continue
        level, value = found
        if level == SAFE:
            return k, name, value
        if best is None and by_unknowns:
            best = (k, name, value)
    return best


def _solution(residual, name: str, block, varying, vanishes):
    """``(level, value)`` of ``name`` from ``residual``, or None when it is not linear in it
    or would divide by a time-varying variable from outside the block or by 0."""
    value = solve_for(residual, name)
    if value is None:
        return None
    coefficient = affine_form(residual, (name,))[0][name]
    if zero_in_a_branch(coefficient):
        return None
    read = coefficient.variables() & varying
    if not read:
        if vanishes is not None and coefficient.variables() and vanishes(coefficient):
            return None
        return SAFE, value
    return (BY_UNKNOWNS, value) if read <= block else None


def zero_in_a_branch(coefficient) -> bool:
    """Whether an if-expression makes ``coefficient`` 0 for some value of its conditions."""
    if is_const(coefficient, 0):
        return True
    if type(coefficient) is not Op:
        return False
    if coefficient.op == "if":
        return any(zero_in_a_branch(branch) for branch in coefficient.args[1:])
    if coefficient.op in ("neg", "*"):
        return any(zero_in_a_branch(factor) for factor in coefficient.args)
    if coefficient.op == "/":
        return zero_in_a_branch(coefficient.args[0])
    return False
