"""Results of a run: streaming writers (CSV, Dymola ``.mat``) and the in-memory table.

``open_writer(path, columns)`` picks the format from the suffix; ``as_structured(rows,
columns)`` turns rows (time first) into a numpy structured array with named fields.
"""
from __future__ import annotations

import os
from pathlib import Path

import numpy as np

from cosim.errors import CosimError
from cosim.results.csv import CsvWriter
from cosim.results.mat import MatWriter

WRITERS = {".csv": CsvWriter, ".mat": MatWriter}


def open_writer(path: str | os.PathLike, columns: tuple[str, ...]):
    """A writer for ``path`` (``.csv`` or ``.mat``); the file is created at once."""
    suffix = Path(path).suffix.lower()
    if suffix not in WRITERS:
        raise CosimError(f"unknown result format '{suffix}': use .csv or .mat", str(path))
    try:
        return WRITERS[suffix](path, columns)
    except OSError as error:
        raise CosimError(f"cannot write results: {error.strerror}", str(path)) from None


def as_structured(rows: np.ndarray, columns: tuple[str, ...]) -> np.ndarray:
    """Rows (time, then one value per column) as a structured array with fields
    ``time`` and the column names."""
    dtype = np.dtype([("time", "f8")] + [(name, "f8") for name in columns])
    table = np.empty(len(rows), dtype=dtype)
    for k, name in enumerate(("time",) + tuple(columns)):
        table[name] = rows[:, k] if len(rows) else []
    return table


def read_mat(path: str | os.PathLike) -> np.ndarray:
    """A Dymola ``.mat`` result file (binTrans, as written here) as a structured array."""
    from scipy.io import loadmat

    data = loadmat(str(path), chars_as_strings=False)
    names = ["".join(column).rstrip() for column in data["name"].T]
    values = data["data_2"]
    info = data["dataInfo"]
    rows = np.column_stack([values[abs(info[1, k]) - 1] for k in range(len(names))])
    return as_structured(rows, tuple(names[1:]))


__all__ = ["CsvWriter", "MatWriter", "open_writer", "as_structured", "read_mat"]
