"""The interface of a model as an FMU sees it: the variable table and the structure.

One `ModelInterface` value is the single source of both `modelDescription.xml` and the C
tables (`config.h`, `model_info.c`) the runtime reads, so the two cannot disagree.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Literal, Union

from compiler.errors import PackageError

VariableType = Literal["Float64", "Int32", "Int64", "Boolean", "String"]
Causality = Literal["parameter", "calculatedParameter", "input", "output", "local"]
Variability = Literal["constant", "fixed", "tunable", "discrete", "continuous"]
Initial = Literal["exact", "approx", "calculated"]
Value = Union[float, int, bool, str]

C_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
# FMI 3.0 reserves names that clash with the tool's own; we also keep C keywords out of macros.
C_KEYWORDS = frozenset(
    "auto break case char const continue default do double else enum extern float for goto if "
    "inline int long register restrict return short signed sizeof static struct switch typedef "
    "union unsigned void volatile while _Bool _Complex _Imaginary".split() +
    ["I"]  # the imaginary unit macro of <complex.h> (a function's output named I)
)


@dataclass(frozen=True, slots=True)
class Variable:
    """One exposed variable (time is implicit and always value reference 0)."""

    name: str
    type: VariableType = "Float64"
    causality: Causality = "local"
    variability: Variability = "continuous"
    start: Value | None = None
    initial: Initial | None = None  # None: the FMI default for causality and variability
    description: str = ""
    unit: str | None = None
    nominal: float | None = None
    min: float | None = None
    max: float | None = None
    derivative_of: str | None = None  # this is der(<that state>)
    alias_of: str | None = None       # another name of that variable (an FMI 3.0 <Alias>): same
                                      # value reference, causality, variability and unit
    c_name: str | None = None         # identifier of the slot macro; default from the name


@dataclass(frozen=True, slots=True)
class HiddenSlot:
    """Storage the model uses but does not expose (latched relations, counters, guesses)."""

    c_name: str
    type: VariableType = "Boolean"
    start: Value | None = None


@dataclass(frozen=True, slots=True)
class Experiment:
    start_time: float = 0.0
    stop_time: float | None = None
    tolerance: float | None = None
    step_size: float | None = None


@dataclass(frozen=True, slots=True)
class ModelInterface:
    """Everything about a model but its equations.

    Parameters
    ----------
    name : str
        The model's name (``modelName``).
    identifier : str
        ``modelIdentifier``: a C identifier, the name of the binary.
    variables : tuple of Variable
        Exposed variables in value-reference order (the first gets 1). States are the
        variables some derivative points to; their order is that of the derivatives.
    event_indicators : tuple of str
        What each indicator stands for, e.g. ``"h < 0 (Ball.mo:12:5)"``.
    jacobian : tuple of (int, int)
        Structurally nonzero entries (row, column) of d der(x) / d x, by state index.
    has_jacobian : bool
        The model computes Jacobian values; otherwise the runtime uses finite differences.
    dependencies : tuple of (str, tuple of str)
        For outputs and derivatives: the states and inputs they depend on. Unknowns not
        listed depend on everything.
    arrays : tuple of ArrayVariable
        Element variables (``u[1]``, ``u[2]``) the FMU shows as one FMI 3.0 array variable
        (``--fmi-arrays``; compiler.fmu.arrays).
    has_asserts : bool
        The model has continuous-time asserts (checked at every accepted step).
    guesses : tuple of str
        The variables whose values start the Newton iterations of the loops the derivatives
        need (tear variables): kept at each accepted point, restored before each evaluation.
    delays : tuple of (str, bool)
        Each ``delay()`` of the model: what it is for messages (``"delay(v, T) (M.mo:3:5)"``)
        and whether its expression changes only at events (fmu_templates/delays.h).
    spatials : tuple of (str, int)
        Each ``spatialDistribution()``: what it is for messages and the number of points of
        its initial profile (fmu_templates/delays.h).
    """

    name: str
    identifier: str
    variables: tuple[Variable, ...]
    hidden: tuple[HiddenSlot, ...] = ()
    event_indicators: tuple[str, ...] = ()
    jacobian: tuple[tuple[int, int], ...] = ()
    has_jacobian: bool = True
    dependencies: tuple[tuple[str, tuple[str, ...]], ...] = ()
    description: str = ""
    experiment: Experiment | None = None
    default_tolerance: float = 1e-6
    arrays: tuple = ()  # compiler.fmu.arrays.ArrayVariable: element variables shown as one
    has_asserts: bool = False
    guesses: tuple[str, ...] = ()
    delays: tuple[tuple[str, bool], ...] = ()
    spatials: tuple[tuple[str, int], ...] = ()


def default_initial(variable: Variable) -> Initial | None:
    """FMI 3.0 default of `initial` for a causality/variability pair (Table 22)."""
    if variable.causality == "input":
        return None
    if variable.variability == "constant" or variable.causality == "parameter":
        return "exact"
    return "calculated"


def effective_initial(variable: Variable) -> Initial | None:
    return variable.initial if variable.initial is not None else default_initial(variable)


def c_name_of(variable: Variable) -> str:
    """Identifier of a variable's slot macro: `der(x)` -> `der_x`, `a.b[2]` -> `a_b_2`."""
    if variable.c_name:
        return variable.c_name
    name = re.sub(r"[^A-Za-z0-9_]+", "_", variable.name).strip("_")
    return name if name and not name[0].isdigit() else f"v_{name}"


def check(interface: ModelInterface) -> None:
    """Refuse an interface the C tables or the XML could not express. Raises PackageError."""
    where = f"model {interface.name}"
    if not C_IDENTIFIER.match(interface.identifier) or interface.identifier in C_KEYWORDS:
        raise PackageError(f"{where}: modelIdentifier '{interface.identifier}' is not a C identifier")
    names: dict[str, Variable] = {}
    for variable in interface.variables:
        if variable.name in names or variable.name == "time":
            raise PackageError(f"{where}: variable '{variable.name}' is declared twice")
        names[variable.name] = variable
        _check_variable(where, variable)
    for variable in interface.variables:
        for reference in (variable.derivative_of, variable.alias_of):
            if reference is not None and reference not in names:
                raise PackageError(f"{where}: variable '{variable.name}' refers to unknown '{reference}'")
        if variable.alias_of:
            _check_alias(where, variable, names[variable.alias_of])
    macros = [c_name_of(v) for v in interface.variables if not v.alias_of] + [h.c_name for h in interface.hidden]
    for macro in macros:
        if not C_IDENTIFIER.match(macro) or macro in C_KEYWORDS:
            raise PackageError(f"{where}: '{macro}' is not usable as a C identifier")
    if len(set(macros)) != len(macros):
        duplicate = next(m for m in macros if macros.count(m) > 1)
        raise PackageError(f"{where}: two slots are named '{duplicate}' in C; give one a c_name")
    n = len(states(interface))
    for row, column in interface.jacobian:
        if not (0 <= row < n and 0 <= column < n):
            raise PackageError(f"{where}: Jacobian entry ({row}, {column}) outside {n} states")


def _check_alias(where: str, alias: Variable, target: Variable) -> None:
    """FMI 3.0 aliases are names of one variable: they cannot differ in what it is."""
    for key in ("type", "causality", "variability", "unit"):
        if getattr(alias, key) != getattr(target, key) and not (key == "unit" and alias.unit is None):
            raise PackageError(f"{where}: alias '{alias.name}' and '{target.name}' differ in {key}")
    if target.alias_of:
        raise PackageError(f"{where}: alias '{alias.name}' refers to the alias '{target.name}'")


def _check_variable(where: str, variable: Variable) -> None:
    what = f"{where}: variable '{variable.name}'"
    initial = effective_initial(variable)
    needs_start = variable.causality == "input" or initial in ("exact", "approx")
    if needs_start and variable.start is None and not variable.alias_of:
        raise PackageError(f"{what}: needs a start value (causality {variable.causality}, initial {initial})")
    if variable.type != "Float64" and variable.variability == "continuous":
        raise PackageError(f"{what}: a {variable.type} variable cannot be continuous")
    if variable.derivative_of and variable.type != "Float64":
        raise PackageError(f"{what}: a derivative must be Float64")


def states(interface: ModelInterface) -> tuple[tuple[Variable, Variable], ...]:
    """(state, derivative) pairs in state order."""
    by_name = {v.name: v for v in interface.variables}
    return tuple((by_name[v.derivative_of], v) for v in interface.variables if v.derivative_of)
