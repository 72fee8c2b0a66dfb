"""Composite name lookup and imports (MLS 5.3.2, 5.3.3, 13.2).

Input: the expanded class a dotted name looks inside, with the element found there, or an
import clause with what it names. Output: nothing, or a ``FlattenError`` at the name.

- Inside a class (``A.B``) only a package or operator shows all its elements; another class
  shows its encapsulated elements, or all if it could be a package (it holds only classes and
  constants, a deprecated case). The class looked inside is not partial, unless it is
  replaceable (MLS 5.3.2).
- Through a component (``a.f(x)``) only a non-operator function is found, and every
  component on the way is declared a scalar (``a[2].f(x)`` is refused: MLS 5.3.2).
- An import names a package or an element of a package, and import names do not clash
  (MLS 13.2.2).
"""
from __future__ import annotations

from compiler.flatten.errors import FlattenError
from compiler.lang import ast

_OPEN_KINDS = frozenset({"package", "operator"})


def check_inside(holder, found, name: str, span, definition_of) -> None:
    """``holder.name`` found ``found`` (a ClassEntry or a Member) inside class ``holder``;
    ``definition_of(entry)`` is the parsed class of an entry."""
    # (a replaceable class is looked inside as its redeclaration will be: ``Medium.T``)
    if holder.partial and not definition_of(holder.entry).replaceable:
        raise FlattenError(f"'{name}' is looked up inside {holder.name}, which is partial "
                           "(MLS 5.3.2)", span)
    if holder.kind in _OPEN_KINDS or holder.builtin is not None or _package_like(holder):
        return
    if not hasattr(found, "decl") and definition_of(found).encapsulated:
        return
    raise FlattenError(f"'{name}' is looked up inside {holder.kind} {holder.name}, which is no "
                       "package: only its encapsulated elements can be named so (MLS 5.3.2)",
                       span)


def _package_like(info) -> bool:
    """Whether a class satisfies the restrictions of a package: classes and constants only."""
    return not (info.equations or info.initial_equations or info.algorithms or
                info.initial_algorithms) and \
        all(member.decl.variability == "constant" for member in info.members.values())


def check_function_through(node, part, found_kind: str) -> None:
    """A function named through component ``part``: the component is declared a scalar (not
    an array, nor an element of one) and the function no operator function (MLS 5.3.2)."""
    if node.dims:
        raise FlattenError(f"'{part.name}' is an array: a function is named through scalar "
                           "components only, not through arrays or their elements (MLS 5.3.2)",
                           part.span)
    if found_kind in ("operator function", "operator"):
        raise FlattenError("an operator cannot be named through a component (MLS 5.3.2)",
                           part.span)


def check_import(element: ast.Import, holder) -> None:
    """``element`` imports from class ``holder`` (the package named before the last part,
    or the one ``.*`` and ``{...}`` import from), which must be a package (MLS 13.2.2)."""
    if holder is not None and holder.kind != "package":
        raise FlattenError(f"import from {holder.kind} {holder.name}: only packages and their "
                           "elements can be imported (MLS 13.2.2)", element.span)


def check_import_names(imports: tuple) -> None:
    """No two qualified or renaming imports of one class use the same name (MLS 13.2.2)."""
    seen: dict = {}
    for element in imports:
        if element.wildcard:
            continue
        for name in (element.names or (element.alias or element.path[-1],)):
            if name in seen:
                raise FlattenError(f"two imports define the name '{name}' (MLS 13.2.2)",
                                   element.span)
            seen[name] = element
