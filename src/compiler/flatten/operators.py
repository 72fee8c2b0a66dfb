"""Operator records (MLS 14): operators, constructors and ``String`` applied to records call
the functions the record class defines for them (``Complex.'+'``, ``Complex.'constructor'``).

Input: the operands' values (``RecordValue`` for records) and the translator of the place:
``calls.ModelCalls`` in models, ``FunctionScope`` in functions (each has ``ctx``, ``expr`` and
``finish_call``). Output: the value of the call of the matching operator function: one whose
inputs take the operands as they are, else one that takes them after a scalar operand is
converted by the record's constructor (``c * 2`` is ``multiply(c, Complex(2))``).
"""
from __future__ import annotations

from compiler.flatten.errors import FlattenError
from compiler.flatten.values import RecordValue, shape

_FUNCTION_KINDS = ("function", "operator function")


def overloaded_operator(translator, op: str, operands: tuple, span):
    """The value of ``op`` (``+``, ``-`` for unary minus too, ``==``, ``String``, ...) on
    operands of which at least one is a record."""
    from compiler.flatten.functions import function_header
    ctx = translator.ctx
    types = list(dict.fromkeys(_record_type(value) for value in operands
                               if _record_type(value) is not None))
    candidates = [entry for type_name in types
                  for entry in _operator_functions(ctx, type_name, f"'{op}'")]
    headers = [function_header(ctx, entry, span) for entry in candidates]
    for header in headers:
        ports = _matched(ctx, header, operands)
        if ports is not None:
            return translator.finish_call(header, ports, span)
    for header in headers:
        ports = _converted(translator, header, operands, span)
        if ports is not None:
            return translator.finish_call(header, ports, span)
    if not types:
        raise FlattenError(f"'{op}' is not defined for these operands", span)
    if not candidates:
        raise FlattenError(f"'{op}' is not defined for records of type {types[0]} (it defines "
                           f"no operator '{op}')", span)
    raise FlattenError(f"no operator '{op}' of {types[0]} takes operands "
                       f"{', '.join(_describe(value) for value in operands)}", span)


def constructor_call(translator, info, call):
    """``R(args)`` through the record's ``operator 'constructor'``, or None when it has none."""
    from compiler.flatten.calls import bind_call
    from compiler.flatten.functions import function_header
    entries = _operator_functions(translator.ctx, info.name, "'constructor'")
    if not entries:
        return None
    failures, matches = [], []
    for entry in entries:
        header = function_header(translator.ctx, entry, call.span)
        _check_constructor(header, info, call.span)
        try:
            ports = bind_call(header, call, translator.expr, lambda value, span: value)
        except FlattenError as error:
            failures.append(error)
            continue
        if all(_fits(translator.ctx, port, ports[port.name])
               for port in header.input_ports if port.name in ports):
            matches.append((header, ports))
    if len(matches) > 1:
        raise FlattenError(f"the call of {info.name} matches {len(matches)} of its constructors "
                           f"({', '.join(header.name for header, _ in matches)}); it must "
                           "match one (MLS 14.2)", call.span)
    if matches:
        header, ports = matches[0]
        return translator.finish_call(header, ports, call.span)
    if failures:
        raise failures[0]
    raise FlattenError(f"no constructor of {info.name} takes these arguments", call.span)


def _check_constructor(header, info, span) -> None:
    """A constructor declares one output, of its operator record (MLS 14.2; an operator
    record defined as a short class of another has that one's constructors)."""
    ports = header.output_ports
    if len(ports) != 1 or ports[0].record is None:
        raise FlattenError(f"constructor {header.name} of {info.name} must declare exactly one "
                           f"output, of type {info.name} (MLS 14.2)", span)


def _record_type(value):
    if type(value) is RecordValue:
        return value.type
    if type(value) is tuple and value:
        return _record_type(value[0])
    return None


def _operator_functions(ctx, type_name: str, operator: str) -> list:
    """The function entries of ``operator`` in record class ``type_name``."""
    info = ctx.classes.info_named(type_name)
    if info is None:
        return []
    entry = info.classes.get(operator)
    if entry is None:
        return []
    holder = ctx.classes.expand(entry)
    if holder.kind in _FUNCTION_KINDS:
        return [entry]
    return [child for child in holder.classes.values()
            if ctx.classes.expand(child).kind in _FUNCTION_KINDS]


def _matched(ctx, header, operands) -> dict | None:
    ports = header.input_ports
    required = sum(1 for port in ports if any(var.default is None for var in port.variables))
    if not required <= len(operands) <= len(ports):
        return None
    if all(_fits(ctx, port, value) for port, value in zip(ports, operands)):
        return {port.name: value for port, value in zip(ports, operands)}
    return None


def _converted(translator, header, operands, span) -> dict | None:
    """The ports with scalar operands given to record inputs converted by a constructor."""
    ports = header.input_ports
    if len(operands) > len(ports):
        return None
    result = {}
    for port, value in zip(ports, operands):
        if _fits(translator.ctx, port, value):
            result[port.name] = value
            continue
        if port.record is None or _record_type(value) is not None or shape(value) != ():
            return None
        converted = _construct(translator, port.record, value, span)
        if converted is None or not _fits(translator.ctx, port, converted):
            return None
        result[port.name] = converted
    if any(port.name not in result and any(var.default is None for var in port.variables)
           for port in ports):
        return None
    return result


def _construct(translator, info, value, span):
    """``info``'s constructor applied to one scalar (``Complex(2)``)."""
    from compiler.flatten.functions import function_header
    for entry in _operator_functions(translator.ctx, info.name, "'constructor'"):
        header = function_header(translator.ctx, entry, span)
        ports = _matched(translator.ctx, header, (value,))
        if ports is not None:
            return translator.finish_call(header, ports, span)
    return None


def _fits(ctx, port, value) -> bool:
    """Whether a port takes a value as it is: a record of its type, a scalar or array of the
    same dimensions, numbers for numbers (an Integer input only takes an Integer)."""
    from compiler.flatten.exprtypes import expr_type
    if port.record is not None:
        own = len(port.variables[0].dims) - len(_first_leaf_dims(ctx, port))
        item = value
        for _ in range(own):
            if type(item) is not tuple or not item:
                return type(item) is not RecordValue and own > 0 and item == ()
            item = item[0]
        return type(item) is RecordValue and _same_record(ctx, item.type, port.record)
    if _record_type(value) is not None:
        return False
    variable = port.variables[0]
    if len(shape(value)) != len(variable.dims):
        return False
    if type(value) is tuple:
        return True
    actual = expr_type(value, ctx)
    if variable.type == "Integer":
        return actual in ("Integer", "")
    if variable.type in ("Real",):
        return actual in ("Real", "Integer", "")
    return actual in (variable.type, "")


def _first_leaf_dims(ctx, port):
    from compiler.flatten.records import record_leaves
    leaves = record_leaves(ctx.classes, port.record)
    return leaves[0].dims if leaves else ()


def _same_record(ctx, type_name: str, info) -> bool:
    if type_name == info.name:
        return True
    other = ctx.classes.info_named(type_name)
    if other is None:
        return False
    from compiler.flatten.records import record_leaves
    return [leaf.path for leaf in record_leaves(ctx.classes, other)] == \
        [leaf.path for leaf in record_leaves(ctx.classes, info)]


def _describe(value) -> str:
    record = _record_type(value)
    if record is not None:
        return record + (" array" if type(value) is tuple else "")
    return "an array" if type(value) is tuple else "a scalar"
