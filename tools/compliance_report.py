"""How cosim does on the Modelica-Compliance suite: every test case translated by its full
name, and those that translate simulated to their StopTime.

Usage: python3 tools/compliance_report.py SUITE_DIR [--jobs N] [--only PREFIX ...]
       [--timeout S] [--json OUT.jsonl] [--causes N]

SUITE_DIR holds ``ModelicaCompliance/package.mo`` (github:modelica/Modelica-Compliance). A test
case is a class annotated ``__ModelicaAssociation(TestCase(shouldPass = ...))``.

- ``shouldPass = true`` passes when the model flattens, compiles and runs to its StopTime with
  every variable recorded (so that its asserts fire).
- ``shouldPass = false`` passes when cosim refuses the model, at translation or at run time,
  with a located one-line error that is not about a missing feature ("... not supported"): an
  unsupported feature is not a rejection. Such refusals are counted apart, as are internal
  errors (a traceback in cosim) and timeouts.

Prints pass counts per chapter (true and false apart), the causes of failure ranked, and the
totals; ``--json`` writes one JSON line per test case.
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

UNSUPPORTED = re.compile(r"\bnot (yet )?supported\b|\bunsupported\b")
LOCATED = re.compile(r"^\S+?:\d+:\d+: ")


# ----------------------------------------------------------------------------- discovery
def _library(suite: Path):
    from compiler.library import Library
    library = Library()
    library.add_path(suite / "ModelicaCompliance")
    return library


def should_pass(definition) -> bool | None:
    """``shouldPass`` of a test case's ``__ModelicaAssociation(TestCase(...))``, or None."""
    from compiler.lang import ast
    body = definition.body
    annotation = body.annotation if isinstance(body, ast.Composition) else definition.annotation
    if annotation is None:
        return None
    for argument in annotation.arguments:
        if not isinstance(argument, ast.ElementMod) or argument.name != ("__ModelicaAssociation",):
            continue
        for case in argument.modification.arguments if argument.modification else ():
            if not isinstance(case, ast.ElementMod) or case.name != ("TestCase",):
                continue
            for item in case.modification.arguments if case.modification else ():
                if isinstance(item, ast.ElementMod) and item.name == ("shouldPass",) and \
                        item.modification is not None and \
                        isinstance(item.modification.binding, ast.BoolLit):
                    return item.modification.binding.value
    return None


def discover(suite: Path) -> tuple[list[tuple[str, bool]], list[str]]:
    """``(full name, shouldPass)`` of every test case, and the errors of files that do not
    parse (their classes are not searched)."""
    from compiler.errors import CompilerError
    found, unreadable = [], []

    def visit(entry):
        try:
            definition = entry.definition
            children = entry.children()
        except CompilerError as error:
            unreadable.append(_one_line(error))
            return
        expected = should_pass(definition)
        if expected is not None:
            found.append((entry.full_name, expected))
        for child in children.values():
            visit(child)
    visit(_library(suite).root("ModelicaCompliance"))
    return found, unreadable


def chapter(name: str) -> str:
    """``Connections`` for ``ModelicaCompliance.Connections.Expandable.Foo``."""
    parts = name.split(".")
    return parts[1] if len(parts) > 2 else name


# ------------------------------------------------------------------------------- workers
_WORKER: dict = {}


class _Timeout(Exception):
    pass


def _alarm(signum, frame):
    raise _Timeout()


def _init_worker(suite: str, cache: str) -> None:
    os.environ["COSIM_CACHE_DIR"] = cache
    _WORKER["suite"] = Path(suite)
    signal.signal(signal.SIGALRM, _alarm)


def _one_line(error: BaseException) -> str:
    text = str(error).strip().splitlines()
    return (text[0] if text else type(error).__name__)[:300]


def process(name: str, expected: bool, timeout: float) -> dict:
    """Translate and run one test case; every failure is caught and described."""
    from compiler.errors import CompilerError
    from cosim.errors import CosimError
    from cosim.master.failures import RunTimeout
    result = {"test": name, "should_pass": expected, "stage": "flatten", "refused": False,
              "error": None, "kind": None}
    started = time.perf_counter()
    signal.alarm(int(timeout))
    try:
        _translate_and_run(name, result, timeout)
    except (_Timeout, RunTimeout):
        result["kind"] = "timeout"
        result["error"] = f"timeout: more than {timeout:g} s in {result['stage']}"
    except (CompilerError, CosimError) as error:
        result["refused"] = True
        result["error"] = _one_line(error)
        result["kind"] = "unsupported" if UNSUPPORTED.search(result["error"]) else "refused"
    except Exception as error:  # noqa: BLE001 - a report must go on past any failure
        result["kind"] = "internal"
        result["error"] = f"internal error ({type(error).__name__}): {_one_line(error)}"
    finally:
        signal.alarm(0)
    result["seconds"] = round(time.perf_counter() - started, 2)
    result["passed"] = _passed(result)
    return result


def _translate_and_run(name: str, result: dict, timeout: float) -> None:
    import cosim
    from compiler.codegen.naming import plain_identifier
    from compiler.compile import fmu_from_flat
    from compiler.flatten import flatten

    flat = flatten(_library(_WORKER["suite"]), name)
    result["stage"] = "compile"
    experiment = flat.experiment
    stop = experiment.stop_time if experiment and experiment.stop_time is not None else 1.0
    with tempfile.TemporaryDirectory(prefix="compliance-") as work:
        identifier = plain_identifier(flat.name)
        fmu = fmu_from_flat(flat, Path(work) / f"{identifier}.fmu")
        result["stage"] = "run"
        # (hidden variables of the flattener, ``$call1.c.re``, are no variables of the FMU)
        record = [f"{identifier}.{variable.name}" for variable in flat.variables
                  if variable.variability not in ("parameter", "constant")
                  and not variable.name.startswith("$")]
        run = cosim.run(fmu, stop_time=stop, record=record, isolate=True,
                        timeout=max(timeout - 5, 1))
        result["stage"] = "done"
        result["end_time"] = float(run.values["time"][-1]) if len(run.values) else None


def _passed(result: dict) -> bool:
    if result["should_pass"]:
        return result["stage"] == "done"
    # refused for a rule: a located translation error, or a failure while running (asserts)
    return result["kind"] == "refused" and (
        bool(LOCATED.match(result["error"] or "")) or result["stage"] == "run")


def _process_task(task: tuple) -> dict:
    return process(*task)


# -------------------------------------------------------------------------------- report
def _cause(result: dict) -> str:
    """An error without its file, line and names, so alike causes rank together."""
    text = re.sub(r"^\S+?:\d+:\d+: (error: )?", "", result["error"] or "accepted, no error")
    text = re.sub(r"'[^']*'", "'…'", text)
    return f"[{result['kind'] or 'accepted'}] " + re.sub(r"\d+(\.\d+)?", "N", text)[:130]


def report(results: list[dict], causes: int) -> str:
    chapters = collections.OrderedDict()
    for result in sorted(results, key=lambda r: r["test"]):
        chapters.setdefault(chapter(result["test"]), []).append(result)
    header = (f"{'chapter':16} {'true':>5} {'run':>5} {'false':>6} {'refused':>8} "
              f"{'unsupp.':>8} {'internal':>9} {'timeout':>8}")
    lines = [header, "-" * len(header)]
    totals = collections.Counter()
    for name, members in chapters.items():
        row = collections.Counter()
        for r in members:
            row["true" if r["should_pass"] else "false"] += 1
            if r["passed"]:
                row["run" if r["should_pass"] else "refused"] += 1
            if r["kind"] in ("unsupported", "internal", "timeout"):
                row[r["kind"]] += 1
        totals.update(row)
        lines.append(_row(name, row))
    lines.append(_row("total", totals))
    lines += ["", f"shouldPass=true:  {totals['run']} of {totals['true']} run "
              f"({_percent(totals['run'], totals['true'])})",
              f"shouldPass=false: {totals['refused']} of {totals['false']} refused "
              f"({_percent(totals['refused'], totals['false'])})",
              f"internal errors: {totals['internal']}, timeouts: {totals['timeout']}"]
    for expected, title in ((True, "valid models that fail"),
                            (False, "invalid models not refused for a rule")):
        failing = [r for r in results if r["should_pass"] == expected and not r["passed"]]
        ranked = collections.Counter(_cause(r) for r in failing)
        examples = {}
        for r in failing:
            examples.setdefault(_cause(r), r["test"])
        lines += ["", f"{title}, causes ranked ({len(failing)} tests):"]
        for cause, count in ranked.most_common(causes):
            lines.append(f"{count:5}  {cause}  [{examples[cause]}]")
    return "\n".join(lines)


def _row(name: str, row) -> str:
    return (f"{name:16} {row['true']:>5} {row['run']:>5} {row['false']:>6} {row['refused']:>8} "
            f"{row['unsupported']:>8} {row['internal']:>9} {row['timeout']:>8}")


def _percent(part: int, whole: int) -> str:
    return f"{100 * part / whole:.0f} %" if whole else "-"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("suite", type=Path)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--only", nargs="*", default=(), help="test name prefixes")
    parser.add_argument("--timeout", type=float, default=120, help="seconds per test")
    parser.add_argument("--json", type=Path, help="one JSON line per test written here")
    parser.add_argument("--causes", type=int, default=25, help="causes listed")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    tests, unreadable = discover(args.suite)
    for error in unreadable:
        print(f"not searched: {error}")
    if args.only:
        tests = [item for item in tests if item[0].startswith(tuple(args.only))]
    print(f"{len(tests)} test cases (found in {time.perf_counter() - started:.1f} s)",
          file=sys.stderr)
    cache = os.environ.get("COSIM_CACHE_DIR") or str(Path.home() / ".cache" / "cosim")
    results = []
    tasks = [(name, expected, args.timeout) for name, expected in tests]
    output = args.json.open("w") if args.json else None
    try:
        with multiprocessing.Pool(args.jobs, initializer=_init_worker,
                                  initargs=(str(args.suite), cache), maxtasksperchild=20) as pool:
            for done, result in enumerate(pool.imap_unordered(_process_task, tasks), start=1):
                results.append(result)
                if output:
                    output.write(json.dumps(result) + "\n")
                    output.flush()
                verdict = "pass" if result["passed"] else "FAIL"
                print(f"[{done}/{len(tests)}] {verdict} {result['test']}: "
                      f"{(result['error'] or 'ok')[:150]}", file=sys.stderr)
    finally:
        if output:
            output.close()
    print(report(results, args.causes))
    print(f"\nwall time {time.perf_counter() - started:.0f} s with {args.jobs} jobs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
