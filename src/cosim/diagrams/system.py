"""The picture of an SSP system: its components with their connectors, the system's own
connectors on the frame, the connections with their units and transformations.

Input: a ``cosim.ssp.model.SystemStructure``. Output: a ``Graph``: a box per element
(components and nested systems; inputs on the left, outputs on the right, parameters on top),
an edge per connection in the direction of the data, labelled ``unit -> unit`` and
``factor x + offset`` or ``map`` where the connection says so.
"""
from __future__ import annotations

from cosim.diagrams.graph import Edge, Graph, Node, identifier
from cosim.ssp.model import Component, LinearTransformation, MappingTransformation, System

SIDES = {"input": "left", "parameter": "left", "structuralParameter": "left",
         "output": "right", "calculatedParameter": "right", "inout": "right"}


def system_picture(structure) -> Graph:
    system = structure.system
    taken: set = set()
    ports: dict[tuple, str] = {}
    units: dict[str, str] = {}
    nodes = []
    if system.connectors:
        frame = identifier(f"system {system.name}", taken)
        nodes.append(Node(frame, system.name, "system", ("(system connectors)",),
                          marks=("frame",)))
        nodes.extend(_ports(frame, None, system.name, system.connectors, ports, units, taken,
                            flip=True))
    for element in system.elements:
        box = identifier(element.name, taken)
        nodes.append(Node(box, element.name, _kind(element), _detail(element)))
        nodes.extend(_ports(box, element.name, element.name, element.connectors, ports, units,
                            taken))
    edges = []
    for connection in system.connections:
        source = ports.get((connection.source.element, connection.source.connector))
        target = ports.get((connection.target.element, connection.target.connector))
        if source is None or target is None:
            continue  # the validator reports connections to unknown connectors
        edges.append(Edge(source, target, _label(connection, units.get(source, ""),
                                                 units.get(target, "")), "connection"))
    return Graph("system", f"{structure.name}: system {system.name}", tuple(nodes),
                 tuple(edges))


def _ports(box, element, name, connectors, ports, units, taken, flip=False) -> list[Node]:
    found = []
    for connector in connectors:
        port = identifier(f"{name} {connector.name}", taken)
        ports[(element, connector.name)] = port
        unit = connector.type.unit if connector.type is not None and connector.type.unit else ""
        units[port] = unit
        side = SIDES.get(connector.kind, "right")
        if flip and side in ("left", "right"):  # a system input feeds inside: draw it right
            side = "right" if side == "left" else "left"
        marks = ("input",) if connector.kind == "input" else ("output",)
        label = connector.name + (f" [{unit}]" if unit else "")
        found.append(Node(port, label, "connector", parent=box, side=side, marks=marks))
    return found


def _kind(element) -> str:
    if isinstance(element, System):
        return "system"
    return "component"


def _detail(element) -> tuple[str, ...]:
    if isinstance(element, Component):
        kind = element.type.split(";")[0].strip()
        return (element.source or "(no source)", kind)
    return (f"system of {len(element.elements)} elements",)


def _label(connection, source_unit: str, target_unit: str) -> str:
    parts = []
    if source_unit != target_unit and source_unit and target_unit:
        parts.append(f"{source_unit} -> {target_unit}" + (
            " (no conversion)" if connection.suppress_unit_conversion else ""))
    elif source_unit:
        parts.append(source_unit)
    transformation = connection.transformation
    if isinstance(transformation, LinearTransformation):
        parts.append(f"{transformation.factor:g} x + {transformation.offset:g}")
    elif isinstance(transformation, MappingTransformation):
        parts.append(f"map of {len(transformation.entries)} values")
    return ", ".join(parts)
