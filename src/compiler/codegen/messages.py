"""Modelica String expressions (assert and terminate messages) -> printf formats for model_log.

Input: an IR String expression (literals, ``String(x)``, String variables and calls, ``+``) and a
``CWriter`` for the values it formats. Output: the format text and its argument texts.
"""
from __future__ import annotations

from compiler.codegen.errors import EmitError
from compiler.symbolic.expr import BOOLEAN, INTEGER, REAL, STRING, Const, Op, Var


def message_format(expr, writer) -> tuple[str, list[str]]:
    """(printf format, argument texts) that print ``expr`` as Modelica's String operations do."""
    parts: list[str] = []
    arguments: list[str] = []
    append_message(expr, writer, parts, arguments)
    return "".join(parts), arguments


def _is_text(node) -> bool:
    if type(node) is Const:
        return isinstance(node.value, str)
    if type(node) is Op:
        return node.op == "String" or (node.op == "+" and any(map(_is_text, node.args)))
    return node.type == STRING


class MessageSpelling:
    """How the pieces of a message are written: a printf format (this class); the Rust
    backend passes a subclass (``compiler.rust.messages``), so that both split a message
    alike."""
    string_variables = True   # String variables print as they are (%s)

    def literal(self, text: str) -> str:
        return text.replace("%", "%%")

    def options(self, node) -> tuple:
        return _options(node)

    def value(self, node, writer, parts: list, arguments: list, options: tuple = ()) -> None:
        _value(node, writer, parts, arguments, options)


C_MESSAGES = MessageSpelling()


def append_message(node, writer, parts: list, arguments: list,
                   spelling: MessageSpelling = C_MESSAGES) -> None:
    """Append the format pieces and arguments of the String expression ``node``."""
    if type(node) is Const and isinstance(node.value, str):
        parts.append(spelling.literal(node.value))
    elif type(node) is Op and node.op == "+" and _is_text(node):
        for item in node.args:
            append_message(item, writer, parts, arguments, spelling)
    elif type(node) is Op and node.op == "String":
        spelling.value(node.args[0], writer, parts, arguments, spelling.options(node))
    elif node.type == STRING and spelling.string_variables:
        # a variable, a call of a function returning a String
        parts.append("%s")
        arguments.append(writer.text(node))
    elif node.type in (REAL, INTEGER, BOOLEAN):
        spelling.value(node, writer, parts, arguments)
    else:
        raise EmitError(f"the message {node!r} is not supported {writer.WHERE} (use literals, "
                        "String() and +)")


def _options(node) -> tuple:
    """The formatting options of a String() call: () for none, (format,) or (minimumLength,
    leftJustified, significantDigits), as Python values (they must be constants)."""
    options = node.args[1:]
    if any(type(item) is not Const for item in options):
        raise EmitError(f"the formatting options of {node!r} must be constants in a message")
    return tuple(item.value for item in options)


def _value(node, writer, parts: list, arguments: list, options: tuple = ()) -> None:
    """A value as String(x, options) prints it: %g for Real, true/false for Boolean."""
    text = writer.text(node)
    if len(options) == 1:   # a printf conversion without its %
        integral = options[0][-1:] in ("d", "i", "o", "u", "x", "X")
        parts.append(f"%{options[0][:-1]}ll{options[0][-1]}" if integral else f"%{options[0]}")
        arguments.append(f"(long long)({text})" if integral else f"(double)({text})")
        return
    width = ""
    if options:
        minimum_length, left_justified, digits = options
        width = f"{'-' if left_justified else ''}{minimum_length}" if minimum_length > 0 else ""
        precision = f".{max(int(digits), 1)}"
    else:
        precision = ""
    if node.type == REAL:
        parts.append(f"%{width}{precision}g")
        arguments.append(text)
    elif node.type == BOOLEAN:
        parts.append(f"%{width}s")
        arguments.append(f'({text}) ? "true" : "false"')
    elif node.type == STRING:
        parts.append(f"%{width}s")
        arguments.append(text)
    else:
        parts.append(f"%{width}lld")
        arguments.append(f"(long long)({text})")
