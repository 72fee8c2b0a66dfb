"""Constructs that stopped MultiBody examples (issue 14), each in a small self-written model
(msl_models/MultiBodyGaps.mo) compiled with gcc's warnings as errors and compared with numpy."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from fmpy import simulate_fmu
from scipy.optimize import brentq

from compiler.api import flatten_model
from compiler.causalize import causalize
from compiler.system import NewtonBlock, leaf_blocks

GAPS = Path(__file__).parent / "msl_models" / "MultiBodyGaps.mo"


def simulate(fmus, model: str, names, stop=1.0):
    fmu = fmus.build(GAPS, f"MultiBodyGaps.{model}")
    return simulate_fmu(str(fmu), stop_time=stop, output_interval=stop / 20,
                        relative_tolerance=1e-8, output=list(names))


def matrix_names(name: str, rows: int, columns: int) -> list[str]:
    return [f"{name}[{i + 1},{j + 1}]" for i in range(rows) for j in range(columns)]


def test_outer_product_identity_and_skew_in_a_function_body(fmus):
    names = matrix_names("R", 3, 3)
    result = simulate(fmus, "Matrices.Rotation", names)
    e = np.array([1, 2, 2]) / 3
    skew = np.array([[0, -e[2], e[1]], [e[2], 0, -e[0]], [-e[1], e[0], 0]])
    for row in result:
        a = row["time"]
        expected = np.outer(e, e) + (np.eye(3) - np.outer(e, e)) * np.cos(a) - skew * np.sin(a)
        got = np.array([row[name] for name in names]).reshape(3, 3)
        assert got == pytest.approx(expected, abs=1e-12)
        # planar rotations are orthogonal
        assert got @ got.T == pytest.approx(np.eye(3), abs=1e-12)


def test_transpose_and_diagonal_in_a_function_body(fmus):
    b_names, c_names = matrix_names("B", 3, 2), matrix_names("C", 3, 3)
    result = simulate(fmus, "Matrices.Mixed", b_names + c_names)
    for row in result:
        t = row["time"]
        A = np.array([[1, t, 2], [-t, 3, 0.5]])
        got_b = np.array([row[name] for name in b_names]).reshape(3, 2)
        got_c = np.array([row[name] for name in c_names]).reshape(3, 3)
        assert got_b == pytest.approx(A.T, abs=1e-12)
        assert got_c == pytest.approx(np.diag([1, 2 * t, 3]) @ A.T @ A + np.eye(3), abs=1e-12)


def test_never_binds_an_alias_set_only_when_all_its_members_say_never(fmus):
    # phi'' = -4 phi, phi(0) = 1, phi'(0) = 0: phi = cos(2t); rotor.phi is phi
    result = simulate(fmus, "StateSelection.NeverAlias", ["phi", "rotor.phi", "rotor.w"])
    t = result["time"]
    assert result["phi"] == pytest.approx(np.cos(2 * t), abs=1e-6)
    assert result["rotor.phi"] == pytest.approx(np.cos(2 * t), abs=1e-6)
    assert result["rotor.w"] == pytest.approx(-2 * np.sin(2 * t), abs=1e-6)


def test_an_always_variable_stays_a_state_where_its_pivot_is_the_larger(fmus):
    # y = -k x; the lever's force gives (1 + k^2) x'' = -(1 + k^2) x: x = 0.01 cos t
    result = simulate(fmus, "StateSelection.LeverAlways", ["x", "y", "vx", "lambda"], stop=3)
    t = result["time"]
    assert result["x"] == pytest.approx(0.01 * np.cos(t), abs=1e-7)
    assert result["vx"] == pytest.approx(-0.01 * np.sin(t), abs=1e-7)
    assert result["y"] == pytest.approx(-1.0 * np.cos(t), abs=1e-5)
    # lambda = y'' + y = -k (x'' + x) = 0
    assert result["lambda"] == pytest.approx(0 * t, abs=1e-5)


def newton_tears(model: str) -> list[tuple[str, ...]]:
    system = causalize(flatten_model(GAPS, f"MultiBodyGaps.{model}"))
    return [block.vars for block in leaf_blocks(system.blocks) if type(block) is NewtonBlock]


def test_tearing_does_not_divide_by_a_parameter_that_is_zero(fmus):
    assert newton_tears("Tearing.ZeroParameter") == [("x", "y")]
    result = simulate(fmus, "Tearing.ZeroParameter", ["x", "y"])
    # x = 0.5 - a y = 0.5, y = sqrt(1 + t - x^2) (the root near the start value 1)
    assert result["x"] == pytest.approx(0.5 + 0 * result["time"], abs=1e-9)
    assert result["y"] == pytest.approx(np.sqrt(0.75 + result["time"]), abs=1e-8)


def test_tearing_iterates_on_the_unknown_with_a_start_value_of_equal_counts(fmus):
    assert newton_tears("Tearing.StartValues") == [("phi",)]
    result = simulate(fmus, "Tearing.StartValues", ["phi", "axis_c"])
    for row in result:
        expected = brentq(lambda phi: np.cos(phi) * (1 + phi) - (1 - 0.5 * row["time"]),
                          -0.9, 0.5, xtol=1e-14)   # increasing there: the one root
        assert row["phi"] == pytest.approx(expected, abs=1e-8)
        assert row["axis_c"] == pytest.approx(np.cos(expected), abs=1e-8)


def test_a_member_reaches_a_joined_sub_bus_through_another_bus_of_its_set(fmus):
    names = ["drive.x", "drive.axisBus.rate", "drive.axisBus.measured", "bus.axis1.ref"]
    result = simulate(fmus, "Buses.Robot", names)
    t, w, T = result["time"], np.pi, 0.1   # the reference sin(w t); T x' = ref - x, x(0) = 0
    x = (np.sin(w * t) - w * T * np.cos(w * t) + w * T * np.exp(-t / T)) / (1 + (w * T) ** 2)
    assert result["drive.x"] == pytest.approx(x, abs=1e-6)
    assert result["drive.axisBus.measured"] == pytest.approx(x, abs=1e-6)
    assert result["bus.axis1.ref"] == pytest.approx(np.sin(w * t), abs=1e-9)
    assert result["drive.axisBus.rate"] == pytest.approx(np.pi * np.cos(w * t), abs=1e-9)
