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


# Errors stay readable at library scale: a list in a message shows its first items and how
# many more there are; the whole of it is in the error's ``details`` (``cosim --verbose``).
SHOWN_ITEMS = 4


def listed(items, shown: int = SHOWN_ITEMS, separator: str = ", ") -> str:
    """``a, b, c, d and 12 more``: the first ``shown`` of ``items`` and how many are left."""
    items = list(items)
    if len(items) <= shown + 1:
        return separator.join(items)
    return f"{separator.join(items[:shown])} and {len(items) - shown} more"


class CompilerError(Exception):
    """Base of every error the compiler reports to a user.

    ``str(error)`` is one line: ``file:line:col: message`` when a span is known. A message
    that lists only the first few of many names or equations has the full text as
    ``details`` (without the location).
    """

    def __init__(self, message: str, span: Span | None = None, details: str | None = None):
        super().__init__(message)
        self.message = message
        self.span = span
        self.details = details if details != message else None

    @property
    def location(self) -> str:
        return str(self.span) if self.span else ""

    def __str__(self) -> str:
        return f"{self.span}: {self.message}" if self.span else self.message


class PackageError(CompilerError):
    """Building or packaging an FMU failed (bad model interface, gcc error, XSD violation)."""
