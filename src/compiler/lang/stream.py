"""Token cursor shared by the parser mixins: lookahead, expectations, spans and errors."""
from __future__ import annotations

from compiler.errors import Span
from compiler.lang.errors import ParseError
from compiler.lang.fastnew import fast_constructor
from compiler.lang.lexer import Tokens

make_span = fast_constructor(Span)


class TokenStream:
    """A position in a token list, with the helpers every grammar rule needs."""

    __slots__ = ("tokens", "kinds", "texts", "file", "lines", "cols", "end_lines", "end_cols",
                 "pos")

    def __init__(self, tokens: Tokens):
        self.tokens = tokens
        self.kinds = tokens.kinds
        self.texts = tokens.texts
        self.file = tokens.file
        self.lines = tokens.lines
        self.cols = tokens.cols
        self.end_lines = tokens.end_lines
        self.end_cols = tokens.end_cols
        self.pos = 0

    # -------------------------------------------------------------------------- spans
    def span_from(self, start: int) -> Span:
        """Span from token ``start`` to the last consumed token."""
        end = self.pos - 1 if self.pos > start else start
        return make_span(self.file, self.lines[start], self.cols[start], self.end_lines[end],
                         self.end_cols[end])

    def token_span(self, index: int) -> Span:
        return make_span(self.file, self.lines[index], self.cols[index], self.end_lines[index],
                         self.end_cols[index])

    def where(self, index: int) -> str:
        """``line:col`` of a token, for messages that refer back to an opening token."""
        return f"{self.tokens.lines[index]}:{self.tokens.cols[index]}"

    # ------------------------------------------------------------------------- errors
    def describe(self, index: int) -> str:
        if self.kinds[index] == "EOF":
            return "end of file"
        return repr(self.texts[index]) if "'" not in self.texts[index] else f'"{self.texts[index]}"'

    def error(self, message: str, index: int | None = None) -> ParseError:
        index = self.pos if index is None else index
        return ParseError(message, self.token_span(index))

    def unexpected(self, expected: str) -> ParseError:
        return self.error(f"expected {expected}, found {self.describe(self.pos)}")

    # ----------------------------------------------------------------------- matching
    def expect(self, kind: str, context: str = "") -> int:
        """Consume a token of ``kind`` and return its index, or raise naming what was found."""
        pos = self.pos
        if self.kinds[pos] != kind:
            raise self.unexpected(f"'{kind}'{context}")
        self.pos = pos + 1
        return pos

    def close(self, kind: str, opened: int, what: str) -> None:
        """Consume the ``kind`` token that closes ``what`` opened at token ``opened``."""
        pos = self.pos
        if self.kinds[pos] != kind:
            raise self.unexpected(f"'{kind}' to close {what} opened at {self.where(opened)}")
        self.pos = pos + 1

    def accept(self, kind: str) -> bool:
        if self.kinds[self.pos] == kind:
            self.pos += 1
            return True
        return False

    def ident(self, what: str = "an identifier") -> str:
        pos = self.pos
        if self.kinds[pos] != "IDENT":
            raise self.unexpected(what)
        self.pos = pos + 1
        return self.texts[pos]
