"""The order in which a function's outputs and protected variables get their defaults.

Input: a ``flat.Function``. Output: its outputs and protected variables ordered so that each
one's sizes and default read only inputs and variables before it. Modelica does not order
declarations (MLS 12.4.4): ``Matrices.LAPACK.dgelsy_vec``'s output ``x`` has a default that
reads the protected ``nrow`` declared after it.
"""
from __future__ import annotations

import networkx

from compiler import flat
from compiler.flatten.walk import nodes


def declaration_order(function: flat.Function) -> list:
    """The outputs and protected variables of ``function``, each after those its sizes and
    default read; in declaration order where nothing forces another (or in a cycle)."""
    items = list(function.outputs + function.locals)
    position = {item.name: k for k, item in enumerate(items)}
    graph = networkx.DiGraph()
    graph.add_nodes_from(position)
    for item in items:
        for node in nodes((item.dims, item.default)):
            if type(node) is flat.Var and node.name in position and node.name != item.name:
                graph.add_edge(node.name, item.name)
    try:
        order = networkx.lexicographical_topological_sort(graph, key=position.get)
        return [items[position[name]] for name in order]
    except networkx.NetworkXUnfeasible:
        return items
