"""Third-party FMUs beside ours: pythonfmu3 (FMI 3.0) and pythonfmu (FMI 2.0) Co-Simulation
FMUs in one .ssp with the runtime's FMUs, against the analytic solution of the coupled system.

Lag: x' = -x + u, x(0) = 1; u = k2 k3 x through PyGain3 (y = k3 u) and PyGain2 (y = k2 u), so
x = exp((k2 k3 - 1) t). Gauss-Seidel holds u over each step: the error is first order in h.
"""
from __future__ import annotations

import numpy as np
import pytest
from test_master_run import pack

from cosim import api
from cosim.errors import CosimError

pytestmark = pytest.mark.slow  # builds Python FMUs and starts their interpreters


def feedback(k3: float, k2: float) -> dict:
    return {"name": "mixed", "stop_time": 1.0, "tolerance": 1e-10, "components": {
        "Plant": {"source": "resources/Lag.fmu", "connectors": {"u": "input Real",
                                                                "x": "output Real"},
                  "parameters": {"x0": 1.0, "a": -1.0, "b": 1.0}},
        "G3": {"source": "resources/PyGain3.fmu", "connectors": {"u": "input Real",
                                                                  "y": "output Real"},
               "parameters": {"k": k3}},
        "G2": {"source": "resources/PyGain2.fmu", "connectors": {"u": "input Real",
                                                                  "y": "output Real"},
               "parameters": {"k": k2}}},
        "connections": ["Plant.x -> G3.u", "G3.y -> G2.u", "G2.y -> Plant.u"]}


def test_pythonfmu3_and_pythonfmu_with_our_fmus(tmp_path, built):
    system = pack(tmp_path, built, feedback(2.0, 0.25), fmus=("Lag", "PyGain3", "PyGain2"))
    errors = []
    for h in (0.01, 0.005):
        result = api.run(system, step_size=h)
        t = result.values["time"]
        exact = np.exp(-0.5 * t)
        # the gains are exact at every point: G3.y = 2 x, G2.y = 0.25 G3.y (pythonfmu computes
        # y in doStep only, so at the start it still shows its initial 0)
        values = result.values
        assert np.allclose(values["G3.y"], 2.0 * values["Plant.x"], rtol=1e-14)
        assert np.allclose(values["G2.y"][1:], 0.25 * values["G3.y"][1:], rtol=1e-14)
        errors.append(np.max(np.abs(result.values["Plant.x"] - exact)))
        assert errors[-1] < 0.5 * h
    assert errors[1] / errors[0] == pytest.approx(0.5, abs=0.05)  # first order in h


def test_loop_through_an_fmu_without_state_access_is_refused(tmp_path, built):
    description = {"name": "loop", "components": {
        "G1": {"source": "resources/Gain.fmu", "connectors": {"w": "input Real",
                                                               "y": "output Real"}},
        "G3": {"source": "resources/PyGain3.fmu", "connectors": {"u": "input Real",
                                                                  "y": "output Real"}}},
        "connections": ["G1.y -> G3.u", "G3.y -> G1.w"]}
    system = pack(tmp_path, built, description, fmus=("Gain", "PyGain3"))
    with pytest.raises(CosimError) as error:
        api.run(system)
    assert error.value.message == (
        "algebraic loop G1.y -> G3.u -> G3.y -> G1.w: component 'G3' cannot get and set its "
        "FMU state (canGetAndSetFMUState), which solving the loop by iteration needs; use "
        "--algorithm jacobi to break it with a delay")
    assert api.run(system, algorithm="jacobi", stop_time=0.1, step_size=0.01).steps == 10
