"""Numerical solution of the linear and nonlinear blocks (numpy/scipy).

Input: a block's generated residual and Jacobian functions and the current values (for a
mixed block: the functions of its parts). Output: the block's unknowns written into the
values, or a ``SimulationError`` naming the block.
"""
from __future__ import annotations

import math

import numpy as np
import scipy.sparse
import scipy.sparse.linalg

from compiler.interp.errors import SimulationError
from compiler.system import MIXED_ITERATIONS

NEWTON_TOLERANCE = 1e-12    # relative step size at which Newton stops
NEWTON_MAX_ITERATIONS = 100
MIN_DAMPING = 1e-6          # smallest fraction of a Newton step the line search tries
CUT_STEP_SCALE = 1e-3  # a cut step converges when its full length is within 1e-9 relative
RESIDUAL_TOLERANCE = 1e-10  # an unconverged step still counts when residuals are this small
SPARSE_SIZE = 60            # linear systems at least this large use sparse LU
DIFFERENCE_STEP = 1e-7
BRACKET_FIRST, BRACKET_LAST = 1e-6, 1e12  # a scalar loop's search for a sign change, relative
BISECTIONS = 200
RANK_TOLERANCE = 1e-12        # a singular linear system: pivots below this fraction are 0
CONSISTENCY_TOLERANCE = 1e-9  # and the equations left over hold within this fraction


def solve_linear(matrix, rhs, describe, guess=None):
    """``x`` with ``matrix @ x = rhs``; ``matrix`` is dense or ``(rows, cols, values, n)``.
    A singular system whose equations agree keeps the unknowns it leaves free at ``guess``
    (as ``solve_linear_near`` in model_support.c does)."""
    try:
        if isinstance(matrix, tuple):
            rows, cols, values, n = matrix
            sparse = scipy.sparse.csc_matrix((values, (rows, cols)), shape=(n, n))
            result = scipy.sparse.linalg.spsolve(sparse, rhs)
            if not np.all(np.isfinite(result)):
                raise np.linalg.LinAlgError("singular matrix")
            return result
        return np.linalg.solve(matrix, rhs)
    except (np.linalg.LinAlgError, RuntimeError) as error:
        if guess is not None:
            dense = matrix.toarray() if hasattr(matrix, "toarray") else _dense(matrix)
            found = _near_solution(dense, np.asarray(rhs, dtype=float), guess)
            if found is not None:
                return found
        raise SimulationError(f"singular linear system ({error}) in {describe()}") from None


def _dense(matrix):
    if not isinstance(matrix, tuple):
        return np.array(matrix, dtype=float)
    rows, cols, values, n = matrix
    dense = np.zeros((n, n))
    np.add.at(dense, (rows, cols), values)
    return dense


def _near_solution(matrix, rhs, guess):
    """``guess + dx`` with ``matrix @ dx = rhs - matrix @ guess`` by elimination with
    complete pivoting: unknowns left without a pivot keep ``dx = 0``; None when the
    equations left over do not hold."""
    a = matrix.copy()
    r = rhs - matrix @ guess
    n = len(r)
    scale = 1.0 + np.max(np.abs(rhs), initial=0.0) + \
        np.max(np.abs(matrix), initial=0.0) * np.max(np.abs(guess), initial=0.0)
    tiny = RANK_TOLERANCE * np.max(np.abs(a), initial=0.0)
    order = np.arange(n)
    rank = 0
    while rank < n:
        block = np.abs(a[rank:, rank:])
        row, column = np.unravel_index(np.argmax(block), block.shape)
        if not block[row, column] > tiny:
            break
        row, column = row + rank, column + rank
        a[[rank, row]] = a[[row, rank]]
        r[[rank, row]] = r[[row, rank]]
        a[:, [rank, column]] = a[:, [column, rank]]
        order[[rank, column]] = order[[column, rank]]
        factors = a[rank + 1:, rank] / a[rank, rank]
        a[rank + 1:, rank:] -= np.outer(factors, a[rank, rank:])
        r[rank + 1:] -= factors * r[rank]
        rank += 1
    if np.any(~(np.abs(r[rank:]) <= CONSISTENCY_TOLERANCE * scale)):
        return None
    y = np.zeros(n)
    for k in range(rank - 1, -1, -1):
        y[k] = (r[k] - a[k, k + 1:rank] @ y[k + 1:rank]) / a[k, k]
    dx = np.zeros(n)
    dx[order] = y
    return guess + dx


def _small_residual(norm, x) -> bool:
    return norm <= RESIDUAL_TOLERANCE * (1.0 + float(np.max(np.abs(x))))


def newton(v, slots, residual, jacobian, describe):
    """Solve ``residual(v) = 0`` for ``v[slots]`` starting from their current values.

    ``jacobian(v)`` gives d residual / d v[slots] at the point ``residual`` was last
    evaluated at, or is None for forward differences. Steps are halved while they do not
    reduce the residual norm.
    """
    if len(slots) == 1:
        return _scalar_newton(v, slots[0], residual, jacobian, describe)
    x = np.array([float(v[s]) for s in slots])
    r = _residual(v, slots, x, residual, describe)
    norm = float(np.max(np.abs(r))) if len(r) else 0.0
    singular = False   # whether a step came from a singular Jacobian
    for _ in range(NEWTON_MAX_ITERATIONS):
        if norm == 0.0:
            return
        matrix = jacobian(v) if jacobian is not None else _differences(v, slots, x, r,
                                                                        residual, describe)
        weight = _residual_weights(np.asarray(matrix, dtype=float), x)
        try:
            step = np.linalg.solve(matrix, -r)
        except np.linalg.LinAlgError:
            # equations that agree leave the unknowns they do not determine in place (as
            # newton_iterate in model_support.c does)
            step = _near_solution(np.asarray(matrix, dtype=float), -r, np.zeros(len(r)))
            if step is None:
                raise SimulationError(f"singular Jacobian in Newton iteration of {describe()} "
                                      f"at {_values(x)}") from None
            singular = True
        merit = _weighted_norm(r, weight)
        factor = 1.0
        while True:
            trial = x + factor * step
            r_trial = _residual(v, slots, trial, residual, describe, trial=True)
            norm_trial = float(np.max(np.abs(r_trial)))
            improved = math.isfinite(norm_trial) and _weighted_norm(r_trial, weight) < merit
            if improved or factor < MIN_DAMPING:
                break
            factor *= 0.5
        if not math.isfinite(norm_trial):
            break
        x, r, norm = trial, r_trial, norm_trial
        # a step cut to a millionth converges only if the full one would (model_support.c;
        # scalar loops, solved apart, keep their point there); after steps of a singular
        # Jacobian a small step counts only with a small residual
        if np.all(np.abs((factor if improved else CUT_STEP_SCALE) * step) <=
                  NEWTON_TOLERANCE * (1.0 + np.abs(x))) and \
                (not singular or _small_residual(norm, x)):
            return
    if _small_residual(norm, x):
        return
    raise SimulationError(f"Newton iteration did not converge in {describe()} (residual "
                          f"{norm:.3g} at {_values(x)})")


def _residual_weights(matrix, x):
    """Row weights of the residuals for the line search, as in model_support.c:
    1 / max_j |J_ij| w_j with w_j = |x_j| (1 where x_j = 0)."""
    scale = np.where(x != 0.0, np.abs(x), 1.0)
    with np.errstate(invalid="ignore", over="ignore"):
        largest = np.max(np.abs(matrix) * scale[None, :], axis=1)
    return np.where((largest > 0) & np.isfinite(largest), 1.0 / np.where(largest > 0, largest, 1.0),
                    1.0)


def _weighted_norm(r, weight) -> float:
    value = float(np.max(np.abs(r) * weight)) if len(r) else 0.0
    return value if not math.isnan(value) else math.inf


def _scalar_newton(v, slot, residual, jacobian, describe) -> None:
    """``newton`` for one unknown, in plain floats (most loops are scalar). Where the
    iteration stalls, Newton again from the nearest sign change of the residual (as the
    generated C does: ``bracket_root`` in model_support.c)."""
    x = float(v[slot])
    try:
        _scalar_iteration(v, slot, x, residual, jacobian, describe)
    except SimulationError:
        bracketed = _bracket_root(v, slot, x, residual, describe)
        if bracketed is None:
            _scalar_residual(v, slot, x, residual, describe)
            raise
        _scalar_iteration(v, slot, bracketed, residual, jacobian, describe)


def _bracket_root(v, slot, x: float, residual, describe) -> float | None:
    """A point within the tolerance of the sign change of the residual nearest to ``x``
    (distances doubling on either side), or None."""
    def value(point):
        r = _scalar_residual(v, slot, point, residual, describe, trial=True)
        return r if math.isfinite(r) else None
    r_x = value(x)
    if r_x is None or r_x == 0.0:
        return None if r_x is None else x
    a, r_a, b, distance = x, r_x, None, BRACKET_FIRST * (1.0 + abs(x))
    while b is None and distance < BRACKET_LAST * (1.0 + abs(x)):
        for probe in (x + distance, x - distance):
            r_probe = value(probe)
            if r_probe is not None and (r_probe == 0.0 or (r_probe > 0) != (r_x > 0)):
                b = probe
                break
        distance *= 2.0
    if b is None:
        return None
    for _ in range(BISECTIONS):
        if abs(b - a) <= NEWTON_TOLERANCE * (1.0 + abs(a)):
            break
        middle = 0.5 * (a + b)
        r_middle = value(middle)
        if r_middle is None:
            return None
        if r_middle == 0.0:
            return middle
        if (r_middle > 0) != (r_a > 0):
            b = middle
        else:
            a, r_a = middle, r_middle
    return 0.5 * (a + b)


def _scalar_iteration(v, slot, x: float, residual, jacobian, describe) -> None:
    r = _scalar_residual(v, slot, x, residual, describe)
    for _ in range(NEWTON_MAX_ITERATIONS):
        if r == 0.0:
            return
        if jacobian is not None:
            slope = float(jacobian(v)[0][0])
        else:
            h = DIFFERENCE_STEP * max(1.0, abs(x))
            slope = (_scalar_residual(v, slot, x + h, residual, describe) - r) / h
        if slope == 0.0 or not math.isfinite(slope):
            raise SimulationError(f"singular Jacobian in Newton iteration of {describe()} "
                                  f"at {x:.6g}")
        step, factor = -r / slope, 1.0
        while True:
            trial = x + factor * step
            r_trial = _scalar_residual(v, slot, trial, residual, describe, trial=True)
            if abs(r_trial) < abs(r) or factor < MIN_DAMPING:
                break
            factor *= 0.5
        if not math.isfinite(r_trial):
            break
        x, r = trial, r_trial
        if abs(factor * step) <= NEWTON_TOLERANCE * (1.0 + abs(x)):
            return
    if abs(r) <= RESIDUAL_TOLERANCE * (1.0 + abs(x)):
        return
    raise SimulationError(f"Newton iteration did not converge in {describe()} (residual "
                          f"{r:.3g} at {x:.6g})")


def _scalar_residual(v, slot, x, residual, describe, trial: bool = False) -> float:
    """The residual at ``x``; at a trial point of the line search a domain error or an
    overflow counts as an infinite residual."""
    v[slot] = x
    try:
        return float(residual(v)[0])
    except (ArithmeticError, ValueError) as error:
        if trial:
            return math.inf
        raise SimulationError(f"{error} while evaluating {describe()}") from None


def _residual(v, slots, x, residual, describe, trial: bool = False):
    for slot, value in zip(slots, x):
        v[slot] = float(value)
    try:
        return np.asarray(residual(v), dtype=float)
    except (ArithmeticError, ValueError) as error:
        if trial:
            return np.full(len(slots), math.inf)
        raise SimulationError(f"{error} while evaluating {describe()}") from None


def _differences(v, slots, x, r, residual, describe):
    n = len(slots)
    matrix = np.empty((len(r), n))
    for j in range(n):
        shifted = x.copy()
        h = DIFFERENCE_STEP * max(1.0, abs(x[j]))
        shifted[j] += h
        matrix[:, j] = (_residual(v, slots, shifted, residual, describe) - r) / h
    _residual(v, slots, x, residual, describe)
    return matrix


def _values(x) -> str:
    return "[" + ", ".join(f"{value:.6g}" for value in x) + "]"


class Assertions:
    """The assertions of algorithms: a failed one raises at once, except while a mixed block
    iterates (a pass on discrete values not yet converged may break it): then it is noted,
    and the block runs its converged pass again, where it counts (as the generated C does)."""

    def __init__(self):
        self.deferring = 0
        self.failed = False

    def check_failed(self, message, level: str, place: str) -> None:
        """An assertion whose condition is false."""
        if self.deferring:
            self.failed = True
        elif level == "error":
            raise SimulationError(f"{place + ': ' if place else ''}assertion failed: {message}")


def iterate_mixed(v, continuous, updates, discrete_values, iterate: bool, describe,
                  assertions: Assertions):
    """A mixed block (``compiler.system.MixedBlock``): ``continuous()`` with the discrete
    values as they are, then ``updates()``; while ``iterate`` (initialization, event
    iterations), again until ``discrete_values()`` no longer changes."""
    continuous()
    earlier = assertions.failed
    for _ in range(MIXED_ITERATIONS):
        guess = discrete_values()
        assertions.failed = False
        assertions.deferring += 1
        try:
            updates()
        finally:
            assertions.deferring -= 1
        if not iterate or discrete_values() == guess:
            if assertions.failed:
                updates()   # the converged pass again: its assertions count now
            assertions.failed = earlier or assertions.failed
            return
        continuous()
    raise SimulationError(f"{describe()} does not converge at t = {v[0]}: its discrete "
                          f"values still change after {MIXED_ITERATIONS} passes")
