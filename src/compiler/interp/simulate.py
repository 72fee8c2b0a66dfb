"""The reference simulation of a ``System``: scipy's Radau with event handling.

Input: a ``System``, the stop time and options. Output: a ``Result``. The loop integrates
until an event indicator changes sign (located by bisection on the dense output, the event
put just after the crossing), a sample instant or the stop time; then it runs the event
iteration of ``System`` (latches, when-clauses, reinit, pre) and restarts the integrator.
"""
from __future__ import annotations

import math

import numpy as np
from scipy.integrate import Radau

from compiler.interp.delays import RECORD_DEPTH
from compiler.interp.errors import SimulationError
from compiler.interp.model import ExecutableModel
from compiler.interp.result import Result
from compiler.system import EVENT_HYSTERESIS, HOMOTOPY_FLAG, System

MAX_EVENT_ITERATIONS = 100
RELATION_PASSES = 20          # switches of the relations within one event iteration (model.h)
MAX_EVENTS = 20_000           # more means chattering (a Zeno model), not a result
BISECTION_TOLERANCE = 1e-13   # relative width of the bracket around a crossing
TICK_TOLERANCE = 1e-9         # relative tolerance of sample instants
DIFFERENCE_STEP = 1e-7        # of a Jacobian by differences (where the analytic one fails)


def simulate_reference(system: System, stop: float | None = None, start: float | None = None,
                       interval: float | None = None, rtol: float | None = None,
                       atol: float | None = None, parameters=None, inputs=None,
                       max_step: float | None = None) -> Result:
    """Simulate ``system`` from ``start`` to ``stop`` (defaults: its experiment annotation).

    Parameters
    ----------
    interval : float, optional
        Output spacing (default: 1/500 of the time span); events add rows of their own.
    rtol, atol : float, optional
        Radau tolerances (default: the experiment's tolerance, else 1e-8; atol = rtol/100).
    parameters : dict, optional
        New values for parameters by name (bindings that read them follow).
    inputs : dict, optional
        Top-level inputs by name: a number or a function of time.
    max_step : float, optional
        Largest integrator step (default: 1/100 of the time span).
    """
    experiment = system.experiment
    start = start if start is not None else (experiment and experiment.start_time) or 0.0
    stop = stop if stop is not None else (experiment and experiment.stop_time) or 1.0
    if stop <= start:
        raise SimulationError(f"the stop time {stop} is not after the start time {start}")
    rtol = rtol or (experiment and experiment.tolerance) or 1e-8
    atol = atol or rtol * 1e-2
    interval = interval or (experiment and experiment.interval) or (stop - start) / 500
    model = ExecutableModel(system, parameters, inputs)
    run = _Run(model, start, stop, interval, rtol, atol, max_step or (stop - start) / 100)
    return run.result()


class _Run:
    def __init__(self, model: ExecutableModel, start, stop, interval, rtol, atol, max_step):
        self.model = model
        self.start, self.stop = start, stop
        count = max(1, int(round((stop - start) / interval)))
        self.grid = [start + k * (stop - start) / count for k in range(count + 1)]
        self.next_grid = 1
        self.rtol, self.atol, self.max_step = rtol, atol, max_step
        system = model.system
        self.recorded = [item.name for item in system.variables
                         if not item.hidden and item.type != "String"]
        self.record_slots = [model.slots[name] for name in self.recorded]
        self.times: list[float] = []
        self.rows: list[list] = []
        self.events: list[float] = []
        self.samples = [(model.sample_slots[k], _number(model, item.start),
                         _number(model, item.interval)) for k, item in enumerate(system.samples)]
        self.fired = [-1] * len(self.samples)   # the tick each sample fired last
        self.eps = [EVENT_HYSTERESIS * item.scale for item in system.relations]
        # exact relations compare as written (None: with the band eps)
        self.exact = [(item.op in (">=", "<=")) if item.exact else None
                      for item in system.relations]
        self.instants = [item.instant for item in system.relations if item.instant is not None]
        self.terminated = False

    # ------------------------------------------------------------------------------ run
    def result(self) -> Result:
        t = self.start
        self._initialize(t)
        while t < self.stop and not self.terminated:
            t_end = min(self._next_tick(t), self.stop)
            t, y, crossed = self._integrate(t, t_end)
            if crossed or t < self.stop or self._is_tick(t):
                self._event(t, y)
        self._terminal()
        return self._result()

    def _initialize(self, t: float) -> None:
        model = self.model
        model.fl[0] = model.fl[2] = True   # initial(), event mode
        model.set_point(t, [model.v[slot] for slot in model.state_slots])
        for slot, _, _ in self.samples:
            model.v[slot] = False
        homotopy = model.slots.get(HOMOTOPY_FLAG)
        if homotopy is not None:
            # the simplified equations first, their solution the guess for the actual ones
            # (as model_initialize does); where they fail, the actual ones start as they are
            model.v[homotopy] = True
            try:
                model.run_initial()
            except SimulationError:
                pass
            model.v[homotopy] = False
        model.run_initial()
        for slot, value in zip(model.relation_slots, model.raw_relations()):
            model.v[slot] = bool(value)
        model.record_delays(evaluate=False)   # the histories start with the initialization
        for k, active in enumerate(model.initial_activity()):
            if active:
                self._actions(k)
        model.fl[0] = False   # initial() is true during initialization only
        self._event(t, model.states(), initial=True)

    def _next_tick(self, t: float) -> float:
        """The next sample instant or reappearing jump of a delayed expression."""
        best = self.model.delays.next_event(t)
        for instant in self._instants():
            if instant > t and not self._close(instant, t):
                best = min(best, instant)
        for _, start, interval in self.samples:
            k = max(0, math.floor((t - start) / interval) + 1)
            tick = start + k * interval
            if self._close(tick, t):
                tick = start + (k + 1) * interval
            best = min(best, tick)
        return best

    def _is_tick(self, t: float) -> bool:
        """Whether ``t`` is a sample instant or the instant of a relation moving with time."""
        return any(self._tick(t, start, interval) for _, start, interval in self.samples) or \
            any(self._close(t, instant) for instant in self._instants())

    def _instants(self) -> list[float]:
        """When the relations that move with time switch (by the current discrete values)."""
        return [_number(self.model, expr) for expr in self.instants]

    def _tick(self, t, start, interval) -> bool:
        return self._tick_number(t, start, interval) >= 0

    def _tick_number(self, t, start, interval) -> int:
        """The number k of the tick ``t`` is, or -1."""
        k = round((t - start) / interval)
        return k if k >= 0 and self._close(start + k * interval, t) else -1

    def _close(self, a: float, b: float) -> bool:
        """The same instant up to TICK_TOLERANCE of the times, or of the span of a model
        that runs for less than a second (nanoseconds of a transmission line)."""
        return abs(a - b) <= TICK_TOLERANCE * max(min(1.0, self.stop - self.start),
                                                  abs(a), abs(b))

    # ------------------------------------------------------------------------ integrate
    def _integrate(self, t: float, t_end: float):
        """Integrate from ``t`` toward ``t_end``; returns ``(t, y, crossed)``."""
        model = self.model
        y = model.states()
        if not len(y):
            return self._without_states(t, t_end)
        solver = Radau(self._derivatives, t, y, t_end, rtol=self.rtol, atol=self.atol,
                       max_step=min(self.max_step, model.delays.longest_step()),
                       jac=self._jacobian if model.analytic_jacobian else None)
        z_old = self._indicators(t, y)
        while solver.status == "running":
            t_old = solver.t
            message = solver.step()
            if solver.status == "failed":
                raise SimulationError(f"the integrator failed at t = {solver.t}: {message}")
            dense = solver.dense_output()
            z_new = self._indicators(solver.t, solver.y)
            crossing = [k for k, (a, b) in enumerate(zip(z_old, z_new)) if (a > 0) != (b > 0)]
            # the delay histories are recorded after every evaluation of the step (as the FMU
            # does): they forget what is older than the last record minus the delay time
            if crossing:
                t_event = self._locate(dense, t_old, solver.t, crossing, z_old)
                self._record_grid(dense, t_event, inclusive=False)
                self._record_delays_inside(dense, t_old, t_event)
                return t_event, dense(t_event), True
            self._record_grid(dense, solver.t, inclusive=not self._is_tick(solver.t))
            self._record_delays_inside(dense, t_old, solver.t)
            model.set_point(solver.t, solver.y)
            model.record_delays()
            z_old = z_new
        return solver.t, solver.y, False

    def _record_delays_inside(self, dense, t_old: float, t_new: float) -> None:
        """Records of the delayed expressions and spatialDistribution() inputs inside a step
        (its ends excluded), as the FMU takes them on the dense output (fmu_templates/delays.h):
        the middle, and the middles of halves where the line between their ends misses it by
        more than sqrt(rtol) for a delay (a cubic interpolates), rtol for a profile (a line)."""
        model = self.model
        if not model.records:
            return

        def values(t):
            model.set_point(t, dense(t))
            return model.recorded_values()

        def resolved(va, vm, vb):
            return all(abs(x - 0.5 * (y + z)) <= math.sqrt(self.rtol) * max(abs(x), abs(y), abs(z))
                       for x, y, z in zip(vm[0], va[0], vb[0])) and \
                not model.profiles.unresolved(va[3], vm[3], vb[3], self.rtol)

        def halves(a, va, b, vb, depth):
            m = 0.5 * (a + b)
            vm = values(m)
            fine = depth >= RECORD_DEPTH or resolved(va, vm, vb)
            if not fine:
                halves(a, va, m, vm, depth + 1)
            model.store(m, vm)
            if not fine:
                halves(m, vm, b, vb, depth + 1)
        halves(t_old, values(t_old), t_new, values(t_new), 0)

    def _without_states(self, t: float, t_end: float):
        z_old = self._indicators(t, ())
        for t_grid in self._points_without_states(t, t_end):
            z_new = self._indicators(t_grid, ())
            crossing = [k for k, (a, b) in enumerate(zip(z_old, z_new)) if (a > 0) != (b > 0)]
            if crossing:
                t_event = self._locate(lambda s: np.zeros(0), t, t_grid, crossing, z_old)
                self._record_grid(lambda s: np.zeros(0), t_event, inclusive=False)
                self._record_delays_inside(lambda s: np.zeros(0), t, t_event)
                return t_event, np.zeros(0), True
            self._record_grid(lambda s: np.zeros(0), t_grid, inclusive=not self._is_tick(t_grid))
            self._record_delays_inside(lambda s: np.zeros(0), t, t_grid)
            self.model.set_point(t_grid, ())
            self.model.record_delays()
            t, z_old = t_grid, z_new
        return t_end, np.zeros(0), False

    def _points_without_states(self, t: float, t_end: float):
        """The grid points up to ``t_end``, with points between them (and before ``t_end``)
        no farther apart than the shortest delay of a continuous expression: lookups read
        only what is recorded."""
        longest = self.model.delays.longest_step()
        for point in [g for g in self.grid if t < g <= t_end] + [None]:
            until = t_end if point is None else point
            while until - t > longest:
                t += longest
                yield t
            if point is not None:
                yield point
                t = point

    def _derivatives(self, t, y):
        model = self.model
        model.set_point(t, y)
        model.run_derivatives()
        return model.derivatives()

    def _jacobian(self, t, y):
        model = self.model
        model.set_point(t, y)
        model.run_derivatives()
        try:
            return model.derivative_jacobian()
        except np.linalg.LinAlgError:
            # a loop singular at this point (whose solution holds): differences, as the
            # generated C does
            return self._difference_jacobian(t, y)

    def _difference_jacobian(self, t, y):
        f = self._derivatives(t, y)
        columns = []
        for j in range(len(y)):
            step = DIFFERENCE_STEP * max(1.0, abs(y[j]))
            shifted = np.array(y, dtype=float)
            shifted[j] += step
            columns.append((self._derivatives(t, shifted) - f) / step)
        self._derivatives(t, y)
        return np.column_stack(columns)

    def _indicators(self, t, y) -> list[float]:
        model = self.model
        model.set_point(t, y)
        model.run_derivatives()
        model.run_indicators()
        v = model.v
        return [d + eps if v[slot] else d - eps
                for d, eps, slot in zip(model.distances(), self.eps, model.relation_slots)]

    def _locate(self, dense, t_old: float, t_new: float, crossing, z_old) -> float:
        """The earliest crossing: the right end of a bisection bracket (so the indicator
        has already changed sign there)."""
        best = t_new
        for k in crossing:
            old_sign = z_old[k] > 0
            low, high = t_old, min(t_new, best)
            if (self._indicators(high, dense(high))[k] > 0) == old_sign:
                continue  # crosses only after an earlier crossing
            while high - low > BISECTION_TOLERANCE * max(min(1.0, self.stop - self.start),
                                                           abs(high)):
                middle = 0.5 * (low + high)
                if (self._indicators(middle, dense(middle))[k] > 0) == old_sign:
                    low = middle
                else:
                    high = middle
            best = high
        return best

    # --------------------------------------------------------------------------- events
    def _event(self, t: float, y, initial: bool = False) -> None:
        model = self.model
        v, p = model.v, model.p
        if not initial:  # after initialization the values are already those at t
            model.set_point(t, y)
            model.evaluate_all()
            model.record_delays()   # the values before the event
            self._record(t)
            self.events.append(t)
            if len(self.events) > MAX_EVENTS:
                raise SimulationError(f"more than {MAX_EVENTS} events by t = {t}: the model "
                                      "chatters (Zeno behaviour?)")
        model.fl[2] = True   # event mode
        # a sample fires in the first event at its tick only (not again in a state event
        # right after the time event there)
        ticks = [self._tick_number(t, start, interval) for _, start, interval in self.samples]
        model.delays.event_mode = True
        for _ in range(MAX_EVENT_ITERATIONS):
            p[:] = v
            for (slot, _, _), tick, fired in zip(self.samples, ticks, self.fired):
                v[slot] = tick >= 0 and tick != fired
            model.evaluate_all()
            self._switch_relations()
            if self._when_clauses():
                model.evaluate_all()
            self._check_asserts(t)
            self.terminated = self.terminated or model.terminated
            if all(v[slot] == p[slot] for slot in model.discrete_slots):
                break
        else:
            raise SimulationError(f"the event iteration at t = {t} did not converge")
        model.fl[2] = False
        self.fired = [tick if tick >= 0 else fired for tick, fired in zip(ticks, self.fired)]
        model.delays.event_mode = False
        model.record_delays(event_mode=True)   # the values after the event
        self._record(t)
        self._skip_grid(t)
        for slot, _, _ in self.samples:
            v[slot] = False

    def _switch_relations(self) -> None:
        """Relations switch on the values of this iteration: a relation may read what the
        iteration computes (``t >= t_start + T``), so switch and evaluate until none does."""
        model, v = self.model, self.model.v
        for _ in range(RELATION_PASSES):
            switched = False
            for slot, d, eps, inclusive in zip(model.relation_slots, model.distances(),
                                               self.eps, self.exact):
                if inclusive is not None:
                    value = d >= 0.0 if inclusive else d > 0.0
                else:
                    value = d > -eps if v[slot] else d >= eps
                switched = switched or value != v[slot]
                v[slot] = value
            model.evaluate_all()
            if not switched:
                break

    def _when_clauses(self) -> bool:
        """Run reinit and actions of the active clauses; whether a state changed."""
        model = self.model
        changed = False
        for k, active in enumerate(model.clause_activity()):
            if not active:
                continue
            clause = model.system.when_clauses[k]
            for item, value in zip(clause.reinits, model.reinit_values[k]()):
                model.v[model.slots[item.state]] = float(value)
                changed = True
            self._actions(k)
        return changed

    def _actions(self, k: int) -> None:
        model = self.model
        from compiler.symbolic.evaluate import Environment, evaluate
        env = Environment(_values(model), model.p and _pre_values(model), model.fl[0],
                          model.fl[1])
        for action in model.system.when_clauses[k].actions:
            condition = getattr(action, "condition", None)
            if hasattr(action, "level"):
                if not evaluate(action.condition, env) and action.level == "error":
                    raise SimulationError(f"assertion failed: {evaluate(action.message, env)}",
                                          action.span)
            elif condition is None or evaluate(condition, env):
                self.terminated = True

    def _check_asserts(self, t: float) -> None:
        model = self.model
        for item, ok in zip(model.system.asserts, model.assert_values()):
            if not ok and item.level == "error":
                message = _message(model, item.message)
                raise SimulationError(f"assertion failed at t = {t}: {message}", item.span)

    def _terminal(self) -> None:
        model = self.model
        model.fl[1] = True
        model.evaluate_all()
        for k, active in enumerate(model.clause_activity()):
            if active:
                self._actions(k)

    # -------------------------------------------------------------------------- records
    def _record(self, t: float) -> None:
        v = self.model.v
        self.times.append(t)
        self.rows.append([v[slot] for slot in self.record_slots])

    def _record_grid(self, dense, t_limit: float, inclusive: bool) -> None:
        """Record the grid points up to ``t_limit`` (points that are the same instant up to
        rounding belong to an event there unless ``inclusive``)."""
        model = self.model
        grid = self.grid
        while self.next_grid < len(grid):
            t = grid[self.next_grid]
            if t > t_limit or (not inclusive and self._close(t, t_limit)):
                break
            model.set_point(t, dense(t))
            model.evaluate_all()
            self._check_asserts(t)
            self._record(t)
            self.next_grid += 1

    def _skip_grid(self, t: float) -> None:
        while self.next_grid < len(self.grid) and (self.grid[self.next_grid] <= t or
                                                   self._close(self.grid[self.next_grid], t)):
            self.next_grid += 1

    def _result(self) -> Result:
        model = self.model
        system = model.system
        names = list(self.recorded)
        values = np.array(self.rows, dtype=float).reshape(len(self.rows), len(names))
        columns = {name: k for k, name in enumerate(names)}
        extra = []
        for alias in system.aliases:
            if alias.variable.type == "String":
                continue
            if alias.value is not None:
                column = np.full(len(self.times), float(_message(model, alias.value)))
            else:
                column = values[:, columns[alias.of]] * (-1.0 if alias.negated else 1.0)
            names.append(alias.variable.name)
            extra.append(column)
        if extra:
            values = np.column_stack([values] + extra)
        return Result(np.array(self.times), tuple(names), values, tuple(self.events))


def _number(model: ExecutableModel, expr) -> float:
    return float(_message(model, expr))


def _message(model: ExecutableModel, expr):
    from compiler.interp.model import scalar_functions
    from compiler.symbolic.evaluate import Environment, evaluate
    # user functions too: an alias's constant value may call one (``a = f(0, 2)``)
    return evaluate(expr, Environment(_values(model), _pre_values(model), model.fl[0],
                                      model.fl[1],
                                      scalar_functions(model.functions, model.system)))


def _values(model: ExecutableModel) -> dict:
    return {name: model.v[slot] for name, slot in model.slots.items()}


def _pre_values(model: ExecutableModel) -> dict:
    return {name: model.p[slot] for name, slot in model.slots.items()}
