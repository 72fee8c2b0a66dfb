"""FMI 2.0 instances (Co-Simulation and Model Exchange) over the raw functions of ``FmuLibrary``."""
from __future__ import annotations

import ctypes
from ctypes import byref, c_char_p, c_void_p
from pathlib import Path

from cosim.fmi.errors import FmiCallError
from cosim.fmi.instance import FmuInstance
from cosim.fmi.signatures import FMI2_VALUE_TYPES, Fmi2CallbackFunctions, Fmi2Logger

# exchange type -> FMI 2.0 type of the Get/Set functions
FMI2_TYPE_OF = {"Float64": "Real", "Int32": "Integer", "Boolean": "Boolean", "String": "String"}
_LIBC = ctypes.CDLL(None)


class Fmi2Instance(FmuInstance):
    vr_type = ctypes.c_uint
    names = {"terminate": "fmi2Terminate", "free": "fmi2FreeInstance",
             "get_state": "fmi2GetFMUstate", "set_state": "fmi2SetFMUstate",
             "free_state": "fmi2FreeFMUstate"}

    def instantiate(self, visible: bool = False, logging_on: bool = False,
                    event_mode: bool = False) -> None:
        def logger(_environment, _name, status, category, message):
            self.log.record(status, category, message)

        self._callbacks = Fmi2CallbackFunctions(
            Fmi2Logger(logger), ctypes.cast(_LIBC.calloc, c_void_p),
            ctypes.cast(_LIBC.free, c_void_p), None, None)
        resources = Path(self.folder / "resources").resolve().as_uri() + "/"
        kind = 1 if self.kind == "CS" else 0
        self.handle = self.library.function("fmi2Instantiate")(
            self.name.encode(), kind, self.info.token.encode(), resources.encode(),
            byref(self._callbacks), int(visible), int(logging_on))
        if not self.handle:
            raise self.library.failure(self.name, "fmi2Instantiate", None, self.log.last) or \
                FmiCallError("fmi2Instantiate", 3, self.name, None, self.log.last or "no instance")

    def enter_initialization(self, start: float, stop: float | None, tolerance: float | None):
        self.time = start
        self.call("fmi2SetupExperiment", int(tolerance is not None), tolerance or 0.0, start,
                  int(stop is not None), stop if stop is not None else 0.0)
        self.call("fmi2EnterInitializationMode")

    def exit_initialization(self) -> None:
        self.call("fmi2ExitInitializationMode")

    def get(self, type_name: str, references) -> list:
        fmi2_type = FMI2_TYPE_OF[type_name]
        vrs, values = self.buffers(FMI2_VALUE_TYPES[fmi2_type], references)
        self.call(f"fmi2Get{fmi2_type}", vrs, len(references), values)
        result = values[:len(references)]
        return [bool(v) for v in result] if type_name == "Boolean" else result

    def set(self, type_name: str, references, values) -> None:
        fmi2_type = FMI2_TYPE_OF[type_name]
        vrs, buffer = self.buffers(FMI2_VALUE_TYPES[fmi2_type], references)
        buffer[:len(references)] = [int(v) if fmi2_type != "Real" else v for v in values]
        self.call(f"fmi2Set{fmi2_type}", vrs, len(references), buffer)

    def get_strings(self, references) -> list[str]:
        vrs, values = self.buffers(c_char_p, references)
        self.call("fmi2GetString", vrs, len(references), values)
        return [(v or b"").decode() for v in values[:len(references)]]

    def set_strings(self, references, values) -> None:
        vrs, buffer = self.buffers(c_char_p, references)
        buffer[:len(references)] = [v.encode() for v in values]
        self.call("fmi2SetString", vrs, len(references), buffer)

    def do_step(self, t: float, h: float) -> bool:
        self.time = t
        self.call("fmi2DoStep", t, h, 0)
        self.time = t + h
        return False
