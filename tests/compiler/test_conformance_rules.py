"""The legality rules of the Modelica specification (MLS 3.6) that flattening enforces.

Each rule has an invalid model, refused at the place given with a message naming the rule,
and a valid model close to it that must still flatten (so that the check cannot fire
falsely).
"""
from __future__ import annotations

import pytest

from compiler import api
from compiler.errors import CompilerError

# name: (invalid model, line:col of the error, the message's start, a valid model)
RULES = {
    # ---------------------------------------------------------------- MLS 4.7 specialized classes
    "record with equations": ("""
model M
  record R
    Real x;
  equation
    x = 1;
  end R;
  R r;
end M;
""", "6:5", "a record may not contain equations (MLS 4.7)", """
model M
  record R
    Real x;
  end R;
  R r;
equation
  r.x = 1;
end M;
"""),
    "record with a protected element": ("""
model M
  record R
    Real x = 1;
  protected
    Real y = 2;
  end R;
  R r;
end M;
""", "6:5", "a record may not contain protected elements (MLS 4.7)", """
model M
  record R
    Real x = 1;
    Real y = 2;
  end R;
  R r;
end M;
"""),
    "output in a record": ("""
model M
  record R
    output Real x = 1;
  end R;
  R r;
end M;
""", "4:5", "an element of a record may not be output (MLS 4.7)", """
model M
  record R
    Real x = 1;
  end R;
  output R r;
end M;
"""),
    "connector with an algorithm": ("""
model M
  connector C
    Real e;
    flow Real f;
  algorithm
    e := 1;
  end C;
  C c;
end M;
""", "7:5", "a connector may not contain algorithms (MLS 4.7)", """
model M
  connector C
    Real e;
    flow Real f;
  end C;
  C c;
algorithm
  c.e := 1;
end M;
"""),
    "inner in a connector": ("""
model M
  connector C
    inner Real e = 1;
    flow Real f;
  end C;
  C c;
end M;
""", "4:5", "an element of a connector may not be inner (MLS 4.7)", """
model M
  connector C
    Real e = 1;
    flow Real f;
  end C;
  C c;
end M;
"""),
    "parameter in a package": ("""
model M
  package P
    parameter Real k = 2;
  end P;
  Real x = P.k;
end M;
""", "4:5", "a package may only contain classes and constants, not 'k' (MLS 4.7)", """
model M
  package P
    constant Real k = 2;
  end P;
  Real x = P.k;
end M;
"""),
    "constant in an operator": ("""
model M
  operator record OR
    Real x;
    operator '+'
      constant Real offset = 1;
      function add
        input OR a;
        input OR b;
        output OR c;
      algorithm
        c := OR(a.x + b.x);
      end add;
    end '+';
  end OR;
  OR a = OR(1);
  OR b = a + a;
end M;
""", "6:7", "an operator may only contain functions, not 'offset' (MLS 4.7)", """
model M
  operator record OR
    Real x;
    operator '+'
      function add
        input OR a;
        input OR b;
        output OR c;
      algorithm
        c := OR(a.x + b.x);
      end add;
    end '+';
  end OR;
  OR a = OR(1);
  OR b = a + a;
end M;
"""),
    "operator record extended by a long class": ("""
model M
  operator record OR
    Real x;
  end OR;
  operator record Scaled
    extends OR(x = 2);
  end Scaled;
  Scaled s;
end M;
""", "7:5", "M.OR is an operator record, which only short class definitions may extend "
            "(MLS 4.7)", """
model M
  operator record OR
    Real x;
  end OR;
  operator record Scaled = OR(x = 2);
  Scaled s;
end M;
"""),
    # ----------------------------------------------------------------------- MLS 12.2 functions
    "function with two algorithm sections": ("""
model M
  function f
    input Real u;
    output Real y;
  protected
    Real z;
  algorithm
    z := u;
  algorithm
    y := z;
  end f;
  Real x = f(time);
end M;
""", "11:5", "function M.f has 2 algorithm sections; a function has at most one (MLS 12.2)", """
model M
  function f
    input Real u;
    output Real y;
  protected
    Real z;
  algorithm
    z := u;
    y := z;
  end f;
  Real x = f(time);
end M;
"""),
    "outer in a function": ("""
model M
  function f
    input Real u;
    output Real y;
  protected
    outer Real k;
  algorithm
    y := u*k;
  end f;
  inner Real k = 2;
  Real x = f(time);
end M;
""", "7:5", "an element of a function may not be outer (MLS 12.2)", """
model M
  function f
    input Real u;
    input Real k;
    output Real y;
  algorithm
    y := u*k;
  end f;
  Real k = 2;
  Real x = f(time, k);
end M;
"""),
    # ---------------------------------------------------------------- MLS 7.1.3 kinds of bases
    "record extending a model": ("""
model M
  model Base
    Real x = 1;
  end Base;
  record R
    extends Base;
  end R;
  R r;
end M;
""", "7:5", "a record cannot extend model M.Base (MLS 7.1.3)", """
model M
  model Base
    Real x = 1;
  end Base;
  model Derived
    extends Base;
  end Derived;
  Derived d;
end M;
"""),
    "block extending a model": ("""
model M
  model Base
    Real x = 1;
  end Base;
  block B
    extends Base;
  end B;
  B b;
end M;
""", "7:5", "a block cannot extend model M.Base (MLS 7.1.3)", """
model M
  block Base
    output Real x = 1;
  end Base;
  model Derived
    extends Base;
  end Derived;
  Derived d;
end M;
"""),
    "connector extending a type and a record": ("""
model M
  connector C
    extends Real;
  end C;
  record R
    Real x = 1;
  end R;
  model Wrong
    extends R;
    extends C;
  end Wrong;
  Wrong w;
end M;
""", "11:5", "a model cannot extend connector M.C (MLS 7.1.3)", """
model M
  connector C
    extends Real;
  end C;
  record R
    Real x = 1;
  end R;
  connector D
    extends R;
  end D;
  model Right
    extends R;
  end Right;
  Right r;
end M;
"""),
    # ------------------------------------------------------- MLS 4.6 short classes, combinations
    "short class of a partial class": ("""
model M
  partial model A
    Real x = 1;
  end A;
  model B = A;
  B b;
end M;
""", "7:3", "component 'b' has partial class M.B", """
model M
  model A
    Real x = 1;
  end A;
  model B = A;
  B b;
end M;
"""),
    "array class with a component": ("""
model M
  model A
    Real x = 1;
  end A;
  model A3 = A[3];
  model B
    extends A3;
    Real y = 2;
  end B;
  B b;
end M;
""", "9:5", "M.B extends M.A3, a simple type, array class or class with a prefix, and may not "
            "declare components or protected elements (MLS 4.6.2)", """
model M
  model A
    Real x = 1;
  end A;
  model A3 = A[3];
  model B
    A3 a;
    Real y = 2;
  end B;
  B b;
end M;
"""),
    "simple type with another base": ("""
model M
  type T
    extends Real;
    extends Other;
  end T;
  type Other = Real(unit = "m");
  T t = 1;
end M;
""", "5:5", "M.T extends Real, a simple type, array class or class with a prefix, and may "
            "extend nothing else but empty classes (MLS 4.6.2)", """
model M
  type T
    extends Real;
    extends Empty;
  end T;
  class Empty
  end Empty;
  T t = 1;
end M;
"""),
    # ------------------------------------------------------ MLS 4.9 predefined types, enumerations
    "component named like a predefined type": ("""
model M
  Integer Real = 2;
end M;
""", "3:3", "'Real' is the name of a predefined type and cannot be declared (MLS 4.9)", """
model M
  Integer real = 2;
end M;
"""),
    "class named like a predefined type": ("""
model M
  class Boolean
    Real x = 1;
  end Boolean;
  Boolean b;
end M;
""", "3:3", "'Boolean' is the name of a predefined type and cannot be declared (MLS 4.9)", """
model M
  class Bool
    Real x = 1;
  end Bool;
  Bool b;
end M;
"""),
    "duplicate enumeration literal": ("""
model M
  type E = enumeration(a, b, a);
  E e = E.a;
end M;
""", "3:30", "enumeration literal 'a' is declared twice (MLS 4.9.5)", """
model M
  type E = enumeration(a, b, c);
  E e = E.a;
end M;
"""),
    "enumeration literal named like an attribute": ("""
model M
  type E = enumeration(low, max);
  E e = E.low;
end M;
""", "3:29", "'max' is an attribute of enumeration types and cannot be a literal (MLS 4.9.5)", """
model M
  type E = enumeration(low, maximum);
  E e = E.low;
end M;
"""),
    # ------------------------------------------------------------------ MLS 4.4.2 type prefixes
    "parameter model component": ("""
model M
  model A
    Real x = 1;
  end A;
  parameter A a;
end M;
""", "6:3", "type prefix 'parameter' cannot be applied to 'a', a component of model M.A: only "
            "components of types, records and connectors have type prefixes (MLS 4.4.2.1)", """
model M
  record A
    Real x = 1;
  end A;
  parameter A a;
end M;
"""),
    "flow connector with flow elements": ("""
model M
  connector C
    Real e;
    flow Real f;
  end C;
  connector Outer
    flow C c;
  end Outer;
  Outer o;
end M;
""", "8:5", "'c' is declared flow, but its element 'f' is flow: a structured component with "
            "flow, input or output may not have elements with these prefixes (MLS 4.4.2.1)", """
model M
  record C
    Real e;
    Real f;
  end C;
  connector Outer
    Real p;
    flow C c;
    flow Real g;
  end Outer;
  Outer o;
equation
  o.p = 1;
end M;
"""),
    "output connector with output elements": ("""
model M
  connector C
    output Real x;
  end C;
  output C c(x = 1);
end M;
""", "6:3", "'c' is declared output, but its element 'x' is output: a structured component "
            "with flow, input or output may not have elements with these prefixes "
            "(MLS 4.4.2.1)", """
model M
  connector C
    Real x;
  end C;
  output C c(x = 1);
end M;
"""),
    "flow Boolean": ("""
model M
  connector C
    Real e;
    flow Boolean f;
  end C;
  C c;
equation
  c.e = 1;
end M;
""", "5:5", "flow variable 'f' is Boolean; a flow variable must be a subtype of Real or "
            "Integer (MLS 4.4.2.1)", """
model M
  connector C
    Real e;
    flow Real f;
  end C;
  C c;
equation
  c.e = 1;
end M;
"""),
    "input parameter": ("""
block B
  input parameter Real k = 1;
  output Real y = k;
end B;
""", "3:3", "'k' is both input and parameter (MLS 4.4.2.1)", """
block B
  parameter Real k = 1;
  output Real y = k;
end B;
"""),
}


def _flatten(source: str, tmp_path):
    path = tmp_path / "Test.mo"
    path.write_text(source)
    return path, api.flatten_model(path, environ={})


@pytest.mark.parametrize("name", sorted(RULES))
def test_invalid_model_is_refused_for_its_rule(name, tmp_path):
    source, place, message, _ = RULES[name]
    with pytest.raises(CompilerError) as caught:
        _flatten(source, tmp_path)
    error = caught.value
    assert error.message == message
    line, col = map(int, place.split(":"))
    assert (error.span.line, error.span.col) == (line, col)


@pytest.mark.parametrize("name", sorted(RULES))
def test_valid_model_close_to_it_is_accepted(name, tmp_path):
    _, _, _, valid = RULES[name]
    _, flat = _flatten(valid, tmp_path)
    assert flat.variables or flat.equations
