"""``cosim pack``: an SSP folder (or ``.ssd``, or ``.ssp``) with Modelica components -> a
self-contained ``.ssp`` whose components are all FMUs.

Input: the target and the archive to write. Output: the archive: every file of the package
(SSVs, SSMs, other resources, the Modelica sources too), each top-level SSD rewritten so that
its ``text/x-modelica`` components are ``application/x-fmu-sharedlibrary`` components with
``source="resources/<component>.fmu"``, compiled through the FMU cache. The SSDs are edited
in place (lxml), so annotations and everything else stay as written.
"""
from __future__ import annotations

import os
import re
import shutil
import tempfile
import zipfile
from pathlib import Path

from lxml import etree

from cosim.errors import CosimError
from cosim.modelica import compile_modelica, has_modelica
from cosim.ssp import extract, load
from cosim.ssp.model import FMU_TYPE, SystemStructure, iter_components
from cosim.ssp.xmlread import SSD

SKIPPED = shutil.ignore_patterns(".*", "__pycache__")


def pack(path: str | os.PathLike, output: str | os.PathLike) -> Path:
    """Write ``output`` (an ``.ssp``) from ``path``; returns its path.

    Raises ``CosimError`` for a component that does not compile (located in its Modelica
    source) and for Modelica components inside nested SSDs or SSPs, which are not packed.
    """
    path, output = Path(path), Path(output)
    if output.suffix.lower() != ".ssp":
        raise CosimError("the packed archive must end in .ssp", str(output))
    with tempfile.TemporaryDirectory(prefix="cosim-pack-") as work:
        stage = Path(work) / "package"
        _stage(path, stage, output)
        for ssd in sorted(stage.glob("*.ssd")):
            _pack_ssd(stage, ssd, Path(work) / ssd.stem)
        return _zip(stage, output)


def _stage(path: Path, stage: Path, output: Path) -> None:
    """Copy the package's files into ``stage`` (the folder around an ``.ssd``)."""
    if path.is_file() and path.suffix.lower() == ".ssd":
        if path.name != "SystemStructure.ssd":
            raise CosimError("an .ssd is packed as SystemStructure.ssd: rename it, or pack "
                             "its folder", str(path))
        path = path.parent
    if path.is_dir():
        skip = output.resolve()

        def ignore(folder, names):
            own = {n for n in names if (Path(folder) / n).resolve() == skip}
            return set(SKIPPED(folder, names)) | own
        shutil.copytree(path, stage, ignore=ignore)
    elif path.is_file():
        extract(path, stage)
    else:
        raise CosimError("no such file or folder", str(path))


def _pack_ssd(stage: Path, ssd: Path, work: Path) -> None:
    variant = None if ssd.name == "SystemStructure.ssd" else ssd.name
    structure, _ = load(stage, variant)
    if not has_modelica(structure):
        return
    _refuse_nested(structure)
    compiled = compile_modelica(structure, work)
    fmus = _fmu_members(stage, structure, compiled)
    tree = etree.parse(str(ssd))
    system = tree.getroot().find(f"{{{SSD}}}System")
    for dotted, element in _components(system, ""):
        if dotted in fmus:
            element.set("type", FMU_TYPE)
            element.set("source", fmus[dotted])
    tree.write(str(ssd), xml_declaration=True, encoding="UTF-8")


def _refuse_nested(structure: SystemStructure) -> None:
    for dotted, _, component in iter_components(structure):
        if component.nested is not None and has_modelica(component.nested):
            raise CosimError(f"component '{dotted}': Modelica components inside a nested "
                             f"{component.kind.upper()} are not packed (pack "
                             f"'{component.source}' first)", str(component.location or ""))


def _fmu_members(stage: Path, before: SystemStructure, after: SystemStructure
                 ) -> dict[str, str]:
    """Copy each compiled FMU to ``resources/<component>.fmu``: ``{dotted path: member}``."""
    kinds = {dotted: c.kind for dotted, _, c in iter_components(before)}
    members: dict[str, str] = {}
    for dotted, _, component in iter_components(after):
        if kinds.get(dotted) != "modelica":
            continue
        base = re.sub(r"[^A-Za-z0-9_.-]", "_", dotted)
        member, k = f"resources/{base}.fmu", 1
        while (stage / member).exists():
            k += 1
            member = f"resources/{base}_{k}.fmu"
        (stage / "resources").mkdir(exist_ok=True)
        shutil.copyfile(component.source_path, stage / member)
        members[dotted] = member
    return members


def _components(system, prefix: str):
    """``(dotted path, element)`` of the components under an ``ssd:System`` element."""
    elements = system.find(f"{{{SSD}}}Elements")
    for element in (elements if elements is not None else ()):
        if not isinstance(element.tag, str):
            continue
        name = element.get("name", "")
        dotted = f"{prefix}.{name}" if prefix else name
        if element.tag == f"{{{SSD}}}Component":
            yield dotted, element
        elif element.tag == f"{{{SSD}}}System":
            yield from _components(element, dotted)


def _zip(stage: Path, output: Path) -> Path:
    output.parent.mkdir(parents=True, exist_ok=True)
    partial = output.with_name(f".{output.name}.partial")
    with zipfile.ZipFile(partial, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in sorted(stage.rglob("*")):
            if path.is_file():
                archive.write(path, path.relative_to(stage).as_posix())
    os.replace(partial, output)
    return output
