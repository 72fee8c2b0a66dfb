"""What the master needs from an FMU's ``modelDescription.xml``, read with fmpy.

Input: an ``.fmu`` file or an unpacked FMU folder (or a description fmpy read). Output: a
``ModelInfo`` value: version, interfaces (Co-Simulation, Model Exchange, Scheduled Execution),
variables by name with exchange types, array dimensions, ranges and clocks, direct
feedthrough of each output, states and derivatives, capabilities and the generating tool.
What fmpy does not keep (``intervalDecimal``, ``shiftDecimal`` of clocks; ``min``/``max`` of
unsigned integers) is read from the XML text.
"""
from __future__ import annotations

import zipfile
from dataclasses import dataclass
from pathlib import Path

from cosim.fmi.errors import FmuError
from cosim.fmi.types import exchange_type


@dataclass(frozen=True, slots=True)
class ClockInfo:
    """A clock variable's timing (FMI 3.0): ``interval_variability`` is constant, fixed,
    tunable, changing, countdown or triggered; intervals and shifts in seconds."""

    interval_variability: str
    interval: float | None = None
    shift: float = 0.0
    priority: int = 0


@dataclass(frozen=True, slots=True)
class Dimension:
    """One array dimension: a fixed ``size``, or the value reference of the (structural)
    parameter that holds it."""

    size: int | None = None
    reference: int | None = None


@dataclass(frozen=True, slots=True)
class VariableInfo:
    name: str
    value_reference: int
    type: str            # as in the XML: Float64, Real, Int32, Integer, Boolean, String, ...
    exchange: str | None  # the exchange type (types.py), None when not exchangeable (Clock)
    causality: str
    variability: str
    start: object = None
    unit: str | None = None
    dimensions: tuple[Dimension, ...] = ()
    min: float | None = None
    max: float | None = None
    clocks: tuple[int, ...] = ()       # value references of the clocks it belongs to
    clock: ClockInfo | None = None     # for Clock variables
    sourceline: int | None = None

    @property
    def is_array(self) -> bool:
        return bool(self.dimensions)


@dataclass(frozen=True, slots=True)
class Interface:
    """One of the FMU's interfaces (Co-Simulation, Model Exchange or Scheduled Execution)."""

    model_identifier: str
    can_get_and_set_state: bool
    provides_directional_derivatives: bool
    has_event_mode: bool = False               # Co-Simulation: Event Mode is offered
    can_return_early: bool = False             # Co-Simulation: canReturnEarlyAfterIntermediateUpdate
    can_handle_variable_step: bool = True      # Co-Simulation
    only_once_per_process: bool = False        # canBeInstantiatedOnlyOncePerProcess


INTERFACE_NAMES = {"CS": "Co-Simulation", "ME": "Model Exchange", "SE": "Scheduled Execution"}


@dataclass(frozen=True, slots=True)
class ModelInfo:
    fmi_version: str                       # "2.0", "3.0"
    model_name: str
    token: str                             # guid (2.0) or instantiationToken (3.0)
    co_simulation: Interface | None
    model_exchange: Interface | None
    variables: tuple[VariableInfo, ...]
    # output name -> names of the inputs it depends on directly (all inputs when not listed)
    feedthrough: tuple[tuple[str, tuple[str, ...]], ...]
    state_references: tuple[int, ...]      # continuous states, in state order
    derivative_references: tuple[int, ...]
    event_indicators: int
    start_time: float | None = None
    stop_time: float | None = None
    tolerance: float | None = None
    step_size: float | None = None
    generation_tool: str = ""
    scheduled_execution: Interface | None = None

    @property
    def major(self) -> int:
        return int(self.fmi_version.split(".")[0])

    def variable(self, name: str) -> VariableInfo | None:
        return next((v for v in self.variables if v.name == name), None)

    def by_reference(self, reference: int) -> VariableInfo | None:
        return next((v for v in self.variables if v.value_reference == reference), None)

    def by_causality(self, causality: str) -> tuple[VariableInfo, ...]:
        return tuple(v for v in self.variables if v.causality == causality)

    def inputs_feeding(self, output: str) -> tuple[str, ...]:
        return dict(self.feedthrough).get(output, ())

    def interface(self, kind: str) -> Interface | None:
        """The interface of ``kind`` (``"CS"``, ``"ME"`` or ``"SE"``), ``None`` if absent."""
        return {"CS": self.co_simulation, "ME": self.model_exchange,
                "SE": self.scheduled_execution}[kind]

    @property
    def kinds(self) -> tuple[str, ...]:
        """The interfaces offered, in the order the master prefers them."""
        return tuple(k for k in ("CS", "ME", "SE") if self.interface(k) is not None)


def _interface(element, fmi2: bool) -> Interface | None:
    if element is None:
        return None
    directional = (element.providesDirectionalDerivative if fmi2 or not hasattr(
        element, "providesDirectionalDerivatives") else element.providesDirectionalDerivatives)
    variable_step = getattr(element, "canHandleVariableCommunicationStepSize", None)
    return Interface(element.modelIdentifier, bool(element.canGetAndSetFMUstate),
                     bool(directional), bool(getattr(element, "hasEventMode", False)),
                     bool(getattr(element, "canReturnEarlyAfterIntermediateUpdate", False)),
                     True if variable_step is None else bool(variable_step),
                     bool(getattr(element, "canBeInstantiatedOnlyOncePerProcess", False)))


def read_model_info(path: str | Path) -> ModelInfo:
    """The ``ModelInfo`` of an ``.fmu`` or unpacked FMU folder; ``FmuError`` if unreadable."""
    from fmpy import read_model_description

    try:
        description = read_model_description(str(path), validate=False)
    except Exception as error:  # fmpy raises plain exceptions on bad XML
        raise FmuError(f"cannot read the model description: {error}", str(path)) from None
    return model_info(description, str(path), _xml_attributes(Path(path)))


def model_info(description, where: str, xml_attributes: dict | None = None) -> ModelInfo:
    """The ``ModelInfo`` of a description fmpy read; ``xml_attributes`` (value reference ->
    the variable's XML attributes) add what fmpy does not keep."""
    version = str(description.fmiVersion)
    if not version.startswith(("2.", "3.")):
        raise FmuError(f"FMI {version} is not supported (FMI 2.0 and 3.0 are)", where)
    fmi2 = version.startswith("2")
    variables = tuple(_variable(v, version, (xml_attributes or {}).get(int(v.valueReference)))
                      for v in description.modelVariables)
    inputs = tuple(v.name for v in variables if v.causality == "input")
    feedthrough = tuple(
        (unknown.variable.name,
         inputs if unknown.dependencies is None else
         tuple(d.name for d in unknown.dependencies if d.causality == "input"))
        for unknown in description.outputs)
    experiment = description.defaultExperiment
    return ModelInfo(
        fmi_version=version, model_name=description.modelName,
        token=description.guid if fmi2 else description.instantiationToken,
        co_simulation=_interface(description.coSimulation, fmi2),
        model_exchange=_interface(description.modelExchange, fmi2),
        variables=variables, feedthrough=feedthrough,
        state_references=tuple(int(d.variable.derivative.valueReference)
                               for d in description.derivatives),
        derivative_references=tuple(int(d.variable.valueReference)
                                    for d in description.derivatives),
        event_indicators=int(description.numberOfEventIndicators or 0),
        start_time=_number(experiment, "startTime"), stop_time=_number(experiment, "stopTime"),
        tolerance=_number(experiment, "tolerance"), step_size=_number(experiment, "stepSize"),
        generation_tool=description.generationTool or "",
        scheduled_execution=_interface(getattr(description, "scheduledExecution", None), fmi2))


def _variable(v, version: str, xml: dict | None) -> VariableInfo:
    unit = v.unit or getattr(v.declaredType, "unit", None)
    dimensions = tuple(Dimension(int(d.start) if d.start is not None else None,
                                 int(d.valueReference) if d.valueReference is not None else None)
                       for d in (v.dimensions or ()))
    clock = None
    if v.type == "Clock":
        clock = ClockInfo(v.intervalVariability or "triggered",
                          _float((xml or {}).get("intervalDecimal")),
                          _float((xml or {}).get("shiftDecimal")) or 0.0,
                          int(v.priority or 0))
    return VariableInfo(
        v.name, int(v.valueReference), v.type, exchange_type(version, v.type),
        v.causality or "local", v.variability or "continuous", v.start, unit, dimensions,
        _bound(v.min if v.min is not None else (xml or {}).get("min"), v.declaredType, "min"),
        _bound(v.max if v.max is not None else (xml or {}).get("max"), v.declaredType, "max"),
        tuple(int(c.valueReference) for c in (v.clocks or ())), clock, v.sourceline)


def _bound(own, declared, name: str) -> float | None:
    value = own if own is not None else getattr(declared, name, None)
    return _float(value)


def _float(text) -> float | None:
    try:
        return None if text in (None, "") else float(text)
    except (TypeError, ValueError):
        return None


def _xml_attributes(path: Path) -> dict[int, dict]:
    """Value reference -> XML attributes of every variable (FMI 2.0: with those of its type
    element)."""
    from lxml import etree

    try:
        if path.is_dir():
            xml = (path / "modelDescription.xml").read_bytes()
        else:
            with zipfile.ZipFile(path) as archive:
                xml = archive.read("modelDescription.xml")
        root = etree.fromstring(xml)
    except (OSError, KeyError, zipfile.BadZipFile, etree.XMLSyntaxError):
        return {}
    found = {}
    for element in root.iterfind("ModelVariables/*"):
        attributes = dict(element.attrib)
        for child in element:  # FMI 2.0: <Real min=... max=.../>
            if isinstance(child.tag, str) and child.tag in ("Real", "Integer", "Enumeration"):
                attributes.update(child.attrib)
        if (element.get("valueReference") or "").isdigit():
            found.setdefault(int(element.get("valueReference")), attributes)
    return found


def _number(experiment, name: str) -> float | None:
    value = getattr(experiment, name, None) if experiment is not None else None
    return None if value in (None, "") else float(value)
