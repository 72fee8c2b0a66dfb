"""Compiled FMUs of the acceptance models against the reference interpreter, through fmpy.

Every model of causalize_models is compiled once per session and run by fmpy in Co-Simulation
(the FMU's own Radau IIA, relative tolerance 1e-8) and in Model Exchange (fmpy's CVode),
each compared with the interpreter on a 101-point grid within fmu_compare.RTOL/ATOL.

CVode (BDF, fmpy's default 500 steps per output interval) needs a tighter relative tolerance
than Radau for the same global error: at 1e-8 the lightly damped oscillators drift to about
twice fmu_compare's tolerance by the end, so Model Exchange runs at 1e-10, where no interval
of the grid needs more than 500 steps.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from fmpy import read_model_description
from fmpy.validation import validate_fmu

from tests.compiler.fmu_compare import (
    ATOL, RTOL, SAME_INSTANT, cluster, grid_rows, mismatches, run)

MODELS = Path(__file__).parent / "causalize_models"

CS_TOLERANCE = 1e-8
ME_TOLERANCE = 1e-10
REFERENCE_TOLERANCE = 1e-9
CASES = [
    ("Translational.mo", "Translational.Oscillator"),
    ("Translational.mo", "Translational.Chain"),
    ("Analog.mo", "Analog.RC"),
    ("Analog.mo", "Analog.DiodeCharger"),
    ("Analog.mo", "Analog.ParallelCapacitors"),
    ("Events.mo", "Events.BouncingBall"),
    ("Events.mo", "Events.Thermostat"),
    ("Events.mo", "Events.SampledCounter"),
    ("Pendulum.mo", "Pendulum"),
    ("Algorithms.mo", "Algorithms"),
    ("Steps.mo", "Steps"),
    # edge, change, sample and a function call guarded by an if-expression (evaluated only
    # when its condition holds: it asserts what the condition guards)
    ("../codegen_models/Events.mo", "Events.Counters"),
    ("../codegen_models/Events.mo", "Events.CallsInEvents"),
]
IDS = [model for _, model in CASES]


class Case:
    """One model: its FMU, time span, the variables compared and the reference result."""

    def __init__(self, fmus, file: str, model: str):
        self.fmu = fmus.build(MODELS / file, model)
        description = read_model_description(str(self.fmu))
        experiment = description.defaultExperiment
        self.start = float(experiment.startTime or 0.0) if experiment else 0.0
        self.stop = float(experiment.stopTime) if experiment and experiment.stopTime else 1.0
        self.grid = np.linspace(self.start, self.stop, 101)
        self.reference = fmus.reference(MODELS / file, model, start=self.start, stop=self.stop,
                                        interval=(self.stop - self.start) / 100,
                                        rtol=REFERENCE_TOLERANCE)
        self.names = [item.name for item in description.modelVariables
                      if item.type in ("Float64", "Int32", "Boolean")
                      and item.causality != "independent" and item.name in self.reference.names]

    def run(self, kind: str, **options):
        tolerance = CS_TOLERANCE if kind == "CoSimulation" else ME_TOLERANCE
        return run(self.fmu, kind, self.start, self.stop, tolerance, self.names, **options)


@pytest.fixture(scope="module", params=CASES, ids=IDS)
def case(request, fmus) -> Case:
    return Case(fmus, *request.param)


@pytest.fixture(scope="module")
def bouncing_ball(fmus) -> Case:
    return Case(fmus, "Events.mo", "Events.BouncingBall")


def test_every_model_compares_most_of_its_variables(case):
    assert len(case.names) >= 3
    assert all(name in case.reference.names for name in case.names)


def test_co_simulation_matches_the_interpreter(case):
    result = case.run("CoSimulation")
    assert mismatches(result, case.reference, case.grid, case.names) == []


def test_model_exchange_matches_the_interpreter(case):
    result = case.run("ModelExchange")
    assert mismatches(result, case.reference, case.grid, case.names) == []


def test_model_exchange_and_co_simulation_agree(case):
    exchange = grid_rows(case.run("ModelExchange"), case.grid)
    cosimulation = grid_rows(case.run("CoSimulation"), case.grid)
    # at an event instant on the grid either side of the event is a right answer
    events = np.array(case.reference.events)
    away = [k for k, t in enumerate(case.grid)
            if not len(events) or np.min(np.abs(events - t)) > SAME_INSTANT * max(1.0, abs(t))]
    for name in case.names:
        a, b = exchange[name][away].astype(float), cosimulation[name][away].astype(float)
        worst = np.max(np.abs(a - b) - (ATOL + RTOL * np.abs(b)))
        assert worst <= 0, f"{name}: Model Exchange and Co-Simulation differ"


def test_fmpy_validates_the_fmu(case):
    assert validate_fmu(str(case.fmu)) == []


# ---------------------------------------------------------------------------- events
def reference_bounces(case: Case) -> list[float]:
    return cluster(case.reference.events)


def test_bouncing_ball_model_exchange_events_at_the_interpreters_instants(bouncing_ball):
    result = bouncing_ball.run("ModelExchange")
    times = result["time"]
    instants = cluster(times[1:][times[1:] == times[:-1]])
    expected = reference_bounces(bouncing_ball)
    assert len(expected) == 5
    assert len(instants) == len(expected)
    assert np.max(np.abs(np.array(instants) - expected)) < 1e-6
    # the first bounce, analytically: released from h = 2 m
    assert abs(expected[0] - np.sqrt(2 * 2 / 9.81)) < 1e-8


def test_bouncing_ball_co_simulation_returns_early_at_the_interpreters_instants(bouncing_ball):
    result = bouncing_ball.run("CoSimulation", early_return_allowed=True)
    grid = bouncing_ball.grid
    times = result["time"]
    off_grid = [t for t in times if np.min(np.abs(grid - t)) > 1e-12 * max(1.0, abs(t))]
    instants = cluster(off_grid)
    expected = reference_bounces(bouncing_ball)
    assert len(instants) == len(expected)
    assert np.max(np.abs(np.array(instants) - expected)) < 1e-6
    after = [int(np.nonzero(times == t)[0][-1]) for t in off_grid]
    assert list(result["bounces"][after][-1:]) == [5]


def test_pendulum_keeps_its_length(fmus):
    case = Case(fmus, "Pendulum.mo", "Pendulum")
    for kind in ("CoSimulation", "ModelExchange"):
        result = case.run(kind)
        length = np.sqrt(result["x"] ** 2 + result["y"] ** 2)
        assert np.max(np.abs(length - 1.0)) < 1e-6, kind
        # and it swings: x changes sign
        assert result["x"].min() < -0.1 and result["x"].max() > 0.1
