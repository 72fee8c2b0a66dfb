"""Ctrl-C that waits for the table: while a batch is being written, SIGINT is held back and
raised as ``KeyboardInterrupt`` once the batch is whole on disk and in memory.

``Deferral`` installs its handler only in the main thread (where Python delivers signals);
elsewhere ``critical()`` does nothing.
"""
from __future__ import annotations

import contextlib
import signal
import threading


class Deferral:
    """``with Deferral() as deferral: ... with deferral.critical(): write()``"""

    def __init__(self):
        self.pending = False
        self.depth = 0
        self.previous = None

    def _handler(self, signum, frame) -> None:
        if self.depth:
            self.pending = True
        else:
            raise KeyboardInterrupt

    def __enter__(self) -> Deferral:
        if threading.current_thread() is threading.main_thread():
            self.previous = signal.signal(signal.SIGINT, self._handler)
        return self

    def __exit__(self, *exc) -> None:
        if self.previous is not None:
            signal.signal(signal.SIGINT, self.previous)

    @contextlib.contextmanager
    def critical(self):
        self.depth += 1
        try:
            yield
        finally:
            self.depth -= 1
        if self.pending and not self.depth:
            self.pending = False
            raise KeyboardInterrupt
