"""The parser's error type."""
from __future__ import annotations

from compiler.errors import CompilerError


class ParseError(CompilerError):
    """Modelica text is not well formed; the span points at the offending token."""
