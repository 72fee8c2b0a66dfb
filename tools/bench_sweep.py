"""Sweep scaling: the feedback example swept over Controller.b on local Dask clusters of 1 and
2 worker processes (one thread each), timed in one run.

Runs per second = runs / sweep wall time (first submission to last result, the workers'
preparation of the system included; cluster start-up is not). Per-run overhead = (wall time x
workers - the runs' own simulation times) / runs: worker time spent on anything but
simulating. Each count is timed --repeat times, alternating, and the fastest sweep counts (the
machine may be shared: the capacity line says how much faster two busy processes go than one,
the ceiling of any speed-up at that moment). Targets: 2 workers at least 1.7x the runs per
second of 1 worker; overhead under 5 ms a run.

    python tools/bench_sweep.py [--runs 2000] [--stop 5] [--repeat 5]
"""
from __future__ import annotations

import argparse
import contextlib
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "src")]
from cosim import api  # noqa: E402
from cosim.native import native  # noqa: E402

SYSTEM = ROOT / "ssp_examples" / "feedback.ssp"
SPEED_UP_TARGET, OVERHEAD_TARGET = 1.7, 5e-3


def local_client(stack: contextlib.ExitStack, workers: int):
    """A client of a local cluster as ``cosim sweep --workers N`` starts it."""
    from distributed import Client

    from cosim.sweeps.cluster import local_cluster

    return stack.enter_context(Client(stack.enter_context(local_cluster(workers))))


def fastest_sweeps(runs: int, stop: float, repeat: int) -> dict:
    """The fastest of ``repeat`` sweeps on 1 and on 2 workers (alternating)."""
    best: dict = {}
    with contextlib.ExitStack() as stack:
        clients = {workers: local_client(stack, workers) for workers in (1, 2)}
        for _ in range(repeat):
            for workers, client in clients.items():
                result = api.sweep(SYSTEM, parameters=[f"Controller.b=1:4:{runs}"],
                                   stop_time=stop, scheduler=client)
                if workers not in best or result.wall_time < best[workers].wall_time:
                    best[workers] = result
    return best


def _burn(seconds) -> None:
    began = time.perf_counter()
    x = 0
    for i in range(3_000_000):
        x += i
    seconds.value = time.perf_counter() - began


def parallel_capacity() -> float:
    """How many times the work of one process two processes get done in the same time."""
    import multiprocessing

    context = multiprocessing.get_context("spawn")
    times = {}
    for n in (1, 2):
        values = [context.Value("d", 0.0) for _ in range(n)]
        processes = [context.Process(target=_burn, args=(v,)) for v in values]
        for process in processes:
            process.start()
        for process in processes:
            process.join()
        times[n] = max(v.value for v in values)
    return 2 * times[1] / times[2]


def fresh_run_seconds(stop: float, n: int = 10) -> float:
    """A run of ``cosim.run``: loading the system included."""
    began = time.perf_counter()
    for b in np.linspace(1, 4, n):
        api.run(SYSTEM, stop_time=stop, parameters={"Controller.b": float(b)})
    return (time.perf_counter() - began) / n


def session_run_seconds(stop: float, runs: int) -> float:
    """A run of the same sweep done in this process, one prepared session, no Dask."""
    from cosim.master import Settings, prepare

    with prepare(SYSTEM, Settings(stop_time=stop)) as session:
        began = time.perf_counter()
        for b in np.linspace(1, 4, runs):
            session.run({"Controller.b": float(b)})
        return (time.perf_counter() - began) / runs


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=2000)
    parser.add_argument("--stop", type=float, default=5.0, help="stop time (0.01 s steps)")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    native()  # build (or load) the C loop before timing
    results = fastest_sweeps(args.runs, args.stop, args.repeat)
    assert all(not r.failures and r.finished == args.runs for r in results.values())
    assert np.array_equal(results[1].values, results[2].values)  # the same numbers
    steps = round(args.stop / 0.01)
    print(f"{SYSTEM.name}: {args.runs} runs of {steps} steps; a run by cosim.run (loading "
          f"included): {fresh_run_seconds(args.stop) * 1e3:.1f} ms, by a prepared session in "
          f"one process: {session_run_seconds(args.stop, args.runs) * 1e3:.3f} ms")
    print(f"{'workers':<9}{'wall s':>8}{'runs/s':>9}{'sim ms/run':>12}{'setup s':>9}"
          f"{'overhead ms/run':>17}")
    overheads = {}
    for workers, r in results.items():
        overheads[workers] = (r.wall_time * r.workers - r.simulation_time) / r.finished
        print(f"{workers:<9}{r.wall_time:>8.3f}{r.runs_per_second:>9.0f}"
              f"{r.simulation_time / r.finished * 1e3:>12.3f}{r.setup_time:>9.3f}"
              f"{overheads[workers] * 1e3:>17.3f}")
    speed_up = results[2].runs_per_second / results[1].runs_per_second
    print(f"capacity: 2 busy processes do {parallel_capacity():.2f}x the work of one right now")
    overhead = max(overheads.values())
    print(f"speed-up 2 vs 1 workers: {speed_up:.2f}x (target >= {SPEED_UP_TARGET}x)")
    print(f"per-run overhead: {overhead * 1e3:.3f} ms (target < {OVERHEAD_TARGET * 1e3:g} ms)")
    ok = speed_up >= SPEED_UP_TARGET and overhead < OVERHEAD_TARGET
    print(f"targets: {'met' if ok else 'NOT met'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
