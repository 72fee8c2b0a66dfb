"""Language constructs Modelica.Media and the Modelica-Compliance suite use, each in a small
self-written model (msl_models/LanguageGaps2.mo), checked against closed forms."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from cosim import api

MODELS = Path(__file__).parent / "msl_models" / "LanguageGaps2.mo"


@pytest.fixture(autouse=True)
def no_modelicapath(monkeypatch):
    monkeypatch.delenv("MODELICAPATH", raising=False)


def component(model: str) -> str:
    return "LanguageGaps2_" + model.replace(".", "_")


def run(model: str, names: list[str], **options):
    """Time and the recorded values of ``names`` (relative to the model's component)."""
    result = api.run(MODELS, model=f"LanguageGaps2.{model}",
                     record=[f"{component(model)}.{name}" for name in names], **options)
    return result.values["time"], {name: result.values[f"{component(model)}.{name}"]
                                   for name in names}


def logged_pairs(model: str, tmp_path: Path, **options) -> np.ndarray:
    """The (t, x) lines logPair() wrote while ``model`` ran."""
    log = tmp_path / "calls.txt"
    api.run(MODELS, model=f"LanguageGaps2.{model}",
            parameters={f"{component(model)}.fileName": str(log)}, **options)
    return np.loadtxt(log, ndmin=2)


# ------------------------------------------------------------------- calls without results
@pytest.mark.parametrize("model, scale", [("Calls.CallEquation", 1.0),
                                          ("Calls.CallStatement", 2.0)])
def test_a_call_without_results_runs_with_the_values_of_its_instant(model, scale, tmp_path):
    pairs = logged_pairs(model, tmp_path, step_size=0.1)
    t, x = pairs[:, 0], pairs[:, 1]
    assert t.min() == 0 and t.max() == pytest.approx(1)
    assert len(np.unique(np.round(t, 9))) >= 11   # at least every communication point
    assert np.allclose(x, scale * np.exp(-t), rtol=1e-4, atol=0)


def test_a_call_in_an_initial_equation_runs_at_initialization_only(tmp_path):
    pairs = logged_pairs("Calls.InitialCall", tmp_path, step_size=0.1)
    assert len(pairs) >= 1
    assert np.all(pairs == [0.0, 3.0])


def test_a_run_to_its_start_time_only_initializes(tmp_path):
    """StopTime = StartTime (Media's SolveOneNonlinearEquation examples) is a run that
    initializes, records the start and takes no step."""
    pairs = logged_pairs("Calls.CallEquation", tmp_path, stop_time=0.0)
    assert np.all(pairs == [0.0, 1.0])


# ------------------------------------------------------------------------- records in functions
def test_records_in_a_function_body_array_bindings_and_an_operator_on_a_call():
    t, values = run("Records.Product", ["y"], step_size=0.1)
    assert np.allclose(values["y"], 5 * t - 2, rtol=0, atol=1e-12)


def test_an_inherited_function_body_looks_names_up_around_its_own_text():
    t, values = run("Inherited.Use", ["y1", "y2", "y3"], step_size=0.1)
    assert np.allclose(values["y1"], 2 * t, rtol=0, atol=1e-12)
    assert np.allclose(values["y2"], 2 * t, rtol=0, atol=1e-12)
    assert np.allclose(values["y3"], 2 * t + 1, rtol=0, atol=1e-12)



def test_a_record_declared_without_binding_in_a_function_has_its_fields_bindings():
    # on main: 'nc' refused; with a literal size, every field silently zero
    t, values = run("RecordLocals.Use", ["y"], step_size=0.1)
    assert np.allclose(values["y"], 8 + 2 * t + 3 * t ** 2, rtol=0, atol=1e-12)


# ------------------------------------------------------------------ comprehensions in functions
def test_a_comprehension_fills_a_slice_and_an_array_it_reads_through_a_temporary():
    names = [f"V[{i},{j}]" for i in (1, 2, 3) for j in (1, 2, 3)] + ["r[1]", "r[2]", "r[3]"]
    t, values = run("Comprehensions.Use", names, step_size=0.1)
    for i, u in enumerate((t, 2 + 0 * t, 3 + 0 * t), start=1):
        for j, power in enumerate((2, 1, 0), start=1):
            assert np.allclose(values[f"V[{i},{j}]"], u ** power, rtol=0, atol=1e-12)
    assert np.allclose(values["r[1]"], 3) and np.allclose(values["r[2]"], 2)
    assert np.allclose(values["r[3]"], t, rtol=0, atol=1e-12)



def test_a_local_array_sized_by_its_binding_and_scalar_of_size():
    t, values = run("ColonLocals.Use", ["y"], step_size=0.1)
    assert np.allclose(values["y"], 1 + 2 * t + 3 * t ** 2, rtol=0, atol=1e-12)
