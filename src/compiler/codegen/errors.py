"""The error type of code generation."""
from __future__ import annotations

from compiler.errors import CompilerError


class EmitError(CompilerError):
    """A ``System`` that the C code generator cannot express (an unsupported construct, named),
    located at the equation, declaration or function at fault."""
