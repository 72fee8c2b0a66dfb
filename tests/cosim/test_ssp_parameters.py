"""Effective parameter values: prefix, mapping, units, transformations and precedence."""
from __future__ import annotations

from conftest import CORPUS, ssd, ssm, ssv, write_files

import pytest

from cosim.ssp import load, resolve_parameters
from cosim.ssp.model import Location

UNITS = '''<ssd:Units>
  <ssc:Unit name="mm"><ssc:BaseUnit m="1" factor="0.001"/></ssc:Unit>
  <ssc:Unit name="m"><ssc:BaseUnit m="1"/></ssc:Unit>
</ssd:Units>'''


def inline(*parameters: str, prefix: str = "") -> str:
    attribute = f' prefix="{prefix}"' if prefix else ""
    rows = "".join(f'<ssv:Parameter name="{n}"><ssv:Real value="{v}"/></ssv:Parameter>'
                   for n, v in (p.split("=") for p in parameters))
    return (f'<ssd:ParameterBinding{attribute}><ssd:ParameterValues><ssv:ParameterSet '
            f'version="1.0" name="s"><ssv:Parameters>{rows}</ssv:Parameters></ssv:ParameterSet>'
            f'</ssd:ParameterValues></ssd:ParameterBinding>')


def resolved(tmp_path, system: str, files=None, after: str = UNITS) -> dict[str, object]:
    write_files(tmp_path, {"SystemStructure.ssd": ssd(system, after=after), **(files or {})})
    structure, _ = load(tmp_path)
    values, _ = resolve_parameters(structure)
    return {p.path: p.value for p in values}


def test_later_overrides_earlier_and_higher_overrides_lower(tmp_path):
    system = f'''<ssd:System name="root">
      <ssd:ParameterBindings>{inline("Sub.P.k=30", "Sub.P.top=1")}</ssd:ParameterBindings>
      <ssd:Elements>
        <ssd:System name="Sub">
          <ssd:ParameterBindings>{inline("P.k=20", "P.j=2", "P.top=99")}</ssd:ParameterBindings>
          <ssd:Elements><ssd:Component name="P" source="p.fmu">
            <ssd:ParameterBindings>{inline("k=1", "j=1", "i=1")}{inline("i=5")}</ssd:ParameterBindings>
          </ssd:Component></ssd:Elements>
        </ssd:System>
      </ssd:Elements></ssd:System>'''
    assert resolved(tmp_path, system, {"p.fmu": b""}) == {
        "Sub.P.k": 30.0, "Sub.P.j": 2.0, "Sub.P.i": 5.0, "Sub.P.top": 1.0}


def test_prefix_mapping_units_and_transformation(tmp_path):
    system = '''<ssd:System name="root">
      <ssd:ParameterBindings>
        <ssd:ParameterBinding source="set.ssv" prefix="Plant.">
          <ssd:ParameterMapping source="map.ssm"/>
        </ssd:ParameterBinding>
      </ssd:ParameterBindings>
      <ssd:Elements><ssd:Component name="Plant" source="p.fmu"><ssd:Connectors>
        <ssd:Connector name="length" kind="parameter"><ssc:Real unit="m"/></ssd:Connector>
        <ssd:Connector name="raw" kind="parameter"><ssc:Real unit="m"/></ssd:Connector>
        <ssd:Connector name="mode" kind="parameter"><ssc:Integer/></ssd:Connector>
      </ssd:Connectors></ssd:Component></ssd:Elements></ssd:System>'''
    files = {"p.fmu": b"", "set.ssv": ssv('''
        <ssv:Parameter name="len_mm"><ssv:Real value="2500" unit="mm"/></ssv:Parameter>
        <ssv:Parameter name="raw"><ssv:Real value="7" unit="mm"/></ssv:Parameter>
        <ssv:Parameter name="mode"><ssv:Integer value="1"/></ssv:Parameter>
        <ssv:Parameter name="untouched"><ssv:Real value="3"/></ssv:Parameter>'''),
        "map.ssm": ssm('''
        <ssm:MappingEntry source="Plant.len_mm" target="Plant.length">
          <ssc:LinearTransformation factor="2" offset="1"/></ssm:MappingEntry>
        <ssm:MappingEntry source="Plant.raw" target="Plant.raw" suppressUnitConversion="true"/>
        <ssm:MappingEntry source="Plant.mode" target="Plant.mode">
          <ssc:IntegerMappingTransformation><ssc:MapEntry source="1" target="4"/>
          </ssc:IntegerMappingTransformation></ssm:MappingEntry>''')}
    # 2500 mm = 2.5 m, then 2 * 2.5 + 1 = 6; raw keeps 7 (suppressed); mode maps 1 -> 4;
    # names without a mapping entry apply as written (after the prefix).
    assert resolved(tmp_path, system, files) == {
        "Plant.length": 6.0, "Plant.raw": 7.0, "Plant.mode": 4, "Plant.untouched": 3.0}


def test_one_source_mapped_to_several_targets_and_nested_ssd(tmp_path):
    child = ssd('''<ssd:System name="child"><ssd:Elements>
        <ssd:Component name="Q" source="q.fmu"/></ssd:Elements></ssd:System>''')
    system = '''<ssd:System name="root"><ssd:ParameterBindings>
        <ssd:ParameterBinding source="set.ssv"><ssd:ParameterMapping>
          <ssm:ParameterMapping version="1.0">
            <ssm:MappingEntry source="g" target="A.g"/><ssm:MappingEntry source="g" target="Sub.Q.g"/>
          </ssm:ParameterMapping></ssd:ParameterMapping></ssd:ParameterBinding>
      </ssd:ParameterBindings><ssd:Elements>
        <ssd:Component name="A" source="a.fmu"/>
        <ssd:Component name="Sub" source="child.ssd" type="application/x-ssp-definition"/>
      </ssd:Elements></ssd:System>'''
    files = {"a.fmu": b"", "q.fmu": b"", "child.ssd": child,
             "set.ssv": ssv('<ssv:Parameter name="g"><ssv:Real value="9.81"/></ssv:Parameter>')}
    assert resolved(tmp_path, system, files) == {"A.g": 9.81, "Sub.Q.g": 9.81}


def test_element_names_with_dots_match_longest_first(tmp_path):
    system = f'''<ssd:System name="root">
      <ssd:ParameterBindings>{inline("a.b.c=2")}</ssd:ParameterBindings>
      <ssd:Elements><ssd:Component name="a" source="x.fmu"/><ssd:Component name="a.b" source="x.fmu"/>
      </ssd:Elements></ssd:System>'''
    assert resolved(tmp_path, system, {"x.fmu": b""}) == {"a.b.c": 2.0}
    structure, _ = load(tmp_path)
    assert [(p.component, p.name) for p in resolve_parameters(structure)[0]] == [("a.b", "c")]


def test_corpus_parameter_values(ssp_corpus):
    truck = CORPUS / "ecos/data/ssp/1.0/quarter_truck/SystemStructure.ssd"
    structure, _ = load(truck)
    values = {p.path: (p.value, p.location) for p in resolve_parameters(structure)[0]}
    assert values["chassis.C.mChassis"] == (400.0, Location("ssv/initialValues_chassis.ssv", 4))
    assert values["wheel.C.kWheel"][0] == 150000.0
    libcosim = CORPUS / "libcosim/tests/data/ssp/linear_transformation/SystemStructure.ssd"
    structure, _ = load(libcosim)
    # Two bindings of the same component: the later one (initial_values2.ssv) wins.
    assert [(p.path, p.value) for p in resolve_parameters(structure)[0]] == [
        ("identity1.realIn", 4.0)]
