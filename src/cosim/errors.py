"""Error types of the master side; each carries where the problem is."""
from __future__ import annotations


class CosimError(Exception):
    """Base of every error the master reports to a user.

    ``location`` names the file and element (``SystemStructure.ssd: connection a.y -> b.u``)
    or the FMU instance and time; ``str(error)`` is ``location: message``.
    """

    def __init__(self, message: str, location: str = ""):
        super().__init__(message)
        self.message = message
        self.location = location

    def __str__(self) -> str:
        return f"{self.location}: {self.message}" if self.location else self.message
