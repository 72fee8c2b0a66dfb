"""IR expressions -> Python source, compiled with the semantics of ``symbolic.evaluate``.

Input: IR expressions and a slot for each variable. Output: Python expression text reading
``v[slot]`` (current values), ``p[slot]`` (pre values) and ``fl`` (flags: ``fl[0]`` is
``initial()``, ``fl[1]`` is ``terminal()``, ``fl[2]`` event mode), and ``compile_function`` to turn generated
statements into a callable. Shared subexpressions used more than once become locals.
"""
from __future__ import annotations

import math

import numpy as np

from compiler.symbolic.cse import ExpressionWriter
from compiler.symbolic.evaluate import BUILTINS, modelica_pow
from compiler.symbolic.expr import Array, Call, Const

_INFIX = {"+": "+", "-": "-", "*": "*", "/": "/", "<": "<", "<=": "<=", ">": ">", ">=": ">=",
          "==": "==", "<>": "!="}

NAMESPACE = {f"_m_{name}": function for name, function in BUILTINS.items()}
NAMESPACE.update(_pow=modelica_pow, _array=np.array, math=math, np=np)


class Emitter(ExpressionWriter):
    """Python text of IR expressions for one generated function.

    ``slot_of(name)`` gives the slot of a variable; names starting with ``pre(`` read the
    pre values. ``functions`` maps user-function names to the names of their callables in the
    namespace. Common subexpressions are emitted once as ``_t<k>`` locals (``lines``).
    """

    def __init__(self, slot_of, functions=None):
        super().__init__()
        self.slot_of = slot_of
        self.functions = functions or {}

    def constant(self, node) -> str:
        return repr(node.value)

    def variable(self, node) -> str:
        return self._var(node.name)

    def declare(self, temp: str, node, text: str) -> str:
        return f"{temp} = {text}"

    def _var(self, name: str) -> str:
        if name.startswith("pre(") and name.endswith(")"):
            return f"p[{self.slot_of(name[4:-1])}]"
        return f"v[{self.slot_of(name)}]"

    def compound(self, node) -> str:
        kind = type(node)
        if kind is Call:
            args = ", ".join(self.text(arg) for arg in node.args)
            return f"{self.functions[node.function]}({args})[{node.output}]"
        if kind is Array:
            return "_array([" + ", ".join(self.text(item) for item in node.elements) + "])"
        name, args = node.op, node.args
        if name in ("and", "or"):
            return f"({self.text(args[0])} {name} {self.lazy(args[1])})"
        if name in _INFIX:
            return f"({self.text(args[0])} {_INFIX[name]} {self.text(args[1])})"
        if name == "neg":
            return f"(-{self.text(args[0])})"
        if name == "not":
            return f"(not {self.text(args[0])})"
        if name == "^":
            exponent = args[1]
            if type(exponent) is Const and type(exponent.value) is int and exponent.value >= 0:
                return f"({self.text(args[0])} ** {exponent.value})"
            return f"_pow({self.text(args[0])}, {self.text(args[1])})"
        if name == "if":
            # the branches must not be evaluated eagerly: no temporaries inside them
            return (f"({self.lazy(args[1])} if {self.text(args[0])} "
                    f"else {self.lazy(args[2])})")
        if name == "pre":
            return f"p[{self.slot_of(args[0].name)}]"
        if name == "initial":
            return "fl[0]"
        if name == "terminal":
            return "fl[1]"
        return f"_m_{name}(" + ", ".join(self.text(arg) for arg in args) + ")"


def if_lines(branches, else_, condition_text, body_lines) -> list[str]:
    """Python ``if``/``elif``/``else`` lines; ``body_lines(body)`` gives a body's lines."""
    lines = []
    for number, (condition, body) in enumerate(branches):
        lines.append(f"{'if' if number == 0 else 'elif'} {condition_text(condition)}:")
        lines.extend("    " + line for line in body_lines(body) or ["pass"])
    if else_:
        lines.append("else:")
        lines.extend("    " + line for line in body_lines(else_) or ["pass"])
    return lines


def compile_function(name: str, params: str, body: list[str], namespace: dict,
                     shared: bool = False):
    """A Python function ``name(params)`` with ``body`` lines, in ``namespace`` (a copy with
    the interpreter's helpers; ``shared``: ``namespace`` itself, so that functions compiled
    into it later are visible, as user functions calling each other need)."""
    source = f"def {name}({params}):\n" + "".join(f"    {line}\n" for line in body or ["pass"])
    if shared:
        scope = namespace
    else:
        scope = dict(NAMESPACE)
        scope.update(namespace)
    exec(compile(source, f"<reference interpreter: {name}>", "exec"), scope)
    return scope[name]
