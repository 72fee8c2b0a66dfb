"""The flat model: what ``compiler.flatten`` makes of one instantiated Modelica model.

Input: nothing (data only). Output: ``FlatModel`` and its parts: scalar ``Variable``s, the
expression nodes (``Const``, ``EnumConst``, ``Var``, ``Index``, ``Unary``, ``Binary``,
``IfExpr``, ``Call``, ``ArrayExpr``, ``RangeExpr``, ``TupleExpr``), equations, statements,
algorithms and functions. All are frozen slotted dataclasses holding tuples; equations,
statements, variables and functions carry the ``Span`` of the source they came from (spans never
take part in equality). ``str(model)`` is the model as flat Modelica text.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional, Union

from compiler.errors import Span

node = dataclass(frozen=True, slots=True)


def _span():
    return field(default=None, compare=False, repr=False)


# ------------------------------------------------------------------------------ expressions
@node
class Const:
    """A literal: ``float`` for Real, ``int`` for Integer, ``bool`` for Boolean, ``str`` for String."""
    value: Union[float, int, bool, str]


@node
class EnumConst:
    """An enumeration literal: ``type`` is the enumeration's full name, ``ordinal`` counts from 1."""
    type: str
    name: str
    ordinal: int


@node
class Var:
    """A reference to a scalar variable by its flattened name (``a.b[2].c``, ``time``).

    In function bodies ``name`` is the plain name of a function input, output or local, and
    array elements are written ``Index(Var("x"), (i,))``.
    """
    name: str


@node
class Index:
    """``base[subscripts]``; only in function bodies (model arrays are scalarized)."""
    base: "Expr"
    subscripts: tuple["Expr", ...]


@node
class Unary:
    op: str  # "-" or "not"
    operand: "Expr"


@node
class Binary:
    """``+ - * / ^``, ``and or``, ``< <= > >= == <>``; in function bodies also ``.* ./ .^ .+ .-``."""
    op: str
    left: "Expr"
    right: "Expr"


@node
class IfExpr:
    condition: "Expr"
    then: "Expr"
    else_: "Expr"


@node
class Call:
    """A call of a built-in (``der``, ``pre``, ``sin``, ...) or of a function in
    ``FlatModel.functions`` (by its full name), with every argument positional (named arguments
    placed, defaults filled in)."""
    name: str
    args: tuple["Expr", ...] = ()


@node
class ArrayExpr:
    """``{a, b, ...}``: an array argument of a function call, or an array in a function body."""
    elements: tuple["Expr", ...]


@node
class RangeExpr:
    """``start:step:stop`` (``step`` may be None); only in function bodies."""
    start: "Expr"
    step: Optional["Expr"]
    stop: "Expr"


@node
class TupleExpr:
    """The targets of a call with several scalar results, in order; None skips a result."""
    elements: tuple[Optional["Expr"], ...]


Expr = Union[Const, EnumConst, Var, Index, Unary, Binary, IfExpr, Call, ArrayExpr, RangeExpr,
             TupleExpr]

TIME = Var("time")


# -------------------------------------------------------------------------------- equations
@node
class Equation:
    """``lhs = rhs`` between scalars; or ``TupleExpr(targets) = Call(...)`` for a function call
    with several outputs or an array output (outputs in order, arrays row-major)."""
    lhs: Expr
    rhs: Expr
    span: Optional[Span] = _span()


@node
class IfEquation:
    """An if-equation whose conditions are not parameter expressions (others are resolved)."""
    branches: tuple[tuple[Expr, tuple["FlatEquation", ...]], ...]
    else_: tuple["FlatEquation", ...] = ()
    span: Optional[Span] = _span()


@node
class WhenEquation:
    """``when c1 then ... elsewhen c2 then ... end when``; a condition may be an ``ArrayExpr``."""
    branches: tuple[tuple[Expr, tuple["FlatEquation", ...]], ...]
    span: Optional[Span] = _span()


@node
class Reinit:
    """``reinit(var, value)``, only inside a when-equation or when-statement; ``var`` is a state."""
    var: Var
    value: Expr
    span: Optional[Span] = _span()


@node
class Assert:
    condition: Expr
    message: Expr
    level: str = "error"  # "error" or "warning"
    span: Optional[Span] = _span()


@node
class Terminate:
    message: Expr
    span: Optional[Span] = _span()


FlatEquation = Union[Equation, IfEquation, WhenEquation, Reinit, Assert, Terminate]


# ------------------------------------------------------------------------------- statements
@node
class Assign:
    """``target := value``; ``target`` is a ``Var``, an ``Index`` or a ``TupleExpr`` (call value)."""
    target: Expr
    value: Expr
    span: Optional[Span] = _span()


@node
class CallStatement:
    call: Call
    span: Optional[Span] = _span()


@node
class IfStatement:
    branches: tuple[tuple[Expr, tuple["Statement", ...]], ...]
    else_: tuple["Statement", ...] = ()
    span: Optional[Span] = _span()


@node
class ForStatement:
    """Only in function bodies: loops in model algorithms are unrolled."""
    index: str
    range: Expr
    body: tuple["Statement", ...]
    span: Optional[Span] = _span()


@node
class WhileStatement:
    condition: Expr
    body: tuple["Statement", ...]
    span: Optional[Span] = _span()


@node
class WhenStatement:
    branches: tuple[tuple[Expr, tuple["Statement", ...]], ...]
    span: Optional[Span] = _span()


@node
class Break:
    span: Optional[Span] = _span()


@node
class Return:
    span: Optional[Span] = _span()


Statement = Union[Assign, CallStatement, IfStatement, ForStatement, WhileStatement,
                  WhenStatement, Break, Return, Reinit, Assert, Terminate]


@node
class Algorithm:
    """One algorithm section: its statements run in order, as one block."""
    statements: tuple[Statement, ...]
    span: Optional[Span] = _span()


# -------------------------------------------------------------------------------- variables
VARIABILITIES = ("constant", "parameter", "discrete", "continuous")
CAUSALITIES = ("parameter", "input", "output", "local")
STATE_SELECTS = ("never", "avoid", "default", "prefer", "always")


@node
class Variable:
    """One scalar variable.

    ``type`` is ``Real``, ``Integer``, ``Boolean``, ``String`` or the full name of an
    enumeration in ``FlatModel.enumerations``. ``binding`` is set for parameters and constants
    only: the binding of any other variable is an equation in ``FlatModel.equations``.
    ``causality`` is ``input``/``output`` only for the public interface of the top model.
    ``structural`` marks a parameter whose value flattening used (array size, for range,
    if-equation condition, component condition): it must not change after compilation.
    ``final`` marks a variable declared or modified ``final``, ``evaluate`` one annotated
    ``Evaluate = true``: a code generator may fold such parameters into constants.
    ``start_confidence`` ranks the start value among those of variables made equal by
    connections, lowest first (MLS 8.6.2): the level its modifier is written at (1 at the
    top), then the best level through the bindings of a start that is just a parameter.
    """
    name: str
    type: str
    variability: str
    causality: str
    binding: Optional[Expr] = None
    start: Optional[Expr] = None
    fixed: Optional[bool] = None
    nominal: Optional[Expr] = None
    min: Optional[Expr] = None
    max: Optional[Expr] = None
    unit: str = ""
    display_unit: str = ""
    quantity: str = ""
    state_select: str = ""
    protected: bool = False
    structural: bool = False
    description: str = ""
    span: Optional[Span] = _span()
    final: bool = False
    evaluate: bool = False
    start_confidence: tuple[int, ...] = field(default=(), compare=False)


# -------------------------------------------------------------------------------- functions
@node
class FunctionVar:
    """An input, output or protected variable of a function; a ``None`` dimension is ``:``."""
    name: str
    type: str
    dims: tuple[Optional[Expr], ...] = ()
    default: Optional[Expr] = None
    span: Optional[Span] = _span()


@node
class ExternalCall:
    """``external "C" output = function(args)``; ``output`` is empty for a call without result.

    From the annotation (MLS 12.9.4): ``include`` the C text of ``Include``, ``libraries``
    the names of ``Library``, and the folders ``IncludeDirectory`` and ``LibraryDirectory``
    resolved to absolute paths (those that exist)."""
    language: str
    function: str
    args: tuple[Expr, ...]
    output: str = ""
    include: tuple[str, ...] = ()
    libraries: tuple[str, ...] = ()
    include_directories: tuple[str, ...] = ()
    library_directories: tuple[str, ...] = ()


@node
class ExternalObject:
    """A class that extends ``ExternalObject``: a variable of its type (``Variable.type`` and
    ``FunctionVar.type`` are this ``name``) holds what ``constructor`` returned, until
    ``destructor`` is called on it (both are functions of the model)."""
    name: str
    constructor: str
    destructor: str
    span: Optional[Span] = _span()


@node
class FunctionDerivative:
    """``annotation(derivative(order, noDerivative, zeroDerivative) = name)`` (MLS 12.7.1):
    the function ``name`` takes the inputs, then the derivatives of the Real inputs not in
    ``no_derivative`` or ``zero_derivative``, and gives the derivatives of the Real outputs;
    it applies only where the inputs of ``zero_derivative`` do not change."""
    name: str
    order: int = 1
    no_derivative: tuple[str, ...] = ()
    zero_derivative: tuple[str, ...] = ()


@node
class Function:
    """A user function: called by ``Call(name, ...)``, body in ``algorithm`` or ``external``;
    ``derivatives`` from its derivative annotations."""
    name: str
    inputs: tuple[FunctionVar, ...]
    outputs: tuple[FunctionVar, ...]
    locals: tuple[FunctionVar, ...] = ()
    algorithm: tuple[Statement, ...] = ()
    external: Optional[ExternalCall] = None
    description: str = ""
    span: Optional[Span] = _span()
    derivatives: tuple[FunctionDerivative, ...] = ()


@node
class Enumeration:
    name: str
    literals: tuple[str, ...]
    span: Optional[Span] = _span()


@node
class Experiment:
    """The ``experiment`` annotation of the top model (None where not given)."""
    start_time: Optional[float] = None
    stop_time: Optional[float] = None
    tolerance: Optional[float] = None
    interval: Optional[float] = None


# ------------------------------------------------------------------------------------ model
@node
class FlatModel:
    """A flattened model: every variable scalar, every equation between scalars.

    Conventions for the stages that consume it:

    - Names: a ``Var`` names a ``Variable`` of ``variables`` by its full scalarized name
      (``a.b[2].c``, ``m[1,2]``), or is ``Var("time")``. Package constants are already
      replaced by their values; constants and parameters declared in the model stay
      variables (``binding`` holds their value expression, possibly of other parameters).
    - Unknowns are the ``continuous`` and ``discrete`` variables except top-level inputs.
      The model is balanced: their number equals the scalar equation count, where an
      ``Equation`` counts 1 (a ``TupleExpr`` left side counts its non-None elements), an
      ``IfEquation`` and a ``WhenEquation`` count the equations of one branch (all branches
      have as many), ``Reinit``/``Assert``/``Terminate`` count 0, and each ``Algorithm``
      counts the distinct variables it assigns. Initial sections are not counted.
    - Bindings of non-parameters are ordinary equations (``x = expr``, first in ``equations``),
      followed by the model's equations, then the connection equations (potentials equal,
      flows summing to zero, unconnected flows ``= 0.0``).
    - Real variables assigned in a when-clause are ``discrete``; states are not marked:
      they are the variables under ``der`` (``der`` may also wrap an expression).
    - Literals keep their Modelica type (``Const(1)`` may stand in a Real equation: read it as
      1.0). ``fixed`` is None where the model leaves Modelica's default. Attributes other than
      ``fixed``, units and ``stateSelect`` are expressions (of parameters).
    - Built-in calls keep their Modelica names with every argument positional:
      ``der(x)``, ``pre(x)``, ``edge(b)``, ``change(v)``, ``initial()``, ``terminal()``,
      ``sample(start, interval)``, ``noEvent(e)``, ``smooth(p, e)``, ``homotopy(actual,
      simplified)``, ``delay(e, delayTime, delayMax)``, math functions, ``min``/``max`` of two
      arguments, ``Integer(enum)``, ``String(x)`` (``String(x, format)``, ``String(x,
      minimumLength, leftJustified, significantDigits)``), ``loadResource(uri, path)`` (a
      URI of the library's loadResource and the file it names here: flatten/resources.py).
      Array built-ins are already expanded.
    - A call of a function with several outputs or an array output is the right side of an
      ``Equation``/``Assign`` whose left side is a ``TupleExpr`` of the scalar targets
      (outputs in order, arrays row-major, None for skipped ones); a call inside an
      expression means its first, scalar output. Array arguments are ``ArrayExpr``.
    - Function bodies are not scalarized: ``Index``, ``RangeExpr``, ``ArrayExpr``, the
      element-wise operators and array built-ins (``size``, ``sum``, ``zeros``, ...) appear
      there; ``FunctionVar.default`` of an output or local is its initial value.
    - when-conditions may be an ``ArrayExpr`` (any element becoming true fires the clause).
    """
    name: str
    variables: tuple[Variable, ...]
    equations: tuple[FlatEquation, ...] = ()
    initial_equations: tuple[FlatEquation, ...] = ()
    algorithms: tuple[Algorithm, ...] = ()
    initial_algorithms: tuple[Algorithm, ...] = ()
    functions: tuple[Function, ...] = ()
    enumerations: tuple[Enumeration, ...] = ()
    experiment: Optional[Experiment] = None
    description: str = ""
    documentation: str = ""
    span: Optional[Span] = _span()
    external_objects: tuple[ExternalObject, ...] = ()

    def variable(self, name: str) -> Variable:
        """The variable called ``name`` (a linear search; build a dict for many look-ups)."""
        for variable in self.variables:
            if variable.name == name:
                return variable
        raise KeyError(name)

    def to_modelica(self) -> str:
        from compiler.flat_text import model_text
        return model_text(self)

    def __str__(self) -> str:
        return self.to_modelica()
