"""The stepping plan of a system: built once, before any FMU runs.

Input: a ``SystemStructure``, the ``ModelInfo`` of each FMU component (by dotted path) and the
run's ``Settings``. Output: a ``Plan`` value: components with their interface, rate, array
sizes and parameter values; the signals read after each step; connections as flat links
(elements of a source signal to elements of a target variable, factor, offset, value map)
with units resolved; stages in stepping order (algebraic loops marked); result columns; the
time grid; which components run isolated in a worker process (by default those a tool other
than ours generated). ``plan_problems`` lists every refusal instead of raising the first
(``cosim validate``).
"""
from __future__ import annotations

import logging
import math
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import Mapping

from compiler.fmu import GENERATION_TOOL
from cosim.fmi import arrays
from cosim.fmi.description import INTERFACE_NAMES, ModelInfo, VariableInfo
from cosim.master import order
from cosim.master.inputs import InputPlan, plan_inputs
from cosim.master.signals import (
    INPUT_FILE, Column, Link, Signal, Signals, check_fan_in, columns_of, exchanged, link_of,
)
from cosim.master.values import PlanError, convert_value
from cosim.ssp.flatten import flat_connections
from cosim.ssp.model import SystemStructure, iter_components
from cosim.ssp.parameters import resolve_parameters
from cosim.ssp.validate import IMPLEMENTATIONS as SSP_IMPLEMENTATIONS

LOGGER = logging.getLogger("cosim.master")

DEFAULT_TOLERANCE = 1e-6
DEFAULT_STOP_TIME = 1.0
DEFAULT_STEPS = 1000  # communication steps when nothing gives a step size

# SSD implementation attribute (validate.IMPLEMENTATIONS) -> interface; "any": the master's
IMPLEMENTATIONS = dict(zip(SSP_IMPLEMENTATIONS, (None, "CS", "ME", "SE")))
INTERFACE_FLAGS = {"cs": "CS", "me": "ME", "se": "SE"}


@dataclass(frozen=True, slots=True)
class Settings:
    """What the user asks for; ``None`` leaves the file's (or the default) value."""

    start_time: float | None = None
    stop_time: float | None = None
    step_size: float | None = None
    tolerance: float | None = None
    step_sizes: tuple[tuple[str, float], ...] = ()   # component path -> its step size
    parameters: tuple[tuple[str, object], ...] = ()  # "component.variable" -> value
    record: tuple[str, ...] = ()                     # extra "component.variable" columns
    algorithm: str = "gauss-seidel"                  # or "jacobi"
    isolate: bool | None = None        # worker processes: None = for FMUs we did not build
    allow_nonfinite: bool = False      # NaN/Inf from an FMU: warn instead of stopping
    timeout: float | None = None       # wall-clock seconds for the whole run
    interface: str | None = None       # "cs", "me" or "se" where the SSD does not choose
    event_rows: bool = True            # a row before and after each event inside a step
    inputs: str | None = None          # a CSV file of input values over time
    # the command line: a call into an in-process FMU still running past the timeout ends
    # the process (after writing the rows so far); nothing else can stop it
    stuck_exit: bool = False


@dataclass(frozen=True, slots=True)
class PlannedClock:
    """An input clock of a component: when it ticks (``kind`` as clock_schedule.h)."""

    variable: VariableInfo
    kind: str                      # "periodic", "countdown" or "triggered"
    interval: float = 0.0
    shift: float = 0.0
    ticks: tuple[float, ...] = ()  # triggered: from the input file


@dataclass(frozen=True, slots=True)
class PlannedComponent:
    path: str
    source: str
    kind: str            # "CS" or "ME"
    multiple: int        # steps every `multiple` base steps
    parameters: tuple[tuple[VariableInfo, object], ...]
    location: str
    isolated: bool = False  # hosted in a worker process
    sizes: tuple[tuple[int, int | None], ...] = ()  # value reference -> an array size it holds
    event_mode: bool = False  # FMI 3.0 Co-Simulation in Event Mode (events inside steps)
    clocks: tuple[PlannedClock, ...] = ()  # input clocks, highest priority first

    def shape(self, variable: VariableInfo) -> tuple[int, ...]:
        return arrays.shape(variable, dict(self.sizes))


@dataclass(frozen=True, slots=True)
class Plan:
    components: tuple[PlannedComponent, ...]
    signals: tuple[Signal, ...]
    links: tuple[Link, ...]
    stages: tuple[tuple[tuple[int, ...], bool], ...]
    columns: tuple[Column, ...]  # result columns: name, signal, element
    start_time: float
    stop_time: float
    step_size: float
    n_steps: int
    tolerance: float
    jacobi: bool
    location: str
    allow_nonfinite: bool = False
    timeout: float | None = None
    units: tuple[str | None, ...] = ()  # of each column: the SSD connector's, else the FMU's
    event_rows: bool = True
    inputs: InputPlan | None = None     # values from a file: signals[input_signals[j]] each
    input_signals: tuple[int, ...] = ()
    stuck_exit: bool = False

    def time(self, k: int) -> float:
        return self.stop_time if k >= self.n_steps else self.start_time + k * self.step_size


class Refusals:
    """What the plan cannot run: raised at once (``cosim run``), or collected (``cosim
    validate``, which reports every refusal); warnings are logged or collected alike."""

    def __init__(self, collect: bool = False):
        self.collect = collect
        self.errors: list[PlanError] = []
        self.warnings: list[tuple[str, str]] = []

    @contextmanager
    def each(self):
        """Around one independent check: its ``PlanError`` is kept when collecting."""
        try:
            yield
        except PlanError as error:
            if not self.collect:
                raise
            self.errors.append(error)

    def warn(self, message: str, where: str = "") -> None:
        if self.collect:
            self.warnings.append((message, where))
        else:
            LOGGER.warning("%s: warning: %s", where, message) if where else \
                LOGGER.warning("warning: %s", message)


def build_plan(structure: SystemStructure, infos: Mapping[str, ModelInfo], settings: Settings,
               location: str = "SystemStructure.ssd", refusals: Refusals | None = None) -> Plan:
    """The plan of ``structure``; ``PlanError`` naming the element for what cannot run (with
    collecting ``refusals``, every refusal is kept there and the plan is of what remains)."""
    refusals = refusals or Refusals()
    if settings.algorithm not in ("gauss-seidel", "jacobi"):
        raise PlanError(f"unknown algorithm '{settings.algorithm}' (gauss-seidel or jacobi)")
    if settings.timeout is not None and not settings.timeout > 0:
        raise PlanError(f"timeout {settings.timeout:g} s is not positive")
    if settings.interface is not None and settings.interface not in INTERFACE_FLAGS:
        raise PlanError(f"unknown interface '{settings.interface}' (cs, me or se)")
    start, stop, step, tolerance = _experiment(structure, infos, settings, location)
    components = _components(structure, infos, settings, step, location, refusals)
    index = {c.path: k for k, c in enumerate(components)}
    signals = Signals(lambda k, variable: components[k].shape(variable))
    links = _links(structure, components, index, infos, signals, refusals)
    inputs, input_signals = _inputs(settings.inputs, components, infos, signals, links, refusals)
    _warn_silent_clocks(components, refusals)
    check_fan_in(links, components, refusals)
    columns = _columns(structure, components, index, infos, signals, settings.record, refusals)
    n_steps = max(1, math.ceil((stop - start) / step * (1 - 1e-12)))
    feedthrough = {k: {o: i for o, i in infos[c.path].feedthrough} for k, c in enumerate(components)}
    edges = [(signals.items[l.source].component, signals.items[l.source].variable.name,
              l.component, l.variable.name) for l in links if signals.items[l.source].component >= 0]
    loops = order.algebraic_loops(edges, feedthrough)
    jacobi = settings.algorithm == "jacobi"
    if not jacobi:
        for members, on_loop in loops:
            with refusals.each():
                _check_loop(members, on_loop, components, infos, location)
    stage_list = order.stages(len(components), edges, feedthrough,
                              [] if jacobi else [m for m, _ in loops])
    return Plan(tuple(components), tuple(signals.items), tuple(links), stage_list,
                tuple(columns), start, stop, step, n_steps, tolerance, jacobi, location,
                settings.allow_nonfinite, settings.timeout,
                _column_units(structure, columns, signals, components), settings.event_rows,
                inputs, input_signals, settings.stuck_exit)


def plan_problems(structure: SystemStructure, infos: Mapping[str, ModelInfo],
                  settings: Settings = Settings(), location: str = "SystemStructure.ssd"
                  ) -> Refusals:
    """Every refusal and warning the plan of ``structure`` gives (nothing runs)."""
    refusals = Refusals(collect=True)
    try:
        build_plan(structure, infos, settings, location, refusals)
    except PlanError as error:  # a refusal no part of the plan can go on without
        refusals.errors.append(error)
    return refusals


def _column_units(structure, columns, signals, components) -> tuple[str | None, ...]:
    by_path = {path: component for path, _, component in iter_components(structure)}
    units = []
    for column in columns:
        signal = signals.items[column.signal]
        path = components[signal.component].path
        declared = next((c for c in by_path[path].connectors
                         if c.name == signal.variable.name), None)
        unit = declared.type.unit if declared is not None and declared.type else None
        units.append(unit or signal.variable.unit)
    return tuple(units)


def built_by_us(info: ModelInfo) -> bool:
    """Whether our compiler generated the FMU (its runtime is tested under sanitizers)."""
    return info.generation_tool == GENERATION_TOOL


def _experiment(structure, infos, settings, location):
    experiment = structure.experiment
    single = next(iter(infos.values())) if len(infos) == 1 else None

    def pick(asked, from_file, from_fmu, default):
        for value in (asked, from_file, from_fmu):
            if value is not None:
                return float(value)
        return default

    start = pick(settings.start_time, experiment and experiment.start_time,
                 single and single.start_time, 0.0)
    stop = pick(settings.stop_time, experiment and experiment.stop_time,
                single and single.stop_time, start + DEFAULT_STOP_TIME)
    if not stop >= start:
        raise PlanError(f"stop time {stop:g} is before start time {start:g}", location)
    step = pick(settings.step_size, experiment and experiment.step_size,
                single and single.step_size, (stop - start) / DEFAULT_STEPS)
    if stop == start and not step > 0:
        step = 1.0   # a run that only initializes (StopTime = StartTime) takes no step
    if not step > 0:
        raise PlanError(f"step size {step:g} is not positive", location)
    tolerance = pick(settings.tolerance, experiment and experiment.tolerance,
                     single and single.tolerance, DEFAULT_TOLERANCE)
    return start, stop, step, tolerance


def _split(name: str, paths) -> tuple[str, str] | None:
    """``("a.b", "x")`` for ``"a.b.x"``: the longest component path the name starts with."""
    path = max((p for p in paths if name.startswith(p + ".")), key=len, default=None)
    return None if path is None else (path, name[len(path) + 1:])


def _components(structure, infos, settings, step, location, refusals) -> list[PlannedComponent]:
    asked_steps = dict(settings.step_sizes)
    resolved, _ = resolve_parameters(structure)
    overrides = _overrides(settings.parameters, infos)
    components = []
    for path, _document, component in iter_components(structure):
        with refusals.each():
            planned = _component(path, component, infos, settings, step, location, resolved,
                                 overrides, asked_steps, refusals)
            if planned is not None:
                components.append(planned)
    for path in asked_steps:
        raise PlanError(f"step size for '{path}': no component of that name "
                        f"(components: {', '.join(sorted(infos))})")
    if not components and not refusals.errors:
        raise PlanError("the system has no FMU component to run", location)
    return components


def _component(path, component, infos, settings, step, location, resolved, overrides,
               asked_steps, refusals) -> PlannedComponent | None:
    where = str(component.location or location)
    if component.kind == "modelica":
        raise PlanError(f"component '{path}': a Modelica component runs once compiled "
                        f"(cosim.modelica.compile_modelica)", where)
    if component.kind == "other":
        raise PlanError(f"component '{path}': type '{component.type}' cannot be run", where)
    if component.kind != "fmu":
        return None
    info = infos.get(path)
    if info is None:
        raise PlanError(f"component '{path}': no FMU loaded from '{component.source}'", where)
    kind = choose_interface(path, component.implementation, info, settings.interface, where)
    multiple = _multiple(path, asked_steps.pop(path, component.step_size_hint), step, where)
    values = {p.name: (p.value, str(p.location or where)) for p in resolved
              if p.component == path}
    values.update({name: (value, where) for name, value in overrides.get(path, {}).items()})
    isolated = settings.isolate if settings.isolate is not None else not built_by_us(info)
    parameters, sizes = _parameters(path, info, values, refusals)
    clocks = input_clocks(path, info, where)
    if clocks and kind == "CS" and not info.co_simulation.has_event_mode:
        raise PlanError(f"component '{path}': its input clocks need Event Mode, which its "
                        f"Co-Simulation interface does not have (hasEventMode)", where)
    event_mode = kind == "CS" and info.major == 3 and info.co_simulation.has_event_mode and \
        (settings.event_rows or bool(clocks))
    return PlannedComponent(path, component.source or "", kind, multiple, parameters, where,
                            isolated, sizes, event_mode, clocks)


CLOCK_KINDS = {"constant": "periodic", "fixed": "periodic", "tunable": "periodic",
               "changing": "countdown", "countdown": "countdown", "triggered": "triggered"}


def input_clocks(path, info: ModelInfo, where) -> tuple[PlannedClock, ...]:
    """The FMU's input clocks, highest priority (smallest number) first."""
    clocks = []
    for variable in sorted((v for v in info.variables
                            if v.type == "Clock" and v.causality == "input"),
                           key=lambda v: (v.clock.priority, v.value_reference)):
        kind = CLOCK_KINDS.get(variable.clock.interval_variability, "triggered")
        interval = variable.clock.interval
        if kind == "periodic" and not (interval and interval > 0):
            raise PlanError(f"component '{path}': clock '{variable.name}' is "
                            f"{variable.clock.interval_variability} but has no positive "
                            f"intervalDecimal", where)
        clocks.append(PlannedClock(variable, kind, interval or 0.0, variable.clock.shift))
    return tuple(clocks)


def _overrides(parameters, infos) -> dict[str, dict[str, object]]:
    """``{component path: {variable: value}}`` of ``("component.variable", value)`` pairs."""
    overrides: dict[str, dict] = {}
    for name, value in parameters:
        split = _split(name, infos)
        if split is None:
            raise PlanError(f"parameter '{name}': no component of that name "
                            f"(components: {', '.join(sorted(infos))})")
        overrides.setdefault(split[0], {})[split[1]] = value
    return overrides


def with_parameters(plan: Plan, infos: Mapping[str, ModelInfo],
                    parameters: Mapping[str, object]) -> Plan:
    """``plan`` with ``parameters`` (``{"component.variable": value}``) set over the values it
    has: one run of a sweep. ``PlanError`` as for ``Settings.parameters``; array sizes stay
    those of the plan."""
    overrides = _overrides(parameters.items(), infos)
    if not overrides:
        return plan
    components = []
    for component in plan.components:
        asked = overrides.get(component.path)
        if asked:
            values = {variable.name: (value, component.location)
                      for variable, value in component.parameters}
            values.update({name: (value, component.location) for name, value in asked.items()})
            parameters, sizes = _parameters(component.path, infos[component.path], values,
                                            Refusals())
            if sizes != component.sizes:
                raise PlanError(f"component '{component.path}': a run of a prepared system "
                                f"cannot change array sizes", component.location)
            component = replace(component, parameters=parameters)
        components.append(component)
    return replace(plan, components=tuple(components))


def choose_interface(path, implementation, info: ModelInfo, asked: str | None, where) -> str:
    """``CS``, ``ME`` or ``SE``: the SSD's ``implementation``, else ``asked`` (``--interface``),
    else the first the FMU offers of Co-Simulation, Model Exchange, Scheduled Execution."""
    if implementation not in IMPLEMENTATIONS:
        raise PlanError(f"component '{path}': implementation '{implementation}' is none of "
                        f"{', '.join(IMPLEMENTATIONS)}", where)
    wanted = IMPLEMENTATIONS[implementation]
    origin = f"implementation {implementation}"
    if wanted is None and asked is not None:
        wanted, origin = INTERFACE_FLAGS[asked], f"--interface {asked}"
    if not info.kinds:
        raise PlanError(f"component '{path}': the FMU declares no interface (Co-Simulation, "
                        f"Model Exchange or Scheduled Execution)", where)
    if wanted is not None and wanted not in info.kinds:
        offered = ", ".join(INTERFACE_NAMES[k] for k in info.kinds)
        raise PlanError(f"component '{path}': {origin} asked for, but the FMU offers only "
                        f"{offered}", where)
    return wanted or info.kinds[0]


def _multiple(path, component_step, step, where) -> int:
    if component_step is None:
        return 1
    ratio = float(component_step) / step
    multiple = round(ratio)
    if multiple < 1 or abs(ratio - multiple) > 1e-9 * max(1.0, ratio):
        raise PlanError(f"component '{path}': step size {component_step:g} is not a whole "
                        f"multiple of the base step {step:g}", where)
    return multiple


def _parameters(path, info: ModelInfo, values: dict, refusals) -> tuple[tuple, tuple]:
    """``(parameters, sizes)``: each ``(VariableInfo, value)`` converted and checked, and the
    array sizes the structural parameters give (value reference, size)."""
    plain = {name: value for name, (value, _) in values.items()}
    sizes = arrays.structural_sizes(info, plain)
    result = []
    for name, (value, where) in values.items():
        with refusals.each():
            variable = info.variable(name)
            what = f"parameter '{path}.{name}'"
            if variable is None:
                raise PlanError(f"{what}: the FMU has no variable '{name}'", where)
            if variable.causality not in ("parameter", "structuralParameter", "input") or \
                    variable.variability == "constant":
                raise PlanError(f"{what}: a {variable.causality} {variable.variability} "
                                f"variable cannot be set", where)
            n = arrays.count(_shape(variable, sizes, what, where))
            result.append((variable, convert_value(value, variable, what, where, n,
                                                   refusals.warn)))
    return tuple(result), tuple(sorted(sizes.items()))


def _shape(variable, sizes, what, where) -> tuple[int, ...]:
    try:
        return arrays.shape(variable, sizes)
    except arrays.ShapeError as error:
        raise PlanError(f"{what}: {error}", where) from None


def _links(structure, components, index, infos, signals, refusals) -> list[Link]:
    links = []
    shapes = signals.shapes
    for flat in flat_connections(structure):
        if flat.source[0] not in index or flat.target[0] not in index:
            continue  # ends at a connector of the root system: nothing to exchange
        link = link_of(flat, signals, infos, index, shapes, refusals)
        if link is not None:
            links.append(link)
    return links


def _inputs(path, components, infos, signals, links, refusals) -> tuple:
    """The input file's plan, and a signal (linked to its input) per column."""
    if path is None:
        return None, ()
    with refusals.each():
        plan = plan_inputs(path, components, infos)
        chosen = []
        for j, column in enumerate(plan.columns):
            if column.variable.type == "Clock":
                _clock_ticks(components, column, plan.times)
                chosen.append(-1)
                continue
            signal = signals.add(INPUT_FILE, column.variable, key=("input", j),
                                 shape=(column.count,) if column.count > 1 else ())
            chosen.append(signal)
            links.append(Link(signal, column.component, column.variable,
                              label=f"input file column '{column.name}'",
                              target_first=column.first, count=column.count))
        return plan, tuple(chosen)
    return None, ()


def _warn_silent_clocks(components, refusals) -> None:
    for planned in components:
        for clock in planned.clocks:
            if clock.kind == "triggered" and not clock.ticks:
                refusals.warn(f"component '{planned.path}': clock '{clock.variable.name}' is "
                              f"triggered and no input file column ticks it: it never ticks",
                              planned.location)


def _clock_ticks(components, column, times) -> None:
    """A Clock column of the input file: the clock ticks at the rows where it is true."""
    planned = components[column.component]
    ticks = tuple(t for t, on in zip(times, column.values) if on)
    clocks = tuple(replace(c, kind="triggered", ticks=ticks)
                   if c.variable.value_reference == column.variable.value_reference else c
                   for c in planned.clocks)
    if clocks == planned.clocks and not any(c.variable == column.variable for c in clocks):
        raise PlanError(f"column '{column.name}': '{column.variable.name}' is not an input "
                        f"clock")
    components[column.component] = replace(planned, clocks=clocks)


def _columns(structure, components, index, infos, signals, record, refusals) -> list[Column]:
    columns: dict[str, Column] = {}
    by_path = {path: component for path, _, component in iter_components(structure)}
    for k, planned in enumerate(components):
        declared = by_path[planned.path].connectors
        names = [c.name for c in declared if c.kind == "output"] if declared else \
            [v.name for v in infos[planned.path].by_causality("output")]
        for name in names:
            variable = infos[planned.path].variable(name)
            if variable is not None and variable.exchange is not None:
                with refusals.each():
                    signal = signals.add(k, _checked_shape(planned, variable))
                    for column in columns_of(signal, f"{planned.path}.{name}",
                                             signals.items[signal].shape):
                        columns[column.name] = column
    for name in record:
        with refusals.each():
            for column in _recorded(name, index, infos, signals):
                columns[column.name] = column
    return list(columns.values())


def _checked_shape(planned: PlannedComponent, variable: VariableInfo) -> VariableInfo:
    _shape(variable, dict(planned.sizes), f"component '{planned.path}'", planned.location)
    return variable


def _recorded(name: str, index, infos, signals) -> list[Column]:
    """The columns of ``--record NAME``: a variable, or one element ``NAME[i,j]`` of an array
    variable. A scalar variable whose own name has subscripts (``a.b[1].x``, ``u[1]``: an
    element of a Modelica array of components or reals, declared one by one) is taken whole."""
    name = name.replace(" ", "")
    whole = _split(name, index)
    if whole is not None and infos[whole[0]].variable(whole[1]) is not None:
        signal = signals.add(*exchanged(infos, index, *whole, f"record '{name}'", ""))
        return columns_of(signal, name, signals.items[signal].shape)
    base, bracket = (name[:name.rindex("[")], "[") if name.endswith("]") else (name, "")
    split = _split(base, index)
    if split is None:
        raise PlanError(f"record '{name}': no component of that name "
                        f"(components: {', '.join(sorted(index))})")
    signal = signals.add(*exchanged(infos, index, *split, f"record '{name}'", ""))
    columns = columns_of(signal, base, signals.items[signal].shape)
    if not bracket:
        return columns
    chosen = [c for c in columns if c.name == name]
    if not chosen:
        raise PlanError(f"record '{name}': no such element (shape "
                        f"{list(signals.items[signal].shape)})")
    return chosen


def _check_loop(members, on_loop, components, infos, location) -> None:
    names = " -> ".join(f"{components[s].path}.{o} -> {components[t].path}.{i}"
                        for s, o, t, i in on_loop)
    for k in sorted(members):
        component = components[k]
        info = infos[component.path]
        if not info.interface(component.kind).can_get_and_set_state:
            raise PlanError(f"algebraic loop {names}: component '{component.path}' cannot get "
                            f"and set its FMU state (canGetAndSetFMUState), which solving the "
                            f"loop by iteration needs; use --algorithm jacobi to break it with "
                            f"a delay", component.location or location)
    if len({components[k].multiple for k in members}) > 1:
        raise PlanError(f"algebraic loop {names}: its components step at different rates",
                        location)
