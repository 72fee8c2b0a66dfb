"""Large sparse systems compiled from Modelica with arrays (tests/runtime/sparse_problems.py):
our Radau IIA takes its sparse LU (more than 50 states, a sparse Jacobian), reuses pivots
across factorizations and keeps the Jacobian and step for long (large-system settings), and
still meets the tolerance against scipy's Radau at rtol 1e-12 on the same equations.
tools/bench_sparse.py times the large sizes against CVODE."""
from __future__ import annotations

import numpy as np
import pytest
from scipy.integrate import solve_ivp

from compiler import compile_fmu
from tests.runtime.drive import cs_on_grid, open_fmu, scaled_error
from tests.runtime.sparse_problems import brusselator, rod

RTOL = 1e-6


@pytest.mark.parametrize("case", [brusselator(6), rod(80)], ids=lambda case: case.name.split()[0])
def test_large_sparse_system_meets_the_tolerance(case, tmp_path):
    source = tmp_path / f"{case.name.split()[0]}.mo"
    source.write_text(case.modelica)
    fmu = compile_fmu(source, output=tmp_path, environ={})
    grid = np.linspace(0.0, case.stop, 5)
    ours = cs_on_grid(fmu, grid, case.state_names, RTOL)
    exact = solve_ivp(case.rhs, (0.0, case.stop), case.y0, method="Radau", t_eval=grid, rtol=1e-12,
                      atol=1e-12, jac_sparsity=case.sparsity).y.T
    assert len(case.y0) > 50
    assert scaled_error(ours, exact, RTOL, RTOL) < 10.0  # 0.64 and 0.09 when written


def test_the_sparse_path_is_taken(tmp_path):
    case = rod(80)
    source = tmp_path / "Rod.mo"
    source.write_text(case.modelica)
    fmu = compile_fmu(source, output=tmp_path, environ={})
    messages = []
    description, slave = open_fmu(fmu, "CS", loggingOn=True,
                                  logMessage=lambda env, status, category, message: messages.append(message))
    slave.setDebugLogging(True, ["logIntegrator"])
    slave.enterInitializationMode(tolerance=RTOL, startTime=0.0)
    slave.exitInitializationMode()
    slave.doStep(currentCommunicationPoint=0.0, communicationStepSize=case.stop)
    slave.terminate()
    slave.freeInstance()
    statistics = messages[-1].decode()
    assert "sparse LU" in statistics, statistics
