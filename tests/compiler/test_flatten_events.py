"""Discrete behaviour and built-in operators: when-clauses, pre, sample, reinit, initial sections."""
from __future__ import annotations

from compiler import api, flat


def test_bouncing_ball(models_dir, flatten):
    model = api.flatten_model(models_dir / "BouncingBall.mo", environ={})
    assert flatten.equations(model.equations) == [
        "der(h) = v;", "der(v) = -g;",
        "when h <= 0 then reinit(v, -e * pre(v)); bounces = pre(bounces) + 1; end when;"]
    when = model.equations[2]
    assert isinstance(when, flat.WhenEquation)
    assert when.branches[0][1][0] == flat.Reinit(
        flat.Var("v"), flat.Unary("-", flat.Binary("*", flat.Var("e"),
                                                   flat.Call("pre", (flat.Var("v"),)))))
    assert model.variable("bounces").variability == "discrete"
    assert model.variable("v").variability == "continuous"


def test_thermostat_with_pre(models_dir, flatten):
    model = api.flatten_model(models_dir / "Thermostat.mo", environ={})
    assert flatten.equations(model.equations) == [
        "der(T) = -k * (T - T_ambient) + (if heating then P else 0);",
        "heating = if pre(heating) then T < T_high else T < T_low;"]
    assert model.variable("heating").variability == "discrete"
    assert model.experiment.stop_time == 100.0


def test_sampled_counter(models_dir, flatten):
    model = api.flatten_model(models_dir / "SampledCounter.mo", environ={})
    assert flatten.equations(model.equations) == [
        "when sample(0, 0.1) then count = pre(count) + 1; end when;", "der(x) = count;"]
    assert model.equations[0].branches[0][0] == flat.Call("sample", (flat.Const(0),
                                                                     flat.Const(0.1)))


def test_cartesian_pendulum(models_dir, flatten):
    model = api.flatten_model(models_dir / "Pendulum.mo", environ={})
    assert flatten.equations(model.equations) == [
        "der(x) = vx;", "der(y) = vy;", "m * der(vx) = -lambda * x;",
        "m * der(vy) = -lambda * y - m * g;", "x ^ 2 + y ^ 2 = L ^ 2;"]
    assert [var.name for var in model.variables if var.variability == "continuous"] == [
        "x", "y", "vx", "vy", "lambda"]


def test_when_with_elsewhen_and_vector_condition(flatten):
    model = flatten("""
model Modes
  Integer mode(start = 0, fixed = true);
  Real y(start = 0, fixed = true);
  discrete Real last(start = 0, fixed = true);
equation
  der(y) = 1 - mode;
  when y > 2 then
    mode = 1;
  elsewhen y < 1 then
    mode = 0;
  end when;
  when {y > 1.5, time > 3} then
    last = time;
  end when;
end Modes;
""")
    assert flatten.equations(model.equations)[1:] == [
        "when y > 2 then mode = 1; elsewhen y < 1 then mode = 0; end when;",
        "when {y > 1.5, time > 3} then last = time; end when;"]
    assert model.variable("last").variability == "discrete"


def test_event_operators_are_kept(flatten):
    model = flatten("""
model Operators
  Boolean on = time > 1;
  Boolean rising = edge(on);
  Boolean changed = change(on);
  Real x(start = 0, fixed = true);
  Boolean first = initial();
  Boolean last = terminal();
equation
  der(x) = if noEvent(x > 1) then smooth(1, x^2) else homotopy(actual = x, simplified = 0);
end Operators;
""")
    assert flatten.equations(model.equations) == [
        "on = time > 1;", "rising = edge(on);", "changed = change(on);", "first = initial();",
        "last = terminal();",
        "der(x) = if noEvent(x > 1) then smooth(1, x ^ 2) else homotopy(x, 0);"]


def test_math_functions_are_kept(flatten):
    model = flatten("""
model MathFunctions
  Real a = abs(sin(time)) + sqrt(exp(time)) + log10(1 + time) + atan2(1, time + 1);
  Integer i = integer(floor(time)) + div(7, 2) + mod(7, 2);
  Real d = delay(time, 0.1) + sign(time - 1) + max(time, 2);
end MathFunctions;
""")
    assert flatten.equations(model.equations) == [
        "a = abs(sin(time)) + sqrt(exp(time)) + log10(1 + time) + atan2(1, time + 1);",
        "i = integer(floor(time)) + div(7, 2) + mod(7, 2);",
        "d = delay(time, 0.1, 0.1) + sign(time - 1) + max(time, 2);"]


def test_assert_and_terminate(flatten):
    model = flatten("""
model Guarded
  parameter Real limit = 10;
  Real x(start = 1, fixed = true);
equation
  der(x) = x;
  assert(x < limit, "x grew too large", AssertionLevel.warning);
  assert(x > 0, "x must stay positive");
  when x > 5 then
    terminate("x passed 5");
  end when;
end Guarded;
""")
    assert flatten.equations(model.equations) == [
        "der(x) = x;", 'assert(x < limit, "x grew too large", AssertionLevel.warning);',
        'assert(x > 0, "x must stay positive");',
        'when x > 5 then terminate("x passed 5"); end when;']
    assert model.equations[1].level == "warning" and model.equations[2].level == "error"


def test_initial_equations_and_algorithms(flatten):
    model = flatten("""
model Initialized
  parameter Real x0(fixed = false);
  Real x;
  Real y;
initial equation
  x = 2;
  x0 = x;
initial algorithm
  y := 3;
equation
  der(x) = -x;
  der(y) = -y;
end Initialized;
""")
    assert flatten.equations(model.initial_equations) == ["x = 2;", "x0 = x;"]
    assert flatten.equations(model.initial_algorithms[0].statements) == ["y := 3;"]
    assert model.variable("x0").fixed is False
    assert "initial algorithm\n  y := 3;" in model.to_modelica()


def test_when_statement_in_algorithm(flatten):
    model = flatten("""
model Counter
  Integer n(start = 0, fixed = true);
algorithm
  when sample(0, 1) then
    n := pre(n) + 1;
  end when;
end Counter;
""")
    assert flatten.equations(model.algorithms[0].statements) == [
        "when sample(0, 1) then n := pre(n) + 1; end when;"]
