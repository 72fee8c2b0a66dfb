"""Stream connectors (MLS 15) in small self-written models (msl_models/StreamConnectors.mo):
inStream and actualStream against the analytic mixing enthalpies, an energy balance and a
filling volume against scipy, the flat equations of the special cases, and the compiled FMU
(Co-Simulation and Model Exchange through fmpy) against the reference interpreter."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from fmpy.validation import validate_fmu
from scipy.integrate import quad, solve_ivp

from compiler import api
from compiler.flat_text import equation_lines
from tests.compiler.fmu_compare import event_instants, mismatches, run

MODELS = Path(__file__).parent / "msl_models" / "StreamConnectors.mo"
STOP = 1.0
GRID = np.linspace(0.0, STOP, 101)

# Mixing: what a, b and c supply into the junction (negative: what they take) and their h
SUPPLY = {"a": lambda t: 1.0, "b": lambda t: 2.0 - 4.0 * t,
          "c": lambda t: -(1.0 + 2.0 - 4.0 * t)}
ENTHALPY = {"a": 100.0, "b": 300.0, "c": 200.0}
REVERSALS = (0.5, 0.75)   # b, then c


def simulate(fmus, model: str):
    return fmus.reference(MODELS, f"StreamConnectors.{model}", stop=STOP,
                          interval=STOP / (len(GRID) - 1), rtol=1e-10)


def away_from(instants, gap: float = 1e-3) -> list[float]:
    return [float(t) for t in GRID if min(abs(t - instant) for instant in instants) > gap]


def mixing_enthalpy(port: str, t: float) -> float:
    """inStream at ``port``: sum(max(m_j, 0)*h_j)/sum(max(m_j, 0)) over the other ports;
    where none supplies, the MLS's regularization gives the mean of their h_j."""
    others = [name for name in SUPPLY if name != port]
    weights = [max(SUPPLY[name](t), 0.0) for name in others]
    if sum(weights) == 0.0:
        return float(np.mean([ENTHALPY[name] for name in others]))
    return sum(w * ENTHALPY[name] for w, name in zip(weights, others)) / sum(weights)


def flat_equations(model: str) -> list[str]:
    flat = api.flatten_model(MODELS, f"StreamConnectors.{model}", environ={})
    return [" ".join(line.strip() for line in equation_lines(eq, 0)) for eq in flat.equations]


# ------------------------------------------------------------------------- three-way mixing
@pytest.mark.parametrize("model", ["Mixing", "TeeMixing"])
def test_three_way_mixing_follows_the_analytic_mixing_enthalpy(fmus, model):
    # TeeMixing joins the same boundaries through the outside ports of a component
    result = simulate(fmus, model)
    times = away_from(REVERSALS)
    for port in SUPPLY:
        got = [result.at(f"{port}.h_in", t) for t in times]
        expected = [mixing_enthalpy(port, t) for t in times]
        assert got == pytest.approx(expected, rel=1e-9), port


def test_actual_stream_is_the_own_enthalpy_when_flowing_out_else_the_mixing_one(fmus):
    result = simulate(fmus, "Mixing")
    for t in away_from(REVERSALS):
        for port in SUPPLY:
            expected = ENTHALPY[port] if SUPPLY[port](t) > 0 else mixing_enthalpy(port, t)
            assert result.at(f"{port}.h_actual", t) == pytest.approx(expected, rel=1e-9)


def test_the_enthalpy_flow_through_a_reversing_port_integrates_like_scipy(fmus):
    # der(E) = b.port.m_flow*actualStream(b.port.h_outflow): continuous through the reversal
    def enthalpy_flow(t):
        inflow = -SUPPLY["b"](t)   # into b
        return inflow * (ENTHALPY["b"] if inflow < 0 else mixing_enthalpy("b", t))
    result = simulate(fmus, "Mixing")
    for t in (0.3, 0.6, 0.8, 1.0):
        expected = quad(enthalpy_flow, 0.0, t, points=[p for p in REVERSALS if p < t],
                        epsabs=1e-12, epsrel=1e-12)[0]
        assert result.at("E", t) == pytest.approx(expected, rel=1e-7, abs=1e-7)


# ----------------------------------------------------------------------------- pipe chains
@pytest.mark.parametrize("model", ["PipeChain", "CompositeChain"])
def test_in_stream_passes_through_two_pipes_in_both_directions(fmus, model):
    # each pipe adds dh = 10 whichever way the fluid passes; a's flow reverses at t = 0.5
    result = simulate(fmus, model)
    for t in away_from([0.5]):
        assert result.at("c.h_in", t) == pytest.approx(100.0 + 20.0)
        assert result.at("a.h_in", t) == pytest.approx(500.0 + 20.0)
        forward = t < 0.5
        assert result.at("c.h_actual", t) == pytest.approx(120.0 if forward else 500.0)
        assert result.at("a.h_actual", t) == pytest.approx(100.0 if forward else 520.0)


def test_two_inside_connectors_and_one_outside_one_need_no_mixing_formula():
    equations = flat_equations("CompositeChain")
    # (N = 2: inStream of one side is the other's stream; N = 1, M = 1: the outside
    # connector's stream is the inside one's)
    assert "pipes.first.port_b.h_outflow = a.port.h_outflow + pipes.first.dh;" in equations
    assert "pipes.port_a.h_outflow = pipes.first.port_a.h_outflow;" in equations
    assert "pipes.port_b.h_outflow = pipes.second.port_b.h_outflow;" in equations
    assert not any("max(" in equation for equation in equations)


# ----------------------------------------------------------------------- unconnected ports
def test_an_unconnected_port_sees_its_own_stream(fmus):
    result = simulate(fmus, "DeadEnd")
    for t in (0.0, 0.5, 1.0):
        # pipe.port_b is connected to nothing: inStream(h) = h, which is c's 500 + dh
        assert result.at("h_end", t) == pytest.approx(510.0)
        assert result.at("c.h_in", t) == pytest.approx(520.0)
        # the model's own port: its stream comes from the spur, inStream of it is itself
        assert result.at("h_own", t) == pytest.approx(701.0)
        assert result.at("d.h_in", t) == pytest.approx(702.0)
        assert result.at("port.m_flow", t) == 0.0


# ---------------------------------------------------------------- flow bounds drop terms
def test_a_port_whose_flow_cannot_leave_it_does_not_take_part_in_the_mixing(fmus):
    equations = flat_equations("SplitToSink")
    assert "a.h_in = b.port.h_outflow;" in equations
    assert "b.h_in = a.port.h_outflow;" in equations
    flat = api.flatten_model(MODELS, "StreamConnectors.SplitToSink", environ={})
    (allow,) = [v for v in flat.variables if v.name == "sink.allowReverse"]
    assert allow.structural   # the bound decided the formula
    result = simulate(fmus, "SplitToSink")
    assert result.at("sink.h_in", 0.5) == pytest.approx(100.0)   # only a supplies
    # (two ports: MLS 15.2 takes the other one's stream even where it cannot supply)
    assert "a.h_in = sink.port.h_outflow;" in flat_equations("SourceToSink")


# ----------------------------------------------------------------- arrays of stream variables
COMPOSITION = {"a": (0.2, 0.4), "b": (0.6, 0.0), "c": (0.3, 0.3)}


def mixing_composition(port: str, t: float) -> tuple:
    others = [name for name in SUPPLY if name != port]
    weights = [max(SUPPLY[name](t), 0.0) for name in others]
    if sum(weights) == 0.0:
        weights = [1.0] * len(others)
    return tuple(sum(w * COMPOSITION[name][k] for w, name in zip(weights, others)) / sum(weights)
                 for k in range(2))


def test_in_stream_of_a_stream_array_mixes_each_element(fmus):
    result = simulate(fmus, "SpeciesMixing")
    for t in away_from(REVERSALS):
        for port in SUPPLY:
            got = tuple(result.at(f"{port}.X_in[{k}]", t) for k in (1, 2))
            assert got == pytest.approx(mixing_composition(port, t), rel=1e-9, abs=1e-12)
        # what enters b: its own composition while it supplies, else the mixing one
        inflow = -SUPPLY["b"](t)
        carried = COMPOSITION["b"] if inflow < 0 else mixing_composition("b", t)
        got = tuple(result.at(f"b.X_flow[{k}]", t) for k in (1, 2))
        assert got == pytest.approx(tuple(inflow * x for x in carried), rel=1e-9, abs=1e-12)


def test_stream_arrays_of_size_zero_make_no_equations():
    flat = api.flatten_model(MODELS, "StreamConnectors.NoSpecies", environ={})
    assert not any("X" in variable.name for variable in flat.variables
                   if not variable.name.endswith(".nX"))
    assert len(flat.equations) == 6


# ------------------------------------------------------------------ a volume with an array
def test_a_volume_with_an_array_of_ports_fills_like_scipy(fmus):
    def rhs(t, y):
        mass, energy = y
        m_b = 1.0 - 2.0 * t        # b supplies until t = 0.5, then draws from the volume
        h_b = 300.0 if m_b > 0 else energy / mass
        return [1.0 + m_b, 100.0 + m_b * h_b]
    expected = solve_ivp(rhs, (0.0, STOP), [1.0, 150.0], t_eval=GRID, rtol=1e-12,
                         atol=1e-12, method="LSODA")
    result = simulate(fmus, "Filling")
    for k, t in enumerate(GRID):
        assert result.at("volume.M", t) == pytest.approx(expected.y[0][k], rel=1e-7)
        assert result.at("volume.U", t) == pytest.approx(expected.y[1][k], rel=1e-7)


# -------------------------------------------------------------------------------- the FMU
def test_the_mixing_fmu_is_valid(fmus):
    assert validate_fmu(str(fmus.build(MODELS, "StreamConnectors.Mixing"))) == []


@pytest.mark.parametrize("kind", ["CoSimulation", "ModelExchange"])
def test_the_mixing_fmu_matches_the_interpreter(fmus, kind):
    fmu = fmus.build(MODELS, "StreamConnectors.Mixing")
    names = [f"{port}.{what}" for port in SUPPLY for what in ("h_in", "h_actual")] + ["E"]
    result = run(fmu, kind, 0.0, STOP, 1e-10, names)
    assert mismatches(result, simulate(fmus, "Mixing"), GRID, names) == []


def test_the_mixing_fmu_has_events_at_the_two_reversals_only(fmus):
    # the monitored actualStream values change there; the mixing weights and the enthalpy
    # flow m_flow*actualStream are continuous and make no events (no chattering)
    fmu = fmus.build(MODELS, "StreamConnectors.Mixing")
    result = run(fmu, "ModelExchange", 0.0, STOP, 1e-10, ["E"])
    assert event_instants(result) == pytest.approx(list(REVERSALS), abs=1e-6)
