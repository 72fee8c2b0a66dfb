"""When-equations -> when-clauses and conditional assignments (part of ``lower``).

Input: a ``flat.WhenEquation`` and the lowering state. Output: one ``WhenClause`` per branch,
a hidden Boolean ``$when[k]`` with its defining equation per condition element, and for each
assigned variable v one equation ``v = if active_1 then e_1 elseif ... else pre(v)``.
"""
from __future__ import annotations

from compiler import flat
from compiler.causalize.dae import CONTINUOUS, DaeEquation
from compiler.causalize.errors import CausalizeError
from compiler.symbolic import BOOLEAN, FALSE, TRUE, Op, Var, and_, if_, not_, or_, pre_var, var
from compiler.system import Reinit, Termination, WhenClause


def lower_when(lowering, item: flat.WhenEquation) -> None:
    """Add the clauses, hidden variables and equations of ``item`` to ``lowering``."""
    branches = WhenBranches(lowering, item.span)
    assigned: dict[str, list] = {}
    for condition, body in item.branches:
        active, initial_active, names = branches.next(condition)
        body_result = _Body(lowering)
        body_result.run(body, None)
        lowering.clauses.append(WhenClause(
            len(lowering.clauses), names, active, initial_active,
            tuple(body_result.values), tuple(body_result.reinits),
            tuple(body_result.actions), item.span))
        for name, (value, span, origin) in body_result.values.items():
            assigned.setdefault(name, []).append((active, initial_active, value, span, origin))
    for name, entries in assigned.items():
        target = var(name, lowering.types[name])
        rhs = initial_rhs = pre_var(target)
        for active, initial_active, value, _, _ in reversed(entries):
            rhs = if_(active, value, rhs)
            initial_rhs = if_(initial_active, value, initial_rhs)
        lowering.equations.append(DaeEquation(target, rhs, entries[0][3], when_var=name,
                                              initial_rhs=initial_rhs, origin=entries[0][4]))


class WhenBranches:
    """The conditions of the branches of one when-equation or when-statement, in order:
    ``next(condition)`` gives ``(active, initial_active, condition variables)``, where a
    branch is active only if no earlier branch fires (elsewhen priority)."""

    def __init__(self, lowering, span):
        self.lowering = lowering
        self.span = span
        self.earlier = FALSE
        self.earlier_initial = FALSE

    def next(self, condition) -> tuple:
        lowering = self.lowering
        lowering.span = self.span
        elements = condition.elements if type(condition) is flat.ArrayExpr else (condition,)
        names, fires, initial_fires = [], FALSE, FALSE
        for element in elements:
            expr = lowering.expr(element, True)
            node = _condition_variable(lowering, expr, self.span)
            names.append(node.name)
            fires = or_(fires, and_(node, not_(pre_var(node))))
            # active at initialization only in the forms ``when initial()`` and
            # ``when {..., initial(), ...}``: not ``foo(initial())`` (MLS 8.6)
            if type(expr) is Op and expr.op == "initial":
                initial_fires = or_(initial_fires, expr)
        active = and_(fires, not_(self.earlier))
        initial_active = and_(initial_fires, not_(self.earlier_initial))
        self.earlier = or_(self.earlier, fires)
        self.earlier_initial = or_(self.earlier_initial, initial_fires)
        return active, initial_active, tuple(names)


def _condition_variable(lowering, expr, span) -> Var:
    """The hidden Boolean holding a condition (one per distinct condition expression)."""
    conditions = lowering.when_conditions
    name = conditions.get(expr)
    if name is None:
        name = f"$when[{len(conditions) + 1}]"
        conditions[expr] = name
        lowering.hidden_variable(name)
        lowering.equations.append(DaeEquation(var(name, BOOLEAN), expr, span))
    return var(name, BOOLEAN)


class _Body:
    """The assignments, reinits and actions of one when-branch (if-equations folded in)."""

    def __init__(self, lowering):
        self.lowering = lowering
        self.values: dict[str, tuple] = {}
        self.reinits: list[Reinit] = []
        self.actions: list = []

    def run(self, body, guard) -> None:
        lowering = self.lowering
        for item in body:
            lowering.span = item.span
            kind = type(item)
            if kind is flat.Equation:
                for equation in lowering.equality(item, events=False):
                    self._assign(equation)
            elif kind is flat.IfEquation:
                self._if(item, guard)
            elif kind is flat.Reinit:
                self._reinit(item, guard)
            elif kind is flat.Assert:
                self.actions.append(lowering.assertion(item, guard))
            elif kind is flat.Terminate:
                self.actions.append(Termination(lowering.expr(item.message, False), guard,
                                                item.span))
            elif kind is flat.CallStatement:
                raise CausalizeError(f"a call of {item.call.name}() for no results in a "
                                     "when-equation is not supported", item.span)
            else:
                raise CausalizeError("a when-equation cannot contain a when-equation",
                                     item.span)

    def _assign(self, equation: DaeEquation) -> None:
        if type(equation.lhs) is not Var:
            raise CausalizeError("the left side of an equation in a when-equation must be a "
                                 "variable", equation.span)
        name = equation.lhs.name
        if name in self.values:
            raise CausalizeError(f"'{name}' is assigned twice in one when-branch",
                                 equation.span)
        self.values[name] = (equation.rhs, equation.span, equation.origin)

    def _reinit(self, item: flat.Reinit, guard) -> None:
        name = item.var.name
        known = self.lowering.variables.get(name)
        if known is None or known.kind != CONTINUOUS:
            raise CausalizeError(f"reinit({name}, ...): '{name}' is not a continuous Real "
                                 "variable", item.span)
        value = self.lowering.expr(item.value, False)
        if guard is not None:
            value = if_(guard, value, pre_var(var(name)))
        self.reinits.append(Reinit(name, value, item.span))

    def _if(self, item: flat.IfEquation, guard) -> None:
        lowering = self.lowering
        conditions = [lowering.expr(condition, False) for condition, _ in item.branches]
        branches = []
        earlier = FALSE
        for condition, body in zip(conditions + [None],
                                   [body for _, body in item.branches] + [item.else_]):
            local = and_(TRUE if condition is None else condition, not_(earlier))
            branch_guard = local if guard is None else and_(guard, local)
            inner = _Body(lowering)
            inner.run(body, branch_guard)
            self.reinits.extend(inner.reinits)
            self.actions.extend(inner.actions)
            branches.append(inner.values)
            if condition is not None:
                earlier = or_(earlier, condition)
        names = [name for values in branches for name in values]
        for name in dict.fromkeys(names):
            kept = (pre_var(var(name, lowering.types[name])), None, None)
            value = branches[-1].get(name, kept)[0]
            for condition, values in zip(reversed(conditions), reversed(branches[:-1])):
                value = if_(condition, values.get(name, kept)[0], value)
            span = next(values[name][1] for values in branches if name in values)
            self._assign(DaeEquation(var(name, lowering.types[name]), value, span))
