"""Overdetermined types (MLS 9.4) in the virtual connection graph: a ring of planar rotations
whose orientation type {cos, sin} has an equalityConstraint (msl_models/Overdetermined.mo),
checked against its closed form."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from fmpy import simulate_fmu

from compiler.api import flatten_model
from compiler.flat import Const, Var
from compiler.flatten import FlattenError

MODELS = Path(__file__).parent / "msl_models" / "Overdetermined.mo"


def test_the_broken_connection_of_a_ring_takes_the_residue_of_the_type():
    flat = flatten_model(MODELS, "Overdetermined.Ring")
    equated = {frozenset((eq.lhs.name, eq.rhs.name)) for eq in flat.equations
               if type(eq.lhs) is Var and type(eq.rhs) is Var}
    # the ring's one broken connection (the graph is searched breadth first from the root:
    # second's and spring's trees meet there) equates the torques but not the orientations
    for k in (1, 2):
        assert frozenset((f"second.frame_b.R[{k}]", f"spring.frame_a.R[{k}]")) not in equated
        assert frozenset((f"first.frame_b.R[{k}]", f"second.frame_a.R[{k}]")) in equated
    residues = [eq for eq in flat.equations if type(eq.lhs) is Const and eq.lhs.value == 0]
    assert len(residues) == 1   # one residue of Orientation2D's equalityConstraint


def test_a_ring_of_rotations_closes_through_the_equality_constraint(fmus):
    fmu = fmus.build(MODELS, "Overdetermined.Ring")
    names = ["spring.phi", "spring.frame_b.t", "spring.frame_a.R[1]", "spring.frame_a.R[2]",
             "second.frame_b.R[1]", "second.frame_b.R[2]", "ground.isRoot"]
    result = simulate_fmu(str(fmu), stop_time=1.0, output_interval=0.01,
                          relative_tolerance=1e-8, output=names)
    t = result["time"]
    # first and second turn by t and 2 t: the spring closes the ring with -3 t
    assert result["spring.phi"] == pytest.approx(-3 * t, abs=1e-9)
    assert result["spring.frame_b.t"] == pytest.approx(-30 * t, abs=1e-8)
    for name in ("spring.frame_a", "second.frame_b"):   # both sides of the broken connection
        assert result[f"{name}.R[1]"] == pytest.approx(np.cos(3 * t), abs=1e-9)
        assert result[f"{name}.R[2]"] == pytest.approx(np.sin(3 * t), abs=1e-9)
    assert all(result["ground.isRoot"])


def test_an_array_of_an_overdetermined_type_in_a_connector_is_refused_as_unsupported():
    with pytest.raises(FlattenError, match="an array of an overdetermined type in a "
                                           "connector is not supported") as error:
        flatten_model(MODELS, "Overdetermined.ArrayInConnector")
    assert error.value.span.line > 1
