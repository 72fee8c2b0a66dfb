"""Partial derivatives of functions: ``function dfdx = der(f, x)`` (MLS 12.7.2).

Input: the ``ClassEntry`` of such a class and the translated ``flat.Function`` of ``f``. Output:
a ``flat.Function`` with the inputs of ``f`` whose one output, named as that of ``f``, is the
partial derivative of ``f``'s Real scalar output with respect to the Real scalar input ``x``:
``f``'s statements with each assignment ``v := e`` preceded by ``d_v := de/dx`` (forward mode).
Functions whose algorithm is more than assignments of Real scalars (loops, branches, arrays,
calls of other user functions) are refused as unsupported.
"""
from __future__ import annotations

from compiler import flat
from compiler.flatten.errors import FlattenError

ZERO, ONE = flat.Const(0.0), flat.Const(1.0)

# d/du of the built-in function of one argument, as a function of u
_CHAIN = {
    "sin": lambda u: flat.Call("cos", (u,)),
    "cos": lambda u: flat.Unary("-", flat.Call("sin", (u,))),
    "exp": lambda u: flat.Call("exp", (u,)),
    "log": lambda u: flat.Binary("/", ONE, u),
    "sqrt": lambda u: flat.Binary("/", flat.Const(0.5), flat.Call("sqrt", (u,))),
    "tan": lambda u: flat.Binary("/", ONE, flat.Binary("^", flat.Call("cos", (u,)),
                                                         flat.Const(2))),
    "sinh": lambda u: flat.Call("cosh", (u,)),
    "cosh": lambda u: flat.Call("sinh", (u,)),
}


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
        elif _real_scalar(var):
            tangent = _fresh(f"d_{var.name}", taken)
            tangents[var.name] = flat.Var(tangent)
            locals_.append(flat.FunctionVar(tangent, "Real", (), span=var.span))
    locals_ = [*function.locals, *locals_]
    try:
        statements = [flat.Assign(flat.Var(output.name), ZERO, span)]
        for statement in function.algorithm:
            statements.extend(_statement(_renamed(statement, renamed), tangents))
    except Unsupported as error:
        raise FlattenError(f"{what}: {error} in {function.name} cannot be differentiated "
                           "(only assignments of Real scalars are supported)", span) from None
    return flat.Function(name, function.inputs, (output,), tuple(locals_), tuple(statements),
                         None, description, span)


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


def _statement(statement, tangents: dict) -> list:
    if type(statement) is not flat.Assign or type(statement.target) is not flat.Var:
        raise Unsupported(f"a {type(statement).__name__} statement")
    target = statement.target.name
    if target not in tangents:
        return [statement]  # (an Integer or Boolean local: no derivative)
    tangent = tangents[target]
    return [flat.Assign(tangent, _derivative(statement.value, tangents), statement.span),
            statement]


def _derivative(expr, tangents: dict):
    kind = type(expr)
    if kind is flat.Const:
        return ZERO
    if kind is flat.Var:
        return tangents.get(expr.name, ZERO)
    if kind is flat.Unary and expr.op == "-":
        return _negated(_derivative(expr.operand, tangents))
    if kind is flat.Binary:
        return _binary(expr, tangents)
    if kind is flat.IfExpr:
        return flat.IfExpr(expr.condition, _derivative(expr.then, tangents),
                           _derivative(expr.else_, tangents))
    if kind is flat.Call and expr.name in _CHAIN and len(expr.args) == 1:
        (argument,) = expr.args
        return _product(_CHAIN[expr.name](argument), _derivative(argument, tangents))
    raise Unsupported(f"the expression {kind.__name__}"
                      f"{' ' + expr.name if kind is flat.Call else ''}")


def _binary(expr: flat.Binary, tangents: dict):
    a, b = expr.left, expr.right
    da, db = _derivative(a, tangents), _derivative(b, tangents)
    if expr.op == "+":
        return _sum(da, db)
    if expr.op == "-":
        return _sum(da, _negated(db))
    if expr.op == "*":
        return _sum(_product(da, b), _product(a, db))
    if expr.op == "/":
        if _is(db, 0.0):
            return ZERO if _is(da, 0.0) else flat.Binary("/", da, b)
        # (da b - a db) / b^2
        return flat.Binary("/", _sum(_product(da, b), _negated(_product(a, db))),
                           flat.Binary("*", b, b))
    if expr.op == "^":
        if type(b) is flat.Const:
            power = a if b.value == 2 else flat.Binary("^", a, flat.Const(b.value - 1))
            return _product(_product(b, power), da)
        # a^b (db log(a) + b da / a)
        return _product(expr, _sum(_product(db, flat.Call("log", (a,))),
                                   flat.Binary("/", _product(b, da), a)))
    raise Unsupported(f"the operator '{expr.op}'")


def _is(expr, value) -> bool:
    return type(expr) is flat.Const and expr.value == value


def _sum(a, b):
    if _is(a, 0.0):
        return b
    if _is(b, 0.0):
        return a
    return flat.Binary("+", a, b)


def _product(a, b):
    if _is(a, 0.0) or _is(b, 0.0):
        return ZERO
    if _is(a, 1.0):
        return b
    if _is(b, 1.0):
        return a
    return flat.Binary("*", a, b)


def _negated(a):
    return a if _is(a, 0.0) else flat.Unary("-", a)
