"""Equations -> sorted blocks: matching, strongly connected components, block construction.

Input: equations, their unknowns, and which unknowns each equation may be solved for.
Output: blocks in evaluation order (``BlockBuilder``), or the structural error naming the
equations and unknowns at fault; a component looping through discrete variables or algorithm
sections becomes a mixed block (``mixed``). ``needed_prefix`` reorders blocks so that what a set of
targets needs comes first.
"""
from __future__ import annotations

from compiler.causalize.blocks import BlockBuilder
from compiler.causalize.errors import CausalizeError
from compiler.causalize.matching import maximum_matching, singular_error, sorted_components
from compiler.causalize.mixed import is_mixed, mixed_block
from compiler.system import Assignment, LinearBlock, MixedBlock, NewtonBlock


def sorted_blocks(equations: list, unknowns: list[str], matchable, builder: BlockBuilder,
                  spans: dict, what: str, algorithms=()) -> list:
    """Blocks computing ``unknowns`` from ``equations`` and ``algorithms`` (each computes its
    outputs); ``matchable(equation, index)`` lists the unknown indices an equation may define
    (``index``: name -> position)."""
    computed: dict[str, int] = {}
    for k, block in enumerate(algorithms):
        for name in block.outputs:
            if name in computed:
                raise CausalizeError(f"'{name}' is assigned in two algorithm sections",
                                     block.span)
            computed[name] = k
    free = [name for name in unknowns if name not in computed]
    index = {name: j for j, name in enumerate(free)}
    incidence = [matchable(equation, index) for equation in equations]
    unknown_of, equation_of = maximum_matching(incidence, len(free))
    if len(equations) != len(free) or any(j < 0 for j in unknown_of):
        raise singular_error(incidence, unknown_of, equation_of,
                             lambda k: (equations[k].span, equations[k].source()), free,
                             [spans.get(name) for name in free], what)
    n = len(equations)
    producer = {name: equation_of[j] for name, j in index.items()}
    producer.update((name, n + k) for name, k in computed.items())
    dependencies = []
    for equation in equations:
        reads = equation.lhs.variables() | equation.rhs.variables()
        dependencies.append([producer[name] for name in sorted(reads) if name in producer])
    for block in algorithms:
        dependencies.append([producer[name] for name in block.inputs if name in producer])
    blocks = []
    for component in sorted_components(dependencies):
        pairs = [(equations[k], free[unknown_of[k]]) for k in component if k < n]
        inside = [algorithms[k - n] for k in component if k >= n]
        if is_mixed(pairs, inside, builder):
            blocks.append(mixed_block(pairs, inside, builder, latched=what == "system"))
        elif inside:
            blocks.append(inside[0])
        else:
            blocks.append(builder.block([eq for eq, _ in pairs], [name for _, name in pairs]))
    return blocks


def outputs(block) -> tuple[str, ...]:
    """Names a block computes."""
    if type(block) is Assignment:
        return (block.var,)
    if type(block) is NewtonBlock:
        return block.vars + tuple(item.var for item in block.inner)
    if type(block) is MixedBlock:
        return tuple(name for item in block.continuous + block.updates
                     for name in outputs(item))
    return block.vars if type(block) is LinearBlock else block.outputs


def inputs(block) -> frozenset:
    """Names a block reads (its own outputs excluded, pre values excluded)."""
    if type(block) is Assignment:
        return block.value.variables()
    if type(block) is MixedBlock:
        reads = frozenset().union(*(inputs(item) for item in block.continuous + block.updates))
    elif type(block) is LinearBlock:
        reads = frozenset().union(*(item.expr.variables() for item in block.equations))
    elif type(block) is NewtonBlock:
        reads = frozenset().union(*(item.expr.variables() for item in block.residuals),
                                  *(item.value.variables() for item in block.inner))
    else:
        reads = frozenset(block.inputs)
    return reads - set(outputs(block))


def needed(blocks: list, targets) -> list[bool]:
    """For each block, whether computing ``targets`` needs it."""
    wanted = set(targets)
    flags = [False] * len(blocks)
    for position in range(len(blocks) - 1, -1, -1):
        block = blocks[position]
        if any(name in wanted for name in outputs(block)):
            flags[position] = True
            wanted.update(inputs(block))
    return flags
