"""Safe reading and extraction of untrusted zip archives (``.ssp``, and ``.fmu``/``.ssp`` inside).

Input: a path or binary file object. Output: checked ``ZipFile`` objects, member bytes read
under limits, and extracted folders. Refused with a one-line ``SspError`` naming the archive and
the entry: names that escape the folder or are absolute, symbolic links, encrypted entries,
entries that appear twice with different contents, too many entries, too much declared size,
and entries that decompress beyond their declared size or beyond a compression ratio (checked
while streaming, not from headers alone). An entry repeated with the same content (some FMU
packagers write them) is used once, with a warning.
"""
from __future__ import annotations

import logging
import os
import posixpath
import shutil
import stat
import tempfile
import zipfile
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Callable

import zipfile_deflate64  # noqa: F401  (registers Deflate64 decompression with zipfile)

from cosim.ssp.errors import refuse

LOGGER = logging.getLogger("cosim.ssp")
CHUNK = 1 << 16
# Nested archives are spooled to memory up to this size, to a temporary file beyond it.
SPOOL_IN_MEMORY = 1 << 26


@dataclass(frozen=True, slots=True)
class Limits:
    """Bounds on what an archive may expand to.

    ``max_ratio`` bounds decompressed / compressed bytes of one entry once ``ratio_floor``
    bytes have come out (small files may compress better than any real resource does).
    ``max_depth`` bounds archives nested inside archives.
    """

    max_total_size: int = 2 * 1024**3
    max_entries: int = 100_000
    max_ratio: float = 200.0
    ratio_floor: int = 1 << 20
    max_depth: int = 8


DEFAULT_LIMITS = Limits()


def entry_problem(name: str) -> str | None:
    """Why an entry name is unsafe to extract, or ``None``."""
    if "\x00" in name:
        return "has a NUL character in its name"
    normalized = name.replace("\\", "/")
    if normalized.startswith("/") or (len(normalized) > 1 and normalized[1] == ":"):
        return "is an absolute path"
    if ".." in normalized.split("/"):
        return "escapes the extraction folder"
    return None


def is_symlink(info: zipfile.ZipInfo) -> bool:
    return stat.S_ISLNK(info.external_attr >> 16)


def open_archive(source: str | os.PathLike | IO[bytes], name: str,
                 limits: Limits = DEFAULT_LIMITS) -> zipfile.ZipFile:
    """Open ``source`` as a zip archive and check every entry; ``name`` is used in messages."""
    try:
        archive = zipfile.ZipFile(source)
    except (zipfile.BadZipFile, OSError, ValueError) as error:
        raise refuse(f"not a readable zip archive: {error}", name) from None
    try:
        check_entries(archive, name, limits)
    except BaseException:
        archive.close()
        raise
    return archive


def check_entries(archive: zipfile.ZipFile, name: str, limits: Limits) -> None:
    infos = archive.infolist()
    if len(infos) > limits.max_entries:
        raise refuse(f"archive has {len(infos)} entries, more than the limit of "
                     f"{limits.max_entries}", name)
    total = 0
    seen: dict[str, zipfile.ZipInfo] = {}
    repeated: list[str] = []
    for info in infos:
        entry = info.filename
        problem = entry_problem(entry)
        if problem is None and is_symlink(info):
            problem = "is a symbolic link"
        if problem is None and info.flag_bits & 0x1:
            problem = "is encrypted"
        if problem:
            raise refuse(f"entry '{entry}' {problem}", name)
        first = seen.setdefault(_key(entry), info)
        if first is not info:
            _check_repeated(archive, first, info, name, limits)
            repeated.append(entry)
            continue
        total += info.file_size
        if total > limits.max_total_size:
            raise refuse(f"entry '{entry}': archive expands to more than the limit of "
                         f"{limits.max_total_size} bytes", name)
    if repeated:
        shown = ", ".join(f"'{e}'" for e in repeated[:3]) + (", ..." if len(repeated) > 3 else "")
        LOGGER.warning("%s: warning: %d entr%s appear%s twice with the same content (%s); each "
                       "is used once", name, len(repeated), "y" if len(repeated) == 1 else "ies",
                       "s" if len(repeated) == 1 else "", shown)


def _key(entry: str) -> str:
    return posixpath.normpath(entry.replace("\\", "/"))


def _check_repeated(archive: zipfile.ZipFile, first: zipfile.ZipInfo, again: zipfile.ZipInfo,
                    name: str, limits: Limits) -> None:
    """A name that appears twice: refused unless both entries hold the same bytes."""
    same = (first.is_dir() and again.is_dir()) or (
        first.file_size == again.file_size and first.CRC == again.CRC and
        _content(archive, first, name, limits) == _content(archive, again, name, limits))
    if not same:
        raise refuse(f"entry '{again.filename}' appears twice with different contents", name)


def _content(archive, info, name, limits) -> bytes:
    parts: list[bytes] = []
    stream_entry(archive, info, name, limits, parts.append)
    return b"".join(parts)


def unique_entries(archive: zipfile.ZipFile) -> list[zipfile.ZipInfo]:
    """The archive's entries, each name once (the first of identical repeats)."""
    seen: set[str] = set()
    entries = []
    for info in archive.infolist():
        if _key(info.filename) not in seen:
            seen.add(_key(info.filename))
            entries.append(info)
    return entries


def stream_entry(archive: zipfile.ZipFile, info: zipfile.ZipInfo, name: str, limits: Limits,
                 sink: Callable[[bytes], object]) -> None:
    """Decompress ``info`` chunk by chunk into ``sink``, refusing bombs and corrupt data."""
    produced = 0
    ceiling = limits.max_ratio * max(info.compress_size, 1)
    try:
        with archive.open(info) as stream:
            while chunk := stream.read(CHUNK):
                produced += len(chunk)
                if produced > info.file_size:
                    raise refuse(f"entry '{info.filename}' expands beyond its declared size of "
                                 f"{info.file_size} bytes", name)
                if produced > limits.ratio_floor and produced > ceiling:
                    raise refuse(f"entry '{info.filename}' expands more than "
                                 f"{limits.max_ratio:g}:1 (a compression bomb?)", name)
                sink(chunk)
    except (zipfile.BadZipFile, zlib.error, EOFError, NotImplementedError, OSError) as error:
        raise refuse(f"entry '{info.filename}' cannot be read: {error}", name) from None


def read_entry(archive: zipfile.ZipFile, member: str, name: str, limits: Limits) -> bytes:
    return _content(archive, archive.getinfo(member), name, limits)


def spool_entry(archive: zipfile.ZipFile, member: str, name: str, limits: Limits) -> IO[bytes]:
    """The entry in a seekable temporary file (memory first, disk when large)."""
    spool = tempfile.SpooledTemporaryFile(max_size=SPOOL_IN_MEMORY)
    try:
        stream_entry(archive, archive.getinfo(member), name, limits, spool.write)
    except BaseException:
        spool.close()
        raise
    spool.seek(0)
    return spool


def extract(source: str | os.PathLike | IO[bytes], destination: str | os.PathLike,
            name: str | None = None, limits: Limits = DEFAULT_LIMITS) -> Path:
    """Extract a whole archive into ``destination`` (created) after checking it.

    Returns the destination folder. Nothing is written outside it; a refused archive leaves
    what was extracted so far, which the caller removes with its temporary folder.
    """
    name = name or (str(source) if isinstance(source, (str, os.PathLike)) else "archive")
    target = Path(destination)
    target.mkdir(parents=True, exist_ok=True)
    with open_archive(source, name, limits) as archive:
        for info in unique_entries(archive):
            path = target.joinpath(*info.filename.replace("\\", "/").split("/"))
            if info.is_dir():
                path.mkdir(parents=True, exist_ok=True)
                continue
            path.parent.mkdir(parents=True, exist_ok=True)
            with open(path, "wb") as out:
                stream_entry(archive, info, name, limits, out.write)
    return target


def copy_stream(stream: IO[bytes], path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "wb") as out:
        shutil.copyfileobj(stream, out, CHUNK)
    return path
