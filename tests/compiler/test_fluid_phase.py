"""Integer results of functions inside algebraic loops (issue 14: the ``phase`` of
Modelica.Media's thermodynamic states in Modelica.Fluid's flow models), in small self-written
models (msl_models/FluidPhase.mo).

A function call with continuous-time arguments is a continuous-time expression whatever its
result type (MLS 3.8.3), and the relations inside a function generate no events: the Integer
it returns is computed with the loop at every iterate, not held between events as a discrete
unknown of a mixed system. The loop is solved with scipy's brentq and compared with the
compiled FMU (Co-Simulation and Model Exchange) and the reference interpreter; a discrete
value that compares such an Integer outside a function, or an Integer from a relation without
events, is still refused.

An initial equation that reads no unknown of the initialization (a pipe volume's
``p = p_start`` where alias elimination made p the parameter pressure of the boundary it is
connected to: NonCircularPipes) determines nothing: it is checked once the model has
initialized, which runs when it holds and fails, naming both sides, when it does not.

A function's for-loop over ``i`` beside a protected ``Integer i`` (IF97's viscosity and
conductivity) declares its own C variable: the protected one is still there after the loop,
and compiles without an unused-variable warning when nothing else reads it."""
from __future__ import annotations

from pathlib import Path

import logging
import math

import numpy as np
import pytest
from fmpy import simulate_fmu
from scipy.optimize import brentq

from compiler.causalize_api import causalize_model
from compiler.errors import CompilerError
from compiler.system import MixedBlock, NewtonBlock
from tests.compiler.rust_cases import RUST_TEST_MARKS

MODELS = Path(__file__).parent / "msl_models" / "FluidPhase.mo"
STOP = 3.0
TIMES = np.linspace(0.0, STOP, 61)


def phase_of(h: float) -> int:
    return 1 if h < 1 or h > 2 else 2


def flow(h: float) -> float:
    """m = d / eta at enthalpy h, with the viscosity of h's phase."""
    eta = 1 + 0.1 * h + ((h - 1) * (2 - h) if phase_of(h) == 2 else 0.0)
    return 1 / (1 + 0.5 * h) / eta


def solution(t: float) -> tuple[float, float]:
    """(h, m) with h = t + 0.1 m (x = t; m > 0), the loop solved by brentq."""
    h = brentq(lambda h: h - t - 0.1 * flow(h), t, t + 0.2, xtol=1e-15, rtol=1e-15)
    return h, flow(h)


@pytest.mark.parametrize("model", ["PhaseLoop", "PhaseLoopDirect"])
def test_the_phase_is_computed_inside_the_newton_loop(model):
    system = causalize_model(MODELS, f"FluidPhase.{model}", environ={})
    assert not [block for block in system.blocks if type(block) is MixedBlock]
    (loop,) = [block for block in system.blocks if type(block) is NewtonBlock]
    assert loop.vars == ("m",)
    assert "s.phase" in [item.var for item in loop.inner]


@pytest.mark.parametrize("kind", ["CoSimulation", "ModelExchange"])
@pytest.mark.parametrize("model", ["PhaseLoop", "PhaseLoopDirect"])
def test_the_loop_follows_the_phase_between_events(fmus, model, kind):
    fmu = fmus.build(MODELS, f"FluidPhase.{model}")
    result = simulate_fmu(str(fmu), fmi_type=kind, stop_time=STOP, output_interval=STOP / 60,
                          relative_tolerance=1e-10, output=["s.h", "m", "s.phase"])
    checked_two_phase = 0
    for row in result:
        h, m = solution(row["time"])
        assert row["s.h"] == pytest.approx(h, rel=1e-8)
        assert row["m"] == pytest.approx(m, rel=1e-8)
        assert row["s.phase"] == phase_of(h)
        checked_two_phase += phase_of(h) == 2
    assert checked_two_phase > 10   # the viscosity differs there: a held phase would show


def test_the_interpreter_agrees():
    from compiler.causalize_api import simulate_model
    result = simulate_model(MODELS, "FluidPhase.PhaseLoop", stop=STOP, interval=STOP / 60,
                            rtol=1e-10, environ={})
    for t in TIMES:
        h, m = solution(t)
        assert result.at("m", t) == pytest.approx(m, rel=1e-7)
        assert result.at("eta", t) == pytest.approx(1 / (1 + 0.5 * h) / m, rel=1e-7)
        assert result.at("phase", t) == pytest.approx(phase_of(h), abs=1e-9)


@pytest.mark.parametrize("model, message", [
    ("ComparedPhase", "FluidPhase.mo:58:5: the discrete k depends on the continuous s.phase "
                      "of its loop through a relation without events"),
    ("NoEventInteger", "FluidPhase.mo:68:5: the discrete k depends on the continuous h of its "
                       "loop through a relation without events")])
def test_a_discrete_value_changing_between_events_is_still_refused(model, message):
    with pytest.raises(CompilerError) as error:
        causalize_model(MODELS, f"FluidPhase.{model}", environ={})
    assert message in str(error.value)


# ------------------------------------------------------- initial equations that read no unknown
def test_a_redundant_initial_equation_is_checked_instead_of_matched(caplog):
    with caplog.at_level(logging.WARNING, logger="cosim.compiler"):
        system = causalize_model(MODELS, "FluidPhase.RedundantStart", environ={})
    assert [record.getMessage() for record in caplog.records] == [
        f"{MODELS}:78:5: warning: the initial equation p = p_start (p_boundary = p_start) "
        "reads no unknown of the initialization: it is redundant, and checked when the model "
        "initializes"]
    assert "p_boundary" in system.initial_blocks[-1].inputs


@pytest.mark.parametrize("kind", ["CoSimulation", "ModelExchange"])
def test_a_consistent_redundant_initial_equation_runs(fmus, kind):
    fmu = fmus.build(MODELS, "FluidPhase.RedundantStart")
    result = simulate_fmu(str(fmu), fmi_type=kind, stop_time=1.0, output_interval=0.25,
                          relative_tolerance=1e-10, output=["m"])
    for row in result:
        assert row["m"] == pytest.approx(2 - math.exp(-row["time"]), rel=1e-8)


def test_an_inconsistent_redundant_initial_equation_fails_the_initialization(fmus):
    fmu = fmus.build(MODELS, "FluidPhase.RedundantStart")
    messages = []
    with pytest.raises(Exception):
        simulate_fmu(str(fmu), stop_time=1.0, start_values={"p_start": 3.0},
                     logger=lambda *args: messages.append(args[-1].decode()))
    assert any(text.endswith("the initial equation p = p_start (p_boundary = p_start) reads no "
                             "unknown of the initialization, and does not hold: its sides are 2 "
                             "and 3") for text in messages), messages


def test_the_interpreter_checks_the_redundant_initial_equation_too():
    from compiler.causalize_api import simulate_model
    result = simulate_model(MODELS, "FluidPhase.RedundantStart", stop=1.0, interval=0.25,
                            rtol=1e-10, environ={})
    assert result.at("m", 1.0) == pytest.approx(2 - math.exp(-1), rel=1e-8)
    with pytest.raises(CompilerError, match="does not hold: its sides are 2 and 3"):
        simulate_model(MODELS, "FluidPhase.RedundantStart", stop=1.0, environ={},
                       parameters={"p_start": 3})


# ---------------------------------------------------------- a loop index shadowing a variable
def test_a_loop_index_shadows_a_protected_variable_of_the_same_name(fmus):
    fmu = fmus.build(MODELS, "FluidPhase.ShadowedIndex")   # (gcc's warnings are errors)
    result = simulate_fmu(str(fmu), stop_time=1.0, output_interval=0.25, output=["a", "b"])
    np.testing.assert_allclose(result["a"], 6 * result["time"], rtol=1e-15)
    np.testing.assert_allclose(result["b"], 6 * result["time"] + 10, rtol=1e-15)


def _rust(test):
    """``test`` with the marks of the Rust tests (skipped without rustc)."""
    for mark in RUST_TEST_MARKS:
        test = mark(test)
    return test


@_rust
@pytest.mark.parametrize("model", ["ShadowedIndex", "PhaseLoop"])
def test_the_rust_backend_agrees(model, tmp_path):
    from compiler.api import flatten_model
    from compiler.rust.compile import rust_from_flat
    fmu = rust_from_flat(flatten_model(MODELS, f"FluidPhase.{model}", environ={}), "fmu",
                         tmp_path / f"{model}.fmu")
    if model == "ShadowedIndex":
        result = simulate_fmu(str(fmu), stop_time=1.0, output_interval=0.25, output=["a", "b"])
        np.testing.assert_allclose(result["b"] - result["a"], 10, rtol=1e-15)
        np.testing.assert_allclose(result["a"], 6 * result["time"], rtol=1e-15)
        return
    result = simulate_fmu(str(fmu), stop_time=STOP, output_interval=STOP / 60,
                          relative_tolerance=1e-10, output=["s.h", "m", "s.phase"])
    for row in result:
        h, m = solution(row["time"])
        assert row["m"] == pytest.approx(m, rel=1e-8)
        assert row["s.phase"] == phase_of(h)
