"""spring_chain: ten spring-mass FMUs whose neighbours form algebraic loops, solved by the
master's fixed-point iteration, against the exact solution of the equivalent chain.

Between two masses a spring of the left element and one of the right element meet at a
massless port: in series they are one spring of k_l k_r / (k_l + k_r). The monolithic
chain is linear, M x'' + D x' + K x = 0, solved exactly by the matrix exponential.
"""
from __future__ import annotations

import numpy as np
import pytest
from scipy.linalg import expm

N, M, K_LEFT, K_RIGHT, D, PULL = 10, 1.0, 100.0, 400.0, 0.2, 0.1


def exact(times):
    """Positions of the masses at ``times`` (rows)."""
    k_series = K_LEFT * K_RIGHT / (K_LEFT + K_RIGHT)
    stiffness = np.zeros((N, N))
    stiffness[0, 0] = K_LEFT  # the first mass hangs on the wall through its left spring
    for i in range(N - 1):
        stiffness[i:i + 2, i:i + 2] += k_series * np.array([[1, -1], [-1, 1]])
    system = np.block([[np.zeros((N, N)), np.eye(N)], [-stiffness / M, -D / M * np.eye(N)]])
    start = np.zeros(2 * N)
    start[N - 1] = PULL
    return np.array([(expm(system * t) @ start)[:N] for t in times])


def position_error(values) -> float:
    positions = np.column_stack([values[f"M{i}.x"] for i in range(1, N + 1)])
    every = max(1, round(0.01 / (values["time"][1] - values["time"][0])))
    return np.max(np.abs(positions[::every] - exact(values["time"][::every])))


def test_chain_through_algebraic_loops_matches_the_exact_solution(run_example):
    values = run_example("spring_chain", tolerance=1e-9).values
    error = position_error(values)
    coarse = position_error(run_example("spring_chain", tolerance=1e-9, step_size=2e-3).values)
    print(f"largest position error {error:.3g} m at 1 ms, {coarse:.3g} m at 2 ms "
          f"(of a {PULL} m pull)")
    assert error < 0.02 * PULL
    assert error / coarse == pytest.approx(0.5, abs=0.05)  # first order in the step
    # the loops converged: at every communication point the ports agree, each where both
    # springs meeting there put it (one pass without iterating would leave O(h) gaps)
    for i in range(1, N):
        port, force = values[f"M{i}.p_right"], values[f"M{i + 1}.f_left"]
        assert np.allclose(force, K_LEFT * (values[f"M{i + 1}.x"] - port), rtol=0, atol=1e-8)
        assert np.allclose(port, values[f"M{i}.x"] + force / K_RIGHT, rtol=0, atol=1e-9)
