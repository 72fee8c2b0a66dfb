"""Radau IIA in the FMU runtime against scipy's Radau on four stiff problems.

Each problem is packaged as an FMU from its hand-written C (tests/runtime/fixtures) and
compiled from its Modelica model (tests/runtime/fixtures/modelica), and both FMUs run in
Co-Simulation with one doStep from start to stop time; scipy's solve_ivp(method='Radau')
integrates the same equations with the same rtol/atol and the analytic Jacobian. All three are
timed in this run (best of several repeats; CPU seconds of the thread that integrates, which
the load of a shared machine does not inflate as it does wall time) and checked against the
stored references.
Targets: compiled within 1.2x of hand-written C with the same step and LU counts, and at
least 200x faster than scipy.

    python tools/bench_radau.py [--rtol 1e-6] [--repeats 15]
"""
from __future__ import annotations

import argparse
import re
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from fmpy import extract, read_model_description
from fmpy.fmi3 import FMU3Slave
from scipy.integrate import solve_ivp

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "src")]
from tests.runtime.drive import references  # noqa: E402
from tests.runtime.fixtures import build  # noqa: E402
from tests.runtime.problems import PROBLEMS, Problem  # noqa: E402
from compiler import compile_fmu  # noqa: E402

MODELICA = ROOT / "tests" / "runtime" / "fixtures" / "modelica"
COMPILED_TARGET = 1.2  # compiled time / hand-written time
SCIPY_TARGET = 200.0   # scipy time / compiled time

DAHLQUIST_K = 1e4  # makes x' = -k x stiff on [0, 10]
STATISTICS = re.compile(r"(\d+) steps \((\d+) accepted, (\d+) rejected\), (\d+) f, (\d+) Jacobians, (\d+) LU")


@dataclass
class Run:
    seconds: float
    steps: int       # attempted (ours) / accepted (scipy reports no rejections)
    accepted: int
    f_evals: int
    lu: int
    final: np.ndarray


def dahlquist_problem() -> tuple[Problem, np.ndarray]:
    problem = Problem(lambda t, x: [-DAHLQUIST_K * x[0]], lambda t, x: [[-DAHLQUIST_K]], (1.0,),
                      np.array([0.0, 10.0]), np.ones(1), ("x",))
    return problem, np.array([np.exp(-DAHLQUIST_K * 10.0)])


def integrate_once(path: Path, problem: Problem, rtol: float, start_values: dict[str, float]):
    """A function ``once(counting) -> (seconds, final states, log messages)`` that instantiates
    the FMU, integrates it with one doStep and frees it (``counting``: with logIntegrator)."""
    description = read_model_description(path)
    unzipped = extract(path)
    variables = {v.name: v.valueReference for v in description.modelVariables}

    def once(counting: bool):
        messages = []
        fmu = FMU3Slave(guid=description.guid, unzipDirectory=unzipped,
                        modelIdentifier=description.coSimulation.modelIdentifier, instanceName="bench")
        fmu.instantiate(loggingOn=counting, logMessage=lambda env, status, category, message: messages.append(message))
        if counting:
            fmu.setDebugLogging(True, ["logIntegrator"])
        for name, value in start_values.items():
            fmu.setFloat64([variables[name]], [value])
        t0, t1 = problem.grid[0], problem.grid[-1]
        fmu.enterInitializationMode(tolerance=rtol, startTime=t0, stopTime=t1)
        fmu.exitInitializationMode()
        started = time.thread_time()
        fmu.doStep(currentCommunicationPoint=t0, communicationStepSize=t1 - t0)
        seconds = time.thread_time() - started
        final = np.array(fmu.getFloat64([variables[n] for n in problem.state_names]))
        fmu.terminate()
        fmu.freeInstance()
        return seconds, final, messages

    return once


def run_fmus(paths: list[Path], problem: Problem, rtol: float, start_values: dict[str, float],
             repeats: int) -> list[Run]:
    """Timed runs of the FMUs in turn (so that load on the machine hits them alike), the best
    of ``repeats`` each, then one run each with the logIntegrator statistics."""
    runners = [integrate_once(path, problem, rtol, start_values) for path in paths]
    best = [float("inf")] * len(paths)
    for _ in range(repeats):
        for k, once in enumerate(runners):
            best[k] = min(best[k], once(False)[0])
    runs = []
    for seconds, once in zip(best, runners):
        _, final, messages = once(True)
        steps, accepted, _, f_evals, _, lu = map(int, STATISTICS.search(messages[-1].decode()).groups())
        runs.append(Run(seconds, steps, accepted, f_evals, lu, final))
    return runs


def run_scipy(problem: Problem, rtol: float, repeats: int) -> Run:
    best, solution = float("inf"), None
    for _ in range(repeats):
        started = time.thread_time()
        solution = solve_ivp(problem.rhs, (problem.grid[0], problem.grid[-1]), problem.y0, method="Radau",
                             jac=problem.jacobian, rtol=rtol, atol=rtol * problem.atol_scale)
        best = min(best, time.thread_time() - started)
    accepted = len(solution.t) - 1
    return Run(best, accepted, accepted, solution.nfev, solution.nlu, solution.y[:, -1])


def scaled(final: np.ndarray, exact: np.ndarray, rtol: float, problem: Problem) -> float:
    return float(np.max(np.abs(final - exact) / (rtol * np.abs(exact) + rtol * problem.atol_scale)))


def compiled(name: str, directory: str) -> Path:
    """The FMU compiled from ``<name>.mo`` (through the compiler's cache)."""
    return compile_fmu(MODELICA / f"{name}.mo", output=Path(directory) / "compiled" / f"{name}.fmu",
                       environ={})


def print_row(name: str, label: str, run: Run, exact, rtol: float, problem: Problem, note: str) -> None:
    print(f"{name:<10} {label:<9} {run.steps:>6} {run.accepted:>8} {run.f_evals:>8} {run.lu:>6} "
          f"{scaled(run.final, exact, rtol, problem):>9.2g} {run.seconds * 1e3:>10.3f} {note}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rtol", type=float, default=1e-6)
    parser.add_argument("--repeats", type=int, default=15)
    args = parser.parse_args(argv)
    cases = [("Dahlquist", *dahlquist_problem(), {"k": DAHLQUIST_K})]
    cases += [(name, PROBLEMS[name], references(name)[-1, 1:], {}) for name in ("VanDerPol", "Robertson", "Hires")]
    print(f"rtol = {args.rtol:g}, atol = rtol * nominal; one doStep over the whole interval; "
          f"best of {args.repeats}; error: max |y - y_ref| / (rtol |y_ref| + atol) at the stop time")
    print("C: hand-written C (tests/runtime/fixtures); compiled: from Modelica by cosim compile")
    header = (f"{'problem':<10} {'':<9} {'steps':>6} {'accepted':>8} {'f-evals':>8} {'LU':>6} "
              f"{'error':>9} {'time [ms]':>10} {'ratio':>6}")
    print(header)
    print("-" * len(header))
    verdicts = []
    with tempfile.TemporaryDirectory() as directory:
        for name, problem, exact, start_values in cases:
            hand, ours = run_fmus([build(name, directory), compiled(name, directory)], problem,
                                  args.rtol, start_values, args.repeats)
            scipy = run_scipy(problem, args.rtol, max(1, args.repeats // 2))
            slowdown, speedup = ours.seconds / hand.seconds, scipy.seconds / ours.seconds
            print_row(name, "radau5 C", hand, exact, args.rtol, problem, "")
            print_row("", "compiled", ours, exact, args.rtol, problem, f"{slowdown:6.2f}x the C time")
            print_row("", "scipy", scipy, exact, args.rtol, problem, f"{speedup:6.0f}x the compiled time")
            same = (ours.steps, ours.accepted, ours.lu) == (hand.steps, hand.accepted, hand.lu)
            verdicts.append((name, slowdown <= COMPILED_TARGET, same, speedup >= SCIPY_TARGET,
                             ours.steps <= scipy.steps))
    print()
    checks = (f"compiled within {COMPILED_TARGET}x of C", "same steps and LU as C",
              f">= {SCIPY_TARGET:.0f}x faster than scipy", "no more steps than scipy")
    for name, *passed in verdicts:
        print(f"{name:<10} " + ";  ".join(f"{check}: {'yes' if ok else 'NO'}"
                                          for check, ok in zip(checks, passed)))
    return 0 if all(all(passed) for _, *passed in verdicts) else 1


if __name__ == "__main__":
    sys.exit(main())
