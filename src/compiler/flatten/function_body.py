"""Expressions and statements inside functions, translated without scalarizing.

Input: AST expressions and statements of one function. Output: flat expressions (function
variables as ``Var(name)``, subscripts as ``Index``) and flat statements.
"""
from __future__ import annotations

from compiler import flat
from compiler.flatten.errors import FlattenError
from compiler.lang import ast

# Built-ins that mean something only in models (events, states, time).
_MODEL_ONLY = frozenset({"der", "pre", "edge", "change", "initial", "terminal", "sample",
                         "reinit", "delay", "homotopy", "cardinality"})


class FunctionScope:
    """Names visible in a function body: its variables, loop indices, then its lexical scope."""

    def __init__(self, ctx, entry, info):
        self.ctx = ctx
        self.entry = entry
        self.info = info
        self.name = entry.full_name
        self.inputs = {name for name, member in info.members.items()
                       if member.decl.causality == "input"}
        self.iterators: list[str] = []

    def type_info(self, decl: ast.Component):
        info = self.ctx.classes.expand(
            self.ctx.classes.lookup_class(decl.type_name, self.entry, decl.span), decl.span)
        if info.is_structured:
            raise FlattenError(f"variable '{decl.name}' of function {self.name} has type "
                               f"{info.name}: only Real, Integer, Boolean, String and "
                               "enumeration variables are supported in functions", decl.span)
        return info

    # ------------------------------------------------------------------------ expressions
    def expr(self, node) -> flat.Expr:
        kind = type(node)
        if kind in (ast.IntLit, ast.RealLit, ast.StrLit, ast.BoolLit):
            return flat.Const(node.value)
        if kind is ast.ComponentRef:
            return self._ref(node)
        if kind is ast.Unary:
            operand = self.expr(node.operand)
            return operand if node.op == "+" else flat.Unary(node.op, operand)
        if kind is ast.Binary:
            return flat.Binary(node.op, self.expr(node.left), self.expr(node.right))
        if kind is ast.IfExpr:
            result = self.expr(node.else_)
            for condition, value in reversed(node.branches):
                result = flat.IfExpr(self.expr(condition), self.expr(value), result)
            return result
        if kind is ast.Range:
            step = self.expr(node.step) if node.step is not None else None
            return flat.RangeExpr(self.expr(node.start), step, self.expr(node.stop))
        if kind is ast.ArrayCons:
            if len(node.elements) == 1 and type(node.elements[0]) is ast.Comprehension:
                raise FlattenError("array comprehensions in functions are not supported",
                                   node.span)
            return flat.ArrayExpr(tuple(self.expr(item) for item in node.elements))
        if kind is ast.MatrixCons:
            return flat.ArrayExpr(tuple(flat.ArrayExpr(tuple(self.expr(item) for item in row))
                                        for row in node.rows))
        if kind is ast.Call:
            return self._call(node)
        if kind is ast.End:
            if "end" in self.iterators:
                return flat.Var("end")  # replaced by the size of the subscripted dimension
            raise FlattenError("'end' can only be used inside a subscript", node.span)
        raise FlattenError(f"{kind.__name__} is not supported in functions", node.span)

    def _is_local(self, name: str) -> bool:
        return name in self.info.members or name in self.iterators

    def _ref(self, ref: ast.ComponentRef) -> flat.Expr:
        first = ref.parts[0]
        if not ref.is_global and self._is_local(first.name):
            if len(ref.parts) > 1:
                raise FlattenError("record fields are not supported in functions", ref.span)
            base = flat.Var(first.name)
            if not first.subscripts:
                return base
            subscripts = tuple(self._subscript(base, position, item)
                               for position, item in enumerate(first.subscripts, start=1))
            return flat.Index(base, subscripts)
        if not ref.is_global and first.name == "time" and len(ref.parts) == 1:
            raise FlattenError("'time' cannot be used in a function", ref.span)
        from compiler.flatten.context import Env
        from compiler.flatten.names import resolve
        from compiler.flatten.values import to_expr
        return to_expr(resolve(ref, Env(self.ctx, None, self.entry)))

    def _subscript(self, base, position: int, item) -> flat.Expr:
        size = flat.Call("size", (base, flat.Const(position)))
        if type(item) is ast.Colon:
            return flat.RangeExpr(flat.Const(1), None, size)
        return _replace_end(self.expr_with_end(item), size)

    def expr_with_end(self, item):
        self.iterators.append("end")
        try:
            return self.expr(item)
        finally:
            self.iterators.pop()

    def _call(self, call: ast.Call) -> flat.Expr:
        from compiler.flatten.builtins import BUILTINS
        from compiler.flatten.calls import (bind_arguments, builtin_called, function_class,
                                            substitute)
        from compiler.flatten.context import Env
        from compiler.flatten.functions import function_header
        func = call.func
        name = func.parts[0].name
        if builtin_called(func, Env(self.ctx, None, self.entry)):
            if name in _MODEL_ONLY:
                raise FlattenError(f"{name}() cannot be used in a function", call.span)
            if call.named or any(type(arg) is ast.Comprehension for arg in call.args):
                raise FlattenError(f"named arguments and reductions of {name}() are not "
                                   "supported in functions", call.span)
            return flat.Call(name, tuple(self.expr(arg) for arg in call.args))
        entry = function_class(func, Env(self.ctx, None, self.entry))
        info = self.ctx.classes.expand(entry, func.span)
        if info.kind not in ("function", "operator function"):
            raise FlattenError(f"'{func.dotted}' is a {info.kind}; only functions can be called "
                               "in functions", func.span)
        header = function_header(self.ctx, entry, call.span)
        if header.builtin:
            return flat.Call(header.external.function, tuple(self.expr(a) for a in call.args))
        bound = bind_arguments(call, [var.name for var in header.inputs],
                               f"function {header.name}")
        given, args = {}, []
        for var, arg in zip(header.inputs, bound):
            if arg is None and var.default is None:
                raise FlattenError(f"input '{var.name}' of function {header.name} is not given "
                                   "and has no default", call.span)
            value = self.expr(arg) if arg is not None else substitute(var.default, given)
            given[var.name] = value
            args.append(value)
        if header.inline is not None:
            return substitute(header.inline, given)
        return flat.Call(header.name, tuple(args))

    # ------------------------------------------------------------------------- statements
    def statement(self, node) -> list:
        kind = type(node)
        if kind is ast.Assign:
            return [flat.Assign(self._target(node.target), self.expr(node.value), node.span)]
        if kind is ast.CallStmt:
            return [call_statement(node.call, self.expr, node.span, self.name)]
        if kind is ast.IfStmt:
            branches = tuple((self.expr(condition), statement_block(self, body))
                             for condition, body in node.branches)
            return [flat.IfStatement(branches, statement_block(self, node.else_), node.span)]
        if kind is ast.ForStmt:
            return [self._for(node.indices, node.body, node.span)]
        if kind is ast.WhileStmt:
            return [flat.WhileStatement(self.expr(node.condition),
                                        statement_block(self, node.body), node.span)]
        if kind is ast.Break:
            return [flat.Break(node.span)]
        if kind is ast.Return:
            return [flat.Return(node.span)]
        raise FlattenError(f"{_statement_name(node)} is not allowed in a function", node.span)

    def _for(self, indices, body, span) -> flat.ForStatement:
        index = indices[0]
        if index.range is None:
            raise FlattenError(f"for-index '{index.name}' needs an explicit range ('in ...')",
                               index.span)
        range_ = self.expr(index.range)
        self.iterators.append(index.name)
        try:
            inner = ((self._for(indices[1:], body, span),) if len(indices) > 1
                     else statement_block(self, body))
        finally:
            self.iterators.pop()
        return flat.ForStatement(index.name, range_, inner, span)

    def _target(self, target) -> flat.Expr:
        if type(target) is ast.TupleExpr:
            return flat.TupleExpr(tuple(None if item is None else self._target(item)
                                        for item in target.elements))
        if type(target) is not ast.ComponentRef:
            raise FlattenError("the left side of ':=' must be a variable", target.span)
        name = target.parts[0].name
        if name in self.inputs:
            raise FlattenError(f"cannot assign to input '{name}' of function {self.name}",
                               target.span)
        if name in self.iterators:
            raise FlattenError(f"cannot assign to for-loop index '{name}'", target.span)
        if name not in self.info.members:
            raise FlattenError(f"unknown variable '{name}' in function {self.name}", target.span)
        return self._ref(target)


def statement_block(scope: FunctionScope, statements) -> tuple:
    return tuple(item for node in statements for item in scope.statement(node))


def call_statement(call: ast.Call, translate, span, where: str):
    """``assert``/``terminate``/other calls used as statements or equations (scalar args)."""
    from compiler.flatten.calls import bind_arguments
    name = call.func.dotted if not call.func.is_global else ""
    if name == "assert":
        condition, message, level = bind_arguments(call, ["condition", "message", "level"],
                                                    "assert")
        if condition is None or message is None:
            raise FlattenError("assert needs a condition and a message", span)
        level_name = "error"
        if level is not None:
            value = translate(level)
            if type(value) is not flat.EnumConst or value.type != "AssertionLevel":
                raise FlattenError("the level of an assert must be AssertionLevel.error or "
                                   "AssertionLevel.warning", level.span)
            level_name = value.name
        return flat.Assert(translate(condition), translate(message), level_name, span)
    if name == "terminate":
        (message,) = bind_arguments(call, ["message"], "terminate")
        if message is None:
            raise FlattenError("terminate needs a message", span)
        return flat.Terminate(translate(message), span)
    if name == "reinit":
        raise FlattenError(f"reinit() is only allowed inside a when-clause (in {where})", span)
    value = translate(call)
    if type(value) is not flat.Call:
        raise FlattenError("only a function call can stand alone as a statement", span)
    return flat.CallStatement(value, span)


def _replace_end(expr, size):
    from compiler.flatten.calls import substitute
    return substitute(expr, {"end": size})


def _statement_name(node) -> str:
    return {ast.WhenStmt: "a when-statement"}.get(type(node), type(node).__name__)
