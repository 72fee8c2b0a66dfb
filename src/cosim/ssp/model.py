"""Value types of a read SSP: system structure, connectors, connections, parameters, units.

Data only: frozen, slotted dataclasses holding tuples. Every element carries a ``Location``
(file and line) that never takes part in equality, so two reads of equivalent XML compare equal.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal, Union

ConnectorKind = Literal[
    "input", "output", "inout", "parameter", "calculatedParameter",
    "structuralParameter", "constant", "local", "unspecified",
]
CONNECTOR_KINDS: tuple[str, ...] = (
    "input", "output", "inout", "parameter", "calculatedParameter",
    "structuralParameter", "constant", "local", "unspecified",
)

FLOAT_TYPES = ("Real", "Float64", "Float32")
INTEGER_TYPES = (
    "Integer", "Int8", "UInt8", "Int16", "UInt16", "Int32", "UInt32", "Int64", "UInt64")
OTHER_TYPES = ("Boolean", "String", "Enumeration", "Binary", "Clock")
TYPE_NAMES: tuple[str, ...] = FLOAT_TYPES + INTEGER_TYPES + OTHER_TYPES


def type_family(type_name: str) -> str:
    """``float`` or ``integer`` for numeric types (convertible among themselves), else the name."""
    if type_name in FLOAT_TYPES:
        return "float"
    return "integer" if type_name in INTEGER_TYPES else type_name


# Component MIME types named by the standard (and Modelica sources, SSP 2.0).
FMU_TYPE = "application/x-fmu-sharedlibrary"
SSD_TYPE = "application/x-ssp-definition"
SSP_TYPE = "application/x-ssp-package"
MODELICA_TYPE = "text/x-modelica"
PYTHON_TYPE = "text/x-python"  # a model class of a Python file (cosim.build)
PARAMETER_SET_TYPE = "application/x-ssp-parameter-set"
PARAMETER_MAPPING_TYPE = "application/x-ssp-parameter-mapping"
SIGNAL_DICTIONARY_TYPE = "application/x-ssp-signal-dictionary"

__all__ = [
    "ConnectorKind", "CONNECTOR_KINDS", "FLOAT_TYPES", "INTEGER_TYPES", "OTHER_TYPES",
    "TYPE_NAMES", "type_family", "FMU_TYPE", "SSD_TYPE", "SSP_TYPE", "MODELICA_TYPE",
    "PYTHON_TYPE", "PARAMETER_SET_TYPE", "PARAMETER_MAPPING_TYPE", "SIGNAL_DICTIONARY_TYPE",
    "Scalar", "Value",
    "Location", "Diagnostic", "BaseUnit", "BASE_UNIT_NAMES", "Unit", "Enumeration", "Dimension",
    "ClockType", "SignalType", "Connector", "LinearTransformation", "MappingTransformation",
    "Transformation", "Endpoint", "Connection", "Parameter", "ParameterSet", "MappingEntry",
    "ParameterMapping", "ParameterBinding", "DictionaryEntry", "SignalDictionary",
    "SignalDictionaryReference", "Component", "component_kind", "System", "Element",
    "Experiment", "PackageRef", "SystemStructure", "ResolvedParameter", "iter_components",
]

Scalar = Union[float, int, bool, str, bytes]
Value = Union[Scalar, tuple]


@dataclass(frozen=True, slots=True)
class Location:
    """Where an element stands: the file (relative to its package), the line and, for
    Modelica sources, the column."""

    file: str
    line: int | None = None
    column: int | None = None

    def __str__(self) -> str:
        if not self.line:
            return self.file
        return f"{self.file}:{self.line}:{self.column}" if self.column else \
            f"{self.file}:{self.line}"


def _loc() -> Any:
    # Locations never take part in equality: a value read twice compares equal.
    return field(default=None, compare=False, repr=False)


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """One finding of reading or validation; ``str()`` is ``file:line: message``."""

    severity: Literal["error", "warning"]
    message: str
    location: Location | None = None

    def __str__(self) -> str:
        return f"{self.location}: {self.message}" if self.location else self.message


# --- units and enumerations ------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class BaseUnit:
    """SI exponents plus ``factor`` and ``offset``: SI value = factor * value + offset."""

    kg: int = 0
    m: int = 0
    s: int = 0
    A: int = 0
    K: int = 0
    mol: int = 0
    cd: int = 0
    rad: int = 0
    factor: float = 1.0
    offset: float = 0.0

    @property
    def exponents(self) -> tuple[int, ...]:
        return (self.kg, self.m, self.s, self.A, self.K, self.mol, self.cd, self.rad)


BASE_UNIT_NAMES = ("kg", "m", "s", "A", "K", "mol", "cd", "rad")


@dataclass(frozen=True, slots=True)
class Unit:
    name: str
    base: BaseUnit = BaseUnit()
    location: Location | None = _loc()


@dataclass(frozen=True, slots=True)
class Enumeration:
    name: str
    items: tuple[tuple[str, int], ...] = ()
    location: Location | None = _loc()


# --- types of connectors and signals -----------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Dimension:
    """One array dimension (SSP 2.0): a fixed ``size`` or the name of a ``size_connector``."""

    size: int | None = None
    size_connector: str | None = None


@dataclass(frozen=True, slots=True)
class ClockType:
    """Attributes of an ``ssc:Clock`` type (SSP 2.0); ``None`` where the file is silent."""

    interval_variability: str | None = None
    interval_decimal: float | None = None
    shift_decimal: float | None = None
    supports_fraction: bool | None = None
    resolution: int | None = None
    interval_counter: int | None = None
    shift_counter: int | None = None
    priority: int | None = None


@dataclass(frozen=True, slots=True)
class SignalType:
    """The type element of a connector or dictionary entry (``ssc:Real unit="m"`` ...)."""

    name: str
    unit: str | None = None
    enumeration: str | None = None
    mime_type: str | None = None
    clock: ClockType | None = None


@dataclass(frozen=True, slots=True)
class Connector:
    name: str
    kind: str
    type: SignalType | None = None
    dimensions: tuple[Dimension, ...] = ()
    clocks: tuple[str, ...] = ()
    description: str | None = None
    location: Location | None = _loc()


# --- transformations and connections ------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class LinearTransformation:
    """target = factor * source + offset (after any unit conversion)."""

    factor: float = 1.0
    offset: float = 0.0


@dataclass(frozen=True, slots=True)
class MappingTransformation:
    """Boolean, Integer or Enumeration value map; unmapped values pass through unchanged."""

    kind: Literal["Boolean", "Integer", "Enumeration"]
    entries: tuple[tuple[Scalar, Scalar], ...] = ()

    def apply(self, value: Scalar) -> Scalar:
        for source, target in self.entries:
            if source == value:
                return target
        return value


Transformation = Union[LinearTransformation, MappingTransformation]


@dataclass(frozen=True, slots=True)
class Endpoint:
    """One end of a connection; ``element`` is ``None`` for a connector of the system itself."""

    element: str | None
    connector: str
    indices: tuple[int, ...] | None = None

    def __str__(self) -> str:
        name = f"{self.element}.{self.connector}" if self.element else self.connector
        if self.indices is not None:
            name += "[" + ",".join(str(i) for i in self.indices) + "]"
        return name


@dataclass(frozen=True, slots=True)
class Connection:
    """A connection as written (``start``/``end``); ``reversed`` when data flows end -> start.

    SSP does not make ``start`` the source: the connector kinds do. The reader sets
    ``reversed`` from the kinds, so ``source``/``target`` give the direction of the data.
    """

    start: Endpoint
    end: Endpoint
    transformation: Transformation | None = None
    suppress_unit_conversion: bool = False
    reversed: bool = False
    location: Location | None = _loc()

    @property
    def source(self) -> Endpoint:
        return self.end if self.reversed else self.start

    @property
    def target(self) -> Endpoint:
        return self.start if self.reversed else self.end

    def __str__(self) -> str:
        return f"connection {self.start} -> {self.end}"


# --- parameters ---------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Parameter:
    """One ``ssv:Parameter``; ``value`` is a scalar, or a tuple for SSP 2.0 arrays."""

    name: str
    type: str
    value: Value
    unit: str | None = None
    enumeration: str | None = None
    mime_type: str | None = None
    dimensions: tuple[Dimension, ...] = ()
    location: Location | None = _loc()


@dataclass(frozen=True, slots=True)
class ParameterSet:
    name: str
    parameters: tuple[Parameter, ...] = ()
    units: tuple[Unit, ...] = ()
    enumerations: tuple[Enumeration, ...] = ()
    version: str = "1.0"
    location: Location | None = _loc()


@dataclass(frozen=True, slots=True)
class MappingEntry:
    source: str
    target: str
    transformation: Transformation | None = None
    suppress_unit_conversion: bool = False
    location: Location | None = _loc()


@dataclass(frozen=True, slots=True)
class ParameterMapping:
    entries: tuple[MappingEntry, ...] = ()
    version: str = "1.0"
    location: Location | None = _loc()


@dataclass(frozen=True, slots=True)
class ParameterBinding:
    """Values (inline or from ``source``) plus an optional mapping, applied to one element.

    ``values``/``mapping`` hold what was read, ``None`` where it could not be read.
    """

    values: ParameterSet | None = None
    mapping: ParameterMapping | None = None
    source: str | None = None
    source_base: Literal["SSD", "component"] = "SSD"
    prefix: str = ""
    type: str = PARAMETER_SET_TYPE
    mapping_source: str | None = None
    mapping_source_base: Literal["SSD", "component"] = "SSD"
    location: Location | None = _loc()


# --- signal dictionaries ------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class DictionaryEntry:
    name: str
    type: SignalType | None = None
    dimensions: tuple[Dimension, ...] = ()
    description: str | None = None
    location: Location | None = _loc()


@dataclass(frozen=True, slots=True)
class SignalDictionary:
    """A dictionary declared in a system: inline entries or read from an ``.ssb`` ``source``."""

    name: str
    entries: tuple[DictionaryEntry, ...] = ()
    source: str | None = None
    type: str = SIGNAL_DICTIONARY_TYPE
    units: tuple[Unit, ...] = ()
    enumerations: tuple[Enumeration, ...] = ()
    version: str = "1.0"
    location: Location | None = _loc()


@dataclass(frozen=True, slots=True)
class SignalDictionaryReference:
    name: str
    dictionary: str
    connectors: tuple[Connector, ...] = ()
    description: str | None = None
    location: Location | None = _loc()


# --- elements, systems, the whole structure -----------------------------------------------------

@dataclass(frozen=True, slots=True)
class Component:
    """A component: an FMU, a nested ``.ssd``/``.ssp``, a Modelica source, or another type.

    ``source_path`` is ``source`` resolved against the package (a relative POSIX path, or an
    absolute path for ``file:`` URIs in folders); ``nested`` is the loaded nested structure
    for ``.ssd``/``.ssp`` components.
    """

    name: str
    source: str | None = None
    type: str = FMU_TYPE
    connectors: tuple[Connector, ...] = ()
    parameter_bindings: tuple[ParameterBinding, ...] = ()
    implementation: str = "any"
    step_size_hint: float | None = None
    description: str | None = None
    source_path: str | None = field(default=None, compare=False)
    nested: SystemStructure | None = None
    location: Location | None = _loc()

    @property
    def kind(self) -> Literal["fmu", "ssd", "ssp", "modelica", "other"]:
        return component_kind(self.type)


def component_kind(mime: str) -> Literal["fmu", "ssd", "ssp", "modelica", "other"]:
    """What a component MIME type names (parameters after ``;`` are ignored). A Python model
    (``text/x-python``) is a ``modelica`` source too: cosim compiles both into FMUs."""
    return {FMU_TYPE: "fmu", SSD_TYPE: "ssd", SSP_TYPE: "ssp", MODELICA_TYPE: "modelica",
            PYTHON_TYPE: "modelica"}.get(mime.split(";")[0].strip(), "other")


@dataclass(frozen=True, slots=True)
class System:
    name: str
    elements: tuple[Element, ...] = ()
    connectors: tuple[Connector, ...] = ()
    connections: tuple[Connection, ...] = ()
    parameter_bindings: tuple[ParameterBinding, ...] = ()
    signal_dictionaries: tuple[SignalDictionary, ...] = ()
    step_size: float | None = None
    description: str | None = None
    location: Location | None = _loc()

    def element(self, name: str) -> Element | None:
        return next((e for e in self.elements if e.name == name), None)


Element = Union[Component, System, SignalDictionaryReference]


@dataclass(frozen=True, slots=True)
class Experiment:
    """``ssd:DefaultExperiment`` plus the step size and tolerance from vendor annotations.

    ``step_size_origin`` names the annotation the step size came from
    (``osp:FixedStepAlgorithm baseStepSize`` or ``oms:FixedStepMaster stepSize``).
    """

    start_time: float | None = None
    stop_time: float | None = None
    step_size: float | None = None
    step_size_origin: str | None = None
    tolerance: float | None = None
    location: Location | None = _loc()


@dataclass(frozen=True, slots=True)
class PackageRef:
    """Where a structure's files live: a folder or an ``.ssp`` file, and archives inside it.

    ``nested`` is the chain of archive members (``resources/sub.ssp``) from ``root`` down.
    """

    root: str
    is_archive: bool = False
    nested: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class SystemStructure:
    """One ``.ssd`` document: the root system with its units, enumerations and experiment."""

    name: str
    system: System
    version: str = "1.0"
    units: tuple[Unit, ...] = ()
    enumerations: tuple[Enumeration, ...] = ()
    experiment: Experiment | None = None
    file: str = field(default="SystemStructure.ssd", compare=False)
    package: PackageRef | None = field(default=None, compare=False)
    location: Location | None = _loc()

    def unit(self, name: str | None) -> Unit | None:
        return next((u for u in self.units if u.name == name), None) if name else None


@dataclass(frozen=True, slots=True)
class ResolvedParameter:
    """The value a parameter binding gives one variable after prefix, mapping, units and
    precedence. ``component`` is the dotted path of the element (``""`` for the root system),
    ``name`` the variable inside it; ``location`` is the ``ssv:Parameter`` it came from."""

    component: str
    name: str
    type: str
    value: Value
    unit: str | None = None
    location: Location | None = _loc()
    binding: Location | None = _loc()

    @property
    def path(self) -> str:
        return f"{self.component}.{self.name}" if self.component else self.name


def iter_components(structure: SystemStructure, path: str = ""):
    """``(dotted path, document, component)`` for every component, nested documents included.

    The document is the ``SystemStructure`` the component is written in (its units and its
    package apply); a component with a nested structure is yielded before its contents.
    """
    def visit(document: SystemStructure, system: System, prefix: str):
        for element in system.elements:
            element_path = f"{prefix}.{element.name}" if prefix else element.name
            if isinstance(element, System):
                yield from visit(document, element, element_path)
            elif isinstance(element, Component):
                yield element_path, document, element
                if element.nested is not None:
                    yield from visit(element.nested, element.nested.system, element_path)

    yield from visit(structure, structure.system, path)
