"""Loops through discrete variables -> ``MixedBlock`` (MLS 8.6: mixed systems).

Input: the equations of one strongly connected component with the unknown each is matched
to, the algorithm sections in it, and the ``BlockBuilder``. Output: a ``MixedBlock`` that
iterates on the loop's discrete unknowns (those of the discrete equations and the outputs of
the algorithm sections): given them, the continuous equations fall apart into assignment,
linear and Newton blocks, sorted among themselves; the discrete equations become
assignments and run, with the algorithm sections, after the continuous part, each after
what it reads. A loop through an algorithm section that computes a continuous variable
cannot be iterated on discrete values alone: that is an error at the section. So is, in the
simulation system, a discrete value computed from the loop's continuous unknowns through a
relation without events (``noEvent``): it would change between events, where mixed blocks
take their discrete values as constant.

An Integer or Boolean unknown equated to a user function's result that reads the loop's
continuous unknowns is not a discrete unknown of the loop (``computed_with_loop``): such a
call is a continuous-time expression whatever its result type (MLS 3.8.3), and the relations
inside a function generate no events, so other tools evaluate it with the equations it belongs
to (the Integer ``phase`` of a medium's thermodynamic state computed from a pressure and an
enthalpy). It is computed with the continuous part at every iterate; a discrete value that
compares such an unknown outside a function is refused like one comparing a Real unknown.
"""
from __future__ import annotations

from compiler.causalize.blocks import alone_value
from compiler.causalize.errors import CausalizeError
from compiler.causalize.matching import sorted_components
from compiler.causalize.statements import expressions
from compiler.symbolic import REAL, STRING, Call, Op, Var
from compiler.symbolic.transform import children
from compiler.system import AlgorithmBlock, MixedBlock

_RELATIONS = frozenset(("<", "<=", ">", ">=", "==", "<>"))


def is_mixed(pairs: list, algorithms: list, builder) -> bool:
    """Whether a component (``(equation, unknown)`` pairs and algorithm sections) loops
    through discrete variables or algorithm sections."""
    if len(pairs) + len(algorithms) < 2:
        return False
    return bool(algorithms) or bool(_discrete_pairs(pairs, builder))


def mixed_block(pairs: list, algorithms: list, builder, latched: bool) -> MixedBlock:
    """The block of a component that ``is_mixed`` (see the module docstring); ``latched``:
    relations that generate events are latched (the simulation system)."""
    for block in algorithms:
        continuous = [name for name in block.outputs if name in builder.differentiable]
        if continuous:
            raise CausalizeError(
                "an algebraic loop runs through this algorithm section, which computes the "
                f"continuous {', '.join(continuous)}: it is not supported (only loops through "
                "the discrete variables an algorithm computes are)", block.span)
    discrete_pairs = _discrete_pairs(pairs, builder)
    updated = {name for _, name in discrete_pairs}
    continuous_pairs = [(eq, name) for eq, name in pairs if name not in updated]
    discrete = [name for _, name in discrete_pairs] + \
        [name for block in algorithms for name in block.outputs]
    blocks = []
    for component in _sorted(continuous_pairs, [], {name for _, name in continuous_pairs}):
        chosen = [continuous_pairs[k] for k in component]
        blocks.append(builder.block([eq for eq, _ in chosen], [name for _, name in chosen]))
    updates = []
    for component in _sorted(discrete_pairs, algorithms, set(discrete)):
        for k in component:
            if k < len(discrete_pairs):
                equation, name = discrete_pairs[k]
                updates.append(builder.single(equation, name))
            else:
                updates.append(algorithms[k - len(discrete_pairs)])
    if latched:
        _check_events(updates, {name for _, name in continuous_pairs})
    return MixedBlock(tuple(discrete), tuple(blocks), tuple(updates))


def _check_events(updates, continuous: set) -> None:
    """No update may compare the loop's continuous unknowns without an event."""
    for block in updates:
        exprs = expressions(block.statements) if type(block) is AlgorithmBlock else (block.value,)
        for expr in exprs:
            found = _unlatched(expr, continuous)
            if found:
                what = f"the algorithm computing {', '.join(block.outputs)}" \
                    if type(block) is AlgorithmBlock else f"the discrete {block.var}"
                raise CausalizeError(
                    f"{what} depends on the continuous {', '.join(sorted(found))} of its loop "
                    "through a relation without events (noEvent?): it would change between "
                    "events; let the relation generate events", block.span)


def _unlatched(expr, names: set) -> set:
    """The ``names`` a relation in ``expr`` compares directly."""
    stack, found = [expr], set()
    while stack:
        node = stack.pop()
        if type(node) is Op and node.op in _RELATIONS:
            found |= node.variables() & names
        else:
            stack.extend(children(node))
    return found


def _is_discrete(equation, name: str, builder) -> bool:
    return bool(equation.when_var) or name not in builder.differentiable


def _discrete_pairs(pairs: list, builder) -> list:
    """The pairs of the loop's discrete unknowns (see ``computed_with_loop``)."""
    computed = computed_with_loop(pairs, builder)
    return [(equation, name) for equation, name in pairs
            if _is_discrete(equation, name, builder) and name not in computed]


def computed_with_loop(pairs: list, builder) -> frozenset:
    """The discrete-valued unknowns of a component that its continuous part computes (see the
    module docstring): each alone on one side of its equation, whose other side reads the
    loop's continuous unknowns (or those found before it) only as arguments of user-function
    calls, or is such an unknown alone. Taken in order of what they read, so that they never
    loop among themselves: each is then an assignment inside the loop's solution."""
    continuous = {name for equation, name in pairs if not _is_discrete(equation, name, builder)}
    candidates = {}
    for equation, name in pairs:
        if name in continuous or equation.when_var or builder.types.get(name) in (REAL, STRING):
            continue
        value = alone_value(equation, name)
        if value is not None:
            candidates[name] = value
    found: set = set()
    while True:
        computed = continuous | found
        new = [name for name, value in candidates.items() if name not in found and
               not value.variables() & (candidates.keys() - found) and
               _reads_through_calls(value, computed)]
        if not new:
            return frozenset(found)
        found.update(new)


def _reads_through_calls(value, computed: set) -> bool:
    """Whether ``value`` reads ``computed`` names, all of them inside user-function calls (or
    is one of them alone)."""
    if type(value) is Var:
        return value.name in computed
    inside, stack = False, [value]
    while stack:
        node = stack.pop()
        if type(node) is Call:
            inside = inside or bool(node.variables() & computed)
        elif type(node) is Var:
            if node.name in computed:
                return False
        else:
            stack.extend(children(node))
    return inside


def _sorted(pairs: list, algorithms: list, computed: set) -> list[list[int]]:
    """Components of the pairs (``k``) and algorithms (``len(pairs) + k``) by what they read
    of ``computed``, in evaluation order."""
    producer = {name: k for k, (_, name) in enumerate(pairs)}
    producer.update((name, len(pairs) + k) for k, block in enumerate(algorithms)
                    for name in block.outputs)
    dependencies = []
    for equation, _ in pairs:
        reads = equation.lhs.variables() | equation.rhs.variables()
        dependencies.append([producer[name] for name in sorted(reads & computed)])
    for block in algorithms:
        dependencies.append([producer[name] for name in block.inputs if name in computed])
    return sorted_components(dependencies)
