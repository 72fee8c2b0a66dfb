"""Time plots of results: one axis per unit, the signals of that unit on it.

Input: a structured array (``time`` and one field per column), optionally the columns' units
and a selection. Output: an image file (the format from its suffix: ``.png``, ``.pdf``,
``.svg``). matplotlib is an optional dependency (the ``plot`` extra); the figure is drawn
without pyplot, so no GUI backend or global state is involved.
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import Mapping, Sequence

import numpy as np

from cosim.errors import CosimError

MISSING_MATPLOTLIB = "plotting needs matplotlib: pip install 'cosim[plot]'"
AXIS_HEIGHT, WIDTH = 2.6, 8.0  # inches


def require_matplotlib():
    """matplotlib's ``Figure``; ``CosimError`` with the install hint when it is missing."""
    try:
        from matplotlib.figure import Figure
    except ImportError:
        raise CosimError(MISSING_MATPLOTLIB) from None
    return Figure


def choose_signals(values: np.ndarray, signals: Sequence[str] = ()) -> tuple[str, ...]:
    """The columns to plot: ``signals`` (checked) or every column but ``time``."""
    names = tuple(n for n in values.dtype.names if n != "time")
    unknown = [s for s in signals if s not in names]
    if unknown:
        raise CosimError(f"no signal {', '.join(repr(s) for s in unknown)} in the results "
                         f"(signals: {', '.join(names)})")
    return tuple(signals) or names


def group_by_unit(signals: Sequence[str], units: Mapping[str, str | None]
                  ) -> list[tuple[str | None, list[str]]]:
    """``[(unit, signals)]`` in the order units first appear."""
    groups: dict[str | None, list[str]] = {}
    for name in signals:
        groups.setdefault(units.get(name) or None, []).append(name)
    return list(groups.items())


def plot_results(values: np.ndarray, output: str | os.PathLike, signals: Sequence[str] = (),
                 units: Mapping[str, str | None] | None = None, title: str | None = None
                 ) -> Path:
    """Draw ``values`` over time into ``output``; returns its path.

    Parameters
    ----------
    values : numpy structured array
        Field ``time`` and one field per signal.
    output : str or PathLike
        The image; its suffix picks the format.
    signals : sequence of str
        The fields to plot (default: all but ``time``).
    units : mapping, optional
        Unit of each signal; one axis per unit (signals without a unit share one).
    title : str, optional
        The figure's title.
    """
    Figure = require_matplotlib()
    chosen = choose_signals(values, signals)
    if not chosen:
        raise CosimError("the results have no signal to plot")
    groups = group_by_unit(chosen, units or {})
    figure = Figure(figsize=(WIDTH, AXIS_HEIGHT * len(groups) + 0.8), layout="constrained")
    axes = figure.subplots(len(groups), 1, sharex=True, squeeze=False)[:, 0]
    for axis, (unit, names) in zip(axes, groups):
        for name in names:
            axis.plot(values["time"], values[name], label=name)
        axis.set_ylabel(f"[{unit}]" if unit else "value")
        axis.grid(True, alpha=0.3)
        axis.legend(loc="best", fontsize="small")
    axes[-1].set_xlabel("time [s]")
    if title:
        figure.suptitle(title)
    output = Path(output)
    try:
        figure.savefig(output, dpi=100)
    except (OSError, ValueError) as error:
        raise CosimError(f"cannot write the plot: {error}", str(output)) from None
    return output
