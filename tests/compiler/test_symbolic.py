"""The expression IR: hash-consing, simplification, differentiation, solving, printing."""
from __future__ import annotations

import math
import pickle

import pytest

from compiler import flat
from compiler.symbolic import (
    BOOLEAN, FALSE, INTEGER, ONE, REAL, TIME, TRUE, ZERO, NotDifferentiable, add, affine_form,
    and_, call, const, diff, div, function, if_, mul, neg, not_, or_, power, pre_of, pre_var,
    relation, rename, solve_for, sub, time_derivative, to_text, var)
from compiler.symbolic.convert import ConversionError, Converter, Hooks
from compiler.symbolic.evaluate import Environment, EvaluationError, evaluate
from compiler.symbolic.transform import reads_op, replace_nodes

x, y, z = var("x"), var("y"), var("z")
n = var("n", INTEGER)
b = var("b", BOOLEAN)


def value(expr, **values):
    return evaluate(expr, Environment(values))


# ------------------------------------------------------------------------- hash-consing
def test_equal_structures_are_one_object():
    assert var("x") is x
    assert add(mul(x, y), z) is add(mul(x, y), z)
    assert function("sin", x) is function("sin", x)
    assert add(x, y) is not add(y, x)


def test_constants_of_different_types_stay_apart():
    assert const(1) is not const(1.0)
    assert const(1) is not const(True)
    assert const(1).type == INTEGER and const(1.0).type == REAL and const(True).type == BOOLEAN


def test_nodes_are_immutable_and_survive_pickling():
    expr = add(mul(x, y), function("cos", z))
    with pytest.raises(AttributeError):
        expr.op = "-"
    assert pickle.loads(pickle.dumps(expr)) is expr


def test_variables_of_other_types_are_other_nodes():
    assert var("x", INTEGER) is not x and var("x", INTEGER).type == INTEGER


# ------------------------------------------------------------------------ simplification
@pytest.mark.parametrize("built, expected", [
    (lambda: add(x, ZERO), lambda: x),
    (lambda: add(ZERO, x), lambda: x),
    (lambda: sub(x, ZERO), lambda: x),
    (lambda: sub(x, x), lambda: ZERO),
    (lambda: sub(ZERO, x), lambda: neg(x)),
    (lambda: mul(ONE, x), lambda: x),
    (lambda: mul(x, ZERO), lambda: ZERO),
    (lambda: mul(const(-1.0), x), lambda: neg(x)),
    (lambda: mul(neg(x), neg(y)), lambda: mul(x, y)),
    (lambda: div(x, ONE), lambda: x),
    (lambda: div(ZERO, x), lambda: ZERO),
    (lambda: power(x, ONE), lambda: x),
    (lambda: power(x, ZERO), lambda: ONE),
    (lambda: neg(neg(x)), lambda: x),
    (lambda: neg(sub(x, y)), lambda: sub(y, x)),
    (lambda: add(x, neg(y)), lambda: sub(x, y)),
    (lambda: sub(x, neg(y)), lambda: add(x, y)),
    (lambda: if_(TRUE, x, y), lambda: x),
    (lambda: if_(b, x, x), lambda: x),
    (lambda: and_(TRUE, b), lambda: b),
    (lambda: and_(b, FALSE), lambda: FALSE),
    (lambda: or_(b, TRUE), lambda: TRUE),
    (lambda: not_(not_(b)), lambda: b),
])
def test_neutral_elements(built, expected):
    assert built() is expected()


def test_constant_folding_keeps_types():
    assert add(const(2), const(3)) is const(5)
    assert mul(const(2.5), const(2)) is const(5.0)
    assert div(const(1), const(4)) is const(0.25)
    assert power(const(2), const(10)) is const(1024)
    assert power(const(2), const(-1)) is const(0.5)
    assert function("sqrt", const(16.0)) is const(4.0)
    assert relation("<", const(1), const(2)) is TRUE
    assert div(x, const(0)).op == "/"  # no folding of a division by zero


def test_types_of_operations():
    assert add(n, const(1)).type == INTEGER
    assert add(n, x).type == REAL
    assert div(n, const(2)).type == REAL
    assert relation("<", x, y).type == BOOLEAN
    assert if_(b, n, const(2)).type == INTEGER
    assert function("abs", n).type == INTEGER
    assert function("floor", x).type == REAL
    assert function("integer", x).type == INTEGER


def test_variables_skip_pre_values():
    expr = add(mul(x, pre_var(y)), TIME)
    assert expr.variables() == {"x", "time"}


# ------------------------------------------------------------------------ differentiation
EXPRESSIONS = [
    add(mul(x, x), mul(const(3.0), y)),
    div(function("sin", x), add(y, const(2.0))),
    power(x, const(3)),
    power(add(x, const(2.0)), y),
    power(const(2.0), x),
    function("exp", mul(x, y)),
    function("log", add(mul(x, x), ONE)),
    function("sqrt", add(mul(y, y), const(1.5))),
    function("atan2", y, x),
    function("tanh", sub(x, y)),
    function("asin", div(x, const(4.0))),
    function("acos", div(y, const(5.0))),
    function("atan", mul(x, y)),
    function("tan", div(x, const(3.0))),
    function("cosh", x), function("sinh", y), function("log10", add(x, const(3.0))),
    function("abs", sub(x, const(5.0))),
    function("max", x, y), function("min", mul(x, y), ONE),
    if_(relation(">", x, ONE), mul(x, y), neg(y)),
]


@pytest.mark.parametrize("expr", EXPRESSIONS, ids=to_text)
@pytest.mark.parametrize("point", [(0.7, 1.3), (1.9, -0.4)])
def test_partial_derivatives_match_finite_differences(expr, point):
    values = {"x": point[0], "y": point[1]}
    for name in ("x", "y"):
        h = 1e-6
        up, down = dict(values), dict(values)
        up[name] += h
        down[name] -= h
        numeric = (value(expr, **up) - value(expr, **down)) / (2 * h)
        assert value(diff(expr, name), **values) == pytest.approx(numeric, rel=1e-6, abs=1e-8)


def test_derivative_of_expression_without_the_variable_is_zero():
    assert diff(mul(y, z), "x") is ZERO
    assert diff(function("floor", x), "x") is ZERO
    assert diff(relation("<", x, y), "x") is ZERO


def test_time_derivative_by_chain_rule():
    derivative_of = {"x": var("der(x)"), "y": var("der(y)")}.get

    def rule(node):
        return derivative_of(node.name)
    assert time_derivative(mul(x, y), rule) is add(mul(var("der(x)"), y), mul(x, var("der(y)")))
    assert time_derivative(mul(var("p"), x), rule) is mul(var("p"), var("der(x)"))
    assert time_derivative(TIME, rule) is ONE
    assert time_derivative(mul(pre_var(x), TIME), rule) is pre_var(x)
    assert time_derivative(function("sin", x), rule) is mul(function("cos", x), var("der(x)"))


def test_user_functions_are_not_differentiable():
    with pytest.raises(NotDifferentiable) as error:
        diff(call("Lib.f", (x,)), "x")
    assert error.value.node.function == "Lib.f"
    assert diff(call("Lib.f", (y,)), "x") is ZERO


# ------------------------------------------------------------------------------- solving
def test_affine_form_collects_coefficients():
    coefficients, rest = affine_form(add(mul(const(2.0), x), sub(y, mul(z, x))), {"x", "y"})
    assert value(coefficients["x"], z=0.5) == 1.5
    assert coefficients["y"] is ONE
    assert rest is ZERO


def test_affine_form_refuses_nonlinear_terms():
    assert affine_form(mul(x, y), {"x", "y"}) is None
    assert affine_form(function("sin", x), {"x"}) is None
    assert affine_form(div(ONE, x), {"x"}) is None
    assert affine_form(if_(relation(">", x, ZERO), x, y), {"x"}) is None
    coefficients, _ = affine_form(if_(b, x, mul(const(2.0), x)), {"x"})
    assert value(coefficients["x"], b=False) == 2.0


def test_solve_for_a_linear_variable():
    m, f, dv = var("m"), var("f"), var("der(v)")
    assert solve_for(sub(mul(m, dv), f), "der(v)") is div(f, m)
    assert solve_for(sub(x, add(y, z)), "x") is add(y, z)
    assert solve_for(sub(y, neg(x)), "x") is neg(y)
    solved = solve_for(sub(add(mul(const(3.0), x), y), const(6.0)), "x")
    assert value(solved, y=0.0) == 2.0


def test_solve_for_refuses_nonlinear_and_vanishing_coefficients():
    assert solve_for(sub(mul(x, x), y), "x") is None
    assert solve_for(sub(mul(x, y), ONE), "y") is div(ONE, x)  # coefficient free of y
    assert value(solve_for(sub(sub(mul(y, x), x), const(2.0)), "x"), y=3.0) == 1.0
    assert solve_for(sub(y, z), "x") is None
    assert solve_for(sub(mul(sub(y, y), x), ONE), "x") is None  # coefficient folds to 0


# -------------------------------------------------------------------------- rewriting
def test_substitution_distributes_pre():
    renamed = rename(add(x, pre_var(x)), {"x": neg(y)})
    assert renamed.variables() == {"y"}
    assert evaluate(renamed, Environment({"y": 2.0}, pre_values={"y": 3.0})) == -5.0
    assert pre_of(add(x, TIME)) is add(pre_var(x), TIME)


def test_replace_nodes_and_reads_op():
    from compiler.symbolic import initial
    expr = or_(initial(), relation(">", x, ONE))
    assert reads_op(expr, "initial") and not reads_op(expr, "terminal")
    replaced = replace_nodes(expr, lambda node: TRUE if node is initial() else None)
    assert replaced is TRUE


# ------------------------------------------------------------------------------ printing
@pytest.mark.parametrize("expr, text", [
    (mul(add(x, y), z), "(x + y) * z"),
    (sub(x, sub(y, z)), "x - (y - z)"),
    (sub(sub(x, y), z), "x - y - z"),
    (neg(add(x, y)), "-(x + y)"),
    (power(power(x, y), z), "(x ^ y) ^ z"),
    (div(x, mul(y, z)), "x / (y * z)"),
    (if_(b, x, add(y, ONE)), "if b then x else y + 1.0"),
    (and_(not_(b), relation("<=", x, y)), "not b and x <= y"),
    (function("atan2", y, x), "atan2(y, x)"),
    (pre_var(n), "pre(n)"),
    (const("a\"b"), '"a\\"b"'),
    (call("Lib.f", (x, y), 1), "Lib.f(x, y)[2]"),
])
def test_printing(expr, text):
    assert to_text(expr) == text


# ---------------------------------------------------------------------------- conversion
class _Events(Hooks):
    def derivative(self, expr):
        return var(f"der({expr.name})")


def _converter():
    return Converter({"x": REAL, "y": REAL, "b": BOOLEAN, "n": INTEGER, "E": "Colors"},
                     hooks=_Events())


def test_conversion_of_operators():
    convert = _converter()
    assert convert(flat.Binary("+", flat.Var("x"), flat.Const(1.0))) is add(x, ONE)
    assert convert(flat.Unary("-", flat.Var("y"))) is neg(y)
    assert convert(flat.Call("der", (flat.Var("x"),))) is var("der(x)")
    assert convert(flat.EnumConst("Colors", "green", 2)) is const(2, "Colors")
    assert convert(flat.Call("pre", (flat.Binary("*", flat.Var("x"), flat.Var("y")),))) \
        is mul(pre_var(x), pre_var(y))


def test_conversion_expands_event_operators():
    convert = _converter()
    assert convert(flat.Call("edge", (flat.Var("b"),))) is and_(b, not_(pre_var(b)))
    assert convert(flat.Call("change", (flat.Var("n"),))) is relation("<>", n, pre_var(n))
    semi = convert(flat.Call("semiLinear", (flat.Var("x"), flat.Const(2.0), flat.Const(3.0))))
    assert value(semi, x=-1.0) == -3.0 and value(semi, x=2.0) == 4.0
    assert convert(flat.Call("noEvent", (flat.Var("x"),))) is x


def test_conversion_refuses_what_it_cannot_express():
    convert = _converter()
    with pytest.raises(ConversionError, match="delay\\(\\) is not allowed here"):
        convert(flat.Call("delay", (flat.Var("x"), flat.Const(1.0), flat.Const(1.0))))
    with pytest.raises(ConversionError, match="unknown variable 'q'"):
        convert(flat.Var("q"))
    with pytest.raises(ConversionError, match="sample\\(\\) is only allowed"):
        Converter({})(flat.Call("sample", (flat.Const(0.0), flat.Const(1.0))))


# ---------------------------------------------------------------------------- evaluation
@pytest.mark.parametrize("name, args, expected", [
    ("div", (7, 2), 3), ("div", (-7, 2), -3), ("div", (7.5, 2.0), 3.0),
    ("mod", (7, 3), 1), ("mod", (-7, 3), 2), ("mod", (7.5, 2.0), 1.5),
    ("rem", (-7, 3), -1), ("integer", (-1.5,), -2), ("sign", (-0.2,), -1),
    ("floor", (2.5,), 2.0), ("ceil", (2.1,), 3.0),
])
def test_modelica_semantics_of_builtins(name, args, expected):
    result = value(function(name, *(const(arg) for arg in args)))
    assert result == expected and type(result) is type(expected)


def test_evaluation_reads_pre_values_and_flags():
    from compiler.symbolic import initial
    env = Environment({"x": 1.0}, pre_values={"x": 5.0}, initial=True)
    assert evaluate(add(x, pre_var(x)), env) == 6.0
    assert evaluate(initial(), env) is True


def test_evaluation_errors_name_the_expression():
    with pytest.raises(EvaluationError, match="log"):
        value(function("log", x), x=-1.0)
    assert math.isclose(value(power(x, const(0.5)), x=4.0), 2.0)
