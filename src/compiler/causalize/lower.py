"""FlatModel -> Dae: variables classified, equations converted to IR, events made explicit.

Input: a ``compiler.flat.FlatModel``. Output: a ``Dae`` whose relations in continuous context
read latched hidden Booleans (``$rel[k]``), whose ``sample()`` calls read hidden flags
(``$sample[k]``), whose when-equations are assignments ``v = if active then value else
pre(v)`` plus ``WhenClause`` values, and whose if-equations are equations with if-expressions.
"""
from __future__ import annotations

from dataclasses import replace

from compiler import flat
from compiler.causalize.dae import (
    CONSTANT, CONTINUOUS, DISCRETE, INPUT, PARAMETER, Dae, DaeEquation, DaeVariable, der_name)
from compiler.causalize.derivatives import call_rule
from compiler.causalize.errors import CausalizeError
from compiler.causalize.fixed_values import fixed_values
from compiler.causalize.statements import lower_algorithm
from compiler.causalize.steps import event_function
from compiler.causalize.when import lower_when
from compiler.symbolic import (
    BOOLEAN, FALSE, REAL, TIME, TRUE, ZERO, NotDifferentiable, Op, and_, delayed, function, if_,
    not_, or_, relation, spatial_end, sub, time_derivative, to_text, var)
from compiler.symbolic.convert import ConversionError, Converter, Hooks
from compiler.system import HOMOTOPY_FLAG, Assertion, Delay, Relation, Sample, Spatial

_EVENT_RELATIONS = ("<", "<=", ">", ">=")


def lower(model: flat.FlatModel) -> Dae:
    """The first ``Dae`` of ``model`` (see the module docstring)."""
    return _Lowering(model).run()


class _EventHooks(Hooks):
    """Relations latch, samples become flags, der() makes derivative variables."""

    def __init__(self, lowering: "_Lowering"):
        self.lowering = lowering

    def relation(self, op, lhs, rhs, events):
        lowering = self.lowering
        if events and op in _EVENT_RELATIONS and lowering.is_continuous(lhs, rhs):
            return lowering.latch(op, lhs, rhs)
        return relation(op, lhs, rhs)

    def sample(self, start, interval):
        return self.lowering.sample(start, interval)

    def event_function(self, name, args, events):
        if events and self.lowering.is_continuous(*args):
            return event_function(self.lowering, name, args)
        return function(name, *args)

    def delay(self, expr, delay_time, delay_max):
        return self.lowering.delay(expr, delay_time, delay_max)

    def spatial(self, end, in0, in1, x, positive, points, values):
        return self.lowering.spatial(end, in0, in1, x, positive, points, values)

    def homotopy(self, actual, simplified):
        return self.lowering.homotopy(actual, simplified())

    def derivative(self, expr):
        try:
            return time_derivative(expr, self.lowering.derivative_of,
                                   calls=self.lowering.function_derivatives)
        except NotDifferentiable as error:
            raise ConversionError(f"der() of an expression calling {error}, which has no "
                                  "derivative") from None


class _Lowering:
    def __init__(self, model: flat.FlatModel):
        self.model = model
        self.variables: dict[str, DaeVariable] = {}
        self.types = {item.name: item.type for item in model.variables}
        self.continuous = {item.name for item in model.variables
                           if item.variability == "continuous"}
        self.convert = Converter(self.types, model.functions, _EventHooks(self))
        self.plain = Converter(self.types, model.functions)
        self.function_derivatives = call_rule(model.functions)
        self.relations: dict = {}
        self.samples: dict = {}
        self.delays: dict = {}
        self.delay_list: list = []   # by index
        self.spatials: dict = {}
        self.equations: list[DaeEquation] = []
        self.asserts: list[Assertion] = []
        # ``f(x);`` as an equation: an algorithm section of that one call (MLS 8.3.x)
        self.call_sections: list[flat.Algorithm] = []
        self.initial_call_sections: list[flat.Algorithm] = []
        self.clauses: list = []
        self.when_conditions: dict = {}   # condition expression -> hidden variable name
        self.floors: dict = {}            # (argument, type) -> hidden $floor variable
        self.span = None

    # --------------------------------------------------------------------------- hooks
    def is_continuous(self, *exprs) -> bool:
        continuous = self.continuous
        return any(name == "time" or name in continuous or name.startswith("der(")
                   for expr in exprs for name in self._changing(expr))

    def _changing(self, expr) -> frozenset:
        """The variables through which ``expr`` changes between events: those it reads, but
        not through the delay() of an expression that changes only at events by a parameter
        delay time (its value steps at the time events of its history)."""
        if not self.delays or type(expr) is not Op:
            return expr.variables()
        if expr.op == "delay":
            item = self.delay_list[expr.args[0].value]
            if item.discrete and self.is_parameter(item.delay_time):
                return frozenset()
        return frozenset().union(*(self._changing(arg) for arg in expr.args))

    def latch(self, op, lhs, rhs, exact: bool = False):
        """The latch of a relation (``exact``: see ``Relation``)."""
        key = (op, lhs, rhs)
        found = self.relations.get(key)
        if found is None:
            index = len(self.relations)
            distance = sub(lhs, rhs) if op in (">", ">=") else sub(rhs, lhs)
            found = Relation(index, f"$rel[{index + 1}]", op, lhs, rhs, distance,
                             text=f"{to_text(lhs)} {op} {to_text(rhs)}", span=self.span,
                             exact=exact)
            self.relations[key] = found
            self.hidden_variable(found.var)
        return var(found.var, BOOLEAN)

    def sample(self, start, interval):
        if not self.is_parameter(start, interval):
            raise ConversionError("the arguments of sample() must be parameter expressions")
        key = (start, interval)
        found = self.samples.get(key)
        if found is None:
            index = len(self.samples)
            found = Sample(index, f"$sample[{index + 1}]", start, interval, self.span)
            self.samples[key] = found
            self.hidden_variable(found.var)
        return var(found.var, BOOLEAN)

    def delay(self, expr, delay_time, delay_max):
        """``delay(expr, delay_time, delay_max)`` (delay_max is delay_time where not given)."""
        if not self.is_parameter(delay_max):
            raise ConversionError("delay() needs a parameter expression for its maximum delay "
                                  "time (given as its third argument where the delay time "
                                  "varies)")
        key = (expr, delay_time, delay_max)
        found = self.delays.get(key)
        if found is None:
            text = f"delay({to_text(expr)}, {to_text(delay_time)})"
            found = Delay(len(self.delays), expr, delay_time, delay_max,
                          not self.is_continuous(expr), text, self.span)
            self.delays[key] = found
            self.delay_list.append(found)
        return delayed(found.index, sub(TIME, delay_time))

    def spatial(self, end, in0, in1, x, positive, points, values):
        """End ``end`` of spatialDistribution(in0, in1, x, positive, points, values): the
        equations of one call (its two ends) share one ``Spatial``, as do equal calls."""
        if not self.is_parameter(*points, *values):
            raise ConversionError("spatialDistribution() needs parameter expressions for "
                                  "initialPoints and initialValues")
        key = (in0, in1, x, positive, points, values)
        found = self.spatials.get(key)
        if found is None:
            text = (f"spatialDistribution({to_text(in0)}, {to_text(in1)}, {to_text(x)}, "
                    f"{to_text(positive)})")
            found = Spatial(len(self.spatials), in0, in1, x, positive, points, values, text,
                            self.span)
            self.spatials[key] = found
        return spatial_end(found.index, end, in0, in1, x, positive)

    def is_parameter(self, *exprs) -> bool:
        table = self.variables
        return all(name in table and table[name].kind in (PARAMETER, CONSTANT)
                   for expr in exprs for name in expr.variables())

    def derivative_of(self, node):
        name = node.name
        known = self.variables.get(name)
        if known is None or known.kind not in (CONTINUOUS, INPUT):
            return None
        if known.kind == INPUT:
            raise ConversionError(f"der({name}) of an input is not supported")
        derivative = der_name(name)
        if derivative not in self.variables:
            self.variables[derivative] = DaeVariable(derivative, REAL, CONTINUOUS,
                                                     derivative_of=name, span=known.span)
            self.types[derivative] = REAL
        return var(derivative)

    def homotopy(self, actual, simplified):
        """``if $homotopy then simplified else actual`` (``HOMOTOPY_FLAG``)."""
        if actual == simplified:
            return actual
        if HOMOTOPY_FLAG not in self.variables:
            self.variables[HOMOTOPY_FLAG] = DaeVariable(HOMOTOPY_FLAG, BOOLEAN, PARAMETER,
                                                        fixed=True, binding=FALSE, hidden=True)
            self.types[HOMOTOPY_FLAG] = BOOLEAN
        return if_(var(HOMOTOPY_FLAG, BOOLEAN), simplified, actual)

    def hidden_variable(self, name: str, type_: str = BOOLEAN) -> None:
        self.variables[name] = DaeVariable(name, type_, DISCRETE, hidden=True, span=self.span)
        self.types[name] = type_

    # ----------------------------------------------------------------------------- run
    def run(self) -> Dae:
        for item in self.model.variables:
            self.variables[item.name] = self._variable(item)
        initial: list = self._computed_parameters()
        self.convert.values = fixed_values(self.variables)
        for equation in self.model.equations:
            self._top(equation)
        for equation in self.model.initial_equations:
            initial.extend(self._initial(equation))
        algorithms = tuple(lower_algorithm(self, item, True)
                           for item in self.model.algorithms + tuple(self.call_sections))
        initial_algorithms = tuple(lower_algorithm(self, item, False)
                                   for item in self.model.initial_algorithms +
                                   tuple(self.initial_call_sections))
        return Dae(self.model.name, tuple(self.variables.values()), tuple(self.equations),
                   tuple(initial), algorithms, initial_algorithms,
                   relations=tuple(self.relations.values()),
                   samples=tuple(self.samples.values()), clauses=tuple(self.clauses),
                   delays=tuple(self.delays.values()), spatials=tuple(self.spatials.values()),
                   asserts=tuple(self.asserts),
                   flat=self.model)

    def _variable(self, item: flat.Variable) -> DaeVariable:
        if item.variability in ("constant", "parameter"):
            kind = CONSTANT if item.variability == "constant" else PARAMETER
        elif item.causality == "input":
            kind = INPUT
        else:
            kind = DISCRETE if item.variability == "discrete" else CONTINUOUS
        self.span = item.span
        start = self._attribute(item.start, item)
        binding = self._attribute(item.binding, item)
        fixed = item.fixed if item.fixed is not None else kind in (PARAMETER, CONSTANT)
        return DaeVariable(item.name, item.type, kind, start, fixed, binding,
                           item.state_select, declaration=item, span=item.span,
                           start_confidence=item.start_confidence)

    def _attribute(self, expr, item):
        if expr is None:
            return None
        try:
            return self.plain(expr, False)
        except ConversionError as error:
            raise CausalizeError(f"{item.name}: {error}", item.span) from None

    def _computed_parameters(self) -> list:
        """A parameter whose binding reads one the initialization computes (``fixed =
        false``) is computed by the initialization too, from its binding (transitively):
        ``p = binding`` becomes an initial equation."""
        computed = {name for name, item in self.variables.items()
                    if item.kind in (PARAMETER, CONSTANT) and not item.fixed}
        equations = []
        changed = True
        while changed:
            changed = False
            for name, item in self.variables.items():
                if name in computed or item.binding is None or not item.fixed or \
                        not item.binding.variables() & computed:
                    continue
                computed.add(name)
                changed = True
                self.variables[name] = replace(item, fixed=False)
                equations.append(DaeEquation(var(name, item.type), item.binding, item.span,
                                             note="binding of a parameter computed at "
                                                  "initialization"))
        return equations

    def expr(self, node, events: bool = True):
        """``node`` converted, errors located at the current equation."""
        try:
            return self.convert(node, events)
        except ConversionError as error:
            raise CausalizeError(str(error), self.span) from None

    # ------------------------------------------------------------------------ equations
    def _top(self, item) -> None:
        self.span = item.span
        kind = type(item)
        if kind is flat.WhenEquation:
            lower_when(self, item)
        elif kind is flat.Assert:
            self.asserts.append(self.assertion(item, None))
        elif kind is flat.IfEquation:
            self.equations.extend(self._if(item, events=True))
        elif kind is flat.Equation:
            self.equations.extend(self.equality(item, events=True))
        elif kind is flat.CallStatement:
            self.call_sections.append(flat.Algorithm((item,), item.span))
        else:
            raise CausalizeError(f"{_what(item)} is only allowed inside a when-equation",
                                 item.span)

    def _initial(self, item) -> list[DaeEquation]:
        self.span = item.span
        kind = type(item)
        if kind is flat.Equation:
            return self.equality(item, events=False)
        if kind is flat.IfEquation:
            return self._if(item, events=False)
        if kind is flat.Assert:
            self.asserts.append(self.assertion(item, None))
            return []
        if kind is flat.CallStatement:
            self.initial_call_sections.append(flat.Algorithm((item,), item.span))
            return []
        raise CausalizeError(f"{_what(item)} is not allowed in an initial equation section",
                             item.span)

    def equality(self, item: flat.Equation, events: bool) -> list[DaeEquation]:
        """One equation per scalar of ``item`` (a call with several results gives several)."""
        self.span = item.span
        if type(item.lhs) is flat.TupleExpr:
            call = item.rhs
            if type(call) is not flat.Call or call.name not in self.convert.functions:
                raise CausalizeError("only a function call can be equated to a tuple",
                                     item.span)
            result = []
            for position, target in enumerate(item.lhs.elements):
                if target is None:
                    continue
                value = self.call_output(call, position)
                result.append(DaeEquation(self.expr(target, events), value, item.span,
                                          origin=item))
            return result
        return [DaeEquation(self.expr(item.lhs, events), self.expr(item.rhs, events),
                            item.span, origin=item)]

    def call_output(self, call: flat.Call, position: int):
        try:
            return self.convert.function_call(call.name, call.args, position)
        except ConversionError as error:
            raise CausalizeError(str(error), self.span) from None

    def assertion(self, item: flat.Assert, guard) -> Assertion:
        self.span = item.span
        condition = self.expr(item.condition, False)
        if guard is not None:
            condition = or_(not_(guard), condition)
        return Assertion(condition, self.expr(item.message, False), item.level, item.span)

    def _if(self, item: flat.IfEquation, events: bool) -> list[DaeEquation]:
        """An if-equation as equations with if-expressions (branches of equal size)."""
        conditions = [self.expr(condition, events) for condition, _ in item.branches]
        bodies = []
        earlier = FALSE
        for condition, body in zip(conditions + [TRUE],
                                   [body for _, body in item.branches] + [item.else_]):
            bodies.append(self._branch(body, events, and_(condition, not_(earlier))))
            earlier = or_(earlier, condition)
        sizes = {len(body) for body in bodies}
        if len(sizes) != 1:
            raise CausalizeError("the branches of an if-equation whose condition is not a "
                                 "parameter expression must have the same number of equations "
                                 f"(they have {', '.join(str(len(b)) for b in bodies)})",
                                 item.span)
        return [_combine(conditions, [body[k] for body in bodies], item.span)
                for k in range(sizes.pop())]

    def _branch(self, body, events: bool, guard) -> list[DaeEquation]:
        result = []
        for item in body:
            self.span = item.span
            kind = type(item)
            if kind is flat.Equation:
                result.extend(self.equality(item, events))
            elif kind is flat.IfEquation:
                result.extend(self._if(item, events))
            elif kind is flat.Assert:
                self.asserts.append(self.assertion(item, guard))
            else:
                raise CausalizeError(f"{_what(item)} inside an if-equation whose condition is "
                                     "not a parameter expression is not supported", item.span)
        return result


def _combine(conditions, equations: list[DaeEquation], span) -> DaeEquation:
    """The k-th equations of the branches as one equation."""
    lhs = equations[0].lhs
    if all(item.lhs is lhs for item in equations):
        rhs = equations[-1].rhs
        for condition, item in zip(reversed(conditions), reversed(equations[:-1])):
            rhs = if_(condition, item.rhs, rhs)
        return DaeEquation(lhs, rhs, equations[0].span or span)
    if any(item.lhs.type != REAL and item.rhs.type != REAL for item in equations):
        raise CausalizeError("the branches of this if-equation assign different non-Real "
                             "variables; write the equation as 'v = if ... then ... else ...'",
                             span)
    residual = equations[-1].residual
    for condition, item in zip(reversed(conditions), reversed(equations[:-1])):
        residual = if_(condition, item.residual, residual)
    return DaeEquation(residual, ZERO, equations[0].span or span)


def _what(item) -> str:
    names = {flat.Reinit: "reinit()", flat.Terminate: "terminate()",
             flat.WhenEquation: "a when-equation", flat.Assert: "assert()"}
    return names.get(type(item), type(item).__name__)

