"""The simulation blocks: the index-1 system sorted, and ordered by what needs them.

Input: the index-reduced ``Dae``. Output: blocks computing every unknown (algebraic and
derivative variables, discrete variables) from states, inputs, parameters, latches and pre
values; those the derivatives need come first, then those the relations need, then the rest.
"""
from __future__ import annotations

from compiler.causalize.blocks import BlockBuilder
from compiler.causalize.dae import CONTINUOUS, DISCRETE, INPUT, Dae, der_name, function_derivatives
from compiler.causalize.errors import CausalizeError
from compiler.causalize.partition import is_latch, matchable
from compiler.causalize.sort import needed, sorted_blocks
from compiler.causalize.start import vanishing_test


def simulation_blocks(dae: Dae) -> tuple[list, int, int]:
    """``(blocks, n_derivative_blocks, n_indicator_blocks)`` (see the module docstring).
    Partial derivatives are filled in for the blocks the derivatives need and inside loops."""
    table = dae.table()
    states = set(dae.states)
    unknowns = [item.name for item in dae.variables
                if (item.kind == CONTINUOUS and item.name not in states)
                or (item.kind == DISCRETE and not is_latch(item))]
    differentiable = {item.name for item in dae.variables
                      if item.kind in (CONTINUOUS, INPUT) and item.type == "Real"}
    builder = BlockBuilder(differentiable, {item.name: item.type for item in dae.variables},
                           assignment_partials=False, calls=function_derivatives(dae),
                           guessed={item.name for item in dae.variables if item.start is not None},
                           vanishes=vanishing_test(dae))
    blocks = sorted_blocks(list(dae.equations), unknowns,
                           lambda equation, index: matchable(equation, table, index), builder,
                           {item.name: item.span for item in dae.variables}, "system",
                           dae.algorithms)
    for_derivatives = needed(blocks, [der_name(name) for name in dae.states])
    for_indicators = needed(blocks, [name for item in dae.relations
                                     for name in item.distance.variables()])
    first = [builder.with_partials(b) for b, flag in zip(blocks, for_derivatives) if flag]
    second = [b for b, flag, other in zip(blocks, for_indicators, for_derivatives)
              if flag and not other]
    rest = [b for b, flag, other in zip(blocks, for_indicators, for_derivatives)
            if not flag and not other]
    return first + second + rest, len(first), len(first) + len(second)


def check_reinits(dae: Dae) -> None:
    """Every reinit() must change a state chosen by index reduction."""
    states = set(dae.states)
    for clause in dae.clauses:
        for item in clause.reinits:
            if item.state not in states:
                listed = ", ".join(dae.states) if dae.states else "none"
                raise CausalizeError(f"reinit({item.state}, ...): '{item.state}' is not a "
                                     f"state after index reduction (the states are {listed})",
                                     item.span)
