"""The C sources a model's external functions need, found from their annotations (MLS 12.9.4).

Input: the ``flat.ExternalCall`` of each external function the model calls (with the span
of its function, for errors). Output: ``ExternalSources``: the files that go into the FMU's
sources/ (each ``Library``'s C sources, and the headers they and the ``Include`` texts
include, looked up in the ``IncludeDirectory`` folders), the ones to compile, their
preprocessor definitions, and the system libraries to link.

A library ``L`` is, in this order: a system library (``m``, ``pthread``, ``lapack``, ...); one of the
Modelica Standard Library's (its Resources/C-Sources/readme.txt lists their files); the file
``L.c``, or the ``.c`` files of a folder ``L``, in an ``IncludeDirectory``. The files are
copied flat into sources/ (an importer rebuilds the binary from that one folder), except the
library's own ``ModelicaUtilities.h``: the runtime has its own (fmu_templates/).
"""
from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from pathlib import Path

from compiler.errors import CompilerError
from compiler.fmu.runtime_files import (
    EXTERNAL_RUNTIME_HEADERS, EXTERNAL_RUNTIME_SOURCES, RUNTIME_HEADERS, RUNTIME_SOURCES)

SYSTEM_LIBRARIES = frozenset({"m", "c", "dl", "pthread", "rt"})
# Fortran libraries the system provides (Modelica.Math.Matrices calls LAPACK): linked, not
# bundled, so an FMU that calls them needs the system's liblapack (liblapack3) at run time;
# names are matched ignoring case ("Lapack")
SYSTEM_FORTRAN_LIBRARIES = frozenset({"lapack", "blas"})
# the object libraries of the Modelica Standard Library and their sources (readme.txt)
MSL_LIBRARIES = {
    "ModelicaExternalC": ("ModelicaFFT.c", "ModelicaInternal.c", "ModelicaRandom.c",
                          "ModelicaStrings.c"),
    "ModelicaStandardTables": ("ModelicaStandardTables.c", "ModelicaStandardTablesUsertab.c"),
    "ModelicaIO": ("ModelicaIO.c",),
    "ModelicaMatIO": ("ModelicaMatIO.c", "snprintf.c"),
    "zlib": ("zlib/*.c",),
}
# definitions the Modelica Standard Library's sources are built with (its gcc Makefile):
# POSIX headers, zlib compression of MATLAB files, the dummy usertab() of the tables
LIBRARY_DEFINITIONS = (("NDEBUG", "1"), ("HAVE_UNISTD_H", "1"), ("HAVE_STDARG_H", "1"),
                       ("HAVE_MEMCPY", "1"), ("HAVE_HIDDEN", "1"), ("HAVE_ZLIB", "1"),
                       ("DUMMY_FUNCTION_USERTAB", "1"))
# headers the runtime provides itself
RUNTIME_PROVIDED = frozenset({"ModelicaUtilities.h"})
# the names the FMU's own files take in sources/
RESERVED = frozenset(RUNTIME_SOURCES + RUNTIME_HEADERS + EXTERNAL_RUNTIME_SOURCES +
                     EXTERNAL_RUNTIME_HEADERS + ("config.h", "model_info.c", "model.c",
                                                 "model_external.c", "buildDescription.xml"))
_INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]', re.MULTILINE)


class ExternalSourceError(CompilerError):
    """An external function's C code cannot be found or copied."""


@dataclass(frozen=True, slots=True)
class ExternalSources:
    """``files``: (name in sources/, absolute path of the original); ``compiled``: the names
    of the C files among them to compile; ``definitions``: (name, value) for them;
    ``libraries``: system libraries to link (``m`` for ``-lm``)."""
    files: tuple[tuple[str, str], ...] = ()
    compiled: tuple[str, ...] = ()
    definitions: tuple[tuple[str, str], ...] = ()
    libraries: tuple[str, ...] = ()

    def digest(self) -> str:
        """A digest of the content of every file: part of the cache key of compiled FMUs."""
        digest = hashlib.sha256()
        for name, origin in self.files:
            digest.update(name.encode() + b"\0")
            digest.update(Path(origin).read_bytes())
        digest.update(repr((self.compiled, self.definitions, self.libraries)).encode())
        return digest.hexdigest()


@dataclass(frozen=True, slots=True)
class ExternalCode:
    """What a model with external functions, external objects or Strings it makes adds to
    its FMU: the runtime's external_support.c, model_external.c (``source``, empty without
    external functions), the libraries' C files (``sources``) and the files of
    ``loadResource`` (``resources``: name in the FMU's resources/, file or folder here)."""
    source: str = ""
    sources: ExternalSources = ExternalSources()
    resources: tuple[tuple[str, str], ...] = ()


def content_digest(paths) -> str:
    """A digest of the files (folders: every file below them) at ``paths``."""
    digest = hashlib.sha256()
    for path in map(Path, paths):
        for item in sorted(path.rglob("*")) if path.is_dir() else [path]:
            if item.is_file():
                digest.update(str(item).encode() + b"\0")
                digest.update(item.read_bytes())
    return digest.hexdigest()


def external_sources(calls) -> ExternalSources:
    """The sources of ``calls``: (``flat.ExternalCall``, span of its function) pairs."""
    collector = _Collector(RESERVED)
    for call, span in calls:
        collector.add(call, span)
    if not collector.files and not collector.libraries:
        return ExternalSources()
    definitions = LIBRARY_DEFINITIONS if collector.compiled else ()
    return ExternalSources(tuple((name, str(path)) for name, path in collector.files.items()),
                           tuple(collector.compiled), definitions, tuple(collector.libraries))


class _Collector:
    def __init__(self, reserved: frozenset):
        self.reserved = reserved
        self.files: dict[str, Path] = {}     # name in sources/ -> original
        self.compiled: list[str] = []
        self.libraries: list[str] = []

    def add(self, call, span) -> None:
        site = _Site([Path(item) for item in call.include_directories], span, call.function)
        for library in call.libraries:
            if library.lower() in SYSTEM_FORTRAN_LIBRARIES:
                library = library.lower()
            if library in SYSTEM_LIBRARIES | SYSTEM_FORTRAN_LIBRARIES:
                if library not in self.libraries:
                    self.libraries.append(library)
                continue
            sources = _library_sources(library, site.folders)
            if not sources:
                where = ", ".join(map(str, site.folders)) or "no IncludeDirectory"
                raise ExternalSourceError(
                    f"the library \"{library}\" of the external function {call.function} has "
                    f"no C sources in {where}", span)
            # a library's sources include its own headers with <...> (zlib)
            site.folders += [path.parent for path in sources if path.parent not in site.folders]
            for path in sources:
                name = self.copy(path, site)
                if name not in self.compiled:
                    self.compiled.append(name)
        for text in call.include:
            self.scan(text, None, site)

    def copy(self, path: Path, site: "_Site") -> str:
        """Put ``path`` among the files (under its own name) and those it includes."""
        name = path.name
        known = self.files.get(name)
        if known == path:
            return name
        if known is not None or name in self.reserved:
            raise ExternalSourceError(
                f"two C files named {name} for the external function {site.function} ({path} "
                f"and {known or 'the runtime'}): sources/ holds one folder of files", site.span)
        self.files[name] = path
        self.scan(path.read_text(errors="replace"), path.parent, site)
        return name

    def scan(self, text: str, folder: Path | None, site: "_Site") -> None:
        """Copy the headers ``text`` includes that lie in ``folder`` (the including file's,
        searched first for ``"..."``) or in the call's include folders."""
        for bracket, name in _INCLUDE.findall(text):
            if Path(name).name in RUNTIME_PROVIDED or Path(name).name in self.files:
                continue
            places = ([folder] if folder is not None and bracket == '"' else []) + site.folders
            found = next((place / name for place in places if (place / name).is_file()), None)
            if found is not None:   # else a system header
                self.copy(found.resolve(), site)


@dataclass(slots=True)
class _Site:
    """Where one external function looks for its files, and what errors name."""
    folders: list[Path]
    span: object
    function: str


def _library_sources(library: str, folders) -> list[Path]:
    """The C files of ``library`` in the first folder that has them."""
    for folder in folders:
        for patterns in (MSL_LIBRARIES.get(library), (f"{library}.c",), (f"{library}/*.c",)):
            found = [path.resolve() for pattern in patterns or ()
                     for path in sorted(folder.glob(pattern)) if path.is_file()]
            if found:
                return found
    return []
