/*
 * delays.c -- recording delay() histories and spatialDistribution() profiles (see delays.h).
 */
#define COSIM_RUNTIME_SOURCE /* model.h: sizes read at run time (MODEL), no config.h */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "delays.h"
#include "model_support.h"

static size_t position(const DelayHistory *h, size_t j) { return (h->first + j) % h->capacity; }

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
        times[j] = history_time(h, j);
        values[j] = history_value(h, j);
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
    while (h->count > 0 && history_time(h, h->count - 1) > t) h->count--;
    if (h->count > 0 && history_time(h, h->count - 1) == t) {
        const size_t last = h->count - 1;
        if (history_value(h, last) == v) return true;
        if (last > 0 && history_time(h, last - 1) == t) {
            h->value[position(h, last)] = v;
            return true;
        }
    }
    if (!append(h, t, v)) return false;
    while (h->count > 1 && history_time(h, 1) <= t - delay_max) {
        h->first = (h->first + 1) % h->capacity;
        h->count--;
    }
    return true;
}

/* ---- spatialDistribution() profiles: a history whose times are places s, kept over
 * [x - 1, x] (model.h), the entering end added at x (in0) or at x - 1 (in1) ---- */

static bool prepend(DelayHistory *h, double s, double v) {
    if (!delays_reserve(h, h->count + 1)) return false;
    h->first = (h->first + h->capacity - 1) % h->capacity;
    h->time[h->first] = s;
    h->value[h->first] = v;
    h->count++;
    return true;
}

/* The profile's value at s between points j - 1 and j (0 < j < count). */
static double between(const DelayHistory *h, size_t j, double s) {
    const double s0 = history_time(h, j - 1), v0 = history_value(h, j - 1);
    return v0 + (history_value(h, j) - v0) * (s - s0) / (history_time(h, j) - s0);
}

/* Add in0 entering at s = x. Where the profile reaches beyond x (x went back: the velocity
 * reversed), its value at x stays, as a point there, and the points beyond are dropped; then
 * as push adds (max_age 1: the profile covers [x - 1, x]). */
static bool push_high(DelayHistory *h, double s, double v) {
    const size_t j = history_search(h, s, true);
    if (j < h->count) {
        const bool inside = j > 0 && history_time(h, j - 1) == s;
        const double kept = j == 0 ? history_value(h, 0) : between(h, j, s);
        h->count = j;
        if (!inside && !append(h, s, kept)) return false;
    }
    return push(h, s, v, 1.0);
}

/* Add in1 entering at s = x - 1: push_high mirrored (points below s dropped, one kept at s
 * with the profile's value there; beyond x dropped but the one just beyond). */
static bool push_low(DelayHistory *h, double s, double v) {
    const size_t j = history_search(h, s, false);
    if (j > 0) {
        const bool inside = j < h->count && history_time(h, j) == s;
        const double kept = j == h->count ? history_value(h, h->count - 1) : between(h, j, s);
        h->first = (h->first + j) % h->capacity;
        h->count -= j;
        if (!inside && !prepend(h, s, kept)) return false;
    }
    if (h->count > 0 && history_time(h, 0) == s) {
        if (history_value(h, 0) == v) return true;
        if (h->count > 1 && history_time(h, 1) == s) {
            h->value[h->first] = v;
            return true;
        }
    }
    if (!prepend(h, s, v)) return false;
    while (h->count > 1 && history_time(h, h->count - 2) >= s + 1.0) h->count--;
    return true;
}

/* The initial profile of spatialDistribution() k placed at x: y = p at s = x - p, so the
 * points in reverse order (a point given twice is a jump, kept as two). */
static Status place_profile(ModelInstance *comp, size_t k, double x) {
    const size_t n = MODEL_SPATIAL_POINTS[k];
    double points[n], values[n];
    const Status status = model_spatial_profile(&comp->data, k, points, values);
    if (status > StatusWarning) return status;
    DelayHistory *h = &comp->data.profiles[k];
    if (!delays_reserve(h, n)) return StatusFatal;
    h->first = 0;
    h->count = n;
    for (size_t j = 0; j < n; j++) {
        h->time[j] = x - points[n - 1 - j];
        h->value[j] = values[n - 1 - j];
    }
    return status;
}

/* What the delayed expressions and the inputs of the spatialDistribution() operators are at
 * one time: n_delays() and n_spatials() values each, in storage that DELAY_POINT declares
 * where the point lives. */
typedef struct {
    double t, *value, *delay_time, *delay_max;
    double *in0, *in1, *x, *positive;
} DelayPoint;

#define DELAY_POINT(name)                                                                        \
    double name##_storage_[3 * ARRAY_SIZE(n_delays()) + 4 * ARRAY_SIZE(n_spatials())];          \
    DelayPoint name = {0.0, name##_storage_, name##_storage_ + n_delays(),                       \
                       name##_storage_ + 2 * n_delays(), name##_storage_ + 3 * n_delays(),       \
                       name##_storage_ + 3 * n_delays() + n_spatials(),                          \
                       name##_storage_ + 3 * n_delays() + 2 * n_spatials(),                      \
                       name##_storage_ + 3 * n_delays() + 3 * n_spatials()}

/* Whether the model records anything (delays.h). */
static bool records(void) { return n_delays() > 0 || n_spatials() > 0; }

/* The delayed expressions at the model's current time and states (computing the values). */
static Status evaluate(ModelInstance *comp, DelayPoint *p) {
    p->t = comp->data.time;
    const Status status = instance_refresh(comp, true);
    if (status > StatusWarning) return status;
    Status computed = n_delays() > 0 ? model_delays(&comp->data, p->value, p->delay_time, p->delay_max) : StatusOK;
    if (computed <= StatusWarning && n_spatials() > 0) {
        const Status inputs = model_spatials(&comp->data, p->in0, p->in1, p->x, p->positive);
        if (inputs > computed) computed = inputs;
    }
    return computed > status ? computed : status;
}

/* Add each spatialDistribution()'s entering end of p to its profile. */
static Status store_profiles(ModelInstance *comp, const DelayPoint *p) {
    for (size_t k = 0; k < n_spatials(); k++) {
        DelayHistory *h = &comp->data.profiles[k];
        const bool ok = p->positive[k] != 0.0 ? push_high(h, p->x[k], p->in0[k])
                                              : push_low(h, p->x[k] - 1.0, p->in1[k]);
        if (!ok) {
            instance_log(comp, StatusFatal, LogStatusFatal, "out of memory for the profile of %s",
                         MODEL_SPATIAL_NAMES[k]);
            return StatusFatal;
        }
    }
    return StatusOK;
}

/* Place the initial profiles that are not yet, at the current x. The initialization computed
 * every variable; its values are read as they are, since the model's blocks read the
 * profiles. */
static Status start_profiles(ModelInstance *comp) {
    if (n_spatials() == 0 || comp->data.profiles[0].count > 0) return StatusOK;
    DELAY_POINT(p);
    Status status = model_spatials(&comp->data, p.in0, p.in1, p.x, p.positive);
    for (size_t k = 0; k < n_spatials() && status <= StatusWarning; k++) {
        const Status placed = place_profile(comp, k, p.x[k]);
        if (placed > status) status = placed;
    }
    if (status == StatusFatal) instance_log(comp, StatusFatal, LogStatusFatal, "out of memory for the profiles");
    return status;
}

static Status store(ModelInstance *comp, const DelayPoint *p) {
    const Status status = store_profiles(comp, p);
    if (status > StatusWarning) return status;
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
    if (!records()) return StatusOK;
    const Status started = start_profiles(comp);
    if (started > StatusWarning) return started;
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

/* Whether the line from a to b meets m within sqrt(tolerance) of their size, for every
 * delayed expression (the monotone cubics lookups use are then closer still), and within
 * `tolerance`, at m's place, for every entering end of a profile (read linearly). */
static bool resolved(const DelayPoint *a, const DelayPoint *m, const DelayPoint *b, double tolerance) {
    const double cubic = sqrt(tolerance);
    for (size_t k = 0; k < n_delays(); k++) {
        const double size = fmax(fabs(m->value[k]), fmax(fabs(a->value[k]), fabs(b->value[k])));
        if (fabs(m->value[k] - 0.5 * (a->value[k] + b->value[k])) > cubic * size) return false;
    }
    for (size_t k = 0; k < n_spatials(); k++) {
        const DelayPoint *ends[3] = {a, m, b};
        double s[3], v[3];
        for (int j = 0; j < 3; j++) {
            const bool positive = ends[j]->positive[k] != 0.0;
            s[j] = positive ? ends[j]->x[k] : ends[j]->x[k] - 1.0;
            v[j] = positive ? ends[j]->in0[k] : ends[j]->in1[k];
        }
        if (s[0] == s[2]) continue;
        const double size = fmax(fabs(v[1]), fmax(fabs(v[0]), fabs(v[2])));
        if (fabs(v[1] - (v[0] + (v[2] - v[0]) * (s[1] - s[0]) / (s[2] - s[0]))) > tolerance * size) return false;
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
    const bool fine = depth >= DELAY_RECORD_DEPTH || resolved(a, &m, b, comp->tolerance);
    if (!fine) status = halves(comp, place, a, &m, depth + 1);
    if (status <= StatusWarning) status = store(comp, &m);
    if (status <= StatusWarning && !fine) status = halves(comp, place, &m, b, depth + 1);
    return status;
}

Status delays_record_between(ModelInstance *comp, double t_old, double t_end, DelayPlacer place) {
    if (!records()) return StatusOK;
    DELAY_POINT(a);
    DELAY_POINT(b);
    Status status = evaluate_at(comp, place, t_old, &a);
    if (status <= StatusWarning) status = evaluate_at(comp, place, t_end, &b);
    if (status <= StatusWarning) status = halves(comp, place, &a, &b, 0);
    return status;
}

Status delays_after_event(ModelInstance *comp, bool horizon) {
    if (!records()) return StatusOK;
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
        const double t = history_time(h, j);
        const double resolution = DELAY_TIME_RESOLUTION * fmax(fabs(now), fabs(t));
        if (t + delay <= now + resolution) break;
        if (t - history_time(h, j - 1) <= resolution) earliest = t + delay;
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
    for (size_t k = 0; k < n_spatials(); k++) comp->data.profiles[k].count = 0;
}

static void release(DelayHistory *h) {
    free(h->time);
    free(h->value);
    memset(h, 0, sizeof *h);
}

void delays_free(ModelInstance *comp) {
    for (size_t k = 0; k < n_delays(); k++) release(&comp->data.delays[k]);
    for (size_t k = 0; k < n_spatials(); k++) release(&comp->data.profiles[k]);
}
