"""Crash isolation: FMUs that cosim did not build run in worker processes by default. A
segfault, an abort or an exit inside the FMU ends the run with one line (instance, signal,
time, function), exit code 1 and the results kept; the master itself survives. Isolated and
in-process runs give identical numbers, also for Model Exchange, loops with FMU-state rollback
and string parameters.
"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from test_faulty_fmus import check_rows_up_to_1, csv_table, run
from test_master_run import loop_description, pack

from cosim import api
from cosim.errors import CosimError
from cosim.fmi import instantiate, open_fmu
from cosim.fmi.isolation import FmuCrashError
from cosim.master.plan import Settings, build_plan
from cosim.results import read_mat
from cosim.ssp.builder import structure_from_description

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("name, line", [
    ("NullDeref", "NullDeref.fmu: error: instance 'NullDeref' crashed (signal 11) at t=1 in "
                  "fmi3DoStep: Segmentation fault (its last message: about to write through NULL "
                  "at t = 1)"),
    ("NullDeref2", "NullDeref2.fmu: error: instance 'NullDeref2' crashed (signal 11) at t=1 in "
                   "fmi2DoStep: Segmentation fault"),
    ("AbortAfter1", "AbortAfter1.fmu: error: instance 'AbortAfter1' crashed (signal 6) at t=1 in "
                    "fmi3DoStep: Aborted (its last message: an assertion fails at t = 1)"),
    ("Exit3", "Exit3.fmu: error: instance 'Exit3' exited (status 3) at t=1 in fmi3DoStep"),
])
def test_a_crash_ends_the_run_with_one_line_and_keeps_the_rows(tmp_path, built, capsys, caplog,
                                                               name, line):
    for suffix in (".csv", ".mat"):
        output = tmp_path / f"{name}{suffix}"
        code, out, err = run(capsys, built[name], "-o", output)
        assert (code, out, err) == (1, "", line + "\n")
        table = csv_table(output) if suffix == ".csv" else read_mat(output)
        check_rows_up_to_1(table, f"{name}.y")


def test_the_crash_error_and_its_rows_from_the_api(built):
    with pytest.raises(FmuCrashError) as caught:
        api.run(built["NullDeref"], stop_time=1.5)
    error = caught.value
    assert (error.instance, error.signal, error.function, error.time) == \
        ("NullDeref", 11, "fmi3DoStep", 1.0)
    check_rows_up_to_1(error.result.values, "NullDeref.y")


def test_without_isolation_the_crash_takes_the_process_down(built):
    # What the worker spares the master: the same FMU in-process kills the interpreter.
    done = subprocess.run([sys.executable, "-m", "cosim", "run", str(built["NullDeref"]),
                           "--no-isolate", "--quiet"], capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": f"{ROOT / 'src'}:{ROOT}"})
    assert done.returncode == -11


def _isolated(built, settings: Settings, *names: str) -> dict[str, bool]:
    components = {n: {"source": f"resources/{n}.fmu"} for n in names}
    structure = structure_from_description({"name": "s", "components": components})
    infos = {n: open_fmu(built[n], built.directory / "opened", n).info for n in names}
    return {c.path: c.isolated for c in build_plan(structure, infos, settings).components}


@pytest.mark.slow  # builds a pythonfmu3 FMU
def test_isolation_is_the_default_for_fmus_we_did_not_build(built):
    names = ("Lag", "Healthy", "PyGain3")
    assert _isolated(built, Settings(), *names) == {"Lag": False, "Healthy": True,
                                                    "PyGain3": True}
    assert _isolated(built, Settings(isolate=True), *names) == dict.fromkeys(names, True)
    assert _isolated(built, Settings(isolate=False), *names) == dict.fromkeys(names, False)


def test_isolated_and_in_process_runs_agree(tmp_path, built):
    description = loop_description(0.5, 0.8)  # an algebraic loop: FMU state get/set/free
    description["components"]["H"] = {"source": "resources/Healthy.fmu",
                                      "connectors": {"u": "input Real", "y": "output Real"}}
    description["connections"].append(("G2.y", "H.u", {}))
    system = pack(tmp_path, built, description, fmus=("Lag", "Gain", "Healthy"))
    isolated = api.run(system, isolate=True).values
    in_process = api.run(system, isolate=False).values
    assert isolated.dtype == in_process.dtype
    for name in isolated.dtype.names:
        assert np.array_equal(isolated[name], in_process[name]), name


@pytest.mark.slow  # builds two runtime fixtures
@pytest.mark.parametrize("name, parameters", [
    ("BouncingBall", {}),                                 # FMI 3.0 ME: events, directional derivatives
    ("Counter", {"Counter.label": "isolated counter"}),   # time events, a String parameter
])
def test_model_exchange_through_the_worker(built, name, parameters):
    runs = [api.run(built[name], parameters=parameters, isolate=isolate, step_size=0.05)
            for isolate in (True, False)]
    for field in runs[0].values.dtype.names:
        assert np.array_equal(runs[0].values[field], runs[1].values[field]), field


def test_the_worker_ends_with_its_instance(built, tmp_path):
    fmu = open_fmu(built["Healthy"], tmp_path)
    instance = instantiate(fmu, "h", isolate=True)
    pid = instance.library.pid
    assert instance.library.isolated and pid != os.getpid()
    os.kill(pid, 0)  # alive
    instance.free()
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)


def test_a_binary_the_worker_cannot_load_is_one_line(tmp_path, built):
    import zipfile

    fmu = tmp_path / "Broken.fmu"
    with zipfile.ZipFile(built["Healthy"]) as source, zipfile.ZipFile(fmu, "w") as target:
        for item in source.infolist():
            data = source.read(item)
            target.writestr(item, b"not an ELF file" if item.filename.endswith(".so") else data)
    with pytest.raises(Exception) as caught:
        api.run(fmu)
    assert str(caught.value) == (f"{fmu}: cannot load the binary: binaries/x86_64-linux/"
                                 f"Healthy.so: file too short")


MODES = pytest.mark.parametrize("lone, remote", [
    (True, True),     # the default: a lone FMU steps in its worker, chunks of steps per call
    (False, True),    # a round trip per communication step, the driver in the worker
    (False, False),   # a round trip per FMI call (the driver here, the FMU there)
], ids=["lone", "per-step", "per-call"])


def _same_tables(a, b) -> bool:
    return a.dtype == b.dtype and len(a) == len(b) and \
        all(np.array_equal(a[name], b[name]) for name in a.dtype.names)


@MODES
@pytest.mark.parametrize("name, interface", [("BouncingBall", "me"), ("VanDerPol", "me"),
                                             ("Healthy", "cs"), ("Terminate2", "cs")])
def test_every_way_of_isolating_gives_the_same_rows(built, monkeypatch, name, interface, lone,
                                                    remote):
    import cosim.master.components as components
    import cosim.master.native_tables as native_tables

    monkeypatch.setattr(native_tables, "LONE_STEPPING", lone)
    monkeypatch.setattr(components, "REMOTE_DRIVERS", remote)
    settings = dict(interface=interface, stop_time=2.0, step_size=0.01)
    here = api.run(built[name], isolate=False, **settings)
    there = api.run(built[name], isolate=True, **settings)
    assert _same_tables(here.values, there.values)  # event rows included
    assert here.terminated_by == there.terminated_by


@MODES
def test_a_model_exchange_failure_in_the_worker_reads_as_in_process(built, monkeypatch, lone,
                                                                    remote):
    import cosim.master.components as components
    import cosim.master.native_tables as native_tables

    monkeypatch.setattr(native_tables, "LONE_STEPPING", lone)
    monkeypatch.setattr(components, "REMOTE_DRIVERS", remote)
    errors = []
    for isolate in (False, True):
        with pytest.raises(CosimError) as caught:
            api.run(built["Chatter"], interface="me", isolate=isolate, stop_time=1.0,
                    step_size=0.1)
        errors.append(caught.value)
    assert str(errors[1]) == str(errors[0])
    assert "chattering at t = 0.5" in str(errors[0])
    assert _same_tables(errors[0].result.values, errors[1].result.values)
