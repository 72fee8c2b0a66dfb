"""The error of the Python front end, and the places (``Span``) of Python source it points at.

``BuildError`` is a ``CompilerError``: ``str(error)`` is ``file.py:line:col: message``, so the
CLI prints it as it prints Modelica errors. ``caller_span`` is the place in the user's code
that called into ``cosim.build`` (the declaration or equation being made).
"""
from __future__ import annotations

import sys
import traceback

from compiler.errors import CompilerError, Span

_PACKAGE = __name__.rsplit(".", 1)[0]  # "cosim.build"


class BuildError(CompilerError):
    """A Python model that does not describe a Modelica class, located in its Python source."""


def _ours(filename: str, module: str) -> bool:
    return module == _PACKAGE or module.startswith(_PACKAGE + ".")


def caller_span() -> Span | None:
    """The place of the innermost frame outside ``cosim.build`` (file, line, column)."""
    frame = sys._getframe(1)
    while frame is not None and _ours(frame.f_code.co_filename,
                                      frame.f_globals.get("__name__", "")):
        frame = frame.f_back
    if frame is None:
        return None
    return _frame_span(frame.f_code, frame.f_lasti, frame.f_lineno)


def _frame_span(code, lasti: int, line: int) -> Span:
    positions = getattr(code, "co_positions", None)  # Python 3.11: columns of instructions
    if positions is not None and lasti >= 0:
        for index, place in enumerate(positions()):
            if index == lasti // 2:
                start, end, col, end_col = place
                if start is not None and col is not None:
                    return Span(code.co_filename, start, col + 1, end or start,
                                end_col or col + 1)
                break
    return Span(code.co_filename, line or 1, 1)


def user_span(error: BaseException, files: tuple[str, ...] = ()) -> Span | None:
    """Where a Python exception raised in the user's code happened: the innermost frame of
    its traceback that is not ``cosim.build`` (or, given ``files``, in one of them)."""
    if isinstance(error, SyntaxError) and error.filename:
        return Span(error.filename, error.lineno or 1, error.offset or 1)
    place = None
    for frame, line in traceback.walk_tb(error.__traceback__):
        filename = frame.f_code.co_filename
        if files and filename not in files:
            continue
        if not _ours(filename, frame.f_globals.get("__name__", "")):
            place = _frame_span(frame.f_code, frame.f_lasti, line)
    return place


def from_python(error: Exception, what: str, files: tuple[str, ...] = ()) -> CompilerError:
    """A located error for a Python exception raised while ``what`` ran (a ``CompilerError``
    passes as it is)."""
    if isinstance(error, CompilerError):
        return error
    message = str(error) if not isinstance(error, SyntaxError) else error.msg
    return BuildError(f"{what}: {type(error).__name__}: {message}", user_span(error, files))
