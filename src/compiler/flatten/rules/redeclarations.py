"""Redeclarations and constraining types (MLS 7.3).

Input: the replaceable element (class or component) as declared or last redeclared, and the
element that redeclares it, each with the means to resolve its type names. Output: nothing, or
a ``FlattenError`` at the redeclaration:

- only a replaceable, non-final, non-constant element is redeclared (a component also with
  its own type, to change its variability or dimensions), and one redeclared without
  ``replaceable`` is not redeclared again (MLS 7.3.3);
- a replaceable element is a subtype of its constraining type, the ``constrainedby`` class or
  else its own type (the base of a short class definition, without the dimensions the short
  class adds), and so is what redeclares it; a new ``constrainedby`` is a subtype of the one
  it replaces (MLS 7.3.2);
- a class redeclared as an element of a class keeps the original's protection (MLS 7.3.3);
- ``class extends B`` extends an inherited class ``B`` that is replaceable (MLS 7.3.1).
"""
from __future__ import annotations

from compiler.flatten.errors import FlattenError
from compiler.flatten.rules.types import subtype_problem
from compiler.lang import ast


class Side:
    """A replaceable element's declaration and how its type names resolve.

    ``resolve(type_name) -> ClassInfo or None`` (None when the type cannot be told here);
    ``expanded() -> ClassInfo`` gives the class of a long class definition.
    """

    __slots__ = ("element", "resolve", "expanded")

    def __init__(self, element, resolve, expanded=None):
        self.element = element
        self.resolve = resolve
        self.expanded = expanded

    @property
    def own_type(self):
        """The type the element stands for: a component's type, the base of a short class
        (without the dimensions the short class adds), or a long class itself."""
        element = self.element
        if isinstance(element, ast.Component):
            return self.resolve(element.type_name)
        if isinstance(element.body, ast.ShortClass):
            return self.resolve(element.body.base)
        return self.expanded() if self.expanded is not None else None

    @property
    def constraint(self):
        constraint = self.element.constraint
        return self.resolve(constraint.base) if constraint is not None else None


def check_replaceable(classes, side: Side) -> None:
    """A replaceable element with ``constrainedby`` is a subtype of that class."""
    constraint = side.constraint
    own = side.own_type if constraint is not None else None
    if own is None:
        return
    _check(classes, own, constraint, side.element, "its constraining type")


def check_redeclaration(classes, original: Side, new: Side, span) -> None:
    """``new`` redeclares ``original`` (the declaration or the last redeclaration)."""
    element = original.element
    name = element.name
    if isinstance(element, ast.Component) and element.variability == "constant":
        raise FlattenError(f"'{name}' is a constant and cannot be redeclared (MLS 7.3.3)", span)
    if not element.replaceable and not _same_type(original, new):
        raise FlattenError(f"'{name}' is not replaceable: it was redeclared without "
                           "'replaceable' (MLS 7.3.3)" if element.redeclare
                           else f"'{name}' is not replaceable (MLS 7.3.3)", span)
    if element.final:
        raise FlattenError(f"'{name}' is final and cannot be redeclared (MLS 7.3.3)", span)
    constraint = original.constraint or original.own_type
    if constraint is None:
        return
    new_constraint = new.constraint
    if new_constraint is not None:
        _check(classes, new_constraint, constraint, new.element,
               f"the constraining type of '{name}'", span)
        constraint = new_constraint
    own = new.own_type
    if own is not None:
        _check(classes, own, constraint, new.element, f"the constraining type of '{name}'",
               span)


def _same_type(original: Side, new: Side) -> bool:
    """A redeclaration of a component with the same type (which may change its variability
    and dimensions, also of elements that are not replaceable, MLS 7.3.3)."""
    if not isinstance(original.element, ast.Component) or \
            not isinstance(new.element, ast.Component):
        return False
    own = original.own_type
    return own is not None and own is new.own_type


def check_protection(original_protected: bool, element) -> None:
    """A class or component redeclared in a class body keeps its protection (MLS 7.3.3)."""
    if original_protected != element.protected:
        was, now = ("protected", "public") if original_protected else ("public", "protected")
        raise FlattenError(f"'{element.name}' is {was} and cannot be redeclared {now} "
                           "(MLS 7.3.3)", element.span)


def _check(classes, sub, base, element, what: str, span=None) -> None:
    problem = subtype_problem(classes, sub, base)
    if problem is not None:
        raise FlattenError(f"{sub.name} is not a subtype of {what}, {base.name}: {problem} "
                           "(MLS 7.3.2)", span or element.span)


def check_class_extends(element: ast.ClassDef, inherited, definition_of, name_of) -> None:
    """``class extends`` ``element`` of a class whose inherited class of that name is
    ``inherited`` (a ClassEntry or None); ``definition_of(entry)`` is the parsed class,
    ``name_of(entry)`` the full name of where it is written."""
    if inherited is None:
        raise FlattenError(f"'{element.name}' is extended by 'class extends', but no class of "
                           "that name is inherited (MLS 7.3.1)", element.span)
    if not definition_of(inherited).replaceable:
        raise FlattenError(f"the inherited class {name_of(inherited)} is not replaceable: "
                           "'class extends' replaces a replaceable class (MLS 7.3.1)",
                           element.span)
