"""Algorithm sections of models -> flat statements (scalarized, for-loops unrolled).

Input: the AST statements of one algorithm section and the ``Env`` of its instance. Output: a
``flat.Algorithm`` and the names of the scalar variables it assigns (each algorithm counts as
that many equations).
"""
from __future__ import annotations

from compiler import flat
from compiler.flatten import values
from compiler.flatten.calls import CallResult, translate_call
from compiler.flatten.equations import call_targets, pairs, reinit, when_condition
from compiler.flatten.errors import FlattenError, NotEvaluable
from compiler.flatten.exprtypes import check_same_type
from compiler.flatten.function_body import call_statement
from compiler.flatten.translate import attribute_value, iterator_values, translate
from compiler.lang import ast


class _State:
    """``loop``: inside a while-loop (break leaves it); ``broken``: inside an unrolled
    for-loop whose break sets this flag (a hidden Boolean) instead."""

    __slots__ = ("env", "when", "loop", "assigned", "initial", "broken")

    def __init__(self, env, when=False, loop=False, assigned=None, initial=False, broken=None):
        self.env = env
        self.when = when
        self.loop = loop
        self.assigned = assigned if assigned is not None else {}
        self.initial = initial
        self.broken = broken

    def but(self, **changes) -> _State:
        state = _State(self.env, self.when, self.loop, self.assigned, self.initial,
                       self.broken)
        for name, value in changes.items():
            setattr(state, name, value)
        return state


def flatten_algorithm(statements, env, span=None, initial: bool = False):
    """The flat algorithm and the scalar variables it assigns, in first-assignment order;
    an ``initial`` algorithm may assign parameters with ``fixed = false``."""
    state = _State(env, initial=initial)
    env.ctx.algorithm_depth += 1
    try:
        body = _block(statements, state)
    finally:
        env.ctx.algorithm_depth -= 1
    return flat.Algorithm(body, span), list(state.assigned)


def _block(statements, state: _State) -> tuple:
    """The statements; after one that may break an unrolled for-loop, the rest only runs
    while the loop has not broken."""
    result = []
    for position, node in enumerate(statements):
        result.extend(_statement(node, state))
        if state.broken is not None and position + 1 < len(statements) and \
                _sets(result[-1:], state.broken):
            rest = _block(statements[position + 1:], state)
            if rest:
                result.append(flat.IfStatement(((flat.Unary("not", state.broken), rest),),
                                               (), node.span))
            break
    return tuple(result)


def _sets(statements, flag: flat.Var) -> bool:
    from compiler.flatten.walk import nodes
    return any(type(item) is flat.Assign and item.target == flag for item in nodes(statements))


def _statement(node, state: _State) -> list:
    kind = type(node)
    env = state.env
    if kind is ast.Assign:
        return _assign(node, state)
    if kind is ast.CallStmt:
        name = node.call.func.dotted
        if name == "reinit":
            if not state.when:
                raise FlattenError("reinit() is only allowed inside a when-clause", node.span)
            return reinit(node.call, env, node.span)
        statement = call_statement(node.call, lambda item: translate(item, env), node.span,
                                   "an algorithm",
                                   lambda call: translate_call(call, env, "statement"))
        return _checked_now(statement, env)
    if kind is ast.IfStmt:
        branches = tuple((_scalar_condition(condition, env), _block(body, state))
                         for condition, body in node.branches)
        return [flat.IfStatement(branches, _block(node.else_, state), node.span)]
    if kind is ast.ForStmt:
        return _for(node.indices, node.body, state)
    if kind is ast.WhileStmt:
        return [flat.WhileStatement(_scalar_condition(node.condition, env),
                                    _block(node.body, state.but(loop=True)), node.span)]
    if kind is ast.WhenStmt:
        if state.when:
            raise FlattenError("when-statements cannot be nested", node.span)
        inner = state.but(when=True)
        branches = tuple((when_condition(condition, env), _block(body, inner))
                         for condition, body in node.branches)
        return [flat.WhenStatement(branches, node.span)]
    if kind is ast.Break:
        if state.loop:
            return [flat.Break(node.span)]
        if state.broken is not None:
            return [flat.Assign(state.broken, flat.Const(True), node.span)]
        raise FlattenError("'break' outside a loop", node.span)
    raise FlattenError("'return' is only allowed in functions", node.span)


def _checked_now(statement, env) -> list:
    """A call of a user function as a statement, with parameter arguments: run now (its
    asserts check the parameters: ``isValidTable(table)``) and dropped, the values being
    fixed at translation; other statements as they are."""
    from compiler.flatten.evaluate import call_function, evaluate
    from compiler.flatten.exprtypes import is_parameter_expression
    if type(statement) is not flat.CallStatement:
        return [statement]
    call = statement.call
    if call.name not in env.ctx.functions or not all(
            is_parameter_expression(arg, env.ctx) for arg in call.args):
        return [statement]
    try:
        call_function(call.name, [evaluate(arg, env.ctx, structural=True) for arg in call.args],
                      env.ctx)
    except NotEvaluable as error:
        if error.reason.startswith("an assert in"):
            raise FlattenError(error.reason, statement.span) from None
        return [statement]
    return []


def _for(indices, body, state: _State) -> list:
    """An unrolled for-loop; one that breaks has a flag guarding the iterations after it."""
    if _breaks(body):
        flag = state.env.ctx.auxiliary("$break", "Boolean", body[0].span if body else None)
        state = state.but(broken=flag, loop=False)
        iterations = _unrolled(indices, body, state)
        guarded = [flat.IfStatement(((flat.Unary("not", flag), iteration),), (),
                                    iteration[0].span if iteration else None)
                   for iteration in iterations if iteration]
        return [flat.Assign(flag, flat.Const(False), body[0].span)] + guarded
    return [item for iteration in _unrolled(indices, body, state.but(broken=None))
            for item in iteration]


def _unrolled(indices, body, state: _State) -> list:
    """The statements of each iteration."""
    index = indices[0]
    result = []
    varying = _varying_range(index, state.env)
    for value in varying or iterator_values(index, state.env, body):
        inner = state.but(env=state.env.with_iterator(index.name, value))
        if len(indices) > 1:
            result.extend(_unrolled(indices[1:], body, inner))
        else:
            result.append(_block(body, inner))
    if varying:
        _check_range_kept(index, varying, result)
    return result


def _varying_range(index: ast.ForIndex, env):
    """The elements of a range that is a vector of a fixed size whose elements vary
    (``for i in y loop`` with ``y`` an Integer variable): a for-statement, unlike a
    for-equation, may have one (MLS 11.2.2); None for any other range."""
    from compiler.flatten.exprtypes import is_parameter_expression
    if index.range is None:
        return None
    if type(index.range) is ast.Range:
        bounds = (index.range.start, index.range.step, index.range.stop)
        if not all(is_parameter_expression(translate(bound, env), env.ctx)
                   for bound in bounds if bound is not None):
            raise FlattenError(f"the range of for-index '{index.name}' has bounds that vary, so "
                               "its size varies: such a for-statement is not supported (its "
                               "bounds must be parameter expressions here)", index.range.span)
        return None
    value = translate(index.range, env)
    if type(value) is not tuple or any(type(item) is tuple for item in value) or \
            all(is_parameter_expression(item, env.ctx) for item in value):
        return None
    return value


def _check_range_kept(index: ast.ForIndex, elements: tuple, iterations: list) -> None:
    """The range is evaluated once, before the loop (MLS 11.2.2): an unrolled loop reads its
    elements at each iteration, so it must not assign the variables they read."""
    from compiler.flatten.walk import nodes
    read = {item.name for item in nodes(elements) if type(item) is flat.Var}
    for item in nodes(iterations):
        if type(item) is flat.Assign and any(
                type(target) is flat.Var and target.name in read
                for target in nodes(item.target)):
            raise FlattenError(f"the range of for-index '{index.name}' varies and the loop "
                               "assigns a variable it reads; such a loop is not supported",
                               index.range.span)


def _breaks(body) -> bool:
    """Whether a loop body has a break of its own (not one of a loop inside it)."""
    for node in body:
        kind = type(node)
        if kind is ast.Break:
            return True
        if kind is ast.IfStmt:
            if any(_breaks(branch) for _, branch in node.branches) or _breaks(node.else_):
                return True
        elif kind is ast.WhenStmt:
            if any(_breaks(branch) for _, branch in node.branches):
                return True
    return False


def _scalar_condition(condition, env):
    value = translate(condition, env)
    if type(value) is tuple:
        raise FlattenError("a condition must be a scalar Boolean expression", condition.span)
    check_same_type("Boolean", value, env.ctx, condition.span, "condition")
    return value


def _assign(node: ast.Assign, state: _State) -> list:
    env = state.env
    if type(node.target) is ast.TupleExpr:
        if type(node.value) is not ast.Call:
            raise FlattenError("a list of outputs '(a, b) := ...' needs a function call on the "
                               "right", node.span)
        result = translate_call(node.value, env, whole="all")
        if type(result) is not CallResult:
            raise FlattenError("a list of outputs '(a, b) := ...' needs a call of a user "
                               "function", node.span)
        targets = [None if item is None else _target(item, env, state.initial)
                   for item in node.target.elements]
        tuple_target = call_targets(result, targets, node.span)
        _note(state, tuple_target.elements)
        return [flat.Assign(tuple_target, result.call, node.span)]
    target = _target(node.target, env, state.initial)
    value = (translate_call(node.value, env, whole=True) if type(node.value) is ast.Call
             else translate(node.value, env))
    if type(value) is CallResult:
        tuple_target = call_targets(value, [target], node.span)
        _note(state, tuple_target.elements)
        return [flat.Assign(tuple_target, value.call, node.span)]
    result = []
    for var, expr in pairs(target, value, node.span):
        for leaf in _leaves(var):
            check_same_type(None, (leaf, expr), env.ctx, node.span, "assignment")
            _note(state, [leaf])
        result.append(_chosen_assignment(var, expr, node.span))
    return result


def _leaves(target) -> list:
    """The variables a scalar target may assign: itself, or those an if-expression over the
    elements of an array (a subscript that varies: ``buf[i]``) chooses among."""
    leaves = []
    while type(target) is flat.IfExpr:   # a chain as long as the array: no recursion on it
        leaves += _leaves(target.then)
        target = target.else_
    return leaves + [target]


def _chosen_assignment(target, value, span):
    """``target := value``; for a target chosen by a subscript that varies
    (``if noEvent(i == 1) then buf[1] else if ... else buf[n]``), an if-statement assigning
    the chosen element, which refuses a subscript out of range."""
    if type(target) is not flat.IfExpr:
        return flat.Assign(target, value, span)
    branches = []
    while type(target) is flat.IfExpr:
        branches.append((target.condition, (_chosen_assignment(target.then, value, span),)))
        target = target.else_
    last = _condition_for(branches[0][0], len(branches) + 1)
    branches.append((last, (_chosen_assignment(target, value, span),)))
    refusal = flat.Assert(flat.Const(False), flat.Const("a subscript of the left side of ':=' "
                                                        "is out of range"), span=span)
    return flat.IfStatement(tuple(branches), (refusal,), span)


def _condition_for(first, k: int):
    """The condition choosing element ``k``, given the one choosing element 1:
    ``noEvent(index == 1)`` (names.with_dynamic)."""
    test = first.args[0]
    return flat.Call("noEvent", (flat.Binary("==", test.left, flat.Const(k)),))


def _target(ref, env, initial: bool):
    if type(ref) is not ast.ComponentRef:
        raise FlattenError("the left side of ':=' must be a variable", ref.span)
    value = translate(ref, env)
    for item in (leaf for scalar in values.scalars(value) for leaf in _leaves(scalar)):
        if type(item) is not flat.Var:
            raise FlattenError("the left side of ':=' must be a variable", ref.span)
        record = env.ctx.variables.get(item.name)
        if record is not None and record.variability in ("constant", "parameter") and not (
                initial and record.variability == "parameter" and computed_parameter(record, env)):
            raise FlattenError(f"cannot assign to {record.variability} '{item.name}' in an "
                               "algorithm (only an initial algorithm may assign a parameter "
                               "with fixed = false)", ref.span)
    return value


def computed_parameter(record, env) -> bool:
    """Whether a parameter is ``fixed = false`` (computed during initialization)."""
    from compiler.flatten.evaluate import evaluate
    fixed = attribute_value(record, "fixed")
    try:
        return fixed is not None and evaluate(fixed, env.ctx) is False
    except NotEvaluable:
        return False


def _note(state: _State, targets) -> None:
    for item in targets:
        if item is not None:
            state.assigned.setdefault(item.name, None)
