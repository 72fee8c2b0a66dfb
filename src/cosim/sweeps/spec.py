"""Parameter specifications of a sweep, from command-line text to values.

Input: ``comp.var=START:STOP:N`` or ``comp.var=v1,v2,...`` (``parse_axis``) and
``comp.var=normal(MU,SIGMA)``, ``uniform(A,B)`` or ``lognormal(MU,SIGMA)``
(``parse_distribution``). Output: an ``Axis`` (a name and its values) or a ``Distribution``.
Errors are ``SweepError``s located at the flag and its text.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass

import numpy as np

from cosim.errors import CosimError

# name -> (its arguments as written in messages, a check of the arguments)
DISTRIBUTIONS = {
    "normal": (("MU", "SIGMA"), lambda mu, sigma: sigma > 0, "SIGMA must be positive"),
    "uniform": (("A", "B"), lambda a, b: b > a, "B must be greater than A"),
    "lognormal": (("MU", "SIGMA"), lambda mu, sigma: sigma > 0, "SIGMA must be positive"),
}
_CALL = re.compile(r"^\s*([A-Za-z_]\w*)\s*\((.*)\)\s*$")


class SweepError(CosimError):
    """A sweep that cannot run as asked (bad specification, missing extra, lost workers)."""


@dataclass(frozen=True, slots=True)
class Axis:
    """The values one parameter takes in a grid or zip sweep."""

    name: str
    values: tuple


@dataclass(frozen=True, slots=True)
class Distribution:
    """A parameter drawn at random: ``kind`` is a key of ``DISTRIBUTIONS``."""

    name: str
    kind: str
    arguments: tuple[float, float]


def _split(text: str, flag: str, expected: str) -> tuple[str, str, str]:
    """``(name, value text, location)`` of ``NAME=VALUE``."""
    where = f"{flag} {text}"
    name, equals, value = text.partition("=")
    if not equals or not name.strip() or not value.strip():
        raise SweepError(f"expected {expected}", where)
    return name.strip(), value.strip(), where


def _number(text: str, what: str, where: str) -> float:
    try:
        return float(text)
    except ValueError:
        raise SweepError(f"{what} '{text.strip()}' is not a number", where) from None


def parse_value(text: str):
    """A value as typed: an int, a float, a bool (``true``/``false``), else the text."""
    text = text.strip()
    for convert in (int, float):
        try:
            return convert(text)
        except ValueError:
            pass
    if text.lower() in ("true", "false"):
        return text.lower() == "true"
    return text


def plain(value):
    """A numpy scalar as the Python value (as it prints in messages and tables)."""
    return value.item() if isinstance(value, np.generic) else value


def parse_axis(text: str, flag: str = "--param") -> Axis:
    """``comp.var=START:STOP:N`` (``N`` evenly spaced values, both ends included) or
    ``comp.var=v1,v2,...`` (a single value is a list of one)."""
    name, value, where = _split(text, flag, "COMP.VAR=START:STOP:N or COMP.VAR=V1,V2,...")
    if ":" in value:
        parts = value.split(":")
        if len(parts) != 3 or not all(p.strip() for p in parts):
            raise SweepError("expected START:STOP:N", where)
        start = _number(parts[0], "START", where)
        stop = _number(parts[1], "STOP", where)
        count = _number(parts[2], "N", where)
        if count != int(count) or count < 1:
            raise SweepError(f"N must be a whole number of at least 1, not '{parts[2]}'",
                             where)
        return Axis(name, tuple(np.linspace(start, stop, int(count)).tolist()))
    items = value.split(",")
    if not all(item.strip() for item in items):
        raise SweepError("empty value in the list V1,V2,...", where)
    return Axis(name, tuple(parse_value(item) for item in items))


def parse_distribution(text: str, flag: str = "--distribution") -> Distribution:
    """``comp.var=normal(MU,SIGMA)``, ``uniform(A,B)`` or ``lognormal(MU,SIGMA)`` (the
    normal distribution of the logarithm, as numpy's)."""
    name, value, where = _split(text, flag, "COMP.VAR=normal(MU,SIGMA)")
    call = _CALL.match(value)
    if call is None:
        raise SweepError("expected a distribution such as normal(MU,SIGMA)", where)
    kind = call.group(1).lower()
    if kind not in DISTRIBUTIONS:
        raise SweepError(f"unknown distribution '{call.group(1)}' "
                         f"({', '.join(DISTRIBUTIONS)})", where)
    names, valid, rule = DISTRIBUTIONS[kind]
    parts = call.group(2).split(",")
    if len(parts) != len(names) or not all(p.strip() for p in parts):
        raise SweepError(f"expected {kind}({','.join(names)})", where)
    arguments = tuple(_number(p, n, where) for p, n in zip(parts, names))
    if not all(math.isfinite(a) for a in arguments):
        raise SweepError(f"the arguments of {kind} must be finite", where)
    if not valid(*arguments):
        raise SweepError(rule, where)
    return Distribution(name, kind, arguments)


def as_axes(parameters) -> list[Axis]:
    """Axes of ``parameters``: ``--param`` texts, or a mapping of names to a spec text
    (``"1:2:5"``, ``"1,2"``) or to a sequence of values."""
    if isinstance(parameters, str):
        parameters = [parameters]
    if not hasattr(parameters, "items"):
        return [parse_axis(text) for text in parameters]
    axes = []
    for name, values in parameters.items():
        if isinstance(values, str):
            axes.append(parse_axis(f"{name}={values}"))
        elif len(values) == 0:
            raise SweepError("no values", f"--param {name}")
        else:
            axes.append(Axis(name, tuple(plain(v) for v in values)))
    return axes


def as_distributions(distributions) -> list[Distribution]:
    """Distributions of ``--distribution`` texts, or of a mapping of names to texts such as
    ``"normal(0,1)"``."""
    if isinstance(distributions, str):
        distributions = [distributions]
    if hasattr(distributions, "items"):
        distributions = [f"{name}={text}" for name, text in distributions.items()]
    return [parse_distribution(text) for text in distributions]
