"""Master overhead: chains of 2, 10 and 100 Gain FMUs (y = k u + b, no states), timed in one
run for cosim's C loop (in-process and with every FMU isolated in a worker process), for a whole
run (``cosim.master.prepare(...).run(output=...)``: the C loop, every FMU's output recorded,
decoded and written to a .mat file) and for the same loop written with fmpy's FMU3Slave.

Overhead per FMU per step = time / (steps * FMUs) - the FMU's own cost of one step, which a
tight C loop calling fmi3DoStep on one instance measures; a whole run's time is that of
``--steps`` steps less that of a tenth as many (the start of the run cancels). Targets: the
in-process loop and the whole run at most 0.5 us, at least 10x below the fmpy loop; the
isolation overhead per FMU-step under 20 us.

    python tools/bench_master.py [--fmu-steps 100000] [--fmus 2 10 100]
"""
from __future__ import annotations

import argparse
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "src")]
from cosim.master.components import close_components, finish_init, start_components  # noqa: E402
from cosim.master.native_tables import NativeLoop  # noqa: E402
from cosim.master.plan import Settings, build_plan  # noqa: E402
from cosim.master.target import load_target  # noqa: E402
from cosim.ssp import pack_ssp, structure_from_description  # noqa: E402
from ssp_examples.models import build  # noqa: E402

H = 1e-3
TIGHT_LOOP = """
#include <time.h>
#include <stdbool.h>
typedef int (*DoStep)(void *, double, double, bool, bool *, bool *, bool *, double *);
double time_do_step(void *function, void *instance, long n, double h) {
    DoStep do_step = (DoStep)function;
    bool event, terminate, early;
    double last;
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    for (long k = 0; k < n; k++) do_step(instance, k * h, h, true, &event, &terminate, &early, &last);
    clock_gettime(CLOCK_MONOTONIC, &b);
    return (b.tv_sec - a.tv_sec) + 1e-9 * (b.tv_nsec - a.tv_nsec);
}
"""


def chain(n: int, gain: Path, folder: Path) -> Path:
    components = {f"G{i}": {"source": "resources/Gain.fmu",
                            "connectors": {"u": "input Real", "y": "output Real"},
                            "parameters": {"k": 0.5, "b": 1.0}} for i in range(n)}
    links = [f"G{i}.y -> G{i + 1}.u" for i in range(n - 1)]
    description = {"name": "chain", "components": components, "connections": links}
    return pack_ssp(folder / "chain.ssp", structure_from_description(description),
                    {"resources/Gain.fmu": gain})


def cosim_loop(system: Path, steps: int, work: Path, isolate: bool = False
               ) -> tuple[float, np.ndarray]:
    """Seconds of the C loop over all steps, and the last row."""
    structure, location, fmus = load_target(system, None, work)
    plan = build_plan(structure, {p: f.info for p, f in fmus.items()},
                      Settings(stop_time=steps * H, step_size=H, isolate=isolate), location)
    live = start_components(plan, fmus)
    try:
        loop = NativeLoop(plan, live)
        loop.initialize()
        finish_init(plan, live)
        loop.attach_drivers(live)
        loop.read_all()
        began = time.perf_counter()
        status, done, rows = loop.steps(0, steps)
        elapsed = time.perf_counter() - began
        assert status == 0 and done == steps, (status, done)
        return elapsed, rows[-1].view("<f8")
    finally:
        close_components(live)


def fmpy_loop(gain: Path, n: int, steps: int) -> tuple[float, float]:
    from fmpy import extract, read_model_description
    from fmpy.fmi3 import FMU3Slave

    description = read_model_description(str(gain))
    folder = extract(str(gain))
    vrs = {v.name: v.valueReference for v in description.modelVariables}
    slaves = []
    for i in range(n):
        slave = FMU3Slave(guid=description.guid, unzipDirectory=folder,
                          modelIdentifier="Gain", instanceName=f"G{i}")
        slave.instantiate()
        slave.setFloat64([vrs["k"], vrs["b"]], [0.5, 1.0])
        slave.enterInitializationMode(startTime=0.0, stopTime=steps * H)
        slave.exitInitializationMode()
        slaves.append(slave)
    u, y = [vrs["u"]], [vrs["y"]]
    began = time.perf_counter()
    for k in range(steps):
        t = k * H
        value = None
        for slave in slaves:
            if value is not None:
                slave.setFloat64(u, value)
            slave.doStep(currentCommunicationPoint=t, communicationStepSize=H)
            value = slave.getFloat64(y)
    elapsed = time.perf_counter() - began
    for slave in slaves:
        slave.terminate()
        slave.freeInstance()
    return elapsed, value[0]


def do_step_alone(gain: Path, steps: int, work: Path) -> float:
    """Seconds per fmi3DoStep of one Gain instance, called from a tight C loop."""
    import cffi

    from cosim.fmi import instantiate, open_fmu

    ffi = cffi.FFI()
    ffi.cdef("double time_do_step(void *function, void *instance, long n, double h);")
    ffi.set_source("_bench_tight_loop", TIGHT_LOOP)
    module_path = ffi.compile(tmpdir=str(work))
    import importlib.util

    spec = importlib.util.spec_from_file_location("_bench_tight_loop", module_path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    fmu = open_fmu(gain, work / "alone")
    instance = instantiate(fmu, "alone", "CS")
    instance.enter_initialization(0.0, steps * H * 10, None)
    instance.exit_initialization()
    function = ffi.cast("void *", fmu.library("CS").address("fmi3DoStep"))
    seconds = module.lib.time_do_step(function, ffi.cast("void *", instance.handle), steps * 10, H)
    instance.terminate()
    instance.free()
    return seconds / (steps * 10)


def whole_run(system: Path, n: int, steps: int, work: Path) -> float:
    """Seconds of a recorded run's stepping: ``steps`` steps less a tenth as many."""
    from cosim.master import prepare

    record = tuple(f"G{i}.y" for i in range(n))
    seconds = []
    for count in (steps // 10, steps):
        settings = Settings(stop_time=count * H, step_size=H, isolate=False, record=record)
        with prepare(system, settings) as session:
            session.run()  # warms the caches
            best = float("inf")
            for _ in range(3):
                began = time.perf_counter()
                result = session.run(output=work / "result.mat")
                best = min(best, time.perf_counter() - began)
            assert result.steps == count and len(result.values) == count + 1
        seconds.append(best)
    return seconds[1] - seconds[0]


@dataclass
class Chain:
    fmus: int
    steps: int
    loop: float       # seconds: in-process C loop
    run: float        # whole recorded run, its stepping
    isolated: float
    fmpy: float

    def overhead(self, seconds: float, alone: float, steps: int | None = None) -> float:
        return seconds / ((steps or self.steps) * self.fmus) - alone


def measure(n: int, fmu_steps: int, gain: Path, work: Path) -> Chain:
    steps = max(100, fmu_steps // n)
    folder = work / f"chain{n}"
    folder.mkdir()
    system = chain(n, gain, folder)
    ours, row = cosim_loop(system, steps, folder / "run")
    isolated, isolated_row = cosim_loop(system, steps, folder / "isolated", isolate=True)
    recorded = whole_run(system, n, steps, folder)
    theirs, last = fmpy_loop(gain, n, steps)
    assert abs(row[-1] - last) < 1e-12, (row[-1], last)  # same chain, same answer
    assert np.array_equal(row, isolated_row)
    return Chain(n, steps, ours, recorded, isolated, theirs)


def main() -> int:
    import os

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fmu-steps", type=int, default=100_000, help="steps x FMUs per chain")
    parser.add_argument("--fmus", type=int, nargs="+", default=[2, 10, 100])
    args = parser.parse_args()
    print(f"load average at start: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    with tempfile.TemporaryDirectory(prefix="bench-master-") as folder:
        work = Path(folder)
        gain = build("Gain", work)
        from cosim.native import native

        native()  # build (or load) the C loop before timing
        alone = do_step_alone(gain, args.fmu_steps, work)
        chains = [measure(n, args.fmu_steps, gain, work) for n in args.fmus]
    print(f"fmi3DoStep alone (tight C loop): {alone * 1e6:.3f} us; overhead us per FMU-step:")
    print(f"{'FMUs':>5}{'steps':>8}{'C loop':>9}{'whole run':>11}{'isolated':>10}{'fmpy':>9}"
          f"{'fmpy/C loop':>13}")
    ok = True
    for c in chains:
        loop, run = c.overhead(c.loop, alone), c.overhead(c.run, alone, c.steps - c.steps // 10)
        isolated, fmpy = c.overhead(c.isolated, alone), c.overhead(c.fmpy, alone)
        ratio = fmpy / loop if loop > 0 else float("inf")
        print(f"{c.fmus:>5}{c.steps:>8}{loop * 1e6:>9.3f}{run * 1e6:>11.3f}{isolated * 1e6:>10.2f}"
              f"{fmpy * 1e6:>9.2f}{ratio:>12.0f}x")
        ok = ok and loop <= 0.5e-6 and run <= 0.5e-6 and ratio >= 10 and isolated - loop < 20e-6
    print(f"load average at end: {os.getloadavg()[0]:.2f}")
    print(f"targets (C loop and whole run <= 0.5 us, >= 10x fmpy, isolation < 20 us): "
          f"{'met' if ok else 'NOT met'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
