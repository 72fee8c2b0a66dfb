"""The ``System`` value from the final ``Dae`` and its blocks.

Input: the index-reduced ``Dae``, the simulation and initialization blocks. Output: a
``compiler.system.System``: variables by role in a fixed order (states, derivatives,
algebraic, discrete, inputs, parameters in dependency order), aliases, the pattern of
d der(x)/dx, and everything else carried over.
"""
from __future__ import annotations

import networkx as nx

from compiler.causalize.dae import CONSTANT, CONTINUOUS, DISCRETE, INPUT, PARAMETER, Dae, der_name
from compiler.causalize.sort import inputs, outputs
from compiler.symbolic.convert import ConversionError, Converter
from compiler.symbolic.expr import Array, Call, Const, Op, Var
from compiler.system import Alias, Assignment, LinearBlock, NewtonBlock, System, Variable

_ORDER = {"state": 0, "derivative": 1, "algebraic": 2, "discrete": 3, "input": 4,
          "parameter": 5, "constant": 5}


def assemble(dae: Dae, simulation: tuple, initial: list) -> System:
    blocks, n_derivative, n_indicator = simulation
    states = dae.states
    state_set = set(states)
    model = dae.flat
    converter = Converter({item.name: item.type for item in model.variables})
    variables = [_variable(item, _kind(item, state_set), converter) for item in dae.variables]
    position = {name: k for k, name in enumerate(states)}
    variables.sort(key=lambda item: (_ORDER[item.kind], item.hidden,
                                     position.get(item.name, position.get(item.derivative_of,
                                                                          0))))
    variables = _parameters_sorted(variables)
    aliases = tuple(Alias(_variable(item.variable, _alias_kind(item.variable), converter),
                          item.of, item.negated, item.value) for item in dae.aliases)
    derivatives = tuple(der_name(name) for name in states)
    return System(
        dae.name, tuple(variables), tuple(states), derivatives, aliases, tuple(blocks),
        n_derivative, n_indicator, tuple(initial), dae.relations, dae.samples, dae.clauses,
        dae.asserts, jacobian_pattern(blocks[:n_derivative], states), model.functions,
        model.enumerations, model.experiment, model.description, model.span,
        model.external_objects, delays=dae.delays, spatials=dae.spatials)


def _kind(item, states: set) -> str:
    if item.kind == CONTINUOUS:
        if item.name in states:
            return "state"
        return "derivative" if item.derivative_of in states else "algebraic"
    return {DISCRETE: "discrete", INPUT: "input", PARAMETER: "parameter",
            CONSTANT: "constant"}[item.kind]


def _alias_kind(item) -> str:
    return "algebraic" if item.kind == CONTINUOUS else _kind(item, set())


def _variable(item, kind: str, converter) -> Variable:
    declaration = item.declaration
    if declaration is None:
        return Variable(item.name, item.type, kind, variability="discrete" if item.hidden
                        else "continuous", binding=item.binding, start=item.start, fixed=item.fixed,
                        hidden=item.hidden, derivative_of=item.derivative_of, span=item.span)

    def attribute(expr):
        if expr is None:
            return None
        try:
            return converter(expr, False)
        except ConversionError:
            return None
    return Variable(
        item.name, item.type, kind, declaration.causality, declaration.variability,
        item.binding, item.start, item.fixed, attribute(declaration.nominal),
        attribute(declaration.min), attribute(declaration.max), declaration.unit,
        declaration.display_unit, declaration.quantity, declaration.description,
        item.state_select, declaration.protected, item.hidden, item.derivative_of,
        declaration.structural, item.span, declaration.final, declaration.evaluate)


def _parameters_sorted(variables: list) -> list:
    """Parameters and constants after everything else, each after those its binding reads."""
    rest = [item for item in variables if item.kind not in ("parameter", "constant")]
    parameters = {item.name: item for item in variables if item.kind in ("parameter", "constant")}
    graph = nx.DiGraph()
    graph.add_nodes_from(parameters)
    for name, item in parameters.items():
        for expr in (item.binding, item.start):
            if expr is not None:
                graph.add_edges_from((other, name) for other in expr.variables()
                                     if other in parameters and other != name)
    try:
        order = list(nx.lexicographical_topological_sort(graph))
    except nx.NetworkXUnfeasible:
        order = _sorted_by_taken_branches(parameters)
    return rest + [parameters[name] for name in order]


def _sorted_by_taken_branches(parameters: dict) -> list:
    """Dependency order where bindings read each other only in if-branches that flags bound
    to literals rule out (Modelica.Fluid's T_start and h_start); declaration order where
    even the branches taken make a cycle."""
    graph = nx.DiGraph()
    graph.add_nodes_from(parameters)
    for name, item in parameters.items():
        for expr in (item.binding, item.start):
            if expr is not None:
                graph.add_edges_from((other, name) for other in _taken_reads(expr, parameters)
                                     if other in parameters and other != name)
    try:
        return list(nx.lexicographical_topological_sort(graph))
    except nx.NetworkXUnfeasible:
        return list(parameters)


def _taken_reads(expr, parameters: dict) -> frozenset:
    """The variables ``expr`` reads, in the branches its known if-conditions take."""
    if type(expr) is Op and expr.op == "if":
        condition = _known_flag(expr.args[0], parameters)
        if condition is not None:
            return _taken_reads(expr.args[1 if condition else 2], parameters)
    if type(expr) in (Op, Call, Array) and not (type(expr) is Op and expr.op == "pre"):
        children = expr.elements if type(expr) is Array else expr.args
        return frozenset().union(*(_taken_reads(arg, parameters) for arg in children))
    return expr.variables()


def _known_flag(expr, parameters: dict, depth: int = 0):
    """A Boolean condition's value from literals and parameters bound to them; else None."""
    if type(expr) is Const and isinstance(expr.value, bool):
        return expr.value
    if type(expr) is Var and expr.name in parameters and depth < 50:
        item = parameters[expr.name]   # its value: the binding, else the start value
        value = item.binding if item.binding is not None else item.start
        return None if value is None else _known_flag(value, parameters, depth + 1)
    if type(expr) is Op and expr.op == "not":
        value = _known_flag(expr.args[0], parameters, depth)
        return None if value is None else not value
    return None


def _reads(item, expr):
    """The variables an assignment's or residual's value depends on: those with a non-zero
    partial, or, where the partials are not given (a user function without derivative),
    every variable it reads (else the integrator's Jacobian misses these columns)."""
    return [name for name, _ in item.partials] if item.has_partials else expr.variables()


def jacobian_pattern(blocks, states) -> tuple[tuple[int, ...], ...]:
    """For each state j, the ascending k whose derivative der(states[k]) depends on it."""
    depends: dict[str, frozenset] = {name: frozenset((j,)) for j, name in enumerate(states)}
    empty = frozenset()
    for block in blocks:
        if type(block) is Assignment:
            reads = _reads(block, block.value)
            depends[block.var] = empty.union(*(depends.get(name, empty) for name in reads))
            continue
        if type(block) is LinearBlock:
            reads = {name for item in block.equations for name in _reads(item, item.expr)}
        elif type(block) is NewtonBlock:
            reads = {name for item in block.residuals for name in _reads(item, item.expr)} | \
                {name for item in block.inner for name in _reads(item, item.value)}
        else:
            reads = inputs(block)
        combined = empty.union(*(depends.get(name, empty) for name in reads))
        for name in outputs(block):
            depends[name] = combined
    rows: list[list[int]] = [[] for _ in states]
    for k, name in enumerate(states):
        for j in depends.get(der_name(name), empty):
            rows[j].append(k)
    return tuple(tuple(sorted(row)) for row in rows)
