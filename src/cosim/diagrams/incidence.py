"""The incidence matrix of a flat model: which equation reads which unknown.

Input: a ``compiler.flat.FlatModel``. Output: a ``Graph`` drawn as a matrix: a row per
equation (an if- or when-equation, an algorithm: one row), a column per unknown (continuous
and discrete variables that are not inputs), an edge per incidence (kind ``der`` where the
variable appears differentiated).
"""
from __future__ import annotations

from compiler import flat
from compiler.flatten.walk import nodes as walk
from cosim.diagrams.graph import Edge, Graph, Node, identifier


def incidence(model: flat.FlatModel) -> Graph:
    unknowns = [v.name for v in model.variables
                if v.variability in ("continuous", "discrete") and v.causality != "input"]
    taken: set = set()
    columns = {name: identifier(f"v {name}", taken) for name in unknowns}
    rows, edges = [], []
    items = list(model.equations) + list(model.algorithms)
    for number, item in enumerate(items, start=1):
        row = identifier(f"e {number}", taken)
        rows.append(Node(row, _row_label(number, item), "row", (_place(item),)))
        plain, derived = _reads(item)
        for name in unknowns:
            if name in plain or name in derived:
                kind = "der" if name in derived else "reads"
                edges.append(Edge(row, columns[name], f"equation {number}: {name}", kind))
    column_nodes = [Node(columns[name], name, "column") for name in unknowns]
    return Graph("incidence", f"{model.name}: incidence ({len(rows)} equations, "
                 f"{len(unknowns)} unknowns)", tuple(rows + column_nodes), tuple(edges),
                 matrix=True)


def _reads(item) -> tuple[set, set]:
    """The variables an equation reads, and those it reads under ``der``."""
    plain, derived = set(), set()
    for node in walk(item):
        if type(node) is flat.Var:
            plain.add(node.name)
        elif type(node) is flat.Call and node.name == "der":
            derived.update(inner.name for inner in walk(node.args) if type(inner) is flat.Var)
    return plain - derived, derived


def _row_label(number: int, item) -> str:
    kind = {flat.Equation: "", flat.IfEquation: " if", flat.WhenEquation: " when",
            flat.Algorithm: " algorithm"}.get(type(item), "")
    return f"{number}{kind}"


def _place(item) -> str:
    span = getattr(item, "span", None)
    return f"{span.line}:{span.col}" if span is not None else ""
