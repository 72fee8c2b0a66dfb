"""Which equations are discrete, and which variables each equation may be solved for.

Input: an equation and the variable table of a ``Dae``. Output: whether it belongs to the
discrete part (it defines a discrete variable: a when-equation, an equation of non-Real
values, or a discrete Real alone on one side of an equation without continuous unknowns), and
the unknowns a matching may assign to it.
"""
from __future__ import annotations

from compiler.causalize.dae import CONTINUOUS, DISCRETE, DaeEquation
from compiler.causalize.errors import CausalizeError
from compiler.symbolic import REAL, Var


def lone_discrete(equation: DaeEquation, table: dict) -> list[str]:
    """Discrete variables that stand alone on a side of ``equation``."""
    found = []
    for side in (equation.lhs, equation.rhs):
        if type(side) is Var:
            item = table.get(side.name)
            if item is not None and item.kind == DISCRETE and not is_latch(item):
                found.append(side.name)
    return found


def is_latch(item) -> bool:
    """Hidden variables the runtime sets (relation latches, sample flags), not equations."""
    return item.hidden and item.name.startswith(("$rel[", "$sample["))


def is_discrete_equation(equation: DaeEquation, table: dict) -> bool:
    if equation.when_var:
        return True
    if equation.lhs.type != REAL and equation.rhs.type != REAL:
        return True
    if not lone_discrete(equation, table):
        return False
    names = equation.lhs.variables() | equation.rhs.variables()
    return not any(name in table and table[name].kind == CONTINUOUS for name in names)


def matchable(equation: DaeEquation, table: dict, unknowns: dict,
              initial: bool = False) -> list[int]:
    """Indices (in ``unknowns``: name -> index) of the unknowns ``equation`` may define; in
    the ``initial``ization also a discrete unknown alone on one side of an equation that
    reads continuous variables (the initial equation ``y_min = u`` of a sampled y_min)."""
    if is_discrete_equation(equation, table):
        if equation.when_var:  # (initialization may solve it for pre(v) instead)
            names = [equation.when_var] + lone_discrete(equation, table)
            return [unknowns[name] for name in dict.fromkeys(names) if name in unknowns]
        found = [unknowns[name] for name in lone_discrete(equation, table) if name in unknowns]
        if not found:
            _unsolvable(equation, table, unknowns)
        return found
    names = equation.lhs.variables() | equation.rhs.variables()
    found = [unknowns[name] for name in sorted(names)
             if name in unknowns and table[name].kind == CONTINUOUS]
    if initial:
        found += [unknowns[name] for name in lone_discrete(equation, table) if name in unknowns]
    return found


def _unsolvable(equation: DaeEquation, table: dict, unknowns: dict) -> None:
    """A discrete equation must have a discrete unknown alone on one side."""
    names = sorted(name for name in equation.lhs.variables() | equation.rhs.variables()
                   if name in unknowns and table[name].kind == DISCRETE)
    if names:
        item = table[names[0]]
        raise CausalizeError("cannot solve this equation for a variable: one side must be the "
                             f"{item.type} variable {names[0]} alone (write '{names[0]} = ...')",
                             equation.span)
