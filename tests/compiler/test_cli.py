"""The ``cosim check``, ``cosim flatten`` and ``cosim compile`` verbs."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
from fmpy import simulate_fmu
from fmpy.validation import validate_fmu

from cosim.cli import main

MODELS = Path(__file__).parent / "models"


def test_check_prints_a_summary(capsys, monkeypatch):
    monkeypatch.delenv("MODELICAPATH", raising=False)
    assert main(["check", str(MODELS / "Electrical.mo"), "--model", "Electrical.RCCircuit"]) == 0
    assert capsys.readouterr().out == (
        "Electrical.RCCircuit: 20 variables (1 state), 20 equations, 3 parameters, 0 inputs, "
        "0 outputs, 0 functions\n")


def test_check_defaults_to_the_last_class(capsys, monkeypatch):
    monkeypatch.delenv("MODELICAPATH", raising=False)
    assert main(["check", str(MODELS / "BouncingBall.mo")]) == 0
    assert capsys.readouterr().out.startswith("BouncingBall: 3 variables (2 states), 3 equations")


def test_check_reports_errors_with_their_place(tmp_path, capsys):
    path = tmp_path / "Rover.mo"
    path.write_text("model Battery\n  Real v;\nequation\n  v = 1;\nend Batery;\n")
    assert main(["check", str(path)]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == (f"{path}:5:1: error: expected 'end Battery;' to close model Battery "
                            "opened at 1:1\n")


def test_flatten_prints_flat_modelica(capsys, monkeypatch):
    monkeypatch.delenv("MODELICAPATH", raising=False)
    assert main(["flatten", str(MODELS / "SampledCounter.mo")]) == 0
    assert capsys.readouterr().out == """class SampledCounter "Counts clock ticks every 0.1 s and integrates the count"
  discrete Integer count(start = 0, fixed = true) "Ticks so far";
  Real x(start = 0.0, fixed = true) "Integral of the count";
equation
  when sample(0, 0.1) then
    count = pre(count) + 1;
  end when;
  der(x) = count;
  annotation(experiment(StopTime = 1.0));
end SampledCounter;
"""


def test_lib_option_and_modelicapath(tmp_path, capsys, monkeypatch):
    model = tmp_path / "Use.mo"
    model.write_text("model Use\n  Mechanics.MassSpringDamper msd;\nend Use;\n")
    monkeypatch.delenv("MODELICAPATH", raising=False)
    assert main(["check", str(model), "--lib", str(MODELS / "Mechanics.mo")]) == 0
    assert capsys.readouterr().out.startswith("Use: 20 variables (3 states), 20 equations")
    monkeypatch.setenv("MODELICAPATH", str(MODELS))
    assert main(["check", str(model)]) == 0
    assert capsys.readouterr().out.startswith("Use: 20 variables")


def test_the_command_runs_as_a_module(tmp_path):
    path = tmp_path / "Bad.mo"
    path.write_text("model Bad\n  Real x;\nend Bad;\n")
    result = subprocess.run([sys.executable, "-m", "cosim", "check", str(path)],
                            capture_output=True, text=True,
                            env={"PYTHONPATH": str(Path(__file__).parents[2] / "src")})
    assert result.returncode == 1
    assert result.stderr == f"{path}:1:1: error: model Bad is not balanced: 0 equations for 1 unknown\n"
    assert "Traceback" not in result.stderr


def test_compile_writes_a_valid_fmu_that_simulates_the_model(tmp_path, capsys, monkeypatch):
    monkeypatch.delenv("MODELICAPATH", raising=False)
    monkeypatch.chdir(tmp_path)
    assert main(["compile", str(MODELS / "Electrical.mo"), "--model", "Electrical.RCCircuit"]) == 0
    fmu = tmp_path / "Electrical_RCCircuit.fmu"
    assert capsys.readouterr().out == f"{fmu}\n"
    assert validate_fmu(str(fmu)) == []
    result = simulate_fmu(str(fmu), stop_time=0.5, output_interval=0.05)
    exact = 10.0 * (1.0 - np.exp(-result["time"] / 0.1))  # tau = R C = 100 * 1e-3 s
    assert np.allclose(result["capacitor.v"], exact, rtol=1e-4, atol=1e-5)


def test_compile_output_option_and_library(tmp_path, capsys, monkeypatch):
    model = tmp_path / "Use.mo"
    model.write_text("model Use\n  Mechanics.MassSpringDamper msd;\nend Use;\n")
    monkeypatch.delenv("MODELICAPATH", raising=False)
    target = tmp_path / "out" / "deeper" / "use.fmu"
    assert main(["compile", str(model), "--lib", str(MODELS / "Mechanics.mo"),
                 "-o", str(target)]) == 0
    assert capsys.readouterr().out == f"{target}\n"
    assert validate_fmu(str(target)) == []
    assert main(["compile", str(model), "--lib", str(MODELS / "Mechanics.mo"),
                 "-o", str(tmp_path)]) == 0   # a folder: <modelIdentifier>.fmu in it
    assert capsys.readouterr().out == f"{tmp_path / 'Use.fmu'}\n"
    assert (tmp_path / "Use.fmu").read_bytes() == target.read_bytes()
    assert main(["compile", str(model), "--lib", str(MODELS / "Mechanics.mo"),
                 "-o", f"{tmp_path / 'new'}/"]) == 0   # a path ending in '/': a new folder
    assert capsys.readouterr().out == f"{tmp_path / 'new' / 'Use.fmu'}\n"


def test_compile_reports_a_syntax_error_with_its_place(tmp_path, capsys):
    path = tmp_path / "Broken.mo"
    path.write_text("model Broken\n  Real x(start = 1);\nequation\n  der(x) = -x +;\nend Broken;\n")
    assert main(["compile", str(path), "-o", str(tmp_path / "Broken.fmu")]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == f"{path}:4:16: error: expected an expression, found ';'\n"
    assert not (tmp_path / "Broken.fmu").exists()


def test_compile_reports_a_missing_model(tmp_path, capsys, monkeypatch):
    monkeypatch.delenv("MODELICAPATH", raising=False)
    monkeypatch.chdir(tmp_path)
    path = MODELS / "Electrical.mo"
    assert main(["compile", str(path), "--model", "RCCircuit"]) == 1
    assert capsys.readouterr().err == (f"{path}:1:1: error: class 'RCCircuit' not found; did you "
                                       "mean 'Electrical.RCCircuit'?\n")
    assert main(["compile", str(path), "--model", "Electrical.Missing"]) == 1
    assert capsys.readouterr().err == (f"{path}:1:1: error: class 'Electrical.Missing' not found; "
                                       "Electrical.mo defines Electrical\n")
    assert list(tmp_path.iterdir()) == []


def test_compile_function_is_public(tmp_path, monkeypatch):
    import compiler
    import cosim

    monkeypatch.delenv("MODELICAPATH", raising=False)
    written = cosim.compile(MODELS / "BouncingBall.mo", output=tmp_path / "ball.fmu")
    assert written == tmp_path / "ball.fmu"
    assert compiler.compile_fmu(MODELS / "BouncingBall.mo", output=tmp_path) == \
        tmp_path / "BouncingBall.fmu"
    assert validate_fmu(str(written)) == []
