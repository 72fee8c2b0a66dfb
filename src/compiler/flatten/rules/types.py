"""Type compatibility of classes: whether one class is a subtype of another (MLS 6.4-6.6), as
inner/outer pairs, redeclarations and constraining types need it.

Input: two expanded classes (``ClassInfo``) and the ``Classes`` that expand the types of their
elements. Output: None when ``sub`` is a subtype of ``base``, else a short reason. Elements are
compared by name, kind of type and number of dimensions; nested types are compared a few
levels deep (deeper ones are taken as compatible).
"""
from __future__ import annotations

from compiler.flatten.errors import FlattenError

_DEPTH = 3


def subtype_problem(classes, sub, base, depth: int = _DEPTH) -> str | None:
    """Why class ``sub`` is not a subtype of class ``base`` (None when it is)."""
    if sub is base:
        return None
    if base.builtin is not None or sub.builtin is not None:
        return _simple_problem(sub, base)
    if len(sub.dims) != len(base.dims):
        return f"{sub.name} has {len(sub.dims)} dimensions, {base.name} has {len(base.dims)}"
    if depth == 0:
        return None
    for name, member in base.members.items():
        if name in base.protected:
            continue
        other = sub.members.get(name)
        if other is None or name in sub.protected:
            return f"{sub.name} has no public element '{name}' of {base.name}"
        problem = _member_problem(classes, other, member, depth - 1)
        if problem is not None:
            return f"its element '{name}': {problem}"
    return None


def _simple_problem(sub, base) -> str | None:
    if sub.builtin != base.builtin:
        return f"{_type_text(sub)} is not {_type_text(base)}"
    if sub.builtin == "enumeration" and base.literals and sub.literals != base.literals:
        return f"enumeration {sub.type_name} is not {base.type_name}"
    if len(sub.dims) != len(base.dims):
        return f"{sub.name} has {len(sub.dims)} dimensions, {base.name} has {len(base.dims)}"
    return None


def _type_text(info) -> str:
    return info.builtin if info.builtin and info.builtin != "enumeration" else info.name


def _member_problem(classes, sub_member, base_member, depth: int) -> str | None:
    if len(sub_member.decl.dims) != len(base_member.decl.dims):
        return "the number of dimensions differs"
    sub_type, base_type = member_type(classes, sub_member), member_type(classes, base_member)
    if sub_type is None or base_type is None:
        return None
    return subtype_problem(classes, sub_type, base_type, depth)


def member_type(classes, member):
    """The expanded class of a member's declared type, or None when it cannot be told here
    (a type that only a redeclaration supplies)."""
    decl = member.decl
    try:
        return classes.expand(classes.lookup_class(decl.type_name, member.scope), decl.span)
    except FlattenError:
        return None
