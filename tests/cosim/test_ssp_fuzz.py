"""Property test of the SSP readers on mutated input: whatever the bytes of an SSD or SSV
(truncated, spliced, characters replaced or inserted), reading it either succeeds or raises
the project's own ``CosimError``: never another exception. Bounded for CI (a few hundred
examples, no deadline per example).
"""
from __future__ import annotations

import tempfile
from pathlib import Path

from conftest import ssd, ssv, zip_bytes
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cosim.errors import CosimError
from cosim.ssp import read

SEEDS = {
    ".ssd": ssd('''
        <ssd:System name="root">
          <ssd:Connectors><ssd:Connector name="out" kind="output"><ssc:Real unit="m"/></ssd:Connector></ssd:Connectors>
          <ssd:Elements>
            <ssd:Component name="A" source="resources/A.fmu">
              <ssd:Connectors><ssd:Connector name="y" kind="output"><ssc:Real/></ssd:Connector></ssd:Connectors>
              <ssd:ParameterBindings><ssd:ParameterBinding source="values.ssv"/></ssd:ParameterBindings>
            </ssd:Component>
            <ssd:Component name="B" source="resources/B.fmu">
              <ssd:Connectors><ssd:Connector name="u" kind="input"><ssc:Real/></ssd:Connector></ssd:Connectors>
            </ssd:Component>
          </ssd:Elements>
          <ssd:Connections>
            <ssd:Connection startElement="A" startConnector="y" endElement="B" endConnector="u">
              <ssc:LinearTransformation factor="2" offset="1"/>
            </ssd:Connection>
            <ssd:Connection startElement="A" startConnector="y" endConnector="out"/>
          </ssd:Connections>
        </ssd:System>''', after='''
        <ssd:Units><ssc:Unit name="m"><ssc:BaseUnit m="1"/></ssc:Unit></ssd:Units>
        <ssd:DefaultExperiment startTime="0" stopTime="1"/>'''),
    ".ssv": ssv('''
        <ssv:Parameter name="A.k"><ssv:Real value="2" unit="m"/></ssv:Parameter>
        <ssv:Parameter name="A.n"><ssv:Integer value="3"/></ssv:Parameter>
        <ssv:Parameter name="A.on"><ssv:Boolean value="true"/></ssv:Parameter>
        <ssv:Parameter name="A.s"><ssv:String value="text"/></ssv:Parameter>'''),
}

# Pieces that XML and SSP readers treat specially.
TOKENS = st.sampled_from(["<", ">", "/>", "</", '"', "&", "&amp;", "&#0;", "<![CDATA[", "]]>",
                          "<!DOCTYPE a [<!ENTITY e SYSTEM 'file:///etc/passwd'>]>", "&e;",
                          "xmlns:ssd=\"x\"", "\x00", "\ufffd", "nan", "-inf", "1e999", "..",
                          "../../x.fmu", "file:///", "#", "\n"])


@st.composite
def mutated(draw, seed: str) -> str:
    text = seed
    for _ in range(draw(st.integers(1, 6))):
        at = draw(st.integers(0, len(text)))
        action = draw(st.sampled_from(["insert", "delete", "replace", "truncate", "duplicate"]))
        if action == "truncate":
            text = text[:at]
        elif action == "delete":
            text = text[:at] + text[at + draw(st.integers(1, 40)):]
        elif action == "duplicate":
            end = min(len(text), at + draw(st.integers(1, 200)))
            text = text[:at] + text[at:end] + text[at:]
        else:
            piece = draw(st.one_of(TOKENS, st.text(max_size=8)))
            cut = at + (draw(st.integers(1, 8)) if action == "replace" else 0)
            text = text[:at] + piece + text[cut:]
    return text


def _read_only_own_errors(path: Path) -> None:
    for strict in (False, True):
        try:
            read(path, strict=strict)
        except CosimError:
            pass


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(suffix=st.sampled_from(sorted(SEEDS)), data=st.data())
def test_mutated_files_raise_only_our_errors(suffix, data):
    text = data.draw(mutated(SEEDS[suffix]))
    encoding = data.draw(st.sampled_from(["utf-8", "latin-1", "utf-16"]))
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / f"file{suffix}"
        path.write_bytes(text.encode(encoding, "replace"))
        _read_only_own_errors(path)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_mutated_ssd_inside_an_archive_raises_only_our_errors(data):
    text = data.draw(mutated(SEEDS[".ssd"]))
    values = data.draw(mutated(SEEDS[".ssv"]))
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "system.ssp"
        path.write_bytes(zip_bytes({"SystemStructure.ssd": text, "values.ssv": values,
                                    "resources/A.fmu": b"PK\x05\x06" + bytes(18)}))
        _read_only_own_errors(path)


def test_a_nul_byte_before_the_declaration_is_one_located_error(tmp_path):
    # found by the property test above: lxml's recovering parser raised on its own
    path = tmp_path / "SystemStructure.ssd"
    path.write_bytes(b"\x00" + SEEDS[".ssd"].encode())
    for strict in (False, True):
        try:
            read(path, strict=strict)
        except CosimError as error:
            assert str(error).startswith("SystemStructure.ssd:1: not well-formed XML")
        else:
            raise AssertionError("a NUL byte before the XML declaration was read")
