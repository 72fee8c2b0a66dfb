"""Inputs read from a file (``cosim run X.fmu --input in.csv``), as fmpy reads them.

Input: a CSV file with a header ``time,<name>,...`` (``name`` is ``component.variable``, or the
variable alone when one component has it), one row per time (non-decreasing; a time written
twice is a jump), and the planned components. Output: an ``InputPlan``: the table's times and,
per column, the input it feeds, whether it is interpolated linearly (continuous Float inputs)
or holds its last value (discrete inputs, integers, Booleans, texts: those change at the
rows' times, which are events), and its values as exact texts (64-bit integers keep every
digit). An array input takes one column of space-separated values, or one column per
element (``u[1]``, ``u[2]``).
"""
from __future__ import annotations

import csv
from dataclasses import dataclass
from pathlib import Path

from cosim.fmi import arrays
from cosim.fmi.types import is_float
from cosim.master.values import PlanError, convert_value


@dataclass(frozen=True, slots=True)
class InputColumn:
    name: str            # as in the file
    component: int
    path: str            # the component's
    variable: object     # VariableInfo
    first: int           # the first element it feeds
    count: int
    linear: bool
    values: tuple        # one per row: a value, or a tuple of ``count`` for an array column


@dataclass(frozen=True, slots=True)
class InputPlan:
    source: str
    times: tuple[float, ...]
    columns: tuple[InputColumn, ...]


def read_table(path: str) -> tuple[list[str], list[list[str]]]:
    """Header and rows of the CSV file, texts as they are; ``PlanError`` for what is not a
    table of inputs."""
    try:
        with open(path, newline="") as file:
            lines = [row for row in csv.reader(file) if row]
    except OSError as error:
        raise PlanError(f"cannot read the input file: {error.strerror}", str(path)) from None
    except (csv.Error, UnicodeDecodeError) as error:
        raise PlanError(f"not a CSV file: {error}", str(path)) from None
    if not lines or lines[0][0].strip() != "time":
        raise PlanError("the header must be time,<input>,...", str(path))
    header = [name.strip() for name in lines[0]]
    for number, row in enumerate(lines[1:], start=2):
        if len(row) != len(header):
            raise PlanError(f"{len(row)} values in a row of {len(header)} columns",
                            f"{path}:{number}")
    return header, lines[1:]


def _times(path: str, rows) -> tuple[float, ...]:
    times = []
    for number, row in enumerate(rows, start=2):
        try:
            times.append(float(row[0]))
        except ValueError:
            raise PlanError(f"time '{row[0]}' is not a number", f"{path}:{number}") from None
        if len(times) > 1 and times[-1] < times[-2]:
            raise PlanError(f"time {times[-1]:g} is before the row above it ({times[-2]:g})",
                            f"{path}:{number}")
    return tuple(times)


def _find(name: str, components, infos) -> tuple[int, object, int | None]:
    """``(component index, variable, element)`` of a column name; ``element`` for ``u[2]``."""
    base, bracket, rest = name.partition("[")
    candidates = []
    for k, component in enumerate(components):
        info = infos[component.path]
        prefix = component.path + "."
        own = base[len(prefix):] if base.startswith(prefix) else None
        for variable_name in (own, base if len(components) == 1 else None):
            variable = info.variable(variable_name) if variable_name else None
            if variable is not None:
                candidates.append((k, variable))
                break
    if len(candidates) != 1:
        what = "is no variable of the system" if not candidates else \
            "names a variable of several components (write component.variable)"
        raise PlanError(f"column '{name}' {what}")
    k, variable = candidates[0]
    if variable.causality != "input" and variable.type != "Clock":
        raise PlanError(f"column '{name}': '{variable.name}' is a {variable.causality}, not an "
                        f"input")
    element = None
    if bracket:
        indices = tuple(int(i) for i in rest.rstrip("]").split(","))
        shape = components[k].shape(variable)
        try:
            element = arrays.flat_index(indices, shape)
        except IndexError as error:
            raise PlanError(f"column '{name}': {error}") from None
    return k, variable, element


def plan_inputs(path: str | Path, components, infos) -> InputPlan:
    """The ``InputPlan`` of the file ``path`` for the planned ``components``."""
    path = str(path)
    header, rows = read_table(path)
    times = _times(path, rows)
    columns = []
    for j, name in enumerate(header[1:], start=1):
        try:
            k, variable, element = _find(name, components, infos)
        except PlanError as error:
            raise PlanError(error.message, path) from None
        n = 1 if element is not None else arrays.count(components[k].shape(variable))
        values = tuple(_value(row[j], variable, name, n, f"{path}:{number}")
                       for number, row in enumerate(rows, start=2))
        linear = is_float(variable.exchange) and variable.variability == "continuous"
        columns.append(InputColumn(name, k, components[k].path, variable, element or 0, n,
                                   linear, values))
    return InputPlan(path, times, tuple(columns))


def _value(text: str, variable, name: str, n: int, where: str):
    """One field, checked against the variable's type (the text is kept: exact integers)."""
    what = f"column '{name}'"
    if variable.type == "Clock":
        return text.strip().lower() in ("1", "true")
    if variable.exchange != "String":
        text = text.strip()
    convert_value(text, variable, what, where, n)
    return tuple(text.split()) if n > 1 else text
