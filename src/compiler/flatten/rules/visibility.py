"""Protected elements (MLS 4.1, 7.1.2): never reached with dot notation (``A.p``, ``a.p``), and
never modified or redeclared from outside (only the base-class modification of an extends
clause and the element's own declaration may modify it).

Input: the expanded class (``ClassInfo``) that holds an element, with the name used. Output:
nothing, or a ``FlattenError`` at the use.
"""
from __future__ import annotations

from compiler.flatten.errors import FlattenError


def check_public(holder, name: str, span) -> None:
    """``holder.name`` (a class or an instance of class ``holder``) names a public element."""
    if name in holder.protected:
        raise FlattenError(f"'{name}' is protected in {holder.name} and cannot be accessed with "
                           "dot notation (MLS 4.1)", span)


def check_modifiable(holder, mod, component: str) -> None:
    """The modification of a component of class ``holder`` touches public elements only."""
    if mod is None or not holder.protected:
        return
    for name, sub in mod.args.items():
        if name in holder.protected:
            what = "redeclared" if sub.redeclare is not None else "modified"
            raise FlattenError(f"'{name}' is protected in {holder.name} and cannot be {what} "
                               f"from outside (in the modification of '{component}', "
                               "MLS 4.1)", sub.span)
