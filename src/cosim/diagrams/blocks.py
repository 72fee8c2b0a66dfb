"""The blocks of a causalized system in BLT order: what each computes, which earlier blocks
it reads, and which are algebraic loops (linear, torn and solved by Newton, or mixed: through
discrete variables, iterated on them).

Input: a ``compiler.system.System``. Output: a ``Graph``: a box per block (top to bottom in
BLT order, each in the column after the deepest block it reads), an edge from the block that
computes a variable to each later block reading it.
"""
from __future__ import annotations

from dataclasses import replace

from compiler.symbolic import to_text
from compiler.causalize.sort import inputs as block_inputs, outputs as block_outputs
from compiler.system import AlgorithmBlock, Assignment, LinearBlock, MixedBlock, NewtonBlock, System
from cosim.diagrams.graph import Edge, Graph, Node, identifier
from cosim.diagrams.layout import COLUMN_GAP, box_size

MAX_TEXT = 48
ROW = 14.0


def blocks(system: System) -> Graph:
    taken: set = set()
    computed_by: dict[str, str] = {}
    states = set(system.derivatives)
    nodes, edges, depth, order = [], [], {}, {}
    for number, block in enumerate(system.blocks, start=1):
        box = identifier(f"block {number}", taken)
        order[box] = number
        outputs, reads = _io(block)
        sources = sorted({computed_by[name] for name in reads if name in computed_by},
                         key=order.get)
        for source in sources:
            edges.append(Edge(source, box, "", "dependency"))
        depth[box] = max((depth[source] + 1 for source in sources), default=0)
        marks = (("state",) if set(outputs) & states else ()) + _marks(block)
        nodes.append(Node(box, _title(number, block, number <= system.n_derivative_blocks),
                          "block", _detail(block), marks=marks))
        for name in outputs:
            computed_by[name] = box
    return Graph("blocks", f"{system.name}: {len(system.blocks)} blocks in BLT order",
                 tuple(_placed(nodes, depth)), tuple(edges))


def _placed(nodes: list[Node], depth: dict) -> list[Node]:
    """Rows in BLT order, columns by dependency depth (the layout keeps given places)."""
    widths: dict[int, float] = {}
    sized = []
    for node in nodes:
        width, height = box_size(node)
        widths[depth[node.id]] = max(widths.get(depth[node.id], 0.0), width)
        sized.append(replace(node, width=width, height=height))
    lefts, x = {}, 0.0
    for column in sorted(widths):
        lefts[column] = x
        x += widths[column] + COLUMN_GAP / 2
    placed, y = [], 0.0
    for node in sized:
        placed.append(replace(node, x=lefts[depth[node.id]], y=y))
        y += node.height + ROW
    return placed


def _io(block) -> tuple[tuple[str, ...], set]:
    kind = type(block)
    if kind is Assignment:
        return (block.var,), set(block.value.variables())
    if kind is AlgorithmBlock:
        return tuple(block.outputs), set(block.inputs)
    if kind is MixedBlock:
        return block_outputs(block), set(block_inputs(block))
    items = block.equations if kind is LinearBlock else block.inner + block.residuals
    reads = set()
    for item in items:
        reads.update(item.value.variables() if type(item) is Assignment else
                     item.expr.variables())
    if kind is LinearBlock:
        reads.update(name for rhs in block.rhs for name in rhs.variables())
    outputs = tuple(block.vars) + (tuple(item.var for item in block.inner)
                                   if kind is NewtonBlock else ())
    return outputs, reads - set(outputs)


def _marks(block) -> tuple[str, ...]:
    if type(block) is LinearBlock:
        return ("loop", "linear")
    if type(block) is NewtonBlock:
        return ("loop", "torn")
    if type(block) is MixedBlock:
        return ("loop", "mixed")
    return ()


def _title(number: int, block, for_derivatives: bool) -> str:
    need = "" if for_derivatives else " (events/outputs)"
    kind = type(block)
    if kind is Assignment:
        return f"{number}: {block.var}{need}"
    if kind is AlgorithmBlock:
        return f"{number}: algorithm{need}"
    if kind is MixedBlock:
        return f"{number}: mixed loop, {len(block_outputs(block))} unknowns{need}"
    loop = "linear loop" if kind is LinearBlock else "torn loop"
    return f"{number}: {loop}, {len(block.vars)} unknowns{need}"


def _short(text: str) -> str:
    return text if len(text) <= MAX_TEXT else text[:MAX_TEXT - 3] + "..."


def _detail(block) -> tuple[str, ...]:
    kind = type(block)
    if kind is Assignment:
        return (_short(f":= {to_text(block.value)}"),) + _at(block.span)
    if kind is AlgorithmBlock:
        return (_short(", ".join(block.outputs)),) + _at(block.span)
    if kind is MixedBlock:
        return (_short("iterating on the discrete " + ", ".join(block.discrete)),) + tuple(
            _short(", ".join(block_outputs(item))) for item in block.continuous[:2] + block.updates[:2])
    if kind is LinearBlock:
        return (_short("for " + ", ".join(block.vars)),) + tuple(
            _short(f"0 = {to_text(item.expr)}") for item in block.equations[:4])
    return (_short("iterating on " + ", ".join(block.vars)),) + tuple(
        _short(f"{item.var} := {to_text(item.value)}") for item in block.inner[:2]) + tuple(
        _short(f"0 = {to_text(item.expr)}") for item in block.residuals[:2])


def _at(span) -> tuple[str, ...]:
    return (f"at {span}",) if span is not None else ()
