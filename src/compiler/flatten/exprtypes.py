"""Types and variability of flat expressions, for the checks flattening makes.

Input: flat expressions and the run's variables. Output: the type name of an expression
(``Real``, ``Integer``, ``Boolean``, ``String``, an enumeration's full name, or ``""`` when
unknown), type-compatibility errors, and whether an expression is a parameter expression.
"""
from __future__ import annotations

from compiler import flat
from compiler.flatten.errors import FlattenError

_BOOLEAN_RESULT = frozenset({"edge", "change", "initial", "terminal", "sample"})
_INTEGER_RESULT = frozenset({"integer", "Integer", "size", "ndims"})
_ARGUMENT_TYPE = frozenset({"abs", "sign", "min", "max", "pre", "noEvent", "mod", "rem", "div",
                            "delay", "homotopy"})
# (noEvent, smooth and homotopy of parameter expressions are parameter expressions)
_VARYING_CALLS = frozenset({"initial", "terminal", "sample", "pre", "edge", "change", "der",
                            "delay", "spatialDistribution"})
_RELATIONS = frozenset({"<", "<=", ">", ">=", "==", "<>", "and", "or"})
_NUMERIC = frozenset({"Real", "Integer"})


def constant_type(value) -> str:
    """The type name of a flat constant's Python value."""
    if isinstance(value, bool):
        return "Boolean"
    return "Integer" if isinstance(value, int) else "Real" if isinstance(value, float) \
        else "String"


def expr_type(expr, ctx) -> str:
    kind = type(expr)
    if kind is flat.Const:
        return constant_type(expr.value)
    if kind is flat.Var:
        record = ctx.variables.get(expr.name)
        return record.type if record is not None else ("Real" if expr.name == "time" else "")
    if kind is flat.EnumConst:
        return expr.type
    if kind is flat.Binary:
        if expr.op in _RELATIONS:
            return "Boolean"
        left, right = expr_type(expr.left, ctx), expr_type(expr.right, ctx)
        if expr.op in ("/", "^", "./", ".^"):
            return "Real"
        if left == right:
            return left
        return "Real" if {left, right} <= _NUMERIC else ""
    if kind is flat.Unary:
        return "Boolean" if expr.op == "not" else expr_type(expr.operand, ctx)
    if kind is flat.IfExpr:
        then, else_ = expr_type(expr.then, ctx), expr_type(expr.else_, ctx)
        return then if then == else_ else ("Real" if {then, else_} <= _NUMERIC else "")
    if kind is flat.Call:
        return _call_type(expr, ctx)
    if kind is flat.ArrayExpr and expr.elements:
        return expr_type(expr.elements[0], ctx)
    return ""


def _call_type(expr: flat.Call, ctx) -> str:
    name = expr.name
    if name in _BOOLEAN_RESULT:
        return "Boolean"
    if name in _INTEGER_RESULT:
        return "Integer"
    if name == "String":
        return "String"
    if name in _ARGUMENT_TYPE and expr.args:
        return expr_type(expr.args[0], ctx)
    if name == "smooth" and len(expr.args) == 2:
        return expr_type(expr.args[1], ctx)
    header = ctx.function_headers.get(name)
    if header is not None:
        return header.outputs[0].type if header.outputs else ""
    return "Real"


def compatible(a: str, b: str) -> bool:
    return not a or not b or a == b or (a in _NUMERIC and b in _NUMERIC)


def check_same_type(expected, subject, ctx, span, what: str) -> None:
    """With ``expected``, ``subject`` is one expression that must have that type; without,
    ``subject`` is a pair whose two sides must have compatible types."""
    if expected is not None:
        actual = expr_type(subject, ctx)
        if not compatible(expected, actual):
            raise FlattenError(f"the {what} must be {expected}, not {actual}", span)
        return
    left, right = (expr_type(side, ctx) for side in subject)
    if not compatible(left, right):
        raise FlattenError(f"type mismatch in {what}: the left side is {left}, the right side "
                           f"is {right}", span)


def is_parameter_expression(expr, ctx) -> bool:
    """Whether ``expr`` depends on parameters and constants only."""
    kind = type(expr)
    if kind is flat.Var:
        record = ctx.variables.get(expr.name)
        return record is not None and record.variability in ("constant", "parameter")
    if kind is flat.Const or kind is flat.EnumConst:
        return True
    if kind is flat.Call:
        return expr.name not in _VARYING_CALLS and all(
            is_parameter_expression(arg, ctx) for arg in expr.args)
    if kind is flat.Binary:
        return is_parameter_expression(expr.left, ctx) and is_parameter_expression(expr.right, ctx)
    if kind is flat.Unary:
        return is_parameter_expression(expr.operand, ctx)
    if kind is flat.IfExpr:
        return all(is_parameter_expression(part, ctx)
                   for part in (expr.condition, expr.then, expr.else_))
    if kind is tuple or kind is flat.ArrayExpr:
        items = expr if kind is tuple else expr.elements
        return all(is_parameter_expression(item, ctx) for item in items)
    return False


# Variabilities of expressions, lowest first (MLS 3.8)
CONSTANT, PARAMETER, DISCRETE, CONTINUOUS = range(4)
VARIABILITY_NAMES = ("constant", "parameter", "discrete-time", "continuous-time")
_VARIABILITY_OF = {"constant": CONSTANT, "parameter": PARAMETER, "discrete": DISCRETE}
# calls whose result is discrete-time whatever their arguments (MLS 3.7.2, 3.7.5)
_DISCRETE_CALLS = frozenset({"pre", "edge", "change", "initial", "terminal", "sample",
                             "integer", "floor", "ceil", "div", "mod", "rem"})
_SIZE_CALLS = frozenset({"size", "ndims", "cardinality"})
_EVENT_RELATIONS = frozenset({"<", "<=", ">", ">=", "==", "<>"})


def variability(expr, ctx, discrete=frozenset()) -> int:
    """The variability of a flat expression of the model (MLS 3.8): ``CONSTANT`` ...
    ``CONTINUOUS``. ``discrete`` names the Real variables assigned in when-clauses; relations
    and event-triggering functions are discrete-time (inside ``noEvent`` as well: this check
    is no stricter than what it can tell). So is a name the run does not know (a hidden
    variable of the flattener) a constant."""
    kind = type(expr)
    if kind is flat.Const or kind is flat.EnumConst:
        return CONSTANT
    if kind is flat.Var:
        record = ctx.variables.get(expr.name)
        if record is None:
            return CONTINUOUS if expr.name == "time" else CONSTANT
        declared = _VARIABILITY_OF.get(record.variability)
        if declared is not None:
            return declared
        return CONTINUOUS if record.type == "Real" and expr.name not in discrete else DISCRETE
    if kind is flat.Call:
        name = expr.name
        if name in _SIZE_CALLS:
            return CONSTANT
        if name in ("initial", "terminal", "sample"):
            return DISCRETE
        result = max((variability(arg, ctx, discrete) for arg in expr.args), default=CONSTANT)
        if name in _DISCRETE_CALLS:
            return min(result, DISCRETE)
        return CONTINUOUS if name == "der" else result
    if kind is flat.Binary:
        result = max(variability(expr.left, ctx, discrete),
                     variability(expr.right, ctx, discrete))
        return min(result, DISCRETE) if expr.op in _EVENT_RELATIONS else result
    if kind is flat.Unary:
        return variability(expr.operand, ctx, discrete)
    if kind is flat.IfExpr:
        return max(variability(part, ctx, discrete)
                   for part in (expr.condition, expr.then, expr.else_))
    if kind is tuple or kind is flat.ArrayExpr:
        items = expr if kind is tuple else expr.elements
        return max((variability(item, ctx, discrete) for item in items), default=CONSTANT)
    return CONSTANT
