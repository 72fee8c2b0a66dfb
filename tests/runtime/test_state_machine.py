"""Calls in the wrong state, with wrong arguments, or for the wrong interface return
fmi3Error, log why, and leave the instance usable."""
from __future__ import annotations

import ctypes

import pytest

from tests.runtime.raw_fmu import ERROR, OK, RawFmu, doubles, refs


@pytest.fixture
def vanderpol_cs(fmus):
    fmu = RawFmu(fmus.extracted("VanDerPol"), "CS")
    yield fmu
    fmu.free()


@pytest.fixture
def vanderpol_me(fmus):
    fmu = RawFmu(fmus.extracted("VanDerPol"), "ME")
    yield fmu
    fmu.free()


def last_error(fmu: RawFmu) -> str:
    return fmu.messages(ERROR)[-1]


def test_do_step_before_initialization(vanderpol_cs):
    status, *_ = vanderpol_cs.do_step(0.0, 0.1)
    assert status == ERROR
    assert "fmi3DoStep is not allowed in state Instantiated (allowed in: StepMode)" in last_error(vanderpol_cs)
    vanderpol_cs.initialize()  # the refused call changed nothing
    assert vanderpol_cs.do_step(0.0, 0.1)[0] == OK


def test_exit_initialization_without_enter(vanderpol_cs):
    assert vanderpol_cs.fmi3ExitInitializationMode() == ERROR
    assert "not allowed in state Instantiated" in last_error(vanderpol_cs)


def test_get_before_initialization_and_enter_twice(vanderpol_cs):
    values = (ctypes.c_double * 1)()
    assert vanderpol_cs.fmi3GetFloat64(refs([1]), 1, values, 1) == ERROR
    vanderpol_cs.initialize()
    assert vanderpol_cs.fmi3EnterInitializationMode(False, 0.0, 0.0, False, 0.0) == ERROR
    assert "fmi3EnterInitializationMode is not allowed in state StepMode" in last_error(vanderpol_cs)


def test_model_exchange_functions_refused_by_co_simulation_instance(vanderpol_cs):
    vanderpol_cs.initialize()
    assert vanderpol_cs.fmi3SetTime(1.0) == ERROR
    assert "not allowed in state StepMode" in last_error(vanderpol_cs)
    states = (ctypes.c_double * 2)()
    assert vanderpol_cs.fmi3GetContinuousStates(states, 2) == ERROR


def test_co_simulation_function_refused_by_model_exchange_instance(vanderpol_me):
    vanderpol_me.initialize()
    status, *_ = vanderpol_me.do_step(0.0, 0.1)
    assert status == ERROR
    assert "fmi3DoStep is not allowed in state EventMode" in last_error(vanderpol_me)


def test_model_exchange_sequence(vanderpol_me):
    fmu = vanderpol_me
    fmu.initialize()
    assert fmu.fmi3SetContinuousStates(doubles([1.0, 2.0]), 2) == ERROR  # still in Event Mode
    flags = [ctypes.c_bool() for _ in range(5)]
    next_time = ctypes.c_double()
    assert fmu.fmi3UpdateDiscreteStates(*[ctypes.byref(f) for f in flags], ctypes.byref(next_time)) == OK
    assert fmu.fmi3EnterContinuousTimeMode() == OK
    assert fmu.fmi3UpdateDiscreteStates(*[ctypes.byref(f) for f in flags], ctypes.byref(next_time)) == ERROR
    assert fmu.fmi3SetContinuousStates(doubles([1.0, 2.0]), 2) == OK
    assert fmu.fmi3SetContinuousStates(doubles([1.0, 2.0, 3.0]), 3) == ERROR
    assert "expected nContinuousStates = 2 but was 3" in last_error(fmu)
    derivatives = (ctypes.c_double * 2)()
    assert fmu.fmi3GetContinuousStateDerivatives(derivatives, 2) == OK
    assert derivatives[0] == 2.0  # y1' = y2
    assert derivatives[1] == pytest.approx(((1 - 1.0) * 2.0 - 1.0) / 1e-6)
    assert fmu.fmi3EnterContinuousTimeMode() == ERROR


def test_value_reference_and_count_checks(vanderpol_cs):
    fmu = vanderpol_cs
    fmu.initialize()
    values = (ctypes.c_double * 2)()
    assert fmu.fmi3GetFloat64(refs([1]), 1, values, 2) == ERROR
    assert "expected nValues = 1 but was 2" in last_error(fmu)
    assert fmu.fmi3GetFloat64(refs([999]), 1, values, 1) == ERROR
    assert "unknown value reference 999" in last_error(fmu)
    assert fmu.fmi3GetFloat64(None, 1, values, 1) == ERROR
    assert "argument valueReferences must not be NULL" in last_error(fmu)
    int_values = (ctypes.c_int32 * 1)()
    assert fmu.fmi3GetInt32(refs([1]), 1, int_values, 1) == ERROR
    assert "value reference 1 (y1) is a Float64 variable" in last_error(fmu)
    assert fmu.fmi3GetFloat32(refs([1]), 1, values, 1) == ERROR
    assert fmu.fmi3GetFloat32(refs([]), 0, values, 0) == OK


def test_setting_rules_follow_causality_and_variability(fmus):
    fmu = RawFmu(fmus.extracted("Dahlquist"), "CS")
    assert fmu.set(x=2.0) == OK          # a start value, before initialization
    fmu.initialize()
    assert fmu.set(k=2.0) == OK          # tunable parameter in Step Mode
    assert fmu.set(x=1.0) == ERROR       # a state is not an input
    assert "variable x (value reference 1) cannot be set in state StepMode" in last_error(fmu)
    assert fmu.set(**{"der(x)": 1.0}) == ERROR
    assert fmu.fmi3SetFloat64(refs([0]), 1, doubles([5.0]), 1) == ERROR  # time
    assert fmu.do_step(0.0, 1.0)[0] == OK
    assert fmu.get("x")[0] == pytest.approx(2.0 * 2.718281828459045**-2.0, rel=1e-5)
    fmu.free()


def test_fixed_parameter_cannot_change_after_initialization(fmus):
    fmu = RawFmu(fmus.extracted("VanDerPol"), "CS")
    assert fmu.set(eps=1e-3) == OK
    fmu.initialize()
    assert fmu.set(eps=1e-4) == ERROR
    assert fmu.get("eps") == [1e-3]
    fmu.free()


def test_terminate_then_reset_then_run_again(vanderpol_cs):
    fmu = vanderpol_cs
    fmu.initialize()
    assert fmu.do_step(0.0, 0.5)[0] == OK
    first = fmu.get("y1", "y2")
    assert fmu.fmi3Terminate() == OK
    assert fmu.do_step(0.5, 0.1)[0] == ERROR
    assert "not allowed in state Terminated" in last_error(fmu)
    assert fmu.get("y1") == first[:1]  # values stay readable
    assert fmu.fmi3Terminate() == ERROR
    assert fmu.fmi3Reset() == OK
    fmu.initialize()
    assert fmu.get("y1", "y2") == [2.0, 0.0]
    assert fmu.do_step(0.0, 0.5)[0] == OK
    assert fmu.get("y1", "y2") == first


def test_communication_point_must_match(vanderpol_cs):
    vanderpol_cs.initialize(stop=1.0)
    assert vanderpol_cs.do_step(0.1, 0.1)[0] == ERROR
    assert "currentCommunicationPoint = 0.10000000000000001, but the FMU is at t = 0" in last_error(vanderpol_cs)
    assert vanderpol_cs.do_step(0.0, -0.1)[0] == ERROR
    assert vanderpol_cs.do_step(0.0, 2.0)[0] == ERROR
    assert "goes beyond stopTime" in last_error(vanderpol_cs)
    assert vanderpol_cs.do_step(0.0, 1.0)[0] == OK


def test_unsupported_functions_log_and_fail(vanderpol_cs):
    vanderpol_cs.initialize()
    assert vanderpol_cs.fmi3GetClock(refs([1]), 1, None) == ERROR
    assert vanderpol_cs.fmi3EnterConfigurationMode() == ERROR
    assert "is not supported" in last_error(vanderpol_cs)
    assert vanderpol_cs.fmi3EnterStepMode() == ERROR


def test_null_instance_and_wrong_token_do_not_crash(fmus):
    fmu = RawFmu(fmus.extracted("VanDerPol"), "CS")
    assert fmu.lib.fmi3DoStep(None, 0.0, 0.1, False, None, None, None, None) == ERROR
    assert fmu.lib.fmi3Terminate(None) == ERROR
    fmu.lib.fmi3FreeInstance(None)
    other = fmu.lib.fmi3InstantiateCoSimulation(b"x", b"{not-the-token}", None, False, False, False, False,
                                                None, 0, None, fmu._logger, None)
    assert other is None
    assert "does not match this binary" in fmu.messages(ERROR)[-1]
    assert fmu.lib.fmi3InstantiateCoSimulation(b"", fmu.token, None, False, False, False, False, None, 0,
                                               None, fmu._logger, None) is None
    fmu.free()


def test_debug_logging_categories(vanderpol_cs):
    fmu = vanderpol_cs
    names = (ctypes.c_char_p * 1)(b"logIntegrator")
    assert fmu.fmi3SetDebugLogging(True, 1, names) == OK
    fmu.initialize()
    fmu.do_step(0.0, 0.1)
    assert any(category == "logIntegrator" for _, category, _ in fmu.log)
    bad = (ctypes.c_char_p * 1)(b"logNothing")
    assert fmu.fmi3SetDebugLogging(True, 1, bad) == ERROR
    assert "unknown log category 'logNothing'" in last_error(fmu)


def test_null_output_arguments_are_refused(vanderpol_cs):
    fmu = vanderpol_cs
    fmu.initialize()
    flag, last = ctypes.c_bool(), ctypes.c_double()
    assert fmu.fmi3DoStep(0.0, 0.1, False, None, ctypes.byref(flag), ctypes.byref(flag), ctypes.byref(last)) == ERROR
    assert "argument eventHandlingNeeded must not be NULL" in last_error(fmu)
    assert fmu.fmi3GetFMUState(None) == ERROR
    assert fmu.fmi3SetFMUState(None) == ERROR
    assert fmu.fmi3FreeFMUState(None) == OK  # nothing to free
    assert fmu.fmi3SetDebugLogging(True, 2, None) == ERROR


def test_serialization_size_must_match(vanderpol_cs):
    fmu = vanderpol_cs
    fmu.initialize()
    state = ctypes.c_void_p()
    assert fmu.fmi3GetFMUState(ctypes.byref(state)) == OK
    size = ctypes.c_size_t()
    assert fmu.fmi3SerializedFMUStateSize(state, ctypes.byref(size)) == OK
    buffer = (ctypes.c_uint8 * (size.value - 1))()
    assert fmu.fmi3SerializeFMUState(state, buffer, size.value - 1) == ERROR
    assert f"expected size = {size.value} but was {size.value - 1}" in last_error(fmu)
    assert fmu.fmi3DeserializeFMUState(buffer, 3, ctypes.byref(state)) == ERROR
    fmu.fmi3FreeFMUState(ctypes.byref(state))


def test_initialization_arguments_are_checked(vanderpol_cs):
    fmu = vanderpol_cs
    assert fmu.fmi3EnterInitializationMode(True, 0.0, 0.0, False, 0.0) == ERROR
    assert "tolerance must be in (0, 1), was 0" in last_error(fmu)
    assert fmu.fmi3EnterInitializationMode(False, 0.0, 2.0, True, 1.0) == ERROR
    assert "stopTime 1 is before startTime 2" in last_error(fmu)
    fmu.initialize(start=2.0, stop=3.0)
    assert fmu.do_step(2.0, 1.0)[0] == OK


def test_model_exchange_array_sizes_and_nulls(vanderpol_me):
    fmu = vanderpol_me
    fmu.initialize()
    flags = [ctypes.c_bool() for _ in range(5)]
    assert fmu.fmi3UpdateDiscreteStates(None, *[ctypes.byref(f) for f in flags[1:]], None) == ERROR
    assert fmu.fmi3EnterContinuousTimeMode() == OK
    assert fmu.fmi3SetContinuousStates(None, 2) == ERROR
    assert "argument array must not be NULL" in last_error(fmu)
    derivatives = (ctypes.c_double * 1)()
    assert fmu.fmi3GetContinuousStateDerivatives(derivatives, 1) == ERROR
    assert "expected nContinuousStates = 2 but was 1" in last_error(fmu)
    assert fmu.fmi3SetTime(0.5) == OK


def test_constants_and_calculated_variables_cannot_be_set(fmus):
    fmu = RawFmu(fmus.extracted("BouncingBall"))
    assert fmu.set(**{"der(v)": 1.0}) == ERROR
    assert "variable der(v)" in last_error(fmu) and "cannot be set in state Instantiated" in last_error(fmu)
    assert fmu.set(g=3.0) == OK
    fmu.initialize()
    assert fmu.set(g=9.81) == ERROR  # a fixed parameter after initialization
    fmu.free()


def test_string_setter_refuses_null_strings(fmus):
    fmu = RawFmu(fmus.extracted("Counter"))
    set_string = fmu.lib.fmi3SetString
    set_string.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_uint32), ctypes.c_size_t,
                           ctypes.POINTER(ctypes.c_char_p), ctypes.c_size_t]
    label = refs([fmu.vr["label"]])
    assert set_string(fmu.instance, label, 1, (ctypes.c_char_p * 1)(None), 1) == ERROR
    assert "values[k] must not be NULL" in last_error(fmu)
    assert set_string(fmu.instance, refs([fmu.vr["limit"]]), 1, (ctypes.c_char_p * 1)(b"x"), 1) == ERROR
    fmu.free()


def test_an_instance_in_error_state_can_be_reset(fmus):
    fmu = RawFmu(fmus.extracted("Chatter"))
    fmu.initialize()
    assert fmu.do_step(0.0, 1.0)[0] == ERROR
    assert fmu.do_step(0.0, 0.1)[0] == ERROR  # in the Error state nothing steps
    assert "not allowed in state Error" in last_error(fmu)
    assert fmu.fmi3Reset() == OK
    fmu.initialize()
    assert fmu.do_step(0.0, 0.25)[0] == OK
    fmu.free()
