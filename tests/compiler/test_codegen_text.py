"""Details of the emitted C and interface that need no gcc: operator grouping gcc would warn
about, and the output dependencies a co-simulation master reads to find algebraic loops."""
from __future__ import annotations

from compiler.causalize import causalize
from compiler.codegen import emit_c


def test_and_inside_or_is_parenthesized(flatten):
    # C's && binds tighter than ||, so the text is right without parentheses, but gcc warns
    # (-Wparentheses) and a warning fails the build of generated code
    emitted = emit_c(causalize(flatten("""
model Logic
  input Real u;
  output Boolean y = u > 1 and u < 2 or u > 3;
end Logic;
""")))
    assigned = [line.split("/*")[0].strip() for line in emitted.source.splitlines()
                if line.strip().startswith("BOOL(y) =")]
    assert assigned and "(BOOL(rel_1) && BOOL(rel_2)) || BOOL(rel_3);" in assigned[0]
    assert "BOOL(y) = (R(u) > 1 && R(u) < 2) || R(u) > 3;" in assigned


def test_an_output_that_is_a_state_depends_on_its_state_only(flatten):
    # without a dependencies list, FMI reads an output as depending on every input: a false
    # algebraic loop for a master that couples this model's output back to its input
    emitted = emit_c(causalize(flatten("""
model Lag
  input Real u;
  output Real x(start = 0, fixed = true);
  output Real y = 2 * u;
equation
  der(x) = u - x;
end Lag;
""")))
    dependencies = dict(emitted.interface.dependencies)
    assert dependencies["x"] == ("x",)
    assert "y" not in dependencies  # direct feedthrough: FMI's default (every input)


def test_a_newton_residual_longer_than_a_part_keeps_its_iteration_variables(flatten):
    # the residual function is one function: long sequences elsewhere are split into parts,
    # which here dropped the first lines (those reading the iteration variables from x)
    system = causalize(flatten("""
model LongTornLoop
  Real x[45];
  Real y(start = 1);
equation
  x[1] = y + 0.1*sin(y);
  for i in 2:45 loop
    x[i] = x[i - 1] + 0.01*sin(x[i - 1]);
  end for;
  y^3 + x[45] = 10 + time;
end LongTornLoop;
"""))
    (block,) = system.blocks
    assert len(block.inner) > 40
    source = emit_c(system).source
    body = source[source.index("_residual(ModelData *m, const double x[], double r[]) {"):]
    body = body[:body.index("\n}")]
    assert [f"= x[{j}];" in body for j in range(len(block.vars))] == [True] * len(block.vars)
    assert body.count("R(x_45) = ") == 1 and "r[0] = " in body
