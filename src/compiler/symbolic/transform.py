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
    memo = {} if memo is None else memo
    return _substitute(expr, rule, memo)


def _substitute(node, rule, memo):
    done = memo.get(node)
    if done is not None:
        return done
    kind = type(node)
    if kind is Var:
        result = rule(node)
    elif kind is Op:
        args = node.args
        new = tuple(_substitute(arg, rule, memo) for arg in args)
        if node.op == "pre" and type(new[0]) is not Var:
            result = pre_of(new[0])
        elif all(a is b for a, b in zip(args, new)):
            result = node
        else:
            result = rebuild(node, new)
    elif kind is Call:
        new = tuple(_substitute(arg, rule, memo) for arg in node.args)
        result = call(node.function, new, node.output, node.type)
    elif kind is Array:
        result = array(_substitute(item, rule, memo) for item in node.elements)
    else:
        result = node
    memo[node] = result
    return result


def pre_of(expr, memo: dict | None = None):
    """``pre(expr)``: every variable read in ``expr`` replaced by its pre-value (``time`` and
    values already under ``pre`` stay)."""
    memo = {} if memo is None else memo
    done = memo.get(expr)
    if done is not None:
        return done
    kind = type(expr)
    if kind is Var:
        result = expr if expr.name == "time" else pre_var(expr)
    elif kind is Op and expr.op != "pre":
        result = rebuild(expr, tuple(pre_of(arg, memo) for arg in expr.args))
    elif kind is Call:
        result = call(expr.function, tuple(pre_of(arg, memo) for arg in expr.args),
                      expr.output, expr.type)
    elif kind is Array:
        result = array(pre_of(item, memo) for item in expr.elements)
    else:
        result = expr
    memo[expr] = result
    return result


def rename(expr, names: dict, memo: dict | None = None):
    """``expr`` with the variables named in ``names`` replaced by the given expressions."""
    get = names.get
    return substitute(expr, lambda leaf: get(leaf.name, leaf), memo)


def reads_op(expr, name: str, memo: dict | None = None) -> bool:
    """Whether ``expr`` applies the operator or built-in ``name`` anywhere."""
    memo = {} if memo is None else memo
    done = memo.get(expr)
    if done is not None:
        return done
    kind = type(expr)
    if kind is Op:
        found = expr.op == name or any(reads_op(arg, name, memo) for arg in expr.args)
    elif kind is Call:
        found = any(reads_op(arg, name, memo) for arg in expr.args)
    elif kind is Array:
        found = any(reads_op(item, name, memo) for item in expr.elements)
    else:
        found = False
    memo[expr] = found
    return found


def replace_nodes(expr, rule, memo: dict | None = None):
    """``expr`` with every node ``n`` for which ``rule(n)`` is not None replaced by that
    (the replacement is not visited again); other nodes are rebuilt from their children."""
    memo = {} if memo is None else memo
    done = memo.get(expr)
    if done is not None:
        return done
    result = rule(expr)
    if result is None:
        kind = type(expr)
        if kind is Op:
            args = tuple(replace_nodes(arg, rule, memo) for arg in expr.args)
            changed = any(a is not b for a, b in zip(args, expr.args))
            result = rebuild(expr, args) if changed else expr
        elif kind is Call:
            result = call(expr.function, tuple(replace_nodes(arg, rule, memo)
                                               for arg in expr.args), expr.output, expr.type)
        elif kind is Array:
            result = array(replace_nodes(item, rule, memo) for item in expr.elements)
        else:
            result = expr
    memo[expr] = result
    return result
