"""Name resolution: component references and type names read in an ``Env``.

Input: ``ast.ComponentRef``/``ast.TypeName`` and an ``Env``. Output: values (``flat.Var`` of
scalar names, arrays of them, records of them), package constants' values, enumeration
literals; classes for type names. Subscripts must be parameter expressions.
"""
from __future__ import annotations

from compiler import flat
from compiler.flatten import evaluate as evaluation
from compiler.flatten import instances
from compiler.flatten import translate as translation
from compiler.flatten.classes import BUILTIN_CLASSES, Member
from compiler.flatten.context import Env
from compiler.flatten.errors import FlattenError, NotEvaluable
from compiler.flatten.modifiers import from_arguments, from_ast, merge_all
from compiler.flatten.rules import visibility
from compiler.flatten.subscript_values import cached_value
from compiler.flatten.values import RecordValue, ShapeError, constant, elementwise, shape
from compiler.lang import ast, unparse
from compiler.library import ClassEntry


def resolve_type(inst, type_name: ast.TypeName, scope: ClassEntry) -> ClassEntry:
    """The class of a component declared in ``inst`` (its redeclared classes come first)."""
    classes = inst.ctx.classes
    redeclared = inst.mod is not None and type_name.parts[0] in inst.mod.args
    local = inst.info.classes.get(type_name.parts[0])
    # (an ``outer`` class is the inner one of the instances around: no class of its own)
    redeclared = redeclared or (local is not None and classes.definition(local).outer)
    key = (id(inst.info), id(type_name), id(scope))
    if not redeclared:
        found = classes.type_cache.get(key)
        if found is not None:
            return found
    found = _resolve_type(inst, type_name, scope, classes)
    if not redeclared:
        classes.type_cache[key] = found
    return found


def _resolve_type(inst, type_name, scope, classes):
    if not type_name.is_global:
        local = inst.class_named(type_name.parts[0])
        if local is not None:
            local = classes.seen_from(local, scope)
            for part in type_name.parts[1:]:
                local = classes.public_member_of(local, part, type_name.span)
                if not isinstance(local, ClassEntry):
                    raise FlattenError(f"unknown type '{type_name.dotted}'", type_name.span)
            return local
    return classes.lookup_class(type_name, scope, type_name.span)


def resolve(ref: ast.ComponentRef, env):
    """The value a component reference denotes."""
    parts = ref.parts
    first = parts[0]
    ctx = env.ctx
    if ref.is_global:
        found = ctx.classes.library.root(first.name)
    else:
        name = first.name
        if name in env.iterators:
            value = env.iterators[name]
            value = with_dynamic(_selections(first, shape(value), env, name),
                                 lambda chosen: pick_nested(value, chosen), env)
            return _fields(value, parts, 1, ref)
        inst = env.instance
        hidden = inst is not None and env.scope is not inst.info.entry and \
            _only_derived(inst, env.scope, name, ctx)
        if inst is not None and not hidden:
            node = inst.member(name)
            if node is not None:
                return _descend(node, parts, 0, env, ref)
            cls = inst.class_named(name)
            if cls is not None:
                return _static(cls, parts, 1, env, ref)
        if name == "time" and len(parts) == 1 and not first.subscripts:
            _check_time(env, first.span)
            return flat.TIME
        found = ctx.classes.lookup(name, env.scope, span=first.span)
        if found is None and hidden:
            raise FlattenError(f"'{name}' is declared in {inst.info.name}, a class derived from "
                               f"{env.scope.full_name}, whose text cannot use it (MLS 7.1)",
                               first.span or ref.span)
    if found is None:
        raise FlattenError(f"unknown name '{_text(ref)}'", first.span or ref.span)
    if isinstance(found, Member):
        return _constant_ref(found, parts, 0, env, ref)
    return _static(found, parts, 1, env, ref)


_DATA_KINDS = frozenset({"record", "operator record", "connector", "expandable connector"})


def _only_derived(inst, scope, name: str, ctx) -> bool:
    """Whether ``name``, read in the text of a base class ``scope`` of the instance's class,
    is an element the derived class declares: the base class does not see it (MLS 7.1), and
    the name is looked up where the base class is written instead."""
    if scope is None or scope is inst.info.entry or id(scope) not in inst.info.bases:
        return False
    base = ctx.classes.expand(scope)
    return name not in base.members and name not in base.classes


def _check_time(env, span) -> None:
    """``time`` is a variable of models and blocks (MLS 3.6.7), not of records and connectors."""
    if env.scope is None:
        return
    info = env.ctx.classes.expand(env.scope, span)
    if info.kind in _DATA_KINDS:
        raise FlattenError(f"'time' is only available in models and blocks, not in {info.kind} "
                           f"{info.name} (MLS 3.6.7)", span)


def check_unconditional(node, part) -> None:
    """A conditional component is only modified or connected (MLS 4.4.5)."""
    if node.decl is not None and node.decl.condition is not None:
        raise FlattenError(f"'{part.name}' is a conditional component: it may only be modified "
                           "or used in connections (MLS 4.4.5)", part.span)


def _text(ref: ast.ComponentRef) -> str:
    return unparse(ref)


# -------------------------------------------------------------------------- instance parts
def element_value(element):
    """The value of an instantiated element: a variable, or a record of its fields."""
    if type(element) is instances.VarRecord:
        return flat.Var(element.name)
    if element.info.kind not in ("record", "connector", "operator record"):
        raise FlattenError(f"'{element.path}' is a {element.info.kind} component, not a value",
                           element.span)
    fields = {}
    for name, node in element.all_members():
        if node is instances.REMOVED:
            continue
        fields[name] = pick_flat(node.elements, node.dims, [list(range(1, size + 1))
                                                             for size in node.dims])
        fields[name] = _map(element_value, fields[name])
    return RecordValue(element.info.name, fields)


def declared_node(ref: ast.ComponentRef, position: int, env):
    """The instance node of part ``position`` of ``ref`` (its dimensions do not depend on
    which element of the arrays before it is chosen), or None for a name that is not a
    component of the instance."""
    if env.instance is None or ref.is_global or ref.parts[0].name in env.iterators:
        return None
    node = env.instance.member(ref.parts[0].name)
    for part in ref.parts[1:position + 1]:
        if node is None or node is instances.REMOVED or not node.elements or \
                type(node.elements[0]) is instances.VarRecord:
            return None
        node = node.elements[0].member(part.name)
    return None if node is instances.REMOVED else node


class Removed(Exception):
    """Internal: the reference goes through a component disabled by its condition."""


def resolve_elements(ref: ast.ComponentRef, env):
    """The instantiated elements (``Instance``/``VarRecord``, nested tuples for arrays) a
    reference names in ``env.instance``, or None when it goes through a disabled component."""
    node = env.instance.member(ref.parts[0].name)
    if node is None:
        raise FlattenError(f"unknown name '{_text(ref)}'", ref.parts[0].span or ref.span)
    try:
        return _descend(node, ref.parts, 0, env, ref, leaf=None)
    except Removed:
        return None


def _descend(node, parts, k: int, env, ref, leaf=element_value):
    part = parts[k]
    if node is instances.REMOVED:
        if leaf is None:
            raise Removed()
        raise FlattenError(f"component '{part.name}' is disabled by its condition and cannot "
                           "be used", part.span)
    if leaf is not None and node.decl is not None and node.decl.condition is not None:
        check_unconditional(node, part)
    selections = _selections(part, node.dims, env, part.name, node.index_types)
    if any(type(item) is Dynamic for item in selections):
        if leaf is None:
            raise FlattenError(f"the subscript of '{part.name}' must be a parameter expression "
                               "here", part.span)
        return with_dynamic(selections, lambda chosen: _descend_chosen(
            node, chosen, parts, k, env, ref, leaf), env)
    return _descend_chosen(node, selections, parts, k, env, ref, leaf)


def _descend_chosen(node, selections, parts, k: int, env, ref, leaf):
    selected = pick_flat(node.elements, node.dims, selections)
    if k + 1 == len(parts):
        return selected if leaf is None else _map(leaf, selected)
    following = parts[k + 1]

    def step(element):
        if type(element) is instances.VarRecord:
            raise FlattenError(f"'{element.name}' is a {element.type} variable and has no "
                               f"component '{following.name}'", following.span)
        child = element.member(following.name)
        if child is not None:
            if following.name in element.info.protected:
                visibility.check_public(element.info, following.name, following.span)
            if node.view is not None and following.name not in node.view.members:
                raise FlattenError(f"'{following.name}' is not an element of {node.view.name}, "
                                   f"the type of the outer component '{node.name}' (MLS 5.4)",
                                   following.span)
        if child is None:
            raise FlattenError(f"unknown name '{following.name}' in '{element.path}' "
                               f"(class {element.info.name})", following.span)
        return _descend(child, parts, k + 1, env, ref, leaf)
    return _map(step, selected)


def _map(function, selected):
    if type(selected) is tuple:
        return tuple(_map(function, item) for item in selected)
    return function(selected)


def _selections(part: ast.RefPart, dims: tuple, env, name: str, index_types=()) -> list:
    """One entry per dimension: an int (dimension dropped) or a list of ints (kept);
    ``index_types`` are the enumerations (or Boolean) indexing the dimensions ("" Integer)."""
    subscripts = part.subscripts
    if len(subscripts) > len(dims):
        raise FlattenError(f"wrong number of subscripts for '{name}': {len(subscripts)} given, "
                           f"it has {len(dims)} dimension{'s' if len(dims) != 1 else ''}",
                           part.span)
    selections = []
    for position, subscript in enumerate(subscripts):
        size = dims[position]
        if type(subscript) is ast.Colon:
            selections.append(list(range(1, size + 1)))
            continue
        value = _known_integer(subscript, env)
        if value is None:
            value = cached_value(subscript, size, env,
                                 lambda: _subscript_value(subscript, size, env, name))
            if type(value) is Dynamic:
                selections.append(value)
                continue
        if position < len(index_types):
            _check_index_type(value, index_types[position], name, subscript.span)
        selections.append(_check_index(value, size, name, subscript.span))
    selections.extend(list(range(1, size + 1)) for size in dims[len(subscripts):])
    return selections


def _subscript_value(subscript, size: int, env, name: str):
    """The value of a subscript of a dimension of ``size``, or ``Dynamic`` for one that
    varies."""
    index = translation.translate(subscript, env.with_end(size))
    try:
        return evaluation.evaluate(index, env.ctx, structural=True)
    except NotEvaluable as error:
        if type(index) is tuple or not _varies(index, env):
            raise FlattenError(f"the subscript of '{name}' must be a parameter expression: "
                               f"{error.reason}", subscript.span) from None
        return Dynamic(index, size, subscript.span)


def _known_integer(subscript, env) -> int | None:
    """The value of a subscript that is an Integer literal or a for-index of Integer value
    (``u[i, 2]`` in a for-equation: most subscripts of unrolled array equations), without
    translating and evaluating it; None for any other subscript."""
    kind = type(subscript)
    if kind is ast.IntLit:
        return subscript.value
    if kind is not ast.ComponentRef or subscript.is_global or len(subscript.parts) != 1:
        return None
    part = subscript.parts[0]
    value = None if part.subscripts else env.iterators.get(part.name)
    if type(value) is flat.Const and type(value.value) is int:
        return value.value
    return None


def _check_index_type(value, expected: str, name: str, span) -> None:
    """A dimension given by an enumeration or Boolean is indexed by its values, an Integer
    one by Integers (MLS 10.5.1)."""
    for item in (value if type(value) is tuple else (value,)):
        found = item.type if type(item) is flat.EnumConst else \
            "Boolean" if isinstance(item, bool) else ""
        if found != expected and isinstance(item, (int, flat.EnumConst)):
            raise FlattenError(f"the subscript of '{name}' is {'an Integer' if not found else found}"
                               f", but the dimension is indexed by "
                               f"{expected or 'Integer'} values (MLS 10.5.1)", span)


class Dynamic:
    """A subscript known only while simulating (``table[i, x]`` with ``i`` a variable): the
    value is chosen among the elements by if-expressions on it."""

    __slots__ = ("index", "size", "span")

    def __init__(self, index, size: int, span):
        self.index = index
        self.size = size
        self.span = span


_MAX_DYNAMIC = 4096  # elements a variable subscript may choose among


def _varies(index, env) -> bool:
    """Whether a subscript depends on variables or on parameters computed during
    initialization (``fixed = false``; not merely on a parameter without value)."""
    from compiler.flatten.algorithms import computed_parameter
    from compiler.flatten.exprtypes import is_parameter_expression
    from compiler.flatten.walk import nodes
    if not is_parameter_expression(index, env.ctx):
        return True
    records = (env.ctx.variables.get(node.name) for node in nodes(index) if type(node) is flat.Var)
    return any(record is not None and record.variability == "parameter" and
               computed_parameter(record, env) for record in records)


def with_dynamic(selections: list, compute, env):
    """``compute(selections)``, each ``Dynamic`` subscript replaced by every index it may
    take, the values combined by if-expressions on the subscript (noEvent: an Integer or
    enumeration subscript changes at events only)."""
    for position, item in enumerate(selections):
        if type(item) is Dynamic:
            total = 1
            for other in selections:
                total *= other.size if type(other) is Dynamic else 1
            if total > _MAX_DYNAMIC:
                raise FlattenError(f"a subscript that varies chooses among {total} elements "
                                   f"(at most {_MAX_DYNAMIC})", item.span)
            options = []
            for k in range(1, item.size + 1):
                chosen = list(selections)
                chosen[position] = k
                options.append(with_dynamic(chosen, compute, env))
            return _choose(item, options, env)
    return compute(selections)


def _choose(item: Dynamic, options: list, env):
    from compiler.flatten.exprtypes import expr_type
    from compiler.flatten.values import if_value
    index = item.index
    if expr_type(index, env.ctx) not in ("Integer", "Real", "Boolean", ""):
        index = flat.Call("Integer", (index,))  # an enumeration: compare its ordinal
    elif expr_type(index, env.ctx) == "Boolean":
        index = flat.IfExpr(index, flat.Const(2), flat.Const(1))
    result = options[-1]
    for k in range(len(options) - 1, 0, -1):
        condition = flat.Call("noEvent", (flat.Binary("==", index, flat.Const(k)),))
        try:
            result = if_value(condition, options[k - 1], result)
        except ShapeError as error:
            raise FlattenError(str(error), item.span) from None
    return result


def _check_index(value, size: int, name: str, span):
    if type(value) is tuple:
        return [_check_index(item, size, name, span) for item in value]
    if type(value) is flat.EnumConst:
        value = value.ordinal
    elif isinstance(value, bool):
        value = 2 if value else 1  # an array with a Boolean dimension: [false, true]
    elif not isinstance(value, int):
        raise FlattenError(f"the subscript of '{name}' must be an Integer, not {value!r}", span)
    if not 1 <= value <= size:
        raise FlattenError(f"subscript {value} is out of range for '{name}' (size {size})", span)
    return value


def pick_flat(elements: list, dims: tuple, selections: list):
    """Select from a row-major element list: an element, or nested tuples of them."""
    if not dims:
        return elements[0]
    strides = [1] * len(dims)
    for d in range(len(dims) - 2, -1, -1):
        strides[d] = strides[d + 1] * dims[d + 1]

    def build(d: int, offset: int):
        if d == len(dims):
            return elements[offset]
        chosen = selections[d]
        if type(chosen) is int:
            return build(d + 1, offset + (chosen - 1) * strides[d])
        return tuple(build(d + 1, offset + (i - 1) * strides[d]) for i in chosen)
    return build(0, 0)


def pick_nested(value, selections: list):
    """Select from a nested-tuple value."""
    if not selections:
        return value
    chosen = selections[0]
    if type(chosen) is int:
        return pick_nested(value[chosen - 1], selections[1:])
    return tuple(pick_nested(value[i - 1], selections[1:]) for i in chosen)


def _fields(value, parts, k: int, ref):
    """Record fields ``parts[k:]`` of a value."""
    from compiler.flatten.records import leaf_value
    for part in parts[k:]:
        try:
            # (of an array of records, the array of the field: ``data.MM``)
            value = leaf_value(value, (part.name,))
        except KeyError:
            raise FlattenError(f"'{part.name}' is not a field of this value",
                               part.span) from None
        if part.subscripts:
            raise FlattenError("subscripts on record fields of constants are not supported",
                               part.span)
    return value


# --------------------------------------------------------------------- classes and constants
def _static(entry: ClassEntry, parts, k: int, env, ref):
    """Parts ``k:`` of a reference that named class ``entry`` so far."""
    classes = env.ctx.classes
    while k < len(parts):
        part = parts[k]
        info = classes.expand(entry, part.span)
        if info.builtin == "enumeration":
            return _literal(info, part, parts, k, env)
        found = classes.public_member_of(entry, part.name, part.span)
        if found is None:
            raise FlattenError(f"unknown name '{part.name}' in {info.kind} {info.name}",
                               part.span)
        if isinstance(found, Member):
            return _constant_ref(found, parts, k, env, ref)
        if part.subscripts:
            raise FlattenError(f"'{part.name}' is a class and cannot be subscripted", part.span)
        entry = found
        k += 1
    info = classes.expand(entry, ref.span)
    if info.builtin == "enumeration":
        register_enumeration(env.ctx, info)
        return tuple(flat.EnumConst(info.type_name, name, ordinal)
                     for ordinal, name in enumerate(info.literals, start=1))
    if info.builtin == "Boolean" and not info.dims:
        return flat.Const(False), flat.Const(True)  # a range ``for b in Boolean`` (MLS 11.2.2)
    raise FlattenError(f"'{_text(ref)}' is a class, not a value", ref.span)


def _literal(info, part, parts, k: int, env):
    if part.name not in info.literals:
        raise FlattenError(f"enumeration {info.name} has no literal '{part.name}'", part.span)
    if k + 1 < len(parts) or part.subscripts:
        raise FlattenError(f"'{part.name}' is an enumeration literal", part.span)
    register_enumeration(env.ctx, info)
    return flat.EnumConst(info.type_name, part.name, info.literals.index(part.name) + 1)


def register_enumeration(ctx, info) -> None:
    """Record an enumeration type the flat model uses (built-in ones need no declaration)."""
    name = info.type_name
    if name in ctx.enumerations or BUILTIN_CLASSES.get(name) is info.entry or \
            name in ("StateSelect", "AssertionLevel"):
        return
    span = ctx.classes.definition(info.entry).span
    ctx.enumerations[name] = flat.Enumeration(name, info.literals, span)


def enumeration_literals(ctx, type_name: str) -> tuple:
    if type_name in ("StateSelect", "AssertionLevel"):
        return ctx.classes.expand(BUILTIN_CLASSES[type_name]).literals
    return ctx.enumerations[type_name].literals


def _constant_ref(member: Member, parts, k: int, env, ref):
    """Parts ``k:`` of a reference whose part ``k`` is a constant of a class (not an instance)."""
    part = parts[k]
    if member.decl.outer and env.instance is not None:
        # ``outer constant T0`` of a package: the inner one of the instances around (MLS 5.4)
        inner = enclosing_inner(env.instance, member.decl.name)
        if inner is None:
            raise FlattenError(f"no 'inner' declaration of '{member.decl.name}' encloses this "
                               "'outer' constant", part.span)
        return _descend(inner, parts, k, env, ref)
    value = package_constant(member, env.ctx, part.span)
    value = with_dynamic(_selections(part, shape(value), env, part.name),
                         lambda chosen: pick_nested(value, chosen), env)
    return _fields(value, parts, k + 1, ref)


def enclosing_inner(holder, name: str):
    """The node of the ``inner`` component ``name`` of ``holder`` or the nearest instance
    around it, or None."""
    while holder is not None:
        member = holder.info.members.get(name)
        if member is not None and member.decl.inner:
            return holder.inner_member(name) if member.decl.outer else holder.member(name)
        holder = holder.parent
    return None


def _modified_records(ctx, info, mod, decl, member) -> tuple:
    """An array (one dimension) of record constants given by modifications."""
    from compiler.flatten.modifiers import indexed
    if len(decl.dims) != 1:
        raise FlattenError(f"constant '{decl.name}': an array of records with more than one "
                           "dimension given by modifications is not supported", decl.span)
    size = evaluation.evaluate(translation.translate(
        decl.dims[0], Env(ctx, None, ctx.classes.inherited_scope(member.scope, member.holder))),
        ctx, structural=True)
    return tuple(_modified_record(ctx, info, indexed(mod, (k,)), decl.span)
                 for k in range(1, size + 1))


def _modified_record(ctx, info, mod, span, key=None) -> RecordValue:
    """A record constant given by modifications of its fields (nested records too), the
    other fields from their defaults. While they are computed, the constant (cached under
    ``key``) holds the fields so far: ``R_s = R/H2O.MM`` in ``H2O(MM = ...)``."""
    from compiler.flatten.calls import record_value
    fields = {}
    if key is not None:
        ctx.constants[key] = RecordValue(info.name, fields)
    for name, sub in mod.args.items():
        member = info.members.get(name)
        if member is None:
            raise FlattenError(f"record {info.name} has no field '{name}'", sub.span or span)
        if sub.binding is not None:
            fields[name] = translation.binding_value(sub)
        elif sub.args:
            field_info = ctx.classes.expand(ctx.classes.lookup_class(
                member.decl.type_name, member.scope), span)
            if field_info.kind not in ("record", "operator record") or member.decl.dims:
                continue  # attributes of a scalar field (``x(unit = "m")``)
            fields[name] = _modified_record(ctx, field_info, sub, span)
    return record_value(ctx, info, fields, span)


def package_constant(member: Member, ctx, span):
    """The value of a constant declared in a class, evaluated where possible."""
    # the extends modifications that reach the constant take part: ``package P extends
    # Base(x = 1.4)`` gives ``P.x`` another value than ``Base.x``
    key = (id(member.scope), id(member.holder), member.decl.name,
           tuple((id(scope), tuple(map(id, args))) for args, scope in member.layers))
    if key in ctx.constants:
        return ctx.constants[key]
    decl = member.decl
    if decl.variability != "constant":
        raise FlattenError(f"'{decl.name}' is not a constant, so it cannot be used from outside "
                           f"an instance of {member.scope.full_name}", span)
    seen = ctx.classes.inherited_scope
    layers = [from_arguments(args, Env(ctx, None, seen(scope, member.holder))).get(decl.name)
              for args, scope in member.layers]
    layers.append(from_ast(decl.modification, Env(ctx, None,
                                                  seen(member.scope, member.holder))))
    mod = merge_all([layer for layer in layers if layer is not None], decl.name)
    info = ctx.classes.expand(ctx.classes.lookup_class(decl.type_name, member.scope), span)
    if mod is not None and mod.binding is None and mod.args and \
            info.kind in ("record", "operator record"):
        if decl.dims:  # ``constant R r[2](each x = 1, y = {1, 2})``
            value = _modified_records(ctx, info, mod, decl, member)
        else:
            value = _modified_record(ctx, info, mod, decl.span, key)  # ``constant R r(x = 1)``
    elif mod is None or mod.binding is None:
        raise FlattenError(f"constant '{decl.name}' has no value", decl.span)
    else:
        value = translation.binding_value(mod)

    def fold(item):
        try:
            result = evaluation.evaluate(item, ctx)
        except (NotEvaluable, ShapeError):
            return item
        if info.builtin == "Real" and isinstance(result, int) and not isinstance(result, bool):
            result = float(result)
        return constant(result)
    value = elementwise(fold, value) if type(value) is not RecordValue else value
    ctx.constants[key] = value
    return value
