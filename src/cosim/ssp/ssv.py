"""Reader of parameter sets (``.ssv`` files and inline ``ssv:ParameterSet``).

Input: an ``ssv:ParameterSet`` element. Output: ``ParameterSet`` with typed values: float, int,
bool, str (String and Enumeration item names), bytes (Binary); a tuple for SSP 2.0 arrays.
"""
from __future__ import annotations

import math
from collections import Counter

from cosim.ssp.common import read_dimensions, read_enumerations, read_units
from cosim.ssp.model import FLOAT_TYPES, INTEGER_TYPES, Parameter, ParameterSet
from cosim.ssp.xmlread import (
    SSV, Doc, children, grandchildren, in_namespace, local_name, parse_bool,
)

# Inclusive value ranges of the integer types (SSP 1.0 Integer is xs:int).
INTEGER_RANGES = {
    "Integer": (-2**31, 2**31 - 1), "Int8": (-2**7, 2**7 - 1), "UInt8": (0, 2**8 - 1),
    "Int16": (-2**15, 2**15 - 1), "UInt16": (0, 2**16 - 1), "Int32": (-2**31, 2**31 - 1),
    "UInt32": (0, 2**32 - 1), "Int64": (-2**63, 2**63 - 1), "UInt64": (0, 2**64 - 1),
}
_LISTED = {"String": str, "Enumeration": str, "Binary": bytes.fromhex}
VALUE_TYPES = FLOAT_TYPES + INTEGER_TYPES + ("Boolean",) + tuple(_LISTED)


def read_parameter_set(doc: Doc, root) -> ParameterSet:
    """Read an ``ssv:ParameterSet`` element (the root of an ``.ssv`` or inline in an SSD)."""
    parameters = tuple(p for p in (_read_parameter(doc, e)
                                   for e in grandchildren(root, SSV, "Parameters", "Parameter"))
                       if p is not None)
    for name, count in Counter(p.name for p in parameters).items():
        if count > 1:
            doc.warning(root, f"parameter '{name}' is given {count} times; the last one applies")
    return ParameterSet(
        name=root.get("name", ""), parameters=parameters,
        units=read_units(doc, root, SSV), enumerations=read_enumerations(doc, root, SSV),
        version=root.get("version", "1.0"), location=doc.loc(root))


def _read_parameter(doc: Doc, element) -> Parameter | None:
    name = element.get("name", "")
    what = f"parameter '{name}'"
    typed = [c for c in element if in_namespace(c, SSV) and local_name(c) in VALUE_TYPES]
    if len(typed) != 1:
        doc.error(element, f"{what}: needs exactly one value element, has {len(typed)}")
        return None
    value_element = typed[0]
    type_name = local_name(value_element)
    try:
        values = _values(value_element, type_name)
    except ValueError as error:
        doc.error(value_element, f"{what}: {error}")
        return None
    dimensions = read_dimensions(doc, element, what)
    sizes = [d.size for d in dimensions]
    if dimensions and None not in sizes and math.prod(sizes) != len(values):
        doc.error(element, f"{what}: {len(values)} values for dimensions "
                           f"{'x'.join(str(s) for s in sizes)}")
    value = tuple(values) if dimensions or len(values) != 1 else values[0]
    return Parameter(name, type_name, value, unit=value_element.get("unit"),
                     enumeration=value_element.get("name") if type_name == "Enumeration" else None,
                     mime_type=value_element.get("mime-type") if type_name == "Binary" else None,
                     dimensions=dimensions, location=doc.loc(element))


def _values(element, type_name: str) -> list:
    if type_name in _LISTED:
        convert = _LISTED[type_name]
        texts = [v.get("value", "") for v in children(element, SSV, "Value")]
        if element.get("value") is not None:
            texts.insert(0, element.get("value"))
        if not texts:
            raise ValueError(f"{type_name} without a value")
        values = []
        for text in texts:
            try:
                values.append(convert(text))
            except ValueError:
                raise ValueError(f"'{text}' is not a {type_name} value") from None
        return values
    text = element.get("value")
    if text is None or not text.split():
        raise ValueError(f"{type_name} without a value")
    return [parse_value(type_name, token) for token in text.split()]


def parse_value(type_name: str, text: str):
    """One SSV value token of ``type_name``; ``ValueError`` names what is wrong."""
    try:
        if type_name in FLOAT_TYPES:
            return float(text)
        if type_name == "Boolean":
            return parse_bool(text)
        if type_name in INTEGER_TYPES:
            value = int(text)
            low, high = INTEGER_RANGES[type_name]
            if not low <= value <= high:
                raise ValueError(f"{value} is out of the range of {type_name} [{low}, {high}]")
            return value
    except ValueError as error:
        if "range" in str(error):
            raise
        raise ValueError(f"'{text}' is not a {type_name} value") from None
    raise ValueError(f"unknown value type {type_name}")
