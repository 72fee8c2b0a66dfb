"""State events, time events, input events, early return, termination and chattering."""
from __future__ import annotations

import math

import numpy as np
import pytest
from fmpy import simulate_fmu

from tests.runtime.drive import open_fmu, value_references
from tests.runtime.raw_fmu import ERROR, OK, RawFmu

G, E, H0 = 9.81, 0.7, 1.0


def analytic_bounces(until: float) -> list[float]:
    """Impact times of a ball dropped from H0 with restitution E."""
    t = math.sqrt(2 * H0 / G)
    speed = G * t
    times = []
    while t < until:
        times.append(t)
        speed *= E
        t += 2 * speed / G
    return times


def test_bounces_located_to_1e_6_with_early_return(fmus):
    """With early return allowed, doStep stops at each event: lastSuccessfulTime is the
    located bounce. (The relation h < 0 also turns false again once the ball has risen past
    the hysteresis band, an event without a reinit, which is skipped here.)"""
    description, fmu = open_fmu(fmus["BouncingBall"], "CS", earlyReturnAllowed=True)
    h, v = value_references(description, ["h", "v"])
    fmu.enterInitializationMode(tolerance=1e-8, startTime=0.0)
    fmu.exitInitializationMode()
    t, events, speeds = 0.0, [], []
    while t < 2.4:
        step = min(0.1, 2.4 - t)
        _, terminate, early, last = fmu.doStep(currentCommunicationPoint=t, communicationStepSize=step)
        if early:
            assert abs(fmu.getFloat64([h])[0]) < 1e-9
            if not events or last - events[-1] > 1e-6:
                events.append(last)
                speeds.append(fmu.getFloat64([v])[0])
        t = last if early else t + step
    fmu.terminate()
    fmu.freeInstance()
    expected = analytic_bounces(2.4)
    assert len(events) == len(expected) == 8
    assert np.max(np.abs(np.array(events) - expected)) < 1e-6
    # after bounce k the ball leaves upwards with E^k times the first impact speed
    first_impact = G * expected[0]
    assert np.allclose(speeds, [first_impact * E**k for k in range(1, 9)], rtol=1e-6)


def test_bouncing_ball_co_simulation_matches_analytic_trajectory(fmus):
    result = simulate_fmu(str(fmus["BouncingBall"]), fmi_type="CoSimulation", stop_time=2.4, output_interval=0.01)
    bounces = [0.0] + analytic_bounces(2.4)
    heights = []
    for t in result["time"]:
        k = max(i for i, b in enumerate(bounces) if b <= t)
        launch = 0.0 if k == 0 else G * bounces[1] * E**k
        heights.append((H0 if k == 0 else 0.0) + launch * (t - bounces[k]) - G / 2 * (t - bounces[k]) ** 2)
    assert np.max(np.abs(result["h"] - heights)) < 1e-6


def test_bouncing_ball_model_exchange_events(fmus):
    """fmpy's CVode locates the same bounces through the ME event indicators."""
    result = simulate_fmu(str(fmus["BouncingBall"]), fmi_type="ModelExchange", stop_time=2.4, output_interval=0.01,
                          relative_tolerance=1e-10, record_events=True)
    events = result["time"][1:][np.diff(result["time"]) == 0]
    bounces = [t for k, t in enumerate(events) if k == 0 or t - events[k - 1] > 1e-6]
    assert len(bounces) == len(analytic_bounces(2.4))
    assert np.max(np.abs(np.array(bounces) - analytic_bounces(2.4))) < 1e-6


def test_chattering_stops_with_error_naming_the_indicator(fmus):
    fmu = RawFmu(fmus.extracted("Chatter"))
    fmu.initialize()
    status, *_ = fmu.do_step(0.0, 1.0)
    assert status == ERROR
    assert any("chattering" in m and "x > 0" in m for m in fmu.messages(ERROR)), fmu.log
    fmu.free()


def test_time_events_count_samples(fmus):
    result = simulate_fmu(str(fmus["Counter"]), fmi_type="CoSimulation", stop_time=1.0, output_interval=0.05)
    # sample(0, 0.1) fires at 0, 0.1, ..., 1.0: the count right after t is floor(t/0.1) + 1
    assert list(result["count"]) == [math.floor(round(t / 0.1, 9)) + 1 for t in result["time"]]
    assert np.allclose(result["y"], result["count"] * 0.1)
    assert list(result["parity"]) == [2 if c % 2 else 1 for c in result["count"]]


def test_discrete_input_change_fires_an_input_event(fmus):
    """Switching `enable` off at t = 0.5 stops the counter from the next sample on."""
    description, fmu = open_fmu(fmus["Counter"], "CS")
    enable, count = value_references(description, ["enable", "count"])
    fmu.enterInitializationMode(startTime=0.0)
    fmu.exitInitializationMode()
    counts = []
    for k in range(10):
        if k == 5:
            fmu.setBoolean([enable], [False])
        fmu.doStep(currentCommunicationPoint=k * 0.1, communicationStepSize=0.1)
        counts.append(fmu.getInt32([count])[0])
    fmu.freeInstance()
    assert counts == [2, 3, 4, 5, 6, 6, 6, 6, 6, 6]


def test_terminate_is_reported_by_do_step(fmus):
    description, fmu = open_fmu(fmus["Counter"], "CS")
    limit, count = value_references(description, ["limit", "count"])
    fmu.setInt32([limit], [4])
    fmu.enterInitializationMode(startTime=0.0)
    fmu.exitInitializationMode()
    t = 0.0
    while True:
        _, terminate, _, last = fmu.doStep(currentCommunicationPoint=t, communicationStepSize=0.1)
        if terminate:
            break
        t += 0.1
    assert last == pytest.approx(0.3)
    assert fmu.getInt32([count]) == [4]
    fmu.terminate()
    fmu.freeInstance()


def test_string_parameter_reaches_the_model_log(fmus):
    fmu = RawFmu(fmus.extracted("Counter"), logging_on=True)
    limit = (fmu.vr["limit"],)
    import ctypes
    assert fmu.lib.fmi3SetInt32 is not None
    set_int = fmu.lib.fmi3SetInt32
    set_int.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_uint32), ctypes.c_size_t,
                        ctypes.POINTER(ctypes.c_int32), ctypes.c_size_t]
    set_string = fmu.lib.fmi3SetString
    set_string.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_uint32), ctypes.c_size_t,
                           ctypes.POINTER(ctypes.c_char_p), ctypes.c_size_t]
    assert set_int(fmu.instance, (ctypes.c_uint32 * 1)(*limit), 1, (ctypes.c_int32 * 1)(2), 1) == OK
    label = (ctypes.c_uint32 * 1)(fmu.vr["label"])
    assert set_string(fmu.instance, label, 1, (ctypes.c_char_p * 1)(b"my counter"), 1) == OK
    fmu.initialize()
    status, terminate, _, _ = fmu.do_step(0.0, 0.5)
    assert status == OK and terminate
    assert any("my counter reached its limit 2" in m for m in fmu.messages())
    fmu.free()
