"""How cosim does on the Modelica Standard Library: check, run and compare every example.

Usage: python3 tools/msl_report.py MSL_DIR [REF_DIR] [--jobs N] [--only PREFIX ...]
       [--check-only] [--timeout S] [--json OUT.json] [--errors N]

MSL_DIR holds ``Modelica/``, ``ModelicaServices/`` and ``Complex.mo`` (an extracted MSL 4.1.0);
REF_DIR the MAP-LIB reference results (``Modelica/Blocks/Examples/PID_Controller/*.csv``...).
Every non-partial model with an ``experiment`` annotation is flattened (``cosim check``); those
that check are compiled and run to their StopTime, and where a reference exists each
comparison signal is compared with it (tools/msl_compare.py: within 2e-3 of its range, in a
small time tube). Prints a table per library (checked / ran / matched), the first errors
ranked by how many models they stop, and the totals.
"""
from __future__ import annotations

import argparse
import collections
import json
import multiprocessing
import os
import re
import signal
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT))

from tools.msl_compare import compare, read_reference, reference_folder  # noqa: E402

# Libraries whose examples need language features of other issues (MultiBody, Fluid, Media:
# overconstrained and stream connectors; Clocked: synchronous clocks): reported apart.
ELSEWHERE = ("Modelica.Mechanics.MultiBody", "Modelica.Fluid", "Modelica.Media",
             "Modelica.Clocked")
# Groups shown in the table: the second level, or the third under these packages
DEEPER = ("Modelica.Electrical", "Modelica.Mechanics", "Modelica.Thermal", "Modelica.Magnetic")


# ----------------------------------------------------------------------------- discovery
def _library(msl: Path):
    from compiler.library import Library
    library = Library()
    for location in (msl / "Modelica", msl / "ModelicaServices", msl / "Complex.mo"):
        library.add_path(location)
    return library


def _experiment(definition) -> bool:
    from compiler.lang import ast
    body = definition.body
    annotation = body.annotation if isinstance(body, ast.Composition) else definition.annotation
    return annotation is not None and any(
        isinstance(argument, ast.ElementMod) and argument.name == ("experiment",)
        for argument in annotation.arguments)


def discover(msl: Path) -> tuple[list[str], list[str]]:
    """Full names of the non-partial models, blocks and classes with an experiment, and the
    errors of the files that do not parse (their classes are not searched)."""
    from compiler.errors import CompilerError
    found, unreadable = [], []

    def visit(entry):
        try:
            definition = entry.definition
            entry.children()
        except CompilerError as error:
            unreadable.append(_one_line(error))
            return
        if definition.kind in ("model", "block", "class") and not definition.partial and \
                _experiment(definition):
            found.append(entry.full_name)
        for child in entry.children().values():
            visit(child)
    visit(_library(msl).root("Modelica"))
    return found, unreadable


def group_of(name: str) -> str:
    parts = name.split(".")
    depth = 3 if ".".join(parts[:2]) in DEEPER else 2
    return ".".join(parts[:depth])


# ------------------------------------------------------------------------------- workers
_WORKER: dict = {}


class _Timeout(Exception):
    pass


def _alarm(signum, frame):
    raise _Timeout()


def _init_worker(msl: str, cache: str) -> None:
    os.environ["COSIM_CACHE_DIR"] = cache
    _WORKER["msl"] = Path(msl)
    signal.signal(signal.SIGALRM, _alarm)


def _one_line(error: BaseException) -> str:
    text = str(error).strip().splitlines()
    return (text[0] if text else type(error).__name__)[:300]


def process(name: str, reference_root: str | None, check_only: bool, timeout: float) -> dict:
    """Check, run and compare one model; every failure is caught and described."""
    from compiler.errors import CompilerError
    from compiler.flatten import flatten
    result = {"model": name, "checked": False, "ran": False, "compared": None,
              "error": None, "stage": "check"}
    started = time.perf_counter()
    signal.alarm(int(timeout))
    try:
        # a fresh library per model: each model pays only for the classes it uses
        flat = flatten(_library(_WORKER["msl"]), name)
        result["checked"] = True
        result["check_seconds"] = round(time.perf_counter() - started, 2)
        if not check_only:
            result["stage"] = "compile"
            _run(flat, name, reference_root, result, timeout)
    except _Timeout:
        result["error"] = f"timeout: more than {timeout:g} s in {result['stage']}"
    except CompilerError as error:
        result["error"] = _one_line(error)
    except Exception as error:  # noqa: BLE001 - a report must go on past any failure
        result["error"] = f"internal error ({type(error).__name__}): {_one_line(error)}"
    finally:
        signal.alarm(0)
    result["seconds"] = round(time.perf_counter() - started, 2)
    return result


def _process_task(task: tuple) -> dict:
    return process(*task)


def _run(flat, name: str, reference_root, result: dict, timeout: float) -> None:
    import numpy as np
    from fmpy import read_model_description

    import cosim
    from compiler.codegen.naming import plain_identifier
    from compiler.compile import fmu_from_flat

    experiment = flat.experiment
    start = experiment.start_time or 0.0 if experiment else 0.0
    stop = experiment.stop_time if experiment and experiment.stop_time is not None else 1.0
    interval = experiment.interval if experiment and experiment.interval else (stop - start) / 500
    tolerance = experiment.tolerance if experiment and experiment.tolerance else None
    reference = None
    folder = reference_folder(Path(reference_root), name) if reference_root else None
    if folder is not None:
        reference = read_reference(folder)
        # compare like with like: the settings the reference was computed with
        settings = reference.experiment
        start = settings.get("StartTime", start)
        stop = settings.get("StopTime", stop)
        interval = settings.get("Interval", interval)
        tolerance = settings.get("Tolerance", tolerance)
    with tempfile.TemporaryDirectory(prefix="msl-report-") as work:
        identifier = plain_identifier(flat.name)  # a bare FMU's component is named so
        fmu = fmu_from_flat(flat, Path(work) / f"{identifier}.fmu")
        result["stage"] = "run"
        known = {variable.name for variable in read_model_description(str(fmu)).modelVariables}
        signals = [s for s in reference.signals if s in known] if reference else []
        if reference:
            result["missing_signals"] = [s for s in reference.signals if s not in known]
        # the run's own time limit, below the worker's alarm (which cannot stop C code)
        run = cosim.run(fmu, start_time=start, stop_time=stop, step_size=interval,
                        tolerance=tolerance, record=[f"{identifier}.{s}" for s in signals],
                        isolate=True, timeout=max(timeout - 5, 1))
    result["ran"] = True
    result["run_seconds"] = round(run.wall_time, 2)
    if reference is None:
        return
    result["stage"] = "compare"
    values = run.values
    columns = {s: np.asarray(values[f"{identifier}.{s}"], dtype=float) for s in signals}
    comparisons = compare(reference, np.asarray(values["time"], dtype=float), columns)
    worst = max(comparisons, key=lambda c: c.deviation) if comparisons else None
    result["compared"] = bool(comparisons) and not result["missing_signals"] and \
        all(c.matches for c in comparisons)
    if worst is not None:
        result["worst"] = {"signal": worst.signal, "deviation": round(worst.deviation, 3),
                           "time": worst.at_time}


# -------------------------------------------------------------------------------- report
def _error_kind(error: str) -> str:
    """An error without its file, line and names, so alike errors rank together."""
    text = re.sub(r"^\S+?:\d+:\d+: (error: )?", "", error)
    text = re.sub(r"'[^']*'", "'…'", text)
    return re.sub(r"\d+(\.\d+)?", "N", text)[:140]


def report(results: list[dict], errors: int) -> str:
    lines = []
    groups = collections.OrderedDict()
    for result in sorted(results, key=lambda r: r["model"]):
        groups.setdefault(group_of(result["model"]), []).append(result)
    header = f"{'library':42} {'models':>6} {'checked':>7} {'ran':>5} {'refs':>5} {'matched':>7}"
    for title, selection in (("in scope (issue 13)", lambda g: not g.startswith(ELSEWHERE)),
                             ("elsewhere (MultiBody, Fluid, Media, Clocked)",
                              lambda g: g.startswith(ELSEWHERE))):
        lines += ["", title, header, "-" * len(header)]
        totals = [0] * 5
        for group, members in groups.items():
            if not selection(group):
                continue
            row = [len(members), sum(r["checked"] for r in members),
                   sum(r["ran"] for r in members),
                   sum(r["compared"] is not None for r in members),
                   sum(bool(r["compared"]) for r in members)]
            totals = [a + b for a, b in zip(totals, row)]
            lines.append(f"{group:42} " + " ".join(f"{v:>{w}}" for v, w in
                                                    zip(row, (6, 7, 5, 5, 7))))
        lines.append(f"{'total':42} " + " ".join(f"{v:>{w}}" for v, w in
                                                  zip(totals, (6, 7, 5, 5, 7))))
    all_totals = [len(results), sum(r["checked"] for r in results),
                  sum(r["ran"] for r in results)]
    lines += ["", f"all {all_totals[0]} models: {all_totals[1]} check, {all_totals[2]} run"]
    ranked = collections.Counter(_error_kind(r["error"]) for r in results if r["error"])
    examples = {}
    for r in results:
        if r["error"]:
            examples.setdefault(_error_kind(r["error"]), r)
    lines += ["", f"first errors, ranked ({sum(ranked.values())} models stopped):"]
    for kind, count in ranked.most_common(errors):
        example = examples[kind]
        lines.append(f"{count:5}  {example['error'][:200]}  [{example['model']}]")
    mismatched = [r for r in results if r["compared"] is False]
    if mismatched:
        lines += ["", "ran but differ from the reference (worst signal, deviation in units of "
                  "the tolerance):"]
        for r in mismatched:
            worst = r.get("worst") or {}
            missing = r.get("missing_signals") or []
            detail = f"{worst.get('signal')} {worst.get('deviation')}x at t={worst.get('time')}" \
                if worst else ""
            if missing:
                detail += f" missing: {', '.join(missing[:3])}"
            lines.append(f"  {r['model']}: {detail}")
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("msl", type=Path)
    parser.add_argument("references", type=Path, nargs="?")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--only", nargs="*", default=(), help="model name prefixes")
    parser.add_argument("--check-only", action="store_true")
    parser.add_argument("--timeout", type=float, default=300, help="seconds per model")
    parser.add_argument("--json", type=Path, help="write every model's result here")
    parser.add_argument("--errors", type=int, default=30, help="error kinds listed")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    args.msl = args.msl.resolve()
    args.references = args.references.resolve() if args.references else None
    args.json = args.json.resolve() if args.json else None
    # examples write files relative to the working directory (Utilities.Examples writes
    # Test_RealMatrix_v4.mat, ReadRealMatrixFromFile reads it back): all run in one scratch
    # folder, as in a simulation tool's working directory, never in the caller's
    scratch = tempfile.TemporaryDirectory(prefix="msl-report-")
    os.chdir(scratch.name)
    names, unreadable = discover(args.msl)
    for error in unreadable:
        print(f"not searched: {error}")
    if args.only:
        names = [name for name in names if name.startswith(tuple(args.only))]
    print(f"{len(names)} models with an experiment annotation "
          f"(found in {time.perf_counter() - started:.1f} s)", file=sys.stderr)
    cache = os.environ.get("COSIM_CACHE_DIR") or str(Path.home() / ".cache" / "cosim")
    results = []
    references = str(args.references) if args.references else None
    tasks = [(name, references, args.check_only, args.timeout) for name in names]
    # multiprocessing.Pool, not ProcessPoolExecutor: the latter deadlocks on Python 3.11 when
    # it replaces workers (max_tasks_per_child); FMUs run isolated, so no worker crashes
    with multiprocessing.Pool(args.jobs, initializer=_init_worker,
                              initargs=(str(args.msl), cache), maxtasksperchild=20) as pool:
        for done, result in enumerate(pool.imap_unordered(_process_task, tasks), start=1):
            results.append(result)
            print(f"[{done}/{len(names)}] {result['model']}: "
                  f"{'ok' if not result['error'] else result['error'][:150]}", file=sys.stderr)
    if args.json:
        args.json.write_text(json.dumps(sorted(results, key=lambda r: r["model"]), indent=1))
    print(report(results, args.errors))
    print(f"\nwall time {time.perf_counter() - started:.0f} s with {args.jobs} jobs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
