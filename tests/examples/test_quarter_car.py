"""quarter_car: chassis, wheel and road as three FMUs, against scipy on the same equations.

The reference integrates the monolithic quarter car (4 states) with DOP853 at rtol 1e-10; the
co-simulation holds each input over a communication step, so its peak chassis acceleration
differs by the coupling error, first order in the step.
"""
from __future__ import annotations

import numpy as np
import pytest
from scipy.integrate import solve_ivp

pytestmark = pytest.mark.slow  # compiles three models (about 20 s on a loaded machine)

M_S, K_S, D_S = 250.0, 16000.0, 1000.0
M_U, K_T, D_T = 35.0, 160000.0, 0.0
SPEED, HEIGHT, LENGTH, START = 10.0, 0.05, 1.0, 1.0
STOP = 1.5


def road(t: float) -> tuple[float, float]:
    s = SPEED * t - START
    if not 0 < s < LENGTH:
        return 0.0, 0.0
    phase = 2 * np.pi * s / LENGTH
    return 0.5 * HEIGHT * (1 - np.cos(phase)), np.pi * HEIGHT * SPEED / LENGTH * np.sin(phase)


def chassis_acceleration(z_s, v_s, z_u, v_u):
    return -(K_S * (z_s - z_u) + D_S * (v_s - v_u)) / M_S


def quarter_car(t, x):
    z_s, v_s, z_u, v_u = x
    z_r, v_r = road(t)
    f_s = K_S * (z_s - z_u) + D_S * (v_s - v_u)
    f_t = K_T * (z_r - z_u) + D_T * (v_r - v_u)
    return [v_s, -f_s / M_S, v_u, (f_s + f_t) / M_U]


def reference():
    # the bump's start and end are kinks of the road: integrate piece by piece
    edges = [0.0, START / SPEED, (START + LENGTH) / SPEED, STOP]
    state, times, states = np.zeros(4), [], []
    for begin, end in zip(edges, edges[1:]):
        piece = solve_ivp(quarter_car, (begin, end), state, method="DOP853", rtol=1e-10,
                          atol=1e-12, dense_output=True)
        grid = np.linspace(begin, end, 4001)
        times.append(grid)
        states.append(piece.sol(grid))
        state = piece.y[:, -1]
    return np.concatenate(times), np.concatenate(states, axis=1)


def test_peak_chassis_acceleration_matches_the_monolithic_reference(run_example):
    result = run_example("quarter_car", tolerance=1e-8)
    values = result.values
    t, x = reference()
    a_ref = chassis_acceleration(*x)
    peak_ref = np.max(np.abs(a_ref))
    peak = np.max(np.abs(values["Chassis.a_s"]))
    print(f"peak |a_s|: cosim {peak:.5g}, reference {peak_ref:.5g} m/s2")
    assert peak == pytest.approx(peak_ref, rel=0.02)
    # the wheel settles back on the road after the bump
    assert abs(values["Wheel.z_u"][-1]) < 1e-3


def test_the_coupling_error_is_first_order_in_the_step(run_example):
    """Over the whole run, not only at the peak: each input is held over a step, so the
    chassis travel converges to the reference linearly as the step shrinks."""
    t, x = reference()
    errors = []
    for step in (1e-3, 5e-4):
        values = run_example("quarter_car", tolerance=1e-8, step_size=step).values
        errors.append(np.max(np.abs(values["Chassis.z_s"] - np.interp(values["time"], t, x[0]))))
    print(f"largest chassis travel error: {errors[0]:.3g} m at 1 ms, {errors[1]:.3g} m at 0.5 ms")
    assert errors[0] < 0.03 * np.max(x[0])
    assert errors[1] / errors[0] == pytest.approx(0.5, abs=0.05)
