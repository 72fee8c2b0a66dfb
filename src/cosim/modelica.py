"""Modelica components of an SSP (``type="text/x-modelica"``, or ``text/x-python`` for a
model class of a Python file, ``source="plant.py#Plant"``), compiled into FMUs.

Input: a ``SystemStructure`` whose components may name a ``.mo`` file or a Modelica package
folder. Output: the same structure with each such component an FMU component whose
``source_path`` is its compiled FMU (an absolute path under a work folder), through the
compiler's FMU cache. The class: the MIME type's ``path`` parameter
(``type="text/x-modelica; path=Lib.Gain"``) or the source URI's fragment (``Lib.mo#Lib.Gain``);
by default the file's last class. Errors of the Modelica source are located in it
(``Gain.mo:3:5``) and name the component.
"""
from __future__ import annotations

import os
import posixpath
from dataclasses import replace
from pathlib import Path
from urllib.parse import unquote, urlsplit

from compiler.errors import CompilerError
from cosim.errors import CosimError
from cosim.ssp import SspError, materialize
from cosim.ssp.model import (
    FMU_TYPE, PYTHON_TYPE, Component, Diagnostic, Location, System, SystemStructure,
    iter_components,
)


def model_class(component: Component) -> str | None:
    """The Modelica class a component names (``None``: the file's last class).

    Raises ``CosimError`` when the MIME type's ``path`` and the URI fragment disagree.
    """
    parameters = {}
    for item in component.type.split(";")[1:]:
        key, _, value = item.partition("=")
        parameters[key.strip().lower()] = value.strip().strip('"')
    by_type = parameters.get("path") or None
    by_fragment = unquote(urlsplit(component.source or "").fragment) or None
    if by_type and by_fragment and by_type != by_fragment:
        raise CosimError(f"component '{component.name}': class '{by_type}' in the type but "
                         f"'{by_fragment}' in the source", str(component.location or ""))
    return by_type or by_fragment


def has_modelica(structure: SystemStructure) -> bool:
    return any(c.kind == "modelica" for _, _, c in iter_components(structure))


def compile_modelica(structure: SystemStructure, work: str | os.PathLike,
                     environ=None) -> SystemStructure:
    """``structure`` with every Modelica component compiled into an FMU under ``work``.

    Raises ``CosimError`` for the first component that cannot be compiled, located in its
    Modelica source where the compiler says where.
    """
    compiled, problems = _compile_all(structure, Path(work), environ)
    if problems:
        first = problems[0]
        raise CosimError(first.message, str(first.location or ""))
    return _with_fmus(structure, compiled)


def check_modelica(structure: SystemStructure, work: str | os.PathLike, environ=None
                   ) -> tuple[SystemStructure, list[Diagnostic]]:
    """As ``compile_modelica``, but every failure is an error diagnostic and the component
    stays as it is (for ``info`` and ``validate``)."""
    compiled, problems = _compile_all(structure, Path(work), environ)
    return _with_fmus(structure, compiled), problems


def _compile_all(structure: SystemStructure, work: Path, environ
                 ) -> tuple[dict[str, str], list[Diagnostic]]:
    compiled: dict[str, str] = {}
    problems: list[Diagnostic] = []
    for dotted, document, component in iter_components(structure):
        if component.kind != "modelica":
            continue
        try:
            compiled[dotted] = str(_compile_one(dotted, document, component, work, environ))
        except CosimError as error:
            where = getattr(error, "where", None) or component.location
            problems.append(Diagnostic("error", error.message, where))
    return compiled, problems


class ModelicaError(CosimError):
    """A Modelica component that does not compile; ``where`` is the place in its source."""

    def __init__(self, message: str, where: Location | None):
        super().__init__(message, str(where or ""))
        self.where = where


def _compile_one(dotted: str, document: SystemStructure, component: Component, work: Path,
                 environ) -> Path:
    from compiler.compile import compile_fmu  # the pipeline and gcc: loaded only when needed

    what = f"component '{dotted}'"
    if component.source_path is None or document.package is None:
        raise ModelicaError(f"{what}: no Modelica source", component.location)
    model = model_class(component)
    root = work / "sources" / dotted
    try:
        path = materialize(document.package, component.source_path, root)
    except SspError as error:
        raise ModelicaError(f"{what}: {error.message}", error.where or component.location) \
            from None
    if path.is_dir():
        if not (path / "package.mo").is_file():
            raise ModelicaError(f"{what}: folder '{component.source}' has no package.mo",
                                component.location)
        if model is None:
            raise ModelicaError(f"{what}: name the class of the package folder "
                                f"'{component.source}' (type=\"text/x-modelica; "
                                f"path={path.name}.Model\")", component.location)
        path = path / "package.mo"
    try:
        if component.type.split(";")[0].strip() == PYTHON_TYPE:
            from cosim.build.compile import compile_python
            return compile_python(path, model, (), work / "fmus" / f"{dotted}.fmu", environ)
        return compile_fmu(path, model, (), work / "fmus" / f"{dotted}.fmu", environ)
    except CompilerError as error:
        where = _source_location(error, document, component, path, root)
        raise ModelicaError(f"{what}: {error.message}", where) from None


def _source_location(error: CompilerError, document: SystemStructure, component: Component,
                     path: Path, root: Path) -> Location | None:
    """The error's place, as the package shows its files (``models/Gain.mo:3:5``)."""
    span = error.span
    if span is None:
        return component.location
    package = document.package
    base = Path(package.root) if not package.is_archive and not package.nested else root
    prefix = "".join(f"{member}/" for member in package.nested)
    try:
        relative = Path(span.file).resolve().relative_to(base.resolve()).as_posix()
        file = prefix + posixpath.normpath(relative)
    except ValueError:  # a library outside the package (MODELICAPATH)
        file = span.file
    return Location(file, span.line, span.col)


def _with_fmus(structure: SystemStructure, compiled: dict[str, str]) -> SystemStructure:
    if not compiled:
        return structure
    return replace(structure, system=_system(structure.system, compiled, ""))


def _system(system: System, compiled: dict[str, str], prefix: str) -> System:
    elements = []
    for element in system.elements:
        path = f"{prefix}.{element.name}" if prefix else element.name
        if isinstance(element, System):
            element = _system(element, compiled, path)
        elif isinstance(element, Component):
            if path in compiled:
                element = replace(element, type=FMU_TYPE, source_path=compiled[path])
            elif element.nested is not None:
                nested = element.nested
                element = replace(element, nested=replace(
                    nested, system=_system(nested.system, compiled, path)))
        elements.append(element)
    return replace(system, elements=tuple(elements))
