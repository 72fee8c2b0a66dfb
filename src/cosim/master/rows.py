"""Result rows of the C loop (raw 8-byte slots) as typed tables.

Input: the plan's columns and rows of slots (time, then one slot per column) with the texts
the loop pooled. Output: numpy structured arrays with field ``time`` and one field per column
of the variable's own type: ``f8``/``f4`` for floats, ``i1`` ... ``u8`` for integers (64-bit
values exact), ``?`` for Booleans, Python ``str``/``bytes`` objects for String and Binary.
"""
from __future__ import annotations

import numpy as np

from cosim.fmi.types import COLUMN_DTYPES, SLOT_DTYPES


class RowDecoder:
    def __init__(self, columns: tuple[str, ...], types: tuple[str, ...]):
        self.columns = columns
        self.types = types
        self.dtype = np.dtype([("time", "f8")] + [(name, COLUMN_DTYPES[t])
                                                  for name, t in zip(columns, types)])

    @classmethod
    def of_plan(cls, plan) -> RowDecoder:
        return cls(tuple(c.name for c in plan.columns),
                   tuple(plan.signals[c.signal].variable.exchange for c in plan.columns))

    def decode(self, raw: np.ndarray, texts: list[bytes]) -> np.ndarray:
        """Rows of slots, shape (n, 1 + columns), as a structured array."""
        table = np.empty(len(raw), dtype=self.dtype)
        raw = np.ascontiguousarray(raw, dtype="<u8")
        table["time"] = raw[:, 0].view("<f8") if len(raw) else []
        for k, (name, type_name) in enumerate(zip(self.columns, self.types)):
            table[name] = self._column(raw[:, 1 + k], type_name, texts)
        return table

    @staticmethod
    def _column(slots: np.ndarray, type_name: str, texts: list[bytes]):
        if type_name == "String":
            return [texts[int(i)].decode("utf-8", "replace") for i in slots]
        if type_name == "Binary":
            return [texts[int(i)] for i in slots]
        values = np.ascontiguousarray(slots).view("<" + SLOT_DTYPES[type_name])
        if type_name == "Boolean":
            return values != 0
        return values.astype(COLUMN_DTYPES[type_name])

    def empty(self) -> np.ndarray:
        return np.empty(0, dtype=self.dtype)
