"""The error type of the reference interpreter."""
from __future__ import annotations

from compiler.errors import CompilerError


class SimulationError(CompilerError):
    """A simulation that cannot go on: a Newton block that does not converge, a failed
    assert, a domain error, a construct the interpreter does not run."""
