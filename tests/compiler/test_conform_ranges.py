"""For-loop ranges of the Modelica-Compliance suite (MLS 11.2.2), in self-written models
(msl_models/ConformRanges.mo): implicit ranges deduced from subscripts, Boolean and
enumeration ranges and dimensions; the values are checked against closed forms."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from compiler import api as compiler_api
from compiler.errors import CompilerError
from cosim import api

MODELS = Path(__file__).parent / "msl_models" / "ConformRanges.mo"


@pytest.fixture(autouse=True)
def no_modelicapath(monkeypatch):
    monkeypatch.delenv("MODELICAPATH", raising=False)


def run(model: str, names: list):
    """time and the recorded values of ``names`` (variables of ``model``)."""
    component = "ConformRanges_" + model.replace(".", "_")
    columns = [f"{component}.{name}" for name in names]
    result = api.run(MODELS, model=f"ConformRanges.{model}", record=columns, step_size=0.1)
    return result.values["time"], [result.values[column] for column in columns]


def test_implicit_indices_over_integer_boolean_and_enumeration_dimensions():
    # x[i, b, c] = i c (b ? 2 : 1) t with b = false, true the 1st, 2nd element
    names = [f"x[{i},{b},{c}]" for i in (1, 2, 3) for b in (1, 2) for c in (1, 2, 3)]
    names += [f"y[{c},{i},{b}]" for c in (1, 2, 3) for i in (1, 2, 3) for b in (1, 2)]
    t, values = run("Implicit.Equations", names)
    expected = [i * c * b * t for i in (1, 2, 3) for b in (1, 2) for c in (1, 2, 3)]
    expected += [2 * i * c * b * t for c in (1, 2, 3) for i in (1, 2, 3) for b in (1, 2)]
    for name, value, exact in zip(names, values, expected):
        assert np.allclose(value, exact, rtol=0, atol=1e-12), name


def test_implicit_and_explicit_indices_in_an_algorithm():
    names = [f"x[{i},{j}]" for i in (1, 2, 3) for j in (1, 2)] + ["z[1]", "z[2]"]
    t, values = run("Implicit.Statements", names)
    expected = [i * j + t for i in (1, 2, 3) for j in (1, 2)] + [-t, t]
    for name, value, exact in zip(names, values, expected):
        assert np.allclose(value, exact, rtol=0, atol=1e-12), name


def test_a_reduction_deduces_its_range():
    t, (s, p) = run("Implicit.Reduction", ["s", "p"])
    assert np.allclose(s, 10 * t, rtol=0, atol=1e-12)
    assert np.allclose(p, (1 + t) * (2 + t) * (3 + t) * (4 + t), rtol=1e-14, atol=0)


def test_an_implicit_range_in_a_function():
    names = ["total", "s[1]", "s[2]", "s[3]", "d", "squares[1]", "squares[2]", "squares[3]"]
    t, values = run("InFunctions.Sums", names)
    expected = [321 * t, t, 21 * t, 321 * t, 321 * t, t ** 2, 4 * t ** 2, 9 * t ** 2]
    for name, value, exact in zip(names, values, expected):
        assert np.allclose(value, exact, rtol=1e-14, atol=1e-14), name


def test_arrays_of_different_sizes_for_an_implicit_range_fail_while_running():
    with pytest.raises(Exception) as error:
        run("InFunctions.Mismatch", ["total"])
    assert "the range of for-index 'i' cannot be deduced: size(w, 1) and size(x, 1) differ " \
           "(MLS 11.2.2.2)" in str(error.value)


def test_the_boolean_type_and_boolean_bounds_as_ranges():
    t, (a0, a1, b0, b1, c0, c1) = run("TypeRanges.Booleans",
                                      ["a[1]", "a[2]", "b[1]", "b[2]", "c[1]", "c[2]"])
    assert np.allclose(a0, 1 - t, rtol=0, atol=1e-12)
    assert np.allclose(a1, t, rtol=0, atol=1e-12)
    assert np.allclose(c0, 2 * t, rtol=0, atol=1e-12)
    assert np.allclose(c1, 3 * t, rtol=0, atol=1e-12)
    assert np.allclose(b0, t + 1, rtol=0, atol=1e-12)  # b[false] = a[true] + 1
    assert np.allclose(b1, 2 * t - 1, rtol=0, atol=1e-12)  # b[true] = c[false] - 1


def test_true_to_true_has_one_element_and_true_to_false_none():
    t, (n,) = run("TypeRanges.OnlyTrue", ["n"])
    assert np.allclose(n, t + 10, rtol=0, atol=1e-12)


def test_a_for_statement_over_a_vector_of_variables():
    t, (x1, x2, x3) = run("TypeRanges.VaryingRange", ["x[1]", "x[2]", "x[3]"])
    early = t < 0.5 - 1e-9
    assert np.allclose(x1, np.where(early, t, 0), rtol=0, atol=1e-12)
    assert np.allclose(x2, np.where(early, 0, 2 * t), rtol=0, atol=1e-12)
    assert np.allclose(x3, 3 * t, rtol=0, atol=1e-12)


def matrix(values: list, n: int, m: int):
    """The recorded elements of an n x m matrix as an array of shape (time, n, m)."""
    return np.stack(values, axis=1).reshape(-1, n, m)


def test_matrix_powers_and_symmetric():
    names = [f"{m}[{i},{j}]" for m in ("P0", "P1", "Pn") for i in (1, 2) for j in (1, 2)]
    names += [f"S[{i},{j}]" for i in (1, 2, 3) for j in (1, 2, 3)]
    names += [f"T[{i},{j}]" for i in (1, 2) for j in (1, 2)]
    t, values = run("Matrices.Powers", names)
    assert np.allclose(matrix(values[21:], 2, 2), np.array([[1, 2], [2, 4]])[None] *
                       t[:, None, None], rtol=0, atol=1e-14)
    A = np.array([[[1, tk], [-tk, 2]] for tk in t])
    assert np.allclose(matrix(values[0:4], 2, 2), np.eye(2), rtol=0, atol=0)
    assert np.allclose(matrix(values[4:8], 2, 2), A, rtol=0, atol=1e-14)
    assert np.allclose(matrix(values[8:12], 2, 2), A @ A @ A, rtol=1e-14, atol=1e-14)
    M = np.arange(1, 10).reshape(3, 3)
    upper = np.triu(M) + np.triu(M, 1).T
    assert np.allclose(matrix(values[12:21], 3, 3), upper[None] * t[:, None, None],
                       rtol=0, atol=1e-13)


def test_products_over_an_empty_dimension_are_zero():
    names = [f"z[{i},{j}]" for i in (1, 2, 3) for j in (1, 2)] + ["u[1]", "u[2]", "u[3]", "s"]
    t, values = run("Matrices.EmptyProducts", names)
    for name, value in zip(names[:6], values[:6]):
        assert np.allclose(value, t, rtol=0, atol=1e-14), name
    for k, value in enumerate(values[6:9], start=1):
        assert np.allclose(value, k * t, rtol=0, atol=1e-14), k
    assert np.allclose(values[9], t, rtol=0, atol=1e-14)


def test_the_power_of_a_matrix_that_is_not_square_is_refused():
    with pytest.raises(CompilerError) as error:
        compiler_api.flatten_model(MODELS, "ConformRanges.Matrices.NotSquare", environ={})
    assert "'^' of an array needs a square matrix, not one of sizes (2, 3)" in str(error.value)


def test_cat_in_a_function_run_in_c():
    t, values = run("Flexible.Joined", [f"j[{k}]" for k in range(1, 7)])
    expected = [t, 2 * t, -t, t, 2 * t, 3 * t]
    for k, (value, exact) in enumerate(zip(values, expected), start=1):
        assert np.allclose(value, exact, rtol=0, atol=1e-12), k


def test_flexible_sizes_from_a_function_that_grows_its_output():
    t, (x1, x2, y1, y2) = run("Flexible.Collected", ["x[1]", "x[2]", "y[1]", "y[2]"])
    assert np.allclose(x1, 3 * t, rtol=0, atol=1e-12)
    assert np.allclose(x2, 5 * t, rtol=0, atol=1e-12)
    assert np.allclose(y1, 3 * np.exp(-t), rtol=1e-5, atol=1e-7)
    assert np.allclose(y2, 5 * np.exp(-t), rtol=1e-5, atol=1e-7)


def loop_location(owner: str, column: int) -> str:
    """line:column of the first for-loop of class ``owner`` ("model M") in the file."""
    lines = MODELS.read_text().splitlines()
    start = next(k for k, line in enumerate(lines) if line.strip().startswith(owner))
    line = next(k for k in range(start, len(lines)) if lines[k].strip().startswith("for "))
    return f"{line + 1}:{column}"


@pytest.mark.parametrize("model, column, message", [
    ("DifferentSizes", 11, "the range of for-index 'i' cannot be deduced: it subscripts "
     "dimension 1 of 'x' (1:2) and dimension 1 of 'y' (1:3), which differ (MLS 11.2.2.2)"),
    ("NotASubscript", 11, "for-index 'i' has no range ('in ...') and is not used as a "
     "subscript"),
    ("DifferentIndexTypes", 11, "the range of for-index 'i' cannot be deduced: it "
     "subscripts dimension 1 of 'y' (false:true) and dimension 1 of 'x' (1:2)"),
    ("RangeAssigned", 16, "the range of for-index 'i' varies and the loop assigns a "
     "variable it reads; such a loop is not supported"),
    ("VaryingSize", 16, "the range of for-index 'i' has bounds that vary, so its size "
     "varies: such a for-statement is not supported"),
    ("RangeResized", 11, "the range of for-index 'i' is deduced from 'x', which the loop "
     "assigns: its size must not change in the loop (MLS 11.2.2.2)"),  # in function resized
])
def test_a_for_loop_whose_range_cannot_be_had_is_refused_at_it(model, column, message):
    with pytest.raises(CompilerError) as error:
        compiler_api.flatten_model(MODELS, f"ConformRanges.Invalid.{model}", environ={})
    text = str(error.value)
    owner = "function resized" if model == "RangeResized" else f"model {model}"
    assert f"ConformRanges.mo:{loop_location(owner, column)}: " in text and message in text
