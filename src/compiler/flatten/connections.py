"""``connect`` equations -> connection sets -> equations.

Input: the connect equations of every instance with their ``Env``s. Output: flat equations:
potential variables of a set equal, flow variables of a set summing to zero (inside
connectors counted positive, outside ones negative), and ``f = 0`` for every flow variable
not connected as an inside connector. Directions are checked per connection. Sets of
stream variables are handed to ``flatten.streams`` instead (MLS 15).
"""
from __future__ import annotations

from compiler import flat
from compiler.flatten.errors import FlattenError
from compiler.flatten.instances import REMOVED, Node, VarRecord
from compiler.flatten.names import resolve_elements
from compiler.flatten.rules import connections as connection_rules
from compiler.lang import ast, unparse

_CONNECTOR_KINDS = frozenset({"connector", "expandable connector"})


class _Sets:
    """Union-find over (variable name, is outside) keys."""

    def __init__(self):
        self.parent: dict = {}
        self.info: dict = {}  # key -> (VarRecord, span, owner) of its first connection

    def add(self, key, record, span, owner) -> None:
        if key not in self.parent:
            self.parent[key] = key
            self.info[key] = (record, span, owner)

    def find(self, key):
        root = key
        while self.parent[root] != root:
            root = self.parent[root]
        while self.parent[key] != root:
            self.parent[key], key = root, self.parent[key]
        return root

    def union(self, a, b) -> None:
        root_a, root_b = self.find(a), self.find(b)
        if root_a != root_b:
            self.parent[root_b] = root_a

    def groups(self) -> list:
        groups: dict = {}
        for key in self.parent:
            groups.setdefault(self.find(key), []).append(key)
        return list(groups.values())


def is_overdetermined(ctx, info) -> bool:
    """Whether a class is an overdetermined record (it defines ``equalityConstraint``)."""
    return info.kind in ("record", "operator record") and "equalityConstraint" in info.classes


def connection_equations(connections, all_flows) -> tuple[list, list, list]:
    """Flat equations and their owners for all connects; ``all_flows`` lists every flow
    variable of every connector (for the unconnected ones). Where a connect is a broken edge
    of the overdetermined connection graph, the ``equalityConstraint`` residues of its
    records replace their equalities. Connection sets of stream variables make no equations
    here: they are returned as (keys, owner, span) for ``flatten.streams`` (MLS 15.1)."""
    sets = _Sets()
    residues, residue_owners = [], []
    for eq, env in connections.connects:
        for residue in _connect(eq, env, sets, connections):
            residues.append(residue)
            residue_owners.append(env.instance.owner)
    equations, owners = residues, residue_owners
    inside = set()
    stream_groups = []
    for group in sets.groups():
        record, span, owner = sets.info[group[0]]
        if record.stream_flow:
            stream_groups.append((tuple(group), owner, span))
            continue
        if record.flow:
            terms = []
            for key in group:
                (name, outside) = key
                terms.append((flat.Var(name), outside))
                if not outside:
                    inside.add(name)
            equations.append(flat.Equation(_signed_sum(terms), flat.Const(0.0), span))
            owners.append(owner)
            continue
        if record.causality:
            connection_rules.check_sources(group, sets.info, _is_source)
        first = flat.Var(group[0][0])
        for key in group[1:]:
            _, key_span, key_owner = sets.info[key]
            equations.append(flat.Equation(first, flat.Var(key[0]), key_span))
            owners.append(key_owner)
    for record in all_flows:
        if record.name not in inside:
            holder = record.owner.parent
            owner = holder.owner if holder is not None else record.owner
            equations.append(flat.Equation(flat.Var(record.name), flat.Const(0.0), record.span))
            owners.append(owner)
    return equations, owners, stream_groups


def _signed_sum(terms) -> flat.Expr:
    var, outside = terms[0]
    total = flat.Unary("-", var) if outside else var
    for var, outside in terms[1:]:
        total = flat.Binary("-" if outside else "+", total, var)
    return total


def _connect(eq: ast.EqConnect, env, sets: _Sets, connections) -> list:
    """Join the connection sets of one connect; returns its residue equations."""
    sides = []
    for ref in (eq.a, eq.b):
        if len(ref.parts) > 2:  # (c and m.c, c1.c2 always have the form)
            connection_rules.check_form(ref, env, eq)
        elements = resolve_elements(ref, env)
        if elements is None:
            return []  # a conditional component that is disabled: the connect is dropped
        sides.append((elements, _is_outside(ref, env)))
    (a, a_outside), (b, b_outside) = sides
    pairs = _element_pairs(a, b, eq)
    owner = env.instance.owner
    residues = []
    for left, right in pairs:
        _check_connector(left, eq.a, eq)
        _check_connector(right, eq.b, eq)
        left_vars, right_vars = _primitives(left, ""), _primitives(right, "")
        if _expandable(left) and _expandable(right):
            left_vars, right_vars = sorted(left_vars), sorted(right_vars)  # members by name
        _check_same_structure(left_vars, right_vars, eq)
        broken = _broken_records(left, right, connections, env.ctx)
        for node_a, node_b in broken:
            residues.extend(_residues(node_a, node_b, env, eq))
        cut = {id(record) for node, _ in broken for record in _scalars(node)}
        for (_, ra), (_, rb) in zip(left_vars, right_vars):
            _check_pair(ra, a_outside, rb, b_outside, eq, env.ctx)
            if ra.variability in ("constant", "parameter") or id(ra) in cut:
                continue
            key_a, key_b = (ra.name, a_outside), (rb.name, b_outside)
            sets.add(key_a, ra, eq.span, owner)
            sets.add(key_b, rb, eq.span, owner)
            sets.union(key_a, key_b)
    return residues


def _expandable(element) -> bool:
    return type(element) is not VarRecord and element.info.kind == "expandable connector"


def _broken_records(left, right, connections, ctx) -> list:
    """The pairs of overdetermined records of two connected connectors whose edge the
    spanning trees leave out."""
    if type(left) is VarRecord or not connections.broken:
        return []
    from compiler.flatten.connection_graph import _overdetermined_pairs
    return [(a, b) for a, b in _overdetermined_pairs(left, right,
                                                     lambda info: is_overdetermined(ctx, info))
            if connections.is_broken(a, b)]


def _scalars(node) -> list:
    """The scalar variables of a node of the connection graph."""
    if type(node) is Node:   # a variable of an overdetermined type
        return list(node.elements)
    return [record for _, record in _primitives(node, "")]


def _node_value(node):
    """The value of a node of the connection graph (an array of a type's shape)."""
    from compiler.flatten.names import _map, element_value, pick_flat
    if type(node) is not Node:
        return element_value(node)
    return _map(element_value, pick_flat(node.elements, node.dims,
                                         [list(range(1, size + 1)) for size in node.dims]))


def _residues(node_a, node_b, env, eq) -> list:
    """``0 = equalityConstraint(a, b)`` for a broken edge, one equation per residue."""
    from compiler.flatten.calls import CallResult, ModelCalls
    from compiler.flatten.functions import function_header
    from compiler.flatten.values import scalars
    ctx = env.ctx
    info = node_a.elements[0].info if type(node_a) is Node else node_a.info
    entry = info.classes["equalityConstraint"]
    header = function_header(ctx, entry, eq.span)
    if len(header.input_ports) < 2:
        raise FlattenError(f"{header.name} needs two inputs", eq.span)
    ports = {header.input_ports[0].name: _node_value(node_a),
             header.input_ports[1].name: _node_value(node_b)}
    value = ModelCalls(env).finish_call(header, ports, eq.span, whole=True)
    if type(value) is CallResult:
        size = 1
        for dim in value.shapes[0]:
            size *= dim
        if size == 0:
            return []
        raise FlattenError(f"{header.name} of a broken connection must be inlinable (annotate "
                           "it Inline = true)", eq.span)
    return [flat.Equation(flat.Const(0.0), item, eq.span) for item in scalars(value)]


def _is_outside(ref: ast.ComponentRef, env) -> bool:
    """A connector is outside when it belongs to the instance that writes the connect."""
    node = env.instance.member(ref.parts[0].name)
    if node is REMOVED or node is None:
        return False
    element = node.elements[0] if node.elements else None
    if type(element) is VarRecord:
        return True
    return element is not None and element.info.kind in _CONNECTOR_KINDS


def _element_pairs(a, b, eq) -> list:
    if type(a) is tuple or type(b) is tuple:
        if type(a) is not tuple or type(b) is not tuple or len(a) != len(b):
            raise FlattenError(f"cannot connect '{unparse(eq.a)}' and '{unparse(eq.b)}': "
                               "their array sizes differ", eq.span)
        return [pair for x, y in zip(a, b) for pair in _element_pairs(x, y, eq)]
    return [(a, b)]


def _check_connector(element, ref, eq) -> None:
    if type(element) is VarRecord:
        if element.info.kind in _CONNECTOR_KINDS or _declared_in_connector(element):
            return
        what = f"a {element.type} variable"
    elif element.info.kind in _CONNECTOR_KINDS:
        return
    else:
        what = f"a {element.info.kind} component ({element.info.name})"
    raise FlattenError(f"'{unparse(ref)}' is {what}, not a connector", ref.span or eq.span)


def _declared_in_connector(record: VarRecord) -> bool:
    """A variable of a connector's field (``bus.x``) may be connected like a connector."""
    instance = record.env.instance
    return instance is not None and instance.info.kind in _CONNECTOR_KINDS


def _primitives(element, prefix: str) -> list:
    """(relative name, VarRecord) for every scalar variable of a connector, in order."""
    if type(element) is VarRecord:
        return [(prefix, element)]
    result = []
    for name, node in element.all_members():
        if node is REMOVED:
            continue
        for position, item in enumerate(node.elements, start=1):
            suffix = f"{name}[{position}]" if node.dims else name
            result.extend(_primitives(item, f"{prefix}.{suffix}" if prefix else suffix))
    return result


def _check_same_structure(left: list, right: list, eq) -> None:
    left_names = [name for name, _ in left]
    right_names = [name for name, _ in right]
    if left_names == right_names:
        return
    missing = [name for name in left_names if name not in right_names] or \
        [name for name in right_names if name not in left_names]
    detail = f"'{missing[0]}' has no counterpart" if missing else "their variables differ in order"
    raise FlattenError(f"connectors '{unparse(eq.a)}' and '{unparse(eq.b)}' are not compatible: "
                       f"{detail}", eq.span)


def _check_pair(ra: VarRecord, a_outside: bool, rb: VarRecord, b_outside: bool, eq,
                ctx) -> None:
    if ra.flow != rb.flow:
        flow, other = (ra, rb) if ra.flow else (rb, ra)
        raise FlattenError(f"cannot connect flow variable '{flow.name}' to non-flow variable "
                           f"'{other.name}'", eq.span)
    if bool(ra.stream_flow) != bool(rb.stream_flow):
        stream, other = (ra, rb) if ra.stream_flow else (rb, ra)
        raise FlattenError(f"cannot connect stream variable '{stream.name}' to non-stream "
                           f"variable '{other.name}' (MLS 15.1)", eq.span)
    if _in_expandable(ra) or _in_expandable(rb):
        # (an expandable connector's members take their causality from their connections)
        ra_type, rb_type = ra.type, rb.type
        if ra_type != rb_type and not {ra_type, rb_type} <= {"Real", "Integer"}:
            raise FlattenError(f"cannot connect '{ra.name}' ({ra_type}) to '{rb.name}' "
                               f"({rb_type})", eq.span)
    else:
        connection_rules.check_matched(ra, rb, ctx, eq)
    if _is_source(ra, a_outside) and _is_source(rb, b_outside):
        kinds = {ra.causality, rb.causality}
        what = "two outputs" if kinds == {"output"} else (
            "two inputs of the enclosing model" if kinds == {"input"} else
            "an output and an input of the enclosing model")
        raise FlattenError(f"cannot connect {what}: '{ra.name}' and '{rb.name}' would both "
                           "set the same signal", eq.span)


def _in_expandable(record: VarRecord) -> bool:
    instance = record.env.instance
    return instance is not None and instance.info.kind == "expandable connector"


def _is_source(record: VarRecord, outside: bool) -> bool:
    """An inside output or a public outside input sets its connection set's signal; a
    protected outside input (``f_internal``) is set by it (MLS 9.3)."""
    if outside:
        return record.causality == "input" and not record.protected
    return record.causality == "output"


