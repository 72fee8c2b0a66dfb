"""Save the FMU state at t1, run to t2, restore, run to t2 again: the same bits, also after
serializing, and also in a fresh instance."""
from __future__ import annotations

import ctypes

import pytest

from tests.runtime.raw_fmu import ERROR, OK, RawFmu


def run(fmu: RawFmu, t0: float, t1: float, h: float, names) -> list[list[float]]:
    """doStep from t0 to t1 in steps of h; the named values after each step."""
    rows, k = [], 0
    while t0 + k * h < t1 - 1e-12:
        status, *_ = fmu.do_step(t0 + k * h, h)
        assert status == OK, fmu.log
        rows.append(fmu.get(*names))
        k += 1
    return rows


def save(fmu: RawFmu) -> ctypes.c_void_p:
    state = ctypes.c_void_p()
    assert fmu.fmi3GetFMUState(ctypes.byref(state)) == OK
    return state


def serialize(fmu: RawFmu, state: ctypes.c_void_p) -> bytes:
    size = ctypes.c_size_t()
    assert fmu.fmi3SerializedFMUStateSize(state, ctypes.byref(size)) == OK
    buffer = (ctypes.c_uint8 * size.value)()
    assert fmu.fmi3SerializeFMUState(state, buffer, size.value) == OK
    return bytes(buffer)


def deserialize(fmu: RawFmu, data: bytes) -> ctypes.c_void_p:
    state = ctypes.c_void_p()
    buffer = (ctypes.c_uint8 * len(data)).from_buffer_copy(data)
    assert fmu.fmi3DeserializeFMUState(buffer, len(data), ctypes.byref(state)) == OK
    return state


CASES = {
    # name: (signals, t1, t2, step) -- the bouncing ball restarts after events between t1 and t2
    "VanDerPol": (("y1", "y2"), 0.3, 1.0, 0.05),
    "BouncingBall": (("h", "v"), 0.3, 1.8, 0.05),
    "Hires": (("y1", "y6", "y8"), 5.0, 50.0, 2.5),
    "HeatChain200": (("T_end", "T[100]"), 0.1, 0.3, 0.02),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_restore_repeats_bit_for_bit(fmus, name):
    names, t1, t2, h = CASES[name]
    fmu = RawFmu(fmus.extracted(name))
    fmu.initialize()
    run(fmu, 0.0, t1, h, names)
    state = save(fmu)
    first = run(fmu, t1, t2, h, names)
    assert fmu.fmi3SetFMUState(state) == OK
    assert fmu.get(*names) != first[-1]
    again = run(fmu, t1, t2, h, names)
    assert again == first  # exact equality of doubles
    data = serialize(fmu, state)
    restored = deserialize(fmu, data)
    assert fmu.fmi3SetFMUState(restored) == OK
    assert run(fmu, t1, t2, h, names) == first
    for handle in (state, restored):
        assert fmu.fmi3FreeFMUState(ctypes.byref(handle)) == OK
        assert handle.value is None
    fmu.free()


def test_serialized_state_moves_to_a_fresh_instance(fmus):
    names = ("h", "v")
    source = RawFmu(fmus.extracted("BouncingBall"))
    source.initialize()
    run(source, 0.0, 0.7, 0.05, names)
    data = serialize(source, save(source))
    expected = run(source, 0.7, 1.5, 0.05, names)
    target = RawFmu(fmus.extracted("BouncingBall"))
    state = deserialize(target, data)
    assert target.fmi3SetFMUState(state) == OK
    assert run(target, 0.7, 1.5, 0.05, names) == expected
    source.free()
    target.free()


def test_foreign_or_corrupt_state_is_refused(fmus):
    ball = RawFmu(fmus.extracted("BouncingBall"))
    ball.initialize()
    data = serialize(ball, save(ball))
    other = RawFmu(fmus.extracted("VanDerPol"))
    buffer = (ctypes.c_uint8 * len(data)).from_buffer_copy(data)
    state = ctypes.c_void_p()
    assert other.fmi3DeserializeFMUState(buffer, len(data), ctypes.byref(state)) == ERROR
    assert "not an FMU state of this model" in other.messages(ERROR)[-1]
    truncated = deserialize(ball, data[:-8])
    assert ball.fmi3SetFMUState(truncated) == ERROR
    assert "the FMU state is corrupt" in ball.messages(ERROR)[-1]
    ball.free()
    other.free()


def test_state_saved_before_initialization_restores_instantiated(fmus):
    fmu = RawFmu(fmus.extracted("Dahlquist"))
    assert fmu.set(x=3.0) == OK
    state = save(fmu)
    fmu.initialize()
    assert fmu.do_step(0.0, 1.0)[0] == OK
    assert fmu.fmi3SetFMUState(state) == OK
    assert fmu.do_step(0.0, 1.0)[0] == ERROR  # back in Instantiated
    fmu.initialize()
    assert fmu.get("x") == [3.0]
    fmu.free()
