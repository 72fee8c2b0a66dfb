"""Modelica String expressions (assert and terminate messages) -> Rust ``format!`` calls.

Input: the pieces of a message: literal texts, ``("time",)`` for the current time, and IR
String expressions (literals, ``String(x)``, ``+``); a ``RustWriter`` for the values.
Output: the text of a ``format!(...)`` that prints them as Modelica's String operations and
the C runtime's messages do (``%g`` for Real, ``%.17g`` for the time).
"""
from __future__ import annotations

from compiler.codegen.errors import EmitError
from compiler.codegen.messages import MessageSpelling, append_message
from compiler.rust.expressions import rust_string
from compiler.symbolic.expr import BOOLEAN, REAL, Const

# significant digits of String(x) for a Real without options, and of times in messages
REAL_DIGITS = 6
TIME_DIGITS = 17


def message_text(pieces, writer) -> str:
    """``format!("...", ...)`` of the pieces (see the module docstring)."""
    parts: list[str] = []
    arguments: list[str] = []
    for piece in pieces:
        if isinstance(piece, str):
            parts.append(_literal(piece))
        elif piece == ("time",):
            parts.append("{}")
            arguments.append(f"format_g(m.time, {TIME_DIGITS})")
        else:
            append_message(piece, writer, parts, arguments, RUST_MESSAGES)
    return f"format!({rust_string(''.join(parts))}{''.join(', ' + a for a in arguments)})"


def _literal(text: str) -> str:
    return text.replace("{", "{{").replace("}", "}}")


class _RustSpelling(MessageSpelling):
    string_variables = False   # (the Rust backend has no String variables)

    def literal(self, text: str) -> str:
        return _literal(text)

    def options(self, node) -> tuple:
        return _options(node)

    def value(self, node, writer, parts: list, arguments: list, options: tuple = ()) -> None:
        _value(node, writer, parts, arguments, options)


RUST_MESSAGES = _RustSpelling()


def _options(node) -> tuple:
    """(minimumLength, leftJustified, significantDigits) of a String() call, () for none."""
    options = node.args[1:]
    if len(options) == 1:
        raise EmitError(f"String() with a format ({node!r}) is not supported by the Rust backend")
    if any(type(item) is not Const for item in options):
        raise EmitError(f"the formatting options of {node!r} must be constants in a message")
    return tuple(item.value for item in options)


def _value(node, writer, parts: list, arguments: list, options: tuple = ()) -> None:
    """A value as String(x, options) prints it: %g for Real, true/false for Boolean."""
    width, left, digits = (int(options[0]), bool(options[1]), int(options[2])) if options \
        else (0, True, REAL_DIGITS)
    text = writer.text(node)
    if node.type == REAL:
        value = f"format_g({text}, {max(digits, 1)})"
    elif node.type == BOOLEAN:
        value = f"format_boolean({text})"
    else:
        value = f"({text}).to_string()"
    parts.append("{}")
    arguments.append(f"pad(&{value}, {width}, {'true' if left else 'false'})" if width > 0
                     else value)
