"""Reading a Modelica source file that may not deserve trust: refuse what cannot be source.

Input: a path (and a size limit). Output: the file's text, or a ``SourceError`` whose
``str()`` is ``file: message`` for an empty file, a file above the limit (refused before it
is read, so memory stays bounded), binary content (NUL bytes) or text that is not UTF-8
(with the line and column of the first bad byte). A UTF-8 byte order mark is dropped.
"""
from __future__ import annotations

import os

from compiler.errors import CompilerError, Span

DEFAULT_MAX_BYTES = 50 * 1024 * 1024


class SourceError(CompilerError):
    """A source file that is not Modelica text: empty, too large, binary or not UTF-8."""

    def __init__(self, message: str, file: str, span: Span | None = None):
        super().__init__(message, span)
        self.file = file

    @property
    def location(self) -> str:
        return str(self.span) if self.span else self.file

    def __str__(self) -> str:
        return f"{self.location}: {self.message}"


def _position(data: bytes, offset: int) -> tuple[int, int]:
    """1-based line and column (in bytes) of ``offset``."""
    line_start = data.rfind(b"\n", 0, offset) + 1
    return data.count(b"\n", 0, offset) + 1, offset - line_start + 1


def read_source(path: str | os.PathLike, max_bytes: int = DEFAULT_MAX_BYTES) -> str:
    """The text of the Modelica file ``path``.

    Parameters
    ----------
    path : str or PathLike
        The ``.mo`` file.
    max_bytes : int
        Larger files are refused without reading them (default 50 MiB).

    Returns
    -------
    str
        The text, without a UTF-8 byte order mark.

    Raises
    ------
    SourceError
        ``file: error`` for a missing, unreadable, empty, too large, binary or non-UTF-8 file.
    """
    name = str(path)
    try:
        with open(path, "rb") as stream:
            size = os.fstat(stream.fileno()).st_size
            if size > max_bytes:
                raise SourceError(f"file is {size} bytes, more than the limit of {max_bytes} "
                                  f"bytes for Modelica source", name)
            data = stream.read(max_bytes + 1)  # the size may grow while we read
    except OSError as error:
        raise SourceError(f"cannot read: {error.strerror}", name) from None
    if len(data) > max_bytes:
        raise SourceError(f"file is more than the limit of {max_bytes} bytes for Modelica "
                          f"source", name)
    data = data.removeprefix(b"\xef\xbb\xbf")
    if not data.strip():
        raise SourceError("file is empty" if not data else "file holds only white space", name)
    nul = data.find(b"\0")
    if nul >= 0:
        line, col = _position(data, nul)
        raise SourceError("binary content (a NUL byte), not Modelica text",
                          name, Span(name, line, col))
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        line, col = _position(data, error.start)
        raise SourceError(f"not UTF-8 text (byte 0x{data[error.start]:02x})", name,
                          Span(name, line, col)) from None


__all__ = ["DEFAULT_MAX_BYTES", "SourceError", "read_source"]
