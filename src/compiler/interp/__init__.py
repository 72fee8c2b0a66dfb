"""The reference interpreter: simulate a ``System`` with numpy and scipy.

Input: a ``compiler.system.System``. Output: a ``Result`` (a time grid of every variable).
Slow is fine; correctness is its job: it is the oracle generated C is tested against.
"""
from compiler.interp.errors import SimulationError
from compiler.interp.result import Result
from compiler.interp.simulate import simulate_reference

__all__ = ["Result", "SimulationError", "simulate_reference"]
