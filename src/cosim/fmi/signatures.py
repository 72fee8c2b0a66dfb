"""The C signatures of the FMI 3.0 and 2.0 functions, as data: ``name -> (restype, argtypes)``.

One table per version; ``library.FmuLibrary`` binds every entry once and sets ``argtypes``
and ``restype`` from it, so no call site converts arguments by hand.
"""
from __future__ import annotations

from ctypes import (
    CFUNCTYPE, POINTER, Structure, c_bool, c_char_p, c_double, c_float, c_int, c_int8, c_int16,
    c_int32, c_int64, c_size_t, c_uint, c_uint8, c_uint16, c_uint32, c_uint64, c_void_p,
)

# --- FMI 3.0 ------------------------------------------------------------------------------------
Instance = c_void_p
Status = c_int
Vrs = POINTER(c_uint32)
Size = c_size_t
Bool = c_bool
BoolOut = POINTER(c_bool)

Fmi3LogMessage = CFUNCTYPE(None, c_void_p, c_int, c_char_p, c_char_p)
Fmi3IntermediateUpdate = c_void_p  # not used: we never ask for intermediate updates
Fmi3ClockUpdate = CFUNCTYPE(None, c_void_p)  # Scheduled Execution: a countdown clock ticks

# FMI 3.0 value types: C type of one value, in the order of the exchange type codes (types.py).
FMI3_VALUE_TYPES = {
    "Float64": c_double, "Float32": c_float, "Int8": c_int8, "UInt8": c_uint8,
    "Int16": c_int16, "UInt16": c_uint16, "Int32": c_int32, "UInt32": c_uint32,
    "Int64": c_int64, "UInt64": c_uint64, "Boolean": c_bool,
}


def _accessors(prefix: str, types: dict) -> dict:
    table = {}
    for name, ctype in types.items():
        table[f"{prefix}Get{name}"] = (Status, [Instance, Vrs, Size, POINTER(ctype), Size])
        table[f"{prefix}Set{name}"] = (Status, [Instance, Vrs, Size, POINTER(ctype), Size])
    return table


FMI3 = {
    "fmi3GetVersion": (c_char_p, []),
    "fmi3SetDebugLogging": (Status, [Instance, Bool, Size, POINTER(c_char_p)]),
    "fmi3InstantiateModelExchange": (Instance, [c_char_p, c_char_p, c_char_p, Bool, Bool,
                                                c_void_p, Fmi3LogMessage]),
    "fmi3InstantiateCoSimulation": (Instance, [c_char_p, c_char_p, c_char_p, Bool, Bool, Bool,
                                               Bool, Vrs, Size, c_void_p, Fmi3LogMessage,
                                               Fmi3IntermediateUpdate]),
    "fmi3FreeInstance": (None, [Instance]),
    "fmi3EnterInitializationMode": (Status, [Instance, Bool, c_double, c_double, Bool,
                                             c_double]),
    "fmi3ExitInitializationMode": (Status, [Instance]),
    "fmi3EnterEventMode": (Status, [Instance]),
    "fmi3Terminate": (Status, [Instance]),
    "fmi3Reset": (Status, [Instance]),
    **_accessors("fmi3", FMI3_VALUE_TYPES),
    "fmi3GetString": (Status, [Instance, Vrs, Size, POINTER(c_char_p), Size]),
    "fmi3SetString": (Status, [Instance, Vrs, Size, POINTER(c_char_p), Size]),
    "fmi3GetBinary": (Status, [Instance, Vrs, Size, POINTER(c_size_t), POINTER(c_void_p), Size]),
    "fmi3SetBinary": (Status, [Instance, Vrs, Size, POINTER(c_size_t), POINTER(c_void_p), Size]),
    "fmi3GetClock": (Status, [Instance, Vrs, Size, POINTER(c_bool)]),
    "fmi3SetClock": (Status, [Instance, Vrs, Size, POINTER(c_bool)]),
    "fmi3GetIntervalDecimal": (Status, [Instance, Vrs, Size, POINTER(c_double),
                                        POINTER(c_int)]),
    "fmi3GetShiftDecimal": (Status, [Instance, Vrs, Size, POINTER(c_double)]),
    "fmi3ActivateModelPartition": (Status, [Instance, c_uint32, c_double]),
    "fmi3InstantiateScheduledExecution": (Instance, [c_char_p, c_char_p, c_char_p, Bool, Bool,
                                                     c_void_p, Fmi3LogMessage, Fmi3ClockUpdate,
                                                     c_void_p, c_void_p]),
    "fmi3GetFMUState": (Status, [Instance, POINTER(c_void_p)]),
    "fmi3SetFMUState": (Status, [Instance, c_void_p]),
    "fmi3FreeFMUState": (Status, [Instance, POINTER(c_void_p)]),
    "fmi3GetDirectionalDerivative": (Status, [Instance, Vrs, Size, Vrs, Size, POINTER(c_double),
                                              Size, POINTER(c_double), Size]),
    "fmi3EnterConfigurationMode": (Status, [Instance]),
    "fmi3ExitConfigurationMode": (Status, [Instance]),
    "fmi3UpdateDiscreteStates": (Status, [Instance, BoolOut, BoolOut, BoolOut, BoolOut, BoolOut,
                                          POINTER(c_double)]),
    "fmi3EnterContinuousTimeMode": (Status, [Instance]),
    "fmi3CompletedIntegratorStep": (Status, [Instance, Bool, BoolOut, BoolOut]),
    "fmi3SetTime": (Status, [Instance, c_double]),
    "fmi3SetContinuousStates": (Status, [Instance, POINTER(c_double), Size]),
    "fmi3GetContinuousStateDerivatives": (Status, [Instance, POINTER(c_double), Size]),
    "fmi3GetEventIndicators": (Status, [Instance, POINTER(c_double), Size]),
    "fmi3GetContinuousStates": (Status, [Instance, POINTER(c_double), Size]),
    "fmi3GetNominalsOfContinuousStates": (Status, [Instance, POINTER(c_double), Size]),
    "fmi3GetNumberOfEventIndicators": (Status, [Instance, POINTER(c_size_t)]),
    "fmi3GetNumberOfContinuousStates": (Status, [Instance, POINTER(c_size_t)]),
    "fmi3EnterStepMode": (Status, [Instance]),
    "fmi3DoStep": (Status, [Instance, c_double, c_double, Bool, BoolOut, BoolOut, BoolOut,
                            POINTER(c_double)]),
}

# --- FMI 2.0 ------------------------------------------------------------------------------------
Component = c_void_p
Fmi2Bool = c_int
Fmi2Vrs = POINTER(c_uint)

# The logger is variadic in C; ctypes passes the fixed arguments and the format string, which
# is what other importers show too (printf arguments are rarely used by FMUs).
Fmi2Logger = CFUNCTYPE(None, c_void_p, c_char_p, c_int, c_char_p, c_char_p)
Fmi2Allocate = CFUNCTYPE(c_void_p, c_size_t, c_size_t)
Fmi2Free = CFUNCTYPE(None, c_void_p)


class Fmi2CallbackFunctions(Structure):
    _fields_ = [("logger", Fmi2Logger), ("allocateMemory", c_void_p), ("freeMemory", c_void_p),
                ("stepFinished", c_void_p), ("componentEnvironment", c_void_p)]


class Fmi2EventInfo(Structure):
    _fields_ = [("newDiscreteStatesNeeded", c_int), ("terminateSimulation", c_int),
                ("nominalsOfContinuousStatesChanged", c_int),
                ("valuesOfContinuousStatesChanged", c_int), ("nextEventTimeDefined", c_int),
                ("nextEventTime", c_double)]


FMI2_VALUE_TYPES = {"Real": c_double, "Integer": c_int, "Boolean": c_int}

FMI2 = {
    "fmi2GetVersion": (c_char_p, []),
    "fmi2GetTypesPlatform": (c_char_p, []),
    "fmi2SetDebugLogging": (Status, [Component, Fmi2Bool, c_size_t, POINTER(c_char_p)]),
    "fmi2Instantiate": (Component, [c_char_p, c_int, c_char_p, c_char_p,
                                    POINTER(Fmi2CallbackFunctions), Fmi2Bool, Fmi2Bool]),
    "fmi2FreeInstance": (None, [Component]),
    "fmi2SetupExperiment": (Status, [Component, Fmi2Bool, c_double, c_double, Fmi2Bool,
                                     c_double]),
    "fmi2EnterInitializationMode": (Status, [Component]),
    "fmi2ExitInitializationMode": (Status, [Component]),
    "fmi2Terminate": (Status, [Component]),
    "fmi2Reset": (Status, [Component]),
    **{f"fmi2{verb}{name}": (Status, [Component, Fmi2Vrs, c_size_t, POINTER(ctype)])
       for name, ctype in FMI2_VALUE_TYPES.items() for verb in ("Get", "Set")},
    "fmi2GetString": (Status, [Component, Fmi2Vrs, c_size_t, POINTER(c_char_p)]),
    "fmi2SetString": (Status, [Component, Fmi2Vrs, c_size_t, POINTER(c_char_p)]),
    "fmi2GetFMUstate": (Status, [Component, POINTER(c_void_p)]),
    "fmi2SetFMUstate": (Status, [Component, c_void_p]),
    "fmi2FreeFMUstate": (Status, [Component, POINTER(c_void_p)]),
    "fmi2GetDirectionalDerivative": (Status, [Component, Fmi2Vrs, c_size_t, Fmi2Vrs, c_size_t,
                                              POINTER(c_double), POINTER(c_double)]),
    "fmi2EnterEventMode": (Status, [Component]),
    "fmi2NewDiscreteStates": (Status, [Component, POINTER(Fmi2EventInfo)]),
    "fmi2EnterContinuousTimeMode": (Status, [Component]),
    "fmi2CompletedIntegratorStep": (Status, [Component, Fmi2Bool, POINTER(c_int),
                                             POINTER(c_int)]),
    "fmi2SetTime": (Status, [Component, c_double]),
    "fmi2SetContinuousStates": (Status, [Component, POINTER(c_double), c_size_t]),
    "fmi2GetDerivatives": (Status, [Component, POINTER(c_double), c_size_t]),
    "fmi2GetEventIndicators": (Status, [Component, POINTER(c_double), c_size_t]),
    "fmi2GetContinuousStates": (Status, [Component, POINTER(c_double), c_size_t]),
    "fmi2GetNominalsOfContinuousStates": (Status, [Component, POINTER(c_double), c_size_t]),
    "fmi2DoStep": (Status, [Component, c_double, c_double, Fmi2Bool]),
    "fmi2GetBooleanStatus": (Status, [Component, c_int, POINTER(c_int)]),
    "fmi2GetRealStatus": (Status, [Component, c_int, POINTER(c_double)]),
}

TABLES = {"3": FMI3, "2": FMI2}
