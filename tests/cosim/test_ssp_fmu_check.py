"""Checks of an SSD against the model descriptions of the FMUs in its package (read by fmpy)."""
from __future__ import annotations

import io

import fmpy
import pytest
from conftest import fake_fmu, ssd, ssv, write_files, zip_bytes

from cosim.ssp import load
from cosim.ssp.fmu_check import check_fmu_interfaces, check_fmus, read_model_descriptions

PLANT = fake_fmu({"y": ("output", "Real"), "u": ("input", "Real"), "k": ("parameter", "Real"),
                  "c": ("local", "Real")}, fmi="2.0")
CTRL = fake_fmu({"u": ("input", "Float64"), "y": ("output", "Float64"),
                 "m": ("parameter", "Int32")}, fmi="3.0")
SYSTEM = ssd('''
<ssd:System name="root">
  <ssd:ParameterBindings><ssd:ParameterBinding source="p.ssv"/></ssd:ParameterBindings>
  <ssd:Elements>
    <ssd:Component name="Plant" source="resources/Plant.fmu"><ssd:Connectors>
      <ssd:Connector name="y" kind="output"><ssc:Real/></ssd:Connector>
      <ssd:Connector name="u" kind="output"><ssc:Real/></ssd:Connector>
      <ssd:Connector name="z" kind="input"><ssc:Real/></ssd:Connector>
      <ssd:Connector name="c" kind="constant"><ssc:Real/></ssd:Connector>
    </ssd:Connectors></ssd:Component>
    <ssd:Component name="Ctrl" source="resources/Ctrl.fmu"><ssd:Connectors>
      <ssd:Connector name="u" kind="input"><ssc:Boolean/></ssd:Connector>
      <ssd:Connector name="m" kind="parameter"><ssc:Integer/></ssd:Connector>
    </ssd:Connectors></ssd:Component>
  </ssd:Elements>
</ssd:System>''')
VALUES = ssv('''
<ssv:Parameter name="Plant.k"><ssv:Real value="1"/></ssv:Parameter>
<ssv:Parameter name="Plant.nope"><ssv:Real value="1"/></ssv:Parameter>
<ssv:Parameter name="Ctrl.y"><ssv:Boolean value="true"/></ssv:Parameter>''')
EXPECTED = [
    "SystemStructure.ssd:8: component 'Plant': connector 'u': kind output, but the variable of "
    "resources/Plant.fmu has causality input",
    "SystemStructure.ssd:9: component 'Plant': connector 'z': no such variable in "
    "resources/Plant.fmu",
    "SystemStructure.ssd:10: component 'Plant': connector 'c': kind constant, but the variable of "
    "resources/Plant.fmu has variability continuous",
    "SystemStructure.ssd:13: component 'Ctrl': connector 'u': type Boolean, but the variable of "
    "resources/Ctrl.fmu is Float64",
    "p.ssv:5: parameter 'Plant.nope': no variable 'nope' in resources/Plant.fmu; ignored",
    "p.ssv:6: parameter 'Ctrl.y': a Boolean value for the Float64 variable of resources/Ctrl.fmu",
]
FILES = {"SystemStructure.ssd": SYSTEM, "p.ssv": VALUES, "resources/Plant.fmu": PLANT,
         "resources/Ctrl.fmu": CTRL}


@pytest.mark.parametrize("packed", [False, True])
def test_connectors_and_parameters_against_model_descriptions(tmp_path, packed):
    if packed:
        target = tmp_path / "system.ssp"
        target.write_bytes(zip_bytes(FILES))
    else:
        target = write_files(tmp_path, FILES)
    structure, _ = load(target)
    assert [str(d) for d in check_fmus(structure)] == EXPECTED


def test_master_can_pass_its_own_descriptions(tmp_path):
    structure, _ = load(write_files(tmp_path, FILES))
    descriptions = {"Plant": fmpy.read_model_description(io.BytesIO(PLANT))}
    assert [str(d) for d in check_fmu_interfaces(structure, descriptions)] == EXPECTED[:3] + \
        [EXPECTED[4]]
    read, problems = read_model_descriptions(structure)
    assert sorted(read) == ["Ctrl", "Plant"] and problems == []
    assert read["Ctrl"].fmiVersion == "3.0"


def test_unreadable_fmu_is_one_problem(tmp_path):
    structure, _ = load(write_files(tmp_path, {**FILES, "resources/Plant.fmu": b"garbage"}))
    assert [str(d) for d in check_fmus(structure)][0] == (
        "resources/Plant.fmu: component 'Plant': not a readable zip archive: File is not a zip file")
    no_description = zip_bytes({"binaries/readme.txt": "x"})
    structure, _ = load(write_files(tmp_path, {**FILES, "resources/Plant.fmu": no_description}))
    assert [str(d) for d in check_fmus(structure)][0] == (
        "resources/Plant.fmu/modelDescription.xml: component 'Plant': no such file in the archive")
