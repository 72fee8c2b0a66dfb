"""mixed_thirdparty: a tank compiled by cosim from Modelica under a level controller built
by pythonfmu3 during the test (a third-party FMU, run isolated in a worker process).

The controller is discrete: at each communication point it reads the level the tank just
reached (Gauss-Seidel: the tank steps first, its output is a state) and sets the pump flow
for the next step. The reference replays that sampled-data loop exactly: the tank's ODE
integrated by scipy (DOP853, rtol 1e-12) over each step with the flow held, the PI law in
Python.
"""
from __future__ import annotations

import shutil
import subprocess
import sys

import numpy as np
import pytest
from scipy.integrate import solve_ivp

from cosim import api
from tests.examples.conftest import EXAMPLES

pytestmark = pytest.mark.slow  # builds a Python FMU and starts its interpreter

AREA, VALVE, H0 = 0.5, 0.01, 0.2
H_REF, KP, KI, Q_MAX = 1.0, 0.05, 0.002, 0.03
STEP, STOP = 1.0, 600.0


def tank(t, h, q_in):
    return [(q_in - VALVE * np.sqrt(max(h[0], 0.0))) / AREA]


def reference():
    """Levels and pump flows at the communication points."""
    level, flow, integral = H0, 0.0, 0.0  # the controller's output before its first step
    levels, flows = [level], [flow]
    for k in range(round(STOP / STEP)):
        piece = solve_ivp(tank, (k * STEP, (k + 1) * STEP), [level], args=(flow,),
                          method="DOP853", rtol=1e-12, atol=1e-14)
        level = piece.y[0, -1]
        error = H_REF - level
        demand = KP * error + KI * (integral + error * STEP)
        if 0.0 <= demand <= Q_MAX:
            integral += error * STEP
        flow = min(max(demand, 0.0), Q_MAX)
        levels.append(level)
        flows.append(flow)
    return np.array(levels), np.array(flows)


@pytest.fixture(scope="module")
def example(tmp_path_factory):
    """A copy of the example with the controller FMU built from its Python source."""
    folder = tmp_path_factory.mktemp("mixed") / "mixed_thirdparty"
    shutil.copytree(EXAMPLES / "mixed_thirdparty", folder,
                    ignore=shutil.ignore_patterns("*.fmu"))
    subprocess.run([sys.executable, "-m", "pythonfmu3", "build", "-f", "LevelController.py",
                    "-d", "."], cwd=folder, check=True, capture_output=True)
    return folder


def test_example_with_its_built_fmu_validates_without_problems(example, schema_2):
    report = api.validate(example, schema_dir=schema_2)
    assert [str(d) for d in report.diagnostics] == []


def test_tank_under_a_pythonfmu3_controller_matches_the_sampled_data_reference(example):
    result = api.run(example / "SystemStructure.ssd", tolerance=1e-10)
    values = result.values
    levels, flows = reference()
    assert np.allclose(values["time"], np.arange(len(levels)) * STEP)
    print(f"level: peak {values['Tank.h'].max():.6f} m (reference {levels.max():.6f} m), "
          f"final {values['Tank.h'][-1]:.6f} m")
    assert np.max(np.abs(values["Tank.h"] - levels)) < 1e-9
    assert np.max(np.abs(values["Controller.q"] - flows)) < 1e-10
    # the physics: the pump saturates for the first five steps, the level overshoots by 2 %
    # and settles on the set point with the outflow balancing the pump
    assert np.all(values["Controller.q"][1:6] == Q_MAX) and values["Controller.q"][6] < Q_MAX
    assert values["Tank.h"].max() == pytest.approx(1.0203, abs=1e-4)
    assert values["Tank.h"][-1] == pytest.approx(H_REF, abs=1e-4)
    assert values["Tank.q_out"][-1] == pytest.approx(values["Controller.q"][-1], rel=1e-3)
