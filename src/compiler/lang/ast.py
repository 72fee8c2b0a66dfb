"""Modelica abstract syntax: the frozen, slotted dataclasses ``parse`` builds.

Input: nothing (data only). Output: node types for expressions, modifications, elements,
equations, statements and classes. Every node has ``span`` excluded from equality, so two
trees compare equal when their structure is equal wherever they came from.
Normalisations made by the parser: one ``Component`` per declared name (prefixes copied),
type and declaration dimensions joined (``Real[3] x[2]`` is ``x[2, 3]``), sections gathered
per kind, string comments joined, parentheses dropped.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional, Union

from compiler.errors import Span

node = dataclass(frozen=True, slots=True)


def _span():
    return field(default=None, compare=False, repr=False)


# ----------------------------------------------------------------------------- expressions
@node
class IntLit:
    value: int
    span: Optional[Span] = _span()


@node
class RealLit:
    value: float
    span: Optional[Span] = _span()


@node
class StrLit:
    value: str
    span: Optional[Span] = _span()


@node
class BoolLit:
    value: bool
    span: Optional[Span] = _span()


@node
class Colon:
    """``:`` as a subscript or dimension (all elements / size not yet known)."""
    span: Optional[Span] = _span()


@node
class End:
    """``end`` inside a subscript: the size of the dimension being subscripted."""
    span: Optional[Span] = _span()


@node
class RefPart:
    """One identifier of a dotted reference with its subscripts: ``b[2]`` in ``a.b[2].c``."""
    name: str
    subscripts: tuple = ()
    span: Optional[Span] = _span()


@node
class ComponentRef:
    parts: tuple[RefPart, ...]
    is_global: bool = False
    span: Optional[Span] = _span()

    @property
    def dotted(self) -> str:
        return ".".join(part.name for part in self.parts)


@node
class Unary:
    op: str  # "-", "+", "not"
    operand: "Expr"
    span: Optional[Span] = _span()


@node
class Binary:
    op: str  # see compiler.lang.precedence.BINARY
    left: "Expr"
    right: "Expr"
    span: Optional[Span] = _span()


@node
class IfExpr:
    branches: tuple[tuple["Expr", "Expr"], ...]  # (condition, value); elseif adds branches
    else_: "Expr"
    span: Optional[Span] = _span()


@node
class Range:
    start: "Expr"
    step: Optional["Expr"]
    stop: "Expr"
    span: Optional[Span] = _span()


@node
class ForIndex:
    name: str
    range: Optional["Expr"]  # None: deduced from the subscripts the index is used in
    span: Optional[Span] = _span()


@node
class Comprehension:
    """``expr for i in r``: the single argument of a call or array constructor."""
    expr: "Expr"
    indices: tuple[ForIndex, ...]
    span: Optional[Span] = _span()


@node
class NamedArg:
    name: str
    value: "Expr"
    span: Optional[Span] = _span()


@node
class Call:
    func: ComponentRef  # der, initial and pure calls have one-part references too
    args: tuple["Expr", ...] = ()
    named: tuple[NamedArg, ...] = ()
    span: Optional[Span] = _span()


@node
class FunctionArg:
    """``function f(a = 1)``: a function (with some inputs bound) passed as the argument of a
    functional input (MLS 12.4.2)."""
    func: ComponentRef
    named: tuple[NamedArg, ...] = ()
    span: Optional[Span] = _span()


@node
class ArrayCons:
    """``{a, b}`` or, with one Comprehension element, ``{e for i in r}``."""
    elements: tuple["Expr", ...]
    span: Optional[Span] = _span()


@node
class MatrixCons:
    """``[a, b; c, d]``: rows of horizontally concatenated expressions."""
    rows: tuple[tuple["Expr", ...], ...]
    span: Optional[Span] = _span()


@node
class TupleExpr:
    """``(a, , b)``: the outputs of a multi-output call; None marks a skipped output."""
    elements: tuple[Optional["Expr"], ...]
    span: Optional[Span] = _span()


Expr = Union[IntLit, RealLit, StrLit, BoolLit, Colon, End, ComponentRef, Unary, Binary, IfExpr,
             Range, Call, FunctionArg, ArrayCons, MatrixCons, TupleExpr, Comprehension]


# --------------------------------------------------------------------------- modifications
@node
class Modification:
    """``(arguments) = binding``; either part may be absent. Annotations are Modifications too."""
    arguments: tuple["Argument", ...] = ()
    binding: Optional[Expr] = None
    span: Optional[Span] = _span()


@node
class ElementMod:
    """``each final a.b(...) = e "description"`` inside a modification."""
    name: tuple[str, ...]
    modification: Optional[Modification] = None
    each: bool = False
    final: bool = False
    description: str = ""
    span: Optional[Span] = _span()


@node
class ElementRedeclare:
    """``redeclare`` (or a bare ``replaceable``) of a component or short class in a modification."""
    element: Union["Component", "ClassDef"]
    each: bool = False
    final: bool = False
    redeclare: bool = True
    span: Optional[Span] = _span()


Argument = Union[ElementMod, ElementRedeclare]


# -------------------------------------------------------------------------------- elements
@node
class TypeName:
    parts: tuple[str, ...]
    is_global: bool = False
    span: Optional[Span] = _span()

    @property
    def dotted(self) -> str:
        return ".".join(self.parts)


@node
class Constraint:
    """``constrainedby Base(mods)`` after a replaceable element."""
    base: TypeName
    modification: Optional[Modification] = None
    description: str = ""
    annotation: Optional[Modification] = None
    span: Optional[Span] = _span()


@node
class Component:
    name: str
    type_name: TypeName
    dims: tuple[Expr, ...] = ()
    modification: Optional[Modification] = None
    condition: Optional[Expr] = None
    description: str = ""
    annotation: Optional[Modification] = None
    flow: str = ""          # "", "flow", "stream"
    variability: str = ""   # "", "discrete", "parameter", "constant"
    causality: str = ""     # "", "input", "output"
    final: bool = False
    inner: bool = False
    outer: bool = False
    replaceable: bool = False
    redeclare: bool = False
    protected: bool = False
    constraint: Optional[Constraint] = None
    span: Optional[Span] = _span()


@node
class Extends:
    base: TypeName
    modification: Optional[Modification] = None
    annotation: Optional[Modification] = None
    protected: bool = False
    span: Optional[Span] = _span()


@node
class Import:
    """``import A.B.C;`` (path), ``import D = A.B.C;`` (alias), ``import A.B.*;`` (wildcard),
    ``import A.B.{C, D};`` (names)."""
    path: tuple[str, ...]
    alias: str = ""
    wildcard: bool = False
    names: tuple[str, ...] = ()
    description: str = ""
    annotation: Optional[Modification] = None
    protected: bool = False
    span: Optional[Span] = _span()


# ------------------------------------------------------------------------------- equations
@node
class EqEquality:
    lhs: Expr
    rhs: Expr
    description: str = ""
    annotation: Optional[Modification] = None
    span: Optional[Span] = _span()


@node
class EqConnect:
    a: ComponentRef
    b: ComponentRef
    description: str = ""
    annotation: Optional[Modification] = None
    span: Optional[Span] = _span()


@node
class EqFor:
    indices: tuple[ForIndex, ...]
    body: tuple["Equation", ...]
    description: str = ""
    annotation: Optional[Modification] = None
    span: Optional[Span] = _span()


@node
class EqIf:
    branches: tuple[tuple[Expr, tuple["Equation", ...]], ...]
    else_: tuple["Equation", ...] = ()
    description: str = ""
    annotation: Optional[Modification] = None
    span: Optional[Span] = _span()


@node
class EqWhen:
    branches: tuple[tuple[Expr, tuple["Equation", ...]], ...]  # when, then elsewhen branches
    description: str = ""
    annotation: Optional[Modification] = None
    span: Optional[Span] = _span()


@node
class EqCall:
    """A call used as an equation: ``assert``, ``terminate``, ``reinit`` or a user function."""
    call: Call
    description: str = ""
    annotation: Optional[Modification] = None
    span: Optional[Span] = _span()


Equation = Union[EqEquality, EqConnect, EqFor, EqIf, EqWhen, EqCall]


# ------------------------------------------------------------------------------ statements
@node
class Assign:
    target: Expr  # ComponentRef, or TupleExpr with a Call value
    value: Expr
    description: str = ""
    annotation: Optional[Modification] = None
    span: Optional[Span] = _span()


@node
class CallStmt:
    call: Call
    description: str = ""
    annotation: Optional[Modification] = None
    span: Optional[Span] = _span()


@node
class ForStmt:
    indices: tuple[ForIndex, ...]
    body: tuple["Statement", ...]
    description: str = ""
    annotation: Optional[Modification] = None
    span: Optional[Span] = _span()


@node
class WhileStmt:
    condition: Expr
    body: tuple["Statement", ...]
    description: str = ""
    annotation: Optional[Modification] = None
    span: Optional[Span] = _span()


@node
class IfStmt:
    branches: tuple[tuple[Expr, tuple["Statement", ...]], ...]
    else_: tuple["Statement", ...] = ()
    description: str = ""
    annotation: Optional[Modification] = None
    span: Optional[Span] = _span()


@node
class WhenStmt:
    branches: tuple[tuple[Expr, tuple["Statement", ...]], ...]
    description: str = ""
    annotation: Optional[Modification] = None
    span: Optional[Span] = _span()


@node
class Break:
    description: str = ""
    annotation: Optional[Modification] = None
    span: Optional[Span] = _span()


@node
class Return:
    description: str = ""
    annotation: Optional[Modification] = None
    span: Optional[Span] = _span()


Statement = Union[Assign, CallStmt, ForStmt, WhileStmt, IfStmt, WhenStmt, Break, Return]


# --------------------------------------------------------------------------------- classes
@node
class External:
    """``external "C" y = f(x) annotation(...)``; an empty function name means the default call."""
    language: str = ""
    function: str = ""
    args: tuple[Expr, ...] = ()
    output: Optional[ComponentRef] = None
    annotation: Optional[Modification] = None
    span: Optional[Span] = _span()


@node
class Composition:
    elements: tuple = ()  # Component | Extends | Import | ClassDef, each with its protected flag
    equations: tuple[Equation, ...] = ()
    initial_equations: tuple[Equation, ...] = ()
    algorithms: tuple[tuple[Statement, ...], ...] = ()
    initial_algorithms: tuple[tuple[Statement, ...], ...] = ()
    external: Optional[External] = None
    annotation: Optional[Modification] = None
    span: Optional[Span] = _span()


@node
class ShortClass:
    """``= input Real[3](unit="V")``: a class defined as a modified base class."""
    base: TypeName
    dims: tuple[Expr, ...] = ()
    modification: Optional[Modification] = None
    causality: str = ""
    variability: str = ""
    flow: str = ""
    span: Optional[Span] = _span()


@node
class EnumLiteral:
    name: str
    description: str = ""
    annotation: Optional[Modification] = None
    span: Optional[Span] = _span()


@node
class Enumeration:
    literals: tuple[EnumLiteral, ...] = ()
    unspecified: bool = False  # enumeration(:)
    span: Optional[Span] = _span()


@node
class DerClass:
    """``function dfdx = der(f, x)``: a partial derivative of a function (MLS 12.7.2; made by
    ``compiler.flatten.partial_derivatives``)."""
    function: TypeName
    variables: tuple[str, ...]
    span: Optional[Span] = _span()


@node
class ClassDef:
    name: str
    kind: str  # model block connector record function package type class operator
               # "operator record", "operator function", "expandable connector"
    body: Union[Composition, ShortClass, Enumeration, DerClass]
    description: str = ""
    annotation: Optional[Modification] = None  # of short classes; long ones keep theirs in body
    partial: bool = False
    encapsulated: bool = False
    purity: str = ""  # "", "pure", "impure"
    extends_base: bool = False  # ``class extends Name(mods)``: modification kept in base_mod
    base_mod: Optional[Modification] = None
    final: bool = False
    inner: bool = False
    outer: bool = False
    replaceable: bool = False
    redeclare: bool = False
    protected: bool = False
    constraint: Optional[Constraint] = None
    span: Optional[Span] = _span()


@node
class StoredDefinition:
    """A whole file: optional ``within`` (empty parts for bare ``within;``) and its classes."""
    within: Optional[TypeName]
    classes: tuple[ClassDef, ...]
    span: Optional[Span] = _span()


Element = Union[Component, Extends, Import, ClassDef]
