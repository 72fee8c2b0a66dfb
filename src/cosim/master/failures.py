"""What went wrong in a run, as the one-line error the user sees.

Input: the status the C loop returned, the loop (where it stopped) and the live components.
Output: a ``CosimError``: an FMU call that failed (``FmiCallError``, with the FMU's message),
an isolated FMU that crashed or hung (``FmuCrashError``, ``RunTimeout``), a non-finite value
(``NonFiniteError``), a loop that did not converge, or the run's wall-clock timeout.
"""
from __future__ import annotations

import logging
import math

from cosim.errors import CosimError
from cosim.fmi.errors import FmiCallError
from cosim.fmi.isolation import FmuTimeoutError
from cosim.master.components import driver_error

LOGGER = logging.getLogger("cosim.master")
MASTER_LOOP_DIVERGED, MASTER_NONFINITE = 101, 102


class NonFiniteError(CosimError):
    """An FMU gave NaN or Inf (``allow_nonfinite`` turns this into a warning)."""


class RunTimeout(CosimError):
    """The run took longer than its ``timeout``; the rows computed before are kept."""


def number_text(value: float) -> str:
    return "NaN" if math.isnan(value) else ("+Inf" if value > 0 else "-Inf")


def nonfinite_text(loop, live) -> str:
    signal, value, time = loop.nonfinite_signal()
    variable = signal.variable
    return (f"instance '{live[signal.component].planned.path}': {variable.causality} "
            f"'{variable.name}' is {number_text(value)} at t={time:.15g}")


def warn_nonfinite(loop, live) -> None:
    """The warning of a run that went on past non-finite values (``allow_nonfinite``)."""
    if loop.m.nonfinite:
        LOGGER.warning("%s (%d non-finite values in all, allowed)", nonfinite_text(loop, live),
                       loop.m.nonfinite)


def timeout_error(plan, t: float, cause: str = "") -> RunTimeout:
    """The run passed its timeout; the last row kept is that of time ``t``."""
    because = f" ({cause})" if cause else ""
    return RunTimeout(f"timeout of {plan.timeout:g} s (wall clock) reached{because}; the "
                      f"results up to t={t:.15g} are kept", plan.location)


def loop_failure(status: int, loop, live) -> CosimError:
    """The error of ``status`` (> Warning) returned by the C loop."""
    m = loop.m
    component = live[m.error_component]
    where = component.planned.source or component.planned.path
    if status == MASTER_NONFINITE:
        return NonFiniteError(f"{nonfinite_text(loop, live)} (--allow-nonfinite only warns)",
                              where)
    function = loop.ffi.string(m.error_function).decode()
    if status == MASTER_LOOP_DIVERGED:
        members = next(stage for stage, _ in loop.plan.stages if m.error_component in stage)
        names = ", ".join(live[k].planned.path for k in members)
        return CosimError(f"algebraic loop through {names} did not converge in "
                          f"{m.max_iterations} iterations", f"t = {m.error_time:.17g}")
    return call_failure(component, status, function, m.error_time, loop.plan,
                        m.components[m.error_component].reached)


def call_failure(component, status: int, function: str, time: float, plan,
                 reached: float | None = None) -> CosimError:
    """An FMU call that returned ``status``: a crash or hang of its worker, or the status;
    ``reached``: where a Model Exchange driver in a worker stopped."""
    instance = component.instance
    message = instance.log.message_for(status)
    crash = instance.library.failure(component.planned.path, function, time, message,
                                     component.planned.source or component.planned.path)
    if isinstance(crash, FmuTimeoutError) and plan.timeout is not None:
        return timeout_error(plan, time, crash.message)
    if crash is not None:
        return crash
    if (component.driver is not None or component.remote) and "driver" in function:
        return driver_error(component, status, function, reached)
    return FmiCallError(instance.library.failed_function() or function, status,
                        component.planned.path, time, message)
