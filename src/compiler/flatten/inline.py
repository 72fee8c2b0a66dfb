"""Inlining a call: the function's body run on the call's arguments as symbolic values.

Input: a function of the run (``flat.Function``) and its call's arguments by flat input name:
flat expressions, and in models (``scalarized``) nested tuples for arrays. Output: the value of
every flat output, with the inputs substituted, loops over known ranges unrolled, branches on
unknown conditions merged into if-expressions; or None when the body cannot be worked out so
(a while loop, a subscript that is not known, a call that is not inlined, an assert).
Relations keep their function meaning, no events (MLS 8.5): the outputs of an inlined call in
a model are wrapped in ``noEvent`` where they compare.
"""
from __future__ import annotations

from compiler import flat
from compiler.flatten import values
from compiler.flatten.errors import NotEvaluable
from compiler.flatten.values import ShapeError

_UNDEFINED = object()
_RELATIONS = frozenset({"<", "<=", ">", ">=", "==", "<>"})
_ARITHMETIC = frozenset({"+", "-", "*", "/", "^", ".+", ".-", ".*", "./", ".^"})
_MAX_STEPS = 20000  # statements executed for one call: beyond, not worth inlining


class _NotInlinable(Exception):
    pass


def inline_outputs(ctx, name: str, arguments: dict, scalarized: bool) -> dict | None:
    """Flat output name -> value of the call, or None when it is not inlinable."""
    function = ctx.functions.get(name)
    if function is None or function.external is not None:
        return None
    try:
        outputs = _Executor(ctx, scalarized).run(function, arguments)
    except (_NotInlinable, NotEvaluable, ShapeError, RecursionError):
        return None
    if scalarized:
        outputs = {key: values.elementwise(_no_events, value) for key, value in outputs.items()}
    return outputs


def _no_events(expr):
    from compiler.flatten.walk import nodes
    if any(type(item) is flat.Binary and item.op in _RELATIONS for item in nodes(expr)):
        return flat.Call("noEvent", (expr,))
    return expr


class _Executor:
    def __init__(self, ctx, scalarized: bool, depth: int = 0):
        self.ctx = ctx
        self.scalarized = scalarized
        self.depth = depth
        self.steps = 0

    def run(self, function: flat.Function, arguments: dict) -> dict:
        if self.depth > 8:
            raise _NotInlinable()
        env = {}
        for var in function.inputs:
            value = _as_tuples(arguments[var.name])
            if var.dims and type(value) is not tuple:
                raise _NotInlinable()  # an array whose elements are not known one by one
            env[var.name] = value
        for var in function.outputs + function.locals:
            if var.default is not None:
                env[var.name] = self.value(var.default, env)
            elif var.dims:
                dims = [self._integer(self.value(dim, env)) for dim in var.dims]
                env[var.name] = values.reshape([_UNDEFINED] * _product(dims), tuple(dims)) \
                    if dims and _product(dims) else (() if dims else _UNDEFINED)
            else:
                env[var.name] = _UNDEFINED
        self.block(function.algorithm, env)
        outputs = {var.name: env[var.name] for var in function.outputs}
        if any(item is _UNDEFINED for value in outputs.values() for item in _items(value)):
            raise _NotInlinable()
        if not self.scalarized and self.depth == 0:
            # in a function body an array is one expression
            outputs = {name: values.to_expr(value) for name, value in outputs.items()}
        return outputs

    # ------------------------------------------------------------------------- statements
    def block(self, statements, env) -> None:
        for statement in statements:
            self.steps += 1
            if self.steps > _MAX_STEPS:
                raise _NotInlinable()
            if type(statement) is flat.Return:
                if statement is not statements[-1]:
                    raise _NotInlinable()
                return
            self.statement(statement, env)

    def statement(self, statement, env) -> None:
        kind = type(statement)
        if kind is flat.Assign:
            self._assign(statement, env)
        elif kind is flat.IfStatement:
            self._if(list(statement.branches), statement.else_, env)
        elif kind is flat.ForStatement:
            self._for(statement, env)
        else:
            raise _NotInlinable()  # while, break, assert, calls without value, ...

    def _assign(self, statement: flat.Assign, env) -> None:
        target = statement.target
        if type(target) is flat.TupleExpr:
            outputs = self._call_outputs(statement.value, env)
            if len(outputs) < len(target.elements):
                raise _NotInlinable()
            for item, value in zip(target.elements, outputs):
                if item is not None:
                    self._store(item, value, env)
            return
        self._store(target, self.value(statement.value, env), env)

    def _store(self, target, value, env) -> None:
        if type(target) is flat.Var:
            if target.name not in env:
                raise _NotInlinable()
            env[target.name] = value
            return
        if type(target) is flat.Index and type(target.base) is flat.Var and self.scalarized:
            array = env.get(target.base.name)
            if type(array) is not tuple:
                raise _NotInlinable()
            positions = [self._subscript(item, env) for item in target.subscripts]
            env[target.base.name] = _replaced(array, positions, value)
            return
        raise _NotInlinable()

    def _if(self, branches: list, else_, env) -> None:
        if not branches:
            self.block(else_, env)
            return
        (condition, body), rest = branches[0], branches[1:]
        chosen = _literal(self.value(condition, env))
        if chosen is True:
            self.block(body, env)
            return
        if chosen is False:
            self._if(rest, else_, env)
            return
        condition = self.value(condition, env)
        taken, other = dict(env), dict(env)
        self.block(body, taken)
        self._if(rest, else_, other)
        for name in env:
            a, b = taken[name], other[name]
            env[name] = a if a is b or a == b else _merged(condition, a, b)

    def _for(self, statement: flat.ForStatement, env) -> None:
        range_ = self.value(statement.range, env)
        if type(range_) is not tuple:
            raise _NotInlinable()
        saved = env.get(statement.index, _UNDEFINED)
        for item in range_:
            if _literal(item) is None:
                raise _NotInlinable()
            env[statement.index] = item
            self.block(statement.body, env)
        if saved is _UNDEFINED:
            env.pop(statement.index, None)
        else:
            env[statement.index] = saved

    # ------------------------------------------------------------------------ expressions
    def value(self, expr, env):
        kind = type(expr)
        if kind is flat.Const or kind is flat.EnumConst:
            return expr
        if kind is flat.Var:
            value = env.get(expr.name, _UNDEFINED)
            if value is _UNDEFINED or any(item is _UNDEFINED for item in _items(value)):
                raise _NotInlinable()
            return value
        if kind is flat.Index:
            from compiler.flatten.names import pick_nested
            base = self.value(expr.base, env)
            if type(base) is not tuple:
                raise _NotInlinable()
            return pick_nested(base, [self._selection(item, env)
                                    for item in expr.subscripts])
        if kind is flat.Unary:
            operand = self.value(expr.operand, env)
            return values.elementwise(lambda item: _fold(self.ctx, flat.Unary(expr.op, item)),
                                      operand)
        if kind is flat.Binary:
            return self._binary(expr, env)
        if kind is flat.IfExpr:
            condition = self.value(expr.condition, env)
            chosen = _literal(condition)
            if chosen is not None:
                return self.value(expr.then if chosen else expr.else_, env)
            return _merged(condition, self.value(expr.then, env), self.value(expr.else_, env))
        if kind is flat.Call:
            return self._call(expr, env)
        if kind is flat.ArrayExpr:
            return tuple(self.value(item, env) for item in expr.elements)
        if kind is flat.RangeExpr:
            start, stop = self.value(expr.start, env), self.value(expr.stop, env)
            step = self.value(expr.step, env) if expr.step is not None else flat.Const(1)
            from compiler.flatten.translate import range_values
            bounds = [_literal(item) for item in (start, step, stop)]
            if any(bound is None for bound in bounds):
                raise _NotInlinable()
            return values.constant(range_values(bounds[0], bounds[1], bounds[2]))
        raise _NotInlinable()

    def _binary(self, expr: flat.Binary, env):
        left, right = self.value(expr.left, env), self.value(expr.right, env)
        op = expr.op
        if type(left) is not tuple and type(right) is not tuple:
            return _fold(self.ctx, flat.Binary(op, left, right))
        scalar_op = op[1:] if op.startswith(".") else op
        if op == "*":
            result = values.multiply(left, right)
        elif op in ("+", "-") and type(left) is tuple and type(right) is tuple:
            result = values.add(left, right, op)
        elif op.startswith(".") or (op in ("*", "/") and type(right) is not tuple) or \
                op in ("and", "or"):
            result = values.elementwise2(lambda a, b: flat.Binary(scalar_op, a, b), left, right)
        else:
            raise _NotInlinable()
        return values.elementwise(lambda item: _fold(self.ctx, item), result)

    def _call(self, expr: flat.Call, env):
        name = expr.name
        if name in self.ctx.functions:
            return self._call_outputs(expr, env)[0]
        args = [self.value(arg, env) for arg in expr.args]
        if name in ("size", "ndims"):
            if type(args[0]) is not tuple:
                raise _NotInlinable()
            dims = values.shape(args[0])
            if name == "ndims":
                return flat.Const(len(dims))
            if len(args) == 1:
                return tuple(flat.Const(size) for size in dims)
            return flat.Const(dims[self._integer(args[1]) - 1])
        from compiler.flatten.builtins import array_function_value
        value = array_function_value(name, args)
        if value is not None:
            return values.elementwise(lambda item: _fold(self.ctx, item), value)
        if not any(type(arg) is tuple for arg in args):
            if name in _ARRAY_BUILTINS:
                raise _NotInlinable()  # its sizes are not known here
            return _fold(self.ctx, flat.Call(name, tuple(args)))
        if name in ("min", "max") and len(args) == 1:
            items = values.scalars(args[0])
            if not items:
                raise _NotInlinable()
            result = items[0]
            for item in items[1:]:
                result = flat.Call(name, (result, item))
            return result
        if name in _ELEMENTWISE_FUNCTIONS:
            from compiler.flatten.builtins import broadcast
            return broadcast(lambda *items: flat.Call(name, items), args)
        raise _NotInlinable()

    def _call_outputs(self, expr, env) -> list:
        """Every flat output of a call of another function of the run, inlined."""
        if type(expr) is not flat.Call or expr.name not in self.ctx.functions:
            raise _NotInlinable()
        header = self.ctx.function_headers.get(expr.name)
        if header is None or not header.inline:
            raise _NotInlinable()
        function = self.ctx.functions[expr.name]
        arguments = {var.name: self._argument(arg, env)
                     for var, arg in zip(function.inputs, expr.args)}
        inner = _Executor(self.ctx, self.scalarized, self.depth + 1)
        outputs = inner.run(function, arguments)
        self.steps += inner.steps
        return [outputs[var.name] for var in function.outputs]

    def _argument(self, arg, env):
        value = self.value(arg, env)
        return value

    def _selection(self, item, env):
        if type(item) is flat.RangeExpr:
            selected = self.value(item, env)
            return [self._integer(element) for element in selected]
        return self._subscript(item, env)

    def _subscript(self, item, env) -> int:
        return self._integer(self.value(item, env))

    @staticmethod
    def _integer(value) -> int:
        literal = _literal(value)
        if type(literal) is flat.EnumConst:
            return literal.ordinal
        if isinstance(literal, bool) or not isinstance(literal, int):
            raise _NotInlinable()
        return literal


_ARRAY_BUILTINS = frozenset({"zeros", "ones", "fill", "identity", "transpose", "outerProduct",
                             "cross", "skew", "symmetric", "diagonal", "vector", "matrix", "cat",
                             "linspace"})
_ELEMENTWISE_FUNCTIONS = frozenset({
    "abs", "sign", "sqrt", "sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh",
    "exp", "log", "log10", "floor", "ceil", "integer", "noEvent"})


def _fold(ctx, expr):
    """``expr`` computed now when it is made of literals only (loop indices, sizes)."""
    from compiler.flatten.evaluate import evaluate
    kind = type(expr)
    parts = (expr.operand,) if kind is flat.Unary else (expr.left, expr.right) \
        if kind is flat.Binary else expr.args if kind is flat.Call else ()
    if not parts or any(type(part) not in (flat.Const, flat.EnumConst) for part in parts):
        return expr
    try:
        result = evaluate(expr, ctx)
    except NotEvaluable:
        return expr
    return values.constant(result) if type(result) is not tuple else expr


def _literal(value):
    """The Python value of a literal, else None."""
    if type(value) is flat.Const:
        return value.value
    if type(value) is flat.EnumConst:
        return value
    return None


def _merged(condition, a, b):
    if type(a) is tuple or type(b) is tuple:
        if values.shape(a) != values.shape(b):
            raise _NotInlinable()
        return tuple(_merged(condition, x, y) for x, y in zip(a, b))
    if a is _UNDEFINED or b is _UNDEFINED:
        return _UNDEFINED
    return flat.IfExpr(condition, a, b)


def _as_tuples(value):
    """An argument with its array constructors as tuples (their elements known one by one)."""
    if type(value) is flat.ArrayExpr:
        return tuple(_as_tuples(item) for item in value.elements)
    if type(value) is tuple:
        return tuple(_as_tuples(item) for item in value)
    return value


def _items(value):
    if type(value) is tuple:
        for item in value:
            yield from _items(item)
    else:
        yield value


def _replaced(array: tuple, positions: list, value):
    first, rest = positions[0], positions[1:]
    if not 1 <= first <= len(array):
        raise _NotInlinable()
    item = _replaced(array[first - 1], rest, value) if rest else value
    return array[:first - 1] + (item,) + array[first:]


def _product(dims) -> int:
    total = 1
    for size in dims:
        total *= size
    return total
