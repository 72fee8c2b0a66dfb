"""The plan as the C loop's flat tables (``master_loop.h``), filled through cffi.

Input: a ``Plan`` and its live components. Output: a ``NativeLoop`` holding the ``Master``
struct and every array it points to (kept alive here), with ``initialize``, ``read_all``,
``record`` and ``steps`` calling into C. Each signal gets consecutive 8-byte slots (one per
array element), laid out so that a component's values of one type are read in one call.
"""
from __future__ import annotations

import ctypes

import numpy as np

from cosim.fmi import FmuError
from cosim.fmi import arrays
from cosim.fmi.types import SLOT_DTYPES, TYPE_CODE, VALUE_TYPES, is_text
from cosim.master.components import LiveComponent
from cosim.master.plan import Plan
from cosim.master.signals import INPUT_FILE
from cosim.native import native

MAX_LOOP_ITERATIONS = 100
# Inputs of a loop agree when they change by at most this much relative to 1 + |value|.
LOOP_TOLERANCE = 1e-10
FMI2_NAMES = {"Float64": "Real", "Int32": "Integer", "Boolean": "Boolean", "String": "String"}
WRITE_SAME, WRITE_NUMBER, WRITE_INTEGER, WRITE_HELD = range(4)
CLOCK_KINDS = {"periodic": 0, "countdown": 1, "triggered": 2}  # ClockKind, clock_schedule.h
NO_SOURCE = 2**64 - 1


def _function_names(major: int, type_name: str) -> tuple[str, str] | None:
    if major == 3:
        return f"fmi3Get{type_name}", f"fmi3Set{type_name}"
    fmi2 = FMI2_NAMES.get(type_name)
    return (f"fmi2Get{fmi2}", f"fmi2Set{fmi2}") if fmi2 else None


# A lone isolated FMU steps in its worker (False: one round trip per communication step;
# tools/bench_isolation.py compares both)
LONE_STEPPING = True


def lone_possible(plan: Plan, live) -> bool:
    if len(live) != 1 or plan.links or not live[0].instance.library.isolated:
        return False
    planned = live[0].planned
    if planned.clocks or planned.kind == "SE" or (planned.kind == "ME" and not live[0].remote):
        return False
    return not any(is_text(s.variable.exchange) for s in plan.signals)


def write_mode(source_type: str, target_type: str, link) -> int:
    """How a write entry converts its source slot into its target type."""
    plain = link.factor == 1.0 and link.offset == 0.0 and not link.mapping
    if is_text(target_type) or (plain and SLOT_DTYPES[source_type] == SLOT_DTYPES[target_type]):
        return WRITE_SAME
    if plain and "f8" not in (SLOT_DTYPES[source_type], SLOT_DTYPES[target_type]):
        return WRITE_INTEGER
    return WRITE_NUMBER


class NativeLoop:
    def __init__(self, plan: Plan, live: list[LiveComponent]):
        module = native()
        self.ffi, self.lib = module.ffi, module.lib
        self.plan = plan
        self.keep: list = []
        self.m = self.ffi.new("Master *")
        m = self.m
        if not self.lib.master_setup(m):
            raise MemoryError("no memory for the master's texts")
        self.texts: list = [b""]
        self.schedules: dict = {}  # id(live component) -> its clocks (schedule, due, due_vrs)
        m.n_components = len(live)
        m.components = self._new("Component[]", len(live))
        for k, component in enumerate(live):
            self._component(m.components[k], component)
        self._slots(plan, live)
        self._reads(plan, live)
        self._writes(plan, live)
        self._stages(plan)
        self._inputs(plan)
        m.record_slots = self._array("size_t[]", [self.slot_of[c.signal] + c.element
                                                  for c in plan.columns])
        m.n_record = len(plan.columns)
        m.event_rows = plan.event_rows
        m.jacobi = plan.jacobi
        m.t0, m.h, m.stop, m.n_steps = (plan.start_time, plan.step_size, plan.stop_time,
                                        plan.n_steps)
        m.max_iterations = MAX_LOOP_ITERATIONS
        m.loop_tolerance = LOOP_TOLERANCE
        m.error_component = -1
        m.terminated_by = -1
        m.nonfinite_slot = -1
        m.allow_nonfinite = plan.allow_nonfinite
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
                c.get[TYPE_CODE[type_name]] = self._function(library, names[0])
                c.set[TYPE_CODE[type_name]] = self._function(library, names[1])
        prefix = "fmi3" if major == 3 else "fmi2"
        state = "FMUState" if major == 3 else "FMUstate"
        c.do_step = self._function(library, f"{prefix}DoStep")
        c.get_state = self._function(library, f"{prefix}Get{state}")
        c.set_state = self._function(library, f"{prefix}Set{state}")
        if major == 2:
            c.get_boolean_status = self._function(library, "fmi2GetBooleanStatus")
            c.get_real_status = self._function(library, "fmi2GetRealStatus")
        if component.planned.event_mode:
            c.event_mode = True
            c.enter_event_mode = self._function(library, "fmi3EnterEventMode")
            c.update_discrete_states = self._function(library, "fmi3UpdateDiscreteStates")
            c.enter_step_mode = self._function(library, "fmi3EnterStepMode")
        c.driver = self.ffi.NULL
        c.multiple = component.planned.multiple
        self._clocks(c, component)
        if component.planned.kind == "CS" and not c.do_step:  # ME: a driver, SE: partitions
            raise FmuError(f"the binary does not export {prefix}DoStep", component.planned.source)

    def _clocks(self, c, component: LiveComponent) -> None:
        """The schedule of the component's input clocks (kept in ``self.schedules`` for its
        Model Exchange driver)."""
        planned, library = component.planned, component.instance.library
        c.scheduled = planned.kind == "SE"
        if c.scheduled:
            c.activate = self._function(library, "fmi3ActivateModelPartition")
        if not planned.clocks:
            return
        schedule = self._new("ClockSchedule *", None)
        clocks = planned.clocks
        n = len(clocks)
        schedule.n = n
        schedule.vrs = self._array("uint32_t[]", [k.variable.value_reference for k in clocks])
        schedule.kinds = self._array("int[]", [CLOCK_KINDS[k.kind] for k in clocks])
        schedule.intervals = self._array("double[]", [k.interval for k in clocks])
        schedule.shifts = self._array("double[]", [k.shift for k in clocks])
        schedule.ticks = self._array("double[]", [t for k in clocks for t in k.ticks])
        schedule.tick_start = self._array("size_t[]", np.cumsum([0] + [len(k.ticks)
                                                                       for k in clocks]).tolist())
        schedule.tick_next = self._new("size_t[]", n)
        schedule.count = self._new("long long[]", n)
        schedule.next = self._new("double[]", n)
        c.clocks = schedule
        c.due = self._new("size_t[]", n)
        c.due_vrs = self._new("uint32_t[]", n)
        c.set_clock = self._function(library, "fmi3SetClock")
        c.get_interval = self._function(library, "fmi3GetIntervalDecimal")
        self.schedules[id(component)] = (schedule, c.due, c.due_vrs)

    def _function(self, library, name: str):
        return self.ffi.cast("AnyFunction", library.address(name))

    def _check_type(self, component: LiveComponent, type_name: str) -> int:
        names = _function_names(component.instance.info.major, type_name)
        if names is None or not component.instance.library.address(names[0]):
            raise FmuError(f"{type_name} values cannot be exchanged with this FMU",
                           component.planned.source)
        return TYPE_CODE[type_name]

    def _slots(self, plan: Plan, live) -> None:
        """Consecutive slots per signal, ordered by (component, type): one batch each; the
        signals of input files last."""
        def key(k):
            signal = plan.signals[k]
            component = signal.component if signal.component >= 0 else len(live)
            return component, TYPE_CODE[signal.variable.exchange]

        self.order = sorted(range(len(plan.signals)), key=key)
        self.slot_of = [0] * len(plan.signals)
        types = []
        for k in self.order:
            self.slot_of[k] = len(types)
            types += [TYPE_CODE[plan.signals[k].variable.exchange]] * plan.signals[k].size
        self.m.n_slots = len(types)
        self.m.slot_types = self._array("int[]", types)
        self.m.signals = self._new("Value[]", max(len(types), 1))
        self.slot_signal = [(k, e) for k in self.order for e in range(plan.signals[k].size)]

    def _batches(self, groups, n_components: int, field: str) -> None:
        """``groups``: ``(component, type code, n_vrs, count)`` in table order -> Batches."""
        array = self._new("Batch[]", max(len(groups), 1))
        start = [0] * (n_components + 1)
        first_vr = first = 0
        for b, (component, code, n_vrs, count) in enumerate(groups):
            array[b].component, array[b].type = component, code
            array[b].first_vr, array[b].n_vrs, array[b].first, array[b].count = \
                first_vr, n_vrs, first, count
            first_vr, first = first_vr + n_vrs, first + count
            start[component + 1] = b + 1
        for c in range(1, n_components + 1):
            start[c] = max(start[c], start[c - 1])
        setattr(self.m, field, array)
        setattr(self.m, field.rstrip("s") + "_start", self._array("size_t[]", start))

    def _reads(self, plan: Plan, live) -> None:
        groups, vrs = [], []
        for k in self.order:
            signal = plan.signals[k]
            if signal.component == INPUT_FILE:
                continue
            code = self._check_type(live[signal.component], signal.variable.exchange)
            if groups and groups[-1][:2] == [signal.component, code]:
                groups[-1][2] += 1
                groups[-1][3] += signal.size
            else:
                groups.append([signal.component, code, 1, signal.size])
            vrs.append(signal.variable.value_reference)
        self._batches(groups, len(live), "reads")
        self.widest = max([g[3] for g in groups] + [1])
        self.m.read_vrs = self._array("uint32_t[]", vrs)
        self.m.read_slots = self._array("size_t[]", range(self.m.n_slots))

    def _targets(self, plan: Plan, live) -> list[tuple]:
        """Every fed input as ``(component, type code, variable, shape, links)``, in batch
        order: arrays are written whole."""
        targets: dict[tuple[int, int], list] = {}
        for link in plan.links:
            entry = targets.setdefault((link.component, link.variable.value_reference),
                                       [link.variable, []])
            entry[1].append(link)
        rows = []
        for (component, _), (variable, links) in targets.items():
            code = self._check_type(live[component], variable.exchange)
            rows.append((component, code, variable,
                         live[component].planned.shape(variable), links))
        return sorted(rows, key=lambda r: (r[0], r[1]))

    def _writes(self, plan: Plan, live) -> None:
        entries, groups, vrs = [], [], []
        for component, code, variable, shape, links in self._targets(plan, live):
            elements = self._elements(plan, live[component], variable, shape, links)
            entries += elements
            vrs.append(variable.value_reference)
            if groups and groups[-1][:2] == [component, code]:
                groups[-1][2] += 1
                groups[-1][3] += len(elements)
            else:
                groups.append([component, code, 1, len(elements)])
        self._batches(groups, len(live), "writes")
        m = self.m
        m.write_vrs = self._array("uint32_t[]", vrs)
        m.write_sources = self._array("size_t[]", [e[0] for e in entries])
        m.write_modes = self._array("int[]", [e[1] for e in entries])
        m.write_factors = self._array("double[]", [e[2] for e in entries])
        m.write_offsets = self._array("double[]", [e[3] for e in entries])
        starts = np.cumsum([0] + [len(e[4]) for e in entries])
        m.map_start = self._array("size_t[]", [int(s) for s in starts])
        m.map_from = self._array("double[]", [a for e in entries for a, _ in e[4]])
        m.map_to = self._array("double[]", [b for e in entries for _, b in e[4]])
        m.written = self._new("Value[]", max(len(entries), 1))
        for k, e in enumerate(entries):
            if e[1] == WRITE_HELD:
                self._set_value(m.written[k], e[5], e[6])
        width = max([b[3] for b in groups] + [self.widest])  # values of the largest batch
        m.scratch = self._new("unsigned char[]", 8 * width)
        m.scratch_sizes = self._new("size_t[]", width)

    def _elements(self, plan: Plan, component: LiveComponent, variable, shape, links) -> list:
        """One write entry per element: ``(source slot, mode, factor, offset, mapping,
        type, held value)``; elements no link feeds hold their start (or set) value."""
        n = arrays.count(shape)
        given = dict((v.value_reference, value) for v, value in component.planned.parameters)
        held = given.get(variable.value_reference)
        held = list(held) if isinstance(held, tuple) else [held] * n if held is not None \
            else arrays.start_values(variable, n)
        elements = [(NO_SOURCE, WRITE_HELD, 1.0, 0.0, (), variable.exchange, held[k])
                    for k in range(n)]
        for link in links:
            source = plan.signals[link.source]
            mode = write_mode(source.variable.exchange, variable.exchange, link)
            for i in range(link.count):
                slot = self.slot_of[link.source] + link.source_first + i
                elements[link.target_first + i] = (slot, mode, link.factor, link.offset,
                                                   link.mapping, variable.exchange, None)
        return elements

    def _set_value(self, slot, type_name: str, item) -> None:
        """A ``Value`` slot from a Python value or the start text of a ``type_name``."""
        kind = SLOT_DTYPES[type_name]
        if is_text(type_name):
            slot.u = self.add_text(_text_bytes(type_name, item))
        elif item in (None, ""):
            slot.u = 0
        elif kind == "f8":
            slot.f = float(item)
        elif type_name == "Boolean":
            slot.i = int(item.lower() in ("true", "1")) if isinstance(item, str) else int(bool(item))
        elif kind == "u8":
            slot.u = _integer(item)
        else:
            slot.i = _integer(item)

    def _inputs(self, plan: Plan) -> None:
        """The table of the input file: one column per element of each file column."""
        if plan.inputs is None:
            return
        slots, types, linear, columns = [], [], [], []
        for column, signal in zip(plan.inputs.columns, plan.input_signals):
            if signal < 0:
                continue  # a Clock column: its ticks are in the component's schedule
            type_name = column.variable.exchange
            for e in range(column.count):
                slots.append(self.slot_of[signal] + e)
                types.append(TYPE_CODE[type_name])
                linear.append(column.linear)
                columns.append((column, e, type_name))
        table = self.m.inputs
        table.n_rows, table.n_columns = len(plan.inputs.times), len(slots)
        table.times = self._array("double[]", plan.inputs.times)
        table.slots = self._array("size_t[]", slots)
        table.types = self._array("int[]", types)
        table.linear = self._array("bool[]", linear)
        table.values = self._new("Value[]", max(table.n_rows * table.n_columns, 1))
        for row in range(table.n_rows):
            for j, (column, e, type_name) in enumerate(columns):
                value = column.values[row]
                self._set_value(table.values[row * table.n_columns + j], type_name,
                                value[e] if isinstance(value, tuple) else value)

    def add_text(self, data: bytes) -> int:
        identifier = self.lib.master_add_text(self.m, data, len(data))
        if identifier == 2**64 - 1:
            raise MemoryError("no memory for the master's texts")
        return identifier

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
                self.lib.master_attach_driver(self.m, k, component.driver)
            elif component.remote:
                status = self.lib.master_attach_remote(self.m, k, component.instance.library.host)
                if status > 1:
                    raise MemoryError("the worker cannot keep the reads of its event rows")

    def go_lone(self, live) -> int:
        """A lone isolated FMU (nothing feeds it, no texts, no clocks) is stepped by the loop
        in its worker from now on: many steps per round trip instead of one."""
        if not (LONE_STEPPING and lone_possible(self.plan, live)):
            return 0
        return self.lib.master_go_lone(self.m, live[0].instance.library.host)

    def start_clocks(self) -> int:
        return self.lib.master_start_clocks(self.m)

    def set_deadline(self, deadline: float | None) -> None:
        """Stop after the step during which ``deadline`` (``time.monotonic()`` s) passes."""
        self.m.deadline = deadline or 0.0

    def nonfinite_signal(self):
        """The first non-finite value read: ``(Signal, value, time)``, or ``None``."""
        if self.m.nonfinite_slot < 0:
            return None
        signal, _ = self.slot_signal[self.m.nonfinite_slot]
        return self.plan.signals[signal], self.m.nonfinite_value, self.m.nonfinite_time

    # --- calls --------------------------------------------------------------------------------
    def initialize(self) -> int:
        return self.lib.master_initialize(self.m)

    def read_all(self) -> int:
        return self.lib.master_read_all(self.m)

    def record(self, t: float) -> np.ndarray:
        """The row of time ``t`` (raw 8-byte slots, shape (1, width))."""
        status = self.lib.master_record(self.m, t)
        if status > 1:
            raise MemoryError("no memory for result rows")
        return self.take_rows()

    def steps(self, k_begin: int, k_end: int) -> tuple[int, int, np.ndarray]:
        """Run steps ``k_begin .. k_end - 1``; returns (status, steps done, their rows as raw
        8-byte slots, shape (n, width): a row per step and the rows of events)."""
        done = self.ffi.new("long long *")
        status = self.lib.master_steps(self.m, k_begin, k_end, done)
        return status, done[0], self.take_rows()

    def take_rows(self) -> np.ndarray:
        n = self.m.rows.n
        raw = np.frombuffer(self.ffi.buffer(self.m.rows.data, 8 * n * self.row_width),
                            dtype="<u8").reshape(n, self.row_width).copy() if n else \
            np.empty((0, self.row_width), dtype="<u8")
        self.m.rows.n = 0
        return raw

    def held_rows(self) -> tuple[np.ndarray, list[bytes]]:
        """Rows and texts the loop holds, taken under its lock (from another thread, while
        a step has not returned)."""
        self.lib.master_lock(self.m)
        try:
            return self.take_rows(), list(self.new_texts())
        finally:
            self.lib.master_unlock(self.m)

    def new_texts(self) -> list[bytes]:
        """The texts of the pool, those added since the last call included (ids = indices)."""
        pool = self.m.texts
        for k in range(len(self.texts), pool.count):
            self.texts.append(bytes(self.ffi.buffer(pool.bytes + pool.offsets[k],
                                                    pool.lengths[k])))
        return self.texts

    def free_saved_states(self, live) -> None:
        """Release FMU states kept for loop rollback (before the instances are freed)."""
        for k, component in enumerate(live):
            state = self.m.components[k].saved_state
            if state != self.ffi.NULL and component.driver is None:
                address = int(self.ffi.cast("uintptr_t", state))
                component.instance.free_state(ctypes.c_void_p(address))

    def release(self) -> None:
        """Free the rows and texts the C loop allocated."""
        if self.m is not None:
            self.lib.master_release(self.m)


def _integer(item) -> int:
    """An exact integer of a start text (``18446744073709551615`` stays exact) or number."""
    if isinstance(item, str):
        try:
            return int(item)
        except ValueError:
            return int(float(item))
    return int(item)


def _text_bytes(type_name: str, item) -> bytes:
    if isinstance(item, bytes):
        return item
    if type_name == "Binary":
        return bytes.fromhex(item or "")
    return str(item if item is not None else "").encode()
