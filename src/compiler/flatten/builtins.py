"""Built-in functions and operators of Modelica, as used in model expressions.

Input: an ``ast.Call`` of a built-in name and its ``Env``. Output: a value. Operators that
later stages need (``der``, ``pre``, ``sample``, math functions, ...) stay ``flat.Call``s,
element by element on arrays; array functions are evaluated here on the scalarized arrays.
"""
from __future__ import annotations

from compiler import flat
from compiler.flatten import values
from compiler.flatten.calls import bind_arguments
from compiler.flatten.errors import FlattenError, NotEvaluable
from compiler.flatten.rules import operators as operator_rules
from compiler.flatten.values import RecordValue, ShapeError
from compiler.lang import ast

# Scalar functions kept for later stages, applied element by element; value: argument names.
KEPT = {
    **{name: ("x",) for name in (
        "abs", "sign", "sqrt", "sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh",
        "tanh", "exp", "log", "log10", "floor", "ceil", "integer", "pre", "edge", "change",
        "noEvent", "Integer")},
    "atan2": ("y", "x"), "mod": ("x", "y"), "rem": ("x", "y"), "div": ("x", "y"),
    "homotopy": ("actual", "simplified"), "semiLinear": ("x", "k1", "k2"),
}
UNSUPPORTED = {
    # (equations '(out0, out1) = spatialDistribution(...)' are flatten.spatial's)
    "spatialDistribution": "spatialDistribution() can only be used in an equation "
                           "'(out0, out1) = spatialDistribution(...)' (MLS 3.7.4.2)",
    "reinit": "reinit() is a statement: it can only stand alone inside a when-clause",
    "assert": "assert() is a statement, not an expression",
    "terminate": "terminate() is a statement, not an expression",
}


def _arguments(call, names: tuple, function: str, required: int | None = None) -> list:
    bound = bind_arguments(call, list(names), f"{function}()")
    required = len(names) if required is None else required
    if any(arg is None for arg in bound[:required]):
        raise FlattenError(f"{function}() needs {required} argument{'s' if required > 1 else ''}"
                           f" ({', '.join(names[:required])})", call.span)
    return bound


def _value(arg, env):
    from compiler.flatten.translate import translate
    value = translate(arg, env)
    if type(value) is RecordValue:
        raise FlattenError(f"a record of type {value.type} cannot be used here", arg.span)
    return value


def _structural_int(arg, env, what: str) -> int:
    from compiler.flatten.evaluate import evaluate_structural
    return evaluate_structural(arg, env, what, expect=int)


def broadcast(function, items: list):
    """``function`` applied element by element over the array arguments."""
    arrays = [item for item in items if type(item) is tuple]
    if not arrays:
        return function(*items)
    size = len(arrays[0])
    if any(len(item) != size for item in arrays):
        raise ShapeError("the array arguments differ in size")
    return tuple(broadcast(function, [item[i] if type(item) is tuple else item
                                       for item in items]) for i in range(size))


def _kept(name: str, names: tuple):
    def handler(call, env):
        args = [_value(arg, env) for arg in _arguments(call, names, name)]
        if name == "der":
            _check_der(args[0], env, call)
        elif name in operator_rules.NUMERIC_ARGUMENTS:
            operator_rules.check_numeric_arguments(name, args, env.ctx, call.span)
        try:
            return broadcast(lambda *items: flat.Call(name, items), args)
        except ShapeError as error:
            raise FlattenError(f"{name}(): {error}", call.span) from None
    return handler


def _der(call, env):
    return _kept("der", ("expr",))(call, env)


def _check_der(value, env, call) -> None:
    for item in values.scalars(value):
        if type(item) is flat.Var and item.name != "time":
            record = env.ctx.variables.get(item.name)
            if record is not None and record.type != "Real":
                raise FlattenError(f"der() needs a Real argument; '{item.name}' is "
                                   f"{record.type}", call.span)


def _min_max(name: str):
    def handler(call, env):
        if len(call.args) == 1 and not call.named:
            items = values.scalars(_value(call.args[0], env))
            if not items:
                raise FlattenError(f"{name}() of an empty array", call.span)
            result = items[0]
            for item in items[1:]:
                result = flat.Call(name, (result, item))
            return result
        return _kept(name, ("x", "y"))(call, env)
    return handler


def _no_args(name: str):
    def handler(call, env):
        _arguments(call, (), name)
        return flat.Call(name, ())
    return handler


def _sample(call, env):
    start, interval = _arguments(call, ("start", "interval"), "sample")
    return flat.Call("sample", (_scalar(start, env, "sample"), _scalar(interval, env, "sample")))


def _scalar(arg, env, function: str):
    value = _value(arg, env)
    if type(value) is tuple:
        raise FlattenError(f"the arguments of {function}() must be scalars", arg.span)
    return value


def _smooth(call, env):
    order, expr = _arguments(call, ("p", "expr"), "smooth")
    order = _scalar(order, env, "smooth")
    return values.elementwise(lambda item: flat.Call("smooth", (order, item)), _value(expr, env))


def _delay(call, env):
    expr, delay_time, delay_max = _arguments(call, ("expr", "delayTime", "delayMax"), "delay", 2)
    given_max = delay_max is not None
    delay_time = _scalar(delay_time, env, "delay")
    delay_max = _scalar(delay_max, env, "delay") if given_max else delay_time
    _check_delay(delay_time, delay_max, given_max, env.ctx, call.span)
    return values.elementwise(lambda item: flat.Call("delay", (item, delay_time, delay_max)),
                              _value(expr, env))


def _check_delay(delay_time, delay_max, given_max: bool, ctx, span) -> None:
    """delayMax (or, without it, delayTime) is a parameter expression, and
    0 <= delayTime <= delayMax where both are known (MLS 3.7.4.1)."""
    from compiler.flatten.evaluate import evaluate
    from compiler.flatten.exprtypes import is_parameter_expression
    if not is_parameter_expression(delay_max, ctx):
        what = "delayMax" if given_max else "delayTime (there is no delayMax)"
        raise FlattenError(f"the {what} of delay() must be a parameter expression "
                           "(MLS 3.7.4.1)", span)
    try:
        low, high = evaluate(delay_time, ctx), evaluate(delay_max, ctx)
    except NotEvaluable:
        return
    if not 0 <= low <= high:
        raise FlattenError(f"delay(): delayTime is {low}, outside [0, delayMax = {high}] "
                           "(MLS 3.7.4.1)", span)


# String(x, minimumLength, leftJustified, significantDigits) or String(x, format) (MLS
# 3.7.1.2); the options' defaults
STRING_OPTIONS = ("minimumLength", "leftJustified", "significantDigits")
STRING_DEFAULTS = (flat.Const(0), flat.Const(True), flat.Const(6))


def string_call(value, named: dict, span) -> flat.Call:
    """The flat call of ``String(value, <named options>)``: ``String(x)`` without options,
    ``String(x, format)`` with a format, else all three options positional."""
    unknown = set(named) - set(STRING_OPTIONS) - {"format"}
    if unknown:
        raise FlattenError(f"String() has no option named '{sorted(unknown)[0]}'", span)
    if "format" in named:
        if len(named) > 1:
            raise FlattenError("String() takes either a format or the other options", span)
        return flat.Call("String", (value, named["format"]))
    if not named:
        return flat.Call("String", (value,))
    return flat.Call("String", (value,) + tuple(named.get(name, default) for name, default
                                                 in zip(STRING_OPTIONS, STRING_DEFAULTS)))


def _string(call, env):
    if len(call.args) != 1:
        raise FlattenError("String() takes one positional argument and named options",
                           call.span)
    from compiler.flatten.translate import translate
    value = translate(call.args[0], env)
    if type(value) is RecordValue:
        # String(record): its operator record's 'String' function (MLS 14.3)
        if call.named:
            raise FlattenError("named options of String() on an operator record are not "
                               "supported", call.span)
        from compiler.flatten.calls import ModelCalls
        from compiler.flatten.operators import overloaded_operator
        return overloaded_operator(ModelCalls(env), "String", (value,), call.span)
    if type(value) is tuple:
        raise FlattenError("the arguments of String() must be scalars", call.args[0].span)
    named = {item.name: _scalar(item.value, env, "String") for item in call.named}
    return string_call(value, named, call.span)


# ------------------------------------------------------------------------- array functions
def _size(call, env):
    array, dim = _arguments(call, ("A", "i"), "size", 1)
    dims = values.shape(_value(array, env))
    if 0 in dims:   # an empty value keeps no sizes after its first 0: the declaration does
        dims = _declared_dims(array, env) or dims
    if dim is None:
        return tuple(flat.Const(size) for size in dims)
    k = _structural_int(dim, env, "the dimension argument of size()")
    if not 1 <= k <= len(dims):
        raise FlattenError(f"size(A, {k}): A has {len(dims)} dimension"
                           f"{'s' if len(dims) != 1 else ''}", call.span)
    return flat.Const(dims[k - 1])


def _declared_dims(array, env) -> tuple | None:
    """The sizes of the component ``array`` names, as instantiated (None for another
    expression)."""
    from compiler.flatten.instances import Node
    if not isinstance(array, ast.ComponentRef) or len(array.parts) != 1 or \
            array.parts[0].subscripts or env.instance is None:
        return None
    node = env.instance.member(array.parts[0].name)
    return node.dims if isinstance(node, Node) else None


def _ndims(call, env):
    (array,) = _arguments(call, ("A",), "ndims")
    return flat.Const(len(values.shape(_value(array, env))))


def _dims_args(call, env, first: int, function: str) -> tuple:
    if call.named:
        raise FlattenError(f"{function}() takes no named arguments", call.span)
    return tuple(_structural_int(arg, env, f"a size argument of {function}()")
                 for arg in call.args[first:])


def _filled(value, dims: tuple):
    return values.reshape([value] * _count(dims), dims) if dims else value


def _count(dims: tuple) -> int:
    total = 1
    for size in dims:
        total *= size
    return total


def _fill(call, env):
    from compiler.flatten.translate import translate
    if not call.args:
        raise FlattenError("fill() needs a value and at least one size", call.span)
    # (a record value may fill an array too: fill(Complex(0), m))
    return _filled(translate(call.args[0], env), _dims_args(call, env, 1, "fill"))


def _array_call(call, env):
    """``array(a, b, ...)`` (and ``array(e for i in r)``) is ``{a, b, ...}`` (MLS 10.4.1)."""
    from compiler.flatten.translate import translate
    return translate(as_array_constructor(call), env)


def as_array_constructor(call) -> ast.ArrayCons:
    if call.named or not call.args:
        raise FlattenError("array() takes its elements as positional arguments", call.span)
    return ast.ArrayCons(tuple(call.args), call.span)


def _constant_fill(value: int, function: str):
    def handler(call, env):
        dims = _dims_args(call, env, 0, function)
        if not dims:
            raise FlattenError(f"{function}() needs at least one size", call.span)
        return _filled(flat.Const(value), dims)
    return handler


def _identity(call, env):
    (n,) = _arguments(call, ("n",), "identity")
    size = _structural_int(n, env, "the size argument of identity()")
    return tuple(tuple(flat.Const(1 if i == j else 0) for j in range(size)) for i in range(size))


def _linspace(call, env):
    from compiler.flatten.evaluate import evaluate
    x1, x2, n = _arguments(call, ("x1", "x2", "n"), "linspace")
    count = _structural_int(n, env, "the count argument of linspace()")
    if count < 2:
        raise FlattenError("linspace() needs n >= 2", n.span)
    start, stop = _scalar(x1, env, "linspace"), _scalar(x2, env, "linspace")
    try:
        a, b = float(evaluate(start, env.ctx)), float(evaluate(stop, env.ctx))
        return tuple(flat.Const(a + (b - a) * i / (count - 1)) for i in range(count))
    except (NotEvaluable, TypeError, ValueError):
        step = flat.Binary("/", flat.Binary("-", stop, start), flat.Const(count - 1))
        return tuple(flat.Binary("+", start, flat.Binary("*", flat.Const(i), step))
                     for i in range(count))


def _array_function(name: str, names: tuple, body):
    def handler(call, env):
        args = [_value(arg, env) for arg in _arguments(call, names, name)]
        try:
            return body(*args)
        except ShapeError as error:
            raise FlattenError(f"{name}(): {error}", call.span) from None
    return handler


def _transpose(matrix):
    return values.transpose(matrix)


def _outer_product(x, y):
    _need_shape(x, 1, "outerProduct")
    _need_shape(y, 1, "outerProduct")
    return tuple(tuple(flat.Binary("*", a, b) for b in y) for a in x)


def _cross(x, y):
    if values.shape(x) != (3,) or values.shape(y) != (3,):
        raise ShapeError("cross() needs two vectors of size 3")
    def term(i, j):
        return flat.Binary("-", flat.Binary("*", x[i], y[j]), flat.Binary("*", x[j], y[i]))
    return (term(1, 2), term(2, 0), term(0, 1))


def _symmetric(matrix):
    """symmetric(A): the elements above the diagonal of A mirrored below it (MLS 10.3.6)."""
    dims = values.shape(matrix)
    if len(dims) != 2 or dims[0] != dims[1]:
        raise ShapeError(f"symmetric() needs a square matrix, not one of sizes {dims}")
    return tuple(tuple(matrix[min(i, j)][max(i, j)] for j in range(dims[0]))
                 for i in range(dims[0]))


def _skew(x):
    if values.shape(x) != (3,):
        raise ShapeError("skew() needs a vector of size 3")
    zero = flat.Const(0)
    def neg(item):
        return flat.Unary("-", item)
    return ((zero, neg(x[2]), x[1]), (x[2], zero, neg(x[0])), (neg(x[1]), x[0], zero))


def _diagonal(v):
    _need_shape(v, 1, "diagonal")
    return tuple(tuple(v[i] if i == j else flat.Const(0) for j in range(len(v)))
                 for i in range(len(v)))


def _need_shape(value, ndims: int, function: str) -> None:
    if len(values.shape(value)) != ndims:
        raise ShapeError(f"{function}() needs {'a vector' if ndims == 1 else 'a matrix'}")


def _sum(array):
    return values.sum_of(values.scalars(array))


def _product(array):
    return values.product_of(values.scalars(array))


def _scalar_of(array):
    if any(size != 1 for size in values.shape(array)):
        raise ShapeError("scalar() needs an array whose every dimension is 1")
    return values.scalars(array)[0]


def _vector(array):
    dims = values.shape(array)
    if sum(1 for size in dims if size > 1) > 1:
        raise ShapeError("vector() needs an array with at most one dimension larger than 1")
    return tuple(values.scalars(array))


def _matrix(array):
    dims = values.shape(array)
    if any(size != 1 for size in dims[2:]):
        raise ShapeError("matrix() needs dimensions beyond the second to be 1")
    padded = values.promote(array, 2)
    dims = values.shape(padded)
    return values.reshape(values.scalars(padded), dims[:2])


def _cat(call, env):
    if not call.args or call.named:
        raise FlattenError("cat() needs a dimension and arrays", call.span)
    dim = _structural_int(call.args[0], env, "the dimension argument of cat()")
    try:
        return values.concatenate(dim, [_value(arg, env) for arg in call.args[1:]])
    except ShapeError as error:
        raise FlattenError(f"cat(): {error}", call.span) from None


def _cardinality(call, env):
    """How many connect equations name a connector (deprecated, MLS 3.7.4)."""
    from compiler.flatten.names import resolve_elements
    (connector,) = _arguments(call, ("c",), "cardinality")
    if type(connector) is not ast.ComponentRef:
        raise FlattenError("cardinality() needs a connector", call.span)
    element = resolve_elements(connector, env)
    if element is None:
        return flat.Const(0)
    if type(element) is tuple:
        raise FlattenError("cardinality() needs a scalar connector", call.span)
    if element.info.kind not in ("connector", "expandable connector"):
        raise FlattenError(f"cardinality() needs a connector; '{connector.dotted}' is not one "
                           "(MLS 3.7.4)", call.span)
    return flat.Const(env.ctx.connections.cardinality(element))


def _instance_name(call, env):
    """The simulated model's name (without its package: ``Vehicle.engine`` for an engine of
    MyLib.Vehicle, MLS 3.7.4.6) and the path of the instance calling."""
    _arguments(call, (), "getInstanceName")
    instance = env.instance
    if instance is None:
        raise FlattenError("getInstanceName() can only be used in a model", call.span)
    root = instance
    while root.parent is not None:
        root = root.parent
    return flat.Const(root.info.name.rsplit(".", 1)[-1] + (f".{instance.path}" if instance.path else ""))


def _rooted(call, env):
    from compiler.flatten.calls import graph_node_query
    return graph_node_query("rooted", call, env)


def array_function_value(name: str, args: list):
    """An array built-in applied to values (scalarized arrays), or None when ``name`` is not
    one or its sizes are not literal: ``identity(3)``, ``zeros(2, 2)``, ``cross(a, b)``..."""
    sized = {"zeros": 0, "ones": 1}
    if name in sized or name in ("fill", "identity"):
        literal = [arg.value for arg in (args[1:] if name == "fill" else args)
                   if type(arg) is flat.Const and type(arg.value) is int]
        if len(literal) != len(args) - (1 if name == "fill" else 0) or not literal:
            return None
        if name == "identity":
            size = literal[0]
            return tuple(tuple(flat.Const(1 if i == j else 0) for j in range(size))
                         for i in range(size))
        value = args[0] if name == "fill" else flat.Const(sized[name])
        return _filled(value, tuple(literal))
    function = _ARRAY_VALUES.get(name)
    if function is None:
        return None
    return function(*args)


def _cat_values(dim, *parts):
    if type(dim) is not flat.Const:
        raise ShapeError("cat() needs a literal dimension")
    return values.concatenate(dim.value, list(parts))


def _stream_operator(name: str):
    """inStream/actualStream of a stream variable (MLS 15.2, 15.3), element by element: a call
    kept until the connection sets are known (``flatten.streams`` expands it)."""
    def handler(call, env):
        from compiler.flatten.instances import VarRecord
        from compiler.flatten.names import resolve_elements
        (arg,) = _arguments(call, ("v",), name)
        elements = resolve_elements(arg, env) if type(arg) is ast.ComponentRef and \
            env.instance is not None else None
        leaves = _leaves(elements) if elements is not None else [None]
        if not all(type(item) is VarRecord and item.stream_flow for item in leaves):
            what = f"'{arg.dotted}' is not one" if type(arg) is ast.ComponentRef else \
                "its argument is not a component reference"
            raise FlattenError(f"{name}() needs a stream variable; {what} (MLS 15.2)",
                               call.span)
        return values.elementwise(lambda item: flat.Call(name, (item,)), _value(arg, env))
    return handler


def _leaves(elements) -> list:
    """The elements of a resolved reference, arrays (nested tuples) flattened."""
    if type(elements) is tuple:
        return [leaf for item in elements for leaf in _leaves(item)]
    return [elements]


def _unsupported(message: str):
    def handler(call, env):
        raise FlattenError(message, call.span)
    return handler


_ARRAY_VALUES = {"transpose": _transpose, "outerProduct": _outer_product, "cross": _cross,
                 "skew": _skew, "symmetric": _symmetric, "diagonal": _diagonal, "sum": _sum,
                 "product": _product, "scalar": _scalar_of, "vector": _vector, "matrix": _matrix,
                 "cat": _cat_values}

BUILTINS = {name: _kept(name, names) for name, names in KEPT.items()}
BUILTINS.update({
    "der": _der, "min": _min_max("min"), "max": _min_max("max"),
    "initial": _no_args("initial"), "terminal": _no_args("terminal"), "sample": _sample,
    "smooth": _smooth, "delay": _delay, "String": _string,
    "size": _size, "ndims": _ndims, "fill": _fill, "array": _array_call, "zeros": _constant_fill(0, "zeros"),
    "ones": _constant_fill(1, "ones"), "identity": _identity, "linspace": _linspace,
    "transpose": _array_function("transpose", ("A",), _transpose),
    "outerProduct": _array_function("outerProduct", ("x", "y"), _outer_product),
    "cross": _array_function("cross", ("x", "y"), _cross),
    "skew": _array_function("skew", ("x",), _skew),
    "symmetric": _array_function("symmetric", ("A",), _symmetric),
    "diagonal": _array_function("diagonal", ("v",), _diagonal),
    "sum": _array_function("sum", ("A",), _sum),
    "product": _array_function("product", ("A",), _product),
    "scalar": _array_function("scalar", ("A",), _scalar_of),
    "vector": _array_function("vector", ("A",), _vector),
    "matrix": _array_function("matrix", ("A",), _matrix),
    "cat": _cat, "cardinality": _cardinality, "rooted": _rooted,
    "getInstanceName": _instance_name,
})
BUILTINS.update({name: _unsupported(message) for name, message in UNSUPPORTED.items()})
BUILTINS.update({name: _stream_operator(name) for name in ("inStream", "actualStream")})
