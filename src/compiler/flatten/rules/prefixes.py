"""Type prefixes of component declarations and their conflicts (MLS 4.4.2).

Input: a component declaration, the expanded class of its type and the ``Classes`` that
expand the types of its elements. Output: nothing, or a ``FlattenError`` at the declaration
naming the rule. Called as a component is instantiated.
"""
from __future__ import annotations

from compiler.flatten.errors import FlattenError

# the kinds of class whose components may have type prefixes (MLS 4.4.2.1)
_PREFIXABLE = frozenset({"type", "record", "operator record", "connector",
                         "expandable connector"})
# the primitive types a flow variable may have (MLS 4.4.2.2; operator records as well)
_FLOW_TYPES = frozenset({"Real"})


def check_structured(decl, info, prefixes: tuple, classes) -> None:
    """``prefixes`` (variability, causality, flow as the declaration and its class's short
    definition give them) on a component of structured class ``info``."""
    variability, causality, flow = prefixes
    present = [prefix for prefix in (flow, variability, causality) if prefix]
    if not present:
        return
    if info.kind not in _PREFIXABLE:
        raise FlattenError(f"type prefix '{present[0]}' cannot be applied to '{decl.name}', a "
                           f"component of {info.kind} {info.name}: only components of types, "
                           "records and connectors have type prefixes (MLS 4.4.2.1)", decl.span)
    if variability in ("parameter", "constant") and info.kind in ("connector",
                                                                   "expandable connector"):
        raise FlattenError(f"connector component '{decl.name}' cannot be {variability} "
                           "(MLS 9.3)", decl.span)
    if flow == "flow" and info.kind == "operator record":
        missing = [name for name in ("'+'", "'-'", "'0'") if name not in info.classes]
        if missing:
            raise FlattenError(f"flow variable '{decl.name}' has operator record {info.name}, "
                               f"which does not define {', '.join(missing)}: flow operator "
                               "records need addition, negation and '0' (MLS 9.2)", decl.span)
    if not (flow or causality) or info.kind == "operator record":
        return
    for name, member in info.members.items():
        inner = _own_prefixes(member, classes)
        clash = [prefix for prefix in inner if prefix in ("flow", "stream", "input", "output")]
        if clash:
            raise FlattenError(f"'{decl.name}' is declared {' '.join(present)}, but its element "
                               f"'{name}' is {clash[0]}: a structured component with flow, input "
                               "or output may not have elements with these prefixes "
                               "(MLS 4.4.2.1)", decl.span)


def _own_prefixes(member, classes) -> tuple:
    """The flow and causality prefixes of a class's member, given or from its type."""
    decl = member.decl
    if decl.flow or decl.causality:
        return tuple(prefix for prefix in (decl.flow, decl.causality) if prefix)
    try:
        info = classes.expand(classes.lookup_class(decl.type_name, member.scope), decl.span)
    except FlattenError:
        return ()  # (a type only a redeclaration supplies: checked where it is made)
    return tuple(prefix for prefix in (info.flow, info.causality) if prefix)


def check_variable(decl, info, flow: str) -> None:
    """The prefixes of a component of a predefined type, an enumeration or an external object
    (``flow`` combined with that of its enclosing records and connectors)."""
    if flow == "flow" and info.builtin is not None and info.builtin not in _FLOW_TYPES:
        raise FlattenError(f"flow variable '{decl.name}' is {info.type_name}; a flow variable "
                           "must be a subtype of Real (MLS 4.4.2.2)", decl.span)
    if flow == "stream" and info.builtin is not None and info.builtin != "Real":
        raise FlattenError(f"stream variable '{decl.name}' is {info.type_name}; a stream "
                           "variable must be a subtype of Real (MLS 4.4.2.1)", decl.span)
    variability = decl.variability or info.variability
    if (decl.causality or info.causality) == "input" and \
            variability in ("parameter", "constant"):
        raise FlattenError(f"'{decl.name}' is both input and {variability} (MLS 4.4.2.1)",
                           decl.span)


def check_block_connector(decl, inst, block, variability: str, causality: str) -> None:
    """A variable of a public connector of a block (``inst`` inside ``block`` through records
    and connectors) is input or output, unless it is a parameter or constant (MLS 4.7); the
    members of expandable connectors take their causality from their connections."""
    if causality or variability in ("parameter", "constant"):
        return
    connector = None
    while inst is not block:
        if inst.info.kind == "expandable connector":
            return
        if inst.info.kind == "connector":
            connector = inst
        inst = inst.parent
    if connector is not None:
        raise FlattenError(f"'{decl.name}' of connector '{connector.path}' of block "
                           f"{block.info.name} is neither input nor output: the connectors of a "
                           "block carry signals only (MLS 4.7)", decl.span)
