"""Models that must be rejected: each with its exact message, line and column."""
from __future__ import annotations

import pytest

from compiler import api
from compiler.errors import CompilerError

CASES = {
    "duplicate declaration": ("""
model M
  Real x;
  Real x;
equation
  x = 1;
end M;
""", "4:3", "duplicate declaration of 'x' (first declared at 3:3)"),
    "unknown name": ("""
model M
  Real x;
equation
  x = y + 1;
end M;
""", "5:7", "unknown name 'y'"),
    "unknown type": ("""
model M
  Reel x;
end M;
""", "3:3", "unknown type 'Reel'"),
    "wrong number of subscripts": ("""
model M
  Real x[2];
equation
  x[1, 1] = 1;
  x[2] = 2;
end M;
""", "5:3", "wrong number of subscripts for 'x': 2 given, it has 1 dimension"),
    "subscript out of range": ("""
model M
  Real x[2];
equation
  x[1] = 1;
  x[3] = 2;
end M;
""", "6:5", "subscript 3 is out of range for 'x' (size 2)"),
    "type mismatch in an equation": ("""
model M
  Real x;
equation
  x = true;
end M;
""", "5:3", "type mismatch in equation: the left side is Real, the right side is Boolean"),
    "array sizes differ": ("""
model M
  Real x[3];
equation
  x = {1, 2};
end M;
""", "5:3", "the two sides differ in size: [3] and [2]"),
    "unbalanced model": ("""
model M
  Real x;
  Real y;
equation
  der(x) = -x;
end M;
""", "2:1", "model M is not balanced: 1 equation for 2 unknowns"),
    "unbalanced component": ("""
model Part
  Real a;
  Real b;
equation
  a = 1;
end Part;
model Top
  Real z = 2;
  Part part;
end Top;
""", "10:3", "model Top is not balanced (2 equations for 3 unknowns): component 'part' "
             "(model Part) has 1 equation for 2 unknowns"),
    "reinit of a non-state": ("""
model M
  Real x(start = 1);
  Real y;
equation
  der(x) = -1;
  y = 2*x;
  when x < 0 then
    reinit(y, 1);
  end when;
end M;
""", "9:5", "reinit of 'y', which is not a state: it does not appear in der()"),
    "reinit outside when": ("""
model M
  Real x(start = 1);
equation
  der(x) = -1;
  reinit(x, 1);
end M;
""", "6:3", "reinit() is only allowed inside a when-clause"),
    "nested when": ("""
model M
  Real x(start = 0);
  discrete Real y;
equation
  der(x) = 1;
  when x > 1 then
    when x > 2 then
      y = 1;
    end when;
  end when;
end M;
""", "8:5", "when-equations cannot be nested"),
    "modifying a final element": ("""
model Gain
  final parameter Real k = 1;
  Real y = k*time;
end Gain;
model M
  Gain g(k = 2);
end M;
""", "7:10", "'k' is final and cannot be modified"),
    "modifying a final modification": ("""
model Gain
  parameter Real k = 1;
  Real y = k*time;
end Gain;
model Fixed
  extends Gain(final k = 3);
end Fixed;
model M
  Fixed f(k = 2);
end M;
""", "10:11", "'k' is final and cannot be modified"),
    "mismatched end name": ("""
model Battery
  Real v;
equation
  v = 1;
end Batery;
""", "6:1", "expected 'end Battery;' to close model Battery opened at 2:1"),
    "cyclic extends": ("""
model A
  extends B;
end A;
model B
  extends A;
end B;
""", "3:3", "cyclic extends: B extends A extends B"),
    "connecting two outputs": ("""
connector RealOutput = output Real;
block Source
  parameter Real value = 1;
  RealOutput y = value;
end Source;
model M
  Source a;
  Source b(value = 2);
equation
  connect(a.y, b.y);
end M;
""", "11:3", "cannot connect two outputs: 'a.y' and 'b.y' would both set the same signal"),
    "flow connected to a non-flow": ("""
connector Pin
  Real v;
  flow Real i;
end Pin;
connector Port
  Real v;
  Real i;
end Port;
model Node
  Pin pin;
  Port port;
equation
  connect(pin, port);
  pin.v = 1;
  port.v = 1;
  port.i = 0;
end Node;
""", "14:3", "cannot connect flow variable 'pin.i' to non-flow variable 'port.i'"),
    "assigning a function input": ("""
function f
  input Real x;
  output Real y;
algorithm
  x := x + 1;
  y := x;
end f;
model M
  Real z = f(time);
end M;
""", "6:3", "cannot assign to input 'x' of function f"),
    "missing package.mo": ("""
model M
  Lib.Sub.Part p;
end M;
""", "3:3", "directory '{lib}/Lib/Sub' is not a package: it has no package.mo"),
    "connect of a non-connector": ("""
model Part
  Real x = 1;
end Part;
model M
  Part a, b;
equation
  connect(a, b);
end M;
""", "8:11", "'a' is a model component (Part), not a connector"),
    "incompatible connectors": ("""
connector A
  Real x;
  Real y;
end A;
connector B
  Real x;
end B;
model M
  A a;
  B b;
equation
  connect(a, b);
  a.x = 1;
  a.y = 2;
end M;
""", "13:3", "connectors 'a' and 'b' are not compatible: 'y' has no counterpart"),
    "modifying a missing element": ("""
model Gain
  parameter Real k = 1;
end Gain;
model M
  Gain g(kk = 2);
end M;
""", "6:10", "class Gain has no element 'kk'"),
    "unknown attribute": ("""
model M
  Real x(begin = 1);
equation
  x = 1;
end M;
""", "3:10", "'begin' is not an attribute of Real (allowed: start, fixed, nominal, min, "
             "max, unit, displayUnit, quantity, stateSelect)"),
    "dimension not a parameter": ("""
model M
  Integer n = 2;
  Real x[n];
equation
  x = {1, 2};
end M;
""", "4:10", "an array dimension must be a parameter expression: 'n' is not a parameter or "
             "constant"),
    "for range not a parameter": ("""
model M
  Real x[3];
  Real t = time;
equation
  for i in 1:t loop
    x[i] = 1;
  end for;
end M;
""", "6:14", "a range bound must be a parameter expression: 't' is not a parameter or "
             "constant"),
    "der of an Integer": ("""
model M
  Integer n = 1;
  Real x;
equation
  x = der(n);
end M;
""", "6:7", "der() needs a Real argument; 'n' is Integer"),
    "wrong argument count": ("""
function f
  input Real x;
  output Real y;
algorithm
  y := x;
end f;
model M
  Real z = f(1, 2);
end M;
""", "9:12", "function f takes 1 argument, 2 given"),
    "unknown named argument": ("""
function f
  input Real x;
  output Real y;
algorithm
  y := x;
end f;
model M
  Real z = f(u = 1);
end M;
""", "9:14", "function f has no input named 'u'"),
    "redeclare of a non-replaceable component": ("""
model A
  Real y = 1;
end A;
model B
  Real y = 2;
end B;
model Holder
  A part;
end Holder;
model M
  Holder h(redeclare B part);
end M;
""", "12:12", "'part' is not replaceable (MLS 7.3.3)"),
    "partial model instantiated": ("""
partial model Base
  Real x;
end Base;
model M
  Base b;
end M;
""", "6:3", "component 'b' has partial class Base"),
    "if-equation branches of different size": ("""
model M
  Real x;
  Real y;
equation
  if time > 1 then
    x = 1;
    y = 2;
  else
    x = 2;
  end if;
end M;
""", "6:3", "the branches of an if-equation whose condition is not a parameter expression "
            "must have the same number of equations (they have 1, 2)"),
    "non-Boolean condition": ("""
model M
  Real x;
equation
  when time then
    x = 1;
  end when;
end M;
""", "5:8", "the when-condition must be Boolean, not Real"),
    "cyclic parameter dependency": ("""
model M
  parameter Integer a = b;
  parameter Integer b = a;
  Real x[a];
end M;
""", "3:3", "the value of 'a' depends on itself"),
    "equation in a function": ("""
function f
  input Real x;
  output Real y;
equation
  y = x;
end f;
model M
  Real z = f(1);
end M;
""", "6:3", "function f cannot have equations"),
    "stream variable connected to a potential variable": ("""
connector Fluid
  Real p;
  flow Real m;
  stream Real h;
end Fluid;
connector Heat
  Real p;
  flow Real m;
  input Real h;
end Heat;
model M
  Fluid a(p = 1, h = 2);
  Heat b(h = 3);
equation
  connect(a, b);
end M;
""", "16:3", "cannot connect stream variable 'a.h' to non-stream variable 'b.h' (MLS 15.1)"),
    "expandable connector member of unknown type": ("""
expandable connector Bus
end Bus;
model M
  Bus a;
  Bus b;
equation
  connect(a.x, b.y);
end M;
""", "8:3", "cannot tell the type of 'x' in expandable connector 'a': 'b.y' is not a "
            "component"),
    # (an inner of a class that is not partial is added, with a warning: MLS 5.4)
    "outer without inner of a partial class": ("""
partial model Environment
  Real g;
end Environment;
model Body
  outer Environment env;
  Real a = env.g;
end Body;
model M
  Body body;
end M;
""", "6:3", "no 'inner' declaration of 'env' encloses this 'outer' component, and its class "
            "Environment is partial, so none can be added (MLS 5.4)"),
    "parameter bound to a variable": ("""
model M
  Real x = time;
  parameter Real p = x;
end M;
""", "4:22", "the binding of parameter 'p' must be a parameter expression"),
    "model variable in a function": ("""
model R
  Real a;
end R;
function f
  input R r;
  output Real y;
algorithm
  y := r.a;
end f;
model M
  R r(a = 1);
  Real y = f(r);
end M;
""", "6:3", "variable 'r' of function f has type model R: only Real, Integer, Boolean, String, "
            "enumeration and record variables are supported in functions"),
    "when branches assigning different variables": ("""
model M
  discrete Real a(start = 0);
  discrete Real b(start = 0);
equation
  when time > 1 then
    a = 1;
    b = 1;
  elsewhen time > 2 then
    a = 2;
  end when;
end M;
""", "6:3", "every branch of a when-equation must assign the same variables (a, b in the "
            "first)"),
    "flow variable outside a connector": ("""
model M
  flow Real i;
equation
  i = 1;
end M;
""", "3:3", "'i' is a flow variable outside a connector"),
    "unconnected input": ("""
connector RealInput = input Real;
connector RealOutput = output Real;
block Gain
  parameter Real k = 2;
  RealInput u;
  RealOutput y;
equation
  y = k*u;
end Gain;
model M
  Gain gain;
  Real z = gain.y;
end M;
""", "11:1", "model M is not balanced: 2 equations for 3 unknowns; unconnected inputs: gain.u"),
    "syntax error": ("""
model M
  Real x
  Real y;
end M;
""", "4:3", "expected ';' after declaration, found 'Real'"),
    "unterminated string": ("""
model M
  String s = "open;
end M;
""", "3:14", "unterminated string"),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_rejected(name, tmp_path):
    source, place, message = CASES[name]
    path = tmp_path / "Test.mo"
    path.write_text(source)
    library = tmp_path / "libs"
    (library / "Lib" / "Sub").mkdir(parents=True)
    (library / "Lib" / "package.mo").write_text("package Lib\nend Lib;\n")
    with pytest.raises(CompilerError) as caught:
        api.flatten_model(path, libs=[library], environ={})
    error = caught.value
    assert error.message == message.format(lib=library)
    line, col = map(int, place.split(":"))
    assert (error.span.line, error.span.col) == (line, col)
    assert error.span.file == str(path)
    assert str(error) == f"{path}:{line}:{col}: {error.message}"


def test_there_are_at_least_25_rejected_models():
    assert len(CASES) >= 25
