"""What the FMU shows of a ``System``: its variable table, and where each variable lives in C.

Input: a folded ``System`` and its ``ParameterPlan``. Output: ``Layout``: the packager's
``ModelInterface`` (every user-visible variable under its Modelica name, aliases sharing a
value reference, negated and parameter-valued aliases as variables of their own, hidden
storage, event indicators, Jacobian pattern, experiment) and the C slot of every variable
the equations read or write.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from compiler.codegen.errors import EmitError
from compiler.codegen.naming import c_identifiers
from compiler.codegen.parameters import ParameterPlan
from compiler.fmu import Experiment, HiddenSlot, ModelInterface, Variable
from compiler.fmu.layout import C_ACCESSORS
from compiler.symbolic import FALSE, Expr
from compiler.symbolic.evaluate import Environment, EvaluationError, evaluate
from compiler.symbolic.expr import Const
from compiler.system import (
    AlgorithmBlock, Alias, IfStatement, NewtonBlock, System, Termination,
    WhenStatement, WhileStatement, leaf_blocks)

TERMINATE_FLAG = "$terminate"   # hidden Boolean: a terminate() ran outside a when-clause's end


def string_pre_name(name: str) -> str:
    """The hidden String slot holding pre() of the discrete String ``name``: the runtime keeps
    pre values of numbers only, the model copies its Strings as an event iteration starts."""
    return f"$pre({name})"


def sample_fired(index: int) -> str:
    """The hidden Float64 holding the number of the tick sample ``index`` fired last."""
    return f"$fired[{index + 1}]"
FMI_TYPES = {"Real": "Float64", "Integer": "Int32", "Boolean": "Boolean", "String": "String"}


@dataclass(frozen=True, slots=True)
class Slot:
    """Where a variable lives in C: ``R(c_name)`` and ``PRE_R(c_name)``."""
    accessor: str
    c_name: str
    fmi_type: str
    pre_c_name: str = ""   # a String's pre value: a hidden String slot (string_pre_name)

    @property
    def text(self) -> str:
        return f"{self.accessor}({self.c_name})"

    @property
    def pre_text(self) -> str:
        if self.pre_c_name:
            return f"{self.accessor}({self.pre_c_name})"
        return f"PRE_{self.accessor}({self.c_name})"

    def assignment(self, value: str, comment: str = "") -> str:
        """The C statement storing ``value`` in the slot (a String slot keeps a copy)."""
        if self.fmi_type == "String":
            return f"CHECK(string_assign(m, &{self.text}, {value}));{comment}"
        return f"{self.text} = {value};{comment}"


OBJECT_ACCESSOR = "OBJECT"   # external_support.h: OBJECT(k), the k-th external object


@dataclass(frozen=True, slots=True)
class Layout:
    """``slots``: variable name -> Slot for everything model code touches. ``exact_states``:
    states whose fixed start value the FMU takes as given (their start equation is not
    emitted). ``computed_starts``: (name, expr) start values of iteration variables that depend
    on tunable parameters, set before the initialization. ``derived``: (name, expr) exposed
    variables computed from others after every evaluation (negated aliases, copies of
    derivatives); ``fixed_values``: (name, expr) computed once at initialization
    (parameter-valued aliases, calculated parameters, external objects). ``objects``: the
    variables holding external objects, in the order of their ``OBJECT(k)`` slots."""
    interface: ModelInterface
    slots: dict
    exact_states: frozenset
    computed_starts: tuple[tuple[str, Expr], ...]
    derived: tuple[tuple[str, Expr], ...]
    fixed_values: tuple[tuple[str, Expr], ...]
    objects: tuple[str, ...] = ()


def fmi_type(type_: str) -> str:
    """FMI type of a Modelica type (enumerations are Int64)."""
    return FMI_TYPES.get(type_, "Int64")


def source_place(span) -> str:
    """``File.mo:12:5`` (the file's name, not its path: generated code and its cache key must
    not depend on where the file lies)."""
    return f"{Path(span.file).name}:{span.line}:{span.col}" if span else ""


def make_layout(system: System, plan: ParameterPlan, identifier: str) -> Layout:
    builder = _Builder(system, plan)
    variables = builder.variables()
    hidden = builder.hidden()
    names = [v.name for v in variables if not v.alias_of] + [h[0] for h in hidden]
    identifiers = c_identifiers(names)
    variables = tuple(_with_c_name(v, identifiers) for v in variables)
    hidden_slots = tuple(HiddenSlot(identifiers[name], type_, start)
                         for name, type_, start in hidden)
    slots = {name: Slot(C_ACCESSORS[builder.types[name]], identifiers[name], builder.types[name],
                        identifiers.get(string_pre_name(name), ""))
             for name in names}
    slots.update((name, Slot(OBJECT_ACCESSOR, str(k), "Object"))
                 for k, name in enumerate(builder.objects))
    experiment = system.experiment
    interface = ModelInterface(
        name=system.name, identifier=identifier, variables=variables, hidden=hidden_slots,
        event_indicators=tuple(_indicator_text(item) for item in system.relations),
        delays=tuple((_indicator_text(item), item.discrete) for item in system.delays),
        spatials=tuple((_indicator_text(item), len(item.points)) for item in system.spatials),
        jacobian=tuple((row, column) for column, rows in enumerate(system.jacobian_rows)
                       for row in rows),
        has_jacobian=builder.has_jacobian, dependencies=_state_outputs(variables, system),
        has_asserts=bool(system.asserts),
        guesses=tuple(name for block in system.blocks[:system.n_derivative_blocks]
                      if type(block) is NewtonBlock for name in block.vars),
        description=system.description,
        experiment=Experiment(experiment.start_time or 0.0, experiment.stop_time,
                              experiment.tolerance, experiment.interval) if experiment else None)
    return Layout(interface, slots, frozenset(builder.exact_states),
                  tuple(builder.computed_starts), tuple(builder.derived),
                  tuple(builder.fixed_values), tuple(builder.objects))


def _state_outputs(variables: tuple[Variable, ...], system: System):
    """Outputs that are continuous states depend on their state only: without that, every
    output would depend on every input (FMI's default), a false algebraic loop for a master."""
    exposed = {v.name for v in variables}
    states = set(system.states) & exposed
    return tuple((v.name, ((v.alias_of or v.name),)) for v in variables
                 if v.causality == "output" and (v.alias_of or v.name) in states)


def _with_c_name(variable: Variable, identifiers: dict) -> Variable:
    if variable.alias_of:
        return variable
    from dataclasses import replace
    return replace(variable, c_name=identifiers[variable.name])


def _indicator_text(item) -> str:
    """What a relation or a delay() is, for messages: ``"h < 0 (Ball.mo:12:5)"``."""
    where = source_place(item.span)
    return f"{item.text} ({where})" if where else item.text


class _Builder:
    """The variable table of one system (see ``make_layout``)."""

    def __init__(self, system: System, plan: ParameterPlan):
        from compiler.linearization import partials_complete
        self.system = system
        self.object_types = frozenset(item.name for item in system.external_objects)
        self.objects: list[str] = []   # variables holding external objects, in order
        self.plan = plan
        self.by_name = {item.name: item for item in system.variables}
        # state -> the system's variable of its derivative (20000 states: no list searches)
        self.derivative_of_state = dict(zip(system.states, system.derivatives))
        self.folded = dict(plan.folded)
        self.values = dict(plan.values)
        self.env = Environment(dict(plan.values, time=0.0))
        self.types: dict[str, str] = {}
        self.exposed: dict[str, Variable] = {}
        self.exact_states: list[str] = []
        self.computed_starts: list = []
        self.derived: list = []
        self.fixed_values: list = []
        self.iteration = _iteration_variables(system)
        self.has_jacobian = bool(system.states) and partials_complete(
            system.blocks[:system.n_derivative_blocks])
        self.skippable = _exact_state_starts(system)

    # ------------------------------------------------------------------ exposed variables
    def variables(self) -> list[Variable]:
        system = self.system
        # a state may be the derivative of another state (der(phi) chosen as a state)
        order = list(dict.fromkeys(list(system.states) + list(self._derivative_names())))
        listed = set(order)
        order += [item.name for item in system.variables if item.name not in listed]
        result = []
        for name in order:
            item = self.by_name.get(name)
            if item is None:   # a derivative the system has under another name
                result.append(self._derivative_copy(name))
            elif item.type in self.object_types:
                self._object(item)
            elif not item.hidden and not name.startswith("$"):
                result.append(self._variable(item))
                self.exposed[name] = result[-1]
        result += [self._alias(alias) for alias in system.aliases]
        return [v for v in result if v is not None]

    def _derivative_names(self) -> list[str]:
        """FMI derivative variables in state order: ``der(x)`` as the system names it, or a
        copy when the system's derivative of a state is another variable."""
        names = []
        for state, derivative in zip(self.system.states, self.system.derivatives):
            item = self.by_name[derivative]
            names.append(derivative if item.kind in ("derivative", "state") and
                         item.derivative_of == state else f"der({state})")
        return names

    def _derivative_copy(self, name: str) -> Variable:
        state = name[4:-1]
        source = self.derivative_of_state[state]
        from compiler.symbolic import var
        self.types[name] = "Float64"
        self.derived.append((name, var(source)))
        return Variable(name, derivative_of=state, unit=_derivative_unit(self.by_name[state].unit))

    def _variable(self, item) -> Variable:
        type_ = fmi_type(item.type)
        self.types[item.name] = type_
        common = dict(type=type_, description=item.description, unit=item.unit or None
                      if type_ == "Float64" else None, nominal=self._number(item.nominal),
                      min=self._number(item.min), max=self._number(item.max))
        if item.kind in ("parameter", "constant"):
            return self._parameter(item, common)
        causality = "input" if item.kind == "input" else \
            "output" if item.causality == "output" and not item.protected else "local"
        variability = "continuous" if type_ == "Float64" and item.kind != "discrete" else "discrete"
        start, initial = self._start(item)
        derivative_of = item.derivative_of if item.kind in ("derivative", "state") and \
            self.derivative_of_state.get(item.derivative_of) == item.name else None
        if causality == "input" and start is None:
            start = _zero(type_)
        return Variable(item.name, causality=causality, variability=variability, start=start,
                        initial=None if causality == "input" else initial,
                        derivative_of=derivative_of, **common)

    def _object(self, item) -> None:
        """An external object: no FMI variable, an OBJECT(k) slot constructed (by its
        binding) as the parameters are computed at initialization."""
        if item.kind != "parameter" or item.binding is None:
            raise EmitError(f"the external object {item.name} must be a parameter bound to "
                            "a constructor call", item.span)
        self.objects.append(item.name)
        self.fixed_values.append((item.name, item.binding))

    def _parameter(self, item, common: dict) -> Variable:
        name = item.name
        values = self.values
        if name in self.folded:
            return Variable(name, causality="local", variability="constant",
                            start=self.folded[name], **common)
        if name in self.plan.tunable:
            return Variable(name, causality="parameter", variability="fixed",
                            start=values[name], **common)
        if item.fixed and (item.binding is not None or item.start is not None):
            self.fixed_values.append((name, item.binding if item.binding is not None
                                      else item.start))
        return Variable(name, causality="calculatedParameter", variability="fixed",
                        start=values.get(name), initial="calculated", **common)

    def _start(self, item):
        """(start value for the slot, FMI initial) of a non-parameter variable."""
        expr = item.start
        value = self._value(expr)
        if item.name in self.skippable and type(expr) is Const:
            self.exact_states.append(item.name)
            return value, "exact"
        if item.name in self.iteration and expr is not None:
            if type(expr) is Const:
                return value, "approx"
            self.computed_starts.append((item.name, expr))
        return value, "calculated"

    def _alias(self, alias: Alias) -> Variable | None:
        item = alias.variable
        if item.type in self.object_types:
            raise EmitError(f"the external object {item.name} is another object's alias, which "
                            "the C code generator does not support", item.span)
        type_ = fmi_type(item.type)
        causality = "output" if item.causality == "output" and not item.protected else "local"
        unit = item.unit or None if type_ == "Float64" else None
        common = dict(type=type_, causality=causality, description=item.description, unit=unit)
        if alias.value is not None:
            self.types[item.name] = type_
            if type(alias.value) is Const:
                return Variable(item.name, variability="constant", start=alias.value.value,
                                **common)
            self.fixed_values.append((item.name, alias.value))
            return Variable(item.name, variability="fixed" if causality == "local" else "discrete",
                            start=self._value(alias.value), initial="calculated", **common)
        target = self.exposed.get(alias.of)
        if target is None or alias.negated or target.causality != "local" or causality != "local" \
                or target.type != type_ or unit not in (None, target.unit):
            return self._own_alias(alias, common, target)
        # another name of the same variable (FMI 3.0 <Alias>)
        return Variable(item.name, type=type_, causality="local", variability=target.variability,
                        description=item.description, unit=target.unit, alias_of=alias.of)

    def _own_alias(self, alias: Alias, common: dict, target: Variable | None) -> Variable:
        """An alias that cannot be another name of its target (negated, another causality or
        unit, a hidden target): a variable of its own, kept equal to (minus) its target."""
        from compiler.symbolic import neg, not_, var
        item = alias.variable
        self.types[item.name] = common["type"]
        source = var(alias.of, item.type if item.type in ("Real", "Integer", "Boolean") else "Integer")
        value = (not_(source) if item.type == "Boolean" else neg(source)) if alias.negated else source
        variability = target.variability if target is not None else "discrete"
        if variability in ("fixed", "constant", "tunable"):
            self.fixed_values.append((item.name, value))
            variability = "fixed" if common["causality"] == "local" else "discrete"
        else:
            self.derived.append((item.name, value))
            if common["type"] != "Float64":
                variability = "discrete"
        return Variable(item.name, variability=variability, initial="calculated", **common)

    # --------------------------------------------------------------------------- hidden
    def hidden(self) -> list[tuple[str, str, object]]:
        """(name, FMI type, start) of the storage the compiler made; sample flags are
        computed from time and the tick each fired last (``sample_fired``)."""
        result = []
        for item in self.system.variables:
            if (item.hidden or item.name.startswith("$")) and not item.name.startswith("$sample["):
                type_ = fmi_type(item.type)
                self.types[item.name] = type_
                result.append((item.name, type_, self._value(item.start)))
        for item in self.system.variables:
            if item.type == "String" and item.kind == "discrete":
                self.types[string_pre_name(item.name)] = "String"
                result.append((string_pre_name(item.name), "String", self._value(item.start)))
        for item in self.system.samples:
            self.types[sample_fired(item.index)] = "Float64"
            result.append((sample_fired(item.index), "Float64", -1.0))
        if _terminates_outside_events(self.system):
            self.types[TERMINATE_FLAG] = "Boolean"
            result.append((TERMINATE_FLAG, "Boolean", False))
        return result

    # ---------------------------------------------------------------------------- values
    def _value(self, expr):
        if expr is None:
            return None
        try:
            return evaluate(expr, self.env)
        except EvaluationError:
            return None

    def _number(self, expr):
        value = self._value(expr)
        return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) \
            else None


def _zero(type_: str):
    return {"Float64": 0.0, "Boolean": False, "String": ""}.get(type_, 0)


def _derivative_unit(unit: str) -> str | None:
    if not unit:
        return None
    return f"({unit})/s" if "/" in unit else f"{unit}/s"


def _iteration_variables(system: System) -> frozenset:
    """Variables that Newton iterates on (their start values are guesses)."""
    names = set()
    for block in leaf_blocks(system.blocks + system.initial_blocks):
        if type(block) is NewtonBlock:
            names.update(block.vars)
    return frozenset(names)


def _exact_state_starts(system: System) -> frozenset:
    """States whose initialization is ``x := start`` with a constant start value."""
    states = set(system.states)
    by_name = {item.name: item for item in system.variables}
    names = set()
    for block in system.initial_blocks:
        var_ = getattr(block, "var", None)
        if var_ in states and type(block.value) is Const and by_name[var_].fixed \
                and by_name[var_].start is block.value:
            names.add(var_)
    return frozenset(names)


def _terminates_outside_events(system: System) -> bool:
    """Whether a terminate() runs where model_event_update cannot report it at once: in an
    algorithm, or in a when-clause active at initialization."""
    for block in leaf_blocks(system.blocks + system.initial_blocks):
        if type(block) is AlgorithmBlock and holds_statement(block.statements, Termination):
            return True
    return any(type(action) is Termination and clause.initial_active is not FALSE
               for clause in system.when_clauses for action in clause.actions)


def holds_statement(statements, wanted: type) -> bool:
    """Whether algorithm statements hold one of type ``wanted`` (in any branch or body)."""
    for item in statements:
        kind = type(item)
        if kind is wanted:
            return True
        if kind is IfStatement:
            if any(holds_statement(body, wanted) for _, body in item.branches) or \
                    holds_statement(item.else_, wanted):
                return True
        elif kind in (WhileStatement, WhenStatement) and holds_statement(item.body, wanted):
            return True
    return False
