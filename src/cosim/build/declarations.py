"""Declarations: the values a class body assigns to its attributes (``T = Real(start=90)``).

Input: a type (``Real``, ``Integer``, ``Boolean``, ``String``, a Python model class, a library
class), an optional binding, modifiers as keyword arguments and prefixes (``parameter``,
``input``, ``flow``, ...). Output: ``Declaration`` values, which are descriptors: read on a
class or on ``self`` they give a reference ``Expr``. ``modification`` turns keyword modifiers
into ``ast.Modification`` nodes. A declaration learns its name once, when its class is made.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from compiler.lang import ast
from cosim.build.errors import BuildError, caller_span
from cosim.build.expr import Expr, Operand, as_node, member, reference, subscripted
from cosim.build.names import check_identifier, modelica_name

NO_BINDING = None
# keyword arguments of a declaration that are not modifiers
RESERVED = ("doc", "annotation", "condition")


@dataclass(frozen=True, slots=True)
class Each:
    """``each`` before a modifier of an array component: ``m=each(1.0)``."""
    value: object


@dataclass(frozen=True, slots=True)
class Final:
    """``final`` before a modifier: ``unit=final("1")``."""
    value: object


@dataclass(frozen=True, slots=True)
class Mod:
    """A modification with nested modifiers and an optional binding: ``v=modify(start=0)``
    (a dict is the same without a binding)."""
    binding: object
    modifiers: tuple


def modify(binding=NO_BINDING, /, **modifiers) -> Mod:
    """``name(modifiers) = binding`` as the value of a keyword modifier."""
    return Mod(binding, tuple(modifiers.items()))


def each(value) -> Each:
    return Each(value)


@dataclass(frozen=True, eq=False, slots=True)
class Declaration(Operand):
    """One declared element. Prefixes are Modelica's (``variability``: parameter, constant,
    discrete; ``causality``: input, output; ``flow``). ``_dims`` are the array dimensions,
    ``_modifiers`` ``(name, value)`` pairs in order."""

    _type: object
    _binding: object = NO_BINDING
    _modifiers: tuple = ()
    _dims: tuple = ()
    _variability: str = ""
    _causality: str = ""
    _flow: str = ""
    _description: str = ""
    _annotation: object = None
    _condition: object = None
    _protected: bool = False
    _final: bool = False
    _inner: bool = False
    _outer: bool = False
    _replaceable: bool = False
    _span: object = None
    _name: str | None = None   # set once, by __set_name__ when the class is made

    def __set_name__(self, owner, attribute: str) -> None:
        name = modelica_name(attribute)
        if self._name is not None and self._name != name:
            raise BuildError(f"one declaration assigned to two names ('{self._name}' and "
                             f"'{name}'): declare each element on its own", self._span)
        check_identifier(name, "element", self._span)
        object.__setattr__(self, "_name", name)

    def __get__(self, instance, owner) -> Expr:
        return reference(self._name if self._name is not None else self, self._type)

    def _expr(self) -> Expr:
        return reference(self._name if self._name is not None else self, self._type)

    def __modelica_node__(self):
        return self._expr()._node

    def __getattr__(self, name: str):
        if name.startswith("_"):
            raise AttributeError(name)
        return member(self._expr(), name)

    def __getitem__(self, subscripts) -> Expr:
        return subscripted(self._expr(), subscripts)

    def __mro_entries__(self, bases):
        # class Short(Rod(N=20)): the declaration as a base class is "extends Rod(N = 20)"
        root = getattr(self._type, "__modelica_base__", None)
        if root is None:
            raise BuildError("only a model class with modifiers can be a base class "
                             f"(not {self._type!r})", self._span)
        return (root(),)

    def __repr__(self) -> str:
        type_name = getattr(self._type, "__name__", self._type)
        return f"<declaration {self._name or '?'} of {type_name}>"


def declare(type_, binding=NO_BINDING, attributes=None, span=None, **prefixes) -> Declaration:
    """A declaration of ``type_`` (a type, an array type or a declaration to add to)."""
    attributes = dict(attributes or {})
    span = span or caller_span()
    if isinstance(type_, Declaration):
        base = type_
    else:
        element, dims = (type_.element, type_.dims) if isinstance(type_, ArrayType) \
            else (type_, ())
        if not _is_type(element):
            raise BuildError(f"{element!r} is not a type (Real, Integer, Boolean, String or a "
                             "model class)", span)
        base = Declaration(element, _dims=dims, _span=span)
    changes = {f"_{key}": value for key, value in prefixes.items() if value}
    if binding is not NO_BINDING:
        changes["_binding"] = binding
    for key in RESERVED:
        if key in attributes:
            changes["_description" if key == "doc" else f"_{key}"] = attributes.pop(key)
    if attributes:
        changes["_modifiers"] = base._modifiers + tuple(attributes.items())
    return replace(base, _span=span, **changes)


def _is_type(value) -> bool:
    return isinstance(value, PrimitiveType) or hasattr(value, "__modelica_full_name__")


@dataclass(frozen=True, slots=True)
class ArrayType:
    """``Real[3]`` or ``Mass[N]``: a type with array dimensions, to declare elements of."""
    element: object
    dims: tuple

    def __call__(self, binding=NO_BINDING, /, **attributes) -> Declaration:
        return declare(self, binding, attributes)

    def __getitem__(self, dims) -> ArrayType:
        return ArrayType(self.element, self.dims + _dims(dims))


def _dims(dims) -> tuple:
    return dims if type(dims) is tuple else (dims,)


def array_type(element, dims) -> ArrayType:
    return ArrayType(element, _dims(dims))


@dataclass(frozen=True, slots=True)
class PrimitiveType:
    """``Real``, ``Integer``, ``Boolean`` or ``String``: ``Real(binding, unit="m", ...)``
    declares a variable; ``Real[3]`` is the array type."""
    name: str

    def __call__(self, binding=NO_BINDING, /, **attributes) -> Declaration:
        return declare(self, binding, attributes)

    def __getitem__(self, dims) -> ArrayType:
        return array_type(self, dims)

    @property
    def __name__(self) -> str:
        return self.name

    def __modelica_elements__(self) -> dict:
        return {}  # a Real has no elements: self.x.y is refused where it is written

    def __repr__(self) -> str:
        return self.name


Real = PrimitiveType("Real")
Integer = PrimitiveType("Integer")
Boolean = PrimitiveType("Boolean")
String = PrimitiveType("String")


def parameter(type_, binding=NO_BINDING, /, **attributes) -> Declaration:
    """``parameter Real k(unit = "1/s") = 0.5``: ``parameter(Real, 0.5, unit="1/s")``."""
    return declare(type_, binding, attributes, variability="parameter")


def constant(type_, binding=NO_BINDING, /, **attributes) -> Declaration:
    return declare(type_, binding, attributes, variability="constant")


def discrete(type_, binding=NO_BINDING, /, **attributes) -> Declaration:
    return declare(type_, binding, attributes, variability="discrete")


def input(type_, binding=NO_BINDING, /, **attributes) -> Declaration:  # noqa: A001
    return declare(type_, binding, attributes, causality="input")


def output(type_, binding=NO_BINDING, /, **attributes) -> Declaration:
    return declare(type_, binding, attributes, causality="output")


def flow(type_, binding=NO_BINDING, /, **attributes) -> Declaration:
    return declare(type_, binding, attributes, flow="flow")


def protected(declaration: Declaration) -> Declaration:
    """The declaration in the protected section."""
    return replace(_declaration(declaration, "protected"), _protected=True)


def final(value):
    """``final`` on a declaration (``final(parameter(Real, 4))``) or on a modifier
    (``unit=final("1")``)."""
    if isinstance(value, Declaration):
        return replace(value, _final=True)
    return Final(value)


def inner(declaration: Declaration) -> Declaration:
    return replace(_declaration(declaration, "inner"), _inner=True)


def outer(declaration: Declaration) -> Declaration:
    return replace(_declaration(declaration, "outer"), _outer=True)


def replaceable(declaration: Declaration) -> Declaration:
    return replace(_declaration(declaration, "replaceable"), _replaceable=True)


def _declaration(value, what: str) -> Declaration:
    if not isinstance(value, Declaration):
        raise BuildError(f"{what}() takes a declaration, not {value!r}", caller_span())
    return value


# ---------------------------------------------------------------------------- to the AST
def modification(binding, modifiers, span) -> ast.Modification | None:
    """The ``ast.Modification`` of a binding and keyword modifiers (None when both are
    absent)."""
    arguments = tuple(_argument(key, value, span) for key, value in modifiers)
    node = None if binding is NO_BINDING else as_node(binding)
    if not arguments and node is None:
        return None
    return ast.Modification(arguments, node, span)


def _argument(key: str, value, span) -> ast.ElementMod:
    is_each = is_final = False
    while type(value) in (Each, Final):
        is_each = is_each or type(value) is Each
        is_final = is_final or type(value) is Final
        value = value.value
    key = check_identifier(modelica_name(key), "modifier", span)
    if type(value) is Mod:
        inner_mod = modification(value.binding, value.modifiers, span)
    elif type(value) is dict:
        inner_mod = modification(NO_BINDING, tuple(value.items()), span)
    else:
        inner_mod = ast.Modification((), as_node(value), span)
    return ast.ElementMod((key,), inner_mod, is_each, is_final, "", span)


def annotation(value, span) -> ast.Modification | None:
    """An annotation from nested dicts: ``{"experiment": {"StopTime": 3}}``."""
    if value is None:
        return None
    if type(value) is not dict:
        raise BuildError(f"an annotation is a dict of modifiers, not {value!r}", span)
    return modification(NO_BINDING, tuple(value.items()), span)


def placement(x, y, width=20, height=20, rotation=0) -> dict:
    """A ``Placement`` annotation: the component's icon centred at (x, y) of the diagram."""
    half_w, half_h = width / 2, height / 2
    transformation = {"origin": [x, y],
                      "extent": [[-half_w, -half_h], [half_w, half_h]]}
    if rotation:
        transformation["rotation"] = rotation
    return {"Placement": {"transformation": transformation}}
