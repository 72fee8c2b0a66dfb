"""Alias elimination: ``a = b``, ``a = -b`` and ``a = p`` (p a parameter expression) removed.

Input: a ``Dae``. Output: a ``Dae`` with one representative per alias set, its start value
merged from the set (a fixed start wins; two different fixed starts are an error; else the
start of the highest confidence, MLS 8.6.2), the eliminated variables in ``aliases`` and
substituted everywhere, derivatives included.
"""
from __future__ import annotations

from dataclasses import replace

from compiler.causalize.dae import (
    CONSTANT, CONTINUOUS, INPUT, PARAMETER, Dae, DaeAlias, DaeEquation, der_name, with_changes)
from compiler.causalize.errors import CausalizeError
from compiler.causalize.statements import map_algorithm
from compiler.symbolic import REAL, ZERO, Const, Op, Var, affine_form, neg, rename, var
from compiler.symbolic.transform import all_names
from compiler.system import Reinit, Relation

MAX_ROUNDS = 8
_SELECT_RANK = {"never": 0, "avoid": 1, "": 2, "default": 2, "prefer": 3, "always": 4}


def eliminate_aliases(dae: Dae) -> Dae:
    """``dae`` without its alias variables (see the module docstring)."""
    changed = None   # the equations the last substitution changed (None: all are new)
    for _ in range(MAX_ROUNDS):  # substitution can reveal new aliases (x = y - 0)
        table = dae.table()
        differentiated = {item.derivative_of for item in dae.variables if item.derivative_of}
        computed = {name for block in dae.algorithms + dae.initial_algorithms
                    for name in block.outputs}
        sets = _AliasSets(table, differentiated, computed)
        kept = [equation for equation in dae.equations
                if (changed is not None and id(equation) not in changed)
                or not sets.absorb(equation)]
        if not sets.parent and not sets.value:
            break
        dae, changed = _substitute(dae, table, sets, kept)
    return with_changes(dae, aliases=_resolved(dae.aliases))


def _resolved(aliases: tuple) -> tuple:
    """Aliases of aliases (from later rounds) pointed at the final representative."""
    by_name = {item.variable.name: item for item in aliases}
    result = []
    for item in aliases:
        negated, value, target = item.negated, item.value, item.of
        while value is None and target in by_name:
            step = by_name[target]
            if step.value is not None:
                value = neg(step.value) if negated else step.value
            negated, target = negated != step.negated, step.of
        result.append(DaeAlias(item.variable, "", False, value) if value is not None
                      else DaeAlias(item.variable, target, negated))
    return tuple(result)


class _AliasSets:
    """Union-find with signs: ``parent[a] = (b, sign)`` means a = sign * b; a root may have a
    ``value`` (a parameter expression)."""

    def __init__(self, table, differentiated, computed):
        self.table = table
        self.differentiated = differentiated
        self.candidates = {name for name, item in table.items()
                           if item.type == REAL and not item.derivative_of and not item.hidden
                           and item.kind in (CONTINUOUS, INPUT) and name not in computed}
        self.parent: dict[str, tuple[str, int]] = {}
        self.value: dict = {}

    def find(self, name: str) -> tuple[str, int]:
        sign = 1
        path = []
        while name in self.parent:
            path.append(name)
            name, step = self.parent[name]
            sign *= step
        root, total = name, sign
        for item in path:  # path compression
            _, step = self.parent[item]
            self.parent[item] = (root, total)
            total *= step
        return root, sign

    def absorb(self, equation: DaeEquation) -> bool:
        """Whether ``equation`` is an alias equation that joined two sets or fixed a value."""
        if equation.when_var or equation.lhs.type != REAL and equation.rhs.type != REAL:
            return False
        fast = self._simple(equation.lhs, equation.rhs) or self._simple(equation.rhs,
                                                                          equation.lhs)
        if fast is not None:
            return fast
        names = equation.lhs.variables() | equation.rhs.variables()
        unknowns = [name for name in sorted(names) if name in self.candidates]
        read = all_names(equation.lhs) | all_names(equation.rhs)   # pre(v) reads v too
        if not unknowns or len(unknowns) > 2 or \
                any(name not in self.candidates and not self._is_parameter(name) for name in read):
            return False
        form = affine_form(equation.residual, set(unknowns))
        if form is None:
            return False
        coefficients, rest = form
        signs = [_unit_sign(coefficients.get(name)) for name in unknowns]
        if 0 in signs:
            return False
        if len(unknowns) == 2:
            if rest is not ZERO and not (type(rest) is Const and rest.value == 0):
                return False
            return self._join(unknowns[0], unknowns[1], -signs[0] * signs[1])
        return self._fix(unknowns[0], rest if signs[0] < 0 else neg(rest))

    def _simple(self, side, other):
        """The common shapes ``a = b`` and ``a = -b`` decided without an affine form (None
        when the equation has another shape)."""
        candidates = self.candidates
        if type(side) is not Var or side.name not in candidates:
            return None
        sign = 1
        if type(other) is Op and other.op == "neg":
            other, sign = other.args[0], -1
        if type(other) is not Var or other.name not in candidates or other is side:
            return None
        return self._join(side.name, other.name, sign)

    def _is_parameter(self, name: str) -> bool:
        item = self.table.get(name)
        return item is not None and item.kind in (PARAMETER, CONSTANT)

    def _join(self, a: str, b: str, sign: int) -> bool:
        root_a, sign_a = self.find(a)
        root_b, sign_b = self.find(b)
        if root_a == root_b:
            return False
        factor = sign * sign_a * sign_b  # root_a = factor * root_b
        if self._better(root_a, root_b):
            root_a, root_b = root_b, root_a
        if self.table[root_a].kind == INPUT or root_a in self.value and root_b in self.value:
            return False
        if root_a in self.value:
            value = self.value.pop(root_a)
            self.value[root_b] = value if factor > 0 else neg(value)
        self.parent[root_a] = (root_b, factor)
        return True

    def _fix(self, name: str, value) -> bool:
        root, sign = self.find(name)
        if root in self.value or self.table[root].kind == INPUT:
            return False
        self.value[root] = value if sign > 0 else neg(value)
        return True

    def _better(self, a: str, b: str) -> bool:
        """Whether ``a`` should represent its set rather than ``b``."""
        return _rank(self.table[a], a in self.differentiated) < \
            _rank(self.table[b], b in self.differentiated)


def _rank(item, differentiated: bool) -> tuple:
    """Sort key of representatives, best first: inputs, differentiated variables, fixed
    start values, start values, stateSelect, then short names high in the hierarchy."""
    return (item.kind != INPUT, not differentiated, not (item.fixed and item.start is not None),
            item.start is None, -_SELECT_RANK.get(item.state_select, 2), item.name.count("."),
            len(item.name), item.name)


def _unit_sign(coefficient) -> int:
    if type(coefficient) is Const and coefficient.value in (1, -1):
        return int(coefficient.value)
    return 0


def _substitute(dae: Dae, table: dict, sets: _AliasSets, kept: list) -> tuple[Dae, set]:
    """``dae`` with the alias sets substituted, and the ids of the equations that changed."""
    replacements: dict = {}
    aliases = []
    variables = dict(table)
    for name in list(sets.parent) + [name for name in sets.value if name not in sets.parent]:
        root, sign = sets.find(name)
        member = table[name]
        value = sets.value.get(root)
        if value is not None:
            value = value if sign > 0 else neg(value)
            replacements[name] = value
            aliases.append(DaeAlias(member, value=value))
        else:
            replacements[name] = var(root) if sign > 0 else neg(var(root))
            aliases.append(DaeAlias(member, root, sign < 0))
            variables[root] = _merged(variables[root], member, sign)
        del variables[name]
        _move_derivative(name, root, sign, value, table, variables, replacements)
    memo: dict = {}
    subst = lambda expr: None if expr is None else rename(expr, replacements, memo)  # noqa: E731
    equations = tuple(item if _untouched(item, replacements) else
                      replace(item, lhs=subst(item.lhs), rhs=subst(item.rhs),
                              initial_rhs=subst(item.initial_rhs)) for item in kept)
    changed = {id(item) for item in equations} - {id(item) for item in kept}
    initial = tuple(replace(item, lhs=subst(item.lhs), rhs=subst(item.rhs))
                    for item in dae.initial_equations)
    relations = tuple(replace(item, lhs=subst(item.lhs), rhs=subst(item.rhs),
                              distance=subst(item.distance), instant=subst(item.instant))
                      for item in dae.relations)
    clauses = tuple(_clause(item, replacements, subst) for item in dae.clauses)
    delays = tuple(replace(item, expr=subst(item.expr), delay_time=subst(item.delay_time),
                           delay_max=subst(item.delay_max)) for item in dae.delays)
    spatials = tuple(replace(item, in0=subst(item.in0), in1=subst(item.in1), x=subst(item.x),
                             positive=subst(item.positive),
                             points=tuple(map(subst, item.points)),
                             values=tuple(map(subst, item.values))) for item in dae.spatials)
    asserts = tuple(type(item)(subst(item.condition), subst(item.message), item.level,
                               item.span) for item in dae.asserts)
    algorithms = tuple(map_algorithm(block, subst) for block in dae.algorithms)
    initial_algorithms = tuple(map_algorithm(block, subst) for block in dae.initial_algorithms)
    return with_changes(dae, variables=tuple(variables.values()), equations=equations,
                        initial_equations=initial, relations=relations, clauses=clauses,
                        delays=delays, spatials=spatials,
                        asserts=asserts, aliases=dae.aliases + tuple(aliases),
                        algorithms=algorithms, initial_algorithms=initial_algorithms), changed


def _untouched(item, replacements: dict) -> bool:
    """Whether no variable of ``item`` is replaced (pre values included)."""
    for expr in (item.lhs, item.rhs, item.initial_rhs):
        if expr is not None and any(name in replacements for name in all_names(expr)):
            return False
    return True


def _merged(root, member, sign: int):
    """``root`` with the start value, fixedness and stateSelect of its alias ``member``."""
    changes = {}
    start = member.start if member.start is None or sign > 0 else neg(member.start)
    if member.fixed and member.start is not None:
        if root.fixed and root.start is not None and root.start is not start:
            raise CausalizeError(
                f"'{member.name}' and '{root.name}' are the same variable (by alias "
                f"equations) with different fixed start values ({member.start} and "
                f"{root.start})", member.span)
        changes.update(start=start, fixed=True)
    elif start is not None and not (root.fixed and root.start is not None) and (
            root.start is None or _more_confident(member, root)):
        changes.update(start=start, start_confidence=member.start_confidence)
    ranks = {_SELECT_RANK.get(item.state_select, 2): item.state_select for item in (root, member)}
    if len(ranks) > 1:
        # never ("do not use as state at all", MLS 4.9.7) binds the whole set only when every
        # member says so: where another member may be a state, the set may (Rotor1D's own phi
        # with its inner rotor's never-phi, one variable by alias equations)
        ranks.pop(_SELECT_RANK["never"], None)
    strongest = ranks[max(ranks) if max(ranks) > 2 else min(ranks)]
    if strongest != root.state_select:
        changes["state_select"] = strongest
    return replace(root, **changes) if changes else root


def _more_confident(member, root) -> bool:
    """Whether ``member``'s start value ranks before ``root``'s (MLS 8.6.2: set at a higher
    level, or tied there and a parameter given at a higher level); unknown ranks keep
    ``root``'s."""
    return bool(member.start_confidence) and bool(root.start_confidence) and \
        member.start_confidence < root.start_confidence


def _move_derivative(name, root, sign, value, table, variables, replacements) -> None:
    derivative = der_name(name)
    if derivative not in table:
        return
    del variables[derivative]
    if value is not None:
        replacements[derivative] = ZERO
        return
    root_derivative = der_name(root)
    if root_derivative not in variables:
        variables[root_derivative] = replace(table[derivative], name=root_derivative,
                                             derivative_of=root)
    replacements[derivative] = var(root_derivative) if sign > 0 else neg(var(root_derivative))


def _clause(clause, replacements, subst):
    reinits = []
    for item in clause.reinits:
        target = replacements.get(item.state, var(item.state))
        negated = type(target) is Op and target.op == "neg"
        if negated:
            target = target.args[0]
        if type(target) is not Var:
            raise CausalizeError(f"reinit({item.state}, ...): '{item.state}' is fixed to "
                                 f"{target} by the equations, so it cannot be reinitialized",
                                 item.span)
        value = subst(item.value)
        reinits.append(Reinit(target.name, neg(value) if negated else value, item.span))
    actions = tuple(replace(item, condition=subst(item.condition), message=subst(item.message))
                    for item in clause.actions)
    return replace(clause, reinits=tuple(reinits), actions=actions)
