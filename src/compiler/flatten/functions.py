"""User functions -> ``flat.Function``: variables, algorithm (or external call), kept as functions.

Input: the ``ClassEntry`` of a function. Output: a ``flat.Function`` registered in the run's
context under the function's full name, with every function it calls registered too
(recursion is allowed). Function bodies are not scalarized: arrays keep their dimensions and
``flat.Index`` subscripts, ``:`` becomes ``1:size(x, k)`` and ``end`` ``size(x, k)``.
"""
from __future__ import annotations

from compiler import flat
from compiler.flatten.errors import FlattenError
from compiler.flatten.function_body import FunctionScope, statement_block
from compiler.flatten.walk import nodes
from compiler.lang import ast


class FunctionHeader:
    """What a call needs: the full name, inputs (with defaults) and outputs; ``inline`` is
    the output's expression in the inputs for a function annotated ``Inline = true`` that is
    one scalar assignment (``y := .sin(u)``), which calls replace by that expression."""

    __slots__ = ("name", "inputs", "outputs", "external", "builtin", "inline")

    def __init__(self, name, inputs, outputs, external, builtin):
        self.name = name
        self.inputs = inputs
        self.outputs = outputs
        self.external = external
        self.builtin = builtin
        self.inline = None


def function_header(ctx, entry, span=None) -> FunctionHeader:
    """The header of a function, translating the whole function the first time."""
    name = entry.full_name
    header = ctx.function_headers.get(name)
    if header is not None:
        return header
    info = ctx.classes.expand(entry, span)
    if info.partial:
        raise FlattenError(f"function {name} is partial and cannot be called", span)
    scope = FunctionScope(ctx, entry, info)
    variables = {"input": [], "output": [], "local": []}
    for member_name, member in info.members.items():
        decl = member.decl
        if decl.causality == "input" and decl.protected:
            raise FlattenError(f"input '{member_name}' of function {name} cannot be protected",
                               decl.span)
        kind = decl.causality or "local"
        variables[kind].append(_function_var(scope, member))
    external = _external(scope, info, variables)
    builtin = external is not None and external.language == "builtin"
    header = FunctionHeader(name, tuple(variables["input"]), tuple(variables["output"]),
                            external, builtin)
    ctx.function_headers[name] = header
    if not builtin:
        _translate_body(ctx, entry, info, scope, header, variables["local"])
    return header


def _function_var(scope: FunctionScope, member) -> flat.FunctionVar:
    decl = member.decl
    info = scope.type_info(decl)
    dims = tuple(None if isinstance(dim, ast.Colon) else scope.expr(dim) for dim in decl.dims)
    dims += tuple(scope.expr(dim) for dim, _ in info.dims)
    if decl.modification is not None and decl.modification.arguments:
        allowed = ("start", "min", "max", "nominal", "unit", "displayUnit", "quantity", "fixed")
        for argument in decl.modification.arguments:
            if isinstance(argument, ast.ElementRedeclare) or argument.name[0] not in allowed:
                raise FlattenError("only attributes can modify a function variable",
                                   argument.span)
    default = None
    if decl.modification is not None and decl.modification.binding is not None:
        default = scope.expr(decl.modification.binding)
    type_name = info.name if info.builtin == "enumeration" else info.builtin
    return flat.FunctionVar(decl.name, type_name, dims, default, decl.span)


def _external(scope: FunctionScope, info, variables) -> flat.ExternalCall | None:
    composition = info.composition
    clause = composition.external if composition is not None else None
    if clause is None:
        return None
    language = clause.language or "C"
    if language not in ("C", "builtin"):
        raise FlattenError(f"external language \"{language}\" is not supported (only \"C\")",
                           clause.span)
    if clause.function:
        args = tuple(scope.expr(arg) for arg in clause.args)
        output = clause.output.parts[0].name if clause.output is not None else ""
        return flat.ExternalCall(language, clause.function, args, output)
    outputs = variables["output"]
    if len(outputs) > 1:
        raise FlattenError("an external function with several outputs needs an explicit call",
                           clause.span)
    args = tuple(flat.Var(var.name) for var in variables["input"])
    return flat.ExternalCall(language, scope.entry.name, args, outputs[0].name if outputs else "")


def _translate_body(ctx, entry, info, scope, header, local_vars) -> None:
    name = header.name
    if info.equations or info.initial_equations:
        eq, _ = (info.equations or info.initial_equations)[0]
        raise FlattenError(f"function {name} cannot have equations", eq.span)
    if info.initial_algorithms:
        raise FlattenError(f"function {name} cannot have an initial algorithm",
                           info.initial_algorithms[0][0][0].span if info.initial_algorithms[0][0]
                           else None)
    statements = []
    for section, _scope in info.algorithms:
        statements.extend(statement_block(scope, section))
    if not statements and header.external is None:
        span = ctx.classes.definition(entry).span
        raise FlattenError(f"function {name} has neither an algorithm nor an external clause",
                           span)
    ctx.functions[name] = flat.Function(
        name, header.inputs, header.outputs, tuple(local_vars), tuple(statements),
        header.external, ctx.classes.definition(entry).description,
        ctx.classes.definition(entry).span)
    if _annotated(ctx.classes.definition(entry), ("Inline", "LateInline")):
        header.inline = _inline_expression(header, local_vars, statements)


def _annotated(definition: ast.ClassDef, names: tuple) -> bool:
    """Whether the class's annotation sets one of ``names`` to true."""
    body = definition.body
    annotation = body.annotation if isinstance(body, ast.Composition) else definition.annotation
    if annotation is None:
        return False
    return any(isinstance(argument, ast.ElementMod) and len(argument.name) == 1 and
               argument.name[0] in names and argument.modification is not None and
               isinstance(argument.modification.binding, ast.BoolLit) and
               argument.modification.binding.value for argument in annotation.arguments)


def _inline_expression(header, local_vars, statements):
    """The expression of a function whose body is ``output := expr`` on scalars, else None.

    Relations inside keep their function semantics (no events, MLS 8.5): the expression is
    wrapped in ``noEvent`` when it has any."""
    if header.external is not None or local_vars or len(header.outputs) != 1 or \
            len(statements) != 1 or any(var.dims for var in header.inputs + header.outputs):
        return None
    (statement,) = statements
    output = header.outputs[0]
    if type(statement) is not flat.Assign or statement.target != flat.Var(output.name):
        return None
    value = statement.value
    if any(type(item) in (flat.Index, flat.RangeExpr, flat.ArrayExpr) or
           (type(item) is flat.Call and item.name == header.name) for item in nodes(value)):
        return None
    if any(type(item) is flat.Binary and item.op in _RELATIONS for item in nodes(value)):
        value = flat.Call("noEvent", (value,))
    return value


_RELATIONS = frozenset({"<", "<=", ">", ">=", "==", "<>"})
