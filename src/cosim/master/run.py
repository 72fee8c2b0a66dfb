"""Running a plan: set up the components, step them in the C loop chunk by chunk, stream the
rows to the result writer, and report. Input: a target path and ``Settings``. Output: a
``RunResult`` (the rows as a numpy structured array, statistics) and the result file.
"""
from __future__ import annotations

import logging
import os
import tempfile
import time
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from cosim.errors import CosimError
from cosim.master.components import close_components, finish_init, start_components
from cosim.master.failures import loop_failure, timeout_error, warn_nonfinite
from cosim.master.native_tables import NativeLoop
from cosim.master.plan import Plan, Settings, build_plan
from cosim.master.target import load_target
from cosim.master.rows import RowDecoder
from cosim.master.watchdog import Watchdog
from cosim.native import native, worker_executable
from cosim.results import open_writer

LOGGER = logging.getLogger("cosim.master")
MASTER_OK, MASTER_TERMINATED, MASTER_TIMEOUT = 0, 100, 103
# Rows per call into C: grows until a chunk takes about CHUNK_SECONDS, at most MAX_CHUNK.
FIRST_CHUNK, MAX_CHUNK, CHUNK_SECONDS = 64, 4096, 0.1


@dataclass(frozen=True)
class RunResult:
    """What a run produced: ``values`` has fields ``time`` and one per column."""

    values: np.ndarray
    columns: tuple[str, ...]
    steps: int
    step_size: float
    wall_time: float
    output: str | None = None
    terminated_by: str | None = None
    units: tuple[str | None, ...] = ()  # of each column, None where it has none

    @property
    def simulated_time(self) -> float:
        return float(self.values["time"][-1] - self.values["time"][0]) if len(self.values) else 0.0

    @property
    def real_time_factor(self) -> float:
        """Simulated seconds per wall-clock second."""
        return self.simulated_time / self.wall_time if self.wall_time > 0 else float("inf")

    def summary(self) -> str:
        end = f"t = {self.values['time'][-1]:g}" if len(self.values) else "the start"
        stop = f", stopped by {self.terminated_by}" if self.terminated_by else ""
        saved = f", results in {self.output}" if self.output else ""
        return (f"{self.steps} steps of {self.step_size:g} s to {end}{stop} in "
                f"{self.wall_time:.3g} s wall time (real-time factor {self.real_time_factor:.3g})"
                f"{saved}")


class _Progress:
    """A tqdm bar on stderr that appears only when the run lasts longer than a second."""

    def __init__(self, plan: Plan, enabled: bool):
        self.bar = None
        if enabled:
            from tqdm import tqdm

            self.bar = tqdm(total=plan.n_steps, unit="step", delay=1.0, leave=False,
                            desc="cosim run", dynamic_ncols=True)

    def update(self, steps: int) -> None:
        if self.bar is not None:
            self.bar.update(steps)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


class _Rows:
    """Rows as they come from the C loop: decoded, written to the result file, kept."""

    def __init__(self, plan: Plan, writer):
        self.decoder = RowDecoder.of_plan(plan)
        self.writer = writer
        self.kept: list[np.ndarray] = []
        self.steps = 0  # communication steps done

    def add(self, loop: NativeLoop, raw: np.ndarray, texts: list | None = None) -> None:
        if not len(raw):
            return
        block = self.decoder.decode(raw, loop.new_texts() if texts is None else texts)
        self.kept.append(block)
        if self.writer is not None:
            self.writer.write(block)

    def table(self) -> np.ndarray:
        return np.concatenate(self.kept) if self.kept else self.decoder.empty()

    def last_time(self) -> float | None:
        return float(self.kept[-1]["time"][-1]) if self.kept else None


def _step_all(plan: Plan, loop: NativeLoop, live, rows: _Rows, progress) -> str | None:
    """Every communication step; returns the component that asked to terminate, if any."""
    k, chunk = 0, FIRST_CHUNK
    while k < plan.n_steps:
        k_end = min(k + chunk, plan.n_steps)
        began = time.perf_counter()
        status, done, raw = loop.steps(k, k_end)
        elapsed = time.perf_counter() - began
        rows.add(loop, raw)
        rows.steps += done
        progress.update(done)
        k += done
        if status == MASTER_TERMINATED:
            return live[loop.m.terminated_by].planned.path
        if status == MASTER_TIMEOUT:
            raise timeout_error(plan, plan.time(k))
        if status > 1:
            raise loop_failure(status, loop, live)
        if elapsed < CHUNK_SECONDS / 2:
            chunk = min(chunk * 2, MAX_CHUNK)
    return None


def _start(plan: Plan, fmus, deadline: float | None, live: list, start, held: list
           ) -> NativeLoop:
    """Bring the components up with ``start`` (into ``live``); the loop, ready to step (also
    put into ``held``)."""
    live.extend(start(plan, fmus, deadline))
    loop = NativeLoop(plan, live)
    held.append(loop)
    loop.set_deadline(deadline)
    status = loop.initialize()
    if status <= 1:
        finish_init(plan, live, loop.schedules)
        loop.attach_drivers(live)
        status = loop.start_clocks()
    if status <= 1:
        status = loop.read_all()
    if status <= 1:
        status = loop.go_lone(live)
    if status > 1:
        raise loop_failure(status, loop, live)
    if deadline is not None and time.monotonic() >= deadline:
        raise timeout_error(plan, plan.start_time, "during initialization")
    return loop


def _watchdog(plan: Plan, deadline, held: list, rows: _Rows, writer) -> Watchdog | None:
    """For the command line's timeout: ends the process when an in-process call is stuck."""
    if deadline is None or not plan.stuck_exit or all(c.isolated for c in plan.components):
        return None

    def flush() -> None:
        if held:
            raw, texts = held[0].held_rows()
            rows.add(held[0], raw, texts)
        if writer is not None:
            writer.close()

    def message() -> str:
        last = rows.last_time()
        kept = f"the results up to t={last:.15g} are kept" if last is not None else \
            "no results were computed"
        return (f"{plan.location}: error: timeout of {plan.timeout:g} s (wall clock) reached "
                f"while an FMU loaded into this process (not isolated) did not return from a "
                f"call; {kept}")

    return Watchdog(deadline, message, flush).start()


def _run_plan(plan: Plan, fmus, output, progress_enabled: bool, began: float | None = None,
              start=start_components, close=close_components) -> RunResult:
    """Run ``plan``; a failure keeps the rows so far (on disk, and as the error's ``result``).
    ``start``/``close``: how the components come up and go (a Session keeps them)."""
    columns = tuple(column.name for column in plan.columns)
    units = plan.units
    texts = tuple(c.name for c in plan.columns
                  if plan.signals[c.signal].variable.exchange in ("String", "Binary"))
    writer = open_writer(output, columns, units, texts) if output is not None else None
    rows = _Rows(plan, writer)
    live: list = []
    loop = None
    progress = _Progress(plan, progress_enabled)
    began = time.perf_counter() if began is None else began
    deadline = time.monotonic() + plan.timeout - (time.perf_counter() - began) \
        if plan.timeout is not None else None
    terminated_by = None
    held: list[NativeLoop] = []  # the loop, for the watchdog
    watchdog = _watchdog(plan, deadline, held, rows, writer)
    try:
        loop = _start(plan, fmus, deadline, live, start, held)
        rows.add(loop, loop.record(plan.start_time))
        terminated_by = _step_all(plan, loop, live, rows, progress)
    except CosimError as error:
        error.result = _result(rows, columns, plan, began, output, None, units)
        raise
    finally:
        if watchdog is not None:
            watchdog.stop()
        progress.close()
        if writer is not None:
            writer.close()
        if loop is not None:
            loop.free_saved_states(live)
        close(live)
        if loop is not None:
            loop.release()
    if terminated_by:
        LOGGER.info("%s asked to terminate the run", terminated_by)
    if loop is not None and loop.m.warnings:
        LOGGER.warning("%d FMU calls returned Warning", loop.m.warnings)
    if loop is not None:
        warn_nonfinite(loop, live)
    return _result(rows, columns, plan, began, output, terminated_by, units)


def _result(rows: _Rows, columns, plan: Plan, began: float, output, terminated_by, units
            ) -> RunResult:
    return RunResult(rows.table(), columns, rows.steps, plan.step_size,
                     time.perf_counter() - began,
                     str(output) if output is not None else None, terminated_by, units)


def simulate(path: str | os.PathLike, settings: Settings, variant: str | None = None,
             output: str | os.PathLike | None = None, progress: bool = False,
             model: str | None = None, libs=()) -> RunResult:
    """Load ``path``, plan it with ``settings``, run it and return the results.

    ``model`` and ``libs`` choose the class and libraries of a ``.mo`` target. A failed run
    raises a ``CosimError`` whose ``result`` holds the rows computed before.
    """
    native(), worker_executable()  # built once per version of the C: not part of a run's time
    began = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="cosim-run-") as work:
        structure, location, fmus = load_target(path, variant, work, model=model, libs=libs)
        infos = {p: f.info for p, f in fmus.items()}
        plan = build_plan(structure, infos, settings, location)
        if not plan.columns and Path(path).suffix.lower() == ".mo":
            # a Modelica model without outputs (most examples): what it computes
            (component, info), = infos.items()
            record = tuple(f"{component}.{name}" for name in model_variables(info))
            plan = build_plan(structure, infos, replace(settings, record=record), location)
        if not plan.columns:
            LOGGER.warning("%s: warning: the system has no outputs, so only time is recorded; "
                           "choose variables with --record COMPONENT.VARIABLE", location)
        return _run_plan(plan, fmus, output, progress, began)


def model_variables(info) -> list[str]:
    """The states and algebraic variables of a model: its continuous Float64 variables that are
    neither derivatives nor parameters nor hidden (``_eventIndicator_1``), in the FMU's order."""
    derivatives = set(info.derivative_references)
    return [v.name for v in info.variables
            if v.variability == "continuous" and v.exchange == "Float64"
            and v.value_reference not in derivatives and v.causality in ("local", "output")
            and not v.name.startswith("_")]
