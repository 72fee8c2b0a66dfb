"""What the C and Rust expression writers share: IR expressions over a model's slots.

Input: IR expressions, the slot of each variable (``interface.Slot``), the model's samples
and user functions. Output: text in the language of a subclass (``cexpr.CWriter``,
``rust.expressions.RustWriter``), which spells the leaves, operators and conversions; the
structure (which node is what, locals of repeated subexpressions, parentheses by
precedence, if-expressions whose branches call functions) is written once here.
"""
from __future__ import annotations

from compiler.codegen.errors import EmitError
from compiler.symbolic.cse import ExpressionWriter
from compiler.symbolic.expr import REAL, STRING, Array, Call, Const, Op, Var

INDENT = "    "
# built-ins of the languages' math libraries under their Modelica names
MATH_FUNCTIONS = ("sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh", "exp",
                  "log10", "sqrt", "atan2", "floor", "ceil")
# built-ins of the runtimes (model_support.h, support.rs): (for Real, for Integer arguments)
SUPPORT_FUNCTIONS = {
    "sign": ("modelica_sign", "integer_sign"), "div": ("modelica_div", "integer_div"),
    "mod": ("modelica_mod", "integer_mod"), "rem": ("modelica_rem", "integer_rem"),
    "integer": ("modelica_integer", None)}
# Modelica's binary operators: their symbol in C and Rust, and the kind of their precedence
OPERATORS = {"*": ("*", "multiplicative"), "/": ("/", "multiplicative"),
             "+": ("+", "additive"), "-": ("-", "additive"), "<": ("<", "relational"),
             "<=": ("<=", "relational"), ">": (">", "relational"), ">=": (">=", "relational"),
             "==": ("==", "equality"), "<>": ("!=", "equality"), "and": ("&&", "and"),
             "or": ("||", "or")}


def binary_operators(**levels: int) -> dict[str, tuple[str, int]]:
    """Modelica operator -> (symbol, precedence) for precedences by kind (``OPERATORS``)."""
    return {op: (symbol, levels[kind]) for op, (symbol, kind) in OPERATORS.items()}


def calls_function(node) -> bool:
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


class SlotWriter(ExpressionWriter):
    """Text of IR expressions for one generated function.

    ``slots``: variable name -> ``Slot``. ``locals``: names the function holds in locals
    (Newton's unknowns, solved tangents) -> their text. ``initial``: expressions of the
    initialization, where ``sample()`` is false. ``samples``: ``$sample[k]`` -> (start,
    interval expressions, the hidden slot of the tick it fired last). ``functions``: the
    model's user functions (the backend's function code).

    Subclasses set the precedence levels and ``FUNCTIONS`` (built-in -> (name for Real
    arguments, for Integer arguments)), and spell the language's parts (``place``,
    ``sample_text``, ``unary``, ``conditional``, ...).
    """
    PRIMARY = UNARY = CONDITIONAL = OR = 0
    BINARY: dict = {}
    FUNCTIONS: dict = {}
    MODEL = "m->"          # how the model's fields are reached
    temp_prefix = "t"      # the names of the locals of repeated subexpressions
    WHERE = "in generated C"   # the end of "... is not supported ..."

    def __init__(self, slots: dict, samples: dict | None = None, functions=None,
                 locals_: dict | None = None, initial: bool = False):
        super().__init__()
        self.slots = slots
        self.samples = samples or {}
        self.functions = functions
        self.locals = locals_ or {}
        self.initial = initial
        self.calls: dict = {}   # (function, arguments) -> text of each result
        self.products: set = set()   # texts of powers written as products (power_product)

    # ---------------------------------------------------------------------- the base's API
    def temp_name(self, number: int) -> str:
        return f"{self.temp_prefix}{number}"

    def shareable(self, node) -> bool:
        return node.type != STRING

    def variable(self, node: Var) -> str:
        name = node.name
        local = self.locals.get(name)
        if local is not None:
            return local
        if name == "time":
            return f"{self.MODEL}time"
        if name in self.samples:
            if self.initial:
                return "false"
            return self.sample_text(*self.samples[name])
        return self.target(name)

    def slot(self, name: str):
        try:
            return self.slots[name]
        except KeyError:
            raise EmitError(f"no storage for variable '{name}'") from None

    def target(self, name: str) -> str:
        """The place of a variable (``pre(v)``: the pre value of v)."""
        if name.startswith("pre(") and name.endswith(")"):
            return self.place(self.slot(name[4:-1]), pre=True)
        return self.place(self.slot(name))

    def real(self, node, level: int | None = None) -> str:
        """Text of ``node`` as a Real value (C converts on its own)."""
        return self.text(node)

    def compound(self, node) -> str:
        kind = type(node)
        if kind is Call:
            return self.functions.call_text(self, node)
        if kind is Array:
            raise EmitError(f"an array {node!r} outside a function call")
        self.check_operation(node)
        name, args = node.op, node.args
        if name in self.BINARY:
            return self.binary(node)
        if name == "if":
            if not self.depth and (calls_function(args[1]) or calls_function(args[2])):
                return self._conditional_calls(node)
            return self.conditional(node)
        if name == "pre":
            return self.target(f"pre({args[0].name})")
        if name in ("initial", "terminal"):
            return f"{self.MODEL}{'initial_phase' if name == 'initial' else name}"
        special = self.special(node)
        if special is not None:
            return special
        return self._function(node)

    # -------------------------------------------------------------------------- helpers
    def check_operation(self, node) -> None:
        """Refuse an operation the language cannot express (raise ``EmitError``)."""

    def special(self, node) -> str | None:
        """The text of an operator other than the binary ones, ``if``, ``pre``, ``initial``
        and ``terminal``; None for a built-in function (``FUNCTIONS``)."""
        return None

    def precedence(self, node, text: str) -> int:
        """Precedence of the text of ``node`` (a local or leaf binds tightest)."""
        if type(node) is Var or self.temps.get(node) == text:
            return self.leaf_precedence(text)
        if type(node) is Const:
            return self.UNARY if text.startswith("-") else self.PRIMARY
        level = self.text_precedence(text)
        if level is not None:
            return level
        if type(node) is Op:
            if node.op in self.BINARY:
                return self.BINARY[node.op][1]
            if text in self.products:
                return self.BINARY["*"][1]
            return self.operator_precedence(node.op, text)
        return self.PRIMARY

    def leaf_precedence(self, text: str) -> int:
        return self.PRIMARY

    def text_precedence(self, text: str) -> int | None:
        """A precedence the text alone shows (None: the node's decides)."""
        return None

    def operator_precedence(self, op: str, text: str) -> int:
        raise NotImplementedError

    def operand(self, node, level: int, lazy: bool = False) -> str:
        """Text of ``node`` parenthesized unless it binds tighter than ``level``."""
        text = self.lazy(node) if lazy else self.text(node)
        return f"({text})" if self.precedence(node, text) <= level else text

    def _conditional_calls(self, node) -> str:
        """An if-expression whose branches call user functions, as an if-statement: only the
        branch taken calls (a function may assert what its condition guards). Locals
        declared inside a branch stay there."""
        condition, then, else_ = node.args
        condition_text = self.text(condition)
        before = self.take_lines()
        result = f"branch{self.functions.next_number()}"
        branches = []
        for branch in (then, else_):
            temps, calls = dict(self.temps), dict(self.calls)
            text = self.branch_value(branch, node.type)
            branches.append([INDENT + line for line in self.take_lines()] +
                            [f"{INDENT}{result} = {text};"])
            self.temps, self.calls = temps, calls
        self.lines = before + [self.declare_result(result, node.type),
                               self.if_open(condition_text), *branches[0], "} else {",
                               *branches[1], "}"]
        return result

    def power_product(self, base, exponent) -> str | None:
        """``x^2`` and ``x^3`` of a Real ``x`` that is a variable or a local, as the product
        ``x * x``, ``x * x * x`` (multiplicative in ``precedence``: ``products``); None for
        other powers (the language's pow). For 2 the product is what pow gives (both are the correctly rounded
        square; gcc -O2 folds pow(x, 2.0) to it), for 3 it may differ in the last bit."""
        if type(exponent) is not Const or exponent.value not in (2, 3) or base.type != REAL:
            return None
        shared = base in self.temps or (self.uses.get(base, 0) > 1 and not self.depth
                                        and self.shareable(base))
        if type(base) is not Var and not shared:
            return None     # an expression would be written (and evaluated) twice
        product = " * ".join([self.text(base)] * int(exponent.value))
        self.products.add(product)
        return product

    def _function(self, node) -> str:
        entry = self.FUNCTIONS.get(node.op)
        if entry is None:
            raise EmitError(f"the built-in {node.op}() is not supported {self.WHERE}")
        real, integer = entry
        integral = integer is not None and all(arg.type != REAL for arg in node.args)
        return self.function_call(integer if integral else real, node.args, integral)

    # ---------------------------------------------------------------- for subclasses
    def place(self, slot, pre: bool = False) -> str:
        raise NotImplementedError

    def sample_text(self, start, interval, fired: str) -> str:
        raise NotImplementedError

    def binary(self, node) -> str:
        raise NotImplementedError

    def conditional(self, node) -> str:
        raise NotImplementedError

    def branch_value(self, node, type_: str) -> str:
        return self.text(node)

    def declare_result(self, name: str, type_: str) -> str:
        raise NotImplementedError

    def if_open(self, condition: str) -> str:
        raise NotImplementedError

    def function_call(self, name: str, args, integral: bool) -> str:
        raise NotImplementedError
