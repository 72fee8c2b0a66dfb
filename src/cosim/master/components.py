"""Live components of a run: FMU instances set up for stepping, and Model Exchange drivers.

Input: a ``Plan`` and the loaded FMUs. Output: ``LiveComponent``s that were instantiated, had
their parameters applied before initialization and are in Initialization Mode; ``finish_init``
leaves it (and starts the C Radau driver of Model Exchange components); ``close`` frees all.
"""
from __future__ import annotations

import ctypes
import logging
import time
from dataclasses import dataclass

from cosim.errors import CosimError
from cosim.fmi import FmuError, FmuInstance, LoadedFmu, instantiate
from cosim.fmi.errors import FmiCallError
from cosim.master.plan import Plan, PlannedComponent
from cosim.native import native

LOGGER = logging.getLogger("cosim.master")

# The FMI functions of the driver's MeFunction enum (me_driver.h), in its order.
ME_FUNCTIONS = {
    3: ("fmi3SetTime", "fmi3SetContinuousStates", "fmi3GetContinuousStates",
        "fmi3GetContinuousStateDerivatives", "fmi3GetEventIndicators",
        "fmi3GetNominalsOfContinuousStates", "fmi3CompletedIntegratorStep", "fmi3EnterEventMode",
        "fmi3EnterContinuousTimeMode", "fmi3UpdateDiscreteStates",
        "fmi3GetDirectionalDerivative", "fmi3GetFMUState", "fmi3SetFMUState",
        "fmi3FreeFMUState", "fmi3SetClock", "fmi3GetIntervalDecimal"),
    2: ("fmi2SetTime", "fmi2SetContinuousStates", "fmi2GetContinuousStates",
        "fmi2GetDerivatives", "fmi2GetEventIndicators", "fmi2GetNominalsOfContinuousStates",
        "fmi2CompletedIntegratorStep", "fmi2EnterEventMode", "fmi2EnterContinuousTimeMode",
        "fmi2NewDiscreteStates", "fmi2GetDirectionalDerivative", "fmi2GetFMUstate",
        "fmi2SetFMUstate", "fmi2FreeFMUstate", "", ""),
}
# Isolated Model Exchange FMUs are integrated in their worker (False: through the proxies, one
# round trip per FMU call; tools/bench_isolation.py compares both)
REMOTE_DRIVERS = True
REQUIRED_ME_FUNCTIONS = 10  # the others: directional derivatives, FMU state, clocks
MAX_EVENT_ITERATIONS = 100  # as ME_MAX_EVENT_ITERATIONS of me_driver.h
# Seconds each isolated component gets to terminate and free itself, deadline or not.
CLOSE_GRACE = 2.0


@dataclass
class LiveComponent:
    planned: PlannedComponent
    instance: FmuInstance
    driver: object = None  # cffi MeDriver * for Model Exchange
    initialized: bool = False
    remote: bool = False   # Model Exchange integrated by a driver in the FMU's worker


def _set_values(instance: FmuInstance, values) -> None:
    for variable, value in values:
        items = list(value) if isinstance(value, tuple) else [value]
        if variable.exchange == "String":
            instance.set_strings([variable.value_reference], items)
        else:
            instance.set(variable.exchange, [variable.value_reference], items)


def _apply_parameters(instance: FmuInstance, planned: PlannedComponent) -> None:
    """Parameter values, in the Instantiated state (FMI 3.0 structural parameters in
    Configuration Mode)."""
    structural = [p for p in planned.parameters if p[0].causality == "structuralParameter"]
    others = [p for p in planned.parameters if p[0].causality != "structuralParameter"]
    if structural and instance.info.major == 3:
        instance.call("fmi3EnterConfigurationMode")
        _set_values(instance, structural)
        instance.call("fmi3ExitConfigurationMode")
    _set_values(instance, others)


def start_components(plan: Plan, fmus: dict[str, LoadedFmu], deadline: float | None = None
                     ) -> list[LiveComponent]:
    """Instantiate every component, apply its parameters and enter Initialization Mode.

    ``deadline`` (``time.monotonic()`` seconds) bounds every call into an isolated component.
    """
    live: list[LiveComponent] = []
    try:
        for planned in plan.components:
            instance = instantiate(fmus[planned.path], planned.path, planned.kind,
                                   isolate=planned.isolated, deadline=deadline,
                                   event_mode=planned.event_mode)
            component = LiveComponent(planned, instance)
            live.append(component)
            _initialize(component, plan)
    except BaseException:
        close_components(live)
        raise
    return live


def restart_components(plan: Plan, live: list[LiveComponent], deadline: float | None = None) -> None:
    """Reset terminated instances (``fmi3Reset``/``fmi2Reset``) and set them up for ``plan``
    as ``start_components`` does, so that one loaded system runs many times; an instance that
    refuses raises ``FmiCallError`` (the caller instantiates anew)."""
    for component, planned in zip(live, plan.components):
        instance = component.instance
        instance.log.problems, instance.log.last = [], ""  # no message from the last run
        instance.library.set_deadline(deadline)
        instance.call(f"fmi{instance.info.major}Reset")
        component.planned = planned
        _initialize(component, plan)


def _initialize(component: LiveComponent, plan: Plan) -> None:
    _apply_parameters(component.instance, component.planned)
    component.instance.enter_initialization(plan.start_time, plan.stop_time, plan.tolerance)
    component.initialized = True


def _driver_shape(component: LiveComponent):
    """``(n, nz, directional, state vrs, derivative vrs)`` of a Model Exchange driver."""
    ffi = native().ffi
    instance, info = component.instance, component.instance.info
    n, nz = _sizes(instance)
    # directional derivatives by state, one column each: scalar states only
    directional = (info.model_exchange.provides_directional_derivatives
                   and bool(instance.library.address("fmi3GetDirectionalDerivative"
                                                     if info.major == 3 else
                                                     "fmi2GetDirectionalDerivative"))
                   and n == len(info.state_references))
    return (n, nz, directional, ffi.new("uint32_t[]", _padded(info.state_references, n)),
            ffi.new("uint32_t[]", _padded(info.derivative_references, n)))


def _make_driver(component: LiveComponent, tolerance: float):
    module = native()
    ffi, lib = module.ffi, module.lib
    instance, info = component.instance, component.instance.info
    fmu = ffi.new("MeFmu *")
    fmu.instance = ffi.cast("void *", instance.handle)
    names = ME_FUNCTIONS[info.major]
    for k, name in enumerate(names):
        address = instance.library.address(name) if name else 0
        if not address and k < REQUIRED_ME_FUNCTIONS:
            raise FmuError(f"the Model Exchange binary does not export {name}",
                           component.planned.source)
        fmu.functions[k] = ffi.cast("MeAnyFunction", address)
    n, nz, directional, state_vrs, derivative_vrs = _driver_shape(component)
    driver = lib.me_driver_new(info.major, fmu, n, nz, state_vrs, derivative_vrs, directional,
                               tolerance)
    if driver == ffi.NULL:
        raise MemoryError("no memory for the Model Exchange driver")
    return driver


def remote_driver_possible(plan: Plan, component: LiveComponent, index: int) -> bool:
    """An isolated FMU is integrated in its worker, one round trip per communication step,
    unless its input clocks or String/Binary outputs need the master at each event."""
    if not (REMOTE_DRIVERS and component.instance.library.isolated) or component.planned.clocks:
        return False
    return not any(s.component == index and s.variable.exchange in ("String", "Binary")
                   for s in plan.signals)


def _start_remote_driver(component: LiveComponent, plan: Plan) -> None:
    lib = native().lib
    host = component.instance.library.host
    n, nz, directional, state_vrs, derivative_vrs = _driver_shape(component)
    status = lib.cosim_host_driver_new(host, component.instance.info.major, n, nz, state_vrs,
                                       derivative_vrs, directional, plan.tolerance)
    if status <= 1:
        reached = native().ffi.new("double *")
        status = lib.cosim_host_driver_start(host, plan.start_time, reached)
    if status > 1:
        raise driver_error(component, status, "starting the Model Exchange driver")
    component.remote = True


def _padded(references, n: int) -> list[int]:
    return (list(references) + [0] * n)[:max(n, 1)] or [0]


def _sizes(instance: FmuInstance) -> tuple[int, int]:
    """Continuous states and event indicators: as an FMI 3.0 FMU counts them (its arrays
    sized), else as its description lists them."""
    info = instance.info
    counts = []
    for function, listed in (("fmi3GetNumberOfContinuousStates", len(info.state_references)),
                             ("fmi3GetNumberOfEventIndicators", info.event_indicators)):
        if info.major == 3 and instance.library.address(function):
            number = ctypes.c_size_t()
            instance.call(function, ctypes.byref(number))
            counts.append(number.value)
        else:
            counts.append(listed)
    return counts[0], counts[1]


def finish_init(plan: Plan, live: list[LiveComponent], schedules=None) -> None:
    """Leave Initialization Mode; Model Exchange components get their Radau driver (with the
    schedule of their input clocks: ``schedules[id(component)]``)."""
    for component in live:
        component.instance.exit_initialization()
        if component.planned.event_mode:  # FMI 3.0 CS: from Event Mode into Step Mode
            settle_discrete_states(component.instance)
            component.instance.call("fmi3EnterStepMode")
        if component.planned.kind == "ME" and remote_driver_possible(plan, component,
                                                                     live.index(component)):
            _start_remote_driver(component, plan)
        elif component.planned.kind == "ME":
            component.driver = _make_driver(component, plan.tolerance)
            clocks = (schedules or {}).get(id(component))
            if clocks is not None:
                native().lib.me_driver_set_clocks(component.driver, *clocks)
            status = native().lib.me_driver_start(component.driver, plan.start_time)
            if status > 1:
                raise driver_error(component, status, "starting the Model Exchange driver")


def settle_discrete_states(instance: FmuInstance) -> bool:
    """Event iteration in Event Mode (``fmi3UpdateDiscreteStates`` until it needs no more
    rounds); whether the FMU asked to terminate."""
    flags = [ctypes.c_bool() for _ in range(5)]
    next_time = ctypes.c_double()
    for _ in range(MAX_EVENT_ITERATIONS):
        instance.call("fmi3UpdateDiscreteStates", *[ctypes.byref(f) for f in flags],
                      ctypes.byref(next_time))
        if flags[1].value or not flags[0].value:
            return flags[1].value
    raise FmiCallError("fmi3UpdateDiscreteStates", 3, instance.name, instance.time,
                       f"the event iteration did not settle in {MAX_EVENT_ITERATIONS} rounds")


def driver_error(component: LiveComponent, status: int, function: str,
                 time: float | None = None) -> FmiCallError:
    """The failure of a Model Exchange driver, with its message (``time``: where, when the
    driver in the worker failed)."""
    module = native()
    ffi = module.ffi
    if component.driver is not None:
        message = ffi.string(component.driver.message).decode("utf-8", "replace")
        time = component.driver.t
    else:  # the driver in the worker
        host = component.instance.library.host
        message = ffi.string(module.lib.cosim_host_driver_message(host)).decode("utf-8",
                                                                                 "replace")
    log = component.instance.log.message_for(status)
    if log and log not in message:
        message = f"{message} ({log})" if message else log
    return FmiCallError(function, status, component.planned.path, time, message)


def close_components(live: list[LiveComponent], free: bool = True) -> None:
    """Terminate (where initialized) and free every instance; failures here are only logged.
    ``free=False`` keeps the instances, terminated, for ``restart_components``."""
    lib = native().lib if any(c.driver is not None for c in live) else None
    for component in live:
        if component.driver is not None:
            lib.me_driver_free(component.driver)
            component.driver = None
        component.instance.library.set_deadline(time.monotonic() + CLOSE_GRACE)
        try:
            if component.initialized and component.instance.handle:
                component.instance.terminate()
        except CosimError as error:
            LOGGER.debug("%s", error)
        component.initialized = False
        if free:
            component.instance.free()
