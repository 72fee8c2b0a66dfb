"""Minimal ctypes access to an FMI 3.0 binary that returns raw statuses (fmpy raises on
errors; the state-machine tests need the status codes and the log)."""
from __future__ import annotations

import ctypes
from ctypes import POINTER, c_bool, c_char_p, c_double, c_int, c_int32, c_size_t, c_uint32, c_void_p
from pathlib import Path

from lxml import etree

OK, WARNING, DISCARD, ERROR, FATAL = range(5)

LOGGER = ctypes.CFUNCTYPE(None, c_void_p, c_int, c_char_p, c_char_p)
BOOL_OUT = POINTER(c_bool)

SIGNATURES = {
    "fmi3InstantiateCoSimulation": (c_void_p, [c_char_p, c_char_p, c_char_p, c_bool, c_bool, c_bool, c_bool,
                                               POINTER(c_uint32), c_size_t, c_void_p, LOGGER, c_void_p]),
    "fmi3InstantiateModelExchange": (c_void_p, [c_char_p, c_char_p, c_char_p, c_bool, c_bool, c_void_p, LOGGER]),
    "fmi3FreeInstance": (None, [c_void_p]),
    "fmi3EnterInitializationMode": (c_int, [c_void_p, c_bool, c_double, c_double, c_bool, c_double]),
    "fmi3ExitInitializationMode": (c_int, [c_void_p]),
    "fmi3EnterEventMode": (c_int, [c_void_p]),
    "fmi3EnterContinuousTimeMode": (c_int, [c_void_p]),
    "fmi3EnterStepMode": (c_int, [c_void_p]),
    "fmi3Terminate": (c_int, [c_void_p]),
    "fmi3Reset": (c_int, [c_void_p]),
    "fmi3GetFloat64": (c_int, [c_void_p, POINTER(c_uint32), c_size_t, POINTER(c_double), c_size_t]),
    "fmi3SetFloat64": (c_int, [c_void_p, POINTER(c_uint32), c_size_t, POINTER(c_double), c_size_t]),
    "fmi3GetInt32": (c_int, [c_void_p, POINTER(c_uint32), c_size_t, POINTER(c_int32), c_size_t]),
    "fmi3SetBoolean": (c_int, [c_void_p, POINTER(c_uint32), c_size_t, POINTER(c_bool), c_size_t]),
    "fmi3GetFloat32": (c_int, [c_void_p, POINTER(c_uint32), c_size_t, c_void_p, c_size_t]),
    "fmi3SetTime": (c_int, [c_void_p, c_double]),
    "fmi3SetContinuousStates": (c_int, [c_void_p, POINTER(c_double), c_size_t]),
    "fmi3GetContinuousStates": (c_int, [c_void_p, POINTER(c_double), c_size_t]),
    "fmi3GetContinuousStateDerivatives": (c_int, [c_void_p, POINTER(c_double), c_size_t]),
    "fmi3UpdateDiscreteStates": (c_int, [c_void_p, BOOL_OUT, BOOL_OUT, BOOL_OUT, BOOL_OUT, BOOL_OUT, POINTER(c_double)]),
    "fmi3DoStep": (c_int, [c_void_p, c_double, c_double, c_bool, BOOL_OUT, BOOL_OUT, BOOL_OUT, POINTER(c_double)]),
    "fmi3GetFMUState": (c_int, [c_void_p, POINTER(c_void_p)]),
    "fmi3SetFMUState": (c_int, [c_void_p, c_void_p]),
    "fmi3FreeFMUState": (c_int, [c_void_p, POINTER(c_void_p)]),
    "fmi3SerializedFMUStateSize": (c_int, [c_void_p, c_void_p, POINTER(c_size_t)]),
    "fmi3SerializeFMUState": (c_int, [c_void_p, c_void_p, POINTER(ctypes.c_uint8), c_size_t]),
    "fmi3DeserializeFMUState": (c_int, [c_void_p, POINTER(ctypes.c_uint8), c_size_t, POINTER(c_void_p)]),
    "fmi3GetDirectionalDerivative": (c_int, [c_void_p, POINTER(c_uint32), c_size_t, POINTER(c_uint32), c_size_t,
                                             POINTER(c_double), c_size_t, POINTER(c_double), c_size_t]),
    "fmi3SetDebugLogging": (c_int, [c_void_p, c_bool, c_size_t, POINTER(c_char_p)]),
    "fmi3GetClock": (c_int, [c_void_p, POINTER(c_uint32), c_size_t, c_void_p]),
    "fmi3EnterConfigurationMode": (c_int, [c_void_p]),
}


def doubles(values) -> ctypes.Array:
    return (c_double * len(values))(*values)


def refs(values) -> ctypes.Array:
    return (c_uint32 * len(values))(*values)


class RawFmu:
    """One instance of an unpacked FMU's binary; `self.log` collects (status, category, message)."""

    def __init__(self, unpacked: Path, kind: str = "CS", logging_on: bool = False, early_return: bool = False):
        root = etree.parse(str(unpacked / "modelDescription.xml")).getroot()
        identifier = root.find("CoSimulation").get("modelIdentifier")
        self.token = root.get("instantiationToken").encode()
        self.vr = {v.get("name"): int(v.get("valueReference")) for v in root.find("ModelVariables")}
        self.lib = ctypes.CDLL(str(unpacked / "binaries" / "x86_64-linux" / f"{identifier}.so"))
        for name, (restype, argtypes) in SIGNATURES.items():
            function = getattr(self.lib, name)
            function.restype, function.argtypes = restype, argtypes
        self.log: list[tuple[int, str, str]] = []
        self._logger = LOGGER(lambda env, status, category, message: self.log.append(
            (status, category.decode(), message.decode())))
        if kind == "CS":
            self.instance = self.lib.fmi3InstantiateCoSimulation(
                b"raw", self.token, None, False, logging_on, False, early_return, None, 0, None, self._logger, None)
        else:
            self.instance = self.lib.fmi3InstantiateModelExchange(
                b"raw", self.token, None, False, logging_on, None, self._logger)
        assert self.instance, self.log

    def __getattr__(self, name: str):
        function = getattr(self.lib, name)
        return lambda *args: function(self.instance, *args)

    def messages(self, status: int | None = None) -> list[str]:
        return [m for s, _, m in self.log if status is None or s == status]

    def initialize(self, start: float = 0.0, tolerance: float | None = None, stop: float | None = None) -> None:
        assert self.fmi3EnterInitializationMode(tolerance is not None, tolerance or 0.0, start,
                                                stop is not None, stop or 0.0) == OK, self.log
        assert self.fmi3ExitInitializationMode() == OK, self.log

    def get(self, *names: str) -> list[float]:
        values = (c_double * len(names))()
        assert self.fmi3GetFloat64(refs([self.vr[n] for n in names]), len(names), values, len(names)) == OK, self.log
        return list(values)

    def set(self, **values: float) -> int:
        names = list(values)
        return self.fmi3SetFloat64(refs([self.vr[n] for n in names]), len(names),
                                   doubles([values[n] for n in names]), len(names))

    def do_step(self, t: float, h: float) -> tuple[int, bool, bool, float]:
        event, terminate, early, last = c_bool(), c_bool(), c_bool(), c_double()
        status = self.fmi3DoStep(t, h, False, ctypes.byref(event), ctypes.byref(terminate),
                                 ctypes.byref(early), ctypes.byref(last))
        return status, terminate.value, early.value, last.value

    def free(self) -> None:
        if self.instance:
            self.lib.fmi3FreeInstance(self.instance)
            self.instance = None
