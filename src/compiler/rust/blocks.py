"""System blocks -> Rust statements: assignments, linear blocks by one LU, Newton blocks with
their symbolic Jacobian, algorithm sections, mixed blocks iterating on discrete values.

Input: blocks of a ``System`` and the ``Context`` of the model being emitted. Output: the
statements of one generated function (``Sequence.parts``), and the functions Newton and
mixed blocks need (appended to ``Context.helpers``). The same decomposition as the C
emitter's (``compiler.codegen.blocks``), in Rust's terms: a function returns ``Status`` and
leaves early through ``check!``.
"""
from __future__ import annotations

import re

from compiler.codegen import blocks
from compiler.codegen.blocks import STACK_MATRIX_LIMIT, loop_text
from compiler.codegen.errors import EmitError
from compiler.codegen.interface import TERMINATE_FLAG, source_place
from compiler.codegen.naming import plain_identifier
from compiler.rust.expressions import RustWriter, rust_string, slot_text
from compiler.rust.messages import message_text
from compiler.system import (
    MIXED_ITERATIONS, AlgorithmBlock, Assertion, Assignment, LinearBlock, MixedBlock,
    NewtonBlock, Termination)

INDENT = "    "
SIGNATURE = "(m: &mut ModelData) -> Status"


class Context(blocks.Context):
    """What every part of one model's Rust needs (the C emitter's ``Context``, writing Rust)."""
    writer_class = RustWriter


def described(block) -> str:
    """The Rust string literal of a loop for messages."""
    return rust_string(loop_text(block))


def function_text(comment: str, name: str, lines: list[str], signature: str = SIGNATURE,
                  result: str | None = "Status::Ok", public: bool = False) -> str:
    """A Rust function: comment, ``fn name signature`` (``pub`` when ``public``: one the
    runtime calls), body lines (indented), ``result``; a model argument the body never
    reads is named ``_m``."""
    body = [INDENT + line if line else "" for line in lines]
    if result is not None:
        body.append(INDENT + result)
    if not any(_reads_model(line) for line in body):
        signature = signature.replace("(m: ", "(_m: ", 1)
    head = [f"// {line}" for line in comment.splitlines()] if comment else []
    return "\n".join(head + [f"{'pub ' if public else ''}fn {name}{signature} {{", *body, "}"])


_STRING_LITERAL = re.compile(r'"(?:[^"\\]|\\.)*"')
_MODEL = re.compile(r"\bm\b")


def _reads_model(line: str) -> bool:
    """Whether a Rust line uses the model argument ``m`` (outside strings and comments)."""
    return bool(_MODEL.search(_STRING_LITERAL.sub('""', line).split("//", 1)[0]))


def parted_function(comment: str, name: str, parts: list[list[str]], before=(), after=(),
                    signature: str = SIGNATURE, arguments: str = "m", public: bool = False) -> str:
    """A function running ``before``, the parts, ``after``; with several parts each becomes a
    function of its own (kept out of line: LLVM, like gcc, takes time superlinear in the
    length of a function)."""
    parts = [part for part in parts if part]
    if len(parts) <= 1:
        return function_text(comment, name, [*before, *(parts[0] if parts else []), *after],
                             signature, public=public)
    pieces = [function_text(f"{name}, part {k} of {len(parts)}" if k == 1 else "",
                            f"{name}_part{k}", part, signature)
              for k, part in enumerate(parts, start=1)]
    pieces = [f"#[inline(never)]\n{piece}" for piece in pieces]
    calls = [f"check!({name}_part{k}({arguments}));" for k in range(1, len(parts) + 1)]
    return "\n\n".join(pieces + [function_text(comment, name, [*before, *calls, *after],
                                               signature, public=public)])


class Sequence(blocks.Sequence):
    """The statements of one generated function that evaluates blocks in order (the C
    emitter's ``Sequence``, its blocks spelled in Rust)."""

    def _algorithm(self, block: AlgorithmBlock) -> list[str]:
        return AlgorithmCode(self.context, self.initial).block(block)

    def _mixed(self, block: MixedBlock) -> str:
        name = mixed_helper(self.context, block, self.initial, self.skip)
        return f"check!({name}(m)); // {loop_text(block)}"

    def _assignment(self, block: Assignment) -> None:
        self.writer.count(block.value)
        where = source_place(block.span)
        text = self.writer.assignment(block.var, block.value,
                                      f" // {block.var}{', ' + where if where else ''}")
        self.flush()
        self.lines.append(text)

    def _linear(self, block: LinearBlock) -> None:
        n, k, values, rhs = self.linear_system(block)
        matrix = f"[0.0f64; {n * n}]" if n <= STACK_MATRIX_LIMIT else f"vec![0.0f64; {n * n}]"
        self.lines += [f"// {loop_text(block)}", f"let mut a{k} = {matrix};",
                       f"let mut b{k}: [f64; {n}] = [{', '.join(rhs)}];"]
        self.lines.extend(f"a{k}[{index}] = {text};" for index, text in values)
        # a singular system leaves the unknowns it does not fix at their guesses
        self.lines.append(f"let guess{k}: [f64; {n}] = "
                          f"[{', '.join(self.writer.target(name) for name in block.vars)}];")
        self.lines.append(f"check!(solve_linear_near(m, {n}, &mut a{k}, &mut b{k}, &guess{k}, "
                          f"{described(block)}));")
        self.lines.extend(f"{self.writer.target(name)} = b{k}[{j}];"
                          for j, name in enumerate(block.vars))

    def _newton(self, block: NewtonBlock) -> None:
        n = len(block.vars)
        self.count += 1
        k = self.count
        system = newton_helpers(self.context, block, self.initial)
        guesses = ", ".join(self.writer.target(name) for name in block.vars)
        self.lines += [f"// {loop_text(block)}", f"let mut x{k}: [f64; {n}] = [{guesses}];",
                       f"check!(solve_newton(m, &{system}, &mut x{k}));"]


def newton_helpers(context: Context, block: NewtonBlock, initial: bool) -> str:
    """Emit the residual and Jacobian functions of a Newton block and its NewtonSystem (once
    for equal blocks); returns the system's name."""
    known = context.newton.get((block, initial))
    if known is not None:
        return known
    stem = context.unique(f"newton_{plain_identifier(block.vars[0])}")
    context.helpers.append(function_text(
        f"residuals of {loop_text(block)}", f"{stem}_residual",
        blocks.residual_lines(Sequence(context, initial, split=False), block),
        "(m: &mut ModelData, x: &[f64], r: &mut [f64]) -> Status"))
    jacobian = "None"
    if block.has_jacobian:
        jacobian = f"Some({stem}_jacobian)"
        context.helpers.append(function_text(
            f"d residuals / d ({', '.join(block.vars)}) by the chain rule", f"{stem}_jacobian",
            blocks.newton_jacobian_lines(context, block, initial, _zero_jacobian),
            "(m: &mut ModelData, jacobian: &mut [f64]) -> Status"))
    system = stem.upper()
    context.helpers.append(
        f"const {system}: NewtonSystem = NewtonSystem {{ n: {len(block.vars)}, "
        f"residual: {stem}_residual, jacobian: {jacobian}, description: {described(block)} }};")
    context.newton[(block, initial)] = system
    return system


def _zero_jacobian(_n: int) -> list[str]:
    return ["for value in jacobian.iter_mut() {", f"{INDENT}*value = 0.0;", "}"]


# ModelData's arrays by FMI type, and their Rust types
_RUST_TYPES = {"Float64": "f64", "Int32": "i32", "Int64": "i64", "Boolean": "bool"}


def mixed_helper(context: Context, block: MixedBlock, initial: bool, skip=frozenset()) -> str:
    """Emit the functions of a mixed block (once for equal blocks): its continuous part, its
    updates, and the iteration over them (``MixedBlock``); returns the iteration's name."""
    known = context.newton.get((block, initial))
    if known is not None:
        return known
    stem = context.unique(f"mixed_{plain_identifier(block.discrete[0])}")
    continuous = [f"check!({stem}_continuous(m));"] if block.continuous else []
    for part, blocks, what in (("continuous", block.continuous, "the continuous unknowns"),
                               ("updates", block.updates, "new discrete values")):
        if blocks:
            body = Sequence(context, initial, skip).add_all(blocks)
            context.helpers.append(parted_function(f"{what} of {loop_text(block)}",
                                                   f"{stem}_{part}", body.parts))
    writer = context.writer(initial)
    guesses, same = [], []
    for k, name in enumerate(block.discrete):
        slot = writer.slot(name[4:-1] if name.startswith("pre(") else name)
        if slot.fmi_type not in _RUST_TYPES:
            raise EmitError(f"a loop through the {slot.fmi_type} variable '{name}' is not "
                            "supported by the Rust backend", getattr(block.updates[0], "span", None))
        guesses.append(f"{INDENT}let guess{k}: {_RUST_TYPES[slot.fmi_type]} = "
                       f"{writer.target(name)};")
        same.append(f"{writer.target(name)} == guess{k}")
    # between events (relations latched) the discrete values are constant: one pass
    done = " && ".join(same) if initial else f"!m.event_mode || ({' && '.join(same)})"
    message = (f'&format!("{{}} does not converge at t = {{}}: its discrete values still '
               f'change after {MIXED_ITERATIONS} passes", {described(block)}, format_g(m.time, 17))')
    context.helpers.append(function_text(
        f"{loop_text(block)}: iterate until its discrete values no longer change", stem, [
            *continuous,
            "let mut pass = 1;", "loop {", *guesses,
            f"{INDENT}check!({stem}_updates(m));",
            f"{INDENT}if {done} {{", f"{INDENT * 2}return Status::Ok;", f"{INDENT}}}",
            f"{INDENT}if pass == {MIXED_ITERATIONS} {{", f"{INDENT * 2}break;", f"{INDENT}}}",
            f"{INDENT}pass += 1;",
            *(INDENT + line for line in continuous), "}",
            f'm.log(Status::Error, "logStatusError", {message});'], result="Status::Error"))
    context.newton[(block, initial)] = stem
    return stem


class AlgorithmCode(blocks.AlgorithmCode):
    """Rust statements of an algorithm block (the C emitter's ``AlgorithmCode``, in Rust)."""
    FOREVER = "loop {"

    def comment(self, text: str) -> str:
        return f"// {text}"

    def assign(self, target: str, node) -> list[str]:
        self.writer.calls = {}
        text = self.writer.assignment(target, node)
        return self.writer.take_lines() + [text]

    def while_open(self, condition: str) -> str:
        return f"while {condition} {{"

    def break_unless(self, condition: str) -> list[str]:
        return [f"if !({condition}) {{", f"{INDENT}break;", "}"]

    def assertion_lines(self, item, writer) -> list[str]:
        return assertion_lines(item, writer)

    def termination_lines(self, item, writer, flag: bool) -> list[str]:
        return termination_lines(item, writer, flag)


def assertion_lines(item: Assertion, writer: RustWriter) -> list[str]:
    """``if !(condition) { log; return Status::Error; }`` (a warning only logs)."""
    condition = writer.text(item.condition)
    where = source_place(item.span)
    error = item.level == "error"
    status, category = ("Status::Error", "logStatusError") if error else \
        ("Status::Warning", "logStatusWarning")
    head = f"{where + ': ' if where else ''}assertion {'failed' if error else 'warning'} at t = "
    message = message_text([head, ("time",), ": ", item.message], writer)
    lines = writer.take_lines() + [f"if !({condition}) {{",
                                   f'{INDENT}m.log({status}, "{category}", &{message});']
    if error:
        lines.append(f"{INDENT}return Status::Error;")
    return lines + ["}"]


def termination_lines(item: Termination, writer: RustWriter, flag: bool) -> list[str]:
    """terminate(message): logged under logEvents; sets the terminate flag (``flag``) or
    ``update.terminate_simulation``."""
    where = source_place(item.span)
    message = message_text([f"{where + ': ' if where else ''}terminate() at t = ", ("time",),
                            ": ", item.message], writer)
    target = f"{slot_text(writer.slot(TERMINATE_FLAG))} = true;" if flag else \
        "update.terminate_simulation = true;"
    lines = [f'm.log(Status::Ok, "logEvents", &{message});', target]
    if item.condition is not None:
        lines = [f"if {writer.text(item.condition)} {{", *[INDENT + line for line in lines], "}"]
    return writer.take_lines() + lines
