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
from compiler.flatten.instances import REMOVED, Instance, VarRecord
from compiler.flatten.names import resolve_elements
from compiler.lang import ast, unparse

EXPANDABLE = "expandable connector"


def is_expandable(element) -> bool:
    return isinstance(element, Instance) and element.info.kind == EXPANDABLE


def complete_expandable(connects) -> bool:
    """Add and remove the members of the expandable connectors ``connects`` name; whether
    any expandable connector was met (the instance lists must then be made again).

    An array connect (``connect(cell.bus, stack.bus)`` over arrays of buses, or
    ``connect(gain.u, stack.bus.x)`` through an array of sub-buses) counts element by
    element."""
    pending, joined, named = [], [], {}
    reads, fed = [], set()
    for eq, env in connects:
        sides = [_sides(ref, env) for ref in (eq.a, eq.b)]
        if len(sides[0]) != len(sides[1]):
            continue  # the connection equations report the sizes
        for position, (a, b) in enumerate(zip(*sides)):
            for (bus, name, element), other, (_, _, other_element), other_ref in (
                    (a, (eq.b, position), b, eq.b), (b, (eq.a, position), a, eq.a)):
                if bus is not None:
                    named.setdefault(id(bus), (bus, set()))[1].add(name)
                    if element is None:
                        pending.append((bus, name, other, env, eq))
                    if _inside_input(other_element, other_ref, env) and \
                            not is_expandable(bus.parent):
                        # (sub-buses join element by element later: only whole buses count)
                        reads.append((bus, name, eq))
                    else:
                        fed.add((id(bus), name))
            if is_expandable(a[2]) and is_expandable(b[2]):
                joined.append((a[2], b[2]))
    if not named and not joined:
        return False
    _add_pending(pending)
    present = {key: set(names) for key, (_, names) in named.items()}
    buses = {key: bus for key, (bus, _) in named.items()}
    pairs: list = []
    _join(joined, present, buses, pairs)
    if reads:
        _check_inputs_fed(reads, fed, pairs)
    for bus in buses.values():
        _prune(bus, present)
    return True


def _prune(bus, present: dict) -> None:
    """Remove the declared members of ``bus`` that no connection makes present (they are
    only potentially present), in its declared sub-buses too (``ControlBus`` declares six
    axis buses, of which a one-axis model connects one)."""
    keep = present.get(id(bus), set()) | set(bus.added)
    for name in list(bus.info.members):
        element = _first(bus.member(name))
        if is_expandable(element):
            if name not in keep:
                for sub in bus.member(name).elements:
                    _prune(sub, present)
        elif name not in keep:
            bus.members[name] = REMOVED  # declared, but no connection makes it present


def _sides(ref: ast.ComponentRef, env) -> list:
    """``(bus, member name, element)`` for each scalar element a connect reference names:
    the expandable connector it goes through and the member named in it (element None when
    the member does not exist yet), or ``(None, None, element)``."""
    parts = ref.parts
    for k in range(len(parts) - 1):
        prefix = ast.ComponentRef(parts[:k + 1], ref.is_global, ref.span)
        try:
            elements = resolve_elements(prefix, env)
        except FlattenError:
            return [(None, None, None)]  # a member that connections create: not yet known
        if elements is None:
            return [(None, None, None)]  # through a disabled component
        elements = list(flat_elements(elements))
        if not elements or not all(is_expandable(element) for element in elements):
            continue
        member = parts[k + 1]
        if member.subscripts:
            raise FlattenError("subscripted members of expandable connectors are not "
                               "supported", member.span)
        if k + 2 < len(parts):
            continue  # a declared sub-bus: the member is named further down
        return [(bus, member.name, element) for bus in elements
                for element in _member_elements(bus, member.name)]
    try:
        elements = resolve_elements(ref, env)
    except FlattenError:
        return [(None, None, None)]
    return [(None, None, element) for element in flat_elements(elements or ())]


def flat_elements(elements):
    """The elements of nested tuples, in row-major order (one element as itself)."""
    if type(elements) is not tuple:
        yield elements
        return
    for item in elements:
        yield from flat_elements(item)


def _add_pending(pending: list) -> None:
    """Create the members connections name, each of the type of what it is connected to
    (which may itself be a member created here: repeat until nothing is left)."""
    while pending:
        left = []
        for bus, name, (other_ref, position), env, eq in pending:
            if bus.member(name) not in (None, REMOVED):
                continue
            others = _sides(other_ref, env)
            other = others[position][2] if position < len(others) else None
            if other is None:
                left.append((bus, name, (other_ref, position), env, eq))
                continue
            bus.add_member(name, other)
        if len(left) == len(pending):
            bus, name, (other_ref, _), _, eq = left[0]
            raise FlattenError(f"cannot tell the type of '{name}' in expandable connector "
                               f"'{bus.path}': '{unparse(other_ref)}' is not a component",
                               eq.span)
        pending = left


def _inside_input(element, ref: ast.ComponentRef, env) -> bool:
    """Whether a connect's other side ``ref`` is an input variable of an inside component
    (``a.u``, ``a`` no connector), which reads the bus member rather than providing it."""
    if not isinstance(element, VarRecord) or element.causality != "input" or \
            len(ref.parts) < 2:
        return False
    first = resolve_elements(ast.ComponentRef(ref.parts[:1], ref.is_global, ref.span), env)
    first = next(flat_elements(first), None) if first is not None else None
    return isinstance(first, Instance) and first.info.kind not in ("connector", EXPANDABLE)


def _check_inputs_fed(reads: list, fed: set, pairs: list) -> None:
    """A member that is an input in one expandable connector is a non-input in another of
    its augmentation set (the buses ``pairs`` join, transitively): something connected
    provides it (MLS 9.1.3)."""
    root = {}

    def find(key):
        while root.get(key, key) != key:
            key = root[key]
        return key
    for a, b in pairs:
        root[find(id(a))] = find(id(b))
    fed_sets = {(find(key), name) for key, name in fed}
    for bus, name, eq in reads:
        if (find(id(bus)), name) not in fed_sets:
            raise FlattenError(f"'{bus.path}.{name}' is an input wherever it is connected: a "
                               "variable of an expandable connector that is an input in one "
                               "connection must be a non-input in another of its augmentation "
                               "set (MLS 9.1.3)", eq.span)


def _join(joined: list, present: dict, buses: dict, pairs: list) -> None:
    """Expandable connectors connected to each other: each gets every member present in
    one of them (``present``: id -> names; sub-buses joined in turn); ``pairs`` gets the
    pairs joined, sub-buses included. A sub-bus may be joined to a bus of another set that
    gets members only from its own set's join (``connect(bus.axis1, axis.bus)`` where a
    third connector fills ``bus.axis1`` through ``bus``): the sets are joined again until
    no member is added."""
    pairs.extend(joined)
    known = {(id(a), id(b)) for a, b in pairs}
    while True:
        nested, added = _join_once(pairs, present, buses)
        nested = [(a, b) for a, b in nested if (id(a), id(b)) not in known]
        known.update((id(a), id(b)) for a, b in nested)
        pairs.extend(nested)
        if not nested and not added:
            return


def _join_once(joined: list, present: dict, buses: dict) -> tuple[list, bool]:
    """One union of the members of each set of connected buses: the pairs of sub-buses it
    meets, and whether it added a member."""
    group_of: dict = {}
    for a, b in joined:
        merged = list(group_of.get(id(a), [a]))
        merged += [item for item in group_of.get(id(b), [b]) if item not in merged]
        for item in merged:
            group_of[id(item)] = merged
    seen, nested, added = set(), [], False
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
            mine_present = present.setdefault(id(bus), set())
            added |= not set(members) <= mine_present
            mine_present.update(members)
            for name, like in members.items():
                if bus.member(name) in (None, REMOVED):
                    bus.add_member(name, like)
                    added = True
                mine = _first(bus.member(name))
                if is_expandable(mine) and is_expandable(like) and mine is not like:
                    nested.append((mine, like))
    return nested, added


def _member_elements(bus, name: str) -> list:
    """The elements of a member of a bus (an array of sub-buses has several); ``[None]``
    for one that connections have yet to create."""
    node = bus.member(name)
    if node is None or node is REMOVED or not node.elements:
        return [None]
    return list(node.elements)


def _first(node):
    if node is None or node is REMOVED or not node.elements:
        return None
    return node.elements[0]
