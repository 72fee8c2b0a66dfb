"""The DAE classification report: what kind of system a causalized model is.

Input: a ``FlatModel`` (its ``System`` from ``causalize``). Output: a ``DaeReport``: every
equation of the sorted system classified as differential (it gives ``der(x)`` of a state) or
algebraic; how many algebraic equations are trivially factored away (``v = expr`` without
``v`` on the right: explicit assignments, substituted into what reads them); the class
``ode`` (no algebraic equation left) or ``dae`` with the residual equations left by source
location; aliases, blocks, linear and torn blocks, the index before reduction and the states.
"""
from __future__ import annotations

from dataclasses import dataclass

from compiler.causalize import causalize
from compiler.errors import CompilerError, Span
from compiler.flat import FlatModel
from compiler.symbolic import to_text
from compiler.system import AlgorithmBlock, Assignment, LinearBlock, MixedBlock, NewtonBlock, System

NONTRIVIAL_DAE = "E_NONTRIVIAL_DAE"


@dataclass(frozen=True, slots=True)
class ClassifiedEquation:
    """One equation of the sorted system. ``kind``: ``differential`` or ``algebraic``;
    ``form``: ``explicit`` (``v := expr``, factored away when algebraic), ``algorithm`` (an
    algorithm section computing its outputs) or ``residual`` (``0 = f`` inside a linear or
    torn nonlinear loop: it stays); ``block`` is its block's number in BLT order."""
    kind: str
    form: str
    solves: tuple[str, ...]
    text: str
    block: int
    span: Span | None = None

    @property
    def location(self) -> str:
        return str(self.span) if self.span else ""

    def to_json(self) -> dict:
        return {"kind": self.kind, "form": self.form, "solves": list(self.solves),
                "equation": self.text, "block": self.block, "location": self.location}


@dataclass(frozen=True, slots=True)
class DaeReport:
    """The classification of one model (see the module docstring)."""
    model: str
    system_class: str              # "ode" or "dae"
    equations: tuple[ClassifiedEquation, ...]
    aliases: int
    blocks: int
    linear_blocks: int
    torn_blocks: int
    algorithm_blocks: int
    index: int
    states: tuple[str, ...]
    span: Span | None = None

    def count(self, kind: str = "", form: str = "") -> int:
        return sum(1 for item in self.equations
                   if (not kind or item.kind == kind) and (not form or item.form == form))

    @property
    def trivially_factored(self) -> int:
        return sum(1 for item in self.equations
                   if item.kind == "algebraic" and item.form != "residual")

    @property
    def residuals(self) -> tuple[ClassifiedEquation, ...]:
        return tuple(item for item in self.equations if item.form == "residual")

    def to_json(self) -> dict:
        return {
            "model": self.model, "class": self.system_class, "index": self.index,
            "states": list(self.states),
            "equations": {"total": len(self.equations),
                          "differential": self.count("differential"),
                          "algebraic": self.count("algebraic"),
                          "trivially_factored": self.trivially_factored,
                          "residual": len(self.residuals)},
            "aliases": self.aliases,
            "blocks": {"total": self.blocks, "linear": self.linear_blocks,
                       "torn": self.torn_blocks, "algorithms": self.algorithm_blocks},
            "residual_equations": [item.to_json() for item in self.residuals],
            "classification": [item.to_json() for item in self.equations],
        }

    def text(self) -> str:
        lines = [f"{self.model}: {self.system_class.upper()}, index {self.index} before "
                 f"reduction, {_plural(len(self.states), 'state')}"
                 + (f" ({', '.join(self.states)})" if self.states else ""),
                 f"  {_plural(len(self.equations), 'equation')}: "
                 f"{self.count('differential')} differential, {self.count('algebraic')} "
                 f"algebraic ({self.trivially_factored} trivially factored, "
                 f"{len(self.residuals)} residual)",
                 f"  {_plural(self.aliases, 'alias', 'aliases')} eliminated; "
                 f"{_plural(self.blocks, 'block')}: {self.linear_blocks} linear, "
                 f"{self.torn_blocks} torn, {self.algorithm_blocks} algorithm"]
        lines.extend(f"  residual: {item.location + ': ' if item.span else ''}{item.text}"
                     for item in self.residuals)
        return "\n".join(lines)


def _plural(number: int, noun: str, plural: str = "") -> str:
    return f"{number} {noun if number == 1 else plural or noun + 's'}"


class NontrivialDae(CompilerError):
    """``--require-ode`` on a model that stays a DAE after trivial factoring."""

    code = NONTRIVIAL_DAE


def classify(model: FlatModel) -> DaeReport:
    """The classification of ``model`` (raises the causalizer's ``CompilerError``s)."""
    system = causalize(model)
    return report_of(system, _index(model))


def report_of(system: System, index: int) -> DaeReport:
    """The report of a causalized ``system`` whose index before reduction is ``index``."""
    derivatives = {item.name for item in system.variables if item.kind == "derivative"}
    hidden = {item.name for item in system.variables if item.hidden}
    equations = []
    for number, block in enumerate(system.blocks, start=1):
        equations.extend(item for item in _classified(block, number, derivatives)
                         if not set(item.solves) <= hidden or not item.solves)
    kinds = [type(block) for block in system.blocks]
    residual = any(item.form == "residual" for item in equations)
    return DaeReport(system.name, "dae" if residual else "ode", tuple(equations),
                     len(system.aliases), len(system.blocks), kinds.count(LinearBlock),
                     kinds.count(NewtonBlock), kinds.count(AlgorithmBlock), index,
                     tuple(system.states), system.span)


def _classified(block, number: int, derivatives: set):
    """The equations of one block. In BLT order an explicit assignment reads only what
    earlier blocks give, so substituting the explicit ones away in that order reaches the
    fixed point in one pass: what stays are the residuals of the loops."""
    kind = type(block)
    if kind is MixedBlock:   # its parts, each as it is
        for item in block.continuous + block.updates:
            yield from _classified(item, number, derivatives)
    elif kind is Assignment:
        yield _assignment(block, number, derivatives)
    elif kind is AlgorithmBlock:
        yield ClassifiedEquation("algebraic", "algorithm", tuple(block.outputs),
                                 f"algorithm computing {', '.join(block.outputs)}", number,
                                 block.span)
    else:
        inner = block.inner if kind is NewtonBlock else ()
        residuals = block.residuals if kind is NewtonBlock else block.equations
        for item in inner:
            yield _assignment(item, number, derivatives)
        loop = "linear" if kind is LinearBlock else "torn nonlinear"
        for item in residuals:
            text = f"0 = {to_text(item.expr)} ({loop} loop for {', '.join(block.vars)})"
            yield ClassifiedEquation(_kind(block.vars, derivatives), "residual",
                                     tuple(block.vars), text, number, item.span)


def _assignment(block: Assignment, number: int, derivatives: set) -> ClassifiedEquation:
    explicit = block.var not in block.value.variables()
    return ClassifiedEquation(_kind((block.var,), derivatives),
                              "explicit" if explicit else "residual", (block.var,),
                              f"{block.var} := {to_text(block.value)}", number, block.span)


def _kind(solved, derivatives: set) -> str:
    """Differential where the equation gives derivatives of states (left side der(x))."""
    return "differential" if solved and all(name in derivatives for name in solved) \
        else "algebraic"


def _index(model: FlatModel) -> int:
    """The structural index before reduction: 0 for an ODE without algebraic variables, 1
    for one with them, k + 1 where index reduction differentiated an equation k times."""
    from compiler.causalize.alias import eliminate_aliases
    from compiler.causalize.dae import CONTINUOUS
    from compiler.causalize.lower import lower
    from compiler.causalize.pantelides import reduce_index

    # the passes of causalize() up to index reduction: the System does not keep the counts
    dae = reduce_index(eliminate_aliases(lower(model)))
    most = max((item.differentiated for item in dae.equations), default=0)
    if most:
        return most + 1
    states = set(dae.states)
    algebraic = [item for item in dae.variables if item.kind == CONTINUOUS
                 and not item.hidden and item.name not in states and not item.derivative_of]
    return 1 if algebraic else 0


def require_ode(report: DaeReport) -> DaeReport:
    """``report``, or ``NontrivialDae`` naming every residual equation's location."""
    if report.system_class == "ode":
        return report
    places = "; ".join(f"{item.location or '(no location)'}: {item.text}"
                       for item in report.residuals)
    raise NontrivialDae(f"{NONTRIVIAL_DAE}: {report.model} stays a DAE after trivial "
                        f"factoring, {_plural(len(report.residuals), 'residual equation')}: "
                        f"{places}", report.span)
