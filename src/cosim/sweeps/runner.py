"""A whole sweep: check the design against the system, send the system to the workers once,
run the design there and write the table as runs finish.

Input: a target path, a ``Design`` and the run ``Settings``. Output: a ``SweepResult``; the
Parquet/CSV table (and ``<name>.failures.csv`` when runs failed) written as batches finish.
Ctrl-C raises ``SweepInterrupted`` once the finished runs are on disk.
"""
from __future__ import annotations

import csv
import logging
import os
import uuid
from pathlib import Path

import numpy as np

from cosim.master import Session, Settings, prepare
from cosim.sweeps.cluster import connect, require_extras, system_files
from cosim.sweeps.design import Design
from cosim.sweeps.execute import Outcome, execute
from cosim.sweeps.interrupt import Deferral
from cosim.sweeps.result import Failure, SweepInterrupted, SweepResult
from cosim.sweeps.spec import SweepError
from cosim.sweeps.table import Layout, collect, layout_of, make_chunk, open_sink

LOGGER = logging.getLogger("cosim.sweep")


def check_design(session: Session, design: Design) -> None:
    """``PlanError`` for a parameter name, or any value of it, that a run could not set."""
    for name in design.names:
        for value in dict.fromkeys(design.column(name)):
            session.check({name: value})


def _write_failures(path: Path, design: Design, failures: list[Failure]) -> None:
    with open(path, "w", newline="") as file:
        writer = csv.writer(file)
        writer.writerow(("run",) + design.names + ("error",))
        for failure in failures:
            writer.writerow((failure.run,) + design.rows[failure.run] + (failure.error,))


def _run(path, design: Design, layout: Layout, settings: Settings, variant, sink, chunks,
         outcome: Outcome, workers, scheduler, batch_size, progress) -> None:
    """Send the system to the workers, run the design there, hand each batch to ``sink``
    and ``chunks``; ``outcome`` follows (also when Ctrl-C ends it)."""
    def on_batch(result) -> None:
        if result.runs:
            chunk = make_chunk(layout, design, list(result.runs), list(result.values))
            with deferral.critical():  # Ctrl-C waits until the batch is in file and memory
                if sink is not None:
                    sink.add(chunk)
                chunks.append(chunk)

    with Deferral() as deferral, connect(workers, scheduler) as (client, local):
        plugin_name = f"cosim-sweep-{uuid.uuid4().hex[:12]}"
        from cosim.sweeps.worker import SweepPlugin

        plugin = SweepPlugin(plugin_name, system_files(path, variant, local), settings,
                             layout.outputs, layout.series)
        client.register_plugin(plugin, name=plugin_name)
        try:
            execute(client, plugin_name, design, on_batch, outcome, batch_size, progress)
        finally:
            try:
                client.unregister_worker_plugin(plugin_name)
            except Exception as error:  # a worker gone meanwhile: nothing left to drop there
                LOGGER.debug("unregistering the sweep's worker plugin: %r", error)


def run_sweep(path: str | os.PathLike, design: Design, settings: Settings = Settings(),
              variant: str | None = None, series: bool = False,
              output: str | os.PathLike | None = None, workers: int | None = None,
              scheduler=None, batch_size: int | None = None,
              progress: bool = False) -> SweepResult:
    """Run ``design`` on ``path`` (see ``cosim.api.sweep`` for the arguments); the recorded
    outputs are ``settings.record``, or every output connector when it is empty."""
    require_extras(output is not None and Path(output).suffix.lower() == ".parquet")
    if batch_size is not None and batch_size < 1:
        raise SweepError(f"at least one run per batch, not {batch_size}", "--batch-size")
    with prepare(path, settings, variant) as session:  # one-line errors before any worker
        check_design(session, design)
        outputs = settings.record or session.columns
    layout = layout_of(design, tuple(outputs), series)
    sink = open_sink(output, layout) if output is not None else None
    chunks: list = []
    outcome = Outcome()
    interrupted = False
    try:
        _run(path, design, layout, settings, variant, sink, chunks, outcome, workers,
             scheduler, batch_size, progress)
    except KeyboardInterrupt:
        interrupted = True
    finally:
        if sink is not None:
            sink.close()
    failures = [Failure(run, design.parameters(run), error)
                for run, error in sorted(outcome.failures)]
    failures_output = None
    if failures and output is not None:
        failures_output = str(Path(output).with_suffix(".failures.csv"))
        _write_failures(Path(failures_output), design, failures)
    values = collect(layout, chunks)
    finished = len(failures) + len(np.unique(values["run"]))
    result = SweepResult(values, design, tuple(failures), finished,
                         outcome.wall_time, outcome.simulation_time, outcome.setup_time,
                         outcome.workers, None if output is None else str(output), failures_output,
                         interrupted)
    if interrupted:
        raise SweepInterrupted(result)
    return result
