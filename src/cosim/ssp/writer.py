"""Writing SSP files from the value types: ``.ssd``, ``.ssv``, ``.ssm``, ``.ssb`` and ``.ssp``.

Input: a ``SystemStructure`` (or a parameter set, mapping, dictionary). Output: XML bytes in
schema order (valid against the SSP 1.0 XSDs for 1.0 content and the 2.0.1 XSDs for both), and
packages: ``pack_ssp`` zips the SSD with its variants, the ``.ssv``/``.ssm``/``.ssb`` files its
bindings and dictionaries name, nested ``.ssd``/``.ssp`` components and given resources.
"""
from __future__ import annotations

import io
import math
import os
import posixpath
import zipfile
from pathlib import Path
from typing import Mapping, Union

from lxml import etree

from cosim.ssp.model import (
    FMU_TYPE, PARAMETER_SET_TYPE, SIGNAL_DICTIONARY_TYPE, BaseUnit, Component, Connection,
    Connector, Dimension, Enumeration, LinearTransformation, MappingTransformation, Parameter,
    ParameterBinding, ParameterMapping, ParameterSet, SignalDictionary,
    SignalDictionaryReference, SignalType, System, SystemStructure, Unit,
)
from cosim.ssp.package import DEFAULT_SSD
from cosim.ssp.xmlread import OMS, OSP, PREFIXES, SSB, SSC, SSD, SSM, SSV

Resource = Union[bytes, str, os.PathLike]
_OSP_STEP = "osp:FixedStepAlgorithm baseStepSize"


def _text(value) -> str:
    """An XML Schema literal: booleans as true/false, doubles exactly (repr), INF and NaN."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        if math.isnan(value):
            return "NaN"
        if math.isinf(value):
            return "INF" if value > 0 else "-INF"
        return repr(value)
    if isinstance(value, bytes):
        return value.hex().upper()
    return str(value)


def _element(parent, namespace: str, local: str, /, **attributes):
    """A child of ``parent`` (a root when None); ``mime__type`` stands for ``mime-type``."""
    attributes = {k.replace("__", "-"): _text(v) for k, v in attributes.items() if v is not None}
    tag = f"{{{namespace}}}{local}"
    if parent is None:
        return etree.Element(tag, attributes, nsmap=PREFIXES)
    return etree.SubElement(parent, tag, attributes)


def _bytes(root) -> bytes:
    return etree.tostring(root, xml_declaration=True, encoding="UTF-8", pretty_print=True)


# --- common pieces ------------------------------------------------------------------------------

def _units(parent, namespace: str, units: tuple[Unit, ...]) -> None:
    if not units:
        return
    holder = _element(parent, namespace, "Units")
    for unit in units:
        element = _element(holder, SSC, "Unit", name=unit.name)
        base = unit.base
        defaults = BaseUnit()
        _element(element, SSC, "BaseUnit", **{
            name: getattr(base, name) for name in BaseUnit.__slots__
            if getattr(base, name) != getattr(defaults, name)})


def _enumerations(parent, namespace: str, enumerations: tuple[Enumeration, ...]) -> None:
    if not enumerations:
        return
    holder = _element(parent, namespace, "Enumerations")
    for enumeration in enumerations:
        element = _element(holder, SSC, "Enumeration", name=enumeration.name)
        for name, value in enumeration.items:
            _element(element, SSC, "Item", name=name, value=value)


def _signal_type(parent, signal_type: SignalType | None) -> None:
    if signal_type is None:
        return
    clock = signal_type.clock
    clock_attributes = {} if clock is None else {
        "intervalVariability": clock.interval_variability,
        "intervalDecimal": clock.interval_decimal, "shiftDecimal": clock.shift_decimal,
        "supportsFraction": clock.supports_fraction, "resolution": clock.resolution,
        "intervalCounter": clock.interval_counter, "shiftCounter": clock.shift_counter,
        "priority": clock.priority}
    _element(parent, SSC, signal_type.name, unit=signal_type.unit, name=signal_type.enumeration,
             mime__type=signal_type.mime_type, **clock_attributes)


def _dimensions(parent, dimensions: tuple[Dimension, ...]) -> None:
    for dimension in dimensions:
        _element(parent, SSC, "Dimension", size=dimension.size,
                 sizeConnector=dimension.size_connector)


def _transformation(parent, transformation) -> None:
    if isinstance(transformation, LinearTransformation):
        _element(parent, SSC, "LinearTransformation", factor=transformation.factor,
                 offset=transformation.offset)
    elif isinstance(transformation, MappingTransformation):
        element = _element(parent, SSC, f"{transformation.kind}MappingTransformation")
        for source, target in transformation.entries:
            _element(element, SSC, "MapEntry", source=source, target=target)


def _annotation(parent, namespace: str, annotation_type: str):
    holder = _element(parent, namespace, "Annotations")
    return _element(holder, SSC, "Annotation", type=annotation_type)


# --- parameter sets, mappings, dictionaries -----------------------------------------------------

def _parameter_set(parent, parameter_set: ParameterSet):
    root = _element(parent, SSV, "ParameterSet", version=parameter_set.version,
                    name=parameter_set.name)
    holder = _element(root, SSV, "Parameters")
    for parameter in parameter_set.parameters:
        _parameter(holder, parameter)
    _enumerations(root, SSV, parameter_set.enumerations)
    _units(root, SSV, parameter_set.units)
    return root


def _parameter(parent, parameter: Parameter) -> None:
    element = _element(parent, SSV, "Parameter", name=parameter.name)
    values = parameter.value if isinstance(parameter.value, tuple) else (parameter.value,)
    listed = parameter.type in ("String", "Enumeration", "Binary")
    attributes = {"unit": parameter.unit, "name": parameter.enumeration,
                  "mime__type": parameter.mime_type}
    if not listed:
        attributes["value"] = " ".join(_text(v) for v in values)
    elif not isinstance(parameter.value, tuple):
        attributes["value"] = parameter.value
    typed = _element(element, SSV, parameter.type, **attributes)
    if listed and isinstance(parameter.value, tuple):
        for value in values:
            _element(typed, SSV, "Value", value=value)
    _dimensions(element, parameter.dimensions)


def _parameter_mapping(parent, mapping: ParameterMapping):
    root = _element(parent, SSM, "ParameterMapping", version=mapping.version)
    for entry in mapping.entries:
        element = _element(root, SSM, "MappingEntry", source=entry.source, target=entry.target,
                           suppressUnitConversion=entry.suppress_unit_conversion or None)
        _transformation(element, entry.transformation)
    return root


def _signal_dictionary(parent, dictionary: SignalDictionary):
    root = _element(parent, SSB, "SignalDictionary", version=dictionary.version)
    for entry in dictionary.entries:
        element = _element(root, SSB, "DictionaryEntry", name=entry.name,
                           description=entry.description)
        _signal_type(element, entry.type)
        _dimensions(element, entry.dimensions)
    _enumerations(root, SSB, dictionary.enumerations)
    _units(root, SSB, dictionary.units)
    return root


def ssv_xml(parameter_set: ParameterSet) -> bytes:
    return _bytes(_parameter_set(None, parameter_set))


def ssm_xml(mapping: ParameterMapping) -> bytes:
    return _bytes(_parameter_mapping(None, mapping))


def ssb_xml(dictionary: SignalDictionary) -> bytes:
    return _bytes(_signal_dictionary(None, dictionary))


# --- system structure ---------------------------------------------------------------------------

def _connectors(parent, connectors: tuple[Connector, ...]) -> None:
    if not connectors:
        return
    holder = _element(parent, SSD, "Connectors")
    for connector in connectors:
        element = _element(holder, SSD, "Connector", name=connector.name, kind=connector.kind,
                           description=connector.description)
        _signal_type(element, connector.type)
        _dimensions(element, connector.dimensions)
        for clock in connector.clocks:
            _element(element, SSD, "Clock", name=clock)


def _bindings(parent, bindings: tuple[ParameterBinding, ...]) -> None:
    if not bindings:
        return
    holder = _element(parent, SSD, "ParameterBindings")
    for binding in bindings:
        element = _element(
            holder, SSD, "ParameterBinding", source=binding.source, prefix=binding.prefix or None,
            type=binding.type if binding.type != PARAMETER_SET_TYPE else None,
            sourceBase=binding.source_base if binding.source_base != "SSD" else None)
        if binding.source is None and binding.values is not None:
            _parameter_set(_element(element, SSD, "ParameterValues"), binding.values)
        if binding.mapping is not None or binding.mapping_source is not None:
            mapping = _element(element, SSD, "ParameterMapping", source=binding.mapping_source,
                               sourceBase=binding.mapping_source_base
                               if binding.mapping_source_base != "SSD" else None)
            if binding.mapping_source is None:
                _parameter_mapping(mapping, binding.mapping)


def _component(parent, component: Component) -> None:
    element = _element(parent, SSD, "Component", name=component.name, source=component.source,
                       type=component.type if component.type != FMU_TYPE else None,
                       implementation=component.implementation
                       if component.implementation != "any" else None,
                       description=component.description)
    _connectors(element, component.connectors)
    _bindings(element, component.parameter_bindings)
    if component.step_size_hint is not None:
        annotation = _annotation(element, SSD, "com.opensimulationplatform")
        _element(annotation, OSP, "StepSizeHint", value=component.step_size_hint)


def _system(parent, system: System, tolerance: float | None = None):
    element = _element(parent, SSD, "System", name=system.name, description=system.description)
    _connectors(element, system.connectors)
    _bindings(element, system.parameter_bindings)
    if system.elements:
        holder = _element(element, SSD, "Elements")
        for item in system.elements:
            if isinstance(item, Component):
                _component(holder, item)
            elif isinstance(item, System):
                _system(holder, item)
            else:
                _reference(holder, item)
    if system.connections:
        holder = _element(element, SSD, "Connections")
        for connection in system.connections:
            _connection(holder, connection)
    if system.signal_dictionaries:
        holder = _element(element, SSD, "SignalDictionaries")
        for dictionary in system.signal_dictionaries:
            declaration = _element(holder, SSD, "SignalDictionary", name=dictionary.name,
                                   source=dictionary.source,
                                   type=dictionary.type if dictionary.type !=
                                   SIGNAL_DICTIONARY_TYPE else None)
            if dictionary.source is None:
                _signal_dictionary(declaration, dictionary)
    if system.step_size is not None or tolerance is not None:
        annotation = _annotation(element, SSD, "org.openmodelica")
        information = _element(_element(annotation, OMS, "Annotations"), OMS,
                               "SimulationInformation")
        _element(information, OMS, "FixedStepMaster", stepSize=system.step_size,
                 relativeTolerance=tolerance)
    return element


def _reference(parent, reference: SignalDictionaryReference) -> None:
    element = _element(parent, SSD, "SignalDictionaryReference", name=reference.name,
                       dictionary=reference.dictionary, description=reference.description)
    _connectors(element, reference.connectors)


def _connection(parent, connection: Connection) -> None:
    def indices(endpoint):
        return " ".join(str(i) for i in endpoint.indices) if endpoint.indices is not None else None

    element = _element(
        parent, SSD, "Connection",
        startElement=connection.start.element, startConnector=connection.start.connector,
        startIndices=indices(connection.start),
        endElement=connection.end.element, endConnector=connection.end.connector,
        endIndices=indices(connection.end),
        suppressUnitConversion=connection.suppress_unit_conversion or None)
    _transformation(element, connection.transformation)


def ssd_xml(structure: SystemStructure) -> bytes:
    """The ``.ssd`` text of ``structure`` (external parameter files are not included)."""
    experiment = structure.experiment
    root = _element(None, SSD, "SystemStructureDescription", version=structure.version,
                    name=structure.name)
    _system(root, structure.system, experiment.tolerance if experiment else None)
    _enumerations(root, SSD, structure.enumerations)
    _units(root, SSD, structure.units)
    if experiment is not None:
        element = _element(root, SSD, "DefaultExperiment", startTime=experiment.start_time,
                           stopTime=experiment.stop_time)
        if experiment.step_size is not None and experiment.step_size_origin in (None, _OSP_STEP):
            annotation = _annotation(element, SSD, "com.opensimulationplatform")
            algorithm = _element(annotation, OSP, "Algorithm")
            _element(algorithm, OSP, "FixedStepAlgorithm", baseStepSize=experiment.step_size)
    return _bytes(root)


def write_ssd(structure: SystemStructure, path: str | os.PathLike) -> Path:
    path = Path(path)
    path.write_bytes(ssd_xml(structure))
    return path


# --- packages -----------------------------------------------------------------------------------

def package_files(structure: SystemStructure, ssd_member: str = DEFAULT_SSD,
                  resources: Mapping[str, Resource] | None = None,
                  variants: Mapping[str, SystemStructure] | None = None) -> dict[str, bytes]:
    """Every file of a package: member path -> bytes (resources are read as given)."""
    files: dict[str, bytes] = {}
    for member, resource in (resources or {}).items():
        files[member] = resource if isinstance(resource, bytes) else Path(resource).read_bytes()
    for name, variant in {**(variants or {}), ssd_member[:-4]: structure}.items():
        _document_files(variant, f"{name}.ssd" if not name.endswith(".ssd") else name, files)
    return files


def _document_files(structure: SystemStructure, member: str, files: dict[str, bytes]) -> None:
    files[member] = ssd_xml(structure)
    base = posixpath.dirname(member)

    def place(source: str) -> str:
        return posixpath.normpath(posixpath.join(base, source.split("#")[0]))

    for system in _systems(structure.system):
        for binding in _all_bindings(system):
            if binding.source and binding.values and binding.source_base == "SSD":
                files.setdefault(place(binding.source), ssv_xml(binding.values))
            if binding.mapping_source and binding.mapping and binding.mapping_source_base == "SSD":
                files.setdefault(place(binding.mapping_source), ssm_xml(binding.mapping))
        for dictionary in system.signal_dictionaries:
            if dictionary.source:
                files.setdefault(place(dictionary.source), ssb_xml(dictionary))
        for component in system.elements:
            if not isinstance(component, Component) or component.nested is None:
                continue
            target = place(component.source)
            if component.kind == "ssd" and target not in files:
                _document_files(component.nested, target, files)
            elif component.kind == "ssp" and target not in files:
                fragment = component.source.partition("#")[2] or DEFAULT_SSD
                files[target] = _zip(package_files(component.nested, fragment))


def _systems(system: System):
    yield system
    for element in system.elements:
        if isinstance(element, System):
            yield from _systems(element)


def _all_bindings(system: System):
    yield from system.parameter_bindings
    for element in system.elements:
        if isinstance(element, Component):
            yield from element.parameter_bindings


def _zip(files: Mapping[str, bytes], compression: int = zipfile.ZIP_DEFLATED) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression) as archive:
        for member in sorted(files):
            archive.writestr(member, files[member])
    return buffer.getvalue()


def pack_ssp(path: str | os.PathLike, structure: SystemStructure,
             resources: Mapping[str, Resource] | None = None,
             variants: Mapping[str, SystemStructure] | None = None,
             compression: int = zipfile.ZIP_DEFLATED) -> Path:
    """Write an ``.ssp`` archive with ``SystemStructure.ssd``, its variants, the parameter and
    dictionary files it names, nested components and ``resources`` (member -> bytes or path)."""
    path = Path(path)
    path.write_bytes(_zip(package_files(structure, resources=resources, variants=variants),
                          compression))
    return path


def write_folder(folder: str | os.PathLike, structure: SystemStructure,
                 resources: Mapping[str, Resource] | None = None,
                 variants: Mapping[str, SystemStructure] | None = None) -> Path:
    """The same files as ``pack_ssp``, written into an (unpacked SSP) folder."""
    folder = Path(folder)
    for member, data in package_files(structure, resources=resources, variants=variants).items():
        target = folder.joinpath(*member.split("/"))
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
    return folder
