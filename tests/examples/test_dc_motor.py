"""dc_motor: motor and cascade speed controller as two FMUs, against scipy.

The reference integrates the same equations (four states) monolithically with DOP853 at
rtol 1e-10 (the limiters and the anti-windup switch make the right-hand side non-smooth: the
step control finds the kinks). The controller measures the speed in rpm through SSP unit
conversion from the motor's rad/s.
"""
from __future__ import annotations

import numpy as np
import pytest
from scipy.integrate import solve_ivp

R, L, K, J, B, T_LOAD, T_ON = 1.0, 5e-3, 0.1, 1e-3, 1e-4, 0.3, 1.0
N_REF, KP_N, KI_N, I_MAX, KP_I, KI_I, U_MAX = 3000.0, 0.05, 0.6, 10.0, 5.0, 1000.0, 48.0
RPM = 2 * np.pi / 60  # rad/s per rpm
STOP = 1.5


def controller(w, i, x_n, x_i):
    e_n = N_REF - w / RPM
    demand = KP_N * e_n + KI_N * x_n
    i_ref = np.clip(demand, -I_MAX, I_MAX)
    winding = (demand > I_MAX and e_n > 0) or (demand < -I_MAX and e_n < 0)
    u = np.clip(KP_I * (i_ref - i) + KI_I * x_i, -U_MAX, U_MAX)
    return u, i_ref, 0.0 if winding else e_n


def drive(t, x):
    i, w, x_n, x_i = x
    u, i_ref, dx_n = controller(w, i, x_n, x_i)
    load = T_LOAD if t >= T_ON else 0.0
    return [(u - R * i - K * w) / L, (K * i - B * w - load) / J, dx_n, i_ref - i]


def reference():
    """The solutions before and after the load step (a kink of the right-hand side)."""
    options = {"method": "DOP853", "rtol": 1e-10, "atol": 1e-10, "dense_output": True}
    start = solve_ivp(drive, (0.0, T_ON), [0.0, 0.0, 0.0, 0.0], **options)
    return start, solve_ivp(drive, (T_ON, STOP), start.y[:, -1], **options)


@pytest.mark.slow  # compiles two models (about 25 s on a loaded machine)
def test_speed_and_current_limit_match_the_monolithic_reference(run_example):
    values = run_example("dc_motor", tolerance=1e-9).values
    start, after = reference()
    time, w, i = values["time"], values["Motor.w"], values["Motor.i"]
    # steady state after the load step: the speed loop's integral removes the error
    assert w[-1] / RPM == pytest.approx(N_REF, rel=1e-5)
    assert w[-1] == pytest.approx(after.y[1, -1], rel=1e-6)
    assert i[-1] == pytest.approx((T_LOAD + B * w[-1]) / K, rel=1e-4)
    # the current limit holds during the run-up (the current loop does not overshoot it)
    peak_ref = max(np.max(start.y[0]), np.max(after.y[0]))
    print(f"peak current {np.max(i):.4f} A (reference {peak_ref:.4f} A)")
    assert np.max(np.abs(values["Controller.i_ref"])) == pytest.approx(I_MAX, rel=1e-12)
    assert np.max(i) <= I_MAX
    # the current loop's overshoot in the first milliseconds is the part of the run most
    # sensitive to the coupling: 0.3 % lower at the 0.1 ms step, first order in the step
    assert np.max(i) == pytest.approx(peak_ref, rel=5e-3)
    # the run-up: the time the speed first reaches 99 % of the set point
    grid = np.linspace(0, T_ON, 200001)
    ramp_ref = grid[np.argmax(start.sol(grid)[1] >= 0.99 * N_REF * RPM)]
    ramp = time[np.argmax(w >= 0.99 * N_REF * RPM)]
    print(f"99 % of the set point at {ramp:.5f} s (reference {ramp_ref:.5f} s)")
    assert ramp == pytest.approx(ramp_ref, abs=2e-4)
    # the speed dip under the load step
    grid = np.linspace(T_ON, STOP, 200001)
    dip_ref = np.min(after.sol(grid)[1])
    dip = np.min(w[time >= T_ON])
    print(f"speed dip to {dip / RPM:.3f} rpm (reference {dip_ref / RPM:.3f} rpm)")
    assert N_REF * RPM - dip == pytest.approx(N_REF * RPM - dip_ref, rel=0.02)
