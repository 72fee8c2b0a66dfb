"""What ``cosim run`` runs: an ``.ssp``/folder/``.ssd`` system, or one ``.fmu`` (or Modelica
model, compiled through the compiler's cache) as a one-component system. Input: a path. Output:
the ``SystemStructure`` (Modelica components compiled into FMUs), the location used in messages,
and the FMUs of its components unpacked under a work folder (by dotted path).
"""
from __future__ import annotations

import logging
import os
from pathlib import Path

from cosim.errors import CosimError
from cosim.fmi import LoadedFmu, open_fmu
from cosim.fmi.description import ModelInfo, read_model_info
from cosim.modelica import compile_modelica, has_modelica
from cosim.ssp import DEFAULT_LIMITS, Limits, SspError, load, materialize
from cosim.ssp.schema import UNCHECKED
from cosim.ssp.model import (
    Component, Connector, PackageRef, SignalType, System, SystemStructure, iter_components,
)

LOGGER = logging.getLogger("cosim.master")


def single_fmu_structure(path: Path, info: ModelInfo) -> SystemStructure:
    """A system of one component named after the file, with the FMU's inputs and outputs."""
    connectors = tuple(Connector(v.name, v.causality, SignalType(v.type, unit=v.unit))
                       for v in info.variables
                       if v.causality in ("input", "output") and v.exchange is not None)
    component = Component(name=path.stem, source=path.name, connectors=connectors,
                          source_path=str(path.resolve()))
    return SystemStructure(name=path.stem, system=System(path.stem, (component,)),
                           file=path.name, package=PackageRef(str(path.parent.resolve())))


def load_target(path: str | os.PathLike, variant: str | None, workdir: str | os.PathLike,
                limits: Limits = DEFAULT_LIMITS, model: str | None = None, libs=()
                ) -> tuple[SystemStructure, str, dict[str, LoadedFmu]]:
    """The system of ``path`` and its unpacked FMUs; ``CosimError`` for what cannot run.

    Archives (the ``.ssp``, its FMUs) are unpacked within ``limits``. A ``.mo`` file is
    compiled (class ``model``, libraries ``libs``) into a component named after the model's
    FMI identifier; a Python model (a ``cosim.build`` class, or a ``.py`` file and its class
    ``model``) into a component named after its class. Compiler errors pass through as
    ``CompilerError``.
    """
    from cosim.build.compile import is_python_model

    if is_python_model(path):
        if variant is not None:
            raise CosimError("a variant can be chosen only for an SSP", str(path))
        fmu_path = _compiled_python(path, model, libs, Path(workdir))
        fmu = open_fmu(fmu_path, Path(workdir) / "fmus", fmu_path.stem, limits)
        return single_fmu_structure(fmu_path, fmu.info), fmu_path.stem, {fmu_path.stem: fmu}
    path = Path(path)
    work = Path(workdir)
    suffix = path.suffix.lower()
    if suffix != ".mo" and (model is not None or libs):
        raise CosimError("--model and --lib apply only to a Modelica (.mo) or Python (.py) file",
                         str(path))
    if suffix in (".fmu", ".mo"):
        if variant is not None:
            raise CosimError("a variant can be chosen only for an SSP", str(path))
        fmu_path = path if suffix == ".fmu" else _compiled(path, model, libs, work)
        fmu = open_fmu(fmu_path, work / "fmus", fmu_path.stem, limits)
        return single_fmu_structure(fmu_path, fmu.info), path.name, {fmu_path.stem: fmu}
    structure, diagnostics = load(path, variant, limits=limits)
    if has_modelica(structure):
        structure = compile_modelica(structure, work / "modelica")
    fmus = _component_fmus(structure, work, limits)
    for diagnostic in diagnostics:
        # a run does not promise schema validation (cosim validate does): no note about it
        level = logging.DEBUG if UNCHECKED in diagnostic.message else logging.WARNING
        LOGGER.log(level, "%s: %s: %s", diagnostic.location or path, diagnostic.severity,
                   diagnostic.message)
    return structure, structure.file, fmus


def _compiled(path: Path, model: str | None, libs, work: Path) -> Path:
    """The FMU of a Modelica model, copied from the compiler's cache into ``work``."""
    from compiler import compile_fmu

    folder = work / "compiled"
    folder.mkdir(parents=True, exist_ok=True)
    return compile_fmu(path, model, tuple(libs), folder)


def _compiled_python(target, model: str | None, libs, work: Path) -> Path:
    """The FMU of a Python model as ``work/compiled/<ClassName>.fmu``."""
    from cosim.build.compile import compile_python, model_class

    cls = model_class(target, model)
    folder = work / "compiled"
    folder.mkdir(parents=True, exist_ok=True)
    return compile_python(cls, libs=tuple(libs), output=folder / f"{cls.__name__}.fmu")


def _component_fmus(structure: SystemStructure, work: Path, limits: Limits
                    ) -> dict[str, LoadedFmu]:
    """The unpacked FMU of every FMU component, by dotted path; one error for the first that
    is missing or unusable, naming the component. Components of one FMU file share its
    unpacked copy, so their instances share one loaded library (its code once in the
    caches, as FMI allows), unless the FMU can be instantiated only once per process."""
    fmus: dict[str, LoadedFmu] = {}
    shared: dict[tuple[int, str], LoadedFmu] = {}
    for dotted, document, component in iter_components(structure):
        if component.kind != "fmu":
            continue
        where = str(component.location or structure.file)
        if component.source_path is None or document.package is None:
            raise CosimError(f"component '{dotted}': no FMU source", where)
        key = (id(document.package), str(component.source_path))
        if key in shared:
            fmus[dotted] = shared[key]
            continue
        folder = work / "packages" / dotted
        try:
            fmu_path = materialize(document.package, component.source_path, folder, limits)
        except SspError:
            fmu_path = None
        if fmu_path is None or not fmu_path.exists():
            raise CosimError(f"component '{dotted}': FMU '{component.source}' not found", where)
        try:
            fmus[dotted] = open_fmu(fmu_path, work / "fmus", dotted, limits)
        except CosimError as error:
            raise CosimError(f"component '{dotted}' ({component.source}): {error.message}",
                             where) from None
        interfaces = (fmus[dotted].info.co_simulation, fmus[dotted].info.model_exchange,
                      fmus[dotted].info.scheduled_execution)
        if not any(i is not None and i.only_once_per_process for i in interfaces):
            shared[key] = fmus[dotted]
    return fmus


__all__ = ["load_target", "single_fmu_structure", "read_model_info"]
