"""The reference interpreter: simulate a ``System`` with numpy and scipy.

Input: a ``compiler.system.System``. Output: a ``Result`` (a time grid of every variable).
Slow is fine; correctness is its job: it is the oracle generated C is tested against.
The simulator (scipy) is imported on first use: the flattener evaluates functions through
``interp.functions`` alone.
"""
from compiler.interp.errors import SimulationError

__all__ = ["Result", "SimulationError", "simulate_reference"]


def __getattr__(name: str):
    if name == "Result":
        from compiler.interp.result import Result
        return Result
    if name == "simulate_reference":
        from compiler.interp.simulate import simulate_reference
        return simulate_reference
    raise AttributeError(f"module 'compiler.interp' has no attribute '{name}'")
