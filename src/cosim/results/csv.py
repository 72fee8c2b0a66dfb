"""Streaming CSV results: a header ``time,component.variable,...`` then one line per row,
written (and flushed) chunk by chunk so a failed run keeps every row computed before it.

Each column is written as its type is: floats with all the digits that give the same value
back (17 for Float64, 9 for Float32), integers exactly (64-bit ones too), Booleans as 0/1,
Strings quoted (a quote inside doubled), Binary values as hexadecimal.
"""
from __future__ import annotations

import os
from pathlib import Path

import numpy as np

FORMATS = {"f": "%.17g", "i": "%d", "u": "%d", "b": "%d", "O": "%s"}


def _format(dtype: np.dtype) -> str:
    return "%.9g" if dtype == np.float32 else FORMATS[dtype.kind]


def _name(column: str) -> str:
    """A column name, quoted when it holds a comma or a quote (``A[1,2]``)."""
    return _text(column) if "," in column or '"' in column else column


def _text(value) -> str:
    if isinstance(value, bytes):
        return value.hex()
    return '"' + str(value).replace('"', '""') + '"'


class CsvWriter:
    def __init__(self, path: str | os.PathLike, columns: tuple[str, ...]):
        self.path = Path(path)
        self.file = open(self.path, "w", newline="")
        self.file.write(",".join(_name(c) for c in ("time",) + tuple(columns)) + "\n")
        self.rows = 0

    def write(self, table: np.ndarray) -> None:
        """Rows of a structured array (fields ``time`` and the columns)."""
        if not len(table):
            return
        fields = table.dtype.names
        formats = [_format(table.dtype[name]) for name in fields]
        texts = [name for name in fields if table.dtype[name].kind == "O"]
        if texts:
            table = table.copy()
            for name in texts:
                table[name] = [_text(v) for v in table[name]]
        np.savetxt(self.file, table, fmt=formats, delimiter=",")
        self.file.flush()
        self.rows += len(table)

    def close(self) -> None:
        self.file.close()
