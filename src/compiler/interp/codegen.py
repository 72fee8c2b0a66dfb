"""System blocks -> generated Python functions over the value list ``v``.

Input: blocks of a ``System`` and the slot of each variable. Output: Python source lines:
block evaluation (assignments, linear blocks through one factorization, Newton blocks with
their symbolic Jacobian, mixed blocks iterating on their discrete values) and the
forward-mode tangent of the derivatives w.r.t. the states. The generated code reads the globals
``v`` (values), ``p`` (pre values) and ``fl`` (flags: initial, terminal, event mode).
"""
from __future__ import annotations

from compiler.interp.pycode import Emitter, if_lines
from compiler.linearization import block_unknowns, residual_rows
from compiler.system import (
    AlgorithmBlock, AssignStatement, Assertion, Assignment, BreakStatement, CallStatement,
    IfStatement, LinearBlock, MixedBlock, NewtonBlock, WhenStatement, WhileStatement)
from compiler.system_text import block_place, describe_loop

SPARSE_SIZE = 60   # linear blocks at least this large are assembled as sparse matrices


class BlockCode:
    """Source of the generated functions; ``helpers`` collects per-block functions."""

    def __init__(self, slot_of, functions: dict, clauses=()):
        self.slot_of = slot_of
        self.functions = functions
        self.clauses = clauses
        self.initial = False   # when-statements use initial_active (initialization blocks)
        self.helpers: list[tuple[str, str, list[str]]] = []   # (name, params, body)
        self.places: list[str] = []   # what each block computes and where it comes from

    def emitter(self) -> Emitter:
        return Emitter(self.slot_of, self.functions)

    def run(self, name: str, blocks) -> None:
        """A function ``name()`` evaluating ``blocks`` in order; ``_where[0]`` tells which
        block runs (an index into ``places``), for messages."""
        body = []
        for block in blocks:
            body.append(f"_where[0] = {len(self.places)}")
            self.places.append(block_place(block))
            body.extend(self.block(block))
        self.helpers.append((name, "", body))

    def block(self, block) -> list[str]:
        if type(block) is Assignment:
            return self._assignment(block)
        if type(block) is AlgorithmBlock:
            return self._algorithm(block)
        number = len(self.helpers)
        description = describe_loop(block)
        if type(block) is LinearBlock:
            self._linear(block, number)
            return [f"_linear_{number}()"]
        if type(block) is NewtonBlock:
            self._newton(block, number)
            slots = [self.slot_of(name) for name in block.vars]  # never pre values: Real
            jacobian = f"_jacobian_{number}" if block.has_jacobian else "None"
            return [f"_newton(v, {slots}, _residual_{number}, {jacobian}, "
                    f"lambda: {description!r})"]
        if type(block) is MixedBlock:
            return self._mixed(block, number, description)
        raise TypeError(f"not a block: {block!r}")

    def _mixed(self, block: MixedBlock, number: int, description: str) -> list[str]:
        """Its parts as functions of their own; iterating on the discrete values at
        initialization and in event mode (``fl[2]``)."""
        names = (f"_mixed_continuous_{number}", f"_mixed_updates_{number}",
                 f"_mixed_discrete_{number}")
        # the helpers of the parts first: a function sees those compiled before it
        continuous = [line for item in block.continuous for line in self.block(item)]
        updates = [line for item in block.updates for line in self.block(item)]
        values = ", ".join(self.target(name) for name in block.discrete)
        self.helpers.append((names[0], "", continuous))
        self.helpers.append((names[1], "", updates))
        self.helpers.append((names[2], "", [f"return [{values}]"]))
        iterate = "True" if self.initial else "fl[2]"
        return [f"_iterate_mixed(v, {', '.join(names)}, {iterate}, lambda: {description!r})"]

    def _algorithm(self, block: AlgorithmBlock) -> list[str]:
        lines = [f"{self.target(name)} = {self.expression(value)}"
                 for name, value in zip(block.outputs, block.initial_values)]
        return lines + self._statements(block.statements)

    def expression(self, expr) -> str:
        """Text of one expression, its locals inlined (algorithms reassign variables)."""
        return self.emitter().text(expr)

    def _statements(self, statements) -> list[str]:
        lines = []
        for item in statements:
            lines.extend(self._statement(item))
        return lines or ["pass"]

    def _indented(self, statements) -> list[str]:
        return ["    " + line for line in self._statements(statements)]

    def _statement(self, item) -> list[str]:
        kind = type(item)
        if kind is AssignStatement:
            return [f"{self.target(item.target)} = {self.expression(item.value)}"]
        if kind is IfStatement:
            return if_lines(item.branches, item.else_, self.expression, self._statements)
        if kind is WhileStatement:
            return [f"while {self.expression(item.condition)}:"] + self._indented(item.body)
        if kind is WhenStatement:
            clause = self.clauses[item.clause]
            active = clause.initial_active if self.initial else clause.active
            return [f"if {self.expression(active)}:"] + self._indented(item.body)
        if kind is BreakStatement:
            return ["break"]
        if kind is CallStatement:   # made for its effects: its results are dropped
            call = item.call
            arguments = ", ".join(self.expression(arg) for arg in call.args)
            return [f"{self.functions[call.function]}({arguments})"]
        if kind is Assertion:
            return [f"if not {self.expression(item.condition)}:",
                    f"    _assertion_failed({self.expression(item.message)}, {item.level!r}, "
                    f"{str(item.span) if item.span else ''!r})"]
        return ["_terminate()"]

    def _assignment(self, block: Assignment) -> list[str]:
        emitter = self.emitter()
        emitter.count(block.value)
        text = emitter.text(block.value)
        return emitter.lines + [f"{self.target(block.var)} = {text}"]

    def target(self, name: str) -> str:
        """Where a block writes ``name``: a pre value for ``pre(v)`` (initialization)."""
        if name.startswith("pre(") and name.endswith(")"):
            return f"p[{self.slot_of(name[4:-1])}]"
        return f"v[{self.slot_of(name)}]"

    def _linear(self, block: LinearBlock, number: int) -> None:
        emitter = self.emitter()
        n = len(block.vars)
        position = {name: j for j, name in enumerate(block.vars)}
        entries = [(i, position[name], expr) for i, row in enumerate(block.equations)
                   for name, expr in row.partials if name in position]
        for expr in [e for _, _, e in entries] + list(block.rhs):
            emitter.count(expr)
        values = [emitter.text(expr) for _, _, expr in entries]
        rhs = [emitter.text(expr) for expr in block.rhs]
        body = list(emitter.lines)
        if n >= SPARSE_SIZE:
            rows = [i for i, _, _ in entries]
            cols = [j for _, j, _ in entries]
            body.append(f"_A = ({rows}, {cols}, [{', '.join(values)}], {n})")
        else:
            body.append(f"_A = np.zeros(({n}, {n}))")
            body.extend(f"_A[{i}, {j}] = {text}" for (i, j, _), text in zip(entries, values))
        guess = ", ".join(self.target(name) for name in block.vars)
        body.append(f"_x = _solve_linear(_A, np.array([{', '.join(rhs)}], dtype=float), "
                    f"lambda: {describe_loop(block)!r}, np.array([{guess}], dtype=float))")
        body.extend(f"{self.target(name)} = float(_x[{j}])" for j, name in enumerate(block.vars))
        self.helpers.append((f"_linear_{number}", "", body))

    def _newton(self, block: NewtonBlock, number: int) -> None:
        body = []
        for item in block.inner:
            body.extend(self._assignment(item))
        emitter = self.emitter()
        for item in block.residuals:
            emitter.count(item.expr)
        texts = [emitter.text(item.expr) for item in block.residuals]
        body.extend(emitter.lines)
        body.append(f"return [{', '.join(texts)}]")
        self.helpers.append((f"_residual_{number}", "_v", body))
        if block.has_jacobian:
            self.helpers.append((f"_jacobian_{number}", "_v", self._newton_jacobian(block)))

    def _newton_jacobian(self, block: NewtonBlock) -> list[str]:
        """d residuals / d iteration variables, by the chain rule through the inner
        assignments (forward mode, one vector per variable; plain floats for one)."""
        n = len(block.vars)
        emitter = self.emitter()
        if n == 1:
            tangent, body = {block.vars[0]: "1.0"}, []
        else:
            tangent = {name: f"_e[{j}]" for j, name in enumerate(block.vars)}
            body = [f"_e = np.eye({n})"]
        for k, item in enumerate(block.inner):
            terms = [(expr, tangent[name]) for name, expr in item.partials if name in tangent]
            text = _combination(emitter, terms, n)
            body.extend(emitter.lines)
            emitter.lines.clear()
            body.append(f"_d{k} = {text}")
            tangent[item.var] = f"_d{k}"
        rows = []
        for item in block.residuals:
            terms = [(expr, tangent[name]) for name, expr in item.partials if name in tangent]
            rows.append(_combination(emitter, terms, n))
        body.extend(emitter.lines)
        if n == 1:
            body.append(f"return [[{rows[0]}]]")
        else:
            body.append(f"return np.array([{', '.join(rows)}], dtype=float).reshape({n}, {n})")
        return body

    def tangent(self, name: str, blocks, states, derivatives) -> None:
        """A function ``name()`` returning d derivatives / d states (forward mode)."""
        n = len(states)
        tangent = {state: f"_e[{j}]" for j, state in enumerate(states)}
        body = [f"_e = np.eye({n})"]
        for number, block in enumerate(blocks):
            body.extend(self._block_tangent(block, number, tangent, n))
        rows = [tangent.get(name_, f"np.zeros({n})") for name_ in derivatives]
        body.append(f"return np.array([{', '.join(rows)}], dtype=float).reshape({n}, {n})"
                    if n else "return np.zeros((0, 0))")
        self.helpers.append((name, "", body))

    def _block_tangent(self, block, number: int, tangent: dict, n: int) -> list[str]:
        emitter = self.emitter()
        if type(block) is Assignment:
            terms = [(expr, tangent[name]) for name, expr in block.partials if name in tangent]
            if not terms:
                return []
            text = _combination(emitter, terms, n)
            tangent[block.var] = f"_T{number}"
            return emitter.lines + [f"_T{number} = {text}"]
        rows = residual_rows(block)
        unknowns = block_unknowns(block)
        if not any(name in tangent for partials in rows for name, _ in partials):
            return []
        position = {name: j for j, name in enumerate(unknowns)}
        m = len(unknowns)
        body = [f"_M = np.zeros(({m}, {m}))", f"_R = np.zeros(({m}, {n}))"]
        for i, partials in enumerate(rows):
            for name, expr in partials:
                if name not in position and name not in tangent:
                    continue
                emitter.count(expr)
                text = emitter.text(expr)
                body.extend(emitter.lines)
                emitter.lines.clear()
                body.append(f"_M[{i}, {position[name]}] = {text}" if name in position
                            else f"_R[{i}] -= ({text}) * {tangent[name]}")
        body.append(f"_X{number} = np.linalg.solve(_M, _R)")
        for name, j in position.items():
            tangent[name] = f"_X{number}[{j}]"
        return body


def _combination(emitter: Emitter, terms, n: int) -> str:
    if not terms:
        return "0.0" if n == 1 else f"np.zeros({n})"
    for expr, _ in terms:
        emitter.count(expr)
    return " + ".join(f"({emitter.text(expr)}) * {vector}" for expr, vector in terms)
