"""Readers for the ``ssc:`` pieces every SSP file shares: units, enumerations, signal types,
array dimensions, transformations and vendor annotations.

Input: lxml elements of one file (through ``Doc``). Output: the value types of ``model``.
"""
from __future__ import annotations

from cosim.ssp.model import (
    BASE_UNIT_NAMES, TYPE_NAMES, BaseUnit, ClockType, Dimension, Enumeration,
    LinearTransformation, MappingTransformation, SignalType, Transformation, Unit,
)
from cosim.ssp.xmlread import (
    SSC, Doc, child, children, in_namespace, is_element, local_name, parse_bool,
)

_MAPPINGS = {
    "BooleanMappingTransformation": ("Boolean", parse_bool),
    "IntegerMappingTransformation": ("Integer", int),
    "EnumerationMappingTransformation": ("Enumeration", str),
}


def read_units(doc: Doc, container, namespace: str) -> tuple[Unit, ...]:
    """``<ns:Units><ssc:Unit>...`` below ``container`` (an SSD, SSV or SSB root)."""
    units = child(container, namespace, "Units")
    if units is None:
        return ()
    return tuple(read_unit(doc, u) for u in children(units, SSC, "Unit"))


def read_unit(doc: Doc, element) -> Unit:
    name = element.get("name", "")
    base = child(element, SSC, "BaseUnit")
    if base is None:
        doc.error(element, f"unit '{name}': no ssc:BaseUnit")
        return Unit(name, BaseUnit(), location=doc.loc(element))
    what = f"unit '{name}'"
    exponents = {n: doc.int(base, n, 0, what) for n in BASE_UNIT_NAMES}
    factor = doc.float(base, "factor", 1.0, what)
    offset = doc.float(base, "offset", 0.0, what)
    if factor == 0.0:
        doc.error(base, f"{what}: factor is 0")
        factor = 1.0
    base_unit = BaseUnit(**exponents, factor=factor, offset=offset)
    return Unit(name, base_unit, location=doc.loc(element))


def read_enumerations(doc: Doc, container, namespace: str) -> tuple[Enumeration, ...]:
    enumerations = child(container, namespace, "Enumerations")
    if enumerations is None:
        return ()
    result = []
    for element in children(enumerations, SSC, "Enumeration"):
        name = element.get("name", "")
        items = tuple((item.get("name", ""), doc.int(item, "value", 0, f"enumeration '{name}'"))
                      for item in children(element, SSC, "Item"))
        result.append(Enumeration(name, items, location=doc.loc(element)))
    return tuple(result)


def read_signal_type(doc: Doc, element, what: str) -> SignalType | None:
    """The ``ssc:Real``/``ssc:Int32``/... child of a connector or dictionary entry, if any."""
    types = [c for c in element if in_namespace(c, SSC) and local_name(c) in TYPE_NAMES]
    if not types:
        return None
    if len(types) > 1:
        doc.error(types[1], f"{what}: {len(types)} type elements; using the first")
    element = types[0]
    name = local_name(element)
    clock = _read_clock(doc, element, what) if name == "Clock" else None
    mime = element.get("mime-type", "application/octet-stream") if name == "Binary" else None
    if name == "Enumeration" and element.get("name") is None:
        doc.warning(element, f"{what}: ssc:Enumeration without the name of its enumeration")
    return SignalType(name, unit=element.get("unit"), enumeration=element.get("name"),
                      mime_type=mime, clock=clock)


def _read_clock(doc: Doc, element, what: str) -> ClockType:
    return ClockType(
        interval_variability=element.get("intervalVariability"),
        interval_decimal=doc.float(element, "intervalDecimal", None, what),
        shift_decimal=doc.float(element, "shiftDecimal", None, what),
        supports_fraction=(doc.bool(element, "supportsFraction", False, what)
                           if element.get("supportsFraction") is not None else None),
        resolution=doc.int(element, "resolution", None, what),
        interval_counter=doc.int(element, "intervalCounter", None, what),
        shift_counter=doc.int(element, "shiftCounter", None, what),
        priority=doc.int(element, "priority", None, what),
    )


def read_dimensions(doc: Doc, element, what: str) -> tuple[Dimension, ...]:
    result = []
    for dimension in children(element, SSC, "Dimension"):
        size = doc.int(dimension, "size", None, what)
        connector = dimension.get("sizeConnector")
        if (size is None) == (connector is None):
            doc.error(dimension, f"{what}: a dimension needs exactly one of size and sizeConnector")
        if size is not None and size < 0:
            doc.error(dimension, f"{what}: negative dimension size {size}")
        result.append(Dimension(size, connector))
    return tuple(result)


def read_transformation(doc: Doc, element, what: str) -> Transformation | None:
    """The optional transformation child of a connection or a parameter mapping entry."""
    for candidate in element:
        if not in_namespace(candidate, SSC):
            continue
        name = local_name(candidate)
        if name == "LinearTransformation":
            return LinearTransformation(doc.float(candidate, "factor", 1.0, what),
                                        doc.float(candidate, "offset", 0.0, what))
        if name in _MAPPINGS:
            return _read_mapping(doc, candidate, what, *_MAPPINGS[name])
    return None


def _read_mapping(doc: Doc, element, what: str, kind: str, convert) -> MappingTransformation:
    entries = []
    for entry in children(element, SSC, "MapEntry"):
        try:
            entries.append((convert(entry.get("source", "")), convert(entry.get("target", ""))))
        except ValueError:
            doc.error(entry, f"{what}: map entry {entry.get('source')!r} -> "
                             f"{entry.get('target')!r} is not {kind}")
    sources = [source for source, _ in entries]
    if len(set(sources)) != len(sources):
        doc.error(element, f"{what}: {kind} mapping maps one source value twice")
    return MappingTransformation(kind, tuple(entries))


def annotations(element, namespace: str, annotation_type: str) -> list:
    """The ``ssc:Annotation`` elements of type ``annotation_type`` below ``element``."""
    holder = child(element, namespace, "Annotations")
    if holder is None:
        return []
    return [a for a in children(holder, SSC, "Annotation") if a.get("type") == annotation_type]


def find_local(element, name: str) -> list:
    """Descendants with local name ``name`` in any namespace (vendor annotations vary theirs)."""
    return [e for e in element.iter() if is_element(e) and local_name(e) == name]
