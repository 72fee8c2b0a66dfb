"""Python model classes -> ``compiler.lang.ast``: the classes the parser would build.

Input: a Python model class. Output: an ``ast.StoredDefinition`` holding it and every class
it uses (bases, component and connector types, functions), each in the packages of its
module, with the names of declarations and classes resolved. Names of classes are written in
full (``Electrical.Resistor``); with a leading dot where the first part would be shadowed.
"""
from __future__ import annotations

import inspect
from dataclasses import fields, is_dataclass, replace
from types import MethodType

from compiler.errors import Span
from compiler.lang import ast
from cosim.build.classes import LibraryClass, ModelClass, is_model_class
from cosim.build.clauses import to_equation, to_statement
from cosim.build.declarations import Declaration, PrimitiveType, annotation, modification
from cosim.build.errors import BuildError, caller_span, from_python
from cosim.build.expr import as_node
from cosim.build.names import full_name, module_package

SECTIONS = (("equations", "equations", to_equation), ("initial_equations",
            "initial_equations", to_equation), ("algorithm", "algorithms", to_statement),
            ("initial_algorithm", "initial_algorithms", to_statement))
_AST_MODULE = ast.__name__


def stored_definition(target) -> ast.StoredDefinition:
    """The AST of ``target`` and of the classes it uses, in their packages."""
    if not is_model_class(target):
        raise BuildError(f"{target!r} is not a model class (a subclass of Model, Block, "
                         "Connector, Record, Package or Function)")
    emitter = _Emitter()
    definitions: dict[type, ast.ClassDef] = {}
    pending = [_outermost(target)]
    while pending:
        cls = pending.pop(0)
        if cls not in definitions:
            definitions[cls] = emitter.class_def(cls)
            pending.extend(_outermost(used) for used in emitter.take_used())
    return ast.StoredDefinition(None, _packages(definitions), _span_of(target))


def _outermost(cls):
    while cls.__dict__.get("__modelica_parent__") is not None:
        cls = cls.__dict__["__modelica_parent__"]
    return cls


def _span_of(cls) -> Span | None:
    return cls.__modelica_info__.span


def _packages(definitions: dict) -> tuple[ast.ClassDef, ...]:
    """The outermost classes inside the packages of their modules (``a.b`` is ``package a
    package b``), checking that no two classes share a full name."""
    tree: dict = {}
    seen: dict[tuple, type] = {}
    for cls, definition in sorted(definitions.items(), key=lambda item: _place(item[0])):
        name = full_name(cls)
        if name in seen:
            other = seen[name]
            raise BuildError(f"two classes are named {'.'.join(name)} (the other at "
                             f"{_span_of(other)}): rename one", _span_of(cls))
        seen[name] = cls
        node = tree
        for part in name[:-1]:
            node = node.setdefault(part, {})
            if not isinstance(node, dict):
                raise BuildError(f"{'.'.join(name)}: '{part}' is a class and a package",
                                 _span_of(cls))
        node[name[-1]] = definition
    return tuple(_package_nodes(tree))


def _place(cls) -> tuple:
    """Source order: classes appear in their packages as in their files."""
    span = _span_of(cls)
    return (span.file, span.line, span.col) if span is not None else ("", 0, 0)


def _package_nodes(tree: dict):
    for key, value in tree.items():
        if isinstance(value, dict):
            yield ast.ClassDef(key, "package", ast.Composition(tuple(_package_nodes(value))))
        else:
            yield value


class _Emitter:
    """Builds class definitions and remembers the Python classes they use."""

    def __init__(self):
        self._used: list = []

    def take_used(self) -> list:
        used, self._used = self._used, []
        return used

    def class_def(self, cls) -> ast.ClassDef:
        info = cls.__modelica_info__
        resolve = _Resolver(cls, self._used)
        elements = [self._extends(base, modifiers, resolve, info.span)
                    for base, modifiers in info.bases]
        for _, value in info.members:
            if isinstance(value, Declaration):
                elements.append(self._component(value._name, value, resolve))
            else:
                elements.append(self.class_def(value))
        sections = {field: self._section(cls, method, convert, resolve)
                    for method, field, convert in SECTIONS}
        algorithms = {key: (value,) if value else () for key, value in sections.items()
                      if key.endswith("algorithms")}
        body = ast.Composition(
            tuple(elements), sections["equations"], sections["initial_equations"],
            algorithms["algorithms"], algorithms["initial_algorithms"],
            annotation=resolve(annotation(info.annotation, info.span)), span=info.span)
        return ast.ClassDef(cls.__name__, info.kind, body, info.description,
                            partial=info.partial, span=info.span)

    @staticmethod
    def _extends(base, modifiers, resolve, span) -> ast.Extends:
        mod = None if modifiers is None else modification(
            modifiers._binding, modifiers._modifiers, modifiers._span)
        return ast.Extends(resolve.type_name(base, span), resolve(mod), span=span)

    @staticmethod
    def _component(key: str, value: Declaration, resolve) -> ast.Component:
        span = value._span
        return ast.Component(
            key, resolve.type_name(value._type, span),
            tuple(resolve(as_node(item)) for item in value._dims),
            resolve(modification(value._binding, value._modifiers, span)),
            None if value._condition is None else resolve(as_node(value._condition)),
            value._description, resolve(annotation(value._annotation, span)), value._flow,
            value._variability, value._causality, value._final, value._inner, value._outer,
            value._replaceable, False, value._protected, span=span)

    @staticmethod
    def _section(cls, method: str, convert, resolve) -> tuple:
        function = cls.__dict__.get(method)
        if function is None:
            return ()
        where = _function_span(function)
        try:
            items = function(Self(cls))
            items = () if items is None else tuple(items)
            return tuple(resolve(convert(item, where)) for item in items)
        except Exception as error:  # the user's code: report it at its place
            raise from_python(error, f"{cls.__name__}.{method}") from None


class Self:
    """What ``self`` is in ``equations(self)`` and the other sections: the class's elements
    as references, its methods bound to it, an unknown name a located error."""

    __slots__ = ("_cls",)

    def __init__(self, cls):
        self._cls = cls

    def __getattr__(self, name: str):
        cls = self._cls
        for klass in cls.__mro__:
            if name in klass.__dict__:
                raw = klass.__dict__[name]
                break
        else:
            known = ", ".join(cls.__modelica_elements__() or ()) or "none"
            raise BuildError(f"{cls.__name__} has no element '{name}' (its elements: {known})",
                             caller_span())
        if inspect.isfunction(raw):
            return MethodType(raw, self)
        return getattr(cls, name)


def _function_span(function) -> Span | None:
    code = getattr(function, "__code__", None)
    return Span(code.co_filename, code.co_firstlineno, 1) if code is not None else None


class _Resolver:
    """Replaces the placeholders of a class's nodes: declarations by their names, Python and
    library classes by their full names (recording the Python ones as used)."""

    def __init__(self, scope, used: list):
        self.scope = scope
        self.used = used
        self._shadowed = None

    def __call__(self, node):
        return _walk(node, self._fix) if node is not None else None

    def type_name(self, target, span) -> ast.TypeName:
        if type(target) is PrimitiveType:
            return ast.TypeName((target.name,), span=span)
        parts = self._class_parts(target, span)
        return ast.TypeName(parts, parts[0] in self.shadowed(), span)

    def _class_parts(self, target, span) -> tuple[str, ...]:
        if isinstance(target, ModelClass):
            if not is_model_class(target):
                raise BuildError(f"{target.__name__} cannot be used as a class: subclass it",
                                 span)
            self.used.append(target)
        return target.__modelica_full_name__()

    def shadowed(self) -> frozenset:
        """Names that a class name's first part would find before the top level here."""
        if self._shadowed is None:
            self._shadowed = _visible_names(self.scope)
        return self._shadowed

    def _fix(self, node):
        kind = type(node)
        if kind is ast.RefPart and isinstance(node.name, Declaration):
            declared = node.name._name
            if declared is None:
                raise BuildError("this declaration has no name yet: assign it to a class "
                                 "attribute before using it", node.name._span)
            return replace(node, name=declared)
        if kind is ast.ComponentRef and isinstance(node.parts[0].name, (ModelClass,
                                                                         LibraryClass)):
            first = node.parts[0]
            parts = self._class_parts(first.name, first.span)
            refs = tuple(ast.RefPart(part, (), first.span) for part in parts)
            return replace(node, parts=refs + node.parts[1:],
                           is_global=parts[0] in self.shadowed())
        return None


def _visible_names(scope) -> frozenset:
    names = set()
    cls = scope
    while cls is not None:
        for klass in cls.__mro__:
            info = klass.__dict__.get("__modelica_info__")
            if info is not None:
                names.update(value._name if isinstance(value, Declaration) else key
                             for key, value in info.members)
        cls = cls.__dict__.get("__modelica_parent__")
    outermost = _outermost(scope)
    package = module_package(outermost, _span_of(outermost))
    names.update(package[1:])
    return frozenset(names)


def _walk(node, fix):
    """``node`` with ``fix`` applied to every ast node inside (bottom-up after the fix)."""
    if type(node) is tuple:
        items = tuple(_walk(item, fix) for item in node)
        return node if all(a is b for a, b in zip(items, node)) else items
    if not is_dataclass(node) or type(node).__module__ != _AST_MODULE:
        return node
    fixed = fix(node)
    if fixed is not None:
        node = fixed
    changes = {}
    for item in fields(node):
        value = getattr(node, item.name)
        new = _walk(value, fix)
        if new is not value:
            changes[item.name] = new
    return replace(node, **changes) if changes else node


def preview(node) -> str:
    """Modelica text of a node whose placeholders may be unresolved (for ``repr``)."""
    from compiler.lang.unparse import unparse

    def fix(item):
        if type(item) is ast.RefPart and not isinstance(item.name, str):
            named = getattr(item.name, "_name", None) or getattr(item.name, "__name__", "?")
            return replace(item, name=named)
        return None
    try:
        return unparse(_walk(node, fix))
    except Exception:  # repr must not fail
        return object.__repr__(node)


__all__ = ["stored_definition", "preview"]
