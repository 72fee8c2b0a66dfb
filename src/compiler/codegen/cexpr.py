"""IR expressions -> C expressions over the model's slots, with Modelica's semantics.

Input: IR expressions and the slot of each variable (``interface.Slot``). Output: C text
reading ``R(x)``, ``PRE_INT(n)``, ``m->time``, ... with the parentheses C's precedence needs;
subexpressions used more than once become ``const`` locals (``lines``). The built-ins map to
C's math library or to model_support.h, whose semantics follow ``symbolic.evaluate``.
"""
from __future__ import annotations

from compiler.codegen.errors import EmitError
from compiler.fmu.c_tables import c_double, c_string
from compiler.codegen.slot_writer import (
    MATH_FUNCTIONS, SUPPORT_FUNCTIONS, SlotWriter, binary_operators)
from compiler.symbolic.expr import BOOLEAN, INTEGER, REAL, STRING, Const

# C operator precedence, higher binds tighter
PRIMARY, UNARY, MULTIPLICATIVE, ADDITIVE, RELATIONAL, EQUALITY, AND, OR, CONDITIONAL = \
    16, 14, 13, 12, 10, 9, 5, 4, 3
BINARY = binary_operators(multiplicative=MULTIPLICATIVE, additive=ADDITIVE, relational=RELATIONAL,
                          equality=EQUALITY, **{"and": AND, "or": OR})
# built-in -> (C function for Real arguments, for Integer arguments)
FUNCTIONS = {**{name: (name, None) for name in MATH_FUNCTIONS + ("log",)},
             "abs": ("fabs", "integer_abs"), "min": ("fmin", "integer_min"),
             "max": ("fmax", "integer_max"), **SUPPORT_FUNCTIONS}
C_TYPES = {REAL: "double", INTEGER: "int32_t", BOOLEAN: "bool", STRING: "const char *"}


def c_type(type_: str) -> str:
    """The C type of values of a Modelica type (enumerations are int64_t)."""
    return C_TYPES.get(type_, "int64_t")


def c_constant(value, type_: str) -> str:
    if type_ == REAL:
        return c_double(float(value))
    if type_ == BOOLEAN:
        return "true" if value else "false"
    if type_ == STRING:
        return c_string(value)
    return str(int(value))


class CWriter(SlotWriter):
    """C text of IR expressions for one generated function (``SlotWriter``); ``functions``:
    user function name -> callable C name (see ``functions.FunctionCode``)."""
    PRIMARY, UNARY, CONDITIONAL, OR = PRIMARY, UNARY, CONDITIONAL, OR
    BINARY = BINARY
    FUNCTIONS = FUNCTIONS

    def declare(self, temp: str, node, text: str) -> str:
        return f"const {c_type(node.type)} {temp} = {text};"

    def constant(self, node: Const) -> str:
        return c_constant(node.value, node.type)

    def place(self, slot, pre: bool = False) -> str:
        return slot.pre_text if pre else slot.text

    def sample_text(self, start, interval, fired: str) -> str:
        return (f"(m->event_mode && sample_fires(m->time, {self.text(start)}, "
                f"{self.text(interval)}, {self.slot(fired).text}))")

    def assignment(self, name: str, value: str, comment: str = "") -> str:
        """The C statement storing ``value`` in the slot of ``name`` (a String slot keeps a
        copy, through external_support.h)."""
        slot = self.slot(name)
        if slot.fmi_type == STRING:
            self.functions.support = True
        return slot.assignment(value, comment)

    def special(self, node) -> str | None:
        name, args = node.op, node.args
        if name == "neg":
            operand = self.text(args[0])
            if self.precedence(args[0], operand) <= UNARY or operand.startswith("-"):
                operand = f"({operand})"
            return f"-{operand}"
        if name == "not":
            return f"!{self.operand(args[0], UNARY)}"
        if name == "^":
            return self._power(args)
        if name == "delay":
            return f"delay_value(m, {args[0].value}, {self.text(args[1])})"
        if name == "spatial":
            inputs = ", ".join(self.text(arg) for arg in args[2:])
            return f"spatial_value(m, {args[0].value}, {args[1].value}, {inputs})"
        if name == "Integer":
            return f"(int32_t){self.operand(args[0], UNARY)}"
        if name == "String":
            return self._string(args)
        if name == "loadResource":
            return self.functions.resource(args[0].value, args[1].value)
        return None

    def conditional(self, node) -> str:
        condition, then, else_ = node.args
        return f"{self.operand(condition, OR)} ? {self._branch(then)} : {self._branch(else_)}"

    def declare_result(self, name: str, type_: str) -> str:
        return f"{c_type(type_)} {name};"

    def if_open(self, condition: str) -> str:
        return f"if ({condition}) {{"

    def function_call(self, name: str, args, integral: bool) -> str:
        return f"{name}({', '.join(self.text(arg) for arg in args)})"

    # -------------------------------------------------------------------------- helpers
    def operator_precedence(self, op: str, text: str) -> int:
        if op in ("neg", "not", "Integer"):
            return UNARY
        return CONDITIONAL if op == "if" else PRIMARY

    def binary(self, node) -> str:
        symbol, level = BINARY[node.op]
        left_node, right_node = node.args
        if left_node.type == STRING or right_node.type == STRING:
            return self._string_binary(node)
        lazy = node.op in ("and", "or")
        # a && b || c is right in C, but gcc warns (-Wparentheses) and warnings fail the build
        operand_level = AND if node.op == "or" else level - 1
        left = self.operand(left_node, operand_level)
        if node.op == "/" and left_node.type == INTEGER and right_node.type == INTEGER:
            left = f"(double){self.operand(left_node, UNARY)}"
        # the right operand keeps its own parentheses at equal precedence: a + (b + c)
        # rounds differently from a + b + c
        right = self.operand(right_node, max(level, operand_level), lazy)
        return f"{left} {symbol} {right}"

    def _string_binary(self, node) -> str:
        """Concatenation and the relations of Strings (external_support.h)."""
        left, right = (self.text(arg) for arg in node.args)
        self.functions.support = True
        if node.op == "+":
            return f"string_concat(m, {left}, {right})"
        if node.op not in ("<", "<=", ">", ">=", "==", "<>"):
            raise EmitError(f"the operator {node.op} on Strings is not supported in generated C")
        return f"string_compare({left}, {right}) {BINARY[node.op][0]} 0"

    def _string(self, args) -> str:
        """``String(x)``, ``String(x, format)`` or ``String(x, minimumLength, leftJustified,
        significantDigits)`` (external_support.h)."""
        self.functions.support = True
        value = self.text(args[0])
        if len(args) == 2:
            return f"string_formatted(m, {value}, {self.text(args[1])})"
        options = [self.text(arg) for arg in args[1:]] or ["0", "true", "6"]
        type_ = args[0].type
        if type_ == REAL:
            return f"string_of_real(m, {value}, {', '.join(options)})"
        if type_ == BOOLEAN:
            return f"string_of_boolean(m, {value}, {', '.join(options[:2])})"
        if type_ in self.functions.enumerations:
            name = self.functions.literal_name(type_, value)
            return f"string_padded(m, {name}, {', '.join(options[:2])})" if args[1:] else name
        if type_ == STRING:
            return f"string_padded(m, {value}, {', '.join(options[:2])})" if args[1:] else value
        return f"string_of_integer(m, {value}, {', '.join(options[:2])})"

    def _branch(self, node) -> str:
        return self.operand(node, CONDITIONAL, lazy=True)

    def _power(self, args) -> str:
        base, exponent = args
        if base.type == INTEGER and exponent.type == INTEGER:
            return f"integer_power({self.text(base)}, {self.text(exponent)})"
        product = self.power_product(base, exponent)
        if product is not None:
            return product
        exponent_text = c_double(float(exponent.value)) if type(exponent) is Const \
            else self.text(exponent)
        return f"pow({self.text(base)}, {exponent_text})"
