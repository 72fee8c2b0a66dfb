"""AST expressions -> values of flat expressions, in an instance (arrays scalarized).

Input: an ``ast.Expr`` and the ``Env`` it is read in. Output: a value (``values`` module):
names become ``flat.Var`` of flattened scalar names, package constants their values, array
operators and array built-ins are carried out element by element, ranges and
comprehensions are expanded (their bounds must be parameter expressions).
"""
from __future__ import annotations

from compiler import flat
from compiler.flatten import calls
from compiler.flatten import evaluate as evaluation
from compiler.flatten import names
from compiler.flatten import values
from compiler.flatten.errors import FlattenError, NotEvaluable
from compiler.flatten.rules import operators as operator_rules
from compiler.flatten.values import RecordValue, ShapeError
from compiler.lang import ast


def translate(expr, env):
    """The value of ``expr`` read in ``env``."""
    handler = _HANDLERS.get(type(expr))
    if handler is None:
        raise FlattenError(f"{type(expr).__name__} cannot be used as an expression here",
                           getattr(expr, "span", None))
    return handler(expr, env)


def _literal(expr, env):
    return flat.Const(expr.value)


def _ref(expr: ast.ComponentRef, env):
    return names.resolve(expr, env)


def _end(expr, env):
    if env.end is None:
        raise FlattenError("'end' can only be used inside a subscript", expr.span)
    return flat.Const(env.end)


def _colon(expr, env):
    raise FlattenError("':' can only be used as a subscript", expr.span)


def _unary(expr: ast.Unary, env):
    operand = translate(expr.operand, env)
    if _has_record(operand):
        return _overloaded(expr.op, (operand,), env, expr.span)
    if type(operand) is not tuple:
        operator_rules.check_unary(expr.op, operand, env.ctx, expr.span)
    if expr.op == "+":
        return operand
    if expr.op == "-" and type(operand) is flat.Const and not isinstance(operand.value, (bool, str)):
        return flat.Const(-operand.value)
    return values.elementwise(lambda item: flat.Unary(expr.op, item), operand)


_ELEMENTWISE = {".+": "+", ".-": "-", ".*": "*", "./": "/", ".^": "^"}
_RELATIONS = frozenset({"<", "<=", ">", ">=", "==", "<>"})


def _binary(expr: ast.Binary, env):
    left, right = translate(expr.left, env), translate(expr.right, env)
    op = expr.op
    if _has_record(left) or _has_record(right):
        return _overloaded(op, (left, right), env, expr.span)
    try:
        if op in _ELEMENTWISE:
            scalar_op = _ELEMENTWISE[op]
            return values.elementwise2(lambda a, b: flat.Binary(scalar_op, a, b), left, right)
        left_array, right_array = type(left) is tuple, type(right) is tuple
        if not left_array and not right_array:
            operator_rules.check_binary(op, left, right, env.ctx, expr.span)
            return flat.Binary(op, left, right)
        if op in ("+", "-"):
            if left_array != right_array:
                raise ShapeError(f"'{op}' needs two arrays of the same size or two scalars; "
                                 f"use '.{op}' to combine an array with a scalar")
            return values.add(left, right, op)
        if op == "*":
            # (a scalar times an empty array is that empty array, elementwise)
            if left_array and right_array and (_empty(left) or _empty(right)):
                return _empty_product(expr, left, right, env)
            return values.multiply(left, right)
        if op == "/" and not right_array:
            return values.elementwise2(lambda a, b: flat.Binary("/", a, b), left, right)
        if op in ("and", "or"):
            return values.elementwise2(lambda a, b: flat.Binary(op, a, b), left, right)
        if op == "^" and left_array and not right_array:
            return _matrix_power(left, expr.right, env)
        raise ShapeError(f"'{op}' is not defined for arrays of sizes {values.shape(left)} and "
                         f"{values.shape(right)}")
    except ShapeError as error:
        raise FlattenError(str(error), expr.span) from None


def _empty(value) -> bool:
    return type(value) is tuple and 0 in values.shape(value)


def _empty_product(expr: ast.Binary, left, right, env):
    """A matrix product with an empty operand, whose value keeps no sizes after its first 0:
    the sizes come from the declarations, and a product over an empty inner dimension is
    zero (``x[4, 0] * y[0, 4]`` is a 4x4 matrix of zeros, MLS 10.6.4)."""
    a, b = _declared_sizes(expr.left, left, env), _declared_sizes(expr.right, right, env)
    if not a or not b or len(a) > 2 or len(b) > 2 or a[-1] != b[0]:
        raise ShapeError(f"'*' is not defined for arrays of sizes {a} and {b}")

    def zeros(sizes):
        return tuple(zeros(sizes[1:]) for _ in range(sizes[0])) if sizes else flat.Const(0)
    return zeros(a[:-1] + b[1:])


def _declared_sizes(expr, value, env) -> tuple:
    """The sizes of an operand: those of its value, or of its declaration for an empty
    component referred to whole."""
    sizes = values.shape(value)
    if 0 in sizes and type(expr) is ast.ComponentRef and len(expr.parts) == 1 and \
            not expr.parts[0].subscripts:
        node = names.declared_node(expr, 0, env)
        if node is not None:
            return tuple(node.dims)
    return sizes


def _matrix_power(matrix, exponent: ast.Expr, env):
    """``A^n``: A square, n a non-negative Integer parameter expression; A^0 is the identity
    (MLS 10.6.4)."""
    dims = values.shape(matrix)
    if len(dims) != 2 or dims[0] != dims[1]:
        raise ShapeError(f"'^' of an array needs a square matrix, not one of sizes {dims}")
    power = evaluation.evaluate_structural(exponent, env, "the exponent of a matrix power",
                                           expect=int)
    if power < 0:
        raise ShapeError(f"the exponent of a matrix power must not be negative ({power})")
    if power == 0:
        return tuple(tuple(flat.Const(1 if i == j else 0) for j in range(dims[0]))
                     for i in range(dims[0]))
    result = matrix
    for _ in range(power - 1):
        result = values.multiply(result, matrix)
    return result


def _has_record(value) -> bool:
    while type(value) is tuple and value:
        value = value[0]
    return type(value) is RecordValue


def _overloaded(op: str, operands: tuple, env, span):
    """An operator on records: the operator function of their class (MLS 14), element by
    element for arrays of records combined with '+' or '-' or the element-wise operators."""
    from compiler.flatten.calls import ModelCalls
    from compiler.flatten.operators import overloaded_operator
    calls = ModelCalls(env)
    elementwise = op in ("+", "-", ".+", ".-", ".*", "./", ".^") or len(operands) == 1 or (
        op in ("*", "/") and sum(type(item) is tuple for item in operands) == 1)
    if elementwise and any(type(item) is tuple for item in operands):
        scalar_op = op[1:] if op.startswith(".") else op
        if len(operands) == 1:
            return values.elementwise(
                lambda item: overloaded_operator(calls, scalar_op, (item,), span), operands[0])
        try:
            return values.elementwise2(
                lambda a, b: overloaded_operator(calls, scalar_op, (a, b), span), *operands)
        except ShapeError as error:
            raise FlattenError(str(error), span) from None
    return overloaded_operator(calls, op, operands, span)


def _if(expr: ast.IfExpr, env):
    branches = [(translate(condition, env), value) for condition, value in expr.branches]
    if all(_literal_only(condition) for condition, _ in branches):
        # Literal conditions (for-loop indices substituted): pick the branch now.
        for condition, value in branches:
            if evaluation.evaluate(condition, env.ctx) is True:
                return translate(value, env)
        return translate(expr.else_, env)
    try:
        results = [translate(value, env) for _, value in expr.branches] + \
            [translate(expr.else_, env)]
    except FlattenError:
        # a branch that cannot be translated (linspace(a, b, n) where n = 1) is no error
        # where a parameter condition rules it out
        taken = _taken_branch(expr, branches, env)
        if taken is None:
            raise
        return translate(taken, env)
    shapes = {values.shape(result) for result in results}
    if len(shapes) > 1:
        # Branches of different sizes: the condition must select one now.
        for (condition, _), result in zip(branches, results):
            try:
                chosen = evaluation.evaluate(condition, env.ctx, structural=True)
            except NotEvaluable as error:
                raise FlattenError("the branches of this if-expression differ in size, so its "
                                   f"condition must be a parameter expression: {error.reason}",
                                   expr.span) from None
            if chosen:
                return result
        return results[-1]
    result = results[-1]
    for (condition, _), value in reversed(list(zip(branches, results[:-1]))):
        if type(condition) is tuple:
            raise FlattenError("the condition of an if-expression must be a scalar", expr.span)
        try:
            result = values.if_value(condition, value, result)
        except ShapeError as error:
            raise FlattenError(str(error), expr.span) from None
    return result


def _taken_branch(expr: ast.IfExpr, branches, env):
    """The branch (AST) that parameter conditions select; None if one is not known."""
    for condition, value in branches:
        try:
            if evaluation.evaluate(condition, env.ctx, structural=True):
                return value
        except NotEvaluable:
            return None
    return expr.else_


def _literal_only(value) -> bool:
    """Whether a value is built from literals alone (no variables, no calls)."""
    kind = type(value)
    if kind is flat.Const or kind is flat.EnumConst:
        return True
    if kind is flat.Binary:
        return _literal_only(value.left) and _literal_only(value.right)
    if kind is flat.Unary:
        return _literal_only(value.operand)
    return False


def _range(expr: ast.Range, env):
    structural = evaluation.evaluate_structural
    start = structural(expr.start, env, "a range bound")
    stop = structural(expr.stop, env, "a range bound")
    step = structural(expr.step, env, "a range step") if expr.step is not None else 1
    return values.constant(range_values(start, step, stop, expr.span, env.ctx))


def range_values(start, step, stop, span=None, ctx=None) -> tuple:
    """The elements of ``start:step:stop`` (Integer, Real or enumeration bounds)."""
    if type(start) is flat.EnumConst:
        return _enum_range(start, stop, span, ctx)
    if isinstance(start, bool) or isinstance(stop, bool):
        return _boolean_range(start, step, stop, span)
    for bound in (start, step, stop):
        if isinstance(bound, (bool, str)) or not isinstance(bound, (int, float)):
            raise FlattenError("range bounds must be numbers", span)
    if step == 0:
        raise FlattenError("the step of a range cannot be zero", span)
    if all(isinstance(bound, int) for bound in (start, step, stop)):
        return tuple(range(start, stop + (1 if step > 0 else -1), step))
    count = int((stop - start) / step + 1e-10) + 1
    return tuple(float(start + i * step) for i in range(max(count, 0)))


def _enum_range(start, stop, span, ctx):
    if type(stop) is not flat.EnumConst or stop.type != start.type:
        raise FlattenError("both bounds of an enumeration range must be of the same type", span)
    return tuple(flat.EnumConst(start.type, name, ordinal)
                 for ordinal, name in enumerate(enumeration_literals(ctx, start.type), start=1)
                 if start.ordinal <= ordinal <= stop.ordinal)


def _boolean_range(start, step, stop, span):
    """``false:true`` and the like: the Booleans from start to stop, false before true."""
    if not (isinstance(start, bool) and isinstance(stop, bool)) or step != 1 or \
            isinstance(step, bool):
        raise FlattenError("a Boolean range needs two Boolean bounds and no step", span)
    return tuple(value for value in (False, True) if start <= value <= stop)


def enumeration_literals(ctx, type_name):
    return names.enumeration_literals(ctx, type_name)


def _array(expr: ast.ArrayCons, env):
    if len(expr.elements) == 1 and type(expr.elements[0]) is ast.Comprehension:
        return comprehension(expr.elements[0], env)
    items = tuple(translate(element, env) for element in expr.elements)
    if len({values.shape(item) for item in items}) > 1:
        raise FlattenError("the elements of an array constructor differ in size", expr.span)
    return items


def comprehension(expr: ast.Comprehension, env):
    """``{e for i in r1, j in r2}``: the last iterator varies slowest (outermost dimension)."""
    def build(envs_indices, position):
        if position < 0:
            return translate(expr.expr, envs_indices)
        index = expr.indices[position]
        return tuple(build(envs_indices.with_iterator(index.name, value), position - 1)
                     for value in iterator_values(index, envs_indices, expr.expr))
    return build(env, len(expr.indices) - 1)


def iterator_values(index: ast.ForIndex, env, body=None) -> tuple:
    """The values a for-index takes; its range must be a parameter expression. Without
    one, it is deduced from the subscripts the index is in within ``body`` (the loop's
    equations, statements or expression)."""
    if index.range is None:
        if body is None:
            raise FlattenError(f"for-index '{index.name}' needs an explicit range ('in ...')",
                               index.span)
        from compiler.flatten.implicit_ranges import implicit_range
        return implicit_range(index, body, env)
    value = evaluation.evaluate_structural(index.range, env, "the range of a for-loop")
    if type(value) is not tuple:
        raise FlattenError("the range of a for-loop must be an array or a range", index.range.span)
    if any(type(item) is tuple for item in value):
        raise FlattenError(f"the range of for-index '{index.name}' is an array of "
                           f"{len(values.shape(value))} dimensions; it must be a vector "
                           "(MLS 8.3.2, 11.2.2)", index.range.span)
    return values.constant(value)


def _matrix(expr: ast.MatrixCons, env):
    try:
        rows = []
        for row in expr.rows:
            parts = [values.promote(translate(item, env), 2) for item in row]
            rows.append(values.concatenate(2, parts))
        return values.concatenate(1, rows)
    except ShapeError as error:
        raise FlattenError(str(error), expr.span) from None


def _call(expr: ast.Call, env):
    return calls.translate_call(expr, env)


def _comprehension(expr: ast.Comprehension, env):
    return comprehension(expr, env)


def _tuple(expr: ast.TupleExpr, env):
    raise FlattenError("a parenthesized list of outputs can only stand on the left of an "
                       "equation or assignment", expr.span)


_HANDLERS = {
    ast.IntLit: _literal, ast.RealLit: _literal, ast.StrLit: _literal, ast.BoolLit: _literal,
    ast.ComponentRef: _ref, ast.End: _end, ast.Colon: _colon, ast.Unary: _unary,
    ast.Binary: _binary, ast.IfExpr: _if, ast.Range: _range, ast.ArrayCons: _array,
    ast.MatrixCons: _matrix, ast.Call: _call, ast.Comprehension: _comprehension,
    ast.TupleExpr: _tuple,
}


# ------------------------------------------------------------------------------- bindings
def binding_value(mod):
    """The part of a modification's binding that the modified element gets."""
    binding = mod.binding
    if binding.value is None:
        binding.value = translate(binding.expr, binding.env)
    try:
        return values.select(binding.value, mod.select)
    except ShapeError as error:
        raise FlattenError(f"the binding does not fit the component: {error}",
                           binding.expr.span) from None


def _scalar_binding(mod, what: str):
    value = binding_value(mod)
    if type(value) is tuple or type(value) is RecordValue:
        raise FlattenError(f"{what} must be a scalar, not an array or record",
                           mod.binding.expr.span)
    return value


def variable_binding(record):
    """The translated binding of a scalar variable (None without one)."""
    if not record.translated:
        mod = record.mod
        if mod is not None and mod.binding is not None:
            record.binding = _scalar_binding(mod, f"the binding of '{record.name}'")
        record.translated = True
    return record.binding


def attribute_value(record, name: str):
    """The translated value of attribute ``name`` of a variable (None when not given)."""
    mod = record.mod
    if mod is None or not mod.args:
        return None
    sub = mod.args.get(name)
    if sub is None or sub.binding is None:
        return None
    return _scalar_binding(sub, f"attribute '{name}' of '{record.name}'")
