"""What ``cosim run`` would refuse, for ``cosim validate`` and ``cosim info``: the planner's
refusals as diagnostics, of an SSP (from its FMUs' model descriptions) or of a bare FMU (its
archive, binary and description too).

Input: a ``SystemStructure`` with the fmpy descriptions of its FMUs, or the path of an
``.fmu``. Output: ``Diagnostic``s naming the file and place; a bare FMU also gives its
``ModelInfo`` (``None`` when it cannot be read).
"""
from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Mapping

from cosim.errors import CosimError
from cosim.fmi.description import ModelInfo, model_info
from cosim.master.plan import Settings, plan_problems
from cosim.master.target import single_fmu_structure
from cosim.ssp.model import Diagnostic, Location, SystemStructure


def _location(text: str) -> Location | None:
    if not text:
        return None
    file, _, line = text.rpartition(":")
    return Location(file, int(line)) if file and line.isdigit() else Location(text)


def refusal_diagnostics(structure: SystemStructure, infos: Mapping[str, ModelInfo],
                        known: tuple = (), location: str = "SystemStructure.ssd"
                        ) -> list[Diagnostic]:
    """The plan's refusals and warnings. Once the reader or the FMU checks found an error
    (``known``), the plan's errors are mostly the same ones seen again (a connector the FMU
    lacks is a connection it cannot make): then only its warnings are added."""
    refusals = plan_problems(structure, infos, Settings(), location)
    errors_known = any(d.severity == "error" for d in known)
    found = [] if errors_known else [
        Diagnostic(_severity(error.message), error.message, _location(error.location))
        for error in refusals.errors if "no FMU loaded" not in error.message]
    found += [Diagnostic("warning", message, _location(where))
              for message, where in refusals.warnings]
    return found


def _severity(message: str) -> str:
    # an SSP without FMUs is valid; it just has nothing to run
    return "warning" if message.startswith("the system has no FMU component") else "error"


def ssp_refusals(structure: SystemStructure, descriptions: Mapping[str, object],
                 known: tuple = ()) -> list[Diagnostic]:
    infos = {}
    for path, description in descriptions.items():
        try:
            infos[path] = model_info(description, path)
        except CosimError:
            continue  # the reader reported it
    return refusal_diagnostics(structure, infos, known, structure.file)


def fmu_checks(path: str | Path) -> tuple[ModelInfo | None, list[Diagnostic]]:
    """A bare FMU as ``cosim run`` sees it: the archive and binary, fmpy's check of the model
    description, and the planner's refusals of the FMU as a one-component system."""
    from fmpy.validation import validate_fmu

    from cosim.fmi.loader import open_fmu

    path = Path(path)
    where = Location(path.name)
    with tempfile.TemporaryDirectory(prefix="cosim-check-") as work:
        try:
            fmu = open_fmu(path, work)
        except CosimError as error:
            return None, [Diagnostic("error", error.message, where)]
        diagnostics = [Diagnostic("error", f"modelDescription.xml: {problem}", where)
                       for problem in _fmpy_problems(validate_fmu, fmu.folder)]
        structure = single_fmu_structure(path, fmu.info)
        diagnostics += refusal_diagnostics(structure, {path.stem: fmu.info}, (), path.name)
        return fmu.info, diagnostics


def _fmpy_problems(validate_fmu, folder: Path) -> list[str]:
    try:
        return list(validate_fmu(str(folder)))
    except Exception as error:  # fmpy raises plain exceptions on what it cannot read
        return [str(error)]
