"""User functions (flat statements) -> Python callables, for the reference interpreter.

Input: the ``flat.Function`` values of a model. Output: ``FunctionTable``, whose
``scalar(name)`` is a callable taking the scalar or array arguments of a model-level call and
returning all outputs as one tuple of scalars (arrays row-major). Arrays are numpy arrays;
indices are 1-based in Modelica and translated here. External functions are refused, but for
the LAPACK routines interp/lapack.py runs.
"""
from __future__ import annotations

import numpy as np

from compiler import flat
from compiler.function_order import declaration_order
from compiler.interp import lapack
from compiler.interp.errors import SimulationError
from compiler.interp.pycode import NAMESPACE, compile_function, if_lines

_ELEMENTWISE = {
    "sin": "np.sin", "cos": "np.cos", "tan": "np.tan", "asin": "np.arcsin",
    "acos": "np.arccos", "atan": "np.arctan", "sinh": "np.sinh", "cosh": "np.cosh",
    "tanh": "np.tanh", "exp": "np.exp", "log": "np.log", "log10": "np.log10",
    "sqrt": "np.sqrt", "abs": "np.abs", "atan2": "np.arctan2", "sign": "np.sign",
    "floor": "np.floor", "ceil": "np.ceil", "noEvent": "", "smooth": "_second",
    "transpose": "np.transpose", "outerProduct": "np.outer", "cross": "np.cross",
    "diagonal": "np.diag", "sum": "np.sum", "product": "np.prod", "ndims": "np.ndim",
    "identity": "_identity", "zeros": "_zeros", "ones": "_ones", "fill": "_fill",
    "linspace": "np.linspace", "size": "_size", "min": "_min", "max": "_max",
    "scalar": "_scalar", "vector": "_vector", "matrix": "_matrix", "cat": "_cat",
    "skew": "_skew", "symmetric": "_symmetric",
}
_SCALAR = ("div", "mod", "rem", "integer", "Integer", "String")
_BINARY = {"+": "+", "-": "-", ".+": "+", ".-": "-", "/": "/", "./": "/", ".*": "*",
           ".^": "**", "<": "<", "<=": "<=", ">": ">", ">=": ">=", "==": "==", "<>": "!="}


def python_name(name: str) -> str:
    """The Python identifier of a function variable (record leaves are ``c.re``, temporaries
    ``$record1.re``)."""
    return "v_" + name.replace(".", "_D_").replace("$", "_S_")


class FunctionAssertion(SimulationError):
    """An ``assert`` inside a user function failed."""


def _mul(a, b):
    if np.ndim(a) and np.ndim(b):
        return np.matmul(a, b)
    return a * b


def _min(*args):
    return np.min(args[0]) if len(args) == 1 else min(args)


def _max(*args):
    return np.max(args[0]) if len(args) == 1 else max(args)


def _fill(value, *dims):
    return np.full(tuple(int(d) for d in dims), value)


def _skew(x):
    return np.array([[0, -x[2], x[1]], [x[2], 0, -x[0]], [-x[1], x[0], 0]])


def _symmetric(a):
    """symmetric(A): the upper triangle of A mirrored below the diagonal."""
    a = np.asarray(a)
    return np.triu(a) + np.triu(a, 1).T


def _range(start, step, stop):
    """The values of ``start:step:stop``, ``stop`` included (``n:-1:1`` counts down)."""
    beyond = 1 if step > 0 else -1
    if float(start).is_integer() and float(step).is_integer():
        return range(int(start), int(stop) + beyond, int(step))
    return np.arange(start, stop + beyond * 1e-12 * abs(stop), step)


def _check(condition, message, level):
    if not condition:
        if level == "warning":
            return
        raise FunctionAssertion(str(message))


HELPERS = {
    "_mul": _mul, "_min": _min, "_max": _max, "_fill": _fill, "_skew": _skew,
    "_symmetric": _symmetric,
    "_check": _check, "_second": lambda order, value: value,
    "_identity": lambda n: np.eye(int(n)), "_zeros": lambda *d: np.zeros(tuple(map(int, d))),
    "_ones": lambda *d: np.ones(tuple(map(int, d))),
    "_size": lambda a, k=None: np.shape(a)[int(k) - 1] if k is not None else np.shape(a),
    "_scalar": lambda a: np.ravel(a)[0], "_vector": np.ravel,
    "_matrix": lambda a: np.atleast_2d(a), "_cat": lambda k, *a: np.concatenate(a, int(k) - 1),
    "_index": lambda i: int(i) - 1,
    "_slice": lambda start, step, stop: slice(int(start) - 1, int(stop), int(step or 1)),
    "_range": lambda start, step, stop: _range(start, step or 1, stop),
    "_copy": lambda value: value.copy() if isinstance(value, np.ndarray) else value,
    "_input": lambda value: np.asarray(value) if isinstance(value, (list, tuple)) else value,
}


class FunctionTable:
    """The model's user functions as Python callables (compiled on first use)."""

    def __init__(self, functions):
        self.declared = {item.name: item for item in functions}
        self.python_names = {name: f"_fn_{k}" for k, name in enumerate(self.declared)}
        self.namespace = {**NAMESPACE, **HELPERS, **lapack.HELPERS}
        self.compiled: set = set()

    def structured(self, name: str):
        """``f(*args) -> tuple of outputs`` (arrays as numpy arrays)."""
        self._compile(name)
        return self.namespace[self.python_names[name]]

    def scalar(self, name: str):
        """``f(*args) -> tuple of every scalar output, arrays row-major``."""
        function = self.structured(name)

        def flattened(*args):
            result = []
            for value in function(*args):
                if isinstance(value, np.ndarray):
                    result.extend(value.ravel().tolist())
                else:
                    result.append(value)
            return tuple(result)
        return flattened

    def _compile(self, name: str) -> None:
        if name in self.compiled:
            return
        self.compiled.add(name)   # before its callees: it may call itself
        try:
            function = self.declared[name]
            if function.external is not None and lapack.routine(function.external) is None:
                raise SimulationError(f"external function {name} is not supported by the "
                                      "reference interpreter", function.span)
            translator = _Translator(self)
            body = translator.function_body(function)
            params = ", ".join(python_name(item.name) for item in function.inputs)
            self.namespace[self.python_names[name]] = compile_function(
                self.python_names[name], params, body, self.namespace, shared=True)
            for callee in translator.callees:
                self._compile(callee)
        except SimulationError:
            # neither it nor a caller compiled meanwhile may stay half there: a later call
            # would meet an undefined name instead of this error
            self.compiled.discard(name)
            self.namespace.pop(self.python_names[name], None)
            raise


class _Translator:
    def __init__(self, table: FunctionTable):
        self.table = table
        self.callees: set = set()

    def function_body(self, function: flat.Function) -> list[str]:
        self.function = function
        self.known = {item.name for item in function.inputs + function.outputs + function.locals}
        lines = [f"{python_name(item.name)} = _input({python_name(item.name)})"
                 for item in function.inputs]
        for item in declaration_order(function):
            lines.append(f"{python_name(item.name)} = {self._initial(item)}")
        outputs = "(" + "".join(f"{python_name(item.name)}, " for item in function.outputs) + ")"
        self.outputs = outputs
        if function.external is not None:
            lines.extend(self._external_call(function.external))
        else:
            lines.extend(self.statements(function.algorithm))
        lines.append(f"return {outputs}")
        return lines

    def _external_call(self, external: flat.ExternalCall) -> list[str]:
        """The LAPACK routine (interp/lapack.py), then the variables it wrote."""
        args = ", ".join(self.expr(arg) for arg in external.args)
        lines = [f"_written = {lapack.routine(external)}({args})"]
        for position, arg in enumerate(external.args):
            if type(arg) is flat.Var:
                lines += [f"if {position} in _written:",
                          f"    {python_name(arg.name)} = _written[{position}]"]
        return lines

    def _initial(self, item: flat.FunctionVar) -> str:
        if item.default is not None:
            return f"_copy({self.expr(item.default)})"
        if item.dims and all(dim is not None for dim in item.dims):
            dtype = {"Integer": "int", "Boolean": "bool"}.get(item.type, "float")
            shape = ", ".join(f"int({self.expr(dim)})" for dim in item.dims)
            return f"np.zeros(({shape},), dtype={dtype})"
        if item.dims:   # a flexible size (':') starts empty and grows by assignment
            dtype = {"Integer": "int", "Boolean": "bool"}.get(item.type, "float")
            shape = ", ".join("0" if dim is None else f"int({self.expr(dim)})"
                              for dim in item.dims)
            return f"np.zeros(({shape},), dtype={dtype})"
        return {"Integer": "0", "Boolean": "False", "String": "''"}.get(item.type, "0.0")

    def statements(self, items) -> list[str]:
        lines = [line for item in items for line in self.statement(item)]
        return lines or ["pass"]

    def _indented(self, items) -> list[str]:
        return ["    " + line for line in self.statements(items)]

    def statement(self, item) -> list[str]:
        kind = type(item)
        if kind is flat.Assign:
            return self._assign(item)
        if kind is flat.IfStatement:
            return if_lines(item.branches, item.else_, self.expr, self.statements)
        if kind is flat.ForStatement:
            range_ = item.range
            iterable = (f"_range({self.expr(range_.start)}, "
                        f"{self.expr(range_.step) if range_.step else 'None'}, "
                        f"{self.expr(range_.stop)})" if type(range_) is flat.RangeExpr
                        else self.expr(range_))
            self.known.add(item.index)
            return [f"for {python_name(item.index)} in {iterable}:"] + self._indented(item.body)
        if kind is flat.WhileStatement:
            return [f"while {self.expr(item.condition)}:"] + self._indented(item.body)
        if kind is flat.Break:
            return ["break"]
        if kind is flat.Return:
            return [f"return {self.outputs}"]
        if kind is flat.Assert:
            return [f"_check({self.expr(item.condition)}, {self.expr(item.message)}, "
                    f"{item.level!r})"]
        if kind is flat.CallStatement:
            return [self.expr(item.call)]
        raise SimulationError(f"{kind.__name__} is not supported in functions by the "
                              "reference interpreter", getattr(item, "span", None))

    def _assign(self, item: flat.Assign) -> list[str]:
        target = item.target
        if type(target) is flat.TupleExpr:
            lines = [f"_result = {self._call(item.value, structured=True)}"]
            for position, element in enumerate(target.elements):
                if element is not None:
                    lines.append(f"{self.expr(element)} = _result[{position}]")
            return lines
        return [f"{self.expr(target)} = _copy({self.expr(item.value)})"]

    def expr(self, node) -> str:
        kind = type(node)
        if kind is flat.Const:
            return repr(node.value)
        if kind is flat.EnumConst:
            return repr(node.ordinal)
        if kind is flat.Var:
            if node.name not in self.known:
                raise SimulationError(f"'{node.name}' is not a variable of function "
                                      f"{self.function.name}", self.function.span)
            return python_name(node.name)
        if kind is flat.Index:
            return f"{self.expr(node.base)}[{', '.join(map(self._subscript, node.subscripts))}]"
        if kind is flat.Unary:
            return f"(not {self.expr(node.operand)})" if node.op == "not" \
                else f"(-{self.expr(node.operand)})"
        if kind is flat.Binary:
            return self._binary(node)
        if kind is flat.IfExpr:
            return (f"({self.expr(node.then)} if {self.expr(node.condition)} "
                    f"else {self.expr(node.else_)})")
        if kind is flat.Call:
            return self._call(node)
        if kind is flat.ArrayExpr:
            return "_array([" + ", ".join(map(self.expr, node.elements)) + "])"
        if kind is flat.RangeExpr:
            step = self.expr(node.step) if node.step is not None else "None"
            return (f"_array(list(_range({self.expr(node.start)}, {step}, "
                    f"{self.expr(node.stop)})))")
        raise SimulationError(f"{kind.__name__} expressions are not supported in functions")

    def _subscript(self, node) -> str:
        if type(node) is flat.RangeExpr:
            step = self.expr(node.step) if node.step is not None else "None"
            return f"_slice({self.expr(node.start)}, {step}, {self.expr(node.stop)})"
        return f"_index({self.expr(node)})"

    def _binary(self, node) -> str:
        left, right, op = self.expr(node.left), self.expr(node.right), node.op
        if op == "*":
            return f"_mul({left}, {right})"
        if op == "^":
            return f"_pow({left}, {right})"
        if op in ("and", "or"):
            return f"({left} {op} {right})"
        return f"({left} {_BINARY[op]} {right})"

    def _call(self, node, structured: bool = False) -> str:
        args = ", ".join(map(self.expr, node.args))
        if node.name in self.table.declared:
            self.callees.add(node.name)
            suffix = "" if structured else "[0]"
            return f"{self.table.python_names[node.name]}({args}){suffix}"
        if node.name in _SCALAR:
            return f"_m_{node.name}({args})"
        target = _ELEMENTWISE.get(node.name)
        if target is None:
            raise SimulationError(f"{node.name}() is not supported in functions by the "
                                  "reference interpreter")
        return f"{target}({args})" if target else args

