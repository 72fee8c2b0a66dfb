"""Model Exchange FMUs stepped by the C Radau driver (fmu_templates/me_driver.c) inside the
master: stiff accuracy against the stored reference, state events against the analytic
bouncing ball, time events and termination, inputs from other components, chattering."""
from __future__ import annotations

import math

import numpy as np
import pytest
from test_master_run import expected_integral, pack, source_and_integrator

from cosim import api
from cosim.fmi import FmiCallError
from tests.runtime.drive import references, scaled_error


def me_system(tmp_path, built, name: str, outputs: tuple[str, ...], parameters=None,
              implementation="ModelExchange", file="me.ssp"):
    description = {"name": "me", "components": {name: {
        "source": f"resources/{name}.fmu", "implementation": implementation,
        "connectors": {o: "output Real" for o in outputs}, "parameters": parameters or {}}}}
    return pack(tmp_path, built, description, file, fmus=(name,))


def test_stiff_van_der_pol_matches_the_reference(tmp_path, built):
    reference = references("VanDerPol")
    system = me_system(tmp_path, built, "VanDerPol", ("y1", "y2"))
    result = api.run(system, stop_time=2.0, step_size=0.02, tolerance=1e-6)
    assert np.allclose(result.values["time"], reference[:, 0], atol=1e-12)
    values = np.column_stack([result.values["VanDerPol.y1"], result.values["VanDerPol.y2"]])
    assert scaled_error(values, reference[:, 1:], 1e-6, 1e-6) <= 1.0


def bouncing_ball(times, h0=1.0, g=9.81, e=0.7):
    """Height of the ball: free fall, then flights of 2 v / g with v shrinking by e."""
    t_hit = math.sqrt(2 * h0 / g)
    heights = []
    for t in times:
        if t <= t_hit:
            heights.append(h0 - g * t * t / 2)
            continue
        start, v = t_hit, e * g * t_hit
        while t > start + 2 * v / g:
            start, v = start + 2 * v / g, e * v
        tau = t - start
        heights.append(v * tau - g * tau * tau / 2)
    return np.array(heights)


def test_bouncing_ball_state_events(tmp_path, built):
    system = me_system(tmp_path, built, "BouncingBall", ("h", "v"))
    result = api.run(system, stop_time=2.0, step_size=0.01, tolerance=1e-8)
    exact = bouncing_ball(result.values["time"])
    assert np.max(np.abs(result.values["BouncingBall.h"] - exact)) < 1e-6
    # rows just before and just after each bounce at its time: v from down to up (the
    # model has a second event right after, when h comes back above 0: two more rows)
    times, v = result.values["time"], result.values["BouncingBall.v"]
    same = np.diff(times) < 1e-9
    first = np.flatnonzero(same & ~np.concatenate(([False], same[:-1])))
    assert np.allclose(times[first], bouncing_times(2.0), atol=1e-7)
    assert np.all(v[first] < 0) and np.all(v[first + 1] > 0)
    assert np.allclose(v[first + 1], -0.7 * v[first], rtol=1e-9)
    # the same FMU in Co-Simulation (the runtime's own event handling) agrees on the grid
    grid = api.run(system, stop_time=2.0, step_size=0.01, tolerance=1e-8, event_rows=False)
    assert len(grid.values) == 201
    cs = api.run(me_system(tmp_path, built, "BouncingBall", ("h", "v"),
                           implementation="CoSimulation", file="cs.ssp"),
                 stop_time=2.0, step_size=0.01, tolerance=1e-8, event_rows=False)
    assert np.max(np.abs(cs.values["BouncingBall.h"] - grid.values["BouncingBall.h"])) < 1e-6


def bouncing_times(stop: float, h0=1.0, g=9.81, e=0.7) -> list[float]:
    t, v, times = math.sqrt(2 * h0 / g), math.sqrt(2 * g * h0), []
    while t < stop:
        times.append(t)
        v *= e
        t += 2 * v / g
    return times


def test_time_events_without_states_and_termination(tmp_path, built):
    system = me_system(tmp_path, built, "Counter", (), {"limit": 7, "period": 0.1})
    result = api.run(system, stop_time=1.0, step_size=0.05, record=["Counter.count"],
                     event_rows=False)
    time = result.values["time"]
    # a sample at t = 0 and every 0.1 s after; the 7th ends the run at t = 0.6
    assert result.terminated_by == "Counter"
    assert time[-1] == pytest.approx(0.6)
    assert list(result.values["Counter.count"]) == [min(7, math.floor(t / 0.1 + 1e-9) + 1)
                                                    for t in time]


def test_time_events_on_the_grid_have_a_row_before_them(tmp_path, built):
    system = me_system(tmp_path, built, "Counter", (), {"limit": 7, "period": 0.1})
    result = api.run(system, stop_time=1.0, step_size=0.05, record=["Counter.count"])
    rows = [(round(t, 9), int(n)) for t, n in zip(result.values["time"],
                                                 result.values["Counter.count"])]
    # at 0.1, 0.2, ...: the count before the sample, then the row of the grid after it
    assert rows[:6] == [(0.0, 1), (0.05, 1), (0.1, 1), (0.1, 2), (0.15, 2), (0.2, 2)]
    assert rows[-2:] == [(0.6, 6), (0.6, 7)]


def test_model_exchange_component_with_inputs(tmp_path, built):
    description = source_and_integrator({"factor": 2.0, "offset": 0.5})
    description["components"]["I"]["implementation"] = "ModelExchange"
    result = api.run(pack(tmp_path, built, description))
    assert np.allclose(result.values["I.x"], expected_integral(2.0, 0.5), rtol=1e-9)


def test_chattering_stops_the_run_with_the_time(tmp_path, built):
    system = me_system(tmp_path, built, "Chatter", ("x",))
    with pytest.raises(FmiCallError) as error:
        api.run(system, stop_time=1.0, step_size=0.1)
    assert error.value.location.startswith("Chatter at t = 0.5")
    assert "chattering at t = 0.5" in error.value.message
