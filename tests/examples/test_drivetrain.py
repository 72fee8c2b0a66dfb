"""drivetrain: engine map, stick-slip clutch and vehicle as three FMUs, against scipy.

The reference integrates the same equations monolithically with Radau at rtol 1e-10: first
slipping (clutch torque = capacity) up to the event where the slip speed reaches zero, then
locked (engine and gearbox as one inertia).
"""
from __future__ import annotations

import numpy as np
import pytest
from scipy.integrate import solve_ivp

pytestmark = pytest.mark.slow  # compiles three models (about 20 s on a loaded machine)

SPEEDS = [0, 100, 200, 300, 400, 500, 600, 700]
TORQUES = [60, 150, 190, 200, 195, 180, 140, 0]
FRICTION = 0.02
J_E, J_G, RATIO, K_S, D_S = 0.2, 0.05, 14.0, 4000.0, 100.0
T_CAP, T_ON, T_RAMP, W_IDLE = 300.0, 0.2, 0.5, 100.0
M, R, J_W, C_R, C_DA, RHO, G, V_ROLL = 1200.0, 0.3, 2.0, 0.012, 0.65, 1.2, 9.81, 0.01
STOP = 3.0


def engine_torque(w):
    return np.interp(w, SPEEDS, TORQUES) - FRICTION * w


def capacity(t):
    return T_CAP * min(1.0, max(0.0, (t - T_ON) / T_RAMP))


def shaft_torque(w_g, twist, w_w):
    return K_S * twist + D_S * (w_g / RATIO - w_w)


def wheel_acceleration(w_w, t_s):
    v = R * w_w
    resistance = C_R * M * G * np.tanh(v / V_ROLL) + 0.5 * RHO * C_DA * v * abs(v)
    return (t_s - R * resistance) / (J_W + M * R * R)


def slipping(t, x):
    w_e, w_g, twist, w_w = x
    t_s = shaft_torque(w_g, twist, w_w)
    t_c = capacity(t)  # the engine side is faster until the slip ends
    return [(engine_torque(w_e) - t_c) / J_E, (t_c - t_s / RATIO) / J_G, w_g / RATIO - w_w,
            wheel_acceleration(w_w, t_s)]


def locked(t, x):
    w, _, twist, w_w = x
    t_s = shaft_torque(w, twist, w_w)
    a = (engine_torque(w) - t_s / RATIO) / (J_E + J_G)
    return [a, a, w / RATIO - w_w, wheel_acceleration(w_w, t_s)]


def slip_ends(t, x):
    return x[0] - x[1]


slip_ends.terminal, slip_ends.direction = True, -1


def reference():
    """Lock time, the locked phase's solution, and the largest clutch torque needed to stick
    relative to the capacity (below 1: the clutch stays locked)."""
    options = {"method": "Radau", "rtol": 1e-10, "atol": 1e-10}
    slip = solve_ivp(slipping, (0, STOP), [W_IDLE, 0, 0, 0], events=slip_ends, max_step=0.01,
                     **options)
    t_lock = slip.t_events[0][0]
    stuck = solve_ivp(locked, (t_lock, STOP), slip.y[:, -1], dense_output=True, **options)
    w, _, twist, w_w = stuck.y
    t_stick = (J_G * engine_torque(w) + J_E * shaft_torque(w, twist, w_w) / RATIO) / (J_E + J_G)
    margin = np.max(np.abs(t_stick) / np.array([capacity(t) for t in stuck.t]))
    return t_lock, stuck, margin


def test_lock_time_and_final_speed_match_the_monolithic_reference(run_example):
    result = run_example("drivetrain", tolerance=1e-8)
    values = result.values
    t_lock, stuck, margin = reference()
    assert margin < 0.9  # the reference stays locked once locked
    w_e, _, _, w_w = stuck.y[:, -1]
    print(f"lock at {values['Driveline.t_lock'][-1]:.5f} s (reference {t_lock:.5f} s), "
          f"v = {values['Vehicle.v'][-1]:.5f} m/s (reference {R * w_w:.5f} m/s)")
    # the lock event is found inside a communication step (1 ms): within two steps
    assert values["Driveline.t_lock"][-1] == pytest.approx(t_lock, abs=2e-3)
    assert values["Vehicle.v"][-1] == pytest.approx(R * w_w, rel=1e-3)
    assert values["Driveline.w_e"][-1] == pytest.approx(w_e, rel=1e-3)
    # slipping before the lock, stuck after it, and never again slipping
    time, is_locked = values["time"], values["Driveline.locked"].astype(bool)
    assert not is_locked[time < t_lock - 2e-3].any() and is_locked[time > t_lock + 2e-3].all()
    after = time > t_lock + 2e-3
    assert np.max(np.abs(values["Driveline.w_e"][after] - values["Driveline.w_g"][after])) < 1e-6
    # while slipping, the clutch transmits its capacity
    slipping_now = (time > T_ON) & (time < t_lock - 2e-3)
    expected = [capacity(t) for t in time[slipping_now]]
    assert np.allclose(values["Driveline.T_c"][slipping_now], expected, rtol=1e-9, atol=1e-9)
