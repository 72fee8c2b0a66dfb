"""The picture of a model as a value: boxes, ports on them, edges, and where each one sits.

Input: nothing (data only). Output: ``Graph`` (``Node`` and ``Edge`` values, positions in
SVG pixels after ``layout``), which writes itself as SVG (``svg``), Graphviz DOT (``dot``) and
Mermaid (``mermaid``); ``write(path)`` picks the format by suffix (.svg, .dot, .mmd).
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from cosim.errors import CosimError

FORMATS = {".svg": "svg", ".dot": "dot", ".gv": "dot", ".mmd": "mermaid"}


@dataclass(frozen=True, slots=True)
class Node:
    """A box (``parent`` empty) or a port on the box ``parent``. ``kind`` says what it stands
    for (component, connector, equation, variable, block, ...), ``marks`` how to draw it
    (``loop``, ``torn``, ``linear``, ``mixed``, ``state``, ``input``, ``output``, ``frame``); ``side`` of
    a port is ``left``, ``right``, ``top`` or ``bottom``. ``x``, ``y`` are the box's top left
    corner (a port's centre), set by the layout."""
    id: str
    label: str
    kind: str
    detail: tuple[str, ...] = ()
    parent: str = ""
    side: str = ""
    marks: tuple[str, ...] = ()
    x: float | None = None
    y: float | None = None
    width: float = 0.0
    height: float = 0.0


@dataclass(frozen=True, slots=True)
class Edge:
    """A connection (``directed`` False), a data flow or an incidence, between two node ids."""
    source: str
    target: str
    label: str = ""
    kind: str = ""
    directed: bool = True


@dataclass(frozen=True, slots=True)
class Graph:
    """A picture: ``kind`` is schematic, incidence, blocks or system; ``matrix`` draws it as
    an incidence matrix (rows: nodes of kind ``row``, columns: nodes of kind ``column``)."""
    kind: str
    title: str
    nodes: tuple[Node, ...]
    edges: tuple[Edge, ...] = ()
    matrix: bool = False

    def node(self, node_id: str) -> Node:
        for item in self.nodes:
            if item.id == node_id:
                return item
        raise KeyError(node_id)

    def boxes(self) -> tuple[Node, ...]:
        return tuple(item for item in self.nodes if not item.parent)

    def ports(self, box: str) -> tuple[Node, ...]:
        return tuple(item for item in self.nodes if item.parent == box)

    def svg(self) -> str:
        from cosim.diagrams.svg import to_svg
        return to_svg(self)

    def dot(self) -> str:
        from cosim.diagrams.dot import to_dot
        return to_dot(self)

    def mermaid(self) -> str:
        from cosim.diagrams.mermaid import to_mermaid
        return to_mermaid(self)

    def write(self, path) -> Path:
        """Write the picture in the format of ``path``'s suffix; returns the path."""
        path = Path(path)
        kind = FORMATS.get(path.suffix.lower())
        if kind is None:
            raise CosimError(f"unknown picture format '{path.suffix}': write .svg, .dot or "
                             ".mmd", str(path))
        text = getattr(self, kind)()
        try:
            path.write_text(text, encoding="utf-8")
        except OSError as error:
            raise CosimError(f"cannot write: {error.strerror}", str(path)) from None
        return path


def identifier(text: str, taken: set) -> str:
    """A DOT/Mermaid/XML-safe id for ``text``, unique among ``taken`` (which it joins)."""
    base = "n_" + "".join(ch if ch.isalnum() else "_" for ch in text)
    candidate, number = base, 1
    while candidate in taken:
        number += 1
        candidate = f"{base}_{number}"
    taken.add(candidate)
    return candidate
