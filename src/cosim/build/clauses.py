"""Equations and statements beyond ``a == b``: ``connect``, ``For``, ``If``, ``When``,
``While``, ``Break``, ``Return``, ``reinit``, ``assert_``, ``terminate`` and ``assign``.

Input: what ``equations(self)``, ``initial_equations``, ``algorithm`` and
``initial_algorithm`` yield. Output: ``ast`` equations (``to_equation``) or statements
(``to_statement``); a clause becomes whichever its section needs, and anything else is a
located error.
"""
from __future__ import annotations

from dataclasses import dataclass

from compiler.lang import ast
from cosim.build.errors import BuildError, caller_span
from cosim.build.expr import Expr, as_node, call_node, loop_indices


@dataclass(frozen=True, slots=True)
class Connect:
    a: Expr
    b: Expr
    span: object

    def equation(self, convert) -> ast.EqConnect:
        return ast.EqConnect(_ref(self.a, self.span), _ref(self.b, self.span), span=self.span)

    def statement(self, convert):
        raise BuildError("connect() is an equation, not a statement of an algorithm", self.span)


def connect(a, b) -> Connect:
    """``connect(a, b)`` of two connectors."""
    return Connect(a, b, caller_span())


def _ref(value, span) -> ast.ComponentRef:
    node = as_node(value)
    if type(node) is not ast.ComponentRef:
        raise BuildError("connect() takes connector references (self.a.p)", span)
    return node


@dataclass(frozen=True, slots=True)
class For:
    """``for i in r loop ... end for``: ``For(irange(1, n), lambda i: [equations])``; the
    function's parameter names are the indices (a tuple of ranges for several)."""
    ranges: object
    function: object
    span: object = None

    def __post_init__(self):
        if self.span is None:
            object.__setattr__(self, "span", caller_span())

    def _parts(self):
        indices, refs = loop_indices(self.ranges, self.function)
        return indices, _items(self.function(*refs))

    def equation(self, convert) -> ast.EqFor:
        indices, body = self._parts()
        return ast.EqFor(indices, tuple(convert(item) for item in body), span=self.span)

    def statement(self, convert) -> ast.ForStmt:
        indices, body = self._parts()
        return ast.ForStmt(indices, tuple(convert(item) for item in body), span=self.span)


def _items(body) -> tuple:
    if body is None:
        return ()
    if isinstance(body, (list, tuple)):
        return tuple(body)
    if hasattr(body, "__next__"):  # a generator
        return tuple(body)
    return (body,)


@dataclass(frozen=True, slots=True)
class If:
    """``if c then ... elseif c2 then ... else ... end if``:
    ``If(c, eq1, eq2).elseif_(c2, eq3).else_(eq4)``."""
    branches: tuple
    otherwise: tuple = ()
    span: object = None

    def __init__(self, condition, *body, _branches=None, _otherwise=(), _span=None):
        object.__setattr__(self, "branches", _branches or ((condition, body),))
        object.__setattr__(self, "otherwise", _otherwise)
        object.__setattr__(self, "span", _span or caller_span())

    def elseif_(self, condition, *body) -> If:
        return If(None, _branches=self.branches + ((condition, body),),
                  _otherwise=self.otherwise, _span=self.span)

    def else_(self, *body) -> If:
        return If(None, _branches=self.branches, _otherwise=body, _span=self.span)

    def _converted(self, convert):
        branches = tuple((as_node(condition), tuple(convert(item) for item in body))
                         for condition, body in self.branches)
        return branches, tuple(convert(item) for item in self.otherwise)

    def equation(self, convert) -> ast.EqIf:
        branches, otherwise = self._converted(convert)
        return ast.EqIf(branches, otherwise, span=self.span)

    def statement(self, convert) -> ast.IfStmt:
        branches, otherwise = self._converted(convert)
        return ast.IfStmt(branches, otherwise, span=self.span)


@dataclass(frozen=True, slots=True)
class When:
    """``when c then ... elsewhen c2 then ... end when``:
    ``When(c, eq1, eq2).elsewhen(c2, eq3)``."""
    branches: tuple
    span: object = None

    def __init__(self, condition, *body, _branches=None, _span=None):
        object.__setattr__(self, "branches", _branches or ((condition, body),))
        object.__setattr__(self, "span", _span or caller_span())

    def elsewhen(self, condition, *body) -> When:
        return When(None, _branches=self.branches + ((condition, body),), _span=self.span)

    def _converted(self, convert):
        return tuple((as_node(condition), tuple(convert(item) for item in body))
                     for condition, body in self.branches)

    def equation(self, convert) -> ast.EqWhen:
        return ast.EqWhen(self._converted(convert), span=self.span)

    def statement(self, convert) -> ast.WhenStmt:
        return ast.WhenStmt(self._converted(convert), span=self.span)


@dataclass(frozen=True, slots=True)
class While:
    """``while c loop ... end while`` (a statement): ``While(c, stmt1, stmt2)``."""
    condition: object
    body: tuple
    span: object

    def __init__(self, condition, *body):
        object.__setattr__(self, "condition", condition)
        object.__setattr__(self, "body", body)
        object.__setattr__(self, "span", caller_span())

    def equation(self, convert):
        raise BuildError("While() is a statement of an algorithm, not an equation", self.span)

    def statement(self, convert) -> ast.WhileStmt:
        return ast.WhileStmt(as_node(self.condition),
                             tuple(convert(item) for item in self.body), span=self.span)


@dataclass(frozen=True, slots=True)
class _Jump:
    kind: str  # "break" or "return"
    span: object

    def equation(self, convert):
        raise BuildError(f"{self.kind} is a statement of an algorithm, not an equation",
                         self.span)

    def statement(self, convert):
        return (ast.Break if self.kind == "break" else ast.Return)(span=self.span)


def Break() -> _Jump:  # noqa: N802 (a statement, named like the other clauses)
    return _Jump("break", caller_span())


def Return() -> _Jump:  # noqa: N802
    return _Jump("return", caller_span())


@dataclass(frozen=True, slots=True)
class CallClause:
    """``reinit``, ``assert`` or ``terminate``: an equation or a statement."""
    call: ast.Call
    span: object

    def equation(self, convert) -> ast.EqCall:
        return ast.EqCall(self.call, span=self.span)

    def statement(self, convert) -> ast.CallStmt:
        return ast.CallStmt(self.call, span=self.span)


def _call_clause(function: str, args, named=None) -> CallClause:
    span = caller_span()
    ref = ast.ComponentRef((ast.RefPart(function, (), span),), False, span)
    return CallClause(call_node(ref, args, named or {}, span), span)


def reinit(state, value) -> CallClause:
    """``reinit(state, value)`` inside a ``When``."""
    return _call_clause("reinit", (state, value))


def assert_(condition, message, level=None) -> CallClause:
    """``assert(condition, message[, level])`` (``level``: ``AssertionLevel.warning``)."""
    return _call_clause("assert", (condition, message) + (() if level is None else (level,)))


def terminate(message) -> CallClause:
    return _call_clause("terminate", (message,))


@dataclass(frozen=True, slots=True)
class Assign:
    """``target := value`` (a statement): ``assign(self.y, 2 * self.x)``; a tuple target
    takes the outputs of a function call, None skipping one."""
    target: object
    value: object
    span: object

    def equation(self, convert):
        raise BuildError("assign() is a statement of an algorithm: an equation is a == b",
                         self.span)

    def statement(self, convert) -> ast.Assign:
        if type(self.target) is tuple:
            target = ast.TupleExpr(tuple(None if item is None else as_node(item)
                                         for item in self.target), self.span)
        else:
            target = as_node(self.target)
        return ast.Assign(target, as_node(self.value), span=self.span)


def assign(target, value) -> Assign:
    return Assign(target, value, caller_span())


def to_equation(item, where):
    """The ``ast`` equation of a yielded item; ``where`` places an item that has none."""
    if type(item) is Expr:
        if item._equation is not None:
            lhs, rhs = item._equation
            return ast.EqEquality(lhs, rhs, span=item._node.span)
        if type(item._node) is ast.Call:
            return ast.EqCall(item._node, span=item._node.span)
        raise BuildError("an expression is not an equation: write lhs == rhs",
                         item._node.span or where)
    convert = getattr(item, "equation", None)
    if convert is None:
        raise BuildError(f"{type(item).__name__} {item!r} is not an equation", where)
    return convert(lambda inner: to_equation(inner, where))


def to_statement(item, where):
    """The ``ast`` statement of a yielded item of an algorithm."""
    if type(item) is Expr:
        if type(item._node) is ast.Call:
            return ast.CallStmt(item._node, span=item._node.span)
        hint = ": use assign(target, value)" if item._equation is not None else ""
        raise BuildError(f"an expression is not a statement{hint}", item._node.span or where)
    convert = getattr(item, "statement", None)
    if convert is None:
        raise BuildError(f"{type(item).__name__} {item!r} is not a statement", where)
    return convert(lambda inner: to_statement(inner, where))
