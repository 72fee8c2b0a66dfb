"""A system loaded and planned once, then run many times: what each worker of a sweep holds.

Input: a target path and ``Settings`` (``prepare``). Output: a ``Session`` whose
``run(parameters)`` returns a ``RunResult``. The unpacked FMUs, their loaded libraries and the
plan are kept for the session's life, and so are the FMU instances between runs: they are
reset (``fmi3Reset``/``fmi2Reset``) and instantiated anew only where an FMU refuses the reset
or after a run that failed.
"""
from __future__ import annotations

import logging
import os
import tempfile
from typing import Mapping

from cosim.fmi.errors import FmiCallError
from cosim.master.components import (
    LiveComponent, close_components, restart_components, start_components,
)
from cosim.master.plan import Plan, Settings, build_plan, with_parameters
from cosim.master.run import RunResult, _run_plan  # the one stepping path, shared with run
from cosim.master.target import load_target

LOGGER = logging.getLogger("cosim.master")


class Session:
    """A loaded, planned system; ``run`` it with parameter values, then ``close`` it.

    Attributes
    ----------
    plan : Plan
        The plan of the session's settings; a run sets its parameters over it.
    instantiations, resets : int
        How many times the components were instantiated, and reset for a further run.
    """

    def __init__(self, plan: Plan, fmus: dict, workdir: tempfile.TemporaryDirectory):
        self.plan = plan
        self.fmus = fmus
        self.infos = {path: fmu.info for path, fmu in fmus.items()}
        self.instantiations = 0
        self.resets = 0
        self._workdir = workdir
        self._live: list[LiveComponent] = []

    @property
    def columns(self) -> tuple[str, ...]:
        """The result columns of every run (``time`` aside)."""
        return tuple(column.name for column in self.plan.columns)

    def check(self, parameters: Mapping[str, object]) -> Plan:
        """The plan of a run with ``parameters``; ``PlanError`` for a name or value that
        cannot be set."""
        return with_parameters(self.plan, self.infos, parameters)

    def run(self, parameters: Mapping[str, object] | None = None,
            output: str | os.PathLike | None = None, progress: bool = False) -> RunResult:
        """One run with ``parameters`` (``{"component.variable": value}``) set over the
        session's; ``output`` and ``progress`` as for ``cosim.api.run``."""
        plan = self.check(parameters or {})
        try:
            return _run_plan(plan, self.fmus, output, progress, start=self._start,
                             close=self._stop)
        except BaseException:
            self._discard()  # an instance that failed is not trusted with another run
            raise

    def close(self) -> None:
        """Free the instances and remove the unpacked files."""
        self._discard()
        self._workdir.cleanup()

    def __enter__(self) -> Session:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def _start(self, plan: Plan, fmus, deadline: float | None = None) -> list[LiveComponent]:
        if self._live:
            try:
                restart_components(plan, self._live, deadline)
                self.resets += 1
                return self._live
            except FmiCallError as error:
                LOGGER.debug("instantiating again: %s", error)
                self._discard()
        self._live = start_components(plan, fmus, deadline)
        self.instantiations += 1
        return self._live

    @staticmethod
    def _stop(live: list[LiveComponent]) -> None:
        close_components(live, free=False)

    def _discard(self) -> None:
        live, self._live = self._live, []
        close_components(live)


def prepare(path: str | os.PathLike, settings: Settings = Settings(),
            variant: str | None = None) -> Session:
    """Load ``path`` (an ``.ssp``, SSP folder, ``.ssd`` or ``.fmu``) and plan it with
    ``settings``, once for many runs; raises as ``cosim.api.run`` does."""
    work = tempfile.TemporaryDirectory(prefix="cosim-session-")
    try:
        structure, location, fmus = load_target(path, variant, work.name)
        plan = build_plan(structure, {p: f.info for p, f in fmus.items()}, settings, location)
    except BaseException:
        work.cleanup()
        raise
    return Session(plan, fmus, work)
