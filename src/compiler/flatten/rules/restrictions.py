"""What a class may contain and extend, by its specialized kind (MLS 4.7, 7.1.3, 4.6).

Input: a class definition and its ``ClassInfo`` as ``Classes`` expands it. Output: nothing, or
a ``FlattenError`` at the offending element naming the rule. The checks read the class's own
text (inherited contents were checked in their own class) and run once per class.
"""
from __future__ import annotations

from compiler.flatten.errors import FlattenError
from compiler.lang import ast

RESERVED_NAMES = frozenset({"Real", "Integer", "Boolean", "String"})
# attributes of enumeration types, at the level of the literals (MLS 4.9.5)
ENUMERATION_ATTRIBUTES = frozenset({"quantity", "min", "max", "start", "fixed"})

# The kinds of class each kind may extend (MLS 7.1.3); every kind may also extend ``class``,
# and a ``class`` may extend any (the suite's test cases do: ``class C extends TestModel``).
_BASE_KINDS = {
    "package": {"package"},
    "operator": {"operator"},
    "function": {"function"},
    "operator function": {"function", "operator function"},
    "type": {"type"},
    "record": {"record"},
    "operator record": {"operator record"},
    "expandable connector": {"expandable connector"},
    "connector": {"type", "record", "operator record", "connector"},
    "block": {"record", "block"},
    "model": {"record", "block", "model"},
}
# kinds whose classes have only public sections and no equations or algorithms (MLS 4.7)
_DATA_KINDS = {"record": "a record", "operator record": "an operator record",
               "connector": "a connector", "expandable connector": "an expandable connector"}
_SECTIONS = (("equations", "equations"), ("initial_equations", "initial equations"),
             ("algorithms", "algorithms"), ("initial_algorithms", "initial algorithms"))


def check_name(entry, definition: ast.ClassDef) -> None:
    """A class may not take the name of a predefined type (MLS 4.9)."""
    if definition.name in RESERVED_NAMES:
        raise FlattenError(f"'{definition.name}' is the name of a predefined type and cannot "
                           "be declared (MLS 4.9)", definition.span)


def check_composition(kind: str, name: str, definition: ast.ClassDef,
                      body: ast.Composition) -> None:
    """The own contents of a long class definition of kind ``kind``."""
    what = _DATA_KINDS.get(kind)
    if what is not None:
        _check_data_class(kind, what, definition, body)
    elif kind == "package":
        _check_package(body)
    elif kind == "operator":
        _check_operator(body)
    elif kind in ("function", "operator function"):
        _check_function(name, definition, body)
    for element in body.elements:
        if isinstance(element, ast.Component) and element.name in RESERVED_NAMES:
            raise FlattenError(f"'{element.name}' is the name of a predefined type and cannot "
                               "be declared (MLS 4.9)", element.span)


def _check_data_class(kind: str, what: str, definition, body: ast.Composition) -> None:
    for attribute, section in _SECTIONS:
        parts = getattr(body, attribute)
        if parts:
            raise FlattenError(f"{what} may not contain {section} (MLS 4.7)",
                               _first_span(parts) or definition.span)
    record = kind in ("record", "operator record")
    expandable = kind == "expandable connector"
    for element in body.elements:
        if getattr(element, "protected", False):
            raise FlattenError(f"{what} may not contain protected elements (MLS 4.7)",
                               element.span)
        if expandable and isinstance(element, ast.Component) and element.flow == "flow":
            raise FlattenError("an expandable connector may not contain flow variables, only "
                               "connectors with them (MLS 9.1.3)", element.span)
        if not isinstance(element, ast.Component):
            continue
        prefixes = [prefix for prefix, present in (
            ("inner", element.inner), ("outer", element.outer),
            ("input", record and element.causality == "input"),
            ("output", record and element.causality == "output"),
            (element.flow, record and bool(element.flow))) if present]
        if prefixes:
            raise FlattenError(f"an element of {what} may not be {prefixes[0]} "
                               "(MLS 4.7)", element.span)


def _check_package(body: ast.Composition) -> None:
    for attribute, section in _SECTIONS:
        parts = getattr(body, attribute)
        if parts:
            raise FlattenError(f"a package may not contain {section} (MLS 4.7)",
                               _first_span(parts))
    for element in body.elements:
        if isinstance(element, ast.Component) and element.variability != "constant":
            raise FlattenError(f"a package may only contain classes and constants, not "
                               f"'{element.name}' (MLS 4.7)", element.span)


def _check_operator(body: ast.Composition) -> None:
    for element in body.elements:
        if isinstance(element, ast.Component) or (
                isinstance(element, ast.ClassDef) and
                element.kind not in ("function", "operator function")):
            raise FlattenError(f"an operator may only contain functions, not '{element.name}' "
                               "(MLS 4.7)", element.span)


def _check_function(name: str, definition, body: ast.Composition) -> None:
    if len(body.algorithms) > 1:
        raise FlattenError(f"function {name} has {len(body.algorithms)} algorithm sections; a "
                           "function has at most one (MLS 12.2)",
                           _first_span(body.algorithms[1:]) or definition.span)
    for element in body.elements:
        if isinstance(element, ast.Component) and (element.inner or element.outer):
            raise FlattenError(f"an element of a function may not be "
                               f"{'inner' if element.inner else 'outer'} (MLS 12.2)",
                               element.span)


def check_extends(kind: str, base, span, short: bool) -> None:
    """Class ``kind`` extending ``base`` (an expanded class): the kinds must agree (MLS
    7.1.3); an operator record is extended only by short operator records and connectors
    (MLS 4.7). A short class written ``class`` takes the kind of its base (MLS 4.6.1)."""
    if short and kind == "class":
        return
    allowed = _BASE_KINDS.get(kind)
    if allowed is None or base.kind == "class" or base.kind in allowed:
        if base.kind == "operator record" and not short:
            raise FlattenError(f"{base.name} is an operator record, which only short class "
                               "definitions may extend (MLS 4.7)", span)
        return
    raise FlattenError(f"a {kind} cannot extend {base.kind} {base.name} (MLS 7.1.3)", span)


def is_special_base(base) -> bool:
    """Whether a base class is a simple type, an array class or has a base prefix: the
    class extending it may have nothing else (MLS 4.6.2)."""
    return base.builtin is not None or bool(base.dims) or \
        bool(base.causality or base.variability or base.flow)


def is_empty(info) -> bool:
    """A class without equations, algorithms or components, whose bases are empty."""
    return not (info.members or info.equations or info.initial_equations or info.algorithms
                or info.initial_algorithms or info.builtin or info.dims)


def check_combination(name: str, body: ast.Composition, bases: list) -> None:
    """A class extending a simple type, an array class or a class with a base prefix holds
    nothing else but empty base classes (MLS 4.6.2)."""
    special = [(element, base) for element, base in bases if is_special_base(base)]
    if not special:
        return
    element, base = special[0]
    for other, other_base in bases:
        if other is not element and not is_empty(other_base):
            raise FlattenError(f"{name} extends {base.name}, a simple type, array class or "
                               "class with a prefix, and may extend nothing else but empty "
                               "classes (MLS 4.6.2)", other.span)
    for item in body.elements:
        if isinstance(item, ast.Component) or getattr(item, "protected", False):
            raise FlattenError(f"{name} extends {base.name}, a simple type, array class or "
                               "class with a prefix, and may not declare components or "
                               "protected elements (MLS 4.6.2)", item.span)
    for attribute, section in _SECTIONS:
        parts = getattr(body, attribute)
        if parts:
            raise FlattenError(f"{name} extends {base.name}, a simple type, array class or "
                               f"class with a prefix, and may not have {section} (MLS 4.6.2)",
                               _first_span(parts) or element.span)


def check_enumeration(body: ast.Enumeration) -> None:
    """Distinct literals, none named like an attribute (MLS 4.9.5)."""
    seen = set()
    for literal in body.literals:
        if literal.name in seen:
            raise FlattenError(f"enumeration literal '{literal.name}' is declared twice "
                               "(MLS 4.9.5)", literal.span)
        if literal.name in ENUMERATION_ATTRIBUTES:
            raise FlattenError(f"'{literal.name}' is an attribute of enumeration types and "
                               "cannot be a literal (MLS 4.9.5)", literal.span)
        seen.add(literal.name)


def _first_span(parts):
    """The place of the first equation or statement of a list of sections or equations."""
    for part in parts:
        if isinstance(part, tuple):
            found = _first_span(part)
            if found is not None:
                return found
        elif getattr(part, "span", None) is not None:
            return part.span
    return None


def check_stream_connector(info) -> None:
    """A connector with stream variables has exactly one flow variable, a scalar (MLS 15.1)."""
    members = info.members.values()
    if not any(member.decl.flow == "stream" for member in members):
        return
    flows = [member.decl for member in members if member.decl.flow == "flow"]
    if len(flows) != 1 or flows[0].dims:
        found = ", ".join(f"'{decl.name}'" + (" (an array)" if decl.dims else "")
                          for decl in flows) or "none"
        raise FlattenError(f"stream connector {info.name} must have exactly one flow variable, "
                           f"a scalar; it has {found} (MLS 15.1)",
                           flows[-1].span if flows else next(iter(members)).decl.span)
