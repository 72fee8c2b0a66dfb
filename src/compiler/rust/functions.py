"""User functions -> Rust functions, and the calls of model code to them.

Input: the ``flat.Function`` values of a model. Output: ``definitions``: the functions the
model calls (directly or through other functions), and ``call_text``: the Rust that
evaluates one result of a call in model code. A function ``f(x, n) -> (y, k)`` of scalars
becomes ``fn fn_f(m: &ModelData, x: f64, n: i32) -> Result<(f64, i32), Status>`` (one
output: the value itself); the error reports a failed assert. Functions with array
variables, external functions and Strings are refused, located at the function.
"""
from __future__ import annotations

from compiler import flat
from compiler.codegen.errors import EmitError
from compiler.codegen.function_body import BodyWriter
from compiler.codegen.interface import source_place
from compiler.codegen.naming import plain_identifier
from compiler.rust.expressions import (
    BINARY, CAST, CONDITIONAL, FUNCTIONS, PRIMARY, RUST_TYPES, UNARY, rust_constant,
    rust_string)
from compiler.symbolic.expr import BOOLEAN, INTEGER, REAL

INDENT = "    "
_OPERATORS = {".+": "+", ".-": "-", ".*": "*", "./": "/"}
# names a variable of a function must not take: Rust keywords and what bodies call
RESERVED = frozenset(
    "as break const continue crate else enum extern false fn for if impl in let loop match mod "
    "move mut pub ref return self Self static struct super trait true type unsafe use where "
    "while async await dyn abstract become box do final macro override priv typeof unsized "
    "virtual yield try m f64 i32 i64 bool Ok Err Status format_g".split())


class _Local:
    """A scalar variable of a function: Rust name and Modelica type (``sizes`` for the
    typing of ``codegen.function_body``)."""

    def __init__(self, rust_name: str, type_: str):
        self.c_name = rust_name
        self.type = type_
        self.sizes = ()


class RustFunctions:
    """The Rust of a model's user functions (see the module docstring)."""

    def __init__(self, functions):
        self.functions = {item.name: item for item in functions}
        self.used: list[str] = []   # in order of first use
        self.numbers = 0   # calls and branches in model code so far: their locals' names

    def next_number(self) -> int:
        self.numbers += 1
        return self.numbers

    def rust_name(self, function: flat.Function) -> str:
        return f"fn_{plain_identifier(function.name)}"

    @staticmethod
    def identifier(name: str) -> str:
        text = plain_identifier(name)
        return f"{text}_" if text in RESERVED else text

    def use(self, name: str) -> None:
        if name not in self.used:
            self.used.append(name)

    def result_type(self, function: flat.Function) -> str:
        types = [_rust_type(item.type, function) for item in function.outputs]
        return types[0] if len(types) == 1 else f"({', '.join(types)})"

    def signature(self, function: flat.Function) -> str:
        parameters = ["m: &ModelData"] + [
            f"{self.identifier(item.name)}: {_rust_type(item.type, function)}"
            for item in function.inputs]
        return (f"fn {self.rust_name(function)}({', '.join(parameters)}) -> "
                f"Result<{self.result_type(function)}, Status>")

    # ------------------------------------------------------------------- definitions
    def definitions(self) -> list[str]:
        """Every function used so far and those they use."""
        texts, done = [], 0
        while done < len(self.used):
            texts.append(self._definition(self.functions[self.used[done]]))
            done += 1
        return texts

    @staticmethod
    def refuse_unsupported(function: flat.Function) -> None:
        """What the Rust backend does not support in a function, refused at the function."""
        for item in function.inputs + function.outputs + function.locals:
            if item.dims:
                raise EmitError(f"the array {item.name} of function {function.name} is not "
                                "supported by the Rust backend", item.span or function.span)
        if function.external is not None:
            raise EmitError(f"the external function {function.name} is not supported by the "
                            "Rust backend", function.span)
        if not function.outputs:
            raise EmitError(f"the function {function.name} has no output, which the Rust "
                            "backend does not support", function.span)

    def _definition(self, function: flat.Function) -> str:
        self.refuse_unsupported(function)
        locals_ = {item.name: _Local(self.identifier(item.name), item.type)
                   for item in function.inputs}
        body = _Body(self, function, locals_)
        lines = []
        for item in function.outputs + function.locals:
            rust_name = self.identifier(item.name)
            type_ = _rust_type(item.type, function)
            value = body.expr(item.default, item.type) if item.default is not None \
                else _zero(type_)
            lines.append(f"let mut {rust_name}: {type_} = {value};")
            locals_[item.name] = _Local(rust_name, item.type)
        lines += body.statements(function.algorithm)
        lines.append(body.result())
        description = f": {' '.join(function.description.split())}" if function.description \
            else ""
        place = source_place(function.span)
        return "\n".join([
            f"/// {function.name}{description}{f' ({place})' if place else ''}",
            "#[allow(unused_mut, unused_assignments, unused_variables, unreachable_code)]",
            f"{self.signature(function)} {{", *(INDENT + line for line in lines), "}"])

    # ------------------------------------------------------------- calls from model code
    def call_text(self, writer, node) -> str:
        """One result of a call in model code: the call itself goes to the writer's lines
        (once per call and arguments), its results into a local."""
        results = self.call_results(writer, node)
        if node.output >= len(results):
            raise EmitError(f"{node.function}() has no result number {node.output + 1}",
                            self.functions[node.function].span)
        return results[node.output]

    def call_results(self, writer, node) -> list[str]:
        """The texts of the results of a call in model code, made by a call the writer's
        lines get (once per call and arguments)."""
        callee = self.functions.get(node.function)
        if callee is None:
            raise EmitError(f"unknown function {node.function}()")
        self.refuse_unsupported(callee)
        key = (node.function, node.args)
        results = writer.calls.get(key)
        if results is None:
            if len(node.args) != len(callee.inputs):
                raise EmitError(f"{callee.name}() called with {len(node.args)} arguments, not "
                                f"{len(callee.inputs)}", callee.span)
            arguments = [writer.convert(arg, _modelica_type(item.type))
                         for item, arg in zip(callee.inputs, node.args)]
            self.use(callee.name)
            local = f"{self.identifier(callee.name.rsplit('.', 1)[-1])}{self.next_number()}"
            writer.lines.append(f"let {local} = take!({self.rust_name(callee)}(m"
                                f"{''.join(', ' + a for a in arguments)}));")
            count = len(callee.outputs)
            results = [local] if count == 1 else [f"{local}.{k}" for k in range(count)]
            writer.calls[key] = results
        return results


def _modelica_type(type_: str) -> str:
    return type_ if type_ in (REAL, INTEGER, BOOLEAN) else type_


def _rust_type(type_: str, function: flat.Function) -> str:
    if type_ == "String":
        raise EmitError(f"the String variables of function {function.name} are not supported "
                        "by the Rust backend", function.span)
    return RUST_TYPES.get(type_, "i64")


def _zero(type_: str) -> str:
    return {"f64": "0.0", "bool": "false"}.get(type_, "0")


class _Body:
    """Statements and expressions of one function body (flat IR, typed as the C emitter
    types it: ``codegen.function_body.BodyWriter.type_of``)."""

    def __init__(self, code: RustFunctions, function: flat.Function, locals_: dict):
        self.code = code
        self.function = function
        self.locals = locals_
        self.typing = BodyWriter(code, function, locals_)
        self.span = None

    def error(self, what: str) -> EmitError:
        return EmitError(f"{what} in function {self.function.name} is not supported by the "
                         "Rust backend", self.span or self.function.span)

    def result(self) -> str:
        names = [self.locals[item.name].c_name for item in self.function.outputs]
        return f"Ok({names[0]})" if len(names) == 1 else f"Ok(({', '.join(names)}))"

    # ------------------------------------------------------------------------ statements
    # the C body writer's walk over statements (each located at its span, blocks indented by
    # four spaces); `statement` below writes Rust
    statements = BodyWriter.statements
    block = BodyWriter.block

    def statement(self, item) -> list[str]:
        kind = type(item)
        if kind is flat.Assign:
            return self._assign(item)
        if kind is flat.IfStatement:
            lines = []
            for number, (condition, body) in enumerate(item.branches):
                head = f"if {self.expr(condition, BOOLEAN)} {{"
                lines.append(head if number == 0 else f"}} else {head}")
                lines += self.block(body)
            if item.else_:
                lines += ["} else {", *self.block(item.else_)]
            return lines + ["}"]
        if kind is flat.ForStatement:
            return self._for(item)
        if kind is flat.WhileStatement:
            return [f"while {self.expr(item.condition, BOOLEAN)} {{", *self.block(item.body), "}"]
        if kind is flat.Break:
            return ["break;"]
        if kind is flat.Return:
            return [f"return {self.result()};"]
        if kind is flat.Assert:
            return self._assert(item)
        if kind is flat.CallStatement and item.call.name in self.code.functions:
            return [f"{self._call(item.call)};"]
        raise self.error(f"the statement {kind.__name__}")

    def _assign(self, item) -> list[str]:
        target = item.target
        if type(target) is flat.TupleExpr:
            call = item.value
            if type(call) is not flat.Call or call.name not in self.code.functions:
                raise self.error("a tuple assignment from anything but a function call")
            result = f"result{self.code.next_number()}"
            lines = [f"let {result} = {self._call(call)};"]
            for k, element in enumerate(target.elements):
                if element is not None:
                    lines.append(f"{self._lvalue(element)} = {result}.{k};")
            return lines
        return [f"{self._lvalue(target)} = {self.expr(item.value, self._type(target))};"]

    def _lvalue(self, target) -> str:
        if type(target) is flat.Var and target.name in self.locals:
            return self.locals[target.name].c_name
        raise self.error(f"assigning to {type(target).__name__}")

    def _for(self, item) -> list[str]:
        range_ = item.range
        if type(range_) is not flat.RangeExpr or self._type(range_) != INTEGER or \
                range_.step is not None:
            raise self.error("a for-loop over anything but an Integer range with step 1")
        index = self.code.identifier(item.index)
        shadowed = self.locals.get(item.index)   # a protected variable of the same name
        self.locals[item.index] = _Local(index, INTEGER)
        try:
            return [f"for {index} in ({self.expr(range_.start, INTEGER)})..=({self.expr(range_.stop, INTEGER)}) {{",
                    *self.block(item.body), "}"]
        finally:
            if shadowed is None:
                del self.locals[item.index]
            else:
                self.locals[item.index] = shadowed

    def _assert(self, item) -> list[str]:
        where = source_place(item.span)
        error = item.level == "error"
        status, category = ("Status::Error", "logStatusError") if error else \
            ("Status::Warning", "logStatusWarning")
        parts, arguments = self._message(item.message)
        head = (f"{where + ': ' if where else ''}assertion {'failed' if error else 'warning'} "
                f"in function {self.function.name}: ").replace("{", "{{").replace("}", "}}")
        message = f"format!({rust_string(head + parts)}{''.join(', ' + a for a in arguments)})"
        lines = [f"if !({self.expr(item.condition, BOOLEAN)}) {{",
                 f'{INDENT}m.log({status}, "{category}", &{message});']
        if error:
            lines.append(f"{INDENT}return Err(Status::Error);")
        return lines + ["}"]

    def _message(self, node) -> tuple[str, list[str]]:
        """format! text and arguments of a message: literals, String(x) and +."""
        if type(node) is flat.Const and isinstance(node.value, str):
            return node.value.replace("{", "{{").replace("}", "}}"), []
        if type(node) is flat.Binary and node.op == "+":
            left, right = self._message(node.left), self._message(node.right)
            return left[0] + right[0], left[1] + right[1]
        value = node.args[0] if type(node) is flat.Call and node.name == "String" \
            and len(node.args) == 1 else node
        type_ = self._type(value)
        if type_ == REAL:
            return "{}", [f"format_g({self.expr(value, REAL)}, 6)"]
        if type_ == BOOLEAN:
            return "{}", [f"format_boolean({self.expr(value, BOOLEAN)})"]
        if type_ == INTEGER:
            return "{}", [self.expr(value, INTEGER)]
        raise self.error("this assert message")

    # ------------------------------------------------------------------------ expressions
    def _type(self, node) -> str:
        return self.typing.type_of(node)

    def expr(self, node, type_: str | None = None, level: int = CONDITIONAL) -> str:
        """Rust text of ``node`` as a value of ``type_`` (default: its own), parenthesized
        unless it binds tighter than ``level``."""
        own = self._type(node)
        text, precedence = self._text(node)
        if type_ in (REAL, INTEGER) and own != type_ and own not in (BOOLEAN, "String"):
            if type(node) is flat.Const:
                text, precedence = rust_constant(node.value, type_), PRIMARY
                precedence = UNARY if text.startswith("-") else PRIMARY
            else:
                inner = f"({text})" if precedence <= CAST else text
                text, precedence = f"{inner} as {RUST_TYPES[type_]}", CAST
        return f"({text})" if precedence <= level else text

    def _text(self, node) -> tuple[str, int]:
        kind = type(node)
        if kind is flat.Const:
            value = node.value
            if isinstance(value, str):
                raise self.error(f"the String {value!r}")
            text = rust_constant(value, self._type(node))
            return text, UNARY if text.startswith("-") else PRIMARY
        if kind is flat.EnumConst:
            return str(node.ordinal), PRIMARY
        if kind is flat.Var:
            local = self.locals.get(node.name)
            if local is None:
                raise self.error(f"the variable {node.name}")
            return local.c_name, PRIMARY
        if kind is flat.Unary:
            if node.op == "not":
                return f"!{self.expr(node.operand, BOOLEAN, UNARY)}", UNARY
            operand = self.expr(node.operand, None, UNARY)
            return (f"-({operand})" if operand.startswith("-") else f"-{operand}"), UNARY
        if kind is flat.Binary:
            return self._binary(node)
        if kind is flat.IfExpr:
            type_ = self._type(node)
            return (f"if {self.expr(node.condition, BOOLEAN)} {{ {self.expr(node.then, type_)} }} "
                    f"else {{ {self.expr(node.else_, type_)} }}"), CONDITIONAL
        if kind is flat.Call:
            return self._call_expression(node), PRIMARY
        raise self.error(f"the expression {type(node).__name__}")

    def _binary(self, node) -> tuple[str, int]:
        op = _OPERATORS.get(node.op, node.op)
        if op == "^":
            left_type, right_type = self._type(node.left), self._type(node.right)
            if left_type == INTEGER and right_type == INTEGER:
                return f"integer_power({self.expr(node.left)}, {self.expr(node.right)})", PRIMARY
            return f"f64::powf({self.expr(node.left, REAL)}, {self.expr(node.right, REAL)})", PRIMARY
        if op not in BINARY:
            raise self.error(f"the operator {node.op}")
        symbol, level = BINARY[op]
        if op in ("and", "or"):
            inner = BINARY["and"][1] if op == "or" else level - 1
            return f"{self.expr(node.left, BOOLEAN, inner)} {symbol} " \
                   f"{self.expr(node.right, BOOLEAN, inner if op == 'or' else level)}", level
        left_type, right_type = self._type(node.left), self._type(node.right)
        if symbol in ("<", "<=", ">", ">=", "==", "!="):
            common = left_type if left_type == right_type else \
                REAL if REAL in (left_type, right_type) else INTEGER
            return f"{self.expr(node.left, common, level)} {symbol} " \
                   f"{self.expr(node.right, common, level)}", level
        type_ = REAL if op == "/" else self._type(node)
        return f"{self.expr(node.left, type_, level - 1)} {symbol} " \
               f"{self.expr(node.right, type_, level)}", level

    def _call(self, node) -> str:
        callee = self.code.functions[node.name]
        if len(node.args) != len(callee.inputs):
            raise self.error(f"a call of {callee.name} with {len(node.args)} arguments")
        self.code.use(callee.name)
        arguments = [self.expr(arg, item.type if item.type in (REAL, INTEGER) else None)
                     for item, arg in zip(callee.inputs, node.args)]
        return f"{self.code.rust_name(callee)}(m{''.join(', ' + a for a in arguments)})?"

    def _call_expression(self, node) -> str:
        name = node.name
        if name in self.code.functions:
            callee = self.code.functions[name]
            call = self._call(node)
            return call if len(callee.outputs) == 1 else f"{call}.0"
        if name == "noEvent" and len(node.args) == 1:
            return f"({self.expr(node.args[0])})"
        if name == "Integer" and len(node.args) == 1:
            return f"({self.expr(node.args[0], None, CAST)} as i32)"
        entry = FUNCTIONS.get(name)
        if entry is None:
            raise self.error(f"the call of {name}()")
        real, integer = entry
        types = [self._type(arg) for arg in node.args]
        if integer is not None and REAL not in types:
            return f"{integer}({', '.join(self.expr(arg, INTEGER) for arg in node.args)})"
        return f"{real}({', '.join(self.expr(arg, REAL) for arg in node.args)})"
