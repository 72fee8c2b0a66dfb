"""Causalization: ``FlatModel`` -> ``System`` (sorted, index-reduced, events explicit).

Input: a ``compiler.flat.FlatModel``. Output: a ``compiler.system.System``. The passes, each
in its module: ``lower`` (IR, events; ``fixed_values``), ``alias``, ``pantelides`` + ``dummy`` (index
reduction, states), ``instants`` (time events of relations), ``simulation`` (matching, BLT,
``tearing``, ``blocks``), ``initialization``, ``assemble``. Errors are ``CausalizeError`` at
a source location.
"""
from __future__ import annotations

import gc

from compiler.causalize.alias import eliminate_aliases
from compiler.causalize.assemble import assemble
from compiler.causalize.errors import CausalizeError
from compiler.causalize.fixed_values import drop_vanished_derivatives
from compiler.causalize.initialization import initialization_blocks
from compiler.causalize.instants import with_instants
from compiler.causalize.lower import lower
from compiler.causalize.pantelides import reduce_index
from compiler.causalize.simulation import check_reinits, simulation_blocks
from compiler.flat import FlatModel
from compiler.system import System


def causalize(model: FlatModel) -> System:
    """The sorted, solvable system of ``model`` (raises ``CausalizeError``)."""
    collecting = gc.isenabled()
    gc.disable()  # the passes make many small objects that live to the end: collections
    try:          # on the way would rescan them again and again (quadratic in model size)
        dae = with_instants(reduce_index(drop_vanished_derivatives(eliminate_aliases(
            lower(model)))))
        check_reinits(dae)
        return assemble(dae, simulation_blocks(dae), initialization_blocks(dae))
    finally:
        if collecting:
            gc.enable()


__all__ = ["CausalizeError", "causalize"]
