"""``Graph`` -> Mermaid flowchart text: boxes as subgraphs of their ports, edges with labels.

Input: a ``Graph``. Output: ``flowchart LR`` text (the order of nodes and edges as in the
graph); an incidence matrix becomes a bipartite graph.
"""
from __future__ import annotations

from cosim.diagrams.graph import Graph


def _label(text: str) -> str:
    return '"' + text.replace('"', "#quot;").replace("\n", "<br/>") + '"'


def to_mermaid(graph: Graph) -> str:
    lines = ["---", f"title: {graph.title}", "---", "flowchart LR"]
    for box in graph.boxes():
        label = "\n".join((box.label,) + box.detail)
        ports = graph.ports(box.id)
        if not ports:
            lines.append(f"  {box.id}[{_label(label)}]" if box.kind != "column"
                         else f"  {box.id}([{_label(label)}])")
            continue
        lines.append(f"  subgraph {box.id}[{_label(label)}]")
        lines.extend(f"    {port.id}[{_label(port.label)}]" for port in ports)
        lines.append("  end")
    for edge in graph.edges:
        link = "-->" if edge.directed else "---"
        label = f"|{_label(edge.label)}|" if edge.label else ""
        lines.append(f"  {edge.source} {link}{label} {edge.target}")
    styled = [box.id for box in graph.boxes() if {"loop", "torn", "linear"} & set(box.marks)]
    if styled:
        lines.append("  classDef loop stroke-width:3px,stroke-dasharray:5 3;")
        lines.append(f"  class {','.join(styled)} loop;")
    return "\n".join(lines) + "\n"
