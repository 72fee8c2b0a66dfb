"""Model expressions written with Python operators: ``Expr`` and the Modelica built-ins.

Input: Python numbers, strings, lists, declarations and ``Expr`` values combined with ``+ - *
/ **``, comparisons, ``& | ~`` (and, or, not). Output: ``compiler.lang.ast`` expression nodes,
shaped as the parser shapes the same text (``-a*b`` is ``-(a*b)``). A name not known yet
(a declaration still in its class body, a Python class) stays a placeholder inside the node
until ``cosim.build.emit`` resolves it. ``a == b`` is an equation where one is expected and
the relation ``a == b`` inside an expression.
"""
from __future__ import annotations

import inspect
import math
from dataclasses import dataclass

from compiler.lang import ast
from cosim.build.errors import BuildError, caller_span
from cosim.build.names import modelica_name

_TRUTH = ("a model expression has no truth value: Python's 'and', 'or', 'not', 'if' and "
          "chained comparisons (a < b < c) need one; use &, |, ~, if_() and parenthesize "
          "comparisons: (a > 0) & (b < 1)")


def as_node(value) -> object:
    """The ast expression of a Python value (an ``Expr``, a declaration, a literal, a list)."""
    kind = type(value)
    if kind is Expr:
        return value._node
    if kind is bool:
        return ast.BoolLit(value, caller_span())
    if kind is int:
        return ast.IntLit(value, caller_span())
    if kind is float:
        if math.isnan(value):
            raise BuildError("NaN is not a Modelica value", caller_span())
        return ast.RealLit(value, caller_span())
    if kind is str:
        return ast.StrLit(value, caller_span())
    if kind in (list, tuple):
        return ast.ArrayCons(tuple(as_node(item) for item in value), caller_span())
    to_node = getattr(value, "__modelica_node__", None)
    if to_node is not None and not isinstance(value, type):
        return to_node()
    if hasattr(value, "tolist"):  # numpy arrays and scalars
        return as_node(value.tolist())
    raise BuildError(f"{kind.__name__} {value!r} is not a model expression", caller_span())


def wrap(value) -> Expr:
    return value if type(value) is Expr else Expr(as_node(value))


class Operand:
    """The operators of model expressions, for ``Expr`` and for declarations (which stand for
    a reference to themselves). Subclasses give ``_expr()``."""

    __slots__ = ()

    def _expr(self) -> Expr:
        raise NotImplementedError

    # arithmetic
    def __add__(self, other): return _binary("+", self, other)
    def __radd__(self, other): return _binary("+", other, self)
    def __sub__(self, other): return _binary("-", self, other)
    def __rsub__(self, other): return _binary("-", other, self)
    def __mul__(self, other): return _binary("*", self, other)
    def __rmul__(self, other): return _binary("*", other, self)
    def __truediv__(self, other): return _binary("/", self, other)
    def __rtruediv__(self, other): return _binary("/", other, self)
    def __pow__(self, other): return _binary("^", self, other)
    def __rpow__(self, other): return _binary("^", other, self)
    def __neg__(self): return Expr(ast.Unary("-", as_node(self), caller_span()))
    def __pos__(self): return Expr(ast.Unary("+", as_node(self), caller_span()))
    def __abs__(self): return call("abs", self)

    # relations; == is an equation or a relation, see Expr.equation
    def __lt__(self, other): return _binary("<", self, other)
    def __le__(self, other): return _binary("<=", self, other)
    def __gt__(self, other): return _binary(">", self, other)
    def __ge__(self, other): return _binary(">=", self, other)
    def __ne__(self, other): return _binary("<>", self, other)

    def __eq__(self, other):
        left, right = as_node(self), as_node(other)
        return Expr(ast.Binary("==", left, right, caller_span()), (left, right))

    __hash__ = None

    # logic: Python's and/or/not cannot be overloaded
    def __and__(self, other): return _binary("and", self, other)
    def __rand__(self, other): return _binary("and", other, self)
    def __or__(self, other): return _binary("or", self, other)
    def __ror__(self, other): return _binary("or", other, self)
    def __invert__(self): return Expr(ast.Unary("not", as_node(self), caller_span()))

    def __bool__(self):
        raise BuildError(_TRUTH, caller_span())

    def __float__(self):
        raise BuildError("a model expression has no Python value (math.sin and float() need "
                         "one): use cosim.build's sin, cos, exp, ...", caller_span())

    __int__ = __index__ = __complex__ = __float__

    def __iter__(self):
        raise BuildError("a model expression cannot be iterated over in Python: use For() "
                         "or a comprehension (array, sum_)", caller_span())

    def __contains__(self, item):
        raise BuildError("'in' does not apply to a model expression", caller_span())


@dataclass(frozen=True, eq=False, slots=True)
class Expr(Operand):
    """A model expression: ``_node`` is its ast node; ``_equation`` holds ``(lhs, rhs)`` when
    it was made by ``==``; ``_of`` is the type of the component a reference names (to check
    member names), when known."""

    _node: object
    _equation: tuple | None = None
    _of: object = None

    def _expr(self) -> Expr:
        return self

    def __getattr__(self, name: str) -> Expr:
        if name.startswith("_"):
            raise AttributeError(name)
        return member(self, name)

    def __getitem__(self, subscripts) -> Expr:
        return subscripted(self, subscripts)

    def __repr__(self) -> str:
        from cosim.build.emit import preview
        return f"Expr({preview(self._node)})"


def _binary(op: str, left, right) -> Expr:
    left_node, right_node = as_node(left), as_node(right)
    span = caller_span()
    if op in ("*", "/") and type(left_node) is ast.Unary and left_node.op in ("-", "+"):
        # Python reads -a*b as (-a)*b, Modelica as -(a*b): build what the parser builds
        inner = ast.Binary(op, left_node.operand, right_node, span)
        return Expr(ast.Unary(left_node.op, inner, left_node.span))
    return Expr(ast.Binary(op, left_node, right_node, span))


# ----------------------------------------------------------------------------- references
def reference(name, of=None) -> Expr:
    """A reference to the element ``name`` (a string, or a declaration still unnamed)."""
    span = caller_span()
    return Expr(ast.ComponentRef((ast.RefPart(name, (), span),), False, span), None, of)


def member(ref: Expr, name: str) -> Expr:
    """``ref.name``; checked against the elements of ``ref``'s type when it is a Python class."""
    node = ref._node
    if type(node) is not ast.ComponentRef:
        raise BuildError(f"'.{name}' applies to a reference, not to an expression",
                         caller_span())
    name = modelica_name(name)
    element_type = _member_type(ref._of, name)
    span = caller_span()
    return Expr(ast.ComponentRef(node.parts + (ast.RefPart(name, (), span),), node.is_global,
                                 span), None, element_type)


def _member_type(of, name: str):
    elements = getattr(of, "__modelica_elements__", None)
    found = elements() if elements is not None else None
    if found is None:
        return None  # a class from a Modelica library, or unknown: the flattener checks
    if name not in found:
        listed = ", ".join(found) or "none"
        raise BuildError(f"{of.__name__} has no element '{name}' (its elements: {listed})",
                         caller_span())
    return found[name]


def subscripted(ref: Expr, subscripts) -> Expr:
    """``ref[i, j]``: Modelica subscripts (from 1; ``:`` for all, ``irange(a, b)`` for a
    range)."""
    node = ref._node
    if type(node) is not ast.ComponentRef:
        raise BuildError("subscripts apply to a reference, not to an expression", caller_span())
    items = subscripts if type(subscripts) is tuple else (subscripts,)
    nodes = tuple(_subscript(item) for item in items)
    last = node.parts[-1]
    parts = node.parts[:-1] + (ast.RefPart(last.name, last.subscripts + nodes, last.span),)
    return Expr(ast.ComponentRef(parts, node.is_global, caller_span()), None, ref._of)


def _subscript(item):
    if type(item) is slice:
        if item == slice(None):
            return ast.Colon(caller_span())
        raise BuildError("Python slices (a:b) do not mean Modelica ranges: write irange(a, b) "
                         "(both ends included) or : for all", caller_span())
    return as_node(item)


class Names:
    """Dotted Modelica names outside the model: ``StateSelect.prefer``,
    ``Modelica.Constants.pi`` (``Names("Modelica").Constants.pi``)."""

    __slots__ = ("_parts",)

    def __init__(self, *parts: str):
        self._parts = parts

    def __getattr__(self, name: str) -> Names:
        if name.startswith("_"):
            raise AttributeError(name)
        return Names(*self._parts, name)

    def __modelica_node__(self):
        span = caller_span()
        return ast.ComponentRef(tuple(ast.RefPart(part, (), span) for part in self._parts),
                                False, span)

    def __repr__(self) -> str:
        return ".".join(self._parts)


def name(dotted: str) -> Expr:
    """The expression naming ``dotted`` (``name("Modelica.Constants.pi")``)."""
    return Expr(Names(*dotted.split(".")).__modelica_node__())


time = Expr(ast.ComponentRef((ast.RefPart("time"),)))  # the independent variable
StateSelect = Names("StateSelect")
AssertionLevel = Names("AssertionLevel")
Modelica = Names("Modelica")


# ---------------------------------------------------------------------- calls and literals
def call(function: str, *args, **named) -> Expr:
    """A call of the Modelica function ``function`` (a built-in or a library function)."""
    span = caller_span()
    ref = ast.ComponentRef(tuple(ast.RefPart(part, (), span) for part in function.split(".")),
                           False, span)
    return Expr(call_node(ref, args, named, span))


def call_node(ref, args, named, span) -> ast.Call:
    if len(args) == 2 and inspect.isfunction(args[1]):  # sum_(irange(1, n), lambda i: ...)
        nodes = (comprehension(args[0], args[1]),)
    else:
        nodes = tuple(as_node(arg) for arg in args)
    return ast.Call(ref, nodes,
                    tuple(ast.NamedArg(key, as_node(value), span) for key, value in named.items()),
                    span)


def lit(value) -> Expr:
    """A literal as an expression, so that it can stand on the left: ``lit(0) == a + b`` is
    ``0 = a + b`` (``0 == a + b`` gives ``a + b = 0``: Python asks the right operand)."""
    return Expr(as_node(value))


def if_(*parts) -> Expr:
    """``if c1 then v1 elseif c2 then v2 else v3``: ``if_(c1, v1, c2, v2, v3)``."""
    if len(parts) < 3 or len(parts) % 2 == 0:
        raise BuildError("if_() takes condition, value pairs and a last value for else: "
                         "if_(c, a, b) or if_(c1, a, c2, b, otherwise)", caller_span())
    nodes = [as_node(part) for part in parts]
    branches = tuple((nodes[k], nodes[k + 1]) for k in range(0, len(nodes) - 1, 2))
    return Expr(ast.IfExpr(branches, nodes[-1], caller_span()))


def irange(start, stop, step=None) -> Expr:
    """The Modelica range ``start:stop`` (or ``start:step:stop``), both ends included."""
    return Expr(ast.Range(as_node(start), None if step is None else as_node(step),
                          as_node(stop), caller_span()))


def matrix(rows) -> Expr:
    """``[a, b; c, d]`` from ``[[a, b], [c, d]]``."""
    return Expr(ast.MatrixCons(tuple(tuple(as_node(item) for item in row) for row in rows),
                               caller_span()))


def loop_indices(ranges, function) -> tuple[tuple, list[Expr]]:
    """The ``ForIndex`` nodes of ``function``'s parameters over ``ranges`` (one range, or a
    tuple of ranges for several indices), and the index references to call it with."""
    names = list(inspect.signature(function).parameters)
    ranges = ranges if type(ranges) is tuple else (ranges,)
    if len(names) != len(ranges):
        raise BuildError(f"{len(ranges)} range(s) for a function of {len(names)} index "
                         f"parameter(s) ({', '.join(names)})", caller_span())
    span = caller_span()
    indices = tuple(ast.ForIndex(index, as_node(values), span)
                    for index, values in zip(names, ranges))
    return indices, [reference(index) for index in names]


def comprehension(ranges, function) -> ast.Comprehension:
    indices, refs = loop_indices(ranges, function)
    return ast.Comprehension(as_node(function(*refs)), indices, caller_span())


def array(ranges, function) -> Expr:
    """``{f(i) for i in r}``: ``array(irange(1, n), lambda i: f(i))``."""
    return Expr(ast.ArrayCons((comprehension(ranges, function),), caller_span()))


def _builtin(function: str, python_name: str):
    def builtin(*args, **named) -> Expr:
        return call(function, *args, **named)
    builtin.__name__ = builtin.__qualname__ = python_name
    builtin.__doc__ = f"Modelica's ``{function}()``."
    return builtin


# Modelica's built-in operators and functions; a trailing _ where Python has the name
der = _builtin("der", "der")
pre = _builtin("pre", "pre")
edge = _builtin("edge", "edge")
change = _builtin("change", "change")
initial = _builtin("initial", "initial")
terminal = _builtin("terminal", "terminal")
sample = _builtin("sample", "sample")
noEvent = _builtin("noEvent", "noEvent")
smooth = _builtin("smooth", "smooth")
homotopy = _builtin("homotopy", "homotopy")
delay = _builtin("delay", "delay")
abs_ = _builtin("abs", "abs_")
sign = _builtin("sign", "sign")
sqrt = _builtin("sqrt", "sqrt")
sin = _builtin("sin", "sin")
cos = _builtin("cos", "cos")
tan = _builtin("tan", "tan")
asin = _builtin("asin", "asin")
acos = _builtin("acos", "acos")
atan = _builtin("atan", "atan")
atan2 = _builtin("atan2", "atan2")
sinh = _builtin("sinh", "sinh")
cosh = _builtin("cosh", "cosh")
tanh = _builtin("tanh", "tanh")
exp = _builtin("exp", "exp")
log = _builtin("log", "log")
log10 = _builtin("log10", "log10")
floor = _builtin("floor", "floor")
ceil = _builtin("ceil", "ceil")
integer = _builtin("integer", "integer")
mod = _builtin("mod", "mod")
rem = _builtin("rem", "rem")
div = _builtin("div", "div")
min_ = _builtin("min", "min_")
max_ = _builtin("max", "max_")
sum_ = _builtin("sum", "sum_")
product = _builtin("product", "product")
string = _builtin("String", "string")
size = _builtin("size", "size")
ndims = _builtin("ndims", "ndims")
zeros = _builtin("zeros", "zeros")
ones = _builtin("ones", "ones")
fill = _builtin("fill", "fill")
linspace = _builtin("linspace", "linspace")
transpose = _builtin("transpose", "transpose")
identity = _builtin("identity", "identity")
diagonal = _builtin("diagonal", "diagonal")
cross = _builtin("cross", "cross")
cat = _builtin("cat", "cat")
scalar = _builtin("scalar", "scalar")
vector = _builtin("vector", "vector")

BUILTINS = ("der", "pre", "edge", "change", "initial", "terminal", "sample", "noEvent",
            "smooth", "homotopy", "delay", "abs_", "sign", "sqrt", "sin", "cos", "tan", "asin",
            "acos", "atan", "atan2", "sinh", "cosh", "tanh", "exp", "log", "log10", "floor",
            "ceil", "integer", "mod", "rem", "div", "min_", "max_", "sum_", "product", "string",
            "size", "ndims", "zeros", "ones", "fill", "linspace", "transpose", "identity",
            "diagonal", "cross", "cat", "scalar", "vector")
