/*
 * delays.c -- recording delay() histories (see delays.h).
 */
#define COSIM_RUNTIME_SOURCE /* model.h: sizes read at run time (MODEL), no config.h */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "delays.h"
#include "model_support.h"

static size_t position(const DelayHistory *h, size_t j) { return (h->first + j) % h->capacity; }
static double time_of(const DelayHistory *h, size_t j) { return h->time[position(h, j)]; }
static double value_of(const DelayHistory *h, size_t j) { return h->value[position(h, j)]; }

bool delays_reserve(DelayHistory *h, size_t n) {
    if (n <= h->capacity) return true;
    size_t capacity = h->capacity ? h->capacity : 64;
    while (capacity < n) capacity *= 2;
    double *times = malloc(capacity * sizeof(double));
    double *values = malloc(capacity * sizeof(double));
    if (!times || !values) {
        free(times);
        free(values);
        return false;
    }
    for (size_t j = 0; j < h->count; j++) { /* unrolled: the oldest first */
        times[j] = time_of(h, j);
        values[j] = value_of(h, j);
    }
    free(h->time);
    free(h->value);
    h->time = times;
    h->value = values;
    h->capacity = capacity;
    h->first = 0;
    return true;
}

static bool append(DelayHistory *h, double t, double v) {
    if (!delays_reserve(h, h->count + 1)) return false;
    const size_t at = position(h, h->count);
    h->time[at] = t;
    h->value[at] = v;
    h->count++;
    return true;
}

/* Add (t, v): an equal last record is kept, a third record at one instant replaces the
 * second (the value after the event), records after t are dropped (time went back), and
 * records older than needed for t - delay_max are forgotten. */
static bool push(DelayHistory *h, double t, double v, double delay_max) {
    while (h->count > 0 && time_of(h, h->count - 1) > t) h->count--;
    if (h->count > 0 && time_of(h, h->count - 1) == t) {
        const size_t last = h->count - 1;
        if (value_of(h, last) == v) return true;
        if (last > 0 && time_of(h, last - 1) == t) {
            h->value[position(h, last)] = v;
            return true;
        }
    }
    if (!append(h, t, v)) return false;
    while (h->count > 1 && time_of(h, 1) <= t - delay_max) {
        h->first = (h->first + 1) % h->capacity;
        h->count--;
    }
    return true;
}

/* What the delayed expressions are at one time: n_delays() values each, in storage that
 * DELAY_POINT declares where the point lives. */
typedef struct {
    double t, *value, *delay_time, *delay_max;
} DelayPoint;

#define DELAY_POINT(name)                                   \
    double name##_storage_[3 * ARRAY_SIZE(n_delays())];     \
    DelayPoint name = {0.0, name##_storage_, name##_storage_ + n_delays(), name##_storage_ + 2 * n_delays()}

/* The delayed expressions at the model's current time and states (computing the values). */
static Status evaluate(ModelInstance *comp, DelayPoint *p) {
    p->t = comp->data.time;
    const Status status = instance_refresh(comp, true);
    if (status > StatusWarning) return status;
    const Status computed = model_delays(&comp->data, p->value, p->delay_time, p->delay_max);
    return computed > status ? computed : status;
}

static Status store(ModelInstance *comp, const DelayPoint *p) {
    for (size_t k = 0; k < n_delays(); k++) {
        if (!(p->delay_time[k] >= 0.0 && p->delay_time[k] <= p->delay_max[k])) {
            instance_log(comp, StatusError, LogStatusError,
                         "%s: the delay time %.17g is not within [0, %.17g] (the maximum delay "
                         "time) at t = %.17g",
                         MODEL_DELAY_NAMES[k], p->delay_time[k], p->delay_max[k], p->t);
            return StatusError;
        }
        DelayHistory *h = &comp->data.delays[k];
        h->delay_time = p->delay_time[k];
        h->delay_max = p->delay_max[k];
        if (!push(h, p->t, p->value[k], p->delay_max[k])) {
            instance_log(comp, StatusFatal, LogStatusFatal, "out of memory for the history of %s",
                         MODEL_DELAY_NAMES[k]);
            return StatusFatal;
        }
    }
    return StatusOK;
}

Status delays_record(ModelInstance *comp) {
    if (n_delays() == 0) return StatusOK;
    DELAY_POINT(p);
    const Status status = evaluate(comp, &p);
    if (status > StatusWarning) return status;
    const Status stored = store(comp, &p);
    return stored > status ? stored : status;
}

static Status evaluate_at(ModelInstance *comp, DelayPlacer place, double t, DelayPoint *p) {
    place(comp, t);
    comp->values_dirty = true;
    return evaluate(comp, p);
}

/* Whether the line from a to b meets m within `tolerance` of their size, for every
 * expression (the monotone cubics lookups use are then closer still). */
static bool resolved(const DelayPoint *a, const DelayPoint *m, const DelayPoint *b, double tolerance) {
    for (size_t k = 0; k < n_delays(); k++) {
        const double size = fmax(fabs(m->value[k]), fmax(fabs(a->value[k]), fabs(b->value[k])));
        if (fabs(m->value[k] - 0.5 * (a->value[k] + b->value[k])) > tolerance * size) return false;
    }
    return true;
}

/* Record the middle of (a, b), after the records its left half needs and before those of its
 * right half, halving where the line between the ends does not meet the middle. */
static Status halves(ModelInstance *comp, DelayPlacer place, const DelayPoint *a,
                     const DelayPoint *b, int depth) {
    DELAY_POINT(m);
    Status status = evaluate_at(comp, place, 0.5 * (a->t + b->t), &m);
    if (status > StatusWarning) return status;
    const bool fine = depth >= DELAY_RECORD_DEPTH || resolved(a, &m, b, sqrt(comp->tolerance));
    if (!fine) status = halves(comp, place, a, &m, depth + 1);
    if (status <= StatusWarning) status = store(comp, &m);
    if (status <= StatusWarning && !fine) status = halves(comp, place, &m, b, depth + 1);
    return status;
}

Status delays_record_between(ModelInstance *comp, double t_old, double t_end, DelayPlacer place) {
    if (n_delays() == 0) return StatusOK;
    DELAY_POINT(a);
    DELAY_POINT(b);
    Status status = evaluate_at(comp, place, t_old, &a);
    if (status <= StatusWarning) status = evaluate_at(comp, place, t_end, &b);
    if (status <= StatusWarning) status = halves(comp, place, &a, &b, 0);
    return status;
}

Status delays_after_event(ModelInstance *comp, bool horizon) {
    if (n_delays() == 0) return StatusOK;
    ModelData *m = &comp->data;
    const bool event_mode = m->event_mode;
    m->event_mode = true;
    comp->values_dirty = true;
    const Status status = delays_record(comp);
    for (size_t k = 0; k < n_delays(); k++) m->delays[k].settled = m->time;
    m->event_mode = event_mode;
    comp->values_dirty = true;
    double next;
    if (status <= StatusWarning && delays_next_event(comp, horizon, &next)
        && (!comp->next_event_time_defined || next < comp->next_event_time)) {
        comp->next_event_time_defined = true;
        comp->next_event_time = next;
    }
    return status;
}

/* The earliest jump of history h (a pair of records at one instant) that reappears after
 * `now`, searched from the newest record back to now - delay time. */
static double next_jump(const DelayHistory *h, double now) {
    const double delay = h->delay_time;
    double earliest = INFINITY;
    for (size_t j = h->count; j-- > 1;) {
        const double t = time_of(h, j);
        const double resolution = DELAY_TIME_RESOLUTION * fmax(fabs(now), fabs(t));
        if (t + delay <= now + resolution) break;
        if (t - time_of(h, j - 1) <= resolution) earliest = t + delay;
    }
    return earliest;
}

bool delays_next_event(const ModelInstance *comp, bool horizon, double *next) {
    const ModelData *m = &comp->data;
    double earliest = INFINITY;
    for (size_t k = 0; k < n_delays(); k++) {
        const DelayHistory *h = &m->delays[k];
        if (!(h->delay_time > 0.0)) continue;
        earliest = fmin(earliest, next_jump(h, m->time));
        if (horizon && !MODEL_DELAY_DISCRETE[k]) earliest = fmin(earliest, m->time + h->delay_time);
    }
    *next = earliest;
    return isfinite(earliest);
}

double delays_horizon(const ModelInstance *comp) {
    const ModelData *m = &comp->data;
    double shortest = INFINITY;
    for (size_t k = 0; k < n_delays(); k++)
        if (!MODEL_DELAY_DISCRETE[k] && m->delays[k].delay_time > 0.0)
            shortest = fmin(shortest, m->delays[k].delay_time);
    return m->time + shortest;
}

void delays_clear(ModelInstance *comp) {
    for (size_t k = 0; k < n_delays(); k++) {
        comp->data.delays[k].count = 0;
        comp->data.delays[k].settled = -INFINITY;
    }
}

void delays_free(ModelInstance *comp) {
    for (size_t k = 0; k < n_delays(); k++) {
        DelayHistory *h = &comp->data.delays[k];
        free(h->time);
        free(h->value);
        memset(h, 0, sizeof *h);
    }
}
