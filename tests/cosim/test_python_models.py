"""Python models (cosim.build) run and compile like .mo ones: cosim.run(Class),
cosim.compile(Class), `cosim run plant.py --model Plant`, `cosim check plant.py --json`, and
SSP components of type text/x-python (source="Source.py#Source"), in a folder and an archive.
"""
from __future__ import annotations

import json
import textwrap
import zipfile

import numpy as np
import pytest

import cosim
from cosim.build import Model, Real, der, output, parameter
from cosim.cli import main

from conftest import ssd

__modelica_package__ = ""  # the classes here are top-level Modelica classes
pytestmark = pytest.mark.usefixtures("module_fmu_cache")


class NewtonCooling(Model):
    """A hot object cooling toward ambient"""
    k = parameter(Real, 0.5, unit="1/s", doc="Cooling coefficient")
    T = Real(unit="degC", start=90, fixed=True, doc="Object temperature")

    def equations(self):
        yield der(self.T) == -self.k * self.T


SOURCE_PY = textwrap.dedent('''\
    """x' = -a x, x(0) = 1, y = x: a Python model component"""
    from cosim.build import Model, Real, der, output, parameter


    class Source(Model):
        a = parameter(Real, 2)
        y = output(Real)
        x = Real(start=1, fixed=True)

        def equations(self):
            yield der(self.x) == -self.a * self.x
            yield self.y == self.x
    ''')
GAIN_MO = "model Gain\n  parameter Real k = 3;\n  input Real u;\n  output Real y;\n" \
          "equation\n  y = k * u;\nend Gain;\n"


def test_a_class_runs_as_a_system_of_one_component_named_after_it():
    result = cosim.run(NewtonCooling, stop_time=2.0, step_size=0.01, record=["NewtonCooling.T"])
    t = result.values["time"]
    assert result.columns == ("NewtonCooling.T",)
    assert np.allclose(result.values["NewtonCooling.T"], 90 * np.exp(-0.5 * t), rtol=1e-5)


def test_a_class_compiles_into_an_fmu(tmp_path):
    from fmpy import simulate_fmu
    from fmpy.validation import validate_fmu

    fmu = cosim.compile(NewtonCooling, output=tmp_path / "cooling.fmu")
    assert validate_fmu(str(fmu)) == []
    result = simulate_fmu(str(fmu), stop_time=1.0, output=["T"])
    assert result["T"][-1] == pytest.approx(90 * np.exp(-0.5), rel=1e-5)


def test_cli_runs_and_checks_a_python_file(tmp_path, capsys):
    plant = tmp_path / "plant.py"
    plant.write_text(SOURCE_PY.replace("class Source", "class Plant"))
    out = tmp_path / "out.csv"
    assert main(["run", str(plant), "--model", "Plant", "--stop", "1", "-o", str(out),
                 "--quiet"]) == 0
    header, *rows = out.read_text().splitlines()
    assert header == "time,Plant.y"
    assert float(rows[-1].split(",")[1]) == pytest.approx(np.exp(-2.0), rel=1e-5)
    assert main(["check", str(plant), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert (report["class"], report["states"], report["summary"]["model"]) == \
        ("ode", ["x"], "Plant")


def _system(source_type: str, source: str) -> str:
    return ssd(f"""
        <ssd:System name="root">
          <ssd:Elements>
            <ssd:Component name="source" type="{source_type}" source="{source}">
              <ssd:Connectors>
                <ssd:Connector name="y" kind="output"><ssc:Real/></ssd:Connector>
              </ssd:Connectors>
            </ssd:Component>
            <ssd:Component name="gain" type="text/x-modelica" source="Gain.mo">
              <ssd:Connectors>
                <ssd:Connector name="u" kind="input"><ssc:Real/></ssd:Connector>
                <ssd:Connector name="y" kind="output"><ssc:Real/></ssd:Connector>
              </ssd:Connectors>
            </ssd:Component>
          </ssd:Elements>
          <ssd:Connections>
            <ssd:Connection startElement="source" startConnector="y" endElement="gain"
                            endConnector="u"/>
          </ssd:Connections>
        </ssd:System>""", version="2.0",
        after='<ssd:DefaultExperiment startTime="0" stopTime="1"/>')


def _folder(path, source_py=SOURCE_PY, source="Source.py#Source"):
    path.mkdir()
    (path / "SystemStructure.ssd").write_text(_system("text/x-python", source))
    (path / "Source.py").write_text(source_py)
    (path / "Gain.mo").write_text(GAIN_MO)
    return path


def _assert_analytic(result, k=3.0, a=2.0):
    t = result.values["time"]
    assert np.allclose(result.values["source.y"], np.exp(-a * t), rtol=1e-5, atol=1e-8)
    assert np.allclose(result.values["gain.y"], k * np.exp(-a * t), rtol=1e-5, atol=1e-8)


def test_python_component_of_an_ssp_folder_and_archive(tmp_path):
    folder = _folder(tmp_path / "sys")
    _assert_analytic(cosim.run(folder, step_size=0.01))
    archive = tmp_path / "sys.ssp"
    with zipfile.ZipFile(archive, "w") as zipped:
        for path in sorted(folder.iterdir()):
            zipped.write(path, path.name)
    _assert_analytic(cosim.run(archive, step_size=0.02, parameters={"source.a": 0.5}), a=0.5)
    info = cosim.info(folder)
    assert not [d for d in info.diagnostics if d.severity == "error"]
    packed = cosim.pack(folder, tmp_path / "packed.ssp")  # the Python model as an FMU inside
    _assert_analytic(cosim.run(packed, step_size=0.01))


def test_an_error_in_a_python_component_names_file_place_and_component(tmp_path, capsys):
    broken = SOURCE_PY.replace("yield self.y == self.x", "yield self.y == self.xx")
    folder = _folder(tmp_path / "sys", broken)
    assert main(["run", str(folder), "--quiet"]) == 1
    line = next(n for n, text in enumerate(broken.splitlines(), 1) if "self.xx" in text)
    assert capsys.readouterr().err.splitlines()[-1] == (
        f"Source.py:{line}:25: error: component 'source': Source has no element 'xx' (its "
        "elements: a, y, x)")
