"""Modelica.Fluid's tank examples with ports above the level (AST_BatchPlant.Test, issue 14),
in a small self-written model (msl_models/FluidTanks.mo) compared with scipy, and two of the
examples themselves compared with their analytic solutions where the library is present.

A loop through a pipe's friction law (a mass flow rate of a friction pressure drop of a few
hundredths of a Pa, between pressures of 1e5 Pa) and a port's large loss (K m^2) is so
curved at the scale of Newton's difference step (1e-7 of the pressure: 0.01 Pa) that the
forward-difference Jacobian sent Newton astray when its guess was ~100 Pa off, as at the
event of a level passing a port: Newton now tries again with central differences."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from fmpy import simulate_fmu
from scipy.integrate import solve_ivp

from compiler.rust.build import find_rustc
from tests.conftest import need

TANKS = Path(__file__).parent / "msl_models" / "FluidTanks.mo"
KINDS = ("CoSimulation", "ModelExchange")

# FluidTanks.EmergingPort's parameters
P0, G, D, K, K_IN, H = 101325.0, 9.80665, 995.586, 8.14e5, 8.14e1, 0.5
LENGTH, DIAMETER, AREA, H_PORT, HYSTERESIS, M_OUT = 1.0, 0.1, 0.01, 0.5, 0.01, 0.2
CONDUCTANCE = D * np.pi * DIAMETER ** 4 / (128 * 1e-3 * LENGTH)  # Hagen-Poiseuille, kg/(s Pa)


def flow(level: float, submerged: bool) -> float:
    """The pipe's mass flow rate: the positive root of (K + k) m^2 + m / c = d g H - head,
    the head over the outlet port while it is under water."""
    head = D * G * (level - H_PORT) if submerged else 0.0
    a, b, c = K + K_IN, 1.0 / CONDUCTANCE, -(D * G * H - head)
    return (-b + np.sqrt(b * b - 4 * a * c)) / (2 * a)


def emerging_port_level(times: np.ndarray) -> tuple[np.ndarray, float]:
    """The second tank's level at ``times`` (scipy, tight tolerance) and the time its outlet
    port emerges (level = hPort - hysteresis)."""
    def emerges(_t, y):
        return y[0] - (H_PORT - HYSTERESIS)
    emerges.terminal, emerges.direction = True, -1
    before = solve_ivp(lambda _t, y: [(flow(y[0], True) - M_OUT) / (D * AREA)],
                       (0.0, times[-1]), [0.52], events=emerges, rtol=1e-12, atol=1e-14,
                       dense_output=True)
    event = float(before.t_events[0][0])
    slope_after = (flow(0.0, False) - M_OUT) / (D * AREA)  # the flow no longer varies
    after = (H_PORT - HYSTERESIS) + slope_after * (times - event)
    return np.where(times < event, before.sol(np.minimum(times, event))[0], after), event


@pytest.fixture(scope="module", params=KINDS)
def emerging_port(fmus, request):
    fmu = fmus.build(TANKS, "FluidTanks.EmergingPort")
    return simulate_fmu(str(fmu), fmi_type=request.param, stop_time=3.0, output_interval=0.01,
                        relative_tolerance=1e-9,
                        output=["level", "m_flow", "submerged", "pa", "pb"])


def test_the_run_passes_the_port_emerging_and_reaches_the_stop_time(emerging_port):
    assert emerging_port["time"][-1] == pytest.approx(3.0)
    assert emerging_port["submerged"][0] and not emerging_port["submerged"][-1]


def test_the_flow_through_the_loop_is_the_root_of_its_pressure_balance(emerging_port):
    for row in emerging_port:
        expected = flow(row["level"], bool(row["submerged"]))
        assert row["m_flow"] == pytest.approx(expected, rel=1e-9)
        assert row["pa"] == pytest.approx(P0 - K * expected ** 2, rel=1e-10)


def test_the_level_and_the_event_match_scipy(emerging_port):
    times = np.asarray(emerging_port["time"])
    level, event = emerging_port_level(times)
    np.testing.assert_allclose(emerging_port["level"], level, rtol=0, atol=2e-6)
    # the first output row after the port emerged shows it emerged
    first = int(np.argmax(~np.asarray(emerging_port["submerged"], dtype=bool)))
    assert times[first - 1] <= event + 1e-6 and times[first] >= event - 1e-6


@pytest.mark.skipif(find_rustc() is None, reason="no rustc: install it to test the Rust backend")
def test_the_rust_runtime_solves_the_loop_alike(tmp_path):
    """The Rust runtime's Newton (rust_templates/loops.rs) retries and stalls as the C one."""
    from compiler.api import flatten_model
    from compiler.rust.compile import rust_from_flat
    fmu = rust_from_flat(flatten_model(TANKS, "FluidTanks.EmergingPort"), "fmu",
                         tmp_path / "EmergingPort.fmu")
    result = simulate_fmu(str(fmu), stop_time=3.0, output_interval=0.05, relative_tolerance=1e-9,
                          output=["level", "m_flow", "submerged"])
    assert result["time"][-1] == pytest.approx(3.0) and not result["submerged"][-1]
    for row in result:
        assert row["m_flow"] == pytest.approx(flow(row["level"], bool(row["submerged"])),
                                              rel=1e-9)


def _run_msl_example(model: str, tmp_path, monkeypatch, stop_time: float, interval: float,
                     signals: list[str]) -> dict:
    """The signals of an MSL example run at its reference's settings (DASSL's 1e-6)."""
    import cosim
    from compiler.codegen.naming import plain_identifier
    from tests.compiler.conftest import TEST_FMU_CACHE
    msl = need("msl")
    monkeypatch.setenv("COSIM_CACHE_DIR", str(TEST_FMU_CACHE))
    fmu = cosim.compile(msl / "Modelica" / "package.mo", model=model,
                        libs=[msl / "Modelica", msl / "ModelicaServices", msl / "Complex.mo"],
                        output=f"{tmp_path}/")
    component = plain_identifier(model)
    result = cosim.run(fmu, stop_time=stop_time, step_size=interval, tolerance=1e-6,
                       record=[f"{component}.{signal}" for signal in signals])
    table = {signal: np.asarray(result.values[f"{component}.{signal}"], dtype=float)
             for signal in signals}
    table["time"] = np.asarray(result.values["time"], dtype=float)
    assert table["time"][-1] == pytest.approx(stop_time)
    return table


@pytest.mark.slow
def test_tank_with_emptying_pipe_heats_by_the_pipes_potential_energy(tmp_path, monkeypatch):
    """AST_BatchPlant.Test.TankWithEmptyingPipe1: 50 kg/s of water at 20 degC fall 1 m
    through a pipe into a tank holding 0.2 m^3 of water at 20 degC (its bottom valve
    closed). The pipe turns g 1 m of potential energy into enthalpy, so the tank's
    temperature is 20 degC + g / cp (1 - m0 / m(t)), m(t) = m0 + 50 t. Its MAP-LIB
    reference (Dymola, DASSL at a tolerance of 1e-6) is off this by up to 1.5e-4 K
    (2.5 x the comparison's tolerance at t = 9.17), ours by less than 1e-9 K."""
    table = _run_msl_example("Modelica.Fluid.Examples.AST_BatchPlant.Test.TankWithEmptyingPipe1",
                             tmp_path, monkeypatch, 35.0, 0.007,
                             ["tank1.medium.T", "tank1.level"])
    time = table["time"]
    m0 = 0.2 * 995.586
    expected = 293.15 + 9.80665 / 4184 * (1 - m0 / (m0 + 50 * time))
    np.testing.assert_allclose(table["tank1.medium.T"], expected, rtol=0, atol=1e-9)
    np.testing.assert_allclose(table["tank1.level"], 0.1 + 50 * time / 995.586, rtol=0,
                               atol=1e-9)


@pytest.mark.slow
def test_two_tanks_mix_as_their_mass_and_energy_balances_say(tmp_path, monkeypatch):
    """AST_BatchPlant.Test.TwoTanks: 3 m of water at 50 degC run through a level pipe into a
    tank of the same cross-section holding 1 m at 100 degC until the levels meet at 2 m.
    The flow never reverses, so the first tank stays at 50 degC, and the second holds the
    mix: T2 = (1 m 100 degC + (level2 - 1 m) 50 degC) / level2. Its MAP-LIB reference has the
    first tank warm by 1.4e-4 K once the levels meet (hot water flowing back, an artefact of
    its solver), 2.2 x the comparison's tolerance."""
    table = _run_msl_example("Modelica.Fluid.Examples.AST_BatchPlant.Test.TwoTanks", tmp_path,
                             monkeypatch, 100.0, 0.02,
                             ["tank1.medium.T", "tank2.medium.T", "tank1.level", "tank2.level"])
    np.testing.assert_allclose(table["tank1.medium.T"], 323.15, rtol=0, atol=1e-9)
    np.testing.assert_allclose(table["tank1.level"] + table["tank2.level"], 4.0, atol=1e-9)
    level2 = table["tank2.level"]
    mixed = (1.0 * 373.15 + (level2 - 1.0) * 323.15) / level2
    np.testing.assert_allclose(table["tank2.medium.T"], mixed, rtol=0, atol=1e-6)
    assert level2[-1] == pytest.approx(2.0, abs=1e-6)
