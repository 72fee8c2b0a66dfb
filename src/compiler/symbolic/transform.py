"""Structure-preserving rewrites of IR expressions: substitution of variables.

Input: an IR expression and a rule for its ``Var`` leaves. Output: the rewritten expression,
rebuilt through the simplifying constructors; shared subexpressions are rewritten once.
"""
from __future__ import annotations

from compiler.symbolic.expr import Array, Call, Op, Var, array, call, pre_var, rebuild


def substitute(expr, rule, memo: dict | None = None):
    """``expr`` with every ``Var`` leaf ``v`` replaced by ``rule(v)`` (``v`` itself to keep it).

    ``rule`` also sees the variables under ``pre``; a ``pre`` whose argument becomes something
    other than a variable distributes over it. ``memo`` may be shared between calls that use
    the same rule.
    """
    def visit(node):
        kind = type(node)
        if kind is Var:
            return rule(node)
        if kind is Op and node.op == "pre":
            target = node.args[0]
            new = rule(target)
            if new is target:
                return node
            return pre_var(new) if type(new) is Var else pre_of(new)
        return None
    return replace_nodes(expr, visit, {} if memo is None else memo)


def pre_of(expr, memo: dict | None = None):
    """``pre(expr)``: every variable read in ``expr`` replaced by its pre-value (``time`` and
    values already under ``pre`` stay)."""
    def visit(node):
        kind = type(node)
        if kind is Var:
            return node if node.name == "time" else pre_var(node)
        return node if kind is Op and node.op == "pre" else None
    return replace_nodes(expr, visit, {} if memo is None else memo)


def rename(expr, names: dict, memo: dict | None = None):
    """``expr`` with the variables named in ``names`` replaced by the given expressions."""
    get = names.get
    return substitute(expr, lambda leaf: get(leaf.name, leaf), memo)


def children(node) -> tuple:
    """The operands of an IR node (none for leaves)."""
    kind = type(node)
    if kind is Op or kind is Call:
        return node.args
    if kind is Array:
        return node.elements
    return ()


def reads_op(expr, name: str, memo: dict | None = None) -> bool:
    """Whether ``expr`` applies the operator or built-in ``name`` anywhere."""
    memo = {} if memo is None else memo
    done = memo.get(expr)
    if done is None:
        done = (type(expr) is Op and expr.op == name) or \
            any(reads_op(item, name, memo) for item in children(expr))
        memo[expr] = done
    return done


def replace_nodes(expr, rule, memo: dict | None = None):
    """``expr`` with every node ``n`` for which ``rule(n)`` is not None replaced by that
    (the replacement is not visited again); other nodes are rebuilt from their children."""
    memo = {} if memo is None else memo
    done = memo.get(expr)
    if done is not None:
        return done
    result = rule(expr)
    if result is None:
        parts = children(expr)
        new = tuple(replace_nodes(item, rule, memo) for item in parts)
        if all(a is b for a, b in zip(parts, new)):
            result = expr
        elif type(expr) is Op:
            result = rebuild(expr, new)
        elif type(expr) is Call:
            result = call(expr.function, new, expr.output, expr.type)
        else:
            result = array(new)
    memo[expr] = result
    return result


def all_names(expr, memo: dict | None = None) -> frozenset:
    """Names of every variable in ``expr``, those read through ``pre`` included."""
    memo = {} if memo is None else memo
    done = memo.get(expr)
    if done is None:
        if type(expr) is Op and expr.op == "pre":
            done = expr.args[0].variables()
        elif type(expr) is Var:
            done = expr.variables()
        else:
            done = frozenset().union(*(all_names(item, memo) for item in children(expr)))
        memo[expr] = done
    return done
