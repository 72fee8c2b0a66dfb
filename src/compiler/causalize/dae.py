"""The differential-algebraic system the causalization passes work on (data only).

Input: nothing. Output: ``Dae`` (variables, equations as IR pairs, initial equations, when
clauses, relations, samples, asserts, algorithms) and its parts. Each pass returns a new
``Dae``; ``compiler.causalize.lower`` makes the first one from a ``FlatModel``.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Optional

from compiler.errors import Span
from compiler.symbolic import Expr, sub, to_text

node = dataclass(frozen=True, slots=True)

# What a variable is before index reduction decides states: ``continuous`` (Real, changes in
# time), ``discrete``, ``input``, ``parameter``, ``constant``.
CONTINUOUS, DISCRETE, INPUT, PARAMETER, CONSTANT = (
    "continuous", "discrete", "input", "parameter", "constant")


def _span():
    return field(default=None, compare=False, repr=False)


@node
class DaeVariable:
    """A scalar variable; ``declaration`` is its flat declaration (None for derivatives and
    hidden variables), ``derivative_of`` names x for the variable der(x);
    ``start_confidence`` ranks ``start`` (``flat.Variable.start_confidence``)."""
    name: str
    type: str
    kind: str
    start: Optional[Expr] = None
    fixed: bool = False
    binding: Optional[Expr] = None
    state_select: str = ""
    derivative_of: str = ""
    hidden: bool = False
    declaration: object = field(default=None, compare=False, repr=False)
    span: Optional[Span] = _span()
    start_confidence: tuple = field(default=(), compare=False, repr=False)


@node
class DaeEquation:
    """``lhs = rhs``. A when-equation's assignment has ``when_var`` set, ``lhs`` that variable
    and ``rhs`` its value during simulation; ``initial_rhs`` is the value during
    initialization. ``differentiated`` counts how often index reduction differentiated it.
    ``lone`` lists the variables the equation may be solved for when they are discrete (a
    side that is just that variable)."""
    lhs: Expr
    rhs: Expr
    span: Optional[Span] = _span()
    when_var: str = ""
    initial_rhs: Optional[Expr] = None
    differentiated: int = 0
    note: str = ""
    origin: object = field(default=None, compare=False, repr=False)

    @property
    def residual(self) -> Expr:
        return sub(self.lhs, self.rhs)

    def text(self) -> str:
        text = f"{to_text(self.lhs)} = {to_text(self.rhs)}"
        return f"{text} ({self.note})" if self.note else text

    def source(self) -> str:
        """The equation as written in the model (``text`` where there is no flat origin)."""
        from compiler import flat
        from compiler.flat_text import expr_text
        if type(self.origin) is flat.Equation and not self.note:
            text = f"{expr_text(self.origin.lhs)} = {expr_text(self.origin.rhs)}"
        else:
            text = self.text()
        if self.differentiated:
            times = "" if self.differentiated == 1 else f" {self.differentiated} times"
            text += f" (differentiated{times})"
        return text

    def where(self) -> str:
        """``file:line:col: lhs = rhs`` for messages."""
        place = f"{self.span}: " if self.span else ""
        return f"{place}{self.source()}"


@node
class Dae:
    """The system between passes. ``algorithms`` are ``compiler.system.AlgorithmBlock``
    values, ``clauses`` ``WhenClause`` values, ``relations``, ``samples``, ``delays`` and
    ``spatials`` those of ``compiler.system``."""
    name: str
    variables: tuple[DaeVariable, ...]
    equations: tuple[DaeEquation, ...]
    initial_equations: tuple[DaeEquation, ...] = ()
    algorithms: tuple = ()
    initial_algorithms: tuple = ()
    relations: tuple = ()
    samples: tuple = ()
    clauses: tuple = ()
    delays: tuple = ()
    spatials: tuple = ()
    asserts: tuple = ()
    aliases: tuple = ()
    states: tuple[str, ...] = ()
    flat: object = field(default=None, compare=False, repr=False)

    def table(self) -> dict:
        """Variables by name."""
        return {item.name: item for item in self.variables}

    def algorithm_outputs(self) -> set:
        """Variables that algorithm sections compute (initial algorithms not included)."""
        return {name for block in self.algorithms for name in block.outputs}


def function_derivatives(dae: Dae):
    """The rule differentiating the user-function calls of ``dae`` through their derivative
    annotations (``compiler.causalize.derivatives``)."""
    from compiler.causalize.derivatives import call_rule
    return call_rule(dae.flat.functions if dae.flat is not None else ())


def with_changes(dae: Dae, **changes) -> Dae:
    return replace(dae, **changes)


def der_name(name: str) -> str:
    """The name of the derivative variable of ``name``."""
    return f"der({name})"


@node
class DaeAlias:
    """``variable`` (eliminated) equals ``of`` (negated when ``negated``) or ``value``."""
    variable: DaeVariable
    of: str = ""
    negated: bool = False
    value: Optional[Expr] = None
