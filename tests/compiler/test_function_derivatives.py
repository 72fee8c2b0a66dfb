"""Index reduction through user functions without derivative annotations: their derivative
functions are generated from their algorithms (msl_models/FunctionDerivatives.mo), checked
against finite differences of the functions and, in models, against the closed form."""
from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest
from fmpy import simulate_fmu

from compiler.api import flatten_model
from compiler.causalize import causalize
from compiler.causalize.derivatives import Generated
from compiler.causalize.errors import CausalizeError
from compiler.flat import Const
from compiler.flatten.partial_derivatives import Unsupported
from compiler.interp import simulate_reference
from compiler.interp.functions import FunctionTable

MODELS = Path(__file__).parent / "msl_models" / "FunctionDerivatives.mo"
P = "FunctionDerivatives."


def density(p, T):
    """The model's density function, written again in Python."""
    d, term = 0.0, p / (287 * T)
    for i in range(1, 5):
        d += term / i
        term *= 0.1 * abs(math.sin(T / 100))
    d += sum(max(0.0, p * 1e-7) * k for k in (1, 2))
    return d * 1.01 if p > 2e5 else d * (1 + 0.01 * (p / 2e5) ** 2)


@pytest.fixture(scope="module")
def generated():
    return Generated(flatten_model(MODELS, P + "Uses", environ={}).functions)


def _table(generated, names):
    for name in names:
        generated.derivative(P + name)
    return FunctionTable(generated.with_functions(tuple(generated.functions.values())))


# (function, a random point of its inputs as a function of the generator, array input sizes)
POINTS = {
    "density": lambda rng: (rng.uniform(0.5e5, 4e5), rng.uniform(250, 400)),
    "state": lambda rng: (rng.uniform(0.5e5, 4e5), rng.uniform(250, 400)),
    "weighted": lambda rng: (rng.uniform(-2, 2, 3), rng.uniform(-2, 2)),
    "viaAnnotated": lambda rng: (rng.uniform(-2, 2),),
    "mixed": lambda rng: (rng.uniform(-2, 2, 2), rng.uniform(-2, 2)),
    "densityViaPhased": lambda rng: (rng.uniform(0.5e5, 4e5), rng.uniform(250, 400)),
}


@pytest.mark.parametrize("name", sorted(POINTS))
def test_a_generated_derivative_function_matches_central_differences(generated, name):
    table = _table(generated, POINTS)
    function = table.scalar(P + name)
    derivative = table.scalar(generated.names[P + name])
    rng = np.random.default_rng(7)
    for _ in range(5):
        point = POINTS[name](rng)
        seeds = tuple(rng.uniform(-1, 1, np.shape(x)) if np.ndim(x) else rng.uniform(-1, 1)
                      for x in point)
        scale = [np.max(np.abs(x)) for x in point]
        h = 1e-6
        plus = function(*(x + h * s * c for x, s, c in zip(point, seeds, scale)))
        minus = function(*(x - h * s * c for x, s, c in zip(point, seeds, scale)))
        expected = (np.array(plus) - np.array(minus)) / (2 * h)
        got = np.array(derivative(*point, *(s * c for s, c in zip(seeds, scale))))
        assert got == pytest.approx(expected, rel=1e-6, abs=1e-9 * np.max(np.abs(expected)))


def test_a_record_result_has_one_derivative_per_real_leaf(generated):
    table = _table(generated, ["state"])
    derivative = table.scalar(generated.names[P + "state"])
    p, T = 1.5e5, 320.0
    dp, dT = 2e3, -3.0     # along (dp, dT): derivatives of s.p, s.T, s.d
    h = 1e-4
    d_density = (density(p + h * dp, T + h * dT) - density(p - h * dp, T - h * dT)) / (2 * h)
    assert derivative(p, T, dp, dT) == pytest.approx((dp, dT, d_density), rel=1e-7)


def test_an_external_function_has_no_generated_derivative(generated):
    with pytest.raises(Unsupported, match="external function"):
        generated.derivative(P + "externalSine")


def _tank_closed_form(t, V=0.1, tau=0.5):
    p = 3e5 - 2e5 * np.exp(-t / tau)
    T = 300 + 10 * t
    dp, dT = 2e5 / tau * np.exp(-t / tau), 10.0
    h = 1e-3   # a central difference along the trajectory, its error O(h^2) relative ~1e-8
    w = [(density(pk + h * dpk, Tk + h * dT) - density(pk - h * dpk, Tk - h * dT)) / (2 * h) * V
         for pk, Tk, dpk in zip(p, T, dp)]
    return p, np.array([density(pk, Tk) * V for pk, Tk in zip(p, T)]), np.array(w)


@pytest.mark.parametrize("model", ["Tank", "RecordTank"])
def test_a_constrained_tank_differentiates_the_density_function(model, fmus):
    result = simulate_fmu(str(fmus.build(MODELS, P + model)), stop_time=1.0,
                          output_interval=0.01, relative_tolerance=1e-10,
                          output=["p", "m", "w"])
    p, m, w = _tank_closed_form(result["time"])
    assert result["p"] == pytest.approx(p, rel=1e-7)
    assert result["m"] == pytest.approx(m, rel=1e-7)
    assert result["w"] == pytest.approx(w, rel=1e-6)


def test_the_interpreter_runs_the_generated_derivative_functions():
    system = causalize(flatten_model(MODELS, P + "RecordTank", environ={}))
    result = simulate_reference(system, stop=1.0, interval=0.01, rtol=1e-10)
    p, m, w = _tank_closed_form(result.time)
    assert result["p"] == pytest.approx(p, rel=1e-7)
    assert result["w"] == pytest.approx(w, rel=1e-6)


def test_a_called_function_uses_its_derivative_annotation(fmus):
    result = simulate_fmu(str(fmus.build(MODELS, P + "Chain")), stop_time=1.0,
                          output_interval=0.01, relative_tolerance=1e-10, output=["x", "z"])
    t = result["time"]
    x, dx = 1 - 0.5 * np.exp(-t), 0.5 * np.exp(-t)
    assert result["z"] == pytest.approx((3 * x ** 2 - np.sin(x)) * dx, rel=1e-7, abs=1e-10)


def test_index_reduction_through_an_external_function_is_refused_where_it_is_written():
    with pytest.raises(CausalizeError, match="the function FunctionDerivatives.externalSine "
                                             "has no derivative") as error:
        causalize(flatten_model(MODELS, P + "ExternalConstraint", environ={}))
    line = MODELS.read_text().splitlines().index("    y = externalSine(x);") + 1
    assert error.value.span.line in (line, line + 9)


def test_a_protected_array_sized_by_its_literal_is_generated_in_c(fmus):
    flat = flatten_model(MODELS, P + "CubicConstraint", environ={})
    (cubic,) = [item for item in flat.functions if item.name == P + "cubic"]
    assert [(item.name, item.dims) for item in cubic.locals] == [("a", (Const(4),))]
    result = simulate_fmu(str(fmus.build(MODELS, P + "CubicConstraint")), stop_time=1.0,
                          output_interval=0.01, relative_tolerance=1e-10, output=["y", "z"])
    x = 1 - 0.5 * np.exp(-result["time"])
    dx = 1 - x
    assert result["y"] == pytest.approx(1 + 0.5 * x + 0.25 * x ** 2 - 0.125 * x ** 3, rel=1e-8)
    assert result["z"] == pytest.approx((0.5 + 0.5 * x - 0.375 * x ** 2) * dx, rel=1e-7)


def test_a_function_of_a_constant_array_of_records_and_an_array_if_is_differentiated(fmus):
    result = simulate_fmu(str(fmus.build(MODELS, P + "MixedConstraint")), stop_time=1.0,
                          output_interval=0.01, relative_tolerance=1e-10, output=["y", "z"])
    x = 1 - 0.5 * np.exp(-result["time"])
    # y = x (1 + 2 x) + (1 - x) (0.5 - x + 1.5 x^2)
    y = x * (1 + 2 * x) + (1 - x) * (0.5 - x + 1.5 * x ** 2)
    dy = 1 + 4 * x - (0.5 - x + 1.5 * x ** 2) + (1 - x) * (-1 + 3 * x)
    assert result["y"] == pytest.approx(y, rel=1e-8)
    assert result["z"] == pytest.approx(dy * (1 - x), rel=1e-7, abs=1e-10)


def test_an_empty_array_argument_is_passed_through_the_derivative_function(fmus):
    result = simulate_fmu(str(fmus.build(MODELS, P + "EmptyArgument")), stop_time=1.0,
                          output_interval=0.01, relative_tolerance=1e-10, output=["y", "z"])
    x = 1 - 0.5 * np.exp(-result["time"])
    assert result["y"] == pytest.approx(x ** 2, rel=1e-8)
    assert result["z"] == pytest.approx(2 * x * (1 - x), rel=1e-7, abs=1e-10)
