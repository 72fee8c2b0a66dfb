"""The stepping plan of a system: built once, before any FMU runs.

Input: a ``SystemStructure``, the ``ModelInfo`` of each FMU component (by dotted path) and the
run's ``Settings``. Output: a ``Plan`` value: components with their interface, rate and
parameter values; the signals read after each step; connections as flat links (source signal,
target variable, factor, offset, value map) with units resolved; stages in stepping order
(algebraic loops marked); result columns; the time grid; which components run isolated in a
worker process (by default those a tool other than ours generated).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Mapping

from compiler.fmu import GENERATION_TOOL
from cosim.errors import CosimError
from cosim.fmi.description import ModelInfo, VariableInfo
from cosim.master import order
from cosim.ssp.flatten import flat_connections
from cosim.ssp.model import SystemStructure, iter_components
from cosim.ssp.parameters import resolve_parameters

DEFAULT_TOLERANCE = 1e-6
DEFAULT_STOP_TIME = 1.0
DEFAULT_STEPS = 1000  # communication steps when nothing gives a step size


class PlanError(CosimError):
    """A system the master cannot run as described (unknown variable, unsupported link, ...)."""


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


@dataclass(frozen=True, slots=True)
class PlannedComponent:
    path: str
    source: str
    kind: str            # "CS" or "ME"
    multiple: int        # steps every `multiple` base steps
    parameters: tuple[tuple[VariableInfo, object], ...]
    location: str
    isolated: bool = False  # hosted in a worker process


@dataclass(frozen=True, slots=True)
class Signal:
    component: int
    variable: VariableInfo


@dataclass(frozen=True, slots=True)
class Link:
    """``target = map(factor * signals[source] + offset)`` before ``component`` steps."""

    source: int
    component: int
    variable: VariableInfo
    factor: float = 1.0
    offset: float = 0.0
    mapping: tuple[tuple[float, float], ...] = ()
    label: str = ""


@dataclass(frozen=True, slots=True)
class Plan:
    components: tuple[PlannedComponent, ...]
    signals: tuple[Signal, ...]
    links: tuple[Link, ...]
    stages: tuple[tuple[tuple[int, ...], bool], ...]
    columns: tuple[tuple[str, int], ...]  # result column name -> signal
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

    def time(self, k: int) -> float:
        return self.stop_time if k >= self.n_steps else self.start_time + k * self.step_size


def build_plan(structure: SystemStructure, infos: Mapping[str, ModelInfo], settings: Settings,
               location: str = "SystemStructure.ssd") -> Plan:
    """The plan of ``structure``; ``PlanError`` naming the element for what cannot run."""
    if settings.algorithm not in ("gauss-seidel", "jacobi"):
        raise PlanError(f"unknown algorithm '{settings.algorithm}' (gauss-seidel or jacobi)")
    if settings.timeout is not None and not settings.timeout > 0:
        raise PlanError(f"timeout {settings.timeout:g} s is not positive")
    start, stop, step, tolerance = _experiment(structure, infos, settings, location)
    components = _components(structure, infos, settings, step, location)
    index = {c.path: k for k, c in enumerate(components)}
    signals = _Signals()
    links = _links(structure, components, index, infos, signals)
    columns = _columns(structure, components, index, infos, signals, settings.record)
    n_steps = max(1, math.ceil((stop - start) / step * (1 - 1e-12)))
    feedthrough = {k: {o: i for o, i in infos[c.path].feedthrough} for k, c in enumerate(components)}
    edges = [(signals.items[l.source].component, signals.items[l.source].variable.name,
              l.component, l.variable.name) for l in links]
    loops = order.algebraic_loops(edges, feedthrough)
    jacobi = settings.algorithm == "jacobi"
    if not jacobi:
        for members, on_loop in loops:
            _check_loop(members, on_loop, components, infos, location)
    stage_list = order.stages(len(components), edges, feedthrough,
                              [] if jacobi else [m for m, _ in loops])
    return Plan(tuple(components), tuple(signals.items), tuple(links), stage_list,
                tuple(columns), start, stop, step, n_steps, tolerance, jacobi, location,
                settings.allow_nonfinite, settings.timeout,
                _column_units(structure, columns, signals, components))


def _column_units(structure, columns, signals, components) -> tuple[str | None, ...]:
    by_path = {path: component for path, _, component in iter_components(structure)}
    units = []
    for name, k in columns:
        signal = signals.items[k]
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
    if not stop > start:
        raise PlanError(f"stop time {stop:g} is not after start time {start:g}", location)
    step = pick(settings.step_size, experiment and experiment.step_size,
                single and single.step_size, (stop - start) / DEFAULT_STEPS)
    if not step > 0:
        raise PlanError(f"step size {step:g} is not positive", location)
    tolerance = pick(settings.tolerance, experiment and experiment.tolerance,
                     single and single.tolerance, DEFAULT_TOLERANCE)
    return start, stop, step, tolerance


def _split(name: str, paths) -> tuple[str, str] | None:
    """``("a.b", "x")`` for ``"a.b.x"``: the longest component path the name starts with."""
    path = max((p for p in paths if name.startswith(p + ".")), key=len, default=None)
    return None if path is None else (path, name[len(path) + 1:])


def _components(structure, infos, settings, step, location) -> list[PlannedComponent]:
    asked_steps = dict(settings.step_sizes)
    resolved, _ = resolve_parameters(structure)
    overrides = _overrides(settings.parameters, infos)
    components = []
    for path, _document, component in iter_components(structure):
        where = str(component.location or location)
        if component.kind == "modelica":
            raise PlanError(f"component '{path}': a Modelica component runs once compiled "
                            f"(cosim.modelica.compile_modelica)", where)
        if component.kind == "other":
            raise PlanError(f"component '{path}': type '{component.type}' cannot be run", where)
        if component.kind != "fmu":
            continue
        info = infos.get(path)
        if info is None:
            raise PlanError(f"component '{path}': no FMU loaded from '{component.source}'", where)
        kind = _interface(path, component.implementation, info, where)
        multiple = _multiple(path, asked_steps.pop(path, component.step_size_hint), step, where)
        values = {p.name: p.value for p in resolved if p.component == path}
        values.update(overrides.get(path, {}))
        isolated = settings.isolate if settings.isolate is not None else not built_by_us(info)
        components.append(PlannedComponent(path, component.source or "", kind, multiple,
                                           _parameters(path, info, values, where), where,
                                           isolated))
    for path in asked_steps:
        raise PlanError(f"step size for '{path}': no component of that name "
                        f"(components: {', '.join(sorted(infos))})")
    if not components:
        raise PlanError("the system has no FMU component to run", location)
    return components


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
    has: one run of a sweep. ``PlanError`` as for ``Settings.parameters``."""
    overrides = _overrides(parameters.items(), infos)
    if not overrides:
        return plan
    components = []
    for component in plan.components:
        asked = overrides.get(component.path)
        if asked:
            values = {variable.name: value for variable, value in component.parameters}
            values.update(asked)
            component = replace(component, parameters=_parameters(
                component.path, infos[component.path], values, component.location))
        components.append(component)
    return replace(plan, components=tuple(components))


def _interface(path, implementation, info, where) -> str:
    wanted = {"ModelExchange": "ME", "CoSimulation": "CS"}.get(implementation)
    available = [k for k, i in (("CS", info.co_simulation), ("ME", info.model_exchange)) if i]
    if wanted is not None and wanted not in available:
        raise PlanError(f"component '{path}': implementation {implementation} asked for, but "
                        f"the FMU does not provide it", where)
    return wanted or available[0]


def _multiple(path, component_step, step, where) -> int:
    if component_step is None:
        return 1
    ratio = float(component_step) / step
    multiple = round(ratio)
    if multiple < 1 or abs(ratio - multiple) > 1e-9 * max(1.0, ratio):
        raise PlanError(f"component '{path}': step size {component_step:g} is not a whole "
                        f"multiple of the base step {step:g}", where)
    return multiple


def _parameters(path, info: ModelInfo, values: dict, where) -> tuple:
    result = []
    for name, value in values.items():
        variable = info.variable(name)
        if variable is None:
            raise PlanError(f"parameter '{path}.{name}': the FMU has no variable '{name}'", where)
        if variable.causality not in ("parameter", "structuralParameter", "input") or \
                variable.variability == "constant":
            raise PlanError(f"parameter '{path}.{name}': a {variable.causality} "
                            f"{variable.variability} variable cannot be set", where)
        result.append((variable, convert_value(value, variable, f"parameter '{path}.{name}'",
                                               where)))
    return tuple(result)


def convert_value(value, variable: VariableInfo, what: str, where: str = ""):
    """``value`` (a Python value or command-line text) as the variable's type."""
    family = variable.exchange or variable.type
    try:
        if variable.type == "String":
            return str(value)
        if family == "Boolean":
            if isinstance(value, str):
                if value.lower() not in ("true", "false", "1", "0"):
                    raise ValueError(value)
                return value.lower() in ("true", "1")
            return bool(value)
        if family in ("Float64", "Float32"):
            return float(value)
        number = float(value)
        if number != int(number):
            raise ValueError(value)
        return int(number)
    except (TypeError, ValueError):
        raise PlanError(f"{what}: '{value}' is not a {variable.type} value", where) from None


class _Signals:
    """Signals read after each step, one per (component, variable)."""

    def __init__(self):
        self.items: list[Signal] = []
        self.index: dict[tuple[int, int, str], int] = {}

    def add(self, component: int, variable: VariableInfo) -> int:
        key = (component, variable.value_reference, variable.exchange)
        if key not in self.index:
            self.index[key] = len(self.items)
            self.items.append(Signal(component, variable))
        return self.index[key]


def _variable(infos, components, index, path, name, what, where) -> tuple[int, VariableInfo]:
    variable = infos[path].variable(name)
    if variable is None:
        raise PlanError(f"{what}: the FMU of '{path}' has no variable '{name}'", where)
    if variable.exchange is None:
        raise PlanError(f"{what}: {variable.type} variables cannot be exchanged", where)
    return index[path], variable


def _links(structure, components, index, infos, signals) -> list[Link]:
    links = []
    for flat in flat_connections(structure):
        (source_path, output), (target_path, input_name) = flat.source, flat.target
        if source_path not in index or target_path not in index:
            continue  # ends at a connector of the root system: nothing to exchange
        label = f"connection {source_path}.{output} -> {target_path}.{input_name}"
        where = str(flat.locations[0]) if flat.locations else ""
        if flat.source_indices is not None or flat.target_indices is not None:
            raise PlanError(f"{label}: array element connections are not supported yet", where)
        if flat.conversion.problem:
            raise PlanError(f"{label}: {flat.conversion.problem}", where)
        source = signals.add(*_variable(infos, components, index, source_path, output, label,
                                        where))
        component, variable = _variable(infos, components, index, target_path, input_name,
                                        label, where)
        mapping = tuple((float(a), float(b)) for a, b in flat.conversion.mapping.entries) \
            if flat.conversion.mapping else ()
        links.append(Link(source, component, variable, flat.conversion.factor,
                          flat.conversion.offset, mapping, label))
    targets = {}
    for link in links:
        key = (link.component, link.variable.value_reference)
        if key in targets:
            raise PlanError(f"{link.label}: the input is already fed by {targets[key]}",
                            components[link.component].location)
        targets[key] = link.label
    return links


def _columns(structure, components, index, infos, signals, record) -> list[tuple[str, int]]:
    columns: dict[str, int] = {}
    by_path = {path: component for path, _, component in iter_components(structure)}
    for k, planned in enumerate(components):
        declared = by_path[planned.path].connectors
        names = [c.name for c in declared if c.kind == "output"] if declared else \
            [v.name for v in infos[planned.path].by_causality("output")]
        for name in names:
            variable = infos[planned.path].variable(name)
            if variable is not None and variable.exchange is not None:
                columns[f"{planned.path}.{name}"] = signals.add(k, variable)
    for name in record:
        split = _split(name, index)
        if split is None:
            raise PlanError(f"record '{name}': no component of that name "
                            f"(components: {', '.join(sorted(index))})")
        columns[name] = signals.add(*_variable(infos, components, index, *split,
                                               f"record '{name}'", ""))
    return list(columns.items())


def _check_loop(members, on_loop, components, infos, location) -> None:
    names = " -> ".join(f"{components[s].path}.{o} -> {components[t].path}.{i}"
                        for s, o, t, i in on_loop)
    for k in sorted(members):
        component = components[k]
        info = infos[component.path]
        interface = info.co_simulation if component.kind == "CS" else info.model_exchange
        if not interface.can_get_and_set_state:
            raise PlanError(f"algebraic loop {names}: component '{component.path}' cannot get "
                            f"and set its FMU state (canGetAndSetFMUState), which solving the "
                            f"loop by iteration needs; use --algorithm jacobi to break it with "
                            f"a delay", component.location or location)
    if len({components[k].multiple for k in members}) > 1:
        raise PlanError(f"algebraic loop {names}: its components step at different rates",
                        location)
