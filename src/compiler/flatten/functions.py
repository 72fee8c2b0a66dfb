"""User functions -> ``flat.Function``: variables, algorithm (or external call), kept as functions.

Input: the ``ClassEntry`` of a function. Output: a ``flat.Function`` registered in the run's
context under the function's full name, with every function it calls registered too
(recursion is allowed). Function bodies are not scalarized: arrays keep their dimensions and
``flat.Index`` subscripts, ``:`` becomes ``1:size(x, k)`` and ``end`` ``size(x, k)``. A
record input or output is one flat variable per leaf of the record (``c.re``, ``c.im``).
"""
from __future__ import annotations

import dataclasses

from compiler import flat
from compiler.flatten import higher_order
from compiler.flatten.errors import FlattenError
from compiler.flatten.function_body import FunctionScope, Port, statement_block
from compiler.flatten.walk import nodes
from compiler.lang import ast


# annotations that let a tool replace a call by the function's body (MLS 18.3)
INLINE_ANNOTATIONS = ("Inline", "LateInline", "InlineAfterIndexReduction")


class FunctionHeader:
    """What a call needs: the full name, the flat inputs (with defaults) and outputs, and the
    declared ones (``input_ports``/``output_ports``: a record port stands for several flat
    variables). ``inline``: the function is annotated ``Inline = true`` (or ``LateInline``,
    ``InlineAfterIndexReduction``), so calls take its body's value where it can be worked out
    (``inline.py``)."""

    __slots__ = ("name", "inputs", "outputs", "input_ports", "output_ports", "external",
                 "builtin", "inline", "functional")

    def __init__(self, name, input_ports, output_ports, external, builtin, inline,
                 functional=None):
        self.name = name
        # functional input name -> its function type: a function with functional inputs is
        # called through a specialization per functional argument (``higher_order.py``)
        self.functional = functional or {}
        self.input_ports = input_ports
        self.output_ports = output_ports
        self.inputs = tuple(var for port in input_ports for var in port.variables)
        self.outputs = tuple(var for port in output_ports for var in port.variables)
        self.external = external
        self.builtin = builtin
        self.inline = inline


def function_header(ctx, entry, span=None, functional=None) -> FunctionHeader:
    """The header of a function, translating the whole function the first time.

    ``functional``: functional input name -> the ``FunctionValue`` passed, for the
    specialization of a function with functional inputs; without it such a function has a
    header (``functional`` naming those inputs, their ports empty) but no body. A plain
    alias (``function f = P.g``) is the function it names: its body reads names there."""
    entry = ctx.classes.alias_of(entry, span)
    name = entry.full_name if not functional else \
        higher_order.specialized_name(entry.full_name, functional)
    header = ctx.function_headers.get(name)
    if header is not None:
        return header
    info = ctx.classes.expand(entry, span)
    definition = ctx.classes.definition(entry)
    if isinstance(definition.body, ast.DerClass):
        return _partial_derivative_header(ctx, entry, definition, span)
    if info.partial:
        raise FlattenError(f"function {name} is partial and cannot be called", span)
    scope = FunctionScope(ctx, entry, info)
    ports = {"input": [], "output": [], "local": []}
    declared = []   # (kind, position, the statements its default needs first)
    function_types = {}
    for member_name, member in info.members.items():
        decl = member.decl
        function_type = higher_order.is_functional(ctx, decl, entry)
        if function_type is not None:
            if decl.causality != "input":
                raise FlattenError(f"variable '{member_name}' of function {name} has a "
                                   "function type: only inputs can (MLS 12.4.2)", decl.span)
            if decl.modification is not None or decl.dims:
                raise FlattenError(f"functional input '{member_name}' of function {name} "
                                   "with a default or dimensions is not supported", decl.span)
            function_types[member_name] = function_type
            if functional is None:
                ports["input"].append(Port(member_name, ()))
            else:
                passed = functional[member_name]
                ports["input"].extend(higher_order.extra_ports(ctx, member_name, passed,
                                                               decl.span))
                scope.functional[member_name] = higher_order.local_value(
                    ctx, member_name, passed, decl.span)
            continue
        if decl.causality == "input" and decl.protected:
            raise FlattenError(f"input '{member_name}' of function {name} cannot be protected",
                               decl.span)
        # (``InArgument u`` with ``type InArgument = input Real``: the type's causality)
        causality = decl.causality or scope.type_info(decl).causality
        if not causality and member_name not in info.protected:
            raise FlattenError(f"public variable '{member_name}' of function {name} is neither "
                               "input nor output: the public variables of a function are its "
                               "formal parameters (MLS 12.2)", decl.span)
        kind = causality or "local"
        before = len(scope.hoisted)
        ports[kind].append(scope.declare(member))
        declared.append((kind, len(ports[kind]) - 1, tuple(scope.hoisted[before:])))
    prologue = _prologue(scope, ports, declared)
    external = _external(scope, info, ports)
    builtin = external is not None and external.language == "builtin"
    definition = ctx.classes.definition(entry)
    header = FunctionHeader(name, tuple(ports["input"]), tuple(ports["output"]), external,
                            builtin, _annotated(definition, INLINE_ANNOTATIONS),
                            function_types)
    ctx.function_headers[name] = header
    if function_types and functional is None:
        return header  # a body only per specialization
    if not builtin:
        local_vars = [var for port in ports["local"] for var in port.variables]
        _translate_body(ctx, entry, info, scope, header, local_vars, prologue)
    return header


def _partial_derivative_header(ctx, entry, definition: ast.ClassDef, span) -> FunctionHeader:
    """``function dfdx = der(f, x)``: the inputs and output of f, the body made from f's."""
    from compiler.flatten.partial_derivatives import partial_derivative
    body = definition.body
    base = function_header(ctx, ctx.classes.lookup_class(body.function, entry.parent, body.span),
                           body.span)
    ctx.functions[entry.full_name] = partial_derivative(
        entry.full_name, ctx.functions[base.name], body.variables, body.span,
        definition.description)
    header = FunctionHeader(entry.full_name, base.input_ports, base.output_ports, None, False,
                            False)
    ctx.function_headers[entry.full_name] = header
    return header


def declared_signature(ctx, entry, span) -> tuple:
    """The declared inputs of a function (name, whether it has a default) and its outputs'
    names, in order: what function type compatibility compares (MLS 6.7)."""
    info = ctx.classes.expand(entry, span)
    inputs, outputs = [], []
    for member_name, member in info.members.items():
        decl = member.decl
        if decl.causality == "input":
            inputs.append((member_name, decl.modification is not None and
                           decl.modification.binding is not None))
        elif decl.causality == "output":
            outputs.append(member_name)
    return inputs, outputs


def _prologue(scope: FunctionScope, ports: dict, declared: list) -> list:
    """Where a declaration's default needed statements first (a call with an array or
    record result), that default becomes a statement after those, as does every default
    reading a variable so assigned, in declaration order: the first statements of the body.
    The other defaults stay with their declarations (array sizes may read them)."""
    if not scope.hoisted:
        return []
    assigned = _assigned(scope.hoisted)
    statements = []
    for kind, position, needed in declared:
        if kind == "input":
            continue
        port = ports[kind][position]
        variables = []
        for var in port.variables:
            if var.default is not None and (needed or _reads(var.default) & assigned):
                statements.extend(needed)
                needed = ()
                statements.append(flat.Assign(flat.Var(var.name), var.default, var.span))
                assigned.add(var.name)
                var = dataclasses.replace(var, default=None)
            variables.append(var)
        statements.extend(needed)
        ports[kind][position] = type(port)(port.name, tuple(variables), port.record)
    used = set(map(id, statements))
    statements.extend(item for item in scope.hoisted if id(item) not in used)
    scope.hoisted.clear()
    return statements


def _reads(node) -> set:
    return {item.name for item in nodes(node) if type(item) is flat.Var}


def _assigned(statements) -> set:
    """The variables statements assign (an array of which they assign elements too)."""
    names = set()
    for item in nodes(statements):
        if type(item) is flat.Assign:
            target = item.target
            for element in target.elements if type(target) is flat.TupleExpr else (target,):
                while type(element) is flat.Index:
                    element = element.base
                if type(element) is flat.Var:
                    names.add(element.name)
    return names


def _external(scope: FunctionScope, info, ports) -> flat.ExternalCall | None:
    composition = info.composition
    clause = composition.external if composition is not None else None
    if clause is None:
        return None
    language = clause.language or "C"
    if language not in ("C", "FORTRAN 77", "builtin"):
        raise FlattenError(f"external language \"{language}\" is not supported (only \"C\" "
                           "and \"FORTRAN 77\")", clause.span)
    if any(port.record is not None for port in ports["input"] + ports["output"]):
        raise FlattenError("records as arguments of external functions are not supported",
                           clause.span)
    linkage = _linkage(scope, clause)
    if clause.function:
        args = tuple(scope.expr(arg) for arg in clause.args)
        output = clause.output.parts[0].name if clause.output is not None else ""
        return flat.ExternalCall(language, clause.function, args, output, **linkage)
    outputs = [var for port in ports["output"] for var in port.variables]
    if len(outputs) > 1:
        raise FlattenError("an external function with several outputs needs an explicit call",
                           clause.span)
    # the default mapping (MLS 12.9.1): the inputs in order, each array followed by its
    # sizes; a scalar output is the result, an array output the last argument
    returned = outputs[0].name if outputs and not outputs[0].dims else ""
    passed = [var for port in ports["input"] for var in port.variables] + \
        [var for var in outputs if var.dims]
    args = tuple(arg for var in passed for arg in _with_sizes(var))
    return flat.ExternalCall(language, scope.entry.name, args, returned, **linkage)


def _with_sizes(var: flat.FunctionVar) -> tuple:
    """A variable as the default mapping passes it: an array with its sizes after it."""
    sizes = tuple(flat.Call("size", (flat.Var(var.name), flat.Const(k + 1)))
                  for k in range(len(var.dims)))
    return (flat.Var(var.name),) + sizes


def _linkage(scope: FunctionScope, clause) -> dict:
    """``Include``, ``Library``, ``IncludeDirectory`` and ``LibraryDirectory`` of an external
    function (its clause's annotation, else the function's), the folders resolved; without
    them the defaults ``modelica://<top>/Resources/Include`` and ``.../Library`` (MLS
    12.9.4), where they exist."""
    library = scope.ctx.classes.library
    settings = {}
    definition = scope.ctx.classes.definition(scope.entry)
    body = definition.body
    for annotation in (clause.annotation, body.annotation if isinstance(body, ast.Composition)
                       else None):
        for key in ("Include", "Library", "IncludeDirectory", "LibraryDirectory"):
            if key not in settings:
                strings = _annotation_strings(annotation, key)
                if strings is not None:
                    settings[key] = strings
    top = scope.entry
    while top.parent is not None:
        top = top.parent

    def folders(key: str, default: str) -> tuple:
        uris = settings.get(key) or (f"modelica://{top.name}/Resources/{default}",)
        found = [library.resolve_uri(uri) for uri in uris]
        return tuple(str(path) for path in found if path is not None and path.is_dir())
    return {"include": settings.get("Include", ()), "libraries": settings.get("Library", ()),
            "include_directories": folders("IncludeDirectory", "Include"),
            "library_directories": folders("LibraryDirectory", "Library")}


def _annotation_strings(annotation, key: str):
    """The string (or array of strings) ``key`` of an annotation, as a tuple; None if absent."""
    if annotation is None:
        return None
    for argument in annotation.arguments:
        if isinstance(argument, ast.ElementMod) and argument.name == (key,) and \
                argument.modification is not None:
            value = argument.modification.binding
            items = value.elements if isinstance(value, ast.ArrayCons) else (value,)
            return tuple(item.value for item in items if isinstance(item, ast.StrLit))
    return None


def _translate_body(ctx, entry, info, scope, header, local_vars, prologue=()) -> None:
    name = header.name
    if info.equations or info.initial_equations:
        eq, _ = (info.equations or info.initial_equations)[0]
        raise FlattenError(f"function {name} cannot have equations", eq.span)
    if info.initial_algorithms:
        raise FlattenError(f"function {name} cannot have an initial algorithm",
                           info.initial_algorithms[0][0][0].span if info.initial_algorithms[0][0]
                           else None)
    statements = list(prologue)
    for section, written_in in info.algorithms:
        # an inherited body reads the names around its text (MLS 5.3), not around the
        # class inheriting it (``function g2 = Basic.g(final check = false)``)
        with scope.written_in(written_in):
            statements.extend(statement_block(scope, section))
    if not info.algorithms and header.external is None:
        span = ctx.classes.definition(entry).span
        raise FlattenError(f"function {name} has neither an algorithm nor an external clause",
                           span)
    definition = ctx.classes.definition(entry)
    ctx.functions[name] = flat.Function(
        name, header.inputs, header.outputs, tuple(local_vars) + tuple(scope.temporaries),
        tuple(statements), header.external, definition.description, definition.span,
        _derivatives(ctx, entry, definition, header))


def _derivatives(ctx, entry, definition: ast.ClassDef, header) -> tuple:
    """The derivative annotations of a function (MLS 12.7.1), their functions translated."""
    from compiler.library import ClassEntry
    body = definition.body
    annotation = body.annotation if isinstance(body, ast.Composition) else definition.annotation
    result = []
    for argument in annotation.arguments if annotation is not None else ():
        if not (isinstance(argument, ast.ElementMod) and argument.name == ("derivative",)):
            continue
        modification = argument.modification
        target = modification.binding if modification is not None else None
        if not isinstance(target, ast.ComponentRef):
            raise FlattenError("a derivative annotation names its function: "
                               "'derivative = name'", argument.span)
        options = {"order": 1, "noDerivative": [], "zeroDerivative": []}
        # an input named here may be a record: it stands for all its flat variables
        inputs = {port.name: [item.name for item in port.variables]
                  for port in header.input_ports}
        for option in modification.arguments:
            key = option.name[0] if isinstance(option, ast.ElementMod) else ""
            value = option.modification.binding if option.modification is not None else None
            if key == "order" and isinstance(value, ast.IntLit):
                options["order"] = value.value
            elif key in ("noDerivative", "zeroDerivative") and \
                    isinstance(value, ast.ComponentRef) and value.dotted in inputs:
                options[key].extend(inputs[value.dotted])
            else:
                raise FlattenError(f"'{key or option}' in a derivative annotation is not "
                                   "supported (order, noDerivative and zeroDerivative of an "
                                   "input are)", getattr(option, "span", None) or argument.span)
        found = ctx.classes.lookup(target.parts[0].name, None if target.is_global else entry,
                                   span=target.span)
        for part in target.parts[1:]:
            found = ctx.classes.member_of(found, part.name, part.span) \
                if isinstance(found, ClassEntry) else None
        if not isinstance(found, ClassEntry):
            raise FlattenError(f"unknown derivative function '{target.dotted}'", target.span)
        derivative = function_header(ctx, found, target.span)
        result.append(flat.FunctionDerivative(derivative.name, options["order"],
                                              tuple(options["noDerivative"]),
                                              tuple(options["zeroDerivative"])))
    return tuple(result)


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
