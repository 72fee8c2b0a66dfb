"""XSD validation of SSP files against the SSP schemas.

Input: a parsed root element and the folder of the XSDs (default: the SSP 1.0 XSDs that fmpy
ships). Output: one ``Diagnostic`` per schema violation, at its line. All four SSP formats are
checked by one combined schema, so inline parameter sets in an SSD are checked too.
"""
from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path

from lxml import etree

from cosim.ssp.model import Diagnostic, Location
from cosim.ssp.xmlread import SSB, SSD, SSM, SSV, pretty_name

SCHEMA_FILES = {
    SSD: "SystemStructureDescription.xsd",
    SSV: "SystemStructureParameterValues.xsd",
    SSM: "SystemStructureParameterMapping.xsd",
    SSB: "SystemStructureSignalDictionary.xsd",
}
MAX_MESSAGES_PER_FILE = 20
UNCHECKED = "not checked against a schema"  # the note on 2.0 files without 2.0 XSDs


def default_schema_dir() -> Path:
    """The SSP 1.0 XSDs shipped with fmpy."""
    import fmpy

    return Path(fmpy.__file__).parent / "ssp" / "schema"


@lru_cache(maxsize=4)
def load_schema(directory: str) -> etree.XMLSchema:
    """One schema importing the four SSP formats from ``directory`` (cached per folder)."""
    imports = "".join(
        f'<xs:import namespace="{namespace}" schemaLocation="{Path(directory, name).as_uri()}"/>'
        for namespace, name in SCHEMA_FILES.items())
    wrapper = f'<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema">{imports}</xs:schema>'
    return etree.XMLSchema(etree.fromstring(wrapper))


def schema_problems(root, file: str, schema_dir: str | os.PathLike | None = None
                    ) -> list[Diagnostic]:
    """Schema violations of the document ``root`` of ``file``.

    With the default (SSP 1.0) schemas a file with ``version="2.0"`` is not checked: the
    result is one warning saying so. Give the SSP 2.0 XSD folder to check both versions.
    """
    version = root.get("version", "")
    if schema_dir is None and version.startswith("2."):
        return [Diagnostic("warning", f"SSP {version} file {UNCHECKED}: fmpy ships only the "
                                      "SSP 1.0 XSDs (give the 2.0 schema folder)",
                           Location(file, root.sourceline))]
    directory = Path(schema_dir) if schema_dir is not None else default_schema_dir()
    for name in SCHEMA_FILES.values():
        if not (directory / name).is_file():
            return [Diagnostic("error", f"schema folder {directory} has no {name}")]
    schema = load_schema(str(directory.resolve()))
    if schema.validate(root):
        return []
    entries = list(schema.error_log)
    problems = [Diagnostic("error", f"schema: {pretty_name(e.message)}", Location(file, e.line))
                for e in entries[:MAX_MESSAGES_PER_FILE]]
    if len(entries) > MAX_MESSAGES_PER_FILE:
        problems.append(Diagnostic("error", f"schema: {len(entries) - MAX_MESSAGES_PER_FILE} "
                                            "more schema violations", Location(file)))
    return problems
