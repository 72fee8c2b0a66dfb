"""The README's commands and code keep working, run as printed.

The quick start's `cosim` commands run exactly as the README prints them, from a folder where
`ssp_examples/` is the repository's (the `pip install` before them is CI's job: .ci/run runs
the whole lines in a fresh venv). The Python blocks run as they are.
"""
from __future__ import annotations

import re
import shlex
from pathlib import Path

import numpy as np
import pytest
from fmpy.validation import validate_fmu

from cosim.cli import build_parser, main

pytestmark = pytest.mark.usefixtures("module_fmu_cache")  # compiled FMUs: a cache of the module

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
VERBS = ("check", "flatten", "compile", "run", "info", "validate", "sweep", "pack", "plot",
         "diagram")


def block(heading: str, language: str = "sh") -> str:
    found = re.search(rf"## {heading}\n.*?```{language}\n(.*?)```", README.read_text(), re.S)
    assert found, f"README has no {language} block under '## {heading}'"
    return found.group(1)


def python_blocks() -> list[str]:
    return re.findall(r"```python\n(.*?)```", README.read_text(), re.S)


def quick_start() -> list[list[str]]:
    """The quick start's lines, each split at `&&` into commands (as argument lists)."""
    lines = [line for line in block("Quick start").splitlines() if line.strip()]
    return [[shlex.split(part) for part in line.split("&&")] for line in lines]


@pytest.fixture
def beside_examples(tmp_path, monkeypatch):
    """A working folder where the README's relative paths (ssp_examples/...) resolve."""
    (tmp_path / "ssp_examples").symlink_to(ROOT / "ssp_examples")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def assert_png(path: Path) -> None:
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and path.stat().st_size > 10_000


def test_quick_start_shape():
    (install, run), (install_test, tests) = quick_start()
    assert install == ["pip", "install", "-e", ".[plot]"]
    assert run[:2] == ["cosim", "run"] and "--plot" in run and "-o" in run
    assert install_test == ["pip", "install", "-e", ".[test]"]
    assert tests == ["python3", "-m", "pytest", "-n", "auto"]


def test_quick_start_runs_as_printed(beside_examples, capsys):
    run = quick_start()[0][1]
    assert main(run[1:]) == 0
    assert capsys.readouterr().out.startswith("1500 steps of 0.001 s to t = 1.5 in ")
    image, table = beside_examples / run[run.index("--plot") + 1], \
        beside_examples / run[run.index("-o") + 1]
    assert_png(image)
    header = table.read_text().splitlines()[0].split(",")
    values = np.loadtxt(table, delimiter=",", skiprows=1)
    assert header[:2] == ["time", "Road.z_r"] and "Chassis.a_s" in header
    assert values.shape == (1501, len(header))
    # the example's README: peak chassis acceleration 11.40 m/s2, bump 50 mm high
    assert np.abs(values[:, header.index("Chassis.a_s")]).max() == pytest.approx(11.40, abs=0.01)
    assert values[:, header.index("Road.z_r")].max() == pytest.approx(0.05, rel=1e-3)


def test_python_example_runs(beside_examples, capsys):
    code = python_blocks()[0]
    exec(compile(code, "README.md", "exec"), {})
    out = capsys.readouterr().out
    assert "peak chassis acceleration 11.40 m/s2" in out
    assert_png(beside_examples / "car.png")
    from cosim.results import read_mat

    assert read_mat(beside_examples / "car.mat")["time"][-1] == pytest.approx(1.0)


def test_fmpy_example_runs(beside_examples, capsys):

    code = python_blocks()[1]
    exec(compile(code, "README.md", "exec"), {})
    assert capsys.readouterr().out == "0.05\n"
    assert validate_fmu("Road.fmu") == []


def test_python_model_example_runs(beside_examples, capsys):
    code = python_blocks()[2]
    exec(compile(code, "README.md", "exec"), {"__name__": "__main__"})
    assert capsys.readouterr().out == "33.11 degC after 2 s\n"


def test_section_commands_run(beside_examples, capsys):
    for heading in ("Pictures", "What kind of system: the DAE report"):
        command = shlex.split(block(heading).strip())
        for index, item in enumerate(command):
            if item.startswith("tests/"):
                command[index] = str(ROOT / item)
        assert main(command[1:]) == 0
    assert (beside_examples / "blocks.svg").read_text().count("torn loop") == 1
    assert '"class": "dae"' in capsys.readouterr().out


def test_every_command_has_an_example_that_parses():
    lines = [line.split("  #")[0].strip() for line in block("Commands").splitlines()]
    commands = [shlex.split(line) for line in lines if line]
    assert [c[1] for c in commands] == list(VERBS)
    parser = build_parser()
    registered = parser._subparsers._group_actions[0].choices
    for command in commands:
        assert command[1] in registered
        args = parser.parse_args(command[1:])
        assert args.command == command[1]


@pytest.mark.slow
def test_the_example_rebuilds(tmp_path):
    from ssp_examples.build import build_feedback

    from cosim.api import run

    rebuilt = run(build_feedback(tmp_path / "feedback.ssp")).values
    committed = run(ROOT / "ssp_examples" / "feedback.ssp").values
    for name in committed.dtype.names:
        assert np.allclose(rebuilt[name], committed[name], rtol=1e-12, atol=0)


@pytest.mark.xdist_group("sweep-cluster")  # beside the sweep tests' cluster, not at once
def test_sweep_example_runs(beside_examples, capsys):
    import pyarrow.parquet as pq

    command = next(shlex.split(line.split("  #")[0]) for line in block("Commands").splitlines()
                   if line.startswith("cosim sweep "))
    assert main([*command[1:], "--quiet"]) == 0
    table = pq.read_table(beside_examples / "grid.parquet").to_pydict()
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
