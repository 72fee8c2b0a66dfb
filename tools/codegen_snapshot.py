"""Write what the compiler generates for every model of some sources into one folder, so that
two checkouts can be compared with ``diff -r`` (a restructuring must leave it byte-identical).

Usage: python3 -m tools.codegen_snapshot OUT_DIR [SOURCE ...] [--msl MSL_DIR] [--jobs N]

SOURCE: ``.mo`` files, ``.py`` files of Python models, or folders searched for both (default:
``tests``, ``ssp_examples``). Every non-partial model, block and class a ``.mo`` file defines
(nested ones too) and every model class of a ``.py`` file is flattened, causalized and emitted;
``--msl`` adds the MSL's examples (those with an experiment annotation). For each one OUT_DIR
gets ``<source>/<class>.flat.mo`` (the flat model), ``.c`` (model.c), ``.info.c``
(model_info.c), ``.xml`` (modelDescription.xml, with a fixed instantiation token) and ``.rs``
(the Rust backend's file), or ``.error`` with the first line of the error of the stage that
refused it (the checkout's and the MSL's folders written as ROOT and MSL). The instantiation token is replaced because it hashes the runtime's files, which a
restructuring may change while the generated code stays the same.
"""
from __future__ import annotations

import argparse
import multiprocessing
import os
import signal
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TOKEN = "{00000000-0000-0000-0000-000000000000}"
TIMEOUT = 300   # seconds for one model's stages


class _Timeout(Exception):
    pass


def _alarm(signum, frame):
    raise _Timeout()


def _one_line(error: BaseException) -> str:
    lines = str(error).strip().splitlines()
    return f"{type(error).__name__}: {lines[0] if lines else ''}"


def _classes(entry, found: list[str]) -> None:
    from compiler.errors import CompilerError
    try:
        definition = entry.definition
        children = entry.children()
    except CompilerError:
        return
    if definition.kind in ("model", "block", "class") and not definition.partial:
        found.append(entry.full_name)
    for child in children.values():
        _classes(child, found)


def modelica_tasks(path: Path) -> list[tuple]:
    """(kind, source, class) of every class of one ``.mo`` file worth generating."""
    from compiler.api import load_library
    from compiler.errors import CompilerError
    try:
        library, names = load_library(path, environ={})
    except CompilerError as error:
        return [("error", str(path), "", _one_line(error))]
    found: list[str] = []
    for name in names:
        _classes(library.lookup(name), found)
    return [("mo", str(path), name) for name in found]


def python_tasks(path: Path) -> list[tuple]:
    """(kind, source, class) of every model class a ``.py`` file defines at its top."""
    try:
        from cosim.build.classes import is_model_class
        from cosim.build.load import load_module
        module = load_module(path)
    except Exception as error:  # noqa: BLE001 - a file of helpers is not a model file
        return [("error", str(path), "", _one_line(error))]
    return [("py", str(path), name) for name, value in vars(module).items()
            if is_model_class(value) and value.__module__ == module.__name__
            and value.__dict__.get("__modelica_parent__") is None]


def msl_tasks(msl: Path) -> list[tuple]:
    from tools.msl_report import discover
    found, _ = discover(msl)
    return [("msl", str(msl), name) for name in found]


def _flat(kind: str, source: str, name: str):
    if kind == "mo":
        from compiler.api import flatten_model
        return flatten_model(source, name, environ={})
    if kind == "py":
        from cosim.build.load import flatten_file
        return flatten_file(source, name, environ={})
    from compiler.flatten import flatten
    from tools.msl_report import _library
    return flatten(_library(Path(source)), name)


def _outputs(flat) -> dict[str, str]:
    """The generated texts of one flat model, by file suffix."""
    from compiler.causalize import causalize
    from compiler.codegen import emit_c
    from compiler.fmu import c_tables
    from compiler.fmu.layout import layout as make_layout
    from compiler.fmu.model_description import model_description
    from compiler.rust import emit_rust
    texts = {".flat.mo": flat.to_modelica()}
    system = causalize(flat)
    emitted = emit_c(system)
    texts[".c"] = emitted.source
    layout = make_layout(emitted.interface)
    texts[".info.c"] = c_tables.model_info(emitted.interface, layout)
    texts[".xml"] = model_description(emitted.interface, layout, TOKEN).decode()
    try:
        texts[".rs"] = emit_rust(system).source
    except Exception as error:  # noqa: BLE001 - what the Rust backend refuses is recorded
        texts[".rs.error"] = _one_line(error)
    return texts


def run_task(task: tuple) -> tuple[str, dict[str, str]]:
    kind, source, name = task[:3]
    relative = os.path.relpath(source, ROOT) if kind != "msl" else "MSL"
    stem = f"{relative}/{name or 'file'}"
    if kind == "error":
        return stem, {".error": task[3]}
    texts: dict[str, str] = {}
    signal.alarm(TIMEOUT)
    try:
        texts = _outputs(_flat(kind, source, name))
    except _Timeout:
        texts[".error"] = f"timeout after {TIMEOUT} s"
    except Exception as error:  # noqa: BLE001 - every stage's refusal is part of the snapshot
        texts[".error"] = _one_line(error)
    finally:
        signal.alarm(0)
    return stem, texts


def _init_worker() -> None:
    os.environ["COSIM_STRICT_GCC"] = "1"
    signal.signal(signal.SIGALRM, _alarm)


def collect(sources: list[Path]) -> list[tuple]:
    tasks: list[tuple] = []
    for source in sources:
        files = sorted(source.rglob("*")) if source.is_dir() else [source]
        for path in files:
            if "__pycache__" in path.parts or not path.is_file():
                continue
            if path.suffix == ".mo":
                tasks += modelica_tasks(path)
            elif path.suffix == ".py" and source.is_dir() and _has_model_classes(path):
                tasks += python_tasks(path)
            elif path.suffix == ".py" and not source.is_dir():
                tasks += python_tasks(path)
    return tasks


def _has_model_classes(path: Path) -> bool:
    """A Python file of models imports cosim.build (test modules and helpers do not count)."""
    text = path.read_text(errors="replace")
    return not path.name.startswith(("test_", "conftest")) and "cosim.build" in text \
        and "class " in text


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("sources", nargs="*", type=Path)
    parser.add_argument("--msl", type=Path)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args(argv)
    sources = args.sources or [ROOT / "tests", ROOT / "ssp_examples"]
    tasks = collect([source.resolve() for source in sources])
    if args.msl:
        tasks += msl_tasks(args.msl)
    print(f"{len(tasks)} models", file=sys.stderr)
    errors = 0
    with multiprocessing.get_context("fork").Pool(args.jobs, _init_worker,
                                                  maxtasksperchild=50) as pool:
        for stem, texts in pool.imap_unordered(run_task, tasks, chunksize=4):
            errors += ".error" in texts
            for suffix, text in texts.items():
                # where the checkout lies is not part of what is generated
                text = text.replace(str(ROOT), "ROOT")
                if args.msl:
                    text = text.replace(str(args.msl.resolve()), "MSL")
                target = args.out / f"{stem}{suffix}"
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_text(text)
    print(f"{len(tasks) - errors} generated, {errors} refused", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
