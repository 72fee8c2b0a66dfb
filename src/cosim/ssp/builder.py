"""Building a ``SystemStructure`` from a plain description (for tests, ``pack`` and scripts).

Input: a mapping such as::

    {"name": "demo", "version": "2.0", "start_time": 0, "stop_time": 1, "step_size": 1e-3,
     "units": {"mm": {"m": 1, "factor": 1e-3}, "m": {"m": 1}},
     "connectors": {"u": "input Real m"},                       # the system's own
     "components": {
         "Plant": {"source": "resources/Plant.fmu", "step_size_hint": 1e-3,
                   "implementation": "ModelExchange",                # default "any"
                   "connectors": {"y": "output Real mm", "u": "input Real"},
                   "parameters": {"k": 2.0, "n": ("Int32", 3), "g": ("Real", 9.81, "m/s2")}},
         "Sub": {"system": {...the same keys...}}},            # a nested system
     "connections": ["Plant.y -> Ctrl.u", ("Plant.y", "Ctrl.u", {"factor": 2.0})],
     "parameters": {"Plant.k": 3.0}}                            # a system-level binding

Connector specs are ``"kind Type [unit]"``, with ``Type[3,2]`` for arrays. Output: the value.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Mapping

from cosim.ssp.connections import find_connector, flows_reversed
from cosim.ssp.model import (
    BASE_UNIT_NAMES, FMU_TYPE, BaseUnit, Component, Connection, Connector, Dimension, Endpoint,
    Experiment, LinearTransformation, Parameter, ParameterBinding, ParameterSet, SignalType,
    System, SystemStructure, Unit,
)

_PYTHON_TYPES = ((bool, "Boolean"), (int, "Integer"), (float, "Real"), (str, "String"))


def structure_from_description(description: Mapping[str, Any]) -> SystemStructure:
    """A ``SystemStructure`` from the plain description documented in this module."""
    experiment = None
    keys = ("start_time", "stop_time", "step_size", "tolerance")
    if any(description.get(k) is not None for k in keys):
        step = description.get("step_size")
        experiment = Experiment(_float(description.get("start_time")),
                                _float(description.get("stop_time")), _float(step),
                                "osp:FixedStepAlgorithm baseStepSize" if step else None,
                                _float(description.get("tolerance")))
    units = tuple(Unit(name, BaseUnit(**{k: v for k, v in spec.items()
                                         if k in BASE_UNIT_NAMES + ("factor", "offset")}))
                  for name, spec in description.get("units", {}).items())
    return SystemStructure(name=description.get("name", "system"),
                           system=system_from_description(description),
                           version=description.get("version", "1.0"), units=units,
                           experiment=experiment)


def system_from_description(description: Mapping[str, Any]) -> System:
    elements = []
    for name, spec in description.get("components", {}).items():
        if "system" in spec:
            elements.append(system_from_description({"name": name, **spec["system"]}))
        else:
            elements.append(Component(
                name=name, source=spec.get("source"), type=spec.get("type", FMU_TYPE),
                connectors=connectors(spec.get("connectors", {})),
                parameter_bindings=_binding(spec.get("parameters")),
                implementation=spec.get("implementation", "any"),
                step_size_hint=spec.get("step_size_hint")))
    system = System(name=description.get("name", "system"), elements=tuple(elements),
                    connectors=connectors(description.get("connectors", {})),
                    parameter_bindings=_binding(description.get("parameters")))
    links = tuple(_connection(system, item) for item in description.get("connections", ()))
    return replace(system, connections=links)


def connectors(specs: Mapping[str, str]) -> tuple[Connector, ...]:
    """Connectors from ``{"y": "output Real mm", "x": "input Float64[3]"}``."""
    result = []
    for name, spec in specs.items():
        kind, *rest = spec.split()
        type_name, dimensions = (rest[0] if rest else None), ()
        if type_name and "[" in type_name:
            type_name, sizes = type_name.rstrip("]").split("[")
            dimensions = tuple(Dimension(int(s)) for s in sizes.split(","))
        unit = rest[1] if len(rest) > 1 else None
        signal_type = SignalType(type_name, unit=unit) if type_name else None
        result.append(Connector(name, kind, signal_type, dimensions))
    return tuple(result)


def parameter(name: str, value: Any) -> Parameter:
    """A parameter from a Python value, or from ``(type, value[, unit])``."""
    if isinstance(value, tuple):
        type_name, raw, *unit = value
        return Parameter(name, type_name, raw, unit=unit[0] if unit else None)
    type_name = next(t for python, t in _PYTHON_TYPES if isinstance(value, python))
    return Parameter(name, type_name, float(value) if type_name == "Real" else value)


def _binding(values: Mapping[str, Any] | None) -> tuple[ParameterBinding, ...]:
    if not values:
        return ()
    parameters = tuple(parameter(name, value) for name, value in values.items())
    return (ParameterBinding(values=ParameterSet("parameters", parameters)),)


def _endpoint(text: str) -> Endpoint:
    element, dot, connector = text.strip().partition(".")
    return Endpoint(element, connector) if dot else Endpoint(None, element)


def _connection(system: System, item) -> Connection:
    if isinstance(item, str):
        start_text, end_text = item.split("->")
        options: Mapping[str, Any] = {}
    else:
        start_text, end_text, *more = item
        options = more[0] if more else {}
    start, end = _endpoint(start_text), _endpoint(end_text)
    transformation = None
    if "factor" in options or "offset" in options:
        transformation = LinearTransformation(float(options.get("factor", 1.0)),
                                              float(options.get("offset", 0.0)))
    transformation = options.get("transformation", transformation)
    reverse = flows_reversed(find_connector(system, start), start.element is None,
                             find_connector(system, end), end.element is None)
    return Connection(start, end, transformation,
                      bool(options.get("suppress_unit_conversion", False)), reverse)


def _float(value) -> float | None:
    return None if value is None else float(value)
