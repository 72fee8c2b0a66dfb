"""The causalized model: what ``compiler.causalize`` makes of a ``FlatModel``.

Input: nothing (data only). Output: ``System`` and its parts: variables by role, aliases, the
sorted blocks (assignment, linear, Newton, algorithm, mixed) of the simulation and of the
initialization, relations (event indicators), samples, when-clauses, asserts and the
structure of d der(x)/dx. Expressions are ``compiler.symbolic`` IR; ``str(system)`` prints it.
Conventions for code generators and the interpreter are in the docstring of ``System``.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional, Union

from compiler.errors import Span
from compiler.flat import Enumeration, Experiment, ExternalObject, Function
from compiler.symbolic.expr import Expr

node = dataclass(frozen=True, slots=True)

KINDS = ("state", "derivative", "algebraic", "discrete", "input", "parameter", "constant")
EVENT_HYSTERESIS = 1e-10  # as in fmu_templates/model.h
# The hidden Boolean parameter that homotopy(actual, simplified) reads as
# ``if $homotopy then simplified else actual``: the initialization is solved first with it
# true, and from that solution with it false (it is false everywhere else).
HOMOTOPY_FLAG = "$homotopy"


def _span():
    return field(default=None, compare=False, repr=False)


@node
class Variable:
    """One scalar variable of the system.

    ``kind``: ``state`` (continuous state), ``derivative`` (of ``derivative_of``, a state),
    ``algebraic`` (continuous, including dummy derivatives, which keep ``derivative_of``),
    ``discrete`` (changes only at events: Integer, Boolean, String, enumerations, discrete
    Real, and the hidden latches), ``input``, ``parameter`` or ``constant``. ``binding`` is the
    value of a parameter or constant (None: the start value, or computed by the
    initialization when ``fixed`` is False). ``hidden`` marks storage the compiler made;
    ``structural`` a parameter whose value the compiler used (it must not be tunable);
    ``final`` and ``evaluate`` a parameter declared or modified ``final``, or annotated
    ``Evaluate = true`` (a code generator folds such parameters into constants).
    """
    name: str
    type: str
    kind: str
    causality: str = "local"
    variability: str = "continuous"
    binding: Optional[Expr] = None
    start: Optional[Expr] = None
    fixed: bool = False
    nominal: Optional[Expr] = None
    min: Optional[Expr] = None
    max: Optional[Expr] = None
    unit: str = ""
    display_unit: str = ""
    quantity: str = ""
    description: str = ""
    state_select: str = ""
    protected: bool = False
    hidden: bool = False
    derivative_of: str = ""
    structural: bool = False
    span: Optional[Span] = _span()
    final: bool = False
    evaluate: bool = False


@node
class Alias:
    """``variable`` was eliminated: it equals ``of`` (negated when ``negated``), or, when
    ``value`` is set, that parameter expression."""
    variable: Variable
    of: str = ""
    negated: bool = False
    value: Optional[Expr] = None


# ----------------------------------------------------------------------------------- blocks
@node
class Assignment:
    """``var := value``. ``partials`` holds d value / d v for each continuous Real variable
    ``v`` it reads (states, inputs, results of earlier blocks) with a non-zero derivative;
    ``has_partials`` is False where they are not given: a user function without derivative,
    or an assignment outside loops that the derivatives do not need."""
    var: str
    value: Expr
    partials: tuple[tuple[str, Expr], ...] = ()
    has_partials: bool = True
    span: Optional[Span] = _span()


@node
class Residual:
    """``expr = 0``; ``partials`` holds d expr / d v for every continuous Real variable ``v``
    it reads (the block's own unknowns included); ``has_partials`` as for ``Assignment``."""
    expr: Expr
    partials: tuple[tuple[str, Expr], ...] = ()
    has_partials: bool = True
    span: Optional[Span] = _span()


@node
class LinearBlock:
    """``A x = b`` for ``x = vars``: A[i][j] is the partial of ``equations[i]`` w.r.t.
    ``vars[j]`` (free of ``vars``), ``rhs[i]`` is b[i]. Solve with one factorization."""
    vars: tuple[str, ...]
    equations: tuple[Residual, ...]
    rhs: tuple[Expr, ...]


@node
class NewtonBlock:
    """A nonlinear loop torn to ``vars`` (the iteration variables): for a guess of ``vars``,
    the ``inner`` assignments run in order, then ``residuals`` must vanish. The Newton matrix
    is d residuals / d vars through the inner assignments (chain rule on the partials);
    ``has_jacobian`` is False where a partial is missing (user functions): use differences."""
    vars: tuple[str, ...]
    inner: tuple[Assignment, ...]
    residuals: tuple[Residual, ...]
    has_jacobian: bool = True


@node
class AssignStatement:
    """``target := value`` in an algorithm."""
    target: str
    value: Expr
    span: Optional[Span] = _span()


@node
class IfStatement:
    branches: tuple[tuple[Expr, tuple], ...]
    else_: tuple = ()
    span: Optional[Span] = _span()


@node
class WhileStatement:
    condition: Expr
    body: tuple
    span: Optional[Span] = _span()


@node
class WhenStatement:
    """A branch of a when-statement: ``body`` runs when ``when_clauses[clause].active``
    (during initialization: its ``initial_active``) is true."""
    clause: int
    body: tuple
    span: Optional[Span] = _span()


@node
class BreakStatement:
    span: Optional[Span] = _span()


@node
class CallStatement:
    """A call of a user function for its effects (``print(...)``, asserts), its results
    unused: ``call`` is a ``Call`` whose ``output`` means nothing."""
    call: Expr
    span: Optional[Span] = _span()


@node
class AlgorithmBlock:
    """An algorithm section computing ``outputs`` from ``inputs``. Each output first gets
    its value in ``initial_values`` (its pre value if discrete, else its start value), then
    ``statements`` run in order: ``AssignStatement``, ``IfStatement``, ``WhileStatement``,
    ``WhenStatement``, ``BreakStatement``, ``CallStatement``, ``Assertion`` and
    ``Termination``."""
    outputs: tuple[str, ...]
    inputs: tuple[str, ...]
    initial_values: tuple[Expr, ...]
    statements: tuple
    span: Optional[Span] = _span()


# passes of a mixed block over its discrete part before it is declared not to converge
MIXED_ITERATIONS = 50


@node
class MixedBlock:
    """A loop through discrete variables (MLS 8.6, a mixed system), solved by iterating on
    its discrete unknowns ``discrete`` (the discrete variables of the loop, the outputs of
    the algorithm sections in it): their current values are taken as known, the
    ``continuous`` blocks (assignment, linear, Newton) compute the loop's continuous
    unknowns from them, then the ``updates`` (assignments of the discrete equations and the
    algorithm sections, each after those it reads where the order allows) compute new
    values of ``discrete``. At initialization and in event iterations this repeats until no
    value of ``discrete`` changes (at most ``MIXED_ITERATIONS`` passes; past them, an error
    naming the block); between events the relations are latched and the discrete values are
    constant, so one pass (``continuous``, then ``updates``) is all it takes."""
    discrete: tuple[str, ...]
    continuous: tuple
    updates: tuple


Block = Union[Assignment, LinearBlock, NewtonBlock, AlgorithmBlock, MixedBlock]


def leaf_blocks(blocks):
    """``blocks`` in order with each mixed block replaced by the blocks it holds."""
    for block in blocks:
        if type(block) is MixedBlock:
            yield from leaf_blocks(block.continuous + block.updates)
        else:
            yield block


# ----------------------------------------------------------------------------------- events
@node
class Relation:
    """A relation that fires events, read everywhere through the hidden Boolean ``var``.

    ``distance`` is d with the relation true iff d > 0: ``lhs - rhs`` for ``>``/``>=``,
    ``rhs - lhs`` for ``<``/``<=``. With latch L and eps = EVENT_HYSTERESIS * ``scale``, the
    indicator is ``L ? d + eps : d - eps`` and an event updates ``L = L ? d > -eps : d >= eps``
    (fmu_templates/model.h). At initialization the relation is evaluated as written.
    ``exact`` relations cannot chatter and update without the band, as written (``L = d >=
    0`` for ``>=`` and ``<=``, ``L = d > 0`` for ``>`` and ``<``): the thresholds of event-generating floor (an argument may jump onto an
    integer) and relations that move with time alone, which switch at ``instant`` (an
    expression of parameters and discrete variables: a time event as samples are,
    simultaneous with those there).
    """
    index: int
    var: str
    op: str
    lhs: Expr
    rhs: Expr
    distance: Expr
    scale: float = 1.0
    text: str = ""
    span: Optional[Span] = _span()
    exact: bool = False
    instant: Optional[Expr] = None


@node
class Sample:
    """``sample(start, interval)``: the hidden Boolean ``var`` is true during the event
    iterations at ``start + k*interval`` (k = 0, 1, ...) and false everywhere else, also
    during initialization. Each tick is a time event; it fires once: a later event at the
    same instant (a state event right after the time event) does not fire it again."""
    index: int
    var: str
    start: Expr
    interval: Expr
    span: Optional[Span] = _span()


@node
class Delay:
    """``delay(expr, delayTime, delayMax)``, number ``index``: blocks read it as
    ``delay(index, time - delayTime)`` (``compiler.symbolic.delayed``), the value ``expr``
    had then. The runtime records ``expr`` after the initialization, at every accepted step
    and before and after every event iteration, keeping the history back to
    ``time - delay_max``; between records the value is the monotone cubic (PCHIP), before the
    start time it is the first record (MLS 3.7.2.1: ``expr`` at the start), beyond the last
    record the last one. At a time of two records (an event) the one after the event is
    read in event iterations and, at the time of the last one, after it; the one before
    otherwise. ``discrete``: ``expr``
    changes only at events. During initialization ``delay(...)`` is ``expr`` itself.
    ``text`` is the call for messages."""
    index: int
    expr: Expr
    delay_time: Expr
    delay_max: Expr
    discrete: bool = False
    text: str = ""
    span: Optional[Span] = _span()


@node
class Spatial:
    """``(out0, out1) = spatialDistribution(in0, in1, x, positiveVelocity, initialPoints,
    initialValues)`` (MLS 3.7.4.2), number ``index``: a quantity z(y) on y in [0, 1] that moves
    by dx as ``x`` changes by dx. Blocks read its ends as ``spatial(index, end, in0, in1, x,
    positive)`` (``compiler.symbolic.spatial_end``; end 0 is out0, 1 is out1).

    The runtime keeps the profile as points (s, v) sorted by s and covering [x - 1, x]: s is
    the value of x when v entered at y = 0, or x - 1 when it entered at y = 1, so that a point
    is at y = x - s. At the start the profile is the piecewise-linear (``points``,
    ``values``), placed at the start value of x (y = p at s = x - p; a point given twice is a
    jump). It records where delay() records (after the initialization, at every accepted step
    and inside it, before and after every event): the entering end, (x, in0) while
    ``positive``, else (x - 1, in1); a jump of it at an event is two points at one s. Points
    that left [x - 1, x] are dropped but the one just beyond. The leaving end is the linear
    interpolation of the points and the current entering end; the entering end is its input
    (out0 = in0 while ``positive``, out1 = in1 otherwise). It makes no events. During
    initialization the leaving end is the initial profile's value there. ``text`` is the
    call for messages."""
    index: int
    in0: Expr
    in1: Expr
    x: Expr
    positive: Expr
    points: tuple[Expr, ...]
    values: tuple[Expr, ...]
    text: str = ""
    span: Optional[Span] = _span()


@node
class Reinit:
    state: str
    value: Expr
    span: Optional[Span] = _span()


@node
class Assertion:
    condition: Expr
    message: Expr
    level: str = "error"
    span: Optional[Span] = _span()


@node
class Termination:
    """``terminate(message)``, when ``condition`` holds (it is false only for a terminate
    inside an if-equation of a when-clause)."""
    message: Expr
    condition: Optional[Expr] = None
    span: Optional[Span] = _span()


@node
class WhenClause:
    """One branch of a when-equation (an ``elsewhen`` is a clause of its own).

    ``conditions`` are hidden Boolean variables (one per element of a vector condition),
    assigned by ordinary blocks. ``active`` is true in the event iteration in which the
    branch fires: a condition became true (it differs from its ``pre``) and no earlier branch
    of the same when-equation fires. ``initial_active`` is its value during initialization
    (false unless the condition reads ``initial()``). The assignments of the branch are in the
    blocks, as ``v := if active then value else pre(v)``; ``assigned`` names them. ``reinits``
    and ``actions`` (asserts, terminate) run at the end of an iteration in which it fires.
    """
    index: int
    conditions: tuple[str, ...]
    active: Expr
    initial_active: Expr
    assigned: tuple[str, ...] = ()
    reinits: tuple[Reinit, ...] = ()
    actions: tuple[Union[Assertion, Termination], ...] = ()
    span: Optional[Span] = _span()


# ----------------------------------------------------------------------------------- system
@node
class System:
    """A sorted, solvable model.

    Variables: ``variables`` lists every variable once, in the order states, derivatives,
    algebraic, discrete (the hidden ones last), inputs, then parameters and constants each
    after those its binding reads. Hidden discrete variables: ``$rel[k]`` latches relation
    k, ``$sample[k]`` is a sample flag (both set by the runtime, never by blocks);
    ``$when[k]`` holds a when-condition and ``$floor[k]`` the value of floor (or integer) of
    an argument between events, for the event-generating floor, ceil, integer, div, mod and
    rem (both assigned by blocks like any discrete variable).

    Simulation: given time, states, inputs, parameters, latches, sample flags and pre values,
    the ``blocks`` in order compute every other variable; the first ``n_derivative_blocks``
    are all the derivatives need, the first ``n_indicator_blocks`` all the relations need.
    ``derivatives[k]`` is the derivative of ``states[k]`` (a state itself where a derivative is
    a state). ``jacobian_rows[j]`` lists, ascending, the k whose ``derivatives[k]`` depends on
    ``states[j]``; its values follow by the chain rule from the ``partials`` of the first
    ``n_derivative_blocks`` blocks (loops: solve their linearization).

    Events: relation k is read through ``relations[k].var``. An event iteration copies values
    to pre values, evaluates the blocks (sample flags true at a sample instant), updates every
    latch from its distance (hysteresis, see ``Relation``), evaluates the blocks again, then
    runs the reinits and actions of the active when-clauses (evaluating the blocks again after
    a reinit); it repeats while a discrete variable (latches and hidden ones included)
    differs from its pre value. ``pre(v)`` reads the value of ``v`` before the iteration.
    Between events the latches, flags and pre values stay as the last iteration left them,
    except that the sample flags are false again.

    Delays: ``delays[k]`` is the k-th ``delay()`` (see ``Delay``); the runtime keeps their
    histories. ``spatials[k]`` is the k-th ``spatialDistribution()`` (see ``Spatial``); the
    runtime keeps their profiles, recorded with the delay histories.

    Initialization: ``initial_blocks`` compute every variable (states included) at the start
    time with ``initial()`` true, samples false and relations evaluated as written; a variable
    named ``pre(v)`` there is the pre value of the discrete variable ``v``. Afterwards every
    latch takes the value of its relation as written, and an event iteration follows, with
    ``initial()`` false (MLS 3.7.4: true during the initialization only).

    External objects: a variable whose ``type`` names one of ``external_objects`` holds what
    its constructor returned (a parameter bound to the constructor call).
    """
    name: str
    variables: tuple[Variable, ...]
    states: tuple[str, ...] = ()
    derivatives: tuple[str, ...] = ()
    aliases: tuple[Alias, ...] = ()
    blocks: tuple[Block, ...] = ()
    n_derivative_blocks: int = 0
    n_indicator_blocks: int = 0
    initial_blocks: tuple[Block, ...] = ()
    relations: tuple[Relation, ...] = ()
    samples: tuple[Sample, ...] = ()
    when_clauses: tuple[WhenClause, ...] = ()
    asserts: tuple[Assertion, ...] = ()
    jacobian_rows: tuple[tuple[int, ...], ...] = ()
    functions: tuple[Function, ...] = ()
    enumerations: tuple[Enumeration, ...] = ()
    experiment: Optional[Experiment] = None
    description: str = ""
    span: Optional[Span] = _span()
    external_objects: tuple[ExternalObject, ...] = ()
    delays: tuple[Delay, ...] = ()
    spatials: tuple[Spatial, ...] = ()

    def variable(self, name: str) -> Variable:
        """The variable called ``name`` (a linear search; build a dict for many look-ups)."""
        for item in self.variables:
            if item.name == name:
                return item
        raise KeyError(name)

    def of_kind(self, kind: str) -> tuple[Variable, ...]:
        return tuple(item for item in self.variables if item.kind == kind)

    def blocks_text(self) -> str:
        from compiler.system_text import blocks_text
        return blocks_text(self)

    def __str__(self) -> str:
        from compiler.system_text import system_text
        return system_text(self)


__all__ = ["Alias", "AlgorithmBlock", "AssignStatement", "Assertion", "Assignment", "Block",
           "BreakStatement", "CallStatement", "Delay", "EVENT_HYSTERESIS", "IfStatement", "KINDS", "LinearBlock",
           "MIXED_ITERATIONS", "MixedBlock", "NewtonBlock", "Reinit", "Relation", "Residual",
           "Sample", "Spatial", "System", "Termination", "Variable", "WhenClause", "WhenStatement",
           "WhileStatement", "leaf_blocks"]
