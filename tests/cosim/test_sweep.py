"""Sweeps on a Dask LocalCluster of 2 worker processes, shared by the module: the same numbers
as sequential ``cosim.run``s, Monte Carlo and explicit runs, failed runs reported while the
others complete, Parquet and CSV read back, and an interrupt that keeps the finished runs.

The feedback example settles at x = 1000 b / (1 - c) mm (Controller: y = b + c w).
"""
from __future__ import annotations

import csv
import os
import signal
import zipfile
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq
import pytest

import cosim
from cosim.cli import main
from cosim.sweeps import SweepInterrupted
from cosim.sweeps.table import CsvSink

FEEDBACK = Path(__file__).resolve().parents[2] / "ssp_examples" / "feedback.ssp"
OUTPUTS = ("Plant.x", "Controller.y")

# one cluster for the module: keep its tests on one xdist worker (--dist loadgroup)
pytestmark = pytest.mark.xdist_group("sweep-cluster")


@pytest.fixture(scope="module")
def client():
    from distributed import Client

    from cosim.sweeps.cluster import local_cluster

    with local_cluster(2) as cluster, Client(cluster) as client:  # as `--workers 2` makes it
        yield client


def final_values(parameters: dict, **settings) -> tuple[float, ...]:
    row = cosim.run(FEEDBACK, parameters=parameters, **settings).values[-1]
    return tuple(float(row[name]) for name in OUTPUTS)


def table_rows(values: np.ndarray, names) -> list[tuple]:
    return [tuple(row[name].item() for name in names) for row in values]


def cosim_plugins(client) -> list[str]:
    plugins = client.run(lambda dask_worker: list(dask_worker.plugins))
    return [name for names in plugins.values() for name in names if name.startswith("cosim")]


def test_a_grid_gives_the_numbers_of_sequential_runs(client, tmp_path):
    output = tmp_path / "grid.parquet"
    result = cosim.sweep(FEEDBACK, parameters=["Controller.b=1:4:6", "Controller.c=-1,-2,-3,-4"],
                         scheduler=client, output=output, batch_size=3)
    assert (len(result.design), result.finished, result.failures) == (24, 24, ())
    assert result.workers == 2 and not result.interrupted
    assert result.values.dtype.names == ("run", "Controller.b", "Controller.c") + OUTPUTS
    assert result.values["run"].tolist() == list(range(24))
    for row in result.values:
        b, c = float(row["Controller.b"]), int(row["Controller.c"])
        expected = final_values({"Controller.b": b, "Controller.c": c})
        assert tuple(float(row[name]) for name in OUTPUTS) == expected  # to the last bit
        assert row["Plant.x"] == pytest.approx(1000 * b / (1 - c), rel=1e-3)
    table = pq.read_table(output)
    assert table.column_names == list(result.values.dtype.names)
    assert str(table.schema.field("Controller.c").type) == "int64"
    by_run = sorted(zip(*(table.column(n).to_pylist() for n in table.column_names)))
    assert by_run == table_rows(result.values, table.column_names)
    assert cosim_plugins(client) == []  # the workers dropped the system when done


def test_series_written_as_csv_read_back(client, tmp_path):
    output = tmp_path / "series.csv"
    result = cosim.sweep(FEEDBACK, parameters={"Controller.b": [2.0, 3.0, 4.0]}, series=True,
                         record=["Plant.x"], stop_time=1.0, scheduler=client, output=output)
    with open(output, newline="") as file:
        rows = list(csv.reader(file))
    assert rows[0] == ["run", "Controller.b", "time", "Plant.x"]
    read = sorted((int(r[0]), float(r[1]), float(r[2]), float(r[3])) for r in rows[1:])
    assert read == table_rows(result.values, rows[0])
    for k, b in enumerate((2.0, 3.0, 4.0)):
        expected = cosim.run(FEEDBACK, stop_time=1.0, parameters={"Controller.b": b}).values
        mine = result.values[result.values["run"] == k]
        assert np.array_equal(mine["time"], expected["time"])
        assert np.array_equal(mine["Plant.x"], expected["Plant.x"])


def test_monte_carlo_and_explicit_runs_of_an_unpacked_folder(client, tmp_path):
    result = cosim.sweep(FEEDBACK, samples=6, distributions=["Controller.b=uniform(1,4)"],
                         seed=7, scheduler=client.scheduler.address)
    drawn = np.random.default_rng(7).uniform(1, 4, 6)
    assert np.array_equal(result.values["Controller.b"], drawn)
    assert result.design.seed == 7 and "seed 7" in result.summary()
    for row in result.values[:3]:
        expected = final_values({"Controller.b": float(row["Controller.b"])})
        assert tuple(float(row[name]) for name in OUTPUTS) == expected
    folder = tmp_path / "feedback"
    zipfile.ZipFile(FEEDBACK).extractall(folder)  # travels to the workers zipped
    runs = [{"Controller.b": 2.0, "Plant.a": -2.0}, {"Controller.b": 1.0, "Plant.a": -1.0}]
    explicit = cosim.sweep(folder, runs=runs, stop_time=1.0, scheduler=client)
    assert table_rows(explicit.values, ("run", "Controller.b", "Plant.a")) == \
        [(0, 2.0, -2.0), (1, 1.0, -1.0)]
    for row, parameters in zip(explicit.values, runs):
        assert tuple(float(row[n]) for n in OUTPUTS) == final_values(parameters, stop_time=1.0)


def test_failed_runs_are_reported_and_the_others_complete(client, tmp_path, built, capsys):
    output = tmp_path / "fail.parquet"
    arguments = ["sweep", str(built["Fail"]), "--param", "Fail.t_fail=0.25,2,0.5,3",
                 "--stop", "1", "--scheduler", client.scheduler.address, "-o", str(output),
                 "--quiet"]
    assert main(arguments) == 1
    failed = capsys.readouterr().err.splitlines()
    assert failed[0] == f"2 failed runs (all in {tmp_path / 'fail.failures.csv'}):"
    assert failed[1].startswith("  run 0 (Fail.t_fail=0.25): Fail at t = 0.25: fmi3DoStep "
                                "returned Error: x = 0.250992: the model fails after t_fail ")
    assert failed[2].startswith("  run 2 (Fail.t_fail=0.5): Fail at t = 0.5: fmi3DoStep ")
    table = pq.read_table(output).to_pydict()
    assert sorted(zip(table["run"], table["Fail.t_fail"], table["Fail.x"])) == \
        [(1, 2.0, pytest.approx(1.0, rel=1e-9)), (3, 3.0, pytest.approx(1.0, rel=1e-9))]
    with open(tmp_path / "fail.failures.csv", newline="") as file:
        rows = list(csv.reader(file))
    assert rows[0] == ["run", "Fail.t_fail", "error"]
    assert [r[:2] for r in rows[1:]] == [["0", "0.25"], ["2", "0.5"]]
    assert "the model fails after t_fail = 0.5" in rows[2][2]


@pytest.mark.parametrize("suffix", [".csv", ".parquet"])
def test_an_interrupt_keeps_the_finished_runs(client, tmp_path, monkeypatch, suffix):
    output = tmp_path / f"stopped{suffix}"
    sink = CsvSink if suffix == ".csv" else __import__(
        "cosim.sweeps.table", fromlist=["ParquetSink"]).ParquetSink
    add = sink.add
    seen = []

    def add_then_interrupt(self, chunk):
        add(self, chunk)
        seen.append(len(chunk[0]))
        if suffix == ".csv":  # on disk as soon as the batch is in, not only at the end
            assert len(output.read_text().splitlines()) == 1 + sum(seen)
        if len(seen) == 2:  # Ctrl-C while the second batch is being written
            os.kill(os.getpid(), signal.SIGINT)

    monkeypatch.setattr(sink, "add", add_then_interrupt)
    with pytest.raises(SweepInterrupted) as interrupted:
        cosim.sweep(FEEDBACK, parameters=["Controller.b=1:4:24"], stop_time=1.0,
                    scheduler=client, output=output, batch_size=2)
    result = interrupted.value.result
    assert result.interrupted and result.finished == 4 and len(result.values) == 4
    assert "4 of 24 runs (4 ok, 0 failed)" in result.summary()
    if suffix == ".csv":
        kept = np.genfromtxt(output, delimiter=",", names=True)
        kept_runs = sorted(kept["run"].astype(int).tolist())
    else:
        kept_runs = sorted(pq.read_table(output).column("run").to_pylist())
    assert kept_runs == sorted(result.values["run"].tolist())
    assert cosim_plugins(client) == []
    assert not client.processing() or not any(client.processing().values())


def test_command_line_on_its_own_local_cluster(tmp_path, capsys):
    output = tmp_path / "local.csv"
    assert main(["sweep", str(FEEDBACK), "--param", "Controller.b=2,4", "--workers", "1",
                 "--stop", "1", "-o", str(output), "--quiet"]) == 0
    assert capsys.readouterr() == ("", "")
    with open(output, newline="") as file:
        kept = sorted((int(r["run"]), r["Controller.b"], float(r["Plant.x"]))
                      for r in csv.DictReader(file))
    assert kept == [(k, str(b), final_values({"Controller.b": b}, stop_time=1.0)[0])
                    for k, b in enumerate((2, 4))]


CRASH_C = """
#include <stdlib.h>
#include "model.h"
Status model_initialize(ModelData *m) { return model_derivatives(m); }
Status model_derivatives(ModelData *m) {
    if (R(crash) > 0.5 && m->time > 0.1) abort();  /* takes its process down */
    R(der_x) = 1.0;
    return StatusOK;
}
Status model_jacobian(ModelData *m, double values[]) { (void)m; J(0, 0) = 0.0; return StatusOK; }
SMOOTH_MODEL_WITHOUT_EVENTS
"""


@pytest.mark.slow  # the worker dies three times, and its restarts take seconds
def test_a_run_that_kills_its_worker_is_reported_and_the_others_complete(tmp_path):
    from compiler.fmu import Experiment, ModelInterface, Variable, package_fmu

    interface = ModelInterface(
        name="Crash", identifier="Crash", description="der(x) = 1; abort() when crash = 1",
        variables=(Variable("x", causality="output", start=0.0, initial="exact"),
                   Variable("der(x)", derivative_of="x"),
                   Variable("crash", causality="parameter", variability="tunable", start=0.0)),
        jacobian=((0, 0),), experiment=Experiment(0.0, 1.0, 1e-6, 0.01))
    fmu = package_fmu(interface, CRASH_C, tmp_path / "Crash.fmu").path
    # one batch of three on a local cluster of its own: the batch kills the worker, its runs
    # go again one at a time, and only the run that crashes is lost
    result = cosim.sweep(fmu, parameters={"Crash.crash": [0.0, 1.0, 0.0]}, stop_time=0.5,
                         workers=1, batch_size=3)
    assert result.values["run"].tolist() == [0, 2]
    assert result.values["Crash.x"] == pytest.approx([0.5, 0.5], rel=1e-9)
    assert [(f.run, f.parameters, f.error) for f in result.failures] == [
        (1, {"Crash.crash": 1.0}, "the worker process died during this run (a crash in an FMU?)")]


def test_a_system_the_workers_cannot_prepare_stops_the_sweep(client):
    from cosim.master import Settings
    from cosim.sweeps import SweepError, build_design, parse_axis
    from cosim.sweeps.execute import Outcome, execute
    from cosim.sweeps.worker import SweepPlugin, SystemFiles

    plugin = SweepPlugin("cosim-test-broken", SystemFiles("broken.ssp", data=b"not a zip"),
                         Settings(), OUTPUTS, series=False)
    client.register_plugin(plugin, name=plugin.name)
    try:
        with pytest.raises(SweepError) as error:
            execute(client, plugin.name, build_design([parse_axis("Controller.b=1,2")]),
                    on_batch=None, outcome=Outcome())
    finally:
        client.unregister_worker_plugin(plugin.name)
    assert error.value.message.startswith("preparing the system on a worker failed: ")
    assert "broken.ssp" in error.value.message
