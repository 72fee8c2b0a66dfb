"""What the master exchanges: signals read after each step, links that feed inputs from them,
and the result columns.

Input: the flat connections of a system, the planned components and their ``ModelInfo``s.
Output: ``Signal``s (one per component variable read, arrays whole), ``Link``s (elements of a
source signal to elements of a target variable, with unit conversion, transformation and value
map) and columns (``name``, signal, element). Array variables are read and written whole; a
connection of single elements (SSP 2.0 ``startIndices``/``endIndices``) takes one element.
"""
from __future__ import annotations

from dataclasses import dataclass

from cosim.fmi import arrays
from cosim.fmi.description import VariableInfo
from cosim.fmi.types import is_text
from cosim.master.values import PlanError

INPUT_FILE = -1  # the component of a signal read from an input file


@dataclass(frozen=True, slots=True)
class Signal:
    component: int          # INPUT_FILE for a column of an input file
    variable: VariableInfo
    shape: tuple[int, ...] = ()

    @property
    def size(self) -> int:
        return arrays.count(self.shape)


@dataclass(frozen=True, slots=True)
class Link:
    """``target[target_first + i] = map(factor * signals[source][source_first + i] + offset)``
    for ``i < count``, before ``component`` steps."""

    source: int
    component: int
    variable: VariableInfo
    factor: float = 1.0
    offset: float = 0.0
    mapping: tuple[tuple[float, float], ...] = ()
    label: str = ""
    source_first: int = 0
    target_first: int = 0
    count: int = 1


@dataclass(frozen=True, slots=True)
class Column:
    name: str
    signal: int
    element: int = 0


class Signals:
    """Signals read after each step, one per (component, variable)."""

    def __init__(self, shapes):
        self.items: list[Signal] = []
        self.index: dict[tuple, int] = {}
        self.shapes = shapes  # (component, variable) -> shape

    def add(self, component: int, variable: VariableInfo, key=None, shape=None) -> int:
        key = key or (component, variable.value_reference, variable.exchange)
        if key not in self.index:
            self.index[key] = len(self.items)
            shape = self.shapes(component, variable) if shape is None else shape
            self.items.append(Signal(component, variable, shape))
        return self.index[key]


def exchanged(infos, index, path: str, name: str, what: str, where) -> tuple[int, VariableInfo]:
    """The component index and variable ``name`` of ``path``; ``PlanError`` if it cannot be
    exchanged."""
    variable = infos[path].variable(name)
    if variable is None:
        raise PlanError(f"{what}: the FMU of '{path}' has no variable '{name}'", where)
    if variable.exchange is None:
        raise PlanError(f"{what}: {variable.type} variables cannot be exchanged", where)
    return index[path], variable


def element_range(signal_shape, indices, what: str, side: str, where) -> tuple[int, int]:
    """``(first, count)`` of the elements an end of a connection takes."""
    if indices is None:
        return 0, arrays.count(signal_shape)
    try:
        return arrays.flat_index(tuple(indices), signal_shape), 1
    except IndexError as error:
        raise PlanError(f"{what}: {side} indices {list(indices)}: {error}", where) from None


def check_types(source: VariableInfo, target: VariableInfo, conversion, what: str, where):
    """Numbers feed numbers, texts texts of their own type, without transformations."""
    texts = (is_text(source.exchange), is_text(target.exchange))
    if texts[0] != texts[1] or (all(texts) and source.exchange != target.exchange):
        raise PlanError(f"{what}: a {source.type} output cannot feed a {target.type} input",
                        where)
    if texts[0] and (conversion.factor != 1.0 or conversion.offset != 0.0 or
                     conversion.mapping):
        raise PlanError(f"{what}: {source.type} values cannot be transformed", where)


def link_of(flat, signals: Signals, infos, index, shapes, refusals) -> Link | None:
    """The link of one flat connection between two components (``None`` when refused)."""
    (source_path, output), (target_path, input_name) = flat.source, flat.target
    label = f"connection {source_path}.{output} -> {target_path}.{input_name}"
    where = str(flat.locations[0]) if flat.locations else ""
    with refusals.each():
        if flat.conversion.problem:
            raise PlanError(f"{label}: {flat.conversion.problem}", where)
        source_component, source_variable = exchanged(infos, index, source_path, output, label,
                                                      where)
        component, variable = exchanged(infos, index, target_path, input_name, label, where)
        check_types(source_variable, variable, flat.conversion, label, where)
        source = signals.add(source_component, source_variable)
        source_first, n = element_range(signals.items[source].shape, flat.source_indices,
                                        label, "start", where)
        target_shape = shapes(component, variable)
        target_first, n_target = element_range(target_shape, flat.target_indices, label, "end",
                                               where)
        if n != n_target:
            raise PlanError(f"{label}: {n} element{'s' if n != 1 else ''} to "
                            f"{n_target}", where)
        mapping = tuple((float(a), float(b)) for a, b in flat.conversion.mapping.entries) \
            if flat.conversion.mapping else ()
        return Link(source, component, variable, flat.conversion.factor,
                    flat.conversion.offset, mapping, label, source_first, target_first, n)
    return None


def check_fan_in(links, components, refusals) -> None:
    """At most one link into each element of an input."""
    fed: dict[tuple[int, int, int], str] = {}
    for link in links:
        for k in range(link.count):
            key = (link.component, link.variable.value_reference, link.target_first + k)
            with refusals.each():
                if key in fed:
                    raise PlanError(f"{link.label}: the input is already fed by {fed[key]}",
                                    components[link.component].location)
            fed.setdefault(key, link.label)


def columns_of(signal: int, name: str, shape) -> list[Column]:
    """One column per element: ``name``, or ``name[i,j]`` of an array."""
    return [Column(column, signal, k)
            for k, column in enumerate(arrays.element_names(name, shape))]
