"""Work-precision of the FMU runtime's Radau IIA against CVODE (SUNDIALS BDF) and scipy's
Radau on four stiff problems, rtol 1e-3 ... 1e-10.

Each point integrates a problem from its start to its stop time: our FMU (compiled from
Modelica by cosim compile) with one Co-Simulation doStep; CVODE (the SUNDIALS 7 libraries of the
scikit-sundae wheel) driven from C (tools/cvode_fmu.c) on the Model Exchange interface of the
same FMU, with its dense solver and the model's analytic Jacobian, so that both integrate the
same compiled model code and neither pays for Python calls; scipy's solve_ivp(method='Radau')
with the analytic Jacobian in Python. All use rtol and atol = rtol * the states' nominals. A
point's time is the median of several runs, the solvers interleaved so that load on the
machine hits them alike, each the CPU seconds of the thread that integrates (wall time on a
shared machine counts other processes' turns; integration alone: instantiation and
initialization excluded); its
error is max_i |y_i - ref_i| / (|ref_i| + nominal_i) at the stop time, against a reference
computed by scipy's Radau at rtol 1e-12 (and checked against CVODE there).

Target (issue 19): at every rtol below 1e-4, less time than CVODE for the same or smaller
error.

    python tools/bench_work_precision.py [--repeats 7] [--png work_precision.png]

Needs the bench extra (pip install .[bench]): scikit-sundae and matplotlib.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from scipy.integrate import solve_ivp

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "src"), str(ROOT / "tools")]
from bench_radau import STATISTICS, integrate_once  # noqa: E402
from cvode_peer import CvodeOnFmu  # noqa: E402
from compiler import compile_fmu  # noqa: E402
from tests.runtime.problems import PROBLEMS, Problem  # noqa: E402

TOLERANCES = tuple(10.0 ** -k for k in range(3, 11))
TARGET_BELOW = 1e-4   # where we must beat CVODE
MODELICA = ROOT / "tests" / "runtime" / "fixtures" / "modelica"
OREGONATOR_MODEL = """model Oregonator "Field-Noyes model of the Belousov-Zhabotinsky reaction (Hairer-Wanner II)"
  parameter Real s = 77.27;
  parameter Real q = 8.375e-6;
  parameter Real w = 0.161;
  Real y1(start = 1, fixed = true);
  Real y2(start = 2, fixed = true);
  Real y3(start = 3, fixed = true);
equation
  der(y1) = s*(y2 + y1*(1 - q*y1 - y2));
  der(y2) = (y3 - (1 + y1)*y2)/s;
  der(y3) = w*(y1 - y3);
  annotation(experiment(StopTime = 360, Tolerance = 1e-6));
end Oregonator;
"""


def oregonator(t, y):
    s, q, w = 77.27, 8.375e-6, 0.161
    return [s * (y[1] + y[0] * (1 - q * y[0] - y[1])), (y[2] - (1 + y[0]) * y[1]) / s, w * (y[0] - y[2])]


def oregonator_jacobian(t, y):
    s, q, w = 77.27, 8.375e-6, 0.161
    return [[s * (1 - 2 * q * y[0] - y[1]), s * (1 - y[0]), 0.0],
            [-y[1] / s, -(1 + y[0]) / s, 1 / s],
            [w, 0.0, -w]]


ALL_PROBLEMS = {
    "Robertson": PROBLEMS["Robertson"],
    "VanDerPol": PROBLEMS["VanDerPol"],
    "Hires": PROBLEMS["Hires"],
    "Oregonator": Problem(oregonator, oregonator_jacobian, (1.0, 2.0, 3.0), np.array([0.0, 360.0]),
                          np.ones(3), ("y1", "y2", "y3")),
}


@dataclass
class Point:
    seconds: float
    error: float
    work: str          # steps, f, LU as the solver reports them


def scaled_error(final, reference, problem: Problem) -> float:
    final, reference = np.asarray(final, dtype=float), np.asarray(reference, dtype=float)
    return float(np.max(np.abs(final - reference) / (np.abs(reference) + problem.atol_scale)))


class Solvers:
    """The three solvers on one problem: each ``run(rtol, counting)`` -> (seconds, final, work)."""

    def __init__(self, problem: Problem, fmu: Path):
        self.problem, self.fmu = problem, fmu
        self.span = (float(problem.grid[0]), float(problem.grid[-1]))
        self.cvode_on_fmu = CvodeOnFmu(fmu, problem.state_names)
        self.runners: dict[float, object] = {}

    def ours(self, rtol: float, counting: bool = False):
        if rtol not in self.runners:
            self.runners[rtol] = integrate_once(self.fmu, self.problem, rtol, {})
        seconds, final, messages = self.runners[rtol](counting)
        work = ""
        if counting:
            steps, _, _, f_evals, jacobians, lu = map(int, STATISTICS.search(messages[-1].decode()).groups())
            work = f"{steps} steps {f_evals} f {lu} LU"
        return seconds, final, work

    def cvode(self, rtol: float, counting: bool = False):
        run = self.cvode_on_fmu.run(*self.span, rtol, rtol * self.problem.atol_scale)
        return run.seconds, run.final, f"{run.steps} steps {run.f_evals} f {run.lu} LU"

    def scipy(self, rtol: float, counting: bool = False):
        started = time.thread_time()
        solution = solve_ivp(self.problem.rhs, self.span, self.problem.y0, method="Radau",
                             jac=self.problem.jacobian, rtol=rtol, atol=rtol * self.problem.atol_scale)
        seconds = time.thread_time() - started
        return seconds, solution.y[:, -1], f"{len(solution.t) - 1} steps {solution.nfev} f {solution.nlu} LU"


def reference(problem: Problem, solvers: Solvers) -> np.ndarray:
    """scipy's Radau at rtol 1e-12, checked against CVODE there."""
    radau = solve_ivp(problem.rhs, solvers.span, problem.y0, method="Radau", jac=problem.jacobian,
                      rtol=1e-12, atol=1e-12 * problem.atol_scale).y[:, -1]
    _, bdf, _ = solvers.cvode(1e-12)
    assert scaled_error(bdf, radau, problem) < 1e-8, (radau, bdf)
    return radau


def measure(problem: Problem, fmu: Path, repeats: int) -> dict:
    """{solver: [Point per tolerance]} for one problem."""
    solvers = Solvers(problem, fmu)
    exact = reference(problem, solvers)
    runs = {"ours": solvers.ours, "CVODE": solvers.cvode, "scipy Radau": solvers.scipy}
    scipy_repeats = max(1, repeats // 3)   # seconds per run at tight tolerances
    points: dict[str, list[Point]] = {solver: [] for solver in runs}
    for rtol in TOLERANCES:
        times: dict[str, list[float]] = {solver: [] for solver in runs}
        for repeat in range(repeats):
            for solver, run in runs.items():
                if solver != "scipy Radau" or repeat < scipy_repeats:
                    times[solver].append(run(rtol)[0])
        for solver, run in runs.items():
            _, final, work = run(rtol, True)
            points[solver].append(Point(statistics.median(times[solver]), scaled_error(final, exact, problem), work))
    return points


def compiled_fmus(directory: Path) -> dict[str, Path]:
    (directory / "Oregonator.mo").write_text(OREGONATOR_MODEL)
    sources = {name: MODELICA / f"{name}.mo" for name in ("Robertson", "VanDerPol", "Hires")}
    sources["Oregonator"] = directory / "Oregonator.mo"
    return {name: compile_fmu(path, output=directory / f"{name}.fmu", environ={}) for name, path in sources.items()}


def time_for_error(points: list[Point], error: float) -> float | None:
    """Our shortest time among the points at least as accurate as ``error`` (None: none is)."""
    times = [p.seconds for p in points if p.error <= error]
    return min(times) if times else None


def print_table(name: str, points: dict) -> list[str]:
    """The rows of one problem; returns the tolerances below TARGET_BELOW where we lose.

    A row compares the solvers at one rtol, and CVODE's point with our fastest point of the
    same or smaller error (``ours at CVODE's error``): a work-precision comparison, which does
    not depend on how each solver reads the tolerance."""
    print(f"\n{name}")
    header = (f"{'rtol':>7} | {'ours ms':>8} {'error':>8} | {'CVODE ms':>8} {'error':>8} | "
              f"{'scipy ms':>9} {'error':>8} | {'ours at CVODE error':>19} {'CVODE/ours':>10} | "
              f"work: ours; CVODE")
    print(header)
    print("-" * len(header))
    losses = []
    for k, rtol in enumerate(TOLERANCES):
        ours, cvode, scipy = (points[s][k] for s in ("ours", "CVODE", "scipy Radau"))
        matched = time_for_error(points["ours"], cvode.error)
        ratio = cvode.seconds / matched if matched else 0.0
        flag = "" if rtol >= TARGET_BELOW or ratio >= 1.0 else "  <- loses"
        if flag:
            losses.append(f"{name} at rtol {rtol:.0e}")
        matched_text = f"{matched * 1e3:.3f} ms" if matched else "no point"
        print(f"{rtol:>7.0e} | {ours.seconds * 1e3:>8.3f} {ours.error:>8.1e} | {cvode.seconds * 1e3:>8.3f} "
              f"{cvode.error:>8.1e} | {scipy.seconds * 1e3:>9.2f} {scipy.error:>8.1e} | {matched_text:>19} "
              f"{ratio:>10.2f} | {ours.work}; {cvode.work}{flag}")
    return losses


def plot(results: dict, path: Path) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    figure, axes = plt.subplots(2, 2, figsize=(11, 8.5))
    for ax, (name, points) in zip(axes.flat, results.items()):
        for solver, style in (("ours", "o-"), ("CVODE", "s-"), ("scipy Radau", "^-")):
            errors = [max(p.error, 1e-16) for p in points[solver]]
            ax.loglog([p.seconds * 1e3 for p in points[solver]], errors, style, label=solver)
        ax.set_title(name)
        ax.set_xlabel("time [ms]")
        ax.set_ylabel("error at the stop time")
        ax.grid(True, which="both", alpha=0.3)
    axes.flat[0].legend(fontsize=8)
    figure.suptitle("work-precision, rtol 1e-3 ... 1e-10 (one point per rtol)")
    figure.tight_layout()
    figure.savefig(path, dpi=110)


def main(argv: list[str] | None = None) -> int:
    import os
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--png", type=Path, default=Path("work_precision.png"))
    parser.add_argument("--problems", nargs="+", default=list(ALL_PROBLEMS))
    args = parser.parse_args(argv)
    print(f"load average at start: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores; "
          f"median of {args.repeats} interleaved runs (scipy: {max(1, args.repeats // 3)})")
    print("error: max |y - ref| / (|ref| + nominal) at the stop time; ref: scipy Radau at rtol 1e-12")
    results, losses = {}, []
    with tempfile.TemporaryDirectory() as directory:
        fmus = compiled_fmus(Path(directory))
        for name in args.problems:
            problem = ALL_PROBLEMS[name]
            results[name] = measure(problem, fmus[name], args.repeats)
            losses += print_table(name, results[name])
    plot(results, args.png)
    print(f"\nload average at end: {os.getloadavg()[0]:.2f}; diagram: {args.png}")
    print(f"target: less time than CVODE for the same or smaller error, CVODE below rtol {TARGET_BELOW:.0e}: "
          f"{'met' if not losses else 'MISSED at ' + ', '.join(losses)}")
    return 1 if losses else 0


if __name__ == "__main__":
    sys.exit(main())
