"""Dummy derivatives (Mattsson-Soederlind): which variables stay states after Pantelides.

Input: the Pantelides problem (equations with their derivative chains, variables with theirs).
Output: the ``Dae`` with the states chosen. Level by level, from the most differentiated
constraints down, a column is chosen for each constraint row by Gaussian elimination on the
Jacobian evaluated at the start values: stateSelect first (never, avoid, default, prefer,
always), then variables without a fixed start, then well-conditioned pivots. The chosen
columns' derivatives at that level become dummy (algebraic) variables.
"""
from __future__ import annotations

import math
import zlib

import networkx as nx

from compiler.causalize.dae import Dae, with_changes
from compiler.causalize.errors import CausalizeError
from compiler.causalize.start import start_environment
from compiler.errors import listed
from compiler.symbolic import NotDifferentiable, Var, diff
from compiler.symbolic.evaluate import Environment, EvaluationError, evaluate

_SELECT_RANK = {"never": 0, "avoid": 1, "": 2, "default": 2, "prefer": 3, "always": 4}
PIVOT_THRESHOLD = 0.1   # a pivot within this factor of the row's largest entry is acceptable
SINGULAR = 1e-12
GENERIC_SHIFT = 0.1     # how far from its start value a generic point moves each unknown


def select_states(problem) -> Dae:
    """The ``Dae`` of ``problem`` with dummy derivatives chosen and states set.

    The choice is made at the start values. Where a constraint's Jacobian is singular there
    (a flux ``Phi = 0`` at the start, where a reluctance's derivative vanishes), it is made
    at a generic point near them instead: the structure admits it, and the start is one
    point of a trajectory that soon leaves it (as DAEdalus chooses numerically, but
    refusing only a choice that no point allows)."""
    dae = problem.dae
    env = start_environment(with_changes(dae, variables=dae.variables +
                                         tuple(problem.new_variables)))
    chosen = _at_start_or_generic(problem, env, by_columns=False)
    if not respects_state_select(problem, chosen.states):
        # row by row, an early row may take the column of another variable that a later row
        # then needs, leaving it only an always-variable (a closed kinematic loop); column
        # by column in order of preference takes an always-column only where no set of
        # others spans the constraints
        try:
            by_columns = _at_start_or_generic(problem, env, by_columns=True)
        except SingularAtStart:
            by_columns = None
        if by_columns is not None and respects_state_select(problem, by_columns.states):
            chosen = by_columns
    check_state_select(problem, list(chosen.states))
    return chosen


def _at_start_or_generic(problem, env, by_columns: bool) -> Dae:
    try:
        return _select_states(problem, env, by_columns)
    except SingularAtStart as error:
        try:
            return _select_states(problem, _generic(env, problem), by_columns)
        except SingularAtStart:
            raise error from None


class SingularAtStart(CausalizeError):
    """A constraint's Jacobian is singular at the point where the states are chosen."""


def _generic(env, problem):
    """``env`` with the continuous unknowns moved off their start values, each by its own
    deterministic amount (parameters keep theirs)."""
    values = dict(env.values)
    for name in problem.names:
        value = values.get(name)
        if type(value) is float and math.isfinite(value):
            shift = 0.5 + zlib.crc32(name.encode()) / 2 ** 32  # in [0.5, 1.5)
            values[name] = value + GENERIC_SHIFT * shift * (1.0 + abs(value))
    return Environment(values, env.pre_values if env.pre_values is not env.values else None,
                       env.initial, env.terminal, env.functions)


def _select_states(problem, env, by_columns: bool = False) -> Dae:
    dae = problem.dae
    tops, levels = _equation_chains(problem)
    families = _variable_chains(problem)
    chosen: list[int] = []          # base variable indices, in order of choice
    pivots: list[tuple[dict, int]] = []
    dummies: set[str] = set()
    memo: dict = {}
    for level in range(max(levels.values()), 0, -1):
        if by_columns:
            rows = {k: _row(problem, tops[k], families, env, memo)
                    for k, c in levels.items() if c == level}
            for row in rows.values():
                _eliminate(row, pivots)
            for row, column in _pivots_by_columns(problem, rows, families, chosen, level):
                pivots.append((row, column))
                chosen.append(column)
        else:
            for k in [k for k, c in levels.items() if c == level]:
                row = _row(problem, tops[k], families, env, memo)
                _eliminate(row, pivots)
                column = _pivot(problem, row, families, chosen, level, k)
                pivots.append((row, column))
                chosen.append(column)
        for j in chosen:
            chain = families[j]
            dummies.add(problem.names[chain[len(chain) - level]])
    states = [problem.names[j] for j, d in enumerate(problem.derivative)
              if d >= 0 and problem.names[d] not in dummies]
    equations = tuple(problem.discrete_equations) + tuple(problem.equations)
    return with_changes(dae, variables=dae.variables + tuple(problem.new_variables),
                        equations=equations, states=tuple(states))


def _equation_chains(problem):
    """For each equation that Pantelides differentiated: its last derivative and the count."""
    derived = {d for d in problem.derivative_eq if d >= 0}
    tops, levels = {}, {}
    for k in range(len(problem.equations)):
        if k in derived or problem.derivative_eq[k] < 0:
            continue
        top, count = k, 0
        while problem.derivative_eq[top] >= 0:
            top, count = problem.derivative_eq[top], count + 1
        tops[k], levels[k] = top, count
    return tops, levels


def _variable_chains(problem) -> dict[int, list[int]]:
    """For each base variable with derivatives: [x, der(x), der(der(x)), ...] as indices."""
    families = {}
    for j, name in enumerate(problem.names):
        if problem.table[name].derivative_of or problem.derivative[j] < 0:
            continue
        chain = [j]
        while problem.derivative[chain[-1]] >= 0:
            chain.append(problem.derivative[chain[-1]])
        families[j] = chain
    return families


def _row(problem, k: int, families, env, memo) -> dict[int, float]:
    """d equation k / d (highest derivative of each family), at the start values."""
    equation = problem.equations[k]
    residual = equation.residual
    names = residual.variables()
    row = {}
    for j, chain in families.items():
        top = problem.names[chain[-1]]
        if top not in names:
            continue
        try:
            value = float(evaluate(diff(residual, top, memo.setdefault(top, {}),
                                        problem.calls), env))
        except (EvaluationError, TypeError, ValueError, NotDifferentiable):
            value = math.nan
        row[j] = 1.0 if math.isnan(value) else value
    return row


def _eliminate(row: dict, pivots: list) -> None:
    for pivot_row, column in pivots:
        factor = row.get(column)
        if not factor:
            continue
        factor /= pivot_row[column]
        for j, value in pivot_row.items():
            row[j] = row.get(j, 0.0) - factor * value
        row.pop(column, None)


def _pivot(problem, row: dict, families, chosen: list, level: int, k: int) -> int:
    taken = set(chosen)
    candidates = {j: abs(v) for j, v in row.items()
                  if j not in taken and len(families[j]) - 1 >= level and abs(v) > SINGULAR}
    if not candidates:
        equation = problem.equations[k]
        names = [problem.names[j] for j in families
                 if j not in taken and len(families[j]) - 1 >= level]

        def message(names_text):
            return ("index reduction: at the start values, this constraint leaves no variable "
                    f"to solve for among {names_text or 'the differentiated variables'} (its "
                    "Jacobian is singular there; give better start values): "
                    f"{equation.source()}")
        raise SingularAtStart(message(listed(names)), equation.span, message(", ".join(names)))
    largest = max(candidates.values())

    def preference(j):
        item = problem.table[problem.names[j]]
        return (_SELECT_RANK.get(item.state_select, 2), item.fixed and item.start is not None,
                -(len(families[j]) - level), -candidates[j], problem.names[j])
    eligible = [j for j, size in candidates.items() if size >= PIVOT_THRESHOLD * largest]
    return min(eligible, key=preference)


def _pivots_by_columns(problem, rows: dict, families, chosen: list, level: int) -> list:
    """(row, column) pivots of one level's constraint ``rows`` (k -> row, eliminated by the
    higher levels' pivots): Gaussian elimination column by column in order of preference
    (the most wanted dummy first, as ``_pivot`` ranks them), each column pivoting on its
    largest remaining entry. A column whose remaining entries have fallen below
    PIVOT_THRESHOLD of its largest entry depends on the columns taken (nearly): it is
    passed over, and taken in a second pass only if the rows need it."""
    taken = set(chosen)
    columns = sorted({j for row in rows.values() for j in row
                      if j not in taken and len(families[j]) - 1 >= level},
                     key=lambda j: _preference(problem, families, level, j))
    largest = {j: max(abs(row.get(j, 0.0)) for row in rows.values()) for j in columns}
    always = {j for j in columns if problem.table[problem.names[j]].state_select == "always"}
    remaining = dict(rows)
    pivots = []
    for threshold, last in ((PIVOT_THRESHOLD, always), (0.0, always), (0.0, set())):
        for j in columns:
            if not remaining or j in taken or j in last:
                continue
            k = max(remaining, key=lambda k: (abs(remaining[k].get(j, 0.0)), -k))
            size = abs(remaining[k].get(j, 0.0))
            if size <= SINGULAR or size < threshold * largest[j]:
                continue
            row = remaining.pop(k)
            for other in remaining.values():
                _eliminate(other, [(row, j)])
            pivots.append((row, j))
            taken.add(j)
    if remaining:
        k = min(remaining)
        _pivot(problem, {}, families, chosen + [j for _, j in pivots], level, k)  # raises
    return pivots


def _preference(problem, families, level: int, j: int) -> tuple:
    """Sort key of dummy candidates, the most wanted first: stateSelect (never first), no
    fixed start value, derivatives to spare."""
    item = problem.table[problem.names[j]]
    return (_SELECT_RANK.get(item.state_select, 2), item.fixed and item.start is not None,
            -(len(families[j]) - level), problem.names[j])


def _named_states(problem, states) -> set[str]:
    """The states and the variables equal to one of them by equations ``v = u`` (and the
    derivatives of variables so equal): with ``w = der(phi)`` and no ``der(w)`` in the
    model, index reduction keeps phi and der(phi) as states, and w is der(phi) by name; in
    MultiBody's RollingWheelSet ``der_theta1 = der(theta1)`` is a joint's w through
    ``theta1 = joint.phi``. MLS 4.9.7's "use it as a state" holds through such names: the
    same values, integrated as the same state."""
    index = {name: j for j, name in enumerate(problem.names)}
    graph = nx.Graph()
    graph.add_nodes_from(range(len(problem.names)))
    graph.add_edges_from((index[item.lhs.name], index[item.rhs.name])
                         for item in problem.equations
                         if not item.when_var and type(item.lhs) is Var and type(item.rhs) is Var
                         and item.lhs.name in index and item.rhs.name in index)
    while True:     # variables equal have equal derivatives
        components = list(nx.connected_components(graph))
        for component in components:
            derivatives = [problem.derivative[j] for j in component if problem.derivative[j] >= 0]
            graph.add_edges_from(zip(derivatives, derivatives[1:]))
        if nx.number_connected_components(graph) == len(components):
            break
    state_indices = {index[name] for name in states if name in index}
    return set(states) | {problem.names[j] for component in components
                          if component & state_indices for j in component}


def _unkept_always(problem, states) -> list[str]:
    """The stateSelect = always variables that are neither a state nor name one."""
    state_set = set(states)
    missing = [name for name in problem.names
               if problem.table[name].state_select == "always" and name not in state_set]
    if not missing:
        return []
    named = _named_states(problem, states)
    return [name for name in missing if name not in named]


def respects_state_select(problem, states) -> bool:
    state_set = set(states)
    return not _unkept_always(problem, states) and not any(
        problem.table[name].state_select == "never" and name in state_set
        for name in problem.names)


def check_state_select(problem, states: list[str]) -> None:
    state_set, unkept = set(states), set(_unkept_always(problem, states))
    for name in problem.names:
        item = problem.table[name]
        if name in unkept:
            raise CausalizeError(f"'{name}' has stateSelect = always but index reduction "
                                 f"cannot keep it as a state (the states are "
                                 f"{', '.join(states)})", item.span)
        if item.state_select == "never" and name in state_set:
            raise CausalizeError(f"'{name}' has stateSelect = never but must be a state "
                                 "(no other variable can take its place)", item.span)
