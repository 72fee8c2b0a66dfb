"""Reading SSD/SSV/SSM/SSB into values: every construct, with its file and line."""
from __future__ import annotations

import pytest
from conftest import ssd, ssm, ssv, write_files, zip_bytes

from cosim.ssp import SspError, load, read
from cosim.ssp.model import (
    BaseUnit, ClockType, Component, Connection, Connector, Dimension, Endpoint, Enumeration,
    Experiment, LinearTransformation, Location, MappingTransformation, Parameter, SignalType,
    System, Unit,
)

FULL_20 = ssd('''
<ssd:System name="root">
  <ssd:Connectors>
    <ssd:Connector name="gain" kind="parameter"><ssc:Float64/></ssd:Connector>
  </ssd:Connectors>
  <ssd:Elements>
    <ssd:Component name="Plant" source="resources/Plant.fmu">
      <ssd:Connectors>
        <ssd:Connector name="y" kind="output"><ssc:Float64 unit="mm"/></ssd:Connector>
        <ssd:Connector name="u" kind="input"><ssc:Float32/></ssd:Connector>
        <ssd:Connector name="n" kind="structuralParameter"><ssc:UInt16/></ssd:Connector>
        <ssd:Connector name="x" kind="local"><ssc:Float64/><ssc:Dimension size="3"/></ssd:Connector>
        <ssd:Connector name="v" kind="output"><ssc:Float64/><ssc:Dimension sizeConnector="n"/></ssd:Connector>
        <ssd:Connector name="c" kind="constant"><ssc:Int64/></ssd:Connector>
        <ssd:Connector name="mode" kind="output"><ssc:Enumeration name="Modes"/></ssd:Connector>
        <ssd:Connector name="on" kind="output"><ssc:Boolean/></ssd:Connector>
        <ssd:Connector name="tick" kind="output"><ssc:Clock intervalVariability="constant" intervalDecimal="0.1"/></ssd:Connector>
        <ssd:Connector name="blob" kind="unspecified"><ssc:Binary mime-type="image/png"/></ssd:Connector>
        <ssd:Connector name="k" kind="calculatedParameter"><ssc:Int8/></ssd:Connector>
        <ssd:Connector name="s" kind="inout"><ssc:String/><ssd:Clock name="tick"/></ssd:Connector>
      </ssd:Connectors>
      <ssd:Annotations>
        <ssc:Annotation type="com.opensimulationplatform"><osp:StepSizeHint value="0.002"/></ssc:Annotation>
      </ssd:Annotations>
    </ssd:Component>
    <ssd:Component name="Ctrl" source="resources/Ctrl.mo" type="text/x-modelica">
      <ssd:Connectors>
        <ssd:Connector name="u" kind="input"><ssc:Real unit="m"/></ssd:Connector>
        <ssd:Connector name="y" kind="output"><ssc:Real/></ssd:Connector>
        <ssd:Connector name="mode" kind="input"><ssc:Enumeration name="Modes"/></ssd:Connector>
        <ssd:Connector name="on" kind="input"><ssc:Boolean/></ssd:Connector>
        <ssd:Connector name="w" kind="input"><ssc:Float64/><ssc:Dimension size="2"/><ssc:Dimension size="3"/></ssd:Connector>
      </ssd:Connectors>
    </ssd:Component>
    <ssd:Component name="Empty"/>
  </ssd:Elements>
  <ssd:Connections>
    <ssd:Connection startElement="Plant" startConnector="y" endElement="Ctrl" endConnector="u"/>
    <ssd:Connection startElement="Plant" startConnector="u" endElement="Ctrl" endConnector="y" suppressUnitConversion="true">
      <ssc:LinearTransformation factor="2.5" offset="-1"/>
    </ssd:Connection>
    <ssd:Connection startElement="Plant" startConnector="mode" endElement="Ctrl" endConnector="mode">
      <ssc:EnumerationMappingTransformation><ssc:MapEntry source="A" target="B"/></ssc:EnumerationMappingTransformation>
    </ssd:Connection>
    <ssd:Connection startElement="Plant" startConnector="on" endElement="Ctrl" endConnector="on">
      <ssc:BooleanMappingTransformation><ssc:MapEntry source="true" target="false"/><ssc:MapEntry source="0" target="1"/></ssc:BooleanMappingTransformation>
    </ssd:Connection>
    <ssd:Connection startElement="Plant" startConnector="x" startIndices="2" endElement="Ctrl" endConnector="w" endIndices="1 3"/>
  </ssd:Connections>
  <ssd:Annotations>
    <ssc:Annotation type="org.openmodelica">
      <oms:Annotations><oms:SimulationInformation>
        <oms:FixedStepMaster description="oms-ma" stepSize="0.01" absoluteTolerance="1e-4" relativeTolerance="1e-5"/>
      </oms:SimulationInformation></oms:Annotations>
    </ssc:Annotation>
  </ssd:Annotations>
</ssd:System>''', version="2.0", after='''
<ssd:Enumerations>
  <ssc:Enumeration name="Modes"><ssc:Item name="A" value="1"/><ssc:Item name="B" value="2"/></ssc:Enumeration>
</ssd:Enumerations>
<ssd:Units>
  <ssc:Unit name="mm"><ssc:BaseUnit m="1" factor="0.001"/></ssc:Unit>
  <ssc:Unit name="m"><ssc:BaseUnit m="1"/></ssc:Unit>
</ssd:Units>
<ssd:DefaultExperiment startTime="0.5" stopTime="10"/>''')


@pytest.fixture
def full(tmp_path):
    write_files(tmp_path, {"SystemStructure.ssd": FULL_20, "resources/Plant.fmu": b"",
                           "resources/Ctrl.mo": "model Ctrl end Ctrl;"})
    return load(tmp_path)


def test_ssp_20_document(full):
    structure, diagnostics = full
    assert structure.version == "2.0" and structure.name == "test"
    assert structure.units == (Unit("mm", BaseUnit(m=1, factor=0.001)), Unit("m", BaseUnit(m=1)))
    assert structure.enumerations == (Enumeration("Modes", (("A", 1), ("B", 2))),)
    assert structure.experiment == Experiment(0.5, 10.0, 0.01, "oms:FixedStepMaster stepSize",
                                              1e-5)
    root = structure.system
    assert root.step_size == 0.01
    assert root.connectors == (Connector("gain", "parameter", SignalType("Float64")),)
    plant, ctrl, empty = root.elements
    assert [c.kind for c in plant.connectors] == [
        "output", "input", "structuralParameter", "local", "output", "constant", "output",
        "output", "output", "unspecified", "calculatedParameter", "inout"]
    assert [c.type.name for c in plant.connectors] == [
        "Float64", "Float32", "UInt16", "Float64", "Float64", "Int64", "Enumeration", "Boolean",
        "Clock", "Binary", "Int8", "String"]
    connectors = {c.name: c for c in plant.connectors}
    assert connectors["y"].type == SignalType("Float64", unit="mm")
    assert connectors["x"].dimensions == (Dimension(3),)
    assert connectors["v"].dimensions == (Dimension(size_connector="n"),)
    assert connectors["mode"].type.enumeration == "Modes"
    assert connectors["tick"].type.clock == ClockType(interval_variability="constant",
                                                      interval_decimal=0.1)
    assert connectors["blob"].type.mime_type == "image/png"
    assert connectors["s"].clocks == ("tick",)
    assert plant.step_size_hint == 0.002 and plant.kind == "fmu"
    assert plant.source_path == "resources/Plant.fmu"
    assert (ctrl.kind, ctrl.type, ctrl.source_path) == ("modelica", "text/x-modelica",
                                                        "resources/Ctrl.mo")
    assert empty == Component("Empty")
    assert diagnostics == tuple(d for d in diagnostics if d.severity == "warning")


def test_connections_and_transformations(full):
    structure, _ = full
    first, second, third, fourth, fifth = structure.system.connections
    assert first == Connection(Endpoint("Plant", "y"), Endpoint("Ctrl", "u"))
    assert first.location == Location("SystemStructure.ssd", 39)
    # Plant.u is an input, Ctrl.y an output: data flows end -> start.
    assert second.reversed and (str(second.source), str(second.target)) == ("Ctrl.y", "Plant.u")
    assert second.transformation == LinearTransformation(2.5, -1.0)
    assert second.suppress_unit_conversion
    assert third.transformation == MappingTransformation("Enumeration", (("A", "B"),))
    assert fourth.transformation == MappingTransformation("Boolean", ((True, False), (False, True)))
    assert fourth.transformation.apply(True) is False
    assert (fifth.start.indices, fifth.end.indices) == ((2,), (1, 3))
    assert str(fifth) == "connection Plant.x[2] -> Ctrl.w[1,3]"


def test_locations_name_file_and_line(full):
    structure, _ = full
    plant = structure.system.elements[0]
    assert plant.location == Location("SystemStructure.ssd", 8)
    assert plant.connectors[1].location == Location("SystemStructure.ssd", 11)
    assert str(plant.connectors[1].location) == "SystemStructure.ssd:11"


def test_equality_ignores_locations(full, tmp_path):
    structure, _ = full
    moved = tmp_path / "moved"
    write_files(moved, {"SystemStructure.ssd": FULL_20.replace("<ssd:Elements>", "\n\n<ssd:Elements>"),
                        "resources/Plant.fmu": b"", "resources/Ctrl.mo": ""})
    again, _ = load(moved)
    assert again == structure
    assert again.system.elements[0].location != structure.system.elements[0].location


PARAMETER_SYSTEM = '''
<ssd:System name="root">
  <ssd:Elements>
    <ssd:Component name="A" source="a.fmu">
      <ssd:ParameterBindings>
        <ssd:ParameterBinding source="values/a.ssv" prefix="sub.">
          <ssd:ParameterMapping source="values/a.ssm"/>
        </ssd:ParameterBinding>
        <ssd:ParameterBinding>
          <ssd:ParameterValues>
            <ssv:ParameterSet version="1.0" name="inline">
              <ssv:Parameters>
                <ssv:Parameter name="k"><ssv:Real value="1.5" unit="m"/></ssv:Parameter>
              </ssv:Parameters>
            </ssv:ParameterSet>
          </ssd:ParameterValues>
          <ssd:ParameterMapping>
            <ssm:ParameterMapping version="1.0">
              <ssm:MappingEntry source="k" target="gain"><ssc:LinearTransformation factor="2"/></ssm:MappingEntry>
            </ssm:ParameterMapping>
          </ssd:ParameterMapping>
        </ssd:ParameterBinding>
      </ssd:ParameterBindings>
    </ssd:Component>
  </ssd:Elements>
</ssd:System>'''


def test_parameter_bindings_from_files_and_inline(tmp_path):
    write_files(tmp_path, {
        "SystemStructure.ssd": ssd(PARAMETER_SYSTEM), "a.fmu": b"",
        "values/a.ssv": ssv('''
            <ssv:Parameter name="r"><ssv:Real value="2.5e3" unit="mm"/></ssv:Parameter>
            <ssv:Parameter name="i"><ssv:Integer value="-7"/></ssv:Parameter>
            <ssv:Parameter name="b"><ssv:Boolean value="true"/></ssv:Parameter>
            <ssv:Parameter name="s"><ssv:String value="hello"/></ssv:Parameter>
            <ssv:Parameter name="e"><ssv:Enumeration value="A" name="Modes"/></ssv:Parameter>
            <ssv:Parameter name="x"><ssv:Binary value="0aFF"/></ssv:Parameter>'''),
        "values/a.ssm": ssm('<ssm:MappingEntry source="sub.r" target="radius" '
                            'suppressUnitConversion="true"/>'),
    })
    structure, diagnostics = load(tmp_path)
    assert diagnostics == ()
    first, second = structure.system.elements[0].parameter_bindings
    assert (first.source, first.prefix, first.mapping_source) == ("values/a.ssv", "sub.",
                                                                  "values/a.ssm")
    assert [(p.name, p.type, p.value, p.unit) for p in first.values.parameters] == [
        ("r", "Real", 2500.0, "mm"), ("i", "Integer", -7, None), ("b", "Boolean", True, None),
        ("s", "String", "hello", None), ("e", "Enumeration", "A", None),
        ("x", "Binary", b"\x0a\xff", None)]
    assert first.values.parameters[0].location == Location("values/a.ssv", 4)
    assert first.mapping.entries[0].suppress_unit_conversion
    assert second.values.name == "inline" and second.source is None
    assert second.values.parameters == (Parameter("k", "Real", 1.5, unit="m"),)
    assert second.mapping.entries[0].transformation == LinearTransformation(2.0, 0.0)


def test_ssp_20_array_and_typed_values(tmp_path):
    path = write_files(tmp_path, {"v.ssv": ssv('''
        <ssv:Parameter name="m"><ssv:Float64 value="1 2 3 4 5 6"/><ssc:Dimension size="3"/><ssc:Dimension size="2"/></ssv:Parameter>
        <ssv:Parameter name="one"><ssv:UInt8 value="255"/><ssc:Dimension size="1"/></ssv:Parameter>
        <ssv:Parameter name="names"><ssv:String><ssv:Value value="a"/><ssv:Value value="b"/></ssv:String></ssv:Parameter>
        <ssv:Parameter name="big"><ssv:UInt64 value="18446744073709551615"/></ssv:Parameter>''',
                                                  version="2.0")}) / "v.ssv"
    values, diagnostics = read(path)
    m, one, names, big = values.parameters
    assert m.value == (1.0, 2.0, 3.0, 4.0, 5.0, 6.0) and m.dimensions == (Dimension(3), Dimension(2))
    assert one.value == (255,) and names.value == ("a", "b") and big.value == 2**64 - 1
    assert [d.severity for d in diagnostics] == ["warning"]  # not schema-checked (2.0, default)


@pytest.mark.parametrize("value, message", [
    ('<ssv:Int8 value="200"/>', "parameter 'p': 200 is out of the range of Int8 [-128, 127]"),
    ('<ssv:Real value="fast"/>', "parameter 'p': 'fast' is not a Real value"),
    ('<ssv:Boolean value="yes"/>', "parameter 'p': 'yes' is not a Boolean value"),
    ('<ssv:Binary value="xyz"/>', "parameter 'p': 'xyz' is not a Binary value"),
    ('<ssv:Float64 value="1 2 3"/><ssc:Dimension size="2"/>', "parameter 'p': 3 values for dimensions 2"),
])
def test_bad_parameter_values_are_located(tmp_path, value, message):
    path = write_files(tmp_path, {"v.ssv": ssv(f'<ssv:Parameter name="p">{value}</ssv:Parameter>',
                                               version="2.0")}) / "v.ssv"
    _, diagnostics = read(path)
    assert f"v.ssv:4: {message}" in [str(d) for d in diagnostics]


NESTED_CHILD = ssd('''
<ssd:System name="child">
  <ssd:Connectors>
    <ssd:Connector name="in" kind="input"><ssc:Real/></ssd:Connector>
    <ssd:Connector name="out" kind="output"><ssc:Real/></ssd:Connector>
  </ssd:Connectors>
  <ssd:Elements><ssd:Component name="Gain" source="gain.fmu"/></ssd:Elements>
</ssd:System>''')


def _nesting(kind: str, source: str) -> str:
    return ssd(f'''
<ssd:System name="root">
  <ssd:Elements>
    <ssd:Component name="Sub" type="{kind}" source="{source}">
      <ssd:Connectors>
        <ssd:Connector name="in" kind="input"><ssc:Real/></ssd:Connector>
        <ssd:Connector name="out" kind="output"><ssc:Real/></ssd:Connector>
      </ssd:Connectors>
    </ssd:Component>
    <ssd:System name="Inner">
      <ssd:Elements><ssd:Component name="Deep" source="deep.fmu"/></ssd:Elements>
    </ssd:System>
  </ssd:Elements>
</ssd:System>''')


def test_nested_ssd_component(tmp_path):
    write_files(tmp_path, {"SystemStructure.ssd": _nesting("application/x-ssp-definition",
                                                           "resources/child.ssd"),
                           "resources/child.ssd": NESTED_CHILD, "resources/gain.fmu": b"",
                           "deep.fmu": b""})
    structure, diagnostics = load(tmp_path)
    assert diagnostics == ()
    sub, inner = structure.system.elements
    assert sub.kind == "ssd" and sub.nested.system.name == "child"
    gain = sub.nested.system.elements[0]
    assert gain.source_path == "resources/gain.fmu"  # relative to the nested SSD
    assert gain.location == Location("resources/child.ssd", 8)
    assert isinstance(inner, System) and inner.elements[0].name == "Deep"


def test_nested_ssp_component_with_variant_fragment(tmp_path):
    child = zip_bytes({"SystemStructure.ssd": ssd('<ssd:System name="default"/>'),
                       "Fast.ssd": NESTED_CHILD, "gain.fmu": b""})
    write_files(tmp_path, {"SystemStructure.ssd": _nesting("application/x-ssp-package",
                                                           "resources/child.ssp#Fast.ssd"),
                           "resources/child.ssp": child, "deep.fmu": b""})
    structure, diagnostics = load(tmp_path)
    assert diagnostics == ()
    sub = structure.system.elements[0]
    assert sub.nested.system.name == "child"
    assert sub.nested.package.nested == ("resources/child.ssp",)
    assert sub.nested.system.elements[0].location == Location("resources/child.ssp/Fast.ssd", 8)


def test_variants_are_chosen_by_name(tmp_path):
    write_files(tmp_path, {"SystemStructure.ssd": ssd('<ssd:System name="default"/>'),
                           "Other.ssd": ssd('<ssd:System name="other"/>')})
    assert load(tmp_path)[0].system.name == "default"
    assert load(tmp_path, variant="Other")[0].system.name == "other"
    assert load(tmp_path, variant="Other.ssd")[0].system.name == "other"
    archive = tmp_path / "p.ssp"
    archive.write_bytes(zip_bytes({"SystemStructure.ssd": ssd('<ssd:System name="default"/>'),
                                   "Other.ssd": ssd('<ssd:System name="other"/>')}))
    assert load(archive, variant="Other")[0].system.name == "other"
    with pytest.raises(SspError) as caught:
        load(archive, variant="Missing")
    assert str(caught.value) == f"{archive}: no variant 'Missing' (variants: Other, SystemStructure)"


def test_recursive_nesting_is_reported(tmp_path):
    loop = ssd('''<ssd:System name="root"><ssd:Elements>
        <ssd:Component name="Self" type="application/x-ssp-definition" source="SystemStructure.ssd"/>
        </ssd:Elements></ssd:System>''')
    write_files(tmp_path, {"SystemStructure.ssd": loop})
    structure, diagnostics = load(tmp_path)
    assert structure.system.elements[0].nested is None
    assert [str(d) for d in diagnostics] == [
        "SystemStructure.ssd:4: component 'Self': 'SystemStructure.ssd' refers back to itself"]


def test_signal_dictionaries_inline_and_from_ssb(tmp_path):
    system = '''
<ssd:System name="root">
  <ssd:Elements>
    <ssd:SignalDictionaryReference name="BusA" dictionary="Inline">
      <ssd:Connectors><ssd:Connector name="speed" kind="inout"><ssc:Real/></ssd:Connector></ssd:Connectors>
    </ssd:SignalDictionaryReference>
  </ssd:Elements>
  <ssd:SignalDictionaries>
    <ssd:SignalDictionary name="Inline">
      <ssb:SignalDictionary version="1.0">
        <ssb:DictionaryEntry name="speed"><ssc:Real unit="m/s"/></ssb:DictionaryEntry>
      </ssb:SignalDictionary>
    </ssd:SignalDictionary>
    <ssd:SignalDictionary name="File" source="bus.ssb"/>
  </ssd:SignalDictionaries>
</ssd:System>'''
    bus = ssd("").replace("ssd:SystemStructureDescription", "ssb:SignalDictionary").replace(
        'name="test" version="1.0">', 'version="1.0">'
        '<ssb:DictionaryEntry name="flag"><ssc:Boolean/></ssb:DictionaryEntry>')
    write_files(tmp_path, {"SystemStructure.ssd": ssd(system), "bus.ssb": bus})
    structure, diagnostics = load(tmp_path)
    assert diagnostics == ()
    inline, from_file = structure.system.signal_dictionaries
    assert (inline.name, [e.name for e in inline.entries]) == ("Inline", ["speed"])
    assert inline.entries[0].type == SignalType("Real", unit="m/s")
    assert (from_file.name, from_file.source, from_file.entries[0].type.name) == (
        "File", "bus.ssb", "Boolean")
    reference = structure.system.elements[0]
    assert (reference.dictionary, reference.connectors[0].kind) == ("Inline", "inout")


def test_osp_and_oms_step_sizes(tmp_path):
    osp = '''<ssd:DefaultExperiment startTime="1"><ssd:Annotations>
      <ssc:Annotation type="com.opensimulationplatform"><osp:Algorithm>
        <osp:FixedStepAlgorithm baseStepSize="1e-4"/></osp:Algorithm></ssc:Annotation>
      </ssd:Annotations></ssd:DefaultExperiment>'''
    write_files(tmp_path, {"SystemStructure.ssd": ssd('<ssd:System name="r"/>', after=osp)})
    structure, _ = load(tmp_path)
    assert structure.experiment == Experiment(1.0, None, 1e-4,
                                              "osp:FixedStepAlgorithm baseStepSize")
    both = ssd('''<ssd:System name="r"><ssd:Annotations><ssc:Annotation type="org.openmodelica">
        <oms:Annotations><oms:SimulationInformation><oms:FixedStepMaster stepSize="0.5"/>
        </oms:SimulationInformation></oms:Annotations></ssc:Annotation></ssd:Annotations>
        </ssd:System>''', after=osp)
    write_files(tmp_path, {"SystemStructure.ssd": both})
    structure, diagnostics = load(tmp_path)
    assert structure.experiment.step_size == 1e-4
    assert [str(d) for d in diagnostics] == [
        "SystemStructure.ssd:9: step size: osp:FixedStepAlgorithm baseStepSize=0.0001 differs "
        "from oms:FixedStepMaster stepSize=0.5; using baseStepSize"]


def test_undeclared_prefixes_are_repaired_and_reported(tmp_path):
    text = ssd('<ssd:System name="r"/>', after='''<ssd:DefaultExperiment><ssd:Annotations>
        <ssc:Annotation type="com.opensimulationplatform"><osp:Algorithm>
        <osp:FixedStepAlgorithm baseStepSize="0.25"/></osp:Algorithm></ssc:Annotation>
        </ssd:Annotations></ssd:DefaultExperiment>''').replace(
        ' xmlns:osp="http://opensimulationplatform.com/SSP/OSPAnnotations"', "")
    write_files(tmp_path, {"SystemStructure.ssd": text})
    structure, diagnostics = load(tmp_path)
    assert structure.experiment.step_size == 0.25
    assert [str(d) for d in diagnostics] == [
        "SystemStructure.ssd:5: namespace prefix 'osp' is not declared; read as "
        "http://opensimulationplatform.com/SSP/OSPAnnotations"]
    with pytest.raises(SspError, match="namespace prefix 'osp' is not declared"):
        load(tmp_path, strict=True)


def test_not_well_formed_xml_is_refused_with_its_line(tmp_path):
    write_files(tmp_path, {"SystemStructure.ssd": ssd('<ssd:System name="r">\n<oops></ssd:System>')})
    with pytest.raises(SspError) as caught:
        load(tmp_path)
    assert str(caught.value).startswith("SystemStructure.ssd:4: not well-formed XML: ")


def test_external_entities_are_not_expanded(tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("TOP SECRET")
    text = ssd('<ssd:System name="&xxe;"/>').replace(
        "<ssd:SystemStructureDescription",
        f'<!DOCTYPE x [<!ENTITY xxe SYSTEM "file://{secret}">]>\n<ssd:SystemStructureDescription')
    write_files(tmp_path, {"SystemStructure.ssd": text})
    with pytest.raises(SspError) as caught:
        load(tmp_path)
    assert str(caught.value) == ("SystemStructure.ssd:4: not well-formed XML: Attribute "
                                 "references external entity 'xxe'")


def test_missing_referenced_files_are_problems_not_crashes(tmp_path):
    write_files(tmp_path, {"SystemStructure.ssd": ssd(PARAMETER_SYSTEM)})
    structure, diagnostics = load(tmp_path)
    assert [str(d) for d in diagnostics] == [
        "SystemStructure.ssd:5: component 'A': source file 'a.fmu' not found",
        "SystemStructure.ssd:7: parameter set 'values/a.ssv' not found",
        "SystemStructure.ssd:8: parameter mapping 'values/a.ssm' not found",
    ]
    assert structure.system.elements[0].parameter_bindings[0].values is None


def test_unsupported_source_uris(tmp_path):
    text = ssd('''<ssd:System name="r"><ssd:Elements>
        <ssd:Component name="P" source="proxyfmu://localhost?file=P.fmu"/>
        <ssd:Component name="Q" source="resources/Q%20model.fmu"/>
        </ssd:Elements></ssd:System>''')
    archive = tmp_path / "u.ssp"
    archive.write_bytes(zip_bytes({"SystemStructure.ssd": text,
                                   "resources/Q model.fmu": b""}))
    structure, diagnostics = load(archive)
    assert [str(d) for d in diagnostics] == [
        "SystemStructure.ssd:4: component 'P': source 'proxyfmu://localhost?file=P.fmu' "
        "unsupported URI scheme 'proxyfmu'"]
    assert structure.system.elements[1].source_path == "resources/Q model.fmu"


def test_bare_files_of_the_wrong_kind_are_refused(tmp_path):
    path = write_files(tmp_path, {"x.ssv": ssm("")}) / "x.ssv"
    with pytest.raises(SspError) as caught:
        read(path)
    assert str(caught.value) == "x.ssv:2: expected a parameter set, found ParameterMapping"
    with pytest.raises(SspError, match="not a system structure but a ParameterMapping"):
        load(write_files(tmp_path, {"m.ssm": ssm("")}) / "m.ssm")
