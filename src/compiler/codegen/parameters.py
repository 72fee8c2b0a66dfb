"""Parameters of a ``System`` as an FMU sees them, and folding of the fixed ones.

Input: a ``System``. Output: a ``ParameterPlan`` saying which parameters are tunable (FMI
parameters read from their slots), which are folded into constants (their value known at
compile time: constants, and parameters that are final, ``Evaluate = true``, protected or
structural), and which are calculated (bindings of tunable ones, or computed by the
initialization); and ``fold(system, plan)``: the system with folded values substituted.
"""
from __future__ import annotations

from dataclasses import dataclass, fields, is_dataclass, replace

from compiler.symbolic import Expr, const, rename
from compiler.symbolic.expr import Op, Var
from compiler.symbolic.transform import children
from compiler.symbolic.evaluate import Environment, EvaluationError, evaluate
from compiler.system import System, Variable

_DEFAULT = {"Real": 0.0, "Integer": 0, "Boolean": False, "String": ""}


@dataclass(frozen=True, slots=True)
class ParameterPlan:
    """``folded``: (name, value) at compile time; ``tunable``: names settable before
    initialization; ``calculated``: names with a binding computed at initialization, in
    dependency order; ``values``: every parameter's value with tunable ones at their
    defaults (for start values and nominals)."""
    folded: tuple[tuple[str, object], ...]
    tunable: frozenset
    calculated: tuple[str, ...]
    values: tuple[tuple[str, object], ...]


def fixed_by_declaration(item: Variable) -> bool:
    """A parameter the user may not change after compilation."""
    return item.kind == "constant" or item.final or item.evaluate or item.protected \
        or item.structural


def value_expr(item: Variable):
    """The expression giving a parameter's value: its binding, else its start value."""
    return item.binding if item.binding is not None else item.start


def plan_parameters(system: System) -> ParameterPlan:
    """Classify the parameters and constants of ``system`` (see the module docstring)."""
    folded: dict[str, object] = {}
    values: dict[str, object] = {"time": 0.0}
    tunable, calculated = set(), []
    env = Environment(values)
    for item in system.variables:   # parameters come after those their bindings read
        if item.kind not in ("parameter", "constant"):
            continue
        expr = value_expr(item)
        computed_at_initialization = item.kind == "parameter" and not item.fixed
        known = expr is None or expr.variables() <= folded.keys()
        value = _value(expr, item, env)
        if value is not None:
            values[item.name] = value
        if computed_at_initialization or not known or value is None:
            calculated.append(item.name)
        elif fixed_by_declaration(item):
            folded[item.name] = value
        else:
            tunable.add(item.name)
    return ParameterPlan(tuple(folded.items()), frozenset(tunable), tuple(calculated),
                         tuple((k, v) for k, v in values.items() if k != "time"))


def _value(expr, item: Variable, env: Environment):
    if expr is None:
        return _DEFAULT.get(item.type, 0)
    try:
        return evaluate(expr, env)
    except EvaluationError:
        return None


def fold(system: System, plan: ParameterPlan) -> System:
    """``system`` with every folded parameter replaced by its value in every expression
    (bindings, blocks, partials, relations, samples, when-clauses, aliases)."""
    names = {name: _constant(system, name, value) for name, value in plan.folded}
    if not names:
        return system
    folded = frozenset(names)
    memo: dict = {}

    def visit(value):
        """``value`` with the folded names replaced; the same object where none occurs."""
        kind = type(value)
        if kind in _NODES:
            changes = {}
            for name in _NODES[kind]:
                old = getattr(value, name)
                new = visit(old)
                if new is not old:
                    changes[name] = new
            return replace(value, **changes) if changes else value
        if kind is tuple:
            items = tuple(item if type(item) in _PLAIN else visit(item) for item in value)
            return value if all(a is b for a, b in zip(items, value)) else items
        if isinstance(value, Expr) and reads_folded(value):
            return rename(value, names, memo)
        return value

    def reads_folded(expr) -> bool:
        """Whether ``expr`` reads a folded name (through ``pre`` too): a walk that stops at
        the first one, memoized per node, instead of a set of all names per subexpression
        (a set union per node: a third of emit_c on the Brusselator)."""
        found = seen.get(expr)
        if found is None:
            kind = type(expr)
            if kind is Var:
                found = expr.name in folded
            elif kind is Op and expr.op == "pre":
                found = not folded.isdisjoint(expr.args[0].variables())
            else:
                found = any(reads_folded(item) for item in children(expr))
            seen[expr] = found
        return found
    seen: dict = {}
    return visit(system)


def _node_fields() -> dict:
    """The dataclasses of ``compiler.system`` and the fields that may hold expressions."""
    import compiler.system as module
    result = {}
    for item in vars(module).values():
        if isinstance(item, type) and is_dataclass(item) and item.__module__ == module.__name__:
            result[item] = tuple(f.name for f in fields(item)
                                 if f.name not in ("functions", "span", "name", "enumerations"))
    return result


_NODES = _node_fields()
_PLAIN = frozenset((str, bool, int, float, type(None)))


def _constant(system: System, name: str, value):
    type_ = system.variable(name).type
    return const(float(value) if type_ == "Real" else value, type_)
