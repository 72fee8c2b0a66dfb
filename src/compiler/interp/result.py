"""The result of a reference simulation: a time grid of every variable.

Input: recorded rows. Output: ``Result`` with ``time``, ``names``, ``values`` (one row per
recorded time, one column per name) and the event instants; ``result["x"]`` is a column.
At an event the time appears twice: the values before and after it.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True, slots=True)
class Result:
    """``values[k, j]`` is variable ``names[j]`` at ``time[k]``."""
    time: np.ndarray
    names: tuple[str, ...]
    values: np.ndarray
    events: tuple[float, ...] = ()

    def __getitem__(self, name: str) -> np.ndarray:
        try:
            return self.values[:, self.names.index(name)]
        except ValueError:
            raise KeyError(name) from None

    def at(self, name: str, t: float) -> float:
        """Value of ``name`` at time ``t`` (linear between points; after an event at ``t``)."""
        column = self[name]
        index = np.searchsorted(self.time, t, side="right") - 1
        if index >= 0 and self.time[index] == t:
            return float(column[index])
        return float(np.interp(t, self.time, column))
