"""The run's timeout when an in-process FMU call does not return.

The C loop checks the deadline after every step (and the Model Exchange driver between its
integrator steps), and a call into an isolated FMU is stopped by killing its worker; but a
call into an FMU loaded into this process cannot be interrupted. ``Watchdog`` waits for the
deadline plus a grace period: if the run is still inside a call then, it writes the rows the
C loop holds to the result file, prints the one-line error and ends the process with status 1
(what the command line wants; the API leaves the call running, as nothing else can be done
safely in a process that is still inside the FMU).
"""
from __future__ import annotations

import os
import sys
import threading
import time

GRACE = 2.0  # seconds after the deadline before a stuck in-process call ends the process


class Watchdog:
    def __init__(self, deadline: float, message, flush):
        """``message()`` is the error line; ``flush()`` writes what the loop holds."""
        self.deadline = deadline
        self.message = message
        self.flush = flush
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._watch, name="cosim-timeout", daemon=True)

    def start(self) -> Watchdog:
        self.thread.start()
        return self

    def stop(self) -> None:
        self.done.set()

    def _watch(self) -> None:
        wait = self.deadline + GRACE - time.monotonic()
        if self.done.wait(max(wait, 0.0)):
            return
        try:
            self.flush()
        finally:
            print(self.message(), file=sys.stderr, flush=True)
            os._exit(1)
