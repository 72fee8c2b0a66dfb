"""The co-simulation master: plan a system once, then step it in C.

``simulate(path, settings)`` runs an ``.ssp``/folder/``.ssd`` or one ``.fmu``;
``build_plan`` is the pure planning stage (connections, order, loops, rates, columns);
``prepare(path, settings)`` loads a system once for many runs (``Session.run(parameters)``).
"""
from cosim.master.plan import Plan, PlanError, Settings, build_plan
from cosim.master.run import RunResult, simulate
from cosim.master.session import Session, prepare

__all__ = ["Plan", "PlanError", "Settings", "build_plan", "RunResult", "simulate",
           "Session", "prepare"]
