"""Modifications as a merged tree: ``Mod`` values, built from the AST, merged outer over inner.

Input: ``ast.Modification``s with the environment their expressions are written in. Output:
``Mod`` trees (one per element) whose bindings are selected per array element (``indexed``)
and per record field (``field``) as components are instantiated.
"""
from __future__ import annotations

from compiler.flatten.errors import FlattenError
from compiler.lang import ast


class Binding:
    """An expression and the environment it is written in; its translated value is cached
    here, so the elements of an array share one translation."""

    __slots__ = ("expr", "env", "value", "call")

    def __init__(self, expr: ast.Expr, env):
        self.expr = expr
        self.env = env
        self.value = None
        self.call = None  # a call with an array or record result bound as a whole


class Mod:
    """The modification of one element.

    Attributes
    ----------
    binding : Binding or None
        ``= expr``; ``select`` picks the part of its value this element gets (array indices
        for the elements of an array component, field names for the fields of a record).
    args : dict[str, Mod]
        Modifications of sub-elements by name.
    redeclare : tuple or None
        ``(element, env)`` when this element is redeclared (a Component or a ClassDef).
    derived : bool
        The binding is this field's part of a whole record's binding (``r = r0``): it does
        not override a ``final`` field's own binding, which gives the same value.
    shadowed : bool
        This sub-modification comes from a level inside a binding of the whole element
        (``r(x = 1)`` declared, ``r = r0`` given from outside): for a record field, the
        outer binding's part wins over it.
    """

    __slots__ = ("binding", "select", "args", "redeclare", "each", "final", "span", "derived",
                 "shadowed")

    def __init__(self, binding=None, select=(), args=None, redeclare=None, each=False,
                 final=False, span=None, derived=False, shadowed=False):
        self.binding = binding
        self.select = select
        self.args = args if args is not None else {}
        self.redeclare = redeclare
        self.each = each
        self.final = final
        self.span = span
        self.derived = derived
        self.shadowed = shadowed

    def copy(self, **changes) -> Mod:
        fields = {name: getattr(self, name) for name in Mod.__slots__}
        fields.update(changes)
        return Mod(**fields)

    @property
    def empty(self) -> bool:
        return self.binding is None and not self.args and self.redeclare is None


def from_ast(modification: ast.Modification | None, env, final: bool = False,
             each: bool = False) -> Mod | None:
    """The Mod of an AST modification whose expressions are written in ``env``."""
    if modification is None:
        return Mod(final=True) if final else None
    binding = Binding(modification.binding, env) if modification.binding is not None else None
    return Mod(binding, (), from_arguments(modification.arguments, env), None, each, final,
               modification.span)


def from_arguments(arguments, env) -> dict[str, Mod]:
    """Sub-modifications by name; ``a.b = 1`` becomes ``a(b = 1)``."""
    args: dict[str, Mod] = {}
    for argument in arguments:
        if isinstance(argument, ast.ElementRedeclare):
            name = argument.element.name
            sub = Mod(redeclare=(argument.element, env), each=argument.each,
                      final=argument.final, span=argument.span)
            path = (name,)
        else:
            path = argument.name
            sub = from_ast(argument.modification, env) or Mod()
            sub.each, sub.final, sub.span = argument.each, argument.final, argument.span
        _insert(args, path, sub)
    return args


def _insert(args: dict, path: tuple, sub: Mod) -> None:
    name = path[0]
    if len(path) > 1:
        holder = args.get(name)
        if holder is None:
            holder = args[name] = Mod(span=sub.span)
        _insert(holder.args, path[1:], sub)
        return
    existing = args.get(name)
    if existing is not None:
        if existing.binding is not None and sub.binding is not None:
            raise FlattenError(f"'{name}' is modified twice in the same modification", sub.span)
        args[name] = merge(sub, existing, name) if existing.args or sub.args else _pick(sub, existing)
    else:
        args[name] = sub


def _pick(sub: Mod, existing: Mod) -> Mod:
    return sub if sub.binding is not None or sub.redeclare is not None else existing


def merge(outer: Mod | None, inner: Mod | None, name: str) -> Mod | None:
    """``outer`` applied on top of ``inner`` (outer wins); modifying a final element is an error."""
    if outer is None:
        return inner
    if inner is None:
        return outer
    overrides = outer.binding is not None and not (outer.derived and inner.final and
                                                   inner.binding is not None)
    modifies = (overrides and not outer.derived) or outer.args or outer.redeclare is not None
    if inner.final and modifies:
        raise FlattenError(f"'{name}' is final and cannot be modified", outer.span or inner.span)
    if overrides:
        binding, select, each, derived = outer.binding, outer.select, outer.each, outer.derived
    else:
        binding, select, each, derived = inner.binding, inner.select, inner.each, inner.derived
    args = dict(inner.args)
    if overrides and not outer.derived:
        args = {key: sub.copy(shadowed=True) for key, sub in args.items()}
    for key, sub in outer.args.items():
        args[key] = merge(sub, inner.args.get(key), f"{name}.{key}")
    return Mod(binding, select, args, outer.redeclare or inner.redeclare, each,
               outer.final or inner.final, outer.span or inner.span, derived)


def merge_all(layers, name: str) -> Mod | None:
    """Merge layers given outermost first."""
    result = None
    for layer in reversed(layers):
        result = merge(layer, result, name) if result is not None else layer
    return result


def indexed(mod: Mod | None, index: tuple) -> Mod | None:
    """The modification of one element of an array component (``each`` parts are shared by
    the elements, and split again by the arrays inside them)."""
    if mod is None or index == ():
        return mod
    if mod.each:
        return mod.copy(each=False)
    binding, select = mod.binding, mod.select
    if binding is not None:
        select = select + index
    args = {key: (sub.copy(each=False) if sub.each else indexed(sub, index))
            for key, sub in mod.args.items()}
    return Mod(binding, select, args, mod.redeclare, mod.each, mod.final, mod.span, mod.derived)


def field(mod: Mod | None, name: str) -> Mod | None:
    """The modification of field ``name`` of a record whose modification is ``mod``: its own
    sub-modification over the field's part of the record's binding."""
    if mod is None:
        return None
    sub = mod.args.get(name)
    if mod.binding is None:
        return sub
    # (``each`` of the record's binding spoke of an array of records, already indexed: the
    # field's own array elements take their parts of it)
    part = Mod(mod.binding, mod.select + (name,), span=mod.span, final=mod.final, derived=True)
    if sub is None:
        return part
    if sub.shadowed:
        # declared inside, overridden by the binding of the whole record from outside
        return merge(part, sub.copy(binding=None, final=False), name)
    return merge(sub, part, name)
