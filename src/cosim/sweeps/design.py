"""The runs of a sweep: a table of parameter values, one row per run.

Input: ``Axis`` values combined as a grid (every combination) or zipped (the k-th value of
each), optionally crossed with Monte Carlo samples of ``Distribution``s drawn with a seeded
numpy ``Generator``; or an explicit list of parameter dicts. Output: a ``Design``.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Mapping, Sequence

import numpy as np

from cosim.sweeps.spec import Axis, Distribution, SweepError, plain

MODES = ("grid", "zip")


@dataclass(frozen=True, slots=True)
class Design:
    """``rows[k]`` holds run k's values of ``names``; ``seed`` is the seed of the Monte
    Carlo draws (``None`` without them)."""

    names: tuple[str, ...]
    rows: tuple[tuple, ...]
    seed: int | None = None

    def __len__(self) -> int:
        return len(self.rows)

    def parameters(self, run: int) -> dict[str, object]:
        return dict(zip(self.names, self.rows[run]))

    def column(self, name: str) -> list:
        k = self.names.index(name)
        return [row[k] for row in self.rows]


def _check_names(names: Sequence[tuple[str, str]]) -> None:
    seen = set()
    for flag, name in names:
        if name in seen:
            raise SweepError(f"parameter '{name}' is given twice", f"{flag} {name}")
        seen.add(name)


def _points(axes: Sequence[Axis], mode: str) -> list[tuple]:
    if mode not in MODES:
        raise SweepError(f"unknown mode '{mode}' (grid or zip)")
    if mode == "grid":
        return list(itertools.product(*(axis.values for axis in axes)))
    lengths = {len(axis.values) for axis in axes} - {1}
    if len(lengths) > 1:
        counts = ", ".join(f"{axis.name} has {len(axis.values)}" for axis in axes)
        raise SweepError(f"zipped parameters need the same number of values ({counts})",
                         "--zip")
    n = lengths.pop() if lengths else 1
    # a parameter of one value keeps it in every run
    return [tuple(axis.values[k if len(axis.values) > 1 else 0] for axis in axes)
            for k in range(n)]


def _draw(distributions: Sequence[Distribution], samples: int, seed: int | None
          ) -> tuple[list[tuple], int]:
    if seed is None:
        seed = int(np.random.SeedSequence().entropy)  # kept, so the study can be repeated
    generator = np.random.default_rng(seed)
    columns = [getattr(generator, d.kind)(*d.arguments, size=samples).tolist()
               for d in distributions]
    return list(zip(*columns)), seed


def build_design(axes: Sequence[Axis] = (), mode: str = "grid", samples: int | None = None,
                 distributions: Sequence[Distribution] = (), seed: int | None = None
                 ) -> Design:
    """The runs of ``axes`` combined by ``mode`` (``"grid"`` or ``"zip"``), each combination
    run with the same ``samples`` draws of ``distributions`` when ``samples`` is given."""
    _check_names([("--param", a.name) for a in axes] +
                 [("--distribution", d.name) for d in distributions])
    if distributions and samples is None:
        raise SweepError("--distribution needs --samples K", f"--distribution "
                                                              f"{distributions[0].name}")
    if samples is not None:
        if samples < 1:
            raise SweepError(f"at least one sample is needed, not {samples}", "--samples")
        if not distributions:
            raise SweepError("--samples needs at least one --distribution", "--samples")
    elif not axes:
        raise SweepError("nothing to sweep: give --param, or --samples with --distribution")
    points = _points(axes, mode)
    names = tuple(a.name for a in axes)
    if samples is None:
        return Design(names, tuple(points))
    draws, seed = _draw(distributions, samples, seed)
    rows = tuple(point + draw for point in points for draw in draws)
    return Design(names + tuple(d.name for d in distributions), rows, seed)


def explicit_design(runs: Sequence[Mapping[str, object]]) -> Design:
    """The runs given one by one, as ``{"component.variable": value}`` dicts with the same
    names."""
    runs = list(runs)
    if not runs:
        raise SweepError("no runs given")
    names = tuple(runs[0])
    for k, run in enumerate(runs):
        if set(run) != set(names):
            difference = sorted(set(run) ^ set(names))
            raise SweepError(f"runs[{k}] does not set the same parameters as runs[0] "
                             f"(differ in {', '.join(difference)})")
    return Design(names, tuple(tuple(plain(run[name]) for name in names) for run in runs))
