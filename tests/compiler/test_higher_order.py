"""Functional arguments (MLS 12.4.2): a higher-order Simpson quadrature over functions passed by
name and by partial application (msl_models/HigherOrder.mo), against the analytic integrals,
in the compiled FMU and in the reference interpreter; the refusals of incompatible arguments."""
from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest
from fmpy import simulate_fmu

from compiler.api import flatten_model
from compiler.errors import CompilerError
from compiler.lang.parser import parse_expression
from compiler.lang.unparse import expr as unparse_expr

HIGHER_ORDER = Path(__file__).parent / "msl_models" / "HigherOrder.mo"
K = 0.7
NAMES = ["cubicArea", "decayArea", "movingArea", "lineArea", "cubicMean", "scaledDecay"]


def analytic(t):
    """The integrals of the model's equations, in the order of NAMES."""
    moving = 1 + t
    return [2.0, 2 * (1 - math.exp(-K)) / K, (1 - np.exp(-moving)) / moving, 3 + 9 * K, 1.0,
            3 * (1 - math.exp(-K)) / K]


def test_function_arguments_parse_and_print_back():
    node = parse_expression("simpson(function decay(k = 2*a, c = 1), 0, 1)")
    assert unparse_expr(node) == "simpson(function decay(k = 2 * a, c = 1), 0, 1)"


def test_partial_application_takes_named_arguments_only():
    with pytest.raises(CompilerError, match="by name only"):
        parse_expression("simpson(function decay(2), 0, 1)")


def test_one_specialization_per_functional_argument_with_bound_values_as_inputs():
    model = flatten_model(HIGHER_ORDER, "HigherOrder.Quadrature", environ={})
    functions = {item.name: item for item in model.functions}
    # decay with k bound and decay with k and c bound are two specializations; the bound
    # values are inputs, so the time-varying k shares the one of the parameter k
    assert "HigherOrder.simpson(f=HigherOrder.decay(k))" in functions
    specialized = functions["HigherOrder.simpson(f=HigherOrder.decay(k, c))"]
    assert [var.name for var in specialized.inputs] == ["f.k", "f.c", "a", "b", "n"]
    assert "HigherOrder.simpson" not in functions  # no generic body
    nested = functions["HigherOrder.simpson(f=HigherOrder.scaled(g=HigherOrder.decay(k), s))"]
    assert [var.name for var in nested.inputs] == ["f.g.k", "f.s", "a", "b", "n"]


def test_quadratures_match_the_analytic_integrals_in_the_fmu(fmus):
    fmu = fmus.build(HIGHER_ORDER, "HigherOrder.Quadrature")
    result = simulate_fmu(str(fmu), fmi_type="CoSimulation", stop_time=1.0,
                          output_interval=0.1, output=NAMES)
    for name, expected in zip(NAMES, analytic(result["time"])):
        assert np.allclose(result[name], expected, rtol=1e-9, atol=0), name


def test_quadratures_match_the_analytic_integrals_in_the_interpreter(fmus):
    result = fmus.reference(HIGHER_ORDER, "HigherOrder.Quadrature", stop=1.0, interval=0.1)
    for name, expected in zip(NAMES, analytic(result.time)):
        assert np.allclose(result[name], expected, rtol=1e-9, atol=0), name


@pytest.mark.parametrize("model, message", [
    ("NotCompatible", r"HigherOrder.mo:87:22: .*not compatible with function type "
                      r"HigherOrder.Integrand: its input 1 is not 'x'"),
    ("NotAFunction", r"HigherOrder.mo:92:22: .*input 'f' of function HigherOrder.simpson is a "
                     r"function, but 'v' is not one"),
    ("UnboundExtraInput", r"its input 'k' has no default"),
])
def test_incompatible_functional_arguments_are_refused(model, message):
    with pytest.raises(CompilerError, match=message):
        flatten_model(HIGHER_ORDER, f"HigherOrder.{model}", environ={})
