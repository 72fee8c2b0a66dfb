"""room_thermal: weather, room and thermostat as three FMUs over a winter day, against scipy.

The reference integrates the room with DOP853 at rtol 1e-10 piece by piece: between the
weather table's rows, and between the thermostat's switchings, found as events where the air
temperature crosses the edge of the hysteresis band.
"""
from __future__ import annotations

import importlib.util

import numpy as np
import pytest
from scipy.integrate import solve_ivp

from tests.examples.conftest import EXAMPLES

C_AIR, C_WALL, UA_AIR_WALL, UA_WALL_OUT, UA_AIR_OUT, P_HEATER = 2e6, 1.5e7, 600, 120, 40, 6000
T_SET, BAND = 21.0, 1.0
T_AIR0, T_WALL0 = 21.0, 17.0
STOP = 86400.0


def weather_module():
    spec = importlib.util.spec_from_file_location(
        "weather_to_modelica", EXAMPLES / "room_thermal" / "weather_to_modelica.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


TIMES, TEMPERATURES = weather_module().read_table()


def room(t, x, heat):
    t_air, t_wall, _ = x
    t_out = np.interp(t, TIMES, TEMPERATURES)
    q = P_HEATER if heat else 0.0
    return [(q - UA_AIR_WALL * (t_air - t_wall) - UA_AIR_OUT * (t_air - t_out)) / C_AIR,
            (UA_AIR_WALL * (t_air - t_wall) - UA_WALL_OUT * (t_wall - t_out)) / C_WALL, q]


def reference():
    """Times, air temperatures (degC) and switch-on times of the monolithic hybrid model."""
    x, heat, t, starts = np.array([T_AIR0, T_WALL0, 0.0]), False, 0.0, []
    times, temperatures = [], []
    while t < STOP:
        edge = T_SET + BAND / 2 if heat else T_SET - BAND / 2

        def switch(_t, y, _heat, edge=edge):
            return y[0] - edge

        switch.terminal = True
        end = min(tk for tk in TIMES + [STOP] if tk > t)
        piece = solve_ivp(room, (t, end), x, args=(heat,), method="DOP853", rtol=1e-10,
                          atol=1e-10, events=switch, max_step=600)
        times.append(piece.t)
        temperatures.append(piece.y[0])
        t, x = piece.t[-1], piece.y[:, -1]
        if piece.status == 1:
            heat = not heat
            if heat:
                starts.append(t)
    return np.concatenate(times), np.concatenate(temperatures), np.array(starts), x[2]


def test_weather_model_holds_the_csv_table():
    """Weather.mo is generated from weather.csv: it must not drift from it."""
    module = weather_module()
    expected = module.modelica_text(TIMES, TEMPERATURES)
    assert (EXAMPLES / "room_thermal" / "Weather.mo").read_text() == expected


@pytest.mark.slow  # compiles three models (about 30 s on a loaded machine)
def test_switching_count_and_temperature_band_match_the_monolithic_reference(run_example):
    step = 2.0  # the SSD's communication step
    result = run_example("room_thermal", tolerance=1e-8)
    values = result.values
    _, t_air_ref, starts_ref, energy_ref = reference()
    starts = values["Thermostat.starts"][-1]
    t_air = values["Room.T_air"] - 273.15
    print(f"heater starts {starts} (reference {len(starts_ref)}), air {t_air.min():.3f} to "
          f"{t_air.max():.3f} degC (reference {t_air_ref.min():.3f} to {t_air_ref.max():.3f}), "
          f"heat {values['Room.E_heat'][-1] / 3.6e6:.2f} kWh (reference {energy_ref / 3.6e6:.2f})")
    assert abs(starts - len(starts_ref)) <= 1
    switched_on = values["time"][1:][np.diff(values["Thermostat.starts"]) > 0]
    assert switched_on[0] == pytest.approx(starts_ref[0], abs=2 * step)
    # the switch lags the band's edge by at most a communication step (2 s): at most
    # 2 s of the fastest heating or cooling rate beyond the band
    rate = step * P_HEATER / C_AIR
    assert T_SET - BAND / 2 - rate <= t_air.min() <= T_SET - BAND / 2
    assert T_SET + BAND / 2 <= t_air.max() <= T_SET + BAND / 2 + rate
    assert values["Room.E_heat"][-1] == pytest.approx(energy_ref, rel=0.01)
    # the weather arrives in kelvin (degC -> K conversion on the connection)
    assert np.allclose(values["Weather.T_out"], np.interp(values["time"], TIMES, TEMPERATURES))
