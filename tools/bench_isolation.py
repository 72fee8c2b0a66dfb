"""Isolation cost: the same run of an FMU loaded into the master's process and hosted in a
worker process (the default for third-party FMUs), timed in one run of this script.

An isolated Model Exchange FMU is integrated in its worker (the Radau driver runs beside the
FMU, isolation_driver.c), and a lone FMU (the only component, fed by nothing) is stepped by the
master loop in its worker, many communication steps per round trip (isolation_lone.c). The
ratios beside show the ways before: one round trip per communication step, and (Model
Exchange) one per FMI call. Times are the best of ``--repeat`` runs of a prepared system
(``cosim.master.prepare``: FMUs unpacked, worker started, instances reset between runs), so
they hold the stepping and not the start of the worker. Target: isolated at most 2x in-process.

    python tools/bench_isolation.py [--repeat 5] [--reference DIR]

``--reference DIR``: also the Reference FMUs of the issue, from a folder of built FMI 3.0 FMUs
(``fmus/`` of a cmake build of github:modelica/Reference-FMUs).
"""
from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "src")]
import cosim.master.components as components  # noqa: E402
import cosim.master.native_tables as native_tables  # noqa: E402
from cosim.master import Settings, prepare  # noqa: E402


def best_time(fmu: Path, settings: Settings, repeat: int) -> float:
    with prepare(fmu, settings) as session:
        session.run()  # the first run warms the caches
        times = []
        for _ in range(repeat):
            began = time.perf_counter()
            session.run()
            times.append(time.perf_counter() - began)
    return min(times)


def measure(label: str, fmu: Path, settings: Settings, repeat: int) -> None:
    local = best_time(fmu, Settings(**{**_fields(settings), "isolate": False}), repeat)
    isolated = best_time(fmu, Settings(**{**_fields(settings), "isolate": True}), repeat)
    line = (f"{label:<32} in-process {local * 1e3:7.1f} ms | isolated {isolated * 1e3:7.1f} ms"
            f" ratio {isolated / local:5.2f}")
    native_tables.LONE_STEPPING = False
    try:
        per_step = best_time(fmu, Settings(**{**_fields(settings), "isolate": True}), repeat)
        line += f" | a round trip per step {per_step / local:6.2f}"
        if settings.interface == "me":
            components.REMOTE_DRIVERS = False
            try:
                proxied = best_time(fmu, Settings(**{**_fields(settings), "isolate": True}),
                                    repeat)
            finally:
                components.REMOTE_DRIVERS = True
            line += f" | a round trip per FMI call {proxied / local:7.2f}"
    finally:
        native_tables.LONE_STEPPING = True
    print(line, flush=True)


def _fields(settings: Settings) -> dict:
    return {name: getattr(settings, name) for name in Settings.__dataclass_fields__}


def own_cases(work: Path) -> list[tuple[str, Path, Settings]]:
    from ssp_examples.models import build as build_model
    from tests.runtime.fixtures import build as build_fixture

    vdp = build_fixture("VanDerPol", work)
    ball = build_fixture("BouncingBall", work)
    lag = build_model("Lag", work)
    return [
        ("VanDerPol ME, 2000 steps", vdp, Settings(interface="me", stop_time=20.0,
                                                   step_size=0.01)),
        ("BouncingBall ME, h = 1 ms", ball, Settings(interface="me", stop_time=3.0,
                                                     step_size=1e-3)),
        ("VanDerPol CS, 2000 steps", vdp, Settings(interface="cs", stop_time=20.0,
                                                   step_size=0.01)),
        ("Lag CS, 10000 steps", lag, Settings(stop_time=10.0, step_size=1e-3)),
    ]


def reference_cases(folder: Path) -> list[tuple[str, Path, Settings]]:
    return [
        ("Reference VanDerPol ME", folder / "VanDerPol.fmu", Settings(interface="me")),
        ("Reference BouncingBall ME, 1 ms", folder / "BouncingBall.fmu",
         Settings(interface="me", step_size=1e-3)),
        ("Reference BouncingBall CS, 1 ms", folder / "BouncingBall.fmu",
         Settings(interface="cs", step_size=1e-3)),
        ("Reference Dahlquist ME", folder / "Dahlquist.fmu", Settings(interface="me")),
    ]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--reference", type=Path, help="folder of built FMI 3.0 Reference FMUs")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as work:
        cases = own_cases(Path(work))
        if args.reference is not None:
            cases += reference_cases(args.reference)
        for label, fmu, settings in cases:
            measure(label, fmu, settings, args.repeat)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
