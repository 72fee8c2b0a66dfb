"""Reader of system structure descriptions (``.ssd``).

Input: the root element of an SSD and a ``Files`` object that reads what the SSD refers to
(``.ssv``, ``.ssm``, ``.ssb`` files, nested ``.ssd``/``.ssp`` components). Output: a
``SystemStructure`` with the direction of every connection resolved from the connector kinds.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Protocol

from cosim.ssp.common import (
    annotations, find_local, read_dimensions, read_enumerations, read_signal_type,
    read_transformation, read_units,
)
from cosim.ssp.connections import find_connector, flows_reversed
from cosim.ssp.errors import refuse
from cosim.ssp.model import (
    CONNECTOR_KINDS, FMU_TYPE, MODELICA_TYPE, PARAMETER_SET_TYPE, SIGNAL_DICTIONARY_TYPE,
    SSD_TYPE, SSP_TYPE, Component, Connection, Connector, Endpoint, Experiment,
    ParameterBinding, SignalDictionary, SignalDictionaryReference, System, SystemStructure,
)
from cosim.ssp.ssb import read_signal_dictionary
from cosim.ssp.ssm import read_parameter_mapping
from cosim.ssp.ssv import read_parameter_set
from cosim.ssp.xmlread import (
    SSB, SSD, SSM, SSV, Doc, child, children, grandchildren, in_namespace, local_name,
)

OSP_ANNOTATION = "com.opensimulationplatform"
OMS_ANNOTATION = "org.openmodelica"


class Files(Protocol):
    """What the SSD reader needs from the package it reads (implemented by the loader)."""

    def external(self, doc: Doc, element, uri: str, kind: str, component: str | None):
        """The ``kind`` (ParameterSet, ...) read from the file ``uri`` refers to, or None.

        ``component`` is the source path to resolve ``uri`` in (``sourceBase="component"``).
        """

    def component(self, doc: Doc, element, name: str, source: str | None, mime: str):
        """Check a component's source: ``(source_path, nested SystemStructure or None)``."""


def read_ssd(doc: Doc, root, files: Files) -> SystemStructure:
    system_element = child(root, SSD, "System")
    if local_name(root) != "SystemStructureDescription" or system_element is None:
        raise refuse("not a system structure description (no ssd:System)", doc.loc(root))
    version = root.get("version", "")
    if version not in ("1.0", "2.0"):
        doc.warning(root, f"unknown SSP version '{version}'; read as 2.0")
    system = read_system(doc, system_element, files)
    return SystemStructure(
        name=root.get("name", ""), system=system, version=version or "1.0",
        units=read_units(doc, root, SSD), enumerations=read_enumerations(doc, root, SSD),
        experiment=read_experiment(doc, root, system), file=doc.file, location=doc.loc(root))


def read_system(doc: Doc, element, files: Files) -> System:
    name = element.get("name", "")
    elements = []
    for holder in children(element, SSD, "Elements"):
        for item in holder:
            tag = local_name(item) if in_namespace(item, SSD) else None
            if tag == "Component":
                elements.append(read_component(doc, item, files))
            elif tag == "System":
                elements.append(read_system(doc, item, files))
            elif tag == "SignalDictionaryReference":
                elements.append(SignalDictionaryReference(
                    item.get("name", ""), item.get("dictionary", ""),
                    read_connectors(doc, item, f"signal dictionary reference '{item.get('name')}'"),
                    description=item.get("description"), location=doc.loc(item)))
    step_size = _oms_step_size(doc, element)
    system = System(
        name=name, elements=tuple(elements),
        connectors=read_connectors(doc, element, f"system '{name}'"),
        parameter_bindings=read_bindings(doc, element, files, None),
        signal_dictionaries=read_dictionaries(doc, element, files),
        step_size=step_size, description=element.get("description"), location=doc.loc(element))
    return replace(system, connections=read_connections(doc, element, system))


def read_component(doc: Doc, element, files: Files) -> Component:
    name = element.get("name", "")
    source = element.get("source")
    mime = element.get("type")
    if mime is None:
        mime = FMU_TYPE
        suffix = (source or "").split("#")[0].lower()
        for ending, implied in ((".ssp", SSP_TYPE), (".ssd", SSD_TYPE), (".mo", MODELICA_TYPE)):
            if suffix.endswith(ending):
                mime = implied
                doc.warning(element, f"component '{name}': no type given for a {ending} source; "
                                     f"read as {implied}")
    source_path, nested = files.component(doc, element, name, source, mime)
    hint = None
    for annotation in annotations(element, SSD, OSP_ANNOTATION):
        for found in find_local(annotation, "StepSizeHint"):
            hint = doc.float(found, "value", None, f"component '{name}': osp:StepSizeHint")
    return Component(
        name=name, source=source, type=mime,
        connectors=read_connectors(doc, element, f"component '{name}'"),
        parameter_bindings=read_bindings(doc, element, files, source_path),
        implementation=element.get("implementation", "any"), step_size_hint=hint,
        description=element.get("description"), source_path=source_path, nested=nested,
        location=doc.loc(element))


def read_connectors(doc: Doc, element, owner: str) -> tuple[Connector, ...]:
    result = []
    for connector in grandchildren(element, SSD, "Connectors", "Connector"):
        name = connector.get("name", "")
        kind = connector.get("kind", "")
        what = f"{owner}: connector '{name}'"
        if kind not in CONNECTOR_KINDS:
            doc.error(connector, f"{what}: unknown kind '{kind}'")
        result.append(Connector(
            name, kind, read_signal_type(doc, connector, what),
            read_dimensions(doc, connector, what),
            tuple(c.get("name", "") for c in children(connector, SSD, "Clock")),
            description=connector.get("description"), location=doc.loc(connector)))
    return tuple(result)


def read_connections(doc: Doc, element, system: System) -> tuple[Connection, ...]:
    result = []
    for item in grandchildren(element, SSD, "Connections", "Connection"):
        start = Endpoint(item.get("startElement"), item.get("startConnector", ""),
                         _indices(doc, item, "startIndices"))
        end = Endpoint(item.get("endElement"), item.get("endConnector", ""),
                       _indices(doc, item, "endIndices"))
        what = f"connection {start} -> {end}"
        reverse = flows_reversed(find_connector(system, start), start.element is None,
                                 find_connector(system, end), end.element is None)
        result.append(Connection(
            start, end, read_transformation(doc, item, what),
            doc.bool(item, "suppressUnitConversion", False, what), reverse,
            location=doc.loc(item)))
    return tuple(result)


def _indices(doc: Doc, element, attribute: str) -> tuple[int, ...] | None:
    text = element.get(attribute)
    if text is None:
        return None
    try:
        return tuple(int(token) for token in text.split())
    except ValueError:
        doc.error(element, f"connection: {attribute}='{text}' is not a list of indices")
        return None


def read_bindings(doc: Doc, element, files: Files, component: str | None):
    """The parameter bindings of a component or system; ``component`` is its source path."""
    result = []
    for binding in grandchildren(element, SSD, "ParameterBindings", "ParameterBinding"):
        source = binding.get("source")
        base = binding.get("sourceBase", "SSD")
        mime = binding.get("type", PARAMETER_SET_TYPE)
        values = None
        holder = child(binding, SSD, "ParameterValues")
        inline = child(holder, SSV, "ParameterSet") if holder is not None else None
        if mime != PARAMETER_SET_TYPE:
            doc.warning(binding, f"parameter binding of type '{mime}' is not supported; ignored")
        elif source is not None:
            if inline is not None:
                doc.error(binding, "parameter binding has both a source and inline values")
            values = files.external(doc, binding, source, "ParameterSet", _base(base, component))
        elif inline is not None:
            values = read_parameter_set(doc, inline)
        else:
            doc.error(binding, "parameter binding without source or inline values")
        mapping, mapping_source, mapping_base = _read_mapping(doc, binding, files, component)
        result.append(ParameterBinding(
            values=values, mapping=mapping, source=source, source_base=base,
            prefix=binding.get("prefix", ""), type=mime, mapping_source=mapping_source,
            mapping_source_base=mapping_base, location=doc.loc(binding)))
    return tuple(result)


def _base(source_base: str, component: str | None) -> str | None:
    return component if source_base == "component" else None


def _read_mapping(doc: Doc, binding, files: Files, component: str | None):
    element = child(binding, SSD, "ParameterMapping")
    if element is None:
        return None, None, "SSD"
    source = element.get("source")
    base = element.get("sourceBase", "SSD")
    if source is not None:
        mapping = files.external(doc, element, source, "ParameterMapping", _base(base, component))
        return mapping, source, base
    inline = child(element, SSM, "ParameterMapping")
    if inline is None:
        doc.error(element, "parameter mapping without source or inline mapping")
        return None, None, base
    return read_parameter_mapping(doc, inline), None, base


def read_dictionaries(doc: Doc, element, files: Files) -> tuple[SignalDictionary, ...]:
    result = []
    for declaration in grandchildren(element, SSD, "SignalDictionaries", "SignalDictionary"):
        name = declaration.get("name", "")
        source = declaration.get("source")
        mime = declaration.get("type", SIGNAL_DICTIONARY_TYPE)
        dictionary = None
        inline = child(declaration, SSB, "SignalDictionary")
        if mime != SIGNAL_DICTIONARY_TYPE:
            doc.warning(declaration, f"signal dictionary '{name}' of type '{mime}' is not "
                                     "supported; read as empty")
        elif source is not None:
            dictionary = files.external(doc, declaration, source, "SignalDictionary", None)
        elif inline is not None:
            dictionary = read_signal_dictionary(doc, inline)
        else:
            doc.error(declaration, f"signal dictionary '{name}' without source or inline entries")
        dictionary = dictionary or SignalDictionary(name)
        result.append(replace(dictionary, name=name, source=source, type=mime,
                              location=doc.loc(declaration)))
    return tuple(result)


def _vendor_value(doc: Doc, element, annotation_type: str, local: str, attribute: str):
    """The first ``local`` element's ``attribute`` in annotations of ``annotation_type``."""
    for annotation in annotations(element, SSD, annotation_type):
        for found in find_local(annotation, local):
            if found.get(attribute) is not None:
                return doc.float(found, attribute, None, f"{local} {attribute}"), found
    return None, None


def _oms_step_size(doc: Doc, system_element) -> float | None:
    return _vendor_value(doc, system_element, OMS_ANNOTATION, "FixedStepMaster", "stepSize")[0]


def _oms_tolerance(doc: Doc, system_element) -> float | None:
    for annotation in annotations(system_element, SSD, OMS_ANNOTATION):
        for found in find_local(annotation, "FixedStepMaster"):
            return doc.float(found, "relativeTolerance", None, "oms:FixedStepMaster")
    return None


def read_experiment(doc: Doc, root, system: System) -> Experiment | None:
    """``DefaultExperiment`` and the step size: OSP ``baseStepSize``, else OMS ``stepSize``."""
    experiment = child(root, SSD, "DefaultExperiment")
    tolerance = _oms_tolerance(doc, child(root, SSD, "System"))
    step = system.step_size
    origin = "oms:FixedStepMaster stepSize" if step is not None else None
    if experiment is None and step is None and tolerance is None:
        return None
    start = stop = None
    if experiment is not None:
        start = doc.float(experiment, "startTime", None, "DefaultExperiment")
        stop = doc.float(experiment, "stopTime", None, "DefaultExperiment")
        osp_step, found = _vendor_value(doc, experiment, OSP_ANNOTATION, "FixedStepAlgorithm",
                                        "baseStepSize")
        if osp_step is not None:
            if step is not None and step != osp_step:
                doc.warning(found, f"step size: osp:FixedStepAlgorithm baseStepSize={osp_step:g} "
                                   f"differs from oms:FixedStepMaster stepSize={step:g}; "
                                   "using baseStepSize")
            step, origin = osp_step, "osp:FixedStepAlgorithm baseStepSize"
    location = doc.loc(experiment if experiment is not None else root)
    return Experiment(start, stop, step, origin, tolerance, location=location)
