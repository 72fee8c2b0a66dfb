"""The analytic Jacobian d der(x) / d x as C: model_jacobian.

Input: the derivative blocks of a ``System`` and its pattern ``jacobian_rows``. Output: the
lines of model_jacobian. Column j is the forward-mode tangent of the blocks w.r.t. state j,
built symbolically from the blocks' partials (chain rule) and visiting only the blocks that
state j reaches; a linear or Newton block in between is crossed by solving its linearization
(one LU per block and call, one solve per column). Values are written in the pattern's CSC
order through the ``J(row, column)`` macro.
"""
from __future__ import annotations

import heapq

from compiler.codegen.blocks import PART_LINES, STACK_MATRIX_LIMIT, Context, described, loop_text
from compiler.codegen.loops import LoopWriter, Run, Shape, group_runs, moved, shape
from compiler.linearization import block_unknowns, residual_rows, tangent_of
from compiler.symbolic import ONE, ZERO, is_const, neg, var
from compiler.system import Assignment, System

LOCAL = "#"   # prefix of names that stand for C locals (no Modelica name has it)
POSITION = "@"   # prefix of the positions of a column's values in the shapes of loops


def analytic_jacobian_possible(system: System) -> bool:
    """No derivative loop too large for the stack (those use finite differences)."""
    return all(type(block) is Assignment or len(block_unknowns(block)) <= STACK_MATRIX_LIMIT
               for block in system.blocks[:system.n_derivative_blocks])


class _Loop:
    """A linear or Newton block on the way from some state to a derivative."""

    def __init__(self, number: int, block):
        self.number = number
        self.block = block
        self.unknowns = block_unknowns(block)
        self.position = {name: k for k, name in enumerate(self.unknowns)}
        self.rows = residual_rows(block)


def jacobian_parts(context: Context, system: System, column_lines=None,
                   factor_lines=None) -> list[list[str]]:
    """The statements of model_jacobian in pieces of about PART_LINES lines (one piece when a
    loop is crossed: its factors serve every column). ``column_lines`` and ``factor_lines``
    write a column and a loop's factors in another language (default: C; see
    ``_column_lines`` and ``_factor_lines``)."""
    column_lines = column_lines or _column_lines
    factor_lines = factor_lines or _factor_lines
    blocks = system.blocks[:system.n_derivative_blocks]
    readers = _readers(blocks)
    columns, loops = [], {}
    for j, state in enumerate(system.states):
        steps, tangent = _column(j, state, blocks, readers, loops)
        values = [(row, tangent.get(system.derivatives[row], ZERO)) for row in system.jacobian_rows[j]]
        columns.append((steps, values))
    locals_ = {f"{LOCAL}{name}": name for name in _local_names(columns)}
    writer = _counted_writer(context, locals_, loops.values(), columns)
    parts = [[]]
    for loop in sorted(loops.values(), key=lambda item: item.number):
        parts[-1].extend(factor_lines(loop, writer))
    looped = context.slot_index is not None and column_lines is _column_lines
    positions = csc_positions(system) if looped else {}
    items = _column_runs(context.slot_index, positions, columns) if looped else range(len(columns))
    items = list(items)
    for number, item in enumerate(items, start=1):
        j = item.ends()[0] if type(item) is Run else item
        if not loops and len(parts[-1]) >= PART_LINES:
            parts.append([])
            # the columns this part can hold (a run's are its loop's): counting all the
            # columns left for every part took time quadratic in the states
            ahead = [columns[k] for k in items[number - 1:number - 1 + PART_LINES]
                     if type(k) is not Run]
            writer = _counted_writer(context, locals_, (), ahead)
        if type(item) is Run:
            parts[-1].extend(_loop_lines(context, system, item, (columns, positions), writer,
                                         number))
        else:
            parts[-1].extend(column_lines(system.states[j], j, *columns[j], writer))
    return parts


def csc_positions(system: System) -> dict[tuple[int, int], int]:
    """(row, column) -> position in the values of the pattern (columns, rows ascending)."""
    positions = {}
    for column, rows in enumerate(system.jacobian_rows):
        for row in sorted(rows):
            positions[(row, column)] = len(positions)
    return positions


def _column_runs(index, positions: dict, columns) -> list:
    """The columns (their numbers) with runs of alike columns as ``loops.Run``: a column's
    shape is its values' (slots and positions in the pattern moving together)."""
    shapes = []
    for j, (steps, values) in enumerate(columns):
        key, names, offsets = [len(values)], [], []
        for q, (row, expr) in enumerate(values):
            found = None if steps else shape(expr, index)
            if found is None:
                break
            key.append(found.key)
            names += [f"{POSITION}{q}", *found.names]
            offsets += [positions[(row, j)], *found.offsets]
        else:
            shapes.append(Shape(tuple(key), tuple(names), tuple(offsets)) if values else None)
            continue
        shapes.append(None)
    return group_runs(list(range(len(columns))), shapes)


def _loop_lines(context: Context, system: System, run: Run, pattern, writer, number: int):
    """The columns of a run as a for loop (values at positions moving with the counters);
    ``pattern``: (the columns, their values' positions)."""
    columns, positions = pattern

    def column_lines(j: int, inner, steps) -> list[str]:
        lines = []
        for q, (row, expr) in enumerate(columns[j][1]):
            text = inner.text(expr)
            lines.extend(inner.take_lines())
            lines.append(f"values[{moved(str(positions[(row, j)]), steps(f'{POSITION}{q}'))}] = "
                         f"{text};")
        return lines

    loops = LoopWriter(context, context.slot_index, number,
                       lambda j: [expr for _, expr in columns[j][1]], column_lines)
    first, last = run.ends()
    return loops.text(run, writer, f"d/d {system.states[first]} .. d/d {system.states[last]}")


def _counted_writer(context: Context, locals_: dict, loops, columns):
    """A writer that knows every expression to come (so repeated ones become locals)."""
    writer = context.writer(locals_=locals_)
    for loop in loops:
        for row in loop.rows:
            for name, expr in row:
                if name in loop.position:
                    writer.count(expr)
    for steps, values in columns:
        for _, _, rhs in steps:
            for expr in rhs:
                writer.count(expr)
        for _, expr in values:
            writer.count(expr)
    return writer


def _column_lines(state: str, j: int, steps, values, writer) -> list[str]:
    body = []
    for loop_number, local, rhs in steps:
        size = len(rhs)
        texts = [writer.text(expr) for expr in rhs]
        body.extend(writer.take_lines())
        body.append(f"double {local}[{size}] = {{{', '.join(texts)}}};")
        body.append(f"dense_lu_solve({size}, jacobian_loop{loop_number}, pivot{loop_number}, {local});")
    for row, expr in values:
        text = writer.text(expr)
        body.extend(writer.take_lines())
        body.append(f"J({row}, {j}) = {text};")
    return [f"/* d/d {state} */"] + body if body else []


def _readers(blocks) -> dict[str, list[int]]:
    """Variable -> indices of the blocks whose partials read it."""
    readers: dict[str, list[int]] = {}
    for index, block in enumerate(blocks):
        if type(block) is Assignment:
            names = {name for name, _ in block.partials}
        else:
            names = {name for row in residual_rows(block) for name, _ in row}
        for name in names:
            readers.setdefault(name, []).append(index)
    return readers


def _column(j: int, state: str, blocks, readers: dict, loops: dict):
    """(loop steps, tangents) of column j: each step (loop number, local name, rhs exprs)
    solves a loop's linearization; tangents map variables to d variable / d state j."""
    tangent = {state: ONE}
    queue = list(readers.get(state, ()))
    heapq.heapify(queue)
    seen, steps = set(), []

    def reached(name):
        for index in readers.get(name, ()):
            if index not in seen:
                heapq.heappush(queue, index)
    while queue:
        index = heapq.heappop(queue)
        if index in seen:
            continue
        seen.add(index)
        block = blocks[index]
        if type(block) is Assignment:
            value = tangent_of(block.partials, tangent)
            if value is not None and not is_const(value, 0):
                tangent[block.var] = value
                reached(block.var)
            continue
        loop = loops.get(index) or _Loop(index, block)
        rhs = [tangent_of([(n, e) for n, e in row if n not in loop.position], tangent)
               for row in loop.rows]
        if all(value is None for value in rhs):
            continue
        loops[index] = loop
        local = f"tangent{index}_{j}"
        steps.append((index, local, [ZERO if value is None else neg(value) for value in rhs]))
        for k, name in enumerate(loop.unknowns):
            tangent[name] = var(f"{LOCAL}{local}[{k}]")
            reached(name)
    return steps, tangent


def _local_names(columns) -> list[str]:
    return [f"{local}[{k}]" for steps, _ in columns for _, local, rhs in steps
            for k in range(len(rhs))]


def factor_entries(loop: _Loop, writer) -> tuple[int, int, list, list[str]]:
    """(n, the loop's number, (row-major index, text) of its matrix entries, the locals
    they need) of the linearization of a loop."""
    n = len(loop.unknowns)
    entries = [(i * n + loop.position[name], expr) for i, row in enumerate(loop.rows)
               for name, expr in row if name in loop.position]
    texts = [(index, writer.real(expr)) for index, expr in entries]
    return n, loop.number, texts, writer.take_lines()


def _factor_lines(loop: _Loop, writer) -> list[str]:
    n, k, texts, lines = factor_entries(loop, writer)
    lines.append(f"/* linearization of {loop_text(loop.block)} */")
    lines.append(f"double jacobian_loop{k}[{n * n}] = {{0.0}};")
    lines.append(f"size_t pivot{k}[{n}];")
    lines.extend(f"jacobian_loop{k}[{index}] = {text};" for index, text in texts)
    lines.append(f"CHECK(factor_linear(m, {n}, jacobian_loop{k}, pivot{k}, {described(loop.block)}));")
    return lines
