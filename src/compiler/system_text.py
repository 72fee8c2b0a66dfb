"""System -> readable text (``str(system)``, ``cosim check --blocks``).

Input: a ``compiler.system.System``. Output: text listing variables by role, aliases, the
blocks in evaluation order with their source locations, relations, samples, delays,
when-clauses and the initialization blocks.
"""
from __future__ import annotations

from compiler.errors import listed
from compiler.symbolic import to_text
from compiler.system import (
    AlgorithmBlock, Assignment, LinearBlock, MixedBlock, NewtonBlock, System, leaf_blocks)

SHOWN_PLACES = 2  # source places of a loop named in a message

INDENT = "  "


def system_text(system: System) -> str:
    lines = []
    for kind in ("state", "derivative", "algebraic", "discrete", "input", "parameter",
                 "constant"):
        names = [item.name for item in system.variables if item.kind == kind]
        if names:
            lines.append(f"{kind} variables: {', '.join(names)}")
    if system.aliases:
        lines.append("aliases:")
        lines.extend(INDENT + _alias(item) for item in system.aliases)
    lines.append(blocks_text(system))
    if system.relations:
        lines.append("relations (event indicators):")
        lines.extend(f"{INDENT}{item.var}: {item.text}{_at(item.span)}"
                     for item in system.relations)
    if system.samples:
        lines.append("samples:")
        lines.extend(f"{INDENT}{item.var}: sample({to_text(item.start)}, "
                     f"{to_text(item.interval)}){_at(item.span)}" for item in system.samples)
    if system.delays:
        lines.append("delays (delay(k, t) reads the history of expression k at time t):")
        lines.extend(f"{INDENT}{item.index}: {to_text(item.expr)}, delay time "
                     f"{to_text(item.delay_time)}, at most {to_text(item.delay_max)}"
                     f"{' (discrete)' if item.discrete else ''}{_at(item.span)}"
                     for item in system.delays)
    if system.spatials:
        lines.append("spatial distributions (spatial(k, end, ...) reads profile k at end 0 or 1):")
        lines.extend(f"{INDENT}{item.index}: {item.text}, initial profile "
                     f"{{{', '.join(map(to_text, item.points))}}} -> "
                     f"{{{', '.join(map(to_text, item.values))}}}{_at(item.span)}"
                     for item in system.spatials)
    if system.when_clauses:
        lines.append("when-clauses:")
        for clause in system.when_clauses:
            lines.extend(_clause(clause))
    lines.append("initialization blocks:")
    lines.extend(_blocks(system.initial_blocks, None, None))
    return "\n".join(lines) + "\n"


def blocks_text(system: System) -> str:
    """The simulation blocks in BLT order; ``D`` marks what the derivatives need, ``I`` what
    the event indicators need besides."""
    lines = [_summary(system),
             "blocks (BLT order; D: needed for the derivatives, I: for the indicators):"]
    lines.extend(_blocks(system.blocks, system.n_derivative_blocks, system.n_indicator_blocks))
    return "\n".join(lines)


def _summary(system: System) -> str:
    counts = {}
    for item in system.variables:
        counts[item.kind] = counts.get(item.kind, 0) + 1
    states = counts.get("state", 0)
    parts = [f"{states} state{'' if states == 1 else 's'}"]
    parts += [f"{counts.get(kind, 0)} {kind}" for kind in ("algebraic", "discrete")]
    parts.append(f"{len(system.blocks)} blocks")
    parts.append(f"{len(system.relations)} event indicators")
    return f"system {system.name}: " + ", ".join(parts)


def _alias(item) -> str:
    if item.value is not None:
        return f"{item.variable.name} = {to_text(item.value)}"
    return f"{item.variable.name} = {'-' if item.negated else ''}{item.of}"


def _blocks(blocks, n_derivative, n_indicator) -> list[str]:
    lines = []
    width = len(str(len(blocks)))
    for number, block in enumerate(blocks, start=1):
        mark = ""
        if n_derivative is not None:
            mark = "D " if number <= n_derivative else "I " if number <= n_indicator else "  "
        head = f"{INDENT}{number:>{width}} {mark}"
        lines.extend(_block(block, head, " " * len(head)))
    return lines


def _block(block, head: str, pad: str) -> list[str]:
    if type(block) is Assignment:
        return [f"{head}{block.var} := {to_text(block.value)}{_at(block.span)}"]
    if type(block) is LinearBlock:
        lines = [f"{head}linear system for {', '.join(block.vars)}:"]
        lines.extend(f"{pad}{INDENT}0 = {to_text(item.expr)}{_at(item.span)}"
                     for item in block.equations)
        return lines
    if type(block) is NewtonBlock:
        jacobian = "symbolic Jacobian" if block.has_jacobian else "difference Jacobian"
        lines = [f"{head}nonlinear system, Newton on {', '.join(block.vars)} ({jacobian}):"]
        lines.extend(f"{pad}{INDENT}{item.var} := {to_text(item.value)}{_at(item.span)}"
                     for item in block.inner)
        lines.extend(f"{pad}{INDENT}0 = {to_text(item.expr)}{_at(item.span)}"
                     for item in block.residuals)
        return lines
    if type(block) is MixedBlock:
        lines = [f"{head}mixed system, iterating on the discrete {', '.join(block.discrete)}:"]
        inner = pad + INDENT
        for item in block.continuous + block.updates:
            lines.extend(_block(item, inner, inner + INDENT))
        return lines
    return [f"{head}algorithm computing {', '.join(block.outputs)}{_at(block.span)}"]


def _clause(clause) -> list[str]:
    lines = [f"{INDENT}when {' or '.join(clause.conditions)} (fires: {to_text(clause.active)})"
             f"{_at(clause.span)}"]
    if clause.assigned:
        lines.append(f"{INDENT * 2}assigns {', '.join(clause.assigned)}")
    lines.extend(f"{INDENT * 2}reinit({item.state}, {to_text(item.value)})"
                 for item in clause.reinits)
    for action in clause.actions:
        if hasattr(action, "level"):
            lines.append(f"{INDENT * 2}assert({to_text(action.condition)}, "
                         f"{to_text(action.message)})")
        else:
            lines.append(f"{INDENT * 2}terminate({to_text(action.message)})")
    return lines


def _at(span) -> str:
    return f"    [{span}]" if span else ""


def block_place(block) -> str:
    """``the equation for x (file:line:col)``: what a block computes and where it comes
    from, for messages."""
    if type(block) is Assignment:
        where = f" ({block.span})" if block.span else ""
        return f"the equation for {block.var}{where}"
    if type(block) is AlgorithmBlock:
        where = f" ({block.span})" if block.span else ""
        return f"the algorithm computing {', '.join(block.outputs)}{where}"
    return describe_loop(block)


def describe_loop(block, place=str, most: int | None = None) -> str:
    """``the nonlinear system for x, y (file:line:col, ...)`` of a linear, Newton or mixed
    block, the first few unknowns and places listed; ``place`` writes a span, ``most``
    bounds the unknowns listed."""
    if type(block) is LinearBlock:
        kind, names = "linear system", block.vars
    elif type(block) is MixedBlock:
        kind, names = "mixed system", block.discrete
    else:
        kind, names = "nonlinear system", block.vars
    where = listed([place(item.span) for item in loop_parts(block)], SHOWN_PLACES)
    shown = listed(names) if most is None else listed(names, most)
    return f"the {kind} for {shown}" + (f" ({where})" if where else "")


def loop_parts(block) -> list:
    """The located parts of a loop: the equations of a linear block, the residuals of a
    Newton block; for a mixed block its equations and algorithm sections, each source
    place once."""
    if type(block) is LinearBlock:
        return [item for item in block.equations if item.span]
    if type(block) is NewtonBlock:
        return [item for item in block.residuals if item.span]
    found, seen = [], set()
    for item in leaf_blocks((block,)):
        for part in getattr(item, "equations", ()) + getattr(item, "inner", ()) + \
                getattr(item, "residuals", ()) + (item,):
            span = getattr(part, "span", None)
            if span is not None and span not in seen:
                seen.add(span)
                found.append(part)
    return found
