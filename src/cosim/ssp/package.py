"""Access to the files of an SSP: an unpacked folder, an ``.ssp`` archive, archives inside it.

Input: a target path. Output: a ``Package`` that reads members by their package-relative
POSIX path under the archive limits, resolves ``source`` URIs, opens nested archives, and
``materialize`` that puts one member (an FMU, say) on disk for the master.
"""
from __future__ import annotations

import os
import posixpath
import re
import zipfile
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator
from urllib.parse import unquote, urlsplit

from cosim.ssp.archive import (
    DEFAULT_LIMITS, Limits, copy_stream, open_archive, read_entry, spool_entry,
)
from cosim.ssp.errors import refuse
from cosim.ssp.model import PackageRef

DEFAULT_SSD = "SystemStructure.ssd"


class Package:
    """Files of one folder or archive. ``prefix`` is prepended to member names in messages."""

    def __init__(self, ref: PackageRef, prefix: str, limits: Limits, depth: int):
        self.ref = ref
        self.prefix = prefix
        self.limits = limits
        self.depth = depth

    is_archive = False

    def display(self, member: str) -> str:
        return self.prefix + member

    def read(self, member: str) -> bytes:
        raise NotImplementedError

    def exists(self, member: str) -> bool:
        raise NotImplementedError

    def top_level_ssds(self) -> list[str]:
        raise NotImplementedError

    def open_nested(self, member: str) -> Package:
        """The archive stored at ``member`` (a nested ``.ssp`` or an ``.fmu``) as a package."""
        if self.depth + 1 > self.limits.max_depth:
            raise refuse(f"archives nested deeper than {self.limits.max_depth} levels",
                         self.display(member))
        ref = PackageRef(self.ref.root, self.ref.is_archive, self.ref.nested + (member,))
        stream = self.open_stream(member)
        try:
            archive = open_archive(stream, self.display(member), self.limits)
        except BaseException:
            stream.close()
            raise
        return ZipPackage(archive, self.display(member), ref, self.display(member) + "/",
                          self.limits, self.depth + 1, stream)

    def open_stream(self, member: str):
        raise NotImplementedError

    def close(self) -> None:
        pass

    def __enter__(self) -> Package:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


class FolderPackage(Package):
    """An unpacked SSP, or the folder around a bare ``.ssd``; members may be absolute paths."""

    def __init__(self, root: Path, ref: PackageRef | None = None, prefix: str = "",
                 limits: Limits = DEFAULT_LIMITS, depth: int = 0):
        super().__init__(ref or PackageRef(str(root.resolve())), prefix, limits, depth)
        self.root = root

    def path(self, member: str) -> Path:
        return Path(member) if os.path.isabs(member) else self.root / member

    def read(self, member: str) -> bytes:
        try:
            return self.path(member).read_bytes()
        except OSError as error:
            raise refuse(f"cannot read: {error.strerror}", self.display(member)) from None

    def exists(self, member: str) -> bool:
        return self.path(member).exists()

    def top_level_ssds(self) -> list[str]:
        return sorted(p.name for p in self.root.glob("*.ssd") if p.is_file())

    def files_under(self, member: str) -> list[str]:
        folder = self.path(member)
        return sorted(posixpath.join(member, p.relative_to(folder).as_posix())
                      for p in folder.rglob("*") if p.is_file()) if folder.is_dir() else []

    def open_stream(self, member: str):
        try:
            return open(self.path(member), "rb")
        except OSError as error:
            raise refuse(f"cannot read: {error.strerror}", self.display(member)) from None


class ZipPackage(Package):
    is_archive = True

    def __init__(self, archive: zipfile.ZipFile, name: str, ref: PackageRef, prefix: str,
                 limits: Limits, depth: int, stream=None):
        super().__init__(ref, prefix, limits, depth)
        self.archive = archive
        self.name = name
        self.stream = stream  # the spooled bytes of a nested archive, closed with it
        self.names = {posixpath.normpath(n.replace("\\", "/")): n for n in archive.namelist()
                      if not n.endswith("/")}

    def _entry(self, member: str) -> str:
        entry = self.names.get(posixpath.normpath(member))
        if entry is None:
            raise refuse("no such file in the archive", self.display(member))
        return entry

    def read(self, member: str) -> bytes:
        return read_entry(self.archive, self._entry(member), self.name, self.limits)

    def exists(self, member: str) -> bool:
        """A file, or a folder (some file lies under it: a Modelica package directory)."""
        name = posixpath.normpath(member)
        return name in self.names or any(n.startswith(name + "/") for n in self.names)

    def files_under(self, member: str) -> list[str]:
        """The files below the folder ``member``, as members."""
        name = posixpath.normpath(member)
        return sorted(n for n in self.names if n.startswith(name + "/"))

    def top_level_ssds(self) -> list[str]:
        return sorted(n for n in self.names if "/" not in n and n.endswith(".ssd"))

    def open_stream(self, member: str):
        return spool_entry(self.archive, self._entry(member), self.display(member), self.limits)

    def close(self) -> None:
        self.archive.close()
        if self.stream is not None:
            self.stream.close()


def open_package(path: str | os.PathLike, limits: Limits = DEFAULT_LIMITS) -> Package:
    """The package of a folder or an ``.ssp`` file (any zip archive)."""
    path = Path(path)
    if path.is_dir():
        return FolderPackage(path, limits=limits)
    if not path.exists():
        raise refuse("no such file or folder", str(path))
    archive = open_archive(path, str(path), limits)
    return ZipPackage(archive, str(path), PackageRef(str(path.resolve()), True), "", limits, 0)


def resolve_source(package: Package, base_member: str, uri: str) -> tuple[str | None, str, str]:
    """Resolve a ``source`` URI against the file ``base_member``.

    Returns ``(member, fragment, problem)``: the package member (``None`` when it cannot be
    resolved, ``problem`` then says why), and the URI fragment (``#Variant.ssd``).
    """
    text = uri.replace("\\", "/")
    if re.match(r"[A-Za-z]:/", text):  # a Windows path, not a URI scheme
        path, fragment, absolute = text, "", True
    else:
        parts = urlsplit(text)
        if parts.scheme and parts.scheme.lower() != "file":
            return None, "", f"unsupported URI scheme '{parts.scheme}'"
        path, fragment = unquote(parts.path), unquote(parts.fragment)
        absolute = bool(parts.scheme) or path.startswith("/")
    if not path:
        return None, fragment, "refers to the same document, which is not supported"
    if absolute:
        if package.is_archive:
            return None, fragment, "is an absolute path, which an archive cannot resolve"
        return path, fragment, ""
    member = posixpath.normpath(posixpath.join(posixpath.dirname(base_member), path))
    if package.is_archive and (member == ".." or member.startswith("../")):
        return None, fragment, "points outside the archive"
    return member, fragment, ""


@contextmanager
def opened(ref: PackageRef, limits: Limits = DEFAULT_LIMITS) -> Iterator[Package]:
    """The package ``ref`` names (following nested archives), open for the ``with`` block."""
    packages = [open_package(ref.root, limits)]
    try:
        for nested in ref.nested:
            packages.append(packages[-1].open_nested(nested))
        yield packages[-1]
    finally:
        for package in reversed(packages):
            package.close()


def materialize(ref: PackageRef, member: str, destination: str | os.PathLike,
                limits: Limits = DEFAULT_LIMITS) -> Path:
    """A file-system path of ``member`` (a file, or a folder such as a Modelica package) of
    the package ``ref``.

    Members of folders are returned where they are; members of archives (also nested ones)
    are streamed into ``destination`` under the archive limits.
    """
    if os.path.isabs(member):
        return Path(member)
    if not ref.is_archive and not ref.nested:
        return Path(ref.root) / member
    with opened(ref, limits) as package:
        if not package.exists(member):
            raise refuse("no such file in the archive", package.display(member))
        names = package.files_under(member) or [member]
        for name in names:  # one file, or every file of a folder (a Modelica package)
            with package.open_stream(name) as stream:
                copy_stream(stream, Path(destination).joinpath(*name.split("/")))
    return Path(destination).joinpath(*posixpath.normpath(member).split("/"))
