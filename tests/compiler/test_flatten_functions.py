"""Records, user functions (kept as functions) and model algorithm sections."""
from __future__ import annotations

from compiler import flat


def test_record_components_are_flattened_to_fields(flatten):
    model = flatten("""
record Gas
  parameter Real R = 287;
  parameter Real cp = 1005;
end Gas;
record State
  Real p;
  Real T;
end State;
model Tank
  parameter Gas gas(R = 296.8);
  State s;
  State ref = State(p = 1e5, T = 293.15);
equation
  s.p = gas.R*s.T;
  der(s.T) = ref.T - s.T;
end Tank;
""")
    assert flatten.variables(model) == [
        "parameter Real gas.R = 296.8;", "parameter Real gas.cp = 1005.0;", "Real s.p;",
        "Real s.T;", "Real ref.p;", "Real ref.T;"]
    assert flatten.equations(model.equations) == [
        "ref.p = 100000.0;", "ref.T = 293.15;", "s.p = gas.R * s.T;",
        "der(s.T) = ref.T - s.T;"]


def test_record_equations_are_split_by_field(flatten):
    model = flatten("""
record Point
  Real x;
  Real y;
end Point;
model Follow
  Point target;
  Point p;
equation
  target = Point(time, 2*time);
  p = target;
end Follow;
""")
    assert flatten.equations(model.equations) == [
        "target.x = time;", "target.y = 2 * time;", "p.x = target.x;", "p.y = target.y;"]


def test_function_with_one_output(flatten):
    model = flatten("""
function square "x squared"
  input Real x;
  output Real y;
algorithm
  y := x*x;
end square;
model UseSquare
  Real z = square(time);
end UseSquare;
""")
    (function,) = model.functions
    assert function == flat.Function(
        "square", (flat.FunctionVar("x", "Real"),), (flat.FunctionVar("y", "Real"),), (),
        (flat.Assign(flat.Var("y"), flat.Binary("*", flat.Var("x"), flat.Var("x"))),),
        None, "x squared")
    assert flatten.equations(model.equations) == ["z = square(time);"]
    assert model.to_modelica().startswith(
        'function square "x squared"\n  input Real x;\n  output Real y;\nalgorithm\n'
        '  y := x * x;\nend square;\n')


def test_function_with_several_outputs(flatten):
    model = flatten("""
function polar
  input Real x;
  input Real y;
  output Real r;
  output Real phi;
algorithm
  r := sqrt(x^2 + y^2);
  phi := atan2(y, x);
end polar;
model UsePolar
  Real r, phi, radius;
equation
  (r, phi) = polar(1, time);
  radius = polar(2, time);
end UsePolar;
""")
    assert flatten.equations(model.equations) == ["(r, phi) = polar(1, time);",
                                                  "radius = polar(2, time);"]
    assert isinstance(model.equations[0].lhs, flat.TupleExpr)


def test_default_and_named_arguments(flatten):
    model = flatten("""
function scaled
  input Real x;
  input Real gain = 2;
  input Real offset = gain/2;
  output Real y;
algorithm
  y := gain*x + offset;
end scaled;
model UseDefaults
  Real a = scaled(time);
  Real b = scaled(time, offset = 1);
  Real c = scaled(gain = 4, x = 1);
end UseDefaults;
""")
    assert flatten.equations(model.equations) == [
        "a = scaled(time, 2, 2 / 2);", "b = scaled(time, 2, 1);", "c = scaled(1, 4, 4 / 2);"]
    assert model.functions[0].inputs[1].default == flat.Const(2)


def test_recursive_function(flatten):
    model = flatten("""
function factorial
  input Integer n;
  output Integer f;
algorithm
  if n <= 1 then
    f := 1;
  else
    f := n*factorial(n - 1);
  end if;
end factorial;
model UseFactorial
  Integer f5 = factorial(5);
end UseFactorial;
""")
    assert [function.name for function in model.functions] == ["factorial"]
    assert flatten.equations(model.functions[0].algorithm) == [
        "if n <= 1 then f := 1; else f := n * factorial(n - 1); end if;"]


def test_function_with_array_input_and_output(flatten):
    model = flatten("""
function normalize
  input Real v[:];
  output Real u[size(v, 1)];
protected
  Real length;
algorithm
  length := sqrt(sum(v .^ 2));
  u := v/length;
end normalize;
model UseNormalize
  Real d[2] = {time, 1};
  Real n[2];
equation
  n = normalize(d);
end UseNormalize;
""")
    (function,) = model.functions
    assert function.inputs == (flat.FunctionVar("v", "Real", (None,)),)
    assert function.outputs == (flat.FunctionVar(
        "u", "Real", (flat.Call("size", (flat.Var("v"), flat.Const(1))),)),)
    assert function.locals == (flat.FunctionVar("length", "Real"),)
    assert flatten.equations(model.equations)[2:] == ["(n[1], n[2]) = normalize({d[1], d[2]});"]


def test_external_c_function(flatten):
    model = flatten("""
function cbrt
  input Real x;
  output Real y;
external "C" y = cbrt(x);
end cbrt;
function hypot
  input Real a;
  input Real b;
  output Real c;
external "C";
end hypot;
model UseExternal
  Real y = cbrt(time) + hypot(1, 2);
end UseExternal;
""")
    assert [function.external for function in model.functions] == [
        flat.ExternalCall("C", "cbrt", (flat.Var("x"),), "y"),
        flat.ExternalCall("C", "hypot", (flat.Var("a"), flat.Var("b")), "c")]
    assert 'external "C" y = cbrt(x);' in model.to_modelica()


def test_function_statements(flatten):
    model = flatten("""
function sumTo
  input Integer n;
  output Integer total = 0;
protected
  Integer k = 0;
algorithm
  for i in 1:n loop
    total := total + i;
  end for;
  while k < 3 loop
    k := k + 1;
    if k == 2 then
      break;
    end if;
  end while;
  assert(total >= 0, "negative");
end sumTo;
model UseSumTo
  Integer s = sumTo(4);
end UseSumTo;
""")
    (function,) = model.functions
    assert function.outputs == (flat.FunctionVar("total", "Integer", (), flat.Const(0)),)
    assert flatten.equations(function.algorithm) == [
        "for i in 1:n loop total := total + i; end for;",
        "while k < 3 loop k := k + 1; if k == 2 then break; end if; end while;",
        'assert(total >= 0, "negative");']


def test_functions_from_a_package_use_full_names(flatten):
    model = flatten("""
package Util
  constant Real offset = 1;
  function shift
    input Real x;
    output Real y;
  algorithm
    y := x + offset;
  end shift;
end Util;
model UseUtil
  Real y = Util.shift(time);
end UseUtil;
""")
    assert flatten.equations(model.equations) == ["y = Util.shift(time);"]
    assert flatten.equations(model.functions[0].algorithm) == ["y := x + 1.0;"]


def test_model_algorithm_is_scalarized_and_unrolled(flatten):
    model = flatten("""
model Accumulate
  Real x[3];
  Real total;
algorithm
  total := 0;
  for i in 1:3 loop
    x[i] := i*time;
    total := total + x[i];
  end for;
end Accumulate;
""")
    (algorithm,) = model.algorithms
    assert flatten.equations(algorithm.statements) == [
        "total := 0;", "x[1] := 1 * time;", "total := total + x[1];", "x[2] := 2 * time;",
        "total := total + x[2];", "x[3] := 3 * time;", "total := total + x[3];"]
    assert model.equations == ()
