"""The README's code keeps working."""
from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from fmpy import simulate_fmu
from fmpy.validation import validate_fmu

from cosim.cli import main

README = Path(__file__).resolve().parents[2] / "README.md"


def test_building_an_fmu_from_c_example(tmp_path, monkeypatch):
    code = re.search(r"```python\n(.*?)```", README.read_text(), re.S).group(1)
    monkeypatch.chdir(tmp_path)
    exec(compile(code, "README.md", "exec"), {})
    assert validate_fmu("Decay.fmu") == []
    result = simulate_fmu("Decay.fmu", stop_time=1.0, output_interval=0.25)
    assert np.allclose(result["x"], np.exp(-2.0 * result["time"]), rtol=1e-6)


def test_quick_start_commands_run(tmp_path, monkeypatch, capsys):
    block = re.search(r"## Quick start\n\n```sh\n(.*?)```", README.read_text(), re.S).group(1)
    commands = [line.split("#")[0].split() for line in block.strip().splitlines()]
    assert len(commands) == 2
    assert commands[0][:2] == ["cosim", "run"]
    target = README.parent / commands[0][2]
    monkeypatch.chdir(tmp_path)
    assert main(["run", str(target), *commands[0][3:]]) == 0
    assert capsys.readouterr().out.startswith("500 steps of 0.01 s to t = 5 in ")
    table = np.loadtxt(tmp_path / "feedback.csv", delimiter=",", skiprows=1)
    assert (tmp_path / "feedback.csv").read_text().startswith("time,Plant.x,Controller.y\n")
    assert table[-1, 1] == pytest.approx(800.0, rel=1e-6)  # k / (1 + k) m with k = 4
    assert commands[1][:3] == ["python", "-m", "pytest"]


@pytest.mark.slow
def test_the_example_rebuilds(tmp_path):
    from ssp_examples.build import build_feedback

    from cosim.api import run

    rebuilt = run(build_feedback(tmp_path / "feedback.ssp")).values
    committed = run(README.parent / "ssp_examples" / "feedback.ssp").values
    for name in committed.dtype.names:
        assert np.allclose(rebuilt[name], committed[name], rtol=1e-12, atol=0)


@pytest.mark.xdist_group("sweep-cluster")  # beside the sweep tests' cluster, not at once
def test_sweeps_first_example_runs(tmp_path, monkeypatch, capsys):
    import pyarrow.parquet as pq

    block = re.search(r"## Sweeps\n\n```sh\n(.*?)```", README.read_text(), re.S).group(1)
    command = next(line.split() for line in block.splitlines()
                   if line.startswith("cosim sweep ssp_examples/feedback.ssp --param"))
    target = README.parent / command[2]
    monkeypatch.chdir(tmp_path)
    assert main(["sweep", str(target), *command[3:], "--quiet"]) == 0
    table = pq.read_table(tmp_path / "grid.parquet").to_pydict()
    assert len(table["run"]) == 62 and sorted(table["run"]) == list(range(62))
    for b, c, x in zip(table["Controller.b"], table["Controller.c"], table["Plant.x"]):
        assert x == pytest.approx(1000 * b / (1 - c), rel=1e-3)  # x settles at b / (1 - c) m


def test_compiling_modelica_commands_run(tmp_path, monkeypatch, capsys):
    block = re.search(r"## Compiling Modelica\n\n```sh\n(.*?)```", README.read_text(), re.S).group(1)
    commands = [line.split() for line in block.strip().splitlines()]
    assert [command[:2] for command in commands] == [["cosim", "compile"], ["cosim", "run"]]
    monkeypatch.delenv("MODELICAPATH", raising=False)
    monkeypatch.chdir(tmp_path)
    for command in commands:
        command[2] = str(README.parent / command[2])
        assert main([*command[1:], *(["--quiet"] if command[1] == "run" else [])]) == 0
    assert validate_fmu("rc.fmu") == []
    table = np.loadtxt("rc.csv", delimiter=",", skiprows=1)
    exact = 10.0 * (1.0 - np.exp(-table[:, 0] / 0.1))  # the capacitor charges with R C = 0.1 s
    assert np.allclose(table[:, 1], exact, rtol=1e-5, atol=1e-6)
