"""Source locations and the error types of the compiler's stages."""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class Span:
    """A range in a source file; 1-based line and column, end inclusive."""

    file: str
    line: int
    col: int
    end_line: int = 0
    end_col: int = 0

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"


class CompilerError(Exception):
    """Base of every error the compiler reports to a user.

    ``str(error)`` is one line: ``file:line:col: message`` when a span is known.
    """

    def __init__(self, message: str, span: Span | None = None):
        super().__init__(message)
        self.message = message
        self.span = span

    @property
    def location(self) -> str:
        return str(self.span) if self.span else ""

    def __str__(self) -> str:
        return f"{self.span}: {self.message}" if self.span else self.message


class PackageError(CompilerError):
    """Building or packaging an FMU failed (bad model interface, gcc error, XSD violation)."""
