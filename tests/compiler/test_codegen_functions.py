"""User functions in compiled FMUs: static C functions against the reference interpreter.

codegen_models/Functions.mo has functions with several outputs, array inputs and outputs
(sized by the arguments), recursion through statements and through an if-expression, for
and while loops with break, reductions and built-ins, default arguments, a function calling
another for an array result, and asserts with computed messages.
"""
from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from fmpy import simulate_fmu
from fmpy.validation import validate_fmu

from compiler.api import flatten_model
from compiler.causalize import causalize
from compiler.codegen import emit_c
from compiler.codegen.errors import EmitError
from tests.compiler.fmu_compare import mismatches, run

FUNCTIONS = Path(__file__).parent / "codegen_models" / "Functions.mo"
COMPARED = ["x", "r", "phi", "n[1]", "n[2]", "len", "f5", "s", "p", "a", "b", "w[1]", "w[2]",
            "f10", "mean", "lo", "hi", "spread", "c[1]", "c[2]", "c[3]", "y", "even", "rotated[1]", "rotated[2]",
            "quadratic", "sums[1]", "sums[2]", "firstColumn", "tail"]
GRID = np.linspace(0.0, 2.0, 101)


@pytest.fixture(scope="module")
def use_functions(fmus):
    fmu = fmus.build(FUNCTIONS, "Functions.UseFunctions")
    reference = fmus.reference(FUNCTIONS, "Functions.UseFunctions", interval=0.02, rtol=1e-10)
    return fmu, reference


@pytest.fixture(scope="module")
def source() -> str:
    flat = flatten_model(FUNCTIONS, "Functions.UseFunctions", environ={})
    return emit_c(causalize(flat)).source


@pytest.mark.parametrize("kind, tolerance", [("CoSimulation", 1e-8), ("ModelExchange", 1e-10)])
def test_functions_match_the_interpreter(use_functions, kind, tolerance):
    fmu, reference = use_functions
    result = run(fmu, kind, 0.0, 2.0, tolerance, COMPARED)
    assert mismatches(result, reference, GRID, COMPARED) == []


@pytest.mark.parametrize("kind, tolerance", [("CoSimulation", 1e-8), ("ModelExchange", 1e-10)])
def test_calls_everywhere_in_a_model_match_the_interpreter(fmus, kind, tolerance):
    fmu = fmus.build(FUNCTIONS, "Functions.Everywhere")
    reference = fmus.reference(FUNCTIONS, "Functions.Everywhere", interval=0.01, rtol=1e-10)
    names = ["p", "q", "x", "z", "w", "s", "t", "held"]
    result = run(fmu, kind, 0.0, 1.0, tolerance, names)
    assert mismatches(result, reference, np.linspace(0.0, 1.0, 101), names) == []
    # x = 0.68 + 0.32 exp(-t) falls below 0.8 at t = ln(0.32 / 0.12)
    assert (result["p"][0], result["q"][0], result["held"][-1]) == (6.0, 8.0, pytest.approx(
        2 * np.log(0.32 / 0.12), abs=1e-6))
    assert set(result["t"]) == {1.0, 2.0, 3.0}


def test_fmpy_validates_the_functions_fmu(use_functions):
    assert validate_fmu(str(use_functions[0])) == []


def test_function_results_are_the_known_values(use_functions):
    fmu, _ = use_functions
    result = simulate_fmu(str(fmu), stop_time=2.0, output_interval=0.5, output=COMPARED)
    last = result[-1]
    assert (last["f5"], last["s"], last["f10"], last["even"]) == (120, 10, 55, True)
    t = 2.0
    assert last["p"] == pytest.approx(1 * t * t + 2 * t + 3, rel=1e-12)
    assert last["a"] == pytest.approx(2 * t + 1, rel=1e-12)
    assert last["b"] == pytest.approx(2 * t + 1, rel=1e-12)
    assert [last["c[1]"], last["c[2]"], last["c[3]"]] == pytest.approx([1, 1 + t, 1 + 3 * t])
    v = np.array([1, 2 * t, -t, 3])
    assert [last["mean"], last["lo"], last["hi"], last["spread"]] == pytest.approx(
        [v.mean(), v.min(), v.max(), v.std()], rel=1e-12)
    assert last["w[1]"] == pytest.approx(last["x"] + 2 * t, rel=1e-12)
    assert [last["n[1]"], last["n[2]"]] == pytest.approx(np.array([t, 1]) / np.hypot(t, 1))
    rotation = np.array([[np.cos(2 * t), -np.sin(2 * t)], [np.sin(2 * t), np.cos(2 * t)]])
    assert [last["rotated[1]"], last["rotated[2]"]] == pytest.approx(rotation @ [1, 2])
    assert last["quadratic"] == pytest.approx(np.array([1, 2]) @ rotation @ [1, 2])
    matrix = np.array([[1, 2, 3], [4, 5 + t, 6 - 2 * t]])
    assert [last["sums[1]"], last["sums[2]"], last["firstColumn"], last["tail"]] == \
        pytest.approx([6, matrix[1].sum(), 5, 5 + max(4, 6 - 2 * t)])


def test_functions_are_static_c_functions_with_outputs_through_pointers(source):
    assert ("static Status fn_Functions_polar(ModelData *m, double x, double y, double *r_out, "
            "double *phi_out)") in source
    assert ("static Status fn_Functions_normalize(ModelData *m, const double *v, size_t v_n1, "
            "double *u, double *length_out)") in source
    assert ("static Status fn_Functions_matVec(ModelData *m, const double *A, size_t A_n1, "
            "size_t A_n2, const double *x, size_t x_n1, double *y)") in source
    # the model calls each function once per block, with arrays as compound literals
    assert "CHECK(fn_Functions_matVec(m, (const double[]){1, 2, 3, 4}, 2, 2, " in source
    # a recursion through an if-expression evaluates only the branch taken
    fib = _function(source, "fn_Functions_fib")
    assert "if (n < 2) {" in fib and fib.count("CHECK(fn_Functions_fib(m, ") == 2
    # functions the model never calls are not emitted (they would draw gcc warnings)
    assert "fn_Functions_isEven" in source and "fn_Functions_FailingAssert" not in source


def test_function_statements_read_like_c(source):
    sum_to = _function(source, "fn_Functions_sumTo")
    assert "for (int32_t i = 1; i <= n; i++) {" in sum_to
    assert "while (k < 3) {" in sum_to and "break;" in sum_to
    poly = _function(source, "fn_Functions_poly")
    assert "y = (y * x) + c[i - 1];" in poly
    assert "for (int32_t i = 1; i <= (int32_t)c_n1; i++) {" in poly


def test_a_failing_assert_in_a_function_is_an_error_naming_the_source_line(fmus):
    fmu = fmus.build(FUNCTIONS, "Functions.FailingAssert")
    messages = []
    with pytest.raises(Exception, match="status 3"):
        simulate_fmu(str(fmu), fmi_type="CoSimulation", stop_time=1.0, output_interval=0.01,
                     logger=lambda *args: messages.append(args))
    line = 1 + FUNCTIONS.read_text().splitlines().index(
        '    assert(lo <= hi, "bounds in the wrong order: lo = " + String(lo) + ", hi = " '
        '+ String(hi));')
    errors = [message.decode() for _, status, category, message in messages
              if category == b"logStatusError"]
    assert errors[0] == (f"Functions.mo:{line}:5: assertion failed in function "
                         "Functions.saturate: bounds in the wrong order: lo = 0.02, hi = 0")


def test_external_functions_are_refused_naming_the_function(flatten):
    model = flatten("""
function cbrt
  input Real x;
  output Real y;
external "C" y = cbrt(x);
end cbrt;
model UseExternal
  Real y = cbrt(time);
end UseExternal;
""")
    with pytest.raises(EmitError) as error:
        emit_c(causalize(model))
    assert str(error.value) == (f"{flatten.path}:2:1: the external function cbrt is not "
                                "supported by the C code generator")


def test_string_results_are_refused_naming_the_variable(flatten):
    model = flatten("""
function label
  input Real x;
  output String s;
algorithm
  s := String(x);
end label;
model UseLabel
  Real y = time;
equation
  assert(label(y) <> "", "empty");
end UseLabel;
""")
    with pytest.raises(EmitError) as error:
        emit_c(causalize(model))
    assert str(error.value) == (f"{flatten.path}:4:3: the String variable s of label is not "
                                "supported by the C code generator")


def test_unsupported_statements_are_refused_at_their_line(flatten):
    model = flatten("""
function corner
  input Real A[2, 2];
  input Real B[2, 2];
  output Real y;
protected
  Real C[2, 2];
algorithm
  C := A*B;
  C := cat(1, {A[1, :]}, {B[2, :]});
  y := sum(C[1, 1:2]);
end corner;
model UseCorner
  Real y = corner({{1, 2}, {3, time}}, {{1, 0}, {0, 1}});
end UseCorner;
""")
    with pytest.raises(EmitError) as error:
        emit_c(causalize(model))
    assert str(error.value) == (f"{flatten.path}:10:3: the built-in cat() in function corner is "
                                "not supported by the C code generator")


def _function(source: str, name: str) -> str:
    match = re.search(rf"^static Status {name}\([^;]*?\) \{{\n.*?\n\}}\n", source, re.S | re.M)
    assert match, f"no definition of {name}"
    return match.group(0)
