"""Parameters whose values are fixed for good, out of the structure of the equations.

Input: the variables of a ``Dae`` being built (``DaeVariable``s with their flat declarations).
Output: the Boolean parameters, and the Real and Integer ones whose value is 0, that cannot
change after compilation (constants, and parameters that are final, ``Evaluate = true``,
protected or structural, whose bindings read only such values), each with the constant that
the equations read instead.

Why: a term multiplied by such a zero, or the branch of an if-expression such a Boolean does
not take, is no term at all, and the structure must not see it. A transistor whose junction
capacitances are ``final C = CapVal`` with ``CapVal = 0`` (``Evaluate = true``) has no
derivatives in its current equations, and neither has a quasi-static inductor
(``v = if quasiStatic then 0 else L*der(i)``, ``final quasiStatic = true``): with the terms
kept, their voltages and currents were states whose derivatives nothing determines.
"""
from __future__ import annotations

from dataclasses import fields, is_dataclass

from compiler.causalize.dae import CONSTANT, PARAMETER, Dae, with_changes
from compiler.symbolic import BOOLEAN, FALSE, INTEGER, REAL, TRUE, Expr, const
from compiler.symbolic.evaluate import Environment, EvaluationError, evaluate
from compiler.symbolic.transform import all_names


def fixed_values(variables: dict) -> dict:
    """``{name: constant}`` for the parameters of ``variables`` (name -> ``DaeVariable``)
    whose values count for good (see the module docstring)."""
    values: dict = {}
    candidates = [item for item in variables.values()
                  if item.kind in (PARAMETER, CONSTANT) and item.fixed
                  and _fixed_by_declaration(item) and item.binding is not None]
    changed = True
    while changed:  # bindings read parameters declared before or after them
        changed = False
        for item in candidates:
            if item.name in values or not item.binding.variables() <= values.keys():
                continue
            try:
                values[item.name] = evaluate(item.binding, Environment(values))
            except (EvaluationError, ArithmeticError, TypeError, ValueError):
                continue  # not known at compile time: read as a parameter
            changed = True
    fixed = {}
    for name, value in values.items():
        type_ = variables[name].type
        if type_ == BOOLEAN and type(value) is bool:
            fixed[name] = TRUE if value else FALSE
        elif type_ in (REAL, INTEGER) and type(value) in (int, float) and value == 0:
            fixed[name] = const(0, type_)
    return fixed


def _fixed_by_declaration(item) -> bool:
    declaration = item.declaration
    return item.kind == CONSTANT or declaration is not None and (
        declaration.final or declaration.evaluate or declaration.protected
        or declaration.structural)


def drop_vanished_derivatives(dae: Dae) -> Dae:
    """``dae`` without the derivative variables that nothing reads any more: a term
    ``C * der(v)`` that a fixed value or an alias of 0 removed leaves ``der(v)`` behind, and
    ``v`` is then no state."""
    mentioned: set = set()
    memo: dict = {}
    for part in (dae.equations, dae.initial_equations, dae.algorithms, dae.initial_algorithms,
                 dae.relations, dae.clauses, dae.asserts, dae.aliases):
        _collect(part, mentioned, memo)
    vanished = {item.name for item in dae.variables
                if item.derivative_of and item.name not in mentioned}
    if not vanished:
        return dae
    return with_changes(dae, variables=tuple(item for item in dae.variables
                                             if item.name not in vanished))


def _collect(value, names: set, memo: dict) -> None:
    """The names of the variables that the expressions inside ``value`` read (tuples and
    nodes of any kind walked through)."""
    if isinstance(value, Expr):
        names.update(all_names(value, memo))
    elif type(value) is tuple:
        for item in value:
            _collect(item, names, memo)
    elif is_dataclass(value) and not isinstance(value, type):
        for item in fields(value):
            if item.compare:  # declarations and origins are not read
                _collect(getattr(value, item.name), names, memo)
    elif type(value) is str and value.startswith("der("):
        names.add(value)  # an algorithm's inputs and outputs are names
