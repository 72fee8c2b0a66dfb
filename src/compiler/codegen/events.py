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
from compiler.symbolic import FALSE, TIME, relation
from compiler.symbolic.expr import REAL
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


def time_events(system: System) -> dict:
    """The relations that switch at a time known in advance: ``time >= T`` and ``time < T``
    (or mirrored) with ``T`` free of continuous variables, by index -> ``T``. The runtime
    steps to ``T`` exactly (a time event), where the relation switches as written; the
    others switch with hysteresis just after their root."""
    kinds = {item.name: item.kind for item in system.variables}
    continuous = ("state", "derivative", "algebraic", "input")
    result = {}
    for item in system.relations:
        if item.op in (">=", "<") and item.lhs is TIME:
            moment = item.rhs
        elif item.op in ("<=", ">") and item.rhs is TIME:
            moment = item.lhs
        else:
            continue
        if moment.type == REAL and not any(kinds.get(name, "state") in continuous
                                           for name in moment.variables()):
            result[item.index] = moment
    return result


def latch_update_lines(context: Context, system: System) -> list[str]:
    """Each relation switches with hysteresis (model.h), one of a time event as written;
    ``switched`` tells whether one did."""
    writer = context.writer()
    timed = time_events(system)
    for item in system.relations:
        writer.count(item.distance)
    lines = []
    for item in system.relations:
        latch = writer.slot(item.var).text
        if item.index in timed:
            value = f"({writer.text(relation(item.op, item.lhs, item.rhs))})"
        else:
            value = f"relation_update({latch}, {writer.text(item.distance)}, {band(item)})"
        lines.extend(writer.take_lines())
        lines.append(f"if ({latch} != {value}) "
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
    """The next time event: the earliest coming sample instant or moment of a time
    relation (``time_events``) after the current time."""
    timed = time_events(system)
    if not system.samples and not timed:
        return []
    writer = context.writer()
    lines = []
    for item in system.samples:
        start, interval = writer.text(item.start), writer.text(item.interval)
        lines.extend(writer.take_lines())
        lines.append(f"next = fmin(next, sample_next(m->time, {start}, {interval}));")
    for index, moment in timed.items():
        text = writer.text(moment)
        lines.extend(writer.take_lines())
        lines.append(f"if ({text} > m->time) next = fmin(next, {text}); "
                     f"/* {system.relations[index].text} */")
    defined = "true" if system.samples else "next < INFINITY"
    return ["double next = INFINITY;", *lines,
            f"update->next_event_time_defined = {defined};",
            "update->next_event_time = next;"]
