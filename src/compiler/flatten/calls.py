"""Calls in model expressions: built-in operators, user functions and record constructors.

Input: an ``ast.Call`` and its ``Env``. Output: a value. Array built-ins (``size``, ``fill``,
``sum``, ``transpose``, ``cat``, ...) are carried out now; scalar built-ins (``der``, ``pre``,
``sin``, ``sample``, ...) become ``flat.Call``s, applied element by element to arrays; user
functions become calls of the function's full name with every argument in place.
"""
from __future__ import annotations

import dataclasses

from compiler import flat
from compiler.flatten import values
from compiler.flatten.errors import FlattenError, NotEvaluable
from compiler.flatten.rules import lookup as lookup_rules
from compiler.flatten.rules import visibility
from compiler.flatten.values import RecordValue, ShapeError
from compiler.lang import ast


class CallResult:
    """A function call with an array or record output, or several outputs: allowed only as a
    whole side of an equation or assignment. ``shapes`` gives each flat output's dimensions,
    ``ports`` the declared outputs (a record output stands for several flat ones)."""

    __slots__ = ("call", "shapes", "ports")

    def __init__(self, call: flat.Call, shapes: list, ports=()):
        self.call = call
        self.shapes = shapes
        self.ports = ports


def translate_call(call: ast.Call, env, whole=False):
    """The value of a call.

    ``whole=True``: the call is a whole side of an equation, so a function whose first output
    is an array gives a ``CallResult``; ``whole="all"``: a user function call always gives a
    ``CallResult`` with every output (for ``(a, b) = f(x)``); ``whole="statement"``: the call
    stands alone, its value (if any) unused.
    """
    from compiler.flatten.builtins import BUILTINS
    from compiler.flatten.connection_graph import graph_operator
    func = call.func
    if graph_operator(call) is not None:
        return _graph_query(call, env)
    if builtin_called(func, env):
        return BUILTINS[func.parts[0].name](call, env)
    entry, owner = function_class_and_owner(func, env)
    info = env.ctx.classes.expand(entry, func.span)
    if info.kind in ("function", "operator function"):
        return _user_call(entry, info, call, env, whole, owner)
    if info.kind in ("record", "operator record"):
        return _record_constructor(info, call, env)
    if info.external_object:
        # ``Table(args)`` calls the external object's constructor (MLS 12.9.7)
        from compiler.flatten.instances import register_external_object
        register_external_object(env.ctx, info, call.span)
        constructor = info.classes["constructor"]
        return _user_call(constructor, env.ctx.classes.expand(constructor), call, env, whole)
    raise FlattenError(f"'{func.dotted}' is a {info.kind}, not a function", func.span)


def _graph_query(call: ast.Call, env):
    """``Connections.isRoot(A.R)`` and ``Connections.rooted(A.R)``: known from the spanning
    trees of the model's overdetermined connection graph."""
    from compiler.flatten.connection_graph import QUERY_OPERATORS, graph_operator
    name = graph_operator(call)
    if name not in QUERY_OPERATORS:
        raise FlattenError(f"Connections.{name}() is an equation, not an expression", call.span)
    if name == "uniqueRootIndices":
        raise FlattenError("Connections.uniqueRootIndices() is not supported", call.span)
    return graph_node_query(name, call, env)


def graph_node_query(name: str, call: ast.Call, env):
    from compiler.flatten.connection_graph import graph_node
    if len(call.args) != 1 or call.named or type(call.args[0]) is not ast.ComponentRef:
        raise FlattenError(f"{name}() needs one argument, an overdetermined record", call.span)
    node = graph_node(call.args[0], env, call.span)
    connections = env.ctx.connections
    if name == "isRoot":
        return flat.Const(connections.is_root(node))
    return flat.Const(connections.rooted(node, call.span))


# Built-in functions a class of the same name in scope may stand for (Modelica.ComplexMath.abs
# inside ComplexMath); the other built-ins are operators no declaration can replace.
SHADOWABLE = frozenset({
    "abs", "sign", "sqrt", "sin", "cos", "tan", "asin", "acos", "atan", "atan2", "sinh",
    "cosh", "tanh", "exp", "log", "log10", "floor", "ceil", "integer", "mod", "rem", "div",
    "min", "max", "sum", "product"})


def builtin_called(func: ast.ComponentRef, env) -> bool:
    """Whether a called name is a built-in: one not shadowed by a class in scope, or a global
    name (``.sin``) that no top-level class of the library takes."""
    from compiler.flatten.builtins import BUILTINS
    from compiler.library import ClassEntry
    if len(func.parts) != 1 or func.parts[0].name not in BUILTINS:
        return False
    name = func.parts[0].name
    classes = env.ctx.classes
    if func.is_global:
        return classes.library.root(name) is None
    if name not in SHADOWABLE:
        return True
    found = env.instance.class_named(name) if env.instance is not None else None
    if found is None:
        found = classes.lookup(name, env.scope)
    return not isinstance(found, ClassEntry)


def function_class(func: ast.ComponentRef, env):
    """The class a called name denotes."""
    return function_class_and_owner(func, env)[0]


def function_class_and_owner(func: ast.ComponentRef, env):
    """The class a called name denotes, and the instance whose class holds it: the component
    named on the way (``world.gravityAcceleration``), else the instance of the call."""
    from compiler.library import ClassEntry
    classes = env.ctx.classes
    first = func.parts[0]
    if func.is_global:
        found = classes.library.root(first.name)
    else:
        found = env.instance.class_named(first.name) if env.instance is not None else None
        if found is None and env.instance is not None and len(func.parts) > 1:
            through = _through_components(func, env)
            if through is not None:
                return through
        if found is None:
            found = classes.lookup(first.name, env.scope, span=first.span)
    for part in func.parts[1:]:
        if not isinstance(found, ClassEntry):
            break
        found = classes.public_member_of(found, part.name, part.span)
    if not isinstance(found, ClassEntry):
        raise FlattenError(f"unknown function '{func.dotted}'", func.span)
    return found, env.instance


def _through_components(func: ast.ComponentRef, env):
    """``world.gravityAcceleration``: a function of the class of a component (as the
    component's modification redeclares it), or None when the name is not a component."""
    from compiler.flatten.instances import REMOVED, Instance
    from compiler.flatten.names import check_unconditional
    from compiler.library import ClassEntry
    instance = env.instance
    parts = func.parts
    through = []
    found = None
    for position, part in enumerate(parts[:-1]):
        node = instance.member(part.name)
        if node is None and position > 0 and instance.class_named(part.name) is not None:
            # ``a.B.C.f``: a class of the component's class, then classes in it (MLS 5.3.2)
            found = _class_path(env.ctx.classes, instance, parts[position:])
            break
        if node is None or node is REMOVED or node.is_var or not node.elements:
            return None if position == 0 else _not_a_function(func)
        check_unconditional(node, part)
        through.append((node, part))
        if position > 0:
            visibility.check_public(instance.info, part.name, part.span)
        instance = node.elements[0]
        if not isinstance(instance, Instance):
            return _not_a_function(func)
    if found is None:
        found = instance.class_named(parts[-1].name)
        if not isinstance(found, ClassEntry):
            _not_a_function(func)
        visibility.check_public(instance.info, parts[-1].name, parts[-1].span)
    elif not isinstance(found, ClassEntry):
        _not_a_function(func)
    kind = env.ctx.classes.definition(found).kind
    for node, part in through:
        lookup_rules.check_function_through(node, part, kind)
    return found, instance


def _class_path(classes, instance, parts):
    """The class ``parts`` name from ``instance``: a class of it, then public classes of that
    (None where a part is no class)."""
    from compiler.library import ClassEntry
    visibility.check_public(instance.info, parts[0].name, parts[0].span)
    found = instance.class_named(parts[0].name)
    for part in parts[1:]:
        if not isinstance(found, ClassEntry):
            return None
        if classes.definition(found).kind in ("operator", "operator function"):
            raise FlattenError("an operator cannot be named through a component (MLS 5.3.2)",
                               part.span)
        found = classes.public_member_of(found, part.name, part.span)
    return found


def _not_a_function(func):
    raise FlattenError(f"unknown function '{func.dotted}'", func.span)


def bind_arguments(call: ast.Call, names: list, what: str) -> list:
    """The argument expressions by parameter position (None where not given)."""
    bound = [None] * len(names)
    if len(call.args) > len(names):
        raise FlattenError(f"{what} takes {len(names)} argument{'s' if len(names) != 1 else ''}"
                           f", {len(call.args)} given", call.span)
    for position, arg in enumerate(call.args):
        bound[position] = arg
    for named in call.named:
        if named.name not in names:
            raise FlattenError(f"{what} has no input named '{named.name}'", named.span)
        position = names.index(named.name)
        if bound[position] is not None:
            raise FlattenError(f"input '{named.name}' of {what} is given twice", named.span)
        bound[position] = named.value
    return bound


class ModelCalls:
    """Calls as model expressions need them (values scalarized: arrays are tuples), for the
    operator and constructor overloading shared with function bodies."""

    def __init__(self, env):
        self.ctx = env.ctx
        self.env = env

    def expr(self, node):
        from compiler.flatten.translate import translate
        return translate(node, self.env)

    def finish_call(self, header, ports: dict, span, whole=False):
        from compiler.flatten.function_body import port_value
        from compiler.flatten.inline import inline_outputs
        arguments = port_arguments(header, ports, span)
        if header.inline:
            outputs = inline_outputs(self.ctx, header.name, arguments, scalarized=True)
            if outputs is not None and header.output_ports and whole != "all":
                return port_value(self.ctx, header.output_ports[0], outputs, split_arrays=True)
        if whole not in ("statement", "all") and any(
                dim is None for var in header.outputs for dim in var.dims):
            known = self._evaluated(header, arguments, span)
            if known is not None:
                return known
        if whole != "statement" and header.outputs:
            shapes = [_output_dims(var, arguments, header, span, self.ctx)
                      for var in header.outputs]
            arguments = _sizes_as_constants(header, arguments, self.ctx)
        result = flat.Call(header.name, tuple(_argument_expr(arguments[var.name], span)
                                              for var in header.inputs))
        if whole == "statement":
            return result  # its value, if any, is not used
        if not header.outputs:
            raise FlattenError(f"function {header.name} has no output, so it has no value",
                               span)
        first = header.output_ports[0]
        if whole == "all":
            return CallResult(result, shapes, header.output_ports)
        if first.record is None and shapes[0] == ():
            return result
        if not whole:
            return self._inside_expression(result, header, first, span, shapes)
        return CallResult(result, shapes, header.output_ports)

    def _inside_expression(self, result, header, first, span, shapes):
        """An array- or record-valued call inside an expression: its value now, from
        parameter arguments (the parameters become structural); else, in an equation, hidden
        variables for its outputs with an equation of their own."""
        from compiler.flatten.evaluate import call_function, evaluate
        from compiler.flatten.function_body import port_value
        what = "a record" if first.record is not None else "an array"
        try:
            args = [evaluate(arg, self.ctx, structural=True) for arg in result.args]
            outputs = call_function(header.name, args, self.ctx)
        except NotEvaluable as error:
            if self.ctx.algorithm_depth:
                raise FlattenError(f"function {header.name} returns {what}: in an algorithm "
                                   "its call must be the whole right side of an assignment, or "
                                   f"have parameter arguments ({error.reason})", span) from None
            return self._through_auxiliaries(result, header, first, span, shapes)
        by_name = {var.name: values.constant(value)
                   for var, value in zip(header.outputs, outputs)}
        return port_value(self.ctx, first, by_name, split_arrays=True)

    def _evaluated(self, header, arguments: dict, span):
        """The first output of a call whose output sizes its inputs do not give (``xpos[:]``
        grown by cat in the function), computed now from parameter arguments; None when
        they are not known while translating."""
        from compiler.flatten.evaluate import call_function, evaluate
        from compiler.flatten.function_body import port_value
        try:
            args = [evaluate(_argument_expr(arguments[var.name], span), self.ctx,
                             structural=True) for var in header.inputs]
            outputs = call_function(header.name, args, self.ctx)
        except NotEvaluable:
            return None
        by_name = {var.name: values.constant(value)
                   for var, value in zip(header.outputs, outputs)}
        return port_value(self.ctx, header.output_ports[0], by_name, split_arrays=True)

    def _through_auxiliaries(self, result, header, first, span, shapes):
        """``y = a*f(x)`` as ``($call1.v[1], ...) = f(x); y = a*{$call1.v[1], ...}``."""
        from compiler.flatten.function_body import port_value
        by_name = hidden_outputs(self.ctx, result, header.outputs, shapes, span)
        return port_value(self.ctx, first, by_name, split_arrays=True)


@dataclasses.dataclass(frozen=True)
class CallOutput:
    """What a hidden variable ``$call2.p[1]`` holds: element ``index`` of output number
    ``position`` (of ``type`` and sizes ``dims``) of ``call``."""
    call: flat.Call
    position: int
    type: str
    dims: tuple
    index: tuple


def hidden_outputs(ctx, call: flat.Call, outputs, shapes, span) -> dict:
    """Hidden variables ``$call1.v[1], ...`` for the outputs of ``call``, with the equation
    that computes them; their values by output name."""
    import itertools
    targets, by_name = [], {}
    number = len(ctx.auxiliary_equations) + 1
    for position, (var, dims) in enumerate(zip(outputs, shapes)):
        variability = "continuous" if var.type == "Real" else "discrete"
        indices = list(itertools.product(*(range(1, n + 1) for n in dims)))
        elements = [ctx.auxiliary("$call", var.type, span, f"$call{number}.{var.name}" + (
            f"[{','.join(map(str, index))}]" if index else ""), variability)
                    for index in indices]
        for element, index in zip(elements, indices):
            ctx.call_outputs[element.name] = CallOutput(call, position, var.type, tuple(dims),
                                                        index)
        targets.extend(elements)
        by_name[var.name] = values.reshape(elements, dims) if dims else elements[0]
    ctx.auxiliary_equations.append(flat.Equation(flat.TupleExpr(tuple(targets)), call, span))
    return by_name


def _user_call(entry, info, call: ast.Call, env, whole: bool, owner=None):
    from compiler.flatten.functions import function_header
    from compiler.flatten.resources import LOAD_RESOURCE, resource_call
    header = function_header(env.ctx, entry, call.span)
    if header.builtin:
        return _builtin_external(header, call, env)
    calls = ModelCalls(env)
    if header.name in LOAD_RESOURCE and not call.named:
        resource = resource_call(env.ctx, header.name, [calls.expr(arg) for arg in call.args],
                                 call.span)
        if resource is not None:
            return resource
    modified = _modified_inputs(info, header, env, owner)
    if header.functional:
        header, ports = _functional_call(entry, call, env, calls, set(modified))
    else:
        ports = bind_call(header, call, calls.expr, lambda value, span: value, set(modified))
    for name, binding in modified.items():
        if name not in ports:
            ports[name] = translate_binding(binding)
    return vectorized(env.ctx, header, ports, lambda chosen: calls.finish_call(
        header, chosen, call.span, whole), call.span)


def _functional_call(entry, call: ast.Call, env, calls, defaulted):
    """The specialization to call and its ports, for a function with functional inputs."""
    from compiler.flatten.higher_order import Caller, FunctionValue
    caller = Caller(env.ctx, calls.expr, lambda ref: None, lambda ref: function_class(ref, env))
    return caller.call(FunctionValue(entry), call, defaulted)


def vectorized(ctx, header, ports: dict, call, span):
    """``call(ports)``, element by element where arguments have more dimensions than their
    inputs take (``abs(v)`` of a Complex array, MLS 12.4.6)."""
    extra = {}
    for port in header.input_ports:
        if port.name in ports:
            surplus = _dimensions(ports[port.name]) - _port_dimensions(ctx, port)
            if surplus > 0:
                extra[port.name] = surplus
    if not extra:
        return call(ports)
    sizes = {len(ports[name]) for name in extra}
    if len(sizes) != 1:
        raise FlattenError(f"the arrays given to {header.name} element by element differ in "
                           "size", span)
    return tuple(vectorized(ctx, header, {name: (value[i] if name in extra else value)
                                          for name, value in ports.items()}, call, span)
                 for i in range(sizes.pop()))


def _dimensions(value) -> int:
    count = 0
    while type(value) is tuple:
        count += 1
        if not value:
            break
        value = value[0]
    return count


def _port_dimensions(ctx, port) -> int:
    """How many array dimensions an input takes (a record's own, not its fields')."""
    variable = port.variables[0]
    if port.record is None:
        return len(variable.dims)
    from compiler.flatten.records import record_leaves
    return len(variable.dims) - len(record_leaves(ctx.classes, port.record)[0].dims)


def _modified_inputs(info, header, env, owner) -> dict:
    """Inputs whose default a modification of the function's class gives (``function
    gravityAcceleration = standard(g = g, ...)``): name -> the binding, read in the instance
    that holds the class (the modification names its components)."""
    from compiler.flatten.context import Env
    from compiler.flatten.modifiers import from_arguments, merge_all
    result = {}
    for port in header.input_ports:
        member = info.members.get(port.name)
        if member is None or not member.layers:
            continue
        layers = [from_arguments(args, Env(env.ctx, owner, scope)).get(port.name)
                  for args, scope in member.layers]
        mod = merge_all([layer for layer in layers if layer is not None], port.name)
        if mod is not None and mod.binding is not None:
            result[port.name] = mod.binding
    return result


def translate_binding(binding):
    from compiler.flatten.translate import translate
    return translate(binding.expr, binding.env)


def bind_call(header, call: ast.Call, translate, fix, defaulted=frozenset()) -> dict:
    """Input port name -> value for a call (``translate`` reads an argument, ``fix`` makes
    its value usable); ports not given are absent (their defaults apply; ``defaulted``
    names inputs whose default the caller supplies)."""
    names = [port.name for port in header.input_ports]
    bound = bind_arguments(call, names, f"function {header.name}")
    ports = {}
    for port, arg in zip(header.input_ports, bound):
        if arg is not None:
            ports[port.name] = fix(translate(arg), arg.span)
        elif port.name not in defaulted and any(var.default is None for var in port.variables):
            raise FlattenError(f"input '{port.name}' of function {header.name} is not given "
                               "and has no default", call.span)
    return ports


def port_arguments(header, ports: dict, span) -> dict:
    """Flat input name -> value: a record port's leaves taken apart, defaults filled in (in
    the order of the inputs, so a default may use the inputs before it)."""
    from compiler.flatten.records import leaf_value
    arguments = {}
    for port in header.input_ports:
        if port.name not in ports:
            for var in port.variables:
                arguments[var.name] = substitute(var.default, arguments)
            continue
        value = ports[port.name]
        if port.record is None:
            if type(value) is RecordValue:
                raise FlattenError(f"input '{port.name}' of function {header.name} is not a "
                                   f"record, but is given a {value.type}", span)
            arguments[port.variables[0].name] = value
            continue
        prefix = len(port.name) + 1
        for var in port.variables:
            try:
                arguments[var.name] = leaf_value(value, tuple(var.name[prefix:].split(".")))
            except KeyError:
                what = value.type if type(value) is RecordValue else "a value that is not one"
                raise FlattenError(f"input '{port.name}' of function {header.name} is a "
                                   f"{port.record.name}, but is given {what}", span) from None
    return arguments


def _argument_expr(value, span) -> flat.Expr:
    try:
        return values.to_expr(value)
    except ShapeError as error:
        raise FlattenError(str(error), span) from None


def _output_dims(var: flat.FunctionVar, arguments: dict, header, span, ctx) -> tuple:
    """The dimensions of a flat output, worked out from the call's arguments."""
    dims = []
    for dim in var.dims:
        if dim is None:
            raise FlattenError(f"the size of output '{var.name}' of {header.name} is not "
                               "known from its inputs", span)
        dims.append(dimension_value(substitute(dim, arguments), ctx, span, "the size of "
                                    f"output '{var.name}' of {header.name}"))
    return tuple(dims)


def _sizes_as_constants(header, arguments: dict, ctx) -> dict:
    """The arguments, those an output's size reads given as their (structural) values:
    later stages work out the sizes of the results from the call alone."""
    from compiler.flatten.evaluate import evaluate
    from compiler.flatten.walk import nodes
    sizing = {node.name for var in header.outputs for dim in var.dims if dim is not None
              for node in nodes(dim) if type(node) is flat.Var}
    result = dict(arguments)
    for name in sizing & set(arguments):
        value = arguments[name]
        if type(value) is tuple or type(value) is flat.Const:
            continue
        try:
            result[name] = values.constant(evaluate(value, ctx, structural=True))
        except NotEvaluable:
            pass
    return result


def dimension_value(expr, ctx, span, what: str) -> int:
    """An array size from a flat expression whose function inputs are substituted."""
    from compiler.flatten.evaluate import evaluate
    try:
        size = evaluate(expr, ctx, structural=True)
    except NotEvaluable as error:
        raise FlattenError(f"{what} must be a parameter expression: {error.reason}",
                           span) from None
    if isinstance(size, bool) or not isinstance(size, int):
        raise FlattenError(f"{what} must be an Integer, not {size!r}", span)
    return size


def translate_argument(arg, env) -> flat.Expr:
    from compiler.flatten.translate import translate
    return _argument_expr(translate(arg, env), arg.span)


def _builtin_external(header, call, env):
    """A library function implemented as ``external "builtin"`` (Modelica.Math.sin, ...)."""
    arguments = [translate_argument(arg, env) for arg in call.args]
    return flat.Call(header.external.function, tuple(arguments))


def _record_constructor(info, call: ast.Call, env):
    """The value of a record constructor call (MLS 12.6): the fields given, then the others
    from their bindings (extends modifications over declarations), which may read the other
    fields by name (``final parameter Real B_r = B_rRef * ...``)."""
    from compiler.flatten.operators import constructor_call
    from compiler.flatten.translate import binding_value, translate
    overloaded = constructor_call(ModelCalls(env), info, call)
    if overloaded is not None:
        return overloaded
    names = list(info.members)
    bound = bind_arguments(call, names, f"record {info.name}")
    fields = {name: translate(arg, env) for name, arg in zip(names, bound) if arg is not None}
    return record_value(env.ctx, info, fields, call.span)


def record_value(ctx, info, fields: dict, span) -> RecordValue:
    """A record of class ``info`` with the ``fields`` given, the others from their defaults."""
    from compiler.flatten.translate import binding_value
    names = list(info.members)
    defaults = {name: record_field_default(ctx, info.members[name], fields)
                for name in names if name not in fields}
    for name in _default_order(defaults):
        mod = defaults[name]
        if mod is None or mod.binding is None:
            raise FlattenError(f"field '{name}' of record {info.name} is not given and has no "
                               "default", span)
        fields[name] = binding_value(mod)
    return RecordValue(info.name, {name: fields[name] for name in names})


def record_field_default(ctx, member, fields: dict | None = None):
    """The modification that gives a record field its default in a constructor call: the
    extends clauses' modifications over the declaration's own (``record M350_50A extends
    BaseData(mu_i = 1210)``), its expressions reading the record's other fields from
    ``fields`` (filled in as they are computed); None without one."""
    from compiler.flatten.context import Env
    from compiler.flatten.modifiers import from_arguments, from_ast, merge_all
    name = member.decl.name
    fields = {} if fields is None else fields

    def reading_fields(scope):
        found = Env(ctx, None, scope)
        found.iterators = fields  # the same dict: later fields see the earlier ones
        return found
    layers = [from_arguments(args, reading_fields(scope)).get(name)
              for args, scope in member.layers]
    layers.append(from_ast(member.decl.modification, reading_fields(member.scope)))
    return merge_all([layer for layer in layers if layer is not None], name)


def _default_order(defaults: dict) -> list[str]:
    """The fields to compute, each after the fields its binding reads (a cycle: as
    declared, and the binding that reads a missing field fails with its name)."""
    from compiler.flatten.walk import ast_references
    import networkx

    graph = networkx.DiGraph()
    graph.add_nodes_from(defaults)
    for name, mod in defaults.items():
        if mod is not None and mod.binding is not None:
            for ref in ast_references(mod.binding.expr):
                if ref.parts[0].name in defaults and ref.parts[0].name != name:
                    graph.add_edge(ref.parts[0].name, name)
    try:
        return list(networkx.lexicographical_topological_sort(
            graph, key=list(defaults).index))
    except networkx.NetworkXUnfeasible:
        return list(defaults)


def substitute(expr, mapping: dict):
    """``expr`` with ``Var(name)`` replaced by ``mapping[name]`` (function defaults)."""
    if type(expr) is flat.Var:
        return mapping.get(expr.name, expr)
    if not dataclasses.is_dataclass(expr):
        return expr
    changes = {}
    for item in dataclasses.fields(expr):
        value = getattr(expr, item.name)
        if type(value) is tuple:
            new = tuple(substitute(element, mapping) for element in value)
        elif dataclasses.is_dataclass(value):
            new = substitute(value, mapping)
        else:
            continue
        if new != value:
            changes[item.name] = new
    return dataclasses.replace(expr, **changes) if changes else expr
