/*
 * events.c -- event iteration, and location of state events on the dense output.
 *
 * An indicator fires where it changes its domain between z > 0 and z <= 0 (FMI 3.0); the
 * earliest such time in an integrator step is found by crossing_locate on the step's
 * collocation polynomial.
 */
#define COSIM_RUNTIME_SOURCE /* model.h: sizes read at run time (MODEL), no config.h */
#include <math.h>
#include <string.h>

#include "instance.h"

#define MAX_EVENT_ITERATIONS 100

Status event_update_once(ModelInstance *comp, EventUpdate *update) {
    ModelData *m = &comp->data;
    memcpy(m->pre_r, m->r, MODEL.n_float64 * sizeof *m->r);
    memcpy(m->pre_i, m->i, MODEL.n_int32 * sizeof *m->i);
    memcpy(m->pre_e, m->e, MODEL.n_int64 * sizeof *m->e);
    memcpy(m->pre_b, m->b, MODEL.n_boolean * sizeof *m->b);
    memset(update, 0, sizeof *update);
    const Status status = model_event_update(m, update);
    if (status <= StatusWarning) instance_keep_guesses(comp); /* the point is accepted */
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
    Status status = instance_derivatives(comp);
    if (status > StatusWarning) return status;
    const Status indicators = model_event_indicators(&comp->data, z);
    return indicators > status ? indicators : status;
}

bool event_domain_changed(const double *a, const double *b, size_t *which) {
    return crossing_domain_changed(n_event_indicators(), a, b, which);
}

/* The indicators at time t on the integrator's dense output, for crossing_locate. */
static int indicators_on_dense_output(void *context, double t, double *z) {
    ModelInstance *comp = context;
    if (n_states() > 0) radau5_dense(&comp->radau, t, comp->x);
    return event_indicators_at(comp, t, comp->x, z) > StatusWarning ? -1 : 0;
}

Status event_locate(ModelInstance *comp, double t_old, const double *z_old, double t_new,
                    const double *z_new, double *t_event, double *z_event, size_t *indicator) {
    if (crossing_locate(n_event_indicators(), indicators_on_dense_output, comp, t_old, z_old, t_new, z_new,
                        comp->z_work, t_event, indicator, z_event, comp->time_scale) != 0)
        return StatusError;
    if (n_states() > 0) radau5_dense(&comp->radau, *t_event, comp->x);
    return StatusOK;
}

const char *event_name(size_t indicator) {
    if (indicator == EVENT_TIME) return "a time event";
    if (indicator == EVENT_INPUT) return "an input event";
    return indicator < n_event_indicators() ? MODEL_EVENT_INDICATOR_NAMES[indicator] : "an event";
}

bool event_chattering_guard(ModelInstance *comp, double t, size_t indicator) {
    if (chatter_guard_register(&comp->chatter, t, comp->time_scale)) return true;
    instance_log(comp, StatusError, LogStatusError,
                 "chattering at t = %.17g: %s fired %d times in a row, each within %g s of the "
                 "last",
                 t, event_name(indicator),
                 MAX_RAPID_EVENTS + 1, CHATTER_INTERVAL * fmax(comp->time_scale, fabs(t)));
    return false;
}
