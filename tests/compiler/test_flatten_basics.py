"""Flattening of single models: variables, attributes, prefixes, bindings, types."""
from __future__ import annotations

from compiler import flat


def test_first_order_decay(flatten):
    model = flatten("""
model Decay "exponential decay"
  parameter Real k = 2 "rate";
  Real x(start = 1, fixed = true);
equation
  der(x) = -k*x;
end Decay;
""")
    assert flatten.variables(model) == [
        'parameter Real k = 2.0 "rate";',
        "Real x(start = 1.0, fixed = true);",
    ]
    assert flatten.equations(model.equations) == ["der(x) = -k * x;"]
    assert model.name == "Decay" and model.description == "exponential decay"
    assert model.variable("x").variability == "continuous"
    assert model.variable("k").causality == "parameter"


def test_integer_boolean_string_variables_are_discrete(flatten):
    model = flatten("""
model Kinds
  Integer n(start = 3);
  Boolean b;
  String s;
  Real r;
equation
  n = 3;
  b = r > 1;
  s = "text";
  r = time;
end Kinds;
""")
    kinds = {var.name: (var.type, var.variability) for var in model.variables}
    assert kinds == {"n": ("Integer", "discrete"), "b": ("Boolean", "discrete"),
                     "s": ("String", "discrete"), "r": ("Real", "continuous")}
    assert flatten.equations(model.equations) == ["n = 3;", "b = r > 1;", 's = "text";',
                                                  "r = time;"]


def test_all_variable_attributes(flatten):
    model = flatten("""
model Attributes
  parameter Real x0 = 0.5;
  Real x(start = x0, fixed = true, nominal = 10, min = -1, max = 1e3, unit = "m",
         displayUnit = "mm", quantity = "Length", stateSelect = StateSelect.prefer);
equation
  der(x) = 1;
end Attributes;
""")
    x = model.variable("x")
    assert x.start == flat.Var("x0")
    assert (x.fixed, x.nominal, x.min, x.max) == (True, flat.Const(10.0), flat.Const(-1.0),
                                                  flat.Const(1000.0))
    assert (x.unit, x.display_unit, x.quantity, x.state_select) == ("m", "mm", "Length",
                                                                    "prefer")
    assert flatten.variables(model)[1] == (
        'Real x(start = x0, nominal = 10.0, min = -1.0, max = 1000.0, fixed = true, '
        'unit = "m", displayUnit = "mm", quantity = "Length", stateSelect = StateSelect.prefer);')


def test_bindings_of_variables_become_equations(flatten):
    model = flatten("""
model Bindings
  parameter Real a = 2;
  parameter Real b = 3*a "derived parameter";
  Real x = a*time;
  Real y;
equation
  y = x + b;
end Bindings;
""")
    assert model.variable("b").binding == flat.Binary("*", flat.Const(3), flat.Var("a"))
    assert model.variable("x").binding is None
    assert flatten.equations(model.equations) == ["x = a * time;", "y = x + b;"]


def test_constants_stay_constant_variables(flatten):
    model = flatten("""
model Constants
  constant Real c = 1.5;
  constant Integer n = 2;
  Real x;
equation
  x = c*n;
end Constants;
""")
    assert flatten.variables(model) == ["constant Real c = 1.5;", "constant Integer n = 2;",
                                        "Real x;"]
    assert [var.causality for var in model.variables] == ["local", "local", "local"]


def test_top_level_inputs_outputs_and_protected(flatten):
    model = flatten("""
block Gain
  parameter Real k = 2;
  input Real u;
  output Real y;
protected
  Real internal;
equation
  internal = k*u;
  y = internal;
end Gain;
""")
    causality = {var.name: (var.causality, var.protected) for var in model.variables}
    assert causality == {"k": ("parameter", False), "u": ("input", False),
                         "y": ("output", False), "internal": ("local", True)}
    assert flatten.variables(model)[1:3] == ["input Real u;", "output Real y;"]


def test_package_constants_are_substituted(flatten):
    model = flatten("""
package Constants
  constant Real pi = 3.14159;
  constant Real two_pi = 2*pi;
  constant Integer n = 3;
end Constants;
model Circle
  parameter Real r = 1;
  Real area;
  Real x[Constants.n];
equation
  area = Constants.pi*r^2;
  x = fill(Constants.two_pi, Constants.n);
end Circle;
""")
    assert flatten.equations(model.equations) == [
        "area = 3.14159 * r ^ 2;", "x[1] = 6.28318;", "x[2] = 6.28318;", "x[3] = 6.28318;"]


def test_type_definitions_carry_attributes(flatten):
    model = flatten("""
type Voltage = Real(unit = "V", quantity = "ElectricPotential");
type PositiveVoltage = Voltage(min = 0);
model Source
  PositiveVoltage v(start = 1);
  Voltage w(unit = "kV");
equation
  v = 5;
  w = v/1000;
end Source;
""")
    assert flatten.variables(model) == [
        'Real v(start = 1.0, min = 0.0, unit = "V", quantity = "ElectricPotential");',
        'Real w(unit = "kV", quantity = "ElectricPotential");']


def test_enumerations(flatten):
    model = flatten("""
type Mode = enumeration(off "heater off", low, high);
model Heater
  Mode mode(start = Mode.off);
  Real power;
equation
  mode = if time < 1 then Mode.low else Mode.high;
  power = if mode == Mode.high then 2 else if mode >= Mode.low then 1 else 0;
end Heater;
""")
    assert model.enumerations == (flat.Enumeration("Mode", ("off", "low", "high")),)
    mode = model.variable("mode")
    assert (mode.type, mode.variability, mode.start) == (
        "Mode", "discrete", flat.EnumConst("Mode", "off", 1))
    assert flatten.equations(model.equations) == [
        "mode = if time < 1 then Mode.low else Mode.high;",
        "power = if mode == Mode.high then 2 else if mode >= Mode.low then 1 else 0;"]
    assert model.to_modelica().startswith("type Mode = enumeration(off, low, high);\n")


def test_if_expressions_and_elseif(flatten):
    model = flatten("""
model Saturation
  parameter Real limit = 1;
  Real u = sin(time);
  Real y;
equation
  y = if u > limit then limit elseif u < -limit then -limit else u;
end Saturation;
""")
    assert flatten.equations(model.equations)[1] == (
        "y = if u > limit then limit else if u < -limit then -limit else u;")


def test_experiment_and_documentation(flatten):
    model = flatten("""
model Settings
  Real x(start = 0, fixed = true);
equation
  der(x) = 1;
  annotation(experiment(StartTime = 0.5, StopTime = 2, Tolerance = 1e-8, Interval = 0.01),
             Documentation(info = "<html>A ramp.</html>"));
end Settings;
""")
    assert model.experiment == flat.Experiment(0.5, 2.0, 1e-8, 0.01)
    assert model.documentation == "<html>A ramp.</html>"
    assert model.to_modelica().splitlines()[-2] == (
        "  annotation(experiment(StartTime = 0.5, StopTime = 2.0, Tolerance = 1e-08, "
        "Interval = 0.01));")


def test_every_variable_and_equation_keeps_its_span(flatten):
    model = flatten("""model Spans
  Real x(start = 1);
  Real y = 2*x;
equation
  der(x) = -x;
end Spans;
""")
    assert [(var.span.line, var.span.col) for var in model.variables] == [(2, 3), (3, 3)]
    assert [(eq.span.line, eq.span.col) for eq in model.equations] == [(3, 12), (5, 3)]
    assert model.variables[0].span.file.endswith("Test.mo")


def test_structural_parameters_are_marked(flatten):
    model = flatten("""
model Structural
  parameter Integer n = 2;
  parameter Real k = 1;
  Real x[n];
equation
  x = fill(k, n);
end Structural;
""")
    assert {var.name: var.structural for var in model.variables} == {
        "n": True, "k": False, "x[1]": False, "x[2]": False}
