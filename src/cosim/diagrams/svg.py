"""``Graph`` -> SVG text: boxes, ports, edges and labels, or an incidence matrix.

Input: a placed ``Graph`` (``layout``). Output: a standalone SVG 1.1 document that uses only
``currentColor`` (fills at low opacity, so it reads on light and dark pages), no script, no
external reference; numbers are written with one decimal, so the same graph gives the same
bytes.
"""
from __future__ import annotations

from xml.sax.saxutils import escape

from cosim.diagrams.graph import Graph, Node
from cosim.diagrams.layout import CHAR_WIDTH, LINE_HEIGHT, PAD, PORT, layout

FONT = 'font-family="sans-serif"'
MARGIN = 20.0
CELL = 14.0
STUB = 12.0          # how far an edge leaves its port before it turns
# how each mark draws a box: (fill opacity, dash pattern, stroke width)
MARKS = {"state": (0.16, "", 1.5), "loop": (0.22, "", 2.0), "linear": (0.22, "6 3", 2.0),
         "torn": (0.22, "2 2", 2.0), "frame": (0.0, "4 4", 1.0)}
LEGEND = {"linear": "linear loop (one factorization)",
          "torn": "torn nonlinear loop (Newton)", "state": "computes a state derivative"}


def _n(value: float) -> str:
    return f"{value:.1f}"


def _text(x: float, y: float, text: str, extra: str = "", size: int = 12) -> str:
    return (f'<text x="{_n(x)}" y="{_n(y)}" {FONT} font-size="{size}"{extra} '
            f'fill="currentColor">{escape(text)}</text>')


def to_svg(graph: Graph) -> str:
    if graph.matrix:
        return _matrix(graph)
    graph = layout(graph)
    nodes = {node.id: node for node in graph.nodes}
    body = [_edge(edge, nodes) for edge in graph.edges
            if edge.source in nodes and edge.target in nodes]
    for box in graph.boxes():
        body.extend(_box(box))
        body.extend(_port(port) for port in graph.ports(box.id))
    used = sorted({_style(node) for node in graph.nodes} & set(LEGEND))
    right = max((n.x + max(n.width, PORT) for n in graph.nodes), default=0.0)
    bottom = max((n.y + max(n.height, PORT) for n in graph.nodes), default=0.0)
    for k, mark in enumerate(used):
        body.extend(_legend(mark, 0.0, bottom + 30 + k * 20))
    bottom += 30 + len(used) * 20
    return _document(graph.title, right, bottom, body)


def _document(title: str, right: float, bottom: float, body: list[str]) -> str:
    width, height = right + 2 * MARGIN, bottom + 2 * MARGIN + 20
    head = [f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{_n(width)}" '
            f'height="{_n(height)}" viewBox="{_n(-MARGIN)} {_n(-MARGIN - 20)} {_n(width)} '
            f'{_n(height)}">',
            f"<title>{escape(title)}</title>",
            '<defs><marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" '
            'markerHeight="7" orient="auto-start-reverse"><path d="M 0 0 L 10 5 L 0 10 z" '
            'fill="currentColor"/></marker></defs>',
            _text(0, -6, title, ' font-weight="bold"')]
    return "\n".join(head + body + ["</svg>"]) + "\n"


def _box(box: Node) -> list[str]:
    opacity, dash, stroke = MARKS.get(_style(box), (0.08, "", 1.0))
    dashes = f' stroke-dasharray="{dash}"' if dash else ""
    lines = [f'<rect x="{_n(box.x)}" y="{_n(box.y)}" width="{_n(box.width)}" '
             f'height="{_n(box.height)}" rx="4" fill="currentColor" fill-opacity="{opacity}" '
             f'stroke="currentColor" stroke-width="{stroke}"{dashes}/>']
    y = box.y + PAD + 12
    lines.append(_text(box.x + PAD, y, box.label, ' font-weight="bold"'))
    for detail in box.detail:
        y += LINE_HEIGHT
        lines.append(_text(box.x + PAD, y, detail, ' fill-opacity="0.8"'))
    return lines


def _port(port: Node) -> str:
    """A square on the box's side, its label inside the box beside it."""
    filled = "0.7" if "input" in port.marks else "0.15"
    half = PORT / 2
    square = (f'<rect x="{_n(port.x - half)}" y="{_n(port.y - half)}" width="{_n(PORT)}" '
              f'height="{_n(PORT)}" fill="currentColor" fill-opacity="{filled}" '
              'stroke="currentColor"/>')
    if port.side == "right":
        label = _text(port.x - half - 3, port.y + 4, port.label, ' text-anchor="end"', 11)
    else:
        label = _text(port.x + half + 3, port.y + 4, port.label, "", 11)
    return square + label


def _anchor(node: Node) -> tuple[float, float]:
    if node.parent:
        return node.x, node.y
    return node.x + node.width / 2, node.y + node.height / 2


def _edge(edge, nodes: dict) -> str:
    """Orthogonal: across the gap between the boxes, or around below both when the target
    lies behind the source; the label just after the source."""
    source, target = nodes[edge.source], nodes[edge.target]
    if not source.parent and not target.parent:
        return _box_edge(edge, source, target)
    (x1, y1), (x2, y2) = _anchor(source), _anchor(target)
    out1 = -STUB if source.side == "left" else STUB
    out2 = -STUB if target.side != "right" else STUB
    if x1 + out1 <= x2 + out2 - STUB or not (source.parent and target.parent):
        middle = (x1 + x2) / 2 if x1 < x2 else x1 + out1
        points = [(x1, y1), (middle, y1), (middle, y2), (x2, y2)]
    else:
        below = max(_bottom(source, nodes), _bottom(target, nodes)) + STUB
        points = [(x1, y1), (x1 + out1, y1), (x1 + out1, below), (x2 + out2, below),
                  (x2 + out2, y2), (x2, y2)]
    arrow = ' marker-end="url(#arrow)"' if edge.directed else ""
    text = " ".join(f"{_n(x)},{_n(y)}" for x, y in points)
    line = (f'<polyline points="{text}" fill="none" stroke="currentColor" '
            f'stroke-width="1.2"{arrow}/>')
    if not edge.label:
        return line
    x = x1 + 6 if out1 > 0 else x1 - 6
    anchor = "" if out1 > 0 else ' text-anchor="end"'
    return line + _text(x, y1 - 4, edge.label, ' fill-opacity="0.8"' + anchor, 10)


def _box_edge(edge, source: Node, target: Node) -> str:
    """Between two boxes (blocks: each in a row of its own): out of the source's right side,
    down a lane just before the target's column, into the target's left side."""
    x1, y1 = source.x + source.width, source.y + source.height / 2
    x2, y2 = target.x, target.y + target.height / 2
    lane = max(x2 - STUB, x1 + STUB / 2)
    points = [(x1, y1), (lane, y1), (lane, y2), (x2, y2)]
    arrow = ' marker-end="url(#arrow)"' if edge.directed else ""
    text = " ".join(f"{_n(x)},{_n(y)}" for x, y in points)
    line = (f'<polyline points="{text}" fill="none" stroke="currentColor" '
            f'stroke-width="1.2"{arrow}/>')
    return line + (_text(x1 + 4, y1 - 4, edge.label, ' fill-opacity="0.8"', 10)
                   if edge.label else "")


def _style(node: Node) -> str:
    """The mark that sets how a box is drawn: the last of its marks that has a style."""
    found = [mark for mark in node.marks if mark in MARKS]
    return found[-1] if found else ""


def _bottom(node: Node, nodes: dict) -> float:
    box = nodes.get(node.parent, node)
    return box.y + box.height


def _legend(mark: str, x: float, y: float) -> list[str]:
    sample = Node("legend", "", "legend", marks=(mark,), x=x, y=y - 12, width=24, height=14)
    return [_box(sample)[0], _text(x + 32, y, LEGEND[mark])]


def _matrix(graph: Graph) -> str:
    """Rows (equations) by columns (variables); a cell is drawn where an edge joins them,
    darker for an edge of kind ``der`` (the variable appears differentiated)."""
    rows = [node for node in graph.nodes if node.kind == "row"]
    columns = [node for node in graph.nodes if node.kind == "column"]
    row_of = {node.id: k for k, node in enumerate(rows)}
    column_of = {node.id: k for k, node in enumerate(columns)}
    label_width = max((len(node.label) for node in rows), default=0) * CHAR_WIDTH + PAD
    header = max((len(node.label) for node in columns), default=0) * CHAR_WIDTH * 0.75 + PAD
    left, top = label_width, header
    body = []
    for k, node in enumerate(rows):
        y = top + k * CELL
        body.append(_text(left - PAD / 2, y + CELL - 3, node.label, ' text-anchor="end"'))
    for k, node in enumerate(columns):
        x = left + k * CELL + CELL - 3
        body.append(f'<text x="{_n(x)}" y="{_n(top - 4)}" {FONT} font-size="12" '
                    'fill="currentColor" '
                    f'transform="rotate(-60 {_n(x)} {_n(top - 4)})">{escape(node.label)}</text>')
    width, height = len(columns) * CELL, len(rows) * CELL
    body.append(f'<rect x="{_n(left)}" y="{_n(top)}" width="{_n(width)}" height="{_n(height)}" '
                'fill="currentColor" fill-opacity="0.04" stroke="currentColor"/>')
    for edge in graph.edges:
        if edge.source in row_of and edge.target in column_of:
            opacity = "0.85" if edge.kind == "der" else "0.45"
            x = left + column_of[edge.target] * CELL
            y = top + row_of[edge.source] * CELL
            body.append(f'<rect x="{_n(x + 1)}" y="{_n(y + 1)}" width="{_n(CELL - 2)}" '
                        f'height="{_n(CELL - 2)}" fill="currentColor" '
                        f'fill-opacity="{opacity}"><title>{escape(edge.label)}</title></rect>')
    bottom = top + height + 30
    body.append(_text(0, bottom, "cell: the equation (row) reads the variable (column); "
                                 "dark: differentiated", ' fill-opacity="0.8"'))
    right = max(left + width, 0.0) + PAD
    return _document(graph.title, max(right, 480.0), bottom, body)


__all__ = ["to_svg"]
