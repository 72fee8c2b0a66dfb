"""The body of one user function -> C statements (flat statements and expressions, typed).

Input: a ``flat.Function`` and the ``FunctionCode`` of the model (names and signatures of the
other functions). Output: C lines. Scalars map to C scalars; arrays are flat row-major C arrays
with their sizes in ``<name>_n<k>``; array expressions are evaluated element by element in
loops (element-wise operators, literals, ranges, slices, zeros/ones/fill, sum/product/min/max);
matrix products and calls that need statements first go to ``pre`` before their statement.
"""
from __future__ import annotations

from compiler import flat
from compiler.codegen.cexpr import c_constant
from compiler.codegen.errors import EmitError
from compiler.codegen.interface import source_place
from compiler.codegen.matrix_builtins import MATRIX_BUILTINS, matrix_element, matrix_shape, \
    matrix_type
from compiler.flatten.walk import nodes
from compiler.fmu.c_tables import c_string

INDENT = "    "
_C_INFIX = {"+": "+", "-": "-", "*": "*", "/": "/", ".+": "+", ".-": "-", ".*": "*", "./": "/",
            "<": "<", "<=": "<=", ">": ">", ">=": ">=", "==": "==", "<>": "!=", "and": "&&",
            "or": "||"}
_RELATIONS = ("<", "<=", ">", ">=", "==", "<>", "and", "or")
# element-wise built-ins: Real function, Integer function (None: as Real)
MATH = {
    **{name: (name, None) for name in ("sin", "cos", "tan", "asin", "acos", "atan", "sinh",
                                        "cosh", "tanh", "exp", "log", "log10", "sqrt", "atan2",
                                        "floor", "ceil")},
    "abs": ("fabs", "integer_abs"), "sign": ("modelica_sign", "integer_sign"),
    "div": ("modelica_div", "integer_div"), "mod": ("modelica_mod", "integer_mod"),
    "rem": ("modelica_rem", "integer_rem"), "integer": ("modelica_integer", None),
    "noEvent": ("", ""),
}
REDUCTIONS = {"sum": ("+=", "0"), "product": ("*=", "1")}


class Local:
    """A variable of the function: C name, Modelica type, C size names (arrays)."""

    def __init__(self, c_name: str, type_: str, sizes: tuple[str, ...] = ()):
        self.c_name = c_name
        self.type = type_
        self.sizes = sizes

    @property
    def count(self) -> str:
        return " * ".join(self.sizes) if self.sizes else "1"


class BodyWriter:
    """Statements and expressions of one function body."""

    def __init__(self, code, function: flat.Function, locals_: dict):
        self.code = code
        self.function = function
        self.locals = locals_
        self.pre: list[str] = []   # statements an expression needs before it (reductions)
        self.span = None   # of the statement being written, for errors
        self.counter = 0
        # every variable and loop index of the function, even those declared after a helper
        # (``k2`` of a call's result before the protected ``k2``)
        names = [item.name for item in function.inputs + function.outputs + function.locals]
        names += [node.index for node in nodes(function.algorithm)
                  if type(node) is flat.ForStatement]
        self.own_names = frozenset(map(code.identifier, names))

    def fresh(self, stem: str) -> str:
        """A new C name for a helper local, unlike the function's own variables."""
        taken = {local.c_name for local in self.locals.values()} | self.own_names
        while True:
            self.counter += 1
            name = f"{stem}{self.counter}"
            if name not in taken:
                return name

    def error(self, what: str, span=None) -> EmitError:
        return EmitError(f"{what} in function {self.function.name} is not supported by the C "
                         "code generator", span or self.span or self.function.span)

    # ------------------------------------------------------------------------- statements
    def statements(self, items) -> list[str]:
        lines = []
        for item in items:
            outer, self.span = self.span, getattr(item, "span", None) or self.span
            lines.extend(self.statement(item))
            self.span = outer
        return lines

    def block(self, items) -> list[str]:
        return [INDENT + line for line in self.statements(items)]

    def statement(self, item) -> list[str]:
        kind = type(item)
        if kind is flat.Assign:
            return self._assign(item)
        if kind is flat.IfStatement:
            return self._if(item)
        if kind is flat.ForStatement:
            return self._for(item)
        if kind is flat.WhileStatement:
            condition = self.expr(item.condition)
            pre = self.take()
            if not pre:
                return [f"while ({_bare(condition)}) {{", *self.block(item.body), "}"]
            return ["for (;;) {", *[INDENT + line for line in pre],
                    f"{INDENT}if (!({condition})) break;", *self.block(item.body), "}"]
        if kind is flat.Break:
            return ["break;"]
        if kind is flat.Return:
            return self.code.return_lines(self.function, self.locals)
        if kind is flat.Assert:
            return self._assert(item)
        if kind is flat.CallStatement:
            call = item.call
            if call.name in self.code.functions:
                return self._call_statement(call, ())
            raise self.error(f"the statement {call.name}()", item.span)
        raise self.error(f"the statement {kind.__name__}", getattr(item, "span", None))

    def take(self) -> list[str]:
        pre, self.pre = self.pre, []
        return pre

    def _if(self, item) -> list[str]:
        lines, closing = [], 0
        for number, (condition, body) in enumerate(item.branches):
            text = self.expr(condition)
            pre = self.take()
            if number and pre:   # the condition needs statements: nest an if in the else
                lines.append("} else {")
                lines.extend(INDENT * (closing + 1) + line for line in pre)
                lines.append(INDENT * (closing + 1) + f"if ({_bare(text)}) {{")
                closing += 1
            else:
                lines.extend(pre)
                lines.append(f"{'} else if' if number else 'if'} ({_bare(text)}) {{")
            lines.extend(INDENT * closing + line for line in self.block(body))
        if item.else_:
            lines.append(INDENT * closing + "} else {")
            lines.extend(INDENT * closing + line for line in self.block(item.else_))
        for level in range(closing, -1, -1):
            lines.append(INDENT * level + "}")
        return lines

    def _for(self, item) -> list[str]:
        index = self.code.identifier(item.index)
        range_ = item.range
        if type(range_) is not flat.RangeExpr or self.type_of(range_) != "Integer":
            raise self.error("a for-loop over anything but an Integer range", item.span)
        start, stop = _bare(self.expr(range_.start)), _bare(self.expr(range_.stop))
        step = self.expr(range_.step) if range_.step is not None else "1"
        pre = self.take()
        shadowed = self.locals.get(item.index)   # a protected variable of the same name
        self.locals[item.index] = Local(index, "Integer")
        compare = "<=" if not step.startswith("-") else ">="
        advance = f"{index}++" if step == "1" else f"{index} += {_bare(step)}"
        head = f"for (int32_t {index} = {start}; {index} {compare} {stop}; {advance}) {{"
        try:
            return pre + [head, *self.block(item.body), "}"]
        finally:
            if shadowed is None:
                del self.locals[item.index]
            else:
                self.locals[item.index] = shadowed

    def _assert(self, item) -> list[str]:
        condition = self.expr(item.condition)
        parts, arguments = self._message(item.message, item.span)
        where = source_place(item.span)
        error = item.level == "error"
        status, category = ("StatusError", "logStatusError") if error else \
            ("StatusWarning", "logStatusWarning")
        head = (f"{where + ': ' if where else ''}assertion {'failed' if error else 'warning'} "
                f"in function {self.function.name}: {parts}")
        log = (f'model_log(m, {status}, "{category}", {c_string(head)}'
               f'{"".join(", " + text for text in arguments)});')
        lines = self.take() + [f"if (!({_bare(condition)})) {{", INDENT + log]
        if error:
            lines.append(INDENT + self.code.failure_line())
        return lines + ["}"]

    def _message(self, node, span) -> tuple[str, list[str]]:
        """printf format and arguments of a message: literals, String(x) and +."""
        if type(node) is flat.Const and isinstance(node.value, str):
            return node.value.replace("%", "%%"), []
        if type(node) is flat.Binary and node.op == "+":
            left, right = self._message(node.left, span), self._message(node.right, span)
            return left[0] + right[0], left[1] + right[1]
        value = node.args[0] if type(node) is flat.Call and node.name == "String" \
            and len(node.args) == 1 else node
        type_ = self.type_of(value)
        if type_ == "Real":
            return "%g", [_bare(self.expr(value))]
        if type_ == "Integer":
            return "%d", [f"(int){self.expr(value)}"]
        if type_ == "Boolean":
            return "%s", [f'{self.expr(value)} ? "true" : "false"']
        if type_ == "String":   # String(x, options), calls, variables
            return "%s", [_bare(self.expr(value))]
        raise self.error("this assert message", span)

    def _assign(self, item) -> list[str]:
        target = item.target
        if type(target) is flat.TupleExpr:
            call = item.value
            if type(call) is not flat.Call or call.name not in self.code.functions:
                raise self.error("a tuple assignment from anything but a function call", item.span)
            return self._call_statement(call, target.elements)
        if type(target) is flat.Var and self.locals[target.name].sizes:
            return self._array_assign(self.locals[target.name], item.value, item.span)
        if type(target) is flat.Index and any(type(item) is flat.RangeExpr
                                              for item in target.subscripts):
            return self._slice_assign(target, item.value)
        target_text = self.lvalue(target)
        value = self.expr(item.value)
        return self.take() + [f"{target_text} = {_bare(value)};"]

    def _array_assign(self, local: Local, value, span) -> list[str]:
        if type(value) is flat.Call and value.name in self.code.functions:
            return self._call_statement(value, (flat.Var(_name_of(self.locals, local)),))
        k = self.fresh("k")
        element = self.element(value, k)
        return self.take() + [f"for (size_t {k} = 0; {k} < {local.count}; {k}++) "
                              f"{local.c_name}[{k}] = {element};"]

    def _slice_assign(self, target, value) -> list[str]:
        """``x[i:j, ...] := value``, element by element; the value is copied first when it
        reads the array assigned (``x[2:3] := x[1:2]``)."""
        count = " * ".join(self.shape(target))
        k = self.fresh("k")
        if target.base.name in _names(value):
            type_ = self.code.c_type(self.type_of(value))
            temp, j = self.fresh("array"), self.fresh("k")
            self.pre += [f"{type_} {temp}[{array_size(count)}];",
                         f"for (size_t {j} = 0; {j} < {count}; {j}++) {temp}[{j}] = "
                         f"{self.element(value, j)};"]
            element = f"{temp}[{k}]"
        else:
            element = self.element(value, k)
        return self.take() + [f"for (size_t {k} = 0; {k} < {count}; {k}++) "
                              f"{self._indexed(target, k)} = {element};"]

    def _call_statement(self, call, targets) -> list[str]:
        """A call of a user function whose outputs go to ``targets`` (None: discarded)."""
        callee = self.code.functions[call.name]
        # an input is a value: an array the call also writes (x := f(x)) is passed as a copy
        written = set().union(*(_names(target) for target in targets if target is not None))
        arguments = self.code.argument_texts(self, callee, call.args, written)
        lines = self.take()
        outputs = []
        for position, output in enumerate(callee.outputs):
            target = targets[position] if position < len(targets) else None
            if target is None:
                scratch = self.fresh("unused")
                sizes = self.code.output_sizes(self, callee, call.args, output)
                count = " * ".join(sizes) if sizes else "1"
                lines.append(f"{self.code.c_type(output.type)} {scratch}[{array_size(count)}];")
                outputs.append(scratch)
            elif output.dims:
                outputs.append(self.locals[target.name].c_name)
            else:
                outputs.append(f"&{self.lvalue(target)}")
        self.code.use(call.name)
        return lines + [f"CHECK({self.code.c_name(callee)}(m{''.join(', ' + _bare(a) for a in arguments + outputs)}));"]

    def lvalue(self, target) -> str:
        if type(target) is flat.Var:
            local = self.locals.get(target.name)
            if local is None:
                raise self.error(f"assigning '{target.name}'")
            return local.c_name
        if type(target) is flat.Index:
            if any(type(item) is flat.RangeExpr for item in target.subscripts):
                raise self.error("assigning to an array slice")
            return self._indexed(target)
        raise self.error(f"assigning to {type(target).__name__}")

    # ------------------------------------------------------------------------ expressions
    def type_of(self, node) -> str:
        kind = type(node)
        if kind is flat.Const:
            value = node.value
            return "Boolean" if isinstance(value, bool) else "Integer" if isinstance(value, int) \
                else "String" if isinstance(value, str) else "Real"
        if kind is flat.EnumConst:
            return node.type
        if kind is flat.Var:
            return self.locals[node.name].type if node.name in self.locals else "Real"
        if kind is flat.Index:
            return self.type_of(node.base)
        if kind is flat.Unary:
            return "Boolean" if node.op == "not" else self.type_of(node.operand)
        if kind is flat.Binary:
            if node.op in _RELATIONS:
                return "Boolean"
            if node.op in ("/", "./"):
                return "Real"
            return _promote(self.type_of(node.left), self.type_of(node.right))
        if kind is flat.IfExpr:
            return _promote(self.type_of(node.then), self.type_of(node.else_))
        if kind is flat.Call:
            return self._call_type(node)
        if kind is flat.ArrayExpr:
            return _promote(*(self.type_of(item) for item in node.elements)) if node.elements \
                else "Real"
        if kind is flat.RangeExpr:
            parts = [node.start, node.stop] + ([node.step] if node.step is not None else [])
            return _promote(*(self.type_of(item) for item in parts))
        return "Real"

    def _call_type(self, node) -> str:
        name = node.name
        if name in self.code.functions:
            return self.code.functions[name].outputs[0].type
        if name in ("size", "integer", "Integer", "ndims"):
            return "Integer"
        if name in ("String", "loadResource"):
            return "String"
        if name == "smooth":
            return self.type_of(node.args[1])
        if name == "cat":
            return _promote(*(self.type_of(arg) for arg in node.args[1:]))
        if name in MATRIX_BUILTINS:
            return matrix_type(self, node)
        if name in ("sum", "product", "min", "max", "abs", "sign", "div", "mod", "rem", "noEvent",
                    "fill"):
            return _promote(*(self.type_of(arg) for arg in node.args[:1 if name == "fill" else None]))
        return "Real"

    def shape(self, node) -> tuple[str, ...]:
        """C expressions of the sizes of an array expression; () for a scalar."""
        kind = type(node)
        if kind is flat.Var:
            local = self.locals.get(node.name)
            return local.sizes if local else ()
        if kind is flat.Index:
            return tuple(self._slice_count(item) for item in node.subscripts
                         if type(item) is flat.RangeExpr)
        if kind is flat.Unary:
            return self.shape(node.operand)
        if kind is flat.Binary:
            left, right = self.shape(node.left), self.shape(node.right)
            if node.op == "*" and left and right:
                if len(left) > 2 or len(right) > 2:
                    raise self.error("a product of arrays of more than two dimensions")
                # vector * vector is a scalar; matrix products keep the outer dimensions
                return left[:-1] + right[1:]
            return left or right
        if kind is flat.IfExpr:
            return self.shape(node.then)
        if kind is flat.ArrayExpr:
            inner = self.shape(node.elements[0]) if node.elements else ()
            return (str(len(node.elements)),) + inner
        if kind is flat.RangeExpr:
            return (f"(size_t)({self._range_count(node)})",)
        if kind is flat.Call:
            if node.name in ("zeros", "ones"):
                return tuple(_size_t(self.expr(arg)) for arg in node.args)
            if node.name == "cross":
                return ("3",)
            if node.name in MATRIX_BUILTINS:
                return matrix_shape(self, node)
            if node.name == "smooth":
                return self.shape(node.args[1])
            if node.name == "cat":
                parts = [self.shape(arg) for arg in self._first_dimension_parts(node)]
                return (" + ".join(f"({part[0]})" for part in parts),) + parts[0][1:]
            if node.name == "fill":
                return tuple(_size_t(self.expr(arg)) for arg in node.args[1:])
            if node.name in MATH and node.args:
                return self.shape(node.args[0])
            callee = self.code.functions.get(node.name)
            if callee is not None and callee.outputs and callee.outputs[0].dims:
                return self.code.output_sizes(self, callee, node.args, callee.outputs[0])
        return ()

    def expr(self, node) -> str:
        kind = type(node)
        if self.shape(node):
            raise self.error("an array expression where a scalar is needed")
        if kind is flat.Const:
            return c_constant(node.value, self.type_of(node))
        if kind is flat.EnumConst:
            return str(node.ordinal)
        if kind is flat.Var:
            local = self.locals.get(node.name)
            if local is None:
                raise self.error(f"the variable '{node.name}'")
            return local.c_name
        if kind is flat.Index:
            return self._indexed(node)
        if kind is flat.Unary:
            return f"!({self.expr(node.operand)})" if node.op == "not" else f"-({self.expr(node.operand)})"
        if kind is flat.Binary:
            return self._binary(node, self.expr)
        if kind is flat.IfExpr:
            return self._if_expression(node)
        if kind is flat.Call:
            return self._call(node)
        raise self.error(f"the expression {kind.__name__}")

    def _if_expression(self, node) -> str:
        """``c ? a : b``; a branch that needs statements first (a call, a reduction) makes it
        an if-statement, so that only the branch taken is evaluated (recursion ends)."""
        condition = self.expr(node.condition)
        outer = self.take()
        then = self.expr(node.then)
        then_pre = self.take()
        else_ = self.expr(node.else_)
        else_pre = self.take()
        if not then_pre and not else_pre:
            self.pre = outer
            return f"({condition} ? {then} : {else_})"
        result = self.fresh("value")
        self.pre = outer + [
            f"{self.code.c_type(self.type_of(node))} {result};", f"if ({_bare(condition)}) {{",
            *(INDENT + line for line in then_pre), f"{INDENT}{result} = {then};", "} else {",
            *(INDENT + line for line in else_pre), f"{INDENT}{result} = {else_};", "}"]
        return result

    def _binary(self, node, operand) -> str:
        op = node.op
        if self.type_of(node.left) == "String" or self.type_of(node.right) == "String":
            return self._string_binary(node, operand)
        if op in ("^", ".^"):
            if self.type_of(node.left) == "Integer" and self.type_of(node.right) == "Integer":
                return f"integer_power({operand(node.left)}, {operand(node.right)})"
            return f"pow({operand(node.left)}, {operand(node.right)})"
        if op == "*" and self.shape(node.left) and self.shape(node.right):
            return self._reduce("+=", "0", flat.Binary(".*", node.left, node.right))
        left = operand(node.left)
        if op in ("/", "./") and self.type_of(node.left) == "Integer" and \
                self.type_of(node.right) == "Integer":
            left = f"(double)({left})"
        return f"({left} {_C_INFIX[op]} {operand(node.right)})"

    def _string_binary(self, node, operand) -> str:
        """``a + b`` (concatenation) and the relations of Strings."""
        left, right = _bare(operand(node.left)), _bare(operand(node.right))
        self.code.support = True
        if node.op == "+":
            return f"string_concat(m, {left}, {right})"
        if node.op not in _RELATIONS[:6]:
            raise self.error(f"the operator {node.op} on Strings")
        return f"(string_compare({left}, {right}) {_C_INFIX[node.op]} 0)"

    def _string(self, args) -> str:
        """``String(x)``, ``String(x, format)``, ``String(x, minimumLength, leftJustified,
        significantDigits)`` (external_support.h)."""
        self.code.support = True
        value = _bare(self.expr(args[0]))
        type_ = self.type_of(args[0])
        if len(args) == 2:
            return f"string_formatted(m, {value}, {_bare(self.expr(args[1]))})"
        options = [_bare(self.expr(arg)) for arg in args[1:]] or ["0", "true", "6"]
        if type_ == "Real":
            return f"string_of_real(m, {value}, {', '.join(options)})"
        if type_ == "Boolean":
            return f"string_of_boolean(m, {value}, {', '.join(options[:2])})"
        if type_ in self.code.enumerations:
            name = self.code.literal_name(type_, value)
            return f"string_padded(m, {name}, {', '.join(options[:2])})" if args[1:] else name
        if type_ == "String":
            return f"string_padded(m, {value}, {', '.join(options[:2])})" if args[1:] else value
        return f"string_of_integer(m, {value}, {', '.join(options[:2])})"

    def _indexed(self, node, position: str | None = None) -> str:
        """An element of an array variable; for a slice (ranges among the subscripts) the
        one at flat position ``position`` of the slice."""
        if type(node.base) is not flat.Var or node.base.name not in self.locals:
            raise self.error("indexing anything but an array variable")
        local = self.locals[node.base.name]
        if len(node.subscripts) != len(local.sizes):
            raise self.error(f"indexing '{node.base.name}' with {len(node.subscripts)} subscripts")
        ranges = [item for item in node.subscripts if type(item) is flat.RangeExpr]
        counts = [self._slice_count(item) for item in ranges]
        offset = ""
        for k, subscript in enumerate(node.subscripts):
            if type(subscript) is flat.RangeExpr:
                j = ranges.index(subscript)
                within = " * ".join(counts[j + 1:])
                place = f"{position} / ({within})" if within else position
                place = f"({place}) % {counts[j]}" if j else place
                index = self._range_element(subscript, place)
            else:
                index = _zero_based(subscript, self.expr(subscript))
            offset = index if k == 0 or offset == "0" else \
                f"{_grouped(offset)} * {local.sizes[k]} + {index}"
        return f"{local.c_name}[{offset}]"

    def _slice_count(self, node) -> str:
        if node.step is None and type(node.start) is flat.Const and node.start.value == 1:
            return _size_t(self.expr(node.stop))   # 1:n, the colon among them
        return _size_t(self._range_count(node))

    def _range_element(self, node, place: str) -> str:
        """The zero-based subscript at position ``place`` of a range subscript."""
        if node.step is None and type(node.start) is flat.Const and node.start.value == 1:
            return place
        step = self.expr(node.step) if node.step is not None else "1"
        return f"{self.expr(node.start)} - 1 + (int32_t)({place}) * {step}"

    def _call(self, node) -> str:
        name, args = node.name, node.args
        if name in self.code.functions:
            callee = self.code.functions[name]
            if not callee.outputs or callee.outputs[0].dims:
                raise self.error(f"a call of {name}() inside an expression (its first result "
                                 "is an array: assign it with a statement)")
            result = self.fresh(self.code.identifier(callee.outputs[0].name))
            self.locals[f"${result}"] = Local(result, callee.outputs[0].type)
            lines = self._call_statement(node, (flat.Var(f"${result}"),))   # takes self.pre
            self.pre = lines[:-1] + [f"{self.code.c_type(callee.outputs[0].type)} {result};", lines[-1]]
            return result
        if name == "size":
            local = self.locals.get(args[0].name) if type(args[0]) is flat.Var else None
            if local is None or len(args) != 2 or type(args[1]) is not flat.Const:
                raise self.error("size() of anything but an array variable and a literal dimension")
            return f"(int32_t){local.sizes[int(args[1].value) - 1]}"
        if name in REDUCTIONS and len(args) == 1:
            return self._reduce(*REDUCTIONS[name], args[0])
        if name in ("min", "max") and len(args) == 1:
            return self._extreme(name, args[0])
        if name in ("min", "max") and len(args) == 2:
            integral = all(self.type_of(arg) == "Integer" for arg in args)
            function = f"integer_{name}" if integral else f"f{name}"
            return f"{function}({self.expr(args[0])}, {self.expr(args[1])})"
        if name == "Integer":
            return f"(int32_t)({self.expr(args[0])})"
        if name == "String":
            return self._string(args)
        if name == "smooth":
            return self.expr(args[1])
        if name == "loadResource":
            return self.code.resource(args[0].value, args[1].value)
        if name in MATH:
            return self._math(name, args, self.expr)
        raise self.error(f"the built-in {name}()")

    def _math(self, name: str, args, operand) -> str:
        real, integer = MATH[name]
        if name == "noEvent":
            return operand(args[0])
        integral = integer is not None and all(self.type_of(arg) == "Integer" for arg in args)
        return f"{integer if integral else real}({', '.join(operand(arg) for arg in args)})"

    # --------------------------------------------------------------- arrays element-wise
    def element(self, node, index: str) -> str:
        """The scalar at flat (row-major) position ``index`` of an array expression."""
        kind = type(node)
        if not self.shape(node):
            return self.expr(node)
        if kind is flat.Var:
            return f"{self.locals[node.name].c_name}[{index}]"
        if kind is flat.Index:
            return self._indexed(node, index)
        if kind is flat.Unary:
            return f"-({self.element(node.operand, index)})"
        if kind is flat.Binary:
            if node.op == "*" and self.shape(node.left) and self.shape(node.right):
                return f"{self._matrix_product(node)}[{index}]"
            return self._binary(node, lambda item: self.element(item, index))
        if kind is flat.ArrayExpr:
            items = _flattened(node)
            if any(self.shape(item) for item in items):   # {cos(phi), sin(phi)}
                return f"{self._stacked(items)}[{index}]"
            type_ = self.code.c_type(self.type_of(node))
            constant = type_ if type_.startswith("const ") else f"const {type_}"  # (strings)
            return f"(({constant}[]){{{', '.join(self.expr(item) for item in items)}}})[{index}]"
        if kind is flat.RangeExpr:
            step = self.expr(node.step) if node.step is not None else "1"
            return f"({self.expr(node.start)} + (int32_t)({index}) * {step})"
        if kind is flat.IfExpr:
            return (f"({self.expr(node.condition)} ? {self.element(node.then, index)} : "
                    f"{self.element(node.else_, index)})")
        if kind is flat.Call:
            if node.name in ("zeros", "ones"):
                return "0" if node.name == "zeros" else "1"
            if node.name == "fill":
                return self.expr(node.args[0])
            if node.name in MATH:
                return self._math(node.name, node.args, lambda item: self.element(item, index))
            if node.name in self.code.functions:
                return f"{self._array_result(node)}[{index}]"
            if node.name == "cross":
                return self._cross(node, index)
            if node.name == "cat":   # along the first dimension: the parts one after another
                return f"{self._stacked(self._first_dimension_parts(node))}[{index}]"
            if node.name in MATRIX_BUILTINS:
                return matrix_element(self, node, index)
            if node.name == "smooth":   # smooth(p, e): e, with p derivatives (MLS 3.7.4.3)
                return self.element(node.args[1], index)
        raise self.error(f"the array expression {kind.__name__}")

    def _first_dimension_parts(self, node) -> tuple:
        """The arrays ``cat(1, a, b, ...)`` joins (other dimensions are not supported)."""
        dimension, parts = node.args[0], node.args[1:]
        if type(dimension) is not flat.Const or dimension.value != 1 or not parts or \
                not all(self.shape(part) for part in parts):
            raise self.error("cat() of anything but arrays along their first dimension")
        return parts

    def _cross(self, node, index: str) -> str:
        """Element ``index`` of cross(a, b) of 3-vectors: a[i+1] b[i+2] - a[i+2] b[i+1]."""
        (a, _), (b, _) = (self.materialized(arg, "Real") for arg in node.args)
        following, after = f"(({index}) + 1) % 3", f"(({index}) + 2) % 3"
        return f"({a}[{following}] * {b}[{after}] - {a}[{after}] * {b}[{following}])"

    def _array_result(self, node) -> str:
        """A local array holding the array result of a call inside an expression
        (statements in ``pre``)."""
        callee = self.code.functions[node.name]
        sizes = self.shape(node)
        result = self.fresh(self.code.identifier(callee.outputs[0].name))
        self.locals[f"${result}"] = Local(result, callee.outputs[0].type, sizes)
        lines = self._call_statement(node, (flat.Var(f"${result}"),))   # takes self.pre
        declaration = f"{self.code.c_type(callee.outputs[0].type)} {result}" \
                      f"[{array_size(' * '.join(sizes))}];"
        self.pre = lines[:-1] + [declaration, lines[-1]]
        return result

    def _stacked(self, items) -> str:
        """A local array holding the array expressions ``items`` one after the other (the
        rows of an array literal whose elements are arrays; statements in ``pre``)."""
        type_ = self.code.c_type(self.type_of(items[0]))
        counts = [" * ".join(self.shape(item)) for item in items]
        temp = self.fresh("rows")
        lines = [f"{type_} {temp}[{array_size(' + '.join(f'({c})' for c in counts))}];"]
        offset = "0"
        for item, count in zip(items, counts):
            k = self.fresh("k")
            lines.append(f"for (size_t {k} = 0; {k} < {count}; {k}++) "
                         f"{temp}[{offset} + {k}] = {self.element(item, k)};")
            offset = f"{offset} + {count}" if offset != "0" else count
        self.pre += lines
        return temp

    def _matrix_product(self, node) -> str:
        """A local array holding the product A*B, A*x or x*A (statements in ``pre``)."""
        left, left_sizes = self.materialized(node.left)
        right, right_sizes = self.materialized(node.right)
        rows = left_sizes[0] if len(left_sizes) == 2 else "1"
        inner = left_sizes[-1]
        columns = right_sizes[1] if len(right_sizes) == 2 else "1"
        result, total = self.fresh("product"), self.fresh("sum")
        i = self.fresh("i") if rows != "1" else None   # vectors need no loop over their 1
        j = self.fresh("j") if columns != "1" else None
        k = self.fresh("k")
        type_ = self.code.c_type(self.type_of(node))
        left_index = f"{i} * {inner} + {k}" if i else k
        right_index = f"{k} * {columns} + {j}" if j else k
        result_index = f"{i} * {columns} + {j}" if i and j else i or j
        lines = [f"{type_} {total} = 0;",
                 f"for (size_t {k} = 0; {k} < {inner}; {k}++) "
                 f"{total} += {left}[{left_index}] * {right}[{right_index}];",
                 f"{result}[{result_index}] = {total};"]
        for index, count in ((j, columns), (i, rows)):
            if index:
                lines = [f"for (size_t {index} = 0; {index} < {count}; {index}++) {{",
                         *(INDENT + line for line in lines), "}"]
        size = " * ".join(size for size in (rows, columns) if size != "1")
        self.pre += [f"{type_} {result}[{array_size(size)}];", *lines]
        return result

    def materialized(self, node, type_: str | None = None,
                     copy: bool = False) -> tuple[str, tuple[str, ...]]:
        """(C array, sizes) of an array expression: a variable itself (of Modelica type
        ``type_`` if given) unless ``copy``, else a local array its elements are copied into
        (statements in ``pre``)."""
        shape = self.shape(node)
        type_ = type_ or self.type_of(node)
        if type(node) is flat.Var and self.locals[node.name].type == type_ and not copy:
            return self.locals[node.name].c_name, shape
        temp, k = self.fresh("array"), self.fresh("k")
        total = " * ".join(shape)
        element = self.element(node, k)
        # (an empty array: no loop, ``k < 0`` would warn; its one element is set, as the
        # callee's const parameter counts as a read)
        empty = " = {0}" if "0" in shape else ""
        self.pre.append(f"{self.code.c_type(type_)} {temp}[{array_size(total)}]{empty};")
        if not empty:
            self.pre.append(f"for (size_t {k} = 0; {k} < {total}; {k}++) {temp}[{k}] = "
                            f"{element};")
        return temp, shape

    def _range_count(self, node) -> str:
        step = self.expr(node.step) if node.step is not None else "1"
        return f"({self.expr(node.stop)} - {self.expr(node.start)}) / {step} + 1"

    def _reduce(self, operator: str, neutral: str, node) -> str:
        total, k = self.fresh("total"), self.fresh("k")
        count = " * ".join(self.shape(node))
        type_ = self.code.c_type(self.type_of(node))
        element = self.element(node, k)
        self.pre += [f"{type_} {total} = {neutral};",
                     f"for (size_t {k} = 0; {k} < {count}; {k}++) {total} {operator} {element};"]
        return total

    def _extreme(self, name: str, node) -> str:
        best, k = self.fresh(name), self.fresh("k")
        count = " * ".join(self.shape(node))
        type_ = self.code.c_type(self.type_of(node))
        better = "<" if name == "min" else ">"
        self.pre += [f"{type_} {best} = {self.element(node, '0')};",
                     f"for (size_t {k} = 1; {k} < {count}; {k}++) if ({self.element(node, k)} "
                     f"{better} {best}) {best} = {self.element(node, k)};"]
        return best


def array_size(count: str) -> str:
    """The length to declare a C array of ``count`` elements with: C forbids zero-length
    arrays (model.h's ARRAY_SIZE gives one element for none)."""
    return count if count.isdigit() and int(count) > 0 else f"ARRAY_SIZE({count})"


def _bare(text: str) -> str:
    """``text`` without parentheses around all of it (where C needs none)."""
    while text.startswith("(") and text.endswith(")") and _closes_at_end(text):
        text = text[1:-1]
    return text


def _size_t(text: str) -> str:
    """A C size_t of an Integer expression: a size as it is, a literal plain, else cast."""
    text = _bare(text)
    if text.startswith("(int32_t)") and text[9:].isidentifier():
        return text[9:]
    return text if text.isdigit() else f"(size_t)({text})"


def _grouped(text: str) -> str:
    """``text`` as an operand of ``*``: parenthesized unless it is one name or number."""
    return text if text.replace("_", "").isalnum() else f"({text})"


def _closes_at_end(text: str) -> bool:
    depth = 0
    for position, char in enumerate(text):
        depth += char == "("
        depth -= char == ")"
        if depth == 0 and position < len(text) - 1:
            return False
    return True


def _zero_based(subscript, text: str) -> str:
    """The C index of a Modelica subscript: a literal one less, else ``i - 1``."""
    if type(subscript) is flat.Const and type(subscript.value) is int:
        return str(subscript.value - 1)
    return f"{text} - 1"


def _promote(*types: str) -> str:
    if "Real" in types:
        return "Real"
    return types[0] if types else "Real"


def _flattened(node) -> list:
    if type(node) is flat.ArrayExpr:
        return [leaf for item in node.elements for leaf in _flattened(item)]
    return [node]


def _names(node) -> set:
    """The variables an expression of a function body reads."""
    return {item.name for item in nodes(node) if type(item) is flat.Var}


def _name_of(locals_: dict, local: Local) -> str:
    return next(name for name, item in locals_.items() if item is local)
