"""The stiff test problems in Python form (right-hand side, Jacobian, start, output grid), for
references and benchmarks. The same equations are in tests/runtime/fixtures/*.c."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

from tests.runtime.fixtures import HIRES_NOMINAL, HIRES_START, ROBERTSON_NOMINAL


@dataclass(frozen=True)
class Problem:
    rhs: Callable
    jacobian: Callable
    y0: tuple[float, ...]
    grid: np.ndarray            # output times, first is the start
    atol_scale: np.ndarray      # atol = rtol * atol_scale, as the FMU's nominals give it
    state_names: tuple[str, ...]


EPS = 1e-6


def vanderpol(t, y):
    return [y[1], ((1 - y[0] ** 2) * y[1] - y[0]) / EPS]


def vanderpol_jacobian(t, y):
    return [[0.0, 1.0], [(-2 * y[0] * y[1] - 1) / EPS, (1 - y[0] ** 2) / EPS]]


def robertson(t, y):
    r1, r2, r3 = 0.04 * y[0], 1e4 * y[1] * y[2], 3e7 * y[1] ** 2
    return [-r1 + r2, r1 - r2 - r3, r3]


def robertson_jacobian(t, y):
    return [[-0.04, 1e4 * y[2], 1e4 * y[1]],
            [0.04, -1e4 * y[2] - 6e7 * y[1], -1e4 * y[1]],
            [0.0, 6e7 * y[1], 0.0]]


def hires(t, y):
    binding = 280.0 * y[5] * y[7]
    return [-1.71 * y[0] + 0.43 * y[1] + 8.32 * y[2] + 0.0007,
            1.71 * y[0] - 8.75 * y[1],
            -10.03 * y[2] + 0.43 * y[3] + 0.035 * y[4],
            8.32 * y[1] + 1.71 * y[2] - 1.12 * y[3],
            -1.745 * y[4] + 0.43 * y[5] + 0.43 * y[6],
            -binding + 0.69 * y[3] + 1.71 * y[4] - 0.43 * y[5] + 0.69 * y[6],
            binding - 1.81 * y[6],
            -binding + 1.81 * y[6]]


def hires_jacobian(t, y):
    j = np.zeros((8, 8))
    j[0, :3] = -1.71, 0.43, 8.32
    j[1, :2] = 1.71, -8.75
    j[2, 2:5] = -10.03, 0.43, 0.035
    j[3, 1:4] = 8.32, 1.71, -1.12
    j[4, 4:7] = -1.745, 0.43, 0.43
    j[5, 3:8] = 0.69, 1.71, -280 * y[7] - 0.43, 0.69, -280 * y[5]
    j[6, 5:8] = 280 * y[7], -1.81, 280 * y[5]
    j[7, 5:8] = -280 * y[7], 1.81, -280 * y[5]
    return j


PROBLEMS = {
    "VanDerPol": Problem(vanderpol, vanderpol_jacobian, (2.0, 0.0), np.linspace(0.0, 2.0, 101),
                         np.ones(2), ("y1", "y2")),
    "Robertson": Problem(robertson, robertson_jacobian, (1.0, 0.0, 0.0),
                         # uniform (what fmpy's fixed output interval gives) and logarithmic
                         np.union1d(np.linspace(0.0, 1e11, 101), np.logspace(-6, 10, 49)),
                         np.full(3, ROBERTSON_NOMINAL), ("y1", "y2", "y3")),
    "Hires": Problem(hires, hires_jacobian, HIRES_START, np.linspace(0.0, 321.8122, 101),
                     np.full(8, HIRES_NOMINAL), tuple(f"y{k}" for k in range(1, 9))),
}
