"""Initialization of Modelica.Fluid's tank examples (issue 14), each problem in a small
self-written model (msl_models/FluidInit.mo), compiled to an FMU (gcc's warnings are errors,
tests/conftest.py) and run by fmpy, and run by the reference interpreter; both compared with
the analytic solution.

- An if-equation whose branches read different unknowns (a port: its pressure while open,
  ``m_flow = 0`` while closed) is not solved for an unknown one branch lacks: that divided by
  0 (Fluid's EmptyTanks, "residual inf" at t = 0).
- A variable whose stateSelect asks for a state stands in, with its start value, for the
  free state index reduction chose (the mass, where the model asks for the level): the
  initialization started from a mass of 0 (AST_BatchPlant's OneTank).
- A singular Jacobian whose equations agree (a pipe between two closed ports fixes the
  difference of its end pressures only) takes the Newton step that leaves the undetermined
  unknowns in place (TanksWithOverflow, ControlledTanks), in the C runtime, the Rust one and
  the interpreter.
"""
from __future__ import annotations

import csv
import math
import subprocess
from pathlib import Path

import numpy as np
import pytest
from fmpy import simulate_fmu

from compiler.api import flatten_model
from compiler.rust.build import find_rustc
from compiler.rust.compile import rust_from_flat

MODELS = Path(__file__).parent / "msl_models" / "FluidInit.mo"
KINDS = ("CoSimulation", "ModelExchange")
STOP = 2.0
INTERVAL = 0.05
P0, PORT_HEIGHT = 1.0, 0.3


def draining_level(t: float) -> float:
    """DrainingPort's level: der(x) = -(x + x^3) from 1 gives x^2 / (1 + x^2) = exp(-2 t) / 2
    until x reaches the port, where the outflow stops."""
    u = 0.5 * math.exp(-2 * t)
    return max(math.sqrt(u / (1 - u)), PORT_HEIGHT)


def closing_time() -> float:
    u = PORT_HEIGHT ** 2 / (1 + PORT_HEIGHT ** 2)
    return -0.5 * math.log(2 * u)


def run(fmus, model: str, kind: str, outputs: list[str]):
    fmu = fmus.build(MODELS, f"FluidInit.{model}")
    return simulate_fmu(str(fmu), fmi_type=kind, stop_time=STOP, output_interval=INTERVAL,
                        relative_tolerance=1e-8, output=outputs)


def reference(fmus, model: str):
    return fmus.reference(MODELS, f"FluidInit.{model}", stop=STOP, interval=INTERVAL,
                          rtol=1e-10)


def away_from(t: float, instant: float) -> bool:
    return abs(t - instant) > 2 * INTERVAL


@pytest.mark.parametrize("kind", KINDS)
def test_a_port_drains_its_tank_until_the_level_falls_below_it(fmus, kind):
    rows = run(fmus, "DrainingPort", kind, ["level", "p_port", "m_flow"])
    closing = closing_time()
    for row in rows:
        t = float(row["time"])
        assert row["level"] == pytest.approx(draining_level(t), abs=1e-5)
        if away_from(t, closing):
            level = draining_level(t)
            expected_flow = 0.0 if t > closing else level + level ** 3
            assert row["m_flow"] == pytest.approx(expected_flow, abs=1e-5)
            assert row["p_port"] == pytest.approx(P0 + (0.0 if t > closing else level),
                                                  abs=1e-5)


@pytest.mark.parametrize("kind", KINDS)
def test_a_port_closed_from_the_start_initializes_without_flow(fmus, kind):
    rows = run(fmus, "ClosedAtStart", kind, ["level", "p_port", "m_flow"])
    for row in rows:
        assert (row["level"], row["p_port"], row["m_flow"]) == pytest.approx((0.2, P0, 0.0),
                                                                            abs=1e-12)


def test_the_interpreter_drains_the_tank_as_the_fmu_does(fmus):
    result = reference(fmus, "DrainingPort")
    for t in (0.0, 0.4, 0.8, 1.2, 1.9):
        assert result.at("level", t) == pytest.approx(draining_level(t), abs=1e-6)
    closed = reference(fmus, "ClosedAtStart")
    assert closed.at("p_port", 1.0) == pytest.approx(P0, abs=1e-12)


@pytest.mark.parametrize("kind", KINDS)
def test_the_preferred_level_gives_the_start_of_the_mass_balance(fmus, kind):
    rows = run(fmus, "PreferredLevel", kind, ["level", "m"])
    rate = 300 / (1000 * 2)
    for row in rows:
        expected = 0.8 * math.exp(-rate * float(row["time"]))
        assert row["level"] == pytest.approx(expected, rel=1e-6)
        assert row["m"] == pytest.approx(2000 * expected, rel=1e-6)


@pytest.mark.parametrize("kind", KINDS)
def test_a_pipe_between_closed_ports_keeps_only_its_head(fmus, kind):
    rows = run(fmus, "ClosedPipe", kind, ["pa", "pb", "m_flow"])
    for row in rows:
        t = float(row["time"])
        if t < 0.5 - 1e-9:
            assert row["m_flow"] == pytest.approx(0.0, abs=1e-12)
            assert row["pa"] - row["pb"] == pytest.approx(-0.5, abs=1e-12)
            assert np.isfinite(row["pa"])
        elif t > 0.5 + 1e-9:
            assert (row["pa"], row["pb"]) == pytest.approx((1.2, 1.0), abs=1e-12)
            assert row["m_flow"] == pytest.approx(0.7 + 0.7 ** 3, abs=1e-12)


def test_the_interpreter_solves_the_pipe_between_closed_ports(fmus):
    result = reference(fmus, "ClosedPipe")
    assert result.at("m_flow", 0.2) == pytest.approx(0.0, abs=1e-12)
    assert result.at("pa", 0.2) - result.at("pb", 0.2) == pytest.approx(-0.5, abs=1e-12)
    assert result.at("m_flow", 1.0) == pytest.approx(0.7 + 0.7 ** 3, abs=1e-12)


@pytest.mark.skipif(find_rustc() is None, reason="no rustc: install it to test the Rust backend")
def test_the_rust_runtime_solves_the_pipe_between_closed_ports(tmp_path):
    program = rust_from_flat(flatten_model(MODELS, "FluidInit.ClosedPipe"), "program", tmp_path)
    output = tmp_path / "closed_pipe.csv"
    subprocess.run([str(program), "--stop", "1", "--step", "0.25", "-o", str(output)],
                   check=True, capture_output=True, text=True)
    with output.open() as file:
        rows = list(csv.DictReader(file))
    assert len(rows) == 5
    for row in rows:
        pa, pb, m_flow = (float(row[f"FluidInit_ClosedPipe.{name}"])
                          for name in ("pa", "pb", "m_flow"))
        if float(row["time"]) < 0.5:
            assert (m_flow, pa - pb) == pytest.approx((0.0, -0.5), abs=1e-12)
        else:
            assert (pa, pb, m_flow) == pytest.approx((1.2, 1.0, 0.7 + 0.7 ** 3), abs=1e-12)
