"""The error type of causalization."""
from __future__ import annotations

from compiler.errors import CompilerError


class CausalizeError(CompilerError):
    """A flat model that cannot be made into a sorted, solvable system (structurally singular
    equations, bad initialization, unsupported constructs); located at the equation or
    declaration at fault."""
