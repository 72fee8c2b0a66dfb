/*
 * cosimulation.c -- fmi3DoStep: integrate the model with Radau IIA from one communication
 * point to the next, handling time events and state events on the way.
 *
 * The integrator keeps its step size, Jacobian and dense output across communication points;
 * it restarts (fresh Jacobian, first-step logic) only after an event. New inputs at a
 * communication point only refresh f at the current point.
 */
#define COSIM_RUNTIME_SOURCE /* model.h: sizes read at run time (MODEL), no config.h */
#include <math.h>
#include <string.h>

#include "delays.h"
#include "instance.h"

/* ---- the model as Radau sees it ---- */

static int status_to_radau(Status status) {
    if (status <= StatusWarning) return 0;
    return status == StatusDiscard ? 1 : -1;
}

static int model_rhs(void *context, double t, const double *x, double *dx) {
    ModelInstance *comp = context;
    comp->data.time = t;
    instance_set_states(comp, x);
    comp->data.integrating = true;
    const Status status = instance_derivatives(comp);
    comp->data.integrating = false;
    for (size_t k = 0; k < n_states(); k++) dx[k] = comp->data.r[MODEL_DERIVATIVE_SLOT[k]];
    return status_to_radau(status);
}

static int model_rhs_jacobian(void *context, double t, const double *x, const double *fx, double *values) {
    ModelInstance *comp = context;
    (void)fx;
    comp->data.time = t;
    instance_set_states(comp, x);
    comp->data.integrating = true;
    Status status = instance_derivatives(comp);
    if (status <= StatusWarning) status = model_jacobian(&comp->data, values);
    comp->data.integrating = false;
    return status_to_radau(status);
}

/* ---- integrator life cycle ---- */

static Status allocate_integrator(ModelInstance *comp) {
    if (comp->radau_allocated && comp->radau_tolerance == comp->tolerance) return StatusOK;
    cosim_release_integrator(comp);
    for (size_t k = 0; k < n_states(); k++) {
        comp->rtol[k] = comp->tolerance;
        comp->atol[k] = comp->tolerance * MODEL_STATE_NOMINAL[k];
    }
    const RadauProblem problem = {
        n_states(), model_rhs, MODEL.has_jacobian ? model_rhs_jacobian : NULL, comp,
        MODEL_JACOBIAN_COLUMN_START, MODEL_JACOBIAN_ROWS, comp->rtol, comp->atol};
    if (radau5_init(&comp->radau, &problem) != RadauOK) {
        instance_log(comp, StatusFatal, LogStatusFatal, "out of memory for the integrator");
        return StatusFatal;
    }
    comp->radau_allocated = true;
    comp->radau_tolerance = comp->tolerance;
    return StatusOK;
}

void cosim_release_integrator(ModelInstance *comp) {
    if (comp->radau_allocated) radau5_free(&comp->radau);
    comp->radau_allocated = false;
    comp->integrator_ready = false;
}

Status cosim_prepare_integrator(ModelInstance *comp) {
    return n_states() > 0 ? allocate_integrator(comp) : StatusOK;
}

static Status integration_failure(ModelInstance *comp, RadauStatus status) {
    instance_log(comp, StatusError, LogStatusError, "integration failed at t = %.17g: %s",
                 comp->radau.mem.t, radau5_status_text(status));
    return StatusError;
}

/* Start the integrator at the model's current time and states. */
static Status restart_integrator(ModelInstance *comp) {
    comp->inputs_changed = comp->discrete_inputs_changed = false;
    if (n_states() > 0) {
        const Status status = allocate_integrator(comp);
        if (status > StatusWarning) return status;
        instance_get_states(comp, comp->x);
        const double t = comp->data.time;
        const RadauStatus result = radau5_reset(&comp->radau, t, comp->x, 0.0);
        /* the integrator evaluates the model elsewhere to choose its first step */
        comp->data.time = t;
        instance_set_states(comp, comp->x);
        comp->values_dirty = true;
        if (result != RadauOK) return integration_failure(comp, result);
    }
    comp->integrator_ready = true;
    return StatusOK;
}

/* ---- one communication step ---- */

/* An accepted step: the loops solved at its end start the next evaluations, and the
 * continuous-time asserts hold there, whether or not anyone reads the variables
 * (model_outputs, which checks them, otherwise runs only for a read). */
static Status accept_step(ModelInstance *comp) {
    if (n_guesses() == 0 && !MODEL.has_asserts) return StatusOK;
    comp->values_dirty = true;
    const Status status = instance_refresh(comp, MODEL.has_asserts);
    if (status <= StatusWarning) instance_keep_guesses(comp);
    return status;
}

typedef struct {
    double t_old, t_new; /* the step just taken */
} Advance;

/* Take one integrator step towards t_stop. Without states, or when t_stop is within the
 * time resolution (a time event a rounding error away from a communication point), jump. */
static Status advance(ModelInstance *comp, double t_stop, Advance *step) {
    step->t_old = comp->data.time;
    if (n_states() == 0 || t_stop - comp->data.time <= EVENT_TIME_RESOLUTION * fmax(comp->time_scale, fabs(t_stop))) {
        if (n_states() > 0) radau5_shift_time(&comp->radau, t_stop);
        step->t_new = t_stop;
        return StatusOK;
    }
    const RadauStatus result = radau5_step(&comp->radau, t_stop);
    if (result != RadauOK) return integration_failure(comp, result);
    step->t_old = radau5_step_start(&comp->radau);
    step->t_new = comp->radau.mem.t;
    memcpy(comp->x, comp->radau.x, n_states() * sizeof(double));
    return StatusOK;
}

/* Handle an event at the model's current time and states, then restart the integrator. */
static Status handle_event(ModelInstance *comp, size_t indicator, bool *terminate) {
    const double t = comp->data.time;
    if (!event_chattering_guard(comp, t, indicator)) return StatusError;
    instance_log(comp, StatusOK, LogEvents, "event at t = %.17g: %s", t, event_name(indicator));
    Status status = delays_record(comp); /* the values before the event */
    if (status > StatusWarning) return status;
    bool states_changed;
    status = event_iterate(comp, terminate, &states_changed);
    if (status > StatusWarning || *terminate) return status;
    status = delays_after_event(comp, false);
    if (status > StatusWarning) return status;
    status = restart_integrator(comp);
    if (status > StatusWarning) return status;
    instance_get_states(comp, comp->x);
    if (n_event_indicators() > 0) status = event_indicators_at(comp, t, comp->x, comp->z);
    return status;
}

/* The model at time t of the step just taken, with the states of the dense output there. */
static void place_on_step(ModelInstance *comp, double t) {
    if (n_states() > 0) radau5_dense(&comp->radau, t, comp->x_dense);
    comp->data.time = t;
    instance_set_states(comp, comp->x_dense);
}

/* Record the delayed expressions and entering ends inside the step from t_old up to t_end (both excluded); the
 * model then stands at t_end with the states comp->x. */
static Status record_inside_step(ModelInstance *comp, double t_old, double t_end) {
    Status status = StatusOK;
    if (n_delays() > 0 || n_spatials() > 0) {
        status = delays_record_between(comp, t_old, t_end, place_on_step);
        comp->values_dirty = true;
    }
    comp->data.time = t_end;
    instance_set_states(comp, comp->x);
    return status;
}

/* After a step: look for state events in it and for a time event at its end. Sets *event
 * when one was handled (the model then stands at the event time). */
static Status check_events(ModelInstance *comp, const Advance *step, bool time_event, bool *event,
                           bool *terminate) {
    *event = false;
    if (n_event_indicators() > 0) {
        double *z_new = comp->z_probe;
        Status status = event_indicators_at(comp, step->t_new, comp->x, z_new);
        if (status > StatusWarning) return status;
        if (event_domain_changed(comp->z, z_new, NULL)) {
            double t_event;
            size_t indicator = 0;
            status = event_locate(comp, step->t_old, comp->z, step->t_new, z_new, &t_event, comp->z_event, &indicator);
            if (status > StatusWarning) return status;
            status = record_inside_step(comp, step->t_old, t_event);
            if (status > StatusWarning) return status;
            *event = true;
            return handle_event(comp, indicator, terminate);
        }
        memcpy(comp->z, z_new, n_event_indicators() * sizeof *comp->z);
    }
    Status status = record_inside_step(comp, step->t_old, step->t_new);
    if (status <= StatusWarning && (n_delays() > 0 || n_spatials() > 0))
        status = delays_record(comp); /* the step's end */
    if (status > StatusWarning || !time_event) return status;
    *event = true;
    return handle_event(comp, EVENT_TIME, terminate);
}

static void log_statistics(ModelInstance *comp, double t_start) {
    if (n_states() == 0) return;
    const RadauCounters *c = &comp->radau.mem.count;
    instance_log(comp, StatusOK, LogIntegrator,
                 "doStep from t = %.17g to %.17g: %zu steps (%zu accepted, %zu rejected), %zu f, "
                 "%zu Jacobians, %zu LU, %zu solves in total (%s LU)",
                 t_start, comp->data.time, c->steps, c->accepted, c->rejected, c->rhs_calls,
                 c->jacobians, c->lu, c->solves, comp->radau.sparse ? "sparse" : "dense");
}

/* At a communication point: new inputs refresh f, and fire an event at once where they
 * flip a relation or change a discrete variable. */
static Status begin_step(ModelInstance *comp, bool *terminate) {
    if (!comp->integrator_ready) {
        const Status status = restart_integrator(comp);
        if (status > StatusWarning) return status;
    }
    if (!comp->inputs_changed) return StatusOK;
    bool input_event = comp->discrete_inputs_changed;
    comp->inputs_changed = comp->discrete_inputs_changed = false;
    if (n_event_indicators() > 0) {
        const Status status = event_indicators_at(comp, comp->data.time, comp->x, comp->z_probe);
        if (status > StatusWarning) return status;
        if (event_domain_changed(comp->z, comp->z_probe, NULL))
            input_event = true;
        else
            memcpy(comp->z, comp->z_probe, n_event_indicators() * sizeof *comp->z);
    }
    if (input_event) return handle_event(comp, EVENT_INPUT, terminate);
    if (n_states() == 0) return StatusOK;
    const RadauStatus result = radau5_rhs_changed(&comp->radau);
    return result == RadauOK ? StatusOK : integration_failure(comp, result);
}

Status cosim_enter_step_mode(ModelInstance *comp) {
    bool terminate, states_changed;
    Status status = event_iterate(comp, &terminate, &states_changed);
    if (status > StatusWarning) return status;
    comp->terminate_requested = terminate;
    status = delays_after_event(comp, false);
    if (status > StatusWarning) return status;
    status = restart_integrator(comp);
    if (status <= StatusWarning && n_event_indicators() > 0)
        status = event_indicators_at(comp, comp->data.time, comp->x, comp->z);
    comp->values_dirty = true;
    return status;
}

Status cosim_do_step(ModelInstance *comp, double t_start, double h, bool *terminate,
                     bool *early_return, double *last_successful_time) {
    const double t_end = t_start + h;
    *terminate = *early_return = false;
    *last_successful_time = t_start;
    if (comp->terminate_requested) {
        *terminate = true;
        return StatusOK;
    }
    /* a time event a rounding error after t_end belongs to this step, at its own time, so
     * that the model's `time >= T` comparisons see exactly the T they asked for */
    const double resolution = EVENT_TIME_RESOLUTION * fmax(comp->time_scale, fabs(t_end));
    Status status = begin_step(comp, terminate);
    while (status <= StatusWarning && !*terminate && comp->data.time < t_end) {
        double t_stop = t_end;
        bool time_event = false;
        if (comp->next_event_time_defined && comp->next_event_time <= t_end + resolution) {
            t_stop = fmax(comp->next_event_time, comp->data.time);
            time_event = true;
        }
        const double horizon = delays_horizon(comp); /* delay() reads only recorded values */
        if (horizon < t_stop) {
            t_stop = horizon;
            time_event = false;
        }
        Advance step;
        bool event = false;
        if (t_stop > comp->data.time) status = advance(comp, t_stop, &step);
        else step.t_old = step.t_new = comp->data.time;
        if (status > StatusWarning) break;
        const bool reached_stop = step.t_new >= t_stop;
        status = check_events(comp, &step, time_event && reached_stop, &event, terminate);
        if (status > StatusWarning || *terminate) break;
        if (!event) status = accept_step(comp); /* else the event iteration accepted it */
        if (status > StatusWarning) break;
        if (event && comp->early_return_allowed && comp->data.time < t_end) {
            *early_return = true;
            break;
        }
    }
    *last_successful_time = comp->data.time;
    comp->terminate_requested = *terminate;
    comp->values_dirty = true;
    log_statistics(comp, t_start);
    return status;
}
