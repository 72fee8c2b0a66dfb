"""Variability of declarations and bindings (MLS 3.8, 4.4.4, 4.5).

Input: the run's ``VarRecord``s with their translated bindings, the flat variables, the
equations with the instances that own them, and the Real variables assigned in when-clauses.
Output: nothing, or a ``FlattenError`` at the declaration or equation that breaks a rule:

- bindings of constants and parameters are acyclic (MLS 4.4.4);
- a constant's binding is a constant expression, and a constant has one (MLS 4.5.1);
- a discrete-valued variable (Integer, Boolean, String, enumeration) or a ``discrete`` Real
  has a binding of at most discrete-time variability (MLS 3.8.5, 4.5.3);
- reinit() sets a continuous Real variable (MLS 8.3.6); ``der`` is not applied to
  discrete-time variables; a ``discrete`` Real is assigned in a
  when-clause, and a when-clause assigns no variable of a model or block component inside
  the class that holds the clause (MLS 4.5.3).
"""
from __future__ import annotations

from dataclasses import fields, is_dataclass

from compiler import flat
from compiler.flatten.errors import FlattenError
from compiler.flatten.exprtypes import CONSTANT, DISCRETE, VARIABILITY_NAMES, variability
from compiler.flatten.walk import nodes


def check_constant(record, binding, ctx) -> None:
    """A constant has a binding, and the binding is a constant expression (MLS 4.5.1)."""
    if binding is None:
        raise FlattenError(f"constant '{record.name}' has no binding equation: a constant needs "
                           "one (MLS 4.5.1)", record.span)
    if record.mod.derived:
        return  # (a field's part of its record's binding: the record's variability rules)
    found = variability(binding, ctx)
    if found > CONSTANT:
        raise FlattenError(f"the binding of constant '{record.name}' is a "
                           f"{VARIABILITY_NAMES[found]} expression; a constant's binding must be "
                           "a constant expression (MLS 3.8.2)",
                           record.mod.binding.expr.span or record.span)


def check_discrete_bindings(records, ctx, discrete: set) -> None:
    """Discrete-valued and ``discrete`` variables are bound to discrete-time expressions."""
    for record in records:
        if record.variability in ("constant", "parameter") or record.binding is None or \
                (record.type == "Real" and record.variability != "discrete"):
            continue
        found = variability(record.binding, ctx, discrete)
        if found > DISCRETE:
            raise FlattenError(f"'{record.name}' is a discrete-time variable, but its binding is "
                               f"a {VARIABILITY_NAMES[found]} expression (MLS 3.8.5)",
                               record.mod.binding.expr.span or record.span)


def check_derivatives(equations, states: set, discrete: set, ctx) -> None:
    """``der`` is not applied to discrete-time variables (MLS 4.5.3)."""
    wrong = {name for name in states if name in discrete or (
        name in ctx.variables and ctx.variables[name].variability == "discrete")}
    if not wrong:
        return
    for equation in equations:
        for node in nodes(equation):
            if type(node) is flat.Call and node.name == "der" and \
                    type(node.args[0]) is flat.Var and node.args[0].name in wrong:
                raise FlattenError(f"der() of '{node.args[0].name}', a discrete-time variable "
                                   "(MLS 4.5.3)", getattr(equation, "span", None))


def check_reinit_target(reinit, ctx) -> None:
    """reinit() sets a Real variable that is neither parameter nor constant (MLS 8.3.6)."""
    record = ctx.variables.get(reinit.var.name)
    if record is None:
        return
    if record.type != "Real":
        raise FlattenError(f"reinit of '{record.name}', a {record.type}: reinit sets a Real "
                           "variable (MLS 8.3.6)", reinit.span)
    if record.variability in ("parameter", "constant"):
        raise FlattenError(f"reinit of {record.variability} '{record.name}': reinit sets a "
                           "continuous-time variable (MLS 8.3.6)", reinit.span)


def check_discrete_assigned(records, discrete: set) -> None:
    """A Real declared ``discrete`` is assigned in a when-clause (MLS 4.5.3)."""
    for record in records:
        if record.variability == "discrete" and record.type == "Real" and \
                record.name not in discrete and record.causality != "input":
            raise FlattenError(f"'{record.name}' is declared discrete but is not assigned in a "
                               "when-clause (MLS 4.5.3)", record.span)


def check_when_targets(owned, ctx) -> None:
    """``(equation or algorithm, owner instance)`` pairs: a when-clause assigns only variables
    of its own model or block, not those of its model and block components (MLS 4.5.3).
    (Flat when-equations stand at the top of the equations or in if-equations: for-loops
    around them are unrolled when flattening.)"""
    for item, owner in owned:
        kind = type(item)
        if kind is not flat.WhenEquation and kind is not flat.Algorithm and \
                kind is not flat.IfEquation:
            continue
        for node in nodes(item):
            kind = type(node)
            if kind is not flat.WhenEquation and kind is not flat.WhenStatement:
                continue
            for name, span in _assigned(node):
                record = ctx.variables.get(name)
                if record is not None and record.owner is not owner and \
                        _inside(record.owner, owner):
                    raise FlattenError(f"a when-clause assigns '{name}', a variable of the "
                                       f"component '{record.owner.path}': variables assigned "
                                       "in when-clauses must belong to the class of the clause "
                                       "(MLS 4.5.3)", span)


def _inside(instance, owner) -> bool:
    while instance is not None:
        if instance is owner:
            return True
        instance = instance.parent
    return False


def _assigned(when):
    for _, body in when.branches:
        for inner in nodes(body):
            kind = type(inner)
            if kind is flat.Equation or kind is flat.Assign:
                target = inner.lhs if kind is flat.Equation else inner.target
                targets = target.elements if type(target) is flat.TupleExpr else (target,)
                for item in targets:
                    if type(item) is flat.Var:
                        yield item.name, inner.span


def check_acyclic_bindings(variables) -> None:
    """No constant or parameter depends on itself through bindings (MLS 4.4.4)."""
    bound = {variable.name: variable for variable in variables
             if variable.variability in ("constant", "parameter") and
             variable.binding is not None}
    needs = {}  # (bindings that are literals, most of them, need nothing)
    for name, variable in bound.items():
        if type(variable.binding) is not flat.Const:
            needed = _read_names(variable.binding, bound)
            if needed:
                needs[name] = needed
    state: dict = {}  # name -> 1 while on the path, 2 when done
    for start in needs:
        if start in state:
            continue
        path, stack = [start], [iter(needs[start])]
        state[start] = 1
        while stack:
            following = next(stack[-1], None)
            if following is None:
                state[path.pop()] = 2
                stack.pop()
                continue
            if state.get(following) == 1:
                cycle = path[path.index(following):]
                variable = bound[following]
                through = f" through {', '.join(repr(name) for name in cycle[1:])}" \
                    if len(cycle) > 1 else ""
                raise FlattenError(f"the binding of {variable.variability} '{following}' "
                                   f"depends on '{following}' itself{through}: bindings of "
                                   "constants and parameters must be acyclic (MLS 4.4.4)",
                                   variable.span)
            if following not in state:
                state[following] = 1
                path.append(following)
                stack.append(iter(needs.get(following, ())))


def _read_names(expr, bound: dict) -> list:
    """The names of ``bound`` that ``expr`` reads, leaving out the branches of if-expressions
    whose conditions are known from literal bindings: ``T_start = if use_T_start then T else
    f(h_start)`` and ``h_start = if use_T_start then g(T_start) else h`` depend on each other
    only in branches that a known ``use_T_start`` rules out (Modelica.Fluid's start values)."""
    names, stack = [], [expr]
    while stack:
        item = stack.pop()
        kind = type(item)
        if kind is tuple or kind is list:
            stack.extend(item)
        elif kind is flat.Var:
            if item.name in bound:
                names.append(item.name)
        elif kind is flat.IfExpr and isinstance(_known(item.condition, bound), bool):
            stack.append(item.then if _known(item.condition, bound) else item.else_)
        elif is_dataclass(item):
            stack.extend(getattr(item, field.name) for field in fields(item)
                         if field.name != "span")
    return names


def _known(expr, bound: dict, depth: int = 0):
    """The value of a Boolean condition made of literals, names bound (through other names)
    to literals, ``not``, ``and``, ``or``; None when not known."""
    kind = type(expr)
    if kind is flat.Const:
        return expr.value
    if kind is flat.Var and expr.name in bound and depth < 50:
        return _known(bound[expr.name].binding, bound, depth + 1)
    if kind is flat.Unary and expr.op == "not":
        value = _known(expr.operand, bound, depth)
        return (not value) if isinstance(value, bool) else None
    if kind is flat.Binary and expr.op in ("and", "or"):
        left, right = _known(expr.left, bound, depth), _known(expr.right, bound, depth)
        if isinstance(left, bool) and isinstance(right, bool):
            return (left and right) if expr.op == "and" else (left or right)
    return None
