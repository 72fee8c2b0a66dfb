"""FMUs hosted in a worker process: a crash in the FMU ends the worker, not the master.

Input: the path of an FMU's shared library and its FMI version. Output: an ``IsolatedLibrary``
with the interface of ``FmuLibrary`` (raw functions named as in C, their addresses for the C
loop) whose functions are the proxies of ``fmu_templates/isolation_proxy.c``: each call travels
over shared memory to ``cosim-worker``, which has loaded the real library. One worker per
instance; ``failure()`` turns a dead worker into the error the user sees.
"""
from __future__ import annotations

import ctypes
import functools
import signal
import sysconfig
import weakref
from pathlib import Path

from cosim.errors import CosimError
from cosim.fmi.errors import FmuError
from cosim.fmi.library import FmuLibrary
from cosim.fmi.signatures import TABLES
from cosim.native import native, worker_executable

# Instantiate functions take the host first (the proxy's handle is the host itself).
INSTANTIATE = {"fmi3InstantiateCoSimulation", "fmi3InstantiateModelExchange",
               "fmi3InstantiateScheduledExecution", "fmi2Instantiate"}
ERROR_BYTES = 1024
# Seconds each side of the channel spins for the other before it sleeps (tools/bench_isolation.py
# measures what it buys): 0 sleeps at once, which is best when the cores are shared.
SPIN_SECONDS = 0.0


class FmuCrashError(CosimError):
    """The worker hosting an FMU instance died: a signal (a crash) or an exit of its own.

    ``str(error)`` is ``FMU: instance 'x' crashed (signal 11) at t=1.5 in fmi3DoStep: ...``.
    """

    def __init__(self, instance: str, function: str, time: float | None, signal_number: int,
                 exit_code: int, fmu_message: str = "", location: str = ""):
        self.instance, self.function, self.time = instance, function, time
        self.signal, self.exit_code, self.fmu_message = signal_number, exit_code, fmu_message
        when = "" if time is None else f" at t={time:.15g}"
        if signal_number:
            what = f"crashed (signal {signal_number}){when} in {function}: " \
                   f"{signal.strsignal(signal_number) or 'unknown signal'}"
        else:
            what = f"exited (status {exit_code}){when} in {function}"
        text = f"instance '{instance}' {what}"
        if fmu_message:
            text += f" (its last message: {fmu_message})"
        super().__init__(text, location)


class FmuTimeoutError(CosimError):
    """A call into an isolated FMU did not return before the run's deadline."""


@functools.lru_cache(maxsize=None)
def _proxy_table() -> dict[str, tuple[int, int]]:
    """FMI function name -> (index, address of its proxy)."""
    module = native()
    ffi, lib = module.ffi, module.lib
    table = {}
    for k in range(lib.cosim_proxy_count):
        entry = lib.cosim_proxy_functions[k]
        table[ffi.string(entry.name).decode()] = (k, int(ffi.cast("uintptr_t", entry.function)))
    return table


def _libpython() -> str:
    """The master's libpython: loaded into the worker for FMUs that embed Python (pythonfmu)."""
    folder, name = sysconfig.get_config_var("LIBDIR"), sysconfig.get_config_var("LDLIBRARY")
    if folder and name and (name.endswith(".so") or ".so." in name):
        path = Path(folder) / name
        if path.is_file():
            return str(path)
    return ""


def _stop(lib, host) -> None:
    lib.cosim_host_stop(host)


class IsolatedLibrary(FmuLibrary):
    """The FMI functions of one instance's worker, with the interface of ``FmuLibrary``."""

    isolated = True

    def __init__(self, path: Path, major: int):  # the library is loaded by the worker, not here
        self.path = path
        self.major = major
        module = native()
        self._ffi, self._lib = module.ffi, module.lib
        error = self._ffi.new("char[]", ERROR_BYTES)
        host = self._lib.cosim_host_start(str(worker_executable()).encode(),
                                          str(path.resolve()).encode(), major,
                                          _libpython().encode(), error, ERROR_BYTES)
        if host == self._ffi.NULL:
            raise FmuError(self._ffi.string(error).decode("utf-8", "replace"), str(path))
        self.host = host
        self._lib.cosim_host_set_spin(host, SPIN_SECONDS)
        self._stopper = weakref.finalize(self, _stop, self._lib, host)
        self.missing: list[str] = []
        self._addresses: dict[str, int] = {}
        host_address = int(self._ffi.cast("uintptr_t", host))
        table = _proxy_table()
        for name, (restype, argtypes) in TABLES[str(major)].items():
            entry = table.get(name)
            if entry is None or not self._lib.cosim_host_exports(host, entry[0]):
                self.missing.append(name)
                setattr(self, name, None)
                continue
            index, address = entry
            if name in INSTANTIATE:
                raw = ctypes.CFUNCTYPE(restype, ctypes.c_void_p, *argtypes)(address)
                function = functools.partial(raw, host_address)
            else:
                function = ctypes.CFUNCTYPE(restype, *argtypes)(address)
                self._addresses[name] = address
            setattr(self, name, function)

    @property
    def pid(self) -> int:
        return self._lib.cosim_host_pid(self.host)

    def address(self, name: str) -> int:
        """Address of the proxy of ``name`` for the C loop (0 when missing)."""
        return self._addresses.get(name, 0)

    def set_deadline(self, deadline: float | None) -> None:
        """Calls still waiting at ``deadline`` (``time.monotonic()`` seconds) kill the worker."""
        self._lib.cosim_host_set_deadline(self.host, deadline or 0.0)

    def failure(self, instance: str, function: str, time: float | None, fmu_message: str,
                location: str = "") -> CosimError | None:
        """The error of a call that failed because the worker is gone, else ``None``."""
        signal_number, exit_code, timed_out = (self._ffi.new("int *") for _ in range(3))
        if not self._lib.cosim_host_outcome(self.host, signal_number, exit_code, timed_out):
            return None
        function = self.failed_function() or function
        if timed_out[0]:
            when = "" if time is None else f" at t={time:.15g}"
            return FmuTimeoutError(f"instance '{instance}' did not return from {function}{when} "
                                   f"(its worker was stopped)", location)
        return FmuCrashError(instance, function, time, signal_number[0], exit_code[0],
                             fmu_message, location)

    def failed_function(self) -> str:
        """The queued call (a setter) that failed in the last exchange, or ``""``."""
        return self._ffi.string(self._lib.cosim_host_failed_function(self.host)).decode()

    def release(self) -> None:
        """Stop the worker (after the instance was freed)."""
        self._stopper()
