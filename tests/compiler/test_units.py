"""Modelica unit strings to SI base units, and conversions between units."""
from __future__ import annotations

import math

import pytest

from compiler.units import UnitError, conversion, parse_unit


@pytest.mark.parametrize("text, exponents, factor", [
    ("m", {"m": 1}, 1.0),
    ("m/s2", {"m": 1, "s": -2}, 1.0),
    ("kN.m", {"kg": 1, "m": 2, "s": -2}, 1e3),
    ("1/s", {"s": -1}, 1.0),
    ("s-1", {"s": -1}, 1.0),
    ("mm", {"m": 1}, 1e-3),
    ("kg/(m.s2)", {"kg": 1, "m": -1, "s": -2}, 1.0),
    ("(m/s)/s", {"m": 1, "s": -2}, 1.0),
    ("W/(m2.K)", {"kg": 1, "s": -3, "K": -1}, 1.0),
    ("Ohm", {"kg": 1, "m": 2, "s": -3, "A": -2}, 1.0),
    ("mA.h", {"A": 1, "s": 1}, 3.6),
    ("rad/s", {"rad": 1, "s": -1}, 1.0),
    ("g", {"kg": 1}, 1e-3),
    ("deg", {"rad": 1}, math.pi / 180),
    ("", {}, 1.0),
])
def test_parse(text, exponents, factor):
    unit = parse_unit(text)
    assert dict(unit.exponents) == exponents
    assert unit.factor == pytest.approx(factor)
    assert unit.offset == 0.0


def test_offset_units_convert_affinely():
    assert conversion(parse_unit("degC"), parse_unit("K")) == (1.0, 273.15)
    factor, offset = conversion(parse_unit("degF"), parse_unit("degC"))
    assert factor * 212.0 + offset == pytest.approx(100.0)
    assert conversion(parse_unit("mm"), parse_unit("m")) == (1e-3, 0.0)
    assert conversion(parse_unit("m"), parse_unit("s")) is None


@pytest.mark.parametrize("text, message", [
    ("m/s/s", "malformed unit 'm/s/s'"),
    ("furlong", "unknown unit 'furlong'"),
    ("degC2", "cannot be raised to a power"),
    ("degC.m", "cannot be combined"),
    ("mkg", "unknown unit 'mkg'"),
])
def test_refused(text, message):
    with pytest.raises(UnitError, match=message):
        parse_unit(text)
