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
from compiler.codegen.slot_writer import (
    MATH_FUNCTIONS, SUPPORT_FUNCTIONS, SlotWriter, binary_operators)
from compiler.symbolic.expr import BOOLEAN, INTEGER, REAL, STRING, Const

# Rust operator precedence, higher binds tighter; an if-expression is parenthesized as an
# operand, comparisons do not chain
PRIMARY, UNARY, CAST, MULTIPLICATIVE, ADDITIVE, RELATIONAL, AND, OR, CONDITIONAL = \
    16, 14, 13, 12, 11, 9, 5, 4, 2
BINARY = binary_operators(multiplicative=MULTIPLICATIVE, additive=ADDITIVE, relational=RELATIONAL,
                          equality=RELATIONAL, **{"and": AND, "or": OR})
RELATIONS = ("<", "<=", ">", ">=", "==", "<>")
# built-in -> (Rust function for Real arguments, for Integer arguments)
FUNCTIONS = {**{name: (f"f64::{name}", None) for name in MATH_FUNCTIONS}, "log": ("f64::ln", None),
             "abs": ("f64::abs", "integer_abs"), "min": ("f64::min", "integer_min"),
             "max": ("f64::max", "integer_max"), **SUPPORT_FUNCTIONS}
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


class RustWriter(SlotWriter):
    """Rust text of IR expressions for one generated function (``SlotWriter``);
    ``functions``: user functions (``functions.RustFunctions``)."""
    PRIMARY, UNARY, CONDITIONAL, OR = PRIMARY, UNARY, CONDITIONAL, OR
    BINARY = BINARY
    FUNCTIONS = FUNCTIONS
    MODEL = "m."
    WHERE = "by the Rust backend"

    def declare(self, temp: str, node, text: str) -> str:
        return f"let {temp}: {rust_type(node.type)} = {text};"

    def constant(self, node: Const) -> str:
        return rust_constant(node.value, node.type)

    def place(self, slot, pre: bool = False) -> str:
        return slot_text(slot, pre)

    def sample_text(self, start, interval, fired: str) -> str:
        return (f"m.event_mode && sample_fires(m.time, {self.real(start)}, "
                f"{self.real(interval)}, {self.target(fired)})")

    def assignment(self, name: str, node, comment: str = "") -> str:
        """``place = value;``: ``node``'s value converted to the variable's type."""
        slot = self.slot(name[4:-1] if name.startswith("pre(") else name)
        value = self.convert(node, SLOT_TYPES.get(slot.accessor, node.type), level=0)
        if slot.accessor == "ENUM" and node.type == INTEGER:
            value = f"{self.operand(node, CAST)} as i64"
        return f"{self.target(name)} = {value};{comment}"

    def check_operation(self, node) -> None:
        if node.args and any(arg.type == STRING for arg in node.args) or node.type == STRING:
            raise EmitError(f"String operations ({node!r}) are not supported by the Rust backend")

    def special(self, node) -> str | None:
        name, args = node.op, node.args
        if name == "neg":
            operand = self.operand(args[0], UNARY)
            return f"-({operand})" if operand.startswith("-") else f"-{operand}"
        if name == "not":
            return f"!{self.operand(args[0], UNARY)}"
        if name == "^":
            return self._power(args)
        if name == "Integer":
            return f"{self.operand(args[0], CAST)} as i32"
        if name == "delay":   # (String() and loadResource() are Strings: refused above)
            raise EmitError(f"delay() ({node!r}) is not supported by the Rust backend")
        if name == "spatial":   # (refused with its place before: rust.emit)
            raise EmitError(f"spatialDistribution() ({node!r}) is not supported by the Rust "
                            "backend")
        return None

    def conditional(self, node) -> str:
        condition, then, else_ = node.args
        return (f"if {self.text(condition)} {{ {self.convert(then, node.type, lazy=True)} }} "
                f"else {{ {self.convert(else_, node.type, lazy=True)} }}")

    def branch_value(self, node, type_: str) -> str:
        return self.convert(node, type_)

    def declare_result(self, name: str, type_: str) -> str:
        return f"let {name}: {rust_type(type_)};"

    def if_open(self, condition: str) -> str:
        return f"if {condition} {{"

    def function_call(self, name: str, args, integral: bool) -> str:
        if integral:
            return f"{name}({', '.join(self.convert(arg, INTEGER) for arg in args)})"
        return f"{name}({', '.join(self.real(arg) for arg in args)})"

    # -------------------------------------------------------------------------- helpers
    def leaf_precedence(self, text: str) -> int:
        return AND if text.startswith("m.event_mode && ") else PRIMARY

    def text_precedence(self, text: str) -> int | None:
        return CAST if text.endswith(" as f64") or text.endswith(" as i32") else None

    def operator_precedence(self, op: str, text: str) -> int:
        if op in ("neg", "not"):
            return UNARY
        if op == "Integer":
            return CAST
        if op == "if":
            return CONDITIONAL if text.startswith("if ") else PRIMARY
        return PRIMARY

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

    def binary(self, node) -> str:
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

    def _power(self, args) -> str:
        base, exponent = args
        if base.type == INTEGER and exponent.type == INTEGER:
            return f"integer_power({self.text(base)}, {self.text(exponent)})"
        product = self.power_product(base, exponent)
        if product is not None:
            return product
        return f"f64::powf({self.real(base)}, {self.real(exponent)})"


def _common_type(a: str, b: str) -> str:
    """The type two operands of a relation are compared in."""
    if a == b:
        return a
    return REAL if REAL in (a, b) else INTEGER
