"""A stiff heat-conduction rod (codegen_models/Heat.mo: arrays of components connected in
for-loops) compiled to an FMU: 20 cells against the reference interpreter, 1000 cells against
scipy's Radau with the exact tridiagonal Jacobian, on the runtime's sparse LU path.

The rod has unit length and diffusivity, N cells of capacity 1/N and links of conductance N:
dT_i/dt = N^2 (T_{i-1} - 2 T_i + T_{i+1}) with T_0 = 100 and an insulated end, whose stiffness
(eigenvalues to -4 N^2) needs the implicit integrator.
"""
from __future__ import annotations

import re
import zipfile
from pathlib import Path

import numpy as np
import pytest
from fmpy import simulate_fmu
from scipy.integrate import solve_ivp
from scipy.sparse import diags

from tests.compiler.fmu_compare import ATOL, RTOL, mismatches, run

HEAT = Path(__file__).parent / "codegen_models" / "Heat.mo"
GRID = np.linspace(0.0, 0.1, 101)


def cells(n: int) -> list[str]:
    return [f"cell[{i}].T" for i in range(1, n + 1)]


def rod_solution(n: int) -> np.ndarray:
    """scipy's Radau at tight tolerances on GRID: one row per cell."""
    main = -2.0 * np.ones(n)
    main[-1] = -1.0   # the insulated end
    matrix = diags([np.ones(n - 1), main, np.ones(n - 1)], [-1, 0, 1], format="csc") * n ** 2
    heating = np.zeros(n)
    heating[0] = n ** 2 * 100.0
    solution = solve_ivp(lambda t, x: matrix @ x + heating, (0.0, 0.1), np.zeros(n),
                         method="Radau", jac=matrix, t_eval=GRID, rtol=1e-11, atol=1e-9)
    assert solution.success
    return solution.y


def defines(fmu: Path) -> dict:
    with zipfile.ZipFile(fmu) as archive:
        text = archive.read("sources/config.h").decode() + archive.read("sources/radau5.h").decode()
    return {name: int(value) for name, value in re.findall(r"#define (\w+) (\d+)\n", text)}


# ---------------------------------------------------------------------------- 20 cells
@pytest.fixture(scope="module")
def short_rod(fmus):
    fmu = fmus.build(HEAT, "Heat.ShortRod")
    reference = fmus.reference(HEAT, "Heat.ShortRod", interval=0.001, rtol=1e-9)
    return fmu, reference


@pytest.mark.parametrize("kind, tolerance", [("CoSimulation", 1e-8), ("ModelExchange", 1e-10)])
def test_short_rod_matches_the_interpreter(short_rod, kind, tolerance):
    fmu, reference = short_rod
    names = cells(20) + ["link[1].Q", "link[20].Q"]
    result = run(fmu, kind, 0.0, 0.1, tolerance, names)
    assert mismatches(result, reference, GRID, names) == []


def test_short_rod_matches_scipy_and_stays_dense(short_rod):
    fmu, _ = short_rod
    result = run(fmu, "CoSimulation", 0.0, 0.1, 1e-8, cells(20))
    values = np.array([result[name] for name in cells(20)])
    exact = rod_solution(20)
    assert np.all(np.abs(values - exact) <= ATOL + RTOL * np.abs(exact))
    sizes = defines(fmu)
    assert sizes["N_STATES"] == 20 <= sizes["SPARSE_MIN_STATES"]


# -------------------------------------------------------------------------- 1000 cells
@pytest.fixture(scope="module")
def rod(fmus) -> Path:
    return fmus.build(HEAT, "Heat.Rod")


@pytest.mark.slow
def test_long_rod_has_a_sparse_tridiagonal_jacobian_pattern(rod):
    sizes = defines(rod)
    assert sizes["N_STATES"] == 1000 > sizes["SPARSE_MIN_STATES"]
    assert sizes["N_JACOBIAN_NONZEROS"] == 3 * 1000 - 2


@pytest.mark.slow
def test_long_rod_takes_the_sparse_lu_path_and_matches_scipy(rod):
    messages = []
    result = simulate_fmu(str(rod), fmi_type="CoSimulation", relative_tolerance=1e-8,
                          output_interval=0.001, output=cells(1000), debug_logging=True,
                          logger=lambda *args: messages.append(args[-1].decode()))
    statistics = [text for text in messages if text.startswith("doStep from t = ")]
    assert len(statistics) == 100
    assert all(text.endswith("(sparse LU)") for text in statistics)
    values = np.array([result[name] for name in cells(1000)])
    exact = rod_solution(1000)
    assert np.all(np.abs(values - exact) <= ATOL + RTOL * np.abs(exact))
    # the heat got in: hot at the heated end, falling along the rod, the far end still cool
    assert values[0, -1] > 99 and 1 < values[-1, -1] < 10
    assert np.all(np.diff(values[:, -1]) < 0)
