"""A deterministic layered layout: boxes in columns by the longest path from the sources,
ordered in each column by the barycentres of their neighbours, ports on the box sides.

Input: a ``Graph`` whose boxes may already have positions (``x``, ``y``: kept). Output: the
same graph with every box and port placed (SVG pixels, y down). The same graph always gives
the same positions: every choice is made in the order of the nodes and edges.
"""
from __future__ import annotations

from dataclasses import replace

from cosim.diagrams.graph import Graph, Node

CHAR_WIDTH = 7.0     # px per character of the 12 px sans-serif labels (an upper estimate)
LINE_HEIGHT = 16.0
PAD = 10.0
PORT = 8.0           # side of a port square
PORT_ROW = 20.0      # vertical distance of the ports on one side
COLUMN_GAP = 90.0
ROW_GAP = 40.0
SWEEPS = 4


def header_height(node: Node) -> float:
    """The height of a box's text: its label and detail lines."""
    return (1 + len(node.detail)) * LINE_HEIGHT + PAD


def box_size(node: Node, left=(), right=()) -> tuple[float, float]:
    """Room for the text, then a row per port below it, the labels of the ports inside the
    box beside them (``left``, ``right``: the labels of the ports on each side)."""
    lines = (node.label,) + node.detail
    width = max(len(line) for line in lines) * CHAR_WIDTH + 2 * PAD
    beside = max((len(text) for text in left), default=0) + \
        max((len(text) for text in right), default=0)
    width = max(width, beside * CHAR_WIDTH + 3 * PAD + 2 * PORT)
    rows = max(len(left), len(right))
    return max(width, 60.0), header_height(node) + rows * PORT_ROW + PAD


def layout(graph: Graph) -> Graph:
    """``graph`` with every node placed (boxes already placed keep their place)."""
    boxes = [box for box in graph.boxes()]
    owner = {node.id: node.parent or node.id for node in graph.nodes}
    sized = {}
    for box in boxes:
        ports = graph.ports(box.id)
        width, height = box_size(box, [p.label for p in ports if p.side != "right"],
                                 [p.label for p in ports if p.side == "right"])
        sized[box.id] = replace(box, width=max(box.width, width), height=max(box.height, height))
    free = [box.id for box in boxes if box.x is None]
    links = _box_links(graph, owner)
    columns = _columns(free, links)
    placed = {key: node for key, node in sized.items() if node.x is not None}
    top = max((node.y + node.height for node in placed.values()), default=-ROW_GAP) + ROW_GAP
    left = min((node.x for node in placed.values()), default=0.0)
    x = left
    for column in _ordered(columns, links):
        width = max(sized[key].width for key in column)
        y = top
        for key in column:
            sized[key] = replace(sized[key], x=x, y=y)
            y += sized[key].height + ROW_GAP
        x += width + COLUMN_GAP
    nodes = []
    for node in graph.nodes:
        nodes.append(sized[node.id] if not node.parent else _port(graph, node, sized))
    return replace(graph, nodes=tuple(nodes))


def _box_links(graph: Graph, owner: dict) -> list[tuple[str, str]]:
    links = []
    for edge in graph.edges:
        a, b = owner.get(edge.source), owner.get(edge.target)
        if a is not None and b is not None and a != b and (a, b) not in links:
            links.append((a, b))
    return links


def _columns(free: list[str], links: list) -> list[list[str]]:
    """Longest-path layers over the links between free boxes, cycles broken at the edges
    that point back in the order of the boxes."""
    rank = {key: n for n, key in enumerate(free)}
    forward = [(a, b) for a, b in links if a in rank and b in rank]
    forward = [(a, b) if rank[a] < rank[b] else (b, a) for a, b in forward if a != b]
    layer = {key: 0 for key in free}
    for _ in free:  # relax in node order: at most len(free) rounds
        changed = False
        for a, b in forward:
            if layer[b] < layer[a] + 1:
                layer[b] = layer[a] + 1
                changed = True
        if not changed:
            break
    count = max(layer.values(), default=-1) + 1
    return [[key for key in free if layer[key] == n] for n in range(count)]


def _ordered(columns: list[list[str]], links: list) -> list[list[str]]:
    """Each column sorted by the mean position of its neighbours in the column before (then
    after), a few sweeps; ties keep the node order."""
    neighbours: dict = {}
    for a, b in links:
        neighbours.setdefault(a, []).append(b)
        neighbours.setdefault(b, []).append(a)
    columns = [list(column) for column in columns]
    for sweep in range(SWEEPS):
        indices = range(1, len(columns)) if sweep % 2 == 0 else range(len(columns) - 2, -1, -1)
        for n in indices:
            other = columns[n - 1] if sweep % 2 == 0 else columns[n + 1]
            position = {key: k for k, key in enumerate(other)}
            columns[n] = sorted(columns[n], key=lambda key: (_mean(
                [position[m] for m in neighbours.get(key, ()) if m in position],
                columns[n].index(key)), columns[n].index(key)))
    return columns


def _mean(values: list, default: float) -> float:
    return sum(values) / len(values) if values else float(default)


def _port(graph: Graph, port: Node, boxes: dict) -> Node:
    """A port on the left or right side of its box, one row each below the box's text."""
    box = boxes[port.parent]
    side = "right" if port.side == "right" else "left"
    siblings = [item for item in graph.ports(port.parent)
                if ("right" if item.side == "right" else "left") == side]
    row = siblings.index(port)
    y = box.y + header_height(box) + (row + 0.5) * PORT_ROW
    return replace(port, side=side, x=box.x if side == "left" else box.x + box.width, y=y)
