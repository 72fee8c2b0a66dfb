/*
 * me_driver.c -- Model Exchange FMUs integrated by Radau IIA (see me_driver.h).
 *
 * One communication step mirrors the FMU runtime's own fmi3DoStep (cosimulation.c): refresh f
 * for the new inputs (an input that flips an indicator is an event at once), then take Radau
 * steps up to the next time event or the end of the step; after each step look for a state
 * event on the dense output before reporting the step as completed (so the FMU never has to
 * go back before a completed step), and handle time, state and step events by event iteration
 * and a restart of the integrator.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "me_driver.h"

#include <time.h>

static double monotonic_now(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec + 1e-9 * (double)now.tv_nsec;
}

/* ---- failures carry a message naming the function and the time ---- */

static int fail(MeDriver *d, int status, const char *format, ...) {
    va_list args;
    va_start(args, format);
    vsnprintf(d->message, sizeof d->message, format, args);
    va_end(args);
    return status;
}

/* Check the status of the FMI function `role`; Discard and worse are failures. */
static int check(MeDriver *d, int status, MeFunction role) {
    if (status <= ME_WARNING) return status;
    return fail(d, status, "%s returned %s at t = %.17g", d->adapter->names[role],
                status == ME_DISCARD ? "Discard" : status == ME_ERROR ? "Error" : "Fatal", d->t);
}

#define CALL(role, expression)                                       \
    do {                                                             \
        const int status_ = check(d, (expression), role);            \
        if (status_ > ME_WARNING) return status_;                    \
    } while (0)

static int move_to(MeDriver *d, double t, const double *x) {
    CALL(ME_SET_TIME, d->adapter->set_time(&d->fmu, t));
    if (d->n > 0) CALL(ME_SET_STATES, d->adapter->set_states(&d->fmu, x, d->n));
    return ME_OK;
}

/* ---- the FMU as Radau sees it ---- */

static int radau_code(int status) { return status <= ME_WARNING ? 0 : status == ME_DISCARD ? 1 : -1; }

static int rhs(void *context, double t, const double *x, double *dx) {
    MeDriver *d = context;
    int status = move_to(d, t, x);
    if (status <= ME_WARNING) status = check(d, d->adapter->get_derivatives(&d->fmu, dx, d->n), ME_GET_DERIVATIVES);
    return radau_code(status);
}

static int jacobian(void *context, double t, const double *x, const double *fx, double *values) {
    MeDriver *d = context;
    (void)fx;
    int status = move_to(d, t, x);
    for (size_t j = 0; j < d->n && status <= ME_WARNING; j++)
        status = check(d, d->adapter->directional(&d->fmu, d->derivative_vrs, d->n, d->state_vrs[j], values + j * d->n),
                       ME_DIRECTIONAL);
    return radau_code(status);
}

static int indicators_at(MeDriver *d, double t, const double *x, double *z) {
    const int status = move_to(d, t, x);
    if (status > ME_WARNING) return status;
    CALL(ME_GET_INDICATORS, d->adapter->get_indicators(&d->fmu, z, d->nz));
    return ME_OK;
}

/* for crossing_locate: the indicators on the dense output of the last step */
static int indicators_on_dense_output(void *context, double t, double *z) {
    MeDriver *d = context;
    if (d->n > 0) radau5_dense(&d->radau, t, d->x);
    return indicators_at(d, t, d->x, z) > ME_WARNING ? -1 : 0;
}

/* ---- integrator ---- */

static int start_integrator(MeDriver *d, bool nominals_changed) {
    if (d->n == 0) return ME_OK;
    if (nominals_changed || !d->radau_allocated) {
        CALL(ME_GET_NOMINALS, d->adapter->get_nominals(&d->fmu, d->nominal, d->n));
        for (size_t k = 0; k < d->n; k++) {
            d->rtol[k] = d->tolerance;
            d->atol[k] = d->tolerance * (d->nominal[k] > 0.0 ? d->nominal[k] : 1.0);
        }
        if (d->radau_allocated) radau5_free(&d->radau);
        d->radau_allocated = false;
        const RadauProblem problem = {d->n, rhs, d->use_directional ? jacobian : NULL, d, NULL, NULL, d->rtol, d->atol};
        if (radau5_init(&d->radau, &problem) != RadauOK) return fail(d, ME_FATAL, "out of memory for the integrator");
        d->radau_allocated = true;
    }
    const RadauStatus result = radau5_reset(&d->radau, d->t, d->x, 0.0);
    if (result != RadauOK)
        return fail(d, ME_ERROR, "integration failed at t = %.17g: %s%s%s", d->t, radau5_status_text(result),
                    d->message[0] ? "; " : "", d->message);
    return move_to(d, d->t, d->x); /* choosing the first step evaluated f elsewhere */
}

/* ---- events ---- */

/* In Event Mode: the input clocks that tick now are active. */
static int tick_clocks(MeDriver *d) {
    if (!d->clocks) return ME_OK;
    const size_t n = clocks_due(d->clocks, d->t, d->due);
    for (size_t k = 0; k < n; k++) d->due_vrs[k] = d->clocks->vrs[d->due[k]];
    if (n) CALL(ME_SET_CLOCK, d->adapter->set_clocks(&d->fmu, d->due_vrs, n));
    return ME_OK;
}

static int driver_interval(void *context, uint32_t vr, double *interval, int *qualifier) {
    MeDriver *d = context;
    return d->adapter->get_interval(&d->fmu, vr, interval, qualifier);
}

int clocks_poll_countdowns(ClockSchedule *s, double t, int (*get_interval)(void *, uint32_t, double *, int *),
                           void *context) {
    for (size_t c = 0; c < s->n; c++) {
        if (s->kinds[c] != CLOCK_COUNTDOWN) continue;
        double interval = 0.0;
        int qualifier = 0;
        const int status = get_interval(context, s->vrs[c], &interval, &qualifier);
        if (status > ME_WARNING) return status;
        if (qualifier == 2) clocks_countdown(s, c, t + interval); /* fmi3IntervalChanged */
    }
    return ME_OK;
}

void me_driver_set_clocks(MeDriver *d, ClockSchedule *clocks, size_t *due, uint32_t *due_vrs) {
    d->clocks = clocks, d->due = due, d->due_vrs = due_vrs;
}

/* Event iteration in Event Mode, then back to Continuous-Time Mode with a fresh integrator. */
static int settle_and_restart(MeDriver *d) {
    MeEventInfo info = {true, false, false, false, false, 0.0};
    bool nominals_changed = false;
    int iteration = 0;
    while (info.again) {
        if (++iteration > ME_MAX_EVENT_ITERATIONS)
            return fail(d, ME_ERROR, "event iteration at t = %.17g did not settle after %d rounds", d->t,
                        ME_MAX_EVENT_ITERATIONS);
        memset(&info, 0, sizeof info);
        CALL(ME_UPDATE_DISCRETE, d->adapter->update_discrete(&d->fmu, &info));
        nominals_changed = nominals_changed || info.nominals_changed;
        if (info.terminate) {
            d->terminated = true;
            return ME_OK;
        }
    }
    d->next_time_defined = info.next_time_defined;
    d->next_time = info.next_time;
    if (d->clocks) CALL(ME_GET_INTERVAL, clocks_poll_countdowns(d->clocks, d->t, driver_interval, d));
    CALL(ME_ENTER_CONTINUOUS_MODE, d->adapter->enter_continuous_mode(&d->fmu));
    if (d->n > 0) CALL(ME_GET_STATES, d->adapter->get_states(&d->fmu, d->x, d->n));
    const int status = start_integrator(d, nominals_changed);
    if (status > ME_WARNING || d->nz == 0) return status;
    return indicators_at(d, d->t, d->x, d->z);
}

static int handle_event(MeDriver *d) {
    if (!chatter_guard_register(&d->chatter, d->t, d->time_scale))
        return fail(d, ME_ERROR, "chattering at t = %.17g: %d events in a row, each within %g s of the last", d->t,
                    MAX_RAPID_EVENTS + 1, CHATTER_INTERVAL * fmax(d->time_scale, fabs(d->t)));
    d->events++;
    if (d->event_hook) {
        const int before = d->event_hook(d->hook_context, d->t, false);
        if (before > ME_WARNING) return before;
    }
    CALL(ME_ENTER_EVENT_MODE, d->adapter->enter_event_mode(&d->fmu));
    const int ticks = tick_clocks(d);
    if (ticks > ME_WARNING) return ticks;
    const int status = settle_and_restart(d);
    if (status > ME_WARNING || d->terminated || !d->event_hook) return status;
    return d->event_hook(d->hook_context, d->t, true);
}

void me_driver_set_event_hook(MeDriver *d, MeEventHook hook, void *context) {
    d->event_hook = hook;
    d->hook_context = context;
}

/* After an integrator step from t_old to d->t: a state event inside it, else a step event or
 * a time event at its end. */
static int after_step(MeDriver *d, double t_old, bool time_event) {
    if (d->nz > 0) {
        int status = indicators_at(d, d->t, d->x, d->z_new);
        if (status > ME_WARNING) return status;
        if (crossing_domain_changed(d->nz, d->z, d->z_new, NULL)) {
            double t_event;
            size_t which;
            if (crossing_locate(d->nz, indicators_on_dense_output, d, t_old, d->z, d->t, d->z_new, d->work, &t_event,
                                &which, d->z_event, d->time_scale) != 0)
                return fail(d, ME_ERROR, "locating a state event in (%.17g, %.17g) failed: %s", t_old, d->t,
                            d->message);
            d->t = t_event;
            if (d->n > 0) radau5_dense(&d->radau, t_event, d->x);
            status = move_to(d, d->t, d->x);
            return status > ME_WARNING ? status : handle_event(d);
        }
        memcpy(d->z, d->z_new, d->nz * sizeof(double));
    }
    int status = move_to(d, d->t, d->x);
    if (status > ME_WARNING) return status;
    bool step_event = false, terminate = false;
    CALL(ME_COMPLETED_STEP, d->adapter->completed_step(&d->fmu, &step_event, &terminate));
    if (terminate) {
        d->terminated = true;
        return ME_OK;
    }
    return step_event || time_event ? handle_event(d) : ME_OK;
}

/* One integrator step towards t_stop; without states, or when t_stop is within the time
 * resolution (a time event a rounding error away), a jump. */
static int advance(MeDriver *d, double t_stop) {
    if (d->n == 0 || t_stop - d->t <= EVENT_TIME_RESOLUTION * fmax(d->time_scale, fabs(t_stop))) {
        if (d->n > 0) radau5_shift_time(&d->radau, t_stop);
        d->t = t_stop;
        return ME_OK;
    }
    d->message[0] = '\0';
    const RadauStatus result = radau5_step(&d->radau, t_stop);
    if (result != RadauOK)
        return fail(d, ME_ERROR, "integration failed at t = %.17g: %s%s%s", d->radau.mem.t, radau5_status_text(result),
                    d->message[0] ? "; " : "", d->message);
    d->steps++;
    d->t = d->radau.mem.t;
    memcpy(d->x, d->radau.x, d->n * sizeof(double));
    return ME_OK;
}

/* New inputs at the communication point: f changed, and an indicator may have flipped. */
static int begin_step(MeDriver *d) {
    if (d->nz > 0) {
        const int status = indicators_at(d, d->t, d->x, d->z_new);
        if (status > ME_WARNING) return status;
        if (crossing_domain_changed(d->nz, d->z, d->z_new, NULL)) return handle_event(d);
    }
    if (d->n == 0) return ME_OK;
    if (radau5_rhs_changed(&d->radau) != RadauOK)
        return fail(d, ME_ERROR, "the derivatives cannot be evaluated at t = %.17g: %s", d->t, d->message);
    return move_to(d, d->t, d->x);
}

/* The next time event: the FMU's, or the next tick of an input clock. */
static double next_event_time(const MeDriver *d) {
    const double next = d->next_time_defined ? d->next_time : INFINITY;
    return d->clocks ? fmin(next, clocks_next(d->clocks)) : next;
}

int me_driver_do_step(MeDriver *d, double t, double h, bool *terminate) {
    const double t_end = t + h;
    /* the driver does not know the span simulated: its first communication step stands for
     * it (up to 1 s) as the scale of time comparisons (crossing.h) */
    if (d->time_scale == 0.0 && h > 0.0) d->time_scale = fmin(1.0, h);
    int status = d->terminated ? ME_OK : begin_step(d);
    while (status <= ME_WARNING && !d->terminated && d->t < t_end) {
        double t_stop = t_end;
        bool time_event = false;
        const double next = next_event_time(d);
        if (next <= t_end) {
            t_stop = fmax(next, d->t);
            time_event = true;
        }
        const double t_old = d->t;
        if (t_stop > d->t) status = advance(d, t_stop);
        if (status > ME_WARNING) break;
        if (d->deadline > 0 && monotonic_now() >= d->deadline) {
            status = fail(d, ME_DEADLINE, "the deadline passed at t = %.17g", d->t);
            break;
        }
        status = after_step(d, t_old, time_event && d->t >= t_stop);
    }
    if (status <= ME_WARNING && !d->terminated) status = move_to(d, d->t, d->x);
    *terminate = d->terminated;
    return status;
}

int me_driver_start(MeDriver *d, double t0) {
    d->t = t0;
    d->terminated = false;
    d->chatter.rapid = 0;
    d->chatter.last = -INFINITY;
    d->time_scale = 0.0;  /* set by the first step */
    if (d->clocks) {
        clocks_start(d->clocks, t0);
        const int ticks = tick_clocks(d); /* after initialization the FMU is in Event Mode */
        if (ticks > ME_WARNING) return ticks;
    }
    return settle_and_restart(d);
}

/* ---- rollback ---- */

int me_driver_save(MeDriver *d) {
    CALL(ME_GET_FMU_STATE, d->adapter->get_fmu_state(&d->fmu, &d->saved_fmu_state));
    d->saved_t = d->t;
    d->saved_next_time = d->next_time;
    d->saved_next_time_defined = d->next_time_defined;
    d->saved_terminated = d->terminated;
    memcpy(d->saved_x, d->x, d->n * sizeof(double));
    memcpy(d->saved_z, d->z, d->nz * sizeof(double));
    return ME_OK;
}

int me_driver_restore(MeDriver *d) {
    CALL(ME_SET_FMU_STATE, d->adapter->set_fmu_state(&d->fmu, d->saved_fmu_state));
    d->t = d->saved_t;
    d->next_time = d->saved_next_time;
    d->next_time_defined = d->saved_next_time_defined;
    d->terminated = d->saved_terminated;
    memcpy(d->x, d->saved_x, d->n * sizeof(double));
    memcpy(d->z, d->saved_z, d->nz * sizeof(double));
    return d->terminated ? ME_OK : start_integrator(d, false);
}

/* ---- life cycle ---- */

MeDriver *me_driver_new(int fmi_major, const MeFmu *fmu, size_t n, size_t nz, const uint32_t *state_vrs,
                        const uint32_t *derivative_vrs, bool use_directional, double tolerance) {
    MeDriver *d = calloc(1, sizeof *d);
    if (!d) return NULL;
    d->fmu = *fmu;
    d->adapter = fmi_major == 2 ? &ME_FMI2_ADAPTER : &ME_FMI3_ADAPTER;
    d->n = n;
    d->nz = nz;
    d->use_directional = use_directional && n > 0;
    d->tolerance = tolerance;
    const size_t ns = n > 0 ? n : 1, nzs = nz > 0 ? nz : 1;
    d->state_vrs = calloc(ns, sizeof(uint32_t));
    d->derivative_vrs = calloc(ns, sizeof(uint32_t));
    double *block = calloc(6 * ns + 6 * nzs, sizeof(double));
    if (!d->state_vrs || !d->derivative_vrs || !block) {
        free(block);
        me_driver_free(d);
        return NULL;
    }
    for (size_t k = 0; k < n; k++) {
        d->state_vrs[k] = state_vrs ? state_vrs[k] : 0;
        d->derivative_vrs[k] = derivative_vrs ? derivative_vrs[k] : 0;
    }
    d->x = block;
    d->nominal = d->x + ns;
    d->rtol = d->nominal + ns;
    d->atol = d->rtol + ns;
    d->saved_x = d->atol + ns;
    d->z = d->saved_x + 2 * ns;
    d->z_new = d->z + nzs;
    d->z_event = d->z_new + nzs;
    d->work = d->z_event + nzs;   /* 2 nz */
    d->saved_z = d->work + 2 * nzs;
    return d;
}

void me_driver_free(MeDriver *d) {
    if (!d) return;
    if (d->saved_fmu_state && d->fmu.functions[ME_FREE_FMU_STATE])
        d->adapter->free_fmu_state(&d->fmu, &d->saved_fmu_state);
    if (d->radau_allocated) radau5_free(&d->radau);
    free(d->x);
    free(d->state_vrs);
    free(d->derivative_vrs);
    free(d);
}
