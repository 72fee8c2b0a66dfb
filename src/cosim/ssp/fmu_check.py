"""Checks of an SSD against the FMUs it names: do the connectors and bound parameters exist
in each FMU's model description, with matching kind, type and unit?

Input: a ``SystemStructure`` and model descriptions (fmpy ``ModelDescription``) keyed by the
component's dotted path. ``read_model_descriptions`` reads them from the FMUs present in the
package (only ``modelDescription.xml``, under the archive limits); the master can pass the
descriptions it read itself to ``check_fmu_interfaces``. Output: diagnostics.
"""
from __future__ import annotations

import io
import os
import zipfile
from pathlib import Path
from typing import Mapping

from cosim.ssp.archive import DEFAULT_LIMITS, Limits
from cosim.ssp.errors import Findings, SspError
from cosim.ssp.model import Component, Diagnostic, SystemStructure, iter_components, type_family
from cosim.ssp.package import FolderPackage, opened
from cosim.ssp.parameters import resolve_parameters

# Connector kind -> FMI 2.0 / 3.0 causality it must match (constant: variability constant).
CAUSALITY_OF_KIND = {
    "input": "input", "output": "output", "parameter": "parameter",
    "calculatedParameter": "calculatedParameter", "structuralParameter": "structuralParameter",
    "local": "local",
}


def read_model_descriptions(structure: SystemStructure, limits: Limits = DEFAULT_LIMITS
                            ) -> tuple[dict[str, object], list[Diagnostic]]:
    """Model descriptions of the FMU components whose files are in their package."""
    from fmpy import read_model_description

    findings = Findings()
    descriptions: dict[str, object] = {}
    for path, document, component in iter_components(structure):
        if component.kind != "fmu" or component.source_path is None or document.package is None:
            continue
        try:
            xml = _description_xml(document.package, component.source_path, limits)
            if xml is None:
                continue
            descriptions[path] = read_model_description(_xml_only_zip(xml), validate=False)
        except SspError as error:
            findings.error(f"component '{component.name}': {error.message}", error.where or
                           component.location)
        except Exception as error:  # fmpy raises plain exceptions on bad model descriptions
            findings.error(f"component '{component.name}': cannot read the model description "
                           f"of '{component.source}': {error}", component.location)
    return descriptions, findings.items


def _description_xml(ref, member: str, limits: Limits) -> bytes | None:
    """``modelDescription.xml`` of the FMU ``member`` of the package ``ref`` (an absolute
    path: an FMU outside it, such as a compiled Modelica component); ``None`` if absent."""
    if os.path.isabs(member):
        if not os.path.isfile(member):
            return None
        with FolderPackage(Path(member).parent, limits=limits) as folder, \
                folder.open_nested(Path(member).name) as fmu:
            return fmu.read("modelDescription.xml")
    with opened(ref, limits) as package:
        if not package.exists(member):
            return None
        with package.open_nested(member) as fmu:
            return fmu.read("modelDescription.xml")


def _xml_only_zip(xml: bytes) -> io.BytesIO:
    # fmpy reads a model description from a zip; give it one holding only the checked XML.
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("modelDescription.xml", xml)
    buffer.seek(0)
    return buffer


def check_fmu_interfaces(structure: SystemStructure, descriptions: Mapping[str, object]
                         ) -> list[Diagnostic]:
    """Connectors and bound parameters of FMU components against their model descriptions."""
    findings = Findings()
    components = {path: component for path, _, component in iter_components(structure)}
    for path, description in descriptions.items():
        component = components.get(path)
        if component is not None:
            _check_connectors(component, description, findings)
    parameters, _ = resolve_parameters(structure)
    for parameter in parameters:
        description = descriptions.get(parameter.component)
        if description is None:
            continue
        variable = _variables(description).get(parameter.name)
        fmu = components[parameter.component].source
        label = f"parameter '{parameter.path}'"
        if variable is None:
            findings.warning(f"{label}: no variable '{parameter.name}' in {fmu}; ignored",
                             parameter.location)
        elif type_family(variable.type) != type_family(parameter.type):
            findings.error(f"{label}: a {parameter.type} value for the {variable.type} "
                           f"variable of {fmu}", parameter.location)
    return findings.items


def check_fmus(structure: SystemStructure, limits: Limits = DEFAULT_LIMITS) -> list[Diagnostic]:
    """Read the model descriptions of the FMUs present and check the SSD against them."""
    descriptions, problems = read_model_descriptions(structure, limits)
    return problems + check_fmu_interfaces(structure, descriptions)


def _variables(description) -> dict[str, object]:
    return {v.name: v for v in description.modelVariables}


def _check_connectors(component: Component, description, findings: Findings) -> None:
    variables = _variables(description)
    fmu = component.source
    fmi1 = str(description.fmiVersion).startswith("1.")
    for connector in component.connectors:
        what = f"component '{component.name}': connector '{connector.name}'"
        variable = variables.get(connector.name)
        if variable is None:
            findings.error(f"{what}: no such variable in {fmu}", connector.location)
            continue
        expected = CAUSALITY_OF_KIND.get(connector.kind)
        if connector.kind == "constant" and variable.variability != "constant":
            findings.error(f"{what}: kind constant, but the variable of {fmu} has variability "
                           f"{variable.variability}", connector.location)
        elif expected and not fmi1 and variable.causality != expected:
            findings.error(f"{what}: kind {connector.kind}, but the variable of {fmu} has "
                           f"causality {variable.causality}", connector.location)
        if connector.type is None:
            continue
        if type_family(connector.type.name) != type_family(variable.type):
            findings.error(f"{what}: type {connector.type.name}, but the variable of {fmu} is "
                           f"{variable.type}", connector.location)
        unit = variable.unit or getattr(variable.declaredType, "unit", None)
        if connector.type.unit and unit and connector.type.unit != unit:
            findings.warning(f"{what}: unit '{connector.type.unit}', but the variable of {fmu} "
                             f"has unit '{unit}'", connector.location)
