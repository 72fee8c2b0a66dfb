"""``cosim pack``: a folder with Modelica components -> a self-contained .ssp that validates
against the SSP 2.0.1 XSDs, runs with the folder's results, and whose FMUs pass fmpy."""
from __future__ import annotations

import zipfile

import numpy as np
import pytest
from conftest import ssv
from fmpy import simulate_fmu
from fmpy.validation import validate_fmu
from test_modelica_components import (
    LIBRARY, assert_analytic, make_folder, system, zip_folder,
)

from cosim import api
from cosim.cli import main
from cosim.errors import CosimError

pytestmark = pytest.mark.usefixtures("module_fmu_cache")  # compiled FMUs: a cache of the module

_HEAD, _TAIL = system().rsplit("</ssd:Component>", 1)  # the gain binds resources/gain.ssv
BOUND = (_HEAD + '<ssd:ParameterBindings><ssd:ParameterBinding source="resources/gain.ssv"/>'
         '</ssd:ParameterBindings>\n</ssd:Component>' + _TAIL)
GAIN_VALUES = ssv('<ssv:Parameter name="k"><ssv:Real value="4"/></ssv:Parameter>')


@pytest.fixture
def packed(tmp_path):
    folder = make_folder(tmp_path / "sys", BOUND, extra={"resources/gain.ssv": GAIN_VALUES,
                                                          "resources/notes.txt": "kept\n"})
    return folder, api.pack(folder, tmp_path / "out" / "system.ssp")


def test_archive_holds_fmus_and_every_other_file(packed):
    folder, archive = packed
    with zipfile.ZipFile(archive) as files:
        assert sorted(files.namelist()) == [
            "Gain.mo", "Source.mo", "SystemStructure.ssd", "resources/gain.fmu",
            "resources/gain.ssv", "resources/notes.txt", "resources/source.fmu"]
        assert files.read("resources/gain.ssv") == (folder / "resources/gain.ssv").read_bytes()
        ssd = files.read("SystemStructure.ssd").decode()
    assert '<ssd:Component name="source" type="application/x-fmu-sharedlibrary" ' \
           'source="resources/source.fmu">' in ssd
    assert '<ssd:Component name="gain" type="application/x-fmu-sharedlibrary" ' \
           'source="resources/gain.fmu">' in ssd
    assert "text/x-modelica" not in ssd


def test_archive_validates_against_the_ssp_schema(packed, schema_2):
    report = api.validate(packed[1], schema_dir=schema_2)
    assert report.diagnostics == ()


def test_archive_runs_as_the_folder(packed):
    folder, archive = packed
    from_folder = api.run(folder, step_size=0.01)
    from_archive = api.run(archive, step_size=0.01)
    assert_analytic(from_archive, k=4.0)  # the SSV's k = 4 applies to the packed FMU
    assert from_archive.columns == from_folder.columns
    for name in from_folder.values.dtype.names:
        assert np.array_equal(from_archive.values[name], from_folder.values[name])


def test_packed_fmus_pass_fmpy(packed, tmp_path):
    with zipfile.ZipFile(packed[1]) as files:
        files.extractall(tmp_path / "unpacked")
    source = tmp_path / "unpacked/resources/source.fmu"
    gain = tmp_path / "unpacked/resources/gain.fmu"
    assert validate_fmu(str(source)) == [] and validate_fmu(str(gain)) == []
    result = simulate_fmu(str(source), stop_time=1.0, output_interval=0.1,
                          start_values={"a": 0.5}, output=["y"])
    assert np.allclose(result["y"], np.exp(-0.5 * result["time"]), rtol=1e-5)
    ramp = np.array([(0.0, 0.0), (1.0, 1.0)], dtype=[("time", "f8"), ("u", "f8")])
    # Model Exchange: fmpy's Co-Simulation loop would read the output a step behind the input
    result = simulate_fmu(str(gain), stop_time=1.0, output_interval=0.25, input=ramp,
                          output=["y"], fmi_type="ModelExchange")
    assert np.allclose(result["y"], 3.0 * result["time"], rtol=1e-9)


def test_pack_of_an_archive_and_a_package_folder(tmp_path, capsys):
    folder = make_folder(tmp_path / "sys", system("text/x-modelica; path=Blocks.Math.Gain",
                                                  "Blocks"), extra=LIBRARY)
    source = zip_folder(folder, tmp_path / "sources.ssp")
    output = tmp_path / "packed.ssp"
    assert main(["pack", str(source), "-o", str(output)]) == 0
    assert capsys.readouterr().out == f"{output}\n"
    with zipfile.ZipFile(output) as files:
        assert "resources/gain.fmu" in files.namelist()
        assert "Blocks/Math/Gain.mo" in files.namelist()
    assert_analytic(api.run(output, step_size=0.02))


def test_compile_error_names_the_source_and_writes_nothing(tmp_path, capsys):
    folder = make_folder(tmp_path / "sys", gain="model Gain\n  input Real u\nend Gain;\n")
    output = tmp_path / "bad.ssp"
    assert main(["pack", str(folder), "-o", str(output)]) == 1
    assert capsys.readouterr().err == \
        "Gain.mo:3:1: error: component 'gain': expected ';' after declaration, found 'end'\n"
    assert not output.exists()


def test_output_must_be_an_ssp(tmp_path):
    with pytest.raises(CosimError, match="must end in .ssp"):
        api.pack(make_folder(tmp_path / "sys"), tmp_path / "x.zip")


def test_the_package_names_the_functions_once_their_modules_load():
    import cosim
    import cosim.packing  # noqa: F401  (a module named like a function would shadow it)
    import cosim.results.plot  # noqa: F401

    assert cosim.pack is api.pack and cosim.plot is api.plot
