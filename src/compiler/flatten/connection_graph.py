"""Connections of a model, gathered before its equations, and the virtual connection graph of
its overdetermined connectors (MLS 9.4).

Input: every instance of the model. Output: ``Connections``: the ``connect`` equations with
their environments, ``cardinality`` counts, and the graph built from ``connect`` (optional
edges), ``Connections.branch`` (required edges), ``Connections.root``/``potentialRoot``
(roots) between overdetermined records (record classes that define ``equalityConstraint``)
and variables of overdetermined types (``type T = Real[n]`` with one; their node is the
declared component, an ``instances.Node``): its spanning trees give ``Connections.isRoot``, ``Connections.rooted`` and the connect edges
that are broken (their equality equations replaced by the ``equalityConstraint`` residues).
They are gathered first because ``isRoot`` and ``cardinality`` may decide if-equations.
"""
from __future__ import annotations

from collections import deque

from compiler.flatten.errors import FlattenError
from compiler.flatten.instances import REMOVED, Instance, Node, VarRecord
from compiler.flatten.names import resolve_elements
from compiler.lang import ast, unparse

GRAPH_OPERATORS = frozenset({"branch", "root", "potentialRoot", "uniqueRoot"})
QUERY_OPERATORS = frozenset({"isRoot", "rooted", "uniqueRootIndices"})


def graph_operator(call: ast.Call) -> str | None:
    """``branch`` for ``Connections.branch(...)`` (also ``.Connections.branch``), else None."""
    func = call.func
    if len(func.parts) == 2 and func.parts[0].name == "Connections":
        return func.parts[1].name
    return None


class Connections:
    """What the model's connect equations and graph operators say, for its equations."""

    def __init__(self):
        self.connects: list = []          # (ast.EqConnect, Env)
        self.cardinalities: dict = {}     # id(connector instance) -> connects it appears in
        self.required: list = []          # (node, node, span) of Connections.branch
        self.roots: list = []             # (node, span) of Connections.root
        self.potential: list = []         # (node, priority, order, span)
        self.optional: list = []          # (node, node, connect index) from connect equations
        self.nodes: dict = {}             # id -> node (Instance of an overdetermined record)
        self.selected_roots: set = set()  # ids of the roots of the spanning trees
        self.depth: dict = {}             # id -> distance from its tree's root
        self.broken: set = set()          # (id, id) of optional edges left out of the trees
        self.tree_edges: set = set()      # positions in ``optional`` of edges in the trees
        self.branches: dict = {}          # id of first argument of branch -> id of second
        self.expanded = False             # expandable connectors got or lost members
        self._operators: list = []        # graph operators met, (call, env, span)

    # ------------------------------------------------------------------------- gathering
    def gather(self, instances, overdetermined) -> None:
        """Collect the connect equations and graph operators of every instance, then build
        the spanning trees. ``overdetermined(info)`` says whether a class is overdetermined."""
        from compiler.flatten.context import Env
        from compiler.flatten.expandable import complete_expandable
        # (graph operators are handled once every placement is checked)
        for instance in instances:
            for eq, scope in instance.info.equations:
                self._equation(eq, Env(instance.ctx, instance, scope))
            for statements, _ in instance.info.algorithms + instance.info.initial_algorithms:
                _refuse_in_algorithm(statements)
        for call, env, span in self._operators:
            self._operator(call, env, span)
        self.expanded = complete_expandable(self.connects)
        for index, (eq, env) in enumerate(self.connects):
            self._count(eq, env, index, overdetermined)
        self._spanning_trees()

    def _equation(self, eq, env) -> None:
        from compiler.flatten.equations import parameter_condition
        from compiler.flatten.translate import iterator_values, translate
        kind = type(eq)
        if kind is ast.EqConnect:
            self.connects.append((eq, env))
        elif kind is ast.EqFor:
            self._for(eq.indices, eq.body, env)
        elif kind is ast.EqIf:
            for condition, body in eq.branches:
                chosen = None
                if not _queries_graph(condition):
                    chosen = parameter_condition(condition, translate(condition, env), env,
                                                 required=_connects_in(eq))
                if chosen is None:
                    _refuse_connects(eq, "an if-equation whose condition is not a parameter "
                                     "expression")
                    return
                if chosen:
                    self._section(body, env)
                    return
            self._section(eq.else_, env)
        elif kind is ast.EqWhen:
            _refuse_connects(eq, "a when-equation")
        elif kind is ast.EqCall and graph_operator(eq.call) is not None:
            self._operators.append((eq.call, env, eq.span))

    def _section(self, items, env) -> None:
        for item in items:
            self._equation(item, env)

    def _for(self, indices, body, env) -> None:
        from compiler.flatten.translate import iterator_values
        index = indices[0]
        for value in iterator_values(index, env, body):
            inner = env.with_iterator(index.name, value)
            if len(indices) > 1:
                self._for(indices[1:], body, inner)
            else:
                self._section(body, inner)

    def _operator(self, call: ast.Call, env, span) -> None:
        from compiler.flatten.calls import bind_arguments
        from compiler.flatten.evaluate import evaluate_structural
        name = graph_operator(call)
        if name not in GRAPH_OPERATORS:
            raise FlattenError(f"Connections.{name}() is not an equation", span)
        if name == "uniqueRoot":
            raise FlattenError("Connections.uniqueRoot() is not supported", span)
        if name == "branch":
            a, b = bind_arguments(call, ["R1", "R2"], "Connections.branch")
            if a is None or b is None:
                raise FlattenError("Connections.branch() needs two arguments", span)
            node_a, node_b = self._node(a, env, span), self._node(b, env, span)
            self.required.append((node_a, node_b, span))
            self.branches.setdefault(id(node_a), id(node_b))
        elif name == "root":
            (a,) = bind_arguments(call, ["R"], "Connections.root")
            self.roots.append((self._node(a, env, span), span))
        else:
            a, priority = bind_arguments(call, ["R", "priority"], "Connections.potentialRoot")
            level = 0 if priority is None else evaluate_structural(
                priority, env, "the priority of Connections.potentialRoot", expect=int)
            self.potential.append((self._node(a, env, span), level, len(self.potential), span))

    def _node(self, ref, env, span):
        """The node an argument of a graph operator names: an overdetermined record instance
        or the declared variable of an overdetermined type."""
        if type(ref) is not ast.ComponentRef:
            raise FlattenError("the argument of a Connections operator must be a component of "
                               "a connector", span)
        element = graph_node(ref, env, span)
        if element is None:
            return None  # through a disabled conditional component
        if type(element) is tuple or not isinstance(element, (Instance, Node)):
            raise FlattenError(f"'{unparse(ref)}' is not an overdetermined record (a record "
                               "with a function equalityConstraint)", ref.span or span)
        self.nodes[id(element)] = element
        return element

    def _count(self, eq, env, index: int, overdetermined) -> None:
        """Cardinalities and the optional edges between overdetermined records of a connect."""
        sides = [resolve_elements(ref, env) for ref in (eq.a, eq.b)]
        if any(side is None for side in sides):
            return
        for left, right in _element_pairs(sides[0], sides[1]):
            for element in (left, right):
                self.cardinalities[id(element)] = self.cardinalities.get(id(element), 0) + 1
            if isinstance(left, Instance) and isinstance(right, Instance):
                for a, b in _overdetermined_pairs(left, right, overdetermined):
                    self.nodes[id(a)], self.nodes[id(b)] = a, b
                    self.optional.append((a, b, index))

    # ------------------------------------------------------------------- spanning trees
    def _spanning_trees(self) -> None:
        """One tree per root: required edges contracted first (they are in every tree), then
        the trees grown breadth first over optional edges from the roots; the optional edges
        left over are broken."""
        if not self.nodes:
            return
        self.required = [(a, b, s) for a, b, s in self.required if a is not None and b is not None]
        group = {key: key for key in self.nodes}

        def find(key):
            while group[key] != key:
                group[key] = group[group[key]]
                key = group[key]
            return key
        for a, b, span in self.required:
            ra, rb = find(id(a)), find(id(b))
            if ra == rb:
                raise FlattenError("the Connections.branch edges form a loop", span)
            group[rb] = ra
        definite = [id(node) for node, _ in self.roots if node is not None]
        optional = [(find(id(a)), find(id(b)), id(a), id(b)) for a, b, _ in self.optional]
        adjacent: dict = {}
        for position, (ga, gb, _, _) in enumerate(optional):
            adjacent.setdefault(ga, []).append((gb, position))
            adjacent.setdefault(gb, []).append((ga, position))
        owner: dict = {}
        for component in _components({find(key): [] for key in self.nodes}, adjacent):
            roots = [key for key in definite if find(key) in component]
            if not roots:
                candidates = [(level, order, id(node)) for node, level, order, _ in
                              self.potential if node is not None and find(id(node)) in component]
                if not candidates:
                    names = ", ".join(sorted(node_path(self.nodes[key]) for key in self.nodes
                                             if find(key) in component)[:3])
                    raise FlattenError(f"the overdetermined connection set of {names} has no "
                                       "root (Connections.root or potentialRoot)",
                                       node_span(self.nodes[next(key for key in self.nodes
                                                                 if find(key) in component)]))
                roots = [min(candidates)[2]]
            queue = deque()
            for key in roots:
                if find(key) in owner:
                    raise FlattenError("two roots of the overdetermined connection graph ("
                                       f"'{node_path(self.nodes[owner[find(key)]])}' and "
                                       f"'{node_path(self.nodes[key])}') are joined by "
                                       "Connections.branch", node_span(self.nodes[key]))
                owner[find(key)] = key
                self.selected_roots.add(key)
                queue.append(find(key))
            while queue:
                current = queue.popleft()
                for other, position in adjacent.get(current, ()):
                    if other not in owner:
                        owner[other] = owner[current]
                        self.tree_edges.add(position)
                        queue.append(other)
        self.broken = {(a, b) for position, (_, _, a, b) in enumerate(optional)
                       if position not in self.tree_edges}
        self._depths(optional)

    def _depths(self, optional) -> None:
        """Each node's distance from its root along the tree edges (for ``rooted``)."""
        edges: dict = {key: [] for key in self.nodes}
        for a, b, _ in self.required:
            edges[id(a)].append(id(b))
            edges[id(b)].append(id(a))
        for position in self.tree_edges:
            _, _, a, b = optional[position]
            edges[a].append(b)
            edges[b].append(a)
        queue = deque(self.selected_roots)
        for key in self.selected_roots:
            self.depth[key] = 0
        while queue:
            key = queue.popleft()
            for other in edges[key]:
                if other not in self.depth:
                    self.depth[other] = self.depth[key] + 1
                    queue.append(other)

    # -------------------------------------------------------------------------- queries
    def is_root(self, node) -> bool:
        return id(node) in self.selected_roots

    def rooted(self, node, span) -> bool:
        other = self.branches.get(id(node))
        if other is None:
            raise FlattenError("Connections.rooted() needs its argument as the first argument "
                               "of a Connections.branch()", span)
        return self.depth.get(id(node), 0) < self.depth.get(other, 0)

    def cardinality(self, element) -> int:
        return self.cardinalities.get(id(element), 0)

    def is_broken(self, a, b) -> bool:
        return (id(a), id(b)) in self.broken or (id(b), id(a)) in self.broken


def overdetermined_type(info) -> bool:
    """Whether a class is an overdetermined type (a type with ``equalityConstraint``)."""
    return info.kind == "type" and "equalityConstraint" in info.classes


def graph_node(ref: ast.ComponentRef, env, span):
    """What a reference names in the graph: for a variable of an overdetermined type its
    declared component (one node for all its scalars), else the elements themselves; None
    through a disabled component."""
    element = resolve_elements(ref, env)
    probe = element
    while type(probe) is tuple and probe:
        probe = probe[0]
    if type(probe) is not VarRecord or not overdetermined_type(probe.info):
        return element
    last = ref.parts[-1]
    holder = env.instance if len(ref.parts) == 1 else \
        resolve_elements(ast.ComponentRef(ref.parts[:-1], ref.is_global, ref.span), env)
    node = holder.member(last.name) if isinstance(holder, Instance) else None
    if last.subscripts or node is None or not _one_value(node):
        raise FlattenError(f"'{unparse(ref)}': an element of an array of an overdetermined "
                           "type in the connection graph is not supported", ref.span or span)
    return node


def _one_value(node: Node) -> bool:
    """Whether a declared variable of an overdetermined type is one value of it (not an
    array of them): its dimensions are the type's own."""
    return len(node.dims) == len(node.elements[0].info.dims)


def node_path(node) -> str:
    if isinstance(node, Instance):
        return node.path
    name = node.elements[0].name
    return name[:name.rindex("[")] if node.dims else name


def node_span(node):
    return node.span if isinstance(node, Instance) else node.decl.span


def _queries_graph(expr) -> bool:
    """Whether an expression asks the connection graph (isRoot, rooted, cardinality)."""
    from dataclasses import fields, is_dataclass
    if type(expr) is ast.Call:
        if graph_operator(expr) in QUERY_OPERATORS or (
                len(expr.func.parts) == 1 and expr.func.parts[0].name in ("cardinality",
                                                                          "rooted")):
            return True
    if type(expr) is tuple:
        return any(_queries_graph(item) for item in expr)
    if is_dataclass(expr):
        return any(_queries_graph(getattr(expr, item.name)) for item in fields(expr)
                   if item.name != "span")
    return False


def _refuse_connects(eq, where: str) -> None:
    """A connect or graph operator inside a section that is not structural is an error."""
    for item in _equations_in(eq):
        if type(item) is ast.EqConnect or (type(item) is ast.EqCall and
                                           graph_operator(item.call) in GRAPH_OPERATORS):
            what = "connect" if type(item) is ast.EqConnect else "a Connections operator"
            raise FlattenError(f"{what} cannot be used inside {where} (MLS 8.3.3, 9.4.1)",
                               item.span)


def _refuse_in_algorithm(statements) -> None:
    """The graph operators are equations: not statements of an algorithm (MLS 9.4.1)."""
    for statement in statements:
        kind = type(statement)
        if kind is ast.CallStmt and graph_operator(statement.call) in GRAPH_OPERATORS:
            raise FlattenError(f"Connections.{graph_operator(statement.call)}() is an equation "
                               "of the connection graph; it cannot be used in an algorithm "
                               "(MLS 9.4.1)", statement.span)
        if kind is ast.ForStmt or kind is ast.WhileStmt:
            _refuse_in_algorithm(statement.body)
        elif kind is ast.IfStmt or kind is ast.WhenStmt:
            for _, body in statement.branches:
                _refuse_in_algorithm(body)
            _refuse_in_algorithm(getattr(statement, "else_", ()))


def _connects_in(eq) -> bool:
    """Whether a section holds connects or graph operators (its condition must be known)."""
    return any(type(item) is ast.EqConnect or (type(item) is ast.EqCall and
                                                graph_operator(item.call) in GRAPH_OPERATORS)
               for item in _equations_in(eq))


def _equations_in(eq):
    kind = type(eq)
    yield eq
    if kind is ast.EqFor:
        bodies = [eq.body]
    elif kind is ast.EqIf:
        bodies = [body for _, body in eq.branches] + [eq.else_]
    elif kind is ast.EqWhen:
        bodies = [body for _, body in eq.branches]
    else:
        bodies = []
    for body in bodies:
        for item in body:
            yield from _equations_in(item)


def _element_pairs(a, b) -> list:
    if type(a) is tuple and type(b) is tuple and len(a) == len(b):
        return [pair for x, y in zip(a, b) for pair in _element_pairs(x, y)]
    if type(a) is tuple or type(b) is tuple:
        return []  # sizes differ: connections.py reports it
    return [(a, b)]


def _overdetermined_pairs(a: Instance, b: Instance, overdetermined):
    """Corresponding overdetermined record instances inside two connected connectors."""
    if overdetermined(a.info):
        yield a, b
        return
    for name, node in a.all_members():
        if node is REMOVED:
            continue
        if node.is_var:
            other = b.member(name)
            if node.elements and overdetermined_type(node.elements[0].info) and \
                    other is not None and other is not REMOVED:
                if not _one_value(node):
                    raise FlattenError(f"'{node_path(node)}': an array of an overdetermined "
                                       "type in a connector is not supported", node.decl.span)
                yield node, other
            continue
        other = b.member(name)
        if other is None or other is REMOVED or len(other.elements) != len(node.elements):
            continue
        for x, y in zip(node.elements, other.elements):
            yield from _overdetermined_pairs(x, y, overdetermined)


def _components(groups: dict, adjacent: dict) -> list:
    """The sets of groups joined by optional edges, in first-seen order."""
    seen, result = set(), []
    for start in groups:
        if start in seen:
            continue
        seen.add(start)
        component, queue = set(), [start]
        while queue:
            key = queue.pop()
            component.add(key)
            for other, _ in adjacent.get(key, ()):
                if other not in seen:
                    seen.add(other)
                    queue.append(other)
        result.append(component)
    return result
