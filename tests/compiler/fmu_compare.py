"""Compare an FMU's results (fmpy, Co-Simulation and Model Exchange) with the reference
interpreter's on a grid: helpers for the code generator's tests."""
from __future__ import annotations

import numpy as np
from fmpy import simulate_fmu

RTOL, ATOL = 1e-4, 1e-6
SAME_INSTANT = 1e-9   # grid points this close to an event may show either side of it


def reference_values(result, name: str, t: float) -> list[float]:
    """The interpreter's value of ``name`` at ``t``; both sides of an event within
    SAME_INSTANT of ``t``."""
    values = [result.at(name, t)]
    close = np.abs(result.time - t) <= SAME_INSTANT * max(1.0, abs(t))
    values.extend(float(v) for v in result[name][close])
    return values


def grid_rows(fmu_result, grid) -> np.ndarray:
    """The rows of an fmpy result at the grid points (after events there), not event rows."""
    times = fmu_result["time"]
    rows = []
    for t in grid:
        at = np.nonzero(np.abs(times - t) <= 1e-12 * max(1.0, abs(t)))[0]
        assert len(at), f"fmpy gave no row at t = {t}"
        rows.append(at[-1])
    return fmu_result[rows]


def mismatches(fmu_result, reference, grid, names) -> list[str]:
    """Grid points where the FMU differs from the reference beyond RTOL/ATOL."""
    rows = grid_rows(fmu_result, grid)
    problems = []
    for name in names:
        for t, value in zip(rows["time"], rows[name]):
            candidates = reference_values(reference, name, float(t))
            if not any(abs(float(value) - c) <= ATOL + RTOL * abs(c) for c in candidates):
                problems.append(f"{name} at t = {t}: {float(value)!r}, reference {candidates[0]!r}")
                break
    return problems


def run(path, kind: str, start: float, stop: float, tolerance: float, names, **options):
    """fmpy's simulate_fmu on a 101-point grid."""
    return simulate_fmu(str(path), fmi_type=kind, start_time=start, stop_time=stop,
                        output_interval=(stop - start) / 100, relative_tolerance=tolerance,
                        output=list(names), **options)


def event_instants(fmu_result) -> list[float]:
    """Times at which fmpy's Model Exchange result has an event (a repeated time), one per
    cluster of instants closer than 1e-8."""
    times = fmu_result["time"]
    repeated = times[1:][times[1:] == times[:-1]]
    instants: list[float] = []
    for t in repeated:
        if not instants or t - instants[-1] > 1e-8:
            instants.append(float(t))
    return instants


def cluster(times, gap: float = 1e-8) -> list[float]:
    result: list[float] = []
    for t in times:
        if not result or t - result[-1] > gap:
            result.append(float(t))
    return result
