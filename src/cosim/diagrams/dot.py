"""``Graph`` -> Graphviz DOT: boxes as clusters holding their ports, edges between ports.

Input: a placed ``Graph``. Output: DOT text with ``pos`` attributes from the layout (in
points, for ``neato -n``); an incidence matrix becomes a bipartite graph.
"""
from __future__ import annotations

from cosim.diagrams.graph import Graph
from cosim.diagrams.layout import layout


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def _pos(node) -> str:
    if node.x is None:
        return ""
    x = node.x + (node.width / 2 if not node.parent else 0)
    y = node.y + (node.height / 2 if not node.parent else 0)
    return f', pos="{x * 0.75:.1f},{-y * 0.75:.1f}!"'


def to_dot(graph: Graph) -> str:
    if not graph.matrix:
        graph = layout(graph)
    lines = [f"digraph {_quote(graph.title)} {{", "  graph [rankdir=LR, fontname=\"sans-serif\"];",
             "  node [fontname=\"sans-serif\", fontsize=10];"]
    for box in graph.boxes():
        label = "\n".join((box.label,) + box.detail)
        style = "dashed" if {"torn", "linear", "frame"} & set(box.marks) else "solid"
        if box.marks and "loop" in box.marks:
            style = "bold"
        ports = graph.ports(box.id)
        if not ports:
            shape = "ellipse" if box.kind == "column" else "box"
            lines.append(f"  {box.id} [label={_quote(label)}, shape={shape}, "
                         f"style={style}{_pos(box)}];")
            continue
        lines.append(f"  subgraph cluster_{box.id} {{")
        lines.append(f"    label={_quote(label)}; style={style};")
        for port in ports:
            lines.append(f"    {port.id} [label={_quote(port.label)}, shape=box, "
                         f"height=0.2{_pos(port)}];")
        lines.append("  }")
    for edge in graph.edges:
        attributes = [f"label={_quote(edge.label)}"] if edge.label else []
        if not edge.directed:
            attributes.append("dir=none")
        suffix = f" [{', '.join(attributes)}]" if attributes else ""
        lines.append(f"  {edge.source} -> {edge.target}{suffix};")
    lines.append("}")
    return "\n".join(lines) + "\n"
