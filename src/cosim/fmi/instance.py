"""One FMU instance behind a version-independent interface: the base of ``Fmi3Instance`` and
``Fmi2Instance``. Status is checked in one place (``_check``); Warning is logged, Discard and
worse raise ``FmiCallError`` with the instance name, the time and the FMU's last message.
Value buffers are allocated once per (type, value references) and reused.
"""
from __future__ import annotations

import ctypes
import logging
from pathlib import Path

from cosim.fmi.description import ModelInfo
from cosim.fmi.errors import STATUS_NAMES, FmiCallError
from cosim.fmi.library import FmuLibrary

LOGGER = logging.getLogger("cosim.fmu")
# Discard, Error and Fatal messages reach the user inside the FmiCallError they cause.
LEVELS = (logging.INFO, logging.WARNING, logging.INFO, logging.INFO, logging.INFO, logging.INFO)
KEPT_PROBLEMS = 3


class MessageLog:
    """Receives the FMU's log messages: into Python logging, and keeps the last one."""

    def __init__(self, instance_name: str):
        self.instance_name = instance_name
        self.last = ""
        self.problems: list[str] = []

    def record(self, status: int, category: bytes | None, message: bytes | None) -> None:
        text = (message or b"").decode("utf-8", "replace").strip()
        category_text = (category or b"").decode("utf-8", "replace")
        self.last = text
        if status >= 2 and text not in self.problems:
            self.problems = (self.problems + [text])[-KEPT_PROBLEMS:]
        level = LEVELS[status] if 0 <= status < len(LEVELS) else logging.ERROR
        LOGGER.log(level, "%s [%s] %s", self.instance_name, category_text, text)

    def message_for(self, status: int) -> str:
        """The FMU's last messages about a call that returned ``status``."""
        return " / ".join(self.problems) or self.last if status >= 2 else self.last


class FmuInstance:
    """Common part of an instance. ``time`` is kept up to date for error messages."""

    prefix = ""
    type_names: dict = {}

    def __init__(self, library: FmuLibrary, info: ModelInfo, folder: Path, name: str,
                 kind: str):
        self.library = library
        self.info = info
        self.folder = folder
        self.name = name
        self.kind = kind  # "CS" or "ME"
        self.log = MessageLog(name)
        self.time: float | None = None
        self.handle = None
        self._buffers: dict = {}

    # --- status ------------------------------------------------------------------------------
    def _check(self, function: str, status: int) -> int:
        if status == 0:
            return status
        if status == 1:
            LOGGER.warning("%s at t = %s: %s returned Warning", self.name, self.time, function)
            return status
        message = self.log.message_for(status)
        function = self.library.failed_function() or function  # a queued setter, isolated
        raise self.library.failure(self.name, function, self.time, message) or \
            FmiCallError(function, status, self.name, self.time, message)

    def call(self, function: str, *args) -> int:
        """Call the raw FMI function ``function`` on this instance and check its status."""
        return self._check(function, self.library.function(function)(self.handle, *args))

    # --- buffers -----------------------------------------------------------------------------
    def buffers(self, ctype, references, n_values: int | None = None) -> tuple:
        """Reused ctypes arrays of value references and ``n_values`` values (one per
        reference unless arrays make it more)."""
        n = len(references) if n_values is None else n_values
        key = (ctype, tuple(references), n)
        found = self._buffers.get(key)
        if found is None:
            found = ((self.vr_type * len(references))(*references), (ctype * max(n, 1))())
            self._buffers[key] = found
        return found

    vr_type = ctypes.c_uint32
    names: dict[str, str] = {}  # role -> the version's FMI function

    # --- life cycle and FMU state, the same for both versions but for the names ------------
    def get_state(self, state=None):
        """The FMU state (reusing ``state``'s memory when given)."""
        state = state if state is not None else ctypes.c_void_p()
        self.call(self.names["get_state"], ctypes.byref(state))
        return state

    def set_state(self, state) -> None:
        self.call(self.names["set_state"], state)

    def free_state(self, state) -> None:
        self.call(self.names["free_state"], ctypes.byref(state))

    def terminate(self) -> None:
        self.call(self.names["terminate"])

    def free(self) -> None:
        if self.handle:
            self.library.function(self.names["free"])(self.handle)
            self.handle = None
        self.library.release()

    def status_name(self, status: int) -> str:
        return STATUS_NAMES[status] if 0 <= status < len(STATUS_NAMES) else str(status)
