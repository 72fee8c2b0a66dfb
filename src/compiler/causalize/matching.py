"""Matching of equations to unknowns and block-lower-triangular sorting (networkx).

Input: a bipartite incidence (equation k may be solved for the unknowns ``incidence[k]``) and
a dependency incidence. Output: a maximum matching (Hopcroft-Karp), the strongly connected
components of the dependency graph in dependency order, and the error that names the
equations and unknowns of a structurally singular part (Dulmage-Mendelsohn).
"""
from __future__ import annotations

import networkx as nx
from networkx.algorithms import bipartite

from compiler.causalize.errors import CausalizeError
from compiler.errors import listed

SHOWN_EQUATIONS = 2  # in a message; all of them in its details


def maximum_matching(incidence: list, n_unknowns: int) -> tuple[list[int], list[int]]:
    """``(unknown_of, equation_of)``: the unknown matched to each equation and the equation
    matched to each unknown (-1 where unmatched). ``incidence[k]`` lists unknown indices."""
    n_equations = len(incidence)
    graph = nx.Graph()
    graph.add_nodes_from(range(n_equations))
    graph.add_nodes_from(range(n_equations, n_equations + n_unknowns))
    graph.add_edges_from((k, n_equations + j) for k, row in enumerate(incidence) for j in row)
    matched = bipartite.hopcroft_karp_matching(graph, top_nodes=range(n_equations))
    unknown_of = [-1] * n_equations
    equation_of = [-1] * n_unknowns
    for k in range(n_equations):
        partner = matched.get(k)
        if partner is not None:
            unknown_of[k] = partner - n_equations
            equation_of[partner - n_equations] = k
    return unknown_of, equation_of


def sorted_components(dependencies: list) -> list[list[int]]:
    """Strongly connected components of the graph k -> dependencies[k] (k reads what the
    equations in ``dependencies[k]`` compute), each listed before the ones that read it."""
    n = len(dependencies)
    graph = nx.DiGraph()
    graph.add_nodes_from(range(n))
    graph.add_edges_from((source, k) for k, row in enumerate(dependencies) for source in row
                         if source != k)
    components = list(nx.strongly_connected_components(graph))
    condensed = nx.condensation(graph, components)
    return [sorted(components[c]) for c in nx.topological_sort(condensed)]


def singular_error(incidence: list, unknown_of: list, equation_of: list, describe_equation,
                   unknown_names: list, unknown_spans=None,
                   what: str = "system") -> CausalizeError:
    """The error for an imperfect matching: the over-determined part (equations reachable
    from an unmatched equation by alternating paths) if there is one, else the
    under-determined part (from an unmatched unknown). ``describe_equation(k)`` gives
    ``(span, text)``; ``what`` is ``system`` or ``initialization``. The part is the same
    whatever maximum matching was found (Dulmage-Mendelsohn), and so is the location: the
    first of its equations or unknowns in the source."""
    unmatched = [k for k, j in enumerate(unknown_of) if j < 0]
    if unmatched:
        equations, unknowns = _reachable_from_equations(unmatched, incidence, equation_of)
        names = [unknown_names[j] for j in unknowns]
        head = "over-determined initialization" if what == "initialization" \
            else "structurally singular system"

        def over(names_text, equations_text):
            if names:
                return (f"{head}: {_count(len(equations), 'equation')} for "
                        f"{_count(len(names), 'unknown')} ({names_text}): {equations_text}")
            return f"{head}: no unknown is left for {equations_text}"
        return _error(over, names, _texts(describe_equation, equations),
                      _first([describe_equation(k)[0] for k in equations]))
    free = [j for j, k in enumerate(equation_of) if k < 0]
    equations, unknowns = _reachable_from_unknowns(free, incidence, unknown_of)
    names = [unknown_names[j] for j in unknowns]
    spans = [unknown_spans[j] for j in unknowns] if unknown_spans else []

    def under(names_text, equations_text):
        detail = f" ({_count(len(equations), 'equation')} for them: {equations_text})" \
            if equations else ""
        if what == "initialization":
            return (f"under-determined initialization: nothing determines {names_text}"
                    f"{detail}; give start values with fixed = true or initial equations")
        return (f"structurally singular system: {_count(len(names), 'unknown')} "
                f"({names_text}) but too few equations{detail}")
    return _error(under, names, _texts(describe_equation, equations), _first(spans))


def _error(message, names, texts, span) -> CausalizeError:
    """The error whose ``message(names_text, equations_text)`` lists the first few names and
    equations (places by file name), with every one of them in its details."""
    short, full = texts
    return CausalizeError(message(listed(names), listed(short, SHOWN_EQUATIONS, "; ")), span,
                          message(", ".join(names), "; ".join(full)))


def _texts(describe_equation, equations) -> tuple[list[str], list[str]]:
    """The equations in source order, each after its place: in short (the file's name) and
    in full (its path)."""
    described = sorted((describe_equation(k) for k in equations), key=lambda item: _key(item[0]))
    short = [f"{span.file.rsplit('/', 1)[-1]}:{span.line}:{span.col}: {text}" if span else text
             for span, text in described]
    return short, [f"{span}: {text}" if span else text for span, text in described]


def _key(span):
    return (1, "", 0, 0) if span is None else (0, span.file, span.line, span.col)


def _first(spans):
    known = [span for span in spans if span is not None]
    return min(known, key=_key) if known else None


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}{'' if number == 1 else 's'}"


def _reachable_from_equations(start, incidence, equation_of):
    """Equations and unknowns reachable from the equations ``start`` by alternating paths."""
    return _alternating(start, incidence, equation_of)


def _reachable_from_unknowns(start, incidence, unknown_of):
    """Equations and unknowns reachable from the unknowns ``start`` by alternating paths."""
    users: dict[int, list[int]] = {}
    for k, row in enumerate(incidence):
        for j in row:
            users.setdefault(j, []).append(k)
    unknowns, equations = _alternating(start, users, unknown_of)
    return equations, unknowns


def _alternating(start, edges, partner):
    """Breadth first from ``start`` over ``edges`` (one side to the other), then back over
    the matching ``partner``; returns both sides reached, sorted."""
    near, far = list(start), []
    seen_near, seen_far = set(start), set()
    for node in near:  # grows while iterating
        for other in (edges[node] if isinstance(edges, list) else edges.get(node, ())):
            if other in seen_far:
                continue
            seen_far.add(other)
            far.append(other)
            back = partner[other]
            if back >= 0 and back not in seen_near:
                seen_near.add(back)
                near.append(back)
    return sorted(near), sorted(far)
