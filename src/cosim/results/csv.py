"""Streaming CSV results: a header ``time,component.variable,...`` then one line per row,
written (and flushed) chunk by chunk so a failed run keeps every row computed before it."""
from __future__ import annotations

import os
from pathlib import Path

import numpy as np


class CsvWriter:
    def __init__(self, path: str | os.PathLike, columns: tuple[str, ...]):
        self.path = Path(path)
        self.file = open(self.path, "w", newline="")
        self.file.write(",".join(("time",) + tuple(columns)) + "\n")
        self.rows = 0

    def write(self, rows: np.ndarray) -> None:
        if len(rows):
            np.savetxt(self.file, rows, fmt="%.17g", delimiter=",")
            self.file.flush()
            self.rows += len(rows)

    def close(self) -> None:
        self.file.close()
