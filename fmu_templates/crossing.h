/*
 * crossing.h -- where event indicators change their domain (z > 0 versus z <= 0, FMI 3.0)
 * inside an integrator step, and the guard against chattering events. Model-independent: the
 * FMU runtime and the Model Exchange driver share it.
 */
#ifndef COSIM_CROSSING_H
#define COSIM_CROSSING_H

#include <stdbool.h>
#include <stddef.h>

/* Times are compared relative to max(time_scale, |t|), where time_scale (time_scale_of) is
 * 1 s, or the simulated span where that is shorter: a simulation of picoseconds must resolve
 * its own events instead of seeing them all within one resolution of t = 0. */
double time_scale_of(double start_time, double stop_time, bool stop_time_defined);
/* Event times are resolved to this fraction of max(time_scale, |t|). */
#define EVENT_TIME_RESOLUTION 1e-13
#define MAX_LOCATION_ITERATIONS 200
/* Events closer together than CHATTER_INTERVAL * max(time_scale, |t|) are rapid; more than
 * MAX_RAPID_EVENTS in a row is chattering (a Zeno trajectory, or a model that keeps
 * switching), which no step size resolves. */
#define CHATTER_INTERVAL 1e-9
#define MAX_RAPID_EVENTS 20

/* The n indicators at time t (the caller interpolates the states); 0 on success. */
typedef int (*IndicatorsAt)(void *context, double t, double *z);

/* True if some indicator changed its domain from a to b; the first such one in *which. */
bool crossing_domain_changed(size_t n, const double *a, const double *b, size_t *which);

/* Find the earliest domain change between (t_lo, z_lo) and (t_hi, z_hi), which must differ,
 * with the Illinois variant of regula falsi (superlinear, never leaves the bracket). On
 * success *t_event is the first time found on the far side, *which an indicator that changed
 * there, and z_event holds the indicators at *t_event. work: 2n doubles. Returns 0, or the
 * callback's failure. */
int crossing_locate(size_t n, IndicatorsAt indicators, void *context, double t_lo, const double *z_lo,
                    double t_hi, const double *z_hi, double *work, double *t_event, size_t *which,
                    double *z_event, double time_scale);

typedef struct {
    size_t rapid;  /* consecutive rapid events so far */
    double last;   /* time of the last event */
} ChatterGuard;

/* Register an event at t; false when the events chatter. */
bool chatter_guard_register(ChatterGuard *guard, double t, double time_scale);

#endif
