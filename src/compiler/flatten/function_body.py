"""Expressions and statements inside functions, translated without scalarizing.

Input: AST expressions and statements of one function. Output: flat expressions (function
variables as ``Var(name)``, subscripts as ``Index``) and flat statements. A variable of a
record type stands for one variable per leaf (``c.re``, ``c.im``): a reference to a whole
record reads as a ``RecordValue`` of leaf references, assignments and calls take records
apart leaf by leaf, and a call whose result is a record inside an expression is computed by
a statement of its own before the statement that uses it (into a temporary).
"""
from __future__ import annotations

from contextlib import contextmanager
from dataclasses import replace

from compiler import flat
from compiler.flatten.errors import FlattenError
from compiler.flatten.higher_order import Caller, FunctionValue
from compiler.flatten.rules import operators as operator_rules
from compiler.flatten.records import leaf_value, record_from_leaves, record_leaves
from compiler.flatten.resources import LOAD_RESOURCE, resource_call
from compiler.flatten.walk import ast_references, nodes
from compiler.flatten.values import RecordValue, ShapeError, if_value, scalars, to_expr
from compiler.lang import ast

# Built-ins that mean something only in models (events, states, time).
_MODEL_ONLY = frozenset({"der", "pre", "edge", "change", "initial", "terminal", "sample",
                         "reinit", "delay", "homotopy", "cardinality",
                         "spatialDistribution"})


def _sized_by_literal(dims: tuple, default) -> tuple:
    """``dims`` with each ``:`` that an array literal binding gives (``n[:] = {1, 2}``) set."""
    shape, value = [], default
    while type(value) is flat.ArrayExpr and value.elements:
        shape.append(len(value.elements))
        value = value.elements[0]
    if len(shape) != len(dims):
        return dims
    return tuple(flat.Const(size) if dim is None else dim for dim, size in zip(dims, shape))


class Port:
    """A declared input or output of a function: the flat variables it stands for (one,
    or a record's leaves), with the record's class info where it is a record."""

    __slots__ = ("name", "variables", "record")

    def __init__(self, name: str, variables: tuple, record=None):
        self.name = name
        self.variables = variables
        self.record = record


class RecordVar:
    """A record-typed variable of a function: its class, leaves and own dimension count."""

    __slots__ = ("info", "leaves", "own")

    def __init__(self, info, leaves, own: int):
        self.info = info
        self.leaves = leaves
        self.own = own


class RecordCall:
    """A call of a function whose first output is a record: the call and that output."""

    __slots__ = ("call", "port")

    def __init__(self, call: flat.Call, port: Port):
        self.call = call
        self.port = port


# the values of record type: a record, or a call returning one (an operator's operand)
_RECORDS = (RecordValue, RecordCall)


class FunctionScope:
    """Names visible in a function body: its variables, loop indices, then its lexical scope."""

    def __init__(self, ctx, entry, info):
        self.ctx = ctx
        self.entry = entry
        # where names outside the function's variables are looked up: the class whose text
        # is being translated (an inherited declaration or algorithm reads the imports and
        # names of the class that wrote it, MLS 5.3 and 13.2.1)
        self.lexical = entry
        self.info = info
        self.name = entry.full_name
        self.inputs = {name for name, member in info.members.items()
                       if member.decl.causality == "input"}
        self.iterators: list[str] = []
        self.records: dict[str, RecordVar] = {}
        self.hoisted: list = []        # statements the current statement needs first
        self.whole_call = None         # span of the call that is an assignment's whole value
        self.variable_types: dict = {}  # flat variable name -> its type (temporaries' types)
        self.temporaries: list = []    # FunctionVars of the temporaries they assign
        self.tables: dict = {}         # package constant arrays indexed by variables
        self.loop_condition = False
        self.functional: dict = {}     # functional input -> the FunctionValue passed to it
        self.variable_ranks: dict = {}  # non-record variable -> its number of dimensions

    def type_info(self, decl: ast.Component):
        info = self.ctx.classes.expand(
            self.ctx.classes.lookup_class(decl.type_name, self.lexical, decl.span), decl.span)
        if info.external_object:
            from compiler.flatten.instances import register_external_object
            register_external_object(self.ctx, info, decl.span)
        elif info.is_structured and info.kind not in ("record", "operator record"):
            raise FlattenError(f"variable '{decl.name}' of function {self.name} has type "
                               f"{info.kind} {info.name}: only Real, Integer, Boolean, String, "
                               "enumeration and record variables are supported in functions",
                               decl.span)
        return info

    @contextmanager
    def written_in(self, entry):
        """Names read while inside are looked up from ``entry``, the class whose text the
        statements or declaration being translated come from."""
        outer, self.lexical = self.lexical, entry
        try:
            yield
        finally:
            self.lexical = outer

    # ------------------------------------------------------------------------- variables
    def declare(self, member) -> Port:
        """The flat variables of a declared function variable (a record: one per leaf)."""
        before = len(self.hoisted)
        with self.written_in(member.scope):
            port = self._declare(member)
        if member.decl.causality == "input" and len(self.hoisted) > before:
            raise FlattenError(f"the default of input '{member.decl.name}' of function "
                               f"{self.name} cannot call a function whose array or record "
                               "result is not known while translating", member.decl.span)
        return port

    def _declare(self, member) -> Port:
        decl = member.decl
        info = self.type_info(decl)
        dims = tuple(None if isinstance(dim, ast.Colon) else self.expr(dim) for dim in decl.dims)
        dims += tuple(self.expr(dim) for dim, _ in info.dims)
        _check_attributes(decl)
        if not info.is_structured:
            default = None
            if decl.modification is not None and decl.modification.binding is not None:
                default = self.expr(decl.modification.binding)
                if decl.causality != "input":   # an input's size is its argument's
                    dims = _sized_by(dims, default)
            type_name = info.type_name
            self.variable_types[decl.name] = type_name
            if decl.causality != "input" and None in dims:
                dims = _sized_by_literal(dims, default)
            self.variable_ranks[decl.name] = len(dims)
            return Port(decl.name, (flat.FunctionVar(decl.name, type_name, dims, default,
                                                     decl.span),))
        leaves = record_leaves(self.ctx.classes, info)
        self.records[decl.name] = RecordVar(info, leaves, len(dims))
        defaults = self._record_defaults(decl, leaves)
        declared = self._declared_record(info, decl) if not dims else None
        if declared is not None:   # the fields the declaration leaves keep their bindings
            for leaf in leaves:
                defaults.setdefault(leaf.name, _as_expr(leaf_value(declared, leaf.path)))
        self.variable_types.update((f"{decl.name}.{leaf.name}", leaf.type) for leaf in leaves)
        variables = tuple(
            flat.FunctionVar(f"{decl.name}.{leaf.name}", leaf.type,
                             dims + self._leaf_dims(leaf, declared), defaults.get(leaf.name),
                             decl.span)
            for leaf in leaves)
        return Port(decl.name, variables, info)

    def _record_defaults(self, decl, leaves) -> dict:
        """Leaf name -> default: from the declaration's binding (``= Complex(0)``) or its
        modification (``result(re = re, im = im)``)."""
        modification = decl.modification
        if modification is None:
            return {}
        defaults = {}
        if modification.binding is not None:
            value = self._records_value(self.expr(modification.binding),
                                        modification.binding.span)
            for leaf in leaves:
                defaults[leaf.name] = _as_expr(leaf_value(value, leaf.path))
        for path, expr in _argument_bindings(modification.arguments, ()):
            name = ".".join(path)
            if not any(leaf.name == name for leaf in leaves):
                raise FlattenError(f"record {self.records[decl.name].info.name} has no field "
                                   f"'{name}'", expr.span)
            defaults[name] = self.expr(expr)
        return defaults

    def _declared_record(self, info, decl):
        """The value of a record declared without a binding: every field from its own
        binding (``record Ideal extends Coeff(nc = 5, a = {...})``); None when a field has
        none, or one reads more than constants and the record's fields."""
        from compiler.flatten.calls import record_value
        if decl.modification is not None and decl.modification.binding is not None:
            return None
        try:
            return record_value(self.ctx, info, {}, decl.span)
        except FlattenError:
            return None

    def _leaf_dims(self, leaf, declared) -> tuple:
        """The dimensions of a record field; one that reads another field of the record
        (``parameter Integer nc; Real a[nc]``) is the size of the field's value."""
        try:
            return tuple(self._foreign(dim, scope) for dim, scope in leaf.dims)
        except FlattenError:
            if declared is None:
                raise
        value, dims = leaf_value(declared, leaf.path), []
        while type(value) is tuple:
            dims.append(flat.Const(len(value)))
            value = value[0] if value else None
        if len(dims) != len(leaf.dims):
            raise FlattenError(f"the size of field '{leaf.name}' is not known",
                               leaf.decls[-1].span)
        return tuple(dims)

    def _foreign(self, dim, scope) -> flat.Expr:
        """A dimension written in a record's declaration (its scope's constants only)."""
        from compiler.flatten.context import Env
        from compiler.flatten.translate import translate
        from compiler.flatten.values import to_expr
        if isinstance(dim, ast.Colon):
            return None
        return to_expr(translate(dim, Env(self.ctx, None, scope)))

    # ------------------------------------------------------------------------ expressions
    def expr(self, node):
        """A flat expression, or a ``RecordValue`` of them for a record-valued expression."""
        kind = type(node)
        if kind in (ast.IntLit, ast.RealLit, ast.StrLit, ast.BoolLit):
            return flat.Const(node.value)
        if kind is ast.ComponentRef:
            return self._ref(node)
        if kind is ast.Unary:
            operand = self.expr(node.operand)
            if type(operand) in _RECORDS:
                return self._operator(node.op, (operand,), node.span)
            return operand if node.op == "+" else flat.Unary(node.op, operand)
        if kind is ast.Binary:
            left, right = self.expr(node.left), self.expr(node.right)
            if type(left) in _RECORDS or type(right) in _RECORDS:
                return self._operator(node.op, (left, right), node.span)
            return flat.Binary(node.op, left, right)
        if kind is ast.IfExpr:
            result = self.expr(node.else_)
            for condition, value in reversed(node.branches):
                then = self.expr(value)
                try:
                    result = if_value(self.expr(condition), then, result)
                except ShapeError as error:
                    raise FlattenError(str(error), node.span) from None
            return result
        if kind is ast.Range:
            step = self.expr(node.step) if node.step is not None else None
            return flat.RangeExpr(self.expr(node.start), step, self.expr(node.stop))
        if kind is ast.ArrayCons:
            if len(node.elements) == 1 and type(node.elements[0]) is ast.Comprehension:
                return self._comprehension(node.elements[0])
            return flat.ArrayExpr(tuple(self.expr(item) for item in node.elements))
        if kind is ast.MatrixCons:
            return self._matrix(node)
        if kind is ast.Call:
            return self._call(node)
        if kind is ast.End:
            if "end" in self.iterators:
                return flat.Var("end")  # replaced by the size of the subscripted dimension
            raise FlattenError("'end' can only be used inside a subscript", node.span)
        raise FlattenError(f"{kind.__name__} is not supported in functions", node.span)

    def _matrix(self, node: ast.MatrixCons) -> flat.Expr:
        """``[a, b; c, d]``: a matrix of scalars as rows of elements; a row of vectors
        (``[ones(3), v, w]``) is their columns, i.e. the transpose of ``{ones(3), v, w}``
        (MLS 10.4.2: each vector promoted to a column), rows of those joined by cat(1)."""
        rows = [tuple(self.expr(item) for item in row) for row in node.rows]
        ranks = {self._rank(item) for row in rows for item in row}
        if ranks != {1}:
            return flat.ArrayExpr(tuple(flat.ArrayExpr(row) for row in rows))
        columns = [flat.Call("transpose", (flat.ArrayExpr(row),)) for row in rows]
        return columns[0] if len(columns) == 1 else \
            flat.Call("cat", (flat.Const(1),) + tuple(columns))

    def _rank(self, expr):
        """The number of dimensions of an expression where it is plain to see; else None."""
        kind = type(expr)
        if kind is flat.Const:
            return 0
        if kind is flat.Var:
            return self.variable_ranks.get(expr.name)
        if kind is flat.Call and expr.name in ("fill", "ones", "zeros"):
            return len(expr.args) - (expr.name == "fill")
        if kind is flat.ArrayExpr and expr.elements:
            inner = self._rank(expr.elements[0])
            return None if inner is None else inner + 1
        return None

    def _comprehension(self, node: ast.Comprehension) -> flat.Expr:
        """``{e for i in r}``: over a literal range, the array of its elements; over a range
        the function's variables give, a temporary array filled by a loop first."""
        from compiler.flatten.calls import substitute
        node = self._deduced(node)
        if len(node.indices) != 1 or node.indices[0].range is None:
            raise FlattenError("array comprehensions in functions need one iterator with a "
                               "range", node.span)
        index = node.indices[0]
        if not self._literal_comprehension(node):
            return self._hoisted_comprehension(node)
        values = self._literal_range(index.range)
        self.iterators.append(index.name)
        try:
            body = self.expr(node.expr)
        finally:
            self.iterators.pop()
        return flat.ArrayExpr(tuple(substitute(body, {index.name: flat.Const(value)})
                                    for value in values))

    def _loop(self, node: ast.Comprehension, what: str):
        """``(index name, start, range, element expression, statements each element needs
        first)`` of a comprehension of one iterator over ``a:b``."""
        node = self._deduced(node)
        index = node.indices[0] if len(node.indices) == 1 else None
        if index is None or index.range is None or type(index.range) is not ast.Range or \
                index.range.step is not None:
            raise FlattenError(f"{what} in a function needs one iterator over a range 'a:b'",
                               node.span)
        start = self.expr(index.range.start)
        range_ = flat.RangeExpr(start, None, self.expr(index.range.stop))
        self.iterators.append(index.name)
        before = len(self.hoisted)
        try:
            body = self.expr(node.expr)
            if type(body) is RecordCall:  # computed inside the loop, for each element
                body = self._record_value(body, node.span)
        finally:
            self.iterators.pop()
        hoisted = tuple(self.hoisted[before:])  # computed for each element, inside the loop
        del self.hoisted[before:]
        return index.name, start, range_, body, hoisted

    def _deduced(self, node: ast.Comprehension) -> ast.Comprehension:
        """The comprehension with the ranges of its indices without 'in ...' deduced from
        the subscripts in its expression; the asserts that check them come first."""
        if all(index.range is not None for index in node.indices):
            return node
        from compiler.flatten.implicit_ranges import function_range
        indices = []
        for index in node.indices:
            if index.range is None:
                range_node, checks = function_range(index, node.expr)
                for check in checks:
                    self.hoisted.extend(self.statement(check))
                index = replace(index, range=range_node)
            indices.append(index)
        return replace(node, indices=tuple(indices))

    def _hoisted_comprehension(self, node: ast.Comprehension):
        """A temporary array filled by a loop; for records, one temporary per leaf (a record
        value whose leaves are arrays, as arrays of records are in function bodies)."""
        name, start, range_, body, hoisted = self._loop(node, "an array comprehension")
        size = flat.Binary("+", flat.Binary("-", range_.stop, start), flat.Const(1))
        position = flat.Binary("+", flat.Binary("-", flat.Var(name), start), flat.Const(1))
        assignments = []

        def element(expr):
            if type(expr) is RecordValue:
                return RecordValue(expr.type, {field: element(value)
                                               for field, value in expr.fields.items()})
            temporary = self._temporary("$array", self._type_of(expr), (size,), node.span)
            assignments.append(flat.Assign(flat.Index(temporary, (position,)), expr,
                                           node.span))
            return temporary
        result = element(body)
        self.hoisted.append(flat.ForStatement(name, range_, hoisted + tuple(assignments),
                                              node.span))
        return result

    def _reduction(self, function: str, node: ast.Comprehension) -> flat.Var:
        """``sum(e for i in a:b)`` (and product, min, max): accumulated into a temporary by
        a loop first."""
        name, start, range_, body, hoisted = self._loop(node, f"a reduction {function}()")
        accumulator = self._temporary(f"${function}", self._type_of(body), (), node.span)
        if function in ("sum", "product"):
            self.hoisted.append(flat.Assign(accumulator, flat.Const(
                0 if function == "sum" else 1), node.span))
            step = flat.Assign(accumulator, flat.Binary(
                "+" if function == "sum" else "*", accumulator, body), node.span)
        else:
            step = flat.IfStatement(((flat.Binary("==", flat.Var(name), start), (
                flat.Assign(accumulator, body, node.span),)),), (
                flat.Assign(accumulator, flat.Call(function, (accumulator, body)), node.span),),
                node.span)
        self.hoisted.append(flat.ForStatement(name, range_, hoisted + (step,), node.span))
        return accumulator

    def _temporary(self, prefix: str, type_name: str, dims: tuple, span,
                   default=None) -> flat.Var:
        name = f"{prefix}{len(self.temporaries) + 1}"
        self.temporaries.append(flat.FunctionVar(name, type_name, dims, default, span))
        return flat.Var(name)

    def _type_of(self, expr) -> str:
        """Integer, Boolean or Real: the type of an expression of this function's variables."""
        kind = type(expr)
        if kind is flat.Const:
            return {bool: "Boolean", int: "Integer", str: "String"}.get(type(expr.value),
                                                                        "Real")
        if kind is flat.Var or kind is flat.Index:
            base = expr if kind is flat.Var else expr.base
            declared = self.variable_types.get(base.name) if type(base) is flat.Var else None
            return declared if declared in ("Integer", "Boolean") else "Real"
        if kind is flat.Binary:
            if expr.op in ("<", "<=", ">", ">=", "==", "<>", "and", "or"):
                return "Boolean"
            if expr.op in ("/", "^", "./", ".^"):
                return "Real"
            types = {self._type_of(expr.left), self._type_of(expr.right)}
            return "Integer" if types == {"Integer"} else "Real"
        if kind is flat.Unary:
            return "Boolean" if expr.op == "not" else self._type_of(expr.operand)
        if kind is flat.IfExpr:
            types = {self._type_of(expr.then), self._type_of(expr.else_)}
            return types.pop() if len(types) == 1 else "Real"
        if kind is flat.Call and expr.name in ("size", "integer", "Integer", "div"):
            return "Integer"
        return "Real"

    def _literal_range(self, node) -> tuple:
        from compiler.flatten.context import Env
        from compiler.flatten.evaluate import evaluate_structural
        names = {ref.parts[0].name for ref in ast_references(node)}
        if names & (set(self.info.members) | set(self.iterators)):
            raise FlattenError("an array comprehension whose range depends on the function's "
                               "variables must be assigned to a variable as a whole "
                               "('x := {e for i in 1:n}')", node.span)
        value = evaluate_structural(node, Env(self.ctx, None, self.lexical),
                                    "the range of an array comprehension in a function")
        if type(value) is not tuple:
            raise FlattenError("the range of an array comprehension must be an array",
                               node.span)
        return value

    def _comprehension_loop(self, target, node: ast.Comprehension, span) -> list:
        """``x := {e for i in a:b}`` as ``for i in a:b loop x[i - a + 1] := e; end for``."""
        name, start, range_, body, hoisted = self._loop(node, "an array comprehension")
        position = flat.Binary("+", flat.Binary("-", flat.Var(name), start), flat.Const(1))
        return [flat.ForStatement(name, range_, hoisted + (
            flat.Assign(flat.Index(target, (position,)), body, span),), span)]

    def _is_local(self, name: str) -> bool:
        return name in self.info.members or name in self.iterators

    def _ref(self, ref: ast.ComponentRef):
        first = ref.parts[0]
        if first.name in self.functional and not ref.is_global:
            raise FlattenError(f"'{first.name}' is a function: it can be called or passed to a "
                               "functional input, not used as a value", ref.span)
        if not ref.is_global and self._is_local(first.name):
            if first.name in self.records:
                return self._record_ref(ref)
            if len(ref.parts) > 1:
                raise FlattenError(f"'{first.name}' is not a record and has no fields",
                                   ref.span)
            return self._indexed(flat.Var(first.name), first.subscripts)
        if not ref.is_global and first.name == "time" and len(ref.parts) == 1:
            raise FlattenError("'time' cannot be used in a function", ref.span)
        from compiler.flatten.context import Env
        from compiler.flatten.names import resolve
        from compiler.flatten.values import to_expr
        indexed = [k for k, part in enumerate(ref.parts) if self._reads_locals(part.subscripts)]
        if len(indexed) == 1 and not any(part.subscripts for part in ref.parts[indexed[0] + 1:]):
            # a constant of a package indexed by the function's variables
            # (``Tables.X01Table[addr[i]]``, ``data[j].MM`` of an array of records): the whole
            # constant (the field of each record), then the element
            k = indexed[0]
            part = ref.parts[k]
            bare = replace(ref, parts=ref.parts[:k] + (replace(part, subscripts=()),))
            value = resolve(bare, Env(self.ctx, None, self.lexical))
            if type(value) is tuple:
                try:
                    value = leaf_value(value, tuple(item.name for item in ref.parts[k + 1:]))
                except KeyError:
                    raise FlattenError(f"'{ref.dotted}' names no field of the records of "
                                       f"'{bare.dotted}'", ref.span) from None
                return self._indexed_constant(ref.dotted, value, part.subscripts, ref.span)
        value = resolve(ref, Env(self.ctx, None, self.lexical))
        try:
            return self._computed_here(_whole_arrays(value), ref.span)
        except ShapeError as error:
            raise FlattenError(f"{error} in a function (an array of records is not supported "
                               "there)", ref.span) from None

    def _computed_here(self, value, span):
        """``value`` with the model's hidden call outputs it reads (``$call2.p[1]``: a package
        constant bound to a call flattening could not evaluate, such as a fit by LAPACK)
        replaced by a local of this function computed by the same call: a function reads no
        variables of the model."""
        if type(value) is RecordValue:
            return RecordValue(value.type, {name: self._computed_here(item, span)
                                            for name, item in value.fields.items()})
        from compiler.flatten.calls import substitute
        outputs = self.ctx.call_outputs
        names = {node.name for node in nodes(value)
                 if type(node) is flat.Var and node.name in outputs}
        if not names:
            return value
        return substitute(value, {name: self._call_output(outputs[name], name, span)
                                  for name in names})

    def _call_output(self, output, name: str, span) -> flat.Expr:
        """The local (or its element) holding the call output ``output`` in this function."""
        if output.position != 0:
            raise FlattenError(f"'{name}', an output other than the first of a call that cannot "
                               "be evaluated while flattening, is not supported in a function",
                               span)
        key = f"$call:{id(output.call)}"
        local = self.tables.get(key)
        if local is None:
            call = self._computed_here(output.call, span)
            dims = tuple(flat.Const(size) for size in output.dims)
            local = self.tables[key] = self._temporary("$constant", output.type, dims, span,
                                                       default=call)
        if not output.index:
            return local
        return flat.Index(local, tuple(flat.Const(k) for k in output.index))

    def _indexed_constant(self, key: str, value: tuple, subscripts, span):
        """Element ``subscripts`` of a constant array; of an array of records, the record of
        the elements of its fields' tables."""
        element = value
        while type(element) is tuple and element:
            element = element[0]
        if type(element) is not RecordValue:
            from compiler.flatten.values import shape
            # ``data[i].alow`` of records with array fields: the row of the field's table
            subscripts = tuple(subscripts) + (ast.Colon(),) * (len(shape(value))
                                                                - len(subscripts))
            return self._indexed(self._constant_table(key, value, span), subscripts)
        fields = {name: self._indexed_constant(f"{key}.{name}", leaf_value(value, (name,)),
                                               subscripts, span)
                  for name in element.fields}
        return RecordValue(element.type, fields)

    def _constant_table(self, key: str, value: tuple, span) -> flat.Var:
        """A package constant array as a temporary of the function holding its value (one
        per constant: generated code indexes variables, not literals)."""
        from compiler.flatten.values import shape, to_expr
        found = self.tables.get(key)
        if found is None:
            element = value
            while type(element) is tuple:
                element = element[0]
            if type(element) is flat.EnumConst:
                type_name = element.type
            else:
                # the widest type of the elements (``Hf = 0`` in one record, ``-4.6e6`` in
                # another: Real)
                types = {self._type_of(item) for item in scalars(value)}
                type_name = next((name for name in ("String", "Real", "Integer")
                                  if name in types), self._type_of(element))
            dims = tuple(flat.Const(size) for size in shape(value))
            found = self.tables[key] = self._temporary(
                "$table", type_name, dims, span, default=self._computed_here(to_expr(value), span))
        return found

    def _reads_locals(self, subscripts) -> bool:
        return any(self._is_local(found.parts[0].name) for found in ast_references(subscripts))

    def _indexed(self, base: flat.Var, subscripts) -> flat.Expr:
        """``base[subscripts]`` (``:`` a whole dimension); ``base`` without any."""
        if not subscripts or all(type(item) is ast.Colon for item in subscripts):
            return base
        return flat.Index(base, tuple(self._subscript(base, position, item)
                                      for position, item in enumerate(subscripts, start=1)))

    def _record_ref(self, ref: ast.ComponentRef):
        """A reference into a record variable: a leaf (``c.re``, ``z[i].re``) or a record."""
        first = ref.parts[0]
        record = self.records[first.name]
        written = list(first.subscripts)
        path = []
        for part in ref.parts[1:]:
            matching = [leaf for leaf in record.leaves
                        if leaf.path[:len(path) + 1] == tuple(path) + (part.name,)]
            if not matching:
                raise FlattenError(f"record {record.info.name} has no field "
                                   f"'{'.'.join(path + [part.name])}'", part.span)
            written = self._pad(written, record, path) + list(part.subscripts)
            path.append(part.name)
        leaves = [leaf for leaf in record.leaves if leaf.path[:len(path)] == tuple(path)]
        if len(leaves) == 1 and leaves[0].path == tuple(path):
            return self._leaf_ref(first.name, leaves[0], written)
        parts = {leaf.name: self._leaf_ref(first.name, leaf, written) for leaf in leaves}
        type_name = leaves[0].records[len(path)]
        trimmed = [_strip(leaf, len(path)) for leaf in leaves]
        return record_from_leaves(type_name, trimmed, {trim.name: parts[leaf.name]
                                                       for trim, leaf in zip(trimmed, leaves)},
                                  split_arrays=False)

    def _pad(self, written: list, record: RecordVar, path: list) -> list:
        """Subscripts written so far, completed with ``:`` for the dimensions of the record
        arrays on the path that were not subscripted (so a field's own subscripts land on its
        own dimensions)."""
        expected = record.own + sum(
            next(leaf for leaf in record.leaves if leaf.path[:len(path)] == tuple(path)
                 ).levels[k] for k in range(len(path)))
        return written + [ast.Colon()] * (expected - len(written))

    def _leaf_ref(self, name: str, leaf, written: list) -> flat.Expr:
        return self._indexed(flat.Var(f"{name}.{leaf.name}"), written)

    def _subscript(self, base, position: int, item) -> flat.Expr:
        size = flat.Call("size", (base, flat.Const(position)))
        if type(item) is ast.Colon:
            return flat.RangeExpr(flat.Const(1), None, size)
        return _replace_end(self.expr_with_end(item), size)

    def expr_with_end(self, item):
        self.iterators.append("end")
        try:
            return self.expr(item)
        finally:
            self.iterators.pop()

    def _record_value(self, value, span):
        """A record value from an expression: records as they are, a record-valued call
        computed first into a temporary."""
        if type(value) is RecordCall:
            return self._hoist(value, span)
        if type(value) is not RecordValue:
            raise FlattenError("a record is needed here", span)
        return value

    def _records_value(self, value, span):
        """A record value, or for an array of records (``{Complex(1, 2), ...}``) nested
        tuples of them, which ``leaf_value`` takes apart field by field."""
        if type(value) is flat.ArrayExpr:
            return tuple(self._records_value(item, span) for item in value.elements)
        return self._record_value(value, span)

    def _hoist(self, result: RecordCall, span) -> RecordValue:
        """A record-valued call inside an expression: assigned to a temporary by a statement
        before this one; the value is the temporary."""
        if self.loop_condition:
            raise FlattenError("a call that returns a record cannot be part of a while "
                               "condition", span)
        number = len(self.temporaries) + 1
        name = f"$record{number}"
        variables = tuple(flat.FunctionVar(f"{name}.{var.name.split('.', 1)[1]}", var.type,
                                           var.dims, None, span)
                          for var in result.port.variables)
        self.temporaries.extend(variables)
        self.hoisted.append(flat.Assign(flat.TupleExpr(tuple(flat.Var(var.name)
                                                             for var in variables)),
                                        result.call, span))
        leaves = record_leaves(self.ctx.classes, result.port.record)
        return record_from_leaves(result.port.record.name, leaves,
                                  {leaf.name: flat.Var(f"{name}.{leaf.name}") for leaf in leaves},
                                  split_arrays=False)

    # ------------------------------------------------------------------------------ calls
    def _call(self, call: ast.Call):
        from compiler.flatten.builtins import BUILTINS
        from compiler.flatten.calls import builtin_called, function_class
        from compiler.flatten.context import Env
        from compiler.flatten.functions import function_header
        func = call.func
        name = func.parts[0].name
        if name in self.functional and len(func.parts) == 1 and not func.is_global:
            return self._call_value(self.functional[name], call)
        if builtin_called(func, Env(self.ctx, None, self.lexical)):
            if name in _MODEL_ONLY:
                raise FlattenError(f"{name}() cannot be used in a function", call.span)
            if name == "array":
                from compiler.flatten.builtins import as_array_constructor
                return self.expr(as_array_constructor(call))
            if name in ("sum", "product", "min", "max") and len(call.args) == 1 and \
                    type(call.args[0]) is ast.Comprehension and not call.named:
                return self._reduction(name, call.args[0])
            if name == "String" and len(call.args) == 1:
                from compiler.flatten.builtins import string_call
                return string_call(self.expr(call.args[0]), {
                    item.name: self.expr(item.value) for item in call.named}, call.span)
            if call.named or any(type(arg) is ast.Comprehension for arg in call.args):
                raise FlattenError(f"named arguments and reductions of {name}() are not "
                                   "supported in functions", call.span)
            args = [self.expr(arg) for arg in call.args]
            if name in ("size", "ndims") and args and type(args[0]) is RecordValue:
                args[0] = _leaf_parts(args[0])[0]  # an array of records: its first leaf's
            if name == "size" and len(args) == 2:
                known = _literal_size(args[0], args[1])
                if known is not None:   # of a package's constant table, written out here
                    return flat.Const(known)
            if name == "size" and len(args) == 1 and type(args[0]) is flat.Var and \
                    args[0].name in self.variable_ranks:
                # size(A) as {size(A, 1), ...}: code generators size one dimension at a time
                return flat.ArrayExpr(tuple(
                    flat.Call("size", (args[0], flat.Const(k + 1)))
                    for k in range(self.variable_ranks[args[0].name])))
            if name == "scalar" and len(args) == 1 and type(args[0]) is flat.Call and \
                    args[0].name == "size" and len(args[0].args) == 1:
                # scalar(size(a)): size(a) has one element only for a vector (R134a)
                return flat.Call("size", (args[0].args[0], flat.Const(1)))
            if name == "scalar" and len(args) == 1 and type(args[0]) is flat.ArrayExpr and \
                    len(args[0].elements) == 1 and type(args[0].elements[0]) is not flat.ArrayExpr:
                return args[0].elements[0]   # scalar({size(w, 1)}), size(w) of a vector
            if any(type(arg) in (RecordValue, RecordCall) for arg in args):
                return self._operator(name, tuple(args), call.span)
            return flat.Call(name, tuple(args))
        entry = function_class(func, Env(self.ctx, None, self.lexical))
        info = self.ctx.classes.expand(entry, func.span)
        if info.kind in ("record", "operator record"):
            return self._record_constructor(entry, info, call)
        if info.external_object:
            # ``Table(args)`` calls the external object's constructor (MLS 12.9.7)
            from compiler.flatten.instances import register_external_object
            register_external_object(self.ctx, info, call.span)
            entry = info.classes["constructor"]
            info = self.ctx.classes.expand(entry, func.span)
        if info.kind not in ("function", "operator function"):
            raise FlattenError(f"'{func.dotted}' is a {info.kind}; only functions can be called "
                               "in functions", func.span)
        header = function_header(self.ctx, entry, call.span)
        if header.functional:
            return self._call_value(FunctionValue(entry), call)
        if header.builtin:
            return flat.Call(header.external.function, tuple(self.expr(a) for a in call.args))
        if header.name in LOAD_RESOURCE and not call.named:
            resource = resource_call(self.ctx, header.name, [self.expr(a) for a in call.args],
                                     call.span)
            if resource is not None:
                return resource
        return self.call_header(header, call)

    def _call_value(self, value: FunctionValue, call: ast.Call):
        """A call of a function passed to a functional input, or of one that has them."""
        from compiler.flatten.calls import function_class
        from compiler.flatten.context import Env

        def local(ref):
            if len(ref.parts) == 1 and not ref.is_global and not ref.parts[0].subscripts:
                return self.functional.get(ref.parts[0].name)
            return None
        caller = Caller(self.ctx, lambda arg: self._argument(self.expr(arg), arg.span), local,
                        lambda ref: function_class(ref, Env(self.ctx, None, self.lexical)))
        header, ports = caller.call(value, call)
        return self.finish_call(header, ports, call.span)

    def _argument(self, value, span):
        return self._record_value(value, span) if type(value) in (RecordValue, RecordCall) \
            else value

    def call_header(self, header, call: ast.Call):
        from compiler.flatten.calls import bind_call
        ports = bind_call(header, call, self.expr, lambda value, span: self._record_value(
            value, span) if type(value) in (RecordValue, RecordCall) else value)
        return self.finish_call(header, ports, call.span)

    def finish_call(self, header, ports: dict, span):
        """The value of a call whose inputs (by port) are known: inlined where the function
        allows, else a call (a record result as ``RecordCall``)."""
        from compiler.flatten.calls import port_arguments
        from compiler.flatten.inline import inline_outputs
        arguments = port_arguments(header, ports, span)
        first = header.output_ports[0] if header.output_ports else None
        if header.inline:
            outputs = inline_outputs(self.ctx, header.name, arguments, scalarized=False)
            if outputs is not None and first is not None:
                return port_value(self.ctx, first, outputs, split_arrays=False)
        result = flat.Call(header.name, tuple(arguments[var.name] for var in header.inputs))
        if first is not None and first.record is not None:
            return RecordCall(result, first)
        if first is not None and first.variables[0].dims and span is not self.whole_call:
            return self._hoist_array(result, header, arguments, span)
        return result

    def _hoist_array(self, result: flat.Call, header, arguments: dict, span) -> flat.Var:
        """An array-valued call inside an expression: assigned to a temporary array by a
        statement before this one (its size from the callee's output size)."""
        from compiler.flatten.calls import substitute
        if self.loop_condition:
            raise FlattenError("a call that returns an array cannot be part of a while "
                               "condition", span)
        output = header.outputs[0]
        if any(dim is None for dim in output.dims):
            raise FlattenError(f"the size of the output {output.name} of {header.name} is not "
                               "known from its inputs, so its call must be assigned to a "
                               "variable as a whole", span)
        name = f"$array{len(self.temporaries) + 1}"
        dims = tuple(substitute(dim, arguments) for dim in output.dims)
        self.temporaries.append(flat.FunctionVar(name, output.type, dims, None, span))
        target = flat.Var(name)
        if len(header.outputs) > 1:
            target = flat.TupleExpr((target,) + (None,) * (len(header.outputs) - 1))
        self.hoisted.append(flat.Assign(target, result, span))
        return flat.Var(name)

    def _record_constructor(self, entry, info, call: ast.Call):
        from compiler.flatten.operators import constructor_call
        overloaded = constructor_call(self, info, call)
        if overloaded is not None:
            return overloaded
        from compiler.flatten.calls import bind_arguments, record_field_default
        names = list(info.members)
        bound = bind_arguments(call, names, f"record {info.name}")
        fields = {}
        for name, arg in zip(names, bound):
            mod = record_field_default(self.ctx, info.members[name]) if arg is None else None
            if arg is None and (mod is None or mod.binding is None):
                raise FlattenError(f"field '{name}' of record {info.name} is not given and has "
                                   "no default", call.span)
            value = self.expr(arg) if arg is not None else self._default(mod.binding)
            fields[name] = self._record_value(value, call.span) \
                if type(value) is RecordCall else value
        return RecordValue(info.name, fields)

    def _default(self, binding):
        """A record field's default, written in the record's class or in one of its extends
        clauses (their constants)."""
        from compiler.flatten.translate import translate
        from compiler.flatten.values import to_expr
        value = translate(binding.expr, binding.env)
        return value if type(value) is RecordValue else to_expr(value)

    def _operator(self, op: str, operands: tuple, span):
        from compiler.flatten.operators import overloaded_operator
        operands = tuple(self._record_value(item, span) if type(item) is RecordCall else item
                         for item in operands)
        return overloaded_operator(self, op, operands, span)

    # ------------------------------------------------------------------------- statements
    def statement(self, node) -> list:
        before = len(self.hoisted)
        result = self._statement(node)
        hoisted = self.hoisted[before:]
        del self.hoisted[before:]
        return hoisted + result

    def _statement(self, node) -> list:
        kind = type(node)
        if kind is ast.Assign:
            return self._assign(node)
        if kind is ast.CallStmt:
            return [call_statement(node.call, self._scalar_expr, node.span, self.name)]
        if kind is ast.IfStmt:
            branches = tuple((self._scalar_expr(condition), statement_block(self, body))
                             for condition, body in node.branches)
            return [flat.IfStatement(branches, statement_block(self, node.else_), node.span)]
        if kind is ast.ForStmt:
            return self._for(node.indices, node.body, node.span)
        if kind is ast.WhileStmt:
            self.loop_condition = True
            try:
                condition = self._scalar_expr(node.condition)
            finally:
                self.loop_condition = False
            return [flat.WhileStatement(condition, statement_block(self, node.body), node.span)]
        if kind is ast.Break:
            return [flat.Break(node.span)]
        if kind is ast.Return:
            return [flat.Return(node.span)]
        raise FlattenError(f"{_statement_name(node)} is not allowed in a function", node.span)

    def _scalar_expr(self, node):
        value = self.expr(node)
        if type(value) in (RecordValue, RecordCall):
            raise FlattenError("a record cannot be used here", getattr(node, "span", None))
        return value

    def _for(self, indices, body, span) -> list:
        index = indices[0]
        checks = ()
        if index.range is None:
            from compiler.flatten.implicit_ranges import function_range
            range_node, checks = function_range(index, body)
            range_ = self.expr(range_node)
        else:
            range_ = self.expr(index.range)
        self.iterators.append(index.name)
        try:
            inner = (tuple(self._for(indices[1:], body, span)) if len(indices) > 1
                     else statement_block(self, body))
        finally:
            self.iterators.pop()
        return [item for check in checks for item in self.statement(check)] + \
            [flat.ForStatement(index.name, range_, inner, span)]

    def _assign(self, node: ast.Assign) -> list:
        target = self._target(node.target)
        value_node = node.value
        if type(value_node) is ast.ArrayCons and len(value_node.elements) == 1 and \
                type(value_node.elements[0]) is ast.Comprehension and \
                not self._literal_comprehension(value_node.elements[0]) and \
                _fills_in_place(target, value_node.elements[0]):
            return self._comprehension_loop(target, value_node.elements[0], node.span)
        # a call that is the whole right side needs no temporary for its array result
        self.whole_call = node.value.span if type(node.value) is ast.Call else None
        try:
            value = self.expr(node.value)
        finally:
            self.whole_call = None
        if type(target) is flat.TupleExpr:
            if type(value) is RecordCall:
                value = value.call
            if type(value) is not flat.Call:
                raise FlattenError("a list of outputs '(a, b) := ...' needs a function call on "
                                   "the right", node.span)
            return [flat.Assign(self._tuple_targets(target, value, node.span), value,
                                node.span)]
        if type(target) is RecordValue:
            if type(value) is RecordCall:
                return [flat.Assign(flat.TupleExpr(tuple(_leaf_parts(target))), value.call,
                                    node.span)]
            if type(value) is not RecordValue:
                raise FlattenError("a record can only be assigned a record", node.span)
            return [flat.Assign(a, b, node.span) for a, b in _record_pairs(target, value,
                                                                           node.span)]
        if type(value) in (RecordValue, RecordCall):
            raise FlattenError("a record cannot be assigned to a variable that is not one",
                               node.span)
        return [flat.Assign(target, value, node.span)]

    def _literal_comprehension(self, node: ast.Comprehension) -> bool:
        names = {ref.parts[0].name for index in node.indices if index.range is not None
                 for ref in ast_references(index.range)}
        return not names & (set(self.info.members) | set(self.iterators))

    def _tuple_targets(self, target: flat.TupleExpr, call: flat.Call, span) -> flat.TupleExpr:
        """The flat targets of ``(a, b) := f(...)``: a record target stands for its leaves,
        an omitted one for every flat output of its port."""
        header = self.ctx.function_headers[call.name]
        if len(target.elements) > len(header.output_ports):
            raise FlattenError(f"{header.name} has {len(header.output_ports)} outputs, "
                               f"{len(target.elements)} are used", span)
        items = []
        for position, port in enumerate(header.output_ports):
            item = target.elements[position] if position < len(target.elements) else None
            if item is None:
                items.extend([None] * len(port.variables))
            elif type(item) is RecordValue:
                items.extend(_leaf_parts(item))
            else:
                items.append(item)
        return flat.TupleExpr(tuple(items))

    def _target(self, target):
        if type(target) is ast.TupleExpr:
            return flat.TupleExpr(tuple(None if item is None else self._target(item)
                                        for item in target.elements))
        if type(target) is not ast.ComponentRef:
            raise FlattenError("the left side of ':=' must be a variable", target.span)
        name = target.parts[0].name
        if name in self.inputs:
            raise FlattenError(f"cannot assign to input '{name}' of function {self.name}",
                               target.span)
        if name in self.iterators:
            raise FlattenError(f"cannot assign to for-loop index '{name}'", target.span)
        if name not in self.info.members:
            raise FlattenError(f"unknown variable '{name}' in function {self.name}", target.span)
        return self._ref(target)


def _literal_size(array, dimension):
    """``size(array, dimension)`` of an array constructor, when its nesting gives it (the
    elements of the innermost constructor may be arrays themselves); else None."""
    if type(dimension) is not flat.Const or type(dimension.value) is not int:
        return None
    for _ in range(dimension.value - 1):
        if type(array) is not flat.ArrayExpr or not array.elements:
            return None
        array = array.elements[0]
    return len(array.elements) if type(array) is flat.ArrayExpr else None


def _whole_arrays(value):
    """A constant's value as function bodies use it: arrays as whole expressions, in
    records too (a package's record constant ``data.alow``)."""
    if type(value) is RecordValue:
        return RecordValue(value.type, {name: _whole_arrays(item)
                                        for name, item in value.fields.items()})
    return to_expr(value)


def _check_attributes(decl: ast.Component) -> None:
    if decl.modification is None or not decl.modification.arguments:
        return
    allowed = ("start", "min", "max", "nominal", "unit", "displayUnit", "quantity", "fixed")
    for argument in decl.modification.arguments:
        if isinstance(argument, ast.ElementRedeclare):
            raise FlattenError("only attributes can modify a function variable", argument.span)


def _argument_bindings(arguments, prefix: tuple):
    """(field path, binding expression) of a record variable's modification."""
    for argument in arguments:
        if isinstance(argument, ast.ElementRedeclare) or argument.modification is None:
            continue
        path = prefix + argument.name
        if argument.modification.binding is not None and path[-1] not in (
                "start", "min", "max", "nominal", "unit", "displayUnit", "quantity", "fixed"):
            yield path, argument.modification.binding
        yield from _argument_bindings(argument.modification.arguments, path)


def _strip(leaf, depth: int):
    """``leaf`` as seen from the nested record at ``depth`` of its path."""
    from compiler.flatten.records import Leaf
    return Leaf(leaf.path[depth:], leaf.type, leaf.dims, leaf.levels[depth:],
                leaf.records[depth:], leaf.decls[depth:])


def _leaf_parts(value: RecordValue) -> list:
    """The leaf expressions of a record value, in declaration order."""
    parts = []
    for item in value.fields.values():
        parts.extend(_leaf_parts(item) if type(item) is RecordValue else [item])
    return parts


def _record_pairs(target: RecordValue, value: RecordValue, span) -> list:
    pairs = []
    for name, item in target.fields.items():
        if name not in value.fields:
            raise FlattenError(f"the record assigned has no field '{name}'", span)
        other = value.fields[name]
        if type(item) is RecordValue:
            if type(other) is not RecordValue:
                raise FlattenError(f"field '{name}' is a record, the value's is not", span)
            pairs.extend(_record_pairs(item, other, span))
        else:
            pairs.append((item, _as_expr(other)))
    return pairs


def _as_expr(value):
    from compiler.flatten.values import to_expr
    return to_expr(value)


def port_value(ctx, port: Port, outputs: dict, split_arrays: bool):
    """The value of an output port from the values of its flat variables; an array of
    records (``Complex sTM[m, m]``) with ``split_arrays`` is nested tuples of records."""
    if port.record is None:
        return outputs[port.variables[0].name]
    leaves = record_leaves(ctx.classes, port.record)
    prefix = port.name + "."
    parts = {leaf.name: outputs[prefix + leaf.name] for leaf in leaves}
    own = len(port.variables[0].dims) - len(leaves[0].dims) if split_arrays else 0

    def build(parts: dict, depth: int):
        if depth == 0:
            return record_from_leaves(port.record.name, leaves, parts, split_arrays)
        size = len(next(iter(parts.values())))
        return tuple(build({name: value[i] for name, value in parts.items()}, depth - 1)
                     for i in range(size))
    return build(parts, own)


def _sized_by(dims: tuple, default) -> tuple:
    """``dims`` with the ``:`` ones (None) the sizes of ``default`` where it is an array
    written out (``Real n[:] = {1, 1.5, 3}``)."""
    if None not in dims:
        return dims
    shape, value = [], default
    while type(value) is flat.ArrayExpr:
        shape.append(len(value.elements))
        value = value.elements[0] if value.elements else None
    if len(shape) != len(dims):
        return dims
    return tuple(flat.Const(size) if dim is None else dim for dim, size in zip(dims, shape))


def _fills_in_place(target, node: ast.Comprehension) -> bool:
    """Whether ``target := {e for i in a:b}`` can fill ``target`` element by element: a
    whole variable the elements do not read (else they go to a temporary array first: a
    slice ``V[:, j]``, or ``x := {x[n - i + 1] for i in 1:n}``)."""
    return type(target) is flat.Var and \
        target.name not in {ref.parts[0].name for ref in ast_references(node)}


def statement_block(scope: FunctionScope, statements) -> tuple:
    return tuple(item for node in statements for item in scope.statement(node))


def call_statement(call: ast.Call, translate, span, where: str, statement_call=None):
    """``assert``/``terminate``/other calls used as statements or equations (scalar args);
    ``statement_call(call)`` translates a function call whose value is not used (a function
    without outputs may be called so)."""
    from compiler.flatten.calls import bind_arguments
    name = call.func.dotted if not call.func.is_global else ""
    if name == "assert":
        condition, message, level = bind_arguments(call, ["condition", "message", "level"],
                                                    "assert")
        if condition is None or message is None:
            raise FlattenError("assert needs a condition and a message", span)
        level_name = "error"
        if level is not None:
            value = translate(level)
            if type(value) is not flat.EnumConst or value.type != "AssertionLevel":
                raise FlattenError("the level of an assert must be AssertionLevel.error or "
                                   "AssertionLevel.warning", level.span)
            level_name = value.name
        condition, message = translate(condition), translate(message)
        operator_rules.check_statement_arguments(condition, message, span)
        return flat.Assert(condition, message, level_name, span)
    if name == "terminate":
        (message,) = bind_arguments(call, ["message"], "terminate")
        if message is None:
            raise FlattenError("terminate needs a message", span)
        return flat.Terminate(translate(message), span)
    if name == "reinit":
        raise FlattenError(f"reinit() is only allowed inside a when-clause (in {where})", span)
    value = (statement_call or translate)(call)
    if type(value) is RecordCall:
        value = value.call
    if type(value) is not flat.Call:
        raise FlattenError("only a function call can stand alone as a statement", span)
    return flat.CallStatement(value, span)


def _replace_end(expr, size):
    from compiler.flatten.calls import substitute
    return substitute(expr, {"end": size})


def _statement_name(node) -> str:
    return {ast.WhenStmt: "a when-statement"}.get(type(node), type(node).__name__)
