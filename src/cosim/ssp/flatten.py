"""Component-to-component connections of a whole hierarchy, for the master's exchange tables.

Input: a ``SystemStructure``. Output: ``FlatConnection``s from one leaf component (or root
system) connector to another, following connections through the connectors of nested systems
(``ssd:System`` elements and nested ``.ssd``/``.ssp`` components) and through signal dictionary
entries, with the unit conversions and transformations of every hop composed into one.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from cosim.ssp.connections import find_connector
from cosim.ssp.model import (
    Component, Connection, Location, SignalDictionaryReference, System, SystemStructure,
)
from cosim.ssp.units import Conversion, value_conversion

Node = tuple[str, str]  # (dotted owner path, connector or dictionary entry name)


@dataclass(frozen=True, slots=True)
class FlatConnection:
    """``target = conversion(source)``; ``component`` paths are dotted, ``""`` for the root.

    ``indices`` are those written at the source and the target end (SSP 2.0 arrays).
    """

    source: Node
    target: Node
    conversion: Conversion = Conversion()
    source_indices: tuple[int, ...] | None = None
    target_indices: tuple[int, ...] | None = None
    locations: tuple[Location, ...] = field(default=(), compare=False)


@dataclass(frozen=True, slots=True)
class _Edge:
    source: Node
    target: Node
    conversion: Conversion
    connection: Connection


def flat_connections(structure: SystemStructure) -> tuple[FlatConnection, ...]:
    """Every data path between leaf connectors, in the order of the first hop's connection."""
    edges: list[_Edge] = []
    terminals: set[Node] = {("", c.name) for c in structure.system.connectors}
    _collect(structure, structure.system, "", (), edges, terminals)
    outgoing: dict[Node, list[_Edge]] = {}
    for edge in edges:
        outgoing.setdefault(edge.source, []).append(edge)
    result = []
    for edge in edges:
        if edge.source in terminals:
            result += _follow(edge, [edge], outgoing, terminals)
    return tuple(result)


def _follow(edge: _Edge, path: list[_Edge], outgoing, terminals) -> list[FlatConnection]:
    if edge.target in terminals:
        conversion = Conversion()
        for hop in path:
            conversion = conversion.then(hop.conversion)
        first, last = path[0].connection, path[-1].connection
        return [FlatConnection(path[0].source, edge.target, conversion, first.source.indices,
                               last.target.indices, tuple(h.connection.location for h in path))]
    found = []
    for following in outgoing.get(edge.target, ()):
        if following not in path:
            found += _follow(following, path + [following], outgoing, terminals)
    return found


def _join(path: str, name: str) -> str:
    return f"{path}.{name}" if path else name


def _collect(document, system: System, path: str, dictionaries, edges, terminals) -> None:
    """Edges of ``system`` at ``path`` (and below); ``dictionaries`` maps names in scope."""
    scope = dict(dictionaries)
    for dictionary in system.signal_dictionaries:
        scope[dictionary.name] = f"{path}#{dictionary.name}"
    for connection in system.connections:
        nodes = [_node(system, path, endpoint, scope) for endpoint in
                 (connection.source, connection.target)]
        if None in nodes:
            continue  # reported by validation
        units = [_unit(system, endpoint) for endpoint in (connection.source, connection.target)]
        conversion = value_conversion(units[0], units[1], document.units,
                                      connection.transformation,
                                      connection.suppress_unit_conversion)
        edges.append(_Edge(nodes[0], nodes[1], conversion, connection))
    for element in system.elements:
        element_path = _join(path, element.name)
        if isinstance(element, System):
            _collect(document, element, element_path, tuple(scope.items()), edges, terminals)
        elif isinstance(element, Component) and element.nested is not None:
            nested = element.nested
            _collect(nested, nested.system, element_path, (), edges, terminals)
        elif isinstance(element, Component):
            terminals.update((element_path, c.name) for c in element.connectors)


def _node(system: System, path: str, endpoint, dictionaries) -> Node | None:
    if endpoint.element is None:
        return (path, endpoint.connector)
    element = system.element(endpoint.element)
    if isinstance(element, SignalDictionaryReference):
        owner = dictionaries.get(element.dictionary)
        return (owner, endpoint.connector) if owner is not None else None
    return (_join(path, endpoint.element), endpoint.connector) if element is not None else None


def _unit(system: System, endpoint) -> str | None:
    connector = find_connector(system, endpoint)
    return connector.type.unit if connector is not None and connector.type else None
