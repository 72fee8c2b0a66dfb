"""Simulations of picoseconds (MSL Spice3 examples run for 1e-11 s): times compared with an
absolute floor of 1 s made every communication step and every event "the same instant as
t = 0", and the run returned the start values throughout without an error. Self-written
models (msl_models/TimeScales.mo), run through cosim's master (CS and ME) and fmpy, against
closed forms."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from fmpy import simulate_fmu

from cosim import api

MODELS = Path(__file__).parent / "msl_models" / "TimeScales.mo"
PS = 1e-12


def pulse(t):
    """The trapezoid of TimeScales.Pulse: rise 0.1 ps, width 1 ps, period 2 ps from 4 ps."""
    phase = np.where(t >= 4 * PS, np.mod(t - 4 * PS, 2 * PS), -1.0)
    phase = np.where(np.isclose(phase, 2 * PS, rtol=0, atol=1e-9 * PS), 0.0, phase)
    return np.select([phase < 0, phase < 0.1 * PS, phase < 1.1 * PS, phase < 1.2 * PS],
                     [0.0, 5 * phase / (0.1 * PS), 5.0, 5 * (1.2 * PS - phase) / (0.1 * PS)], 0.0)


def charged(t):
    """x of TimeScales.ChargedRC: charges while the pulse is above 2.5 (from 0.05 ps after
    each period's start to 0.05 ps after its width), discharges otherwise, tau = 1 ps."""
    x = np.zeros_like(t)
    edges = [0.0]
    for k in range(4):
        start = 4 * PS + 2 * k * PS
        edges += [start + 0.05 * PS, start + 1.15 * PS]
    edges.append(np.inf)
    level = 0.0
    for i, (lo, hi) in enumerate(zip(edges[:-1], edges[1:])):
        target = 1.0 if i % 2 else 0.0
        inside = (t >= lo) & (t < hi)
        x[inside] = target + (level - target) * np.exp(-(t[inside] - lo) / PS)
        level = target + (level - target) * np.exp(-(min(hi, 1e-11) - lo) / PS)
    return x


def _sampled(values, name):
    return values["time"], values[name]


@pytest.mark.parametrize("interface", ["cs", "me"])
def test_a_picosecond_pulse_runs_through_the_master(interface):
    result = api.run(MODELS, model="TimeScales.Pulse", record=["TimeScales_Pulse.v"],
                     interface=interface, event_rows=False)
    t, v = _sampled(result.values, "TimeScales_Pulse.v")
    assert len(t) == 201 and t[-1] == pytest.approx(1e-11, rel=1e-12)
    assert v.max() == pytest.approx(5.0)        # it ran: the start values were all 0
    assert v == pytest.approx(pulse(t), abs=1e-6)


@pytest.mark.parametrize("interface", ["cs", "me"])
def test_a_picosecond_state_event_is_located(interface):
    result = api.run(MODELS, model="TimeScales.ChargedRC", tolerance=1e-9,
                     record=["TimeScales_ChargedRC.x"], interface=interface, event_rows=False)
    t, x = _sampled(result.values, "TimeScales_ChargedRC.x")
    assert x.max() > 0.6
    assert x == pytest.approx(charged(t), abs=1e-6)


@pytest.mark.parametrize("kind", ["CoSimulation", "ModelExchange"])
def test_fmpy_sees_the_same_picosecond_pulse(fmus, kind):
    fmu = fmus.build(MODELS, "TimeScales.Pulse")
    result = simulate_fmu(str(fmu), fmi_type=kind, stop_time=1e-11, output_interval=5e-14,
                          output=["v"])
    assert result["v"] == pytest.approx(pulse(result["time"]), abs=1e-6)
