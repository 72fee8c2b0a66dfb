"""Public functions of the causalization stage and the reference interpreter.

Input: a ``.mo`` file, the class to use and library locations (as ``compiler.api``). Output:
the ``System`` (``causalize_model``), its BLT listing (``check_blocks``) or a simulation
``Result`` (``simulate_model``). Errors are ``CompilerError``s located in the source.
"""
from __future__ import annotations

from compiler.api import flatten_model
from compiler.causalize import causalize
from compiler.interp import Result, simulate_reference
from compiler.system import System


def causalize_model(path, model: str | None = None, libs=(), environ=None) -> System:
    """Parse, flatten and causalize ``model`` of ``path`` (default: the file's last class)."""
    return causalize(flatten_model(path, model, libs, environ))


def check_blocks(path, model: str | None = None, libs=(), environ=None) -> str:
    """What ``cosim check --blocks`` prints: the system summary and its blocks in BLT order."""
    return causalize_model(path, model, libs, environ).blocks_text()


def simulate_model(path, model: str | None = None, libs=(), stop: float | None = None,
                   start: float | None = None, interval: float | None = None,
                   rtol: float | None = None, parameters=None, inputs=None,
                   environ=None) -> Result:
    """Simulate ``model`` with the reference interpreter (see ``simulate_reference``)."""
    system = causalize_model(path, model, libs, environ)
    return simulate_reference(system, stop, start, interval, rtol, parameters=parameters,
                              inputs=inputs)
