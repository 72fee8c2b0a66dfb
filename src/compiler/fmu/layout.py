"""Where each variable lives: its value reference and its slot in the runtime's typed arrays.

vr 0 is time; exposed variables get 1, 2, ... in declaration order, each alias the value
reference of the variable it aliases; the elements of an FMI 3.0 array variable (interface
``arrays``) share one value reference and have consecutive slots, row-major. Slots are
numbered per type: exposed variables first, then the event-indicator variables the packager
adds, then hidden storage.
"""
from __future__ import annotations

from dataclasses import dataclass

from compiler.fmu.interface import ModelInterface, Variable, c_name_of, states

TYPES = ("Float64", "Int32", "Int64", "Boolean", "String")
# The C array and accessor macro of each type in ModelData (see fmu_templates/model.h).
C_ARRAYS = {"Float64": "r", "Int32": "i", "Int64": "e", "Boolean": "b", "String": "s"}
C_ACCESSORS = {"Float64": "R", "Int32": "INT", "Int64": "ENUM", "Boolean": "BOOL", "String": "STR"}


@dataclass(frozen=True, slots=True)
class Slot:
    type: str
    index: int
    c_name: str
    label: str  # the Modelica name, for comments


@dataclass(frozen=True, slots=True)
class Layout:
    variables: tuple[Variable, ...]          # exposed ones, indicator variables appended
    value_reference: dict[str, int]          # variable name -> vr
    slot: dict[str, Slot]                    # variable name -> slot (aliases: the target's)
    hidden_slot: dict[str, Slot]             # hidden storage by C name
    slots: tuple[Slot, ...]                  # every slot, exposed and hidden, by type then index
    count: dict[str, int]                    # slots per type
    states: tuple[tuple[Variable, Variable], ...]
    indicator_variables: tuple[Variable, ...]
    arrays: dict = None                      # element name -> its ArrayVariable

    def array_of(self, name: str):
        """The ArrayVariable ``name`` is an element of, or None."""
        return (self.arrays or {}).get(name)

    @property
    def n_value_references(self) -> int:
        return 1 + len({vr for vr in self.value_reference.values()})


def indicator_variable(index: int, meaning: str) -> Variable:
    return Variable(
        name=f"_eventIndicator_{index + 1}",
        description=f"event indicator: {meaning}",
        c_name=f"_eventIndicator_{index + 1}",
    )


def layout(interface: ModelInterface) -> Layout:
    indicators = tuple(indicator_variable(k, text) for k, text in enumerate(interface.event_indicators))
    variables = interface.variables + indicators
    count = {t: 0 for t in TYPES}
    value_reference: dict[str, int] = {}
    slot: dict[str, Slot] = {}
    slots: list[Slot] = []

    def new_slot(type_: str, c_name: str, label: str) -> Slot:
        created = Slot(type_, count[type_], c_name, label)
        count[type_] += 1
        slots.append(created)
        return created

    by_name = {v.name: v for v in variables}
    group_of = {name: group for group in interface.arrays for name in group.elements}
    next_vr = 1
    for variable in variables:
        if variable.alias_of or variable.name in value_reference:
            continue
        group = group_of.get(variable.name)
        for name in group.elements if group else (variable.name,):
            value_reference[name] = next_vr
            slot[name] = new_slot(by_name[name].type, c_name_of(by_name[name]), name)
        next_vr += 1
    for variable in variables:
        if variable.alias_of:
            value_reference[variable.name] = value_reference[variable.alias_of]
            slot[variable.name] = slot[variable.alias_of]
    hidden_slot = {h.c_name: new_slot(h.type, h.c_name, f"{h.c_name} (hidden)") for h in interface.hidden}
    order = {type_: k for k, type_ in enumerate(TYPES)}
    ordered = tuple(sorted(slots, key=lambda s: (order[s.type], s.index)))
    arrays = {name: group for group in interface.arrays for name in group.elements}
    return Layout(variables, value_reference, slot, hidden_slot, ordered, count, states(interface), indicators,
                  arrays)
