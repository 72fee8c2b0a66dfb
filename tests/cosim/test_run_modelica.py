"""``cosim run model.mo``: a Modelica model compiled through the cache and run as a system of
one component, against the closed-form solution and fmpy's simulate_fmu of the same FMU."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from fmpy import simulate_fmu

from cosim import api
from cosim.errors import CosimError
from cosim.cli import main

MODELS = Path(__file__).resolve().parents[1] / "compiler" / "models"

OSCILLATOR = """\
model Oscillator "x'' = -w^2 x: x = cos(w t), v = -w sin(w t)"
  parameter Real w = 2 "angular frequency";
  Real x(start = 1, fixed = true);
  Real v(start = 0, fixed = true);
  output Real y;
equation
  der(x) = v;
  der(v) = -w^2*x;
  y = x;
  annotation(experiment(StopTime = 3, Interval = 0.01, Tolerance = 1e-8));
end Oscillator;
"""


@pytest.fixture(autouse=True)
def no_modelicapath(monkeypatch):
    monkeypatch.delenv("MODELICAPATH", raising=False)


@pytest.fixture
def oscillator(tmp_path) -> Path:
    path = tmp_path / "Oscillator.mo"
    path.write_text(OSCILLATOR)
    return path


def test_run_modelica_matches_the_closed_form_and_fmpy(oscillator, tmp_path):
    result = api.run(oscillator, record=["Oscillator.v"], parameters={"Oscillator.w": 3.0})
    values = result.values
    assert result.columns == ("Oscillator.y", "Oscillator.v")
    assert values["time"][-1] == pytest.approx(3.0) and len(values) == 301
    assert np.allclose(values["Oscillator.y"], np.cos(3.0 * values["time"]), rtol=0, atol=1e-6)
    assert np.allclose(values["Oscillator.v"], -3.0 * np.sin(3.0 * values["time"]), rtol=0,
                       atol=3e-6)
    fmu = api.compile(oscillator, output=tmp_path / "Oscillator.fmu")
    reference = simulate_fmu(str(fmu), fmi_type="CoSimulation", output_interval=0.01,
                             relative_tolerance=1e-8, start_values={"w": 3.0},
                             output=["y", "v"])
    assert np.allclose(reference["time"], values["time"], rtol=0, atol=1e-12)
    # the same integrator, tolerance and communication points: the same numbers
    assert np.allclose(values["Oscillator.y"], reference["y"], rtol=1e-9, atol=1e-12)
    assert np.allclose(values["Oscillator.v"], reference["v"], rtol=1e-9, atol=1e-12)


def test_run_command_on_a_package_model(tmp_path, capsys):
    output = tmp_path / "rc.csv"
    code = main(["run", str(MODELS / "Electrical.mo"), "--model", "Electrical.RCCircuit",
                 "--record", "Electrical_RCCircuit.capacitor.v", "--stop", "0.3", "--quiet",
                 "-o", str(output)])
    assert code == 0 and capsys.readouterr().err == ""
    assert output.read_text().startswith("time,Electrical_RCCircuit.capacitor.v\n")
    table = np.loadtxt(output, delimiter=",", skiprows=1)
    assert table.shape == (301, 2)   # the model's Interval = 0.001 s
    exact = 10.0 * (1.0 - np.exp(-table[:, 0] / 0.1))  # tau = R C = 100 * 1e-3 s
    assert np.allclose(table[:, 1], exact, rtol=1e-5, atol=1e-6)


def test_run_library_option(tmp_path, capsys):
    model = tmp_path / "Use.mo"
    model.write_text("model Use\n  Mechanics.MassSpringDamper msd;\nend Use;\n")
    assert main(["run", str(model), "--lib", str(MODELS / "Mechanics.mo"), "--quiet",
                 "--stop", "0.1"]) == 0
    assert main(["run", str(model), "--quiet"]) == 1
    assert capsys.readouterr().err.endswith(
        f"{model}:2:3: error: unknown type 'Mechanics.MassSpringDamper'\n")


def test_run_reports_compiler_errors_with_their_place(tmp_path, capsys):
    path = tmp_path / "Broken.mo"
    path.write_text("model Broken\n  Real x(start = 1);\nequation\n  der(x) = -y;\nend Broken;\n")
    assert main(["run", str(path)]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == f"{path}:4:13: error: unknown name 'y'\n"


def test_model_and_lib_apply_only_to_modelica(oscillator, tmp_path, capsys):
    fmu = api.compile(oscillator, output=tmp_path)
    assert main(["run", str(fmu), "--model", "Oscillator"]) == 1
    assert capsys.readouterr().err == (f"{fmu}: error: --model and --lib apply only to a "
                                       "Modelica (.mo) or Python (.py) file\n")
    assert main(["run", str(oscillator), "--variant", "other.ssd"]) == 1
    assert capsys.readouterr().err == (f"{oscillator}: error: a variant can be chosen only for "
                                       "an SSP\n")


def test_a_model_without_outputs_records_its_states_and_algebraic_variables(caplog):
    result = api.run(MODELS / "Electrical.mo", model="Electrical.RCCircuit", stop_time=0.01)
    component = "Electrical_RCCircuit"
    assert f"{component}.capacitor.v" in result.columns  # the state
    assert f"{component}.resistor.i" in result.columns   # an algebraic variable
    assert not any("der(" in name or "_eventIndicator" in name for name in result.columns)
    t = result.values["time"]
    tau = 100 * 1e-3
    assert np.allclose(result.values[f"{component}.capacitor.v"], 10 * (1 - np.exp(-t / tau)),
                       rtol=0, atol=1e-5)
    assert np.allclose(result.values[f"{component}.resistor.i"], 0.1 * np.exp(-t / tau),
                       rtol=0, atol=1e-7)
    assert not caplog.records


def test_an_fmu_without_outputs_warns_that_only_time_is_recorded(caplog, tmp_path):
    fmu = api.compile(MODELS / "Electrical.mo", model="Electrical.RCCircuit",
                      output=tmp_path / "RC.fmu")
    result = api.run(fmu, stop_time=0.01)
    assert result.columns == ()
    assert [record.getMessage() for record in caplog.records] == [
        "RC.fmu: warning: the system has no outputs, so only time is recorded; choose "
        "variables with --record COMPONENT.VARIABLE"]


def test_a_scalar_whose_name_holds_brackets_is_recorded(tmp_path):
    # a Modelica FMU names the scalars of a component array cell[1].x, cell[2].x
    path = tmp_path / "Cells.mo"
    path.write_text("model Cells\n  model Cell\n    parameter Real k;\n"
                    "    Real x(start = 1, fixed = true);\n  equation\n    der(x) = -k*x;\n"
                    "  end Cell;\n  Cell cell[2](k = {1, 2});\n"
                    "  annotation(experiment(StopTime = 1, Interval = 0.1));\nend Cells;\n")
    result = api.run(path, record=["Cells.cell[2].x"])
    times = result.values["time"]
    assert np.allclose(result.values["Cells.cell[2].x"], np.exp(-2 * times), rtol=1e-6)


ASSERTED = """\
model Asserted "no outputs; x = t passes the limit 0.5 at t = 0.5"
  Real x(start = 0, fixed = true);
equation
  der(x) = 1;
  assert(x < 0.5, "x reached its limit");
  annotation(experiment(StopTime = 1, Interval = 0.1));
end Asserted;
"""


@pytest.mark.parametrize("interface", ["cs", "me"])
def test_a_continuous_assert_is_checked_when_nothing_is_read(tmp_path, interface):
    source = tmp_path / "Asserted.mo"
    source.write_text(ASSERTED)
    fmu = api.compile(source, output=tmp_path / "Asserted.fmu")
    with pytest.raises(CosimError) as failure:
        # a communication step of 1 s: the assert fails inside it, at an accepted step
        api.run(fmu, step_size=1.0, interface=interface)
    message = str(failure.value)
    assert "Asserted.mo:5:3: assertion failed at t = " in message
    assert ": x reached its limit" in message
    assert 0.5 <= float(message.split("assertion failed at t = ")[1].split(":")[0]) <= 1.0


ELEMENTS = """\
model Elements "x[k] = k t, scalars named with subscripts (not an FMI 3.0 array)"
  Real x[2] = {1, 2}*time;
  output Real y = time;
  annotation(experiment(StopTime = 1, Interval = 0.5));
end Elements;
"""


def test_an_element_variable_is_recorded_by_its_name(tmp_path):
    path = tmp_path / "Elements.mo"
    path.write_text(ELEMENTS)
    result = api.run(path, record=["Elements.x[2]"])
    assert result.columns == ("Elements.y", "Elements.x[2]")
    assert list(result.values["Elements.x[2]"]) == pytest.approx([0.0, 1.0, 2.0])
