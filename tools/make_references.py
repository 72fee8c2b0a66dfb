"""Regenerate the stored reference solutions of the stiff test problems (tests/runtime/references).

Each is scipy's Radau at rtol 1e-12 with the analytic Jacobian, sampled on the grid the tests
use. Run it after changing a problem; tests/runtime/test_references.py checks that a fresh
solution still matches what is stored.

    python tools/make_references.py [NAME ...]
"""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
from scipy.integrate import solve_ivp

sys.path[:0] = [str(Path(__file__).resolve().parents[1]), str(Path(__file__).resolve().parents[1] / "src")]
from tests.runtime.problems import PROBLEMS  # noqa: E402

REFERENCE_DIR = Path(__file__).resolve().parents[1] / "tests" / "runtime" / "references"
REFERENCE_RTOL = 1e-12


def reference_solution(name: str) -> np.ndarray:
    """Columns: time, then the states; rows: the problem's output grid."""
    problem = PROBLEMS[name]
    solution = solve_ivp(problem.rhs, (problem.grid[0], problem.grid[-1]), problem.y0, method="Radau",
                         t_eval=problem.grid, jac=problem.jacobian, rtol=REFERENCE_RTOL,
                         atol=REFERENCE_RTOL * problem.atol_scale)
    if not solution.success:
        raise RuntimeError(f"{name}: {solution.message}")
    return np.column_stack([solution.t, solution.y.T])


def write(name: str, table: np.ndarray) -> Path:
    path = REFERENCE_DIR / f"{name}.csv"
    header = ",".join(["time", *PROBLEMS[name].state_names])
    np.savetxt(path, table, delimiter=",", header=header, comments="", fmt="%.17g")
    return path


def main(names: list[str]) -> None:
    REFERENCE_DIR.mkdir(parents=True, exist_ok=True)
    for name in names or PROBLEMS:
        print(write(name, reference_solution(name)))


if __name__ == "__main__":
    main(sys.argv[1:])
