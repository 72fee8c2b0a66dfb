"""FMI 3.0 instances (Co-Simulation and Model Exchange) over the raw functions of ``FmuLibrary``."""
from __future__ import annotations

import ctypes
from ctypes import byref, c_bool, c_char_p, c_double

from cosim.fmi.errors import FmiCallError
from cosim.fmi.instance import FmuInstance
from cosim.fmi.signatures import FMI3_VALUE_TYPES, Fmi3LogMessage


class Fmi3Instance(FmuInstance):
    vr_type = ctypes.c_uint32
    names = {"terminate": "fmi3Terminate", "free": "fmi3FreeInstance",
             "get_state": "fmi3GetFMUState", "set_state": "fmi3SetFMUState",
             "free_state": "fmi3FreeFMUState"}

    def instantiate(self, visible: bool = False, logging_on: bool = False) -> None:
        def log_message(_environment, status, category, message):
            self.log.record(status, category, message)

        self._log_callback = Fmi3LogMessage(log_message)  # kept alive with the instance
        interface = self.info.co_simulation if self.kind == "CS" else self.info.model_exchange
        resources = str((self.folder / "resources").resolve()) + "/"
        name, token = self.name.encode(), self.info.token.encode()
        if self.kind == "CS":
            function = "fmi3InstantiateCoSimulation"
            self.handle = self.library.function(function)(
                name, token, resources.encode(), visible, logging_on, False, False, None, 0,
                None, self._log_callback, None)
        else:
            function = "fmi3InstantiateModelExchange"
            self.handle = self.library.function(function)(
                name, token, resources.encode(), visible, logging_on, None, self._log_callback)
        if not self.handle:
            raise self.library.failure(self.name, function, None, self.log.last) or \
                FmiCallError(function, 3, self.name, None,
                             self.log.last or f"no instance of '{interface.model_identifier}'")

    def enter_initialization(self, start: float, stop: float | None, tolerance: float | None):
        self.time = start
        self.call("fmi3EnterInitializationMode", tolerance is not None, tolerance or 0.0, start,
                  stop is not None, stop if stop is not None else 0.0)

    def exit_initialization(self) -> None:
        self.call("fmi3ExitInitializationMode")

    def get(self, type_name: str, references) -> list:
        ctype = FMI3_VALUE_TYPES[type_name]
        vrs, values = self.buffers(ctype, references)
        self.call(f"fmi3Get{type_name}", vrs, len(references), values, len(references))
        return values[:len(references)]

    def set(self, type_name: str, references, values) -> None:
        ctype = FMI3_VALUE_TYPES[type_name]
        vrs, buffer = self.buffers(ctype, references)
        buffer[:len(references)] = list(values)
        self.call(f"fmi3Set{type_name}", vrs, len(references), buffer, len(references))

    def get_strings(self, references) -> list[str]:
        vrs, values = self.buffers(c_char_p, references)
        self.call("fmi3GetString", vrs, len(references), values, len(references))
        return [(v or b"").decode() for v in values[:len(references)]]

    def set_strings(self, references, values) -> None:
        vrs, buffer = self.buffers(c_char_p, references)
        buffer[:len(references)] = [v.encode() for v in values]
        self.call("fmi3SetString", vrs, len(references), buffer, len(references))

    def do_step(self, t: float, h: float) -> bool:
        """One communication step; returns True when the FMU asks to terminate."""
        self.time = t
        event, terminate, early = c_bool(), c_bool(), c_bool()
        last = c_double()
        self.call("fmi3DoStep", t, h, False, byref(event), byref(terminate), byref(early),
                  byref(last))
        self.time = t + h
        return terminate.value
