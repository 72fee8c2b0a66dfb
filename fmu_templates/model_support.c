/*
 * model_support.c -- sample instants, delay histories and the solvers of algebraic loops for
 * model code (see model_support.h).
 */
#define COSIM_RUNTIME_SOURCE /* model.h: sizes read at run time (MODEL), no config.h */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model_support.h"

/* ---- sample instants ---- */

/* Within SAMPLE_TOLERANCE relative to max(scale, |a|, |b|): a sample's scale is its interval
 * up to 1 s, so that ticks picoseconds apart stay apart. */
static bool same_instant(double a, double b, double scale) {
    return fabs(a - b) <= SAMPLE_TOLERANCE * fmax(scale, fmax(fabs(a), fabs(b)));
}

/* The number k of the tick t is, or -1. */
static double tick_number(double t, double start, double interval) {
    const double k = round((t - start) / interval);
    return k >= 0.0 && same_instant(start + k * interval, t, fmin(1.0, interval)) ? k : -1.0;
}

bool sample_fires(double t, double start, double interval, double fired) {
    const double k = tick_number(t, start, interval);
    return k >= 0.0 && k != fired;
}

double sample_fired(double t, double start, double interval, double fired) {
    const double k = tick_number(t, start, interval);
    return k >= 0.0 ? k : fired;
}

double sample_next(double t, double start, double interval) {
    const double k = fmax(0.0, floor((t - start) / interval) + 1.0);
    const double tick = start + k * interval;
    return same_instant(tick, t, fmin(1.0, interval)) ? start + (k + 1.0) * interval : tick;
}

double instant_next(double t, double instant, double next) {
    return instant > t && !same_instant(instant, t, 0.0) && instant < next ? instant : next;
}

/* ---- delay() histories ---- */

size_t history_search(const DelayHistory *h, double s, bool strictly) {
    size_t low = 0, high = h->count;
    while (low < high) {
        const size_t middle = low + (high - low) / 2;
        const double t = history_time(h, middle);
        if (strictly ? t <= s : t < s) low = middle + 1;
        else high = middle;
    }
    return low;
}

/* The slope at a record between intervals of lengths h0 and h1 with secant slopes d0 and d1:
 * their weighted harmonic mean, 0 at an extremum (Fritsch-Butland, as scipy's PCHIP). */
static double pchip_slope(double h0, double d0, double h1, double d1) {
    if (d0 * d1 <= 0.0) return 0.0;
    const double w0 = 2.0 * h1 + h0, w1 = h1 + 2.0 * h0;
    return (w0 + w1) / (w0 / d0 + w1 / d1);
}

double delay_value(const ModelData *m, size_t k, double at) {
    const DelayHistory *h = &m->delays[k];
    if (h->count == 0) return NAN; /* the runtime records before any evaluation reads it */
    const double resolution = DELAY_TIME_RESOLUTION * fmax(fabs(m->time), fabs(at));
    /* the first record not before `at` (within the resolution) */
    const size_t low = history_search(h, at - resolution, false);
    if (low == h->count) return history_value(h, h->count - 1);
    const double t = history_time(h, low);
    if (t <= at + resolution) { /* at an instant of the history: after its event in event mode */
        const bool after = m->event_mode || m->time <= h->settled;
        size_t j = low;
        while (after && j + 1 < h->count && history_time(h, j + 1) <= t + resolution) j++;
        return history_value(h, j);
    }
    if (low == 0) return history_value(h, 0);
    /* the monotone cubic (PCHIP) on the interval around `at`: slopes from the neighbouring
     * records (none across a jump, two records at one time, or the ends of the history) */
    const double t0 = history_time(h, low - 1), v0 = history_value(h, low - 1);
    const double step = t - t0, secant = (history_value(h, low) - v0) / step;
    double left = secant, right = secant;
    if (low >= 2 && t0 - history_time(h, low - 2) > resolution) {
        const double before = t0 - history_time(h, low - 2);
        left = pchip_slope(before, (v0 - history_value(h, low - 2)) / before, step, secant);
    }
    if (low + 1 < h->count && history_time(h, low + 1) - t > resolution) {
        const double after = history_time(h, low + 1) - t;
        right = pchip_slope(step, secant, after, (history_value(h, low + 1) - history_value(h, low)) / after);
    }
    const double s = (at - t0) / step;
    return v0 + (history_value(h, low) - v0) * s * s * (3.0 - 2.0 * s)
           + step * s * (left * (s - 1.0) * (s - 1.0) + right * s * (s - 1.0));
}

/* ---- spatialDistribution() profiles ---- */

static double line(double s0, double v0, double s1, double v1, double s) {
    return v0 + (v1 - v0) * (s - s0) / (s1 - s0);
}

double spatial_value(const ModelData *m, size_t k, int end, double in0, double in1, double x,
                     bool positive) {
    if (positive && end == 0) return in0;
    if (!positive && end == 1) return in1;
    const DelayHistory *h = &m->profiles[k];
    if (h->count == 0) return NAN; /* the runtime places the initial profile before any reading */
    if (positive) {
        /* out1 at x - 1 from the points below x, then (x, in0) */
        const double at = x - 1.0;
        const size_t below = history_search(h, x, false), j = history_search(h, at, false);
        if (j >= below) return j == 0 ? in0 : line(history_time(h, j - 1), history_value(h, j - 1), x, in0, at);
        if (j == 0 || history_time(h, j) == at) return history_value(h, j);
        return line(history_time(h, j - 1), history_value(h, j - 1), history_time(h, j), history_value(h, j), at);
    }
    /* out0 at x from (x - 1, in1), then the points above x - 1 */
    const size_t above = history_search(h, x - 1.0, true), j = history_search(h, x, true); /* j: the first beyond x */
    if (j <= above) return j == h->count ? in1 : line(x - 1.0, in1, history_time(h, j), history_value(h, j), x);
    if (j == h->count || history_time(h, j - 1) == x) return history_value(h, j - 1);
    return line(history_time(h, j - 1), history_value(h, j - 1), history_time(h, j), history_value(h, j), x);
}

/* ---- algebraic loops ---- */

/* Between events a failure asks the integrator for a smaller step; elsewhere it is final. */
static Status failure(const ModelData *m) { return m->event_mode ? StatusError : StatusDiscard; }

Status factor_linear(ModelData *m, size_t n, double *a, size_t *pivot, const char *description) {
    const int singular = dense_lu_factor(n, a, pivot);
    if (!singular) return StatusOK;
    const Status status = failure(m);
    model_log(m, status, "logSingularLinearSystems",
              "singular linear system (no pivot in column %d) in %s at t = %.17g", singular,
              description, m->time);
    return status;
}

Status solve_linear(ModelData *m, size_t n, double *a, double *b, size_t *pivot,
                    const char *description) {
    CHECK(factor_linear(m, n, a, pivot, description));
    dense_lu_solve(n, a, pivot, b);
    return StatusOK;
}

/* A pivot below this fraction of the largest entry counts as zero in a singular system, and
 * an equation it leaves over must hold within this fraction of the values' scale. */
#define RANK_TOLERANCE 1e-12
#define CONSISTENCY_TOLERANCE 1e-9

static double largest(size_t count, const double *v) {
    double found = 0.0;
    for (size_t k = 0; k < count; k++) found = fmax(found, fabs(v[k]));
    return found;
}

/* dx with A dx = r for a singular A (row-major, overwritten): Gaussian elimination with
 * complete pivoting until the pivots vanish; the unknowns left without one keep dx = 0, the
 * equations left over must hold (|r| small). `y` and `order` hold n values each. */
static bool solve_singular(size_t n, double *a, double *r, double *dx, double *y, size_t *order, double scale) {
    const double tiny = RANK_TOLERANCE * largest(n * n, a);
    for (size_t j = 0; j < n; j++) order[j] = j; /* column k holds unknown order[k] */
    size_t rank = 0;
    for (; rank < n; rank++) {
        size_t row = rank, column = rank;
        double best = 0.0;
        for (size_t i = rank; i < n; i++)
            for (size_t j = rank; j < n; j++)
                if (fabs(a[i * n + j]) > best) best = fabs(a[i * n + j]), row = i, column = j;
        if (!(best > tiny)) break;
        for (size_t j = 0; j < n; j++) { /* rows rank <-> row */
            const double t = a[rank * n + j];
            a[rank * n + j] = a[row * n + j], a[row * n + j] = t;
        }
        const double t = r[rank];
        r[rank] = r[row], r[row] = t;
        for (size_t i = 0; i < n; i++) { /* columns rank <-> column */
            const double u = a[i * n + rank];
            a[i * n + rank] = a[i * n + column], a[i * n + column] = u;
        }
        const size_t o = order[rank];
        order[rank] = order[column], order[column] = o;
        for (size_t i = rank + 1; i < n; i++) {
            const double factor = a[i * n + rank] / a[rank * n + rank];
            if (factor == 0.0) continue;
            for (size_t j = rank; j < n; j++) a[i * n + j] -= factor * a[rank * n + j];
            r[i] -= factor * r[rank];
        }
    }
    for (size_t i = rank; i < n; i++)
        if (!(fabs(r[i]) <= CONSISTENCY_TOLERANCE * scale)) return false;
    for (size_t k = rank; k < n; k++) y[k] = 0.0;
    for (size_t k = rank; k-- > 0;) {
        double sum = r[k];
        for (size_t j = k + 1; j < rank; j++) sum -= a[k * n + j] * y[j];
        y[k] = sum / a[k * n + k];
    }
    for (size_t k = 0; k < n; k++) dx[order[k]] = y[k];
    return true;
}

Status solve_linear_near(ModelData *m, size_t n, double *a, double *b, const double *x0, size_t *pivot,
                         const char *description) {
    double *copy = malloc((n * n + 3 * n) * sizeof(double));
    if (!copy) {
        model_log(m, StatusFatal, "logStatusFatal", "out of memory for %s", description);
        return StatusFatal;
    }
    memcpy(copy, a, n * n * sizeof(double));
    double *r = copy + n * n, *dx = r + n, *y = dx + n;
    memcpy(r, b, n * sizeof(double));
    if (!dense_lu_factor(n, a, pivot)) {
        dense_lu_solve(n, a, pivot, b);
        free(copy);
        return StatusOK;
    }
    /* r = b - A x0, the change dx from the guess solves A dx = r */
    const double scale = 1.0 + largest(n, b) + largest(n * n, copy) * largest(n, x0);
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++) r[i] -= copy[i * n + j] * x0[j];
    const bool solved = solve_singular(n, copy, r, dx, y, pivot, scale);
    if (solved)
        for (size_t j = 0; j < n; j++) b[j] = x0[j] + dx[j];
    free(copy);
    if (solved) return StatusOK;
    const Status status = failure(m);
    model_log(m, status, "logSingularLinearSystems",
              "singular linear system (its equations contradict each other) in %s at t = %.17g",
              description, m->time);
    return status;
}

/* Newton's constants, as in compiler/interp/solvers.py */
#define NEWTON_TOLERANCE 1e-12    /* relative step size at which Newton stops */
#define NEWTON_MAX_ITERATIONS 100
#define MIN_DAMPING 1e-6          /* smallest fraction of a Newton step the line search tries */
/* A step the line search had to cut converges when its full length is within
 * CUT_STEP_SCALE^-1 NEWTON_TOLERANCE = 1e-9 relative: at residuals at rounding level no
 * direction improves them, yet a full step of 5 % is no solution. */
#define CUT_STEP_SCALE 1e-3
#define RESIDUAL_TOLERANCE 1e-10  /* an unconverged iteration still counts with residuals this small */
#define DIFFERENCE_STEP 1e-7
/* A scalar loop's search for a sign change: distances from x, relative to 1 + |x| */
#define BRACKET_FIRST 1e-6
#define BRACKET_LAST 1e12
#define BISECTIONS 200

static double max_norm(size_t n, const double *v) {
    double norm = 0.0;
    for (size_t k = 0; k < n; k++) {
        if (!(fabs(v[k]) <= norm)) norm = fabs(v[k]); /* NaN propagates */
    }
    return norm;
}

/* r(x) and its max-norm; a failed or non-finite evaluation counts as an infinite norm when
 * `trial` (the line search then shortens the step), and as an error otherwise. */
static Status residual_norm(ModelData *m, const NewtonSystem *system, const double *x, double *r,
                            bool trial, double *norm) {
    const Status status = system->residual(m, x, r);
    *norm = status > StatusWarning ? INFINITY : max_norm(system->n, r);
    if (isnan(*norm)) *norm = INFINITY;
    return trial || status <= StatusWarning ? StatusOK : status;
}

/* Forward differences of r at x (r holds r(x)), or central ones when back_r (n doubles) is
 * given; leaves the model at x again. */
static Status differences(ModelData *m, const NewtonSystem *system, double *x, const double *r,
                          double *shifted_r, double *back_r, double *jacobian) {
    const size_t n = system->n;
    double norm;
    for (size_t j = 0; j < n; j++) {
        const double saved = x[j];
        const double h = DIFFERENCE_STEP * fmax(1.0, fabs(saved));
        x[j] = saved + h;
        CHECK(residual_norm(m, system, x, shifted_r, false, &norm));
        if (back_r) {
            x[j] = saved - h;
            CHECK(residual_norm(m, system, x, back_r, false, &norm));
            for (size_t i = 0; i < n; i++) jacobian[i * n + j] = (shifted_r[i] - back_r[i]) / (2.0 * h);
        } else {
            for (size_t i = 0; i < n; i++) jacobian[i * n + j] = (shifted_r[i] - r[i]) / h;
        }
        x[j] = saved;
    }
    return residual_norm(m, system, x, shifted_r, false, &norm);
}

static Status newton_failure(ModelData *m, const NewtonSystem *system, const char *why, double norm) {
    const Status status = failure(m);
    model_log(m, status, "logNonlinearSystems", "Newton iteration %s in %s at t = %.17g (residual %.3g)",
              why, system->description, m->time, norm);
    return status;
}

static bool converged(size_t n, const double *x, const double *step, double factor) {
    for (size_t k = 0; k < n; k++)
        if (!(fabs(factor * step[k]) <= NEWTON_TOLERANCE * (1.0 + fabs(x[k])))) return false;
    return true;
}

static bool small_residual(size_t n, const double *x, double norm) {
    return norm <= RESIDUAL_TOLERANCE * (1.0 + max_norm(n, x));
}

/* How Newton's iteration ended, when no evaluation failed */
typedef enum { NewtonConverged, NewtonStalled, NewtonSingular } NewtonEnd;

/* Newton's iteration from x; *norm ends as the residual norm at x. Returns the failure of an
 * evaluation, else StatusOK with *end telling whether it converged. `central`: the Jacobian
 * by central differences (where the system has no Jacobian of its own). */
/* Row weights of the residuals for the line search: 1 / max_j |J_ij| w_j, with w_j = |x_j|
 * (1 where x_j = 0), so that each residual counts by how much its variables move it. An
 * equation in 1/tau with tau ~ 1e-5 (a lightning impulse's time constants) otherwise
 * outweighs the others by 1e5 and the line search accepts only steps that serve it. */
static void residual_weights(size_t n, const double *jacobian, const double *x, double *weight) {
    for (size_t i = 0; i < n; i++) {
        double largest = 0.0;
        for (size_t j = 0; j < n; j++)
            largest = fmax(largest, fabs(jacobian[i * n + j]) * (x[j] != 0.0 ? fabs(x[j]) : 1.0));
        weight[i] = largest > 0.0 && isfinite(largest) ? 1.0 / largest : 1.0;
    }
}

static double weighted_norm(size_t n, const double *r, const double *weight) {
    double norm = 0.0;
    for (size_t k = 0; k < n; k++) {
        const double value = fabs(r[k]) * weight[k];
        if (!(value <= norm)) norm = value; /* NaN propagates */
    }
    return isnan(norm) ? INFINITY : norm;
}

static Status newton_iterate(ModelData *m, const NewtonSystem *system, double *x, double *work,
                             size_t *pivot, double *norm, NewtonEnd *end, bool central) {
    const size_t n = system->n;
    double *r = work, *step = work + n, *trial = work + 2 * n, *r_trial = work + 3 * n;
    double *weight = work + 4 * n, *back = work + 5 * n, *jacobian = work + 7 * n;
    double norm_trial = 0.0;
    bool singular = false;   /* whether a step came from a singular Jacobian */
    *end = NewtonConverged;
    CHECK(residual_norm(m, system, x, r, false, norm));
    for (int iteration = 0; iteration < NEWTON_MAX_ITERATIONS; iteration++) {
        if (*norm == 0.0) return StatusOK;
        CHECK(system->jacobian ? system->jacobian(m, jacobian)
                               : differences(m, system, x, r, r_trial, central ? back : NULL,
                                             jacobian));
        residual_weights(n, jacobian, x, weight);
        if (dense_lu_factor(n, jacobian, pivot)) {
            /* a singular Jacobian whose equations agree (a pipe between two closed tank ports
             * fixes the difference of its end pressures, not their level): the step that
             * leaves the undetermined unknowns where they are */
            CHECK(system->jacobian ? system->jacobian(m, jacobian)
                                   : differences(m, system, x, r, r_trial, central ? back : NULL, jacobian));
            for (size_t k = 0; k < n; k++) trial[k] = -r[k];
            const double scale = 1.0 + largest(n, r) + largest(n * n, jacobian) * largest(n, x);
            if (!solve_singular(n, jacobian, trial, step, r_trial, pivot, scale)) {
                *end = NewtonSingular;
                return StatusOK;
            }
            singular = true;
        } else {
            for (size_t k = 0; k < n; k++) step[k] = -r[k];
            dense_lu_solve(n, jacobian, pivot, step);
        }
        const double merit = weighted_norm(n, r, weight);
        double factor = 1.0;
        bool improved = false;
        for (;;) {
            for (size_t k = 0; k < n; k++) trial[k] = x[k] + factor * step[k];
            CHECK(residual_norm(m, system, trial, r_trial, true, &norm_trial));
            if (isfinite(norm_trial) && weighted_norm(n, r_trial, weight) < merit) {
                improved = true;
                break;
            }
            if (factor < MIN_DAMPING) break;
            factor *= 0.5;
        }
        if (!isfinite(norm_trial)) break;
        memcpy(x, trial, n * sizeof(double));
        memcpy(r, r_trial, n * sizeof(double));
        *norm = norm_trial;
        /* A step the line search cut to a millionth is small without x being near a solution:
         * then only a full step this small converges (it returned a pressure loop's values 5 %
         * off its solution as converged); the iteration goes on from there. A scalar loop
         * keeps its point there: where its branch vanishes, the integrator's step control
         * finds the jump to the next one (bracket_root) from it. After steps of a singular
         * Jacobian, whose left-over equations hold only within the consistency tolerance, a
         * small step counts only with a small residual. */
        const bool cut = !improved && n > 1;
        if (converged(n, x, step, cut ? CUT_STEP_SCALE : factor) && (!singular || small_residual(n, x, *norm)))
            return StatusOK;
    }
    if (!isfinite(norm_trial)) CHECK(residual_norm(m, system, x, r, false, norm)); /* back to x */
    if (!small_residual(n, x, *norm)) *end = singular ? NewtonSingular : NewtonStalled;
    return StatusOK;
}

/* r(x) of a scalar loop, NaN where it cannot be evaluated. */
static double scalar_residual(ModelData *m, const NewtonSystem *system, double x) {
    double r, norm;
    if (residual_norm(m, system, &x, &r, true, &norm) != StatusOK || !isfinite(norm)) return NAN;
    return r;
}

static bool opposite(double a, double b) { return (a < 0.0 && b > 0.0) || (a > 0.0 && b < 0.0); }

/* A scalar loop whose Newton iteration stalls where |r| has a local minimum that is no root
 * (a Schmitt trigger's saturating amplifier: when the input passes the threshold, the root
 * moves to the other saturated branch, behind a steep stretch): look for a sign change of r
 * at distances from x that double on either side, the nearest first, and narrow it down by
 * bisection. Sets *x to a point within the tolerance of the sign change; false if none. */
static bool bracket_root(ModelData *m, const NewtonSystem *system, double *x) {
    const double r_x = scalar_residual(m, system, *x);
    if (!isfinite(r_x)) return false;
    if (r_x == 0.0) return true;
    double a = *x, r_a = r_x, b = *x;
    bool found = false;
    for (double d = BRACKET_FIRST * (1.0 + fabs(*x)); !found && d < BRACKET_LAST * (1.0 + fabs(*x)); d *= 2.0) {
        for (int side = 0; side < 2 && !found; side++) {
            b = *x + (side ? -d : d);
            const double r_b = scalar_residual(m, system, b);
            found = isfinite(r_b) && (r_b == 0.0 || opposite(r_x, r_b));
        }
    }
    if (!found) return false;
    for (int k = 0; k < BISECTIONS && fabs(b - a) > NEWTON_TOLERANCE * (1.0 + fabs(a)); k++) {
        const double middle = 0.5 * (a + b), r_middle = scalar_residual(m, system, middle);
        if (!isfinite(r_middle)) return false;
        if (r_middle == 0.0) {
            a = b = middle;
        } else if (opposite(r_a, r_middle)) {
            b = middle;
        } else {
            a = middle, r_a = r_middle;
        }
    }
    *x = 0.5 * (a + b);
    return true;
}

/* Newton again from the guess `start`, with central differences: their error is of second
 * order in the step where that of forward ones is of first. A loop through a pipe's friction
 * law (the mass flow rate of a pressure difference of a few Pa, between pressures of 1e5 Pa)
 * is so curved at the step's scale that the forward-difference Jacobian sends Newton astray
 * when the guess is far, as after an event (a tank's level passing a port). Returns StatusOK
 * with x the solution, or StatusOK with *solved false and x, the model and *norm back at the
 * point the first iteration ended at (`failed`). */
static Status newton_central(ModelData *m, const NewtonSystem *system, double *x, double *work,
                             size_t *pivot, double *norm, bool *solved) {
    const size_t n = system->n;
    double *start = work + 6 * n, central_norm;
    NewtonEnd end;
    for (size_t k = 0; k < n; k++) { /* x <-> start: x from the guess, start keeps the end */
        const double t = x[k];
        x[k] = start[k], start[k] = t;
    }
    CHECK(newton_iterate(m, system, x, work, pivot, &central_norm, &end, true));
    *solved = end == NewtonConverged;
    if (*solved) return StatusOK;
    memcpy(x, start, n * sizeof(double));
    return residual_norm(m, system, x, work, false, norm);
}

Status solve_newton(ModelData *m, const NewtonSystem *system, double *x, double *work, size_t *pivot) {
    double norm;
    NewtonEnd end;
    memcpy(work + 6 * system->n, x, system->n * sizeof(double)); /* the guess, for a retry */
    CHECK(newton_iterate(m, system, x, work, pivot, &norm, &end, false));
    if (end == NewtonConverged) return StatusOK;
    if (system->n == 1) {
        /* Newton again from the sign change: it converges there, or the change is a jump */
        double polished = x[0], polished_norm;
        NewtonEnd polished_end = NewtonStalled;
        if (bracket_root(m, system, &polished))
            CHECK(newton_iterate(m, system, &polished, work, pivot, &polished_norm, &polished_end, false));
        if (polished_end == NewtonConverged) {
            x[0] = polished;
            return StatusOK;
        }
        CHECK(residual_norm(m, system, x, work, false, &norm)); /* the model back at x */
    }
    if (!system->jacobian && system->n > 1) {
        bool solved;
        CHECK(newton_central(m, system, x, work, pivot, &norm, &solved));
        if (solved) return StatusOK;
    }
    return newton_failure(m, system, end == NewtonSingular ? "met a singular Jacobian" : "did not converge", norm);
}
