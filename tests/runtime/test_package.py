"""Packaging: the modelDescription.xml derived from a model interface, the sources, and the
errors a bad interface or bad model code gives."""
from __future__ import annotations

import dataclasses
import zipfile

import pytest
from lxml import etree

from compiler.errors import PackageError
from compiler.fmu import ModelInterface, Variable, package_fmu
from compiler.fmu.c_tables import c_double, c_string
from compiler.fmu.package import instantiation_token
from compiler.fmu.runtime_files import log_categories
from tests.runtime.fixtures import BOUNCING_BALL, COUNTER, DAHLQUIST, VANDERPOL


def description(path) -> etree._Element:
    with zipfile.ZipFile(path) as archive:
        return etree.fromstring(archive.read("modelDescription.xml"))


def test_model_description_of_the_bouncing_ball(fmus):
    root = description(fmus["BouncingBall"])
    for interface in ("ModelExchange", "CoSimulation"):
        element = root.find(interface)
        assert element.get("modelIdentifier") == "BouncingBall"
        assert element.get("canGetAndSetFMUState") == "true"
        assert element.get("canSerializeFMUState") == "true"
        assert element.get("providesDirectionalDerivatives") == "true"
    units = {u.get("name"): dict(u.find("BaseUnit").attrib) for u in root.find("UnitDefinitions")}
    assert units["m/s2"] == {"m": "1", "s": "-2"}
    assert [c.get("name") for c in root.find("LogCategories")] == [name for name, _ in log_categories()]
    experiment = root.find("DefaultExperiment").attrib
    assert experiment == {"startTime": "0.0", "stopTime": "2.4", "tolerance": "1e-08", "stepSize": "0.01"}
    variables = {v.get("name"): v for v in root.find("ModelVariables")}
    assert variables["time"].get("valueReference") == "0"
    assert variables["der(h)"].get("derivative") == variables["h"].get("valueReference")
    assert variables["g"].get("start") == "9.81" and variables["g"].get("causality") == "parameter"
    structure = root.find("ModelStructure")
    outputs = [e.get("valueReference") for e in structure.findall("Output")]
    assert outputs == [variables["h"].get("valueReference"), variables["v"].get("valueReference")]
    derivatives = structure.findall("ContinuousStateDerivative")
    # der(h) = v depends on v only, der(v) = -g on no state: from the Jacobian pattern
    assert [d.get("dependencies") for d in derivatives] == [variables["v"].get("valueReference"), ""]
    indicators = structure.findall("EventIndicator")
    assert len(indicators) == 1
    indicator = next(v for v in variables.values() if v.get("valueReference") == indicators[0].get("valueReference"))
    assert "h < 0" in indicator.get("description")


def test_sources_rebuild_description(fmus):
    with zipfile.ZipFile(fmus["Dahlquist"]) as archive:
        names = set(archive.namelist())
        build = etree.fromstring(archive.read("sources/buildDescription.xml"))
    sources = [s.get("name") for s in build.iter("SourceFile")]
    assert {"fmi3Functions.c", "radau5.c", "model.c", "model_info.c"} <= set(sources)
    assert all(f"sources/{name}" in names for name in sources)
    assert {"sources/config.h", "sources/model.h", "binaries/x86_64-linux/Dahlquist.so"} <= names


def test_compile_error_reports_gcc_and_leaves_no_fmu(tmp_path):
    broken = DAHLQUIST.source.replace("R(der_x) = -R(k) * R(x);", "R(der_x) = -R(k) * R(x)")
    target = tmp_path / "Broken.fmu"
    with pytest.raises(PackageError) as failure:
        package_fmu(DAHLQUIST.interface, broken, target)
    assert "building Dahlquist.so failed" in str(failure.value)
    assert "model.c" in str(failure.value) and "expected ';'" in str(failure.value)
    assert list(tmp_path.iterdir()) == []


def test_failed_build_keeps_the_previous_fmu(tmp_path, fmus):
    target = tmp_path / "Dahlquist.fmu"
    target.write_bytes(fmus["Dahlquist"].read_bytes())
    with pytest.raises(PackageError):
        package_fmu(DAHLQUIST.interface, "this is not C", target)
    assert target.read_bytes() == fmus["Dahlquist"].read_bytes()


@pytest.mark.parametrize("change, message", [
    ({"identifier": "not-an-identifier"}, "modelIdentifier 'not-an-identifier' is not a C identifier"),
    ({"identifier": "double"}, "is not a C identifier"),
    ({"variables": VANDERPOL.interface.variables + (Variable("y1"),)}, "variable 'y1' is declared twice"),
    ({"variables": (Variable("p", causality="parameter", variability="fixed"),)}, "variable 'p': needs a start value"),
    ({"variables": (Variable("u", causality="input"),)}, "variable 'u': needs a start value"),
    ({"variables": (Variable("n", type="Int32"),)}, "a Int32 variable cannot be continuous"),
    ({"variables": (Variable("der(q)", derivative_of="q"),)}, "refers to unknown 'q'"),
    ({"variables": (Variable("a.b"), Variable("a_b"))}, "two slots are named 'a_b' in C"),
    ({"jacobian": ((0, 2),)}, "Jacobian entry (0, 2) outside 2 states"),
])
def test_bad_interfaces_are_refused(tmp_path, change, message):
    interface = dataclasses.replace(VANDERPOL.interface, **change)
    with pytest.raises(PackageError, match=message.replace("(", r"\(").replace(")", r"\)")):
        package_fmu(interface, VANDERPOL.source, tmp_path / "x.fmu")
    assert not (tmp_path / "x.fmu").exists()


def test_token_follows_content():
    base = instantiation_token(DAHLQUIST.interface, DAHLQUIST.source)
    assert base == instantiation_token(DAHLQUIST.interface, DAHLQUIST.source)
    assert base != instantiation_token(DAHLQUIST.interface, DAHLQUIST.source + "\n")
    changed = dataclasses.replace(DAHLQUIST.interface, description="other")
    assert base != instantiation_token(changed, DAHLQUIST.source)


def test_string_and_integer_start_values_reach_xml_and_c(fmus):
    root = description(fmus["Counter"])
    variables = {v.get("name"): v for v in root.find("ModelVariables")}
    assert variables["label"].find("Start").get("value") == "counter"
    assert variables["limit"].tag == "Int32" and variables["limit"].get("start") == "1000"
    assert variables["parity"].tag == "Int64"
    assert variables["enable"].get("start") == "true"
    assert {e.get("valueReference"): e.get("dependencies") for e in root.find("ModelStructure").findall("Output")}[
        variables["y"].get("valueReference")] == variables["offset"].get("valueReference")


def test_c_literals_round_trip():
    for value in (0.1, 1e-300, -2.5e17, 9.81, 1.0 / 3.0):
        assert float(c_double(value)) == value
    assert c_double(float("inf")) == "INFINITY"
    assert c_string('a "quoted"\\ line\n') == r'"a \"quoted\"\\ line\n"'
    assert c_string("ü") == '"\\303\\274"'
