"""Reports for ``cosim info`` and ``cosim validate``: values, and their text.

Input: a read document (system, parameter set, mapping or dictionary) and its diagnostics.
Output: ``Info`` / ``ValidationReport`` values whose ``text()`` is what the CLI prints.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Union

from cosim.ssp.connections import find_connector
from cosim.ssp.model import (
    Component, Connection, Diagnostic, LinearTransformation, MappingTransformation,
    ParameterMapping, ParameterSet, ResolvedParameter, SignalDictionary, System,
    SystemStructure,
)
from cosim.ssp.units import value_conversion

Document = Union[SystemStructure, ParameterSet, ParameterMapping, SignalDictionary]
KIND_LABELS = {"fmu": "FMU", "ssd": "SSD", "ssp": "SSP", "modelica": "Modelica"}


@dataclass(frozen=True, slots=True)
class Info:
    """What ``cosim info`` shows: the document, its resolved parameters and its diagnostics."""

    document: Document
    parameters: tuple[ResolvedParameter, ...] = ()
    diagnostics: tuple[Diagnostic, ...] = ()

    def text(self) -> str:
        lines = _document_lines(self.document)
        if self.parameters:
            lines += ["", "parameters:"] + [_parameter_line(p) for p in self.parameters]
        return "\n".join(lines + _diagnostic_lines(self.diagnostics))


@dataclass(frozen=True, slots=True)
class ValidationReport:
    target: str
    diagnostics: tuple[Diagnostic, ...] = ()

    @property
    def problems(self) -> tuple[Diagnostic, ...]:
        return tuple(d for d in self.diagnostics if d.severity == "error")

    @property
    def warnings(self) -> tuple[Diagnostic, ...]:
        return tuple(d for d in self.diagnostics if d.severity == "warning")

    @property
    def ok(self) -> bool:
        return not self.problems

    def text(self) -> str:
        lines = [_line(d) for d in self.diagnostics]
        lines.append(f"{self.target}: {_count(len(self.problems), 'problem')}, "
                     f"{_count(len(self.warnings), 'warning')}")
        return "\n".join(lines)


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}" + ("" if number == 1 else "s")


def _line(diagnostic: Diagnostic) -> str:
    where = f"{diagnostic.location}: " if diagnostic.location else ""
    return f"{where}{diagnostic.severity}: {diagnostic.message}"


def _diagnostic_lines(diagnostics) -> list[str]:
    if not diagnostics:
        return []
    problems = sum(d.severity == "error" for d in diagnostics)
    header = f"diagnostics ({_count(problems, 'problem')}, " \
             f"{_count(len(diagnostics) - problems, 'warning')}):"
    return ["", header] + ["  " + _line(d) for d in diagnostics]


def _number(value) -> str:
    return "-" if value is None else f"{value:g}"


def _value(value) -> str:
    if isinstance(value, tuple):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    if isinstance(value, bytes):
        return value.hex()
    return repr(value) if isinstance(value, str) else str(value)


def _document_lines(document: Document) -> list[str]:
    if isinstance(document, SystemStructure):
        return _structure_lines(document)
    if isinstance(document, ParameterSet):
        return [f"parameter set '{document.name}' (SSP {document.version})"] + [
            f"  {p.name} = {_value(p.value)} {p.type}" + (f" [{p.unit}]" if p.unit else "")
            for p in document.parameters]
    if isinstance(document, ParameterMapping):
        return [f"parameter mapping (SSP {document.version})"] + [
            f"  {e.source} -> {e.target}{_transformation(e.transformation)}"
            for e in document.entries]
    return [f"signal dictionary (SSP {document.version})"] + [
        f"  {e.name} {e.type.name if e.type else '-'}" +
        (f" [{e.type.unit}]" if e.type and e.type.unit else "") for e in document.entries]


def _structure_lines(structure: SystemStructure) -> list[str]:
    lines = [f"{structure.file}: system structure '{structure.name}' (SSP {structure.version})"]
    experiment = structure.experiment
    if experiment is not None:
        step = _number(experiment.step_size)
        origin = f" ({experiment.step_size_origin})" if experiment.step_size_origin else ""
        tolerance = f", tolerance {experiment.tolerance:g}" if experiment.tolerance else ""
        lines.append(f"experiment: start {_number(experiment.start_time)}, stop "
                     f"{_number(experiment.stop_time)}, step {step}{origin}{tolerance}")
    lines += ["", "components:"]
    lines += _element_lines(structure, structure.system, "")
    connections = list(_connection_lines(structure, structure.system, ""))
    lines += ["", "connections:"] + (connections or ["  (none)"])
    return lines


def _join(prefix: str, name: str) -> str:
    return f"{prefix}.{name}" if prefix else name


def _element_lines(document, system: System, prefix: str) -> list[str]:
    lines = [f"  {_join(prefix, c.name)}  system connector {c.kind} {_type(c.type)}"
             for c in (system.connectors if prefix else ())]
    for element in system.elements:
        path = _join(prefix, element.name)
        if isinstance(element, Component):
            label = KIND_LABELS.get(element.kind, element.type)
            hint = f", step size hint {element.step_size_hint:g}" if element.step_size_hint else ""
            lines.append(f"  {path}  {label}  {element.source or '(no source)'}{hint}")
        elif isinstance(element, System):
            lines.append(f"  {path}  system")
        else:
            lines.append(f"  {path}  signal dictionary reference to '{element.dictionary}'")
        lines += [f"      {c.kind:<20} {c.name}  {_type(c.type)}" for c in element.connectors]
        if isinstance(element, System):
            lines += _element_lines(document, element, path)
        elif isinstance(element, Component) and element.nested is not None:
            lines += _element_lines(element.nested, element.nested.system, path)
    return lines


def _type(signal_type) -> str:
    if signal_type is None:
        return "(untyped)"
    unit = f" [{signal_type.unit}]" if signal_type.unit else ""
    return signal_type.name + unit


def _connection_lines(document, system: System, prefix: str):
    for connection in system.connections:
        yield "  " + _connection_text(document, system, connection, prefix)
    for element in system.elements:
        path = _join(prefix, element.name)
        if isinstance(element, System):
            yield from _connection_lines(document, element, path)
        elif isinstance(element, Component) and element.nested is not None:
            yield from _connection_lines(element.nested, element.nested.system, path)


def _connection_text(document, system: System, connection: Connection, prefix: str) -> str:
    source, target = connection.source, connection.target
    text = f"{_join(prefix, str(source))} -> {_join(prefix, str(target))}"
    ends = [find_connector(system, e) for e in (source, target)]
    units = [c.type.unit if c is not None and c.type else None for c in ends]
    conversion = value_conversion(units[0], units[1], document.units, None,
                                  connection.suppress_unit_conversion)
    if units[0] and units[1] and units[0] != units[1]:
        text += f"  [{units[0]} -> {units[1]}"
        text += f": x*{conversion.factor:g} + {conversion.offset:g}]" if not (
            conversion.problem or conversion.undefined_unit) else ": not converted]"
    if connection.suppress_unit_conversion:
        text += "  (unit conversion suppressed)"
    return text + _transformation(connection.transformation)


def _transformation(transformation) -> str:
    if isinstance(transformation, LinearTransformation):
        return f"  linear: {transformation.factor:g}*x + {transformation.offset:g}"
    if isinstance(transformation, MappingTransformation):
        pairs = ", ".join(f"{_value(s)}->{_value(t)}" for s, t in transformation.entries)
        return f"  {transformation.kind} map: {pairs}"
    return ""


def _parameter_line(parameter: ResolvedParameter) -> str:
    unit = f" [{parameter.unit}]" if parameter.unit else ""
    where = f"  ({parameter.location})" if parameter.location else ""
    return f"  {parameter.path} = {_value(parameter.value)}{unit}{where}"

