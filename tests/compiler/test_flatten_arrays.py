"""Arrays: scalarized variables and equations, for-loops, constructors and array functions."""
from __future__ import annotations

from compiler import flat


def test_vector_equation_is_scalarized(flatten):
    model = flatten("""
model Vector
  Real x[3](start = {1, 2, 3}, each fixed = true);
equation
  der(x) = -x;
end Vector;
""")
    assert flatten.variables(model) == ["Real x[1](start = 1.0, fixed = true);",
                                        "Real x[2](start = 2.0, fixed = true);",
                                        "Real x[3](start = 3.0, fixed = true);"]
    assert flatten.equations(model.equations) == ["der(x[1]) = -x[1];", "der(x[2]) = -x[2];",
                                                  "der(x[3]) = -x[3];"]


def test_matrix_vector_product(flatten):
    model = flatten("""
model LinearSystem
  parameter Real A[2, 2] = [1, 2; 3, 4];
  parameter Real b[2] = {5, 6};
  Real x[2];
equation
  A*x = b;
end LinearSystem;
""")
    assert [var.name for var in model.variables][:4] == ["A[1,1]", "A[1,2]", "A[2,1]", "A[2,2]"]
    assert model.variable("A[2,1]").binding == flat.Const(3.0)
    assert flatten.equations(model.equations) == [
        "A[1,1] * x[1] + A[1,2] * x[2] = b[1];", "A[2,1] * x[1] + A[2,2] * x[2] = b[2];"]


def test_for_equations_are_unrolled(flatten):
    model = flatten("""
model Diffusion
  parameter Integer n = 4;
  Real T[n](each start = 0, each fixed = true);
equation
  der(T[1]) = 1 - T[1];
  for i in 2:n loop
    der(T[i]) = T[i - 1] - T[i];
  end for;
end Diffusion;
""")
    assert flatten.equations(model.equations) == [
        "der(T[1]) = 1 - T[1];", "der(T[2]) = T[1] - T[2];", "der(T[3]) = T[2] - T[3];",
        "der(T[4]) = T[3] - T[4];"]


def test_nested_for_with_two_indices_and_step(flatten):
    model = flatten("""
model Grid
  Real u[2, 3];
equation
  for i in 1:2, j in 3:-1:1 loop
    u[i, j] = 10*i + j;
  end for;
end Grid;
""")
    assert flatten.equations(model.equations) == [
        "u[1,3] = 10 * 1 + 3;", "u[1,2] = 10 * 1 + 2;", "u[1,1] = 10 * 1 + 1;",
        "u[2,3] = 10 * 2 + 3;", "u[2,2] = 10 * 2 + 2;", "u[2,1] = 10 * 2 + 1;"]


def test_array_constructors_and_comprehensions(flatten):
    model = flatten("""
model Constructors
  Real a[3] = {i^2 for i in 1:3};
  Real b[2, 2] = {{1, 2}, {3, 4}};
  Real c[2, 3] = {i*j for j in 1:3, i in 1:2};
end Constructors;
""")
    assert flatten.equations(model.equations) == [
        "a[1] = 1 ^ 2;", "a[2] = 2 ^ 2;", "a[3] = 3 ^ 2;",
        "b[1,1] = 1;", "b[1,2] = 2;", "b[2,1] = 3;", "b[2,2] = 4;",
        "c[1,1] = 1 * 1;", "c[1,2] = 1 * 2;", "c[1,3] = 1 * 3;",
        "c[2,1] = 2 * 1;", "c[2,2] = 2 * 2;", "c[2,3] = 2 * 3;"]


def test_size_fill_zeros_ones_identity(flatten):
    model = flatten("""
model Builders
  parameter Real p[2, 3] = fill(0.5, 2, 3);
  Real n = size(p, 2) + ndims(p);
  Real z[2] = zeros(2);
  Integer o[2] = ones(size(z, 1));
  Real I[2, 2] = identity(2);
end Builders;
""")
    assert {var.binding for var in model.variables if var.name.startswith("p[")} == \
        {flat.Const(0.5)}
    assert flatten.equations(model.equations) == [
        "n = 3 + 2;", "z[1] = 0;", "z[2] = 0;", "o[1] = 1;", "o[2] = 1;", "I[1,1] = 1;",
        "I[1,2] = 0;", "I[2,1] = 0;", "I[2,2] = 1;"]


def test_reductions(flatten):
    model = flatten("""
model Reductions
  Real x[3] = {1, 2, 3};
  Real s = sum(x);
  Real p = product(x[2:3]);
  Real lo = min(x);
  Real hi = max(x[1], x[3]);
  Real sq = sum(x[i]^2 for i in 1:3);
end Reductions;
""")
    assert flatten.equations(model.equations)[3:] == [
        "s = x[1] + x[2] + x[3];", "p = x[2] * x[3];", "lo = min(min(x[1], x[2]), x[3]);",
        "hi = max(x[1], x[3]);", "sq = x[1] ^ 2 + x[2] ^ 2 + x[3] ^ 2;"]


def test_transpose_cat_linspace(flatten):
    model = flatten("""
model Shapes
  Real m[2, 3] = [1, 2, 3; 4, 5, 6];
  Real t[3, 2] = transpose(m);
  Real c[4] = cat(1, {1, 2}, {3, 4});
  Real l[3] = linspace(0, 1, 3);
end Shapes;
""")
    lines = flatten.equations(model.equations)
    assert lines[6:12] == ["t[1,1] = m[1,1];", "t[1,2] = m[2,1];", "t[2,1] = m[1,2];",
                           "t[2,2] = m[2,2];", "t[3,1] = m[1,3];", "t[3,2] = m[2,3];"]
    assert lines[12:] == ["c[1] = 1;", "c[2] = 2;", "c[3] = 3;", "c[4] = 4;",
                          "l[1] = 0.0;", "l[2] = 0.5;", "l[3] = 1.0;"]


def test_cross_and_outer_product(flatten):
    model = flatten("""
model Vectors
  Real a[3] = {1, 0, 0};
  Real b[3] = {0, 1, 0};
  Real c[3] = cross(a, b);
  Real d = a*b;
  Real o[2, 2] = outerProduct(a[1:2], b[1:2]);
end Vectors;
""")
    lines = flatten.equations(model.equations)
    assert lines[6:] == [
        "c[1] = a[2] * b[3] - a[3] * b[2];", "c[2] = a[3] * b[1] - a[1] * b[3];",
        "c[3] = a[1] * b[2] - a[2] * b[1];", "d = a[1] * b[1] + a[2] * b[2] + a[3] * b[3];",
        "o[1,1] = a[1] * b[1];", "o[1,2] = a[1] * b[2];", "o[2,1] = a[2] * b[1];",
        "o[2,2] = a[2] * b[2];"]


def test_slices_ranges_and_end(flatten):
    model = flatten("""
model Slices
  Real m[2, 3];
  Real row[3];
  Real col[2];
  Real last;
equation
  m = [1, 2, 3; 4, 5, 6];
  row = m[2, :];
  col = m[:, end];
  last = m[end, end - 1];
end Slices;
""")
    assert flatten.equations(model.equations)[6:] == [
        "row[1] = m[2,1];", "row[2] = m[2,2];", "row[3] = m[2,3];",
        "col[1] = m[1,3];", "col[2] = m[2,3];", "last = m[2,2];"]


def test_if_equation_on_parameter_keeps_one_branch(flatten):
    model = flatten("""
model Choice
  parameter Boolean linear = false;
  parameter Integer order = 2;
  Real y;
equation
  if linear then
    y = time;
  elseif order == 2 then
    y = time^2;
  else
    y = time^3;
  end if;
end Choice;
""")
    assert flatten.equations(model.equations) == ["y = time ^ 2;"]
    assert model.variable("linear").structural and model.variable("order").structural


def test_if_equation_on_variable_is_kept(flatten):
    model = flatten("""
model Switch
  Real y;
  Real z;
equation
  if time < 1 then
    y = 0;
    z = 1;
  else
    y = time;
    z = 2;
  end if;
end Switch;
""")
    assert flatten.equations(model.equations) == [
        "if time < 1 then y = 0; z = 1; else y = time; z = 2; end if;"]
    assert isinstance(model.equations[0], flat.IfEquation)


def test_arrays_of_records(flatten):
    model = flatten("""
record State
  Real p;
  Real T;
end State;
model Pipe
  parameter Integer n = 2;
  State s[n];
equation
  for i in 1:n loop
    s[i].p = i;
    s[i].T = 300 + s[i].p;
  end for;
end Pipe;
""")
    assert [var.name for var in model.variables] == ["n", "s[1].p", "s[1].T", "s[2].p", "s[2].T"]
    assert flatten.equations(model.equations)[3] == "s[2].T = 300 + s[2].p;"


def test_elementwise_operators(flatten):
    model = flatten("""
model Elementwise
  Real a[2] = {1, 2};
  Real b[2] = a .* a;
  Real c[2] = 2*a - a/2;
  Real d[2] = a .^ 2 .+ 1;
end Elementwise;
""")
    assert flatten.equations(model.equations)[2:] == [
        "b[1] = a[1] * a[1];", "b[2] = a[2] * a[2];",
        "c[1] = 2 * a[1] - a[1] / 2;", "c[2] = 2 * a[2] - a[2] / 2;",
        "d[1] = a[1] ^ 2 + 1;", "d[2] = a[2] ^ 2 + 1;"]


def test_size_from_binding_and_matrix_parameters(flatten):
    model = flatten("""
model Table
  parameter Real table[:, 2] = [0, 0; 1, 2; 2, 3];
  parameter Integer rows = size(table, 1);
  Real y[rows];
equation
  for i in 1:rows loop
    y[i] = table[i, 2];
  end for;
end Table;
""")
    assert flatten.equations(model.equations) == ["y[1] = table[1,2];", "y[2] = table[2,2];",
                                                  "y[3] = table[3,2];"]
    assert model.variable("table[3,1]").binding == flat.Const(2.0)
