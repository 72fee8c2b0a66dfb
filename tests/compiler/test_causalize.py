"""Causalization: alias elimination, index reduction, BLT blocks, initialization, events."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from compiler import causalize_api
from compiler.causalize import CausalizeError, causalize
from compiler.symbolic import to_text
from compiler.system import Assignment, LinearBlock, NewtonBlock

MODELS = Path(__file__).parent / "causalize_models"


def system_of(file: str, model: str | None = None):
    return causalize_api.causalize_model(MODELS / file, model, environ={})


@pytest.fixture
def causalized(flatten):
    """``causalized(text)``: the System of Modelica text written to Test.mo."""
    return lambda text, model=None: causalize(flatten(text, model))


@pytest.fixture
def failure(flatten):
    """``failure(text)``: the message of the CausalizeError of Test.mo (paths relative)."""
    def message(text: str) -> str:
        with pytest.raises(CausalizeError) as error:
            causalize(flatten(text))
        return str(error.value).replace(f"{flatten.directory}/", "")
    return message


def assignments(system) -> dict:
    return {block.var: to_text(block.value) for block in system.blocks
            if type(block) is Assignment}


def kinds(system) -> dict:
    return {item.name: item.kind for item in system.variables}


# ------------------------------------------------------------------- connector models
def test_mass_spring_damper_from_components():
    system = system_of("Translational.mo", "Translational.Oscillator")
    assert system.states == ("mass.s", "mass.v")
    assert system.derivatives == ("der(mass.s)", "der(mass.v)")
    # the damper's elongation is differentiated but tied to the mass: a dummy derivative
    assert kinds(system)["der(damper.s_rel)"] == "algebraic"
    assert kinds(system)["damper.s_rel"] == "algebraic"
    aliases = {item.variable.name: (item.of, item.negated, item.value and to_text(item.value))
               for item in system.aliases}
    assert aliases["mass.a.s"] == ("mass.s", False, None)
    assert aliases["spring.a.f"] == ("spring.f", True, None)
    assert aliases["wall.a.s"] == ("", False, "wall.s0")
    assert all(type(block) is Assignment for block in system.blocks)
    assert assignments(system)["der(damper.s_rel)"] == "der(mass.s)"
    assert system.jacobian_rows == ((1,), (0, 1))
    assert system.n_derivative_blocks == len(system.blocks) - 2


def test_rc_circuit_from_components():
    system = system_of("Analog.mo", "Analog.RC")
    assert system.states == ("capacitor.v",)
    assert [item.name for item in system.of_kind("algebraic")] == ["source.i", "resistor.v"]
    assert assignments(system)["der(capacitor.v)"] == "-source.i / capacitor.C"
    assert {item.variable.name for item in system.aliases} >= {
        "ground.p.v", "capacitor.p.v", "resistor.i", "source.n.v"}


def test_every_variable_keeps_its_declaration():
    system = system_of("Analog.mo", "Analog.RC")
    capacitor = system.variable("capacitor.v")
    assert (capacitor.unit, capacitor.fixed, to_text(capacitor.start)) == ("V", True, "0.0")
    parameter = system.variable("resistor.R")
    assert (parameter.kind, to_text(parameter.binding), parameter.unit) == \
        ("parameter", "2000.0", "Ohm")


# ---------------------------------------------------------------------- index reduction
def test_parallel_capacitors_keep_one_state():
    # the connections make the capacitor voltages aliases, derivatives included
    system = system_of("Analog.mo", "Analog.ParallelCapacitors")
    assert system.states == ("c1.v",)
    (linear,) = [block for block in system.blocks if type(block) is LinearBlock]
    assert set(linear.vars) == {"der(c1.v)", "c1.i", "c2.i"}
    assert {(item.variable.name, item.of) for item in system.aliases} >= {("c2.v", "c1.v")}
def test_pendulum_index_reduction_keeps_two_states():
    system = system_of("Pendulum.mo")
    assert system.states == ("x", "vx")
    assert kinds(system)["der(der(y))"] == "algebraic"
    newton = [block for block in system.blocks if type(block) is NewtonBlock]
    assert [block.vars for block in newton] == [("y",)]  # y from the length constraint
    assert newton[0].has_jacobian
    linear = [block for block in system.blocks if type(block) is LinearBlock]
    assert len(linear) == 1 and "lambda" in linear[0].vars
    assert system.jacobian_rows == ((1,), (0, 1))  # der(x) = vx; der(vx) reads x and vx


def test_state_selection_follows_the_start_values(causalized):
    text = (MODELS / "Pendulum.mo").read_text()
    # released at 80 degrees, y is the better-conditioned coordinate of the constraint
    steep = causalized(text.replace("10*3.14159265358979/180", "80*3.14159265358979/180")
                       .replace("x(start = L*sin(theta0), fixed = true)", "x(start = L*sin(theta0))")
                       .replace("y(start = -L*cos(theta0))", "y(start = -L*cos(theta0), fixed = true)"))
    assert steep.states[0] == "y"


def test_state_select_prefer_and_always(causalized):
    text = (MODELS / "Pendulum.mo").read_text()
    preferred = causalized(text.replace('Real y(start', 'Real y(stateSelect = StateSelect.prefer, start'))
    assert "y" in preferred.states
    with pytest.raises(CausalizeError) as error:
        causalized(text.replace('Real x(start', 'Real x(stateSelect = StateSelect.always, start')
                   .replace('Real y(start', 'Real y(stateSelect = StateSelect.always, start'))
    assert "has stateSelect = always but index reduction cannot keep it as a state" in \
        str(error.value)


ANGLE_PENDULUM = """
model P "a pendulum in its angle, its position in Cartesian coordinates (index 3)"
  parameter Real L = 1;
  parameter Real g = 9.81;
  Real phi(stateSelect = StateSelect.always, start = 1, fixed = true);
  Real w(stateSelect = StateSelect.always, start = 0, fixed = true);
  Real x, y, vx, vy, F;
equation
  w = der(phi);
  x = L*sin(phi);
  y = -L*cos(phi);
  vx = der(x);
  vy = der(y);
  der(vx) = -F*x/L;
  der(vy) = -F*y/L - g;
end P;
"""


def test_state_select_always_holds_through_w_equal_to_der_phi(causalized, flatten, tmp_path):
    # no der(w) in the model: index reduction keeps phi and der(phi), which w names; main
    # refused this ("'w' has stateSelect = always but index reduction cannot keep it")
    system = causalized(ANGLE_PENDULUM)
    assert set(system.states) == {"phi", "der(phi)"}
    from scipy.integrate import solve_ivp
    from cosim import api
    result = api.run(flatten.path, model="P", stop_time=2.0, step_size=0.01,
                     tolerance=1e-10, record=["P.phi", "P.w"])
    t = result.values["time"]
    exact = solve_ivp(lambda _, y: [y[1], -9.81 * np.sin(y[0])], (0, 2), [1.0, 0.0],
                      t_eval=t, rtol=1e-12, atol=1e-12)
    assert np.abs(result.values["P.phi"] - exact.y[0]).max() < 1e-8
    assert np.abs(result.values["P.w"] - exact.y[1]).max() < 1e-8


def test_state_select_never_on_a_needed_state(causalized):
    with pytest.raises(CausalizeError) as error:
        causalized("model T\n  Real x(start = 1, fixed = true, stateSelect = StateSelect.never);"
                   "\nequation\n  der(x) = -x;\nend T;\n")
    assert str(error.value).endswith("Test.mo:2:3: 'x' has stateSelect = never but must be a "
                                     "state (no other variable can take its place)")


def test_index_two_constraint_between_masses(causalized):
    system = causalized("""
model Rigid "two masses glued together: index 2"
  Real x1(start = 0, fixed = true);
  Real v1(start = 1, fixed = true);
  Real x2;
  Real v2;
  Real f;
equation
  der(x1) = v1;
  der(x2) = v2;
  2*der(v1) = f;
  3*der(v2) = -f - 10;
  x2 = x1;
end Rigid;
""")
    assert len(system.states) == 2
    assert set(system.states) <= {"x1", "v1", "x2", "v2"}


# ------------------------------------------------------------------------------ loops
def test_nonlinear_loop_is_torn():
    system = system_of("Analog.mo", "Analog.DiodeCharger")
    (newton,) = [block for block in system.blocks if type(block) is NewtonBlock]
    assert len(newton.vars) == 1 and len(newton.inner) == 3 and len(newton.residuals) == 1
    assert newton.has_jacobian
    assert all(item.partials for item in newton.inner)


def test_linear_loop_is_flagged(causalized):
    system = causalized("""
model Divider
  parameter Real R1 = 1, R2 = 3;
  Real u(start = 1, fixed = true);
  Real i1, i2, v;
equation
  der(u) = -u;
  u - v = R1*i1;
  v = R2*i2;
  i1 = i2 + 0.5*v;
end Divider;
""")
    (linear,) = [block for block in system.blocks if type(block) is LinearBlock]
    assert set(linear.vars) == {"i1", "i2", "v"}
    assert len(linear.rhs) == 3


# ----------------------------------------------------------------------- initialization
def test_initialization_blocks_fix_states_and_pre_values():
    system = system_of("Events.mo", "Events.BouncingBall")
    initial = {block.var: to_text(block.value) for block in system.initial_blocks
               if type(block) is Assignment}
    assert initial["h"] == "2.0" and initial["v"] == "0.0"
    assert initial["pre(bounces)"] == "0"
    assert initial["bounces"] == "pre(bounces)"       # the when-equation is inactive
    assert initial["$when[1]"] == "h <= 0"            # relations as written


def test_initial_equations_and_fixed_false_guesses(causalized):
    system = causalized("""
model Steady
  Real x(start = 3);
  Real y;
initial equation
  der(x) = 0;
equation
  der(x) = 1 - x*y;
  y = 2;
end Steady;
""")
    initial = {block.var: to_text(block.value) for block in system.initial_blocks
               if type(block) is Assignment}
    assert initial["der(x)"] == "0"
    assert "x" in initial  # solved from der(x) = 1 - x*y


def test_when_initial_is_active_during_initialization(causalized):
    system = causalized("""
model Init
  discrete Real k(start = 0, fixed = true);
  Real x(start = 1, fixed = true);
equation
  when initial() then
    k = 2*x;
  end when;
  der(x) = -k*x;
end Init;
""")
    initial = {block.var: to_text(block.value) for block in system.initial_blocks
               if type(block) is Assignment}
    assert initial["k"] == "2 * x"
    (clause,) = system.when_clauses
    assert to_text(clause.initial_active) == "initial()"


# ------------------------------------------------------------------------------- events
def test_bouncing_ball_events():
    system = system_of("Events.mo", "Events.BouncingBall")
    (relation,) = system.relations
    assert (relation.var, relation.op, to_text(relation.distance)) == ("$rel[1]", "<=", "-h")
    assert relation.text == "h <= 0"
    (clause,) = system.when_clauses
    assert clause.conditions == ("$when[1]",)
    assert to_text(clause.active) == "$when[1] and not pre($when[1])"
    assert clause.assigned == ("bounces",)
    assert [(item.state, to_text(item.value)) for item in clause.reinits] == \
        [("v", "-e * pre(v)")]
    assert assignments(system)["bounces"] == \
        "if $when[1] and not pre($when[1]) then pre(bounces) + 1 else pre(bounces)"
    assert kinds(system)["$rel[1]"] == "discrete" and system.variable("$rel[1]").hidden


def test_thermostat_relations_and_discrete_equation():
    system = system_of("Events.mo", "Events.Thermostat")
    assert [(item.text, to_text(item.distance)) for item in system.relations] == \
        [("T < T_off", "T_off - T"), ("T < T_on", "T_on - T")]
    assert assignments(system)["heating"] == "if pre(heating) then $rel[1] else $rel[2]"
    assert system.n_derivative_blocks == 2


def test_sampled_counter_structure():
    system = system_of("Events.mo", "Events.SampledCounter")
    (sample,) = system.samples
    assert (sample.var, to_text(sample.start), to_text(sample.interval)) == \
        ("$sample[1]", "0", "0.1")
    assert assignments(system)["$when[1]"] == "$sample[1]"
    assert not system.relations
    assert system.n_derivative_blocks == 3 and system.n_indicator_blocks == 3


def test_no_events_inside_no_event_or_when_bodies(causalized):
    system = causalized("""
model Quiet
  Real x(start = 0, fixed = true);
  Real y;
  discrete Real z(start = 0, fixed = true);
equation
  der(x) = 1;
  y = noEvent(if x > 0.5 then 1 else 0);
  when x > 0.7 then
    z = if x > 0.75 then 1 else 2;
  end when;
end Quiet;
""")
    assert [item.text for item in system.relations] == ["x > 0.7"]


def test_elsewhen_priority(causalized):
    system = causalized("""
model Priority
  Real x(start = 0, fixed = true);
  discrete Integer k(start = 0, fixed = true);
equation
  der(x) = 1;
  when x > 1 then
    k = 1;
  elsewhen x > 2 then
    k = 2;
  end when;
end Priority;
""")
    first, second = system.when_clauses
    assert to_text(second.active) == \
        "$when[2] and not pre($when[2]) and not ($when[1] and not pre($when[1]))"
    assert assignments(system)["k"] == (f"if {to_text(first.active)} then 1 else "
                                        f"if {to_text(second.active)} then 2 else pre(k)")


# ---------------------------------------------------------------------- structural errors
def test_singular_system_names_equations_and_unknowns(failure):
    message = failure("model S\n  Real x;\n  Real y;\n  Real z;\nequation\n  x + y = 1;\n"
                      "  2*x + 3*y = 2;\n  x*y = 4;\nend S;\n")
    assert message == ("Test.mo:6:3: structurally singular system: 3 equations for 2 unknowns "
                       "(x, y): Test.mo:6:3: x + y = 1; Test.mo:7:3: 2 * x + 3 * y = 2; "
                       "Test.mo:8:3: x * y = 4")


def test_equation_without_unknowns(failure):
    message = failure("model E\n  parameter Real p = 1;\n  Real x;\n  Real y;\nequation\n"
                      "  x + y = 2;\n  p = 3;\nend E;\n")
    assert message == ("Test.mo:7:3: structurally singular system: no unknown is left for "
                       "Test.mo:7:3: p = 3")


def test_singular_after_alias_elimination_shows_the_source(failure):
    message = failure("model A\n  Real x;\n  Real y;\n  Real z;\nequation\n  x = y;\n"
                      "  y = 2;\n  x = 3;\nend A;\n")
    assert message == ("Test.mo:8:3: structurally singular system: no unknown is left for "
                       "Test.mo:8:3: x = 3")


def test_overdetermined_initialization_names_the_variables(failure):
    text = (MODELS / "Pendulum.mo").read_text().replace(
        "y(start = -L*cos(theta0))", "y(start = -L*cos(theta0), fixed = true)")
    message = failure(text)
    assert message.startswith("Test.mo:6:3: over-determined initialization: 3 equations for "
                              "2 unknowns (x, y): ")
    assert "Test.mo:6:3: x = L * sin(theta0) (start value)" in message
    assert "Test.mo:7:3: y = -L * cos(theta0) (start value)" in message
    assert message.endswith("Test.mo:16:3: x ^ 2 + y ^ 2 = L ^ 2")


def test_underdetermined_initialization_names_the_variables(failure):
    message = failure("model I\n  parameter Real k(fixed = false);\n"
                      "  Real v(start = 0, fixed = true);\n"
                      "equation\n  der(v) = -k*v;\nend I;\n")
    assert message == ("Test.mo:2:3: under-determined initialization: nothing determines k, "
                       "der(v) (1 equation for them: Test.mo:5:3: der(v) = -k * v); give start "
                       "values with fixed = true or initial equations")


def test_underdetermined_states_start_from_their_start_values(flatten):
    # x has a start value but not fixed: as other tools do, the initialization takes it
    model = flatten("model I\n  Real x(start = 1);\n  Real v(start = 0, fixed = true);\n"
                    "equation\n  der(x) = v;\n  der(v) = -x;\nend I;\n")
    system = causalize(model)
    initial = {block.var: to_text(block.value) for block in system.initial_blocks
               if isinstance(block, Assignment)}
    assert initial["x"] == "1.0" and initial["v"] == "0.0"


def test_reinit_of_a_variable_that_is_not_a_state(failure):
    text = (MODELS / "Pendulum.mo").read_text().replace(
        "  x^2 + y^2 = L^2;", "  x^2 + y^2 = L^2;\n  when x < 0 then\n    reinit(vy, 0);\n"
        "  end when;")
    assert failure(text) == ("Test.mo:18:5: reinit(vy, ...): 'vy' is not a state after index "
                             "reduction (the states are x, vx)")


def test_a_loop_through_a_boolean_without_events_is_refused(failure):
    # between events a mixed block keeps its discrete values: b would lag behind y
    message = failure("model D\n  Real x(start = 0, fixed = true);\n  Boolean b;\n  Real y;\n"
                      "equation\n  der(x) = y;\n  b = noEvent(y > 0);\n"
                      "  y = if b then 1 - x else -1;\nend D;\n")
    assert message == ("Test.mo:7:3: the discrete b depends on the continuous y of its loop "
                       "through a relation without events (noEvent?): it would change between "
                       "events; let the relation generate events")


def test_boolean_equation_must_name_its_variable(failure):
    message = failure("model B\n  Boolean b;\n  Real x(start = 0, fixed = true);\nequation\n"
                      "  der(x) = 1;\n  not b = x > 1;\nend B;\n")
    assert message == ("Test.mo:6:3: cannot solve this equation for a variable: one side must "
                       "be the Boolean variable b alone (write 'b = ...')")


def test_index_reduction_needs_a_function_derivative(failure):
    message = failure("""
model F
  function f "external: no derivative can be generated from an algorithm"
    input Real u;
    output Real y;
  external "C" y = sin(u);
  end f;
  Real x(start = 0, fixed = true);
  Real z;
equation
  der(x) = z;
  f(x) = time;
end F;
""")
    assert message == ("Test.mo:12:3: index reduction must differentiate this equation, but "
                       "the function F.f has no derivative: F.f(x) = time")


# ------------------------------------------------------------------------------ printing
def test_system_prints_readably():
    text = str(system_of("Events.mo", "Events.BouncingBall"))
    assert "state variables: h, v" in text
    assert "  1 D der(h) := v    [" in text
    assert "relations (event indicators):\n  $rel[1]: h <= 0" in text
    assert "when-clauses:\n  when $when[1]" in text
    assert "    reinit(v, -e * pre(v))" in text
    assert "initialization blocks:" in text


def test_cli_check_blocks(capsys):
    from cosim.cli import main
    assert main(["check", "--blocks", str(MODELS / "Pendulum.mo")]) == 0
    out = capsys.readouterr().out
    assert out.startswith("system Pendulum: 2 states, 7 algebraic, 0 discrete, 5 blocks")
    assert "nonlinear system, Newton on y (symbolic Jacobian):" in out
    assert main(["check", str(MODELS / "Pendulum.mo")]) == 0
    assert "Pendulum: 5 variables" in capsys.readouterr().out


def test_cli_check_blocks_reports_errors(tmp_path, capsys):
    from cosim.cli import main
    path = tmp_path / "Bad.mo"
    path.write_text("model Bad\n  Real x;\n  Real y;\nequation\n  x = 1;\n  x = 2;\n"
                    "end Bad;\n")
    assert main(["check", "--blocks", str(path)]) == 1
    err = capsys.readouterr().err
    # the equations listed by file name (their paths with --verbose)
    assert err == (f"{path}:6:3: error: structurally singular system: no unknown is left for "
                   f"Bad.mo:6:3: x = 2\n")
    assert main(["--verbose", "check", "--blocks", str(path)]) == 1
    assert capsys.readouterr().err == (f"{path}:6:3: error: structurally singular system: no "
                                       f"unknown is left for {path}:6:3: x = 2\n")


def test_algorithm_sections_are_blocks():
    from compiler.system import AlgorithmBlock, AssignStatement, WhenStatement
    system = system_of("Algorithms.mo")
    (block,) = [item for item in system.blocks if type(item) is AlgorithmBlock]
    assert block.outputs == ("y", "z", "n", "last")
    assert block.inputs == ("$rel[1]", "$when[1]", "x")
    assert [to_text(value) for value in block.initial_values] == ["0.0", "0.0", "pre(n)",
                                                                   "pre(last)"]
    assert type(block.statements[0]) is AssignStatement
    when = [item for item in block.statements if type(item) is WhenStatement]
    assert system.when_clauses[when[0].clause].assigned == ("n", "last")
    assert any(type(item) is AlgorithmBlock for item in system.initial_blocks)


def test_a_continuous_loop_through_an_algorithm_is_refused(failure):
    message = failure("model L\n  Real x;\n  Real y;\nalgorithm\n  x := 1 - y;\nequation\n"
                      "  y = 2*x;\nend L;\n")
    assert message == ("Test.mo:5:3: an algebraic loop runs through this algorithm section, "
                       "which computes the continuous x: it is not supported (only loops "
                       "through the discrete variables an algorithm computes are)")


def test_dummy_derivatives_singular_at_the_start_are_chosen_near_it(causalized, failure):
    # x = y = 0 at the start: the rod's Jacobian (2x, 2y) vanishes there; the states are
    # chosen at a generic point near the start values instead of refusing
    text = (MODELS / "Pendulum.mo").read_text().replace(
        "x(start = L*sin(theta0), fixed = true)", "x(start = 0)").replace(
        "y(start = -L*cos(theta0))", "y(start = 0)").replace(
        "vx(start = 0, fixed = true)", "vx(start = 0)")
    assert len(causalized(text).states) == 2
    # a constraint singular at every point is still refused: sin^2 + cos^2 has no slope
    assert failure("model Z\n  Real x;\n  Real v;\n  Real f;\nequation\n  der(x) = v;\n"
                   "  der(v) = -f;\n  sin(x)^2 + cos(x)^2 = 1;\nend Z;\n") == (
        "Test.mo:8:3: index reduction: at the start values, this constraint leaves no "
        "variable to solve for among x (its Jacobian is singular there; give better start "
        "values): sin(x) ^ 2 + cos(x) ^ 2 = 1")


def test_aliases_with_different_fixed_starts(failure):
    message = failure("model A\n  Real a(start = 1, fixed = true);\n"
                      "  Real b(start = 2, fixed = true);\nequation\n  der(a) = -a;\n"
                      "  b = a;\nend A;\n")
    assert message == ("Test.mo:3:3: 'b' and 'a' are the same variable (by alias equations) "
                       "with different fixed start values (2.0 and 1.0)")


def test_parameter_with_fixed_false_is_computed_by_initialization(causalized):
    system = causalized("model P\n  parameter Real k(fixed = false);\n"
                        "  Real x(start = 4, fixed = true);\ninitial equation\n  k*k = x;\n"
                        "equation\n  der(x) = -k*x;\nend P;\n")
    newton = [block for block in system.initial_blocks if type(block) is NewtonBlock]
    assert [block.vars for block in newton] == [("k",)]


def test_der_of_an_input_and_of_a_function_call(failure):
    assert failure("model D\n  input Real u;\n  Real x;\nequation\n  x = der(u);\nend D;\n") \
        == "Test.mo:5:3: der(u) of an input is not supported"
    message = failure("model F\n  function f\n    input Real a;\n    output Real b;\n"
                      "  algorithm\n    b := a;\n  end f;\n  Real x(start = 0, fixed = true);\n"
                      "equation\n  der(x) = der(f(time));\nend F;\n")
    assert message == ("Test.mo:10:3: der() of an expression calling the function F.f, which "
                       "has no derivative")


def test_structural_parameters_are_marked():
    system = system_of("Translational.mo", "Translational.Chain")
    assert system.variable("N").structural
    assert not system.variable("spring[1].c").structural
    assert len(system.states) == 6


def test_bindings_that_read_parameters_the_initialization_computes_are_computed_too(flatten):
    model = flatten("model P\n  parameter Real k(fixed = false, start = 1);\n"
                    "  parameter Real j = 2*k;\n  Real x(start = 4, fixed = true);\n"
                    "initial equation\n  k*k = x;\nequation\n  der(x) = -j*x;\nend P;\n")
    system = causalize(model)
    initial = {block.var: to_text(block.value) for block in system.initial_blocks
               if isinstance(block, Assignment)}
    assert initial["j"] == "2 * k"   # after k, from the binding


def test_event_generating_functions_are_latched():
    system = system_of("Steps.mo")
    assert [item.text for item in system.relations[:2]] == \
        ["3 * time < pre($floor[1])", "3 * time >= pre($floor[1]) + 1.0"]
    assert assignments(system)["$floor[1]"] == \
        "if $rel[1] or $rel[2] then integer(3 * time) else pre($floor[1])"
    assert system.variable("$floor[1]").type == "Integer"
    initial = {block.var: to_text(block.value) for block in system.initial_blocks
               if type(block) is Assignment}
    assert initial["$floor[1]"] == "integer(3 * time)"
