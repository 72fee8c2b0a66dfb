"""The FMU interface of compiled models: parameters, names, aliases, the default experiment,
assert and terminate through the logger, and the cache of compiled FMUs."""
from __future__ import annotations

import math
import os
from pathlib import Path

import numpy as np
import pytest
from fmpy import read_model_description, simulate_fmu
from fmpy.validation import validate_fmu

from compiler import fmu_cache
from compiler.compile import compile_fmu

INTERFACE = Path(__file__).parent / "codegen_models" / "Interface.mo"


def source_line(text: str) -> int:
    """The line of Interface.mo that holds ``text``."""
    lines = INTERFACE.read_text().splitlines()
    return 1 + next(k for k, line in enumerate(lines) if text in line)


@pytest.fixture(scope="module")
def decay(fmus) -> Path:
    return fmus.build(INTERFACE, "Interface.Decay")


@pytest.fixture(scope="module")
def variables(decay) -> dict:
    return {item.name: item for item in read_model_description(str(decay)).modelVariables}


# ------------------------------------------------------------------------- parameters
def test_parameters_are_fmi_parameters_with_their_start_values(variables):
    for name, start in [("k", "2.0"), ("x0", "1.0"), ("body.m", "2.0")]:
        item = variables[name]
        assert (item.causality, item.variability, item.start) == ("parameter", "fixed", start)
    assert variables["k"].description == "Rate"


def test_final_and_evaluated_parameters_are_folded_into_constants(variables):
    for name, start in [("gain", "4.0"), ("offset", "3.0"), ("N", "3")]:
        item = variables[name]
        assert (item.causality, item.variability, item.start) == ("local", "constant", start)
    # a final parameter computed from a tunable one follows it
    twice = variables["twice"]
    assert (twice.causality, twice.variability) == ("calculatedParameter", "fixed")


def test_initialization_honours_parameters_set_before_it(decay):
    for start_values, k, x0 in [({}, 2.0, 1.0), ({"k": 5.0, "x0": 3.0}, 5.0, 3.0)]:
        result = simulate_fmu(str(decay), start_values=start_values,
                              output=["x", "y", "twice"])
        t = result["time"]
        assert t[0] == 0.5 and t[-1] == 2.0
        exact = x0 * np.exp(-k * (t - 0.5))
        assert np.max(np.abs(result["x"] - exact)) < 1e-6 * x0
        assert np.max(np.abs(result["y"] - 2 * (exact + 3 + 2 * k + 4))) < 1e-5
        assert np.all(result["twice"] == 2 * k)


# ------------------------------------------------------------------------------ names
def test_variables_keep_their_modelica_names(variables):
    expected = {"x", "T[1]", "T[2]", "T[3]", "body.s", "body.v", "der(T[2])", "der(body.v)", "y",
                "shifted", "position"}
    assert expected <= set(variables)
    assert variables["body.s"].description == "Position"
    assert variables["der(T[2])"].derivative is variables["T[2]"]


def test_an_alias_is_another_name_of_the_same_value_reference(decay, variables):
    assert variables["position"].valueReference == variables["body.s"].valueReference
    text = _model_description(decay)
    assert '<Float64 name="body.s"' in text and '<Alias name="position"/>' in text
    assert '<Float64 name="position"' not in text


def test_protected_variables_are_locals_and_outputs_outputs(variables):
    assert variables["shifted"].causality == "local"
    assert variables["secret"].causality == "local"
    assert variables["y"].causality == "output"


def test_fmpy_validates_the_interface_fmu(decay):
    assert validate_fmu(str(decay)) == []


def test_the_experiment_annotation_is_the_default_experiment(decay):
    experiment = read_model_description(str(decay)).defaultExperiment
    assert (experiment.startTime, experiment.stopTime, experiment.tolerance,
            experiment.stepSize) == ("0.5", "2.0", "1e-07", "0.01")


# ---------------------------------------------------------------- assert and terminate
@pytest.mark.parametrize("kind", ["CoSimulation", "ModelExchange"])
def test_a_failing_assert_is_an_error_logged_with_its_source_location(fmus, kind):
    fmu = fmus.build(INTERFACE, "Interface.Guarded")
    messages = []
    with pytest.raises(Exception, match="status 3"):
        simulate_fmu(str(fmu), fmi_type=kind, output_interval=0.03,
                     logger=lambda *args: messages.append(args))
    errors = [message.decode() for _, status, category, message in messages
              if category == b"logStatusError"]
    line = source_line("assert(x > 0.2")
    assert errors[0].startswith(f"Interface.mo:{line}:5: assertion failed at t = ")
    # the first communication point after x = 0.2 at t = ln 5
    time = float(errors[0].split("t = ")[1].split(":")[0])
    assert math.log(5) < time <= math.log(5) + 0.03 + 1e-12
    head, value = errors[0].rsplit(": x too small: ", 1)
    assert float(value) == pytest.approx(math.exp(-time), rel=1e-4)


@pytest.mark.parametrize("kind", ["CoSimulation", "ModelExchange"])
def test_terminate_ends_the_simulation_and_is_logged_with_its_source_location(fmus, kind):
    fmu = fmus.build(INTERFACE, "Interface.Stops")
    messages = []
    result = simulate_fmu(str(fmu), fmi_type=kind, output_interval=0.03, debug_logging=True,
                          relative_tolerance=1e-9, logger=lambda *args: messages.append(args),
                          output=["x"])
    assert abs(result["x"][-1] - 0.5) < 1e-6
    assert result["time"][-1] < math.log(2) + 0.03 + 1e-9
    line = source_line('terminate("x fell below 0.5")')
    texts = [message.decode() for *_, message in messages]
    prefix = f"Interface.mo:{line}:7: terminate() at t = "
    found = [text for text in texts if text.startswith(prefix)]
    assert found and found[0].endswith(": x fell below 0.5")
    assert abs(float(found[0][len(prefix):].split(":")[0]) - math.log(2)) < 1e-6


# ------------------------------------------------------------------------------- cache
def test_an_unchanged_model_is_taken_from_the_cache(tmp_path):
    environ = {"COSIM_CACHE_DIR": str(tmp_path / "cache")}
    first = compile_fmu(INTERFACE, "Interface.Guarded", output=tmp_path / "a.fmu",
                        environ=environ)
    entries = sorted((tmp_path / "cache" / "fmus").glob("*.fmu"))
    assert len(entries) == 1
    # a build would replace the entry (a new inode); the cache only touches it
    identity = (entries[0].stat().st_ino, entries[0].read_bytes())
    os.utime(entries[0], (1_000_000, 1_000_000))
    second = compile_fmu(INTERFACE, "Interface.Guarded", output=tmp_path / "b.fmu",
                         environ=environ)
    assert sorted((tmp_path / "cache" / "fmus").glob("*.fmu")) == entries
    assert (entries[0].stat().st_ino, entries[0].read_bytes()) == identity
    assert entries[0].stat().st_mtime > 1_000_000   # counted as a use
    assert first.read_bytes() == second.read_bytes() == identity[1]


def test_a_changed_model_gets_a_new_key(tmp_path):
    environ = {"COSIM_CACHE_DIR": str(tmp_path / "cache")}
    model = tmp_path / "Model.mo"
    model.write_text("model M\n  Real x(start = 1, fixed = true);\nequation\n  der(x) = -x;\nend M;\n")
    compile_fmu(model, "M", output=tmp_path / "a.fmu", environ=environ)
    model.write_text("model M\n  Real x(start = 1, fixed = true);\nequation\n  der(x) = -2*x;\nend M;\n")
    compile_fmu(model, "M", output=tmp_path / "b.fmu", environ=environ)
    assert len(list((tmp_path / "cache" / "fmus").glob("*.fmu"))) == 2
    result = simulate_fmu(str(tmp_path / "b.fmu"), stop_time=1.0, output=["x"])
    assert abs(result["x"][-1] - math.exp(-2)) < 1e-6


def test_the_key_covers_the_source_locations_messages_quote():
    assert fmu_cache.cache_key("M", "model M end M;", "M.mo:1:1") != \
        fmu_cache.cache_key("M", "model M end M;", "M.mo:2:1")


def _model_description(fmu: Path) -> str:
    import zipfile
    with zipfile.ZipFile(fmu) as archive:
        return archive.read("modelDescription.xml").decode()
