"""The C and the Rust backend on four stiff problems: C FMU, Rust program, Rust FMU and scipy.

Each problem (tests/runtime/fixtures/modelica: Van der Pol with eps = 1e-6, Robertson, HIRES,
Oregonator) is compiled from Modelica into a C FMU, a Rust program and a Rust FMU. The FMUs run
in Co-Simulation with one doStep from start to stop time (in-process through fmpy, timed
around doStep); the program runs the same single step (``--step`` the whole interval,
timed as a process, so its time includes starting it); scipy's solve_ivp(method='Radau')
integrates the same equations with the same rtol/atol and the analytic Jacobian. All are
timed in this run (best of several repeats, in turn, so that load on the machine hits them
alike) and checked against the stored references. Target: the Rust FMU within 1.2x of the C
FMU's time.

    python tools/bench_backends.py [--rtol 1e-6] [--repeats 15]
"""
from __future__ import annotations

import argparse
import csv
import io
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from scipy.integrate import solve_ivp

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "src")]
from compiler import compile_fmu  # noqa: E402
from compiler.api import flatten_model  # noqa: E402
from compiler.rust.build import find_rustc  # noqa: E402
from compiler.rust.compile import rust_from_flat  # noqa: E402
from tests.runtime.drive import references  # noqa: E402
from tests.runtime.problems import PROBLEMS, Problem  # noqa: E402
from tools.bench_radau import Run, run_fmus, run_scipy, scaled  # noqa: E402

MODELICA = ROOT / "tests" / "runtime" / "fixtures" / "modelica"
RUST_TARGET = 1.2  # Rust FMU time / C FMU time


def oregonator(t, y):
    s, w, q = 77.27, 0.161, 8.375e-6
    return [s * (y[1] + y[0] * (1 - q * y[0] - y[1])), (y[2] - (1 + y[0]) * y[1]) / s,
            w * (y[0] - y[2])]


def oregonator_jacobian(t, y):
    s, w, q = 77.27, 0.161, 8.375e-6
    return [[s * (1 - 2 * q * y[0] - y[1]), s * (1 - y[0]), 0.0],
            [-y[1] / s, -(1 + y[0]) / s, 1 / s],
            [w, 0.0, -w]]


def oregonator_case() -> tuple[Problem, np.ndarray]:
    """Oregonator.mo's problem; its reference is scipy's Radau far below the tolerance."""
    problem = Problem(oregonator, oregonator_jacobian, (1.0, 2.0, 3.0), np.array([0.0, 360.0]),
                      np.ones(3), ("y1", "y2", "y3"))
    solution = solve_ivp(problem.rhs, (0.0, 360.0), problem.y0, method="Radau",
                         jac=problem.jacobian, rtol=1e-12, atol=1e-12)
    return problem, solution.y[:, -1]


def run_program(path: Path, problem: Problem, rtol: float, repeats: int) -> Run:
    """The Rust program over the whole interval in one communication step (its steps are not
    reported: the integrator's statistics are the Rust FMU's)."""
    t0, t1 = float(problem.grid[0]), float(problem.grid[-1])
    command = [str(path), "--start", repr(t0), "--stop", repr(t1), "--step", repr(t1 - t0),
               "--tolerance", repr(rtol)]
    best, output = float("inf"), ""
    for _ in range(repeats):
        started = time.perf_counter()
        output = subprocess.run(command, capture_output=True, text=True, check=True).stdout
        best = min(best, time.perf_counter() - started)
    rows = list(csv.reader(io.StringIO(output)))
    column = {name: k for k, name in enumerate(rows[0])}
    identifier = path.name
    final = np.array([float(rows[-1][column[f"{identifier}.{n}"]]) for n in problem.state_names])
    return Run(best, 0, 0, 0, 0, final)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rtol", type=float, default=1e-6)
    parser.add_argument("--repeats", type=int, default=15)
    args = parser.parse_args(argv)
    if find_rustc() is None:
        print("no rustc: install it (Debian's package rustc, or rustup) to build the Rust backend")
        return 2
    cases = [(name, PROBLEMS[name], references(name)[-1, 1:]) for name in ("VanDerPol", "Robertson", "Hires")]
    cases.append(("Oregonator", *oregonator_case()))
    print(f"rtol = {args.rtol:g}, atol = rtol * nominal; one step over the whole interval; best of "
          f"{args.repeats}; error: max |y - y_ref| / (rtol |y_ref| + atol) at the stop time")
    header = (f"{'problem':<11} {'':<12} {'steps':>6} {'accepted':>8} {'f-evals':>8} {'LU':>6} "
              f"{'error':>9} {'time [ms]':>10}  ratio to the C FMU")
    print(header)
    print("-" * len(header))
    verdicts = []
    with tempfile.TemporaryDirectory() as directory:
        for name, problem, exact in cases:
            source = MODELICA / f"{name}.mo"
            folder = Path(directory)
            c_fmu = compile_fmu(source, output=folder / "c" / f"{name}.fmu", environ={})
            flat = flatten_model(source)
            rust_fmu = rust_from_flat(flat, "fmu", folder / "rust" / f"{name}.fmu", environ={})
            program = rust_from_flat(flat, "program", folder / "program" / name, environ={})
            c_run, rust_run = run_fmus([c_fmu, rust_fmu], problem, args.rtol, {}, args.repeats)
            program_run = run_program(program, problem, args.rtol, args.repeats)
            scipy_run = run_scipy(problem, args.rtol, max(1, args.repeats // 2))
            rows = [("C FMU", c_run), ("Rust FMU", rust_run), ("Rust program", program_run),
                    ("scipy Radau", scipy_run)]
            for k, (label, run) in enumerate(rows):
                counts = (f"{run.steps:>6} {run.accepted:>8} {run.f_evals:>8} {run.lu:>6}"
                          if run.steps else f"{'':>6} {'':>8} {'':>8} {'':>6}")
                ratio = run.seconds / c_run.seconds
                print(f"{name if k == 0 else '':<11} {label:<12} {counts} "
                      f"{scaled(run.final, exact, args.rtol, problem):>9.2g} "
                      f"{run.seconds * 1e3:>10.3f}  {ratio:6.2f}x")
            same = (rust_run.steps, rust_run.accepted, rust_run.lu) == (c_run.steps, c_run.accepted, c_run.lu)
            verdicts.append((name, rust_run.seconds / c_run.seconds <= RUST_TARGET, same))
    print()
    for name, fast, same in verdicts:
        print(f"{name:<11} Rust FMU within {RUST_TARGET}x of the C FMU: {'yes' if fast else 'NO'};  "
              f"same steps and LU as C: {'yes' if same else 'NO'}")
    return 0 if all(fast for _, fast, _ in verdicts) else 1


if __name__ == "__main__":
    sys.exit(main())
