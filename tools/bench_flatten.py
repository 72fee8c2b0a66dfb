"""Flattening time of a chain of N masses and springs, and how it scales with N.

Usage: python3 tools/bench_flatten.py [--sizes 250 500 1000 2000] [--repeat R]
Flattens ``Mechanics.Chain(N = n)`` from tests/compiler/models/Mechanics.mo for each size and
prints the best CPU time of R runs, the scalar variables and equations, the time per
variable, and the growth ratio against the smallest size (linear scaling keeps the time per
variable flat, i.e. a ratio near 1).
"""
from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from compiler import api  # noqa: E402

LIBRARY = ROOT / "tests" / "compiler" / "models" / "Mechanics.mo"


def flatten_chain(size: int, directory: Path):
    path = directory / f"Chain{size}.mo"
    path.write_text(f"model Chain{size} = Mechanics.Chain(N = {size});\n")
    return api.flatten_model(path, libs=[LIBRARY], environ={})


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[250, 500, 1000, 2000])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    baseline = None
    with tempfile.TemporaryDirectory() as folder:
        for size in args.sizes:
            best = float("inf")
            for _ in range(args.repeat):
                started = time.process_time()
                model = flatten_chain(size, Path(folder))
                best = min(best, time.process_time() - started)
            per_variable = best / len(model.variables)
            baseline = baseline or per_variable
            print(f"N = {size:5d}: {best:6.2f} s CPU, {len(model.variables):6d} variables, "
                  f"{len(model.equations):6d} equations, {per_variable * 1e6:6.1f} us/variable "
                  f"(x{per_variable / baseline:.2f} of N = {args.sizes[0]})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
