"""Effective parameter values of a system: every binding applied with its prefix, mapping,
unit conversion and transformation, in SSP precedence order.

Input: a ``SystemStructure``. Output: one ``ResolvedParameter`` per bound variable, and
diagnostics for names that match nothing, type mismatches and unconvertible units.
Precedence: a later binding overrides an earlier one on the same element, and a binding
higher in the hierarchy overrides one lower down, so elements are visited bottom-up.
"""
from __future__ import annotations

from dataclasses import dataclass

from cosim.ssp.errors import Findings
from cosim.ssp.model import (
    FLOAT_TYPES, Component, Diagnostic, LinearTransformation,
    MappingTransformation, Parameter, ParameterBinding, ResolvedParameter, System,
    SystemStructure, type_family,
)
from cosim.ssp.units import value_conversion


@dataclass(frozen=True, slots=True)
class _Scope:
    """Where a binding's names are looked up: a system (root, nested, or behind a component)
    or a leaf component, with the document whose units apply and the element's dotted path."""

    document: SystemStructure
    element: System | Component
    path: str


def resolve_parameters(structure: SystemStructure
                       ) -> tuple[tuple[ResolvedParameter, ...], tuple[Diagnostic, ...]]:
    """The effective parameter values of ``structure`` (bottom-up, later over earlier)."""
    findings = Findings()
    values: dict[tuple[str, str], ResolvedParameter] = {}
    _visit_system(structure, structure.system, "", values, findings)
    return tuple(values.values()), tuple(findings.items)


def _join(path: str, name: str) -> str:
    return f"{path}.{name}" if path else name


def _visit_system(document, system: System, path: str, values, findings) -> None:
    for element in system.elements:
        element_path = _join(path, element.name)
        if isinstance(element, System):
            _visit_system(document, element, element_path, values, findings)
        elif isinstance(element, Component):
            scope = _component_scope(document, element, element_path)
            if element.nested is not None:
                _visit_system(element.nested, element.nested.system, element_path, values,
                              findings)
            for binding in element.parameter_bindings:
                _apply(binding, scope, values, findings)
    for binding in system.parameter_bindings:
        _apply(binding, _Scope(document, system, path), values, findings)


def _component_scope(document, component: Component, path: str) -> _Scope:
    if component.nested is not None:
        return _Scope(component.nested, component.nested.system, path)
    return _Scope(document, component, path)


def _apply(binding: ParameterBinding, scope: _Scope, values, findings: Findings) -> None:
    if binding.values is None:
        return
    entries = binding.mapping.entries if binding.mapping else ()
    for parameter in binding.values.parameters:
        name = binding.prefix + parameter.name
        mapped = [e for e in entries if e.source == name]
        targets = [(e.target, e.transformation, e.suppress_unit_conversion) for e in mapped] \
            or [(name, None, False)]
        for target, transformation, suppress in targets:
            found = _find_target(scope, target)
            if found is None:
                owner = scope.element
                mapped_to = f" (mapped to '{target}')" if target != name else ""
                findings.warning(f"parameter '{name}'{mapped_to} matches no element or connector "
                                 f"of system '{owner.name}'; ignored", parameter.location)
                continue
            resolved = _resolve_value(parameter, binding, found, transformation, suppress,
                                      findings)
            if resolved is not None:
                values.pop((resolved.component, resolved.name), None)
                values[(resolved.component, resolved.name)] = resolved


def _find_target(scope: _Scope, name: str) -> tuple[_Scope, str] | None:
    """The scope of the element a (dotted) parameter name lands on, and the variable name."""
    element = scope.element
    if isinstance(element, Component):
        return scope, name
    candidates = [e for e in element.elements if name.startswith(e.name + ".")]
    if candidates:
        inner = max(candidates, key=lambda e: len(e.name))
        rest = name[len(inner.name) + 1:]
        path = _join(scope.path, inner.name)
        if isinstance(inner, System):
            return _find_target(_Scope(scope.document, inner, path), rest)
        if isinstance(inner, Component):
            return _find_target(_component_scope(scope.document, inner, path), rest)
    if any(c.name == name for c in element.connectors):
        return scope, name
    return None


def _resolve_value(parameter: Parameter, binding: ParameterBinding, found, transformation,
                   suppress: bool, findings: Findings) -> ResolvedParameter | None:
    scope, name = found
    connector = next((c for c in scope.element.connectors if c.name == name), None)
    target_type = connector.type if connector is not None else None
    label = f"parameter '{parameter.name}' -> {_join(scope.path, name)}"
    if target_type is not None and type_family(target_type.name) != type_family(parameter.type):
        findings.error(f"{label}: a {parameter.type} value for a {target_type.name} connector",
                       parameter.location)
        return None
    target_unit = target_type.unit if target_type is not None else None
    units = binding.values.units + scope.document.units
    conversion = value_conversion(parameter.unit, target_unit, units, transformation, suppress)
    value, unit = parameter.value, parameter.unit
    if conversion.undefined_unit:
        findings.warning(f"{label}: unit '{conversion.undefined_unit}' is not defined; "
                         "no unit conversion", parameter.location)
    if conversion.problem:
        findings.error(f"{label}: {conversion.problem}", parameter.location)
        return None
    if parameter.type in FLOAT_TYPES:
        value = _map(value, lambda v: conversion.factor * v + conversion.offset)
        unit = parameter.unit if conversion.undefined_unit else (target_unit or parameter.unit)
    if isinstance(transformation, MappingTransformation):
        value = _map(value, transformation.apply)
    elif isinstance(transformation, LinearTransformation) and parameter.type not in FLOAT_TYPES:
        findings.warning(f"{label}: linear transformation of a {parameter.type} value ignored",
                         parameter.location)
    return ResolvedParameter(scope.path, name, parameter.type, value, unit,
                             location=parameter.location, binding=binding.location)



def _map(value, function):
    return tuple(function(v) for v in value) if isinstance(value, tuple) else function(value)
