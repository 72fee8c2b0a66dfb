"""``cosim compile --fmi-arrays``: Modelica arrays among the inputs, outputs and parameters as
FMI 3.0 array variables; the FMU validates in fmpy, fmpy and cosim run it, and the numbers are
those of the default export (one scalar per element). models/ArrayGain.mo: y = k .* u,
M = [k; x], x' = u - x.
"""
from __future__ import annotations

import zipfile
from pathlib import Path

import numpy as np
import pytest
from fmpy import simulate_fmu
from fmpy.validation import validate_fmu
from lxml import etree

from cosim import api
from cosim.cli import main

pytestmark = pytest.mark.usefixtures("module_fmu_cache")
MODEL = Path(__file__).with_name("models") / "ArrayGain.mo"


@pytest.fixture(scope="module")
def fmus(tmp_path_factory):
    folder = tmp_path_factory.mktemp("arrays")
    return (api.compile(MODEL, output=folder / "scalar" / "ArrayGain.fmu"),
            api.compile(MODEL, output=folder / "arrays" / "ArrayGain.fmu", fmi_arrays=True))


def variables(fmu: Path) -> dict[str, etree._Element]:
    with zipfile.ZipFile(fmu) as archive:
        root = etree.fromstring(archive.read("modelDescription.xml"))
    return {v.get("name"): v for v in root.find("ModelVariables")}


def test_interface_arrays_are_fmi_array_variables(fmus):
    scalar, arrays = (variables(f) for f in fmus)
    assert "u[1]" in scalar and "u" not in scalar
    for name, shape in (("u", ["3"]), ("y", ["3"]), ("k", ["3"]), ("M", ["2", "3"])):
        assert [d.get("start") for d in arrays[name].findall("Dimension")] == shape
        assert not any(n.startswith(name + "[") for n in arrays)
    assert arrays["k"].get("start") == "1.0 2.0 3.0"
    assert arrays["M"].get("variability") == "continuous"  # discrete and continuous elements
    assert "x[1]" in arrays  # states stay scalar: their derivatives point at them one by one
    assert validate_fmu(str(fmus[1])) == []


@pytest.mark.parametrize("interface", ["cs", "me"])
def test_the_array_export_runs_as_the_scalar_one(fmus, interface):
    settings = dict(stop_time=1.0, step_size=0.1, interface=interface, tolerance=1e-10,
                    parameters={"ArrayGain.u": "1 2 3", "ArrayGain.k": "2 -1 0.5"})
    scalar = api.run(fmus[0], **{**settings, "parameters": {
        "ArrayGain.u[1]": 1, "ArrayGain.u[2]": 2, "ArrayGain.u[3]": 3,
        "ArrayGain.k[1]": 2, "ArrayGain.k[2]": -1, "ArrayGain.k[3]": 0.5}})
    arrays = api.run(fmus[1], **settings)
    # the same columns (an array's in row-major order, the scalars' in the FMU's order)
    assert sorted(arrays.columns) == sorted(scalar.columns)
    for name in scalar.columns:
        assert np.array_equal(arrays.values[name], scalar.values[name])
    t = arrays.values["time"]
    assert np.allclose(arrays.values["ArrayGain.M[2,3]"], 3 * (1 - np.exp(-t)), atol=1e-8)
    assert np.all(arrays.values["ArrayGain.y[2]"] == -2.0)


def test_fmpy_runs_the_array_export(fmus):
    theirs = simulate_fmu(str(fmus[1]), stop_time=1.0, output_interval=0.1,
                          start_values={"u": [1.0, 2.0, 3.0]}, output=["y", "M"])
    ours = api.run(fmus[1], stop_time=1.0, step_size=0.1,
                   parameters={"ArrayGain.u": "1 2 3"}).values
    assert np.array_equal(theirs["y"][:, 2], ours["ArrayGain.y[3]"])
    assert np.allclose(theirs["M"][:, 1, 0], ours["ArrayGain.M[2,1]"], rtol=1e-12)


def test_the_command_line_flag(tmp_path, capsys):
    output = tmp_path / "ArrayGain.fmu"
    assert main(["compile", str(MODEL), "--fmi-arrays", "-o", str(output)]) == 0
    assert "u" in variables(output)
