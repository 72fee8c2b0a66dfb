"""Loops through discrete variables (MLS 8.6, mixed systems), in small self-written models
(msl_models/MixedLoops.mo): the blocks they become, the reference interpreter against closed
forms and scipy, and the compiled FMU (Co-Simulation and Model Exchange through fmpy) against
the interpreter."""
from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest
from fmpy import simulate_fmu
from scipy.integrate import solve_ivp
from scipy.optimize import brentq

from compiler.causalize_api import causalize_model
from compiler.errors import CompilerError
from compiler.system import MixedBlock
from tests.compiler.fmu_compare import ATOL, grid_rows, reference_values, run

MODELS = Path(__file__).parent / "msl_models" / "MixedLoops.mo"
GRID = 101


def system_of(model: str):
    return causalize_model(MODELS, f"MixedLoops.{model}", environ={})


def mixed(blocks) -> list[MixedBlock]:
    return [block for block in blocks if type(block) is MixedBlock]


def reference(fmus, model: str, stop: float):
    return fmus.reference(MODELS, f"MixedLoops.{model}", stop=stop, interval=stop / (GRID - 1),
                          rtol=1e-12)


def grid(stop: float) -> np.ndarray:
    return np.linspace(0.0, stop, GRID)


def away_from(events, times, gap: float = 2e-3) -> np.ndarray:
    """The times not within ``gap`` of an event (where either side is a right answer)."""
    events = np.asarray(events, dtype=float)
    return np.array([t for t in times if not len(events) or np.min(np.abs(events - t)) > gap])


# --------------------------------------------------------------------------- structure
def test_the_diode_is_a_mixed_block_at_initialization_only():
    system = system_of("SingleDiode")
    (block,) = mixed(system.initial_blocks)
    assert block.discrete == ("off",)
    assert [type(item).__name__ for item in block.continuous] == ["LinearBlock"]
    assert [item.var for item in block.updates] == ["off"]
    # in the simulation the relation s < 0 is latched: off follows the latch, no loop
    assert mixed(system.blocks) == []
    assert "mixed system, iterating on the discrete off:" in str(system)


def test_the_bridge_iterates_on_its_four_diodes():
    (block,) = mixed(system_of("Bridge").initial_blocks)
    assert sorted(block.discrete) == ["d1.off", "d2.off", "d3.off", "d4.off"]


def test_a_when_condition_computed_by_its_own_algorithm_is_a_mixed_block_of_the_simulation():
    (block,) = mixed(system_of("InertialDelay").blocks)
    assert set(block.discrete) == {"held", "tChange", "y", "$when[2]"}
    assert block.continuous == ()


def test_the_blocks_diagram_and_the_dae_report_show_a_mixed_block():
    from compiler.classify import report_of
    from cosim.diagrams.blocks import blocks
    system = system_of("InertialDelay")
    (box,) = [node for node in blocks(system).nodes if "mixed" in node.marks]
    assert box.label == "3: mixed loop, 4 unknowns (events/outputs)"
    assert box.detail[0].startswith("iterating on the discrete $when[2], tChange")
    solved = {name for item in report_of(system, 0).equations for name in item.solves}
    assert {"held", "tChange", "y"} <= solved


# ------------------------------------------------------------------- reference results
def test_the_single_diode_conducts_and_blocks_as_its_source_says(fmus):
    result = reference(fmus, "SingleDiode", 2.0)
    times = away_from(result.events, grid(2.0))
    vs = np.sin(2 * 3.14159 * times)
    # conducting: vs = (Ron + R) s; blocking: vs = s + R Goff s
    exact = np.where(vs > 0, vs / (10 + 1e-5), vs / (1 + 10 * 1e-5))
    values = np.array([result.at("s", t) for t in times])
    assert np.max(np.abs(values - exact)) < 1e-9
    assert [result.at("off", t) for t in (0.25, 0.75, 1.25)] == [0, 1, 0]


def diode_current(v):
    """The ideal diode of MixedLoops.mo (Ron = 1e-3, Goff = 1e-6) as a function of its
    voltage: continuous, piecewise linear."""
    return v / 1e-3 if v >= 0 else 1e-6 * v


def source(t):
    return 10 * math.sin(2 * math.pi * 5 * t)


def scipy_rc(current, vc0: float, stop: float):
    """The capacitor voltage of the RC load (R = 100, C = 1e-3) fed ``current(t, vc)``."""
    solution = solve_ivp(lambda t, y: [(current(t, y[0]) - y[0] / 100) / 1e-3], (0, stop),
                         [vc0], method="Radau", rtol=1e-11, atol=1e-12, dense_output=True,
                         max_step=1e-3)
    return lambda t: float(solution.sol(t)[0])


def test_the_half_wave_rectifier_starts_blocking_and_matches_scipy(fmus):
    result = reference(fmus, "HalfWave", 0.5)
    assert result.at("diode.off", 0.0) == 1   # the capacitor (2 V) is above the source (0 V)
    exact = scipy_rc(lambda t, vc: diode_current(source(t) - vc), 2.0, 0.5)
    for t in grid(0.5):
        assert result.at("smoothing.v", t) == pytest.approx(exact(t), abs=1e-5)


def bridge_output_current(t: float, vc: float) -> float:
    """Current the bridge drives into the load: the potential of its + terminal makes the
    currents of the four diodes balance (monotone in it: one root)."""
    vs = source(t)

    def balance(vo):
        vg = vo - vc
        return (diode_current(vs - vo) + diode_current(-vo)
                - diode_current(vg - vs) - diode_current(vg))
    vo = brentq(balance, -100.0, 100.0, xtol=1e-14)
    return diode_current(vs - vo) + diode_current(-vo)


def test_the_diode_bridge_matches_scipy(fmus):
    result = reference(fmus, "Bridge", 0.5)
    assert [result.at(f"d{k}.off", 0.0) for k in (1, 2, 3, 4)] == [1, 1, 1, 1]
    exact = scipy_rc(bridge_output_current, 1.0, 0.5)
    for t in grid(0.5):
        assert result.at("smoothing.v", t) == pytest.approx(exact(t), abs=1e-5)
    # the halves of the bridge conduct in turn, near the peaks of the source
    assert [result.at(f"d{k}.off", 0.045) for k in (1, 2, 3, 4)] == [0, 1, 1, 0]
    assert [result.at(f"d{k}.off", 0.145) for k in (1, 2, 3, 4)] == [1, 0, 0, 1]


def triangle(t: float) -> float:
    """x of the Schmitt trigger oscillator (a = 0.5): up at rate 1 to 0.5, down to -0.5."""
    phase = (t + 0.5) % 2.0
    return phase - 0.5 if phase < 1.0 else 1.5 - phase


def test_the_schmitt_trigger_oscillates_between_its_thresholds(fmus):
    result = reference(fmus, "SchmittTrigger", 5.0)
    assert result.at("on", 0.0) == 0   # the start value decides: both states are consistent
    assert np.allclose(result.events, [0.5, 1.5, 2.5, 3.5, 4.5], atol=1e-8)
    for t in grid(5.0):
        assert result.at("x", t) == pytest.approx(triangle(t), abs=1e-7)


class StickSlip:
    """The closed form of MixedLoops.StickSlip (m = A = w = mu = 1, 2, 1, 1): stuck while
    |F| <= mu; from rest at t0 sliding in direction d, v = A/w (cos w t0 - cos w t) -
    d mu (t - t0) until v returns to 0 (phase ends found by brentq)."""

    def __init__(self, stop: float):
        self.phases = []   # (t0, t1, x0, d): d = 0 stuck
        t, x = 0.0, 0.0
        while t < stop:
            start, d = self._next_slip(t)
            if start > t:
                self.phases.append((t, start, x, 0))
                t = start
            end = self._stop_of(t, d)
            self.phases.append((t, end, x, d))
            x = self._x(t, x, d, end)
            t = end

    @staticmethod
    def force(t):
        return 2 * math.sin(t)

    def _next_slip(self, t: float):
        """When and in which direction the mass at rest at t starts to slide."""
        step = 1e-3
        while abs(self.force(t + step)) <= 1.0:
            t += step
        d = 1 if self.force(t + step) > 0 else -1
        if abs(self.force(t)) > 1.0:
            return t, d
        return brentq(lambda s: abs(self.force(s)) - 1.0, t, t + step, xtol=1e-15), d

    def _v(self, t0, d, t):
        return 2 * (math.cos(t0) - math.cos(t)) - d * (t - t0)

    def _x(self, t0, x0, d, t):
        return x0 + 2 * (math.cos(t0) * (t - t0) - (math.sin(t) - math.sin(t0))) \
            - d * (t - t0) ** 2 / 2

    def _stop_of(self, t0, d):
        t = t0 + 1e-3
        while d * self._v(t0, d, t) > 0:
            t += 1e-3
        return brentq(lambda s: self._v(t0, d, s), t - 1e-3, t, xtol=1e-15)

    def at(self, t: float) -> tuple[float, float]:
        for t0, t1, x0, d in self.phases:
            if t0 <= t <= t1:
                return (x0, 0.0) if d == 0 else (self._x(t0, x0, d, t), self._v(t0, d, t))
        raise ValueError(t)


def test_stick_slip_friction_follows_the_closed_form(fmus):
    result = reference(fmus, "StickSlip", 10.0)
    exact = StickSlip(10.0)
    assert result.at("stuck", 0.0) == 1
    assert result.events[0] == pytest.approx(math.pi / 6, abs=1e-8)   # F reaches mu
    for t in grid(10.0):
        x, v = exact.at(t)
        assert result.at("x", t) == pytest.approx(x, abs=1e-6)
        assert result.at("v", t) == pytest.approx(v, abs=1e-6)
    slides = [d for _, _, _, d in exact.phases if d]
    assert slides[:3] == [1, -1, 1]


def test_the_inertial_delay_filters_the_glitch_and_delays_the_pulse(fmus):
    result = reference(fmus, "InertialDelay", 1.5)
    for t in away_from([0.65, 1.15], grid(1.5)):
        assert result.at("y", t) == (1 if 0.65 < t < 1.15 else 0), t
    assert np.allclose(sorted(set(np.round(result.events, 9))), [0.1, 0.2, 0.4, 0.65, 0.9, 1.15])


def test_an_initial_algorithm_decides_what_an_algorithm_assigns_in_a_when_statement(fmus):
    result = reference(fmus, "StartedByInitialAlgorithm", 0.35)
    for t, count in ((0.0, 0), (0.05, 0), (0.15, 1), (0.25, 2), (0.34, 3)):
        assert (result.at("count", t), result.at("code", t)) == (count, 7 if count == 0
                                                                  else 2 * count)


def test_a_sample_fires_once_although_a_state_event_follows_at_its_instant(fmus):
    # the source crosses zero at each sample instant: the diode switches right after the
    # time event, in a state event at the same instant, which must not sample again
    result = reference(fmus, "SampledMean", 3.5)
    ron, goff, r = 1e-5, 1e-5, 10
    exact = (1 / (r + ron) - goff / (1 + r * goff)) / math.pi
    for t in (0.5, 1.5, 2.5, 3.4):
        assert result.at("mean", t) == pytest.approx(0.0 if t < 1 else exact, abs=1e-7)


def test_a_loop_without_a_consistent_state_is_a_located_error():
    from compiler.interp import simulate_reference
    with pytest.raises(CompilerError) as caught:
        simulate_reference(system_of("Flipping"))
    line = 1 + MODELS.read_text().splitlines().index("    x = if b then 1 else -1;")
    assert str(caught.value) == (
        f"the mixed system for b ({MODELS}:{line}:5, {MODELS}:{line + 1}:5) does not "
        "converge at t = 0.0: its discrete values still change after 50 passes")


# --------------------------------------------------------------------------------- FMUs
# InertialDelay stops at 1.6, not 1.5: fmpy adds up its output grid (0.015 * 60 gives
# 0.8999999999999999), and CVode refuses to integrate to the time event at 0.9 from there
FMU_CASES = [("SingleDiode", 2.0), ("HalfWave", 0.5), ("Bridge", 0.5), ("SchmittTrigger", 5.0),
             ("StickSlip", 10.0), ("InertialDelay", 1.6), ("StartedByInitialAlgorithm", 0.35),
             ("SampledMean", 3.5)]


RANGE_TOLERANCE = 1e-4   # of a variable's range: a rectifier's currents and voltages near
# its switching points are small differences of large values (the diode's current while it
# conducts is (vs - vc)/Ron), which the two integrators give to their tolerance times that


def range_mismatches(result, expected, times, names) -> list[str]:
    """Grid points where the FMU differs from the interpreter by more than RANGE_TOLERANCE
    of the variable's range (either side of an event at the grid point is right)."""
    rows = grid_rows(result, times)
    problems = []
    for name in names:
        bound = ATOL + RANGE_TOLERANCE * float(np.max(np.abs(expected[name])))
        for t, value in zip(rows["time"], rows[name]):
            candidates = reference_values(expected, name, float(t))
            if not any(abs(float(value) - c) <= bound for c in candidates):
                problems.append(f"{name} at t = {t}: {float(value)!r}, reference {candidates[0]!r}")
                break
    return problems


@pytest.mark.parametrize("kind", ["CoSimulation", "ModelExchange"])
@pytest.mark.parametrize("model, stop", FMU_CASES, ids=[model for model, _ in FMU_CASES])
def test_the_fmu_matches_the_interpreter(fmus, model, stop, kind):
    fmu = fmus.build(MODELS, f"MixedLoops.{model}")
    expected = reference(fmus, model, stop)
    names = [name for name in expected.names if not name.startswith(("der(", "_"))]
    result = run(fmu, kind, 0.0, stop, 1e-10, names)
    assert range_mismatches(result, expected, grid(stop), names) == []


def test_the_fmu_reports_a_loop_without_a_consistent_state(fmus):
    fmu = fmus.build(MODELS, "MixedLoops.Flipping")
    messages = []
    with pytest.raises(Exception, match="status 3"):
        simulate_fmu(str(fmu), fmi_type="CoSimulation", stop_time=1.0,
                     logger=lambda *args: messages.append(args))
    errors = [message.decode() for _, _, category, message in messages
              if category == b"logStatusError"]
    line = 1 + MODELS.read_text().splitlines().index("    x = if b then 1 else -1;")
    assert errors[0] == (f"the mixed system for b (MixedLoops.mo:{line}:5, MixedLoops.mo:"
                         f"{line + 1}:5) does not converge at t = 0: its discrete values "
                         "still change after 50 passes")
