"""Unit conversion between SSP units, and the value conversion a connection applies.

Input: ``Unit`` values (SI exponents, factor, offset: SI = factor * value + offset).
Output: ``(factor, offset)`` pairs with ``target = factor * source + offset``, or ``None``
when the units measure different quantities.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from cosim.ssp.model import LinearTransformation, MappingTransformation, Transformation, Unit


def unit_conversion(source: Unit, target: Unit) -> tuple[float, float] | None:
    """``(factor, offset)`` turning a value in ``source`` into ``target``; None if incompatible.

    For example mm (m=1, factor=0.001) to m gives (0.001, 0.0); degC (K=1, offset=273.15) to
    degF (K=1, factor=5/9, offset=255.372...) gives (1.8, 32.0).
    """
    if source.base.exponents != target.base.exponents:
        return None
    factor = source.base.factor / target.base.factor
    offset = (source.base.offset - target.base.offset) / target.base.factor
    return factor, offset


def find_unit(units: Iterable[Unit], name: str | None) -> Unit | None:
    return next((u for u in units if u.name == name), None) if name else None


@dataclass(frozen=True, slots=True)
class Conversion:
    """What a connection does to a value: ``target = factor * source + offset`` for numbers,
    ``mapping`` for Boolean/Integer/Enumeration values.

    Where the units could not be converted, the factor and offset leave the unit conversion
    out: ``problem`` says so when the units are incompatible, ``undefined_unit`` names a unit
    that has no definition.
    """

    factor: float = 1.0
    offset: float = 0.0
    mapping: MappingTransformation | None = None
    problem: str | None = None
    undefined_unit: str | None = None

    def then(self, other: Conversion) -> Conversion:
        """This conversion followed by ``other`` (for chains through nested systems)."""
        mapping = self.mapping
        if other.mapping is not None:
            mapping = other.mapping if mapping is None else compose_mappings(mapping, other.mapping)
        return Conversion(other.factor * self.factor, other.factor * self.offset + other.offset,
                          mapping, self.problem or other.problem,
                          self.undefined_unit or other.undefined_unit)


def compose_mappings(first: MappingTransformation, second: MappingTransformation
                     ) -> MappingTransformation:
    """The map applying ``first`` then ``second`` (both pass unmapped values through)."""
    sources = [s for s, _ in first.entries] + [s for s, _ in second.entries
                                               if s not in dict(first.entries)]
    return MappingTransformation(second.kind, tuple((s, second.apply(first.apply(s)))
                                                    for s in sources))


def value_conversion(source_unit: str | None, target_unit: str | None, units: Iterable[Unit],
                     transformation: Transformation | None = None,
                     suppress_unit_conversion: bool = False) -> Conversion:
    """Unit conversion (unless suppressed, and when both units are given) then transformation."""
    units = tuple(units)
    factor, offset, problem, undefined = 1.0, 0.0, None, None
    if not suppress_unit_conversion and source_unit and target_unit and source_unit != target_unit:
        source, target = find_unit(units, source_unit), find_unit(units, target_unit)
        if source is None or target is None:
            undefined = source_unit if source is None else target_unit
        elif (converted := unit_conversion(source, target)) is None:
            problem = f"incompatible units '{source_unit}' and '{target_unit}'"
        else:
            factor, offset = converted
    if isinstance(transformation, LinearTransformation):
        factor, offset = (transformation.factor * factor,
                          transformation.factor * offset + transformation.offset)
    mapping = transformation if isinstance(transformation, MappingTransformation) else None
    return Conversion(factor, offset, mapping, problem, undefined)
