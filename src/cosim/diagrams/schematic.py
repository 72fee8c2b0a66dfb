"""The schematic of a class before flattening: its components (own and inherited) as boxes
with their connectors as ports, its connectors on the frame, its connect equations as lines.

Input: a ``compiler.library.Library`` and a class name. Output: a ``Graph``. Names and types
come from the flattener's own class expansion and lookup (``compiler.flatten.classes``);
components with a ``Placement`` annotation of literal numbers are drawn there (Modelica
diagram units, y up, 3 px per unit), the others laid out automatically.
"""
from __future__ import annotations

from compiler.flatten.classes import Classes
from compiler.flatten.errors import FlattenError
from compiler.lang import ast
from compiler.lang.unparse import expr as expr_text, unparse
from cosim.diagrams.graph import Edge, Graph, Node, identifier

SCALE = 3.0
MAX_DETAIL = 40


def schematic(library, name: str) -> Graph:
    classes = Classes(library)
    entry = library.lookup(name)
    if entry is None:
        raise FlattenError(f"class '{name}' not found")
    info = classes.expand(entry)
    taken: set = set()
    nodes, ports = [], {}
    frame = identifier(f"frame {name}", taken)
    frame_ports = []
    for member_name, member in info.members.items():
        decl = member.decl
        type_info = classes.expand(classes.lookup_class(decl.type_name, member.scope,
                                                        decl.span), decl.span)
        if type_info.builtin is not None:
            continue  # variables and parameters are not drawn
        if type_info.kind in ("connector", "expandable connector"):
            port_id = identifier(f"{name} {member_name}", taken)
            ports[(member_name, "")] = port_id
            frame_ports.append(Node(port_id, _declared(decl), "connector", parent=frame,
                                    side="left" if len(frame_ports) % 2 == 0 else "right"))
            continue
        box = identifier(member_name, taken)
        nodes.append(_box(box, decl, type_info, classes))
        connectors = _connectors(type_info, classes)
        for k, connector in enumerate(connectors):
            port_id = identifier(f"{member_name} {connector}", taken)
            ports[(member_name, connector)] = port_id
            side = "left" if k < (len(connectors) + 1) // 2 else "right"
            nodes.append(Node(port_id, connector, "connector", parent=box, side=side))
    if frame_ports:
        nodes = [Node(frame, name.rsplit(".", 1)[-1], "frame", ("(its own connectors)",),
                      marks=("frame",))] + frame_ports + nodes
    edges = []
    for equation, _scope in info.equations:
        edges.extend(_connections(equation, ports, ""))
    title = f"{name}: schematic"
    return Graph("schematic", title, tuple(nodes), tuple(edges))


def _declared(decl: ast.Component) -> str:
    return decl.name + ("[" + ", ".join(expr_text(d) for d in decl.dims) + "]" if decl.dims
                        else "")


def _box(box_id: str, decl: ast.Component, type_info, classes) -> Node:
    detail = [type_info.name.rsplit(".", 1)[-1]]
    if decl.modification is not None:
        text = unparse(decl.modification)
        detail.append(text if len(text) <= MAX_DETAIL else text[:MAX_DETAIL - 3] + "...")
    place = _placement(decl.annotation)
    if place is None:
        return Node(box_id, _declared(decl), "component", tuple(detail))
    x, y, width, height = place
    return Node(box_id, _declared(decl), "component", tuple(detail), x=x, y=y, width=width,
                height=height)


def _connectors(type_info, classes) -> list[str]:
    names = []
    for name, member in type_info.members.items():
        decl = member.decl
        try:
            found = classes.expand(classes.lookup_class(decl.type_name, member.scope, decl.span))
        except FlattenError:
            continue  # the flattener reports it where the model is flattened
        if found.kind in ("connector", "expandable connector") and found.builtin is None:
            names.append(name)
    return names


def _connections(equation, ports: dict, loop: str):
    if isinstance(equation, ast.EqConnect):
        a, b = _end(equation.a, ports), _end(equation.b, ports)
        if a is not None and b is not None:
            yield Edge(a, b, loop, "connection", directed=False)
    elif isinstance(equation, ast.EqFor):
        indices = ", ".join(f"{index.name} in {expr_text(index.range)}"
                            for index in equation.indices if index.range is not None)
        for inner in equation.body:
            yield from _connections(inner, ports, f"for {indices}")
    elif isinstance(equation, ast.EqIf):
        for _, body in equation.branches:
            for inner in body:
                yield from _connections(inner, ports, "if")


def _end(ref: ast.ComponentRef, ports: dict) -> str | None:
    names = [part.name for part in ref.parts]
    if len(names) == 1:
        return ports.get((names[0], ""))
    return ports.get((names[0], names[1]))


def _placement(annotation) -> tuple[float, float, float, float] | None:
    """(x, y, width, height) in SVG pixels of a literal ``Placement(transformation(extent=
    {{x1, y1}, {x2, y2}}, origin={x, y}))``, or None."""
    transformation = _argument(_argument(annotation, "Placement"), "transformation")
    extent = _numbers(_binding(transformation, "extent"))
    if extent is None or len(extent) != 4:
        return None
    origin = _numbers(_binding(transformation, "origin")) or [0.0, 0.0]
    x1, y1, x2, y2 = extent
    left, right = sorted((x1 + origin[0], x2 + origin[0]))
    low, high = sorted((y1 + origin[1], y2 + origin[1]))
    return left * SCALE, -high * SCALE, (right - left) * SCALE, (high - low) * SCALE


def _argument(modification, name: str):
    if modification is None:
        return None
    for argument in modification.arguments:
        if isinstance(argument, ast.ElementMod) and argument.name == (name,):
            return argument.modification
    return None


def _binding(modification, name: str):
    found = _argument(modification, name)
    return found.binding if found is not None else None


def _numbers(node) -> list[float] | None:
    if node is None:
        return None
    if isinstance(node, (ast.IntLit, ast.RealLit)):
        return [float(node.value)]
    if isinstance(node, ast.Unary) and node.op == "-":
        inner = _numbers(node.operand)
        return [-value for value in inner] if inner and len(inner) == 1 else None
    if isinstance(node, ast.ArrayCons):
        values = []
        for element in node.elements:
            inner = _numbers(element)
            if inner is None:
                return None
            values.extend(inner)
        return values
    return None
