"""``--timeout``: a run that takes longer than its wall-clock budget stops with one line and
keeps its results: between steps for in-process FMUs, and inside the call for an isolated FMU
that hangs (its worker is stopped).
"""
from __future__ import annotations

import numpy as np
import pytest
from test_faulty_fmus import check_rows_up_to_1, csv_table, run

from cosim import api
from cosim.master.failures import RunTimeout
from cosim.master.plan import PlanError
from cosim.results import read_mat


def test_a_hanging_isolated_fmu_is_stopped(tmp_path, built, capsys):
    output = tmp_path / "hang.csv"
    code, out, err = run(capsys, built["Hang"], "-o", output, "--timeout", "0.5")
    assert (code, out) == (1, "")
    assert err == ("Hang.fmu: error: timeout of 0.5 s (wall clock) reached (instance 'Hang' did "
                   "not return from fmi3DoStep at t=1 (its worker was stopped)); the results up "
                   "to t=1 are kept\n")
    check_rows_up_to_1(csv_table(output), "Hang.y")


def test_a_long_in_process_run_stops_between_steps(tmp_path, built):
    output = tmp_path / "long.mat"
    # the timeout also covers loading and initializing the FMU: 1 s leaves room for that on a
    # loaded CI machine (0.2 s once ran out during initialization, with no rows to keep)
    with pytest.raises(RunTimeout) as caught:
        api.run(built["Lag"], stop_time=1e9, step_size=1e-3, timeout=1.0, output=output,
                isolate=False)
    kept = caught.value.result.values
    reached = kept["time"][-1]
    assert 0 < reached < 1e9 and len(kept) > 1
    assert str(caught.value) == (f"Lag.fmu: timeout of 1 s (wall clock) reached; the "
                                 f"results up to t={reached:.15g} are kept")
    on_disk = read_mat(output)
    assert np.array_equal(on_disk["time"], kept["time"])
    assert np.array_equal(on_disk["Lag.x"], kept["Lag.x"])


def test_a_run_within_its_timeout_is_unchanged(built):
    fast = api.run(built["Lag"], stop_time=1.0, timeout=60)
    assert np.array_equal(fast.values["Lag.x"], api.run(built["Lag"], stop_time=1.0).values["Lag.x"])


def test_the_timeout_must_be_positive(built):
    with pytest.raises(PlanError) as caught:
        api.run(built["Lag"], timeout=0)
    assert str(caught.value) == "timeout 0 s is not positive"


def test_a_long_model_exchange_step_stops_between_integrator_steps(built):
    # one communication step over 1e6 s of a stiff oscillator: the driver checks the deadline
    # after each of its integrator steps (it would take hours to finish the step)
    with pytest.raises(RunTimeout) as caught:
        api.run(built["VanDerPol"], interface="me", isolate=False, stop_time=1e6,
                step_size=1e6, timeout=0.3)
    assert list(caught.value.result.values["time"]) == [0.0]


def test_a_hanging_in_process_fmu_ends_the_command_with_its_rows(tmp_path, built):
    # an in-process call cannot be interrupted: the command writes the rows it has and exits
    import subprocess
    import sys

    output = tmp_path / "hang.csv"
    done = subprocess.run([sys.executable, "-m", "cosim", "run", str(built["Hang"]),
                           "--no-isolate", "--timeout", "0.5", "-o", str(output), "--quiet"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr == ("Hang.fmu: error: timeout of 0.5 s (wall clock) reached while an "
                           "FMU loaded into this process (not isolated) did not return from a "
                           "call; the results up to t=1 are kept\n")
    check_rows_up_to_1(csv_table(output), "Hang.y")
