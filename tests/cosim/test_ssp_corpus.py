"""Every file of the shared SSP corpus (files other tools wrote) loads or is refused cleanly."""
from __future__ import annotations

import re

import pytest
from conftest import CORPUS
from lxml import etree

from cosim.ssp import SspError, load, read, resolve_parameters
from cosim.ssp.model import Component, Diagnostic, SystemStructure, iter_components
from tests.conftest import need, params_or_missing

CORPUS_FILES = sorted(
    p for suffix in ("ssd", "ssv", "ssm", "ssb") for p in CORPUS.rglob(f"*.{suffix}"))
FILES = params_or_missing("ssp-corpus", CORPUS_FILES)
SSD_FILES = params_or_missing("ssp-corpus",
                              [p for p in CORPUS_FILES if p.suffix == ".ssd"])
ONE_LINE = re.compile(r"^[^\s:][^:]*(:\d+)?: \S.*$")


def _ids(path):
    return str(path.relative_to(CORPUS))


@pytest.fixture(autouse=True)
def _corpus():
    need("ssp-corpus")


def _located(diagnostic: Diagnostic) -> bool:
    return diagnostic.location is not None and bool(diagnostic.location.file) and \
        diagnostic.location.line is not None


@pytest.mark.parametrize("path", FILES, ids=_ids)
def test_corpus_file_loads_or_is_refused_with_one_line(path):
    for strict in (False, True):
        try:
            value, diagnostics = read(path, strict=strict)
        except SspError as error:
            assert ONE_LINE.match(str(error)), str(error)
            assert strict, "the lenient reader loads every corpus file"
            continue
        assert all(_located(d) for d in diagnostics), diagnostics
        assert all("\n" not in str(d) for d in diagnostics)
        if strict:
            assert all(d.severity == "warning" for d in diagnostics)


def _xpath_count(path, expression: str) -> int:
    namespaces = {"ssd": "http://ssp-standard.org/SSP1/SystemStructureDescription"}
    parser = etree.XMLParser(recover=True)
    return int(etree.parse(str(path), parser).xpath(f"count({expression})", namespaces=namespaces))


def _all_connections(structure: SystemStructure) -> int:
    count = len(structure.system.connections)
    return count + sum(len(c.nested.system.connections)
                       for _, _, c in iter_components(structure) if c.nested)


@pytest.mark.parametrize("path", SSD_FILES, ids=_ids)
def test_counts_match_an_independent_xpath_count(path):
    structure, _ = load(path)
    components = [c for _, _, c in iter_components(structure)]
    assert len(components) == _xpath_count(path, "//ssd:Component")
    assert _all_connections(structure) == _xpath_count(path, "//ssd:Connection")
    assert all(isinstance(c, Component) for c in components)


def test_libcosim_demo():
    structure, diagnostics = load(CORPUS / "libcosim/tests/data/ssp/demo/SystemStructure.ssd")
    crane, boom = structure.system.elements
    assert (crane.name, boom.name) == ("CraneController", "KnuckleBoomCrane")
    assert len(structure.system.connections) == 9 and len(crane.connectors) == 9
    assert structure.experiment.step_size == 1e-4
    assert structure.experiment.step_size_origin == "osp:FixedStepAlgorithm baseStepSize"
    values = {p.path: p.value for p in resolve_parameters(structure)[0]}
    assert values == {"KnuckleBoomCrane.Spring_Joint.k": 0.005, "KnuckleBoomCrane.mt0_init": 69.0}
    assert [d.message for d in diagnostics] == [
        "component 'CraneController': source file '../../fmi2/CraneController.fmu' not found",
        "component 'KnuckleBoomCrane': source file '../../fmi2/KnuckleBoomCrane.fmu' not found"]


def test_libcosim_linear_transformation():
    path = CORPUS / "libcosim/tests/data/ssp/linear_transformation/SystemStructure.ssd"
    structure, _ = load(path)
    (connection,) = structure.system.connections
    assert (connection.transformation.factor, connection.transformation.offset) == (1.3, 50.0)


def test_osp_house_with_undeclared_osp_prefix():
    structure, diagnostics = load(CORPUS / "osp-demo-cases/house/SystemStructure.ssd")
    assert structure.experiment.step_size == 0.01
    assert len(structure.system.elements) == 7
    assert str(diagnostics[0]) == ("SystemStructure.ssd:161: namespace prefix 'osp' is not "
                                   "declared; read as http://opensimulationplatform.com/SSP/"
                                   "OSPAnnotations")


def test_ssp4sim_oms_annotations_and_mapped_parameters():
    path = CORPUS / "ssp4sim/resources/scenario/scenario_parameter.ssp.extracted"
    structure, diagnostics = load(path / "SystemStructure.ssd")
    experiment = structure.experiment
    assert (experiment.start_time, experiment.stop_time, experiment.step_size,
            experiment.tolerance) == (0.0, 1.0, 0.001, 1e-4)
    assert experiment.step_size_origin == "oms:FixedStepMaster stepSize"
    (scenario,) = resolve_parameters(structure)[0]
    assert scenario.path == "scenario.scenario_input"
    assert scenario.value.startswith("Alt;L;0,0;300,5000\nMach;L;")
    assert "resources/init_values.ssv:2: namespace 'http://ssp-standard.org/SSP1/ParameterValues'" \
        " of ParameterSet is not an SSP namespace; read as http://ssp-standard.org/SSP1/" \
        "SystemStructureParameterValues" in [str(d) for d in diagnostics]


def test_ssp4sim_short_has_a_dangling_connection():
    _, diagnostics = load(CORPUS / "ssp4sim/resources/SystemStructure_short.ssd")
    assert ("SystemStructure_short.ssd:60: connection Consumer.consumerFeed.p -> "
            "ECS_HW.consumerFeed.p: unknown connector 'consumerFeed.p' of component 'Consumer'"
            ) in [str(d) for d in diagnostics]


def test_pyssp_ssv2_arrays():
    values, _ = read(CORPUS / "pyssp_standard/pytest/doc/ssv2_ex.ssv")
    example, example2, example3 = values.parameters
    assert example.value == (1.0, 2.0, 3.0, 4.0, 5.0, 6.0)
    assert [d.size for d in example.dimensions] == [3, 2]
    assert example2.type == "Float32" and len(example2.value) == 7
    assert (example3.type, example3.value) == ("UInt32", 128)
