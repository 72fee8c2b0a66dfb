"""The legality rules of the Modelica specification (MLS 3.6) that flattening enforces.

Each rule has an invalid model, refused at the place given with a message naming the rule,
and a valid model close to it that must still flatten (so that the check cannot fire
falsely).
"""
from __future__ import annotations

import pytest

from compiler import api
from compiler.errors import CompilerError

# an overdetermined record (its equalityConstraint has one residue), for connectors
_OVERDETERMINED_RECORD = """  record R
    Real a;
    function equalityConstraint
      input R r1;
      input R r2;
      output Real residue[1];
    algorithm
      residue := {r1.a - r2.a};
    end equalityConstraint;
  end R;
"""

# a connector holding it and one flow variable, balanced, made a root
_ROOTED_CONNECTOR = """
model M
""" + _OVERDETERMINED_RECORD + """  connector C
    R r;
    flow Real f;
  end C;
  C c;
equation
  c.r.a = 1;
  Connections.root(c.r);
end M;
"""

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
    Real q[2];
    flow C c;
    flow Real g;
  end Outer;
  Outer o;
equation
  o.p = 1;
  o.q = {2, 3};
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
    "flow Integer": ("""
model M
  connector C
    Real e;
    flow Integer f;
  end C;
  C c;
equation
  c.e = 1;
end M;
""", "5:5", "flow variable 'f' is Integer; a flow variable must be a subtype of Real "
            "(MLS 4.4.2.2)", """
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
    # ------------------------------------------------------------------- MLS 4.1 visibility
    "protected component read with dot notation": ("""
model M
  model A
    Real y = x;
  protected
    Real x = 2;
  end A;
  A a;
  Real z = a.x;
end M;
""", "9:14", "'x' is protected in M.A and cannot be accessed with dot notation (MLS 4.1)", """
model M
  model A
    Real y = x;
  protected
    Real x = 2;
  end A;
  A a;
  Real z = a.y;
end M;
"""),
    "protected class named with dot notation": ("""
model M
  package P
  protected
    constant Real k = 3;
  end P;
  Real z = P.k;
end M;
""", "7:14", "'k' is protected in M.P and cannot be accessed with dot notation (MLS 4.1)", """
model M
  package P
    constant Real k = 3;
  end P;
  Real z = P.k;
end M;
"""),
    "element of a protected extends": ("""
model M
  model A
    Real x = 1;
  end A;
  model B
  protected
    extends A;
  end B;
  B b;
  Real z = b.x;
end M;
""", "11:14", "'x' is protected in M.B and cannot be accessed with dot notation (MLS 4.1)", """
model M
  model A
    Real x = 1;
  end A;
  model B
    extends A;
  end B;
  B b;
  Real z = b.x;
end M;
"""),
    "protected component modified from outside": ("""
model M
  model A
  protected
    parameter Real k = 2;
  end A;
  A a(k = 3);
end M;
""", "7:7", "'k' is protected in M.A and cannot be modified from outside (in the modification "
            "of 'a', MLS 4.1)", """
model M
  model A
  protected
    parameter Real k = 2;
  end A;
  model B
    extends A(k = 3);
    Real y = k;
  end B;
  B b;
end M;
"""),
    # ---------------------------------------------------------- MLS 4.4.4-4.5 variability
    "cyclic parameter bindings": ("""
model M
  parameter Real p = 2*q;
  parameter Real q = sin(p);
end M;
""", "3:3", "the binding of parameter 'p' depends on 'p' itself through 'q': bindings of "
            "constants and parameters must be acyclic (MLS 4.4.4)", """
model M
  parameter Real p = 2*q;
  parameter Real q = sin(1);
end M;
"""),
    "constant without binding": ("""
model M
  constant Real c;
  Real x = c;
end M;
""", "3:3", "constant 'c' has no binding equation: a constant needs one (MLS 4.5.1)", """
model M
  constant Real c = 1;
  Real x = c;
end M;
"""),
    "constant bound to a parameter": ("""
model M
  parameter Real p = 1;
  constant Real c = 2*p;
end M;
""", "4:21", "the binding of constant 'c' is a parameter expression; a constant's binding must "
             "be a constant expression (MLS 3.8.2)", """
model M
  constant Real p = 1;
  parameter Real c = 2*p;
end M;
"""),
    "Integer bound to a continuous function result": ("""
model M
  function f
    input Real u;
    output Integer y;
  algorithm
    y := if u > 0.5 then 1 else 0;
  end f;
  Integer i = f(time);
end M;
""", "9:15", "'i' is a discrete-time variable, but its binding is a continuous-time expression "
             "(MLS 3.8.5)", """
model M
  function f
    input Real u;
    output Integer y;
  algorithm
    y := if u > 0.5 then 1 else 0;
  end f;
  Integer i = f(floor(time));
end M;
"""),
    "discrete Real not assigned in a when-clause": ("""
model M
  discrete Real x = 1;
end M;
""", "3:3", "'x' is declared discrete but is not assigned in a when-clause (MLS 4.5.3)", """
model M
  discrete Real x(start = 0, fixed = true);
equation
  when sample(0, 0.1) then
    x = pre(x) + 1;
  end when;
end M;
"""),
    "when-clause assigning a variable of a component": ("""
model M
  model Inner
    discrete Real x(start = 0, fixed = true);
  end Inner;
  Inner part;
equation
  when sample(0, 0.1) then
    part.x = 1;
  end when;
end M;
""", "9:5", "a when-clause assigns 'part.x', a variable of the component 'part': variables "
            "assigned in when-clauses must belong to the class of the clause (MLS 4.5.3)", """
model M
  model Inner
    discrete Real x(start = 0, fixed = true);
  equation
    when sample(0, 0.1) then
      x = 1;
    end when;
  end Inner;
  Inner part;
end M;
"""),
    "der of a discrete variable": ("""
model M
  discrete Real d(start = 0, fixed = true);
  Real y = der(d);
equation
  when sample(0, 1) then
    d = pre(d) + 1;
  end when;
end M;
""", "4:12", "der() of 'd', a discrete-time variable (MLS 4.5.3)", """
model M
  discrete Real d(start = 0, fixed = true);
  Real x(start = 0, fixed = true);
equation
  der(x) = d;
  when sample(0, 1) then
    d = pre(d) + 1;
  end when;
end M;
"""),
    "conditional component used in an equation": ("""
model M
  parameter Boolean use = true;
  Real x if use;
equation
  x = 2;
end M;
""", "6:3", "'x' is a conditional component: it may only be modified or used in connections "
            "(MLS 4.4.5)", """
model M
  connector C = Real;
  parameter Boolean use = true;
  C c if use;
  C d;
equation
  connect(c, d);
  d = 2;
end M;
"""),
    "time in a record": ("""
model M
  record R
    Real t = time;
  end R;
  R r;
end M;
""", "4:14", "'time' is only available in models and blocks, not in record M.R (MLS 3.6.7)", """
model M
  record R
    Real t;
  end R;
  R r(t = time);
end M;
"""),
    # ------------------------------------------------------------ MLS 3.4-3.7, 10.6 types
    "enumeration bound to an Integer": ("""
model M
  type E = enumeration(a, b);
  parameter E e = 1;
end M;
""", "4:19", "the binding of M.E 'e' is of type Integer (MLS 10.6)", """
model M
  type E = enumeration(a, b);
  parameter E e = E.a;
  parameter Integer i = Integer(e);
end M;
"""),
    "Integer bound to a division": ("""
model M
  parameter Integer n = 4/2;
end M;
""", "3:25", "the binding of Integer 'n' is a Real expression (MLS 10.6)", """
model M
  parameter Integer n = div(4, 2);
  parameter Real r = 4/2;
end M;
"""),
    "enumeration compared with a number": ("""
model M
  type E = enumeration(a, b);
  parameter E e = E.b;
  parameter Boolean high = e > 1;
end M;
""", "5:28", "cannot compare M.E with Integer: relations need operands of the same type "
             "(MLS 3.5)", """
model M
  type E = enumeration(a, b);
  parameter E e = E.b;
  parameter Boolean high = e > E.a;
end M;
"""),
    "arithmetic on a Boolean": ("""
model M
  Real t;
equation
  t = 2*terminal();
end M;
""", "5:7", "'*' needs numeric operands, not Boolean (MLS 3.4)", """
model M
  Real t;
equation
  t = 2*(if terminal() then 1 else 0);
end M;
"""),
    "sign of a Boolean": ("""
model M
  Real s = sign(true);
end M;
""", "3:12", "sign() needs numeric arguments, not Boolean (MLS 3.7)", """
model M
  Real s = sign(-2);
end M;
"""),
    "assert with a number for a message": ("""
model M
equation
  assert(time < 2, 42);
end M;
""", "4:3", "the message of assert() must be a String, not Integer (MLS 8.3.7)", """
model M
equation
  assert(time < 2, "42");
end M;
"""),
    "cardinality of a variable": ("""
model M
  Real x = 1;
  Integer n = cardinality(x);
end M;
""", "4:15", "cardinality() needs a connector; 'x' is not one (MLS 3.7.4)", """
model M
  connector C
    Real e;
    flow Real f;
  end C;
  C c;
  Integer n = cardinality(c);
equation
  c.e = 1;
end M;
"""),
    # ---------------------------------------------------------- MLS 5.3.2, 13.2 lookup, imports
    "element of a model named with dot notation": ("""
model M
  model A
    Real x = 1;
    model B
      Real y = 2;
    end B;
  end A;
  A.B b;
end M;
""", "9:3", "'B' is looked up inside model M.A, which is no package: only its encapsulated "
            "elements can be named so (MLS 5.3.2)", """
model M
  model A
    Real x = 1;
    encapsulated model B
      Real y = 2;
    end B;
  end A;
  A.B b;
end M;
"""),
    "constant of a partial package": ("""
model M
  partial package P
    constant Real k = 2;
  end P;
  Real x = P.k;
end M;
""", "6:14", "'k' is looked up inside M.P, which is partial (MLS 5.3.2)", """
model M
  partial package P
    constant Real k = 2;
  end P;
  package Q
    extends P;
  end Q;
  Real x = Q.k;
end M;
"""),
    "function named through an array of components": ("""
model M
  model A
    function f
      input Real u;
      output Real y = 2*u;
    algorithm
    end f;
  end A;
  A a[2];
  Real x = a.f(1);
end M;
""", "11:12", "'a' is an array: a function is named through scalar components only, "
              "not through arrays or their elements (MLS 5.3.2)", """
model M
  model A
    function f
      input Real u;
      output Real y = 2*u;
    algorithm
    end f;
  end A;
  A a;
  Real x = a.f(1);
end M;
"""),
    "function named through an element of an array of components": ("""
model M
  model A
    function f
      input Real u;
      output Real y = 2*u;
    algorithm
    end f;
  end A;
  A a[2];
  Real x = a[1].f(1);
end M;
""", "11:12", "'a' is an array: a function is named through scalar components only, "
              "not through arrays or their elements (MLS 5.3.2)", """
model M
  model A
    function f
      input Real u;
      output Real y = 2*u;
    algorithm
    end f;
  end A;
  A a[2];
  Real x = A.f(1);
end M;
"""),
    "two imports of one name": ("""
package P
  constant Real k = 1;
  package Q
    constant Real k = 2;
  end Q;
  model M
    import P.k;
    import k = P.Q.k;
    Real x = k;
  end M;
end P;
""", "9:5", "two imports define the name 'k' (MLS 13.2.2)", """
package P
  constant Real k = 1;
  package Q
    constant Real k = 2;
  end Q;
  model M
    import P.k;
    import kq = P.Q.k;
    Real x = k + kq;
  end M;
end P;
"""),
    "a name found by two unqualified imports": ("""
package P
  package A
    constant Real k = 1;
  end A;
  package B
    constant Real k = 2;
  end B;
  model M
    import P.A.*;
    import P.B.*;
    Real x = k;
  end M;
end P;
""", "11:5", "'k' is found by two unqualified imports (MLS 13.2.1)", """
package P
  package A
    constant Real k = 1;
  end A;
  package B
    constant Real k = 2;
    constant Real j = 3;
  end B;
  model M
    import P.A.*;
    import P.B.j;
    Real x = k + j;
  end M;
end P;
"""),
    "import from a model": ("""
package P
  model A
    Real x = 1;
    encapsulated model B
      Real y = 2;
    end B;
  end A;
  model M
    import P.A.B;
    B b;
  end M;
end P;
""", "10:5", "import from model P.A: only packages and their elements can be imported "
             "(MLS 13.2.2)", """
package P
  package A
    model B
      Real y = 2;
    end B;
  end A;
  model M
    import P.A.B;
    B b;
  end M;
end P;
"""),
    # ------------------------------------------------------------------- MLS 5.4 inner/outer
    "modified outer component": ("""
model M
  model A
    outer parameter Real k = 2;
    Real y = k;
  end A;
  inner parameter Real k = 1;
  A a;
end M;
""", "4:28", "outer component 'k' cannot be modified; modify the inner one (MLS 5.4)", """
model M
  model A
    outer parameter Real k;
    Real y = k;
  end A;
  inner parameter Real k = 2;
  A a;
end M;
"""),
    "inner of another type than its outer": ("""
model M
  model A
    outer Integer k;
    Real y = k;
  end A;
  inner Real k = 1;
  A a;
end M;
""", "4:5", "the inner 'k' is not a subtype of the outer one: Real is not Integer (MLS 5.4)", """
model M
  model A
    outer Integer k;
    Real y = k;
  end A;
  inner Integer k = 1;
  A a;
end M;
"""),
    "inner with other sizes than its outer": ("""
model M
  model A
    outer Real k[2];
    Real y = k[1];
  end A;
  inner Real k[3] = {1, 2, 3};
  A a;
end M;
""", "4:5", "outer component 'k' has sizes [2], the inner one [3] (MLS 5.4)", """
model M
  model A
    outer Real k[3];
    Real y = k[1];
  end A;
  inner Real k[3] = {1, 2, 3};
  A a;
end M;
"""),
    # ----------------------------------------------------------------- MLS 7.3 redeclarations
    "redeclared component not a subtype": ("""
model M
  model A
    Real x = 1;
  end A;
  model B
    Real x = 2;
    Real y = 3;
  end B;
  model Holder
    replaceable B part;
  end Holder;
  Holder h(redeclare A part);
end M;
""", "13:12", "M.A is not a subtype of the constraining type of 'part', M.B: M.A has no "
              "public element 'y' of M.B (MLS 7.3.2)", """
model M
  model A
    Real x = 1;
  end A;
  model B
    Real x = 2;
    Real y = 3;
  end B;
  model Holder
    replaceable A part;
  end Holder;
  Holder h(redeclare B part);
end M;
"""),
    "replaceable class not a subtype of its constrainedby": ("""
model M
  model A
    Real x = 1;
    Real y = 2;
  end A;
  model B
    Real x = 3;
  end B;
  replaceable model C = B constrainedby A;
  C c;
end M;
""", "10:3", "M.B is not a subtype of its constraining type, M.A: M.B has no public element "
             "'y' of M.A (MLS 7.3.2)", """
model M
  model A
    Real x = 1;
  end A;
  model B
    Real x = 3;
    Real y = 2;
  end B;
  replaceable model C = B constrainedby A;
  C c;
end M;
"""),
    "redeclaration of a final class": ("""
model M
  model A
    final replaceable model B
      Real x = 2;
    end B;
    B b;
  end A;
  model C
    Real x = 3;
  end C;
  A a(redeclare model B = C);
end M;
""", "12:7", "'B' is final and cannot be redeclared (MLS 7.3.3)", """
model M
  model A
    replaceable model B
      Real x = 2;
    end B;
    B b;
  end A;
  model C
    Real x = 3;
  end C;
  A a(redeclare model B = C);
end M;
"""),
    "redeclaration of a constant": ("""
model M
  model A
    replaceable constant Real k = 1;
  end A;
  A a(redeclare Real k = 2);
end M;
""", "6:7", "'k' is a constant and cannot be redeclared (MLS 7.3.3)", """
model M
  model A
    constant Real k = 1;
  end A;
  A a(k = 2);
end M;
"""),
    "protected class redeclared public": ("""
model M
  model A
  protected
    replaceable model Part
      Real x = 2;
    end Part;
  end A;
  model B
    extends A;
    redeclare model Part
      Real x = 3;
    end Part;
    Part p;
  end B;
  B b;
end M;
""", "11:5", "'Part' is protected and cannot be redeclared public (MLS 7.3.3)", """
model M
  model A
  protected
    replaceable model Part
      Real x = 2;
    end Part;
  end A;
  model B
    extends A;
  protected
    redeclare model Part
      Real x = 3;
    end Part;
  public
    Part p;
  end B;
  B b;
end M;
"""),
    # ---------------------------------------------------------------- MLS 4.7, 7.1, 12.2 more
    "block connector without direction": ("""
model M
  connector Pin
    Real v;
    flow Real i;
  end Pin;
  block B
    Pin p;
  end B;
  B b;
end M;
""", "4:5", "'v' of connector 'b.p' of block M.B is neither input nor output: the connectors "
            "of a block carry signals only (MLS 4.7)", """
model M
  connector Pin
    Real v;
    flow Real i;
  end Pin;
  model B
    Pin p;
  equation
    p.v = 1;
  end B;
  B b;
end M;
"""),
    "public function variable neither input nor output": ("""
model M
  function f
    input Real u;
    output Real y;
    Real z;
  algorithm
    z := u;
    y := z;
  end f;
  Real x = f(time);
end M;
""", "6:5", "public variable 'z' of function M.f is neither input nor output: the public "
            "variables of a function are its formal parameters (MLS 12.2)", """
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
    "replaceable base class": ("""
model M
  replaceable model A
    Real x = 1;
  end A;
  extends A;
end M;
""", "6:3", "the base class M.A is replaceable; a base class must not be (MLS 7.1.4)", """
model M
  model A
    Real x = 1;
  end A;
  extends A;
end M;
"""),
    "inherited class declared again differently": ("""
model M
  model Base
    model A
      Real x = 1;
    end A;
  end Base;
  extends Base;
  model A
    Real x = 2;
  end A;
  A a;
end M;
""", "9:3", "class 'A' is inherited and declared again differently (M.Base.A and M.A): "
            "elements of the same name must be identical (MLS 7.1)", """
model M
  model Base
    model A
      Real x = 1;
    end A;
  end Base;
  extends Base;
  model A
    Real x = 1;
  end A;
  A a;
end M;
"""),
    "extending the package of an operator record": ("""
model M
  package A
    operator record OR
      Real x;
    end OR;
  end A;
  package B
    extends A;
    constant Real k = 1;
  end B;
  Real x = B.k;
end M;
""", "9:5", "M.A encloses an operator record; a class enclosing one cannot be extended "
            "(MLS 4.7)", """
model M
  package A
    record R
      Real x;
    end R;
  end A;
  package B
    extends A;
    constant Real k = 1;
  end B;
  Real x = B.k;
end M;
"""),
    # ------------------------------------------------------------------- MLS 9 connections
    "connector reference through two components": ("""
model M
  connector C
    Real e;
    flow Real f;
  end C;
  model A
    model B
      C c1;
      C c2;
    end B;
    B b;
  end A;
  A a;
equation
  connect(a.b.c1, a.b.c2);
  a.b.c1.e = 1;
end M;
""", "16:11", "'a.b.c1' is no connector of this class nor of one of its components: connect "
              "takes c1.c2...cn or m.c (MLS 9.1)", """
model M
  connector C
    Real e;
    flow Real f;
  end C;
  model B
    C c1;
    C c2;
  equation
    connect(c1, c2);
  end B;
  model A
    B b;
  end A;
  A a;
end M;
"""),
    "Real connected to Integer": ("""
model M
  connector A
    Real e;
    flow Real f;
  end A;
  connector B
    Integer e;
    flow Real f;
  end B;
  A a;
  B b;
equation
  connect(a, b);
  a.e = 1;
end M;
""", "14:3", "cannot connect 'a.e' (Real) to 'b.e' (Integer): matched variables have the "
             "same primitive type (MLS 9.3)", """
model M
  connector A
    Real e;
    flow Real f;
  end A;
  connector B
    Real e;
    flow Real f;
  end B;
  A a;
  B b;
equation
  connect(a, b);
end M;
"""),
    "input connected to a variable without direction": ("""
model M
  connector A
    input Real x;
  end A;
  connector B
    Real x;
  end B;
  model Holder
    A a;
    B b;
  end Holder;
  Holder h;
equation
  connect(h.a, h.b);
  h.a.x = 1;
end M;
""", "15:3", "cannot connect input 'h.a.x' to 'h.b.x', which is neither input nor output "
             "(MLS 9.3)", """
model M
  connector A
    input Real x;
  end A;
  connector B
    output Real x;
  end B;
  model Holder
    A a;
    B b;
  end Holder;
  Holder h;
equation
  connect(h.a, h.b);
  h.b.x = 1;
end M;
"""),
    "connected parameters that differ": ("""
model M
  connector C
    Real e;
    flow Real f;
    parameter Real k;
  end C;
  C c1(k = 1), c2(k = 2);
equation
  connect(c1, c2);
  c1.e = 1;
end M;
""", "10:3", "connected parameters 'c1.k' and 'c2.k' differ (1.0 and 2.0); they must be equal "
             "(MLS 9.3)", """
model M
  connector C
    Real e;
    flow Real f;
    parameter Real k;
  end C;
  C c1(k = 1), c2(k = 1);
equation
  connect(c1, c2);
end M;
"""),
    "two sources in one connection set": ("""
model M
  connector RealInput = input Real;
  connector RealOutput = output Real;
  model A
    model B
      RealOutput y = 1;
      RealInput u;
    end B;
    B b;
    RealInput u;
  equation
    connect(u, b.u);
    connect(b.u, b.y);
  end A;
  A a(u = 2);
end M;
""", "14:5", "the connection set of 'a.u' and 'a.b.y' has 2 sources of its signal (inside "
             "outputs or outside inputs); it may have one (MLS 9.3)", """
model M
  connector RealInput = input Real;
  connector RealOutput = output Real;
  model A
    model B
      RealOutput y = 1;
      RealInput u;
    end B;
    B b;
    RealOutput y;
  equation
    connect(y, b.u);
    connect(b.u, b.y);
  end A;
  A a;
end M;
"""),
    "parameter connector": ("""
model M
  connector C
    output Real x;
  end C;
  parameter C c(x = 1);
end M;
""", "6:3", "connector component 'c' cannot be parameter (MLS 9.3)", """
model M
  connector C
    output Real x;
  end C;
  C c(x = 1);
end M;
"""),
    "connector with more potentials than flows": ("""
model M
  record R
    Real a;
    Real b;
  end R;
  connector C
    R r;
    flow Real f;
  end C;
  C c;
equation
  c.r.a = 1;
  c.r.b = 2;
end M;
""", "11:3", "connector M.C of 'c' has 1 flow variable but 2 potential ones; they must be as "
             "many (MLS 9.3.1)", """
model M
  record R
    Real a;
    Real b;
  end R;
  connector C
    R r;
    flow Real f[2];
  end C;
  C c;
equation
  c.r.a = 1;
  c.r.b = 2;
end M;
"""),
    "flow in an expandable connector": ("""
model M
  expandable connector Bus
    Real e;
    flow Real f;
  end Bus;
  Bus bus;
end M;
""", "5:5", "an expandable connector may not contain flow variables, only connectors with "
            "them (MLS 9.1.3)", """
model M
  connector Pin
    Real v;
    flow Real i;
  end Pin;
  expandable connector Bus
    Pin p;
  end Bus;
  Bus bus;
equation
  bus.p.v = 1;
end M;
"""),
    "modified variable of an expandable connector": ("""
model M
  expandable connector Bus
    parameter Integer n = 1;
    Real x;
  end Bus;
  connector RealOutput = output Real;
  RealOutput y = time;
  Bus bus(n = 2, x = 3);
equation
  connect(y, bus.x);
end M;
""", "9:18", "'bus.x' is a potentially present element of expandable connector M.Bus: it "
             "cannot be modified (MLS 9.1.3)", """
model M
  expandable connector Bus
    parameter Integer n = 1;
    Real x;
  end Bus;
  connector RealOutput = output Real;
  RealOutput y = time;
  Bus bus(n = 2);
equation
  connect(y, bus.x);
end M;
"""),
    "expandable connector member that only inputs read": ("""
model M
  expandable connector Bus
  end Bus;
  connector RealInput = input Real;
  connector RealOutput = output Real;
  block Reader
    RealInput u = 1;
    RealOutput y = 2*u;
  end Reader;
  Bus bus;
  Reader a;
  Reader b;
equation
  connect(a.u, bus.s);
  connect(b.u, bus.s);
end M;
""", "15:3", "'bus.s' is an input wherever it is connected: a variable of an expandable "
             "connector that is an input in one connection must be a non-input in another of "
             "its augmentation set (MLS 9.1.3)", """
model M
  expandable connector Bus
  end Bus;
  connector RealInput = input Real;
  connector RealOutput = output Real;
  block Reader
    RealInput u;
    RealOutput y = 2*u;
  end Reader;
  block Source
    RealOutput y = time;
  end Source;
  Bus bus;
  Bus other;
  Reader a;
  Source source;
equation
  connect(a.u, bus.s);
  connect(bus, other);
  connect(source.y, other.s);
end M;
"""),
    "flow operator record without '0'": ("""
model M
  operator record C
    Real re;
    operator function '+'
      input C a;
      input C b;
      output C c;
    algorithm
      c := C(a.re + b.re);
    end '+';
    operator function '-'
      input C a;
      output C c;
    algorithm
      c := C(-a.re);
    end '-';
  end C;
  connector Port
    C e;
    flow C f;
  end Port;
  Port p;
equation
  p.e = C(1);
end M;
""", "21:5", "flow variable 'f' has operator record M.C, which does not define '0': flow "
             "operator records need addition, negation and '0' (MLS 9.2)", """
model M
  operator record C
    Real re;
    operator function '+'
      input C a;
      input C b;
      output C c;
    algorithm
      c := C(a.re + b.re);
    end '+';
    operator function '-'
      input C a;
      output C c;
    algorithm
      c := C(-a.re);
    end '-';
    operator function '0'
      output C c;
    algorithm
      c := C(0);
    end '0';
  end C;
  connector Port
    C e;
    flow C f;
  end Port;
  Port p;
equation
  p.e = C(1);
end M;
"""),
    # ------------------------------------------------------------- MLS 14 overloaded operators
    "ambiguous constructors": ("""
model M
  operator record C
    Real re;
    operator 'constructor'
      function fromReal
        input Real x;
        output C c(re = x);
      algorithm
      end fromReal;
      function alsoFromReal
        input Real y;
        output C c(re = 2*y);
      algorithm
      end alsoFromReal;
    end 'constructor';
  end C;
  C c = C(1.0);
end M;
""", "18:9", "the call of M.C matches 2 of its constructors (M.C.'constructor'.fromReal, "
             "M.C.'constructor'.alsoFromReal); it must match one (MLS 14.2)", """
model M
  operator record C
    Real re;
    operator 'constructor'
      function fromReal
        input Real x;
        output C c(re = x);
      algorithm
      end fromReal;
      function fromInteger
        input Integer i;
        input Integer scale;
        output C c(re = i*scale);
      algorithm
      end fromInteger;
    end 'constructor';
  end C;
  C c = C(1.0);
end M;
"""),
    # --------------------------------------------------------------------- more, MLS 5-10
    "base class text using an element of the derived class": ("""
model M
  model Base
    Integer x = y;
  end Base;
  model Derived
    Integer y = 2;
    extends Base;
  end Derived;
  Derived d;
end M;
""", "4:17", "'y' is declared in M.Derived, a class derived from M.Base, whose text cannot use "
             "it (MLS 7.1)", """
model M
  model Base
    Integer y = 2;
    Integer x = y;
  end Base;
  model Derived
    extends Base;
  end Derived;
  Derived d;
end M;
"""),
    "element of the inner that the outer's type lacks": ("""
model M
  record R
    Real i;
  end R;
  record RI
    extends R;
    Real a;
  end RI;
  model A
    outer R r;
    Real x = r.a;
  end A;
  inner RI r = RI(1, 2);
  A a;
end M;
""", "12:16", "'a' is not an element of M.R, the type of the outer component 'r' (MLS 5.4)", """
model M
  record R
    Real i;
  end R;
  record RI
    extends R;
    Real a;
  end RI;
  model A
    outer R r;
    Real x = r.i;
  end A;
  inner RI r = RI(1, 2);
  A a;
end M;
"""),
    "enumeration dimension indexed by an Integer": ("""
model M
  type E = enumeration(one, two);
  Real x[E] = {1, 2};
  Real y = x[1];
end M;
""", "5:14", "the subscript of 'x' is an Integer, but the dimension is indexed by M.E values "
             "(MLS 10.5.1)", """
model M
  type E = enumeration(one, two);
  Real x[E] = {1, 2};
  Real y = x[E.one];
end M;
"""),
    "for-loop over a matrix": ("""
model M
  Real x[2];
equation
  for row in {{1, 2}, {3, 4}} loop
    x[row[1]] = row[2];
  end for;
end M;
""", "5:14", "the range of for-index 'row' is an array of 2 dimensions; it must be a vector "
             "(MLS 8.3.2, 11.2.2)", """
model M
  Real x[2];
equation
  for k in {1, 2} loop
    x[k] = 2*k;
  end for;
end M;
"""),
    "binding that does not fit the declared sizes": ("""
model M
  Real x[:, 1] = [2, 3];
end M;
""", "3:16", "the binding of 'x' has sizes [1, 2], which do not fit its declared sizes "
             "(MLS 10.1)", """
model M
  Real x[:, 1] = [2; 3];
end M;
"""),
    # ------------------------------------------- streams, delay, reinit, graph operators (more)
    "stream variable outside a connector": ("""
model M
  stream Real h = 1;
end M;
""", "3:3", "'h' is a stream variable outside a connector (MLS 15.1)", """
model M
  Real h = 1;
end M;
"""),
    "stream connector with two flows": ("""
model M
  connector Port
    Real p;
    flow Real m_flow;
    flow Real q;
    stream Real h;
  end Port;
  Port port;
end M;
""", "6:5", "stream connector M.Port must have exactly one flow variable, a scalar; it has "
            "'m_flow', 'q' (MLS 15.1)", """
model M
  connector Port
    Real p;
    flow Real m_flow;
  end Port;
  Port port;
equation
  port.p = 1;
end M;
"""),
    "inStream of a connector without streams": ("""
model M
  connector C
    Real e;
    flow Real f;
  end C;
  C c;
  Real h = inStream(c);
equation
  c.e = 1;
end M;
""", "8:12", "inStream() needs a stream variable; 'c' is not one (MLS 15.2)", """
model M
  connector C
    Real e;
    flow Real f;
  end C;
  C c;
  Real h = c.e;
equation
  c.e = 1;
end M;
"""),
    "delay longer than its maximum": ("""
model M
  Real y = sin(time);
  Real z = delay(y, 2, 1);
end M;
""", "4:12", "delay(): delayTime is 2, outside [0, delayMax = 1] (MLS 3.7.4.1)", """
model M
  Real y = sin(time);
  Real z = y + 1;
end M;
"""),
    "delay time that varies without a maximum": ("""
model M
  Real y = sin(time);
  Real d = 0.1 + 0.01*time;
  Real z = delay(y, d);
end M;
""", "5:12", "the delayTime (there is no delayMax) of delay() must be a parameter expression "
             "(MLS 3.7.4.1)", """
model M
  Real y = sin(time);
  Real d = 0.1 + 0.01*time;
  Real z = y*d;
end M;
"""),
    "reinit of a parameter": ("""
model M
  parameter Real p = 1;
  Real x(start = 1, fixed = true);
equation
  der(x) = -x;
  when x < 0.5 then
    reinit(p, 2);
  end when;
end M;
""", "8:5", "reinit of parameter 'p': reinit sets a continuous-time variable (MLS 8.3.6)", """
model M
  parameter Real p = 1;
  Real x(start = 1, fixed = true);
equation
  der(x) = -x;
  when x < 0.5 then
    reinit(x, p);
  end when;
end M;
"""),
    "graph operator in a when-equation": (_ROOTED_CONNECTOR.replace(
        "  Connections.root(c.r);\n",
        "  when time > 1 then\n    Connections.root(c.r);\n  end when;\n"), "21:5", "a Connections operator cannot be used inside a when-equation (MLS 8.3.3, 9.4.1)",
        _ROOTED_CONNECTOR),
    "connector with an overdetermined record, unbalanced": ("""
model M
""" + _OVERDETERMINED_RECORD + """  connector C
    R r;
    Real e;
    flow Real f;
  end C;
  C c;
equation
  c.r.a = 1;
  c.e = 3;
  Connections.root(c.r);
end M;
""", "18:3", "connector M.C of 'c' has 1 flow variable but 2 potential ones; they must be "
             "as many (MLS 9.3.1)", _ROOTED_CONNECTOR),
    "component redeclared as an element with another protection": ("""
model M
  model A
  protected
    replaceable Real x = 2;
  end A;
  model B
    extends A;
    redeclare Real x = 3;
  end B;
  B b;
end M;
""", "9:5", "'x' is protected and cannot be redeclared public (MLS 7.3.3)", """
model M
  model A
  protected
    replaceable Real x = 2;
  end A;
  model B
    extends A;
  protected
    redeclare Real x = 3;
  end B;
  B b;
end M;
"""),
}


def _flatten(source: str, tmp_path):
    """Flatten the model: the file's class, or ``M`` of a package ``P`` (to import from)."""
    path = tmp_path / "Test.mo"
    path.write_text(source)
    model = "P.M" if source.lstrip().startswith("package P") else None
    return path, api.flatten_model(path, model, environ={})


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


def _refusal(source: str, tmp_path) -> CompilerError:
    with pytest.raises(CompilerError) as caught:
        _flatten(source, tmp_path)
    return caught.value


CLASS_EXTENDS = """
model M
  model A
    {prefix}model B
      Real x = 1;
    end B;
  end A;
  extends A;
  model extends B
    Real y = 2;
  end B;
  B b;
end M;
"""


def test_class_extends_of_a_class_that_is_not_replaceable_is_refused(tmp_path):
    error = _refusal(CLASS_EXTENDS.format(prefix=""), tmp_path)
    assert error.message == ("the inherited class M.A.B is not replaceable: 'class extends' "
                             "replaces a replaceable class (MLS 7.3.1)")
    assert (error.span.line, error.span.col) == (9, 3)


def test_class_extends_of_a_replaceable_class_is_accepted(tmp_path):
    _, flat = _flatten(CLASS_EXTENDS.format(prefix="replaceable "), tmp_path)
    assert sorted(item.name for item in flat.variables) == ["b.x", "b.y"]


STREAM_CONNECTOR = """
model M
  connector Port
    Real p;
{extra}    flow Real m_flow;
    stream Real h;
  end Port;
  Port port;
end M;
"""


def test_stream_connector_with_more_potential_than_flow_variables_is_refused(tmp_path):
    error = _refusal(STREAM_CONNECTOR.format(extra="    Real T;\n"), tmp_path)
    assert error.message == ("connector M.Port of 'port' has 1 flow variable but 2 potential "
                             "ones; they must be as many (MLS 9.3.1)")


def test_balanced_stream_connector_is_no_rule_error(tmp_path):
    # (the stream variable is neither flow nor potential: p meets m_flow; the model's own
    # port gets p and h from the model, m_flow = 0 as an unconnected flow)
    source = STREAM_CONNECTOR.format(extra="").replace("Port port;", "Port port(p = 1, h = 2);")
    _, flat = _flatten(source, tmp_path)
    assert {variable.name for variable in flat.variables} == {"port.p", "port.m_flow", "port.h"}
