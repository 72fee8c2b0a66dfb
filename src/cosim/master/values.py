"""Values the user gives a variable (parameters, start values of inputs): converted to the
variable's type and checked against its range before any FMU runs.

Input: a Python value or command-line text, the ``VariableInfo`` and, for arrays, the number
of elements. Output: the value as the FMU takes it (``float``, ``int``, ``bool``, ``str``,
``bytes``; a tuple for an array), or ``PlanError`` for a value the type cannot hold (an Int8
of 128, a UInt8 of -1); a value outside the variable's declared ``min``/``max`` is a warning.
"""
from __future__ import annotations

from cosim.errors import CosimError
from cosim.fmi.description import VariableInfo
from cosim.fmi.types import INTEGER_RANGES


class PlanError(CosimError):
    """A system the master cannot run as described (unknown variable, unsupported link, ...)."""


def convert_value(value, variable: VariableInfo, what: str, where: str = "", n: int = 1,
                  warn=None):
    """``value`` as the variable's type: one value, or ``n`` values (a tuple) for an array.

    ``warn(message, where)`` is told of values outside the declared ``min``/``max``.
    """
    if n > 1 or variable.is_array:
        items = _items(value)
        if len(items) == 1:
            items = items * n
        if len(items) != n:
            raise PlanError(f"{what}: {len(items)} values for the {n} elements of "
                            f"'{variable.name}'", where)
        return tuple(_scalar(item, variable, what, where, warn) for item in items)
    return _scalar(value, variable, what, where, warn)


def _scalar(value, variable: VariableInfo, what: str, where: str, warn):
    converted = _converted(value, variable, what, where)
    _check_bounds(converted, variable, what, where, warn)
    return converted


def _items(value) -> list:
    if isinstance(value, (list, tuple)):
        return list(value)
    if hasattr(value, "tolist"):
        return list(value.tolist()) if hasattr(value, "__len__") else [value.tolist()]
    if isinstance(value, str):
        return value.replace(",", " ").split()
    return [value]


def _converted(value, variable: VariableInfo, what: str, where: str):
    family = variable.exchange or variable.type
    try:
        if family == "String":
            return str(value)
        if family == "Binary":
            return value if isinstance(value, bytes) else bytes.fromhex(str(value))
        if family == "Boolean":
            if isinstance(value, str):
                if value.lower() not in ("true", "false", "1", "0"):
                    raise ValueError(value)
                return value.lower() in ("true", "1")
            return bool(value)
        if family in ("Float64", "Float32"):
            return float(value)
        return _integer(value, variable, what, where)
    except (TypeError, ValueError):
        raise PlanError(f"{what}: '{value}' is not a {variable.type} value", where) from None


def _integer(value, variable: VariableInfo, what: str, where: str) -> int:
    """An exact integer (text such as 18446744073709551615 does not pass through a float)."""
    if isinstance(value, str):
        text = value.strip()
        try:
            number = int(text)
        except ValueError:
            as_float = float(text)
            if as_float != int(as_float):
                raise ValueError(value) from None
            number = int(as_float)
    elif isinstance(value, bool) or isinstance(value, int) or hasattr(value, "__index__"):
        number = int(value)
    else:
        as_float = float(value)
        if as_float != int(as_float):
            raise ValueError(value)
        number = int(as_float)
    low, high = INTEGER_RANGES.get(variable.exchange or "", (None, None))
    if low is not None and not low <= number <= high:
        raise PlanError(f"{what}: {number} is out of the range of {variable.exchange} "
                        f"[{low}, {high}]", where)
    return number


def _check_bounds(value, variable: VariableInfo, what: str, where: str, warn) -> None:
    if warn is None or isinstance(value, (str, bytes, bool)):
        return
    if variable.min is not None and value < variable.min:
        warn(f"{what}: {value:g} is below the minimum {variable.min:g} of '{variable.name}'",
             where)
    if variable.max is not None and value > variable.max:
        warn(f"{what}: {value:g} is above the maximum {variable.max:g} of '{variable.name}'",
             where)
