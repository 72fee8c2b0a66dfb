"""The stepping order: algebraic loops and the Gauss-Seidel sequence, with networkx.

Input: the number of components, connections as ``(source component, source variable, target
component, target variable)`` and, per component, which inputs each output depends on
directly (the FMUs' ModelStructure). Output: stages in stepping order, each a tuple of
component indices and whether it is an algebraic loop (to be iterated).
"""
from __future__ import annotations

from typing import Iterable, Mapping

import networkx as nx

Link = tuple[int, str, int, str]


def algebraic_loops(links: Iterable[Link], feedthrough: Mapping[int, Mapping[str, tuple[str, ...]]]
                    ) -> list[tuple[frozenset[int], tuple[Link, ...]]]:
    """Groups of components joined by cycles of direct feedthrough, with the links on them.

    The graph's nodes are ``(component, variable)``: a connection is an edge from an output
    to an input, and inside an FMU each input is an edge to every output depending on it.
    Cycles of that graph are algebraic loops; loops sharing a component form one group.
    """
    links = tuple(links)
    graph = nx.DiGraph()
    for source, output, target, input_name in links:
        graph.add_edge((source, output), (target, input_name))
    for component, outputs in feedthrough.items():
        for output, inputs in outputs.items():
            for input_name in inputs:
                if graph.has_node((component, input_name)):
                    graph.add_edge((component, input_name), (component, output))
    groups = nx.Graph()
    for scc in nx.strongly_connected_components(graph):
        node = next(iter(scc))
        if len(scc) > 1 or graph.has_edge(node, node):
            members = sorted({component for component, _ in scc})
            groups.add_nodes_from(members)
            groups.add_edges_from(zip(members, members[1:]))
    result = []
    for members in sorted(nx.connected_components(groups), key=min):
        on_loop = tuple(link for link in links if link[0] in members and link[2] in members)
        result.append((frozenset(members), on_loop))
    return result


def stages(n: int, links: Iterable[Link], feedthrough: Mapping[int, Mapping[str, tuple[str, ...]]],
           loops: list[frozenset[int]]) -> tuple[tuple[tuple[int, ...], bool], ...]:
    """Stages in Gauss-Seidel order: loop groups become one stage each.

    Components are ordered by a topological sort of the connection graph (declaration order
    breaks ties); within a feedback cycle that is not algebraic, a component whose input feeds
    through to an output steps after the component feeding it.
    """
    group_of = {c: (min(group), True) for group in loops for c in group}
    node = {c: group_of.get(c, (c, False)) for c in range(n)}
    graph, direct = nx.DiGraph(), nx.DiGraph()
    graph.add_nodes_from(set(node.values()))
    direct.add_nodes_from(set(node.values()))
    for source, _, target, input_name in links:
        a, b = node[source], node[target]
        if a == b:
            continue
        graph.add_edge(a, b)
        if any(input_name in inputs for inputs in feedthrough.get(target, {}).values()):
            direct.add_edge(a, b)
    condensed = nx.condensation(graph)
    ordered = []
    for scc in nx.lexicographical_topological_sort(
            condensed, key=lambda s: min(condensed.nodes[s]["members"])):
        members = condensed.nodes[scc]["members"]
        inner = nx.condensation(direct.subgraph(members))
        for part in nx.lexicographical_topological_sort(
                inner, key=lambda s: min(inner.nodes[s]["members"])):
            ordered += sorted(inner.nodes[part]["members"])
    groups = {min(group): tuple(sorted(group)) for group in loops}
    return tuple((groups[key], True) if is_loop else ((key,), False) for key, is_loop in ordered)
