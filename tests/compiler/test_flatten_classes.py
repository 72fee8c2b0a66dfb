"""Flattening across classes: extends, modifications, redeclarations, lookup and imports."""
from __future__ import annotations

from compiler import flat


def test_extends_with_modification_outer_wins(flatten):
    model = flatten("""
model Base
  parameter Real k = 1;
  parameter Real j = 1;
  Real x;
equation
  x = k + j;
end Base;
model Derived
  extends Base(k = 2, j = 5);
end Derived;
model Top
  Derived d(k = 3);
end Top;
""")
    assert flatten.variables(model) == ["parameter Real d.k = 3.0;", "parameter Real d.j = 5.0;",
                                        "Real d.x;"]
    assert flatten.equations(model.equations) == ["d.x = d.k + d.j;"]


def test_multiple_inheritance(flatten):
    model = flatten("""
partial model HasX
  Real x;
end HasX;
partial model HasY
  Real y;
equation
  y = 2;
end HasY;
model Both
  extends HasX;
  extends HasY;
equation
  x = y + 1;
end Both;
""")
    assert flatten.variables(model) == ["Real x;", "Real y;"]
    assert flatten.equations(model.equations) == ["y = 2;", "x = y + 1;"]


def test_modifications_through_three_levels(flatten):
    model = flatten("""
model A
  parameter Real p = 1;
  parameter Real q = 1;
  parameter Real r = 1;
end A;
model B
  extends A(p = 2, q = 2);
end B;
model C
  extends B(p = 3);
  A a(r = 4);
end C;
""")
    assert flatten.variables(model) == [
        "parameter Real p = 3.0;", "parameter Real q = 2.0;", "parameter Real r = 1.0;",
        "parameter Real a.p = 1.0;", "parameter Real a.q = 1.0;", "parameter Real a.r = 4.0;"]


def test_modifier_expressions_are_read_where_written(flatten):
    model = flatten("""
model Part
  parameter Real k = 1;
  Real y = k*time;
end Part;
model Outer
  parameter Real k = 10;
  Part part(k = 2*k);
end Outer;
""")
    assert model.variable("part.k").binding == flat.Binary("*", flat.Const(2), flat.Var("k"))
    assert flatten.equations(model.equations) == ["part.y = part.k * time;"]


def test_short_class_definition_with_modification(flatten):
    model = flatten("""
model Resistor
  parameter Real R = 1;
  Real v, i;
equation
  v = R*i;
  i = 1;
end Resistor;
model R100 = Resistor(R = 100) "a 100 Ohm resistor";
model Circuit
  R100 r;
end Circuit;
""")
    assert flatten.variables(model)[0] == "parameter Real r.R = 100.0;"
    assert flatten.equations(model.equations) == ["r.v = r.R * r.i;", "r.i = 1;"]


def test_nested_dotted_modifications(flatten):
    model = flatten("""
model Point
  Real x(start = 0);
  Real y(start = 0);
equation
  der(x) = 1;
  der(y) = 1;
end Point;
model Pair
  Point a;
  Point b;
end Pair;
model Top
  Pair p(a.x(start = 1), b(y(start = 2, fixed = true)));
end Top;
""")
    assert flatten.variables(model) == [
        "Real p.a.x(start = 1.0);", "Real p.a.y(start = 0.0);", "Real p.b.x(start = 0.0);",
        "Real p.b.y(start = 2.0, fixed = true);"]


def test_redeclare_replaceable_component(flatten):
    model = flatten("""
model Source
  Real y;
equation
  y = 1;
end Source;
model Ramp
  extends Source;
end Ramp;
model Sine
  Real y;
equation
  y = sin(time);
end Sine;
model Holder
  replaceable Source source;
end Holder;
model Top
  Holder h(redeclare Sine source);
end Top;
""")
    assert flatten.equations(model.equations) == ["h.source.y = sin(time);"]


def test_redeclare_replaceable_class(flatten):
    model = flatten("""
model Low
  parameter Real g = 1;
  Real y = g*time;
end Low;
model High
  parameter Real g = 10;
  Real y = g*time;
end High;
model Amplifier
  replaceable model Stage = Low;
  Stage stage;
end Amplifier;
model Top
  Amplifier a(redeclare model Stage = High);
  Amplifier b;
end Top;
""")
    assert flatten.variables(model)[0] == "parameter Real a.stage.g = 10.0;"
    assert flatten.variables(model)[2] == "parameter Real b.stage.g = 1.0;"


def test_final_modification_is_kept(flatten):
    model = flatten("""
model Gain
  parameter Real k = 1;
  final parameter Real offset = 0.5;
  Real y = k + offset;
end Gain;
model Top
  Gain g(final k = 3);
end Top;
""")
    assert flatten.variables(model)[:2] == ["final parameter Real g.k = 3.0;",
                                            "final parameter Real g.offset = 0.5;"]
    assert [(v.final, v.evaluate) for v in model.variables[:3]] == [
        (True, False), (True, False), (False, False)]


def test_evaluate_annotation_is_kept(flatten):
    model = flatten("""
model Top
  parameter Real k = 1 annotation(Evaluate = true);
  parameter Real j = 2 annotation(Evaluate = false);
  Real y = k + j;
end Top;
""")
    assert [(v.name, v.evaluate) for v in model.variables[:2]] == [("k", True), ("j", False)]


def test_local_classes_and_enclosing_constants(flatten):
    model = flatten("""
model Outer
  constant Real scale = 4;
  model Part
    Real z = scale*time;
  end Part;
  Part part;
end Outer;
""")
    assert flatten.equations(model.equations) == ["part.z = 4.0 * time;"]


def test_all_import_forms(flatten):
    model = flatten("""
package Lib
  package Math
    constant Real e = 2.718;
    function twice
      input Real u;
      output Real y;
    algorithm
      y := 2*u;
    end twice;
  end Math;
  package Units
    type Length = Real(unit = "m");
    type Mass = Real(unit = "kg");
  end Units;
end Lib;
model UseImports
  import Lib.Math;
  import E = Lib.Math.e;
  import Lib.Units.*;
  import Lib.Math.{twice};
  Length l;
  Mass m;
equation
  l = Math.e + E;
  m = twice(l);
end UseImports;
""")
    assert flatten.variables(model) == ['Real l(unit = "m");', 'Real m(unit = "kg");']
    assert flatten.equations(model.equations) == ["l = 2.718 + 2.718;", "m = Lib.Math.twice(l);"]


def test_within_places_a_file_in_its_package(tmp_path, flatten):
    library = tmp_path / "Plant"
    library.mkdir()
    (library / "package.mo").write_text("package Plant\n  constant Real g = 9.81;\nend Plant;\n")
    (library / "Falling.mo").write_text(
        "within Plant;\nmodel Falling\n  Real v(start = 0);\nequation\n  der(v) = -g;\n"
        "end Falling;\n")
    model = flatten("within Plant;\nmodel Test\n  Falling f;\nend Test;\n", libs=[tmp_path])
    assert model.name == "Plant.Test"
    assert flatten.equations(model.equations) == ["der(f.v) = -9.81;"]


def test_inner_outer(flatten):
    model = flatten("""
model World
  parameter Real g = 9.81;
end World;
model Body
  outer World world;
  Real v(start = 0);
equation
  der(v) = -world.g;
end Body;
model System
  inner World world(g = 1.62);
  Body a, b;
end System;
""")
    assert flatten.variables(model)[0] == "parameter Real world.g = 1.62;"
    assert flatten.equations(model.equations) == ["der(a.v) = -world.g;", "der(b.v) = -world.g;"]


def test_conditional_components(flatten):
    model = flatten("""
connector Pin
  Real v;
  flow Real i;
end Pin;
model Load
  Pin p;
equation
  p.v = 2*p.i;
end Load;
model Board
  parameter Boolean withLoad = false;
  parameter Boolean withMeter = true;
  Load load if withLoad;
  Real meter = p.v if withMeter;  // (only modified or connected, MLS 4.4.5)
  Pin p;
equation
  connect(p, load.p);
  p.v = 1;
end Board;
""")
    assert [var.name for var in model.variables] == ["withLoad", "withMeter", "meter", "p.v",
                                                     "p.i"]
    assert flatten.equations(model.equations) == ["meter = p.v;", "p.v = 1;", "p.i = 0.0;"]
    assert model.variable("withLoad").structural


def test_each_on_arrays_of_components(flatten):
    model = flatten("""
model Cell
  parameter Real capacity = 1;
  parameter Real soc0 = 0.5;
  Real soc(start = soc0, fixed = true);
equation
  der(soc) = -1/capacity;
end Cell;
model Pack
  Cell cells[3](each capacity = 2, soc0 = {0.1, 0.2, 0.3});
end Pack;
""")
    assert [var.binding for var in model.variables if var.name.endswith("capacity")] == \
        [flat.Const(2.0)] * 3
    assert [var.binding for var in model.variables if var.name.endswith("soc0")] == \
        [flat.Const(0.1), flat.Const(0.2), flat.Const(0.3)]
    assert flatten.equations(model.equations)[2] == "der(cells[3].soc) = -1 / cells[3].capacity;"
