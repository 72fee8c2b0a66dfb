"""Constant evaluation of flat expressions: the values of parameters where structure needs them.

Input: values (flat expressions, arrays of them) and the run's variables. Output: Python
values (``float``, ``int``, ``bool``, ``str``, ``flat.EnumConst``, tuples for arrays), or
``NotEvaluable`` naming the variable that is not a parameter or constant.
"""
from __future__ import annotations

import math
import operator

from compiler import flat
from compiler.flatten import translate as translation
from compiler.flatten.errors import FlattenError, NotEvaluable
from compiler.flatten.values import RecordValue, ShapeError, shape
from compiler.symbolic.evaluate import modelica_string


def _div(a, b):
    if b == 0:
        raise NotEvaluable("division by zero")
    return a / b


def _power(a, b):
    try:
        result = a ** b
    except (OverflowError, ZeroDivisionError):
        raise NotEvaluable("arithmetic error in a power") from None
    if isinstance(result, complex):
        raise NotEvaluable("a negative number raised to a fractional power")
    return float(result) if isinstance(a, float) or isinstance(b, float) or b < 0 else result


_BINARY = {
    "+": operator.add, "-": operator.sub, "*": operator.mul, "/": _div, "^": _power,
    ".+": operator.add, ".-": operator.sub, ".*": operator.mul, "./": _div, ".^": _power,
    "<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge,
    "==": operator.eq, "<>": operator.ne,
}


def _integer_division(a, b):
    if b == 0:
        raise NotEvaluable("division by zero")
    quotient = abs(a) // abs(b) * (1 if (a >= 0) == (b >= 0) else -1)
    return int(quotient) if isinstance(a, int) and isinstance(b, int) else float(quotient)


def _guard(function):
    def guarded(*args):
        try:
            return function(*args)
        except (ValueError, OverflowError, ZeroDivisionError):
            raise NotEvaluable(f"{function.__name__} of an argument outside its domain") from None
    guarded.__name__ = function.__name__
    return guarded


_FUNCTIONS = {
    "abs": abs, "sqrt": _guard(math.sqrt), "sin": math.sin, "cos": math.cos, "tan": math.tan,
    "asin": _guard(math.asin), "acos": _guard(math.acos), "atan": math.atan,
    "atan2": math.atan2, "sinh": _guard(math.sinh), "cosh": _guard(math.cosh),
    "tanh": math.tanh, "exp": _guard(math.exp), "log": _guard(math.log),
    "log10": _guard(math.log10), "floor": lambda x: float(math.floor(x)),
    "ceil": lambda x: float(math.ceil(x)), "integer": lambda x: int(math.floor(x)),
    "sign": lambda x: (x > 0) - (x < 0), "min": min, "max": max,
    "div": _integer_division,
    "mod": lambda a, b: a - math.floor(a / b) * b if b != 0 else _integer_division(a, b),
    "rem": lambda a, b: a - _integer_division(a, b) * b,
    "noEvent": lambda x: x, "smooth": lambda p, x: x, "homotopy": lambda a, s: a,
    "Integer": lambda e: e.ordinal, "String": modelica_string,
}


def evaluate(value, ctx, structural: bool = False):
    """The Python value of ``value``; parameters are evaluated through their bindings.

    With ``structural`` every parameter used is marked as structural in ``ctx``.
    """
    kind = type(value)
    if kind is flat.Const or kind is flat.EnumConst:
        return value.value if kind is flat.Const else value
    if kind is tuple:
        return tuple(evaluate(item, ctx, structural) for item in value)
    if kind is flat.ArrayExpr:
        return tuple(evaluate(item, ctx, structural) for item in value.elements)
    if kind is flat.Var:
        return variable_value(value.name, ctx, structural)
    if kind is flat.Binary:
        return _binary(value, ctx, structural)
    if kind is flat.Unary:
        operand = evaluate(value.operand, ctx, structural)
        return (not operand) if value.op == "not" else -operand
    if kind is flat.IfExpr:
        chosen = value.then if evaluate(value.condition, ctx, structural) else value.else_
        return evaluate(chosen, ctx, structural)
    if kind is flat.Call:
        if value.name in ("size", "ndims") and value.args and type(value.args[0]) is tuple:
            return _shape_of(value, ctx, structural)
        if value.name in ctx.functions:
            return call_function(value.name, [evaluate(arg, ctx, structural)
                                              for arg in value.args], ctx)[0]
        function = _FUNCTIONS.get(value.name)
        if function is None:
            raise NotEvaluable(f"{value.name}() cannot be evaluated while flattening")
        args = [evaluate(arg, ctx, structural) for arg in value.args]
        try:
            return function(*args)
        except TypeError:
            raise NotEvaluable(f"{value.name}() of these arguments cannot be evaluated") from None
    if kind is RecordValue:
        raise NotEvaluable(f"a record of type {value.type} is not a number")
    raise NotEvaluable(f"{type(value).__name__} cannot be evaluated")


def _shape_of(value: flat.Call, ctx, structural: bool):
    """``size(a, k)``, ``size(a)`` or ``ndims(a)`` of a scalarized array, from its shape
    alone (its elements need not have values)."""
    dims = shape(value.args[0])
    if value.name == "ndims":
        return len(dims)
    if len(value.args) == 1:
        return dims
    k = evaluate(value.args[1], ctx, structural)
    if not isinstance(k, int) or not 1 <= k <= len(dims):
        raise NotEvaluable(f"size(A, {k}) of an array of {len(dims)} dimensions")
    return dims[k - 1]


def call_function(name: str, args: list, ctx) -> tuple:
    """Every output of a user function called with evaluated arguments (arrays as tuples).

    The reference interpreter's translation of flat functions to Python runs it; an external
    function, or one it cannot run, is not evaluable."""
    from compiler.interp.errors import SimulationError
    from compiler.interp.functions import FunctionAssertion, FunctionTable
    table = ctx.function_table
    if table is None or name not in table.declared:
        table = ctx.function_table = FunctionTable(list(ctx.functions.values()))
    try:
        results = table.structured(name)(*(_to_python(arg) for arg in args))
    except FunctionAssertion as error:
        raise NotEvaluable(f"an assert in {name} failed: {error}") from None
    except SimulationError as error:
        raise NotEvaluable(f"{name}() cannot be evaluated while flattening: "
                           f"{error.message}") from None
    except (ArithmeticError, ValueError, TypeError, IndexError) as error:
        raise NotEvaluable(f"{name}() failed while flattening: {error}") from None
    except NameError as error:
        # a gap of the interpreter's translation (a name its Python does not define): the
        # generated C computes the call instead of flattening stopping with a traceback
        raise NotEvaluable(f"{name}() cannot be evaluated while flattening: the reference "
                           f"interpreter's translation of it is incomplete ({error})") from None
    return tuple(_from_python(result, output.type, ctx)
                 for result, output in zip(results, ctx.functions[name].outputs))


def _to_python(value):
    if type(value) is tuple:
        return tuple(_to_python(item) for item in value)
    if type(value) is flat.EnumConst:
        return value.ordinal
    return value


def _from_python(value, type_name: str, ctx):
    """numpy results as the values ``evaluate`` gives: tuples, float, int, bool, literals."""
    import numpy as np
    if isinstance(value, np.ndarray):
        return tuple(_from_python(item, type_name, ctx) for item in value)
    if type_name in ctx.enumerations:
        literals = ctx.enumerations[type_name].literals
        return flat.EnumConst(type_name, literals[int(value) - 1], int(value))
    if type_name == "Integer":
        return int(value)
    if type_name == "Boolean":
        return bool(value)
    if type_name == "Real":
        return float(value)
    return value.item() if isinstance(value, np.generic) else value


def _binary(value: flat.Binary, ctx, structural: bool):
    op = value.op
    left = evaluate(value.left, ctx, structural)
    if op == "and":
        return bool(left) and bool(evaluate(value.right, ctx, structural))
    if op == "or":
        return bool(left) or bool(evaluate(value.right, ctx, structural))
    right = evaluate(value.right, ctx, structural)
    if type(left) is flat.EnumConst or type(right) is flat.EnumConst:
        left = left.ordinal if type(left) is flat.EnumConst else left
        right = right.ordinal if type(right) is flat.EnumConst else right
    try:
        return _BINARY[op](left, right)
    except TypeError:
        raise NotEvaluable(f"'{op}' cannot combine {left!r} and {right!r}") from None


def variable_value(name: str, ctx, structural: bool = False):
    """The value of a parameter or constant, from its binding (or its start value)."""
    if name == "time":
        raise NotEvaluable("'time' varies")
    record = ctx.variables.get(name)
    if record is None:
        raise NotEvaluable(f"'{name}' is not known")
    if record.variability not in ("constant", "parameter"):
        raise NotEvaluable(f"'{name}' is not a parameter or constant")
    if record.value is not None and (not structural or name in ctx.structural):
        return record.value
    if name in ctx.evaluating:
        raise FlattenError(f"the value of '{name}' depends on itself", record.span)
    if structural:
        ctx.structural.add(name)
    ctx.evaluating.add(name)
    try:
        source = translation.variable_binding(record)
        if source is None:
            source = translation.attribute_value(record, "start")
        if source is None:
            raise NotEvaluable(f"parameter '{name}' has no value")
        value = evaluate(source, ctx, structural)
    finally:
        ctx.evaluating.discard(name)
    record.value = _conform(value, record)
    return record.value


def _conform(value, record):
    if record.type == "Real" and isinstance(value, int) and not isinstance(value, bool):
        return float(value)
    return value


def evaluate_structural(expr, env, what: str, expect=None):
    """Translate and evaluate an AST expression that structure depends on.

    Raises
    ------
    FlattenError
        ``<what> must be a parameter expression: <reason>`` at the expression, or a type error.
    """
    try:
        value = evaluate(translation.translate(expr, env), env.ctx, structural=True)
    except NotEvaluable as error:
        raise FlattenError(f"{what} must be a parameter expression: {error.reason}",
                           expr.span) from None
    except ShapeError as error:
        raise FlattenError(f"{what}: {error}", expr.span) from None
    if expect is int and (isinstance(value, bool) or not isinstance(value, int)):
        raise FlattenError(f"{what} must be an Integer, not {_describe(value)}", expr.span)
    if expect is bool and not isinstance(value, bool):
        raise FlattenError(f"{what} must be a Boolean, not {_describe(value)}", expr.span)
    return value


def _describe(value) -> str:
    if isinstance(value, bool):
        return "a Boolean"
    if isinstance(value, float):
        return f"the Real {value!r}"
    if isinstance(value, str):
        return "a String"
    if isinstance(value, tuple):
        return "an array"
    return repr(value)
