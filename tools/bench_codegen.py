"""Time of ``cosim compile``, Modelica to a built FMU, for a small model and the mass chain of
bench_compile.py (N masses: 2N states).

Usage: python3 tools/bench_codegen.py [--sizes 1000] [--repeat R] [--loops [N ...]] [--no-scalar]
Targets (issue 19): a small model (3 states) cold in under 1 s wall, the 2000-state chain
(N = 1000) in under 8 s. "Cold" is a model the FMU cache does not hold, compiled by a
``cosim`` whose runtime objects are built (they are compiled once per runtime version and C
flags into the object cache, compiler.fmu.runtime_objects); the table also shows the very
first compile, which builds them. The command runs as a user runs it, interpreter start-up
and imports included, with Python's bytecode cached as an installed package has it. Each
model is then compiled stage by stage in this process, to show where the time goes. CPU
seconds count this process and its children (gcc); wall seconds depend on the load of the
machine (printed), as gcc runs on both cores.

``--loops 32 100`` prints instead the section on array equations emitted as loops
(compiler.codegen.loops): the CPU seconds of the front end's stages (flatten, causalize,
emit), the size of model.c and the time of gcc (+ packaging) for the heat
rod of 1000 cells and the Brusselator on N x N grids (tools/bench_sparse.py's models), with
loops and, unless ``--no-scalar``, with every equation scalar as before (N = 100 scalar: minutes).
"""
from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT))   # tests.runtime.sparse_problems: the models of --loops

from compiler import fmu_cache  # noqa: E402
from compiler.api import flatten_model  # noqa: E402
from compiler.causalize import causalize  # noqa: E402
from compiler.codegen import emit_c  # noqa: E402
from compiler.compile import _locations  # noqa: E402
from compiler.fmu import package_fmu  # noqa: E402

sys.path.insert(0, str(ROOT / "tools"))
from bench_compile import LIBRARY  # noqa: E402

TARGET_SMALL_WALL = 1.0
TARGET_CHAIN_WALL = 8.0
CHAIN_TARGET_SIZE = 1000
STAGES = ("flatten", "causalize", "emit C", "cache key", "gcc + package")
SMALL_MODEL = """model Small "three states"
  parameter Real k = 2;
  Real x(start = 1), y(start = 0), z(start = 0.5);
equation
  der(x) = -k*x + y;
  der(y) = x - y*z;
  der(z) = -z + sin(time);
end Small;
"""


class Clock:
    """Wall-clock and CPU seconds (this process and the children it waited for)."""

    def __init__(self):
        self.wall, self.cpu = time.perf_counter(), self._cpu()

    @staticmethod
    def _cpu() -> float:
        own, children = (resource.getrusage(who) for who in (resource.RUSAGE_SELF,
                                                             resource.RUSAGE_CHILDREN))
        return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime

    def lap(self) -> tuple[float, float]:
        wall, cpu = time.perf_counter(), self._cpu()
        elapsed = (wall - self.wall, cpu - self.cpu)
        self.wall, self.cpu = wall, cpu
        return elapsed


def write_small(folder: Path) -> tuple[Path, list[Path]]:
    path = folder / "Small.mo"
    path.write_text(SMALL_MODEL)
    return path, []


def write_chain(size: int, folder: Path) -> tuple[Path, list[Path]]:
    (folder / "ChainLib.mo").write_text(LIBRARY)
    path = folder / f"Chain{size}.mo"
    path.write_text(f"model Chain{size}\n  extends ChainLib.Chain(N = {size});\n"
                    f"end Chain{size};\n")
    return path, [folder / "ChainLib.mo"]


def command_time(path: Path, libs: list[Path], folder: Path) -> tuple[float, float]:
    """``cosim compile`` as a user runs it, with the cache folder of ``folder``."""
    environ = {**os.environ, "COSIM_CACHE_DIR": str(folder / "cache"),
               "PYTHONPATH": str(ROOT / "src"), "PYTHONPYCACHEPREFIX": str(folder / "bytecode")}
    environ.pop("MODELICAPATH", None)
    environ.pop("PYTHONDONTWRITEBYTECODE", None)
    clock = Clock()
    subprocess.run([sys.executable, "-m", "cosim", "compile", str(path),
                    *[item for lib in libs for item in ("--lib", str(lib))],
                    "-o", str(folder / "command.fmu")],
                   env=environ, check=True, stdout=subprocess.DEVNULL)
    return clock.lap()


def stage_times(path: Path, libs: list[Path], folder: Path) -> tuple[list[tuple[float, float]], int, int]:
    """The stages of ``compile_fmu`` one by one (runtime objects cached); also the states
    and lines of C."""
    clock = Clock()
    flat = flatten_model(path, libs=libs, environ={})
    laps = [clock.lap()]
    system = causalize(flat)
    laps.append(clock.lap())
    emitted = emit_c(system, flat.name)
    laps.append(clock.lap())
    fmu_cache.cache_key(flat.name, flat.to_modelica(), _locations(flat))
    laps.append(clock.lap())
    package_fmu(emitted.interface, emitted.source, folder / "stages.fmu",
                object_cache=folder / "cache" / "objects")
    laps.append(clock.lap())
    return laps, len(system.states), emitted.source.count("\n")


def measure(name: str, path: Path, libs: list[Path], folder: Path, repeat: int) -> float:
    """Print the table of one model; returns the best cold wall time of the command."""
    first = command_time(path, libs, folder)   # builds the runtime objects and the bytecode
    best = (float("inf"), float("inf"))
    for _ in range(repeat):
        shutil.rmtree(folder / "cache" / "fmus")
        wall, cpu = command_time(path, libs, folder)
        best = min(best, (wall, cpu))
    laps, states, lines = stage_times(path, libs, folder)
    print(f"{name}: {states} states, {lines} lines of C")
    print(f"  {'stage':<40} {'CPU s':>7} {'wall s':>7}")
    for stage, (wall, cpu) in zip(STAGES, laps):
        print(f"  {stage:<40} {cpu:>7.2f} {wall:>7.2f}")
    print(f"  {'cosim compile, first ever (runtime too)':<40} {first[1]:>7.2f} {first[0]:>7.2f}")
    print(f"  {'cosim compile, cold model':<40} {best[1]:>7.2f} {best[0]:>7.2f}")
    return best[0]


def loop_section(sizes: list[int], scalar: bool) -> None:
    """model.c and gcc with and without loops (see the module docstring)."""
    from tests.runtime.sparse_problems import brusselator, rod
    print(f"{'model':<22} {'emission':<8} {'states':>6} {'flatten s':>9} {'causalize s':>11} "
          f"{'model.c KB':>10} {'emit s':>7} {'gcc + package s':>16}   (front end: CPU s)")
    with tempfile.TemporaryDirectory() as directory:
        folder = Path(directory)
        for case in [rod(1000)] + [brusselator(n) for n in sizes]:
            path = folder / "Case.mo"
            path.write_text(case.modelica)
            clock = Clock()
            flat = flatten_model(path, environ={})
            flatten_seconds = clock.lap()[1]
            system = causalize(flat)
            causalize_seconds = clock.lap()[1]
            for emission in ("loops", "scalar") if scalar else ("loops",):
                clock = Clock()
                emitted = emit_c(system, loops=emission == "loops")
                emit_seconds = clock.lap()[1]
                if not (folder / "objects").exists():   # the runtime's objects, built once
                    package_fmu(emitted.interface, emitted.source, folder / "case.fmu",
                                object_cache=folder / "objects")
                    clock.lap()
                package_fmu(emitted.interface, emitted.source, folder / "case.fmu",
                            object_cache=folder / "objects")
                gcc_seconds = clock.lap()[0]
                print(f"{case.name:<22} {emission:<8} {len(system.states):>6} "
                      f"{flatten_seconds:>9.2f} {causalize_seconds:>11.2f} "
                      f"{len(emitted.source) / 1000:>10.1f} {emit_seconds:>7.2f} {gcc_seconds:>16.2f}",
                      flush=True)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[CHAIN_TARGET_SIZE])
    parser.add_argument("--repeat", type=int, default=3, help="best of R cold runs of the command")
    parser.add_argument("--loops", type=int, nargs="*", default=None,
                        help="the section on loops, for Brusselator grids N (default 32)")
    parser.add_argument("--no-scalar", action="store_true", help="with --loops: no scalar emission")
    args = parser.parse_args(argv)
    if args.loops is not None:
        loop_section(args.loops or [32], not args.no_scalar)
        return 0
    print(f"load average at start: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    failures = []
    with tempfile.TemporaryDirectory() as directory:
        small = measure("small model", *write_small(Path(directory)), Path(directory), args.repeat)
    if small > TARGET_SMALL_WALL:
        failures.append(f"the small model took {small:.2f} s")
    for size in args.sizes:
        with tempfile.TemporaryDirectory() as directory:
            wall = measure(f"chain N = {size}", *write_chain(size, Path(directory)), Path(directory),
                           args.repeat)
        if size == CHAIN_TARGET_SIZE and wall > TARGET_CHAIN_WALL:
            failures.append(f"N = {size} took {wall:.1f} s")
    print(f"load average at end: {os.getloadavg()[0]:.2f}")
    print(f"targets: small model under {TARGET_SMALL_WALL:.0f} s, {2 * CHAIN_TARGET_SIZE} states "
          f"under {TARGET_CHAIN_WALL:.0f} s (wall, cold model): "
          f"{'met' if not failures else 'MISSED: ' + '; '.join(failures)}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
