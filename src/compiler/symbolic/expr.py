"""The expression IR of the causalization stage: small, typed, hash-consed.

Input: nothing (data and constructors). Output: ``Const``, ``Var``, ``Op``, ``Call`` and
``Array`` nodes, made only through the constructors below, which intern every node (equal
subexpressions are one object, so ``==`` is ``is`` and hashing is by identity) and apply
local simplifications: constant folding and neutral elements.
"""
from __future__ import annotations

import math
import weakref

REAL, INTEGER, BOOLEAN, STRING = "Real", "Integer", "Boolean", "String"
RELATIONS = ("<", "<=", ">", ">=", "==", "<>")
ARITHMETIC = ("+", "-", "*", "/", "^", "neg")
LOGICAL = ("and", "or", "not")

# Interning table: one node per structure while anyone holds it. Interning is a cache with no
# effect on meaning (a node built twice is the same value either way), so it is the one piece
# of module state the IR keeps.
_TABLE: "weakref.WeakValueDictionary" = weakref.WeakValueDictionary()


class Expr:
    """Base of the IR nodes. Immutable; ``type`` is Real, Integer, Boolean, String or an
    enumeration's full name."""

    __slots__ = ("type", "_variables", "__weakref__")

    def __setattr__(self, name, value):
        raise AttributeError(f"{type(self).__name__} nodes are immutable")

    def variables(self) -> frozenset:
        """Names of the variables this expression reads, except those read through ``pre``."""
        found = self._variables
        if found is None:
            found = self._collect()
            object.__setattr__(self, "_variables", found)
        return found

    def _collect(self) -> frozenset:
        return frozenset()

    def __repr__(self) -> str:
        from compiler.symbolic.printer import to_text
        return to_text(self)


class Const(Expr):
    """A literal; ``value`` is float, int, bool or str (enumerations: the ordinal)."""

    __slots__ = ("value",)

    def __reduce__(self):
        return const, (self.value, self.type)


class Var(Expr):
    """A variable by its full name (``a.b[2].c``, ``der(x)``, ``time``, ``$rel[1]``)."""

    __slots__ = ("name",)

    def _collect(self) -> frozenset:
        return frozenset((self.name,))

    def __reduce__(self):
        return var, (self.name, self.type)


class Op(Expr):
    """An operator or a built-in function applied to ``args`` (see ``OPERATORS``)."""

    __slots__ = ("op", "args")

    def _collect(self) -> frozenset:
        if self.op == "pre":
            return frozenset()
        args = self.args
        if len(args) == 1:
            return args[0].variables()
        return frozenset().union(*(arg.variables() for arg in args))

    def __reduce__(self):
        return _rebuild_op, (self.op, self.args, self.type)


class Call(Expr):
    """Result number ``output`` (arrays row-major) of the user function ``function``."""

    __slots__ = ("function", "args", "output")

    def _collect(self) -> frozenset:
        return frozenset().union(*(arg.variables() for arg in self.args))

    def __reduce__(self):
        return call, (self.function, self.args, self.output, self.type)


class Array(Expr):
    """An array argument of a function call (``{a, b}``; nested for matrices)."""

    __slots__ = ("elements",)

    def _collect(self) -> frozenset:
        return frozenset().union(*(item.variables() for item in self.elements))

    def __reduce__(self):
        return array, (self.elements,)


def _new(kind, key, type_, **fields):
    node = _TABLE.get(key)
    if node is not None:
        return node
    node = object.__new__(kind)
    object.__setattr__(node, "type", type_)
    object.__setattr__(node, "_variables", None)
    for name, value in fields.items():
        object.__setattr__(node, name, value)
    _TABLE[key] = node
    return node


def _rebuild_op(name, args, type_):
    return _op(name, tuple(args), type_)


# ---------------------------------------------------------------------------------- leaves
def const(value, type_: str | None = None) -> Const:
    """The constant ``value``; its type follows the Python type unless given."""
    if type_ is None:
        kind = type(value)
        type_ = BOOLEAN if kind is bool else INTEGER if kind is int else \
            STRING if kind is str else REAL
        if kind not in (bool, int, str, float):
            value = float(value)
    return _new(Const, ("c", type_, type(value), value), type_, value=value)


def var(name: str, type_: str = REAL) -> Var:
    return _new(Var, ("v", name, type_), type_, name=name)


def _op(name: str, args: tuple, type_: str) -> Op:
    return _new(Op, (name, args), type_, op=name, args=args)


def call(function: str, args: tuple, output: int = 0, type_: str = REAL) -> Call:
    args = tuple(args)
    return _new(Call, ("call", function, args, output), type_, function=function, args=args,
                output=output)


def array(elements) -> Array:
    elements = tuple(elements)
    type_ = elements[0].type if elements else REAL
    return _new(Array, ("array", elements), type_, elements=elements)


ZERO = const(0.0)
ONE = const(1.0)
TRUE = const(True)
FALSE = const(False)
TIME = var("time")


def is_const(expr, value=None) -> bool:
    """Whether ``expr`` is a constant (equal to ``value`` when given)."""
    return type(expr) is Const and (value is None or
                                    (expr.value == value and type(expr.value) is not bool
                                     and type(expr.value) is not str))


def _numeric(*types) -> str:
    for item in types:
        if item != INTEGER:
            return REAL
    return INTEGER


def _zero(type_: str) -> Const:
    return const(0) if type_ == INTEGER else ZERO


def _one(type_: str) -> Const:
    return const(1) if type_ == INTEGER else ONE


# ------------------------------------------------------------------------------ arithmetic
def add(a: Expr, b: Expr) -> Expr:
    if a.type == STRING or b.type == STRING:   # concatenation
        if type(a) is Const and type(b) is Const:
            return const(a.value + b.value, STRING)
        return _op("+", (a, b), STRING)
    type_ = INTEGER if a.type == INTEGER and b.type == INTEGER else REAL
    if type(a) is Const and type(b) is Const:
        return const(a.value + b.value, type_)
    if is_const(a, 0):
        return b if b.type == type_ else _op("+", (a, b), type_)
    if is_const(b, 0):
        return a if a.type == type_ else _op("+", (a, b), type_)
    if type(b) is Op and b.op == "neg":
        return sub(a, b.args[0])
    if type(a) is Op and a.op == "neg":
        return sub(b, a.args[0])
    return _op("+", (a, b), type_)


def sub(a: Expr, b: Expr) -> Expr:
    type_ = INTEGER if a.type == INTEGER and b.type == INTEGER else REAL
    if type(a) is Const and type(b) is Const:
        return const(a.value - b.value, type_)
    if a is b:
        return _zero(type_)
    if is_const(b, 0):
        return a if a.type == type_ else _op("-", (a, b), type_)
    if is_const(a, 0):
        return neg(b)
    if type(b) is Op and b.op == "neg":
        return add(a, b.args[0])
    return _op("-", (a, b), type_)


def neg(a: Expr) -> Expr:
    if type(a) is Const:
        return const(-a.value, a.type)
    if type(a) is Op:
        if a.op == "neg":
            return a.args[0]
        if a.op == "-":
            return sub(a.args[1], a.args[0])
    return _op("neg", (a,), a.type)


def mul(a: Expr, b: Expr) -> Expr:
    type_ = INTEGER if a.type == INTEGER and b.type == INTEGER else REAL
    if type(a) is Const and type(b) is Const:
        return const(a.value * b.value, type_)
    if type(b) is Const and type(a) is not Const:
        a, b = b, a
    if type(a) is Const:
        if a.value == 0:
            return _zero(type_)
        if a.value == 1:
            return b
        if a.value == -1:
            return neg(b)
    if type(a) is Op and a.op == "neg" and type(b) is Op and b.op == "neg":
        return mul(a.args[0], b.args[0])
    if type(b) is Op and b.op == "neg":
        return neg(mul(a, b.args[0]))
    if type(a) is Op and a.op == "neg":
        return neg(mul(a.args[0], b))
    return _op("*", (a, b), type_)


def div(a: Expr, b: Expr) -> Expr:
    if type(b) is Const and b.value != 0:
        if type(a) is Const:
            return const(a.value / b.value)
        if b.value == 1:
            return a if a.type == REAL else _op("/", (a, b), REAL)
        if b.value == -1:
            return neg(a) if a.type == REAL else _op("/", (a, b), REAL)
    if is_const(a, 0):
        return ZERO
    if type(a) is Op and a.op == "neg":
        return neg(div(a.args[0], b))
    return _op("/", (a, b), REAL)


def power(a: Expr, b: Expr) -> Expr:
    if type(b) is Const:
        if b.value == 1:
            return a
        if b.value == 0:
            return _one(_numeric(a.type, b.type))
        if type(a) is Const:
            try:
                return const(a.value ** b.value, _numeric(a.type, b.type) if b.value >= 0
                             else REAL)
            except (OverflowError, ZeroDivisionError):
                pass
    if is_const(a, 1):
        return a
    type_ = _numeric(a.type) if type(b) is Const and b.type == INTEGER and b.value > 0 else REAL
    return _op("^", (a, b), type_)


# ------------------------------------------------------------------- logic and relations
def relation(name: str, a: Expr, b: Expr) -> Expr:
    """A relation evaluated directly (no event): ``<``, ``<=``, ``>``, ``>=``, ``==``, ``<>``."""
    if type(a) is Const and type(b) is Const:
        return const(_compare(name, a.value, b.value))
    return _op(name, (a, b), BOOLEAN)


def _compare(name, x, y) -> bool:
    if name == "<":
        return x < y
    if name == "<=":
        return x <= y
    if name == ">":
        return x > y
    if name == ">=":
        return x >= y
    if name == "==":
        return x == y
    return x != y


def and_(a: Expr, b: Expr) -> Expr:
    for x, y in ((a, b), (b, a)):
        if type(x) is Const:
            return y if x.value else FALSE
    return a if a is b else _op("and", (a, b), BOOLEAN)


def or_(a: Expr, b: Expr) -> Expr:
    for x, y in ((a, b), (b, a)):
        if type(x) is Const:
            return TRUE if x.value else y
    return a if a is b else _op("or", (a, b), BOOLEAN)


def not_(a: Expr) -> Expr:
    if type(a) is Const:
        return const(not a.value)
    if type(a) is Op and a.op == "not":
        return a.args[0]
    return _op("not", (a,), BOOLEAN)


def if_(condition: Expr, then: Expr, else_: Expr) -> Expr:
    if type(condition) is Const:
        return then if condition.value else else_
    if then is else_:
        return then
    type_ = then.type if then.type == else_.type else _numeric(then.type, else_.type)
    return _op("if", (condition, then, else_), type_)


# ------------------------------------------------------------------------------- functions
# Built-in functions of one or more arguments, with their result type rule:
# "real" (always Real), "same" (type of the first argument), "integer", "boolean".
FUNCTIONS = {
    **{name: "real" for name in ("sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh",
                                  "tanh", "exp", "log", "log10", "sqrt", "atan2", "floor",
                                  "ceil")},
    **{name: "same" for name in ("abs", "sign", "min", "max", "div", "mod", "rem")},
    "integer": "integer", "Integer": "integer", "String": "string", "loadResource": "string",
}
# Operators on the event and clock machinery: pre(v), sample(k) flags, initial(), terminal().
SPECIAL = ("pre", "initial", "terminal")

_FOLD = {
    "sin": math.sin, "cos": math.cos, "tan": math.tan, "asin": math.asin, "acos": math.acos,
    "atan": math.atan, "sinh": math.sinh, "cosh": math.cosh, "tanh": math.tanh,
    "exp": math.exp, "log": math.log, "log10": math.log10, "sqrt": math.sqrt,
    "atan2": math.atan2, "abs": abs,
}


def function(name: str, *args: Expr) -> Expr:
    """A built-in function (``sin``, ``atan2``, ``min``, ...) applied to ``args``."""
    rule = FUNCTIONS[name]
    if name in _FOLD and all(type(arg) is Const for arg in args):
        try:
            value = _FOLD[name](*(arg.value for arg in args))
            return const(value, args[0].type if rule == "same" else REAL)
        except (ValueError, OverflowError):
            pass
    if rule == "real":
        type_ = REAL
    elif rule == "same":
        type_ = _numeric(*(arg.type for arg in args))
    elif rule == "integer":
        type_ = INTEGER
    else:
        type_ = STRING
    return _op(name, tuple(args), type_)


def pre_var(node: Var) -> Op:
    return _op("pre", (node,), node.type)


def delayed(index: int, at: Expr) -> Op:
    """What delay() number ``index`` (``compiler.system.Delay``) recorded for the time
    ``at`` (``time - delayTime``): it reads the history of the delayed expression, not its
    current value, so the variables it reads are those of ``at``."""
    return _op("delay", (const(index), at), REAL)


def spatial_end(index: int, end: int, in0: Expr, in1: Expr, x: Expr, positive: Expr) -> Op:
    """End ``end`` (0: y = 0, out0; 1: y = 1, out1) of spatialDistribution() number ``index``
    (``compiler.system.Spatial``): it reads the recorded profile and the current entering end
    (``in0`` at x while ``positive``, else ``in1`` at x - 1), so it depends on all four."""
    return _op("spatial", (const(index), const(end), in0, in1, x, positive), REAL)


def initial() -> Op:
    return _op("initial", (), BOOLEAN)


def terminal() -> Op:
    return _op("terminal", (), BOOLEAN)


def rebuild(node: Op, args: tuple) -> Expr:
    """``node`` with new arguments, simplified like a fresh construction."""
    name = node.op
    builder = _BUILDERS.get(name)
    if builder is not None:
        return builder(*args)
    if name in RELATIONS:
        return relation(name, *args)
    if name in FUNCTIONS:
        return function(name, *args)
    return _op(name, tuple(args), node.type)


_BUILDERS = {"+": add, "-": sub, "*": mul, "/": div, "^": power, "neg": neg, "and": and_,
             "or": or_, "not": not_, "if": if_}
