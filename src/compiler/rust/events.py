"""The event machinery of a ``System`` as Rust: indicators, latch updates, when-clauses,
asserts, sample instants and the discrete-change test of an event iteration.

Input: a ``System`` and the emission ``Context``. Output: lines for model_event_indicators,
model_event_update and model_initialize. The logic is the C emitter's
(``compiler.codegen.events``, the hysteresis of fmu_templates/model.h); this module spells
it in Rust.
"""
from __future__ import annotations

import functools

from compiler.codegen import events
from compiler.codegen.events import EventSyntax
from compiler.rust.blocks import INDENT, assertion_lines, termination_lines
from compiler.rust.expressions import rust_double, slot_text


class RustEventSyntax(EventSyntax):
    time = "m.time"
    assertion_lines = staticmethod(assertion_lines)
    termination_lines = staticmethod(termination_lines)

    def real(self, writer, node) -> str:
        return writer.real(node)

    def constant(self, value: float) -> str:
        return rust_double(value)

    def slot(self, slot, pre: bool = False) -> str:
        return slot_text(slot, pre=pre)

    def comment(self, text: str) -> str:
        return f" // {text}"

    def update(self, field: str) -> str:
        return f"update.{field}"

    def constant_local(self, name: str, type_: str, value: str) -> str:
        return f"let {name}: {'bool' if type_ == 'Boolean' else 'f64'} = {value};"

    def if_open(self, condition: str) -> str:
        return f"if {condition} {{"

    def switch_latch(self, latch: str, value: str, text: str) -> list[str]:
        return [f"if {latch} != ({value}) {{{self.comment(text)}",
                f"{INDENT}{latch} = !{latch};", f"{INDENT}switched = true;", "}"]

    def earliest(self, start: bool = False, candidate: str = "") -> str:
        return "let mut next_event = f64::INFINITY;" if start else \
            f"next_event = next_event.min({candidate});"

    def is_finite(self, name: str) -> str:
        return f"{name}.is_finite()"


RUST_EVENTS = RustEventSyntax()

indicator_lines = functools.partial(events.indicator_lines, syntax=RUST_EVENTS)
latch_update_lines = functools.partial(events.latch_update_lines, syntax=RUST_EVENTS)
initial_latch_lines = functools.partial(events.initial_latch_lines, syntax=RUST_EVENTS)
when_clause_lines = functools.partial(events.when_clause_lines, syntax=RUST_EVENTS)
initial_action_lines = functools.partial(events.initial_action_lines, syntax=RUST_EVENTS)
assert_lines = functools.partial(events.assert_lines, syntax=RUST_EVENTS)
discrete_change_lines = functools.partial(events.discrete_change_lines, syntax=RUST_EVENTS)
sample_fired_lines = functools.partial(events.sample_fired_lines, syntax=RUST_EVENTS)
next_event_lines = functools.partial(events.next_event_lines, syntax=RUST_EVENTS)
