"""The plan as the C loop's flat tables (``master_loop.h``), filled through cffi.

Input: a ``Plan`` and its live components. Output: a ``NativeLoop`` holding the ``Master``
struct and every array it points to (kept alive here), with ``initialize``, ``read_all``,
``record`` and ``steps`` calling into C.
"""
from __future__ import annotations

import ctypes

import numpy as np

from cosim.fmi import FmuError
from cosim.fmi.types import TYPE_CODE, VALUE_TYPES
from cosim.master.components import LiveComponent
from cosim.master.plan import Plan
from cosim.native import native

MAX_LOOP_ITERATIONS = 100
# Inputs of a loop agree when they change by at most this much relative to 1 + |value|.
LOOP_TOLERANCE = 1e-10
FMI2_NAMES = {"Float64": "Real", "Int32": "Integer", "Boolean": "Boolean"}


def _function_names(major: int, type_name: str) -> tuple[str, str] | None:
    if major == 3:
        return f"fmi3Get{type_name}", f"fmi3Set{type_name}"
    fmi2 = FMI2_NAMES.get(type_name)
    return (f"fmi2Get{fmi2}", f"fmi2Set{fmi2}") if fmi2 else None


class NativeLoop:
    def __init__(self, plan: Plan, live: list[LiveComponent]):
        module = native()
        self.ffi, self.lib = module.ffi, module.lib
        self.plan = plan
        self.keep: list = []
        self.m = self.ffi.new("Master *")
        m = self.m
        m.n_components = len(live)
        m.components = self._new("Component[]", len(live))
        for k, component in enumerate(live):
            self._component(m.components[k], component)
        slot_of = self._reads(plan, live)
        self._writes(plan, live, slot_of)
        self._stages(plan)
        m.record_slots = self._array("size_t[]", [slot_of[s] for _, s in plan.columns])
        m.n_record = len(plan.columns)
        m.jacobi = plan.jacobi
        m.t0, m.h, m.stop, m.n_steps = (plan.start_time, plan.step_size, plan.stop_time,
                                        plan.n_steps)
        m.max_iterations = MAX_LOOP_ITERATIONS
        m.loop_tolerance = LOOP_TOLERANCE
        m.error_component = -1
        m.terminated_by = -1
        m.nonfinite_slot = -1
        m.allow_nonfinite = plan.allow_nonfinite
        largest = max([len(plan.signals), len(plan.links), 1])
        m.scratch = self._new("unsigned char[]", 8 * largest)
        m.signals = self._new("double[]", max(len(plan.signals), 1))
        self.row_width = 1 + len(plan.columns)

    # --- allocation that lives as long as the loop ---------------------------------------------
    def _new(self, ctype: str, n):
        value = self.ffi.new(ctype, n)
        self.keep.append(value)
        return value

    def _array(self, ctype: str, values):
        return self._new(ctype, list(values) or [0])

    # --- tables -------------------------------------------------------------------------------
    def _component(self, c, component: LiveComponent) -> None:
        instance = component.instance
        library, major = instance.library, instance.info.major
        c.fmi_major = major
        c.instance = self.ffi.cast("void *", instance.handle)
        for type_name in VALUE_TYPES:
            names = _function_names(major, type_name)
            if names:
                c.get[TYPE_CODE[type_name]] = self.ffi.cast("AnyFunction", library.address(names[0]))
                c.set[TYPE_CODE[type_name]] = self.ffi.cast("AnyFunction", library.address(names[1]))
        prefix = "fmi3" if major == 3 else "fmi2"
        state = "FMUState" if major == 3 else "FMUstate"
        c.do_step = self.ffi.cast("AnyFunction", library.address(f"{prefix}DoStep"))
        c.get_state = self.ffi.cast("AnyFunction", library.address(f"{prefix}Get{state}"))
        c.set_state = self.ffi.cast("AnyFunction", library.address(f"{prefix}Set{state}"))
        c.driver = component.driver if component.driver is not None else self.ffi.NULL
        c.multiple = component.planned.multiple
        if component.planned.kind == "CS" and not c.do_step:  # ME components get a driver later
            raise FmuError(f"the binary does not export {prefix}DoStep", component.planned.source)

    def _batches(self, entries, n_components: int, field: str):
        """Group ``(component, type code, payload)`` entries into batches; returns the order."""
        ordered = sorted(range(len(entries)), key=lambda i: (entries[i][0], entries[i][1]))
        batches, start = [], [0] * (n_components + 1)
        for position, i in enumerate(ordered):
            component, code = entries[i][0], entries[i][1]
            if batches and batches[-1][0] == component and batches[-1][1] == code:
                batches[-1][3] += 1
            else:
                batches.append([component, code, position, 1])
        for b, (component, *_rest) in enumerate(batches):
            start[component + 1] = b + 1
        for c in range(1, n_components + 1):
            start[c] = max(start[c], start[c - 1])
        array = self._new("Batch[]", max(len(batches), 1))
        for b, (component, code, first, count) in enumerate(batches):
            array[b].component, array[b].type, array[b].first, array[b].count = \
                component, code, first, count
        setattr(self.m, field, array)
        setattr(self.m, field.rstrip("s") + "_start", self._array("size_t[]", start))
        return ordered

    def _check_type(self, component: LiveComponent, type_name: str) -> int:
        names = _function_names(component.instance.info.major, type_name)
        if names is None or not component.instance.library.address(names[0]):
            raise FmuError(f"{type_name} values cannot be exchanged with this FMU",
                           component.planned.source)
        return TYPE_CODE[type_name]

    def _reads(self, plan: Plan, live) -> list[int]:
        entries = [(s.component, self._check_type(live[s.component], s.variable.exchange),
                    s.variable.value_reference) for s in plan.signals]
        ordered = self._batches(entries, len(live), "reads")
        slot_of = [0] * len(entries)
        for position, i in enumerate(ordered):
            slot_of[i] = position
        self.m.read_vrs = self._array("uint32_t[]", [entries[i][2] for i in ordered])
        self.m.read_slots = self._array("size_t[]", range(len(ordered)))
        self.slot_of = slot_of
        self.signal_of_slot = ordered
        return slot_of

    def _writes(self, plan: Plan, live, slot_of) -> None:
        links = plan.links
        entries = [(l.component, self._check_type(live[l.component], l.variable.exchange), l)
                   for l in links]
        ordered = self._batches(entries, len(live), "writes")
        chosen = [links[i] for i in ordered]
        m = self.m
        m.write_vrs = self._array("uint32_t[]", [l.variable.value_reference for l in chosen])
        m.write_sources = self._array("size_t[]", [slot_of[l.source] for l in chosen])
        m.write_factors = self._array("double[]", [l.factor for l in chosen])
        m.write_offsets = self._array("double[]", [l.offset for l in chosen])
        starts = np.cumsum([0] + [len(l.mapping) for l in chosen])
        m.map_start = self._array("size_t[]", [int(s) for s in starts])
        m.map_from = self._array("double[]", [a for l in chosen for a, _ in l.mapping])
        m.map_to = self._array("double[]", [b for l in chosen for _, b in l.mapping])
        m.written = self._new("double[]", max(len(chosen), 1))

    def _stages(self, plan: Plan) -> None:
        members = [c for stage, _ in plan.stages for c in stage]
        starts = np.cumsum([0] + [len(stage) for stage, _ in plan.stages])
        self.m.n_stages = len(plan.stages)
        self.m.stage_start = self._array("size_t[]", [int(s) for s in starts])
        self.m.stage_members = self._array("size_t[]", members)
        self.m.stage_is_loop = self._array("bool[]", [loop for _, loop in plan.stages])

    def attach_drivers(self, live) -> None:
        """Model Exchange drivers exist once initialization is over: point the loop at them."""
        for k, component in enumerate(live):
            if component.driver is not None:
                self.m.components[k].driver = component.driver

    def set_deadline(self, deadline: float | None) -> None:
        """Stop after the step during which ``deadline`` (``time.monotonic()`` s) passes."""
        self.m.deadline = deadline or 0.0

    def nonfinite_signal(self):
        """The first non-finite value read: ``(Signal, value, time)``, or ``None``."""
        if self.m.nonfinite_slot < 0:
            return None
        signal = self.plan.signals[self.signal_of_slot[self.m.nonfinite_slot]]
        return signal, self.m.nonfinite_value, self.m.nonfinite_time

    # --- calls --------------------------------------------------------------------------------
    def initialize(self) -> int:
        return self.lib.master_initialize(self.m)

    def read_all(self) -> int:
        return self.lib.master_read_all(self.m)

    def record(self, t: float) -> np.ndarray:
        row = np.empty(self.row_width)
        self.lib.master_record(self.m, t, self.ffi.cast("double *", row.ctypes.data))
        return row

    def steps(self, k_begin: int, k_end: int, rows: np.ndarray) -> tuple[int, int]:
        """Run steps ``k_begin .. k_end - 1`` into ``rows``; returns (status, steps done)."""
        done = self.ffi.new("long long *")
        status = self.lib.master_steps(self.m, k_begin, k_end,
                                       self.ffi.cast("double *", rows.ctypes.data), done)
        return status, done[0]

    def free_saved_states(self, live) -> None:
        """Release FMU states kept for loop rollback (before the instances are freed)."""
        for k, component in enumerate(live):
            state = self.m.components[k].saved_state
            if state != self.ffi.NULL and component.driver is None:
                address = int(self.ffi.cast("uintptr_t", state))
                component.instance.free_state(ctypes.c_void_p(address))
