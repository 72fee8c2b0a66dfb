"""A ``System`` made executable: value slots, start values and generated functions.

Input: a ``System``, parameter overrides and input signals. Output: ``ExecutableModel``,
which evaluates the blocks (derivatives, indicators, the rest, initialization), relation
distances, when-clause activity, reinit values and asserts on its value list ``v``, pre
values ``p`` and flags ``fl`` (initial, terminal, event mode: relations may switch and
mixed blocks iterate).
"""
from __future__ import annotations

import functools

import numpy as np

from compiler.interp.codegen import BlockCode
from compiler.interp.delays import DelayHistories
from compiler.interp.profiles import Profiles
from compiler.interp.errors import SimulationError
from compiler.interp.functions import FunctionTable
from compiler.interp.pycode import compile_function
from compiler.interp.solvers import Assertions, iterate_mixed, newton, solve_linear
from compiler.linearization import partials_complete
from compiler.symbolic import relation as make_relation
from compiler.symbolic.evaluate import Environment, EvaluationError, evaluate
from compiler.system import System

_DEFAULT = {"Real": 0.0, "Integer": 0, "Boolean": False, "String": ""}


class ExecutableModel:
    """Generated Python for one ``System`` (see the module docstring)."""

    def __init__(self, system: System, parameters=None, inputs=None):
        self.system = system
        self.slots = {"time": 0}
        for item in system.variables:
            self.slots[item.name] = len(self.slots)
        self.v: list = [0.0] * len(self.slots)
        self.p: list = [0.0] * len(self.slots)
        self.fl: list = [True, False, True]   # initial(), terminal(), event mode
        self.functions = FunctionTable(system.functions)
        self.inputs = dict(inputs or {})
        unknown = [name for name in list(self.inputs) + list(parameters or {})
                   if name not in self.slots]
        if unknown:
            raise SimulationError(f"no variable called {', '.join(unknown)} in {system.name}")
        self._start_values(dict(parameters or {}))
        self.p[:] = self.v
        self.state_slots = [self.slots[name] for name in system.states]
        self.derivative_slots = [self.slots[name] for name in system.derivatives]
        self.discrete_slots = [self.slots[item.name] for item in system.variables
                               if item.kind == "discrete"]
        self.relation_slots = [self.slots[item.var] for item in system.relations]
        self.sample_slots = [self.slots[item.var] for item in system.samples]
        self.input_slots = [(self.slots[name], value) for name, value in self.inputs.items()]
        self.terminated = False   # a terminate() in an algorithm ran
        self.delays = DelayHistories(system.delays)
        self.profiles = Profiles(system.spatials)
        self._generate()

    # ---------------------------------------------------------------------- start values
    def _start_values(self, overrides: dict) -> None:
        values = {"time": 0.0}
        env = Environment(values, functions=scalar_functions(self.functions, self.system))
        parameters = [item for item in self.system.variables
                      if item.kind in ("parameter", "constant")]   # in dependency order
        others = [item for item in self.system.variables
                  if item.kind not in ("parameter", "constant")]
        for item in parameters + others:
            if item.name in overrides:
                value = overrides[item.name]
            else:
                expr = item.binding if item.binding is not None else item.start
                value = self._evaluate(expr, env, item) if expr is not None \
                    else _DEFAULT.get(item.type, 1)
            values[item.name] = value
        for name, value in values.items():
            self.v[self.slots[name]] = value

    def _evaluate(self, expr, env, item):
        try:
            return evaluate(expr, env)
        except EvaluationError as error:
            raise SimulationError(f"cannot evaluate the value of {item.name}: {error}",
                                  item.span) from None

    # ------------------------------------------------------------------------ generation
    def _generate(self) -> None:
        system = self.system
        names = {name: f"_call_{k}" for k, name in enumerate(self.functions.declared)}
        code = BlockCode(self._slot, names, system.when_clauses)
        n_d, n_i = system.n_derivative_blocks, system.n_indicator_blocks
        code.run("run_derivatives", system.blocks[:n_d])
        code.run("run_indicators", system.blocks[n_d:n_i])
        code.run("run_others", system.blocks[n_i:])
        code.initial = True
        code.run("run_initial", system.initial_blocks)
        code.initial = False
        self.analytic_jacobian = partials_complete(system.blocks[:n_d])
        if self.analytic_jacobian:
            code.tangent("derivative_jacobian", system.blocks[:n_d], system.states,
                         system.derivatives)
        self._expressions(code)
        self.where = [0]
        assertions = Assertions()
        namespace = {"v": self.v, "p": self.p, "fl": self.fl, "np": np, "_where": self.where,
                     "_newton": newton, "_solve_linear": solve_linear,
                     "_iterate_mixed": functools.partial(iterate_mixed, assertions=assertions),
                     "_assertion_failed": assertions.check_failed, "_terminate": self._terminate,
                     "_m_delay": lambda k, at: self.delays.value(k, at, self.v[0]),
                     "_m_spatial": self.profiles.value}
        namespace.update((python, _lazy(self.functions, name)) for name, python in names.items())
        for name, params, body in code.helpers:
            namespace[name] = compile_function(name, params, body, namespace)
        self.places = code.places
        for name in ("run_derivatives", "run_indicators", "run_others", "run_initial"):
            setattr(self, name, self._guarded(namespace[name]))
        for name, what in (("distances", "the event indicators"),
                           ("raw_relations", "the relations"),
                           ("clause_activity", "the when-conditions"),
                           ("initial_activity", "the when-conditions"),
                           ("assert_values", "the asserts"),
                           ("delay_inputs", "the delayed expressions"),
                           ("spatial_inputs", "the inputs of spatialDistribution()"),
                           ("spatial_profiles", "the initial profiles of spatialDistribution()")):
            setattr(self, name, self._guarded(namespace[name], what))
        self.reinit_values = [namespace[f"_reinits_{k}"]
                              for k in range(len(system.when_clauses))]
        self.derivative_jacobian = namespace.get("derivative_jacobian")

    def _guarded(self, function, what: str = ""):
        """``function`` with arithmetic and domain errors reported where they happened (the
        block that failed, or ``what``)."""
        def run():
            try:
                return function()
            except (ArithmeticError, ValueError) as error:
                place = what or self.places[self.where[0]]
                raise SimulationError(f"{error} in {place} at t = {self.v[0]}") from None
        return run

    def _terminate(self) -> None:
        self.terminated = True

    def _slot(self, name: str) -> int:
        try:
            return self.slots[name]
        except KeyError:
            raise SimulationError(f"no slot for '{name}'") from None

    def _expressions(self, code: BlockCode) -> None:
        system = self.system
        _values_function(code, "distances", [item.distance for item in system.relations])
        _values_function(code, "raw_relations",
                         [make_relation(item.op, item.lhs, item.rhs) for item in system.relations])
        _values_function(code, "clause_activity", [item.active for item in system.when_clauses])
        _values_function(code, "initial_activity",
                         [item.initial_active for item in system.when_clauses])
        for k, clause in enumerate(system.when_clauses):
            _values_function(code, f"_reinits_{k}", [item.value for item in clause.reinits])
        _values_function(code, "assert_values", [item.condition for item in system.asserts])
        _values_function(code, "delay_inputs", [expr for item in system.delays for expr in
                                                (item.expr, item.delay_time, item.delay_max)])
        _values_function(code, "spatial_inputs", [expr for item in system.spatials for expr in
                                                  (item.in0, item.in1, item.x, item.positive)])
        _values_function(code, "spatial_profiles", [expr for item in system.spatials
                                                    for expr in item.points + item.values])

    # --------------------------------------------------------------------------- helpers
    def set_point(self, t: float, states) -> None:
        v = self.v
        v[0] = t
        for slot, value in zip(self.state_slots, states):
            v[slot] = float(value)
        for slot, value in self.input_slots:
            v[slot] = value(t) if callable(value) else value

    def states(self) -> np.ndarray:
        return np.array([self.v[slot] for slot in self.state_slots], dtype=float)

    def derivatives(self) -> np.ndarray:
        return np.array([self.v[slot] for slot in self.derivative_slots], dtype=float)

    def evaluate_all(self) -> None:
        self.run_derivatives()
        self.run_indicators()
        self.run_others()

    def recorded_values(self, event_mode: bool = False, evaluate: bool = True) -> tuple:
        """What the runtime records at the current point: (values, delay times, maximum
        delay times) of the delayed expressions and the inputs of the spatialDistribution()
        operators (every value computed first unless not ``evaluate``, lookups at an event's
        instant on its side ``event_mode``)."""
        histories = self.delays
        histories.event_mode = event_mode
        if evaluate:
            self.evaluate_all()
        inputs = self.delay_inputs()
        spatial = self.spatial_inputs()
        histories.event_mode = False
        return inputs[0::3], inputs[1::3], inputs[2::3], spatial

    @property
    def records(self) -> bool:
        """Whether the model keeps delay histories or spatialDistribution() profiles."""
        return bool(self.system.delays or self.system.spatials)

    def store(self, t: float, values: tuple) -> None:
        """Record ``values`` (``recorded_values``) taken at time ``t``."""
        *delayed, spatial = values
        self.delays.record(t, *delayed)
        if not self.profiles.started:   # the initial profiles, placed at the start's x
            self.profiles.start(self.spatial_profiles(), spatial)
        self.profiles.record(spatial)

    def record_delays(self, event_mode: bool = False, evaluate: bool = True) -> None:
        """Record the delayed expressions and spatialDistribution() inputs at the current
        point (see ``recorded_values``)."""
        if not self.records:
            return
        self.store(self.v[0], self.recorded_values(event_mode, evaluate))
        if event_mode:
            self.delays.settled = self.v[0]


def _values_function(code: BlockCode, name: str, exprs) -> None:
    emitter = code.emitter()
    for expr in exprs:
        emitter.count(expr)
    texts = [emitter.text(expr) for expr in exprs]
    code.helpers.append((name, "", emitter.lines + [f"return [{', '.join(texts)}]"]))


def scalar_functions(table: FunctionTable, system: System) -> dict:
    return {item.name: _lazy(table, item.name) for item in system.functions}


def _lazy(table: FunctionTable, name: str):
    """The scalar form of function ``name``, compiled at its first call."""
    compiled = []

    def call(*args):
        if not compiled:
            compiled.append(table.scalar(name))
        return compiled[0](*args)
    return call
