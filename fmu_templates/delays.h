/*
 * delays.h -- the runtime's side of delay(expr, delayTime, delayMax) (MLS 3.7.2.1) and of
 * spatialDistribution() (MLS 3.7.4.2): it records the delayed expressions into their
 * histories and the entering ends of the spatial distributions into their profiles (model.h,
 * DelayHistory), which model code reads with delay_value and spatial_value (model_support.h).
 *
 * Records are taken after the initialization, at every accepted step (Co-Simulation: each
 * step of the integrator, and inside it on the dense output; Model Exchange:
 * fmi3CompletedIntegratorStep) and before and after every event iteration, so that a jump of the expression at t_e is a pair of records at
 * t_e. Such a jump reappears at t_e + delayTime: a time event there (delays_next_event). A
 * lookup must not pass the last record: a step from t may reach t + delayTime at most
 * (delays_horizon; in Model Exchange a time event at that horizon), except for expressions
 * that change only at events, which stay at their last record until the next event.
 * Histories reach back to t - delayMax.
 *
 * A profile is recorded at the same points: its initial profile placed at the current x
 * before the first record, then (x, in0) while positiveVelocity, else (x - 1, in1); points
 * that left [x - 1, x] are dropped but the one just beyond. A jump at an event is two points
 * at one place, transported without events. Records inside a step resolve the entering end to
 * `tolerance` (the profile is read linearly), those of delays to its square root.
 */
#ifndef COSIM_DELAYS_H
#define COSIM_DELAYS_H

#include <stdbool.h>
#include <stddef.h>

#include "instance.h"

/* Record every delayed expression and entering end at the model's current time and states
 * (computing the values first); an error for a delay time outside [0, delayMax]. */
Status delays_record(ModelInstance *comp);

/* Puts the model at time t (with the states of the step there). */
typedef void (*DelayPlacer)(ModelInstance *comp, double t);
/* Halvings of a step at most for the records inside it. */
#define DELAY_RECORD_DEPTH 10

/* Record inside a step, from t_old to t_end (both excluded), where `place` puts the model:
 * the middle, and the middles of halves where the line between their ends misses it by more
 * than sqrt(tolerance) of their size, so that a history resolves what the step does. */
Status delays_record_between(ModelInstance *comp, double t_old, double t_end, DelayPlacer place);

/* After an event iteration has settled: record the values after the event (evaluated in
 * event mode, so that delayed jumps at this instant count), and make the next time event
 * (comp->next_event_time) the earliest of the model's and delays_next_event's. */
Status delays_after_event(ModelInstance *comp, bool horizon);

/* The earliest time after the current one at which a recorded jump reappears, or (with
 * `horizon`) a continuous expression's history ends; false when there is none. */
bool delays_next_event(const ModelInstance *comp, bool horizon, double *next);

/* The latest time a step from the current time may reach (INFINITY: any). */
double delays_horizon(const ModelInstance *comp);

/* Room for n records in a history (its records kept); false when out of memory. */
bool delays_reserve(DelayHistory *history, size_t n);

/* Forget every record (fmi3Reset), and release the memory (fmi3FreeInstance). */
void delays_clear(ModelInstance *comp);
void delays_free(ModelInstance *comp);

#endif /* COSIM_DELAYS_H */
