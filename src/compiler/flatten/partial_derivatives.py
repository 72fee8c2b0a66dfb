"""Derivatives of function bodies by forward-mode differentiation.

Two uses. ``partial_derivative``: a class ``function dfdx = der(f, x)`` (MLS 12.7.2), ``f``'s
statements with each assignment ``v := e`` preceded by ``d_v := de/dx``. ``derivative_function``:
the first-order derivative function of ``f`` (MLS 12.7.1: the inputs of ``f``, then the
derivatives of its Real inputs; outputs the derivatives of its Real outputs), which index
reduction calls where ``f`` has no derivative annotation. Branches and loops keep their
conditions and ranges (the derivative follows the same path, each loop iteration
differentiated in turn), calls of other user functions call their derivative functions
(annotated or generated in turn), and record variables are their Real leaves already.
"""
from __future__ import annotations

from compiler import flat
from compiler.flatten.errors import FlattenError

ZERO, ONE = flat.Const(0.0), flat.Const(1.0)


def _over(numerator, denominator):
    return lambda u: flat.Binary("/", numerator(u) if callable(numerator) else numerator,
                                 denominator(u))


def _sqrt_of(expr):
    return flat.Call("sqrt", (expr,))


def _square(u):
    return flat.Binary("*", u, u)


# d/du of the built-in function of one argument, as a function of u
_CHAIN = {
    "sin": lambda u: flat.Call("cos", (u,)),
    "cos": lambda u: flat.Unary("-", flat.Call("sin", (u,))),
    "exp": lambda u: flat.Call("exp", (u,)),
    "log": _over(ONE, lambda u: u),
    "log10": _over(ONE, lambda u: flat.Binary("*", flat.Const(2.302585092994046), u)),
    "sqrt": _over(flat.Const(0.5), _sqrt_of),
    "tan": _over(ONE, lambda u: _square(flat.Call("cos", (u,)))),
    "sinh": lambda u: flat.Call("cosh", (u,)),
    "cosh": lambda u: flat.Call("sinh", (u,)),
    "tanh": lambda u: flat.Binary("-", ONE, _square(flat.Call("tanh", (u,)))),
    "asin": _over(ONE, lambda u: _sqrt_of(flat.Binary("-", ONE, _square(u)))),
    "acos": _over(flat.Const(-1.0), lambda u: _sqrt_of(flat.Binary("-", ONE, _square(u)))),
    "atan": _over(ONE, lambda u: flat.Binary("+", ONE, _square(u))),
}
# built-ins linear in their (first) argument: the derivative is the call of the derivative
_LINEAR = frozenset({"sum", "transpose", "vector", "matrix", "scalar", "fill", "diagonal",
                     "noEvent", "symmetric", "skew"})
# built-ins whose value is piecewise constant (or not Real)
_CONSTANT = frozenset({"sign", "floor", "ceil", "integer", "Integer", "size", "ndims", "div",
                       "String", "zeros", "ones", "identity", "linspace", "initial",
                       "terminal", "edge", "change", "assert"})
_LOGICAL = frozenset({"<", "<=", ">", ">=", "==", "<>", "and", "or"})


class Unsupported(Exception):
    """What of the function cannot be differentiated."""


def partial_derivative(name: str, function: flat.Function, variables: tuple, span,
                       description: str = "") -> flat.Function:
    """``der(function, *variables)`` named ``name``."""
    what = f"der({function.name}, {', '.join(variables)})"
    if len(variables) != 1:
        raise FlattenError(f"{what}: partial derivatives with respect to more than one input "
                           "are not supported", span)
    (variable,) = variables
    inputs = {var.name: var for var in function.inputs}
    if variable not in inputs or not _real_scalar(inputs[variable]):
        raise FlattenError(f"{what}: '{variable}' is not a Real scalar input of "
                           f"{function.name} (MLS 12.7.2)", span)
    if len(function.outputs) != 1 or not _real_scalar(function.outputs[0]):
        raise FlattenError(f"{what}: {function.name} must have one Real scalar output "
                           "(MLS 12.7.2)", span)
    if function.external is not None:
        raise FlattenError(f"{what}: partial derivatives of external functions are not "
                           "supported", span)
    output = function.outputs[0]
    taken = {var.name for var in function.inputs + function.outputs + function.locals}
    value = _fresh(f"{output.name}_value", taken)
    # the output of f becomes a local holding its value; the output is its derivative
    renamed = {output.name: flat.Var(value)}
    tangents = {name_: ONE if name_ == variable else ZERO for name_ in inputs}
    locals_ = [flat.FunctionVar(value, "Real", (), span=output.span)]
    for var in function.locals + (output,):
        if var.name == output.name:
            tangents[value] = flat.Var(output.name)
        elif _real(var):
            tangent = _fresh(f"d_{var.name}", taken)
            tangents[var.name] = flat.Var(tangent)
            locals_.append(flat.FunctionVar(tangent, "Real", var.dims, span=var.span))
    locals_ = [*function.locals, *locals_]
    forward = Forward(tangents, {var.name: var for var in function.locals}, None)
    try:
        statements = [flat.Assign(flat.Var(output.name), ZERO, span)]
        statements.extend(forward.statements(tuple(_renamed(statement, renamed)
                                                   for statement in function.algorithm)))
    except Unsupported as error:
        raise FlattenError(f"{what}: {error} in {function.name} cannot be differentiated",
                           span) from None
    return flat.Function(name, function.inputs, (output,), tuple(locals_), tuple(statements),
                         None, description, span)


def derivative_function(name: str, function: flat.Function, callee) -> flat.Function:
    """The first-order derivative function of ``function`` named ``name``; ``callee(f)`` is
    ``(name of the derivative function of f, names of the inputs of f whose derivatives it
    takes)`` for a user function ``f`` called in the body, or raises ``Unsupported``."""
    if function.external is not None:
        raise Unsupported(f"the external function {function.name}")
    taken = {var.name for var in function.inputs + function.outputs + function.locals}
    assigned = _assigned(function.algorithm)
    tangents, declared = {}, {}
    for var in function.inputs + function.outputs + function.locals:
        declared[var.name] = var
        if var in function.locals and var.name not in assigned and var.default is not None \
                and _is(Forward(tangents, declared, callee).expr(var.default), 0.0):
            continue  # a constant (a table of package constants): no derivative
        if _real(var):
            tangent = _fresh("der_" + var.name.replace(".", "_").replace("$", "_"), taken)
            tangents[var.name] = flat.Var(tangent)
    forward = Forward(tangents, declared, callee)

    def tangent_of(var):
        default = None if var.default is None else \
            _zeros_like(forward.expr(var.default), flat.Var(var.name) if var.dims else ZERO)
        return flat.FunctionVar(tangents[var.name].name, "Real", var.dims, default, var.span)

    inputs = function.inputs + tuple(tangent_of(var) for var in function.inputs if _real(var))
    outputs = tuple(tangent_of(var) for var in function.outputs if _real(var))
    locals_ = function.outputs + function.locals + tuple(
        tangent_of(var) for var in function.locals if var.name in tangents)
    return flat.Function(name, inputs, outputs, locals_, forward.statements(function.algorithm),
                         None, f"derivative of {function.name}", function.span)


class Forward:
    """Forward-mode differentiation of statements and expressions: ``tangents`` maps each
    Real variable to the expression of its derivative (a variable, or a constant seed)."""

    def __init__(self, tangents: dict, declared: dict, callee):
        self.tangents = tangents
        self.declared = declared
        self.callee = callee

    def statements(self, statements) -> list:
        result = []
        for statement in statements:
            result.extend(self.statement(statement))
        return result

    def statement(self, statement) -> list:
        kind = type(statement)
        if kind is flat.Assign:
            return self._assign(statement)
        if kind is flat.IfStatement:
            return [flat.IfStatement(
                tuple((condition, tuple(self.statements(body)))
                      for condition, body in statement.branches),
                tuple(self.statements(statement.else_)), statement.span)]
        if kind is flat.ForStatement:
            return [flat.ForStatement(statement.index, statement.range,
                                      tuple(self.statements(statement.body)), statement.span)]
        if kind is flat.WhileStatement:
            return [flat.WhileStatement(statement.condition,
                                        tuple(self.statements(statement.body)), statement.span)]
        if kind in (flat.Break, flat.Return, flat.CallStatement, flat.Assert, flat.Terminate):
            return [statement]
        raise Unsupported(f"a {kind.__name__}")

    def _assign(self, statement: flat.Assign) -> list:
        target = statement.target
        if type(target) is flat.TupleExpr:
            return self._assign_results(statement)
        tangent = self._target_tangent(target)
        if tangent is None:
            return [statement]  # (an Integer, Boolean or String variable: no derivative)
        value = self.expr(statement.value)
        if _is(value, 0.0) and self._is_array(target):
            # a constant array: its derivative is an array of zeros of the same shape
            return [statement, flat.Assign(tangent, flat.Binary("*", ZERO, target),
                                           statement.span)]
        return [flat.Assign(tangent, value, statement.span), statement]

    def _assign_results(self, statement: flat.Assign) -> list:
        """``(a, b) := f(x)`` is preceded by ``(der_a, der_b) := f_der(x, der_x)``."""
        call = statement.value
        if type(call) is not flat.Call or call.name not in self._user_functions():
            raise Unsupported("an assignment of several results that is not a call")
        function = self._user_functions()[call.name]
        targets = []
        for port, target in zip(function.outputs, statement.target.elements):
            if not _real(port):
                continue
            tangent = None if target is None else self._target_tangent(target)
            targets.append(tangent)
        if all(target is None for target in targets):
            return [statement]
        return [flat.Assign(flat.TupleExpr(tuple(targets)), self._derivative_call(call),
                            statement.span), statement]

    def _user_functions(self) -> dict:
        return self.callee.functions if self.callee is not None else {}

    def _target_tangent(self, target):
        if type(target) is flat.Var:
            return self.tangents.get(target.name)
        if type(target) is flat.Index and type(target.base) is flat.Var:
            tangent = self.tangents.get(target.base.name)
            if tangent is None:
                return None
            if type(tangent) is not flat.Var:
                raise Unsupported("an assignment to an input")
            return flat.Index(tangent, target.subscripts)
        raise Unsupported(f"an assignment to {type(target).__name__}")

    def _is_array(self, target) -> bool:
        var = self.declared.get(target.name) if type(target) is flat.Var else None
        return var is not None and bool(var.dims)

    def expr(self, expr):
        kind = type(expr)
        if kind in (flat.Const, flat.EnumConst, flat.RangeExpr):
            return ZERO
        if kind is flat.Var:
            return self.tangents.get(expr.name, ZERO)
        if kind is flat.Index:
            tangent = self.expr(expr.base)
            return ZERO if _is(tangent, 0.0) or type(tangent) is flat.Const else \
                flat.Index(tangent, expr.subscripts)
        if kind is flat.Unary:
            return ZERO if expr.op == "not" else _negated(self.expr(expr.operand))
        if kind is flat.Binary:
            return self._binary(expr)
        if kind is flat.IfExpr:
            then, else_ = self.expr(expr.then), self.expr(expr.else_)
            if _is(then, 0.0) != _is(else_, 0.0):
                # a constant branch of an array if-expression: zeros of its shape
                then, else_ = _zeros_like(then, expr.then), _zeros_like(else_, expr.else_)
            return _choice(expr.condition, then, else_)
        if kind is flat.ArrayExpr:
            elements = tuple(self.expr(item) for item in expr.elements)
            return ZERO if all(_is(item, 0.0) for item in elements) else \
                flat.ArrayExpr(elements)
        if kind is flat.Call:
            return self._call(expr)
        raise Unsupported(f"the expression {kind.__name__}")

    def _call(self, expr: flat.Call):
        name, args = expr.name, expr.args
        if name in _CHAIN and len(args) == 1:
            return _product(_CHAIN[name](args[0]), self.expr(args[0]))
        if name == "smooth":
            return self.expr(args[1])
        if name in _LINEAR:
            first = self.expr(args[0])
            return ZERO if _is(first, 0.0) else flat.Call(name, (first,) + args[1:])
        if name in _CONSTANT:
            return ZERO
        if name == "cat" and len(args) > 1:
            # linear in the arrays it joins; a part that does not change keeps its place as
            # zeros of its shape
            tangents = [self.expr(arg) for arg in args[1:]]
            if all(_is(tangent, 0.0) for tangent in tangents):
                return ZERO
            return flat.Call(name, (args[0],) + tuple(
                flat.Binary("*", ZERO, arg) if _is(tangent, 0.0) else tangent
                for arg, tangent in zip(args[1:], tangents)))
        if name == "abs" and len(args) == 1:
            derivative = self.expr(args[0])
            return _choice(flat.Binary(">=", args[0], ZERO), derivative, _negated(derivative))
        if name in ("min", "max") and len(args) == 2:
            a, b = args
            return _choice(flat.Binary("<" if name == "min" else ">", a, b),
                           self.expr(a), self.expr(b))
        if name == "atan2" and len(args) == 2:
            y, x = args  # (x dy - y dx) / (x^2 + y^2)
            return flat.Binary("/", _sum(_product(x, self.expr(y)),
                                         _negated(_product(y, self.expr(x)))),
                               flat.Binary("+", _square(x), _square(y)))
        if name in self._user_functions():
            return self._user_call(expr)
        raise Unsupported(f"the function {name}")

    def _user_call(self, expr: flat.Call):
        function = self._user_functions()[expr.name]
        if not function.outputs or not _real(function.outputs[0]):
            return ZERO  # (the value of a call in an expression is its first result)
        return self._derivative_call(expr)

    def _derivative_call(self, expr: flat.Call) -> flat.Call:
        """The call of the derivative function of the user function ``expr`` calls."""
        function = self._user_functions()[expr.name]
        derivative, differentiated = self.callee(expr.name)
        extra = []
        for port, arg in zip(function.inputs, expr.args):
            if port.name not in differentiated:
                continue
            tangent = self.expr(arg)
            if _is(tangent, 0.0) and port.dims and type(arg) is not flat.Const:
                tangent = flat.Binary("*", ZERO, arg)  # zeros of the argument's shape
            extra.append(tangent)
        return flat.Call(derivative, expr.args + tuple(extra))

    def _binary(self, expr: flat.Binary):
        op = expr.op
        if op in _LOGICAL:
            return ZERO
        a, b = expr.left, expr.right
        da, db = self.expr(a), self.expr(b)
        if op in ("+", ".+"):
            return _sum(da, db)
        if op in ("-", ".-"):
            return _sum(da, _negated(db))
        if op in ("*", ".*"):
            return _sum(_product(da, b, op), _product(a, db, op))
        if op in ("/", "./"):
            if _is(db, 0.0):
                return ZERO if _is(da, 0.0) else flat.Binary(op, da, b)
            # da/b - a db / b^2
            return _sum(flat.Binary(op, da, b) if not _is(da, 0.0) else ZERO,
                        _negated(flat.Binary(op, _product(a, db, ".*" if op == "./" else "*"),
                                             flat.Binary(".*" if op == "./" else "*", b, b))))
        if op in ("^", ".^"):
            times = ".*" if op == ".^" else "*"
            if _is(db, 0.0):
                if _is(da, 0.0):
                    return ZERO
                if type(b) is flat.Const:
                    power = a if b.value == 2 else flat.Binary(op, a, flat.Const(b.value - 1))
                else:
                    power = flat.Binary(op, a, flat.Binary("-", b, ONE))
                return _product(_product(b, power, times), da, times)
            # a^b (db log(a) + b da / a)
            return _product(expr, _sum(_product(db, flat.Call("log", (a,)), times),
                                       flat.Binary("./" if op == ".^" else "/",
                                                   _product(b, da, times), a)), times)
        raise Unsupported(f"the operator '{op}'")


def _assigned(statements) -> set:
    """The names of the variables ``statements`` assign (also inside branches and loops)."""
    names = set()
    for statement in statements:
        kind = type(statement)
        if kind is flat.Assign:
            targets = statement.target.elements if type(statement.target) is flat.TupleExpr \
                else (statement.target,)
            for target in targets:
                while type(target) is flat.Index:
                    target = target.base
                if type(target) is flat.Var:
                    names.add(target.name)
        elif kind is flat.IfStatement:
            for _, body in statement.branches:
                names |= _assigned(body)
            names |= _assigned(statement.else_)
        elif kind in (flat.ForStatement, flat.WhileStatement):
            names |= _assigned(statement.body)
    return names


def _real(var: flat.FunctionVar) -> bool:
    return var.type == "Real"


def _real_scalar(var: flat.FunctionVar) -> bool:
    return var.type == "Real" and not var.dims


def _fresh(name: str, taken: set) -> str:
    while name in taken:
        name += "_"
    taken.add(name)
    return name


def _renamed(statement, mapping: dict):
    from compiler.flatten.calls import substitute
    return substitute(statement, mapping)


def _is(expr, value) -> bool:
    return type(expr) is flat.Const and expr.value == value


def _zeros_like(derivative, expr):
    """``derivative`` of ``expr``; where that is the constant 0, zeros of ``expr``'s shape."""
    if not _is(derivative, 0.0) or type(expr) is flat.Const:
        return derivative
    return flat.Binary("*", ZERO, expr)


def _choice(condition, then, else_):
    if _is(then, 0.0) and _is(else_, 0.0):
        return ZERO
    return flat.IfExpr(condition, then, else_)


def _sum(a, b):
    if _is(a, 0.0):
        return b
    if _is(b, 0.0):
        return a
    return flat.Binary("+", a, b)


def _product(a, b, op: str = "*"):
    if _is(a, 0.0) or _is(b, 0.0):
        return ZERO
    if _is(a, 1.0):
        return b
    if _is(b, 1.0):
        return a
    return flat.Binary(op, a, b)


def _negated(a):
    return a if _is(a, 0.0) else flat.Unary("-", a)
