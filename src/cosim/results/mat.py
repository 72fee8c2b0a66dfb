"""Streaming Dymola-compatible result files (MATLAB v4, ``binTrans`` layout).

Matrices, in order: ``Aclass`` (rows Atrajectory, 1.1, "", binTrans), ``name`` and
``description`` (one column per variable; a unit as ``[m]``), ``dataInfo`` (int32, 4 x n:
data block, column, interpolation, extrapolation), ``data_1`` (time start/end) and ``data_2``
(one column of n values per time point). Columns of ``data_2`` are appended as rows arrive;
its column count and the end time in ``data_1`` are patched after every chunk, so the file
is complete whenever it is flushed. Values are doubles, as Dymola writes them: integers beyond
2^53 lose digits (a warning says so; CSV keeps them exact) and String and Binary columns are
left out.
"""
from __future__ import annotations

import logging
import os
import struct
from pathlib import Path

import numpy as np

TEXT, INT32, DOUBLE = 51, 20, 0  # MAT v4 type codes: uint8 text, int32, double
EXACT_INTEGERS = 2**53  # doubles hold every integer of smaller magnitude
LOGGER = logging.getLogger("cosim.results")


def _header(file, name: str, type_code: int, rows: int, columns: int) -> int:
    """Write a matrix header; returns the file offset of its column count."""
    start = file.tell()
    file.write(struct.pack("<iiiii", type_code, rows, columns, 0, len(name) + 1))
    file.write(name.encode("ascii") + b"\0")
    return start + 8  # after the type and the row count


def _text(file, name: str, strings: list[str], one_per_column: bool = True) -> None:
    """A char matrix: one string per column (``name``, ``description`` of binTrans) or one
    per row (``Aclass``); MAT v4 stores matrices column by column."""
    width = max(1, max(len(s.encode("utf-8")) for s in strings))
    padded = b"".join(s.encode("utf-8").ljust(width, b" ") for s in strings)
    if one_per_column:
        _header(file, name, TEXT, width, len(strings))
        file.write(padded)
    else:
        _header(file, name, TEXT, len(strings), width)
        rows = np.frombuffer(padded, dtype=np.uint8).reshape(len(strings), width)
        file.write(rows.T.tobytes())


def _numeric(table: np.ndarray) -> list[str]:
    return [name for name in table.dtype.names if table.dtype[name].kind != "O"]


class MatWriter:
    def __init__(self, path: str | os.PathLike, columns: tuple[str, ...],
                 descriptions: tuple[str, ...] | None = None,
                 texts: tuple[str, ...] = ()):
        """``texts``: the String and Binary columns, left out (a .mat file holds numbers)."""
        self.path = Path(path)
        self.file = open(self.path, "wb")
        if texts:
            LOGGER.warning("%s: warning: String and Binary columns are not written to a .mat "
                           "file (%s); use .csv", path, ", ".join(texts))
        kept = [k for k, name in enumerate(columns) if name not in texts]
        columns = tuple(columns[k] for k in kept)
        descriptions = tuple(descriptions[k] for k in kept) if descriptions else None
        self.inexact_warned = False
        names = ["time", *columns]
        descriptions = ["Time in [s]", *(descriptions or [""] * len(columns))]
        self.width = len(names)
        _text(self.file, "Aclass", ["Atrajectory", "1.1", "", "binTrans"], one_per_column=False)
        _text(self.file, "name", names)
        _text(self.file, "description", descriptions)
        _header(self.file, "dataInfo", INT32, 4, self.width)
        info = np.zeros((self.width, 4), dtype="<i4")
        info[0] = (0, 1, 0, -1)
        info[1:, 0], info[1:, 1], info[1:, 3] = 2, np.arange(2, self.width + 1), -1
        self.file.write(info.tobytes())
        _header(self.file, "data_1", DOUBLE, 1, 2)
        self.time_range = self.file.tell()
        self.file.write(struct.pack("<dd", 0.0, 0.0))
        self.count_offset = _header(self.file, "data_2", DOUBLE, self.width, 0)
        self.rows = 0
        self.first_time: float | None = None

    def write(self, table: np.ndarray) -> None:
        """Rows of a structured array (fields ``time`` and the columns)."""
        if not len(table):
            return
        names = _numeric(table)
        self._check_exact(table, names)
        rows = np.column_stack([table[name].astype("<f8") for name in names])
        self.file.write(np.ascontiguousarray(rows, dtype="<f8").tobytes())
        if self.first_time is None:
            self.first_time = float(rows[0, 0])
        self.rows += len(rows)
        end = self.file.tell()
        self.file.seek(self.count_offset)
        self.file.write(struct.pack("<i", self.rows))
        self.file.seek(self.time_range)
        self.file.write(struct.pack("<dd", self.first_time, float(rows[-1, 0])))
        self.file.seek(end)
        self.file.flush()

    def _check_exact(self, table: np.ndarray, names: list[str]) -> None:
        if self.inexact_warned:
            return
        for name in names:
            column = table[name]
            if column.dtype.kind in "iu" and column.dtype.itemsize == 8 and \
                    np.any((column > EXACT_INTEGERS) | (column < -EXACT_INTEGERS)):
                LOGGER.warning("%s: warning: '%s' has integers beyond 2^53, which a .mat file "
                               "(doubles) does not hold exactly; use .csv", self.path, name)
                self.inexact_warned = True
                return

    def close(self) -> None:
        self.file.close()
