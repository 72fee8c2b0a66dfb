"""class extends (MLS 7.3.1) and packages as parameters (msl_models/ClassExtends.mo): a model
parameterized by a replaceable liquid package, used with two liquids whose specific enthalpy
functions are ``redeclare function extends`` of a partial one, against the analytic
temperatures; a redeclared ``model extends`` reaching inherited components, a plain one not."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from fmpy import simulate_fmu

from compiler.api import flatten_model
from compiler.errors import CompilerError
from compiler.flat_text import equation_lines

CLASS_EXTENDS = Path(__file__).parent / "msl_models" / "ClassExtends.mo"
T0, M, Q = 273.15, 2.0, 1000.0


def expected_temperatures(t):
    water = 300 + Q * t / (M * 4184)
    # oil: h = cp*u + a/2*u^2 with u = T - T0 grows by Q/m
    cp, a = 1800.0, 3.0
    h = cp * (300 - T0) + a / 2 * (300 - T0) ** 2 + Q * t / M
    oil = T0 + (-cp + np.sqrt(cp ** 2 + 2 * a * h)) / a
    return water, oil


def flat_equations(model: str) -> list[str]:
    flat = flatten_model(CLASS_EXTENDS, f"ClassExtends.{model}", environ={})
    return [" ".join(line.strip() for line in equation_lines(item, 0)) for item in flat.equations]


def test_each_liquid_calls_its_own_extended_function():
    equations = flat_equations("TwoLiquids")
    assert "water.h = ClassExtends.ConstantCp.specificEnthalpy(water.T);" in equations
    # the extension's own input keeps its default
    assert "oil.h = ClassExtends.LinearCp.specificEnthalpy(oil.T, 1);" in equations
    assert "oil.state.p = 100000.0;" in equations  # the extended record's new field


def test_liquid_temperatures_match_the_analytic_solution(fmus):
    fmu = fmus.build(CLASS_EXTENDS, "ClassExtends.TwoLiquids")
    result = simulate_fmu(str(fmu), fmi_type="CoSimulation", stop_time=100.0,
                          output_interval=10.0, relative_tolerance=1e-9,
                          output=["water.T", "oil.T", "water.u", "oil.u", "oil.v"])
    water, oil = expected_temperatures(result["time"])
    assert np.allclose(result["water.T"], water, rtol=1e-7)
    assert np.allclose(result["oil.T"], oil, rtol=1e-7)
    # the inherited function and record constant read each liquid's own cp
    assert np.allclose(result["water.u"], 4184 * (water - T0), rtol=1e-7)
    assert np.allclose(result["oil.u"], 1800 * (oil - T0), rtol=1e-7)
    assert np.allclose(result["oil.v"], 1e-3, rtol=1e-12)
    reference = fmus.reference(CLASS_EXTENDS, "ClassExtends.TwoLiquids", stop=100.0,
                               interval=10.0, rtol=1e-9)
    water, oil = expected_temperatures(reference.time)
    assert np.allclose(reference["water.T"], water, rtol=1e-7)
    assert np.allclose(reference["oil.T"], oil, rtol=1e-7)


def test_a_redeclared_class_extends_reaches_inherited_components():
    equations = flat_equations("Extended")
    for part in ("inherited", "own"):
        assert f"{part}.x = 2;" in equations
        assert f"{part}.y = 3 * {part}.x;" in equations


def test_a_class_extends_without_redeclare_leaves_inherited_components_alone():
    with pytest.raises(CompilerError, match=r"ClassExtends.mo:\d+:\d+: .*unknown name 'y' in "
                                            r"'inherited'"):
        flatten_model(CLASS_EXTENDS, "ClassExtends.NotRedeclared", environ={})


def test_an_element_inherited_twice_identically_after_modification_is_one():
    flat = flatten_model(CLASS_EXTENDS, "ClassExtends.Twice.Merged", environ={})
    variables = {item.name: item for item in flat.variables}
    assert sorted(variables) == ["exposes", "m", "mode", "y"]
    m = variables["m"]
    assert [item.value for item in (m.min, m.start, m.nominal)] == [0, 1, 2]


@pytest.mark.parametrize("model, place", [("DifferentValue", r":\d+:7"),
                                          ("DifferentAttribute", r":\d+:7")])
def test_an_element_inherited_twice_differently_is_refused(model, place):
    with pytest.raises(CompilerError, match=place + r": .*duplicate declaration of '\w+' in "
                                             rf"ClassExtends.Twice.{model}"):
        flatten_model(CLASS_EXTENDS, f"ClassExtends.Twice.{model}", environ={})


def test_a_replaceable_package_declared_alike_in_two_bases_is_one():
    flat = flatten_model(CLASS_EXTENDS, "ClassExtends.Twice.TwoUsers", environ={})
    (temperature,) = flat.variables
    assert (temperature.name, temperature.unit) == ("T", "K")
    assert [" ".join(line.strip() for line in equation_lines(item, 0))
            for item in flat.equations] == ["T = 4184.0;"]


def test_arrays_of_record_constants_are_indexed_in_functions_and_taken_a_field_of(fmus):
    result = fmus.reference(CLASS_EXTENDS, "ClassExtends.Mixture.Air", stop=1.0, interval=0.25)
    X = np.stack([np.full_like(result.time, 0.77), 0.23 + 0.01 * result.time])
    moles = X[0] / 0.028 + X[1] / 0.032
    assert np.allclose(result["MM"], 1 / moles, rtol=1e-12)
    assert np.allclose(result["R"], 8.314 * moles, rtol=1e-12)
    assert np.allclose(result["R2"], 8.314 * moles, rtol=1e-12)
    assert np.allclose(result["paired"], 0.03 * 200 + 0.03 * 100, rtol=1e-12)
    fmu = fmus.build(CLASS_EXTENDS, "ClassExtends.Mixture.Air")
    compiled = simulate_fmu(str(fmu), stop_time=1.0, output_interval=0.25,
                            output=["MM", "R", "R2"])
    for name in ("MM", "R", "R2"):
        assert np.allclose(compiled[name], np.interp(compiled["time"], result.time,
                                                     result[name]), rtol=1e-12)


def test_a_function_alias_reads_the_names_around_the_function_it_names(fmus):
    result = fmus.reference(CLASS_EXTENDS, "ClassExtends.Aliases.UseAlias", stop=1.0,
                            interval=0.25)
    t = result.time
    assert np.allclose(result["y[1]"], 2 * t, rtol=1e-12)
    assert np.allclose(result["y[2]"], 4 * t, rtol=1e-12)  # array() in a function
    assert np.allclose(result["a[3]"], 3 * t, rtol=1e-12)  # and in a model
