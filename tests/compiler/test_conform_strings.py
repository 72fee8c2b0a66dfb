"""Strings in generated C, as the Modelica-Compliance suite uses them (msl_models/
ConformStrings.mo): String(), concatenation and comparison, discrete Strings and their pre
values, assertion messages computed by functions only when the assertion fails."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from cosim import api

MODELS = Path(__file__).parent / "msl_models" / "ConformStrings.mo"


@pytest.fixture(autouse=True)
def no_modelicapath(monkeypatch):
    monkeypatch.delenv("MODELICAPATH", raising=False)


def run(model: str, names: list):
    component = f"ConformStrings_{model}"
    columns = [f"{component}.{name}" for name in names]
    result = api.run(MODELS, model=f"ConformStrings.{model}", record=columns, step_size=0.1)
    return result.values["time"], [result.values[column] for column in columns]


FORMATTED = ["ok_joined", "ok_r1", "ok_r2", "ok_r3", "ok_r4", "ok_i1", "ok_i2", "ok_i3",
             "ok_b1", "ok_order"]


def test_string_formatting_concatenation_and_comparison_give_the_expected_texts():
    _, values = run("Formatting", FORMATTED)
    for name, value in zip(FORMATTED, values):
        assert np.all(value == 1), name


def test_a_discrete_string_keeps_its_value_between_events():
    t, (code,) = run("Phases", ["code"])
    assert np.array_equal(code, np.where(t > 0.5 + 1e-9, 2, 1))


def test_an_algorithm_loops_over_a_vector_of_strings():
    _, (matched,) = run("Labels", ["matched"])
    assert np.all(matched == 111)


def test_a_message_function_is_not_called_while_the_assertion_holds():
    t, (x,) = run("LazyMessage", ["x"])
    assert t[-1] == pytest.approx(1.0) and np.allclose(x, t)


def test_the_message_of_a_failing_assertion_comes_from_its_function():
    with pytest.raises(Exception) as error:
        run("FailingMessage", ["x"])
    line = next(k + 1 for k, text in enumerate(MODELS.read_text().splitlines())
                if "assert(x < 0.5" in text)
    assert f"ConformStrings.mo:{line}:5: assertion failed at t = 0.5" in str(error.value)
    assert "too late: t = 0.50" in str(error.value)
