"""A pytest plugin that keeps every C and Rust text the code generators return while the test
suite runs, so that two checkouts can be compared over every model the tests compile (those
written inside test functions too), not only the model files ``tools/codegen_snapshot.py``
finds.

Usage (from the checkout's top):
    COSIM_CODEGEN_CAPTURE=DIR python3 -m pytest -p tools.codegen_capture -n 2
    python3 -m tools.codegen_capture DIR_BEFORE DIR_AFTER

The first writes ``DIR/<sha256>.c`` / ``.rs`` for each distinct text and ``DIR/calls-<pid>.txt``
with one line per call (kind, digest, model name). The second compares two such folders: the
texts one run generated that the other did not, by model name; exit status 1 when they differ.
"""
from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path

VARIABLE = "COSIM_CODEGEN_CAPTURE"
# (module, function name, suffix): where the generators are defined and re-exported
GENERATORS = (("compiler.codegen.emit", "emit_c", ".c"),
              ("compiler.rust.emit", "emit_rust", ".rs"))


def _recording(function, suffix: str, folder: Path):
    def generate(system, *args, **kwargs):
        generated = function(system, *args, **kwargs)
        digest = hashlib.sha256(generated.source.encode()).hexdigest()
        target = folder / f"{digest}{suffix}"
        if not target.exists():
            target.write_text(generated.source)
        with open(folder / f"calls-{os.getpid()}.txt", "a") as calls:
            calls.write(f"{suffix} {digest} {system.name}\n")
        return generated
    generate.__wrapped__ = function
    return generate


def pytest_configure(config) -> None:
    folder = os.environ.get(VARIABLE)
    if not folder:
        return
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    import importlib
    for module_name, name, suffix in GENERATORS:
        module = importlib.import_module(module_name)
        original = getattr(module, name)
        wrapped = _recording(original, suffix, folder)
        # every module already holding the function (re-exports) gets the recording one
        for loaded in list(sys.modules.values()):
            if getattr(loaded, name, None) is original:
                setattr(loaded, name, wrapped)


def _calls(folder: Path) -> dict[str, set[str]]:
    """digest + suffix -> the model names it was generated for."""
    found: dict[str, set[str]] = {}
    for path in folder.glob("calls-*.txt"):
        for line in path.read_text().splitlines():
            suffix, digest, name = line.split(" ", 2)
            found.setdefault(digest + suffix, set()).add(name)
    return found


def compare(before: Path, after: Path) -> int:
    old, new = _calls(before), _calls(after)
    only_old = sorted(set(old) - set(new))
    only_new = sorted(set(new) - set(old))
    print(f"{len(old)} texts before, {len(new)} after; {len(only_old)} only before, "
          f"{len(only_new)} only after")
    for label, keys, calls in (("only before", only_old, old), ("only after", only_new, new)):
        for key in keys:
            print(f"{label}: {key} {', '.join(sorted(calls[key]))}")
    return 1 if only_old or only_new else 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    sys.exit(compare(Path(sys.argv[1]), Path(sys.argv[2])))
