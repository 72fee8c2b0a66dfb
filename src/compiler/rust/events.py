"""The event machinery of a ``System`` as Rust: indicators, latch updates, when-clauses,
asserts, sample instants and the discrete-change test of an event iteration.

Input: a ``System`` and the emission ``Context``. Output: lines for model_event_indicators,
model_event_update and model_initialize, with the rules of the C emitter
(``compiler.codegen.events``; the hysteresis of fmu_templates/model.h).
"""
from __future__ import annotations

from compiler.codegen.events import exact_comparison
from compiler.codegen.interface import sample_fired, source_place
from compiler.rust.blocks import INDENT, Context, assertion_lines, termination_lines
from compiler.rust.expressions import rust_double, slot_text
from compiler.symbolic import FALSE, relation
from compiler.system import Assertion, System


def band(item) -> str:
    """The hysteresis band of a relation: EVENT_HYSTERESIS times its scale."""
    return "EVENT_HYSTERESIS" if item.scale == 1.0 else \
        f"EVENT_HYSTERESIS * {rust_double(item.scale)}"


def _distances(context: Context, system: System):
    """A writer that knows every relation's distance, and (relation, latch) pairs."""
    writer = context.writer()
    for item in system.relations:
        writer.count(item.distance)
    return writer, [(item, slot_text(writer.slot(item.var))) for item in system.relations]


def indicator_lines(context: Context, system: System) -> list[str]:
    writer, relations = _distances(context, system)
    lines = []
    for k, (item, latch) in enumerate(relations):
        distance = writer.real(item.distance)
        lines.extend(writer.take_lines())
        lines.append(f"z[{k}] = relation_indicator({latch}, {distance}, {band(item)}); "
                     f"// {item.text}")
    return lines


def latch_update_lines(context: Context, system: System) -> list[str]:
    """Each relation switches with hysteresis (model.h), an exact one (a time event) as
    written; ``switched`` tells whether one did."""
    writer, relations = _distances(context, system)
    lines = []
    for item, latch in relations:
        distance = writer.real(item.distance)
        lines.extend(writer.take_lines())
        value = f"{distance} {exact_comparison(item)} 0.0" if item.exact else \
            f"relation_update({latch}, {distance}, {band(item)})"
        lines += [f"if {latch} != ({value}) {{ // {item.text}",
                  f"{INDENT}{latch} = !{latch};", f"{INDENT}switched = true;", "}"]
    return lines


def initial_latch_lines(context: Context, system: System) -> list[str]:
    """After the initialization every latch takes the value of its relation as written."""
    writer = context.writer(initial=True)
    lines = []
    for item in system.relations:
        text = writer.text(relation(item.op, item.lhs, item.rhs))
        lines.extend(writer.take_lines())
        lines.append(f"{slot_text(writer.slot(item.var))} = {text};")
    return lines


def when_clause_lines(context: Context, system: System) -> list[str]:
    """The reinits and actions of the clauses that fire in this iteration (their activity is
    taken before any reinit, as the interpreter does)."""
    clauses = [clause for clause in system.when_clauses if clause.reinits or clause.actions]
    if not clauses:
        return []
    writer = context.writer()
    lines = []
    for clause in clauses:
        text = writer.text(clause.active)
        lines.extend(writer.take_lines())
        lines.append(f"let fires{clause.index}: bool = {text};")
    for clause in clauses:
        where = source_place(clause.span)
        lines.append(f"if fires{clause.index} {{ // when {', '.join(clause.conditions)}"
                     f"{' (' + where + ')' if where else ''}")
        lines.extend(INDENT + line for line in _clause_body(context, clause))
        lines.append("}")
    return lines


def _clause_body(context: Context, clause) -> list[str]:
    writer = context.writer()
    writer.depth = 1   # values change as the body runs: no shared locals
    lines = []
    for k, item in enumerate(clause.reinits):
        value = writer.real(item.value)
        lines += writer.take_lines()   # calls of user functions
        lines.append(f"let reinit{k}: f64 = {value};")
    for k, item in enumerate(clause.reinits):
        lines.append(f"{slot_text(writer.slot(item.state))} = reinit{k}; // reinit({item.state}, ...)")
    if clause.reinits:
        lines.append("update.state_values_changed = true;")
    for action in clause.actions:
        writer.calls = {}   # after a reinit a call gives another result
        if type(action) is Assertion:
            lines.extend(assertion_lines(action, writer))
        else:
            lines.extend(termination_lines(action, writer, flag=False))
    return lines


def initial_action_lines(context: Context, system: System, flag: bool) -> list[str]:
    """Asserts and terminate() of the clauses active at initialization."""
    writer = context.writer(initial=True)
    writer.depth = 1
    lines = []
    for clause in system.when_clauses:
        if not clause.actions or clause.initial_active is FALSE:
            continue
        body = []
        for action in clause.actions:
            if type(action) is Assertion:
                body.extend(assertion_lines(action, writer))
            elif flag:
                body.extend(termination_lines(action, writer, flag=True))
        if body:
            condition = writer.text(clause.initial_active)
            lines += writer.take_lines()
            lines += [f"if {condition} {{", *(INDENT + line for line in body), "}"]
    return lines


def assert_lines(context: Context, system: System) -> list[str]:
    writer = context.writer()
    writer.depth = 1
    return [line for item in system.asserts for line in assertion_lines(item, writer)]


def discrete_change_lines(context: Context, system: System) -> list[str]:
    """``update.discrete_states_need_update``: some discrete variable (latches and hidden ones
    included) differs from its value before the iteration."""
    slots = [context.slots[item.name] for item in system.variables
             if item.kind == "discrete" and item.name in context.slots]
    if not slots:
        return []
    tests = [f"{slot_text(slot)} != {slot_text(slot, pre=True)}" for slot in slots]
    return ["update.discrete_states_need_update ="] + \
        [f"{INDENT}{test}{';' if k == len(tests) - 1 else ' ||'}" for k, test in enumerate(tests)]


def sample_fired_lines(context: Context, system: System) -> list[str]:
    """After an event iteration that settled, each sample at its tick has fired: a later
    event at the same instant does not fire it again."""
    if not system.samples:
        return []
    writer = context.writer()
    lines = []
    for item in system.samples:
        start, interval = writer.real(item.start), writer.real(item.interval)
        lines.extend(INDENT + line for line in writer.take_lines())
        fired = slot_text(context.slots[sample_fired(item.index)])
        lines.append(f"{INDENT}{fired} = sample_fired(m.time, {start}, {interval}, {fired});")
    return ["if !update.discrete_states_need_update {", *lines, "}"]


def next_event_lines(context: Context, system: System) -> list[str]:
    """The next time event: the earliest coming sample instant or instant of a relation
    that moves with time alone."""
    instants = [item for item in system.relations if item.instant is not None]
    if not system.samples and not instants:
        return []
    writer = context.writer()
    lines = ["let mut next_event = f64::INFINITY;"]
    for item in system.samples:
        start, interval = writer.real(item.start), writer.real(item.interval)
        lines.extend(writer.take_lines())
        lines.append(f"next_event = next_event.min(sample_next(m.time, {start}, {interval}));")
    for item in instants:
        instant = writer.real(item.instant)
        lines.extend(writer.take_lines())
        lines.append(f"next_event = instant_next(m.time, {instant}, next_event); // {item.text}")
    return lines + ["update.next_event_time_defined = next_event.is_finite();",
                    "update.next_event_time = next_event;"]
