"""What runs on the Dask workers: the system, sent once, and batches of runs.

Input: a ``SweepPlugin`` registered on every worker (the target as bytes, or a path all
workers share, with the run settings), then ``run_batch`` tasks of ``(run, parameters)``.
Output: a ``BatchResult`` per batch: outputs of the runs that finished, their simulation
times, and the runs that failed with their error. Each worker thread prepares one ``Session``
on its first batch and reuses it (and its FMU instances) for every other batch.
"""
from __future__ import annotations

import shutil
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from distributed import WorkerPlugin, get_worker

from cosim.errors import CosimError
from cosim.master import Session, Settings, prepare
from cosim.sweeps.spec import SweepError


@dataclass(frozen=True)
class SystemFiles:
    """The target of a sweep as workers get it: ``data``, the bytes of an ``.ssp`` or
    ``.fmu`` named ``name``, or else ``path``, a file or folder every worker can read."""

    name: str
    data: bytes | None = field(default=None, repr=False)
    path: str | None = None
    variant: str | None = None


@dataclass(frozen=True)
class BatchResult:
    """``values[i]`` belongs to ``runs[i]``: final outputs, shape (n_outputs,), or a series,
    shape (n_rows, 1 + n_outputs) with time first. ``setup_time`` is the time this batch
    spent preparing a session (0 when it found one), ``elapsed`` the time of its runs."""

    runs: tuple[int, ...]
    values: tuple[np.ndarray, ...]
    simulation_times: tuple[float, ...]
    failures: tuple[tuple[int, str], ...]
    setup_time: float
    elapsed: float


class SweepPlugin(WorkerPlugin):
    """Holds the system on a worker: writes its bytes once, prepares sessions on demand (one
    per thread running batches) and closes them when unregistered."""

    def __init__(self, name: str, system: SystemFiles, settings: Settings,
                 outputs: tuple[str, ...], series: bool):
        self.name = name
        self.system = system
        self.settings = settings
        self.outputs = outputs
        self.series = series

    def setup(self, worker=None) -> None:
        self.lock = threading.Lock()
        self.idle: list[Session] = []
        self.sessions: list[Session] = []
        self.folder = None
        self.target = self.system.path
        if self.system.data is not None:
            base = getattr(worker, "local_directory", None)
            self.folder = tempfile.mkdtemp(prefix="cosim-sweep-", dir=base)
            self.target = str(Path(self.folder) / self.system.name)
            Path(self.target).write_bytes(self.system.data)

    def teardown(self, worker=None) -> None:
        for session in self.sessions:
            session.close()
        self.sessions, self.idle = [], []
        if self.folder is not None:
            shutil.rmtree(self.folder, ignore_errors=True)

    def acquire(self) -> tuple[Session, float]:
        """An idle session, or a new one; returns it and the seconds spent preparing it."""
        with self.lock:
            if self.idle:
                return self.idle.pop(), 0.0
        began = time.perf_counter()
        try:
            session = prepare(self.target, self.settings, self.system.variant)
        except CosimError as error:
            raise SweepError(f"preparing the system on a worker failed: {error}") from None
        with self.lock:
            self.sessions.append(session)
        return session, time.perf_counter() - began

    def release(self, session: Session) -> None:
        with self.lock:
            self.idle.append(session)

    def outputs_of(self, values: np.ndarray) -> np.ndarray:
        if self.series:
            return np.column_stack([values["time"]] + [values[n] for n in self.outputs])
        return np.array([values[n][-1] for n in self.outputs])


def run_batch(plugin_name: str, batch: list[tuple[int, dict]]) -> BatchResult:
    """Run ``batch`` (``(run, parameters)`` pairs) in this worker's session; a run that fails
    is reported with its error, and the others go on."""
    plugin: SweepPlugin = get_worker().plugins[plugin_name]
    session, setup_time = plugin.acquire()
    runs, values, times, failures = [], [], [], []
    began = time.perf_counter()
    try:
        for run, parameters in batch:
            try:
                result = session.run(parameters)
            except CosimError as error:
                failures.append((run, str(error)))
                continue
            except Exception as error:  # an unforeseen failure of one run stops only it
                failures.append((run, f"{type(error).__name__}: {error}"))
                continue
            runs.append(run)
            values.append(plugin.outputs_of(result.values))
            times.append(result.wall_time)
    finally:
        plugin.release(session)
    return BatchResult(tuple(runs), tuple(values), tuple(times), tuple(failures), setup_time,
                       time.perf_counter() - began)
