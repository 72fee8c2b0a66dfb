"""Results of a run: streaming writers (CSV, Dymola ``.mat``) and the in-memory table.

``open_writer(path, columns)`` picks the format from the suffix; ``as_structured(rows,
columns)`` turns rows (time first) into a numpy structured array with named fields;
``read_results`` reads either format back (with the units a ``.mat`` file records).
"""
from __future__ import annotations

import csv as csv_text  # the module cosim.results.csv takes the name csv here
import os
import re
from pathlib import Path

import numpy as np

from cosim.errors import CosimError
from cosim.results.csv import CsvWriter
from cosim.results.mat import MatWriter

WRITERS = {".csv": CsvWriter, ".mat": MatWriter}


def open_writer(path: str | os.PathLike, columns: tuple[str, ...],
                units: tuple[str | None, ...] = (), texts: tuple[str, ...] = ()):
    """A writer for ``path`` (``.csv`` or ``.mat``); the file is created at once. It writes
    structured arrays (fields ``time`` and the columns).

    ``units`` (one per column, ``None`` for none) go into a ``.mat`` file's descriptions as
    Dymola writes them (``[m]``); a CSV file has no place for them. ``texts`` are the String
    and Binary columns (a ``.mat`` file leaves them out).
    """
    suffix = Path(path).suffix.lower()
    if suffix not in WRITERS:
        raise CosimError(f"unknown result format '{suffix}': use .csv or .mat", str(path))
    try:
        if suffix == ".mat":
            descriptions = tuple(f"[{u}]" if u else "" for u in units) if units else None
            return MatWriter(path, columns, descriptions, texts)
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
    return _read_mat(path)[0]


def _read_mat(path) -> tuple[np.ndarray, dict[str, str | None]]:
    from scipy.io import loadmat

    data = loadmat(str(path), chars_as_strings=False)
    names = ["".join(column).rstrip() for column in data["name"].T]
    descriptions = ["".join(column).rstrip() for column in data["description"].T]
    values = data["data_2"]
    info = data["dataInfo"]
    rows = np.column_stack([values[abs(info[1, k]) - 1] for k in range(len(names))])
    units = {}
    for name, text in zip(names[1:], descriptions[1:]):
        match = re.search(r"\[([^|\]]*)[^\]]*\]\s*$", text)  # "[unit]" or "[unit|display]"
        units[name] = match.group(1) if match else None
    return as_structured(rows, tuple(names[1:])), units


def read_csv(path: str | os.PathLike) -> np.ndarray:
    """A CSV result file (a header ``time,a.y,...``, then one value per column) as a structured
    array: integer columns as int64 (uint64 beyond its range), other numbers as float64,
    anything else as text."""
    with open(path, newline="") as file:
        lines = list(csv_text.reader(file))
    names = tuple(n.strip() for n in lines[0]) if lines else ()
    rows = [row for row in lines[1:] if row]
    if not names or names[0] != "time" or any(len(row) != len(names) for row in rows):
        raise CosimError("not a result table: the header must be time,<columns> with one "
                         "value per column in each row", str(path))
    columns = [_typed([row[k] for row in rows]) for k in range(len(names))]
    if columns[0].dtype.kind not in "fiu":
        raise CosimError("not a result table: the times are not numbers", str(path))
    table = np.empty(len(rows), dtype=[("time", "f8")] + [(name, c.dtype) for name, c in
                                                          zip(names[1:], columns[1:])])
    for name, column in zip(names, columns):
        table[name] = column
    return table


def _typed(texts: list[str]) -> np.ndarray:
    """A column of CSV fields as integers, else floats, else texts."""
    try:
        numbers = [int(t) for t in texts]
        return np.array(numbers, dtype="u8" if numbers and max(numbers) > 2**63 - 1 else "i8")
    except (ValueError, OverflowError):
        pass
    try:
        return np.array([float(t) for t in texts], dtype="f8")
    except ValueError:
        return np.array(texts, dtype=object)


def read_results(path: str | os.PathLike) -> tuple[np.ndarray, dict[str, str | None]]:
    """The table of a ``.csv`` or ``.mat`` result file and the units it records (a
    ``.mat`` file's descriptions; none for CSV)."""
    suffix = Path(path).suffix.lower()
    if not Path(path).is_file():
        raise CosimError("no such file", str(path))
    try:
        if suffix == ".mat":
            return _read_mat(path)
        if suffix == ".csv":
            return read_csv(path), {}
    except (ValueError, KeyError, IndexError) as error:
        raise CosimError(f"cannot read the results: {error}", str(path)) from None
    raise CosimError(f"unknown result format '{suffix}': use .csv or .mat", str(path))


__all__ = ["CsvWriter", "MatWriter", "open_writer", "as_structured", "read_mat", "read_csv",
           "read_results"]
