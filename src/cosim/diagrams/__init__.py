"""Pictures of every stage: ``diagram(target, kind)`` -> ``Graph`` (SVG, DOT, Mermaid).

Kinds: ``schematic`` (a class before flattening), ``incidence`` (its flat model),
``blocks`` (its causalized system in BLT order) and ``system`` (an SSP system). A target is a
``.mo`` file, a ``.py`` file of ``cosim.build`` classes or such a class (``model`` names the
class), or an SSP (``.ssp``, folder, ``.ssd``) for ``system``.
"""
from __future__ import annotations

import os
from pathlib import Path

from cosim.diagrams.graph import Edge, Graph, Node
from cosim.errors import CosimError

KINDS = ("schematic", "incidence", "blocks", "system")
_SSP_SUFFIXES = (".ssp", ".ssd")


def default_kind(target) -> str:
    """``system`` for an SSP, ``schematic`` for a model."""
    if isinstance(target, (str, os.PathLike)):
        path = Path(target)
        if path.suffix.lower() in _SSP_SUFFIXES or path.is_dir():
            return "system"
    return "schematic"


def diagram(target, kind: str | None = None, model: str | None = None, libs=(),
            variant: str | None = None) -> Graph:
    """The picture ``kind`` of ``target`` (see the module docstring)."""
    kind = kind or default_kind(target)
    if kind not in KINDS:
        raise CosimError(f"unknown kind of picture '{kind}' (known: {', '.join(KINDS)})")
    if kind == "system":
        return _system(target, variant)
    if isinstance(target, (str, os.PathLike)) and Path(target).suffix.lower() == ".fmu":
        raise CosimError("an FMU has no picture: draw the model it was compiled from, or an "
                         "SSP that uses it", str(target))
    if default_kind(target) == "system":
        raise CosimError(f"a {kind} picture is of a model (.mo, .py or a cosim.build class); "
                         "an SSP has a system picture", str(target))
    if kind == "schematic":
        from cosim.diagrams.schematic import schematic
        return schematic(*_library(target, model, libs))
    from cosim.api import flatten

    flat = flatten(target, model, libs)
    if kind == "incidence":
        from cosim.diagrams.incidence import incidence
        return incidence(flat)
    from compiler.causalize import causalize
    from cosim.diagrams.blocks import blocks
    return blocks(causalize(flat))


def _library(target, model, libs):
    from cosim.build.compile import is_python_model, model_class
    if is_python_model(target):
        from cosim.build import library_of
        return library_of(model_class(target, model), libs)
    from compiler.api import library_and_name
    return library_and_name(target, model, libs)


def _system(target, variant):
    from cosim.diagrams.system import system_picture
    from cosim.ssp import load
    from cosim.ssp.model import SystemStructure

    if default_kind(target) != "system":
        raise CosimError("a system picture is of an SSP (.ssp, a folder or an .ssd)",
                         str(target))
    structure, _ = load(target, variant)
    if not isinstance(structure, SystemStructure):
        raise CosimError("not a system structure", str(target))
    return system_picture(structure)


__all__ = ["KINDS", "Edge", "Graph", "Node", "diagram", "default_kind"]
