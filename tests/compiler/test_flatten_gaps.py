"""Constructs of the Modelica Standard Library that flattening once refused, each in a small
self-written model (msl_models/FlattenGaps.mo): the flat model, and where it computes
something, the compiled FMU against closed forms."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from fmpy import simulate_fmu

from compiler.api import flatten_model
from compiler.flat_text import equation_lines, variable_line

GAPS = Path(__file__).parent / "msl_models" / "FlattenGaps.mo"


def flat(model: str):
    return flatten_model(GAPS, f"FlattenGaps.{model}", environ={})


def equations(model) -> list[str]:
    return [" ".join(line.strip() for line in equation_lines(item, 0))
            for item in model.equations]


def simulate(fmus, model: str, names, stop=1.0):
    fmu = fmus.build(GAPS, f"FlattenGaps.{model}")
    return simulate_fmu(str(fmu), stop_time=stop, output_interval=stop / 20,
                        relative_tolerance=1e-8, output=list(names))


# ------------------------------------------- scalar-record functions over arrays of records
def test_a_record_comprehension_in_a_function_is_one_temporary_per_field():
    text = flat("Phasors").to_modelica()
    assert "$array" in text and "for k in 1:size(v.re, 1) loop" in text


@pytest.mark.slow
def test_active_power_of_phasor_arrays(fmus):
    result = simulate(fmus, "Phasors", ["p"])
    np.testing.assert_allclose(result["p"], 7 + result["time"], rtol=1e-12)


# ------------------------------------------------ record constructors with computed fields
def test_record_constructor_defaults_read_the_other_fields():
    model = flat("Materials")
    lines = {item.name: variable_line(item) for item in model.variables}
    assert lines["magnet.data.a"] == "parameter Real magnet.data.a = 3.0;"
    assert lines["magnet.data.b"] == "parameter Real magnet.data.b = 4.0;"
    assert lines["changed.data.a"] == "parameter Real changed.data.a = 2.0;"
    assert lines["changed.data.b"] == "parameter Real changed.data.b = 2.0;"
    # the constructor computes the final field from the fields it was given
    assert "k = FlattenGaps.cOf(3, 4, 3 * (1 + 4));" in equations(model)


@pytest.mark.slow
def test_record_constructors_give_the_computed_fields(fmus):
    result = simulate(fmus, "Materials", ["magnet.y", "plain.y", "changed.y", "k"])
    t = result["time"]
    np.testing.assert_allclose(result["magnet.y"], 15 * t, rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(result["plain.y"], 3 * t, rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(result["changed.y"], 6 * t, rtol=1e-12, atol=1e-15)
    assert result["k"] == pytest.approx(15.0)


# ------------------------------------ package constants indexed by a function's variables
def test_a_package_constant_indexed_in_a_function_becomes_a_local_table():
    text = flat("Word").to_modelica()
    assert "FlattenGaps.Logic[4] $table1 = {FlattenGaps.Logic.'X'" in text
    assert "b := $table1[bits[j]];" in text
    assert "w := w + $table2[j];" in text


@pytest.mark.slow
def test_the_word_of_logic_values(fmus):
    result = simulate(fmus, "Word", ["w"])
    expected = np.where(result["time"] > 0.5 + 1e-9, 3, 1)
    assert list(result["w"]) == list(expected)


# ------------------------------- if-equations on parameters the initialization computes
def test_an_if_equation_on_a_parameter_without_value_keeps_its_branches():
    model = flat("Supply")
    assert "if clipped then y = min(u, limit); else y = u; end if;" in equations(model)


@pytest.mark.slow
def test_the_supply_clips_at_its_limit(fmus):
    result = simulate(fmus, "Supply", ["y"])
    t = result["time"]
    np.testing.assert_allclose(result["y"], np.minimum(3 * t, 2.0), rtol=1e-12, atol=1e-12)


def test_branches_of_different_sizes_name_the_unknown_parameter(flatten):
    from compiler.errors import CompilerError
    with pytest.raises(CompilerError, match="whose condition is a parameter expression whose "
                                            "value is not known while translating"):
        flatten("""
model Uneven
  parameter Boolean on(fixed = false);
  Real y, z;
initial algorithm
  on := true;
equation
  if on then
    y = 1;
    z = 2;
  else
    y = z;
  end if;
end Uneven;""")


# ----------------------------------------------------- arrays of expandable connectors
def test_arrays_of_buses_connect_element_by_element():
    lines = equations(flat("Buses"))
    assert "stack.total = stack.stackBus.cellBus[1].soc + stack.stackBus.cellBus[2].soc;" \
        in lines
    assert "stack.cell[2].cellBus.soc = stack.stackBus.cellBus[2].soc;" in lines
    assert "t.gain[1].u = t.stackBus.cellBus[1].soc;" in lines
    names = {item.name for item in flat("Buses").variables}
    # 'v' is declared in the buses, but no connection makes it present
    assert not any(name.endswith(".v") for name in names)


@pytest.mark.slow
def test_bus_signals_reach_through_the_arrays(fmus):
    result = simulate(fmus, "Buses", ["stack.total", "t.gain[1].y", "t.gain[2].y"])
    t = result["time"]
    np.testing.assert_allclose(result["stack.total"], 3 * t, rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(result["t.gain[1].y"], 2 * t, rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(result["t.gain[2].y"], 4 * t, rtol=1e-12, atol=1e-15)
