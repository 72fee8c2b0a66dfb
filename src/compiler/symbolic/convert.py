"""Flat expressions (``compiler.flat``) -> IR expressions.

Input: a flat expression, the types of the variables, the model's functions, and hooks for
what depends on the stage (latching relations, sample flags, derivatives). Output: the IR
expression. ``edge``, ``change``, ``noEvent``, ``smooth``, ``homotopy`` and ``semiLinear``
are expanded here; ``ConversionError`` names what cannot be converted.
"""
from __future__ import annotations

from compiler import flat
from compiler.function_shapes import count, output_shapes
from compiler.symbolic.expr import (
    FUNCTIONS, TIME, ZERO, add, and_, array, call, const,
    div, function, if_, initial, mul, neg, not_, or_, power, relation, sub, terminal, var)
from compiler.symbolic.transform import pre_of

_ARITHMETIC = {"+": add, "-": sub, "*": mul, "/": div, "^": power, "and": and_, "or": or_}
_RELATIONS = ("<", "<=", ">", ">=", "==", "<>")
EVENT_FUNCTIONS = ("floor", "ceil", "integer", "div", "mod", "rem")
_UNSUPPORTED = {
    "cardinality": "cardinality() is not supported",
}


class ConversionError(Exception):
    """A flat expression with no IR form (message says which construct)."""


class Hooks:
    """Stage-specific conversions; the defaults suit expressions without events."""

    def relation(self, op: str, lhs, rhs, events: bool):
        """A relation; ``events`` is False inside ``noEvent`` and where no events are wanted."""
        return relation(op, lhs, rhs)

    def sample(self, start, interval):
        raise ConversionError("sample() is only allowed in when-conditions")

    def derivative(self, expr):
        """``der(expr)`` of a converted expression."""
        raise ConversionError("der() is not allowed here")

    def delay(self, expr, delay_time, delay_max):
        """``delay(expr, delay_time, delay_max)`` of converted expressions."""
        raise ConversionError("delay() is not allowed here")

    def spatial(self, end: int, in0, in1, x, positive, points, values):
        """End ``end`` (0: out0, 1: out1) of ``spatialDistribution(in0, in1, x, positive,
        points, values)`` of converted expressions (``points``, ``values``: tuples)."""
        raise ConversionError("spatialDistribution() is not allowed here")

    def homotopy(self, actual, simplified):
        """``homotopy(actual, simplified())``: the actual expression unless the stage solves
        the initialization from the simplified one first."""
        return actual

    def event_function(self, name: str, args: tuple, events: bool):
        """``floor``, ``ceil``, ``integer``, ``div``, ``mod`` or ``rem``: functions that
        change only at events in a continuous context."""
        return function(name, *args)


class Converter:
    """Converts flat expressions; ``types`` maps variable names to type names, ``functions``
    function names to ``flat.Function``."""

    def __init__(self, types, functions=(), hooks: Hooks | None = None):
        self.types = types
        self.functions = {item.name: item for item in functions}
        self.hooks = hooks or Hooks()
        self.leaves: dict = {}   # flat Var and Const leaves already converted
        self.values: dict = {}   # variables read as these constants (causalize.fixed_values)

    def __call__(self, node, events: bool = True):
        return self.convert(node, events)

    def convert(self, node, events: bool = True):
        kind = type(node)
        if kind is flat.Var or kind is flat.Const:
            key = (kind, node.value if kind is flat.Const else node.name,
                   type(node.value) if kind is flat.Const else None)
            found = self.leaves.get(key)
            if found is None:
                found = self._var(node.name) if kind is flat.Var else const(node.value)
                self.leaves[key] = found
            return found
        if kind is flat.Binary:
            return self._binary(node, events)
        if kind is flat.Call:
            return self._call(node, events)
        if kind is flat.Unary:
            operand = self.convert(node.operand, events)
            return not_(operand) if node.op == "not" else neg(operand)
        if kind is flat.IfExpr:
            return if_(self.convert(node.condition, events), self.convert(node.then, events),
                       self.convert(node.else_, events))
        if kind is flat.EnumConst:
            return const(node.ordinal, node.type)
        if kind is flat.ArrayExpr:
            return array(self.convert(item, events) for item in node.elements)
        raise ConversionError(f"{type(node).__name__} expressions are not supported here")

    def _var(self, name: str):
        if name == "time":
            return TIME
        if name in self.values:
            return self.values[name]
        type_ = self.types.get(name)
        if type_ is None:
            raise ConversionError(f"unknown variable '{name}'")
        return var(name, type_)

    def _binary(self, node, events: bool):
        op = node.op
        if op == "and" and (_is_initial(node.left) or _is_initial(node.right)):
            # 'initial() and w > 0' (Rotational's PartialFriction): after the initialization
            # the relation cannot matter, and as an event indicator it fires at every
            # crossing, chattering where a stuck friction holds w at 0
            events = False
        left, right = self.convert(node.left, events), self.convert(node.right, events)
        if op in _RELATIONS:
            return self.hooks.relation(op, left, right, events)
        builder = _ARITHMETIC.get(op)
        if builder is None:
            raise ConversionError(f"the operator {op} is only allowed in functions")
        return builder(left, right)

    def _call(self, node, events: bool):
        name, args = node.name, node.args
        special = _SPECIAL.get(name)
        if special is not None:
            return special(self, args, events)
        if name in _UNSUPPORTED:
            raise ConversionError(_UNSUPPORTED[name])
        if name in EVENT_FUNCTIONS:
            return self.hooks.event_function(name, tuple(self.convert(arg, events)
                                                         for arg in args), events)
        if name in FUNCTIONS:
            return function(name, *(self.convert(arg, events) for arg in args))
        if name in self.functions:
            return self.function_call(name, args, 0, events)
        raise ConversionError(f"unknown function {name}()")

    def function_call(self, name: str, args, output: int, events: bool = True):
        """Scalar result number ``output`` of the user function ``name``."""
        declared = self.functions[name]
        shapes = output_shapes(declared, *_argument_shapes(declared, args))
        types = [item.type for item, shape in zip(declared.outputs, shapes)
                 for _ in range(count(shape) if shape is not None else 1)]
        if output >= len(types):
            raise ConversionError(f"{name}() has no result number {output + 1}")
        return call(name, tuple(self.convert(arg, False) for arg in args), output,
                    types[output])


def _argument_shapes(function: flat.Function, args) -> tuple[dict, dict]:
    """Shapes of the array arguments and values of the literal Integer arguments of a call,
    by input name."""
    shapes, values = {}, {}
    for item, arg in zip(function.inputs, args):
        shapes[item.name] = _shape(arg)
        if type(arg) is flat.Const and type(arg.value) is int:
            values[item.name] = arg.value
    return shapes, values


def _shape(node) -> tuple:
    if type(node) is not flat.ArrayExpr:
        return ()
    inner = _shape(node.elements[0]) if node.elements else ()
    return (len(node.elements),) + inner


def _der(self, args, events):
    return self.hooks.derivative(self.convert(args[0], events))


def _pre(self, args, events):
    return pre_of(self.convert(args[0], events))


def _edge(self, args, events):
    value = self.convert(args[0], events)
    return and_(value, not_(pre_of(value)))


def _change(self, args, events):
    value = self.convert(args[0], events)
    return relation("<>", value, pre_of(value))


def _no_event(self, args, events):
    return self.convert(args[0], False)


def _smooth(self, args, events):
    return self.convert(args[1], False)


def _homotopy(self, args, events):
    actual = self.convert(args[0], events)
    return self.hooks.homotopy(actual, lambda: self.convert(args[1], events))


def _semi_linear(self, args, events):
    x, k1, k2 = (self.convert(arg, events) for arg in args)
    return if_(relation(">=", x, ZERO), mul(k1, x), mul(k2, x))


def _delay(self, args, events):
    expr, delay_time, delay_max = (self.convert(arg, events) for arg in args)
    return self.hooks.delay(expr, delay_time, delay_max)


def _spatial(self, args, events):
    end, in0, in1, x, positive, *profile = args
    in0, in1, x, positive, *profile = (self.convert(arg, events)
                                       for arg in (in0, in1, x, positive, *profile))
    half = len(profile) // 2
    return self.hooks.spatial(end.value, in0, in1, x, positive, tuple(profile[:half]),
                              tuple(profile[half:]))


def _sample(self, args, events):
    return self.hooks.sample(self.convert(args[0], False), self.convert(args[1], False))


_SPECIAL = {
    "der": _der, "pre": _pre, "edge": _edge, "change": _change, "noEvent": _no_event,
    "smooth": _smooth, "homotopy": _homotopy, "semiLinear": _semi_linear, "sample": _sample,
    "delay": _delay, "spatialDistribution": _spatial,
    "initial": lambda self, args, events: initial(),
    "terminal": lambda self, args, events: terminal(),
}


def _is_initial(node) -> bool:
    return type(node) is flat.Call and node.name == "initial" and not node.args
