"""The stiff problems compiled from Modelica (fixtures/modelica/*.mo, the equations of the
hand-written fixtures/*.c) against the stored references at the fixtures' tolerance: in
Co-Simulation (our Radau IIA), and in Model Exchange under scipy's Radau (the emitted
derivatives and Jacobian). tools/bench_radau.py times them against the hand-written C."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from fmpy import read_model_description, simulate_fmu
from fmpy.validation import validate_fmu

from compiler import compile_fmu
from tests.runtime.drive import cs_on_grid, me_with_scipy, references, scaled_error
from tests.runtime.problems import PROBLEMS

MODELICA = Path(__file__).parent / "fixtures" / "modelica"
TOLERANCE = 1e-6  # the fixtures' DefaultExperiment tolerance


@pytest.fixture(scope="module")
def compiled(tmp_path_factory):
    folder = tmp_path_factory.mktemp("compiled")
    paths: dict[str, Path] = {}

    def fmu(name: str) -> Path:
        if name not in paths:
            paths[name] = compile_fmu(MODELICA / f"{name}.mo", output=folder, environ={})
        return paths[name]

    return fmu


@pytest.mark.parametrize("name", sorted(PROBLEMS) + ["Dahlquist"])
def test_compiled_fixture_is_a_valid_fmu_with_the_fixtures_interface(compiled, name):
    path = compiled(name)
    assert validate_fmu(str(path)) == []
    description = read_model_description(path)
    states = [unknown.variable.derivative.name for unknown in description.derivatives]
    nominals = {v.name: v.nominal for v in description.modelVariables}
    expected = PROBLEMS[name].state_names if name in PROBLEMS else ("x",)
    assert tuple(states) == expected
    scale = PROBLEMS[name].atol_scale if name in PROBLEMS else np.ones(1)
    assert [float(nominals[s] or 1.0) for s in states] == list(scale)  # so atol = rtol nominal
    experiment = description.defaultExperiment
    assert float(experiment.tolerance) == TOLERANCE


@pytest.mark.parametrize("name", sorted(PROBLEMS))
def test_compiled_co_simulation_is_within_tolerance_of_reference(compiled, name):
    problem, reference = PROBLEMS[name], references(name)
    values = cs_on_grid(compiled(name), reference[:, 0], problem.state_names, TOLERANCE)
    assert scaled_error(values, reference[:, 1:], TOLERANCE, TOLERANCE * problem.atol_scale) <= 1.0


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(PROBLEMS))
def test_compiled_model_exchange_is_exact_under_scipy_radau(compiled, name):
    problem, reference = PROBLEMS[name], references(name)
    values = me_with_scipy(compiled(name), reference[:, 0], problem.state_names, 1e-9,
                           1e-9 * problem.atol_scale)
    assert scaled_error(values, reference[:, 1:], TOLERANCE, TOLERANCE * problem.atol_scale) <= 1.0


@pytest.mark.parametrize("k", [1.0, 1e4])
def test_compiled_dahlquist_matches_the_exponential(compiled, k):
    result = simulate_fmu(str(compiled("Dahlquist")), fmi_type="CoSimulation", stop_time=10.0,
                          output_interval=0.1, relative_tolerance=TOLERANCE,
                          start_values={"k": k})
    exact = np.exp(-k * result["time"])
    assert scaled_error(result["x"], exact, TOLERANCE, TOLERANCE) <= 1.0
