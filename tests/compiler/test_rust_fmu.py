"""The Rust backend's FMU (``cosim compile --backend rust --fmu``): a valid FMI 3.0 FMU whose
binary is the Rust code built as a cdylib; in fmpy's Co-Simulation and Model Exchange it gives
the C FMU's results (the stiff problems also against the stored references), ``cosim run``
loads it, and its state machine refuses calls in the wrong state as the C runtime does."""
from __future__ import annotations

import zipfile
from pathlib import Path

import numpy as np
import pytest
from fmpy import read_model_description, simulate_fmu
from fmpy.validation import validate_fmu

from compiler import compile_fmu
from compiler.api import flatten_model
from compiler.rust.compile import rust_from_flat
from cosim import api
from tests.compiler.rust_cases import MODELS, RUST_TEST_MARKS, STIFF, TOLERANCE
from tests.runtime.drive import cs_on_grid, me_with_scipy, open_fmu, references, scaled_error
from tests.runtime.problems import PROBLEMS

pytestmark = RUST_TEST_MARKS

EVENT_MODELS = {
    "Counters": (MODELS / "Events.mo", "Events.Counters"),
    "CallsInEvents": (MODELS / "Events.mo", "Events.CallsInEvents"),
    "Decay": (MODELS / "Interface.mo", "Interface.Decay"),
    "Stops": (MODELS / "Interface.mo", "Interface.Stops"),
}


@pytest.fixture(scope="module")
def fmus(tmp_path_factory):
    """(Rust FMU, C FMU) of a model, built once per module."""
    folder = tmp_path_factory.mktemp("rust-fmus")
    built: dict = {}

    def both(path: Path, model: str | None = None) -> tuple[Path, Path]:
        key = (path, model)
        if key not in built:
            name = model or path.stem
            rust = rust_from_flat(flatten_model(path, model), "fmu", folder / "rust" / f"{name}.fmu")
            c = compile_fmu(path, model, output=folder / "c" / f"{name}.fmu")
            built[key] = (rust, c)
        return built[key]

    return both


def real_columns(path: Path) -> list[str]:
    """The Float64 variables an importer can read (time and the event indicators aside)."""
    return [v.name for v in read_model_description(str(path)).modelVariables
            if v.type == "Float64" and v.causality != "independent" and not v.name.startswith("_")]


def simulate(path: Path, kind: str, names: list[str], **options) -> np.ndarray:
    result = simulate_fmu(str(path), fmi_type=kind, output=names, relative_tolerance=TOLERANCE,
                          **options)
    return np.column_stack([result["time"]] + [result[name] for name in names])


@pytest.mark.parametrize("name", sorted(PROBLEMS) + ["Oregonator"])
def test_the_rust_fmu_is_valid_and_has_the_c_fmus_interface(fmus, name):
    rust, c = fmus(STIFF / f"{name}.mo")
    assert validate_fmu(str(rust)) == []
    rust_description, c_description = read_model_description(rust), read_model_description(c)
    assert [v.name for v in rust_description.modelVariables] == \
        [v.name for v in c_description.modelVariables]
    assert rust_description.instantiationToken != c_description.instantiationToken
    with zipfile.ZipFile(rust) as archive:
        xml = archive.read("modelDescription.xml").decode()
        assert f"sources/{name}.rs" in archive.namelist()
    assert 'canGetAndSetFMUState="false"' in xml


@pytest.mark.parametrize("name", sorted(PROBLEMS))
def test_the_rust_fmu_in_co_simulation_is_within_tolerance_of_the_reference(fmus, name):
    problem, reference = PROBLEMS[name], references(name)
    rust, _ = fmus(STIFF / f"{name}.mo")
    values = cs_on_grid(rust, reference[:, 0], problem.state_names, TOLERANCE)
    assert scaled_error(values, reference[:, 1:], TOLERANCE, TOLERANCE * problem.atol_scale) <= 1.0


@pytest.mark.parametrize("name", sorted(PROBLEMS))
def test_the_rust_fmu_in_model_exchange_is_exact_under_scipy_radau(fmus, name):
    """The derivatives of the Rust FMU's Model Exchange interface, integrated by scipy's Radau
    far below the tolerance (its Jacobian by differences: no directional derivatives)."""
    problem, reference = PROBLEMS[name], references(name)
    rust, _ = fmus(STIFF / f"{name}.mo")
    values = me_with_scipy(rust, reference[:, 0], problem.state_names, 1e-9,
                           1e-9 * problem.atol_scale, directional=False)
    assert scaled_error(values, reference[:, 1:], TOLERANCE, TOLERANCE * problem.atol_scale) <= 1.0


@pytest.mark.parametrize("name", sorted(EVENT_MODELS))
@pytest.mark.parametrize("kind", ["CoSimulation", "ModelExchange"])
def test_the_rust_fmu_with_events_gives_the_c_fmus_results(fmus, name, kind):
    rust, c = fmus(*EVENT_MODELS[name])
    names = real_columns(c)
    rust_values = simulate(rust, kind, names, output_interval=0.01)
    c_values = simulate(c, kind, names, output_interval=0.01)
    assert rust_values.shape == c_values.shape
    np.testing.assert_allclose(rust_values, c_values, rtol=TOLERANCE, atol=1e-12)


def test_cosim_run_loads_the_rust_fmu(fmus, tmp_path):
    rust, _ = fmus(STIFF / "VanDerPol.mo")
    result = api.run(rust, record=["VanDerPol.y1", "VanDerPol.y2"], output=tmp_path / "rust.csv")
    expected = api.run(STIFF / "VanDerPol.mo", output=tmp_path / "c.csv")
    assert (tmp_path / "rust.csv").read_text() == (tmp_path / "c.csv").read_text()
    assert result.steps == expected.steps


def test_calls_in_the_wrong_state_are_refused_and_logged(fmus):
    rust, _ = fmus(STIFF / "Dahlquist.mo")
    messages = []
    description, fmu = open_fmu(rust, "CS", loggingOn=True,
                                logMessage=lambda *args: messages.append(args))
    with pytest.raises(Exception, match="fmi3DoStep failed"):
        fmu.doStep(currentCommunicationPoint=0.0, communicationStepSize=0.1)
    assert any(b"fmi3DoStep is not allowed in state Instantiated (allowed in: StepMode)" in m[-1]
               for m in messages)
    fmu.enterInitializationMode(startTime=0.0)
    fmu.exitInitializationMode()
    with pytest.raises(Exception, match="fmi3EnterEventMode failed"):
        fmu.enterEventMode()
    assert any(b"fmi3EnterEventMode is not allowed in state StepMode" in m[-1] for m in messages)
    fmu.doStep(currentCommunicationPoint=0.0, communicationStepSize=1.0)
    x = [v.valueReference for v in description.modelVariables if v.name == "x"]
    assert fmu.getFloat64(x)[0] == pytest.approx(np.exp(-1.0), rel=1e-5)
    fmu.terminate()
    fmu.freeInstance()


def test_a_wrong_instantiation_token_is_refused(fmus, tmp_path):
    rust, _ = fmus(STIFF / "Dahlquist.mo")
    description = read_model_description(rust)
    from fmpy import extract
    from fmpy.fmi3 import FMU3Slave

    fmu = FMU3Slave(guid="{not-this-one}", unzipDirectory=extract(rust),
                    modelIdentifier=description.coSimulation.modelIdentifier, instanceName="x")
    with pytest.raises(Exception, match="Failed to instantiate"):
        fmu.instantiate()
