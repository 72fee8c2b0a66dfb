"""Records as lists of scalar-typed leaves, for functions with record inputs and outputs.

Input: the ``ClassInfo`` of a record. Output: its ``Leaf``s in declaration order (nested
records expanded: ``Complex`` is ``re``, ``im``), the leaf parts of a record value, and the
record value made of leaf parts. A function variable ``c`` of a record type becomes one
function variable per leaf (``c.re``, ``c.im``), so flat functions only hold scalars and
arrays of them.
"""
from __future__ import annotations

from dataclasses import dataclass

from compiler.flatten.errors import FlattenError
from compiler.flatten.values import RecordValue


@dataclass(frozen=True)
class Leaf:
    """A scalar-typed field of a record, possibly inside nested records.

    ``dims`` are the array dimensions met on the way (arrays of nested records, then the
    field's own), each ``(expression, scope)``; ``levels[k]`` says how many of them the
    declaration of ``path[k]`` adds; ``records[k]`` is the record class holding ``path[k]``.
    """

    path: tuple[str, ...]
    type: str            # Real, Integer, Boolean, String or an enumeration's full name
    dims: tuple
    levels: tuple[int, ...]
    records: tuple[str, ...]
    decls: tuple

    @property
    def name(self) -> str:
        return ".".join(self.path)


def record_leaves(classes, info) -> tuple[Leaf, ...]:
    """The leaves of the record class ``info`` (cached per class)."""
    cached = classes.leaf_cache.get(id(info))
    if cached is None:
        cached = classes.leaf_cache[id(info)] = tuple(_leaves(classes, info, (), (), (), (), (),
                                                              0))
    return cached


def _leaves(classes, info, path, dims, levels, records, decls, depth):
    if depth > 20:
        raise FlattenError(f"record {info.name} nests too deeply", None)
    for name, member in info.members.items():
        decl = member.decl
        field_info = classes.expand(classes.lookup_class(decl.type_name, member.scope,
                                                         decl.span), decl.span)
        own = tuple((dim, member.scope) for dim in decl.dims) + field_info.dims
        here = (path + (name,), dims + own, levels + (len(own),), records + (info.name,),
                decls + (decl,))
        if field_info.is_structured:
            if field_info.kind not in ("record", "operator record"):
                raise FlattenError(f"field '{name}' of record {info.name} is a "
                                   f"{field_info.kind}", decl.span)
            yield from _leaves(classes, field_info, *here, depth + 1)
            continue
        type_name = field_info.type_name
        yield Leaf(here[0], type_name, here[1], here[2], here[3], here[4])


def leaf_value(value, path: tuple[str, ...]):
    """The part of a record value (or of an array of them, as nested tuples) at ``path``;
    ``KeyError`` when the value has no such field."""
    for name in path:
        value = _field(value, name)
    return value


def _field(value, name: str):
    if type(value) is tuple:
        return tuple(_field(item, name) for item in value)
    if type(value) is not RecordValue or name not in value.fields:
        raise KeyError(name)
    return value.fields[name]


def record_from_leaves(type_name: str, leaves, parts: dict,
                       split_arrays: bool = True) -> RecordValue:
    """The record value whose leaf ``leaf.name`` is ``parts[leaf.name]`` (nested tuples over
    the leaf's ``dims``); arrays of nested records become tuples of records, unless
    ``split_arrays`` is false (in function bodies, where arrays are whole expressions)."""
    return _build([(leaf, parts[leaf.name]) for leaf in leaves], 0, type_name, split_arrays)


def _build(items: list, depth: int, type_name: str, split: bool) -> RecordValue:
    groups: dict = {}
    for leaf, value in items:
        groups.setdefault(leaf.path[depth], []).append((leaf, value))
    fields = {}
    for name, group in groups.items():
        first = group[0][0]
        if len(first.path) == depth + 1:
            fields[name] = group[0][1]
        else:
            nested = group[0][0].records[depth + 1]
            count = first.levels[depth] if split else 0
            fields[name] = _array_of(group, count, depth + 1, nested, split)
    return RecordValue(type_name, fields)


def _array_of(group: list, count: int, depth: int, type_name: str, split: bool):
    if count == 0:
        return _build(group, depth, type_name, split)
    size = len(group[0][1])
    return tuple(_array_of([(leaf, value[i]) for leaf, value in group], count - 1, depth,
                           type_name, split) for i in range(size))
