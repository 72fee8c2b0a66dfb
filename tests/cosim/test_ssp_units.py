"""Unit conversion (SI = factor * value + offset) and what a connection does to a value."""
from __future__ import annotations

import pytest

from cosim.ssp.model import BaseUnit, LinearTransformation, MappingTransformation, Unit
from cosim.ssp.units import Conversion, unit_conversion, value_conversion

MM = Unit("mm", BaseUnit(m=1, factor=1e-3))
M = Unit("m", BaseUnit(m=1))
KM_H = Unit("km/h", BaseUnit(m=1, s=-1, factor=1 / 3.6))
M_S = Unit("m/s", BaseUnit(m=1, s=-1))
DEG_C = Unit("degC", BaseUnit(K=1, offset=273.15))
DEG_F = Unit("degF", BaseUnit(K=1, factor=5 / 9, offset=273.15 - 32 * 5 / 9))
K = Unit("K", BaseUnit(K=1))
RAD = Unit("rad", BaseUnit(rad=1))
DEG = Unit("deg", BaseUnit(rad=1, factor=3.141592653589793 / 180))
ONE = Unit("1", BaseUnit())
UNITS = (MM, M, KM_H, M_S, DEG_C, DEG_F, K, RAD, DEG, ONE)


def convert(source: Unit, target: Unit, value: float) -> float:
    factor, offset = unit_conversion(source, target)
    return factor * value + offset


@pytest.mark.parametrize("source, target, value, expected", [
    (MM, M, 1234.0, 1.234),
    (M, MM, 1.234, 1234.0),
    (KM_H, M_S, 36.0, 10.0),
    (DEG_C, K, 25.0, 298.15),
    (K, DEG_C, 0.0, -273.15),
    (DEG_C, DEG_F, 100.0, 212.0),
    (DEG_F, DEG_C, -40.0, -40.0),
    (DEG, RAD, 180.0, 3.141592653589793),
])
def test_conversions(source, target, value, expected):
    assert convert(source, target, value) == pytest.approx(expected, rel=1e-14, abs=1e-12)
    back = convert(target, source, convert(source, target, value))
    assert back == pytest.approx(value, rel=1e-14, abs=1e-12)


@pytest.mark.parametrize("source, target", [(M, M_S), (K, M), (RAD, ONE), (MM, DEG)])
def test_incompatible_units(source, target):
    assert unit_conversion(source, target) is None


def test_connection_conversion_is_units_then_transformation():
    # 1500 mm -> 1.5 m, then 2 * 1.5 + 1 = 4
    conversion = value_conversion("mm", "m", UNITS, LinearTransformation(2.0, 1.0))
    assert conversion.factor * 1500.0 + conversion.offset == pytest.approx(4.0)
    suppressed = value_conversion("mm", "m", UNITS, LinearTransformation(2.0, 1.0), True)
    assert (suppressed.factor, suppressed.offset) == (2.0, 1.0)
    assert value_conversion("mm", "mm", UNITS) == Conversion()
    assert value_conversion("mm", None, UNITS) == Conversion()


def test_conversion_problems_are_named():
    assert value_conversion("mm", "s", UNITS + (Unit("s", BaseUnit(s=1)),)).problem == \
        "incompatible units 'mm' and 's'"
    assert value_conversion("mm", "furlong", UNITS).undefined_unit == "furlong"


def test_chained_conversions_compose():
    mm_to_m = value_conversion("mm", "m", UNITS)
    c_to_f = value_conversion("degC", "degF", UNITS)
    chained = mm_to_m.then(Conversion(2.0, 3.0))
    assert chained.factor * 1000.0 + chained.offset == pytest.approx(5.0)
    assert c_to_f.then(Conversion()).factor == pytest.approx(1.8)
    first = MappingTransformation("Integer", ((1, 2), (2, 3)))
    second = MappingTransformation("Integer", ((2, 5), (7, 8)))
    mapping = Conversion(mapping=first).then(Conversion(mapping=second)).mapping
    assert [mapping.apply(v) for v in (1, 2, 7, 9)] == [5, 3, 8, 9]
