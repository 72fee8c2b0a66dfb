"""Radau IIA in the FMU runtime against scipy's Radau on four stiff problems.

Each problem is packaged as an FMU from its hand-written C (tests/runtime/fixtures) and run in
Co-Simulation with one doStep from start to stop time; scipy's solve_ivp(method='Radau')
integrates the same equations with the same rtol/atol and the analytic Jacobian. Both are
timed in this run (best of several repeats) and checked against the stored references.

    python tools/bench_radau.py [--rtol 1e-6] [--repeats 5]
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


def run_fmu(path: Path, problem: Problem, rtol: float, start_values: dict[str, float], repeats: int) -> Run:
    """Timed runs without logging, then one with the logIntegrator statistics."""
    description = read_model_description(path)
    unzipped = extract(path)
    variables = {v.name: v.valueReference for v in description.modelVariables}
    best, messages = float("inf"), []
    for repeat in range(repeats + 1):
        counting = repeat == repeats
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
        started = time.perf_counter()
        fmu.doStep(currentCommunicationPoint=t0, communicationStepSize=t1 - t0)
        if not counting:
            best = min(best, time.perf_counter() - started)
        final = np.array(fmu.getFloat64([variables[n] for n in problem.state_names]))
        fmu.terminate()
        fmu.freeInstance()
    steps, accepted, _, f_evals, _, lu = map(int, STATISTICS.search(messages[-1].decode()).groups())
    return Run(best, steps, accepted, f_evals, lu, final)


def run_scipy(problem: Problem, rtol: float, repeats: int) -> Run:
    best, solution = float("inf"), None
    for _ in range(repeats):
        started = time.perf_counter()
        solution = solve_ivp(problem.rhs, (problem.grid[0], problem.grid[-1]), problem.y0, method="Radau",
                             jac=problem.jacobian, rtol=rtol, atol=rtol * problem.atol_scale)
        best = min(best, time.perf_counter() - started)
    accepted = len(solution.t) - 1
    return Run(best, accepted, accepted, solution.nfev, solution.nlu, solution.y[:, -1])


def scaled(final: np.ndarray, exact: np.ndarray, rtol: float, problem: Problem) -> float:
    return float(np.max(np.abs(final - exact) / (rtol * np.abs(exact) + rtol * problem.atol_scale)))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rtol", type=float, default=1e-6)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args(argv)
    cases = [("Dahlquist", *dahlquist_problem(), {"k": DAHLQUIST_K})]
    cases += [(name, PROBLEMS[name], references(name)[-1, 1:], {}) for name in ("VanDerPol", "Robertson", "Hires")]
    print(f"rtol = {args.rtol:g}, atol = rtol * nominal; one doStep over the whole interval; "
          f"best of {args.repeats}; error: max |y - y_ref| / (rtol |y_ref| + atol) at the stop time")
    header = (f"{'problem':<10} {'':<6} {'steps':>6} {'accepted':>8} {'f-evals':>8} {'LU':>6} "
              f"{'error':>9} {'time [ms]':>10} {'speed-up':>9}")
    print(header)
    print("-" * len(header))
    verdicts = []
    with tempfile.TemporaryDirectory() as directory:
        for name, problem, exact, start_values in cases:
            ours = run_fmu(build(name, directory), problem, args.rtol, start_values, args.repeats)
            scipy = run_scipy(problem, args.rtol, max(1, args.repeats // 2))
            ratio = scipy.seconds / ours.seconds
            for label, run, speed in (("radau5", ours, f"{ratio:8.0f}x"), ("scipy", scipy, "")):
                print(f"{name if label == 'radau5' else '':<10} {label:<6} {run.steps:>6} {run.accepted:>8} "
                      f"{run.f_evals:>8} {run.lu:>6} {scaled(run.final, exact, args.rtol, problem):>9.2g} "
                      f"{run.seconds * 1e3:>10.3f} {speed:>9}")
            verdicts.append((name, ratio >= 200, ours.steps <= scipy.steps))
    print()
    for name, fast, few in verdicts:
        print(f"{name:<10} >= 200x faster: {'yes' if fast else 'NO'};  "
              f"no more steps than scipy: {'yes' if few else 'NO'}")
    return 0 if all(fast and few for _, fast, few in verdicts) else 1


if __name__ == "__main__":
    sys.exit(main())
