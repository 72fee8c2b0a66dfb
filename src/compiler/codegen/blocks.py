"""System blocks -> C statements: assignments, linear blocks by one LU, Newton blocks with
their symbolic Jacobian, algorithm sections, mixed blocks iterating on discrete values.

Input: blocks of a ``System`` and the ``Context`` of the model being emitted. Output: the
statements of one generated function (``Sequence.lines``), and the static helper functions
Newton and mixed blocks need (appended to ``Context.helpers``).
"""
from __future__ import annotations

import re

from compiler.codegen.cexpr import CWriter
from compiler.codegen.errors import EmitError
from compiler.codegen.interface import TERMINATE_FLAG, holds_statement, source_place
from compiler.codegen.loops import (
    LoopWriter, Run, Shape, constant_shape, group_runs, shape, table_lines)
from compiler.codegen.messages import message_format
from compiler.codegen.naming import plain_identifier
from compiler.fmu.c_tables import c_string
from compiler.linearization import propagate, tangent_of
from compiler.symbolic import ONE
from compiler.symbolic.expr import Const
from compiler.system import (
    MIXED_ITERATIONS, AlgorithmBlock, AssignStatement, Assertion, Assignment, BreakStatement,
    CallStatement, IfStatement, LinearBlock, MixedBlock, NewtonBlock, Termination, WhenStatement,
    WhileStatement)
from compiler.system_text import describe_loop

INDENT = "    "
# linear blocks up to this size keep their matrix on the stack; larger ones allocate it
STACK_MATRIX_LIMIT = 64
# statements per generated function at most (about): longer sequences are split
PART_LINES = 40


class Context:
    """What every part of one model's C needs: slots, sample flags, user functions, when-
    clauses, and the static helpers emitted so far (in source order). Another backend
    passes its expression writer as ``writer_class`` (``compiler.rust.blocks``)."""
    writer_class = CWriter

    def __init__(self, slots: dict, samples: dict, functions, clauses):
        self.slots = slots
        self.samples = samples
        self.functions = functions
        self.clauses = clauses
        self.helpers: list[str] = []
        self.names: set[str] = set()
        self.newton: dict = {}   # (block, initial) -> names of its helper functions (loops)
        self.slot_index = None   # loops.SlotIndex: alike equations become for loops (C only)

    def writer(self, initial: bool = False, locals_: dict | None = None) -> CWriter:
        return self.writer_class(self.slots, self.samples, self.functions, locals_, initial)

    def unique(self, base: str) -> str:
        name, number = base, 2
        while name in self.names:
            name = f"{base}_{number}"
            number += 1
        self.names.add(name)
        return name


def loop_text(block, most: int | None = None) -> str:
    """``the nonlinear system for y (Pendulum.mo:16:3)``: a loop in messages and comments
    (file names without folders; at most ``most`` unknowns listed)."""
    return describe_loop(block, source_place, most)


def described(block) -> str:
    """The C string literal of ``loop_text`` for messages (a few unknowns and places: C99
    compilers need accept string literals of 4095 characters only)."""
    return c_string(loop_text(block))


class Sequence:
    """The statements of one generated function that evaluates blocks in order.

    ``initial``: the initialization (``pre(v)`` targets, samples false, when-statements use
    ``initial_active``); ``skip``: variables whose start equation is not emitted (their
    start value is settable). Locals shared between blocks are declared at function scope.
    Another backend's subclass (``compiler.rust.blocks``) spells the blocks: assignments,
    linear and Newton blocks, algorithms and calls of the helpers of mixed blocks.
    """

    def __init__(self, context: Context, initial: bool = False, skip=frozenset(),
                 split: bool = True):
        self.context = context
        self.initial = initial
        self.skip = skip
        self.split = split   # False: one piece, for a body that must stay one function
        self.writer = context.writer(initial)
        self.lines: list[str] = []
        self.parts = [self.lines]   # consecutive pieces of about PART_LINES lines
        self.count = 0   # loops so far, for the names of their locals
        self.loops = 0   # for loops of alike assignments so far, for their locals' names

    def add_all(self, blocks) -> "Sequence":
        for block in self._grouped(blocks):
            if self.split and len(self.lines) >= PART_LINES:
                self.next_part()
            if type(block) is Run:
                self._loop(block)
            else:
                self.add(block)
        return self

    def _grouped(self, blocks):
        """The blocks with runs of alike assignments as ``loops.Run`` (where the context
        knows the slots' places)."""
        index = self.context.slot_index
        if index is None or not self.split:
            return blocks
        blocks = [block for block in blocks
                  if type(block) is not Assignment or block.var not in self.skip]
        return group_runs(blocks, [_shape(block, index) for block in blocks])

    def _loop(self, run: Run) -> None:
        """A run of assignments as a for loop (nested for a run of runs)."""
        self.flush()
        self.loops += 1
        first, last = run.ends()
        where = source_place(first.span)
        what = f"{first.var} .. {last.var}{', ' + where if where else ''}"
        index = self.context.slot_index
        if type(first.value) is Const:
            self.lines.extend(table_lines(run, self.writer, index, self.loops, what))
            return
        writer = LoopWriter(self.context, index, self.loops, lambda block: [block.value],
                            _assignment_lines, self.initial)
        self.lines.extend(writer.text(run, self.writer, what))

    def next_part(self) -> None:
        """Start a new piece (with locals of its own): gcc's optimizer takes time superlinear
        in the length of a function, so long sequences become several functions."""
        self.lines = []
        self.parts.append(self.lines)
        self.writer = self.context.writer(self.initial)

    def add(self, block) -> None:
        kind = type(block)
        if kind is Assignment:
            if block.var not in self.skip:
                self._assignment(block)
        elif kind is LinearBlock:
            self._linear(block)
        elif kind is NewtonBlock:
            self._newton(block)
        elif kind is AlgorithmBlock:
            self.lines.extend(self._algorithm(block))
        elif kind is MixedBlock:
            self.lines.append(self._mixed(block))
        else:
            raise EmitError(f"not a block: {block!r}")

    def flush(self) -> None:
        self.lines.extend(self.writer.take_lines())

    def target(self, name: str) -> str:
        return self.writer.target(name)

    @classmethod
    def check(cls, call: str) -> str:
        return cls.CHECK.format(call)

    def _algorithm(self, block: AlgorithmBlock) -> list[str]:
        return self.algorithm_code(self.context, self.initial).block(block)

    def _mixed(self, block: MixedBlock) -> str:
        name = mixed_helper(self.context, block, self.initial, self.skip, type(self))
        return f"{self.check(f'{name}(m)')} {self.COMMENT.format(loop_text(block))}"

    # ------------------------------------------- the language's spelling of helper functions
    VALUE_TYPES = {"Float64": "double", "Int32": "int32_t", "Int64": "int64_t", "Boolean": "bool"}

    CHECK = "CHECK({});"   # a call whose failure returns its status
    COMMENT = "/* {} */"
    LOCAL = "const {0} {1} = {2};"   # a local constant: type, name, value

    @staticmethod
    def helper(comment: str, name: str, parts: list[list[str]]) -> str:
        return parted_function(f"/* {comment} */", f"static Status {name}(ModelData *m)", parts)

    @staticmethod
    def mixed_iteration(stem: str, block: MixedBlock, continuous: list[str], guesses: list[str],
                        done: str) -> str:
        message = c_string("%s does not converge at t = %.17g: its discrete values still change "
                           f"after {MIXED_ITERATIONS} passes")
        asserting = any(holds_statement(item.statements, Assertion) for item in block.updates
                        if type(item) is AlgorithmBlock)
        return function_text(
            f"/* {loop_text(block)}: iterate until its discrete values no longer change */",
            f"static Status {stem}(ModelData *m)", [
                *(["const bool deferred = m->assert_deferred;"] if asserting else []),
                *continuous,
                "for (int pass = 1; ; pass++) {", *guesses,
                *(INDENT + line for line in _deferred_pass(stem, done) if asserting),
                *([f"{INDENT}CHECK({stem}_updates(m));", f"{INDENT}if ({done}) return StatusOK;"]
                  if not asserting else []),
                f"{INDENT}if (pass == {MIXED_ITERATIONS}) break;",
                *(INDENT + line for line in continuous), "}",
                f'model_log(m, StatusError, "logStatusError", {message}, {described(block)}, '
                "m->time);"], result="StatusError")

    def _assignment(self, block: Assignment) -> None:
        self.writer.count(block.value)
        value = self.writer.text(block.value)
        self.flush()
        comment = _comment(block.var, block.span)
        if block.var.startswith("pre("):
            slot = self.writer.slot(block.var[4:-1])
            self.lines.append(f"CHECK(string_assign(m, &{slot.pre_text}, {value}));{comment}"
                              if slot.pre_c_name else f"{slot.pre_text} = {value};{comment}")
        else:
            self.lines.append(self.writer.assignment(block.var, value, comment))

    def linear_system(self, block: LinearBlock) -> tuple[int, int, list, list[str]]:
        """(n, the block's number, (row-major index, text) of the matrix entries, texts of
        the right-hand side) of a linear block; the locals they need are flushed."""
        n = len(block.vars)
        self.count += 1
        position = {name: j for j, name in enumerate(block.vars)}
        entries = [(i, position[name], expr) for i, row in enumerate(block.equations)
                   for name, expr in row.partials if name in position]
        for _, _, expr in entries:
            self.writer.count(expr)
        for expr in block.rhs:
            self.writer.count(expr)
        values = [(i * n + j, self.writer.real(expr)) for i, j, expr in entries]
        rhs = [self.writer.real(expr) for expr in block.rhs]
        self.flush()
        return n, self.count, values, rhs

    def _linear(self, block: LinearBlock) -> None:
        n, k, values, rhs = self.linear_system(block)
        self.lines.append(f"/* {loop_text(block)} */")
        a, b, pivot = f"a{k}", f"b{k}", f"pivot{k}"
        if n <= STACK_MATRIX_LIMIT:
            self.lines.append(f"double {a}[{n * n}] = {{0.0}};")
        else:
            self.lines.append(f"double *{a} = calloc({n * n}, sizeof(double));")
            self.lines.append(f"if (!{a}) {{")
            self.lines.append(f'{INDENT}model_log(m, StatusFatal, "logStatusFatal", "out of memory for %s", '
                              f'{described(block)});')
            self.lines.append(f"{INDENT}return StatusFatal;")
            self.lines.append("}")
        self.lines.append(f"double {b}[{n}] = {{{', '.join(rhs)}}};")
        self.lines.append(f"size_t {pivot}[{n}];")
        self.lines.extend(f"{a}[{index}] = {text};" for index, text in values)
        guess = f"guess{k}"  # a singular system leaves the unknowns it does not fix there
        self.lines.append(f"const double {guess}[{n}] = "
                          f"{{{', '.join(self.target(name) for name in block.vars)}}};")
        call = f"solve_linear_near(m, {n}, {a}, {b}, {guess}, {pivot}, {described(block)})"
        if n <= STACK_MATRIX_LIMIT:
            self.lines.append(f"CHECK({call});")
        else:
            self.lines.append(f"const Status status{k} = {call};")
            self.lines.append(f"free({a});")
            self.lines.append(f"if (status{k} > StatusWarning) return status{k};")
        self.lines.extend(f"{self.target(name)} = {b}[{j}];" for j, name in enumerate(block.vars))

    def _newton(self, block: NewtonBlock) -> None:
        n = len(block.vars)
        self.count += 1
        k = self.count
        residual, jacobian = newton_helpers(self.context, block, self.initial)
        system = f"newton{k}"
        self.lines.append(f"/* {loop_text(block)} */")
        self.lines.append(f"static const NewtonSystem {system} = {{{n}, {residual}, {jacobian}, "
                          f"{described(block)}}};")
        guesses = ", ".join(self.target(name) for name in block.vars)
        self.lines.append(f"double x{k}[{n}] = {{{guesses}}}, work{k}[NEWTON_WORK_SIZE({n})];")
        self.lines.append(f"size_t pivot{k}[{n}];")
        self.lines.append(f"CHECK(solve_newton(m, &{system}, x{k}, work{k}, pivot{k}));")


def _assignment_lines(block: Assignment, writer, _steps) -> list[str]:
    text = writer.text(block.value)
    return writer.take_lines() + [f"{writer.locals[block.var]} = {text};"]


def _shape(block, index) -> Shape | None:
    """The loops.Shape of an assignment to a slot (None for other blocks)."""
    if type(block) is not Assignment or block.var.startswith("pre("):
        return None
    if type(block.value) is Const:
        return constant_shape(block.var, block.value, index)
    return shape(block.value, index, (block.var,))


def _comment(name: str, span) -> str:
    """`` /* mass[1].s, Chain.mo:12:5 */``: the Modelica name and the source of an equation."""
    where = source_place(span)
    return f" /* {name}{', ' + where if where else ''} */"


def newton_helpers(context: Context, block: NewtonBlock, initial: bool) -> tuple[str, str]:
    """Emit the residual and Jacobian functions of a Newton block (once for equal blocks);
    returns their names (``NULL`` for the Jacobian of a block without one: differences)."""
    known = context.newton.get((block, initial))
    if known is not None:
        return known
    stem = context.unique(f"newton_{plain_identifier(block.vars[0])}")
    residual = f"{stem}_residual"
    context.helpers.append(function_text(
        f"/* residuals of {loop_text(block)} */",
        f"static Status {residual}(ModelData *m, const double x[], double r[])",
        residual_lines(Sequence(context, initial, split=False), block)))
    jacobian = "NULL"
    if block.has_jacobian:
        jacobian = f"{stem}_jacobian"
        context.helpers.append(function_text(
            f"/* d residuals / d ({', '.join(block.vars)}) by the chain rule */",
            f"static Status {jacobian}(ModelData *m, double jacobian[])",
            newton_jacobian_lines(context, block, initial, _zero_jacobian)))
    context.newton[(block, initial)] = (residual, jacobian)
    return residual, jacobian


def mixed_helper(context: Context, block: MixedBlock, initial: bool, skip=frozenset(),
                 sequence: type[Sequence] | None = None) -> str:
    """Emit the functions of a mixed block (once for equal blocks): its continuous part, its
    updates, and the iteration over them (``MixedBlock``); returns the iteration's name.
    ``sequence``: the class of the language's ``Sequence`` (default C), which spells them."""
    known = context.newton.get((block, initial))
    if known is not None:
        return known
    sequence = sequence or Sequence
    stem = context.unique(f"mixed_{plain_identifier(block.discrete[0])}")
    continuous = [sequence.check(f"{stem}_continuous(m)")] if block.continuous else []
    for part, blocks, what in (("continuous", block.continuous, "the continuous unknowns"),
                               ("updates", block.updates, "new discrete values")):
        if blocks:
            body = sequence(context, initial, skip).add_all(blocks)
            context.helpers.append(sequence.helper(f"{what} of {loop_text(block)}",
                                                   f"{stem}_{part}", body.parts))
    writer = context.writer(initial)
    guesses, same = [], []
    for k, name in enumerate(block.discrete):
        slot = writer.slot(name[4:-1] if name.startswith("pre(") else name)
        if slot.fmi_type not in sequence.VALUE_TYPES:
            raise EmitError(f"a loop through the {slot.fmi_type} variable '{name}' is not "
                            f"supported {writer.WHERE}", getattr(block.updates[0], "span", None))
        guesses.append(INDENT + sequence.LOCAL.format(sequence.VALUE_TYPES[slot.fmi_type],
                                                      f"guess{k}", writer.target(name)))
        same.append(f"{writer.target(name)} == guess{k}")
    # between events (relations latched) the discrete values are constant: one pass
    done = " && ".join(same) if initial else \
        f"!{writer.MODEL}event_mode || ({' && '.join(same)})"
    context.helpers.append(sequence.mixed_iteration(stem, block, continuous, guesses, done))
    context.newton[(block, initial)] = stem
    return stem


def _deferred_pass(stem: str, done: str) -> list[str]:
    """One pass of a mixed block whose algorithms assert: their failures only noted (the
    discrete values they read may not have converged), the converged pass run again for
    those to count."""
    return ["m->assert_deferred = false;",
            "m->defer_asserts++;",
            f"const Status status = {stem}_updates(m);",
            "m->defer_asserts--;",
            "CHECK(status);",
            f"if ({done}) {{",
            f"{INDENT}if (m->assert_deferred) CHECK({stem}_updates(m));",
            f"{INDENT}m->assert_deferred = deferred || m->assert_deferred;",
            f"{INDENT}return StatusOK;",
            "}"]


def residual_lines(body: Sequence, block: NewtonBlock) -> list[str]:
    """The statements of a Newton block's residual function in a fresh ``body`` (one piece):
    the unknowns from x, the inner blocks, then r."""
    body.lines.extend(f"{body.target(name)} = x[{j}];" for j, name in enumerate(block.vars))
    for item in block.inner:
        body.add(item)
    for item in block.residuals:
        body.writer.count(item.expr)
    texts = [body.writer.real(item.expr) for item in block.residuals]
    body.flush()
    body.lines.extend(f"r[{i}] = {text};" for i, text in enumerate(texts))
    return body.lines


def _zero_jacobian(n: int) -> list[str]:
    return [f"for (size_t k = 0; k < {n * n}; k++) jacobian[k] = 0.0;"]


def newton_jacobian_lines(context: Context, block: NewtonBlock, initial: bool, zero) -> list[str]:
    """The statements of a Newton block's Jacobian function (row-major n x n); ``zero(n)``:
    the statements clearing it, used where the pattern is not full."""
    n = len(block.vars)
    writer = context.writer(initial)
    entries = []
    for k, name in enumerate(block.vars):
        tangent = propagate(block.inner, {name: ONE})
        for i, item in enumerate(block.residuals):
            value = tangent_of(item.partials, tangent)
            if value is not None:
                entries.append((i * n + k, value))
    for _, value in entries:
        writer.count(value)
    lines = zero(n) if len(entries) < n * n else []
    for index, value in entries:
        text = writer.real(value)
        lines.extend(writer.take_lines())
        lines.append(f"jacobian[{index}] = {text};")
    return lines


def parted_function(comment: str, signature: str, parts: list[list[str]], before=(), after=()) -> str:
    """A function running ``before``, the parts, ``after``; with several parts each becomes a
    static function of its own (kept out of line: see ``Sequence.next_part``)."""
    parts = [part for part in parts if part]
    if len(parts) <= 1:
        return function_text(comment, signature, [*before, *(parts[0] if parts else []), *after])
    name = signature[signature.index(" ", signature.index("Status")) + 1:signature.index("(")]
    parameters = signature[signature.index("("):]
    arguments = ", ".join(item.split()[-1].lstrip("*").replace("[]", "")
                          for item in parameters.strip("()").split(","))
    pieces = [function_text(f"/* {name}, part {k} of {len(parts)} */" if k == 1 else "",
                            f"static NOINLINE Status {name}_part{k}{parameters}", part)
              for k, part in enumerate(parts, start=1)]
    calls = [f"CHECK({name}_part{k}({arguments}));" for k in range(1, len(parts) + 1)]
    return "\n\n".join(pieces + [function_text(comment, signature, [*before, *calls, *after])])


def function_text(comment: str, signature: str, lines: list[str], result: str = "StatusOK") -> str:
    """A C function: comment, signature, body lines (indented), ``return result``."""
    body = [INDENT + line if line else "" for line in lines]
    if result is not None:
        body.append(f"{INDENT}return {result};")
    if "ModelData *m" in signature and not uses_model(body):
        body.insert(0, f"{INDENT}(void)m;")
    return "\n".join(([comment] if comment else []) + [signature + " {", *body, "}"])


_COMMENT = re.compile(r"/\*.*?\*/")
_MODEL_USE = re.compile(r"\b(?:R|INT|ENUM|BOOL|STR|OBJECT|PRE_R|PRE_INT|PRE_ENUM|PRE_BOOL)\(|\bm\b")


def uses_model(lines) -> bool:
    """Whether C lines read the model data ``m`` (directly or through a slot macro)."""
    return any(_MODEL_USE.search(_COMMENT.sub("", line)) for line in lines)


class AlgorithmCode:
    """C statements of an algorithm block: no shared locals, since variables change between
    statements. Another backend's subclass (``compiler.rust.blocks``) spells the statements;
    the structure is this class's."""

    def __init__(self, context: Context, initial: bool):
        self.context = context
        self.initial = initial
        self.writer = context.writer(initial)
        self.writer.depth = 1   # never declare locals

    def block(self, block: AlgorithmBlock) -> list[str]:
        where = source_place(block.span)
        lines = [self.comment(f"algorithm computing {', '.join(block.outputs)}"
                              f"{' (' + where + ')' if where else ''}")]
        for name, value in zip(block.outputs, block.initial_values):
            lines += self.assign(name, value)
        return lines + self.statements(block.statements)

    def statements(self, items) -> list[str]:
        lines = []
        for item in items:
            lines.extend(self.statement(item))
        return lines

    def _body(self, items) -> list[str]:
        return [INDENT + line for line in self.statements(items)]

    def value(self, node) -> tuple[list[str], str]:
        """(statements, text) of an expression: the calls of user functions it makes go
        to statements placed before it, made afresh for each statement."""
        self.writer.calls = {}
        text = self.writer.text(node)
        return self.writer.take_lines(), text

    def statement(self, item) -> list[str]:
        kind = type(item)
        if kind is AssignStatement:
            return self.assign(item.target, item.value)
        if kind is IfStatement:
            return self._if(item)
        if kind is WhileStatement:
            before, condition = self.value(item.condition)
            if not before:
                return [self.while_open(condition), *self._body(item.body), "}"]
            return [self.FOREVER, *(INDENT + line for line in before),
                    *(INDENT + line for line in self.break_unless(condition)),
                    *self._body(item.body), "}"]
        if kind is WhenStatement:
            clause = self.context.clauses[item.clause]
            active = clause.initial_active if self.initial else clause.active
            before, condition = self.value(active)
            return before + [self.writer.if_open(condition), *self._body(item.body), "}"]
        if kind is BreakStatement:
            return ["break;"]
        self.writer.calls = {}
        if kind is CallStatement:   # made for its effects: its results are dropped
            self.writer.functions.call_results(self.writer, item.call)
            return self.writer.take_lines()
        if kind is Assertion:
            return self.assertion_lines(item, self.writer, deferrable=True)
        if kind is Termination:
            return self.termination_lines(item, self.writer, flag=True)
        raise EmitError(f"the statement {kind.__name__} is not supported {self.writer.WHERE}",
                        getattr(item, "span", None))

    def _if(self, item: IfStatement) -> list[str]:
        """if / else if / else; a condition that calls functions opens a nested if in the
        else branch, after those calls."""
        lines, depth = [], 0
        for number, (condition, body) in enumerate(item.branches):
            before, text = self.value(condition)
            pad = INDENT * depth
            if number == 0:
                lines += before + [self.writer.if_open(text)]
            elif before:
                lines.append(f"{pad}}} else {{")
                depth += 1
                pad = INDENT * depth
                lines += [pad + line for line in before] + [pad + self.writer.if_open(text)]
            else:
                lines.append(f"{pad}}} else {self.writer.if_open(text)}")
            lines += [pad + line for line in self._body(body)]
        if item.else_:
            lines.append(f"{INDENT * depth}}} else {{")
            lines += [INDENT * depth + line for line in self._body(item.else_)]
        return lines + [INDENT * level + "}" for level in range(depth, -1, -1)]

    # ------------------------------------------------------------ the language's spelling
    FOREVER = "for (;;) {"

    def comment(self, text: str) -> str:
        return f"/* {text} */"

    def assign(self, target: str, node) -> list[str]:
        before, value = self.value(node)
        return before + [self.writer.assignment(target, value)]

    def while_open(self, condition: str) -> str:
        return f"while ({condition}) {{"

    def break_unless(self, condition: str) -> list[str]:
        return [f"if (!({condition})) break;"]



TIME = ("time",)   # in the pieces of a logged message: the current time


class LogSpelling:
    """How a message is logged: model_log (this class); the Rust backend passes a subclass
    (``compiler.rust.blocks``), so that asserts and terminate() are written once."""
    update = "update->"   # the fields of the event update

    def status(self, name: str) -> str:
        return f"Status{name}"

    def log(self, status: str, category: str, pieces: list, writer) -> str:
        """The statement logging the ``pieces``: texts, ``TIME``, a String expression."""
        head, arguments = "", []
        for piece in pieces:
            if piece == TIME:
                head += "%.17g"
                arguments.append("m->time")
            elif isinstance(piece, str):
                head += piece
            else:
                message, values = message_format(piece, writer)
                head += message
                arguments += values
        return (f"model_log(m, {self.status(status)}, \"{category}\", {c_string(head)}"
                f"{''.join(', ' + a for a in arguments)});")


    def deferred(self, failed: list[str]) -> list[str]:
        """The statements of a failed algorithm assert while a mixed block iterates: only
        noted, the converged pass runs it again (``Sequence.mixed_iteration``)."""
        return ["if (m->defer_asserts) {", INDENT + "m->assert_deferred = true;", "} else {",
                *(INDENT + line for line in failed), "}"]


C_LOG = LogSpelling()


def assertion_lines(item: Assertion, writer, spelling: LogSpelling = C_LOG,
                    deferrable: bool = False) -> list[str]:
    """``if (!condition) { log; return StatusError; }`` (a warning only logs); the message is
    computed only when the condition fails (it may call a function: MLS 8.3.7); ``deferrable``
    (an algorithm's): while a mixed block iterates, only noted (``mixed_helper``)."""
    condition = writer.text(item.condition)
    condition_lines = writer.take_lines()
    where = source_place(item.span)
    error = item.level == "error"
    status, category = ("Error", "logStatusError") if error else ("Warning", "logStatusWarning")
    head = f"{where + ': ' if where else ''}assertion {'failed' if error else 'warning'} at t = "
    # the message's locals are declared inside the if: later statements must not reuse them
    temps, calls = dict(writer.temps), dict(writer.calls)
    log = spelling.log(status, category, [head, TIME, ": ", item.message], writer)
    message_lines = writer.take_lines()
    writer.temps, writer.calls = temps, calls
    failed = [log, f"return {spelling.status('Error')};"] if error else [log]
    if deferrable:
        failed = spelling.deferred(failed)
    return condition_lines + [writer.if_open(f"!({condition})")] + \
        [INDENT + line for line in message_lines + failed] + ["}"]


def termination_lines(item: Termination, writer, flag: bool,
                      spelling: LogSpelling = C_LOG) -> list[str]:
    """terminate(message): logged under logEvents; sets the terminate flag (``flag``) or
    the event update's terminate_simulation."""
    where = source_place(item.span)
    log = spelling.log("OK", "logEvents", [f"{where + ': ' if where else ''}terminate() at t = ",
                                           TIME, ": ", item.message], writer)
    target = f"{writer.target(TERMINATE_FLAG)} = true;" if flag else \
        f"{spelling.update}terminate_simulation = true;"
    lines = [log, target]
    if item.condition is not None:
        lines = [writer.if_open(writer.text(item.condition)), *[INDENT + line for line in lines],
                 "}"]
    return writer.take_lines() + lines


# the classes of this module's statements (defined after them)
Sequence.algorithm_code = AlgorithmCode
AlgorithmCode.assertion_lines = staticmethod(assertion_lines)
AlgorithmCode.termination_lines = staticmethod(termination_lines)
