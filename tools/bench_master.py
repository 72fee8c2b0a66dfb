"""Master overhead: a chain of 10 Gain FMUs (y = k u + b, no states), 10,000 communication steps,
timed in one run for cosim's C loop and for the same loop written with fmpy's FMU3Slave.

Overhead per FMU per step = loop time / (steps * FMUs) - the FMU's own cost of one step, which
a tight C loop calling fmi3DoStep on one instance measures. Targets: at most 0.5 us, and at
least 10x below the fmpy loop. The same chain with every FMU isolated in a worker process
(--isolate) measures the isolation overhead per FMU-step: target under 20 us.

    python tools/bench_master.py [--steps 10000] [--fmus 10]
"""
from __future__ import annotations

import argparse
import sys
import tempfile
import time
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
        rows = np.empty((steps, loop.row_width))
        began = time.perf_counter()
        status, done = loop.steps(0, steps, rows)
        elapsed = time.perf_counter() - began
        assert status == 0 and done == steps, (status, done)
        return elapsed, rows[-1]
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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=10_000)
    parser.add_argument("--fmus", type=int, default=10)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-master-") as folder:
        work = Path(folder)
        gain = build("Gain", work)
        system = chain(args.fmus, gain, work)
        from cosim.native import native

        native()  # build (or load) the C loop before timing
        ours, row = cosim_loop(system, args.steps, work / "run")
        isolated, isolated_row = cosim_loop(system, args.steps, work / "isolated", isolate=True)
        theirs, last = fmpy_loop(gain, args.fmus, args.steps)
        alone = do_step_alone(gain, args.steps, work)
    assert abs(row[-1] - last) < 1e-12, (row[-1], last)  # same chain, same answer
    assert np.array_equal(row, isolated_row)
    calls = args.steps * args.fmus
    ours_overhead = ours / calls - alone
    fmpy_overhead = theirs / calls - alone
    print(f"chain of {args.fmus} Gain FMUs, {args.steps} steps; fmi3DoStep alone: "
          f"{alone * 1e6:.3f} us")
    print(f"{'loop':<10}{'total s':>10}{'us/FMU/step':>14}{'overhead us':>14}")
    print(f"{'cosim':<10}{ours:>10.4f}{ours / calls * 1e6:>14.3f}{ours_overhead * 1e6:>14.3f}")
    print(f"{'fmpy':<10}{theirs:>10.4f}{theirs / calls * 1e6:>14.3f}{fmpy_overhead * 1e6:>14.3f}")
    isolated_overhead = (isolated - ours) / calls
    print(f"{'isolated':<10}{isolated:>10.4f}{isolated / calls * 1e6:>14.3f}"
          f"{(isolated / calls - alone) * 1e6:>14.3f}")
    ratio = fmpy_overhead / ours_overhead if ours_overhead > 0 else float("inf")
    print(f"overhead ratio fmpy / cosim: {ratio:.1f}x")
    print(f"isolation overhead per FMU-step (isolated - cosim): {isolated_overhead * 1e6:.2f} us")
    ok = ours_overhead <= 0.5e-6 and ratio >= 10
    print(f"target (<= 0.5 us and >= 10x): {'met' if ok else 'NOT met'}")
    isolation_ok = isolated_overhead < 20e-6
    print(f"isolation target (< 20 us per FMU-step): {'met' if isolation_ok else 'NOT met'}")
    ok = ok and isolation_ok
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
