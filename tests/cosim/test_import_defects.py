"""The ten import defects of issue 16, each on a hand-written third-party FMU (faulty/,
thirdparty/) that CI builds: what the Reference FMUs showed, reproduced without them.
"""
from __future__ import annotations

import logging
import zipfile

import numpy as np
import pytest

from cosim import api
from cosim.cli import main
from cosim.errors import CosimError
from cosim.master.plan import PlanError


def rezip(source, target, twice: bool, change: bool = False):
    """``source`` with every entry written twice (the second changed when ``change``)."""
    with zipfile.ZipFile(source) as archive:
        entries = [(info.filename, archive.read(info)) for info in archive.infolist()]
    with pytest.warns(UserWarning), zipfile.ZipFile(target, "w") as archive:
        for name, data in entries:
            archive.writestr(name, data)
        for name, data in entries if twice else ():
            archive.writestr(name, data + b" " if change and name.endswith(".xml") else data)
    return target


# --- 3: an FMI 2.0 slave that ends the run with fmi2Discard ---------------------------------

@pytest.mark.parametrize("isolate", [False, True])
def test_an_fmi2_discard_with_fmi2terminated_ends_the_run_normally(built, isolate):
    result = api.run(built["Terminate2"], isolate=isolate)
    assert result.terminated_by == "Terminate2"
    times = result.values["time"]
    # t_fail = 1: the step from 1 stops half-way, at 1.05, the last row
    assert np.allclose(times, np.append(np.round(np.arange(11) * 0.1, 12), 1.05), atol=1e-12)
    assert np.allclose(result.values["Terminate2.y"], times, atol=1e-12)


# --- 4: identical duplicate zip entries -----------------------------------------------------

def test_identical_duplicate_entries_run_with_one_warning(tmp_path, built, caplog):
    fmu = rezip(built["Healthy"], tmp_path / "Healthy.fmu", twice=True)
    with caplog.at_level(logging.WARNING, "cosim"):
        result = api.run(fmu, stop_time=1.0)
    assert np.allclose(result.values["Healthy.y"], result.values["time"])
    warnings = [r.getMessage() for r in caplog.records if "appear twice" in r.getMessage()]
    assert warnings == [f"{fmu}: warning: 2 entries appear twice with the same content "
                        f"('binaries/x86_64-linux/Healthy.so', 'modelDescription.xml'); each "
                        f"is used once"]


def test_differing_duplicate_entries_are_refused(tmp_path, built):
    fmu = rezip(built["Healthy"], tmp_path / "Healthy.fmu", twice=True, change=True)
    with pytest.raises(CosimError) as caught:
        api.run(fmu)
    assert str(caught.value) == (f"{fmu}: entry 'modelDescription.xml' appears twice with "
                                 f"different contents")


# --- 6: parameter values out of their type's range or the declared min/max -----------------

@pytest.mark.parametrize("name, value, line", [
    ("p8", 128, "parameter 'Typed3.p8': 128 is out of the range of Int8 [-128, 127]"),
    ("p8", "-129", "parameter 'Typed3.p8': -129 is out of the range of Int8 [-128, 127]"),
    ("u8", -1, "parameter 'Typed3.u8': -1 is out of the range of UInt8 [0, 255]"),
    ("n", 2**64, "parameter 'Typed3.n': 18446744073709551616 is out of the range of UInt64 "
                 "[0, 18446744073709551615]"),
])
def test_values_a_type_cannot_hold_are_refused(built, name, value, line):
    with pytest.raises(PlanError) as caught:
        api.run(built["Typed3"], parameters={f"Typed3.{name}": value})
    assert str(caught.value) == f"Typed3.fmu: {line}"


def test_values_outside_min_and_max_warn(built, caplog):
    with caplog.at_level(logging.WARNING, "cosim"):
        result = api.run(built["Typed3"], parameters={"Typed3.k": 20, "Typed3.p8": 127},
                         stop_time=0.1)
    assert np.all(result.values["Typed3.y[1]"] == 20.0)
    assert np.all(result.values["Typed3.p8_out"] == 127)
    messages = [r.getMessage() for r in caplog.records]
    assert "Typed3.fmu: warning: parameter 'Typed3.k': 20 is above the maximum 10 of 'k'" in \
        messages
    assert "Typed3.fmu: warning: parameter 'Typed3.p8': 127 is above the maximum 100 of 'p8'" \
        in messages


def test_a_parameter_file_value_out_of_range_is_located_in_the_file(built, tmp_path):
    folder = single_component(tmp_path, built["Typed3"],
                              parameters='<ssv:Parameter name="u8"><ssv:Integer value="300"/>'
                                         '</ssv:Parameter>')
    with pytest.raises(PlanError) as caught:
        api.run(folder)
    assert str(caught.value) == ("SystemStructure.ssd:3: parameter 'T.u8': 300 is out of the "
                                 "range of UInt8 [0, 255]")
    report = api.validate(folder)
    assert "parameter 'T.u8': 300 is out of the range of UInt8 [0, 255]" in report.text()
    assert not report.ok


def single_component(tmp_path, fmu, implementation="", parameters="", connectors=""):
    """An SSP folder with one component T (``fmu``) and the given SSD text."""
    import shutil

    from conftest import ssd

    folder = tmp_path / "system"
    (folder / "resources").mkdir(parents=True)
    shutil.copyfile(fmu, folder / "resources" / fmu.name)
    bindings = (f'<ssd:ParameterBindings><ssd:ParameterBinding><ssd:ParameterValues>'
                f'<ssv:ParameterSet version="2.0" name="p"><ssv:Parameters>{parameters}'
                f'</ssv:Parameters></ssv:ParameterSet></ssd:ParameterValues>'
                f'</ssd:ParameterBinding></ssd:ParameterBindings>') if parameters else ""
    attribute = f' implementation="{implementation}"' if implementation else ""
    component = (f'<ssd:Component name="T" source="resources/{fmu.name}"{attribute}>'
                 f'{connectors}{bindings}</ssd:Component>')
    (folder / "SystemStructure.ssd").write_text(
        ssd(f'<ssd:System name="s"><ssd:Elements>{component}</ssd:Elements></ssd:System>',
            version="2.0"))
    return folder


# --- 7: info and validate of a bare FMU --------------------------------------------------------

def test_info_and_validate_take_a_bare_fmu(built, capsys):
    fmu = built["Typed3"]
    text = api.info(fmu).text()
    assert text.startswith(f"{fmu}: FMI 3.0 model 'Typed3' (generated by hand-written "
                           f"third-party FMU)\ninterfaces: Co-Simulation (FMU state), "
                           f"Model Exchange (FMU state)\nexperiment: start 0, stop 1, step 0.1")
    assert "  structuralParameter  UInt64   n start 3 range 1..8" in text
    assert "  input                Float64  u[n] start 1 2 3" in text
    assert "  output               Float64  M[2,n]" in text
    assert api.validate(fmu).ok
    assert main(["validate", str(fmu)]) == 0
    assert capsys.readouterr().out == f"{fmu}: 0 problems, 0 warnings\n"
    assert main(["info", str(built["Healthy"])]) == 0
    assert "interfaces: Co-Simulation" in capsys.readouterr().out


def test_validate_of_a_bare_fmu_reports_what_run_refuses(built, tmp_path):
    renamed = tmp_path / "Renamed.fmu"  # no binaries
    with zipfile.ZipFile(built["Healthy"]) as source, zipfile.ZipFile(renamed, "w") as target:
        for info in source.infolist():
            if not info.filename.startswith("binaries/"):
                target.writestr(info, source.read(info))
    report = api.validate(renamed)
    assert not report.ok
    assert report.text().splitlines()[0] == (
        "Renamed.fmu: error: no binary for this platform: looked for "
        "binaries/x86_64-linux/Healthy.so")


# --- 8: the SSD implementation attribute -------------------------------------------------------

@pytest.mark.parametrize("implementation, message", [
    ("CoSim", "component 'T': implementation 'CoSim' is none of any, CoSimulation, "
              "ModelExchange, ScheduledExecution"),
    ("ModelExchange", "component 'T': implementation ModelExchange asked for, but the FMU "
                      "offers only Co-Simulation"),
])
def test_an_implementation_outside_the_enumeration_or_the_fmu_is_refused(
        built, tmp_path, implementation, message):
    folder = single_component(tmp_path, built["Healthy"], implementation=implementation)
    report = api.validate(folder)
    assert not report.ok and message in report.text()
    with pytest.raises(PlanError) as caught:
        api.run(folder)
    assert str(caught.value) == f"SystemStructure.ssd:3: {message}"


def test_an_interface_the_fmu_lacks_is_refused(built):
    with pytest.raises(PlanError) as caught:
        api.run(built["Healthy"], interface="me")
    assert str(caught.value) == ("Healthy.fmu: component 'Healthy': --interface me asked for, "
                                 "but the FMU offers only Co-Simulation")


# --- 9: validate reports what run refuses -------------------------------------------------------

def test_validate_reports_an_algebraic_loop_run_cannot_solve(built, tmp_path):
    import shutil

    from conftest import ssd

    folder = tmp_path / "loop"
    (folder / "resources").mkdir(parents=True)
    shutil.copyfile(built["Healthy"], folder / "resources" / "Healthy.fmu")
    ports = ('<ssd:Connectors><ssd:Connector name="u" kind="input"><ssc:Real/></ssd:Connector>'
             '<ssd:Connector name="y" kind="output"><ssc:Real/></ssd:Connector></ssd:Connectors>')
    elements = "".join(f'<ssd:Component name="{n}" source="resources/Healthy.fmu">{ports}'
                       f'</ssd:Component>' for n in ("A", "B"))
    connections = ('<ssd:Connection startElement="A" startConnector="y" endElement="B" '
                   'endConnector="u"/><ssd:Connection startElement="B" startConnector="y" '
                   'endElement="A" endConnector="u"/>')
    (folder / "SystemStructure.ssd").write_text(ssd(
        f'<ssd:System name="s"><ssd:Elements>{elements}</ssd:Elements><ssd:Connections>'
        f'{connections}</ssd:Connections></ssd:System>'))
    with pytest.raises(PlanError) as caught:
        api.run(folder)
    report = api.validate(folder)
    assert not report.ok
    assert [d.message for d in report.problems] == [caught.value.message]
    assert "cannot get and set its FMU state" in caught.value.message
