"""spatialDistribution() (MLS 3.7.4.2) end to end: self-written models (msl_models/Spatial.mo)
against closed forms of the transported profile, in the C FMU (Co-Simulation and Model
Exchange) and the reference interpreter; its profile in the FMU state; refused uses."""
from __future__ import annotations

import zipfile
from pathlib import Path

import numpy as np
import pytest
from fmpy import simulate_fmu

from compiler.api import flatten_model
from compiler.causalize import causalize
from compiler.errors import CompilerError

MODELS = Path(__file__).parent / "msl_models" / "Spatial.mo"
KINDS = ("CoSimulation", "ModelExchange")


def simulate(fmus, model: str, names, stop: float, kind: str, interval: float):
    fmu = fmus.build(MODELS, f"Spatial.{model}")
    return simulate_fmu(str(fmu), fmi_type=kind, stop_time=stop, output_interval=interval,
                        relative_tolerance=1e-8, output=list(names))


def reference(fmus, model: str, stop: float, interval: float):
    result = fmus.reference(MODELS, f"Spatial.{model}", stop=stop, interval=interval,
                            rtol=1e-8)
    return {"time": result.time, "out0": result["out0"], "out1": result["out1"]}


def away_from(t, instants, margin=1e-6):
    """The rows not within ``margin`` of the instants where an end jumps."""
    return np.all([np.abs(t - instant) > margin for instant in instants], axis=0)


def worst(result, expected, instants=()) -> float:
    """The largest error of out0 and out1 against ``expected(t)`` (a dict of both)."""
    t = np.asarray(result["time"])
    keep = away_from(t, instants)
    return max(np.max(np.abs(np.asarray(result[name])[keep] - value[keep]))
               for name, value in expected(t).items())


# --------------------------------------------------------------------- constant velocity
def _constant(t):
    """v = 2: out1 is the initial profile 1 + 2 y at y = 1 - 2 t, then sin(t - 1/2)."""
    return {"out0": np.sin(t), "out1": np.where(t < 0.5, 3.0 - 4.0 * t, np.sin(t - 0.5))}


@pytest.mark.parametrize("kind", KINDS)
def test_a_constant_velocity_delays_in0_by_the_transport_time(fmus, kind):
    interval = 0.01 if kind == "CoSimulation" else 0.002   # (ME records at output points)
    result = simulate(fmus, "Constant", ["out0", "out1"], 2.0, kind, interval)
    assert worst(result, _constant, [0.5]) < 1e-6


def test_the_interpreter_delays_in0_by_the_transport_time(fmus):
    assert worst(reference(fmus, "Constant", 2.0, 0.01), _constant, [0.5]) < 1e-6


# ------------------------------------------------------------------ an initial jump
def _jump(t):
    """The jump at y = 0.5 leaves at t = 0.25, the start at y = 0 at t = 0.5."""
    return {"out0": np.sin(t),
            "out1": np.where(t < 0.25, 2.0, np.where(t < 0.5, 1.0, np.sin(t - 0.5)))}


@pytest.mark.parametrize("kind", KINDS)
def test_a_jump_of_the_initial_profile_leaves_exactly_when_it_reaches_the_end(fmus, kind):
    result = simulate(fmus, "Jump", ["out0", "out1"], 1.0, kind, 0.005)
    t = np.asarray(result["time"])
    flat = (t < 0.5) & away_from(t, [0.25, 0.5], 1e-9)
    assert np.max(np.abs(result["out1"][flat] - _jump(t)["out1"][flat])) == 0.0
    assert worst(result, _jump, [0.25, 0.5]) < 1e-5


def test_the_interpreter_transports_the_jump_of_the_initial_profile(fmus):
    result = reference(fmus, "Jump", 1.0, 0.005)
    t = result["time"]
    flat = (t < 0.5) & away_from(t, [0.25, 0.5], 1e-9)
    assert np.max(np.abs(result["out1"][flat] - _jump(t)["out1"][flat])) == 0.0
    assert worst(result, _jump, [0.25, 0.5]) < 1e-6


# ------------------------------------------------------------------ a reversing velocity
A = 0.4
# An end jumps where the velocity reverses (what enters is not what was leaving: the rows
# before and after those events), and at pi, where in0's 1 written at the start's place
# meets the initial profile's 0.5.
REVERSING_JUMPS = (np.pi / 2, np.pi, 3 * np.pi / 2)


def _reversing(t):
    """x = A sin t: rising on [0, pi/2] and [3 pi/2, 5 pi/2], falling between. Falling, out0
    is what in0 wrote at the same x while rising (at pi - t), or the initial profile
    0.5 - y at y = -x once x < 0; rising again, out1 is what in1 wrote at the same x while
    falling (at 3 pi - t); before, the initial profile at y = 1 - x."""
    pi = np.pi
    in0, in1 = (lambda s: np.cos(3 * s)), (lambda s: np.sin(2 * s))
    rising = (t <= pi / 2) | (t >= 3 * pi / 2)
    out0 = np.where(rising, in0(t), np.where(t <= pi, in0(pi - t), 0.5 + A * np.sin(t)))
    out1 = np.where(t <= pi / 2, -0.5 + A * np.sin(t),
                    np.where(t < 3 * pi / 2, in1(t), in1(3 * pi - t)))
    return {"out0": out0, "out1": out1}


@pytest.mark.parametrize("kind", KINDS)
def test_values_that_went_in_at_one_end_come_back_out_of_it(fmus, kind):
    interval = 0.01 if kind == "CoSimulation" else 0.002
    result = simulate(fmus, "Reversing", ["out0", "out1"], 7.5, kind, interval)
    # Model Exchange records only at completed steps (fmpy's output points): next to a
    # reversal x is quadratic in time, so a line in x between records misses by ~6e-4
    assert worst(result, _reversing, REVERSING_JUMPS) < (1e-6 if kind == "CoSimulation" else 1e-3)


def test_the_interpreter_brings_the_values_back_out_of_the_end_they_went_in(fmus):
    assert worst(reference(fmus, "Reversing", 7.5, 0.01), _reversing, REVERSING_JUMPS) < 1e-6


# ------------------------------------------------------------------------ the FMU state
def test_the_fmu_state_holds_the_profile(fmus, tmp_path):
    from tests.runtime.raw_fmu import OK, RawFmu
    from tests.runtime.test_fmu_state import deserialize, run, save, serialize
    folder = tmp_path / "reversing"
    with zipfile.ZipFile(fmus.build(MODELS, "Spatial.Reversing")) as archive:
        archive.extractall(folder)
    fmu = RawFmu(folder)
    fmu.initialize()
    run(fmu, 0.0, 2.0, 0.1, ["out0", "out1"])
    state = save(fmu)
    first = run(fmu, 2.0, 5.0, 0.1, ["out0", "out1"])   # reads what entered before 2.0
    # (out1 at 5.0 is in1 of 3 pi - 5: the buffer, not the current inputs)
    assert first[-1][1] == pytest.approx(np.sin(2 * (3 * np.pi - 5.0)), abs=1e-5)
    run(fmu, 5.0, 6.0, 0.1, ["out0", "out1"])
    assert fmu.fmi3SetFMUState(state) == OK
    assert run(fmu, 2.0, 5.0, 0.1, ["out0", "out1"]) == first
    fresh = RawFmu(folder)
    fresh.initialize()
    assert fresh.fmi3SetFMUState(deserialize(fresh, serialize(fmu, state))) == OK
    assert run(fresh, 2.0, 5.0, 0.1, ["out0", "out1"]) == first
    fmu.free()
    fresh.free()


# ---------------------------------------------------------------------------- refused
@pytest.mark.parametrize("model, message", [
    ("InFunction", "spatialDistribution\\(\\) cannot be used in a function"),
    ("InAlgorithm", "spatialDistribution\\(\\) can only be used in an equation "
                    "'\\(out0, out1\\) = spatialDistribution\\(...\\)'"),
    ("InExpression", "spatialDistribution\\(\\) can only be used in an equation"),
    ("Sizes", "initialPoints has 3 elements, initialValues 2: they must have the same size"),
    ("Unsorted", "initialPoints must rise from 0 to 1, not \\{0, 0.7, 0.5, 1\\}"),
])
def test_uses_outside_an_equation_of_its_two_outputs_are_refused_at_their_place(model, message):
    with pytest.raises(CompilerError, match=message) as caught:
        causalize(flatten_model(MODELS, f"Spatial.Refused.{model}", environ={}))
    assert str(caught.value).startswith(f"{MODELS}:")
    assert caught.value.span.file.endswith("Spatial.mo") and caught.value.span.line > 0


def test_the_rust_backend_refuses_it_at_its_place():
    from compiler.codegen.errors import EmitError
    from compiler.rust.emit import emit_rust
    system = causalize(flatten_model(MODELS, "Spatial.Constant", environ={}))
    with pytest.raises(EmitError, match="spatialDistribution\\(in0, 0.0, x, .*\\): "
                                        "spatialDistribution\\(\\) is not supported by the "
                                        "Rust backend") as caught:
        emit_rust(system)
    assert caught.value.span.file.endswith("Spatial.mo") and caught.value.span.line == 10
