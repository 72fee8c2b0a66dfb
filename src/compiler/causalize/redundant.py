"""Initial equations that read no unknown of the initialization -> a check after it.

Input: the initial equations (in their initialization form) and the initialization's
unknowns. Output: the equations kept for the matching, and the block that checks the others
once the initialization has computed everything.

An initial equation that reads no unknown determines nothing: all it reads are parameters,
constants and inputs, which its own model fixes elsewhere (``mediums[1].p = p_start`` of a pipe
volume whose pressure alias elimination made the parameter ``p`` of the boundary it is
connected to: Modelica.Fluid's NonCircularPipes). The initialization is over-determined by it
only structurally; as other tools do, it is dropped when it holds (with a warning, at
compile time) and stops the initialization, naming both values, when it does not. Parameters
may change after compilation, so the check runs when the model initializes: a Real equation
holds within a relative TOLERANCE, others exactly.
"""
from __future__ import annotations

import logging

from compiler.symbolic import ONE, REAL, STRING, add, const, function, mul, relation, sub
from compiler.system import AlgorithmBlock, Assertion

LOGGER = logging.getLogger("cosim.compiler")
TOLERANCE = 1e-10


def without_redundant(initial: list, unknowns) -> tuple[list, list]:
    """``(kept, redundant)``: the initial equations that read an unknown, and the others
    (String equations are kept: the matching refuses them as before)."""
    unknowns = set(unknowns)
    kept, redundant = [], []
    for equation in initial:
        reads = equation.lhs.variables() | equation.rhs.variables()
        if reads & unknowns or STRING in (equation.lhs.type, equation.rhs.type):
            kept.append(equation)
        else:
            redundant.append(equation)
    for equation in redundant:
        place = f"{equation.span}: " if equation.span else ""
        LOGGER.warning("%swarning: the initial equation %s reads no unknown of the "
                       "initialization: it is redundant, and checked when the model "
                       "initializes", place, _described(equation))
    return kept, redundant


def check_block(redundant: list) -> AlgorithmBlock:
    """The block that fails the initialization where a redundant equation does not hold."""
    reads = sorted(set().union(*(item.lhs.variables() | item.rhs.variables()
                                 for item in redundant)))
    checks = tuple(Assertion(_holds(item.lhs, item.rhs), _message(item), "error", item.span)
                   for item in redundant)
    return AlgorithmBlock((), tuple(reads), (), checks, redundant[0].span)


def _holds(lhs, rhs):
    if REAL not in (lhs.type, rhs.type):
        return relation("==", lhs, rhs)
    scale = function("max", function("max", function("abs", lhs), function("abs", rhs)), ONE)
    return relation("<=", function("abs", sub(lhs, rhs)), mul(const(TOLERANCE), scale))


def _message(item):
    text = const(f"the initial equation {_described(item)} reads no unknown of the "
                 "initialization, and does not hold: its sides are ")
    return add(add(add(text, function("String", item.lhs)), const(" and ")),
               function("String", item.rhs))


def _described(item) -> str:
    """The equation as written, and as alias elimination left it where that differs."""
    written, now = item.source(), item.text()
    return written if written == now else f"{written} ({now})"
