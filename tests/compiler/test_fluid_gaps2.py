"""Constructs that stopped Modelica.Fluid's examples (issue 14), second set, each in a small
self-written model (msl_models/FluidGaps2.mo) compiled with gcc's warnings as errors
(tests/conftest.py) and compared with the analytic solution.

A package constant bound to a call flattening cannot evaluate (Media.Incompressible's
``poly_rho = Polynomials.fitting(...)``, LAPACK underneath) is hidden model variables in
equations; a function reading it computes the call itself (a function reads no variables of
the model). Function bodies: size() of a constant table and size(A) as a whole, an output
default that reads a protected variable declared after it, helper locals that never take the
name of a variable declared later (``k2`` in Fluid's QuadraticTurbulent). Derivative functions
generated for index reduction differentiate cat() (Media's setState_pTX). The reference
interpreter runs LAPACK's dgelsy (Polynomials.fitting's least squares) through scipy, so that
flattening evaluates such constants."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from fmpy import simulate_fmu

from compiler import flat
from compiler.api import flatten_model
from compiler.interp.errors import SimulationError
from compiler.interp.functions import FunctionTable

GAPS = Path(__file__).parent / "msl_models" / "FluidGaps2.mo"
KINDS = ("CoSimulation", "ModelExchange")


def run(fmus, model: str, outputs: list[str], kind: str = "CoSimulation"):
    fmu = fmus.build(GAPS, f"FluidGaps2.{model}")
    return simulate_fmu(str(fmu), fmi_type=kind, stop_time=1.0, output_interval=0.25,
                        output=outputs)


@pytest.mark.parametrize("kind", KINDS)
def test_a_function_computes_a_package_constant_flattening_cannot_evaluate(fmus, kind):
    # coefficients = doubled({0.5, -1, 1.5}) = {1, -2, 3}, through an external C function
    result = run(fmus, "ConstantFromExternal", ["y", "z"], kind)
    t = result["time"]
    np.testing.assert_allclose(result["y"], t ** 2 - 2 * t + 3, rtol=1e-14)
    np.testing.assert_allclose(result["z"], t + 3, rtol=1e-14)


def test_the_function_reads_a_local_of_its_own_not_the_models_hidden_variables():
    model = flatten_model(GAPS, "FluidGaps2.ConstantFromExternal")
    value = next(item for item in model.functions if item.name == "FluidGaps2.Fitted.value")
    hidden = {variable.name for variable in model.variables if variable.name.startswith("$")}
    declared = {item.name for item in value.inputs + value.outputs + value.locals}
    read = {node.name for node in _nodes(value.algorithm) if type(node) is flat.Var}
    assert hidden and read <= declared and not read & hidden
    (local,) = [item for item in value.locals if item.default is not None]
    assert type(local.default) is flat.Call and local.default.name == "FluidGaps2.doubled"


def test_an_input_with_a_written_out_default_keeps_the_size_of_its_argument(fmus):
    result = run(fmus, "DefaultedInput", ["a", "b", "c"])
    t = result["time"]
    np.testing.assert_allclose(result["a"], t + 100, rtol=1e-14)
    np.testing.assert_allclose(result["b"], 7.75 * (1 + t), rtol=1e-14)
    np.testing.assert_allclose(result["c"], t + 10, rtol=1e-14)
    reference = fmus.reference(GAPS, "FluidGaps2.DefaultedInput", stop=1.0, interval=0.25)
    np.testing.assert_allclose(reference["a"], reference.time + 100, rtol=1e-14)
    # the flat function says so: its input is X[:], not X[2] from the default
    model = flatten_model(GAPS, "FluidGaps2.DefaultedInput")
    (function,) = [item for item in model.functions if item.name.endswith("sizeOfDefaulted")]
    assert function.inputs[0].dims == (None,)


# ------------------------------------------------------- LAPACK in the reference interpreter
FIT_U, FIT_Y = [0.0, 1.0, 2.0, 3.0], [1.1, 2.9, 5.2, 6.8]


def test_flattening_evaluates_a_constant_fitted_through_lapack_dgelsy():
    # the reference interpreter runs the external "FORTRAN 77" dgelsy through scipy, so
    # Line.p is a literal (the Vandermonde matrix is filled by a loop counting down 2:-1:1)
    model = flatten_model(GAPS, "FluidGaps2.FittedConstant")
    at = next(item for item in model.functions if item.name == "FluidGaps2.Line.at")
    numbers = [node.value for node in _nodes(at.algorithm) if type(node) is flat.Const]
    np.testing.assert_allclose(numbers, np.polyfit(FIT_U, FIT_Y, 1), rtol=1e-13)
    assert not [variable for variable in model.variables if variable.name.startswith("$")]


def test_the_fitted_constant_in_the_fmu(fmus):
    result = run(fmus, "FittedConstant", ["y"])
    np.testing.assert_allclose(result["y"], np.polyval(np.polyfit(FIT_U, FIT_Y, 1),
                                                       result["time"]), rtol=1e-13)


# ------------------------------------------------------------------- Jacobian pattern
def test_the_jacobian_pattern_keeps_a_dependency_whose_partial_is_not_known():
    # the integrator's finite differences run on this pattern: without the entry its Newton
    # diverged (Fluid's RoomCO2WithControls crept on at steps of 1e-6 s)
    from compiler.causalize import causalize
    system = causalize(flatten_model(GAPS, "FluidGaps2.CoupledThroughExternal"))
    x, y = system.states.index("x"), system.states.index("y")
    assert x in system.jacobian_rows[y]


@pytest.mark.parametrize("kind", KINDS)
def test_a_stiff_coupling_through_an_external_function(fmus, kind):
    # x + 1000 y = 1 and x - y = exp(-1001 t)
    result = run(fmus, "CoupledThroughExternal", ["x", "y"], kind)
    fast = np.exp(-1001 * result["time"])
    np.testing.assert_allclose(result["y"], (1 - fast) / 1001, rtol=1e-4, atol=1e-10)
    np.testing.assert_allclose(result["x"], (1 - fast) / 1001 + fast, rtol=1e-4, atol=1e-7)


def _nodes(root):
    from compiler.flatten.walk import nodes
    return list(nodes(root))


def test_function_locals_sizes_defaults_and_helper_names(fmus):
    result = run(fmus, "FunctionLocals", ["n", "p[1]", "p[2]", "p[3]", "h"])
    t = result["time"]
    np.testing.assert_allclose(result["n"], 2 * t, rtol=1e-14)          # min(size(m)) = 2
    np.testing.assert_allclose(result["p[1]"], 1 + t, rtol=1e-14)
    np.testing.assert_allclose(result["p[2]"], 2 * t, rtol=1e-14)
    np.testing.assert_allclose(result["p[3]"], 4 * t + 1, rtol=1e-14)   # 2 * last + 1
    np.testing.assert_allclose(result["h"], 2 * (1 + t), rtol=1e-14)    # (x + 3x) / 2


@pytest.mark.parametrize("kind", KINDS)
def test_index_reduction_differentiates_a_function_that_calls_cat(fmus, kind):
    # completed({x, 0.25}) = x + 0.5 + 3 (1 - x) = 3.5 - 2 x = sin(time)
    result = run(fmus, "DerivativeThroughCat", ["x", "v"], kind)
    t = result["time"]
    np.testing.assert_allclose(result["x"], (3.5 - np.sin(t)) / 2, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(result["v"], -np.cos(t) / 2, rtol=1e-6, atol=1e-9)


def test_the_interpreter_refuses_a_function_reading_a_name_it_does_not_declare():
    body = flat.Assign(flat.Var("y"), flat.Binary("+", flat.Var("x"), flat.Var("$call1.p")))
    function = flat.Function("f", (flat.FunctionVar("x", "Real"),),
                             (flat.FunctionVar("y", "Real"),), algorithm=(body,))
    with pytest.raises(SimulationError, match=r"'\$call1\.p' is not a variable of function f"):
        FunctionTable([function]).structured("f")
