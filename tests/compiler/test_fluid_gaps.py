"""Constructs that stopped Modelica.Fluid's examples (issue 14), each in a small self-written
model (msl_models/FluidGaps.mo) compiled with gcc's warnings as errors (tests/conftest.py)
and compared with numpy.

External "FORTRAN 77" functions (MLS 12.9.1): Modelica.Math.Matrices calls LAPACK through
them; the FMU links the system's liblapack and passes every argument by reference, arrays in
column-major order."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from fmpy import simulate_fmu

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
