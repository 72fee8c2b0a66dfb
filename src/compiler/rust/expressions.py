"""IR expressions -> Rust expressions over the model's slots, with Modelica's semantics.

Input: IR expressions and the slot of each variable (``codegen.interface.Slot``). Output: Rust
text reading ``m.r[R_x]``, ``m.pre_i[INT_n]``, ``m.time``, ... with the parentheses Rust's
precedence needs and the conversions its typing needs (Rust mixes no Integer and Real in one
operation: an Integer operand of a Real operation is converted with ``as f64``). Repeated
subexpressions become ``let`` locals (``lines``). The built-ins map to Rust's f64 methods or
to rust_templates/support.rs, whose semantics follow fmu_templates/model_support.h.
"""
from __future__ import annotations

import math

from compiler.codegen.errors import EmitError
from compiler.symbolic.cse import ExpressionWriter
from compiler.symbolic.expr import BOOLEAN, INTEGER, REAL, STRING, Array, Call, Const, Op, Var

# Rust operator precedence, higher binds tighter; an if-expression is parenthesized as an
# operand, comparisons do not chain
PRIMARY, UNARY, CAST, MULTIPLICATIVE, ADDITIVE, RELATIONAL, AND, OR, CONDITIONAL = \
    16, 14, 13, 12, 11, 9, 5, 4, 2
BINARY = {"*": ("*", MULTIPLICATIVE), "/": ("/", MULTIPLICATIVE), "+": ("+", ADDITIVE),
          "-": ("-", ADDITIVE), "<": ("<", RELATIONAL), "<=": ("<=", RELATIONAL),
          ">": (">", RELATIONAL), ">=": (">=", RELATIONAL), "==": ("==", RELATIONAL),
          "<>": ("!=", RELATIONAL), "and": ("&&", AND), "or": ("||", OR)}
RELATIONS = ("<", "<=", ">", ">=", "==", "<>")
# built-in -> (Rust function for Real arguments, for Integer arguments)
FUNCTIONS = {
    **{name: (f"f64::{name}", None) for name in ("sin", "cos", "tan", "asin", "acos", "atan",
                                                 "sinh", "cosh", "tanh", "exp", "log10", "sqrt",
                                                 "atan2", "floor", "ceil")},
    "log": ("f64::ln", None),
    "abs": ("f64::abs", "integer_abs"), "sign": ("modelica_sign", "integer_sign"),
    "min": ("f64::min", "integer_min"), "max": ("f64::max", "integer_max"),
    "div": ("modelica_div", "integer_div"), "mod": ("modelica_mod", "integer_mod"),
    "rem": ("modelica_rem", "integer_rem"), "integer": ("modelica_integer", None),
}
RUST_TYPES = {REAL: "f64", INTEGER: "i32", BOOLEAN: "bool"}
# the slot arrays of ModelData by accessor (codegen.interface.Slot.accessor)
ARRAYS = {"R": "r", "INT": "i", "ENUM": "e", "BOOL": "b"}
SLOT_TYPES = {"R": REAL, "INT": INTEGER, "BOOL": BOOLEAN}


def rust_type(type_: str) -> str:
    """The Rust type of values of a Modelica type (enumerations are i64)."""
    if type_ == STRING:
        raise EmitError("String values are not supported by the Rust backend")
    return RUST_TYPES.get(type_, "i64")


def rust_double(value: float) -> str:
    """A Rust f64 literal (a digit after every point: ``1.0``, ``1e-06``, ``2.5e+16``)."""
    value = float(value)
    if math.isnan(value):
        return "f64::NAN"
    if math.isinf(value):
        return "f64::INFINITY" if value > 0 else "f64::NEG_INFINITY"
    text = repr(value)
    return text if any(c in text for c in ".en") else text + ".0"


def rust_constant(value, type_: str) -> str:
    if type_ == REAL:
        return rust_double(value)
    if type_ == BOOLEAN:
        return "true" if value else "false"
    if type_ == STRING:
        raise EmitError(f"the String {value!r} is not supported by the Rust backend")
    return str(int(value))


def rust_string(text: str) -> str:
    """A Rust string literal (escapes for quotes, backslashes, braces are not special)."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def slot_text(slot, pre: bool = False) -> str:
    """``m.r[R_x]`` (``m.pre_r[R_x]``): where a variable of a Slot lives in ModelData."""
    array = ARRAYS.get(slot.accessor)
    if array is None:
        what = "String" if slot.accessor == "STR" else "external object"
        raise EmitError(f"{what} variables are not supported by the Rust backend")
    return f"m.{'pre_' if pre else ''}{array}[{slot.accessor}_{slot.c_name}]"


class RustWriter(ExpressionWriter):
    """Rust text of IR expressions for one generated function.

    ``slots``: variable name -> ``codegen.interface.Slot``. ``locals_``: names the function
    holds in Rust locals (Newton's unknowns, solved tangents) -> their text. ``initial``:
    expressions of the initialization, where ``sample()`` is false. ``samples``:
    ``$sample[k]`` -> (start, interval, the hidden slot of the tick it fired last).
    ``functions``: user functions (``functions.RustFunctions``).
    """

    def __init__(self, slots: dict, samples: dict | None = None, functions=None,
                 locals_: dict | None = None, initial: bool = False):
        super().__init__()
        self.slots = slots
        self.samples = samples or {}
        self.functions = functions
        self.locals = locals_ or {}
        self.initial = initial
        self.calls: dict = {}   # (function, arguments) -> text of each result

    # ---------------------------------------------------------------------- the base's API
    def temp_name(self, number: int) -> str:
        return f"t{number}"

    def shareable(self, node) -> bool:
        return node.type != STRING

    def declare(self, temp: str, node, text: str) -> str:
        return f"let {temp}: {rust_type(node.type)} = {text};"

    def constant(self, node: Const) -> str:
        return rust_constant(node.value, node.type)

    def variable(self, node: Var) -> str:
        name = node.name
        local = self.locals.get(name)
        if local is not None:
            return local
        if name == "time":
            return "m.time"
        if name in self.samples:
            if self.initial:
                return "false"
            start, interval, fired = self.samples[name]
            return (f"m.event_mode && sample_fires(m.time, {self.real(start)}, "
                    f"{self.real(interval)}, {self.target(fired)})")
        return self.target(name)

    def slot(self, name: str):
        try:
            return self.slots[name]
        except KeyError:
            raise EmitError(f"no storage for variable '{name}'") from None

    def target(self, name: str) -> str:
        """The place of a variable (``pre(v)``: the pre value of v)."""
        if name.startswith("pre(") and name.endswith(")"):
            return slot_text(self.slot(name[4:-1]), pre=True)
        return slot_text(self.slot(name))

    def assignment(self, name: str, node, comment: str = "") -> str:
        """``place = value;``: ``node``'s value converted to the variable's type."""
        slot = self.slot(name[4:-1] if name.startswith("pre(") else name)
        value = self.convert(node, SLOT_TYPES.get(slot.accessor, node.type), level=0)
        if slot.accessor == "ENUM" and node.type == INTEGER:
            value = f"{self.operand(node, CAST)} as i64"
        return f"{self.target(name)} = {value};{comment}"

    def compound(self, node) -> str:
        kind = type(node)
        if kind is Call:
            return self.functions.call_text(self, node)
        if kind is Array:
            raise EmitError(f"an array {node!r} outside a function call")
        name, args = node.op, node.args
        if args and any(arg.type == STRING for arg in args) or node.type == STRING:
            raise EmitError(f"String operations ({node!r}) are not supported by the Rust backend")
        if name in BINARY:
            return self._binary(node)
        if name == "neg":
            operand = self.operand(args[0], UNARY)
            return f"-({operand})" if operand.startswith("-") else f"-{operand}"
        if name == "not":
            return f"!{self.operand(args[0], UNARY)}"
        if name == "if":
            if not self.depth and (_calls_function(args[1]) or _calls_function(args[2])):
                return self._conditional_calls(node)
            condition = self.text(args[0])
            return (f"if {condition} {{ {self.convert(args[1], node.type, lazy=True)} }} "
                    f"else {{ {self.convert(args[2], node.type, lazy=True)} }}")
        if name == "^":
            return self._power(args)
        if name == "pre":
            return self.target(f"pre({args[0].name})")
        if name == "initial":
            return "m.initial_phase"
        if name == "terminal":
            return "m.terminal"
        if name == "delay":
            raise EmitError(f"delay() ({node!r}) is not supported by the Rust backend")
        if name == "Integer":
            return f"{self.operand(args[0], CAST)} as i32"
        if name in ("String", "loadResource"):
            raise EmitError(f"{name}() is not supported by the Rust backend")
        return self._function(node)

    # -------------------------------------------------------------------------- helpers
    def precedence(self, node, text: str) -> int:
        """Rust precedence of the text of ``node`` (a local or leaf binds tightest)."""
        if type(node) is Var or self.temps.get(node) == text:
            return AND if text.startswith("m.event_mode && ") else PRIMARY
        if type(node) is Const:
            return UNARY if text.startswith("-") else PRIMARY
        if text.endswith(" as f64") or text.endswith(" as i32"):
            return CAST
        if type(node) is Op:
            if node.op in BINARY:
                return BINARY[node.op][1]
            if node.op in ("neg", "not"):
                return UNARY
            if node.op == "Integer":
                return CAST
            if node.op == "if":
                return CONDITIONAL if text.startswith("if ") else PRIMARY
        return PRIMARY

    def operand(self, node, level: int, lazy: bool = False) -> str:
        """Text of ``node`` parenthesized unless it binds tighter than ``level``."""
        text = self.lazy(node) if lazy else self.text(node)
        return f"({text})" if self.precedence(node, text) <= level else text

    def convert(self, node, type_: str, level: int = CONDITIONAL, lazy: bool = False) -> str:
        """Text of ``node`` as a value of ``type_`` (an Integer or enumeration made f64, an
        enumeration made i32), parenthesized unless it binds tighter than ``level``."""
        if node.type == type_ or type_ not in (REAL, INTEGER) or node.type in (BOOLEAN, STRING):
            return self.operand(node, level, lazy)
        target = rust_type(type_)
        if type(node) is Const:
            text = rust_constant(node.value, type_)
            return f"({text})" if text.startswith("-") and level >= UNARY else text
        text = f"{self.operand(node, CAST, lazy)} as {target}"
        return f"({text})" if CAST <= level else text

    def real(self, node, level: int = CONDITIONAL) -> str:
        return self.convert(node, REAL, level)

    def _binary(self, node) -> str:
        symbol, level = BINARY[node.op]
        left_node, right_node = node.args
        if node.op in ("and", "or"):
            # a && b || c: parenthesized for the reader, as C's -Wparentheses asks
            left = self.operand(left_node, AND if node.op == "or" else level - 1)
            right = self.operand(right_node, AND if node.op == "or" else level, lazy=True)
            return f"{left} {symbol} {right}"
        if node.op in RELATIONS:
            common = _common_type(left_node.type, right_node.type)
            return f"{self.convert(left_node, common, level)} {symbol} " \
                   f"{self.convert(right_node, common, level)}"
        type_ = REAL if node.op == "/" else node.type
        # the right operand keeps its own parentheses at equal precedence: a + (b + c)
        # rounds differently from a + b + c
        return f"{self.convert(left_node, type_, level - 1)} {symbol} " \
               f"{self.convert(right_node, type_, level)}"

    def _branch_lines(self, branch, type_: str, result: str) -> list[str]:
        temps, calls = dict(self.temps), dict(self.calls)
        text = self.convert(branch, type_)
        lines = ["    " + line for line in self.take_lines()] + [f"    {result} = {text};"]
        self.temps, self.calls = temps, calls
        return lines

    def _conditional_calls(self, node) -> str:
        """An if-expression whose branches call user functions, as an if-statement: only the
        branch taken calls (a function may assert what its condition guards). Locals
        declared inside a branch stay there."""
        condition, then, else_ = node.args
        condition_text = self.text(condition)
        before = self.take_lines()
        result = f"branch{self.functions.next_number()}"
        branches = [self._branch_lines(branch, node.type, result) for branch in (then, else_)]
        self.lines = before + [f"let {result}: {rust_type(node.type)};",
                               f"if {condition_text} {{", *branches[0], "} else {",
                               *branches[1], "}"]
        return result

    def _power(self, args) -> str:
        base, exponent = args
        if base.type == INTEGER and exponent.type == INTEGER:
            return f"integer_power({self.text(base)}, {self.text(exponent)})"
        return f"f64::powf({self.real(base)}, {self.real(exponent)})"

    def _function(self, node) -> str:
        entry = FUNCTIONS.get(node.op)
        if entry is None:
            raise EmitError(f"the built-in {node.op}() is not supported by the Rust backend")
        real, integer = entry
        integral = integer is not None and all(arg.type != REAL for arg in node.args)
        if integral:
            return f"{integer}({', '.join(self.convert(arg, INTEGER) for arg in node.args)})"
        return f"{real}({', '.join(self.real(arg) for arg in node.args)})"


def _common_type(a: str, b: str) -> str:
    """The type two operands of a relation are compared in."""
    if a == b:
        return a
    return REAL if REAL in (a, b) else INTEGER


def _calls_function(node) -> bool:
    """Whether ``node`` calls a user function."""
    stack = [node]
    while stack:
        item = stack.pop()
        kind = type(item)
        if kind is Call:
            return True
        if kind is Op:
            stack.extend(item.args)
        elif kind is Array:
            stack.extend(item.elements)
    return False
