"""The result table of a sweep, and where it goes as runs finish.

Input: a ``Design`` and the outputs of finished runs (final values, or full time series).
Output: chunks of columns ``run``, the parameters, (``time``,) the outputs, appended to a
Parquet (pyarrow) or CSV file chosen by the suffix, and kept in memory for the numpy
structured array ``collect`` returns, sorted by run (and time).
"""
from __future__ import annotations

import csv
import os
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from cosim.sweeps.design import Design
from cosim.sweeps.spec import SweepError

SUFFIXES = (".parquet", ".csv")
# Parquet rows are buffered into row groups of this many rows, or this many seconds' worth.
FLUSH_ROWS, FLUSH_SECONDS = 65536, 2.0
NUMPY_TYPES = {"int64": np.int64, "float64": np.float64, "bool": np.bool_}


def _kind(values: list) -> str:
    if all(isinstance(v, (bool, np.bool_)) for v in values):
        return "bool"
    if all(isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in values):
        return "int64"
    if all(isinstance(v, (int, float, np.number)) and not isinstance(v, bool) for v in values):
        return "float64"
    return "string"


@dataclass(frozen=True, slots=True)
class Layout:
    """The table's columns: ``run``, the parameters (name, kind), ``time`` in a series
    table, then the outputs (float64)."""

    parameters: tuple[tuple[str, str], ...]
    outputs: tuple[str, ...]
    series: bool

    @property
    def names(self) -> tuple[str, ...]:
        return (("run",) + tuple(name for name, _ in self.parameters)
                + (("time",) if self.series else ()) + self.outputs)

    def kinds(self) -> tuple[str, ...]:
        return (("int64",) + tuple(kind for _, kind in self.parameters)
                + (("float64",) if self.series else ()) + ("float64",) * len(self.outputs))


def layout_of(design: Design, outputs: tuple[str, ...], series: bool) -> Layout:
    for name in outputs:
        if name in design.names:
            raise SweepError(f"'{name}' is both a swept parameter and a recorded output",
                             f"--record {name}")
    return Layout(tuple((name, _kind(design.column(name))) for name in design.names),
                  tuple(outputs), series)


def make_chunk(layout: Layout, design: Design, runs: list[int], values: list[np.ndarray]
               ) -> list[np.ndarray]:
    """Columns (in ``layout.names`` order) of finished ``runs``: ``values[i]`` is run
    ``runs[i]``'s final outputs, shape (n_outputs,), or its series, shape (n_rows, 1 +
    n_outputs) with time first."""
    if layout.series:
        counts = [len(v) for v in values]
        order = np.repeat(np.arange(len(runs)), counts)
        block = np.concatenate(values) if values else np.empty((0, 1 + len(layout.outputs)))
    else:
        order = np.arange(len(runs))
        block = np.array(values, dtype=float).reshape(len(runs), len(layout.outputs))
    columns = [np.array(runs, dtype=np.int64)[order]]
    for j, (_, kind) in enumerate(layout.parameters):
        column = [design.rows[r][j] for r in runs]
        if kind == "string":
            column = [str(v) for v in column]
        columns.append(np.array(column, dtype=NUMPY_TYPES.get(kind, object))[order])
    columns.extend(block[:, k] for k in range(block.shape[1]))
    return columns


class ParquetSink:
    """Appends chunks to a Parquet file as row groups; the file is valid once closed."""

    def __init__(self, path: Path, layout: Layout):
        import pyarrow as pa
        import pyarrow.parquet as pq

        self.pa = pa
        types = {"int64": pa.int64(), "float64": pa.float64(), "bool": pa.bool_(),
                 "string": pa.string()}
        self.schema = pa.schema([(n, types[k]) for n, k in zip(layout.names, layout.kinds())])
        self.writer = pq.ParquetWriter(str(path), self.schema)
        self.pending: list[list[np.ndarray]] = []
        self.rows = 0
        self.flushed = time.monotonic()

    def add(self, chunk: list[np.ndarray]) -> None:
        self.pending.append(chunk)
        self.rows += len(chunk[0])
        if self.rows >= FLUSH_ROWS or time.monotonic() - self.flushed >= FLUSH_SECONDS:
            self.flush()

    def flush(self) -> None:
        if self.pending:
            columns = [np.concatenate(parts) for parts in zip(*self.pending)]
            arrays = [self.pa.array(c, type=f.type) for c, f in zip(columns, self.schema)]
            self.writer.write_table(self.pa.Table.from_arrays(arrays, schema=self.schema))
        self.pending, self.rows, self.flushed = [], 0, time.monotonic()

    def close(self) -> None:
        self.flush()
        self.writer.close()


class CsvSink:
    """Appends chunks to a CSV file with a header line; floats written to round-trip."""

    def __init__(self, path: Path, layout: Layout):
        self.file = open(path, "w", newline="")
        self.writer = csv.writer(self.file)
        self.writer.writerow(layout.names)
        self.file.flush()

    def add(self, chunk: list[np.ndarray]) -> None:
        self.writer.writerows(zip(*(column.tolist() for column in chunk)))
        self.file.flush()

    def close(self) -> None:
        self.file.close()


def open_sink(path: str | os.PathLike, layout: Layout):
    """A Parquet or CSV sink for ``path`` by its suffix; the file is created at once."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in SUFFIXES:
        raise SweepError(f"unknown sweep result format '{suffix}': use .parquet or .csv",
                         str(path))
    try:
        return (ParquetSink if suffix == ".parquet" else CsvSink)(path, layout)
    except OSError as error:
        raise SweepError(f"cannot write results: {error.strerror}", str(path)) from None


def collect(layout: Layout, chunks: list[list[np.ndarray]]) -> np.ndarray:
    """The chunks as one structured array with the layout's fields, sorted by run (and
    time); string parameters become unicode fields."""
    columns = [np.concatenate(parts) for parts in zip(*chunks)] if chunks else \
        [np.empty(0, dtype=NUMPY_TYPES.get(k, object)) for k in layout.kinds()]
    dtype = []
    for name, kind, column in zip(layout.names, layout.kinds(), columns):
        width = max((len(v) for v in column), default=1) if kind == "string" else 0
        dtype.append((name, f"U{max(width, 1)}" if kind == "string" else NUMPY_TYPES[kind]))
    table = np.empty(len(columns[0]), dtype=dtype)
    for (name, _), column in zip(dtype, columns):
        table[name] = column
    keys = ("run", "time") if layout.series else ("run",)
    return table[np.lexsort([table[k] for k in reversed(keys)])]
