/*
 * model_support.h -- services for model code that the compiler generates (hand-written
 * models may use them too): Modelica's built-in functions with Modelica's semantics,
 * relations with hysteresis, sample instants, and the solvers of algebraic loops.
 *
 * The semantics follow compiler/symbolic/evaluate.py, the reference interpreter's table of
 * Modelica built-ins; the solvers follow compiler/interp/solvers.py, so that a compiled FMU
 * and the interpreter agree.
 */
#ifndef COSIM_MODEL_SUPPORT_H
#define COSIM_MODEL_SUPPORT_H

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dense_lu.h"
#include "model.h"

/* Return from the calling function if `call` yields an error (Discard or worse). */
#define CHECK(call)                                      \
    do {                                                 \
        const Status check_status_ = (call);             \
        if (check_status_ > StatusWarning) return check_status_; \
    } while (0)

/* Generated code splits long sequences into functions that must stay apart: gcc's time grows
 * faster than linearly with the length of a function. */
#if defined(__GNUC__)
#define NOINLINE __attribute__((noinline))
#else
#define NOINLINE
#endif

/* ---- Modelica built-ins ---- */

/* div(x, y): the quotient truncated toward zero; mod: x - floor(x/y)*y; rem: x - div(x,y)*y */
static inline double modelica_div(double x, double y) { return trunc(x / y); }
static inline double modelica_mod(double x, double y) { return x - floor(x / y) * y; }
static inline double modelica_rem(double x, double y) { return x - trunc(x / y) * y; }
static inline double modelica_sign(double x) { return x > 0.0 ? 1.0 : x < 0.0 ? -1.0 : 0.0; }
static inline int32_t modelica_integer(double x) { return (int32_t)floor(x); }

static inline int32_t integer_div(int32_t x, int32_t y) { return x / y; }
static inline int32_t integer_mod(int32_t x, int32_t y) {
    const int32_t r = x % y;
    return r != 0 && ((r < 0) != (y < 0)) ? r + y : r;
}
static inline int32_t integer_rem(int32_t x, int32_t y) { return x % y; }
static inline int32_t integer_sign(int32_t x) { return (x > 0) - (x < 0); }
static inline int32_t integer_abs(int32_t x) { return x < 0 ? -x : x; }
static inline int32_t integer_min(int32_t x, int32_t y) { return x < y ? x : y; }
static inline int32_t integer_max(int32_t x, int32_t y) { return x > y ? x : y; }
/* Integer ^ Integer with a non-negative exponent */
static inline int32_t integer_power(int32_t base, int32_t exponent) {
    int32_t result = 1;
    for (int32_t k = 0; k < exponent; k++) result *= base;
    return result;
}

/* ---- relations that fire events (the hysteresis rule of model.h) ----
 * d > 0 is the relation, `latch` its value between events, eps its band. */
static inline double relation_indicator(bool latch, double d, double eps) {
    return latch ? d + eps : d - eps;
}
static inline bool relation_update(bool latch, double d, double eps) {
    return latch ? d > -eps : d >= eps;
}

/* ---- sample(start, interval): ticks at start + k interval, k = 0, 1, ... ---- */

/* relative tolerance within which a time is a tick */
#define SAMPLE_TOLERANCE 1e-9
/* The first tick after t (a tick within the tolerance of t counts as passed). */
double sample_next(double t, double start, double interval);
/* A sample fires once per tick: in the event iterations of the first event at that instant
 * (a state event right after a time event at the tick does not fire it again). `fired` is
 * the number k of the tick it fired last (-1: none), which sample_fired gives after an event
 * iteration that settled; a time is a tick within SAMPLE_TOLERANCE. */
bool sample_fires(double t, double start, double interval, double fired);
double sample_fired(double t, double start, double interval, double fired);

/* `next`, or `instant` where that comes earlier and after t (within the tolerance: passed). */
double instant_next(double t, double instant, double next);

/* ---- delay(expr, delayTime, delayMax) ---- */

/* Records of a delay history closer in time than this (relative to the times involved) are
 * at one instant: time + delayTime - delayTime may differ from time by a rounding error. */
#define DELAY_TIME_RESOLUTION 1e-13
/* Record j of a history (0: the oldest), and the number of records before s: the index of
 * the first record at s or later (with `strictly`, the first later than s). */
static inline double history_time(const DelayHistory *h, size_t j) {
    return h->time[(h->first + j) % h->capacity];
}
static inline double history_value(const DelayHistory *h, size_t j) {
    return h->value[(h->first + j) % h->capacity];
}
size_t history_search(const DelayHistory *h, double s, bool strictly);

/* The value delay() number k recorded for the time `at` (time - delayTime), interpolated by
 * the monotone cubic (PCHIP) between the records around `at` (linearly next to a jump: two
 * records at one instant); before the first record the first, after the last the last. At
 * an event's instant the value before the event, or after it in event mode and once the
 * event iteration at this time has settled. */
double delay_value(const ModelData *m, size_t k, double at);

/* ---- spatialDistribution(in0, in1, x, positiveVelocity, initialPoints, initialValues) ---- */

/* End `end` (0: out0 at y = 0, 1: out1 at y = 1) of spatialDistribution() number k, with its
 * current inputs: the entering end is its input (in0 while positive, else in1); the leaving
 * end interpolates linearly between the recorded profile (model.h, DelayHistory) and the
 * current entering end, (x, in0) or (x - 1, in1), beyond the last point the last point's
 * value; where a jump (two points at one place) is at the end, its value outside. */
double spatial_value(const ModelData *m, size_t k, int end, double in0, double in1, double x,
                     bool positive);

/* ---- algebraic loops ----
 * The solvers log a failure naming the loop (`description`, e.g. "the nonlinear system for y
 * (Pendulum.mo:16:3)") and return StatusDiscard between events (the integrator then tries a
 * smaller step) and StatusError at events and during initialization. */

/* Solve A x = b (A row-major n x n, overwritten by its factors; b becomes x). */
Status solve_linear(ModelData *m, size_t n, double *a, double *b, size_t *pivot,
                    const char *description);
/* solve_linear for a loop whose unknowns hold a guess x0 (their values so far). A singular
 * system whose equations agree (semiLinear(0, a, b) leaves the enthalpies at a port free
 * while nothing flows) keeps the unknowns it leaves free at their guesses and solves for
 * the others; one whose equations contradict each other is an error as before. */
Status solve_linear_near(ModelData *m, size_t n, double *a, double *b, const double *x0, size_t *pivot,
                         const char *description);
/* Factor A for several solves with dense_lu_solve (dense_lu.h). */
Status factor_linear(ModelData *m, size_t n, double *a, size_t *pivot, const char *description);

/* The loop's residuals r(x), computed after writing x into the model's variables. */
typedef Status (*NewtonResidual)(ModelData *m, const double *x, double *r);
/* d r / d x, row-major n x n, at the point of the last residual call. */
typedef Status (*NewtonJacobian)(ModelData *m, double *jacobian);

typedef struct {
    size_t n;
    NewtonResidual residual;
    NewtonJacobian jacobian;   /* NULL: forward differences */
    const char *description;
} NewtonSystem;

/* Newton's method with step halving from the guess x, which ends as the solution; on
 * success the model's variables hold the solution. `work` holds 7 n + n n doubles. */
#define NEWTON_WORK_SIZE(n) (7 * (n) + (n) * (n))
Status solve_newton(ModelData *m, const NewtonSystem *system, double *x, double *work,
                    size_t *pivot);

#endif /* COSIM_MODEL_SUPPORT_H */
