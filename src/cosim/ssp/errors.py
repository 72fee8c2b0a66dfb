"""The SSP error type and the collector that readers and checks append their findings to."""
from __future__ import annotations

from cosim.errors import CosimError
from cosim.ssp.model import Diagnostic, Location


class SspError(CosimError):
    """An SSP file or archive that cannot be used; ``location`` is ``file:line``.

    ``where`` keeps the location as a ``Location`` for diagnostics built from the error.
    """

    def __init__(self, message: str, location: Location | str | None = None):
        super().__init__(message, str(location) if location else "")
        self.where = location if isinstance(location, Location) else \
            (Location(location) if location else None)


class Findings:
    """Diagnostics gathered while reading and checking, in the order they were found."""

    def __init__(self) -> None:
        self.items: list[Diagnostic] = []

    def error(self, message: str, location: Location | None = None) -> None:
        self.items.append(Diagnostic("error", message, location))

    def warning(self, message: str, location: Location | None = None) -> None:
        self.items.append(Diagnostic("warning", message, location))

    def extend(self, diagnostics) -> None:
        self.items.extend(diagnostics)


def refuse(message: str, location: Location | str | None = None) -> SspError:
    """An ``SspError`` for ``message`` at ``location`` (a Location, a file name or nothing)."""
    return SspError(message, location)


def raise_on_problems(diagnostics: tuple[Diagnostic, ...] | list[Diagnostic]) -> None:
    """Raise the first error-severity diagnostic as an ``SspError`` (strict mode)."""
    problems = [d for d in diagnostics if d.severity == "error"]
    if not problems:
        return
    first = problems[0]
    others = len(problems) - 1
    more = f" (and {others} more problem{'s' if others > 1 else ''})" if others else ""
    raise refuse(first.message + more, first.location)
