"""Errors of loading and calling FMUs; each names the instance (and the time of a failed call)."""
from __future__ import annotations

from cosim.errors import CosimError

STATUS_NAMES = ("OK", "Warning", "Discard", "Error", "Fatal", "Pending")


class FmuError(CosimError):
    """An FMU that cannot be loaded or used: missing binary, missing function, bad description."""


class FmiCallError(CosimError):
    """An FMI function returned Discard, Error or Fatal (or an instantiate returned NULL).

    ``str(error)`` is ``instance at t = T: fmi3DoStep returned Error: <the FMU's last message>``.
    """

    def __init__(self, function: str, status: int, instance: str, time: float | None = None,
                 message: str = ""):
        self.function = function
        self.status = status
        self.instance = instance
        self.time = time
        self.fmu_message = message
        status_name = STATUS_NAMES[status] if 0 <= status < len(STATUS_NAMES) else str(status)
        text = f"{function} returned {status_name}"
        if message:
            text += f": {message}"
        where = instance if time is None else f"{instance} at t = {time:.17g}"
        super().__init__(text, where)
