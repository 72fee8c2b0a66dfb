"""The flattener's error type."""
from __future__ import annotations

from compiler.errors import CompilerError


class FlattenError(CompilerError):
    """A model that parses but has no valid flat form; the span points at the cause."""


class NotEvaluable(Exception):
    """Internal: an expression that must be a parameter expression is not one.

    Callers turn it into a ``FlattenError`` that says what needed the value.
    """

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason
