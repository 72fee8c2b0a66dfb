"""Live components of a run: FMU instances set up for stepping, and Model Exchange drivers.

Input: a ``Plan`` and the loaded FMUs. Output: ``LiveComponent``s that were instantiated, had
their parameters applied before initialization and are in Initialization Mode; ``finish_init``
leaves it (and starts the C Radau driver of Model Exchange components); ``close`` frees all.
"""
from __future__ import annotations

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
        "fmi3FreeFMUState"),
    2: ("fmi2SetTime", "fmi2SetContinuousStates", "fmi2GetContinuousStates",
        "fmi2GetDerivatives", "fmi2GetEventIndicators", "fmi2GetNominalsOfContinuousStates",
        "fmi2CompletedIntegratorStep", "fmi2EnterEventMode", "fmi2EnterContinuousTimeMode",
        "fmi2NewDiscreteStates", "fmi2GetDirectionalDerivative", "fmi2GetFMUstate",
        "fmi2SetFMUstate", "fmi2FreeFMUstate"),
}
OPTIONAL_ME_FUNCTIONS = 4  # the last four: directional derivatives and FMU state
# Seconds each isolated component gets to terminate and free itself, deadline or not.
CLOSE_GRACE = 2.0


@dataclass
class LiveComponent:
    planned: PlannedComponent
    instance: FmuInstance
    driver: object = None  # cffi MeDriver * for Model Exchange
    initialized: bool = False


def _set_values(instance: FmuInstance, values) -> None:
    for variable, value in values:
        if variable.type == "String":
            instance.set_strings([variable.value_reference], [value])
        else:
            instance.set(variable.exchange, [variable.value_reference], [value])


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
                                   isolate=planned.isolated, deadline=deadline)
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


def _make_driver(component: LiveComponent, tolerance: float):
    module = native()
    ffi, lib = module.ffi, module.lib
    instance, info = component.instance, component.instance.info
    fmu = ffi.new("MeFmu *")
    fmu.instance = ffi.cast("void *", instance.handle)
    names = ME_FUNCTIONS[info.major]
    for k, name in enumerate(names):
        address = instance.library.address(name)
        if not address and k < len(names) - OPTIONAL_ME_FUNCTIONS:
            raise FmuError(f"the Model Exchange binary does not export {name}",
                           component.planned.source)
        fmu.functions[k] = ffi.cast("MeAnyFunction", address)
    directional = (info.model_exchange.provides_directional_derivatives
                   and bool(instance.library.address(names[-4])))
    n = len(info.state_references)
    driver = lib.me_driver_new(info.major, fmu, n, info.event_indicators,
                               ffi.new("uint32_t[]", list(info.state_references) or [0]),
                               ffi.new("uint32_t[]", list(info.derivative_references) or [0]),
                               directional, tolerance)
    if driver == ffi.NULL:
        raise MemoryError("no memory for the Model Exchange driver")
    return driver


def finish_init(plan: Plan, live: list[LiveComponent]) -> None:
    """Leave Initialization Mode; Model Exchange components get their Radau driver."""
    for component in live:
        component.instance.exit_initialization()
        if component.planned.kind == "ME":
            component.driver = _make_driver(component, plan.tolerance)
            status = native().lib.me_driver_start(component.driver, plan.start_time)
            if status > 1:
                raise driver_error(component, status, "starting the Model Exchange driver")


def driver_error(component: LiveComponent, status: int, function: str) -> FmiCallError:
    ffi = native().ffi
    message = ffi.string(component.driver.message).decode("utf-8", "replace")
    log = component.instance.log.message_for(status)
    if log and log not in message:
        message = f"{message} ({log})" if message else log
    return FmiCallError(function, status, component.planned.path, component.driver.t, message)


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
