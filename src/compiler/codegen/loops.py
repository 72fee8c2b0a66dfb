"""Runs of alike scalar equations -> C ``for`` loops (issue 19).

Input: the sorted assignments of a generated function (or the columns of the Jacobian) and
where each variable's slot lies in ModelData's arrays (``SlotIndex``). Output: the same
sequence in which every run of consecutive items that differ only in the slots they touch,
each slot moving by a fixed stride from one item to the next (x[i] = f(x[i-1], x[i], x[i+1])
for i = 2..n-1), is one ``Run``, written as a loop over a counter k with index arithmetic on
the slot arrays. Boundary items stay scalar. A run may repeat a group of ``period`` items
(der(u[i,j]), der(v[i,j]), der(u[i,j+1]), ...). The loop evaluates the very expression trees
of the scalar code in the same order, so results are bitwise the same; gcc's time and the
code's size then grow with the number of distinct equations, not with the array sizes.
"""
from __future__ import annotations

from dataclasses import dataclass

from compiler.codegen.cexpr import c_type
from compiler.fmu.layout import C_ACCESSORS, C_ARRAYS
from compiler.fmu.layout import layout as fmu_layout
from compiler.symbolic.expr import Array, Call, Const, Op, Var

MIN_COUNT = 4     # shorter runs stay scalar: a loop would not be shorter
MAX_PERIOD = 4    # the largest group of equations repeated by a run
COUNTER = "k"     # the loop counter in generated C
# operators whose C reads more than the operand's slot (or has side effects)
_NOT_LOOPED = frozenset({"pre", "delay", "String", "loadResource", "initial", "terminal"})


class SlotIndex:
    """Variable name -> (array of ModelData, enum name of its slot, index in the array)."""

    def __init__(self, slots: dict, interface):
        arrays = {C_ACCESSORS[type_]: C_ARRAYS[type_] for type_ in C_ARRAYS}
        position = {(C_ACCESSORS[slot.type], slot.c_name): slot.index
                    for slot in fmu_layout(interface).slots}
        self.places = {}
        for name, slot in slots.items():
            index = position.get((slot.accessor, slot.c_name))
            if index is not None and slot.accessor in arrays and slot.fmi_type != "String":
                self.places[name] = (arrays[slot.accessor], f"{slot.accessor}_{slot.c_name}",
                                     index)

    def text(self, name: str, stride: int) -> str:
        """The C place of ``name``'s slot moved by ``stride`` per step of the counter."""
        array, enum, _ = self.places[name]
        if stride == 0:
            return f"m->{array}[{enum}]"
        step = COUNTER if abs(stride) == 1 else f"{abs(stride)} * {COUNTER}"
        return f"m->{array}[{enum} {'+' if stride > 0 else '-'} {step}]"


@dataclass(frozen=True)
class Shape:
    """An expression with its slots taken out: ``key`` compares equal for expressions that
    differ only in their slots; ``names`` and ``offsets`` are those slots in tree order."""
    key: tuple
    names: tuple[str, ...]
    offsets: tuple[int, ...]


def constant_shape(target: str, value: Const, index: SlotIndex) -> Shape | None:
    """The ``Shape`` of ``target = constant``: alike for every constant of its type, so that
    a run of them becomes a table and a loop (start values folded at compile time)."""
    place = index.places.get(target)
    if place is None or value.type == "String":
        return None
    return Shape(("table", value.type, place[0]), (target,), (place[2],))


def shape(node, index: SlotIndex, extra=()) -> Shape | None:
    """The ``Shape`` of an expression (``extra``: names read before it, such as the target),
    None for one a loop cannot hold (function calls, pre(), names without a slot)."""
    key, names, offsets = [], [], []
    for name in extra:
        place = index.places.get(name)
        if place is None:
            return None
        key.append(("v", place[0]))
        names.append(name)
        offsets.append(place[2])
    stack = [node]
    while stack:
        item = stack.pop()
        kind = type(item)
        if kind is Var:
            place = index.places.get(item.name)
            if place is None:
                if item.name != "time":
                    return None
                key.append(("time",))
                continue
            key.append(("v", place[0]))
            names.append(item.name)
            offsets.append(place[2])
        elif kind is Const:
            key.append(("c", item.type, item.value))
        elif kind is Op:
            if item.op in _NOT_LOOPED:
                return None
            key.append(("o", item.op, item.type, len(item.args)))
            stack.extend(reversed(item.args))
        elif kind in (Call, Array):
            return None
        else:
            return None
    return Shape(tuple(key), tuple(names), tuple(offsets))


@dataclass(frozen=True)
class Run:
    """``count`` repetitions of a group of ``period`` items (``items[:period]`` is the first
    group, the template); ``strides``: name in the template -> slot stride per repetition."""
    items: tuple
    period: int
    count: int
    strides: dict

    @property
    def template(self) -> tuple:
        return self.items[:self.period]


def find_runs(items, shapes: list[Shape | None]) -> list:
    """``items`` with every run of at least MIN_COUNT alike groups replaced by a ``Run``
    (``shapes[i]``: the Shape of item i, None where it cannot be in a loop)."""
    out, i, n = [], 0, len(items)
    while i < n:
        best = None
        if shapes[i] is not None:
            for period in range(1, MAX_PERIOD + 1):
                found = _run_at(shapes, i, period)
                if found and (best is None or found[0] * period > best[0] * best[1]):
                    best = (found[0], period, found[1])
        if best is None or best[0] < MIN_COUNT:
            out.append(items[i])
            i += 1
            continue
        count, period, strides = best
        out.append(Run(tuple(items[i:i + count * period]), period, count, strides))
        i += count * period
    return out


def _run_at(shapes, start: int, period: int):
    """(count, strides) of the longest run of groups of ``period`` from ``start``."""
    n = len(shapes)
    if start + 2 * period > n:
        return None
    first = shapes[start:start + period]
    if any(item is None for item in first):
        return None
    second = shapes[start + period:start + 2 * period]
    if any(b is None or a.key != b.key for a, b in zip(first, second)):
        return None
    strides = [tuple(y - x for x, y in zip(a.offsets, b.offsets)) for a, b in zip(first, second)]
    by_name: dict[str, int] = {}
    for group, steps in zip(first, strides):
        for name, stride in zip(group.names, steps):
            if by_name.setdefault(name, stride) != stride:
                return None   # one name, two strides: the items are not one equation
    count = 2
    while start + (count + 1) * period <= n:
        group = shapes[start + count * period:start + (count + 1) * period]
        if not all(item is not None and item.key == base.key and all(
                offset == origin + count * stride
                for offset, origin, stride in zip(item.offsets, base.offsets, steps))
                for item, base, steps in zip(group, first, strides)):
            break
        count += 1
    return count, by_name


def loop_writer(context, run: Run, index: SlotIndex, initial: bool = False, number: int = 0):
    """A writer of the run's template whose slots move with the counter; its locals are
    named apart from the function's (``l<number>_``)."""
    places = {name: index.text(name, stride) for name, stride in run.strides.items()
              if stride != 0 and name in index.places}
    writer = context.writer(initial, places)
    writer.temp_prefix = f"l{number}_"
    return writer


def table_lines(run: Run, writer, index: SlotIndex, number: int, what: str) -> list[str]:
    """A run of ``target = constant`` as a static table of the constants and a loop."""
    table = f"l{number}_values"
    first = run.items[0].value
    values = ", ".join(writer.constant(item.value) for item in run.items)
    places = [index.text(item.var, run.strides[item.var]) for item in run.template]
    step = COUNTER if run.period == 1 else f"{run.period} * {COUNTER}"
    offset = [step + (f" + {q}" if q else "") for q in range(run.period)]
    return [f"static const {c_type(first.type)} {table}[{len(run.items)}] = "
            f"{{{values}}};", *loop_head(run, what),
            *(f"    {place} = {table}[{at}];" for place, at in zip(places, offset)), "}"]


def loop_head(run: Run, what: str) -> list[str]:
    return [f"/* {what}: {run.count} x {run.period} equations as a loop */",
            f"for (size_t {COUNTER} = 0; {COUNTER} < {run.count}; {COUNTER}++) {{"]


def invariants(run: Run, roots) -> list:
    """The largest subexpressions of ``roots`` (the template's) that read no slot moving with
    the counter, computed once before the loop. Not those inside an if-expression's branch
    or the right operand of and/or, which the scalar code evaluates only sometimes."""
    moving = {name for name, stride in run.strides.items() if stride != 0}
    found: dict = {}
    reads: dict = {}

    def still(node) -> bool:
        known = reads.get(node)
        if known is None:
            kind = type(node)
            if kind is Var:
                known = node.name not in moving
            elif kind is Op:
                known = all([still(arg) for arg in node.args])
            else:
                known = kind is Const
            reads[node] = known
        return known

    stack = list(roots)
    while stack:
        node = stack.pop()
        if type(node) is not Op:
            continue
        if still(node):
            found.setdefault(node, None)
        elif node.op == "if":
            stack.append(node.args[0])
        elif node.op in ("and", "or"):
            stack.append(node.args[0])
        else:
            stack.extend(node.args)
    return list(found)
