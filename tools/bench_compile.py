"""Compile-time scaling: flatten and causalize a chain of N masses and springs (connect).

Usage: python3 tools/bench_compile.py [--sizes 250 500 1000 2000] [--repeat R]
Targets (issue 4): N = 1000 flattened and causalized in under 5 s together, and
time(2N)/time(N) <= 2.3 at every doubling. Times are CPU seconds of this process (other
load on the machine disturbs them less than wall-clock time), each the best of R rounds
over all sizes after one warm-up run.
"""
from __future__ import annotations

import argparse
import gc
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from compiler.api import flatten_model  # noqa: E402
from compiler.causalize import causalize  # noqa: E402

TARGET_SECONDS_AT_1000 = 5.0
TARGET_RATIO = 2.3

# The components of the chain: each mass, spring and connection is a separate instance,
# so flattening sees N of each and causalization the full connector structure.
LIBRARY = """
package ChainLib
  connector Flange
    Real s "Position";
    flow Real f "Cut force";
  end Flange;
  model Mass
    parameter Real m = 1;
    Flange a;
    Flange b;
    Real s(stateSelect = StateSelect.prefer);
    Real v(stateSelect = StateSelect.prefer);
  equation
    a.s = s;
    b.s = s;
    der(s) = v;
    m*der(v) = a.f + b.f;
  end Mass;
  model Spring
    parameter Real c = 100;
    parameter Real s0 = 0;
    Flange a;
    Flange b;
    Real f;
  equation
    b.f = f;
    a.f = -f;
    f = c*(b.s - a.s - s0);
  end Spring;
  model Fixed
    Flange a;
  equation
    a.s = 0;
  end Fixed;
  model Chain
    parameter Integer N = 10;
    Mass mass[N](s(each fixed = true, start = {if i == 1 then 0.1 else 0 for i in 1:N}),
                 each v(start = 0, fixed = true));
    Spring spring[N];
    Fixed wall;
  equation
    connect(wall.a, spring[1].a);
    for i in 1:N loop
      connect(spring[i].b, mass[i].a);
    end for;
    for i in 1:N - 1 loop
      connect(mass[i].b, spring[i + 1].a);
    end for;
  end Chain;
end ChainLib;
"""


def measure(size: int, folder: Path) -> tuple[float, float, int]:
    """Flatten and causalize times for a chain of ``size`` masses, and its state count."""
    path = folder / f"Chain{size}.mo"
    path.write_text(f"model Chain{size}\n  extends ChainLib.Chain(N = {size});\n"
                    f"end Chain{size};\n")
    gc.collect()
    started = time.process_time()
    flat = flatten_model(path, libs=[folder / "ChainLib.mo"], environ={})
    flattened = time.process_time()
    system = causalize(flat)
    done = time.process_time()
    return flattened - started, done - flattened, len(system.states)


def best_times(sizes, repeat: int, folder: Path) -> list[tuple[int, float, float, int]]:
    """The best of ``repeat`` rounds per size; each round measures every size once, so that
    a burst of load on the machine hits all sizes alike rather than one."""
    best = {size: (float("inf"), float("inf"), 0) for size in sizes}
    for _ in range(repeat):
        for size in sizes:
            flatten_time, causalize_time, states = measure(size, folder)
            old = best[size]
            best[size] = (min(old[0], flatten_time), min(old[1], causalize_time), states)
    return [(size, *best[size]) for size in sizes]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[250, 500, 1000, 2000])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as directory:
        folder = Path(directory)
        (folder / "ChainLib.mo").write_text(LIBRARY)
        measure(50, folder)  # warm-up: imports, caches
        rows = best_times(args.sizes, args.repeat, folder)
    print(f"{'N':>6} {'states':>7} {'flatten s':>10} {'causalize s':>12} {'total s':>8} "
          f"{'ratio':>6}")
    failures = []
    previous = None
    for size, flatten_time, causalize_time, states in rows:
        total = flatten_time + causalize_time
        ratio = ""
        if previous is not None and size == 2 * previous[0]:
            value = total / previous[1]
            ratio = f"{value:.2f}"
            if value > TARGET_RATIO:
                failures.append(f"time({size})/time({previous[0]}) = {value:.2f}")
        if size == 1000 and total > TARGET_SECONDS_AT_1000:
            failures.append(f"N = 1000 took {total:.2f} s")
        print(f"{size:>6} {states:>7} {flatten_time:>10.3f} {causalize_time:>12.3f} "
              f"{total:>8.3f} {ratio:>6}")
        previous = (size, total)
    print(f"targets: N = 1000 under {TARGET_SECONDS_AT_1000:.0f} s, ratio <= {TARGET_RATIO} "
          f"at each doubling: {'met' if not failures else 'MISSED: ' + '; '.join(failures)}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
