"""The constructs the Modelica Standard Library relies on, each in a small self-written model
(msl_models/Constructs.mo), checked in the flat model and, where it computes something, in
the compiled FMU against closed forms."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from fmpy import simulate_fmu

from compiler.api import flatten_model
from compiler.errors import CompilerError
from compiler.flat_text import equation_lines, variable_line

CONSTRUCTS = Path(__file__).parent / "msl_models" / "Constructs.mo"


def flat(model: str):
    return flatten_model(CONSTRUCTS, f"Constructs.{model}", environ={})


def equations(model) -> list[str]:
    return [" ".join(line.strip() for line in equation_lines(item, 0))
            for item in model.equations]


def variables(model) -> dict[str, str]:
    return {item.name: variable_line(item) for item in model.variables}


def simulate(fmus, model: str, names, stop=1.0, kind="CoSimulation"):
    fmu = fmus.build(CONSTRUCTS, f"Constructs.{model}")
    return simulate_fmu(str(fmu), fmi_type=kind, stop_time=stop, output_interval=stop / 100,
                        relative_tolerance=1e-8, output=list(names))


# ------------------------------------------------------------------------- modifications
def test_a_redeclared_component_keeps_the_modifiers_of_the_original_declaration():
    model = flat("Redeclared.Circuit")
    assert variables(model)["source.signalSource.startTime"] == \
        "final parameter Real source.signalSource.startTime = source.startTime;"
    assert variables(model)["source.signalSource.offset"] == \
        "final parameter Real source.signalSource.offset = source.offset;"
    assert variables(model)["source.signalSource.height"] == \
        "final parameter Real source.signalSource.height = source.V;"


@pytest.mark.slow
def test_the_redeclared_step_switches_at_its_start_time(fmus):
    # v = offset (1) before startTime (0.5), offset + V (3) after: x(1) = 0.5 + 1.5
    result = simulate(fmus, "Redeclared.Circuit", ["x", "source.v"])
    assert result["source.v"][result["time"] < 0.49] == pytest.approx(1.0)
    assert result["source.v"][result["time"] > 0.51] == pytest.approx(3.0)
    assert result["x"][-1] == pytest.approx(2.0, abs=1e-6)


def test_a_record_bound_as_a_whole_keeps_the_own_binding_of_its_final_fields():
    model = flat("RecordBindings.Machine")
    lines = variables(model)
    assert lines["friction.p.tauRef"] == \
        "final parameter Real friction.p.tauRef = friction.p.PRef / friction.p.wRef;"
    assert lines["friction.p.PRef"] == "final parameter Real friction.p.PRef = frictionParameters.PRef;"


def test_a_binding_from_outside_overrides_a_field_modifier_of_the_declaration():
    # Core declares coreParameters(m = 3); the machine binds the whole record
    lines = variables(flat("RecordBindings.Machine"))
    assert lines["core.coreParameters.m"] == \
        "final parameter Integer core.coreParameters.m = statorCoreParameters.m;"


def test_an_identical_element_declared_again_is_one_element():
    model = flat("Duplicates.ZeroHold")
    assert [item.name for item in model.variables] == ["y_start", "y"]
    assert model.variables[0].description == "value before the first sample"


def test_a_different_element_of_the_same_name_is_refused():
    with pytest.raises(CompilerError) as caught:
        flat("Duplicates.Different")
    assert "duplicate declaration of 'y_start' in Constructs.Duplicates.Different" in str(caught.value)
    assert "elements of the same name must be identical" in str(caught.value)
    assert (caught.value.span.line, caught.value.span.col) == (94, 7)


def test_a_modified_type_applies_to_every_element_of_an_array():
    model = flat("Types.Phases")
    assert [item.unit for item in model.variables if item.name.startswith("v[")] == ["V"] * 3
    assert [item.start.value for item in model.variables if item.name.startswith("v[")] == [1.0] * 3


def test_state_select_given_by_a_parameter_is_evaluated():
    phi = next(item for item in flat("Types.Phases").variables if item.name == "phi")
    assert phi.state_select == "prefer"
    assert next(item for item in flat("Types.Phases").variables
                if item.name == "stateSelect").structural


# ----------------------------------------------------------------------------- functions
def test_wrappers_of_built_ins_and_inline_functions_become_expressions():
    model = flat("Inlined.Use")
    lines = equations(model)
    assert "s = sin(time);" in lines
    # relations of an inlined function do not generate events (MLS 8.5)
    assert "c = noEvent(if 3 * time > 1 then 1 else 3 * time);" in lines
    # a loop over a known range and a branch on an unknown condition, worked out
    polynomial = next(line for line in lines if line.startswith("p = "))
    assert "noEvent(if " in polynomial and "time * time" in polynomial
    assert "k = Constructs.Inlined.kept(time);" in lines
    assert [item.name for item in model.functions] == ["Constructs.Inlined.kept"]


def test_functions_decide_sizes_conditions_and_constant_arrays_while_flattening():
    model = flat("Evaluated.Polyphase")
    names = [item.name for item in model.variables]
    assert [name for name in names if name.startswith("x[")] == ["x[1]", "x[2]"]
    assert "z" in names and "z = 1;" in equations(model)
    angles = [item.binding.value for item in model.variables if item.name.startswith("angle[")]
    assert angles == pytest.approx([k * np.pi / 3 for k in range(6)])
    assert equations(model)[2] == "y[1] = 0.0 * time;"
    assert next(item for item in model.variables if item.name == "m").structural


def test_a_function_whose_outputs_are_bound_needs_no_statements():
    model = flat("Evaluated.Given")
    assert model.functions[0].algorithm == ()
    assert model.functions[0].outputs[0].default is not None


def test_record_inputs_and_outputs_are_one_variable_per_field():
    model = flat("RecordFunctions.UseRecords")
    functions = {item.name.rsplit(".", 1)[1]: item for item in model.functions}
    assert [var.name for var in functions["middle"].inputs] == [
        "s.a.x", "s.a.y", "s.b.x", "s.b.y", "s.w"]
    assert [var.name for var in functions["middle"].outputs] == ["p.x", "p.y"]
    assert "(m.x, m.y) = Constructs.RecordFunctions.middle(s.a.x, s.a.y, s.b.x, s.b.y, s.w);" \
        in equations(model)
    # a record-valued call inside an expression is computed first, into a temporary
    assert [var.name for var in functions["farther"].locals][2:] == [
        "$record1.x", "$record1.y", "$record3.x", "$record3.y"]


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["CoSimulation", "ModelExchange"])
def test_record_functions_compute_in_the_fmu(fmus, kind):
    result = simulate(fmus, "RecordFunctions.UseRecords", ["l", "q.x", "q.y", "r"], kind=kind)
    t = result["time"]
    # s from (0, 0) to (t, 2t): length t*sqrt(5); q = 2*middle = (t, 2t);
    # farther: 3*middle.y + length of (0,0)-(2t, 4t) = 3t + 2t*sqrt(5)
    assert result["l"] == pytest.approx(t * np.sqrt(5), abs=1e-9)
    assert result["q.x"] == pytest.approx(t, abs=1e-9)
    assert result["q.y"] == pytest.approx(2 * t, abs=1e-9)
    assert result["r"] == pytest.approx(3 * t + 2 * t * np.sqrt(5), abs=1e-9)


def test_record_functions_in_the_reference_interpreter(fmus):
    result = fmus.reference(CONSTRUCTS, "Constructs.RecordFunctions.UseRecords", interval=0.25)
    assert result["r"][-1] == pytest.approx(3 + 2 * np.sqrt(5))


def test_operator_records_call_their_operator_functions():
    lines = equations(flat("Operators.Use"))
    assert "c.re = a.re * b.re - a.im * b.im - a.re + 1;" in lines
    # 2*a: the Integer converted by the constructor (im = 0)
    assert "d.re = 2 * a.re - 0 * a.im - b.re;" in lines
    assert "e.re = -a.re;" in lines
    assert "same = noEvent(a.re == 1 and a.im == 2);" in lines
    assert "(f.re, f.im) = Constructs.Operators.rotated(a.re, a.im, time);" in lines


@pytest.mark.slow
def test_operator_records_compute_in_the_fmu(fmus):
    result = simulate(fmus, "Operators.Use", ["c.re", "c.im", "m", "f.re", "f.im"])
    t = result["time"]
    # a = 1 + 2j, b = t + 3j: c = a*b - a + 1 = (t - 6) + (1 + 2t)j; f = a*exp(j t)
    assert result["c.re"] == pytest.approx(t - 6, abs=1e-9)
    assert result["c.im"] == pytest.approx(1 + 2 * t, abs=1e-9)
    assert result["m"] == pytest.approx(np.hypot(t - 6, 1 + 2 * t), abs=1e-9)
    rotated = (1 + 2j) * np.exp(1j * t)
    assert result["f.re"] == pytest.approx(rotated.real, abs=1e-9)
    assert result["f.im"] == pytest.approx(rotated.imag, abs=1e-9)


def test_an_operator_a_record_does_not_define_is_refused_with_its_place(flatten):
    text = CONSTRUCTS.read_text().replace("Cplx e = -a;", "Cplx e = a/b;")
    with pytest.raises(CompilerError) as caught:
        flatten(text, "Constructs.Operators.Use")
    assert "'/' is not defined for records of type Constructs.Operators.Cplx" in str(caught.value)


# ------------------------------------------------------------------ connection graphs
def test_a_loop_of_overdetermined_connectors_breaks_one_connect():
    model = flat("Graph.Ring")
    gamma = [line for line in equations(model) if "reference.gamma" in line and "der(" not in line]
    # three branches inside the components, three of the four connects (r2.n-ground broken)
    assert gamma[3:] == ["source.p.reference.gamma = r1.p.reference.gamma;",
                         "r1.n.reference.gamma = r2.p.reference.gamma;",
                         "ground.p.reference.gamma = source.n.reference.gamma;"]
    assert "ground.isRoot = false;" in equations(model)
    assert "groundConnections = 2;" in equations(model)


def test_without_a_definite_root_the_potential_root_is_the_root():
    lines = equations(flat("Graph.Floating"))
    assert "ground.isRoot = true;" in lines
    assert "ground.p.reference.gamma = 0;" in lines


@pytest.mark.slow
def test_the_ring_runs_with_its_reference_angles_equal(fmus):
    result = simulate(fmus, "Graph.Ring", ["source.p.reference.gamma",
                                           "ground.p.reference.gamma", "r1.p.i"])
    t = result["time"]
    assert result["source.p.reference.gamma"] == pytest.approx(3 * t, abs=1e-7)
    assert result["ground.p.reference.gamma"] == pytest.approx(3 * t, abs=1e-7)
    assert result["r1.p.i"] == pytest.approx(0.5, abs=1e-9)


def test_a_connection_set_without_any_root_is_refused(flatten):
    text = CONSTRUCTS.read_text().replace("Connections.potentialRoot(p.reference, 256);", "")
    with pytest.raises(CompilerError) as caught:
        flatten(text, "Constructs.Graph.Floating")
    assert "has no root (Connections.root or potentialRoot)" in str(caught.value)


def test_fields_of_a_flow_record_are_flow_variables():
    lines = equations(flat("Flows.Circuit"))
    assert "supply.port.f.b + load.port.f.b = 0.0;" in lines
    assert "supply.port.e.b = load.port.e.b;" in lines


@pytest.mark.slow
def test_a_state_that_is_the_derivative_of_another_state(fmus):
    result = simulate(fmus, "States.Drive", ["inertia.phi", "inertia.w"], kind="ModelExchange")
    t = result["time"]
    assert result["inertia.w"] == pytest.approx(1 - np.exp(-t), abs=1e-6)
    assert result["inertia.phi"] == pytest.approx(t - 1 + np.exp(-t), abs=1e-6)


# ------------------------------------------------------------ subscripts and dimensions
def test_enumerations_and_booleans_are_array_dimensions_and_subscripts_may_vary():
    model = flat("Subscripts.Lookup")
    assert [item.name for item in model.variables if item.name.startswith("gain[")] == [
        "gain[1,1]", "gain[1,2]", "gain[2,1]", "gain[2,2]", "gain[3,1]", "gain[3,2]"]
    g = next(line for line in equations(model) if line.startswith("g = "))
    assert "noEvent(Integer(state) == 1)" in g and "gain[3,2]" in g


@pytest.mark.slow
def test_a_varying_subscript_picks_the_element_in_the_fmu(fmus):
    result = simulate(fmus, "Subscripts.Lookup", ["g", "n"], stop=0.5)
    t, g = result["time"], result["g"]
    # state: low until 0.1, mid from 0.1, high from 0.2, low from 0.3, mid from 0.4, high
    # from 0.5; gain[state, on] with on = time > 0.25
    expected = np.select([t < 0.1, t < 0.2, t < 0.25, t < 0.3, t < 0.4, t < 0.5],
                         [1, 2, 3, 30, 10, 20], 30)
    away = np.min(np.abs(t[:, None] - np.array([0.1, 0.2, 0.25, 0.3, 0.4])), axis=1) > 1e-6
    assert g[away] == pytest.approx(expected[away])


def test_a_type_with_dimensions_splits_its_attributes_and_each_reaches_nested_arrays():
    lines = variables(flat("ArrayTypes.Lines"))
    assert lines["shapes[2].sequence[3]"] == \
        "parameter Integer shapes[2].sequence[3](min = 1, max = 3) = 3;"
    assert lines["shapes[1].direction[2]"] == "parameter Real shapes[1].direction[2] = 1.0;"


# ---------------------------------------------------------------------- connections
def test_a_protected_input_is_set_by_the_public_input_connected_to_it():
    lines = equations(flat("Internal.Use"))
    assert "c.amplitude = c.amplitude_internal;" in lines
    # getInstanceName(): the simulated model's own name, not its package's (MLS 3.7.4.6:
    # "Vehicle.engine.controller" when MyLib.Vehicle is simulated)
    assert 'who = "Use";' in lines


# ---------------------------------------------------------------------- initialization
def test_an_initial_algorithm_computes_a_parameter_with_fixed_false(fmus):
    result = fmus.reference(CONSTRUCTS, "Constructs.Initial.Friction", stop=1.0, interval=0.5)
    assert result["dp"][-1] == pytest.approx(1.0)  # k = 4/2^2


def test_a_parameter_assigned_elsewhere_is_refused(flatten):
    text = CONSTRUCTS.read_text().replace("parameter Real k(fixed = false);", "parameter Real k;")
    with pytest.raises(CompilerError) as caught:
        flatten(text, "Constructs.Initial.Friction")
    assert "cannot assign to parameter 'k' in an algorithm (only an initial algorithm may " \
        "assign a parameter with fixed = false)" in str(caught.value)


# ------------------------------------------------------------------------- functions
def test_a_function_of_a_components_class_takes_the_components_modifiers():
    lines = equations(flat("ComponentFunctions.Scene"))
    assert "(body.a[1], body.a[2], body.a[3]) = Constructs.ComponentFunctions.World.gravity(" \
        "{body.r[1], body.r[2], body.r[3]}, {world.n[1], world.n[2], world.n[3]}, world.g);" \
        in lines


@pytest.mark.slow
def test_array_results_inside_function_expressions_compute_in_the_fmu(fmus):
    result = simulate(fmus, "ArrayResults.Use", ["angle", "projection"])
    t = result["time"]
    assert result["angle"] == pytest.approx(np.arctan2(t, 1.0), abs=1e-9)
    assert result["projection"] == pytest.approx(t / np.sqrt(t**2 + 1), abs=1e-9)
    lines = equations(flat("ArrayResults.Use"))
    assert "($call1.result[1], $call1.result[2], $call1.result[3]) = " \
        "Constructs.ArrayResults.normalize({time, 1, 0});" in lines
    functions = {item.name: item for item in flat("ArrayResults.Use").functions}
    heading = functions["Constructs.ArrayResults.heading"]
    assert [var.name for var in heading.locals] == ["$array1", "$array2"]


@pytest.mark.slow
def test_a_for_loop_of_a_model_algorithm_breaks(fmus):
    model = flat("Loops.FirstAbove")
    assert [item.name for item in model.variables if item.name.startswith("$")] == ["$break1"]
    result = simulate(fmus, "Loops.FirstAbove", ["index", "checked"], stop=1.0)
    t = np.round(result["time"], 9)
    after = t - np.floor(t * 10 + 1e-9) / 10 > 1e-6   # between two samples
    samples = np.floor(t[after] * 10 + 1e-9) / 10
    limits = np.array([0.2, 0.4, 0.6, 0.8])
    first = np.array([next((k + 1 for k, limit in enumerate(limits) if s < limit), 0)
                      for s in samples])
    assert list(result["index"][after]) == list(first)
    assert list(result["checked"][after]) == [k if k else 4 for k in first]


def test_expandable_connectors_get_the_members_connected_to_them():
    model = flat("Buses.System")
    names = [item.name for item in model.variables if item.name.startswith(("bus.", "part.sub."))]
    assert sorted(names) == ["bus.speed", "bus.sub.level", "bus.torque", "part.sub.level"]
    lines = equations(model)
    assert "speed.y = bus.speed;" in lines and "torque.y = bus.torque;" in lines
    assert "part.sub.level = bus.sub.level;" in lines


def test_a_member_of_unknown_type_is_refused(flatten):
    text = CONSTRUCTS.read_text().replace("connect(torque.y, bus.torque)",
                                          "connect(bus.missing, bus.other)")
    with pytest.raises(CompilerError) as caught:
        flatten(text, "Constructs.Buses.System")
    assert "cannot tell the type of" in str(caught.value)


def test_a_function_of_a_record_applies_to_each_element_of_an_array():
    lines = equations(flat("Vectorized.Use"))
    assert [line for line in lines if line.startswith("m[")] == [
        "m[1] = Constructs.Vectorized.magnitude(p[1].re, p[1].im);",
        "m[2] = Constructs.Vectorized.magnitude(p[2].re, p[2].im);",
        "m[3] = Constructs.Vectorized.magnitude(p[3].re, p[3].im);"]


def test_a_parameter_bound_to_a_computed_parameter_is_computed_too(fmus):
    result = fmus.reference(CONSTRUCTS, "Constructs.Initial.Seeds", stop=1.0, interval=0.5)
    assert result["x"][-1] == pytest.approx(16.0)  # actual = 2*(7 + 1)


def _timer_expectation(t):
    # armed at 1.5 (t_start = 1.5, not the 0 before it): fires at 2.5, not at 1.5
    return np.where(t < 2.5 - 1e-6, 0, 1)


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["CoSimulation", "ModelExchange"])
def test_a_relation_sees_the_values_its_event_iteration_computes(fmus, kind):
    result = simulate(fmus, "Events.Timer", ["count", "t_start"], stop=3.0, kind=kind)
    away = np.abs(result["time"] - 2.5) > 1e-6
    assert list(result["count"][away]) == list(_timer_expectation(result["time"][away]))


def test_the_interpreter_switches_relations_on_the_values_of_the_iteration(fmus):
    result = fmus.reference(CONSTRUCTS, "Constructs.Events.Timer", stop=3.0, interval=0.25)
    away = np.abs(result.time - 2.5) > 1e-6
    assert list(result["count"][away]) == list(_timer_expectation(result.time[away]))
