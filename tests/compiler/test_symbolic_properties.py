"""Property tests of the IR: simplification keeps values, derivatives match differences."""
from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from compiler.symbolic import add, const, diff, function, mul, neg, sub, var
from compiler.symbolic.evaluate import Environment, evaluate

POINT = {"x": 0.37, "y": -1.21}

# A recipe is a nested tuple; ``build`` makes the IR (simplifying as it goes) and ``value``
# computes the same number directly in Python, so the two must agree.
leaves = st.one_of(st.sampled_from([("x",), ("y",)]),
                   st.sampled_from([0.0, 1.0, -1.0, 2.5]).map(lambda c: ("c", c)))


def _extend(children):
    return st.one_of(
        st.tuples(st.sampled_from(["+", "-", "*"]), children, children),
        st.tuples(st.sampled_from(["neg", "sin", "cos", "atan"]), children))


recipes = st.recursive(leaves, _extend, max_leaves=12)

_BINARY = {"+": (add, lambda a, b: a + b), "-": (sub, lambda a, b: a - b),
           "*": (mul, lambda a, b: a * b)}
_UNARY = {"neg": (neg, lambda a: -a), "sin": (lambda e: function("sin", e), math.sin),
          "cos": (lambda e: function("cos", e), math.cos),
          "atan": (lambda e: function("atan", e), math.atan)}


def build(recipe):
    head = recipe[0]
    if head in ("x", "y"):
        return var(head)
    if head == "c":
        return const(recipe[1])
    if head in _BINARY:
        return _BINARY[head][0](build(recipe[1]), build(recipe[2]))
    return _UNARY[head][0](build(recipe[1]))


def value(recipe, point):
    head = recipe[0]
    if head in ("x", "y"):
        return point[head]
    if head == "c":
        return recipe[1]
    if head in _BINARY:
        return _BINARY[head][1](value(recipe[1], point), value(recipe[2], point))
    return _UNARY[head][1](value(recipe[1], point))


@settings(max_examples=150, deadline=None)
@given(recipes)
def test_simplified_expressions_keep_their_value(recipe):
    expr = build(recipe)
    assert math.isclose(evaluate(expr, Environment(dict(POINT))), value(recipe, POINT),
                        rel_tol=1e-12, abs_tol=1e-12)
    assert build(recipe) is expr


@settings(max_examples=150, deadline=None)
@given(recipes, st.sampled_from(["x", "y"]))
def test_derivatives_match_central_differences(recipe, name):
    h = 1e-6
    up, down = dict(POINT), dict(POINT)
    up[name] += h
    down[name] -= h
    numeric = (value(recipe, up) - value(recipe, down)) / (2 * h)
    symbolic = evaluate(diff(build(recipe), name), Environment(dict(POINT)))
    assert math.isclose(symbolic, numeric, rel_tol=1e-5, abs_tol=1e-6)
