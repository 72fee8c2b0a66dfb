"""Running a design on a Dask client: batches of runs sized to the time a run takes, a few
in flight per worker thread, results handed on as each batch finishes.

Input: a client on which the ``SweepPlugin`` is registered, the ``Design``, and ``on_batch``
(called with each ``BatchResult``). Output: the ``Outcome`` (failures, timings) filled in as
batches finish, also when Ctrl-C cancels the batches in flight.
"""
from __future__ import annotations

import itertools
import math
import statistics
import time
import uuid
from dataclasses import dataclass, field

from cosim.errors import CosimError
from cosim.sweeps.design import Design
from cosim.sweeps.spec import SweepError

FIRST_BATCH = 2          # runs per batch until a run's time is known
BATCH_SECONDS = 0.5      # then batches last about this long (a worker idles ms between two),
MIN_BATCH_SECONDS = 0.05  # and no less towards the end
MAX_BATCH = 10000
IN_FLIGHT_PER_THREAD = 2  # batches queued per worker thread
# A run is blamed for its worker's death when the worker died twice while running it alone.
DEATHS_TO_BLAME = 2
DIED = "the worker process died during this run (a crash in an FMU?)"


class Batches:
    """Hands out the runs in batches: ``BATCH_SECONDS`` of work each once a run's time is
    known, smaller towards the end (down to ``MIN_BATCH_SECONDS``) so that the workers
    finish together. The runs of a batch whose worker died come first, one by one."""

    def __init__(self, n_runs: int, threads: int, fixed: int | None = None):
        self.suspects: list[int] = []  # a stack: the next to take is last
        self.deaths: dict[int, int] = {}
        self.next_run = 0
        self.n_runs = n_runs
        self.threads = max(threads, 1)
        self.fixed = fixed
        self.per_run: float | None = None

    def observe(self, seconds: float) -> None:
        """A run's time in the latest batch: the median (a session's first run also loads
        libraries), so that batches follow runs that get slower or faster."""
        self.per_run = max(seconds, 1e-6)

    def size(self) -> int:
        if self.fixed is not None:
            return self.fixed
        if self.per_run is None:
            return FIRST_BATCH
        per_run = self.per_run
        share = math.ceil((self.n_runs - self.next_run) / (IN_FLIGHT_PER_THREAD * self.threads))
        size = max(round(MIN_BATCH_SECONDS / per_run), min(share, round(BATCH_SECONDS / per_run)))
        return max(1, min(size, MAX_BATCH))

    def take(self) -> range | None:
        if self.suspects:
            run = self.suspects.pop()
            return range(run, run + 1)
        if self.next_run >= self.n_runs:
            return None
        end = min(self.n_runs, self.next_run + self.size())
        runs, self.next_run = range(self.next_run, end), end
        return runs

    def worker_died(self, runs: range) -> list[int]:
        """The worker running ``runs`` died: they go again one by one; returns the runs to
        blame (those that died alone ``DEATHS_TO_BLAME`` times), which do not."""
        if len(runs) == 1:
            self.deaths[runs.start] = self.deaths.get(runs.start, 0) + 1
            if self.deaths[runs.start] >= DEATHS_TO_BLAME:
                return [runs.start]
        self.suspects.extend(reversed(runs))
        return []


@dataclass
class Outcome:
    failures: list[tuple[int, str]] = field(default_factory=list)
    simulation_time: float = 0.0
    setup_time: float = 0.0
    wall_time: float = 0.0
    workers: int = 0  # worker threads


def _lost(future, runs: range, batches: Batches, outcome: Outcome) -> int:
    """A batch whose worker died: its runs go again alone, so that only a run that kills
    its worker is lost; returns how many runs ended."""
    if future.status == "cancelled":
        raise SweepError("the scheduler cancelled a batch (did the cluster shut down?)")
    error = future.exception()
    if isinstance(error, CosimError):  # the system could not be prepared on a worker
        raise SweepError(error.message, error.location)
    if type(error).__name__ != "KilledWorker":
        raise SweepError(f"a batch failed on the workers: {type(error).__name__}: {error}")
    blamed = batches.worker_died(runs)
    outcome.failures.extend((run, DIED) for run in blamed)
    return len(blamed)


def execute(client, plugin_name: str, design: Design, on_batch, outcome: Outcome,
            batch_size: int | None = None, progress: bool = False) -> None:
    """Run every run of ``design`` on ``client``'s workers; ``on_batch(result)`` gets each
    finished ``BatchResult`` and ``outcome`` is kept up to date. Ctrl-C (or any error)
    cancels what is in flight and propagates."""
    from distributed import as_completed
    from tqdm import tqdm

    from cosim.sweeps.worker import run_batch

    threads = outcome.workers = sum(client.nthreads().values())
    batches = Batches(len(design), threads, batch_size)
    in_flight: dict = {}
    completed = as_completed()
    token = uuid.uuid4().hex[:8]
    serial = itertools.count()

    def fill() -> None:
        # while suspects run alone, one task per live worker thread: a death names its run
        limit = max(1, sum(client.nthreads().values())) if batches.suspects else \
            IN_FLIGHT_PER_THREAD * threads
        while len(in_flight) < limit and (runs := batches.take()) is not None:
            batch = [(r, design.parameters(r)) for r in runs]
            future = client.submit(run_batch, plugin_name, batch, pure=False,
                                   key=f"cosim-sweep-{token}-{next(serial)}")
            in_flight[future] = runs
            completed.add(future)

    bar = tqdm(total=len(design), unit="run", desc="cosim sweep", disable=not progress,
               dynamic_ncols=True, leave=False)
    began = time.perf_counter()
    try:
        fill()
        for future in completed:
            runs = in_flight.pop(future)
            if future.status != "finished":
                ended = _lost(future, runs, batches, outcome)
            else:
                result = future.result()
                outcome.failures.extend(result.failures)
                outcome.simulation_time += sum(result.simulation_times)
                outcome.setup_time += result.setup_time
                times = result.simulation_times
                batches.observe(statistics.median(times) if times else
                                result.elapsed / len(runs))
                on_batch(result)
                ended = len(runs)
            bar.update(ended)
            if outcome.failures:
                bar.set_postfix(failed=len(outcome.failures), refresh=False)
            fill()
    except BaseException:
        client.cancel(list(in_flight))
        raise
    finally:
        outcome.wall_time = time.perf_counter() - began
        bar.close()
