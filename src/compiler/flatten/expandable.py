"""Expandable connectors (MLS 9.1.3): the members their connections create, before any
connection is turned into equations.

Input: the model's connect equations with their environments. Output: the expandable
connector instances completed: ``connect(bus.x, sensor.y)`` adds ``x`` (of ``y``'s type) to
``bus``; expandable connectors connected to each other all get the union of their members
(nested buses likewise); declared members that no connection of the set names are removed
(they are only potentially present).
"""
from __future__ import annotations

from compiler.flatten.errors import FlattenError
from compiler.flatten.instances import REMOVED, Instance
from compiler.lang import ast, unparse

EXPANDABLE = "expandable connector"


def is_expandable(element) -> bool:
    return isinstance(element, Instance) and element.info.kind == EXPANDABLE


def complete_expandable(connects) -> bool:
    """Add and remove the members of the expandable connectors ``connects`` name; whether
    any expandable connector was met (the instance lists must then be made again)."""
    pending, joined, named = [], [], {}
    for eq, env in connects:
        sides = [_side(ref, env) for ref in (eq.a, eq.b)]
        for (bus, name, element), (other_ref, _) in ((sides[0], (eq.b, sides[1])),
                                                    (sides[1], (eq.a, sides[0]))):
            if bus is not None:
                named.setdefault(id(bus), (bus, set()))[1].add(name)
                if element is None:
                    pending.append((bus, name, other_ref, env, eq))
        if is_expandable(sides[0][2]) and is_expandable(sides[1][2]):
            joined.append((sides[0][2], sides[1][2]))
    if not named and not joined:
        return False
    _add_pending(pending)
    present = {key: set(names) for key, (_, names) in named.items()}
    buses = {key: bus for key, (bus, _) in named.items()}
    _join(joined, present, buses)
    for key, bus in buses.items():
        keep = present.get(key, set()) | set(bus.added)
        for name in list(bus.info.members):
            if name not in keep and not is_expandable(_first(bus.member(name))):
                bus.members[name] = REMOVED  # declared, but no connection makes it present
    return True


def _side(ref: ast.ComponentRef, env):
    """``(bus, member name, element)`` of a reference: the expandable connector it goes
    through and the member named in it (element None when the member does not exist yet),
    or ``(None, None, element)``."""
    node = env.instance.member(ref.parts[0].name)
    if node is None or node is REMOVED or not node.elements:
        return None, None, None
    element = node.elements[0] if not ref.parts[0].subscripts and len(node.elements) == 1 \
        else None
    for part in ref.parts[1:]:
        if element is None or not isinstance(element, Instance):
            return None, None, None
        if is_expandable(element):
            if part.subscripts:
                raise FlattenError("subscripted members of expandable connectors are not "
                                   "supported", part.span)
            bus = element
            child = bus.member(part.name)
            if child is None or child is REMOVED:
                return (bus, part.name, None) if part is ref.parts[-1] else (None, None, None)
            element = child.elements[0] if len(child.elements) == 1 else None
            if part is ref.parts[-1]:
                return bus, part.name, element
            continue
        child = element.member(part.name)
        if child is None or child is REMOVED or part.subscripts or len(child.elements) != 1:
            return None, None, None
        element = child.elements[0]
    return None, None, element


def _add_pending(pending: list) -> None:
    """Create the members connections name, each of the type of what it is connected to
    (which may itself be a member created here: repeat until nothing is left)."""
    while pending:
        left = []
        for bus, name, other_ref, env, eq in pending:
            if bus.member(name) not in (None, REMOVED):
                continue
            _, _, other = _side(other_ref, env)
            if other is None:
                left.append((bus, name, other_ref, env, eq))
                continue
            bus.add_member(name, other)
        if len(left) == len(pending):
            bus, name, other_ref, _, eq = left[0]
            raise FlattenError(f"cannot tell the type of '{name}' in expandable connector "
                               f"'{bus.path}': '{unparse(other_ref)}' is not a component",
                               eq.span)
        pending = left


def _join(joined: list, present: dict, buses: dict) -> None:
    """Expandable connectors connected to each other: each gets every member present in
    one of them (``present``: id -> names; sub-buses joined in turn)."""
    group_of: dict = {}
    for a, b in joined:
        merged = list(group_of.get(id(a), [a]))
        merged += [item for item in group_of.get(id(b), [b]) if item not in merged]
        for item in merged:
            group_of[id(item)] = merged
    seen, nested = set(), []
    for group in group_of.values():
        if id(group[0]) in seen:
            continue
        seen.update(id(item) for item in group)
        members: dict = {}
        for bus in group:
            buses[id(bus)] = bus
            for name in present.get(id(bus), set()) | set(bus.added):
                element = _first(bus.member(name))
                if element is not None:
                    members.setdefault(name, element)
        for bus in group:
            present.setdefault(id(bus), set()).update(members)
            for name, like in members.items():
                if bus.member(name) in (None, REMOVED):
                    bus.add_member(name, like)
                mine = _first(bus.member(name))
                if is_expandable(mine) and is_expandable(like) and mine is not like:
                    nested.append((mine, like))
    if nested:
        _join(nested, present, buses)


def _first(node):
    if node is None or node is REMOVED or not node.elements:
        return None
    return node.elements[0]
