"""The stiff fixtures against stored references (scipy Radau, rtol 1e-12), in Co-Simulation
(our Radau IIA) and Model Exchange (scipy's Radau and fmpy's CVode driving the FMU)."""
from __future__ import annotations

import numpy as np
import pytest
from fmpy import simulate_fmu
from fmpy.validation import validate_fmu

from tests.runtime.drive import cs_on_grid, me_with_scipy, references, scaled_error
from tests.runtime.fixtures import FIXTURES
from tests.runtime.problems import PROBLEMS

TOLERANCE = 1e-6  # the fixtures' DefaultExperiment tolerance


@pytest.mark.parametrize("name", sorted(FIXTURES))
def test_fixture_passes_fmpy_validation(fmus, name):
    assert validate_fmu(str(fmus[name])) == []


@pytest.mark.parametrize("name", sorted(PROBLEMS))
def test_co_simulation_is_within_tolerance_of_reference(fmus, name):
    """Our Radau IIA, stepped by fmpy from grid point to grid point, at the requested tolerance."""
    problem, reference = PROBLEMS[name], references(name)
    values = cs_on_grid(fmus[name], reference[:, 0], problem.state_names, TOLERANCE)
    assert scaled_error(values, reference[:, 1:], TOLERANCE, TOLERANCE * problem.atol_scale) <= 1.0


@pytest.mark.parametrize("name", sorted(PROBLEMS))
def test_fmpy_simulate_co_simulation_is_within_tolerance(fmus, name):
    """fmpy.simulate_fmu on its own uniform output grid; compared where the reference has points."""
    problem, reference = PROBLEMS[name], references(name)
    uniform = reference[np.isclose(np.diff(reference[:, 0], prepend=-1.0), reference[-1, 0] / 100)]
    result = simulate_fmu(str(fmus[name]), fmi_type="CoSimulation", stop_time=reference[-1, 0],
                          output_interval=reference[-1, 0] / 100, relative_tolerance=TOLERANCE)
    rows = np.searchsorted(result["time"], uniform[:, 0])
    assert np.allclose(result["time"][rows], uniform[:, 0])
    values = np.column_stack([result[n][rows] for n in problem.state_names])
    assert scaled_error(values, uniform[:, 1:], TOLERANCE, TOLERANCE * problem.atol_scale) <= 1.0


@pytest.mark.parametrize("name", sorted(PROBLEMS))
def test_model_exchange_is_exact_under_scipy_radau(fmus, name):
    """scipy's Radau at rtol 1e-9 on the FMU's derivatives and directional derivatives lands
    within the requested tolerance of the reference: the ME interface computes the model."""
    problem, reference = PROBLEMS[name], references(name)
    values = me_with_scipy(fmus[name], reference[:, 0], problem.state_names, 1e-9, 1e-9 * problem.atol_scale)
    assert scaled_error(values, reference[:, 1:], TOLERANCE, TOLERANCE * problem.atol_scale) <= 1.0


def test_fmpy_model_exchange_hires(fmus):
    """fmpy's CVode on the ME interface. CVode's global error runs about ten times its local
    tolerance (its ratio is 36 at 1e-6), so it is asked for 1e-8 and checked at 1e-6."""
    problem, reference = PROBLEMS["Hires"], references("Hires")
    result = simulate_fmu(str(fmus["Hires"]), fmi_type="ModelExchange", stop_time=reference[-1, 0],
                          output_interval=reference[-1, 0] / 1000, relative_tolerance=1e-8)
    rows = [int(np.argmin(np.abs(result["time"] - t))) for t in reference[:, 0]]
    values = np.column_stack([result[n][rows] for n in problem.state_names])
    assert scaled_error(values, reference[:, 1:], TOLERANCE, TOLERANCE * problem.atol_scale) <= 1.0


def test_fmpy_model_exchange_robertson_early_phase(fmus):
    """fmpy allows CVode only 500 steps per output interval, too few for Robertson's 1e11 span
    in one go; on [0, 40] (the classic horizon) CVode at 1e-8 meets 1e-6."""
    problem = PROBLEMS["Robertson"]
    result = simulate_fmu(str(fmus["Robertson"]), fmi_type="ModelExchange", stop_time=40.0,
                          output_interval=0.4, relative_tolerance=1e-8)
    from scipy.integrate import solve_ivp
    exact = solve_ivp(problem.rhs, (0.0, 40.0), problem.y0, method="Radau", jac=problem.jacobian,
                      t_eval=result["time"], rtol=1e-12, atol=1e-12 * problem.atol_scale)
    values = np.column_stack([result[n] for n in problem.state_names])
    assert scaled_error(values, exact.y.T, TOLERANCE, TOLERANCE * problem.atol_scale) <= 1.0


def test_fmpy_model_exchange_vanderpol_runs(fmus):
    """Van der Pol with eps = 1e-6 is beyond fmpy's CVode at tight tolerances (it stops with
    'mxstep steps taken' at 1e-6 and below: fmpy allows 500 steps per output interval). At 1e-5
    it completes, with a phase error after each relaxation jump that keeps its results within
    1e-3 (relative) of the reference in the smooth phases; the exactness of the interface
    itself is test_model_exchange_is_exact_under_scipy_radau."""
    reference = references("VanDerPol")
    result = simulate_fmu(str(fmus["VanDerPol"]), fmi_type="ModelExchange", stop_time=2.0,
                          output_interval=0.02, relative_tolerance=1e-5)
    rows = [int(np.argmin(np.abs(result["time"] - t))) for t in reference[:, 0]]
    values = np.column_stack([result[n][rows] for n in ("y1", "y2")])
    slow = np.abs(reference[:, 1]) > 1.2  # away from the jumps, where |y1| passes 1
    assert scaled_error(values[slow], reference[slow, 1:], 1e-3, 1e-3) <= 1.0


def test_dahlquist_matches_exponential_in_both_interfaces(fmus):
    time = np.linspace(0.0, 10.0, 101)
    exact = np.exp(-time)
    for kind, tolerance in (("CoSimulation", 1e-6), ("ModelExchange", 1e-8)):
        result = simulate_fmu(str(fmus["Dahlquist"]), fmi_type=kind, stop_time=10.0, output_interval=0.1,
                              relative_tolerance=tolerance)
        assert np.allclose(result["time"], time)
        assert scaled_error(result["x"], exact, 1e-6, 1e-6) <= 1.0, kind


def test_tunable_parameter_changes_the_dynamics(fmus):
    result = simulate_fmu(str(fmus["Dahlquist"]), fmi_type="CoSimulation", stop_time=2.0, output_interval=0.5,
                          start_values={"k": 3.0, "x": 2.0})
    assert scaled_error(result["x"], 2.0 * np.exp(-3.0 * result["time"]), 1e-6, 1e-6) <= 1.0
