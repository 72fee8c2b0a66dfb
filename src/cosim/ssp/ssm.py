"""Reader of parameter mappings (``.ssm`` files and inline ``ssm:ParameterMapping``).

Input: an ``ssm:ParameterMapping`` element. Output: ``ParameterMapping``.
"""
from __future__ import annotations

from cosim.ssp.common import read_transformation
from cosim.ssp.model import MappingEntry, ParameterMapping
from cosim.ssp.xmlread import SSM, Doc, children


def read_parameter_mapping(doc: Doc, root) -> ParameterMapping:
    entries = []
    for element in children(root, SSM, "MappingEntry"):
        source, target = element.get("source", ""), element.get("target", "")
        what = f"mapping entry {source} -> {target}"
        if not source or not target:
            doc.error(element, f"{what}: needs both source and target")
            continue
        entries.append(MappingEntry(
            source, target, transformation=read_transformation(doc, element, what),
            suppress_unit_conversion=doc.bool(element, "suppressUnitConversion", False, what),
            location=doc.loc(element)))
    return ParameterMapping(tuple(entries), version=root.get("version", "1.0"),
                            location=doc.loc(root))
