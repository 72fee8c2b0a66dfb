"""Modelica libraries: single files, directory packages and the search path, parsed lazily.

Input: file and directory paths (``--lib DIR``, ``MODELICAPATH``). Output: a ``Library`` whose
``ClassEntry`` tree is discovered from the file system and parsed class by class on first use,
so a broken class only reports its error when something uses it.
"""
from __future__ import annotations

import os
from pathlib import Path

from compiler.source_guard import read_source as guarded_read
from compiler.errors import CompilerError, Span
from compiler.lang import ast, parse


class LibraryError(CompilerError):
    """A library's files do not form a valid package (missing package.mo, misnamed file, ...)."""


class ClassEntry:
    """One class of a library: its place in the class tree and its (lazily parsed) definition.

    Parameters
    ----------
    name : str
        The class's own name.
    parent : ClassEntry or None
        The enclosing class; None for a top-level class.
    definition : ast.ClassDef or None
        The parsed class, or None when ``load`` must produce it on first use.
    load : callable or None
        ``load() -> ast.ClassDef``, raising a ``CompilerError`` when the source is broken.
    directory : Path or None
        For a directory package, the folder whose files and folders are its further classes.
    """

    __slots__ = ("name", "parent", "_definition", "_load", "directory", "_children", "_order")

    def __init__(self, name, parent=None, definition=None, load=None, directory=None):
        self.name = name
        self.parent = parent
        self._definition = definition
        self._load = load
        self.directory = directory
        self._children = None
        self._order = None

    def __repr__(self) -> str:
        return f"<ClassEntry {self.full_name}>"

    @property
    def full_name(self) -> str:
        return self.name if self.parent is None else f"{self.parent.full_name}.{self.name}"

    @property
    def definition(self) -> ast.ClassDef:
        if self._definition is None:
            self._definition = self._load()
        return self._definition

    def children(self) -> dict[str, ClassEntry]:
        """Nested classes by name: those written inside the definition, then files and folders."""
        if self._children is None:
            self._children = {}
            body = self.definition.body
            if isinstance(body, ast.Composition):
                for element in body.elements:
                    if isinstance(element, ast.ClassDef):
                        self._children[element.name] = ClassEntry(element.name, self, element)
            if self.directory is not None:
                for name, entry in _directory_entries(self.directory, self).items():
                    self._children.setdefault(name, entry)
                self._children = _ordered(self._children, self.directory)
        return self._children

    def child(self, name: str) -> ClassEntry | None:
        return self.children().get(name)


def _package_file(directory: Path, parent: ClassEntry | None) -> ClassEntry:
    name = directory.name
    package_mo = directory / "package.mo"
    if not package_mo.is_file():
        def missing():
            # No span: the error is reported where the package is used.
            raise LibraryError(f"directory '{directory}' is not a package: it has no package.mo")
        return ClassEntry(name, parent, load=missing)
    return ClassEntry(name, parent, load=lambda: _load_class(package_mo, name), directory=directory)


def _directory_entries(directory: Path, parent: ClassEntry | None) -> dict[str, ClassEntry]:
    """Classes stored as ``Name.mo`` files and ``Name/`` folders of a directory."""
    entries = {}
    try:
        names = sorted(os.listdir(directory))
    except OSError as error:
        raise LibraryError(f"cannot read directory: {error.strerror}", Span(str(directory), 1, 1))
    for item in names:
        path = directory / item
        if item.endswith(".mo") and item != "package.mo" and path.is_file():
            name = item[:-3]
            entries[name] = ClassEntry(name, parent, load=lambda p=path, n=name: _load_class(p, n))
        elif path.is_dir() and item.isidentifier():
            entries[item] = _package_file(path, parent)
    return entries


def _ordered(entries: dict, directory: Path) -> dict:
    """``entries`` in the order of the directory's ``package.order`` (others after)."""
    order_file = directory / "package.order"
    if not order_file.is_file():
        return entries
    order = [line.strip() for line in _read_text(order_file).splitlines()]
    ranked = {name: rank for rank, name in enumerate(order) if name}
    return dict(sorted(entries.items(), key=lambda item: ranked.get(item[0], len(ranked))))


def read_source(path: Path) -> str:
    """A Modelica file's text; empty, huge, binary or non-UTF-8 files are refused (source_guard)."""
    return guarded_read(path)


def _read_text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as error:
        raise LibraryError(f"not UTF-8 text (byte {error.start})", Span(str(path), 1, 1))
    except OSError as error:
        raise LibraryError(f"cannot read file: {error.strerror}", Span(str(path), 1, 1))


def _load_class(path: Path, name: str) -> ast.ClassDef:
    """The class ``name`` that the library file ``path`` must define, alone."""
    stored = parse(read_source(path), str(path))
    if len(stored.classes) != 1 or stored.classes[0].name != name:
        found = ", ".join(cls.name for cls in stored.classes) or "no class"
        raise LibraryError(f"file must define exactly the class {name}, found {found}",
                           stored.span or Span(str(path), 1, 1))
    return stored.classes[0]


class Library:
    """The classes a model can see: its own file's, then those of the search path in order.

    The first definition of a top-level name wins. ``lookup("A.B.C")`` walks the tree.
    """

    def __init__(self):
        self._roots: dict[str, ClassEntry | None] = {}  # None: known not to exist
        self._search: list[Path] = []

    def add_stored_definition(self, stored: ast.StoredDefinition, parent: ClassEntry | None,
                              directory: Path | None = None) -> list[ClassEntry]:
        """Add a parsed file's classes, at the top level or inside ``parent`` (``within``);
        ``directory`` holds further classes of a package read from its ``package.mo``."""
        entries = []
        for cls in stored.classes:
            entry = ClassEntry(cls.name, parent, cls, directory=directory)
            if parent is None:
                self._roots[cls.name] = entry
            else:
                parent.children()[cls.name] = entry
            entries.append(entry)
        return entries

    def add_path(self, path: Path) -> None:
        """A library location: a package folder (with package.mo), a ``.mo`` file, or a folder
        of top-level classes (a MODELICAPATH entry)."""
        path = Path(path)
        self._roots = {name: entry for name, entry in self._roots.items() if entry is not None}
        if path.is_file():
            self._search.append(path)
        elif path.is_dir():
            self._search.append(path)
        else:
            raise LibraryError("no such file or directory", Span(str(path), 1, 1))

    def root(self, name: str) -> ClassEntry | None:
        """The top-level class ``name``, found lazily along the search path."""
        if name in self._roots:
            return self._roots[name]
        entry = None
        for location in self._search:
            entry = _root_in(location, name)
            if entry is not None:
                break
        self._roots[name] = entry
        return entry

    def resolve_uri(self, uri: str) -> Path | None:
        """The file or folder of a ``modelica://Package.Class/path`` URI (MLS 13.5), or None
        when its class is not on the path; a ``file://`` URI is its path."""
        if uri.startswith("file://"):
            return Path(uri[len("file://"):])
        if not uri.startswith("modelica://"):
            return None
        host, _, rest = uri[len("modelica://"):].partition("/")
        entry = self.lookup(host)
        if entry is None:
            return None
        base = entry
        while base.directory is None and base.parent is not None:
            base = base.parent
        if base.directory is not None:
            folder = base.directory
        else:
            span = base.definition.span
            if span is None:
                return None
            folder = Path(span.file).parent
        return folder / rest if rest else folder

    def lookup(self, dotted: str) -> ClassEntry | None:
        parts = dotted.split(".")
        entry = self.root(parts[0])
        for part in parts[1:]:
            if entry is None:
                return None
            entry = entry.child(part)
        return entry


def _root_in(location: Path, name: str) -> ClassEntry | None:
    if location.is_file():
        if location.stem != name:
            return None
        return ClassEntry(name, None, load=lambda: _load_class(location, name))
    if (location / "package.mo").is_file():
        return _package_file(location, None) if location.name == name else None
    candidate = location / name
    if candidate.is_dir():
        return _package_file(candidate, None)
    if (location / f"{name}.mo").is_file():
        path = location / f"{name}.mo"
        return ClassEntry(name, None, load=lambda: _load_class(path, name))
    return None


def search_path(libs=(), environ=None) -> list[Path]:
    """``libs`` in order, then the existing entries of ``MODELICAPATH`` (``os.pathsep``
    separated)."""
    environ = os.environ if environ is None else environ
    extra = [Path(item) for item in environ.get("MODELICAPATH", "").split(os.pathsep) if item]
    # A stale MODELICAPATH entry is common and harmless; a missing --lib is an error.
    return [Path(item) for item in libs] + [path for path in extra if path.exists()]
