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
from compiler.flatten.errors import FlattenError
from compiler.flatten.values import RecordValue, ShapeError
from compiler.lang import ast


class CallResult:
    """A function call with an array output or several outputs: allowed only as a whole side
    of an equation or assignment. ``shapes`` gives each output's dimensions."""

    __slots__ = ("call", "shapes")

    def __init__(self, call: flat.Call, shapes: list):
        self.call = call
        self.shapes = shapes


def translate_call(call: ast.Call, env, whole=False):
    """The value of a call.

    ``whole=True``: the call is a whole side of an equation, so a function whose first output
    is an array gives a ``CallResult``; ``whole="all"``: a user function call always gives a
    ``CallResult`` with every output (for ``(a, b) = f(x)``).
    """
    from compiler.flatten.builtins import BUILTINS
    func = call.func
    if builtin_called(func, env):
        return BUILTINS[func.parts[0].name](call, env)
    entry = function_class(func, env)
    info = env.ctx.classes.expand(entry, func.span)
    if info.kind in ("function", "operator function"):
        return _user_call(entry, info, call, env, whole)
    if info.kind in ("record", "operator record"):
        return _record_constructor(info, call, env)
    raise FlattenError(f"'{func.dotted}' is a {info.kind}, not a function", func.span)


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
    from compiler.library import ClassEntry
    classes = env.ctx.classes
    first = func.parts[0]
    if func.is_global:
        found = classes.library.root(first.name)
    else:
        found = env.instance.class_named(first.name) if env.instance is not None else None
        if found is None:
            found = classes.lookup(first.name, env.scope, span=first.span)
    for part in func.parts[1:]:
        if not isinstance(found, ClassEntry):
            break
        found = classes.member_of(found, part.name, part.span)
    if not isinstance(found, ClassEntry):
        raise FlattenError(f"unknown function '{func.dotted}'", func.span)
    return found


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


def _user_call(entry, info, call: ast.Call, env, whole: bool):
    from compiler.flatten.functions import function_header
    header = function_header(env.ctx, entry, call.span)
    if header.builtin:
        return _builtin_external(header, call, env)
    names = [var.name for var in header.inputs]
    bound = bind_arguments(call, names, f"function {header.name}")
    arguments, given = [], {}
    for var, arg in zip(header.inputs, bound):
        if arg is not None:
            value = translate_argument(arg, env)
        elif var.default is not None:
            value = substitute(var.default, given)
        else:
            raise FlattenError(f"input '{var.name}' of function {header.name} is not given and "
                               "has no default", call.span)
        given[var.name] = value
        arguments.append(value)
    if header.inline is not None:
        return substitute(header.inline, {var.name: value for var, value
                                          in zip(header.inputs, arguments)})
    result = flat.Call(header.name, tuple(arguments))
    shapes = _output_shapes(entry, info, header, bound, call, env)
    if not shapes:
        raise FlattenError(f"function {header.name} has no output, so it has no value", call.span)
    if whole == "all":
        return CallResult(result, shapes)
    if shapes[0] == ():
        return result
    if not whole:
        raise FlattenError(f"function {header.name} returns an array: its call must be the "
                           "whole right side of an equation or assignment", call.span)
    return CallResult(result, shapes)


def translate_argument(arg, env) -> flat.Expr:
    from compiler.flatten.translate import translate
    value = translate(arg, env)
    try:
        return values.to_expr(value)
    except ShapeError as error:
        raise FlattenError(f"{error} (records cannot be passed to functions yet)",
                           arg.span) from None


def _output_shapes(entry, info, header, bound, call, env) -> list:
    """The dimensions of each output, evaluated with this call's arguments."""
    from compiler.flatten.context import Env
    from compiler.flatten.evaluate import evaluate_structural
    from compiler.flatten.translate import translate
    shapes = []
    inputs = None
    for var in header.outputs:
        decl = info.members[var.name].decl
        if not decl.dims:
            shapes.append(())
            continue
        if inputs is None:
            inputs = {name: translate(arg, env) for name, arg in
                      zip([v.name for v in header.inputs], bound) if arg is not None}
        call_env = Env(env.ctx, None, entry, inputs)
        dims = []
        for dim in decl.dims:
            if isinstance(dim, ast.Colon):
                raise FlattenError(f"the size of output '{var.name}' of {header.name} is not "
                                   "known from its inputs", dim.span)
            dims.append(evaluate_structural(dim, call_env, "the size of a function output",
                                            expect=int))
        shapes.append(tuple(dims))
    return shapes


def _builtin_external(header, call, env):
    """A library function implemented as ``external "builtin"`` (Modelica.Math.sin, ...)."""
    arguments = [translate_argument(arg, env) for arg in call.args]
    return flat.Call(header.external.function, tuple(arguments))


def _record_constructor(info, call: ast.Call, env):
    from compiler.flatten.context import Env
    from compiler.flatten.modifiers import from_ast
    from compiler.flatten.translate import binding_value, translate
    names = list(info.members)
    bound = bind_arguments(call, names, f"record {info.name}")
    fields = {}
    for name, arg in zip(names, bound):
        member = info.members[name]
        if arg is not None:
            fields[name] = translate(arg, env)
            continue
        mod = from_ast(member.decl.modification, Env(env.ctx, None, member.scope))
        if mod is None or mod.binding is None:
            raise FlattenError(f"field '{name}' of record {info.name} is not given and has no "
                               "default", call.span)
        fields[name] = binding_value(mod)
    return RecordValue(info.name, fields)


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
