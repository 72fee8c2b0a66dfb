"""What the master needs from an FMU's ``modelDescription.xml``, read with fmpy.

Input: an ``.fmu`` file or an unpacked FMU folder. Output: a ``ModelInfo`` value: version,
interfaces, variables by name with exchange types, direct feedthrough of each output, states
and derivatives (for the Model Exchange driver), capabilities and the generating tool.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from cosim.fmi.errors import FmuError
from cosim.fmi.types import exchange_type


@dataclass(frozen=True, slots=True)
class VariableInfo:
    name: str
    value_reference: int
    type: str            # as in the XML: Float64, Real, Int32, Integer, Boolean, String, ...
    exchange: str | None  # the exchange type (types.py), None when not exchangeable
    causality: str
    variability: str
    start: object = None
    unit: str | None = None


@dataclass(frozen=True, slots=True)
class Interface:
    """One of the FMU's interfaces (Co-Simulation or Model Exchange)."""

    model_identifier: str
    can_get_and_set_state: bool
    provides_directional_derivatives: bool


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

    @property
    def major(self) -> int:
        return int(self.fmi_version.split(".")[0])

    def variable(self, name: str) -> VariableInfo | None:
        return next((v for v in self.variables if v.name == name), None)

    def by_causality(self, causality: str) -> tuple[VariableInfo, ...]:
        return tuple(v for v in self.variables if v.causality == causality)

    def inputs_feeding(self, output: str) -> tuple[str, ...]:
        return dict(self.feedthrough).get(output, ())


def _interface(element, fmi2: bool) -> Interface | None:
    if element is None:
        return None
    directional = (element.providesDirectionalDerivative if fmi2 or not hasattr(
        element, "providesDirectionalDerivatives") else element.providesDirectionalDerivatives)
    return Interface(element.modelIdentifier, bool(element.canGetAndSetFMUstate),
                     bool(directional))


def read_model_info(path: str | Path) -> ModelInfo:
    """The ``ModelInfo`` of an ``.fmu`` or unpacked FMU folder; ``FmuError`` if unreadable."""
    from fmpy import read_model_description

    try:
        description = read_model_description(str(path), validate=False)
    except Exception as error:  # fmpy raises plain exceptions on bad XML
        raise FmuError(f"cannot read the model description: {error}", str(path)) from None
    version = str(description.fmiVersion)
    if not version.startswith(("2.", "3.")):
        raise FmuError(f"FMI {version} is not supported (FMI 2.0 and 3.0 are)", str(path))
    fmi2 = version.startswith("2")
    variables = tuple(
        VariableInfo(v.name, int(v.valueReference), v.type, exchange_type(version, v.type),
                     v.causality or "local", v.variability or "continuous", v.start,
                     v.unit or getattr(v.declaredType, "unit", None))
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
        generation_tool=description.generationTool or "")


def _number(experiment, name: str) -> float | None:
    value = getattr(experiment, name, None) if experiment is not None else None
    return None if value in (None, "") else float(value)
