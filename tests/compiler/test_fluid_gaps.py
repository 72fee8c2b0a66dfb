"""Constructs that stopped Modelica.Fluid's examples (issue 14), each in a small self-written
model (msl_models/FluidGaps.mo) compiled with gcc's warnings as errors (tests/conftest.py)
and compared with numpy.

External "FORTRAN 77" functions (MLS 12.9.1): Modelica.Math.Matrices calls LAPACK through
them; the FMU links the system's liblapack and passes every argument by reference, arrays in
column-major order. Names in an inherited function's declarations are looked up where they
were written; parameter bindings that read each other only in branches a known flag rules out
are not a cycle (Modelica.Fluid's T_start and h_start)."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from fmpy import simulate_fmu

from compiler.api import flatten_model
from compiler.errors import CompilerError

GAPS = Path(__file__).parent / "msl_models" / "FluidGaps.mo"
KINDS = ("CoSimulation", "ModelExchange")


def matrix(time: float) -> np.ndarray:
    return np.array([[4 + time, 1, 2], [0.5, 3 - time, -1], [2, -2, 5 + 2 * time]])


def rhs(time: float) -> np.ndarray:
    return np.array([[1, time], [2 * time, -1], [3, 0.5]])


def names(name: str, rows: int, columns: int) -> list[str]:
    return [f"{name}[{i + 1},{j + 1}]" for i in range(rows) for j in range(columns)]


@pytest.fixture(scope="module", params=KINDS)
def lapack(fmus, request):
    fmu = fmus.build(GAPS, "FluidGaps.FortranLapack")
    outputs = names("X", 3, 2) + names("inv", 3, 3) + ["norm", "d", "info", "infoInverse"]
    return simulate_fmu(str(fmu), fmi_type=request.param, stop_time=1.0, output_interval=0.25,
                        output=outputs)


def test_dgesv_solves_a_non_symmetric_system_with_two_right_hand_sides(lapack):
    for row in lapack:
        expected = np.linalg.solve(matrix(row["time"]), rhs(row["time"]))
        found = np.array([row[name] for name in names("X", 3, 2)]).reshape(3, 2)
        np.testing.assert_allclose(found, expected, rtol=1e-12, atol=1e-14)
        assert row["info"] == 0


def test_dgetrf_and_dgetri_invert_through_a_matrix_output_passed_back(lapack):
    for row in lapack:
        expected = np.linalg.inv(matrix(row["time"]))
        found = np.array([row[name] for name in names("inv", 3, 3)]).reshape(3, 3)
        np.testing.assert_allclose(found, expected, rtol=1e-12, atol=1e-14)
        assert row["infoInverse"] == 0


def test_a_fortran_function_with_a_character_argument_returns_its_value(lapack):
    for row in lapack:
        assert row["norm"] == pytest.approx(np.linalg.norm(matrix(row["time"]), "fro"), rel=1e-14)


def test_a_blas_function_takes_its_scalar_inputs_by_reference(lapack):
    # the first row of A times its second column
    for row in lapack:
        a = matrix(row["time"])
        assert row["d"] == pytest.approx(a[0, :] @ a[:, 1], rel=1e-14)


# ------------------------------------------------------------------- names and bindings
def test_an_inherited_function_default_reads_the_import_where_it_was_written(fmus):
    # Friction.area (a class extends of PartialFriction.area) has no import of pi
    fmu = fmus.build(GAPS, "FluidGaps.InheritedImport")
    result = simulate_fmu(str(fmu), stop_time=1.0, output_interval=0.25, output=["y"])
    pi = 3.14159265358979
    np.testing.assert_allclose(result["y"], 2 * pi * (1 + result["time"]) ** 2 / 4, rtol=1e-13)


def test_bindings_that_read_each_other_only_in_branches_a_known_flag_rules_out(fmus):
    fmu = fmus.build(GAPS, "FluidGaps.StartValues")
    result = simulate_fmu(str(fmu), stop_time=1.0, output_interval=0.25, relative_tolerance=1e-10,
                          output=["T", "h", "T2", "h2", "x"])
    # T = 300, h = p T = 600, h2 = 900, T2 = h2 / p = 450: x' = -x / 300 + 2, x(0) = 300
    for name, value in (("T", 300), ("h", 600), ("T2", 450), ("h2", 900)):
        assert result[name][0] == pytest.approx(value, rel=1e-15)
    np.testing.assert_allclose(result["x"], 600 - 300 * np.exp(-result["time"] / 300),
                               rtol=1e-8)


def test_bindings_whose_flag_is_not_a_literal_are_still_a_cycle():
    with pytest.raises(CompilerError, match=r"FluidGaps.mo:\d+:\d+.*'T' depends on 'T' itself "
                                            r"through 'h'.*acyclic"):
        flatten_model(GAPS, "FluidGaps.CyclicStartValues")


def test_a_matrix_constructor_of_vectors_in_a_function_takes_them_as_columns(fmus):
    fmu = fmus.build(GAPS, "FluidGaps.ColumnMatrix")
    outputs = [f"{name}[{k}]" for name in "cb" for k in (1, 2, 3)]
    result = simulate_fmu(str(fmu), stop_time=1.0, output_interval=0.25, output=outputs)
    t = result["time"]
    # A = [ones(3), v, v2], v = {1 + t, 2, 3}: A[:, 2] + A[2, :] = v + {1, 2, 4}
    np.testing.assert_allclose(result["c[1]"], 2 + t, rtol=1e-15)
    np.testing.assert_allclose(result["c[2]"], 4, rtol=1e-15)
    np.testing.assert_allclose(result["c[3]"], 7, rtol=1e-15)
    # B = [v, v2; v2, v]: B[4, 2] = v[1], B[3, 1] = v[3], B[5, 1] = v2[2]
    np.testing.assert_allclose(result["b[1]"], 1 + t, rtol=1e-15)
    np.testing.assert_allclose(result["b[2]"], 3, rtol=1e-15)
    np.testing.assert_allclose(result["b[3]"], 4, rtol=1e-15)


def test_parameters_that_read_each_other_are_computed_in_the_order_the_flag_selects(fmus):
    # settings.useT = false: h = 1000 first, then T = h / p = 500
    fmu = fmus.build(GAPS, "FluidGaps.StartValuesByEnthalpy")
    result = simulate_fmu(str(fmu), stop_time=1.0, output_interval=0.25, relative_tolerance=1e-10,
                          output=["T", "h", "x"])
    for name, value in (("T", 500), ("h", 1000)):
        assert result[name][0] == pytest.approx(value, rel=1e-15)
    # x' = -x / 500 + 2, x(0) = 500
    np.testing.assert_allclose(result["x"], 1000 - 500 * np.exp(-result["time"] / 500),
                               rtol=1e-8)


def test_a_branch_a_parameter_condition_rules_out_may_be_invalid():
    # n = 1: linspace(a, b, 1) is not defined, but the condition n > 1 rules it out
    flat = flatten_model(GAPS, "FluidGaps.SingleSegment")
    assert [item.name for item in flat.variables if item.name.startswith("ps")] == ["ps[1]"]


def test_the_branch_a_parameter_condition_selects_is_the_value(fmus):
    fmu = fmus.build(GAPS, "FluidGaps.SingleSegment")
    result = simulate_fmu(str(fmu), stop_time=1.0, output_interval=0.25, output=["y[1]"])
    np.testing.assert_allclose(result["y[1]"], 1.5 * (1 + result["time"]), rtol=1e-15)


def test_an_index_computed_at_initialization_picks_the_element(fmus):
    # ind = 2 (the position of "b"): y = v[2] = 2 t
    fmu = fmus.build(GAPS, "FluidGaps.InitialIndex")
    result = simulate_fmu(str(fmu), stop_time=1.0, output_interval=0.25, output=["ind", "y"])
    assert list(result["ind"]) == [2] * len(result)
    np.testing.assert_allclose(result["y"], 2 * result["time"], rtol=1e-15, atol=1e-15)
