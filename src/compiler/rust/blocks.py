"""System blocks -> Rust statements: assignments, linear blocks by one LU, Newton blocks with
their symbolic Jacobian, algorithm sections, mixed blocks iterating on discrete values.

Input: blocks of a ``System`` and the ``Context`` of the model being emitted. Output: the
statements of one generated function (``Sequence.parts``), and the functions Newton and
mixed blocks need (appended to ``Context.helpers``). The same decomposition as the C
emitter's (``compiler.codegen.blocks``), in Rust's terms: a function returns ``Status`` and
leaves early through ``check!``.
"""
from __future__ import annotations

import functools
import re

from compiler.codegen import blocks
from compiler.codegen.blocks import STACK_MATRIX_LIMIT, loop_text
from compiler.codegen.interface import source_place
from compiler.codegen.naming import plain_identifier
from compiler.rust.expressions import RustWriter, rust_string
from compiler.rust.messages import message_text
from compiler.system import (
    MIXED_ITERATIONS, Assignment, LinearBlock, MixedBlock, NewtonBlock)

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

    # ------------------------------------------- the language's spelling of helper functions
    VALUE_TYPES = {"Float64": "f64", "Int32": "i32", "Int64": "i64", "Boolean": "bool"}

    CHECK = "check!({});"   # a call whose failure returns its status
    COMMENT = "// {}"
    LOCAL = "let {1}: {0} = {2};"   # a local constant: type, name, value

    @staticmethod
    def helper(comment: str, name: str, parts: list[list[str]]) -> str:
        return parted_function(comment, name, parts)

    @staticmethod
    def mixed_iteration(stem: str, block: MixedBlock, continuous: list[str], guesses: list[str],
                        done: str) -> str:
        message = (f'&format!("{{}} does not converge at t = {{}}: its discrete values still '
                   f'change after {MIXED_ITERATIONS} passes", {described(block)}, '
                   'format_g(m.time, 17))')
        return function_text(
            f"{loop_text(block)}: iterate until its discrete values no longer change", stem, [
                *continuous,
                "let mut pass = 1;", "loop {", *guesses,
                f"{INDENT}check!({stem}_updates(m));",
                f"{INDENT}if {done} {{", f"{INDENT * 2}return Status::Ok;", f"{INDENT}}}",
                f"{INDENT}if pass == {MIXED_ITERATIONS} {{", f"{INDENT * 2}break;", f"{INDENT}}}",
                f"{INDENT}pass += 1;",
                *(INDENT + line for line in continuous), "}",
                f'm.log(Status::Error, "logStatusError", {message});'], result="Status::Error")

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



class _RustLog(blocks.LogSpelling):
    update = "update."

    def status(self, name: str) -> str:
        return f"Status::{name.capitalize()}"

    def log(self, status: str, category: str, pieces: list, writer) -> str:
        return f'm.log({self.status(status)}, "{category}", &{message_text(pieces, writer)});'

    def deferred(self, failed: list[str]) -> list[str]:
        # the Rust runtime runs a mixed block's algorithms without deferring their asserts
        return failed


RUST_LOG = _RustLog()
assertion_lines = functools.partial(blocks.assertion_lines, spelling=RUST_LOG)
termination_lines = functools.partial(blocks.termination_lines, spelling=RUST_LOG)


# the classes of this module's statements (defined after them)
Sequence.algorithm_code = AlgorithmCode
AlgorithmCode.assertion_lines = staticmethod(assertion_lines)
AlgorithmCode.termination_lines = staticmethod(termination_lines)
