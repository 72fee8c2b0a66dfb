"""Common subexpressions of IR expressions as locals, for code generators of any language.

Input: IR expressions registered with ``count``. Output: their text from ``text``, where every
subexpression used more than once became a local declared (once, before its first use) in
``lines``. Subclasses say how leaves, operators and declarations are written.
"""
from __future__ import annotations

from compiler.symbolic.expr import Array, Call, Const, Op, Var


class ExpressionWriter:
    """Text of IR expressions for one generated function (see the module docstring).

    Subclasses implement ``constant``, ``variable``, ``compound`` and ``declare``; they call
    ``text`` for operands and ``lazy`` for operands evaluated only sometimes (branches of an
    if-expression, right operands of ``and``/``or``), which may use locals declared before
    but declare none of their own.
    """

    def __init__(self):
        self.lines: list[str] = []
        self.temps: dict = {}
        self.uses: dict = {}
        self.depth = 0   # > 0 inside parts evaluated only sometimes

    def count(self, expr) -> None:
        """Register ``expr`` (before ``text``) so that repeated subexpressions get locals."""
        stack = [expr]
        uses = self.uses
        while stack:
            node = stack.pop()
            seen = uses.get(node, 0)
            uses[node] = seen + 1
            if seen:
                continue
            kind = type(node)
            if kind is Op or kind is Call:
                stack.extend(node.args)
            elif kind is Array:
                stack.extend(node.elements)

    def text(self, node) -> str:
        kind = type(node)
        if kind is Const:
            return self.constant(node)
        if kind is Var:
            return self.variable(node)
        temp = self.temps.get(node)
        if temp is not None:
            return temp
        text = self.compound(node)
        if self.uses.get(node, 0) > 1 and kind is not Array and not self.depth \
                and self.shareable(node):
            temp = self.temp_name(len(self.temps))
            self.lines.append(self.declare(temp, node, text))
            self.temps[node] = temp
            return temp
        return text

    def lazy(self, node) -> str:
        """Text of a part evaluated only sometimes (see the class docstring)."""
        self.depth += 1
        try:
            return self.text(node)
        finally:
            self.depth -= 1

    def take_lines(self) -> list[str]:
        """The declarations made so far, which the caller places; later ones start afresh
        (the locals already declared stay usable)."""
        lines, self.lines = self.lines, []
        return lines

    # ------------------------------------------------------------------ for subclasses
    def temp_name(self, number: int) -> str:
        return f"_t{number}"

    def shareable(self, node) -> bool:
        """Whether ``node`` may become a local (e.g. not where the language has no value
        type for it)."""
        return True

    def constant(self, node: Const) -> str:
        raise NotImplementedError

    def variable(self, node: Var) -> str:
        raise NotImplementedError

    def compound(self, node) -> str:
        raise NotImplementedError

    def declare(self, temp: str, node, text: str) -> str:
        raise NotImplementedError
