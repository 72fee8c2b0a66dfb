"""Loading an SSP: the target (``.ssp``, folder, or a bare ``.ssd``/``.ssv``/``.ssm``/``.ssb``),
its variant, the files it refers to and its nested systems, then validation.

Input: a path. Output: the document's value (``SystemStructure`` for systems) and the
diagnostics of reading, schema and semantic checks. Lenient by default; ``strict=True``
raises the first problem as an ``SspError``.
"""
from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path
from typing import Union

from cosim.ssp.archive import DEFAULT_LIMITS, Limits
from cosim.ssp.errors import Findings, SspError, raise_on_problems, refuse
from cosim.ssp.model import (
    Diagnostic, PackageRef, ParameterMapping, ParameterSet, SignalDictionary, SystemStructure,
    component_kind,
)
from cosim.ssp.package import DEFAULT_SSD, FolderPackage, Package, open_package, resolve_source
from cosim.ssp.schema import schema_problems
from cosim.ssp.ssb import read_signal_dictionary
from cosim.ssp.ssd import read_ssd
from cosim.ssp.ssm import read_parameter_mapping
from cosim.ssp.ssv import read_parameter_set
from cosim.ssp.validate import check_structure
from cosim.ssp.xmlread import Doc, local_name, parse_xml

Document = Union[SystemStructure, ParameterSet, ParameterMapping, SignalDictionary]

READERS = {
    "ParameterSet": read_parameter_set,
    "ParameterMapping": read_parameter_mapping,
    "SignalDictionary": read_signal_dictionary,
}
ROOT_OF_SUFFIX = {".ssv": "ParameterSet", ".ssm": "ParameterMapping", ".ssb": "SignalDictionary"}
LABELS = {"ParameterSet": "parameter set", "ParameterMapping": "parameter mapping",
          "SignalDictionary": "signal dictionary"}


class PackageFiles:
    """Reads the files of one package for the SSD reader (``ssd.Files``), each file once."""

    def __init__(self, package: Package, findings: Findings, schema_dir, stack=()):
        self.package = package
        self.findings = findings
        self.schema_dir = schema_dir
        self.stack = stack
        self.values: dict[tuple[str, str], object] = {}

    def parse(self, member: str):
        """``(Doc, root)`` of a member, schema-checked; ``SspError`` if it is not XML."""
        doc = Doc(self.package.display(member), self.findings, member)
        root = parse_xml(self.package.read(member), doc.file, self.findings)
        self.findings.extend(schema_problems(root, doc.file, self.schema_dir))
        return doc, root

    def structure(self, member: str) -> SystemStructure:
        doc, root = self.parse(member)
        return replace(read_ssd(doc, root, self), package=self.package.ref)

    def external(self, doc: Doc, element, uri: str, kind: str, component: str | None):
        what = f"{LABELS[kind]} '{uri}'"
        if component is not None:
            return self._inside_component(doc, element, uri, kind, component)
        member, _, problem = resolve_source(self.package, doc.member, uri)
        if problem or not self.package.exists(member):
            doc.error(element, f"{what} {problem or 'not found'}")
            return None
        return self._value(self, member, kind, doc, element)

    def _inside_component(self, doc, element, uri, kind, component):
        """A file inside the component's archive (``sourceBase="component"``)."""
        try:
            with self.package.open_nested(component) as inner:
                files = PackageFiles(inner, self.findings, self.schema_dir, self.stack)
                member, _, problem = resolve_source(inner, "", uri)
                if problem or not inner.exists(member):
                    doc.error(element, f"{LABELS[kind]} '{uri}' in {component}: "
                                       f"{problem or 'not found'}")
                    return None
                return self._value(files, member, kind, doc, element)
        except SspError as error:
            self.findings.error(error.message, error.where or doc.loc(element))
            return None

    def _value(self, files: PackageFiles, member: str, kind: str, doc: Doc, element):
        key = (files.package.display(member), kind)
        if key not in self.values:
            self.values[key] = self._read(files, member, kind, doc, element)
        return self.values[key]

    def _read(self, files: PackageFiles, member: str, kind: str, doc: Doc, element):
        try:
            inner_doc, root = files.parse(member)
        except SspError as error:
            self.findings.error(error.message, error.where)
            return None
        if local_name(root) != kind:
            doc.error(element, f"{inner_doc.file} is a {local_name(root)}, not a {LABELS[kind]}")
            return None
        return READERS[kind](inner_doc, root)

    def component(self, doc: Doc, element, name: str, source: str | None, mime: str):
        if source is None:
            return None, None
        member, fragment, problem = resolve_source(self.package, doc.member, source)
        if problem:
            doc.error(element, f"component '{name}': source '{source}' {problem}")
            return None, None
        if not self.package.exists(member):
            doc.error(element, f"component '{name}': source file '{source}' not found")
            return member, None
        kind = component_kind(mime)
        if kind not in ("ssd", "ssp"):
            return member, None
        key = (self.package.ref, member, fragment)
        if key in self.stack:
            doc.error(element, f"component '{name}': '{source}' refers back to itself")
            return member, None
        try:
            return member, self._nested(kind, member, fragment, key)
        except SspError as error:
            self.findings.error(f"component '{name}': {error.message}",
                                error.where or doc.loc(element))
            return member, None

    def _nested(self, kind: str, member: str, fragment: str, key) -> SystemStructure:
        if kind == "ssd":
            files = PackageFiles(self.package, self.findings, self.schema_dir, self.stack + (key,))
            files.values = self.values
            return files.structure(member)
        with self.package.open_nested(member) as inner:
            files = PackageFiles(inner, self.findings, self.schema_dir, self.stack + (key,))
            return files.structure(choose_variant(inner, fragment or None, inner.display("")))


def choose_variant(package: Package, variant: str | None, name: str) -> str:
    """The SSD member to load: ``SystemStructure.ssd`` or the named variant beside it."""
    ssds = package.top_level_ssds()
    wanted = DEFAULT_SSD if variant is None else variant
    for candidate in (wanted, wanted + ".ssd"):
        if candidate in ssds:
            return candidate
    listed = ", ".join(s[:-4] for s in ssds) or "none"
    if variant is None:
        raise refuse(f"no {DEFAULT_SSD} (variants: {listed})", name)
    raise refuse(f"no variant '{variant}' (variants: {listed})", name)


def _open(path: Path, variant: str | None, limits: Limits) -> tuple[Package, str]:
    if path.is_file() and path.suffix.lower() in (".ssd", *ROOT_OF_SUFFIX):
        if variant is not None:
            raise refuse("a variant can be chosen only in an .ssp archive or a folder", str(path))
        ref = PackageRef(str(path.parent.resolve()))
        return FolderPackage(path.parent, ref, limits=limits), path.name
    package = open_package(path, limits)
    try:
        return package, choose_variant(package, variant, str(path))
    except SspError:
        package.close()
        raise


def read(path: str | os.PathLike, variant: str | None = None, strict: bool = False,
         limits: Limits = DEFAULT_LIMITS, schema_dir: str | os.PathLike | None = None
         ) -> tuple[Document, tuple[Diagnostic, ...]]:
    """Read any SSP target: a system (``.ssp``, folder, ``.ssd``) or an ``.ssv``/``.ssm``/``.ssb``.

    Returns the value and the diagnostics; with ``strict`` the first problem is raised.
    """
    findings = Findings()
    package, member = _open(Path(path), variant, limits)
    with package:
        files = PackageFiles(package, findings, schema_dir, ((package.ref, member, ""),))
        kind = ROOT_OF_SUFFIX.get(Path(member).suffix.lower())
        if kind is None:
            value = files.structure(member)
            findings.extend(check_structure(value))
        else:
            doc, root = files.parse(member)
            if local_name(root) != kind:
                raise refuse(f"expected a {LABELS[kind]}, found {local_name(root)}", doc.loc(root))
            value = READERS[kind](doc, root)
    diagnostics = tuple(findings.items)
    if strict:
        raise_on_problems(diagnostics)
    return value, diagnostics


def load(path: str | os.PathLike, variant: str | None = None, strict: bool = False,
         limits: Limits = DEFAULT_LIMITS, schema_dir: str | os.PathLike | None = None
         ) -> tuple[SystemStructure, tuple[Diagnostic, ...]]:
    """Load a system: an ``.ssp`` archive, an unpacked folder or an ``.ssd`` file.

    Parameters
    ----------
    path : str or PathLike
        The target.
    variant : str, optional
        Name of a variant ``.ssd`` beside ``SystemStructure.ssd`` (with or without ``.ssd``).
    strict : bool
        Raise the first problem as an ``SspError`` instead of returning it.
    limits : Limits
        Bounds on archive sizes.
    schema_dir : path, optional
        Folder of the SSP XSDs to check against (default: fmpy's SSP 1.0 XSDs).

    Returns
    -------
    (SystemStructure, tuple of Diagnostic)
    """
    value, diagnostics = read(path, variant, strict, limits, schema_dir)
    if not isinstance(value, SystemStructure):
        raise refuse(f"not a system structure but a {type(value).__name__}", str(path))
    return value, diagnostics
