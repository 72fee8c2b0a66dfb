"""Modelica-Compliance cases that computed wrong values or were refused, each in a small
self-written model (msl_models/ConformSemantics.mo), checked against closed forms."""
from __future__ import annotations

import logging
from pathlib import Path

import numpy as np
import pytest

from cosim import api
from cosim.errors import CosimError

MODELS = Path(__file__).parent / "msl_models" / "ConformSemantics.mo"


@pytest.fixture(autouse=True)
def no_modelicapath(monkeypatch):
    monkeypatch.delenv("MODELICAPATH", raising=False)


def run(model: str, names: list[str], **options):
    """Time and the recorded values of ``names`` (relative to the model's component)."""
    component = "ConformSemantics_" + model.replace(".", "_")
    result = api.run(MODELS, model=f"ConformSemantics.{model}",
                     record=[f"{component}.{name}" for name in names], step_size=0.1, **options)
    return result.values["time"], {name: result.values[f"{component}.{name}"]
                                   for name in names}


# --------------------------------------------------------------------------------- modifiers
def test_a_short_class_modifier_is_read_where_the_short_class_is_written():
    # s.g = k is the enclosing model's k = 5, not Ramp's own k = 2 (MLS 4.5.1)
    t, values = run("Modifiers.ShortClassScope", ["s.y"])
    assert np.allclose(values["s.y"], 5 * t, rtol=0, atol=1e-12)


@pytest.mark.parametrize("model, x, z", [
    ("Holder", lambda t: 2 * t, lambda t: 4 + 0 * t),
    ("ModifiedHolder", lambda t: 2 * t, lambda t: 5 * t),
    ("Retyped", lambda t: 1 + 0 * t, lambda t: 3 * t),
    ("RetypedRedeclared", lambda t: 1 + 0 * t, lambda t: 3 * t),
])
def test_the_modifiers_of_the_constraining_clause_in_force_apply_to_the_element(model, x, z):
    t, values = run(f"Modifiers.{model}", ["w.x", "w.z"])
    assert np.allclose(values["w.x"], x(t), rtol=0, atol=1e-12)
    assert np.allclose(values["w.z"], z(t), rtol=0, atol=1e-12)


def test_an_extends_modification_of_a_nested_class_modifies_that_class():
    t, values = run("Modifiers.NestedClassModified", ["i.x"])
    assert np.allclose(values["i.x"], 4 * t, rtol=0, atol=1e-12)


def test_package_constants_take_the_modifiers_of_extends_and_short_classes():
    t, values = run("Packages.Constants", ["a.y", "b.y", "p.u.y"])
    assert np.allclose(values["a.y"], 2 * t, rtol=0, atol=1e-12)
    assert np.allclose(values["b.y"], 3 * t, rtol=0, atol=1e-12)
    # P = P inside Passes is the package Passes was given, not its default
    assert np.allclose(values["p.u.y"], 3 * t, rtol=0, atol=1e-12)


# ------------------------------------------------------------------------------------ events
def test_only_initial_itself_makes_a_when_clause_active_at_initialization():
    t, values = run("Events.InitialThroughFunction", ["a", "b", "c", "pa", "pb", "pc"])
    assert np.all(values["pa"] == 0) and np.all(values["a"] == 0)
    assert np.all(values["pb"] == 3) and np.all(values["b"] == 3)
    assert np.all(values["pc"] == 4)
    assert np.all(values["c"][t < 0.5] == 4)
    assert np.allclose(values["c"][t > 0.55], 4.5, rtol=0, atol=1e-6)


def test_an_assertion_in_an_algorithm_sees_its_when_statements_converged():
    # x jumps from 3 to 6 at the event after initialization: both conditions rise at once,
    # the first branch alone fires
    t, values = run("Events.AlgorithmPriority", ["x", "high", "count"])
    assert np.all(values["x"][1:] == 6)
    assert np.all(values["high"][1:] == 1)
    assert np.all(values["count"][1:] == 1)


def test_the_interpreter_also_waits_for_the_converged_pass_before_an_assertion_counts():
    from compiler.api import flatten_model
    from compiler.causalize import causalize
    from compiler.interp import simulate_reference
    system = causalize(flatten_model(MODELS, "ConformSemantics.Events.AlgorithmPriority",
                                     environ={}))
    result = simulate_reference(system, stop=1.0, interval=0.1)
    assert result.time[-1] == pytest.approx(1.0)
    assert np.all(result["x"][1:] == 6) and np.all(result["high"][1:] == 1)
    assert np.all(result["count"][1:] == 1)


# ---------------------------------------------------------------------------- initialization
def test_a_fixed_state_without_a_start_value_starts_at_zero():
    t, values = run("Initialization.FixedWithoutStart", ["r"])
    expected = np.where(t <= 0.5, t, 0.5 - 2 * (t - 0.5))
    assert np.allclose(values["r"], expected, rtol=0, atol=1e-6)


# -------------------------------------------------------------------------- operator records
def test_string_of_an_operator_record_calls_its_string_operator():
    _, values = run("OperatorRecords.StringOfRecord", ["matches", "differs"])
    assert np.all(values["matches"] == 1) and np.all(values["differs"] == 0)


# -------------------------------------------------------------------------------- lookup
def test_a_missing_inner_is_added_at_the_top_with_a_warning(caplog):
    with caplog.at_level(logging.WARNING, logger="cosim.compiler"):
        t, values = run("Lookup.MissingInner", ["b1.v", "b2.v", "env.g"])
    assert np.allclose(values["b1.v"], -9.81 * t, rtol=0, atol=1e-9)
    assert np.allclose(values["b2.v"], -9.81 * t, rtol=0, atol=1e-9)
    warnings = [record.getMessage() for record in caplog.records
                if "no 'inner' declaration of 'env'" in record.getMessage()]
    assert warnings and all(": warning: " in text for text in warnings)
    assert warnings[0].startswith(str(MODELS))


def test_an_outer_constant_of_a_package_is_the_inner_one_around():
    t, values = run("Lookup.OuterConstantInPackage", ["u.y"])
    assert np.allclose(values["u.y"], 3 * t, rtol=0, atol=1e-12)


def test_an_outer_function_is_the_inner_one_of_each_instance_around():
    t, values = run("Lookup.OuterFunction", ["two.a.y", "three.a.y"])
    assert np.allclose(values["two.a.y"], 2 * t, rtol=0, atol=1e-12)
    assert np.allclose(values["three.a.y"], 3 * t, rtol=0, atol=1e-12)


def test_a_function_is_found_through_a_component_and_classes_of_its_class():
    t, values = run("Lookup.FunctionThroughComponent", ["y"])
    assert np.allclose(values["y"], t / 2, rtol=0, atol=1e-12)


def test_the_formal_parameters_of_a_function_take_causality_from_their_types():
    t, values = run("Lookup.CausalityFromTypes", ["y[1]", "y[2]"])
    assert np.allclose(values["y[1]"], t, rtol=0, atol=1e-12)
    assert np.allclose(values["y[2]"], -3 * t, rtol=0, atol=1e-12)


def test_a_call_equation_whose_results_are_unused_still_calls_the_function():
    t, values = run("Lookup.CallForNothing", ["x"], stop_time=0.4)
    assert np.allclose(values["x"], t, rtol=0, atol=1e-12)
    with pytest.raises(CosimError, match="x reached 0.5"):
        run("Lookup.CallForNothing", ["x"])


# ------------------------------------------------------------------------------- functions
def test_a_derivative_function_has_a_second_derivative_by_its_annotation():
    # x[1] = (t + 1)^3 is differentiated twice through cubeDer and cubeDer2
    t, values = run("Functions.SecondDerivative", ["x[1]", "x[2]", "x[3]"])
    assert np.allclose(values["x[1]"], (t + 1) ** 3, rtol=1e-9, atol=1e-9)
    assert np.allclose(values["x[2]"], 3 * (t + 1) ** 2, rtol=1e-9, atol=1e-9)
    assert np.allclose(values["x[3]"], 6 * (t + 1), rtol=1e-9, atol=1e-9)


def test_an_external_object_without_the_parameter_prefix_is_made_once():
    t, values = run("Functions.ObjectWithoutPrefix", ["y"])
    assert np.allclose(values["y"], 4 * t, rtol=0, atol=1e-12)


def test_a_modelica_error_in_the_derivatives_rejects_the_step_for_a_smaller_one():
    t, values = run("Functions.RetriedStep", ["x"])
    assert t[-1] == pytest.approx(1.0)
    assert np.allclose(values["x"], 2 * t, rtol=1e-9, atol=1e-9)


def test_a_partial_derivative_function_differentiates_the_function_body():
    t, values = run("Functions.PartialDerivative", ["y"])
    assert np.allclose(values["y"], 4 * t + np.cos(t) / 4, rtol=1e-12, atol=1e-12)


def test_a_function_destroys_the_external_object_it_constructed_as_it_returns():
    t, values = run("Functions.ObjectInFunction", ["y", "n"])
    assert np.allclose(values["y"], 3 * t, rtol=0, atol=1e-12)
    assert np.all(values["n"] == 0)
