"""The instance tree: components instantiated with their merged modifications, on demand.

Input: a ``ClassInfo`` and the modification applied to it. Output: ``Instance``s whose
members are ``Node``s (a scalar or an array of sub-instances or of ``VarRecord``s, the
variables of built-in type). A member is made the first time it is looked up, so declarations
may refer to parameters declared after them; a member that needs itself is an error.
"""
from __future__ import annotations

import itertools
import logging

from compiler.flatten import evaluate as evaluation
from compiler.flatten import names
from compiler.flatten import translate as translation
from compiler.flatten.classes import ClassInfo
from compiler.flatten.context import Env
from compiler.flatten.errors import FlattenError
from compiler.flatten.modifiers import (Mod, field, from_arguments, from_ast, indexed, merge,
                                       merge_all)
from compiler.flatten.rules import connections as connection_rules
from compiler.flatten.rules import inner_outer
from compiler.flatten.rules import prefixes as prefix_rules
from compiler.flatten.rules import redeclarations
from compiler.flatten.rules import visibility
from compiler.flatten.values import shape
from compiler.lang import ast
from compiler.library import ClassEntry


ATTRIBUTES = {
    "Real": ("start", "fixed", "nominal", "min", "max", "unit", "displayUnit", "quantity",
             "stateSelect"),
    "Integer": ("start", "fixed", "min", "max", "quantity"),
    "Boolean": ("start", "fixed", "quantity"),
    "String": ("start", "fixed", "quantity"),
    "enumeration": ("start", "fixed", "min", "max", "quantity"),
}
_VARIABILITY_RANK = {"constant": 0, "parameter": 1, "discrete": 2, "": 3}
_STRUCTURED_KINDS = frozenset({"model", "block", "connector", "record", "class",
                               "operator record", "expandable connector"})
_INTERFACE_KINDS = frozenset({"connector", "record", "operator record",
                              "expandable connector"})
LOGGER = logging.getLogger("cosim.compiler")
REMOVED = object()  # a conditional component whose condition is false
INNER_ROLE = object()  # key of the inner role of an ``inner outer`` component in ``members``


class VarRecord:
    """A scalar variable while flattening: what its declaration and modifications say."""

    __slots__ = ("name", "type", "info", "variability", "causality", "flow", "protected",
                 "top_interface", "mod", "decl", "env", "owner", "interface", "value", "binding",
                 "translated", "stream_flow")

    def __init__(self, name, info, variability, causality, flow, protected, top_interface, mod,
                 decl, env, owner, interface):
        self.name = name
        self.info = info
        self.type = info.type_name
        self.variability = variability  # "constant", "parameter", "discrete" or ""
        self.causality = causality      # "input", "output" or "" as declared
        self.flow = flow
        self.protected = protected
        self.top_interface = top_interface
        self.mod = mod
        self.decl = decl
        self.env = env
        self.owner = owner            # the nearest model or block instance (balance)
        self.interface = interface    # "input" or "flow": counted as given inside ``owner``
        self.value = None             # evaluated value, once needed
        self.binding = None           # translated binding, once needed
        self.translated = False
        self.stream_flow = ""  # a stream variable's: the name of its connector's flow variable

    @property
    def span(self):
        return self.decl.span


class Node:
    """A declared component after instantiation: ``elements`` in row-major order.

    ``index_types`` gives per dimension the enumeration (or ``Boolean``) that indexes it, ""
    for Integer indices; ``view`` is the class an ``outer`` component sees of its inner one.
    """

    __slots__ = ("name", "dims", "elements", "is_var", "decl", "index_types", "view")

    def __init__(self, name, dims, elements, is_var, decl, index_types=(), view=None):
        self.name = name
        self.dims = dims
        self.elements = elements
        self.is_var = is_var
        self.decl = decl
        self.index_types = index_types
        self.view = view


class Instance:
    """An instance of a structured class (model, block, connector, record)."""

    __slots__ = ("ctx", "path", "info", "mod", "parent", "members", "variability", "causality",
                 "flow", "protected", "top_interface", "decl", "_busy", "owner", "added")

    def __init__(self, ctx, path, info: ClassInfo, mod, parent, decl=None, variability="",
                 causality="", protected=False, flow=""):
        self.ctx = ctx
        self.path = path
        self.info = info
        self.mod = mod
        self.parent = parent
        self.decl = decl
        self.members: dict = {}
        self.added: list[str] = []  # members connections add to an expandable connector
        interface = info.kind in _INTERFACE_KINDS
        # Prefixes of a record or connector component apply to its fields.
        self.variability = variability if interface else ""
        self.causality = causality if interface else ""
        self.flow = flow if interface else ""  # ``flow Complex i``: its fields are flows
        self.protected = protected
        self._busy: set[str] = set()
        self.top_interface = parent is None or (
            parent.top_interface and info.kind in _INTERFACE_KINDS and not protected)
        is_model = parent is None or info.kind not in _INTERFACE_KINDS
        self.owner = self if is_model else parent.owner

    def __repr__(self) -> str:
        return f"<Instance {self.path or self.info.name}>"

    @property
    def span(self):
        return self.decl.span if self.decl is not None else \
            self.ctx.classes.definition(self.info.entry).span

    def prefixed(self, name: str) -> str:
        return f"{self.path}.{name}" if self.path else name

    # ------------------------------------------------------------------------- members
    def member(self, name: str):
        """The Node of component ``name`` (made now if needed), ``REMOVED``, or None."""
        node = self.members.get(name)
        if node is not None:
            return node
        member = self.info.members.get(name)
        if member is None:
            return None
        if name in self._busy:
            raise FlattenError(f"'{self.prefixed(name)}' depends on itself", member.decl.span)
        self._busy.add(name)
        try:
            node = instantiate(self, member)
        finally:
            self._busy.discard(name)
        self.members[name] = node
        return node

    def all_members(self):
        """Every member in declaration order (instantiating those not made yet), then those
        connections added (an expandable connector's)."""
        return [(name, self.member(name)) for name in list(self.info.members) + self.added]

    def inner_roles(self):
        """The instances that ``inner outer`` components are for the components within this
        one (MLS 5.4: an inner declaration of its own, besides the outer one that references
        the enclosing inner), made now if needed."""
        return [(name, self.inner_member(name)) for name, member in self.info.members.items()
                if member.decl.inner and member.decl.outer]

    def inner_member(self, name: str):
        """The inner role of the ``inner outer`` component ``name``: a component of this
        instance named so (the outer role, ``member(name)``, is the enclosing inner one)."""
        key = (INNER_ROLE, name)
        node = self.members.get(key)
        if node is None:
            node = self.members[key] = instantiate(self, self.info.members[name], inner=True)
        return node

    def add_member(self, name: str, like) -> None:
        """A member of an expandable connector that a connection creates, of the type of the
        element ``like`` (a VarRecord or an Instance) it is connected to (MLS 9.1.3)."""
        decl = ast.Component(name, ast.TypeName(tuple(like.info.name.split("."))),
                             span=like.decl.span if like.decl is not None else None)
        if isinstance(like, VarRecord):
            node = _variables(self, decl, Env(self.ctx, self, self.info.entry), like.info,
                              None, ())
            for record in node.elements:
                # not the causality of its type (RealOutput): the connections decide it
                record.causality = ""
                record.interface = "flow" if record.flow else ""
        else:
            node = _structured(self, decl, like.info, None, ())
        self.members[name] = node
        self.added.append(name)

    def class_named(self, name: str):
        """A class redeclared for this instance by its modification, or a class of its type."""
        sub = self.mod.args.get(name) if self.mod is not None else None
        if sub is not None and sub.redeclare is not None and \
                isinstance(sub.redeclare[0], ast.ClassDef):
            element, env = sub.redeclare
            original = self.info.classes.get(name)
            if original is None:
                raise FlattenError(f"class '{name}' is not replaceable", sub.span)
            entry = _aliased(element, env) or ClassEntry(name, env.scope, element)
            self.ctx.classes.check_class_redeclaration(original, entry, sub.span)
            return entry
        found = self.info.classes.get(name)
        if found is not None and self.ctx.classes.definition(found).outer:
            return self._inner_class(found)
        return found

    def _inner_class(self, outer: ClassEntry) -> ClassEntry:
        """The ``inner`` class of the nearest enclosing instance for an ``outer`` class
        definition (``outer function fc = A``, MLS 5.4)."""
        holder = self.parent
        while holder is not None:
            found = holder.info.classes.get(outer.name)
            if found is not None and holder.ctx.classes.definition(found).inner:
                return found
            holder = holder.parent
        raise FlattenError(f"no 'inner' declaration of class '{outer.name}' encloses this "
                           "'outer' one", self.ctx.classes.definition(outer).span)

    def outer_mod(self, name: str):
        """What this instance's own modification says about its member ``name``."""
        if self.mod is None:
            return None
        if self.info.kind in _INTERFACE_KINDS:
            return field(self.mod, name)
        return self.mod.args.get(name)


def _aliased(element: ast.ClassDef, env):
    """``redeclare package Medium = Medium``: the class the name denotes in the instance the
    modification is written for (whose own ``Medium`` may be redeclared in turn), not the
    one its text declares; None for a class that adds anything to its base."""
    body = element.body
    if env.instance is None or not isinstance(body, ast.ShortClass) or body.dims or \
            body.modification is not None or body.causality or body.variability or body.flow:
        return None
    return names.resolve_type(env.instance, body.base, env.scope)


def _member_mod(inst: Instance, member):
    """The merged modification of a member: this instance's over the extends layers over the
    declaration's own. A redeclaration among them replaces the declaration's modification
    with the new element's, placed where the redeclaration is written, and keeps the
    original's (or its constraining clause's) below it (MLS 7.3.2)."""
    name = member.decl.name
    layers = [inst.outer_mod(name)]
    for args, scope in member.layers:
        layers.append(from_arguments(args, _layer_env(inst, scope)).get(name))
    declared_env = Env(inst.ctx, inst, member.scope)
    original = from_ast(member.decl.modification, declared_env, final=member.decl.final)
    # the modifiers of a constraining clause apply to the declaration too (MLS 7.3.2)
    original = merge(original, _constraint_mod(member.decl, declared_env), name)
    position = next((k for k, layer in enumerate(layers)
                     if layer is not None and layer.redeclare is not None), None)
    if position is None:
        return merge_all([layer for layer in layers + [original] if layer is not None], name)
    element, env = layers[position].redeclare
    if not isinstance(element, ast.Component):
        return merge_all([layer for layer in layers + [original] if layer is not None], name)
    _check_component_redeclaration(inst, member, layers, position)
    redeclare = layers[position].redeclare
    own = from_ast(element.modification, env)
    # the replaced declaration's own modifiers go; those of the constraining clause in force
    # stay: the redeclaration's own, else that of the element it replaces (MLS 7.3.2)
    replaced = [layer.redeclare for layer in layers[position:] if layer is not None and
                layer.redeclare is not None and isinstance(layer.redeclare[0], ast.Component)]
    constrained = next(((decl, decl_env) for decl, decl_env in
                        replaced + [(member.decl, declared_env)]
                        if decl.constraint is not None), None)
    if constrained is not None:
        original = _constraint_mod(*constrained)
    ordered = [_without_redeclare(layer) for layer in layers[:position + 1]] + [own] + \
        [_without_redeclare(layer) for layer in layers[position + 1:]] + [original]
    merged = merge_all([layer for layer in ordered if layer is not None], name)
    return (merged or Mod()).copy(redeclare=redeclare, span=layers[position].span)


def _constraint_mod(decl: ast.Component, env) -> Mod | None:
    """The modification of the constraining clause of ``decl`` (None without one)."""
    if decl.constraint is None:
        return None
    return from_ast(decl.constraint.modification, env)


def _layer_env(inst: Instance, scope) -> Env:
    """Where a modifier of an extends or short class definition written in ``scope`` is
    read: the instance whose class is ``scope`` or extends it. A short class's modifier is
    written in the class enclosing the short class, an instance further out (MLS 4.5.1: the
    short class adds no scope of its own)."""
    holder = inst
    while holder is not None:
        if holder.info.entry is scope or id(scope) in holder.info.bases:
            return Env(inst.ctx, holder, scope)
        holder = holder.parent
    return Env(inst.ctx, inst, scope)


def _check_component_redeclaration(inst: Instance, member, layers: list, position: int) -> None:
    """The redeclaration ``layers[position]`` of a component against what it replaces: the
    next redeclaration below it, or the declaration (MLS 7.3)."""
    element, env = layers[position].redeclare
    earlier = next((layer.redeclare for layer in layers[position + 1:]
                    if layer is not None and layer.redeclare is not None and
                    isinstance(layer.redeclare[0], ast.Component)), None)
    original = redeclarations.Side(earlier[0], _resolver(earlier[1])) if earlier is not None \
        else redeclarations.Side(member.decl, _resolver(Env(inst.ctx, inst, member.scope)))
    redeclarations.check_redeclaration(inst.ctx.classes, original,
                                       redeclarations.Side(element, _resolver(env)),
                                       layers[position].span)


def _resolver(env):
    """``type name -> ClassInfo`` of a component declared in ``env`` (None when it does not
    resolve there)."""
    classes = env.ctx.classes

    def resolve(type_name):
        try:
            entry = names.resolve_type(env.instance, type_name, env.scope) \
                if env.instance is not None else classes.lookup_class(type_name, env.scope)
            return classes.expand(entry, type_name.span)
        except FlattenError:
            return None
    return resolve


def _without_redeclare(mod):
    if mod is None or mod.redeclare is None:
        return mod
    return mod.copy(redeclare=None) if mod.binding is not None or mod.args else None


def instantiate(inst: Instance, member, inner: bool = False):
    """Instantiate one declared component of ``inst``: a Node, or ``REMOVED``; ``inner``: the
    inner role of an ``inner outer`` component."""
    ctx = inst.ctx
    decl = member.decl
    mod = _member_mod(inst, member)
    decl_env = Env(ctx, inst, member.scope)
    if mod is not None and mod.redeclare is not None:
        decl, decl_env, mod = _redeclared(inst, member, mod)
    if decl.condition is not None and not evaluation.evaluate_structural(
            decl.condition, decl_env, "the condition of a component", expect=bool):
        return REMOVED
    if decl.outer and not inner:
        return _outer(inst, decl, decl_env, mod)
    type_entry = names.resolve_type(inst, decl.type_name, decl_env.scope)
    info = ctx.classes.expand(type_entry, decl.type_name.span)
    _check_kind(info, decl)
    if decl.constraint is not None:
        redeclarations.check_replaceable(ctx.classes,
                                         redeclarations.Side(decl, _resolver(decl_env)))
    if info.is_structured:
        prefix_rules.check_structured(decl, info, (
            decl.variability or info.variability, decl.causality or info.causality,
            decl.flow or info.flow), ctx.classes)
    elif decl.flow or info.flow or inst.flow or decl.causality or info.causality:
        prefix_rules.check_variable(decl, info, decl.flow or info.flow or inst.flow)
    if (decl.flow or info.flow) == "stream":
        if not _in_connector(inst):
            raise FlattenError(f"'{decl.name}' is a stream variable outside a connector "
                               "(MLS 15.1)", decl.span)
        if inst.info.kind == "connector" and not inst.info.partial:
            connection_rules.check_stream_connector_balance(inst, _typed_members(inst))
    dims, index_types = _dims(decl, decl_env, info, mod)
    if info.is_structured:
        return _structured(inst, decl, info, mod, dims, index_types)
    return _variables(inst, decl, decl_env, info, mod, dims, index_types)


def _typed_members(inst: Instance):
    """The declared components of ``inst`` with the classes of their types."""
    for member in inst.info.members.values():
        decl = member.decl
        entry = names.resolve_type(inst, decl.type_name, member.scope)
        yield decl, inst.ctx.classes.expand(entry, decl.type_name.span)


def _prefixes(inst: Instance, decl, info: ClassInfo) -> tuple:
    """Variability, causality, flow and protection, combined with the enclosing record's."""
    variability = _stronger(_stronger(decl.variability, info.variability), inst.variability)
    causality = decl.causality or info.causality or inst.causality
    return (variability, causality, decl.flow or info.flow or inst.flow,
            decl.protected or inst.protected)


def _structured(inst: Instance, decl, info: ClassInfo, mod, dims, index_types=()) -> Node:
    _check_not_recursive(inst, info, decl)
    _check_modified_names(info, mod, decl)
    connection_rules.check_expandable_unmodified(decl, info, mod)
    variability, causality, flow, protected = _prefixes(inst, decl, info)
    name = inst.prefixed(decl.name)
    elements = [Instance(inst.ctx, name + _index_text(index), info, indexed(mod, index), inst,
                         decl, variability, causality, protected, flow)
                for index in _indices(dims)]
    return Node(decl.name, dims, elements, False, decl, index_types)


def _variables(inst: Instance, decl, decl_env, info: ClassInfo, mod, dims,
               index_types=()) -> Node:
    ctx = inst.ctx
    # a type's modification applies to every element of an array of that type; one of a type
    # with dimensions of its own (``Integer[3](min = {1, 1, 1})``) is split over those
    type_mods = [from_ast(modification, Env(ctx, None, scope))
                 for modification, scope in info.type_layers]
    type_mods = [layer for layer in type_mods if layer is not None]
    own = len(info.dims)
    _check_attributes(info, merge_all([layer for layer in [mod, *type_mods]
                                       if layer is not None], decl.name))
    variability, causality, flow, protected = _prefixes(inst, decl, info)
    if info.external_object and not variability:
        # its constructor makes it once, from parameters: a parameter (MLS 12.9.7)
        variability = "parameter"
    if flow and not _in_connector(inst):
        raise FlattenError(f"'{decl.name}' is a flow variable outside a connector",
                           decl.span)
    owner = inst.owner
    interface = ""
    if not protected and (inst is owner or _public_chain(inst, owner)):
        interface = "flow" if flow == "flow" else ("input" if causality == "input" else "")
        if inst is not owner and owner.info.kind == "block":
            prefix_rules.check_block_connector(decl, inst, owner, variability, causality)
    name = inst.prefixed(decl.name)
    elements = []
    for index in _indices(dims):
        type_index = index[len(index) - own:] if own else ()
        layers = [indexed(mod, index)] + [indexed(layer, type_index) for layer in type_mods]
        element_mod = merge_all([layer for layer in layers if layer is not None], decl.name)
        record = VarRecord(name + _index_text(index), info, variability, causality,
                           flow == "flow", protected, inst.top_interface and not protected,
                           element_mod, decl, decl_env, owner, interface)
        if flow == "stream":
            record.stream_flow = _associated_flow(inst, decl)
        ctx.variables[record.name] = record
        elements.append(record)
    if info.builtin == "enumeration":
        names.register_enumeration(ctx, info)
    if info.external_object:
        register_external_object(ctx, info, decl.span)
    return Node(decl.name, dims, elements, True, decl, index_types)


def register_external_object(ctx, info: ClassInfo, span) -> None:
    """Record an external object class the model uses, with its two functions."""
    from compiler import flat
    from compiler.flatten.functions import function_header
    if info.name in ctx.external_objects:
        return
    ctx.external_objects[info.name] = None  # its functions use the class: known from now
    functions = {}
    for role in ("constructor", "destructor"):
        entry = info.classes.get(role)
        if entry is None:
            raise FlattenError(f"external object class {info.name} has no {role} function",
                               span)
        functions[role] = function_header(ctx, entry, span).name
    ctx.external_objects[info.name] = flat.ExternalObject(
        info.name, functions["constructor"], functions["destructor"],
        ctx.classes.definition(info.entry).span)


def _in_connector(inst: Instance) -> bool:
    """Whether ``inst`` is a connector, or a record inside one."""
    while inst is not None and inst.info.kind in ("record", "operator record"):
        inst = inst.parent
    return inst is not None and inst.info.kind in ("connector", "expandable connector")


def _associated_flow(inst: Instance, decl) -> str:
    """The name of the one flow variable of the connector that holds ``inst`` (itself or
    through records), which the stream variable ``decl`` goes with (MLS 15.1)."""
    while inst.info.kind in ("record", "operator record"):
        inst = inst.parent
    flows = [name for name, member in inst.info.members.items() if member.decl.flow == "flow"]
    if len(flows) != 1:
        raise FlattenError(f"stream variable '{decl.name}' needs exactly one flow variable "
                           f"declared in connector {inst.info.name}; it has {len(flows)} "
                           "(MLS 15.1)", decl.span)
    return inst.prefixed(flows[0])


def _public_chain(inst: Instance, owner: Instance) -> bool:
    """Whether ``inst`` is a connector or record reached from ``owner`` through others."""
    while inst is not owner:
        if inst.info.kind not in _INTERFACE_KINDS:
            return False
        inst = inst.parent
    return True


def _redeclared(inst: Instance, member, mod):
    """The declaration that replaces ``member`` (its modification already merged into
    ``mod`` by ``_member_mod``), with the original's prefixes where it gives none."""
    element, env = mod.redeclare
    if not isinstance(element, ast.Component):
        raise FlattenError(f"'{member.decl.name}' is a component, not a class", mod.span)
    # (a redeclaration without dimensions keeps those of the original: ``cellData[Ns, Np]``)
    decl = ast.Component(element.name, element.type_name, element.dims or member.decl.dims,
                         element.modification,
                         member.decl.condition, element.description, element.annotation,
                         element.flow or member.decl.flow,
                         element.variability or member.decl.variability,
                         element.causality or member.decl.causality, protected=member.decl.protected,
                         span=element.span)
    return decl, env, mod.copy(redeclare=None)


def _outer(inst: Instance, decl: ast.Component, decl_env, mod):
    """An ``outer`` component is the ``inner`` one of the nearest enclosing instance."""
    inner = names.enclosing_inner(inst.parent, decl.name)
    if inner is None:
        inner = _added_inner(inst, decl, decl_env)
    if inner is REMOVED:
        return inner
    info = inst.ctx.classes.expand(
        names.resolve_type(inst, decl.type_name, decl_env.scope), decl.type_name.span)
    dims = tuple(None if isinstance(dim, ast.Colon) else _dimension(dim, dim_env)
                 for dim, dim_env in _dim_expressions(decl, decl_env, info))
    inner_outer.check_outer(decl, mod, info, dims, inner, inst.ctx.classes)
    # (names through the outer component see the elements of its own type only)
    return Node(inner.name, inner.dims, inner.elements, inner.is_var, inner.decl,
                inner.index_types, view=info)


def _added_inner(inst: Instance, decl: ast.Component, decl_env):
    """An ``outer`` component without an enclosing ``inner`` one: the inner component added
    at the top of the model, with a warning, if its class is not partial (MLS 5.4); every
    outer component of that name without an inner shares it."""
    root = inst
    while root.parent is not None:
        root = root.parent
    missing = f"no 'inner' declaration of '{decl.name}' encloses this 'outer' component"
    node = root.members.get(decl.name)
    if node is not None and decl.name in root.added:
        return node
    if decl.name in root.info.members or decl.name in root.info.classes:
        raise FlattenError(missing, decl.span)
    info = inst.ctx.classes.expand(names.resolve_type(inst, decl.type_name, decl_env.scope),
                                   decl.type_name.span)
    if info.partial:
        raise FlattenError(f"{missing}, and its class {info.name} is partial, so none can be "
                           "added (MLS 5.4)", decl.span)
    inner = ast.Component(decl.name, decl.type_name, decl.dims, variability=decl.variability,
                          causality=decl.causality, inner=True, span=decl.span)
    dims, index_types = _dims(inner, decl_env, info, None)
    node = _structured(root, inner, info, None, dims, index_types) if info.is_structured else \
        _variables(root, inner, decl_env, info, None, dims, index_types)
    root.members[decl.name] = node
    root.added.append(decl.name)
    place = decl.span
    where = f"{place.file}:{place.line}:{place.col}: " if place is not None else ""
    LOGGER.warning("%swarning: %s: 'inner %s %s' is added at the top of the model (MLS 5.4)",
                   where, missing, info.name, decl.name)
    return node


def _check_kind(info: ClassInfo, decl: ast.Component) -> None:
    if info.partial:
        raise FlattenError(f"component '{decl.name}' has partial class {info.name}",
                           decl.type_name.span)
    if info.is_structured and info.kind not in _STRUCTURED_KINDS:
        raise FlattenError(f"component '{decl.name}' cannot have {info.kind} {info.name} as type",
                           decl.type_name.span)


def _check_not_recursive(inst: Instance, info: ClassInfo, decl) -> None:
    holder = inst
    while holder is not None:
        if holder.info is info:
            raise FlattenError(f"component '{decl.name}' of class {info.name} would contain "
                               "itself: a class cannot have a component of its own class",
                               decl.span)
        holder = holder.parent


def _check_modified_names(info: ClassInfo, mod, decl) -> None:
    if mod is None:
        return
    for name, sub in mod.args.items():
        if name not in info.members and name not in info.classes:
            raise FlattenError(f"class {info.name} has no element '{name}'", sub.span or decl.span)
    visibility.check_modifiable(info, mod, decl.name)
    if mod.binding is not None and info.kind not in _INTERFACE_KINDS:
        raise FlattenError(f"component '{decl.name}' of {info.kind} {info.name} cannot have a "
                           f"binding equation", mod.span or decl.span)


def _check_attributes(info: ClassInfo, mod) -> None:
    if mod is None:
        return
    allowed = () if info.external_object else ATTRIBUTES[info.builtin]
    for name, sub in mod.args.items():
        if name not in allowed:
            raise FlattenError(f"'{name}' is not an attribute of {info.builtin} "
                               f"(allowed: {', '.join(allowed)})", sub.span)


def _stronger(a: str, b: str) -> str:
    return a if _VARIABILITY_RANK[a] <= _VARIABILITY_RANK[b] else b


def _dim_expressions(decl: ast.Component, env: Env, info: ClassInfo) -> list:
    """The dimensions of a declaration and of its type, each with the Env to read it in."""
    return [(dim, env) for dim in decl.dims] + \
        [(dim, Env(env.ctx, None, scope)) for dim, scope in info.dims]


def _dims(decl: ast.Component, env: Env, info: ClassInfo, mod) -> tuple:
    """The sizes of a component's dimensions, and the type of index of each (see Node)."""
    if not decl.dims and not info.dims:
        return (), ()  # (a scalar, most components)
    dims, index_types = [], []
    if any(isinstance(dim, ast.Colon) for dim in decl.dims):
        mod = _sizing_mod(mod)
    for position, (dim, dim_env) in enumerate(_dim_expressions(decl, env, info)):
        if isinstance(dim, ast.Colon):
            if mod is None or mod.binding is None:
                raise FlattenError(f"the size of '{decl.name}' is ':' but it has no binding",
                                   dim.span)
            value_shape = _binding_shape(mod, position + 1)
            if position >= len(value_shape):
                raise FlattenError(f"the binding of '{decl.name}' has too few dimensions",
                                   mod.span)
            dims.append(value_shape[position])
            index_types.append("")
            continue
        size, index_type = _dimension_and_index(dim, dim_env)
        if size < 0:
            raise FlattenError(f"array dimension is negative ({size})", dim.span)
        dims.append(size)
        index_types.append(index_type)
    if any(isinstance(dim, ast.Colon) for dim in decl.dims):
        value_shape = _binding_shape(mod, len(dims))
        if tuple(value_shape[:len(dims)]) != tuple(dims):
            raise FlattenError(f"the binding of '{decl.name}' has sizes {list(value_shape)}, "
                               f"which do not fit its declared sizes (MLS 10.1)", mod.span)
    return tuple(dims), tuple(index_types)


_ARRAY_ATTRIBUTES = ("start", "fixed", "nominal", "min", "max", "quantity", "unit",
                     "displayUnit", "stateSelect")


def _sizing_mod(mod):
    """The modification whose binding gives the sizes of ':' dimensions: the binding, else
    an array attribute that is not 'each' (``x[:](start = f(a))``, MLS 10.1)."""
    if mod is None or mod.binding is not None:
        return mod
    for name in _ARRAY_ATTRIBUTES:
        attribute = mod.args.get(name)
        if attribute is not None and attribute.binding is not None and not attribute.each:
            return attribute
    return mod


def _binding_shape(mod, rank: int) -> tuple:
    """The sizes of a binding, at least ``rank`` of them where an empty array's are known."""
    value_shape = shape(translation.binding_value(mod))
    if len(value_shape) < rank and value_shape[-1:] == (0,):
        value_shape = _empty_shape(mod.binding) or value_shape
    return value_shape


def _empty_shape(binding) -> tuple | None:
    """The sizes of an empty array that ``fill``, ``zeros`` or ``ones`` makes (an empty value
    keeps no sizes after its first 0: ``fill(0.0, 0, 2)`` of CombiTimeTable's table)."""
    expr = binding.expr
    if not isinstance(expr, ast.Call) or expr.named or expr.func.dotted not in \
            ("fill", "zeros", "ones"):
        return None
    sizes = expr.args[1:] if expr.func.dotted == "fill" else expr.args
    return tuple(_dimension(size, binding.env) for size in sizes)


def _dimension(dim, env) -> int:
    return _dimension_and_index(dim, env)[0]


def _dimension_and_index(dim, env) -> tuple:
    """An array size: an Integer parameter expression, or an enumeration type or Boolean
    (``Real x[Logic]``: one element per literal, indexed by the literals); with the type of
    its indices ("" for Integer ones)."""
    from compiler import flat
    if isinstance(dim, ast.ComponentRef) and dim.dotted == "Boolean" and not dim.is_global:
        return 2, "Boolean"
    value = evaluation.evaluate_structural(dim, env, "an array dimension")
    if type(value) is tuple and value and all(type(item) is flat.EnumConst for item in value):
        return len(value), value[0].type
    if value == (False, True) and all(isinstance(item, bool) for item in value):
        return 2, "Boolean"  # a type derived from Boolean (``type B = Boolean``)
    if isinstance(value, bool) or not isinstance(value, int):
        return evaluation.evaluate_structural(dim, env, "an array dimension", expect=int), ""
    return value, ""


def _indices(dims: tuple):
    return itertools.product(*(range(1, size + 1) for size in dims)) if dims else [()]


def _index_text(index: tuple) -> str:
    return "[" + ",".join(map(str, index)) + "]" if index else ""
