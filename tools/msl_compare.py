"""Comparing a simulation result with a MAP-LIB reference result (a CSV per model).

Input: the reference folder of one model (``<Name>.csv`` and ``comparisonSignals.txt``) and our
result as arrays. Output: per signal, the largest deviation as a fraction of the reference
signal's range, measured in a tube: a reference point counts as met when our signal passes
within the tolerance of its value somewhere in a small time window around it, so that an
event located a few microseconds apart does not count as a wrong answer.
"""
from __future__ import annotations

import csv
from dataclasses import dataclass
from pathlib import Path

import numpy as np

RANGE_TOLERANCE = 2e-3     # the criterion: 2e-3 of each signal's range
TIME_WINDOW = 1e-3         # fraction of the time span searched around each reference point
MIN_RANGE = 1e-10          # a constant signal is compared to this absolute scale
# ... or to this fraction of its size: the CSVs hold 8 significant digits, so a constant
# reference is its value rounded to some 5e-8 of it; 2e-3 of this scale is 2e-7 of it
CONSTANT_SCALE = 1e-4


@dataclass(frozen=True)
class Reference:
    """A model's reference: the comparison signals and their values over time, and the
    experiment it was computed with (``creation.txt``: start, stop, interval, tolerance;
    None where it does not say)."""

    signals: tuple[str, ...]
    time: np.ndarray
    values: dict[str, np.ndarray]
    experiment: dict


def _experiment(folder: Path) -> dict:
    """``StartTime``/``StopTime``/``Interval``/``Tolerance`` of ``creation.txt``."""
    settings = {}
    path = folder / "creation.txt"
    if not path.is_file():
        return settings
    for line in path.read_text(errors="replace").splitlines():
        key, _, rest = line.partition("=")
        if key.strip() in ("StartTime", "StopTime", "Interval", "Tolerance"):
            try:
                settings[key.strip()] = float(rest.split("//")[0].strip())
            except ValueError:
                pass
    return settings


@dataclass(frozen=True)
class SignalComparison:
    signal: str
    deviation: float      # largest distance to the reference, as a fraction of its range
    at_time: float        # where it is reached

    @property
    def matches(self) -> bool:
        return self.deviation <= 1.0


def reference_folder(reference_root: Path, model: str) -> Path | None:
    """``<root>/Modelica/Blocks/Examples/PID_Controller`` for ``Modelica.Blocks.Examples.PID_Controller``."""
    folder = Path(reference_root, *model.split("."))
    name = model.rsplit(".", 1)[-1]
    return folder if (folder / f"{name}.csv").is_file() else None


def read_reference(folder: Path) -> Reference:
    name = folder.name
    with open(folder / f"{name}.csv", newline="") as handle:
        rows = list(csv.reader(handle))
    header = ["time" if column.lower() == "time" else column for column in rows[0]]
    data = np.array([[float(item) for item in row] for row in rows[1:] if row], dtype=float)
    columns = {column: data[:, position] for position, column in enumerate(header)}
    listed = folder / "comparisonSignals.txt"
    signals = [line.strip() for line in listed.read_text().splitlines()] if listed.is_file() \
        else header
    signals = tuple(signal for signal in signals if signal and signal != "time" and
                    signal in columns)
    return Reference(signals, columns["time"], {signal: columns[signal] for signal in signals},
                     _experiment(folder))


def compare_signal(signal: str, ref_time: np.ndarray, ref_values: np.ndarray,
                   time: np.ndarray, values: np.ndarray,
                   tolerance: float = RANGE_TOLERANCE) -> SignalComparison:
    """The tube deviation of ``values(time)`` from ``ref_values(ref_time)``, in units of
    ``tolerance`` times the reference's range (so ``<= 1`` matches)."""
    scale = max(float(np.ptp(ref_values)), MIN_RANGE,
                CONSTANT_SCALE * float(np.max(np.abs(ref_values))))
    span = float(ref_time[-1] - ref_time[0]) or 1.0
    window = TIME_WINDOW * span
    # our signal's lowest and highest value within the window around each reference time:
    # the window's end points interpolated, plus every sample of ours inside it
    lo_t, hi_t = ref_time - window, ref_time + window
    at_lo = np.interp(lo_t, time, values)
    at_hi = np.interp(hi_t, time, values)
    low, high = np.minimum(at_lo, at_hi), np.maximum(at_lo, at_hi)
    first = np.searchsorted(time, lo_t, side="left")
    last = np.searchsorted(time, hi_t, side="right")
    # the left limit at each of our samples, extrapolated from the two before it: a
    # communication point at an event shows the value after it, a reference row the one
    # before (or both)
    left = values.copy()
    if len(time) > 2:
        dt_before = np.maximum(time[1:-1] - time[:-2], 1e-300)
        slope = (values[1:-1] - values[:-2]) / dt_before
        left[2:] = values[1:-1] + slope * (time[2:] - time[1:-1])
    for k in range(len(ref_time)):
        if last[k] > first[k]:
            inside = values[first[k]:last[k]]
            limits = left[first[k]:last[k]]
            low[k] = min(low[k], inside.min(), limits.min())
            high[k] = max(high[k], inside.max(), limits.max())
    distance = np.maximum(np.maximum(low - ref_values, ref_values - high), 0.0)
    distance = _at_instants(ref_time, distance)
    worst = int(np.argmax(distance))
    return SignalComparison(signal, float(distance[worst] / (tolerance * scale)),
                            float(ref_time[worst]))


def _at_instants(ref_time: np.ndarray, distance: np.ndarray) -> np.ndarray:
    """Rows of one instant (an event: the value before it, those its iteration passed
    through, the value after it) count as met when ours meets one of them: a result shows
    no zero-width pulse of an event iteration, nor an event at the stop time, which the
    simulation ends before."""
    result = distance.copy()
    start = 0
    for end in range(1, len(ref_time) + 1):
        if end == len(ref_time) or ref_time[end] != ref_time[start]:
            if end - start > 1:
                result[start:end] = distance[start:end].min()
            start = end
    return result


def on_grid(reference: Reference) -> np.ndarray:
    """The reference rows at its output grid (start + k*interval): the rows a tool adds at
    events between grid points show transients shorter than the interval, which a result
    sampled on the grid cannot show (and need not)."""
    interval = reference.experiment.get("Interval")
    if not interval:
        return np.ones(len(reference.time), dtype=bool)
    start = reference.experiment.get("StartTime", float(reference.time[0]))
    steps = (reference.time - start) / interval
    return np.abs(steps - np.round(steps)) <= 1e-6 * np.maximum(1.0, np.abs(steps))


def compare(reference: Reference, time: np.ndarray, columns: dict[str, np.ndarray],
            tolerance: float = RANGE_TOLERANCE) -> list[SignalComparison]:
    """Every comparison signal that our result has (``columns`` by the reference's names),
    at the reference's grid rows (``on_grid``)."""
    rows = on_grid(reference)
    return [compare_signal(signal, reference.time[rows], reference.values[signal][rows], time,
                           columns[signal], tolerance)
            for signal in reference.signals if signal in columns]
