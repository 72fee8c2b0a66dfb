"""Numeric meaning of the IR: Modelica semantics of the operators and built-in functions.

Input: an IR expression and the values of its variables. Output: a Python number, bool or
string. ``BUILTINS`` is the one table of function semantics; the reference interpreter's
generated Python calls the same functions.
"""
from __future__ import annotations

import math

from compiler.symbolic.expr import Array, Call, Const, Op, Var


class EvaluationError(Exception):
    """An expression could not be evaluated (unknown value, domain error, user function)."""


def modelica_div(x, y):
    """``div(x, y)``: the quotient truncated toward zero (Integer for Integer arguments)."""
    quotient = math.trunc(x / y)
    return quotient if isinstance(x, int) and isinstance(y, int) else float(quotient)


def modelica_mod(x, y):
    return x - math.floor(x / y) * y


def modelica_rem(x, y):
    return x - modelica_div(x, y) * y


def modelica_sign(x):
    return 1 if x > 0 else -1 if x < 0 else 0


def modelica_pow(x, y):
    if isinstance(x, int) and isinstance(y, int) and y >= 0:
        return x ** y
    return math.pow(x, y)


def modelica_integer(x):
    return int(math.floor(x))


def modelica_string(x, *options):
    """String(x), String(x, format) or String(x, minimumLength, leftJustified,
    significantDigits) (MLS 3.7.1.2; C's printf conversions)."""
    if len(options) == 1:
        conversion = options[0]
        return f"%{conversion}" % (int(x) if conversion[-1:] in "diouxX" else float(x))
    minimum_length, left_justified, digits = options or (0, True, 6)
    if isinstance(x, bool):
        text = "true" if x else "false"
    elif isinstance(x, float):
        text = f"{x:.{max(int(digits), 1)}g}"
    else:
        text = str(x)
    return text.ljust(minimum_length) if left_justified else text.rjust(minimum_length)


BUILTINS = {
    "sin": math.sin, "cos": math.cos, "tan": math.tan, "asin": math.asin, "acos": math.acos,
    "atan": math.atan, "sinh": math.sinh, "cosh": math.cosh, "tanh": math.tanh,
    "exp": math.exp, "log": math.log, "log10": math.log10, "sqrt": math.sqrt,
    "atan2": math.atan2, "abs": abs, "sign": modelica_sign, "min": min, "max": max,
    "floor": lambda x: float(math.floor(x)), "ceil": lambda x: float(math.ceil(x)),
    "integer": modelica_integer, "Integer": int, "div": modelica_div, "mod": modelica_mod,
    "rem": modelica_rem, "String": modelica_string,
}

_BINARY = {
    "+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b,
    "/": lambda a, b: a / b, "^": modelica_pow,
    "<": lambda a, b: a < b, "<=": lambda a, b: a <= b, ">": lambda a, b: a > b,
    ">=": lambda a, b: a >= b, "==": lambda a, b: a == b, "<>": lambda a, b: a != b,
}


class Environment:
    """Values for evaluation: ``values[name]``, ``pre_values[name]`` (default: ``values``),
    the flags of ``initial()`` and ``terminal()``, and user functions by name (callables that
    return the tuple of all scalar outputs)."""

    def __init__(self, values, pre_values=None, initial=False, terminal=False, functions=None):
        self.values = values
        self.pre_values = values if pre_values is None else pre_values
        self.initial = initial
        self.terminal = terminal
        self.functions = functions or {}


def evaluate(expr, env: Environment, memo: dict | None = None):
    """The value of ``expr``; raises ``EvaluationError`` when that is impossible."""
    memo = {} if memo is None else memo
    try:
        return _value(expr, env, memo)
    except (ArithmeticError, ValueError, TypeError, KeyError) as error:
        raise EvaluationError(f"{expr}: {error}") from None


def _value(node, env, memo):
    done = memo.get(node)
    if done is not None:
        return done
    kind = type(node)
    if kind is Const:
        result = node.value
    elif kind is Var:
        result = env.values[node.name]
    elif kind is Op:
        result = _op(node, env, memo)
    elif kind is Call:
        result = _call(node, env, memo)
    elif kind is Array:
        result = [_value(item, env, memo) for item in node.elements]
    else:
        raise EvaluationError(f"cannot evaluate {node!r}")
    memo[node] = result
    return result


def _op(node, env, memo):
    name, args = node.op, node.args
    if name == "if":
        branch = args[1] if _value(args[0], env, memo) else args[2]
        return _value(branch, env, memo)
    if name == "and":
        return bool(_value(args[0], env, memo)) and bool(_value(args[1], env, memo))
    if name == "or":
        return bool(_value(args[0], env, memo)) or bool(_value(args[1], env, memo))
    if name == "not":
        return not _value(args[0], env, memo)
    if name == "neg":
        return -_value(args[0], env, memo)
    if name == "pre":
        return env.pre_values[args[0].name]
    if name == "initial":
        return env.initial
    if name == "terminal":
        return env.terminal
    binary = _BINARY.get(name)
    if binary is not None:
        return binary(_value(args[0], env, memo), _value(args[1], env, memo))
    function = BUILTINS.get(name)
    if function is None:
        raise EvaluationError(f"no numeric meaning for {name}()")
    return function(*(_value(arg, env, memo) for arg in args))


def _call(node, env, memo):
    function = env.functions.get(node.function)
    if function is None:
        raise EvaluationError(f"function {node.function} is not available here")
    outputs = function(*(_value(arg, env, memo) for arg in node.args))
    return outputs[node.output]
