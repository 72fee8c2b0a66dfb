"""Modelica unit strings (Modelica 3.6, 19.1) to SI base units.

`parse_unit("kN.m/s2")` -> `SiUnit(exponents={'kg': 1, 'm': 2, 's': -4}, factor=1000.0,
offset=0.0)`: a value v in the unit is `factor * v + offset` in SI base units, the convention
of FMI's `BaseUnit` and SSP's `ssc:Unit`.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass

BASE_UNITS = ("kg", "m", "s", "A", "K", "mol", "cd", "rad")


@dataclass(frozen=True, slots=True)
class SiUnit:
    exponents: tuple[tuple[str, int], ...]  # (base unit, exponent), zero exponents left out
    factor: float = 1.0
    offset: float = 0.0

    def exponent(self, base: str) -> int:
        return dict(self.exponents).get(base, 0)


class UnitError(ValueError):
    """A unit string that does not follow the Modelica unit grammar or names no known unit."""


def _unit(factor: float = 1.0, offset: float = 0.0, **exponents: int) -> SiUnit:
    return SiUnit(tuple((b, exponents[b]) for b in BASE_UNITS if exponents.get(b)), factor, offset)


# Symbols of SI and common non-SI units (BIPM SI Brochure, Tables 2, 4 and 8).
SYMBOLS: dict[str, SiUnit] = {
    "m": _unit(m=1), "kg": _unit(kg=1), "g": _unit(1e-3, kg=1), "s": _unit(s=1), "A": _unit(A=1),
    "K": _unit(K=1), "mol": _unit(mol=1), "cd": _unit(cd=1), "rad": _unit(rad=1), "sr": _unit(),
    "Hz": _unit(s=-1), "N": _unit(kg=1, m=1, s=-2), "Pa": _unit(kg=1, m=-1, s=-2),
    "J": _unit(kg=1, m=2, s=-2), "W": _unit(kg=1, m=2, s=-3), "C": _unit(A=1, s=1),
    "V": _unit(kg=1, m=2, s=-3, A=-1), "F": _unit(kg=-1, m=-2, s=4, A=2),
    "Ohm": _unit(kg=1, m=2, s=-3, A=-2), "S": _unit(kg=-1, m=-2, s=3, A=2),
    "Wb": _unit(kg=1, m=2, s=-2, A=-1), "T": _unit(kg=1, s=-2, A=-1),
    "H": _unit(kg=1, m=2, s=-2, A=-2), "lm": _unit(cd=1), "lx": _unit(cd=1, m=-2),
    "Bq": _unit(s=-1), "Gy": _unit(m=2, s=-2), "Sv": _unit(m=2, s=-2), "kat": _unit(mol=1, s=-1),
    "degC": _unit(1.0, 273.15, K=1), "degF": _unit(5 / 9, 273.15 - 32 * 5 / 9, K=1),
    "degRk": _unit(5 / 9, K=1), "deg": _unit(math.pi / 180, rad=1),
    "min": _unit(60.0, s=1), "h": _unit(3600.0, s=1), "d": _unit(86400.0, s=1),
    "l": _unit(1e-3, m=3), "L": _unit(1e-3, m=3), "bar": _unit(1e5, kg=1, m=-1, s=-2),
    "rpm": _unit(2 * math.pi / 60, rad=1, s=-1), "eV": _unit(1.602176634e-19, kg=1, m=2, s=-2),
    "Wh": _unit(3600.0, kg=1, m=2, s=-2), "t": _unit(1e3, kg=1),
}
PREFIXES: dict[str, float] = {
    "Y": 1e24, "Z": 1e21, "E": 1e18, "P": 1e15, "T": 1e12, "G": 1e9, "M": 1e6, "k": 1e3,
    "h": 1e2, "da": 1e1, "d": 1e-1, "c": 1e-2, "m": 1e-3, "u": 1e-6, "n": 1e-9, "p": 1e-12,
    "f": 1e-15, "a": 1e-18, "z": 1e-21, "y": 1e-24,
}
_FACTOR = re.compile(r"([A-Za-z]+)([+-]?\d+)?\Z")


def _operand(symbol: str, text: str) -> SiUnit:
    if symbol in SYMBOLS:
        return SYMBOLS[symbol]
    for prefix in sorted(PREFIXES, key=len, reverse=True):
        rest = symbol[len(prefix):]
        if symbol.startswith(prefix) and rest in SYMBOLS and SYMBOLS[rest].offset == 0.0:
            base = SYMBOLS[rest]
            # "kg" is the base unit; a prefix on it (like "mkg") is not Modelica
            if rest != "kg":
                return SiUnit(base.exponents, base.factor * PREFIXES[prefix])
    raise UnitError(f"unknown unit '{symbol}' in '{text}'")


def _power(unit: SiUnit, exponent: int, text: str) -> SiUnit:
    if unit.offset and exponent != 1:
        raise UnitError(f"'{text}': a unit with an offset cannot be raised to a power")
    return SiUnit(tuple((b, e * exponent) for b, e in unit.exponents), unit.factor**exponent)


def _product(a: SiUnit, b: SiUnit, text: str) -> SiUnit:
    if a.offset or b.offset:
        raise UnitError(f"'{text}': a unit with an offset cannot be combined with others")
    exponents = {base: a.exponent(base) + b.exponent(base) for base in BASE_UNITS}
    return SiUnit(tuple((k, v) for k, v in exponents.items() if v), a.factor * b.factor)


def _factors(text: str, whole: str) -> SiUnit:
    if text == "1":
        return SiUnit(())
    result: SiUnit | None = None
    for part in text.split("."):
        match = _FACTOR.match(part)
        if not match:
            raise UnitError(f"malformed unit '{whole}'")
        unit = _operand(match.group(1), whole)
        if match.group(2):
            unit = _power(unit, int(match.group(2)), whole)
        result = unit if result is None else _product(result, unit, whole)
    assert result is not None
    return result


def _strip_parentheses(text: str) -> str:
    """Drop parentheses that enclose the whole text: "(m/s)" -> "m/s", "(m)/(s)" stays."""
    while text.startswith("(") and text.endswith(")"):
        depth = 0
        for position, char in enumerate(text):
            depth += {"(": 1, ")": -1}.get(char, 0)
            if depth == 0 and position < len(text) - 1:
                return text
        text = text[1:-1]
    return text


def _top_level_slash(text: str) -> int:
    depth = 0
    for position, char in enumerate(text):
        depth += {"(": 1, ")": -1}.get(char, 0)
        if char == "/" and depth == 0:
            return position
    return -1


def _operand_expression(text: str, whole: str) -> SiUnit:
    inner = _strip_parentheses(text)
    return parse_unit(inner) if inner != text else _factors(text, whole)


def parse_unit(text: str) -> SiUnit:
    """The SI form of a Modelica unit string; raises UnitError if it is not one."""
    body = _strip_parentheses(text.strip())
    if not body:
        return SiUnit(())
    slash = _top_level_slash(body)
    if slash < 0:
        return _factors(body, text)
    numerator = _operand_expression(body[:slash], text)
    denominator = _operand_expression(body[slash + 1:], text)
    return _product(numerator, _power(denominator, -1, text), text)


def conversion(source: SiUnit, target: SiUnit) -> tuple[float, float] | None:
    """(factor, offset) with target_value = factor * source_value + offset, or None when the
    units measure different quantities."""
    if dict(source.exponents) != dict(target.exponents):
        return None
    factor = source.factor / target.factor
    return factor, (source.offset - target.offset) / target.factor
