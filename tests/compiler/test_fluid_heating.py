"""What kept Modelica.Fluid.Examples.HeatingSystem from initializing and matching its
reference, each in a small self-written model (msl_models/FluidHeating.mo), checked against
closed forms and scipy: the start value of variables made equal (MLS 8.6.2), a torn
initialization that divided by a flow at rest, and the integrator's Jacobian pattern through
a function without derivative."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from scipy.optimize import brentq

from compiler.causalize_api import causalize_model
from cosim import api

FLUID_HEATING = Path(__file__).parent / "msl_models" / "FluidHeating.mo"


@pytest.fixture(autouse=True)
def no_modelicapath(monkeypatch):
    monkeypatch.delenv("MODELICAPATH", raising=False)


def run(model: str, names: list[str], **options):
    component = f"FluidHeating_{model.replace('.', '_')}"
    result = api.run(FLUID_HEATING, model=f"FluidHeating.{model}",
                     record=[f"{component}.{name}" for name in names], **options)
    return result.values["time"], [result.values[f"{component}.{name}"] for name in names]


# ------------------------------------------------------------------------- start priority
@pytest.mark.parametrize("model", ["StartPriority.TopLevel", "StartPriority.ParameterAtTop"])
def test_variables_made_equal_start_from_the_most_confident_start_value(model):
    # a.x = b.c.y, x^2 = 4: Newton from b.c.y's start -1 (given at the top, or through a
    # parameter given there) finds -2; from a.x's own 3 it would find +2
    t, (x, y) = run(model, ["a.x", "b.c.y"], step_size=0.5)
    assert np.allclose(x, -2.0, rtol=0, atol=1e-10)
    assert np.allclose(y, -2.0, rtol=0, atol=1e-10)


def test_a_start_value_of_the_type_ranks_below_an_instance_modifier():
    # medium.state.T's start is its type's 3, medium.T's the -1 given through T_start: on main
    # the type's start counted as given at the top and Newton found +2 (Fluid OneTank's tank
    # started at 288.15 K, the start of Media's Temperature type, instead of T_start)
    t, (x, y) = run("StartPriority.TypeStart", ["medium.T", "medium.state.T"], step_size=0.5)
    assert np.allclose(x, -2.0, rtol=0, atol=1e-10)
    assert np.allclose(y, -2.0, rtol=0, atol=1e-10)


# -------------------------------------------------------------------- initial tearing
def test_the_initialization_does_not_divide_by_a_flow_at_rest():
    # p := p_a + W / m_flow with m_flow = 0 at the start made Newton's first residual
    # infinite; torn on m_flow and p it solves sqrt(p_b - p) (p - p_a) = W from p = 2
    t, (m_flow, p) = run("InitialTearing.FlowWork", ["m_flow", "p"], step_size=0.5)
    expected = brentq(lambda q: np.sqrt(10.0 - q) * (q - 1.0) - 4.0, 1.5, 5.0, xtol=1e-14)
    assert np.allclose(p, expected, rtol=0, atol=1e-9)
    assert np.allclose(m_flow, np.sqrt(10.0 - expected), rtol=0, atol=1e-9)


# ---------------------------------------------------------------------- Jacobian pattern
def test_a_function_without_derivative_keeps_its_arguments_in_the_jacobian_pattern():
    system = causalize_model(FLUID_HEATING, "FluidHeating.JacobianPattern.Oscillator")
    assert system.states == ("x1", "x2")
    # column j lists the derivatives that state j acts on: both act on both
    assert system.jacobian_rows == ((0, 1), (0, 1))


def test_the_oscillator_through_functions_without_derivative_integrates_exactly():
    t, (x1, x2) = run("JacobianPattern.Oscillator", ["x1", "x2"], step_size=0.01,
                      tolerance=1e-10)
    a, b = 5.0, 2.0
    assert np.allclose(x1, np.exp(-a * t) * np.cos(b * t), rtol=0, atol=1e-8)
    assert np.allclose(x2, -np.exp(-a * t) * np.sin(b * t), rtol=0, atol=1e-8)
