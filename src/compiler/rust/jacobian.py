"""The analytic Jacobian d der(x) / d x as Rust: model_jacobian.

Input: the derivative blocks of a ``System`` and its pattern ``jacobian_rows``. Output: the
lines of model_jacobian. The columns are the C emitter's (``compiler.codegen.jacobian``:
forward-mode tangents of the blocks w.r.t. each state, a loop crossed by solving its
linearization); values are written at their positions in the pattern's CSC order.
"""
from __future__ import annotations

from compiler.codegen.blocks import PART_LINES
from compiler.codegen.jacobian import LOCAL, _column, _Loop, _local_names, _readers
from compiler.rust.blocks import Context, described
from compiler.symbolic import ZERO
from compiler.system import System


def csc_positions(system: System) -> dict[tuple[int, int], int]:
    """(row, column) -> position in the values of the pattern (columns, rows ascending)."""
    positions = {}
    for column, rows in enumerate(system.jacobian_rows):
        for row in sorted(rows):
            positions[(row, column)] = len(positions)
    return positions


def jacobian_parts(context: Context, system: System) -> list[list[str]]:
    """The statements of model_jacobian in pieces of about PART_LINES lines (one piece when a
    loop is crossed: its factors serve every column)."""
    blocks = system.blocks[:system.n_derivative_blocks]
    readers = _readers(blocks)
    columns, loops = [], {}
    for j, state in enumerate(system.states):
        steps, tangent = _column(j, state, blocks, readers, loops)
        values = [(row, tangent.get(system.derivatives[row], ZERO))
                  for row in system.jacobian_rows[j]]
        columns.append((steps, values))
    locals_ = {f"{LOCAL}{name}": name for name in _local_names(columns)}
    positions = csc_positions(system)
    writer = _counted_writer(context, locals_, loops.values(), columns)
    parts = [[]]
    for loop in sorted(loops.values(), key=lambda item: item.number):
        parts[-1].extend(_factor_lines(loop, writer))
    for j, (steps, values) in enumerate(columns):
        if not loops and len(parts[-1]) >= PART_LINES:
            parts.append([])
            writer = _counted_writer(context, locals_, (), columns[j:])
        parts[-1].extend(_column_lines(system.states[j], j, steps, values, writer, positions))
    return parts


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


def _column_lines(state: str, j: int, steps, values, writer, positions) -> list[str]:
    body = []
    for loop_number, local, rhs in steps:
        texts = [writer.real(expr) for expr in rhs]
        body.extend(writer.take_lines())
        body.append(f"let mut {local}: [f64; {len(rhs)}] = [{', '.join(texts)}];")
        body.append(f"lu_solve({len(rhs)}, &jacobian_loop{loop_number}, &pivot{loop_number}, "
                    f"&mut {local});")
    for row, expr in values:
        text = writer.real(expr)
        body.extend(writer.take_lines())
        body.append(f"values[{positions[(row, j)]}] = {text};")
    return [f"// d/d {state}"] + body if body else []


def _factor_lines(loop: _Loop, writer) -> list[str]:
    n = len(loop.unknowns)
    entries = [(i * n + loop.position[name], expr) for i, row in enumerate(loop.rows)
               for name, expr in row if name in loop.position]
    texts = [(index, writer.real(expr)) for index, expr in entries]
    lines = writer.take_lines()
    k = loop.number
    lines += [f"// linearization of {loop.block and described(loop.block)[1:-1]}",
              f"let mut jacobian_loop{k} = [0.0f64; {n * n}];", f"let mut pivot{k} = [0usize; {n}];"]
    lines.extend(f"jacobian_loop{k}[{index}] = {text};" for index, text in texts)
    lines.append(f"check!(factor_linear(m, {n}, &mut jacobian_loop{k}, &mut pivot{k}, "
                 f"{described(loop.block)}));")
    return lines
