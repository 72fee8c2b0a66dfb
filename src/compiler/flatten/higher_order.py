"""Functional arguments (MLS 12.4.2): functions passed to inputs of a function type.

Input: a call of a function with functional inputs (``input Integrand f;`` where
``Integrand`` is a function class, usually partial), whose arguments name functions
(``quadrature(0, 1, Parabola)``) or bind some of their inputs (``function Sine(w = 2)``).
Output: a call of a *specialization* of the called function, one per distinct functional
argument: a ``flat.Function`` whose body calls the passed functions directly, so later stages
(the interpreter, C and Rust) see first-order functions only and no function pointers.

A specialization is named by its function and the shape of its functional arguments
(``P.quadrature(integrand=P.Sine(w))``). The values bound by partial application are not
part of the name: they become extra inputs of the specialization, named after the functional
input and the bound input (``integrand.w``), so one specialization serves every value.
"""
from __future__ import annotations

from compiler import flat
from compiler.flatten.errors import FlattenError
from compiler.lang import ast


class FunctionValue:
    """A function as a value: its class and the inputs bound so far (name -> a value of the
    caller, or a ``FunctionValue`` for a functional input)."""

    __slots__ = ("entry", "bound")

    def __init__(self, entry, bound: tuple = ()):
        self.entry = entry
        self.bound = bound

    def shape(self) -> str:
        """What a specialization depends on: the function and which inputs are bound (for a
        bound function, its own shape), not the bound values."""
        parts = [name + (f"={value.shape()}" if type(value) is FunctionValue else "")
                 for name, value in self.bound]
        return f"{self.entry.full_name}({', '.join(parts)})"


def specialized_name(name: str, functional: dict) -> str:
    return f"{name}({', '.join(f'{key}={functional[key].shape()}' for key in sorted(functional))})"


def is_functional(ctx, decl: ast.Component, scope_entry):
    """The function class a declared function variable has as its type, or None."""
    found = ctx.classes.lookup_class(decl.type_name, scope_entry, decl.span)
    kind = ctx.classes.definition(found).kind
    return found if kind in ("function", "operator function") else None


# ------------------------------------------------------------------- the specialization
def extra_ports(ctx, prefix: str, value: FunctionValue, span) -> list:
    """The inputs a specialization gets for the values bound in the function passed to its
    functional input ``prefix``: the bound inputs of that function renamed ``prefix.name``
    (their sizes taken from the arguments), those of bound functions in turn."""
    from compiler.flatten.function_body import Port
    from compiler.flatten.functions import function_header
    header = function_header(ctx, value.entry, span, bound_functions(value))
    ports = {port.name: port for port in header.input_ports}
    result = []
    for name, bound in value.bound:
        if type(bound) is FunctionValue:
            result.extend(extra_ports(ctx, f"{prefix}.{name}", bound, span))
            continue
        port = ports[name]
        result.append(Port(f"{prefix}.{name}", tuple(
            flat.FunctionVar(f"{prefix}.{var.name}", var.type, tuple(None for _ in var.dims),
                             None, var.span) for var in port.variables), port.record))
    return result


def local_value(ctx, prefix: str, value: FunctionValue, span) -> FunctionValue:
    """The functional input ``prefix`` as the specialization's body sees it: the function
    passed, its bound values read from the extra inputs that carry them."""
    from compiler.flatten.records import record_from_leaves, record_leaves
    ports = {port.name: port for port in extra_ports(ctx, prefix, value, span)}
    bound = []
    for name, item in value.bound:
        if type(item) is FunctionValue:
            bound.append((name, local_value(ctx, f"{prefix}.{name}", item, span)))
            continue
        port = ports[f"{prefix}.{name}"]
        if port.record is None:
            bound.append((name, flat.Var(port.variables[0].name)))
        else:
            leaves = record_leaves(ctx.classes, port.record)
            bound.append((name, record_from_leaves(port.record.name, leaves, {
                leaf.name: flat.Var(f"{port.name}.{leaf.name}") for leaf in leaves},
                split_arrays=False)))
    return FunctionValue(value.entry, tuple(bound))


def bound_functions(value: FunctionValue) -> dict | None:
    """The functional inputs a function value binds (None: none, the plain function)."""
    found = {name: item for name, item in value.bound if type(item) is FunctionValue}
    return found or None


def bound_values(prefix: str, value: FunctionValue) -> dict:
    """Extra input port name -> the caller's value bound there (see ``extra_ports``)."""
    result = {}
    for name, item in value.bound:
        if type(item) is FunctionValue:
            result.update(bound_values(f"{prefix}.{name}", item))
        else:
            result[f"{prefix}.{name}"] = item
    return result


# ------------------------------------------------------------------------------- calls
class Caller:
    """How the place of a call reads its arguments: ``translate`` an expression to a value
    usable as an input, ``local`` a functional input of the enclosing function (or None),
    ``lookup`` a function class by name."""

    __slots__ = ("ctx", "translate", "local", "lookup")

    def __init__(self, ctx, translate, local, lookup):
        self.ctx = ctx
        self.translate = translate
        self.local = local
        self.lookup = lookup

    def function_value(self, arg, expected, what: str) -> FunctionValue:
        """The function an argument of a functional input denotes (MLS 12.4.2.1): a function
        name, a functional input of the caller, or ``function f(a = e)``."""
        named = ()
        if type(arg) is ast.FunctionArg:
            named, arg = arg.named, arg.func
        if type(arg) is not ast.ComponentRef:
            raise FlattenError(f"{what} is a function: give a function name or "
                               "'function f(a = ...)'", getattr(arg, "span", None))
        value = self.local(arg)
        if value is None:
            try:
                entry = self.lookup(arg)
            except FlattenError:
                raise FlattenError(f"{what} is a function, but '{arg.dotted}' is not one",
                                   arg.span) from None
            kind = self.ctx.classes.definition(entry).kind
            if kind not in ("function", "operator function"):
                raise FlattenError(f"{what} is a function, but '{arg.dotted}' is a {kind}",
                                   arg.span)
            value = FunctionValue(entry)
        if named:
            value = self._bind(value, named)
        if expected is not None:
            _check_compatible(self.ctx, value, expected, arg.span)
        return value

    def _bind(self, value: FunctionValue, named) -> FunctionValue:
        from compiler.flatten.functions import function_header
        header = function_header(self.ctx, value.entry, named[0].span)
        names = [port.name for port in header.input_ports]
        bound = list(value.bound)
        for item in named:
            if item.name not in names:
                raise FlattenError(f"function {header.name} has no input named '{item.name}'",
                                   item.span)
            if any(name == item.name for name, _ in bound):
                raise FlattenError(f"input '{item.name}' of function {header.name} is bound "
                                   "twice", item.span)
            expected = header.functional.get(item.name)
            bound.append((item.name, self.function_value(
                item.value, expected, f"input '{item.name}' of function {header.name}")
                if expected is not None else self.translate(item.value)))
        return FunctionValue(value.entry, tuple(bound))

    def call(self, value: FunctionValue, call: ast.Call, defaulted=frozenset()):
        """The header to call and its input port name -> value for calling ``value`` with
        the arguments of ``call`` (the inputs it binds come first, then positional
        arguments fill the others in order)."""
        from compiler.flatten.calls import bind_arguments
        from compiler.flatten.functions import function_header
        generic = function_header(self.ctx, value.entry, call.span)
        bound = dict(value.bound)
        names = [port.name for port in generic.input_ports if port.name not in bound]
        given = dict(zip(names, bind_arguments(call, names, f"function {generic.name}")))
        functional = {}
        for name, expected in generic.functional.items():
            if name in bound:
                functional[name] = bound[name]
            elif given.get(name) is not None:
                functional[name] = self.function_value(
                    given[name], expected, f"input '{name}' of function {generic.name}")
            else:
                raise FlattenError(f"input '{name}' of function {generic.name} is not given "
                                   "and has no default", call.span)
        ports = {}
        for port in generic.input_ports:
            if port.name in generic.functional:
                continue
            if port.name in bound:
                ports[port.name] = bound[port.name]
            elif given.get(port.name) is not None:
                ports[port.name] = self.translate(given[port.name])
            elif port.name not in defaulted and any(var.default is None
                                                    for var in port.variables):
                raise FlattenError(f"input '{port.name}' of function {generic.name} is not "
                                   "given and has no default", call.span)
        if not functional:
            return generic, ports
        for name, item in functional.items():
            ports.update(bound_values(name, item))
        return function_header(self.ctx, value.entry, call.span, functional), ports


def _check_compatible(ctx, value: FunctionValue, expected, span) -> None:
    """A function passed for an input of function type ``expected`` must be compatible with
    it (MLS 6.7): its unbound inputs take the type's inputs at the same positions with the
    same names (any more have defaults); its outputs give the type's by position (a
    partially applied function's output may have another name, as in MLS 12.4.2.1)."""
    from compiler.flatten.functions import declared_signature
    given_inputs, given_outputs = declared_signature(ctx, value.entry, span)
    bound = {name for name, _ in value.bound}
    inputs = [item for item in given_inputs if item[0] not in bound]
    wanted_inputs, wanted_outputs = declared_signature(ctx, expected, span)
    passed = value.shape()
    for position, (name, _) in enumerate(wanted_inputs):
        if position >= len(inputs) or inputs[position][0] != name:
            raise FlattenError(f"function {passed} is not compatible with function type "
                               f"{expected.full_name}: its input {position + 1} is not '{name}'"
                               " (MLS 6.7)", span)
    for name, has_default in inputs[len(wanted_inputs):]:
        if not has_default:
            raise FlattenError(f"function {passed} is not compatible with function type "
                               f"{expected.full_name}: its input '{name}' has no default "
                               "(MLS 6.7)", span)
    if len(given_outputs) < len(wanted_outputs):
        raise FlattenError(f"function {passed} is not compatible with function type "
                           f"{expected.full_name}: it has {len(given_outputs)} outputs, the "
                           f"type {len(wanted_outputs)} (MLS 6.7)", span)
