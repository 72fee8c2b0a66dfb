"""SSP components of type text/x-modelica: compiled through compile_fmu, then run as FMUs.

The system: a Modelica source (x' = -a x, x(0) = 1, y = x) feeding a Modelica gain (y = k u),
so gain.y = k exp(-a t) exactly, up to the solver's tolerance.
"""
from __future__ import annotations

import shutil
import zipfile
from pathlib import Path

import numpy as np
import pytest

from cosim import api
from cosim.cli import main
from cosim.errors import CosimError
from cosim.master.session import prepare
from cosim.modelica import model_class
from cosim.ssp.model import Component

from conftest import ssd

pytestmark = pytest.mark.usefixtures("module_fmu_cache")  # compiled FMUs: a cache of the module

SOURCE = """\
model Source "first-order decay"
  parameter Real a = 2;
  output Real y;
  Real x(start = 1, fixed = true);
equation
  der(x) = -a * x;
  y = x;
end Source;
"""
GAIN = """\
model Gain
  parameter Real k = 3;
  input Real u;
  output Real y;
equation
  y = k * u;
end Gain;
"""
LIBRARY = {  # the gain inside a package folder: Blocks/package.mo, Blocks/Math/package.mo
    "Blocks/package.mo": "package Blocks\nend Blocks;\n",
    "Blocks/Math/package.mo": "within Blocks;\npackage Math\nend Math;\n",
    "Blocks/Math/Gain.mo": "within Blocks.Math;\n" + GAIN,
}


def system(gain_type: str = "text/x-modelica", gain_source: str = "Gain.mo#Gain") -> str:
    return ssd(f"""
        <ssd:System name="root">
          <ssd:Elements>
            <ssd:Component name="source" type="text/x-modelica; path=Source" source="Source.mo">
              <ssd:Connectors>
                <ssd:Connector name="y" kind="output"><ssc:Real/></ssd:Connector>
              </ssd:Connectors>
            </ssd:Component>
            <ssd:Component name="gain" type="{gain_type}" source="{gain_source}">
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


def make_folder(folder: Path, ssd_text: str | None = None, gain: str = GAIN,
                extra: dict[str, str] | None = None) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    files = {"SystemStructure.ssd": ssd_text or system(), "Source.mo": SOURCE, "Gain.mo": gain,
             **(extra or {})}
    for name, text in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text)
    return folder


def zip_folder(folder: Path, target: Path) -> Path:
    with zipfile.ZipFile(target, "w") as archive:
        for path in sorted(folder.rglob("*")):
            if path.is_file():
                archive.write(path, path.relative_to(folder).as_posix())
    return target


def assert_analytic(result, k: float = 3.0, a: float = 2.0) -> None:
    t = result.values["time"]
    assert t[-1] == pytest.approx(1.0)
    assert np.allclose(result.values["source.y"], np.exp(-a * t), rtol=1e-5, atol=1e-8)
    assert np.allclose(result.values["gain.y"], k * np.exp(-a * t), rtol=1e-5, atol=1e-8)


def test_folder_runs_against_the_analytic_solution(tmp_path):
    result = api.run(make_folder(tmp_path / "sys"), step_size=0.01)
    assert result.columns == ("source.y", "gain.y")
    assert len(result.values) == 101
    assert_analytic(result)


def test_archive_and_parameters(tmp_path):
    archive = zip_folder(make_folder(tmp_path / "sys"), tmp_path / "sys.ssp")
    result = api.run(archive, step_size=0.05, parameters={"gain.k": 5, "source.a": 0.5})
    assert_analytic(result, k=5.0, a=0.5)


def test_package_folder_component_named_by_path(tmp_path):
    text = system("text/x-modelica; path=Blocks.Math.Gain", "Blocks")
    folder = make_folder(tmp_path / "sys", text, extra=LIBRARY)
    (folder / "Gain.mo").unlink()
    assert_analytic(api.run(folder, step_size=0.02))
    # the same from inside an archive, where the package folder is unpacked first
    assert_analytic(api.run(zip_folder(folder, tmp_path / "lib.ssp"), step_size=0.02))


def test_session_of_a_sweep_compiles_too(tmp_path):
    with prepare(make_folder(tmp_path / "sys")) as session:
        assert_analytic(session.run({"gain.k": 2.0}), k=2.0)


def test_syntax_error_names_file_place_and_component(tmp_path, capsys):
    folder = make_folder(tmp_path / "sys", gain=GAIN.replace("k * u", "k *"))
    assert main(["run", str(folder), "--quiet"]) == 1
    assert capsys.readouterr().err.splitlines()[-1] == \
        "Gain.mo:6:10: error: component 'gain': expected an expression, found ';'"


def test_error_inside_an_archive_names_the_member(tmp_path):
    text = system("text/x-modelica; path=Blocks.Math.Gain", "resources/Blocks")
    library = {f"resources/{name}": source for name, source in LIBRARY.items()}
    library["resources/Blocks/Math/Gain.mo"] = library["resources/Blocks/Math/Gain.mo"] \
        .replace("k * u", "k * w")
    folder = make_folder(tmp_path / "sys", text, extra=library)
    with pytest.raises(CosimError) as caught:
        api.run(zip_folder(folder, tmp_path / "bad.ssp"))
    assert caught.value.location == "resources/Blocks/Math/Gain.mo:7:11"
    assert caught.value.message == "component 'gain': unknown name 'w'"


def test_validate_and_info_report_modelica_errors(tmp_path):
    folder = make_folder(tmp_path / "sys", gain=GAIN.replace("k * u", "k * w"))
    report = api.validate(folder)
    assert not report.ok
    assert [str(d) for d in report.problems] == ["Gain.mo:6:11: component 'gain': unknown name 'w'"]
    info = api.info(folder)
    assert "Gain.mo:6:11: error: component 'gain': unknown name 'w'" in info.text()


def test_validate_checks_connectors_against_the_compiled_model(tmp_path):
    text = system().replace('name="u" kind="input"', 'name="v" kind="input"') \
        .replace('endConnector="u"', 'endConnector="v"')
    report = api.validate(make_folder(tmp_path / "sys", text))
    assert [d.message for d in report.problems] == \
        ["component 'gain': connector 'v': no such variable in Gain.mo#Gain"]
    assert report.problems[0].location.line == 12  # the connector


def test_a_good_system_validates(tmp_path):
    report = api.validate(make_folder(tmp_path / "sys"))
    assert report.problems == ()


def test_package_folder_needs_a_class(tmp_path):
    folder = make_folder(tmp_path / "sys", system(gain_source="Blocks"), extra=LIBRARY)
    with pytest.raises(CosimError) as caught:
        api.run(folder)
    assert caught.value.message == ("component 'gain': name the class of the package folder "
                                    "'Blocks' (type=\"text/x-modelica; path=Blocks.Model\")")
    assert caught.value.location == "SystemStructure.ssd:10"


@pytest.mark.parametrize("mime, source, expected", [
    ("text/x-modelica", "Gain.mo", None),
    ("text/x-modelica; path=Lib.Gain", "Lib.mo", "Lib.Gain"),
    ('text/x-modelica; path="Lib.Gain"', "Lib.mo#Lib.Gain", "Lib.Gain"),
    ("text/x-modelica", "Lib.mo#Lib.Gain", "Lib.Gain"),
])
def test_the_class_of_a_component(mime, source, expected):
    assert model_class(Component("c", source, mime)) == expected


def test_class_named_twice_differently():
    with pytest.raises(CosimError, match="class 'A' in the type but 'B' in the source"):
        model_class(Component("c", "Lib.mo#B", "text/x-modelica; path=A"))


def test_source_without_type_is_read_as_modelica(tmp_path):
    text = system().replace(' type="text/x-modelica" source="Gain.mo#Gain"', ' source="Gain.mo"')
    folder = make_folder(tmp_path / "sys", text)
    info = api.info(folder)
    assert "no type given for a .mo source; read as text/x-modelica" in info.text()
    assert_analytic(api.run(folder, step_size=0.01))
    shutil.rmtree(folder)


@pytest.mark.xdist_group("sweep-cluster")  # beside the sweep tests' cluster, not at once
def test_sweep_workers_compile_the_folder_they_are_sent(tmp_path):
    from distributed import Client

    from cosim.sweeps.cluster import local_cluster

    folder = make_folder(tmp_path / "sys")
    # a Client given as the scheduler: the folder travels to the worker zipped, as an .ssp
    with local_cluster(1) as cluster, Client(cluster) as client:
        result = api.sweep(folder, parameters={"gain.k": [1.0, 2.0]}, scheduler=client,
                           step_size=0.01)
    assert result.failures == ()
    assert result.values["gain.k"].tolist() == [1.0, 2.0]
    assert result.values["gain.y"] == pytest.approx([np.exp(-2.0), 2 * np.exp(-2.0)], rel=1e-5)
