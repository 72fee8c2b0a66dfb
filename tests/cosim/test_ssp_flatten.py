"""Flat component-to-component connections through nested systems and signal dictionaries."""
from __future__ import annotations

import pytest
from conftest import ssd, write_files

from cosim.ssp import load
from cosim.ssp.flatten import flat_connections

CHILD = ssd('''<ssd:System name="child">
  <ssd:Connectors><ssd:Connector name="in" kind="input"><ssc:Real unit="m"/></ssd:Connector>
  </ssd:Connectors>
  <ssd:Elements>
    <ssd:Component name="G" source="g.fmu"><ssd:Connectors>
      <ssd:Connector name="u" kind="input"><ssc:Real unit="m"/></ssd:Connector>
    </ssd:Connectors></ssd:Component>
  </ssd:Elements>
  <ssd:Connections>
    <ssd:Connection startConnector="in" endElement="G" endConnector="u">
      <ssc:LinearTransformation factor="2" offset="1"/>
    </ssd:Connection>
  </ssd:Connections>
</ssd:System>''', after='<ssd:Units><ssc:Unit name="m"><ssc:BaseUnit m="1"/></ssc:Unit></ssd:Units>')

ROOT = ssd('''<ssd:System name="root">
  <ssd:Connectors><ssd:Connector name="r" kind="input"><ssc:Real/></ssd:Connector></ssd:Connectors>
  <ssd:Elements>
    <ssd:Component name="A" source="a.fmu"><ssd:Connectors>
      <ssd:Connector name="y" kind="output"><ssc:Real unit="mm"/></ssd:Connector>
      <ssd:Connector name="flag" kind="output"><ssc:Boolean/></ssd:Connector>
      <ssd:Connector name="u" kind="input"><ssc:Real/></ssd:Connector>
    </ssd:Connectors></ssd:Component>
    <ssd:Component name="Sub" source="child.ssd" type="application/x-ssp-definition">
      <ssd:Connectors><ssd:Connector name="in" kind="input"><ssc:Real unit="m"/></ssd:Connector>
      </ssd:Connectors></ssd:Component>
    <ssd:System name="Inner">
      <ssd:Connectors><ssd:Connector name="f" kind="input"><ssc:Boolean/></ssd:Connector></ssd:Connectors>
      <ssd:Elements>
        <ssd:Component name="B" source="b.fmu"><ssd:Connectors>
          <ssd:Connector name="on" kind="input"><ssc:Boolean/></ssd:Connector>
        </ssd:Connectors></ssd:Component>
        <ssd:SignalDictionaryReference name="Reader" dictionary="Bus"><ssd:Connectors>
          <ssd:Connector name="flag" kind="inout"><ssc:Boolean/></ssd:Connector>
        </ssd:Connectors></ssd:SignalDictionaryReference>
      </ssd:Elements>
      <ssd:Connections>
        <ssd:Connection startElement="Reader" startConnector="flag" endElement="B" endConnector="on"/>
      </ssd:Connections>
    </ssd:System>
    <ssd:SignalDictionaryReference name="Writer" dictionary="Bus"><ssd:Connectors>
      <ssd:Connector name="flag" kind="inout"><ssc:Boolean/></ssd:Connector>
    </ssd:Connectors></ssd:SignalDictionaryReference>
  </ssd:Elements>
  <ssd:Connections>
    <ssd:Connection startElement="A" startConnector="y" endElement="Sub" endConnector="in"/>
    <ssd:Connection startElement="Writer" startConnector="flag" endElement="A" endConnector="flag">
      <ssc:BooleanMappingTransformation><ssc:MapEntry source="true" target="false"/>
      </ssc:BooleanMappingTransformation>
    </ssd:Connection>
    <ssd:Connection startConnector="r" endElement="A" endConnector="u"/>
  </ssd:Connections>
  <ssd:SignalDictionaries><ssd:SignalDictionary name="Bus"><ssb:SignalDictionary version="1.0">
    <ssb:DictionaryEntry name="flag"><ssc:Boolean/></ssb:DictionaryEntry>
  </ssb:SignalDictionary></ssd:SignalDictionary></ssd:SignalDictionaries>
</ssd:System>''', after='''<ssd:Units><ssc:Unit name="mm"><ssc:BaseUnit m="1" factor="0.001"/></ssc:Unit>
  <ssc:Unit name="m"><ssc:BaseUnit m="1"/></ssc:Unit></ssd:Units>''')


def test_paths_through_nested_systems_and_dictionaries(tmp_path):
    write_files(tmp_path, {"SystemStructure.ssd": ROOT, "child.ssd": CHILD, "a.fmu": b"",
                           "g.fmu": b"", "b.fmu": b""})
    structure, diagnostics = load(tmp_path)
    assert [d.message for d in diagnostics if d.severity == "error"] == []
    flat = {(c.source, c.target): c for c in flat_connections(structure)}
    assert sorted(flat) == [(("", "r"), ("A", "u")),
                            (("A", "flag"), ("Inner.B", "on")),
                            (("A", "y"), ("Sub.G", "u"))]
    # 1500 mm -> 1.5 m (outer hop), then 2 * 1.5 + 1 inside the nested SSD.
    deep = flat[("A", "y"), ("Sub.G", "u")]
    assert deep.conversion.factor * 1500 + deep.conversion.offset == pytest.approx(4.0)
    assert [str(location) for location in deep.locations] == [
        "SystemStructure.ssd:33", "child.ssd:12"]
    # The written connection Writer.flag -> A.flag flows A.flag -> Writer.flag (A's is an output).
    flag = flat[("A", "flag"), ("Inner.B", "on")]
    assert flag.conversion.mapping.apply(True) is False


def test_two_writers_of_one_dictionary_entry_are_a_problem(tmp_path):
    second_writer = ROOT.replace(
        '<ssd:Connector name="r" kind="input"><ssc:Real/></ssd:Connector>',
        '<ssd:Connector name="r" kind="input"><ssc:Real/></ssd:Connector>'
        '<ssd:Connector name="b" kind="input"><ssc:Boolean/></ssd:Connector>').replace(
        '<ssd:Connection startConnector="r" endElement="A" endConnector="u"/>',
        '<ssd:Connection startConnector="r" endElement="A" endConnector="u"/>\n'
        '<ssd:Connection startConnector="b" endElement="Writer2" endConnector="flag"/>').replace(
        '</ssd:Elements>\n  <ssd:Connections>',
        '<ssd:SignalDictionaryReference name="Writer2" dictionary="Bus"><ssd:Connectors>'
        '<ssd:Connector name="flag" kind="inout"><ssc:Boolean/></ssd:Connector></ssd:Connectors>'
        '</ssd:SignalDictionaryReference></ssd:Elements>\n  <ssd:Connections>')
    write_files(tmp_path, {"SystemStructure.ssd": second_writer, "child.ssd": CHILD,
                           "a.fmu": b"", "g.fmu": b"", "b.fmu": b""})
    _, diagnostics = load(tmp_path)
    assert [str(d) for d in diagnostics if d.severity == "error"] == [
        "SystemStructure.ssd:25: Inner.B.on has 2 sources through nested systems or signal "
        "dictionaries: A.flag, b"]
