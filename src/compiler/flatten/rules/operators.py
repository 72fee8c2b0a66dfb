"""Types of operands of the operators and built-in functions, and of bindings (MLS 3.4-3.7,
4.9.5, 10.6).

Input: translated flat operands (the type of an operand is read from its outermost node only,
so that checking every operator as it is translated stays cheap) and, for model expressions,
the run's variables. Output: nothing, or a ``FlattenError`` at the expression.
"""
from __future__ import annotations

from compiler import flat
from compiler.flatten.errors import FlattenError
from compiler.flatten.exprtypes import constant_type

_NUMERIC = frozenset({"Real", "Integer"})
_SIMPLE = frozenset({"Real", "Integer", "Boolean", "String"})
_ARITHMETIC = frozenset({"+", "-", "*", "/", "^"})
_RELATIONS = frozenset({"<", "<=", ">", ">=", "==", "<>"})
_LOGICAL = frozenset({"and", "or"})
_BOOLEAN_CALLS = frozenset({"edge", "change", "initial", "terminal", "sample"})
# built-ins whose arguments are numbers (MLS 3.7.1-3.7.3)
NUMERIC_ARGUMENTS = frozenset({
    "abs", "sign", "sqrt", "sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh",
    "exp", "log", "log10", "floor", "ceil", "integer", "atan2", "mod", "rem", "div",
    "semiLinear", "smooth"})
# functions returning a Real whatever their arguments (MLS 3.7.1, 3.7.3)
_REAL_CALLS = frozenset({
    "sqrt", "sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh", "exp", "log",
    "log10", "floor", "ceil", "atan2", "der", "delay"})


def outer_type(value, ctx=None) -> str:
    """The type of a flat scalar as its outermost node tells (``""`` when it does not)."""
    kind = type(value)
    if kind is flat.Const:
        return constant_type(value.value)
    if kind is flat.EnumConst:
        return value.type
    if kind is flat.Var:
        if ctx is None:
            return ""
        record = ctx.variables.get(value.name)
        return record.type if record is not None else ""
    if kind is flat.Binary:
        return "Boolean" if value.op in _RELATIONS or value.op in _LOGICAL else ""
    if kind is flat.Unary:
        return "Boolean" if value.op == "not" else ""
    if kind is flat.Call:
        if value.name in _BOOLEAN_CALLS:
            return "Boolean"
        return "String" if value.name == "String" else ""
    return ""


def surely_real(value, ctx) -> bool:
    """Whether a model expression is certainly of type Real (not Integer)."""
    kind = type(value)
    if kind is flat.Const:
        return type(value.value) is float
    if kind is flat.Var:
        record = ctx.variables.get(value.name)
        return record is not None and record.type == "Real" or value.name == "time"
    if kind is flat.Binary:
        if value.op in ("/", "^"):
            return True
        return value.op in ("+", "-", "*") and (surely_real(value.left, ctx) or
                                                surely_real(value.right, ctx))
    if kind is flat.Unary:
        return value.op == "-" and surely_real(value.operand, ctx)
    if kind is flat.IfExpr:
        return surely_real(value.then, ctx) and surely_real(value.else_, ctx)
    if kind is flat.Call:
        if value.name in _REAL_CALLS:
            return True
        header = ctx.function_headers.get(value.name)
        return header is not None and len(header.outputs) == 1 and \
            header.outputs[0].type == "Real"
    return False


def check_binary(op: str, left, right, ctx, span) -> None:
    """Scalar operands of a binary operator."""
    left_type, right_type = outer_type(left, ctx), outer_type(right, ctx)
    if not left_type and not right_type:
        return
    if op in _ARITHMETIC:
        if op == "+" and "String" in (left_type, right_type) and \
                {left_type, right_type} <= {"String", ""}:
            return  # (string concatenation)
        for found in (left_type, right_type):
            if found and found not in _NUMERIC:
                raise FlattenError(f"'{op}' needs numeric operands, not {found} (MLS 3.4)",
                                   span)
    elif op in _RELATIONS:
        if left_type and right_type and left_type != right_type and \
                not (left_type in _NUMERIC and right_type in _NUMERIC):
            raise FlattenError(f"cannot compare {left_type} with {right_type}: relations need "
                               "operands of the same type (MLS 3.5)", span)
    elif op in _LOGICAL:
        for found in (left_type, right_type):
            if found and found != "Boolean":
                raise FlattenError(f"'{op}' needs Boolean operands, not {found} (MLS 3.5)", span)


def check_unary(op: str, operand, ctx, span) -> None:
    found = outer_type(operand, ctx)
    if not found:
        return
    if op == "not" and found != "Boolean":
        raise FlattenError(f"'not' needs a Boolean operand, not {found} (MLS 3.5)", span)
    if op in ("-", "+") and found not in _NUMERIC:
        raise FlattenError(f"'{op}' needs a numeric operand, not {found} (MLS 3.4)", span)


def check_numeric_arguments(function: str, args, ctx, span) -> None:
    """The arguments of a built-in mathematical function are numbers (MLS 3.7)."""
    for arg in args:
        found = outer_type(arg, ctx)
        if found and found not in _NUMERIC:
            raise FlattenError(f"{function}() needs numeric arguments, not {found} (MLS 3.7)",
                               span)


def check_statement_arguments(condition, message, span) -> None:
    """``assert(condition, message)``: a Boolean and a String (MLS 8.3.7)."""
    for value, expected, what in ((condition, "Boolean", "condition"),
                                  (message, "String", "message")):
        found = outer_type(value)
        if found and found != expected:
            raise FlattenError(f"the {what} of assert() must be a {expected}, not {found} "
                               "(MLS 8.3.7)", span)


def check_binding_type(target: str, value, ctx, span, name: str) -> None:
    """A binding of a variable of type ``target`` has a type assignable to it: the same
    type, or an Integer for a Real (MLS 4.4.2, 10.6); enumerations convert to nothing."""
    found = outer_type(value, ctx) if type(value) is not flat.IfExpr else ""
    if target == "Integer" and (found == "Real" or (not found and surely_real(value, ctx))):
        raise FlattenError(f"the binding of Integer '{name}' is a Real expression (MLS 10.6)",
                           span)
    if not found or found == target or (target == "Real" and found == "Integer"):
        return
    if target in _SIMPLE or found in _SIMPLE or target != found:
        raise FlattenError(f"the binding of {target} '{name}' is of type {found} (MLS 10.6)",
                           span)
