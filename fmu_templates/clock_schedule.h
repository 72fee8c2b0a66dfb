/*
 * clock_schedule.h -- when the input clocks of one FMU tick (FMI 3.0): periodic clocks at
 * t0 + shift + k interval, countdown clocks when the FMU last gave them an interval (qualifier
 * fmi3IntervalChanged), triggered clocks at the times an input file lists. The master uses it
 * for Scheduled Execution (activate the model partition of each clock as it ticks) and for
 * clocked Co-Simulation and Model Exchange (a tick is a time event: fmi3SetClock in Event
 * Mode). Tables are filled once by the caller; no allocation here.
 */
#ifndef COSIM_CLOCK_SCHEDULE_H
#define COSIM_CLOCK_SCHEDULE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum { CLOCK_PERIODIC = 0, CLOCK_COUNTDOWN = 1, CLOCK_TRIGGERED = 2 } ClockKind;

typedef struct {
    size_t n;                 /* input clocks, in priority order (the highest first) */
    uint32_t *vrs;
    int *kinds;               /* ClockKind */
    double *intervals, *shifts; /* periodic clocks */
    double *ticks;            /* triggered clocks: ticks[tick_start[c] .. tick_start[c + 1]) */
    size_t *tick_start;
    size_t *tick_next;        /* the next of them */
    long long *count;         /* periodic clocks: ticks so far */
    double *next;             /* the next tick of each clock (INFINITY: none) */
    double t0;
} ClockSchedule;

/* The first ticks from t0 on. */
void clocks_start(ClockSchedule *s, double t0);

/* The time of the earliest next tick (INFINITY: none). */
double clocks_next(const ClockSchedule *s);

/* The clocks that tick at t (indices into the tables, in priority order, into `due`, room for
 * s->n); each moves on to its next tick. Returns how many. */
size_t clocks_due(ClockSchedule *s, double t, size_t *due);

/* A countdown clock `c` ticks at `at` (its interval given after an activation or event). */
void clocks_countdown(ClockSchedule *s, size_t c, double at);

/* Whether t and u are the same instant (relative 1e-12). */
bool clocks_same_time(double t, double u);

#endif
