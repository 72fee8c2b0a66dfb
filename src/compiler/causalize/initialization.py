"""The initialization system: every variable at the start time, as sorted blocks.

Input: the index-reduced ``Dae``. Output: blocks computing states, derivatives, algebraic and
discrete variables, the pre values of discrete variables (variables named ``pre(v)``) and
parameters with ``fixed = false``, from: the model's equations (when-equations inactive
unless their condition reads ``initial()``, relations as written, samples false, delays
the expression they delay, the leaving end of a spatialDistribution() the initial profile's
value there),
the initial equations, ``v = start`` for continuous variables with ``fixed = true``, and
``pre(v) = start`` for discrete variables (unless initial equations decide them). Algorithm
sections run without the when-statements that cannot fire at initialization.
Over- and under-determined initialization is an error naming the variables, but for initial
equations that read no unknown: those are checked once the initialization has run
(``compiler.causalize.redundant``).
"""
from __future__ import annotations

from dataclasses import replace

from compiler.causalize.blocks import BlockBuilder
from compiler.causalize.dae import (
    CONSTANT, CONTINUOUS, DISCRETE, PARAMETER, Dae, DaeEquation, function_derivatives)
from compiler.causalize.partition import is_latch, matchable
from compiler.causalize.redundant import check_block, without_redundant
from compiler.causalize.matching import maximum_matching
from compiler.causalize.sort import sorted_blocks
from compiler.causalize.start import vanishing_test
from compiler.causalize.statements import map_algorithm, without_inactive_whens
from compiler.symbolic import FALSE, TRUE, Op, Var, const, if_, relation, var
from compiler.symbolic.transform import replace_nodes

_STATE_WANTED = ("prefer", "always")   # the stateSelect values that ask for a state
_DEFAULT = {"Real": 0.0, "Integer": 0, "Boolean": False, "String": ""}


def initialization_blocks(dae: Dae) -> list:
    """The sorted blocks of the initialization of ``dae`` (see the module docstring)."""
    table = dae.table()
    rewrite = _Rewriter(dae, table)
    equations = [replace(item, lhs=rewrite(item.lhs),
                         rhs=rewrite(item.initial_rhs if item.when_var else item.rhs))
                 for item in dae.equations]
    initial = [replace(item, lhs=rewrite(item.lhs), rhs=rewrite(item.rhs))
               for item in dae.initial_equations]
    mentioned = set()
    for item in initial:
        mentioned |= item.lhs.variables() | item.rhs.variables()
    for block in dae.initial_algorithms:
        mentioned.update(block.outputs)
    algorithms = []
    for block in dae.algorithms:
        active, held = without_inactive_whens(block, dae.clauses)
        if active is not None:
            algorithms.append(map_algorithm(active, rewrite))
        initial += [_held(name, rewrite(value), table[name].type, block.span)
                    for name, value in held]
    algorithms += [map_algorithm(block, rewrite) for block in dae.initial_algorithms]
    unknowns, init_table = _unknowns(dae, table, rewrite.pre_names)
    initial, redundant = without_redundant(initial, unknowns)
    equations += initial
    equations += _fixed_starts(dae)
    equations += _pre_starts(table, rewrite.pre_names, mentioned)
    differentiable = {name for name, item in init_table.items()
                      if item.kind == CONTINUOUS and item.type == "Real"}
    builder = BlockBuilder(differentiable, {name: item.type for name, item in init_table.items()},
                           assignment_partials=False, calls=function_derivatives(dae),
                           guessed={name for name, item in init_table.items()
                                    if item.start is not None},
                           vanishes=vanishing_test(dae), by_unknowns=False)
    spans = {name: item.span for name, item in init_table.items()}
    match = lambda equation, index: matchable(equation, init_table, index, True)  # noqa: E731
    equations += _state_starts(dae, equations, unknowns, match, algorithms)
    blocks = sorted_blocks(equations, unknowns, match, builder, spans, "initialization",
                           algorithms)
    return blocks + [check_block(redundant)] if redundant else blocks


def _state_starts(dae: Dae, equations: list, unknowns: list, match, algorithms) -> list:
    """``x = start`` for the fewest states (or variables that ask to be one) that leave an
    initialization under-determined (as other tools complete it), see ``_start_candidates``.

    A maximum matching of the model's equations is extended by augmenting paths from
    candidate start equations: one that augments it determines an unknown nothing else
    could, so it is kept."""
    computed = {name for block in algorithms for name in block.outputs}
    free = [name for name in unknowns if name not in computed]
    index = {name: j for j, name in enumerate(free)}
    incidence = [match(equation, index) for equation in equations]
    unknown_of, equation_of = maximum_matching(incidence, len(free))
    if all(k >= 0 for k in equation_of):
        return []
    table = dae.table()
    candidates = [name for name in _start_candidates(dae, table) if name in index]
    added = []
    for name in candidates:
        if _augment(index[name], incidence, unknown_of, equation_of):
            item = table[name]
            start = item.start if item.start is not None else const(0.0, item.type)
            added.append(DaeEquation(var(name, item.type), start, item.span,
                                     note="start value (the initialization needs it)"))
        if all(k >= 0 for k in equation_of):
            break
    return added


def _start_candidates(dae: Dae, table: dict) -> list[str]:
    """The variables whose start value may complete an under-determined initialization, the
    most wanted first: the states, and the variables whose stateSelect asks for a state and
    that give a start value (a tank's level with ``start = level_start`` where index reduction
    made its mass the state: other tools start from that level too); those with a start value
    before those without, and among them the ones that ask for a state first."""
    states = [name for name in dae.states if not table[name].fixed]
    chosen = set(states)
    wanting = [item.name for item in dae.variables
               if item.kind == CONTINUOUS and not item.fixed and item.start is not None
               and item.state_select in _STATE_WANTED and item.name not in chosen]
    return sorted(states + wanting, key=lambda name: (
        table[name].start is None, table[name].state_select not in _STATE_WANTED))


def _augment(unknown: int, incidence: list, unknown_of: list, equation_of: list) -> bool:
    """Whether the equation ``unknown = start`` extends the matching (it is then matched)."""
    seen = set()
    incidence.append([unknown])
    unknown_of.append(-1)
    new = len(incidence) - 1

    def visit(k: int) -> bool:
        for j in incidence[k]:
            if j in seen:
                continue
            seen.add(j)
            if equation_of[j] < 0 or visit(equation_of[j]):
                unknown_of[k], equation_of[j] = j, k
                return True
        return False
    if visit(new):
        return True
    incidence.pop()
    unknown_of.pop()
    return False


class _Rewriter:
    """The initialization form of an expression (see the module docstring)."""

    def __init__(self, dae: Dae, table: dict):
        self.table = table
        self.memo: dict = {}
        self.pre_names: dict[str, str] = {}   # v -> "pre(v)" for discrete v read through pre
        self.relations = {item.var: item for item in dae.relations}
        self.samples = {item.var for item in dae.samples}
        self.delays = dae.delays
        self.spatials = dae.spatials
        # Real variables when-equations assign are discrete-time too (MLS 3.8.3): during
        # initialization an inactive when-equation says v = pre(v), not v = v
        self.when_assigned = {item.when_var for item in dae.equations if item.when_var}

    def __call__(self, expr):
        return replace_nodes(expr, self._rule, self.memo)

    def _rule(self, node):
        kind = type(node)
        if kind is Var:
            relation_ = self.relations.get(node.name)
            if relation_ is not None:
                return relation(relation_.op, self(relation_.lhs), self(relation_.rhs))
            return FALSE if node.name in self.samples else None
        if kind is Op:
            if node.op == "initial":
                return TRUE
            if node.op == "pre":
                return self._pre(node.args[0])
            if node.op == "delay":   # at the start, delay(expr, ...) is expr
                return self(self.delays[node.args[0].value].expr)
            if node.op == "spatial":
                return self(self._spatial_start(node))
        return None

    def _spatial_start(self, node):
        """A spatialDistribution()'s end at the start: its input where it is the entering
        end, else the initial profile's value there (initialPoints go from 0 to 1)."""
        k, end, in0, in1, _, positive = node.args
        values = self.spatials[k.value].values
        if end.value == 0:
            return if_(positive, in0, values[0])
        return if_(positive, values[-1], in1)

    def _pre(self, target: Var):
        item = self.table.get(target.name)
        if item is None or (item.kind != DISCRETE and target.name not in self.when_assigned):
            return target
        name = f"pre({target.name})"
        self.pre_names[target.name] = name
        return var(name, target.type)


def _held(name: str, value, type_: str, span) -> DaeEquation:
    """``v = pre(v)`` (``v = start`` if continuous) for an algorithm output that no
    statement active at initialization assigns; solvable for either side, as the form of a
    when-equation is."""
    return DaeEquation(var(name, type_), value, span, when_var=name,
                       note="kept by an algorithm whose when-statements do not fire at "
                            "initialization")


def _fixed_starts(dae: Dae) -> list[DaeEquation]:
    result = []
    for item in dae.variables:
        if item.kind == CONTINUOUS and item.fixed:
            # ``Real r(fixed = true)`` without a start value starts at the default, 0
            result.append(_start_equation(var(item.name, item.type), _start(item), item))
    return result


def _start(item):
    """The start value of a variable, its type's default when it gives none."""
    return item.start if item.start is not None else const(_DEFAULT.get(item.type, 1),
                                                           item.type)


def _pre_starts(table: dict, pre_names: dict, mentioned: set) -> list[DaeEquation]:
    result = []
    for name, pre_name in pre_names.items():
        item = table[name]
        if item.fixed or (name not in mentioned and pre_name not in mentioned):
            result.append(_start_equation(var(pre_name, item.type), _start(item), item))
    return result


def _start_equation(target, start, item) -> DaeEquation:
    """``target = start``, located at the declaration."""
    return DaeEquation(target, start, item.span, note="start value")


def _unknowns(dae: Dae, table: dict, pre_names: dict):
    unknowns = []
    init_table = dict(table)
    for item in dae.variables:
        if item.kind == CONTINUOUS or (item.kind == DISCRETE and not is_latch(item)):
            unknowns.append(item.name)
        elif item.kind in (PARAMETER, CONSTANT) and not item.fixed:
            unknowns.append(item.name)
            init_table[item.name] = replace(item, kind=CONTINUOUS if item.type == "Real"
                                            else DISCRETE)
    for name, pre_name in pre_names.items():
        unknowns.append(pre_name)
        init_table[pre_name] = replace(table[name], name=pre_name)
    return unknowns, init_table
