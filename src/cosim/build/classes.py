"""Python classes as Modelica classes: the roots ``Model``, ``Block``, ``Connector``,
``Record``, ``Package``, ``Function``, and classes of a Modelica library (``from_library``).

Input: class statements. Output: classes carrying a ``ClassInfo`` (kind, description,
annotation, place, declarations and nested classes in order, base classes with their
modifiers). Calling a model class declares a component of it (``R1 = Resistor(R=100)``);
calling a function class calls the function. Python inheritance is ``extends``; a base
written with modifiers (``class Short(Rod(N=20))``) is ``extends Rod(N = 20)``.
"""
from __future__ import annotations

import inspect
from dataclasses import dataclass

from compiler.errors import Span
from compiler.lang import ast
from cosim.build.declarations import (
    NO_BINDING, Declaration, array_type, declare,
)
from cosim.build.errors import BuildError, caller_span
from cosim.build.expr import Expr, call_node
from cosim.build.names import check_identifier, full_name

CLASS_OPTIONS = ("partial", "annotation", "experiment")


@dataclass(frozen=True, slots=True)
class ClassInfo:
    """What a Python class says about its Modelica class. ``members`` are ``(name, value)``
    pairs of declarations and nested classes in the order of the class body; ``bases`` are
    ``(class, declaration or None)`` pairs, the declaration holding a base's modifiers."""
    kind: str
    partial: bool
    description: str
    annotation: dict | None
    span: Span | None
    members: tuple
    bases: tuple


class ModelClass(type):
    """The metaclass of Python model classes."""

    def __new__(mcls, name, bases, namespace, root: str | None = None, **options):
        span = caller_span()
        unknown = sorted(set(options) - set(CLASS_OPTIONS))
        if unknown:
            raise BuildError(f"class {name}: unknown option(s) {', '.join(unknown)} (known: "
                             f"{', '.join(CLASS_OPTIONS)})", span)
        try:
            cls = super().__new__(mcls, name, bases, dict(namespace))
        except RuntimeError as error:  # Python 3.11 wraps errors of __set_name__
            if isinstance(error.__cause__, BuildError):
                raise error.__cause__ from None
            raise
        if root is not None:
            cls.__modelica_root__ = root
            cls.__modelica_info__ = None
            return cls
        check_identifier(name, "class", span)
        members = _members(cls, namespace)
        for _, value in members:
            if isinstance(value, ModelClass):
                type.__setattr__(value, "__modelica_parent__", cls)
        description, documentation = _docstring(namespace.get("__doc__"))
        cls.__modelica_info__ = ClassInfo(
            _kind(cls), bool(options.get("partial", False)), description,
            _annotation(options, documentation, span), span, members,
            _bases(namespace.get("__orig_bases__", bases), span))
        return cls

    def __init__(cls, name, bases, namespace, **options):
        super().__init__(name, bases, namespace)

    def __call__(cls, binding=NO_BINDING, /, *args, **modifiers):
        info = cls.__modelica_info__
        span = caller_span()
        if info is None:
            raise BuildError(f"{cls.__name__} is the root of {cls.__modelica_root__} classes: "
                             f"subclass it (class M({cls.__name__}): ...)", span)
        if info.kind == "function":
            arguments = (() if binding is NO_BINDING else (binding,)) + args
            ref = ast.ComponentRef((ast.RefPart(cls, (), span),), False, span)
            return Expr(call_node(ref, arguments, modifiers, span))
        if args:
            raise BuildError(f"{cls.__name__}(...) takes one binding and keyword modifiers",
                             span)
        if info.kind == "package":
            raise BuildError(f"{cls.__name__} is a package: it has no instances", span)
        return declare(cls, binding, modifiers, span)

    def __getitem__(cls, dims):
        return array_type(cls, dims)

    def __modelica_full_name__(cls) -> tuple[str, ...]:
        return full_name(cls)

    def __modelica_base__(cls):
        return cls

    def __modelica_elements__(cls) -> dict | None:
        """Every element name of the class (inherited ones too) with its type; None when a
        base is a library class, whose elements Python does not know."""
        elements = {}
        for klass in reversed(cls.__mro__):
            info = klass.__dict__.get("__modelica_info__")
            if info is None:
                continue
            if any(isinstance(base, LibraryClass) for base, _ in info.bases):
                return None
            elements.update((value._name, value._type) for _, value in info.members
                            if isinstance(value, Declaration))
        return elements


def _kind(cls) -> str:
    for klass in cls.__mro__:
        root = klass.__dict__.get("__modelica_root__")
        if root is not None:
            return root
    raise AssertionError("a model class without a root")


def _members(cls, namespace) -> tuple:
    nested_prefix = namespace.get("__qualname__", cls.__qualname__) + "."
    members = []
    for key, value in namespace.items():
        if isinstance(value, Declaration):
            members.append((key, value))
        elif isinstance(value, ModelClass) and value.__qualname__ == nested_prefix + key:
            members.append((key, value))
    return tuple(members)


def _bases(bases, span) -> tuple:
    found = []
    for base in bases:
        if isinstance(base, Declaration):
            found.append((base._type, base))
        elif isinstance(base, LibraryClass):
            found.append((base, None))
        elif isinstance(base, ModelClass) and base.__dict__.get("__modelica_info__") is not None:
            found.append((base, None))
    return tuple(found)


def _docstring(doc: str | None) -> tuple[str, str]:
    """The description (first paragraph, on one line) and the rest of a docstring."""
    text = inspect.cleandoc(doc or "")
    first, _, rest = text.partition("\n\n")
    return " ".join(first.split()), rest.strip()


def _annotation(options: dict, documentation: str, span) -> dict | None:
    annotation = options.get("annotation")
    if annotation is not None and type(annotation) is not dict:
        raise BuildError("annotation= takes a dict: annotation={'Icon': {...}}", span)
    annotation = dict(annotation or {})
    if options.get("experiment") is not None:
        annotation["experiment"] = options["experiment"]
    if documentation:
        annotation.setdefault("Documentation", {"info": documentation})
    return annotation or None


class Model(metaclass=ModelClass, root="model"):
    """The base of model classes."""


class Block(metaclass=ModelClass, root="block"):
    """The base of block classes (inputs and outputs only in their interface)."""


class Connector(metaclass=ModelClass, root="connector"):
    """The base of connector classes (potentials, and ``flow`` variables)."""


class Record(metaclass=ModelClass, root="record"):
    """The base of record classes."""


class Package(metaclass=ModelClass, root="package"):
    """The base of package classes: nested classes and constants."""


class Function(metaclass=ModelClass, root="function"):
    """The base of function classes: ``input``/``output`` declarations and an
    ``algorithm(self)`` method; calling the class calls the function."""


ROOTS = {"model": Model, "block": Block, "connector": Connector, "record": Record,
         "package": Package, "function": Function}


@dataclass(frozen=True, slots=True)
class LibraryClass:
    """A class of a Modelica library on the search path (``--lib``, ``MODELICAPATH``), by its
    full name: a component type, a base class, or (``kind="function"``) a function."""
    dotted: str
    kind: str = "model"

    def __call__(self, binding=NO_BINDING, /, *args, **modifiers):
        span = caller_span()
        if self.kind == "function":
            arguments = (() if binding is NO_BINDING else (binding,)) + args
            ref = ast.ComponentRef(tuple(ast.RefPart(part, (), span)
                                         for part in self.dotted.split(".")), False, span)
            return Expr(call_node(ref, arguments, modifiers, span))
        return declare(self, binding, modifiers, span)

    def __getitem__(self, dims):
        return array_type(self, dims)

    def __mro_entries__(self, bases):
        return (ROOTS[self.kind],)

    def __modelica_full_name__(self) -> tuple[str, ...]:
        return tuple(self.dotted.split("."))

    def __modelica_base__(self):
        return ROOTS[self.kind]

    @property
    def __name__(self) -> str:
        return self.dotted.rsplit(".", 1)[-1]


def from_library(dotted: str, kind: str = "model") -> LibraryClass:
    """The library class ``dotted`` (``from_library("Modelica.Blocks.Sources.Step")``)."""
    span = caller_span()
    if kind not in ROOTS:
        raise BuildError(f"kind '{kind}' is not one of {', '.join(ROOTS)}", span)
    for part in dotted.split("."):
        check_identifier(part, "class", span)
    return LibraryClass(dotted, kind)


def is_model_class(value) -> bool:
    """A Python model class (not a root)."""
    return isinstance(value, ModelClass) and value.__dict__.get("__modelica_info__") is not None

