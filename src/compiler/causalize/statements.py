"""Algorithm sections -> ``AlgorithmBlock`` values (part of ``lower``), and maps over them.

Input: a ``flat.Algorithm`` and the lowering state. Output: an ``AlgorithmBlock`` whose
statements hold IR expressions, whose when-statements refer to when-clauses made like those
of when-equations, with the assigned variables as outputs and the variables read as inputs.
``map_statements`` rewrites every expression of a block (alias substitution, initialization);
``without_inactive_whens`` gives its form at initialization.
"""
from __future__ import annotations

from dataclasses import replace

from compiler import flat
from compiler.causalize.dae import DISCRETE
from compiler.causalize.errors import CausalizeError
from compiler.causalize.when import WhenBranches
from compiler.symbolic import FALSE, call, const, pre_var, var
from compiler.system import (
    AlgorithmBlock, AssignStatement, Assertion, BreakStatement, CallStatement, IfStatement,
    Reinit,
    Termination, WhenClause, WhenStatement, WhileStatement)

_DEFAULT = {"Real": 0.0, "Integer": 0, "Boolean": False, "String": ""}


def lower_algorithm(lowering, algorithm: flat.Algorithm, events: bool) -> AlgorithmBlock:
    """The block of one algorithm section; ``events`` is False in initial algorithms."""
    lowering.span = algorithm.span
    converter = _Statements(lowering)
    statements = converter.block(algorithm.statements, events)
    outputs = tuple(converter.assigned)
    reads = set()
    for expr in expressions(statements):
        reads |= expr.variables()
    for item in _when_statements(statements):   # their conditions are read as well
        reads.update(lowering.clauses[item.clause].conditions)
    inputs = tuple(sorted(name for name in reads - set(outputs) if name in lowering.variables))
    initial_values = tuple(_initial_value(lowering.variables[name]) for name in outputs)
    return AlgorithmBlock(outputs, inputs, initial_values, statements, algorithm.span)


def _initial_value(item):
    node = var(item.name, item.type)
    if item.kind == DISCRETE:
        return pre_var(node)
    return item.start if item.start is not None else const(_DEFAULT.get(item.type, 0.0))


class _Statements:
    def __init__(self, lowering):
        self.lowering = lowering
        self.assigned: dict[str, None] = {}   # ordered set

    def block(self, items, events: bool) -> tuple:
        return tuple(statement for item in items for statement in self.statement(item, events))

    def statement(self, item, events: bool) -> list:
        lowering = self.lowering
        lowering.span = item.span
        kind = type(item)
        if kind is flat.Assign:
            return self._assign(item, events)
        if kind is flat.IfStatement:
            branches = tuple((lowering.expr(condition, events), self.block(body, events))
                             for condition, body in item.branches)
            return [IfStatement(branches, self.block(item.else_, events), item.span)]
        if kind is flat.WhileStatement:
            return [WhileStatement(lowering.expr(item.condition, events),
                                   self.block(item.body, events), item.span)]
        if kind is flat.WhenStatement:
            return self._when(item)
        if kind is flat.Assert:
            return [lowering.assertion(item, None)]
        if kind is flat.Terminate:
            return [Termination(lowering.expr(item.message, False), None, item.span)]
        if kind is flat.Break:
            return [BreakStatement(item.span)]
        if kind is flat.CallStatement:
            return [self._call(item)]
        names = {flat.Reinit: "reinit() outside a when-statement",
                 flat.Return: "return in a model's algorithm"}
        raise CausalizeError(f"{names.get(kind, kind.__name__)} is not supported", item.span)

    def _call(self, item: flat.CallStatement) -> CallStatement:
        name = item.call.name
        if name not in self.lowering.convert.functions:
            raise CausalizeError(f"the call statement {name}() in a model is not supported",
                                 item.span)
        # its arguments, like those of calls in expressions, make no events
        arguments = tuple(self.lowering.expr(arg, False) for arg in item.call.args)
        return CallStatement(call(name, arguments), item.span)

    def _assign(self, item: flat.Assign, events: bool) -> list:
        lowering = self.lowering
        target = item.target
        if type(target) is flat.TupleExpr:
            call = item.value
            result = []
            for position, element in enumerate(target.elements):
                if element is not None:
                    value = lowering.call_output(call, position)
                    result.append(self._assignment(element, value, item.span))
            return result
        return [self._assignment(target, lowering.expr(item.value, events), item.span)]

    def _assignment(self, target, value, span) -> AssignStatement:
        if type(target) is not flat.Var or target.name not in self.lowering.variables:
            raise CausalizeError("the target of an assignment in a model's algorithm must be "
                                 "a variable", span)
        self.assigned[target.name] = None
        return AssignStatement(target.name, value, span)

    def _when(self, item: flat.WhenStatement) -> list:
        lowering = self.lowering
        branches = WhenBranches(lowering, item.span)
        result = []
        for condition, body in item.branches:
            active, initial_active, names = branches.next(condition)
            reinits = [self._reinit(statement) for statement in body
                       if type(statement) is flat.Reinit]
            before = set(self.assigned)
            statements = self.block([s for s in body if type(s) is not flat.Reinit], False)
            index = len(lowering.clauses)
            assigned = tuple(name for name in self.assigned if name not in before)
            lowering.clauses.append(WhenClause(index, names, active, initial_active, assigned,
                                               tuple(reinits), (), item.span))
            result.append(WhenStatement(index, statements, item.span))
        return result

    def _reinit(self, item: flat.Reinit) -> Reinit:
        self.lowering.span = item.span
        return Reinit(item.var.name, self.lowering.expr(item.value, False), item.span)


def _when_statements(statements):
    for item in statements:
        if type(item) is WhenStatement:
            yield item
        for body in _bodies(item):
            yield from _when_statements(body)


def _bodies(item) -> list:
    kind = type(item)
    if kind is IfStatement:
        return [body for _, body in item.branches] + [item.else_]
    if kind in (WhileStatement, WhenStatement):
        return [item.body]
    return []


def expressions(statements):
    """Every expression in ``statements``, depth first."""
    for item in statements:
        kind = type(item)
        if kind is AssignStatement:
            yield item.value
        elif kind is IfStatement:
            for condition, body in item.branches:
                yield condition
                yield from expressions(body)
            yield from expressions(item.else_)
        elif kind is WhileStatement:
            yield item.condition
            yield from expressions(item.body)
        elif kind is WhenStatement:
            yield from expressions(item.body)
        elif kind is Assertion:
            yield item.condition
            yield item.message
        elif kind is Termination:
            yield item.message
        elif kind is CallStatement:
            yield item.call


def map_statements(statements: tuple, rewrite) -> tuple:
    """``statements`` with every expression ``e`` replaced by ``rewrite(e)``."""
    return tuple(_mapped(item, rewrite) for item in statements)


def _mapped(item, rewrite):
    kind = type(item)
    if kind is AssignStatement:
        return replace(item, value=rewrite(item.value))
    if kind is IfStatement:
        return replace(item, branches=tuple((rewrite(c), map_statements(b, rewrite))
                                            for c, b in item.branches),
                       else_=map_statements(item.else_, rewrite))
    if kind is WhileStatement:
        return replace(item, condition=rewrite(item.condition),
                       body=map_statements(item.body, rewrite))
    if kind is WhenStatement:
        return replace(item, body=map_statements(item.body, rewrite))
    if kind is Assertion:
        return replace(item, condition=rewrite(item.condition), message=rewrite(item.message))
    if kind is Termination:
        return replace(item, message=rewrite(item.message))
    if kind is CallStatement:
        return replace(item, call=rewrite(item.call))
    return item


def map_algorithm(block: AlgorithmBlock, rewrite) -> AlgorithmBlock:
    """``block`` with its expressions rewritten (inputs recomputed)."""
    statements = map_statements(block.statements, rewrite)
    reads = set()
    for expr in expressions(statements):
        reads |= expr.variables()
    reads.update(name for name in block.inputs if name.startswith("$when["))
    inputs = tuple(sorted(reads - set(block.outputs) - {"time"}))
    return replace(block, statements=statements, inputs=inputs,
                   initial_values=tuple(rewrite(value) for value in block.initial_values))


def without_inactive_whens(block: AlgorithmBlock, clauses) -> tuple:
    """``block`` at initialization: its when-statements that cannot fire there (their
    clause's ``initial_active`` is false) never run, so they are left out. Returns the block
    (None when nothing is left to compute) and, for each output only they assigned, the pair
    (output, initial value): the output keeps that value (its pre value if discrete), as an
    equation rather than an assignment, which lets an initial algorithm or equation decide it
    (MLS 8.6)."""
    statements = _active_at_start(block.statements, clauses)
    assigned = set(_targets(statements))
    kept = [(name, value) for name, value in zip(block.outputs, block.initial_values)
            if name in assigned]
    held = tuple((name, value) for name, value in zip(block.outputs, block.initial_values)
                 if name not in assigned)
    if not held:
        return block, ()
    if not kept:
        return None, held
    conditions = {name for item in _when_statements(statements)
                  for name in clauses[item.clause].conditions}
    inputs = tuple(name for name in block.inputs
                   if not name.startswith("$when[") or name in conditions)
    return replace(block, outputs=tuple(name for name, _ in kept), inputs=inputs,
                   initial_values=tuple(value for _, value in kept),
                   statements=statements), held


def _active_at_start(statements, clauses) -> tuple:
    result = []
    for item in statements:
        kind = type(item)
        if kind is WhenStatement:
            if clauses[item.clause].initial_active is FALSE:
                continue
            item = replace(item, body=_active_at_start(item.body, clauses))
        elif kind is IfStatement:
            item = replace(item, branches=tuple((condition, _active_at_start(body, clauses))
                                                for condition, body in item.branches),
                           else_=_active_at_start(item.else_, clauses))
        elif kind is WhileStatement:
            item = replace(item, body=_active_at_start(item.body, clauses))
        result.append(item)
    return tuple(result)


def _targets(statements):
    for item in statements:
        if type(item) is AssignStatement:
            yield item.target
        for body in _bodies(item):
            yield from _targets(body)
