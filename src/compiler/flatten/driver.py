"""``flatten(library, name) -> FlatModel``: the flattening pass from instance tree to flat model.

Input: a ``Library`` and the full name of a model (or block or class). Output: a
``flat.FlatModel``: every component instantiated, every equation and algorithm flattened,
connections turned into equations, functions collected, the model's balance checked.
"""
from __future__ import annotations

import dataclasses
import itertools

from compiler import flat
from compiler.flatten.algorithms import flatten_algorithm
from compiler.flatten.balance import check_balance
from compiler.flatten.connections import connection_equations, is_overdetermined
from compiler.flatten.context import Context, Env
from compiler.flatten.equations import Collector, Where, count_equations, flatten_section
from compiler.flatten.errors import FlattenError
from compiler.flatten.exprtypes import check_same_type
from compiler.flatten.instances import REMOVED, Instance
from compiler.flatten.rules import connections as connection_rules
from compiler.flatten.rules import operators as operator_rules
from compiler.flatten.rules.connections import CONNECTOR_KINDS
from compiler.flatten.rules import variability as variability_rules
from compiler.flatten.streams import expand_operators, outside_equations, stream_sets
from compiler.flatten.translate import variable_binding
from compiler.flatten.variables import annotation_info, flat_variable
from compiler.flatten.walk import nodes
from compiler.lang.gcpause import paused_gc


_TOP_KINDS = frozenset({"model", "block", "class"})


def flatten(library, name: str) -> flat.FlatModel:
    """Flatten the class ``name`` of ``library``.

    Raises
    ------
    FlattenError
        The first problem found, located at its source.
    """
    with paused_gc():
        try:
            return _flatten(library, name)
        except RecursionError:
            entry = library.lookup(name)
            span = entry.definition.span if entry is not None else None
            raise FlattenError(f"{name} nests too deeply to flatten (a class that contains or "
                               "extends itself through modifications?)", span) from None


def _flatten(library, name: str) -> flat.FlatModel:
    ctx = Context(library)
    entry, definition, top = _top_instance(ctx, library, name)
    instances, records = _walk(top)
    # (connectors outside expandable ones, which connections do not change: checked before
    # the connection graph, which refuses overdetermined types it does not support)
    for instance in instances:
        if instance.info.kind == "connector" and (
                instance.parent is None or instance.parent.info.kind not in CONNECTOR_KINDS):
            connection_rules.check_connector_balance(instance)
    ctx.connections.gather(instances, lambda info: is_overdetermined(ctx, info))
    if ctx.connections.expanded:
        # connections added members to expandable connectors and removed unused ones
        instances, records = _walk(top)
        kept = {record.name for record in records}
        ctx.variables = {name: record for name, record in ctx.variables.items()
                         if name in kept}
    collector = Collector()
    for instance in instances:
        _sections(instance, collector)
    bindings, binding_owners = _binding_equations(records, ctx)
    connected, connect_owners, stream_groups = connection_equations(
        ctx.connections, [record for record in records if record.flow])
    streams = stream_sets(stream_groups, ctx.variables, ctx)
    outside, outside_owners = outside_equations(streams, stream_groups)
    connected, connect_owners = connected + outside, connect_owners + outside_owners
    equations = bindings + collector.equations + connected
    owners = binding_owners + collector.owners + connect_owners
    algorithms = tuple(algorithm for algorithm, _, _ in collector.algorithms)
    initial_algorithms = tuple(algorithm for algorithm, _, _ in collector.initial_algorithms)
    states, discrete, reinits = _scan((tuple(equations), tuple(collector.initial_equations),
                                       algorithms, initial_algorithms))
    for reinit in reinits:
        variability_rules.check_reinit_target(reinit, ctx)
        if reinit.var.name not in states:
            raise FlattenError(f"reinit of '{reinit.var.name}', which is not a state: it does "
                               "not appear in der()", reinit.span)
    variability_rules.check_derivatives(equations, states, discrete, ctx)
    variability_rules.check_discrete_assigned(records, discrete)
    variability_rules.check_discrete_bindings(records, ctx, discrete)
    variability_rules.check_when_targets(
        list(zip(equations, owners)) + [(item, owner) for item, owner, _ in collector.algorithms],
        ctx)
    _check_balance(top, records, name, list(zip(equations, owners)), collector.algorithms)
    variables = tuple(flat_variable(record, ctx, record.name in discrete) for record in records)
    variability_rules.check_acyclic_bindings(variables)
    variables += tuple(ctx.auxiliaries)
    # a variable's attributes may make a parameter declared before it structural
    variables = tuple(dataclasses.replace(variable, structural=True)
                      if not variable.structural and variable.name in ctx.structural
                      else variable for variable in variables)
    # the hidden variables of calls inside expressions, with their equations (one per
    # variable: outside the balance)
    equations = equations + ctx.auxiliary_equations
    if streams.flows:
        equations, initial_equations, algorithms, initial_algorithms = expand_operators(
            (equations, tuple(collector.initial_equations), algorithms, initial_algorithms),
            streams)
    else:
        initial_equations = tuple(collector.initial_equations)
    experiment, documentation = annotation_info(ctx, entry, definition)
    external_objects = tuple(ctx.external_objects.values())
    functions = _used_functions(ctx.functions, (variables, equations,
                                                initial_equations, algorithms,
                                                initial_algorithms, [
                                                    flat.Call(name, ()) for item in external_objects
                                                    for name in (item.constructor, item.destructor)]))
    return flat.FlatModel(
        name, variables, tuple(equations), initial_equations, algorithms,
        initial_algorithms, functions, tuple(ctx.enumerations.values()),
        experiment, definition.description, documentation, definition.span, external_objects)


def _used_functions(functions: dict, model_parts) -> tuple:
    """The functions the model calls, directly or through other functions, in the order
    they were translated (calls that were inlined leave theirs out)."""
    if not functions:
        return ()   # (no walk through the equations of a large model that calls none)
    used, pending = set(), [model_parts]
    while pending:
        for node in nodes(pending.pop()):
            if type(node) is flat.Call and node.name in functions and node.name not in used:
                used.add(node.name)
                pending.append(functions[node.name])
                # index reduction may call the derivative functions
                pending.append([flat.Call(item.name, ())
                                for item in functions[node.name].derivatives])
    return tuple(function for name, function in functions.items() if name in used)


def _top_instance(ctx, library, name: str):
    """The class to flatten (which must be a non-partial model, block or class) instantiated."""
    entry = library.lookup(name)
    if entry is None:
        raise FlattenError(f"class '{name}' not found")
    definition = ctx.classes.definition(entry)
    info = ctx.classes.expand(entry, definition.span)
    if info.kind not in _TOP_KINDS or not info.is_structured:
        hint = " (choose one of its models with --model)" if info.kind == "package" else ""
        raise FlattenError(f"{name} is a {info.kind}; only a model, block or class can be "
                           f"flattened{hint}", definition.span)
    if info.partial:
        raise FlattenError(f"{info.kind} {name} is partial and cannot be flattened",
                           definition.span)
    return entry, definition, Instance(ctx, "", info, None, None)


def _check_balance(top, records, name: str, owned_equations: list, algorithms: list) -> None:
    counts = [(count_equations([eq]), owner) for eq, owner in owned_equations]
    counts += [(len(assigned), owner) for _, owner, assigned in algorithms]
    owned = owned_equations + [(algorithm, owner) for algorithm, owner, _ in algorithms]
    check_balance(top, records, counts, name, lambda culprit: {
        node.name for item, owner in owned if owner is culprit
        for node in nodes(item) if type(node) is flat.Var})


def _walk(top: Instance):
    """All instances (pre-order) and all variables (declaration order)."""
    instances, records, seen = [], [], set()

    def visit(instance):
        instances.append(instance)
        for _, node in instance.all_members() + instance.inner_roles():
            if node is REMOVED:
                continue
            for element in node.elements:
                if id(element) in seen:
                    continue  # an outer component: the inner one is listed where declared
                seen.add(id(element))
                if node.is_var:
                    records.append(element)
                else:
                    visit(element)
    visit(top)
    return instances, records


def _sections(instance: Instance, collector: Collector) -> None:
    ctx, info, owner = instance.ctx, instance.info, instance.owner
    for eq, scope in info.equations:
        items = flatten_section((eq,), Env(ctx, instance, scope), Where(), collector)
        collector.add(items, owner)
    initial = Where(initial=True)
    for eq, scope in info.initial_equations:
        collector.initial_equations.extend(
            flatten_section((eq,), Env(ctx, instance, scope), initial, collector))
    for statements, scope in info.algorithms:
        algorithm, assigned = flatten_algorithm(statements, Env(ctx, instance, scope),
                                                _span_of(statements))
        collector.algorithms.append((algorithm, owner, assigned))
    for statements, scope in info.initial_algorithms:
        algorithm, assigned = flatten_algorithm(statements, Env(ctx, instance, scope),
                                                _span_of(statements), initial=True)
        collector.initial_algorithms.append((algorithm, owner, assigned))


def _span_of(statements):
    return statements[0].span if statements else None


def _binding_equations(records, ctx):
    """``x = binding`` for every variable that is neither a parameter nor a constant; a
    binding that calls a function with an array or record result is one equation for all
    the variables it binds (``Point m = mid(s)``: ``(m.x, m.y) = mid(s.a.x, ...)``)."""
    equations, owners = [], []
    whole_calls: dict = {}
    for record in records:
        if record.variability in ("constant", "parameter") or record.mod is None or \
                record.mod.binding is None:
            continue
        binding = record.mod.binding
        if id(binding) in whole_calls or _whole_call(binding) is not None:
            whole_calls.setdefault(id(binding), (binding, []))[1].append(record)
            continue
        value = variable_binding(record)
        binding = record.mod.binding
        span = binding.expr.span or record.span
        var = flat.Var(record.name)
        check_same_type(None, (var, value), ctx, span, f"the binding of '{record.name}'")
        operator_rules.check_binding_type(record.type, value, ctx, span, record.name)
        equations.append(flat.Equation(var, value, span))
        instance = binding.env.instance
        owners.append(instance.owner if instance is not None else record.owner)
    for binding, bound in whole_calls.values():
        equations.append(_call_binding(binding, bound))
        instance = binding.env.instance
        owners.append(instance.owner if instance is not None else bound[0].owner)
    return equations, owners


def _whole_call(binding):
    """The CallResult of a binding that is a call with an array or record result."""
    from compiler.flatten.calls import CallResult, translate_call
    from compiler.lang import ast
    if type(binding.expr) is not ast.Call:
        return None
    if binding.value is None and binding.call is None:
        result = translate_call(binding.expr, binding.env, whole=True)
        if type(result) is not CallResult:
            return None
        binding.call = result
    return binding.call


def _call_binding(binding, bound) -> flat.Equation:
    """``(targets) = call`` for the variables bound by parts of one call's first output."""
    result = binding.call
    port = result.ports[0]
    slots = {}
    for var, dims in zip(port.variables, result.shapes):
        path = tuple(var.name.split(".")[1:]) if port.record is not None else ()
        for index in itertools.product(*(range(1, size + 1) for size in dims)):
            slots[(path, index)] = len(slots)
    flat_outputs = sum(_count(dims) for dims in result.shapes)
    targets = [None] * flat_outputs
    for record in bound:
        select = record.mod.select
        key = (tuple(item for item in select if type(item) is str),
               tuple(item for item in select if type(item) is not str))
        if key not in slots:
            raise FlattenError(f"the binding of '{record.name}' does not fit the result of "
                               f"{result.call.name}", binding.expr.span)
        targets[slots[key]] = flat.Var(record.name)
    return flat.Equation(flat.TupleExpr(tuple(targets)), result.call, binding.expr.span)


def _count(dims) -> int:
    total = 1
    for size in dims:
        total *= size
    return total


def _scan(everything) -> tuple[set, set, list]:
    """Variables under ``der``, variables assigned in when-clauses, and the reinits."""
    states, discrete, reinits = set(), set(), []
    for node in nodes(everything):
        kind = type(node)
        if kind is flat.Call:
            if node.name == "der" and type(node.args[0]) is flat.Var:
                states.add(node.args[0].name)
        elif kind is flat.Reinit:
            reinits.append(node)
        elif kind is flat.WhenEquation or kind is flat.WhenStatement:
            for _, body in node.branches:
                discrete.update(_assigned(body))
    return states, discrete, reinits


def _assigned(body) -> list:
    names = []
    for inner in nodes(body):
        kind = type(inner)
        if kind is flat.Equation or kind is flat.Assign:
            target = inner.lhs if kind is flat.Equation else inner.target
            targets = target.elements if type(target) is flat.TupleExpr else (target,)
            names.extend(item.name for item in targets if type(item) is flat.Var)
    return names
