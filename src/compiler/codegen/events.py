"""The event machinery of a ``System`` as C: indicators, latch updates, when-clauses, asserts,
sample instants and the discrete-change test of an event iteration.

Input: a ``System`` and the emission ``Context``. Output: lines for model_event_indicators,
model_event_update and model_initialize (see fmu_templates/model.h for the contract and
``compiler.system.System`` for the event iteration these lines implement).
"""
from __future__ import annotations

from compiler.codegen.blocks import INDENT, Context, assertion_lines, termination_lines
from compiler.codegen.cexpr import c_constant
from compiler.codegen.interface import sample_fired, source_place
from compiler.symbolic import FALSE, relation
from compiler.system import Assertion, System


def band(item) -> str:
    """The hysteresis band of a relation: EVENT_HYSTERESIS times its scale."""
    return "EVENT_HYSTERESIS" if item.scale == 1.0 else \
        f"EVENT_HYSTERESIS * {c_constant(item.scale, 'Real')}"


def indicator_lines(context: Context, system: System) -> list[str]:
    writer = context.writer()
    for item in system.relations:
        writer.count(item.distance)
    lines = []
    for k, item in enumerate(system.relations):
        distance = writer.text(item.distance)
        lines.extend(writer.take_lines())
        lines.append(f"z[{k}] = relation_indicator({writer.slot(item.var).text}, {distance}, "
                     f"{band(item)}); /* {item.text} */")
    return lines


def exact_comparison(item) -> str:
    """How an exact relation compares its distance with 0: as written (``x >= p`` holds at
    x = p, ``x > p`` does not)."""
    return ">=" if item.op in (">=", "<=") else ">"


def latch_update_lines(context: Context, system: System) -> list[str]:
    """Each relation switches with hysteresis (model.h), an exact one (a time event) as
    written; ``switched`` tells whether one did."""
    writer = context.writer()
    for item in system.relations:
        writer.count(item.distance)
    lines = []
    for item in system.relations:
        latch = writer.slot(item.var).text
        distance = writer.text(item.distance)
        lines.extend(writer.take_lines())
        value = f"{distance} {exact_comparison(item)} 0.0" if item.exact else \
            f"relation_update({latch}, {distance}, {band(item)})"
        lines.append(f"if ({latch} != ({value})) "
                     f"{{ {latch} = !{latch}; switched = true; }} /* {item.text} */")
    return lines


def initial_latch_lines(context: Context, system: System) -> list[str]:
    """After the initialization every latch takes the value of its relation as written."""
    writer = context.writer(initial=True)
    lines = []
    for item in system.relations:
        text = writer.text(relation(item.op, item.lhs, item.rhs))
        lines.extend(writer.take_lines())
        lines.append(f"{writer.slot(item.var).text} = {text};")
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
        lines.append(f"const bool fires{clause.index} = {text};")
    for clause in clauses:
        where = source_place(clause.span)
        lines.append(f"if (fires{clause.index}) {{ /* when {', '.join(clause.conditions)}"
                     f"{' (' + where + ')' if where else ''} */")
        lines.extend(INDENT + line for line in _clause_body(context, clause))
        lines.append("}")
    return lines


def _clause_body(context: Context, clause) -> list[str]:
    writer = context.writer()
    writer.depth = 1   # values change as the body runs: no shared locals
    lines = []
    for k, item in enumerate(clause.reinits):
        value = writer.text(item.value)
        lines += writer.take_lines()   # calls of user functions
        lines.append(f"const double reinit{k} = {value};")
    for k, item in enumerate(clause.reinits):
        lines.append(f"{writer.slot(item.state).text} = reinit{k}; /* reinit({item.state}, ...) */")
    if clause.reinits:
        lines.append("update->state_values_changed = true;")
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
            lines.append(f"if ({condition}) {{")
            lines.extend(INDENT + line for line in body)
            lines.append("}")
    return lines


def assert_lines(context: Context, system: System) -> list[str]:
    writer = context.writer()
    writer.depth = 1
    lines = []
    for item in system.asserts:
        lines.extend(assertion_lines(item, writer))
    return lines


def discrete_change_lines(context: Context, system: System) -> list[str]:
    """``update->discrete_states_need_update``: some discrete variable (latches and hidden ones
    included) differs from its value before the iteration."""
    slots = [context.slots[item.name] for item in system.variables
             if item.kind == "discrete" and item.name in context.slots]
    if not slots:
        return []
    tests = [f"{slot.text} != {slot.pre_text}" for slot in slots]
    lines = ["update->discrete_states_need_update ="]
    for k, test in enumerate(tests):
        lines.append(f"{INDENT}{test}{';' if k == len(tests) - 1 else ' ||'}")
    return lines


def sample_fired_lines(context: Context, system: System) -> list[str]:
    """After an event iteration that settled, each sample at its tick has fired: a later
    event at the same instant does not fire it again."""
    if not system.samples:
        return []
    writer = context.writer()
    lines = []
    for item in system.samples:
        start, interval = writer.text(item.start), writer.text(item.interval)
        lines.extend(INDENT + line for line in writer.take_lines())
        fired = context.slots[sample_fired(item.index)].text
        lines.append(f"{INDENT}{fired} = sample_fired(m->time, {start}, {interval}, {fired});")
    return ["if (!update->discrete_states_need_update) {", *lines, "}"]


def next_event_lines(context: Context, system: System) -> list[str]:
    """The next time event: the earliest coming sample instant or instant of a relation
    that moves with time alone."""
    instants = [item for item in system.relations if item.instant is not None]
    if not system.samples and not instants:
        return []
    writer = context.writer()
    lines = ["double next_event = INFINITY;"]
    for item in system.samples:
        start, interval = writer.text(item.start), writer.text(item.interval)
        lines.extend(writer.take_lines())
        lines.append(f"next_event = fmin(next_event, sample_next(m->time, {start}, {interval}));")
    for item in instants:
        instant = writer.text(item.instant)
        lines.extend(writer.take_lines())
        lines.append(f"next_event = instant_next(m->time, {instant}, next_event); "
                     f"/* {item.text} */")
    lines += ["update->next_event_time_defined = isfinite(next_event);",
              "update->next_event_time = next_event;"]
    return lines
