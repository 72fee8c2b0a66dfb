"""Equation sections of an instance -> flat equations (scalar, for-loops unrolled).

Input: the AST equations of an instance's class and its bases, each with its ``Env``.
Output: flat equations appended to a ``Collector`` with the instance that owns them, and the
``connect`` equations met on the way (``connections`` turns those into equations at the end).
If-equations on parameter conditions keep only the chosen branch.
"""
from __future__ import annotations

from compiler import flat
from compiler.flatten import values
from compiler.flatten import spatial
from compiler.flatten.calls import CallResult, builtin_called, translate_call
from compiler.flatten.connection_graph import GRAPH_OPERATORS, graph_operator
from compiler.flatten.errors import FlattenError, NotEvaluable
from compiler.flatten.exprtypes import check_same_type, is_parameter_expression
from compiler.flatten.function_body import call_statement
from compiler.flatten.translate import iterator_values, translate
from compiler.flatten.values import RecordValue
from compiler.lang import ast


class Collector:
    """What flattening produces, in order, with the owning instance of each equation."""

    def __init__(self):
        self.equations: list = []
        self.owners: list = []             # parallel to ``equations``
        self.initial_equations: list = []
        self.algorithms: list = []         # (flat.Algorithm, owner, assigned names)
        self.initial_algorithms: list = []

    def add(self, items, owner) -> None:
        self.equations.extend(items)
        self.owners.extend([owner] * len(items))


class Where:
    """The equation context: initial section, inside a when-clause, inside an if-equation."""

    __slots__ = ("initial", "when", "conditional")

    def __init__(self, initial=False, when=False, conditional=False):
        self.initial = initial
        self.when = when
        self.conditional = conditional

    def but(self, **changes) -> Where:
        where = Where(self.initial, self.when, self.conditional)
        for name, value in changes.items():
            setattr(where, name, value)
        return where


def flatten_section(items, env, where: Where, collector: Collector) -> list:
    """Flat equations of a list of AST equations (connects are gathered apart)."""
    result = []
    for item in items:
        result.extend(_equation(item, env, where, collector))
    return result


def _equation(eq, env, where: Where, collector: Collector) -> list:
    kind = type(eq)
    if kind is ast.EqEquality:
        return equality(eq.lhs, eq.rhs, env, eq.span)
    if kind is ast.EqFor:
        return _for(eq.indices, eq.body, env, where, collector)
    if kind is ast.EqIf:
        return _if(eq, env, where, collector)
    if kind is ast.EqWhen:
        return [_when(eq, env, where, collector)]
    if kind is ast.EqConnect:
        return []  # gathered before the equations (connection_graph.Connections)
    if graph_operator(eq.call) in GRAPH_OPERATORS:
        return []  # likewise
    return _call_equation(eq.call, env, where, eq.span)


def _for(indices, body, env, where, collector) -> list:
    result = []
    index = indices[0]
    for value in iterator_values(index, env, body):
        inner = env.with_iterator(index.name, value)
        if len(indices) > 1:
            result.extend(_for(indices[1:], body, inner, where, collector))
        else:
            result.extend(flatten_section(body, inner, where, collector))
    return result


def parameter_condition(condition, value, env, required: bool = False):
    """The Boolean a parameter condition has, or None when the condition varies or (unless
    ``required``) is a parameter expression whose value is not known while translating (a
    parameter the initialization computes): its branches are then kept as for a varying one."""
    from compiler.flatten.evaluate import evaluate
    if not is_parameter_expression(value, env.ctx):
        return None
    try:
        result = evaluate(value, env.ctx, structural=True)
    except NotEvaluable as error:
        if not required:
            return None
        raise FlattenError(f"cannot evaluate the condition: {error.reason}",
                           condition.span) from None
    if not isinstance(result, bool):
        raise FlattenError("the condition of an if-equation must be a Boolean", condition.span)
    return result


def _if(eq: ast.EqIf, env, where: Where, collector) -> list:
    kept = []
    for condition, body in eq.branches:
        value = _condition(condition, env)
        chosen = parameter_condition(condition, value, env)
        if chosen is None:
            kept.append((value, body))
        elif chosen and not kept:
            return flatten_section(body, env, where, collector)
        elif chosen:
            inner = where.but(conditional=True)
            branches = tuple((c, tuple(flatten_section(b, env, inner, collector)))
                             for c, b in kept)
            else_ = tuple(flatten_section(body, env, inner, collector))
            return [flat.IfEquation(branches, else_, eq.span)]
    if not kept:
        return flatten_section(eq.else_, env, where, collector)
    inner = where.but(conditional=True)
    branches = tuple((c, tuple(flatten_section(b, env, inner, collector))) for c, b in kept)
    else_ = tuple(flatten_section(eq.else_, env, inner, collector))
    counts = {count_equations(body) for _, body in branches} | {count_equations(else_)}
    if len(counts) > 1 and not where.when:
        unknown = next((value for value, _ in kept
                        if is_parameter_expression(value, env.ctx)), None)
        what = ("not a parameter expression" if unknown is None else
                "a parameter expression whose value is not known while translating")
        raise FlattenError(f"the branches of an if-equation whose condition is {what} "
                           "must have the same number of equations "
                           f"(they have {', '.join(map(str, sorted(counts)))})", eq.span)
    return [flat.IfEquation(branches, else_, eq.span)]


def _condition(condition, env):
    value = translate(condition, env)
    if type(value) is tuple or type(value) is RecordValue:
        raise FlattenError("a condition must be a scalar Boolean expression", condition.span)
    check_same_type("Boolean", value, env.ctx, condition.span, "condition")
    return value


def _when(eq: ast.EqWhen, env, where: Where, collector) -> flat.WhenEquation:
    if where.when:
        raise FlattenError("when-equations cannot be nested", eq.span)
    if where.initial:
        raise FlattenError("when-equations are not allowed in initial equations", eq.span)
    inner = where.but(when=True)
    branches = []
    for condition, body in eq.branches:
        branches.append((when_condition(condition, env),
                         tuple(flatten_section(body, env, inner, collector))))
    assigned = [_assigned(body) for _, body in branches]
    if any(names != assigned[0] for names in assigned[1:]):
        raise FlattenError("every branch of a when-equation must assign the same variables "
                           f"({', '.join(sorted(assigned[0])) or 'none'} in the first)", eq.span)
    return flat.WhenEquation(tuple(branches), eq.span)


def _assigned(items) -> set:
    """Names of the variables a list of flat equations defines (left sides)."""
    names = set()
    for item in items:
        if type(item) is flat.Equation:
            targets = item.lhs.elements if type(item.lhs) is flat.TupleExpr else (item.lhs,)
            names.update(target.name for target in targets if type(target) is flat.Var)
        elif type(item) is flat.IfEquation:
            names.update(_assigned(item.branches[0][1]))
    return names


def when_condition(condition, env) -> flat.Expr:
    value = translate(condition, env)
    if type(value) is tuple:
        for item in values.scalars(value):
            check_same_type("Boolean", item, env.ctx, condition.span, "when-condition")
        return flat.ArrayExpr(tuple(values.scalars(value)))
    check_same_type("Boolean", value, env.ctx, condition.span, "when-condition")
    return value


def _call_equation(call: ast.Call, env, where: Where, span) -> list:
    name = call.func.dotted if not call.func.is_global else ""
    if name == "reinit":
        if not where.when:
            raise FlattenError("reinit() is only allowed inside a when-clause", span)
        return reinit(call, env, span)
    if not (where.initial or where.when or where.conditional):
        discarded = _discarded_results(call, env, span)
        if discarded is not None:
            return discarded
    return [call_statement(call, lambda node: translate(node, env), span, "an equation",
                           lambda node: translate_call(node, env, "statement"))]


def _discarded_results(call: ast.Call, env, span):
    """``f(a);`` in an equation section, for a function with outputs: the call computes
    hidden variables no one reads (so it runs, its asserts with it); None for other calls."""
    from compiler.flatten.calls import hidden_outputs
    if call.func.is_global or call.func.dotted in ("assert", "terminate"):
        return None
    try:
        result = translate_call(call, env, "all")
    except FlattenError:
        return None  # (no outputs, or not a function: as a statement, below)
    if type(result) is not CallResult or not result.shapes:
        return None
    outputs = [var for port in result.ports for var in port.variables]
    hidden_outputs(env.ctx, result.call, outputs, result.shapes, span)
    return []


def reinit(call: ast.Call, env, span) -> list:
    from compiler.flatten.calls import bind_arguments
    target, value = bind_arguments(call, ["x", "expr"], "reinit()")
    if target is None or value is None:
        raise FlattenError("reinit() needs a variable and a value", span)
    targets, new = translate(target, env), translate(value, env)
    matched = pairs(targets, new, span)
    result = []
    for var, expr in matched:
        if type(var) is not flat.Var:
            raise FlattenError("the first argument of reinit() must be a variable", target.span)
        result.append(flat.Reinit(var, expr, span))
    return result


def pairs(left, right, span) -> list:
    if values.shape(left) != values.shape(right):
        raise FlattenError(f"the two sides differ in size: {_size(left)} and {_size(right)}",
                           span)
    left_items, right_items = values.scalars(left), values.scalars(right)
    if len(left_items) != len(right_items):
        raise FlattenError("the two sides are records of different types", span)
    return list(zip(left_items, right_items))


def _size(value) -> str:
    dims = values.shape(value)
    return "scalar" if not dims else "[" + ", ".join(map(str, dims)) + "]"


def equality(lhs, rhs, env, span) -> list:
    """``lhs = rhs`` as scalar equations (a call with several outputs as one tuple equation)."""
    if type(lhs) is ast.TupleExpr:
        return tuple_equations(lhs, rhs, env, span)
    left = translate(lhs, env)
    right = translate_call(rhs, env, whole=True) if type(rhs) is ast.Call else translate(rhs, env)
    if type(right) is CallResult:
        return [flat.Equation(call_targets(right, [left], span), right.call, span)]
    result = []
    for a, b in pairs(left, right, span):
        check_same_type(None, (a, b), env.ctx, span, "equation")
        result.append(flat.Equation(a, b, span))
    return result


def tuple_equations(lhs: ast.TupleExpr, rhs, env, span) -> list:
    """``(a, b) = f(...)`` as flat equations: one tuple equation, or one per output of
    spatialDistribution()."""
    if type(rhs) is ast.Call and builtin_called(rhs.func, env) and \
            rhs.func.parts[0].name == spatial.NAME:
        targets = [None if item is None else translate(item, env) for item in lhs.elements]
        return spatial.spatial_equations(targets, rhs, env, span)
    return [tuple_equation(lhs, rhs, env, span)]


def tuple_equation(lhs: ast.TupleExpr, rhs, env, span) -> flat.Equation:
    if type(rhs) is not ast.Call:
        raise FlattenError("a list of outputs '(a, b) = ...' needs a function call on the "
                           "right", span)
    right = translate_call(rhs, env, whole="all")
    if type(right) is not CallResult:
        raise FlattenError("a list of outputs '(a, b) = ...' needs a call of a user function",
                           span)
    targets = [None if item is None else translate(item, env) for item in lhs.elements]
    return flat.Equation(call_targets(right, targets, span), right.call, span)


def call_targets(result: CallResult, targets: list, span) -> flat.TupleExpr:
    """The scalar targets of a call's flat outputs: ``targets`` are given per declared output
    (a record output's target is a record, taken apart leaf by leaf), None where skipped."""
    from compiler.flatten.records import leaf_value
    ports = result.ports or [None] * len(result.shapes)
    if len(targets) > len(ports):
        raise FlattenError(f"{result.call.name} has {len(ports)} outputs, "
                           f"{len(targets)} are used", span)
    items = []
    shapes = iter(result.shapes)
    for position, port in enumerate(ports):
        target = targets[position] if position < len(targets) else None
        variables = port.variables if port is not None else (None,)
        for var in variables:
            shape = next(shapes)
            part = target
            if target is not None and port is not None and port.record is not None:
                try:
                    part = leaf_value(target, tuple(var.name.split(".")[1:]))
                except KeyError:
                    raise FlattenError(f"output {position + 1} of {result.call.name} is a "
                                       f"{port.record.name}, its target is not", span) from None
            if part is None:
                items.extend([None] * _count(shape))
                continue
            if values.shape(part) != shape:
                raise FlattenError(f"output {position + 1} of {result.call.name} has size "
                                   f"{list(shape) or 'scalar'}, its target {_size(part)}", span)
            items.extend(values.scalars(part))
    return flat.TupleExpr(tuple(items))


def _count(shape) -> int:
    total = 1
    for size in shape:
        total *= size
    return total


def count_equations(items) -> int:
    """How many scalar unknowns a list of flat equations determines."""
    total = 0
    for item in items:
        kind = type(item)
        if kind is flat.Equation:
            total += (sum(1 for e in item.lhs.elements if e is not None)
                      if type(item.lhs) is flat.TupleExpr else 1)
        elif kind is flat.IfEquation:
            total += count_equations(item.branches[0][1])
        elif kind is flat.WhenEquation:
            total += count_equations(item.branches[0][1])
    return total
