"""The Modelica Reference FMUs (v0.0.41) through cosim: build them from their source tree,
run every FMU in every interface it offers, and compare with the reference results.

    python tools/reference_fmus.py /path/to/Reference-FMUs [--build DIR]

prints one line per FMU and interface. What counts as a match:

- Co-Simulation, and Model Exchange of the discrete models (Feedthrough, Resource, Stair): the
  same numbers as ``<Model>/<Model>_out.csv`` at every row (those files are the Co-Simulation
  results of the FMUs' own fixed-step solvers).
- Model Exchange of the continuous models: within ``ME_TOLERANCE`` (relative to the signal's
  range) of the exact solution (analytic, or scipy at rtol 1e-11), and no farther from it than
  ``_out.csv`` is; fmpy's Model Exchange (CVode) error is shown beside.
- Clocks (Scheduled Execution only): its counters equal those of the Reference FMUs' own
  ``scs_synchronous`` example, built with the FMUs.
- Roberts: its ``_out.csv`` in v0.0.41 is a copy of BouncingBall's (``time,h,v``), so both
  interfaces are compared with scipy's solution of the Robertson problem instead.

The build needs cmake and gcc; ``-Wno-error=stringop-truncation`` lets Resource compile with
gcc 13 or newer (the sources build with ``-Werror``).
"""
from __future__ import annotations

import argparse
import csv
import math
import subprocess
from dataclasses import dataclass
from pathlib import Path

import numpy as np

FMI3_MODELS = ("BouncingBall", "Clocks", "Dahlquist", "Feedthrough", "Resource", "Roberts",
               "Stair", "StateSpace", "VanDerPol")
FMI2_MODELS = ("BouncingBall", "Dahlquist", "Feedthrough", "Resource", "Stair", "VanDerPol")
DISCRETE = ("Feedthrough", "Resource", "Stair")
ME_TOLERANCE = 1e-5        # of a signal's range, against the exact solution
ME_SOLVER_TOLERANCE = 1e-9
C_FLAGS = "-Wno-error=stringop-truncation"
CLOCK_TRIGGERS = "time,inClock2\n0,1\n1,1\n8,1\n9,1\n"  # as scs_synchronous triggers inClock2


@dataclass(frozen=True)
class Build:
    source: Path
    fmi3: Path           # folder of the FMI 3.0 .fmu files
    fmi2: Path
    clocks_reference: Path  # scs_synchronous_out.csv

    def fmu(self, version: int, model: str) -> Path:
        return (self.fmi3 if version == 3 else self.fmi2) / f"{model}.fmu"


def build(source: Path, target: Path) -> Build:
    """Build both FMI versions (and the Scheduled Execution example) under ``target``."""
    for version, models in ((3, FMI3_MODELS), (2, FMI2_MODELS)):
        folder = target / f"fmi{version}"
        folder.mkdir(parents=True, exist_ok=True)
        _run(["cmake", f"-DFMI_VERSION={version}", "-DCMAKE_BUILD_TYPE=Release",
              f"-DCMAKE_C_FLAGS={C_FLAGS}", str(source)], folder)
        targets = list(models) + (["scs_synchronous"] if version == 3 else [])
        _run(["cmake", "--build", ".", "-j2", "--target", *targets], folder)
    example = target / "fmi3" / "temp"
    _run([str(example / "scs_synchronous")], example)
    return Build(source, target / "fmi3" / "fmus", target / "fmi2" / "fmus",
                 example / "scs_synchronous_out.csv")


def _run(command, folder: Path) -> None:
    done = subprocess.run(command, cwd=folder, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} failed in {folder}:\n{done.stdout[-2000:]}"
                           f"\n{done.stderr[-2000:]}")


def read_table(path: Path) -> tuple[list[str], list[list[str]]]:
    with open(path, newline="") as file:
        rows = [row for row in csv.reader(file) if row]
    return rows[0], rows[1:]


# --- exact solutions ------------------------------------------------------------------------

def bouncing_ball(t: np.ndarray, g=9.81, e=0.7, v_min=0.1) -> dict[str, np.ndarray]:
    """h, v of a ball from h = 1 at rest, bouncing with v -> -e v until |v| < v_min."""
    events = [0.0]
    speeds = [0.0]
    t_hit, v = math.sqrt(2 / g), math.sqrt(2 * g)
    while True:
        events.append(t_hit)
        v *= e
        if v < v_min:
            speeds.append(0.0)
            break
        speeds.append(v)
        t_hit += 2 * v / g
    h, vel = np.empty(len(t)), np.empty(len(t))
    for k, time in enumerate(t):
        i = np.searchsorted(events, time, side="right") - 1
        tau = time - events[i]
        if i == 0:
            h[k], vel[k] = 1 - g * tau * tau / 2, -g * tau
        elif speeds[i] == 0.0:
            h[k], vel[k] = 0.0, 0.0
        else:
            h[k], vel[k] = speeds[i] * tau - g * tau * tau / 2, speeds[i] - g * tau
    return {"h": h, "v": vel}


def _scipy(f, y0, t, method="Radau") -> np.ndarray:
    from scipy.integrate import solve_ivp

    solution = solve_ivp(f, (t[0], t[-1]), y0, method=method, t_eval=t, rtol=1e-11,
                         atol=1e-14)
    return solution.y


def truth(model: str, t: np.ndarray) -> dict[str, np.ndarray]:
    """The exact outputs of a continuous model at times ``t``."""
    if model == "BouncingBall":
        return bouncing_ball(t)
    if model == "Dahlquist":
        return {"x": np.exp(-t)}
    if model == "StateSpace":
        return {f"y[{j}]": j * np.exp(t) for j in (1, 2, 3)}
    if model == "VanDerPol":
        y = _scipy(lambda _, x: [x[1], (1 - x[0] ** 2) * x[1] - x[0]], [2.0, 0.0], t)
        return {"x0": y[0], "x1": y[1]}
    if model == "Roberts":
        def robertson(_, y):
            return [-0.04 * y[0] + 1e4 * y[1] * y[2],
                    0.04 * y[0] - 1e4 * y[1] * y[2] - 3e7 * y[1] ** 2, 3e7 * y[1] ** 2]
        y = _scipy(robertson, [1.0, 0.0, 0.0], t, "BDF")
        return {"y1": y[0], "y2": y[1], "y3": y[2]}
    raise KeyError(model)


# --- runs and comparisons ---------------------------------------------------------------------

@dataclass(frozen=True)
class Outcome:
    version: int
    model: str
    interface: str
    criterion: str          # what was compared
    matches: bool
    ours: float             # largest difference (identical: 0), or error vs the truth
    reference: float | None = None  # _out.csv's error vs the truth
    fmpy: float | None = None       # fmpy's error vs the truth (Model Exchange)
    rows: int = 0

    def line(self) -> str:
        extra = ""
        if self.reference is not None:
            extra = f"; _out.csv {self.reference:.2e}"
        if self.fmpy is not None:
            extra += f"; fmpy {self.fmpy:.2e}"
        verdict = "match" if self.matches else "NO MATCH"
        return (f"FMI {self.version} {self.model:<13} {self.interface.upper():<3} {verdict:<8} "
                f"{self.criterion}: {self.ours:.2e}{extra} ({self.rows} rows)")


def _our_columns(values: np.ndarray, prefix: str, name: str) -> list[str]:
    exact = f"{prefix}.{name}"
    return [c for c in values.dtype.names if c == exact or c.startswith(exact + "[")]


def _number(text: str) -> float:
    return float(text == "true") if text in ("true", "false") else float(text)


def table_difference(values: np.ndarray, prefix: str, header, rows) -> tuple[float, int]:
    """The largest difference between our result and a reference table, row by row (texts
    must be equal); the number of rows compared."""
    worst = 0.0
    for j, name in enumerate(header[1:], start=1):
        columns = _our_columns(values, prefix, name)
        if not columns:
            continue  # the FMI 2.0 Feedthrough lacks the FMI 3.0 types of the shared table
        for i, row in enumerate(rows):
            fields = row[j].split() if len(columns) > 1 else [row[j]]
            for column, field in zip(columns, fields):
                ours = values[column][i]
                if isinstance(ours, (str, bytes)):
                    text = ours.hex() if isinstance(ours, bytes) else ours
                    worst = max(worst, 0.0 if text == field else math.inf)
                else:
                    worst = max(worst, abs(float(ours) - _number(field)))
    return worst, len(rows)


def _range_error(values: dict, exact: dict, mask=None) -> float:
    worst = 0.0
    for name, expected in exact.items():
        got = values[name]
        keep = slice(None) if mask is None else mask
        scale = max(np.ptp(expected[keep]), 1e-12)
        worst = max(worst, float(np.max(np.abs(got[keep] - expected[keep])) / scale))
    return worst


def run_cosim(fmu: Path, interface: str, start: float, stop: float, step: float, **settings):
    from cosim import api

    return api.run(fmu, interface=interface, start_time=start, stop_time=stop, step_size=step,
                   event_rows=False, tolerance=ME_SOLVER_TOLERANCE, **settings).values


def _grid(rows) -> tuple[float, float, float]:
    t = [float(r[0]) for r in rows]
    return t[0], t[-1], (t[1] - t[0]) if len(t) > 1 else t[-1] - t[0] or 1.0


def check_table(build_: Build, version: int, model: str, interface: str) -> Outcome:
    """Our result equals ``_out.csv`` at every row."""
    header, rows = read_table(build_.source / model / f"{model}_out.csv")
    start, stop, step = _grid(rows)
    if len(rows) == 2:  # Resource: one step from 0 to 1
        step = stop - start
    values = run_cosim(build_.fmu(version, model), interface, start, stop, step)
    difference, n = table_difference(values, model, header, rows[:len(values)])
    matches = difference == 0.0 and len(values) == len(rows)
    return Outcome(version, model, interface, "largest difference to _out.csv", matches,
                   difference, rows=n)


def _fmpy_error(fmu: Path, t: np.ndarray, exact: dict, start: float) -> float | None:
    from fmpy import simulate_fmu

    try:
        theirs = simulate_fmu(str(fmu), fmi_type="ModelExchange", start_time=start,
                              stop_time=float(t[-1]), output_interval=float(t[1] - t[0]),
                              output=[n.split("[")[0] for n in exact])
    except Exception:  # fmpy fails on some FMUs: no number then
        return None
    theirs = _on_grid(theirs, t)
    if theirs is None:
        return None
    values = {}
    for name in exact:
        base, _, index = name.partition("[")
        values[name] = theirs[base][:, int(index[:-1]) - 1] if index else theirs[base]
    return _range_error(values, exact)


def _table_columns(header, rows, names) -> dict[str, np.ndarray]:
    """Columns ``x`` or elements ``y[2]`` (of a field ``1 2 3``) of a reference table."""
    columns = {}
    for name in names:
        base, _, index = name.partition("[")
        j = header.index(base)
        k = int(index[:-1]) - 1 if index else 0
        columns[name] = np.array([float(row[j].split()[k]) for row in rows])
    return columns


def _on_grid(table: np.ndarray, t: np.ndarray) -> np.ndarray | None:
    """fmpy's rows at the times ``t`` (at an event time it has two: the one after it)."""
    keep = [int(np.flatnonzero(np.isclose(table["time"], time, rtol=0, atol=1e-9))[-1])
            for time in t if np.any(np.isclose(table["time"], time, rtol=0, atol=1e-9))]
    return table[keep] if len(keep) == len(t) else None


def check_truth(build_: Build, version: int, model: str, interface: str, grid=None) -> Outcome:
    """Our result against the exact solution, and _out.csv's and fmpy's errors beside it."""
    fmu = build_.fmu(version, model)
    reference_rows = None
    if grid is None:
        header, reference_rows = read_table(build_.source / model / f"{model}_out.csv")
        grid = _grid(reference_rows)
    start, stop, step = grid
    values = run_cosim(fmu, interface, start, stop, step)
    t = values["time"]
    exact = truth(model, t)
    ours = _range_error({n: values[f"{model}.{n}"] for n in exact}, exact)
    reference = None
    if reference_rows is not None and len(reference_rows) == len(t):
        reference = _range_error(_table_columns(header, reference_rows, exact), exact)
    fmpy_error = _fmpy_error(fmu, t, exact, start) if interface == "me" else None
    matches = ours <= ME_TOLERANCE if interface == "me" else ours <= ME_TOLERANCE * 10
    if reference is not None and interface == "me":
        matches = matches and ours <= reference + 1e-12
    return Outcome(version, model, interface, "error vs the exact solution", matches, ours,
                   reference, fmpy_error, len(t))


def check_clocks(build_: Build, work: Path) -> Outcome:
    """Clocks in Scheduled Execution: its counters equal scs_synchronous's."""
    from cosim import api

    triggers = work / "Clocks_in.csv"
    triggers.write_text(CLOCK_TRIGGERS)
    values = api.run(build_.fmu(3, "Clocks"), input=triggers, stop_time=10, step_size=1).values
    header, rows = read_table(build_.clocks_reference)
    difference, n = table_difference(values, "Clocks", header, rows)
    return Outcome(3, "Clocks", "se", "largest difference to scs_synchronous_out.csv",
                   difference == 0.0, difference, rows=n)


ROBERTS_CS = (1e-5, 1.0, 1e-2)        # its CS steps a fixed 1e-3 internally: to 1 s
ROBERTS_ME = (1e-5, 4e5, 1e3)          # Radau to 4e5 s, where y3 approaches 1


def cases() -> list[tuple[int, str, str]]:
    """(FMI version, model, interface) of every run: each interface each FMU offers."""
    found = [(3, "Clocks", "se")]
    for version, models in ((3, FMI3_MODELS), (2, FMI2_MODELS)):
        found += [(version, m, i) for m in models if m != "Clocks" for i in ("cs", "me")]
    return found


def check(build_: Build, version: int, model: str, interface: str, work: Path) -> Outcome:
    if model == "Clocks":
        return check_clocks(build_, work)
    if model == "Roberts":
        return check_truth(build_, version, model, interface,
                           ROBERTS_CS if interface == "cs" else ROBERTS_ME)
    if interface == "cs" or model in DISCRETE:
        return check_table(build_, version, model, interface)
    return check_truth(build_, version, model, interface)


def main(argv=None) -> int:
    import tempfile

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("source", type=Path, help="the Reference-FMUs source tree")
    parser.add_argument("--build", type=Path, help="build folder (default: a temporary one)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as temporary:
        target = args.build or Path(temporary)
        built = build(args.source.resolve(), target.resolve())
        outcomes = [check(built, *case, Path(temporary)) for case in cases()]
    for outcome in outcomes:
        print(outcome.line())
    print(f"{sum(o.matches for o in outcomes)}/{len(outcomes)} runs match")
    return 0 if all(o.matches for o in outcomes) else 1


if __name__ == "__main__":
    raise SystemExit(main())
