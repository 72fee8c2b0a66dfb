"""Semantic checks of a read system structure (the schema cannot express these).

Input: a ``SystemStructure`` (nested structures included). Output: one ``Diagnostic`` per
problem, naming the file, line and element: duplicate names, connections to unknown elements
or connectors, wrong direction, two sources on one input, type mismatches, transformations
that do not fit the type, incompatible or undefined units, array indices, nested interfaces,
signal dictionary references, experiment and step sizes, and the parameter bindings.
"""
from __future__ import annotations

from collections import Counter

from cosim.ssp.connections import EITHER_KINDS, PARAMETER_KINDS, find_connector, role
from cosim.ssp.errors import Findings
from cosim.ssp.flatten import flat_connections
from cosim.ssp.model import (
    Component, Connection, Connector, Diagnostic, Endpoint,
    LinearTransformation, MappingTransformation, SignalDictionaryReference, System,
    SystemStructure, type_family,
)
from cosim.ssp.parameters import resolve_parameters
from cosim.ssp.units import value_conversion

# the SSP enumeration of a component's implementation attribute
IMPLEMENTATIONS = ("any", "CoSimulation", "ModelExchange", "ScheduledExecution")


def check_structure(structure: SystemStructure) -> list[Diagnostic]:
    """All semantic problems and warnings of ``structure`` and the structures nested in it."""
    findings = Findings()
    _check_document(structure, findings)
    _check_hierarchical_fan_in(structure, findings)
    findings.extend(resolve_parameters(structure)[1])
    return findings.items


def _check_hierarchical_fan_in(structure: SystemStructure, findings: Findings) -> None:
    """Two sources reaching one input through nested systems or a signal dictionary entry
    (direct connections within one system are checked there)."""
    sources: dict[tuple, list] = {}
    for flat in flat_connections(structure):
        sources.setdefault((flat.target, flat.target_indices), []).append(flat)
    for (target, _), paths in sources.items():
        if len({p.source for p in paths}) > 1 and any(len(p.locations) > 1 for p in paths):
            names = ", ".join(".".join(filter(None, p.source)) for p in paths)
            findings.error(f"{'.'.join(filter(None, target))} has {len(paths)} sources through "
                           f"nested systems or signal dictionaries: {names}",
                           paths[-1].locations[-1])


def _check_document(document: SystemStructure, findings: Findings) -> None:
    experiment = document.experiment
    if experiment is not None:
        where = experiment.location
        if None not in (experiment.start_time, experiment.stop_time) and \
                experiment.stop_time < experiment.start_time:
            findings.error(f"DefaultExperiment: stopTime {experiment.stop_time:g} is before "
                           f"startTime {experiment.start_time:g}", where)
        if experiment.step_size is not None and experiment.step_size <= 0:
            findings.error(f"{experiment.step_size_origin}: step size "
                           f"{experiment.step_size:g} is not positive", where)
    _check_system(document, document.system, (), findings)


def _check_system(document, system: System, outer: tuple[System, ...], findings) -> None:
    what = f"system '{system.name}'"
    _check_unique([e.name for e in system.elements], f"{what}: two elements named", system,
                  findings)
    _check_connectors(document, system.connectors, what, system, findings)
    for element in system.elements:
        if isinstance(element, System):
            _check_system(document, element, outer + (system,), findings)
        elif isinstance(element, Component):
            _check_component(document, element, findings)
        else:
            _check_reference(document, element, outer + (system,), findings)
    targets: dict[tuple[str | None, str], list[Connection]] = {}
    for connection in system.connections:
        if _check_connection(document, system, connection, findings):
            targets.setdefault((connection.target.element, connection.target.connector),
                               []).append(connection)
    for connections in targets.values():
        _check_fan_in(connections, findings)


def _check_unique(names, message: str, owner, findings) -> None:
    for name, count in Counter(names).items():
        if count > 1:
            findings.error(f"{message} '{name}'", owner.location)


def _check_connectors(document, connectors, what: str, owner, findings) -> None:
    _check_unique([c.name for c in connectors], f"{what}: two connectors named", owner, findings)
    names = {c.name for c in connectors}
    enumerations = {e.name for e in document.enumerations}
    for connector in connectors:
        for dimension in connector.dimensions:
            if dimension.size_connector and dimension.size_connector not in names:
                findings.error(f"{what}: connector '{connector.name}': size connector "
                               f"'{dimension.size_connector}' does not exist", connector.location)
        kind = connector.type.name if connector.type else None
        enumeration = connector.type.enumeration if connector.type else None
        if kind == "Enumeration" and enumeration and enumeration not in enumerations:
            findings.warning(f"{what}: connector '{connector.name}': enumeration "
                             f"'{enumeration}' is not defined in {document.file}",
                             connector.location)


def _check_component(document, component: Component, findings) -> None:
    what = f"component '{component.name}'"
    _check_connectors(document, component.connectors, what, component, findings)
    for connector in component.connectors:
        if connector.kind == "inout":
            findings.warning(f"{what}: connector '{connector.name}': kind inout is meant for "
                             "signal dictionary references only", connector.location)
    if component.step_size_hint is not None and component.step_size_hint <= 0:
        findings.error(f"{what}: osp:StepSizeHint {component.step_size_hint:g} is not positive",
                       component.location)
    if component.implementation not in IMPLEMENTATIONS:
        findings.error(f"{what}: implementation '{component.implementation}' is none of "
                       f"{', '.join(IMPLEMENTATIONS)}", component.location)
    nested = component.nested
    if nested is None:
        return
    inside = {c.name: c for c in nested.system.connectors}
    for connector in component.connectors:
        match = inside.get(connector.name)
        if match is None:
            findings.error(f"{what}: connector '{connector.name}' is not a connector of system "
                           f"'{nested.system.name}' in {nested.file}", connector.location)
        elif match.kind != connector.kind:
            findings.error(f"{what}: connector '{connector.name}' is {connector.kind} here but "
                           f"{match.kind} in {nested.file}", connector.location)
    _check_document(nested, findings)


def _check_reference(document, reference: SignalDictionaryReference, scope, findings) -> None:
    what = f"signal dictionary reference '{reference.name}'"
    _check_connectors(document, reference.connectors, what, reference, findings)
    dictionary = next((d for system in reversed(scope) for d in system.signal_dictionaries
                       if d.name == reference.dictionary), None)
    if dictionary is None:
        findings.error(f"{what}: no signal dictionary '{reference.dictionary}'",
                       reference.location)
        return
    entries = {e.name: e for e in dictionary.entries}
    for connector in reference.connectors:
        entry = entries.get(connector.name)
        if entry is None:
            findings.error(f"{what}: connector '{connector.name}' is not an entry of signal "
                           f"dictionary '{dictionary.name}'", connector.location)
        elif entry.type and connector.type and type_family(entry.type.name) != \
                type_family(connector.type.name):
            findings.error(f"{what}: connector '{connector.name}' is {connector.type.name} but "
                           f"dictionary entry is {entry.type.name}", connector.location)


def _describe(system: System, endpoint: Endpoint) -> str:
    if endpoint.element is None:
        return f"system '{system.name}'"
    element = system.element(endpoint.element)
    kind = {Component: "component", System: "system",
            SignalDictionaryReference: "signal dictionary reference"}[type(element)]
    return f"{kind} '{endpoint.element}'"


def _check_connection(document, system: System, connection: Connection, findings) -> bool:
    """Check one connection; True when both ends exist and the direction is known."""
    what, where = str(connection), connection.location
    ends = []
    for endpoint in (connection.start, connection.end):
        if endpoint.element is not None and system.element(endpoint.element) is None:
            findings.error(f"{what}: unknown element '{endpoint.element}'", where)
            return False
        connector = find_connector(system, endpoint)
        if connector is None:
            findings.error(f"{what}: unknown connector '{endpoint.connector}' of "
                           f"{_describe(system, endpoint)}", where)
            return False
        ends.append(connector)
        _check_indices(what, endpoint, connector, where, findings)
    start, end = ends
    own = (connection.start.element is None, connection.end.element is None)
    roles = (role(start, own[0]), role(end, own[1]))
    if roles[0] == roles[1] and roles[0] in ("source", "sink"):
        findings.error(f"{what}: wrong direction: {_kind(start, own[0])} -> "
                       f"{_kind(end, own[1])}", where)
        return False
    source, target = (end, start) if connection.reversed else (start, end)
    if connection.reversed:
        findings.warning(f"{what}: written from the receiving end; data flows "
                         f"{connection.source} -> {connection.target}", where)
    if (source.kind in PARAMETER_KINDS) != (target.kind in PARAMETER_KINDS) and \
            not {source.kind, target.kind} & set(EITHER_KINDS) and not any(own):
        findings.warning(f"{what}: connects {source.kind} to {target.kind}", where)
    _check_types(document, what, source, target, connection, findings)
    return "either" not in roles or roles[0] != roles[1]


def _kind(connector: Connector, own: bool) -> str:
    return f"system {connector.kind}" if own else connector.kind


def _check_indices(what, endpoint: Endpoint, connector: Connector, where, findings) -> None:
    if endpoint.indices is None:
        return
    dimensions = connector.dimensions
    if not dimensions:
        findings.error(f"{what}: indices on the scalar connector '{endpoint.connector}'", where)
    elif len(endpoint.indices) != len(dimensions):
        findings.error(f"{what}: {len(endpoint.indices)} indices for the "
                       f"{len(dimensions)}-dimensional connector '{endpoint.connector}'", where)
    else:
        # SSP array indices count from 1, as in FMI 3.0 and Modelica.
        for index, dimension in zip(endpoint.indices, dimensions):
            if index < 1 or (dimension.size is not None and index > dimension.size):
                findings.error(f"{what}: index {index} out of range 1..{dimension.size} of "
                               f"'{endpoint.connector}'", where)



def _check_types(document, what, source: Connector, target: Connector, connection, findings):
    where = connection.location
    transformation = connection.transformation
    source_type, target_type = source.type, target.type
    if source_type is None or target_type is None:
        return
    families = (type_family(source_type.name), type_family(target_type.name))
    if families[0] != families[1]:
        findings.error(f"{what}: type mismatch: {source_type.name} -> {target_type.name}", where)
        return
    if isinstance(transformation, LinearTransformation) and families[0] != "float":
        findings.error(f"{what}: linear transformation on a {source_type.name} connection",
                       where)
    if isinstance(transformation, MappingTransformation) and transformation.kind != \
            {"integer": "Integer"}.get(families[0], families[0]):
        findings.error(f"{what}: {transformation.kind} mapping on a {source_type.name} "
                       "connection", where)
    if families[0] == "Enumeration" and source_type.enumeration != target_type.enumeration \
            and None not in (source_type.enumeration, target_type.enumeration) \
            and not isinstance(transformation, MappingTransformation):
        findings.error(f"{what}: enumeration mismatch: {source_type.enumeration} -> "
                       f"{target_type.enumeration}", where)
    if families[0] == "float":
        conversion = value_conversion(source_type.unit, target_type.unit, document.units,
                                      transformation, connection.suppress_unit_conversion)
        if conversion.problem:
            findings.error(f"{what}: {conversion.problem}", where)
        if conversion.undefined_unit:
            findings.warning(f"{what}: unit '{conversion.undefined_unit}' is not defined in "
                             f"{document.file}; no unit conversion", where)


def _check_fan_in(connections: list[Connection], findings: Findings) -> None:
    """At most one source per target connector (or per element of an array connector)."""
    for later_index, later in enumerate(connections):
        for earlier in connections[:later_index]:
            a, b = earlier.target.indices, later.target.indices
            if a is None or b is None or a == b:
                line = earlier.location.line if earlier.location else None
                findings.error(f"{later}: {later.target} already has a source: "
                               f"{earlier.source}" + (f" (line {line})" if line else ""),
                               later.location)
                break
