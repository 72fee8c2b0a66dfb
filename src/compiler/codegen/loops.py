"""Runs of alike scalar equations -> C ``for`` loops (issue 19).

Input: the sorted assignments of a generated function (or the columns of the Jacobian) and
where each variable's slot lies in ModelData's arrays (``SlotIndex``). Output: the same
sequence in which every run of consecutive items that differ only in the slots they touch,
each slot moving by a fixed stride from one item to the next (x[i] = f(x[i-1], x[i], x[i+1])
for i = 2..n-1), is one ``Run``, written as a loop over a counter k with index arithmetic on
the slot arrays. Boundary items stay scalar. A run may repeat a group of ``period`` items
(der(u[i,j]), der(v[i,j]), der(u[i,j+1]), ...), and runs of alike runs become nested loops
(the inner rows of a grid: boundary cell, run, boundary cell); a run of constants (start
values folded at compile time) becomes a static table read by a loop. The loop evaluates the
very expression trees of the scalar code in the same order (subexpressions that read nothing
moving are computed once before it), so results are bitwise those of the scalar code at the
same optimization level; gcc's time and the code's size then grow with the number of
distinct equations, not with the array sizes. Only the C backend loops; the Rust backend
stays scalar (its Context has no ``SlotIndex``).
"""
from __future__ import annotations

from dataclasses import dataclass

from compiler.codegen.cexpr import c_type
from compiler.fmu.layout import C_ACCESSORS, C_ARRAYS
from compiler.fmu.layout import layout as fmu_layout
from compiler.symbolic.expr import Array, Call, Const, Op, Var

MIN_COUNT = 4     # shorter runs stay scalar: a loop would not be shorter
MAX_PERIOD = 4    # the largest group of equations repeated by a run
MAX_OUTER_PERIOD = 6   # ... and of items repeated by a run of runs (boundary, run, boundary)
COUNTERS = ("k", "j")   # the loop counters in generated C, innermost first
COUNTER = COUNTERS[0]
# operators a loop does not hold: pre() reads another array, the others have side effects
# or state of their own
_NOT_LOOPED = frozenset({"pre", "delay", "spatial", "String", "loadResource"})


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
        return self.text_moved(name, [(COUNTER, stride)])

    def text_moved(self, name: str, steps) -> str:
        """The C place of ``name``'s slot moved by (counter, stride) ``steps``."""
        array, enum, _ = self.places[name]
        return f"m->{array}[{moved(enum, steps)}]"


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
    group, the template, whose items may be runs themselves: nested loops); ``strides``: name
    in the template -> slot stride per repetition; ``shapes``: the template's."""
    items: tuple
    period: int
    count: int
    strides: dict
    shapes: tuple = ()

    @property
    def template(self) -> tuple:
        return self.items[:self.period]

    @property
    def height(self) -> int:
        """1 for a loop, 2 for a loop of loops."""
        return 1 + max((item.height for item in self.template if type(item) is Run), default=0)

    def ends(self) -> tuple:
        """The first and the last scalar item of the run."""
        first, last = self.items[0], self.items[-1]
        return (first.ends()[0] if type(first) is Run else first,
                last.ends()[1] if type(last) is Run else last)

    def leaves(self) -> list:
        """The items of the template, those of inner runs' templates in their place."""
        return [leaf for item in self.template
                for leaf in (item.leaves() if type(item) is Run else [item])]

    def shape(self) -> Shape | None:
        """The Shape of the whole run, for finding runs of runs (a table has none)."""
        if not self.shapes or any(group.key[:1] == ("table",) for group in self.shapes):
            return None
        steps = tuple(self.strides[name] for group in self.shapes for name in group.names)
        return Shape(("run", self.period, self.count, steps,
                      tuple(group.key for group in self.shapes)),
                      tuple(name for group in self.shapes for name in group.names),
                      tuple(offset for group in self.shapes for offset in group.offsets))


def group_runs(items, shapes: list[Shape | None]) -> list:
    """``items`` with runs as loops and runs of those runs (a 2-D grid's rows) as loops of
    loops."""
    return find_runs(*find_runs(items, shapes), max_period=MAX_OUTER_PERIOD)[0]


def find_runs(items, shapes: list[Shape | None], max_period: int = MAX_PERIOD):
    """(``items`` with every run of at least MIN_COUNT alike groups replaced by a ``Run``,
    the shapes of the new items); ``shapes[i]``: the Shape of item i, None where it cannot
    be in a loop."""
    out, out_shapes, i, n = [], [], 0, len(items)
    while i < n:
        best = None
        if shapes[i] is not None:
            for period in range(1, max_period + 1):
                found = _run_at(shapes, i, period)
                if found and (best is None or found[0] * period > best[0] * best[1]):
                    best = (found[0], period, found[1])
        if best is None or best[0] < MIN_COUNT:
            out.append(items[i])
            out_shapes.append(shapes[i])
            i += 1
            continue
        count, period, strides = best
        run = Run(tuple(items[i:i + count * period]), period, count, strides,
                  tuple(shapes[i:i + period]))
        out.append(run)
        out_shapes.append(run.shape())
        i += count * period
    return out, out_shapes


def _run_at(shapes, start: int, period: int):
    """(count, strides) of the longest run of groups of ``period`` from ``start``."""
    n = len(shapes)
    if start + 2 * period > n:
        return None
    first = shapes[start:start + period]
    if any(item is None for item in first):
        return None
    tables = [item.key[:1] == ("table",) for item in first]
    if any(tables) and not all(tables):
        return None   # constants that differ from one repetition to the next: a table's only
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


def moved(base: str, steps) -> str:
    """``base`` moved by ``stride * counter`` for each (counter, stride) of ``steps``."""
    text = base
    for counter, stride in steps:
        if stride:
            step = counter if abs(stride) == 1 else f"{abs(stride)} * {counter}"
            text += f" {'+' if stride > 0 else '-'} {step}"
    return text


class LoopWriter:
    """Writes a run as nested for loops: ``roots(item)`` are the expressions of a leaf item,
    ``lines(item, writer, steps)`` its statements, given a writer whose slots move with the
    counters and ``steps(name)``: (counter, stride) of a name (positions of the Jacobian's
    values are names too). Subexpressions that read nothing moving are computed once, before
    the outer loop, by ``outer`` (the function's writer)."""

    def __init__(self, context, index: SlotIndex, number: int, roots, lines, initial: bool = False):
        self.context = context
        self.index = index
        self.number = number
        self.roots = roots
        self.lines = lines
        self.initial = initial
        self.hoisted: dict = {}
        self.bodies = 0

    def text(self, run: Run, outer, what: str) -> list[str]:
        lines = []
        moving = _moving(run)
        nodes = invariants(moving, [root for item in run.leaves() for root in self.roots(item)])
        for k, node in enumerate(nodes):
            name = f"l{self.number}_h{k}"
            value = outer.text(node)
            lines.extend(outer.take_lines())
            lines.append(outer.declare(name, node, value))
            self.hoisted[node] = name
        return lines + [f"/* {what}: {_count_text(run)} equations as a loop */",
                        *self._loop(run, [])]

    def _loop(self, run: Run, outer_steps: list) -> list[str]:
        counter = COUNTERS[run.height - 1]
        steps = outer_steps + [(counter, run.strides)]
        body, leaves = [], []
        for item in run.template + (None,):
            if type(item) is Run or item is None:
                body += self._leaves(leaves, steps)
                leaves = []
                if item is not None:
                    body += self._loop(item, steps)
            else:
                leaves.append(item)
        return [f"for (size_t {counter} = 0; {counter} < {run.count}; {counter}++) {{",
                *(INDENT + line for line in body), "}"]

    def _leaves(self, items, steps) -> list[str]:
        if not items:
            return []
        def step_of(name):
            return [(counter, strides.get(name, 0)) for counter, strides in steps]
        places = {}
        for _, strides in steps:
            for name in strides:
                if name in self.index.places and name not in places and any(
                        stride for _, stride in step_of(name)):
                    places[name] = self.index.text_moved(name, step_of(name))
        writer = self.context.writer(self.initial, places)
        self.bodies += 1
        writer.temp_prefix = f"l{self.number}_{self.bodies}_"
        writer.temps.update(self.hoisted)
        for item in items:
            for root in self.roots(item):
                writer.count(root)
        lines = []
        for item in items:
            lines += self.lines(item, writer, step_of)
        return lines


INDENT = "    "


def _moving(run: Run) -> set:
    names = {name for name, stride in run.strides.items() if stride}
    for item in run.template:
        if type(item) is Run:
            names |= _moving(item)
    return names


def _count_text(run: Run) -> str:
    inner = [item for item in run.template if type(item) is Run]
    if not inner:
        return f"{run.count} x {run.period}"
    return f"{run.count} x ({len(run.template) - len(inner)} + {' + '.join(_count_text(item) for item in inner)})"


def invariants(moving: set, roots) -> list:
    """The largest subexpressions of ``roots`` (a run's) that read no slot of ``moving``,
    computed once before the loop. Not those inside an if-expression's branch or the right
    operand of and/or, which the scalar code evaluates only sometimes."""
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


def table_lines(run: Run, writer, index: SlotIndex, number: int, what: str) -> list[str]:
    """A run of ``target = constant`` as a static table of the constants and a loop."""
    table = f"l{number}_values"
    first = run.items[0].value
    values = ", ".join(writer.constant(item.value) for item in run.items)
    places = [index.text(item.var, run.strides[item.var]) for item in run.template]
    step = COUNTER if run.period == 1 else f"{run.period} * {COUNTER}"
    offset = [step + (f" + {q}" if q else "") for q in range(run.period)]
    return [f"static const {c_type(first.type)} {table}[{len(run.items)}] = {{{values}}};",
            f"/* {what}: {run.count} x {run.period} equations as a loop */",
            f"for (size_t {COUNTER} = 0; {COUNTER} < {run.count}; {COUNTER}++) {{",
            *(f"{INDENT}{place} = {table}[{at}];" for place, at in zip(places, offset)), "}"]
