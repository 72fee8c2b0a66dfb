/*
 * events.c -- event iteration, and location of state events on the dense output.
 *
 * An indicator fires where it changes its domain between z > 0 and z <= 0 (FMI 3.0).
 * The earliest such time inside an integrator step is found with the Illinois variant of
 * regula falsi on the step's collocation polynomial: superlinear, and it never leaves the
 * bracket.
 */
#include <math.h>
#include <string.h>

#include "instance.h"

#define MAX_EVENT_ITERATIONS 100
/* event times are resolved to this fraction of max(1, |t|) */
#define EVENT_TIME_RESOLUTION 1e-13
#define MAX_LOCATION_ITERATIONS 200
/* events closer together than this (relative to max(1, |t|)) count as rapid; more than
 * MAX_RAPID_EVENTS in a row is chattering (a Zeno trajectory, or a model that keeps
 * switching), which no step size can resolve */
#define CHATTER_INTERVAL 1e-9
#define MAX_RAPID_EVENTS 20

Status event_update_once(ModelInstance *comp, EventUpdate *update) {
    ModelData *m = &comp->data;
    memcpy(m->pre_r, m->r, sizeof m->r);
    memcpy(m->pre_i, m->i, sizeof m->i);
    memcpy(m->pre_e, m->e, sizeof m->e);
    memcpy(m->pre_b, m->b, sizeof m->b);
    memset(update, 0, sizeof *update);
    const Status status = model_event_update(m, update);
    comp->next_event_time_defined = update->next_event_time_defined;
    comp->next_event_time = update->next_event_time;
    comp->values_dirty = true;
    return status;
}

Status event_iterate(ModelInstance *comp, bool *terminate, bool *states_changed) {
    ModelData *m = &comp->data;
    *terminate = false;
    *states_changed = false;
    m->event_mode = true;
    for (int iteration = 1; iteration <= MAX_EVENT_ITERATIONS; iteration++) {
        EventUpdate update;
        const Status status = event_update_once(comp, &update);
        if (status > StatusWarning) return status;
        *states_changed = *states_changed || update.state_values_changed;
        if (update.terminate_simulation) {
            *terminate = true;
            instance_log(comp, StatusOK, LogEvents, "terminate() at t = %.17g", m->time);
            break;
        }
        if (!update.discrete_states_need_update) {
            m->event_mode = false;
            m->initial_phase = false;
            return StatusOK;
        }
    }
    if (*terminate) {
        m->event_mode = false;
        return StatusOK;
    }
    instance_log(comp, StatusError, LogStatusError,
                 "event iteration at t = %.17g did not settle after %d iterations: discrete "
                 "variables keep changing",
                 m->time, MAX_EVENT_ITERATIONS);
    return StatusError;
}

Status event_indicators_at(ModelInstance *comp, double t, const double *x, double *z) {
    comp->data.time = t;
    instance_set_states(comp, x);
    comp->values_dirty = true;
    Status status = model_derivatives(&comp->data);
    if (status > StatusWarning) return status;
    const Status indicators = model_event_indicators(&comp->data, z);
    return indicators > status ? indicators : status;
}

bool event_domain_changed(const double *a, const double *b, size_t *which) {
    for (size_t k = 0; k < n_event_indicators(); k++) {
        if ((a[k] > 0.0) != (b[k] > 0.0)) {
            if (which) *which = k;
            return true;
        }
    }
    return false;
}

static void state_at(const ModelInstance *comp, double t, double *x) {
    if (N_STATES > 0) radau5_dense(&comp->radau, t, x);
}

/* Next trial time: the earliest regula-falsi root among the indicators that change in the
 * bracket; alpha weights the low end (Illinois). */
static double trial_time(double t_lo, const double *z_lo, double t_hi, const double *z_hi, double alpha) {
    double earliest = t_hi;
    for (size_t k = 0; k < n_event_indicators(); k++) {
        if ((z_lo[k] > 0.0) == (z_hi[k] > 0.0)) continue;
        const double denominator = z_hi[k] - alpha * z_lo[k];
        const double fraction = denominator != 0.0 ? z_hi[k] / denominator : 0.5;
        const double candidate = t_hi - (t_hi - t_lo) * fraction;
        if (candidate < earliest) earliest = candidate;
    }
    return earliest;
}

Status event_locate(ModelInstance *comp, double t_old, const double *z_old, double t_new,
                    const double *z_new, double *t_event, double *x, size_t *indicator) {
    double z_lo[ARRAY_SIZE(N_EVENT_INDICATORS)], z_hi[ARRAY_SIZE(N_EVENT_INDICATORS)];
    double *z_mid = comp->z_probe;
    memcpy(z_lo, z_old, sizeof z_lo);
    memcpy(z_hi, z_new, sizeof z_hi);
    double t_lo = t_old, t_hi = t_new, alpha = 1.0;
    int last_side = 0; /* -1: the low end moved last, +1: the high end */
    const double resolution = EVENT_TIME_RESOLUTION * fmax(1.0, fabs(t_new));
    for (int iteration = 0; iteration < MAX_LOCATION_ITERATIONS && t_hi - t_lo > resolution; iteration++) {
        double t_mid = trial_time(t_lo, z_lo, t_hi, z_hi, alpha);
        /* stay strictly inside the bracket so that it always shrinks */
        const double margin = 0.5 * resolution;
        if (t_mid <= t_lo + margin) t_mid = t_lo + margin;
        if (t_mid >= t_hi - margin) t_mid = t_hi - margin;
        state_at(comp, t_mid, x);
        const Status status = event_indicators_at(comp, t_mid, x, z_mid);
        if (status > StatusWarning) return status;
        if (event_domain_changed(z_lo, z_mid, NULL)) {
            t_hi = t_mid;
            memcpy(z_hi, z_mid, sizeof z_hi);
            alpha = last_side == +1 ? 0.5 * alpha : 1.0; /* low end kept twice: halve it */
            last_side = +1;
        } else {
            t_lo = t_mid;
            memcpy(z_lo, z_mid, sizeof z_lo);
            alpha = last_side == -1 ? 2.0 * alpha : 1.0; /* high end kept twice: halve it */
            last_side = -1;
        }
    }
    *t_event = t_hi;
    event_domain_changed(z_lo, z_hi, indicator);
    state_at(comp, t_hi, x);
    return StatusOK;
}

const char *event_name(size_t indicator) {
    if (indicator == EVENT_TIME) return "a time event";
    if (indicator == EVENT_INPUT) return "an input event";
    return indicator < n_event_indicators() ? MODEL_EVENT_INDICATOR_NAMES[indicator] : "an event";
}

bool event_chattering_guard(ModelInstance *comp, double t, size_t indicator) {
    if (t - comp->last_event_time <= CHATTER_INTERVAL * fmax(1.0, fabs(t)))
        comp->rapid_events++;
    else
        comp->rapid_events = 0;
    comp->last_event_time = t;
    if (comp->rapid_events <= MAX_RAPID_EVENTS) return true;
    instance_log(comp, StatusError, LogStatusError,
                 "chattering at t = %.17g: %s fired %d times in a row, each within %g s of the "
                 "last",
                 t, event_name(indicator),
                 MAX_RAPID_EVENTS + 1, CHATTER_INTERVAL * fmax(1.0, fabs(t)));
    return false;
}
