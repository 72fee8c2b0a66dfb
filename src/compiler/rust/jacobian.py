"""The analytic Jacobian d der(x) / d x as Rust: model_jacobian.

Input: the derivative blocks of a ``System`` and its pattern ``jacobian_rows``. Output: the
lines of model_jacobian. The columns are the C emitter's (``compiler.codegen.jacobian``:
forward-mode tangents of the blocks w.r.t. each state, a loop crossed by solving its
linearization); values are written at their positions in the pattern's CSC order.
"""
from __future__ import annotations

import functools

from compiler.codegen.jacobian import _Loop, csc_positions, factor_entries
from compiler.codegen.jacobian import jacobian_parts as c_jacobian_parts
from compiler.rust.blocks import Context, described
from compiler.system import System


def jacobian_parts(context: Context, system: System) -> list[list[str]]:
    """The statements of model_jacobian (the C emitter's columns and pieces, in Rust)."""
    positions = csc_positions(system)
    return c_jacobian_parts(context, system, functools.partial(_column_lines, positions=positions),
                            _factor_lines)


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
    n, k, texts, lines = factor_entries(loop, writer)
    lines += [f"// linearization of {loop.block and described(loop.block)[1:-1]}",
              f"let mut jacobian_loop{k} = [0.0f64; {n * n}];", f"let mut pivot{k} = [0usize; {n}];"]
    lines.extend(f"jacobian_loop{k}[{index}] = {text};" for index, text in texts)
    lines.append(f"check!(factor_linear(m, {n}, &mut jacobian_loop{k}, &mut pivot{k}, "
                 f"{described(loop.block)}));")
    return lines
