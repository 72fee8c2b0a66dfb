"""What kept Modelica.Mechanics.MultiBody.Examples.Systems.RobotR3 from initializing and
running (a gear whose bearing friction sticks), each in a small self-written model
(msl_models/FrictionGaps.mo) checked against its closed form."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from compiler.causalize_api import causalize_model
from cosim import api

MODELS = Path(__file__).parent / "msl_models" / "FrictionGaps.mo"


@pytest.fixture(autouse=True)
def no_modelicapath(monkeypatch):
    monkeypatch.delenv("MODELICAPATH", raising=False)


def run(model: str, names: list[str]):
    component = f"FrictionGaps_{model}"
    result = api.run(MODELS, model=f"FrictionGaps.{model}", step_size=0.05,
                     record=[f"{component}.{name}" for name in names])
    return result.values["time"], [result.values[f"{component}.{name}"] for name in names]


def test_a_linear_loop_row_reading_a_function_without_derivative_keeps_its_coefficients():
    # the matrix came from the rows' partials, which a function without derivative left
    # empty: the row was all zeros, and where its right side was 0 (locked) the solution
    # silently kept the unknowns' old values
    t, (a, b, x) = run("LinearRow", ["a", "b", "x"])
    locked = t < 0.5 - 1e-9
    assert np.allclose(a[locked], (3 * x[locked] + 1) / 3, rtol=0, atol=1e-12)
    assert np.allclose(b[locked], a[locked], rtol=0, atol=1e-12)
    after = t > 0.5 + 1e-9
    assert np.allclose(a[after], 2 + np.sin(x[after]), rtol=0, atol=1e-12)
    assert np.allclose(b[after], (3 * x[after] + 1 - a[after]) / 2, rtol=0, atol=1e-12)


def test_an_unknown_an_if_branch_leaves_out_is_not_divided_by_zero():
    # s := (...) / (if locked then 0 else 1) was NaN while locked; a one-unknown Newton
    # block leaves it at its start value there, where the equation does not fix it
    t, (s, x) = run("ZeroBranch", ["s", "x"])
    locked = t < 0.5 - 1e-9
    assert np.all(s[locked] == 0.25)
    after = t > 0.5 + 1e-9
    assert np.allclose(s[after], x[after] ** 2, rtol=0, atol=1e-10)


def test_a_relation_and_ed_with_initial_makes_no_event_indicator():
    # 'initial() and w > 0' (PartialFriction's startForward) fired at every crossing of w
    system = causalize_model(MODELS, "FrictionGaps.InitialOnly")
    assert [relation.text for relation in system.relations] == ["v > 0"]
    t, (started, x) = run("InitialOnly", ["started", "x"])
    assert not started[1:].any()
    assert np.allclose(x, np.cos(t), rtol=0, atol=1e-6)
