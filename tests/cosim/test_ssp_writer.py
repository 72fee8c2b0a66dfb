"""Writing SSP files: write -> read gives the same values, and written files pass the XSDs."""
from __future__ import annotations

import zipfile
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from conftest import CORPUS, write_files
from lxml import etree
from test_ssp_read import FULL_20

from tests.conftest import params_or_missing

from cosim.ssp import load, read, resolve_parameters
from cosim.ssp.builder import structure_from_description
from cosim.ssp.model import (
    Dimension, DictionaryEntry, MappingEntry, Parameter, ParameterBinding, ParameterMapping, ParameterSet,
    SignalDictionary, SignalDictionaryReference, SignalType,
)
from cosim.ssp.schema import default_schema_dir, load_schema
from cosim.ssp.writer import pack_ssp, ssd_xml, ssm_xml, ssv_xml, write_folder

DESCRIPTION = {
    "name": "demo", "start_time": 0, "stop_time": 2.5, "step_size": 1e-3, "tolerance": 1e-6,
    "units": {"mm": {"m": 1, "factor": 1e-3}, "m": {"m": 1}},
    "connectors": {"ref": "input Real m"},
    "components": {
        "Plant": {"source": "resources/Plant.fmu", "step_size_hint": 2e-3,
                  "connectors": {"y": "output Real mm", "u": "input Real", "k": "parameter Real"},
                  "parameters": {"k": 2.0, "n": ("Integer", 3), "on": True, "label": "x<&>"}},
        "Ctrl": {"source": "resources/Ctrl.fmu",
                 "connectors": {"u": "input Real m", "r": "input Real m", "y": "output Real"}},
        "Sub": {"system": {"connectors": {"in": "input Real"},
                           "components": {"G": {"source": "resources/G.fmu",
                                                "connectors": {"u": "input Real"}}},
                           "connections": ["in -> G.u"]}},
    },
    "connections": ["Plant.y -> Ctrl.u", ("Ctrl.y", "Plant.u", {"factor": 2.0, "offset": 1.0}),
                    "ref -> Ctrl.r", "Ctrl.y -> Sub.in"],
    "parameters": {"Plant.k": 3.0},
}
RESOURCES = {f"resources/{name}.fmu": b"" for name in ("Plant", "Ctrl", "G")}


def schema_errors(xml: bytes, directory) -> list[str]:
    schema = load_schema(str(directory))
    document = etree.fromstring(xml)
    return [] if schema.validate(document) else [str(e) for e in schema.error_log]


def test_description_round_trip(tmp_path):
    structure = structure_from_description(DESCRIPTION)
    path = pack_ssp(tmp_path / "demo.ssp", structure, resources=RESOURCES)
    again, diagnostics = load(path)
    assert diagnostics == ()
    assert again == structure
    assert again.experiment.step_size == 1e-3 and again.experiment.tolerance == 1e-6
    values = {p.path: p.value for p in resolve_parameters(again)[0]}
    assert values == {"Plant.k": 3.0, "Plant.n": 3, "Plant.on": True, "Plant.label": "x<&>"}


def test_written_10_files_pass_both_schemas(tmp_path, schema_2):
    xml = ssd_xml(structure_from_description(DESCRIPTION))
    assert schema_errors(xml, default_schema_dir()) == []
    assert schema_errors(xml, schema_2) == []


def test_ssp_20_round_trip_and_schema(tmp_path, schema_2):
    write_files(tmp_path / "in", {"SystemStructure.ssd": FULL_20, "resources/Plant.fmu": b"",
                                  "resources/Ctrl.mo": ""})
    structure, _ = load(tmp_path / "in")
    xml = ssd_xml(structure)
    assert schema_errors(xml, schema_2) == []
    write_folder(tmp_path / "out", structure, resources={"resources/Plant.fmu": b"",
                                                         "resources/Ctrl.mo": b""})
    again, _ = load(tmp_path / "out", schema_dir=schema_2)
    assert again == structure


def test_external_parameter_files_dictionaries_and_variants(tmp_path, schema_2):
    structure = structure_from_description(DESCRIPTION)
    values = ParameterSet("external", structure.system.parameter_bindings[0].values.parameters)
    mapping = ParameterMapping((MappingEntry("Plant.k", "Plant.k"),))
    dictionary = SignalDictionary("Bus", (DictionaryEntry("speed", SignalType("Real", "m")),),
                                  source="bus.ssb")
    reference = SignalDictionaryReference("BusRef", "Bus")
    system = replace(structure.system, elements=structure.system.elements + (reference,),
                     parameter_bindings=(ParameterBinding(values, mapping, source="values/p.ssv",
                                                          mapping_source="values/p.ssm"),),
                     signal_dictionaries=(dictionary,))
    structure = replace(structure, system=system)
    variant = structure_from_description({**DESCRIPTION, "name": "fast", "step_size": 1e-2})
    path = pack_ssp(tmp_path / "p.ssp", structure, resources=RESOURCES, variants={"Fast": variant})
    with zipfile.ZipFile(path) as archive:
        names = set(archive.namelist())
        for member in ("values/p.ssv", "values/p.ssm", "bus.ssb", "SystemStructure.ssd"):
            assert schema_errors(archive.read(member), schema_2) == []
    assert {"SystemStructure.ssd", "Fast.ssd", "values/p.ssv", "values/p.ssm", "bus.ssb"} <= names
    again, diagnostics = load(path)
    assert diagnostics == () and again == structure
    assert load(path, variant="Fast")[0].experiment.step_size == 1e-2


def test_standalone_parameter_files_round_trip(tmp_path):
    values = structure_from_description(DESCRIPTION).system.elements[0].parameter_bindings[0].values
    (tmp_path / "v.ssv").write_bytes(ssv_xml(values))
    assert read(tmp_path / "v.ssv") == (values, ())
    mapping = ParameterMapping((MappingEntry("a", "b", suppress_unit_conversion=True),))
    (tmp_path / "m.ssm").write_bytes(ssm_xml(mapping))
    assert read(tmp_path / "m.ssm") == (mapping, ())


CORPUS_SSDS = params_or_missing("ssp-corpus", sorted(CORPUS.rglob("*.ssd")))


@pytest.mark.parametrize("path", CORPUS_SSDS, ids=lambda p: str(p.relative_to(CORPUS)))
def test_corpus_round_trips(tmp_path, path, schema_2, ssp_corpus):
    structure, _ = load(path)
    write_folder(tmp_path, structure)
    again, _ = load(tmp_path)
    assert again == structure
    unnamed_enumeration = "The attribute 'name' is required but missing"
    assert [e for e in schema_errors(ssd_xml(structure), schema_2)
            if unnamed_enumeration not in e] == []


_TEXT = st.text(st.characters(blacklist_categories=("Cs", "Cc"), blacklist_characters="\x00")
                | st.sampled_from("\t\n\r"), max_size=12)
_VALUES = {
    "Real": st.floats(allow_nan=False, width=64),
    "Float32": st.floats(allow_nan=False, width=32),
    "Int8": st.integers(-128, 127),
    "UInt64": st.integers(0, 2**64 - 1),
    "Integer": st.integers(-2**31, 2**31 - 1),
    "Boolean": st.booleans(),
    "String": _TEXT,
    "Binary": st.binary(max_size=8),
}


@st.composite
def _parameters(draw):
    type_name = draw(st.sampled_from(sorted(_VALUES)))
    values = draw(st.lists(_VALUES[type_name], min_size=1, max_size=3))
    dimensions = (Dimension(len(values)),) if len(values) > 1 or draw(st.booleans()) else ()
    value = tuple(values) if dimensions else values[0]
    unit = draw(st.none() | _TEXT) if type_name in ("Real", "Float32") else None
    return Parameter(draw(_TEXT), type_name, value, unit=unit, dimensions=dimensions)


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(parameters=st.lists(_parameters(), max_size=6), name=_TEXT)
def test_any_parameter_set_round_trips(tmp_path, parameters, name):
    values = ParameterSet(name, tuple(parameters), version="2.0")
    path = tmp_path / "p.ssv"
    path.write_bytes(ssv_xml(values))
    again, _ = read(path)
    assert again == values
