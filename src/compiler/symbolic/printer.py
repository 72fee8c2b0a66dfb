"""IR expression -> Modelica-like text, for messages and for printing a ``System``.

Input: a ``compiler.symbolic.expr`` node. Output: one line of text with the parentheses that
precedence needs (``pre(x)``, ``der(x)`` and hidden variables such as ``$rel[1]`` as named).
"""
from __future__ import annotations

from compiler.lang.precedence import ADDITIVE, BINARY, IF, NON_ASSOCIATIVE, NOT, PRIMARY, RELATION
from compiler.symbolic.expr import Array, Call, Const, Op, Var


def to_text(node) -> str:
    """Modelica-like text of an IR expression."""
    kind = type(node)
    if kind is Var:
        return node.name
    if kind is Const:
        return _const(node)
    if kind is Call:
        suffix = f"[{node.output + 1}]" if node.output else ""
        return f"{node.function}({', '.join(map(to_text, node.args))}){suffix}"
    if kind is Array:
        return "{" + ", ".join(map(to_text, node.elements)) + "}"
    return _op(node)


def _const(node: Const) -> str:
    value = node.value
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, float):
        text = repr(value)
        return text if ("." in text or "e" in text or "n" in text) else text + ".0"
    return str(value)


def _op(node: Op) -> str:
    name, args = node.op, node.args
    if name in BINARY:
        prec = BINARY[name]
        left, right = _precedence(args[0]), _precedence(args[1])
        left_parens = left < prec or (left == prec and prec in NON_ASSOCIATIVE)
        return f"{_wrap(args[0], left_parens)} {name} {_wrap(args[1], right <= prec)}"
    if name == "neg":
        return "-" + _wrap(args[0], _precedence(args[0]) <= ADDITIVE)
    if name == "not":
        return "not " + _wrap(args[0], _precedence(args[0]) < RELATION)
    if name == "if":
        condition, then, else_ = args
        return (f"if {to_text(condition)} then {_wrap(then, _precedence(then) == IF)} "
                f"else {to_text(else_)}")
    return f"{name}({', '.join(map(to_text, args))})"


def _precedence(node) -> int:
    if type(node) is Op:
        name = node.op
        if name in BINARY:
            return BINARY[name]
        if name == "neg":
            return ADDITIVE
        if name == "not":
            return NOT
        if name == "if":
            return IF
    if type(node) is Const and isinstance(node.value, (int, float)) \
            and not isinstance(node.value, bool) and node.value < 0:
        return ADDITIVE
    return PRIMARY


def _wrap(node, parens: bool) -> str:
    text = to_text(node)
    return f"({text})" if parens else text
