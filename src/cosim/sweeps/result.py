"""What a sweep produced: the table, the failed runs, timings; data only.

``SweepResult.values`` is a numpy structured array (``run``, the parameters, ``time`` for
series, the outputs) sorted by run; ``summary()`` is the text ``cosim sweep`` prints.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from cosim.sweeps.design import Design

SHOWN_FAILURES = 10  # failures listed in the summary; all of them are in the result


@dataclass(frozen=True)
class Failure:
    """A run that failed: its number, its parameters and the error."""

    run: int
    parameters: dict
    error: str

    def text(self) -> str:
        values = ", ".join(f"{name}={value!r}" for name, value in self.parameters.items())
        return f"run {self.run} ({values}): {self.error}"


@dataclass(frozen=True)
class SweepResult:
    """A sweep's outcome.

    Attributes
    ----------
    values : ndarray
        Structured, sorted by run (and time): fields ``run``, the parameters, ``time`` (with
        ``series``), the outputs; one row per finished run, or per run and time step.
    failures : tuple of Failure
        Runs that failed, by run number.
    finished : int
        Runs that ended, well or not (fewer than ``len(design)`` after an interrupt).
    wall_time, simulation_time, setup_time : float
        Seconds: the sweep from the first submission to the last result; the runs' own
        times summed over runs; preparing the system on the workers, summed.
    workers : int
        Worker threads the runs went to.
    """

    values: np.ndarray
    design: Design
    failures: tuple[Failure, ...]
    finished: int
    wall_time: float
    simulation_time: float
    setup_time: float
    workers: int
    output: str | None = None
    failures_output: str | None = None
    interrupted: bool = False

    @property
    def runs_per_second(self) -> float:
        return self.finished / self.wall_time if self.wall_time > 0 else float("inf")

    def summary(self) -> str:
        """A line on the runs (and the seed of random draws), then the failed runs."""
        ok = self.finished - len(self.failures)
        head = (f"{self.finished} of {len(self.design)} runs" if self.interrupted
                else f"{len(self.design)} runs")
        seed = f", seed {self.design.seed}" if self.design.seed is not None else ""
        saved = f", results in {self.output}" if self.output else ""
        lines = [f"{head} ({ok} ok, {len(self.failures)} failed) on {self.workers} workers in "
                 f"{self.wall_time:.3g} s ({self.runs_per_second:.3g} runs/s){seed}{saved}"]
        if self.interrupted:
            lines.append("interrupted: the finished runs are kept")
        if self.failures:
            lines.append(f"{len(self.failures)} failed runs"
                         + (f" (all in {self.failures_output})" if self.failures_output
                            else "") + ":")
            lines += [f"  {f.text()}" for f in self.failures[:SHOWN_FAILURES]]
            if len(self.failures) > SHOWN_FAILURES:
                lines.append(f"  ... and {len(self.failures) - SHOWN_FAILURES} more")
        return "\n".join(lines)


class SweepInterrupted(KeyboardInterrupt):
    """Ctrl-C during a sweep, after the finished runs were saved; ``result`` holds them."""

    def __init__(self, result: SweepResult):
        super().__init__("interrupted")
        self.result = result
