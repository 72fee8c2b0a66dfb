"""FMI 3.0 instances (Co-Simulation and Model Exchange) over the raw functions of ``FmuLibrary``."""
from __future__ import annotations

import ctypes
from ctypes import byref, c_bool, c_char_p, c_double, c_size_t, c_void_p

from cosim.fmi.errors import FmiCallError
from cosim.fmi.instance import FmuInstance
from cosim.fmi.signatures import FMI3_VALUE_TYPES, Fmi3ClockUpdate, Fmi3LogMessage


def clock_update_address() -> int:
    """The clockUpdate callback of Scheduled Execution (the master asks for the countdown
    intervals after each activation, so it does nothing)."""
    from cosim.native import native

    module = native()
    return int(module.ffi.cast("uintptr_t", module.ffi.addressof(module.lib,
                                                                  "cosim_clock_update")))


class Fmi3Instance(FmuInstance):
    vr_type = ctypes.c_uint32
    names = {"terminate": "fmi3Terminate", "free": "fmi3FreeInstance",
             "get_state": "fmi3GetFMUState", "set_state": "fmi3SetFMUState",
             "free_state": "fmi3FreeFMUState"}

    def instantiate(self, visible: bool = False, logging_on: bool = False,
                    event_mode: bool = False) -> None:
        """``event_mode``: Co-Simulation with Event Mode and early return (events inside
        a step are handled by the master)."""
        def log_message(_environment, status, category, message):
            self.log.record(status, category, message)

        self._log_callback = Fmi3LogMessage(log_message)  # kept alive with the instance
        interface = self.info.interface(self.kind)
        resources = str((self.folder / "resources").resolve()) + "/"
        name, token = self.name.encode(), self.info.token.encode()
        if self.kind == "SE":
            function = "fmi3InstantiateScheduledExecution"
            self.handle = self.library.function(function)(
                name, token, resources.encode(), visible, logging_on, None, self._log_callback,
                Fmi3ClockUpdate(clock_update_address()), None, None)
        elif self.kind == "CS":
            function = "fmi3InstantiateCoSimulation"
            self.handle = self.library.function(function)(
                name, token, resources.encode(), visible, logging_on, event_mode, event_mode,
                None, 0, None, self._log_callback, None)
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

    def get(self, type_name: str, references, n_values: int | None = None) -> list:
        ctype = FMI3_VALUE_TYPES[type_name]
        n = len(references) if n_values is None else n_values
        vrs, values = self.buffers(ctype, references, n)
        self.call(f"fmi3Get{type_name}", vrs, len(references), values, n)
        return values[:n]

    def set(self, type_name: str, references, values) -> None:
        """``values``: one per reference, or every element of array variables."""
        if type_name == "Binary":
            return self.set_binaries(references, values)
        ctype = FMI3_VALUE_TYPES[type_name]
        values = list(values)
        vrs, buffer = self.buffers(ctype, references, len(values))
        buffer[:len(values)] = values
        self.call(f"fmi3Set{type_name}", vrs, len(references), buffer, len(values))

    def set_binaries(self, references, values) -> None:
        values = [bytes(v) for v in values]
        vrs, buffer = self.buffers(c_void_p, references, len(values))
        sizes = (c_size_t * max(len(values), 1))(*[len(v) for v in values])
        keep = [ctypes.create_string_buffer(v, len(v) or 1) for v in values]
        buffer[:len(values)] = [ctypes.cast(k, c_void_p) for k in keep]
        self.call("fmi3SetBinary", vrs, len(references), sizes, buffer, len(values))

    def get_strings(self, references) -> list[str]:
        vrs, values = self.buffers(c_char_p, references)
        self.call("fmi3GetString", vrs, len(references), values, len(references))
        return [(v or b"").decode() for v in values[:len(references)]]

    def set_strings(self, references, values) -> None:
        values = list(values)
        vrs, buffer = self.buffers(c_char_p, references, len(values))
        buffer[:len(values)] = [v.encode() for v in values]
        self.call("fmi3SetString", vrs, len(references), buffer, len(values))

    def do_step(self, t: float, h: float) -> bool:
        """One communication step; returns True when the FMU asks to terminate."""
        self.time = t
        event, terminate, early = c_bool(), c_bool(), c_bool()
        last = c_double()
        self.call("fmi3DoStep", t, h, False, byref(event), byref(terminate), byref(early),
                  byref(last))
        self.time = t + h
        return terminate.value
