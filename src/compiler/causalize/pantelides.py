"""Index reduction: Pantelides' algorithm, then dummy derivatives (``dummy``) choose states.

Input: a ``Dae`` after alias elimination. Output: a ``Dae`` whose equations include the
differentiated ones, whose variables include the new derivatives, and whose ``states`` are
the chosen states (for an index-1 model: every variable that appears differentiated).
A structurally singular continuous part is reported here, by equations and unknowns.
"""
from __future__ import annotations

from dataclasses import replace

from compiler.causalize.dae import (
    CONTINUOUS, Dae, DaeEquation, DaeVariable, der_name, with_changes)
from compiler.causalize.derivatives import Generated, call_rule
from compiler.causalize.dummy import check_state_select, select_states
from compiler.causalize.errors import CausalizeError
from compiler.causalize.matching import maximum_matching, singular_error
from compiler.causalize.partition import is_discrete_equation
from compiler.symbolic import NotDifferentiable, REAL, time_derivative, var

MAX_DIFFERENTIATIONS = 12


def reduce_index(dae: Dae) -> Dae:
    """``dae`` of index at most 1 with its states chosen (see the module docstring)."""
    problem = _Problem(dae)
    problem.match()
    if all(j >= 0 for j in problem.unknown_of):
        states = [problem.names[j] for j in problem.state_indices()]
        check_state_select(problem, states)
        return with_changes(dae, states=tuple(states))
    problem.check_structure()
    for k in range(len(problem.equations)):
        if problem.unknown_of[k] < 0 and problem.derivative_eq[k] < 0:
            problem.pantelides(k)
    if not problem.generated.created:
        return select_states(problem)
    # the differentiated equations call derivative functions generated from algorithms
    # (choosing the states only evaluates derivatives: a function it would generate is not
    # called by the equations, and its value is unknown there, as without a derivative)
    problem.dae = with_changes(dae, flat=replace(
        dae.flat, functions=problem.generated.with_functions(dae.flat.functions)))
    return select_states(problem)


class _Problem:
    """The continuous equations and variables as integer-indexed structures."""

    def __init__(self, dae: Dae):
        self.dae = dae
        table = dae.table()
        self.table = table
        self.discrete_equations = []
        self.equations: list[DaeEquation] = []
        for equation in dae.equations:
            (self.discrete_equations if is_discrete_equation(equation, table)
             else self.equations).append(equation)
        self.computed = dae.algorithm_outputs()
        self.names = [item.name for item in dae.variables
                      if item.kind == CONTINUOUS and item.name not in self.computed]
        self.index = {name: j for j, name in enumerate(self.names)}
        self.derivative = [-1] * len(self.names)     # j -> index of der(j), -1 if none
        for item in dae.variables:
            if item.name in self.index and item.derivative_of in self.index:
                self.derivative[self.index[item.derivative_of]] = self.index[item.name]
        self.incidence = [self._incidence(equation) for equation in self.equations]
        self.derivative_eq = [-1] * len(self.equations)  # k -> its derivative equation
        self.new_variables: list[DaeVariable] = []
        self.memo: dict = {}
        self.generated = Generated(dae.flat.functions if dae.flat is not None else ())
        self.calls = call_rule(tuple(self.generated.functions.values()), self.generated)

    def _incidence(self, equation: DaeEquation) -> list[int]:
        index = self.index
        return [index[name] for name in sorted(equation.lhs.variables() |
                                               equation.rhs.variables()) if name in index]

    def state_indices(self) -> list[int]:
        return [j for j, d in enumerate(self.derivative) if d >= 0]

    # -------------------------------------------------------------------------- matching
    def match(self) -> None:
        highest = [[j for j in row if self.derivative[j] < 0] for row in self.incidence]
        self.unknown_of, self.equation_of = maximum_matching(highest, len(self.names))

    def check_structure(self) -> None:
        """Pantelides terminates iff equations match variable families (x, der(x), ...)."""
        family = [self.index[self.base(name)] for name in self.names]
        roots = sorted(set(family))
        position = {root: n for n, root in enumerate(roots)}
        rows = [sorted({position[family[j]] for j in row}) for row in self.incidence]
        unknown_of, equation_of = maximum_matching(rows, len(roots))
        if any(j < 0 for j in unknown_of) or any(k < 0 for k in equation_of):
            raise singular_error(rows, unknown_of, equation_of, self.describe,
                                 [self.names[root] for root in roots],
                                 [self.table[self.names[root]].span for root in roots])

    def base(self, name: str) -> str:
        """The variable whose derivative (of some order) ``name`` is."""
        while self.table[name].derivative_of:
            name = self.table[name].derivative_of
        return name

    def describe(self, k: int):
        equation = self.equations[k]
        return equation.span, equation.source()

    # ------------------------------------------------------------------------ pantelides
    def pantelides(self, k: int) -> None:
        """Differentiate until equation ``k`` (or its latest derivative) is matched."""
        for _ in range(MAX_DIFFERENTIATIONS):
            colored_equations: list[int] = []
            colored_variables: list[int] = []
            if self._augment(k, colored_equations, colored_variables):
                return
            for j in colored_variables:
                self._differentiate_variable(j)
            for e in colored_equations:
                self._differentiate_equation(e)
            for j in colored_variables:
                self.equation_of[self.derivative[j]] = self.derivative_eq[self.equation_of[j]]
                self.unknown_of[self.derivative_eq[self.equation_of[j]]] = self.derivative[j]
            k = self.derivative_eq[k]
        raise CausalizeError(f"index reduction differentiated this equation more than "
                             f"{MAX_DIFFERENTIATIONS} times: {self.equations[k].source()}",
                             self.equations[k].span)

    def _augment(self, root: int, colored_equations: list, colored_variables: list) -> bool:
        """Search an augmenting path from equation ``root`` among the highest derivatives;
        on failure the colored lists hold everything the search reached."""
        derivative, equation_of = self.derivative, self.equation_of
        seen_equations, seen_variables = {root}, set()
        colored_equations.append(root)
        came_from: dict[int, tuple[int, int]] = {}
        stack = [root]
        while stack:
            k = stack.pop()
            for j in self.incidence[k]:
                if derivative[j] < 0 and equation_of[j] < 0:
                    self._flip(k, j, came_from)
                    return True
            for j in self.incidence[k]:
                if derivative[j] >= 0 or j in seen_variables:
                    continue
                seen_variables.add(j)
                colored_variables.append(j)
                other = equation_of[j]
                if other not in seen_equations:
                    seen_equations.add(other)
                    colored_equations.append(other)
                    came_from[other] = (k, j)
                    stack.append(other)
        return False

    def _flip(self, k: int, j: int, came_from: dict) -> None:
        while True:
            self.equation_of[j] = k
            self.unknown_of[k] = j
            step = came_from.get(k)
            if step is None:
                return
            k, j = step

    def _differentiate_variable(self, j: int) -> None:
        if self.derivative[j] >= 0:
            return
        name = der_name(self.names[j])
        item = DaeVariable(name, REAL, CONTINUOUS, derivative_of=self.names[j],
                           span=self.table[self.names[j]].span)
        self.table[name] = item
        self.new_variables.append(item)
        self.index[name] = len(self.names)
        self.names.append(name)
        self.derivative[j] = len(self.derivative)
        self.derivative.append(-1)
        self.equation_of.append(-1)

    def time_derivative_of(self, node):
        j = self.index.get(node.name)
        if j is None:
            item = self.table.get(node.name)
            if item is not None and item.kind == "input":
                raise CausalizeError(f"index reduction needs der({node.name}) of an input")
            if node.name in self.computed:
                raise CausalizeError(f"index reduction needs der({node.name}), but an "
                                     "algorithm section computes it (algorithms are not "
                                     "differentiated)")
            return None
        if self.derivative[j] < 0:
            self._differentiate_variable(j)
        return var(self.names[self.derivative[j]])

    def _differentiate_equation(self, k: int) -> None:
        equation = self.equations[k]
        try:
            lhs = time_derivative(equation.lhs, self.time_derivative_of, self.memo, self.calls)
            rhs = time_derivative(equation.rhs, self.time_derivative_of, self.memo, self.calls)
        except NotDifferentiable as error:
            raise CausalizeError(f"index reduction must differentiate this equation, but "
                                 f"{error} has no derivative: "
                                 f"{equation.source()}", equation.span) from None
        except CausalizeError as error:
            raise CausalizeError(f"{error.message}: {equation.source()}",
                                 equation.span) from None
        new = replace(equation, lhs=lhs, rhs=rhs, differentiated=equation.differentiated + 1)
        self.derivative_eq[k] = len(self.equations)
        self.equations.append(new)
        self.incidence.append(self._incidence(new))
        self.derivative_eq.append(-1)
        self.unknown_of.append(-1)
