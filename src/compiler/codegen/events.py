"""The event machinery of a ``System`` as C: indicators, latch updates, when-clauses, asserts,
sample instants and the discrete-change test of an event iteration.

Input: a ``System`` and the emission ``Context``. Output: lines for model_event_indicators,
model_event_update and model_initialize (see fmu_templates/model.h for the contract and
``compiler.system.System`` for the event iteration these lines implement).
"""
from __future__ import annotations

from compiler.codegen import blocks
from compiler.codegen.blocks import INDENT, Context
from compiler.codegen.cexpr import c_constant
from compiler.codegen.interface import sample_fired, source_place
from compiler.symbolic import FALSE, relation
from compiler.system import Assertion, System


class EventSyntax:
    """How the lines below are spelled: C (this class); another backend's emitter passes a
    subclass (``compiler.rust.events``), so that both write the same event logic."""
    time = "m->time"
    assertion_lines = staticmethod(blocks.assertion_lines)
    termination_lines = staticmethod(blocks.termination_lines)

    def real(self, writer, node) -> str:
        return writer.text(node)

    def constant(self, value: float) -> str:
        return c_constant(value, "Real")

    def slot(self, slot, pre: bool = False) -> str:
        return slot.pre_text if pre else slot.text

    def comment(self, text: str) -> str:
        return f" /* {text} */"

    def update(self, field: str) -> str:
        return f"update->{field}"

    def constant_local(self, name: str, type_: str, value: str) -> str:
        return f"const {'bool' if type_ == 'Boolean' else 'double'} {name} = {value};"

    def if_open(self, condition: str) -> str:
        return f"if ({condition}) {{"

    def switch_latch(self, latch: str, value: str, text: str) -> list[str]:
        return [f"if ({latch} != ({value})) "
                f"{{ {latch} = !{latch}; switched = true; }}{self.comment(text)}"]

    def earliest(self, start: bool = False, candidate: str = "") -> str:
        """The declaration of next_event (``start``), or next_event := min(it, candidate)."""
        return "double next_event = INFINITY;" if start else \
            f"next_event = fmin(next_event, {candidate});"

    def is_finite(self, name: str) -> str:
        return f"isfinite({name})"


C_EVENTS = EventSyntax()


def band(item, syntax: EventSyntax = C_EVENTS) -> str:
    """The hysteresis band of a relation: EVENT_HYSTERESIS times its scale."""
    return "EVENT_HYSTERESIS" if item.scale == 1.0 else \
        f"EVENT_HYSTERESIS * {syntax.constant(item.scale)}"


def indicator_lines(context: Context, system: System, syntax: EventSyntax = C_EVENTS) -> list[str]:
    writer = context.writer()
    for item in system.relations:
        writer.count(item.distance)
    lines = []
    for k, item in enumerate(system.relations):
        distance = syntax.real(writer, item.distance)
        lines.extend(writer.take_lines())
        lines.append(f"z[{k}] = relation_indicator({syntax.slot(writer.slot(item.var))}, {distance}, "
                     f"{band(item, syntax)});{syntax.comment(item.text)}")
    return lines


def exact_comparison(item) -> str:
    """How an exact relation compares its distance with 0: as written (``x >= p`` holds at
    x = p, ``x > p`` does not)."""
    return ">=" if item.op in (">=", "<=") else ">"


def latch_update_lines(context: Context, system: System,
                       syntax: EventSyntax = C_EVENTS) -> list[str]:
    """Each relation switches with hysteresis (model.h), an exact one (a time event) as
    written; ``switched`` tells whether one did."""
    writer = context.writer()
    for item in system.relations:
        writer.count(item.distance)
    lines = []
    for item in system.relations:
        latch = syntax.slot(writer.slot(item.var))
        distance = syntax.real(writer, item.distance)
        lines.extend(writer.take_lines())
        value = f"{distance} {exact_comparison(item)} 0.0" if item.exact else \
            f"relation_update({latch}, {distance}, {band(item, syntax)})"
        lines.extend(syntax.switch_latch(latch, value, item.text))
    return lines


def initial_latch_lines(context: Context, system: System,
                        syntax: EventSyntax = C_EVENTS) -> list[str]:
    """After the initialization every latch takes the value of its relation as written."""
    writer = context.writer(initial=True)
    lines = []
    for item in system.relations:
        text = writer.text(relation(item.op, item.lhs, item.rhs))
        lines.extend(writer.take_lines())
        lines.append(f"{syntax.slot(writer.slot(item.var))} = {text};")
    return lines


def when_clause_lines(context: Context, system: System,
                      syntax: EventSyntax = C_EVENTS) -> list[str]:
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
        lines.append(syntax.constant_local(f"fires{clause.index}", "Boolean", text))
    for clause in clauses:
        where = source_place(clause.span)
        comment = f"when {', '.join(clause.conditions)}{' (' + where + ')' if where else ''}"
        lines.append(syntax.if_open(f"fires{clause.index}") + syntax.comment(comment))
        lines.extend(INDENT + line for line in _clause_body(context, clause, syntax))
        lines.append("}")
    return lines


def _clause_body(context: Context, clause, syntax: EventSyntax) -> list[str]:
    writer = context.writer()
    writer.depth = 1   # values change as the body runs: no shared locals
    lines = []
    for k, item in enumerate(clause.reinits):
        value = syntax.real(writer, item.value)
        lines += writer.take_lines()   # calls of user functions
        lines.append(syntax.constant_local(f"reinit{k}", "Real", value))
    for k, item in enumerate(clause.reinits):
        lines.append(f"{syntax.slot(writer.slot(item.state))} = reinit{k};"
                     f"{syntax.comment(f'reinit({item.state}, ...)')}")
    if clause.reinits:
        lines.append(f"{syntax.update('state_values_changed')} = true;")
    for action in clause.actions:
        writer.calls = {}   # after a reinit a call gives another result
        if type(action) is Assertion:
            lines.extend(syntax.assertion_lines(action, writer))
        else:
            lines.extend(syntax.termination_lines(action, writer, flag=False))
    return lines


def initial_action_lines(context: Context, system: System, flag: bool,
                         syntax: EventSyntax = C_EVENTS) -> list[str]:
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
                body.extend(syntax.assertion_lines(action, writer))
            elif flag:
                body.extend(syntax.termination_lines(action, writer, flag=True))
        if body:
            condition = writer.text(clause.initial_active)
            lines += writer.take_lines()
            lines.append(syntax.if_open(condition))
            lines.extend(INDENT + line for line in body)
            lines.append("}")
    return lines


def assert_lines(context: Context, system: System, syntax: EventSyntax = C_EVENTS) -> list[str]:
    writer = context.writer()
    writer.depth = 1
    lines = []
    for item in system.asserts:
        lines.extend(syntax.assertion_lines(item, writer))
    return lines


def discrete_change_lines(context: Context, system: System,
                          syntax: EventSyntax = C_EVENTS) -> list[str]:
    """``update->discrete_states_need_update``: some discrete variable (latches and hidden ones
    included) differs from its value before the iteration."""
    slots = [context.slots[item.name] for item in system.variables
             if item.kind == "discrete" and item.name in context.slots]
    if not slots:
        return []
    tests = [f"string_compare({slot.text}, {slot.pre_text}) != 0" if slot.pre_c_name else
             f"{syntax.slot(slot)} != {syntax.slot(slot, pre=True)}" for slot in slots]
    lines = [f"{syntax.update('discrete_states_need_update')} ="]
    for k, test in enumerate(tests):
        lines.append(f"{INDENT}{test}{';' if k == len(tests) - 1 else ' ||'}")
    return lines


def string_pre_lines(context: Context, system: System) -> list[str]:
    """pre() of the discrete Strings, copied as an event iteration starts (the runtime copies
    the numbers: interface.string_pre_name)."""
    slots = [context.slots[item.name] for item in system.variables
             if item.kind == "discrete" and item.name in context.slots]
    lines = [f"CHECK(string_assign(m, &{slot.pre_text}, {slot.text}));"
             for slot in slots if slot.pre_c_name]
    if lines:
        context.functions.support = True
    return lines


def sample_fired_lines(context: Context, system: System,
                       syntax: EventSyntax = C_EVENTS) -> list[str]:
    """After an event iteration that settled, each sample at its tick has fired: a later
    event at the same instant does not fire it again."""
    if not system.samples:
        return []
    writer = context.writer()
    lines = []
    for item in system.samples:
        start, interval = syntax.real(writer, item.start), syntax.real(writer, item.interval)
        lines.extend(INDENT + line for line in writer.take_lines())
        fired = syntax.slot(context.slots[sample_fired(item.index)])
        lines.append(f"{INDENT}{fired} = sample_fired({syntax.time}, {start}, {interval}, {fired});")
    return [syntax.if_open(f"!{syntax.update('discrete_states_need_update')}"), *lines, "}"]


def next_event_lines(context: Context, system: System,
                     syntax: EventSyntax = C_EVENTS) -> list[str]:
    """The next time event: the earliest coming sample instant or instant of a relation
    that moves with time alone."""
    instants = [item for item in system.relations if item.instant is not None]
    if not system.samples and not instants:
        return []
    writer = context.writer()
    lines = [syntax.earliest(start=True)]
    for item in system.samples:
        start, interval = syntax.real(writer, item.start), syntax.real(writer, item.interval)
        lines.extend(writer.take_lines())
        lines.append(syntax.earliest(candidate=f"sample_next({syntax.time}, {start}, {interval})"))
    for item in instants:
        instant = syntax.real(writer, item.instant)
        lines.extend(writer.take_lines())
        lines.append(f"next_event = instant_next({syntax.time}, {instant}, next_event);"
                     f"{syntax.comment(item.text)}")
    lines += [f"{syntax.update('next_event_time_defined')} = {syntax.is_finite('next_event')};",
              f"{syntax.update('next_event_time')} = next_event;"]
    return lines
