/* clock_schedule.c -- the ticks of input clocks (see clock_schedule.h). */
#include <math.h>

#include "clock_schedule.h"

bool clocks_same_time(double t, double u) {
    if (isinf(t) || isinf(u)) return t == u;
    /* relative, with no absolute floor: a run of picoseconds has its steps and ticks that
     * far apart */
    return fabs(t - u) <= 1e-12 * fmax(fabs(t), fabs(u));
}

static double periodic_tick(const ClockSchedule *s, size_t c) {
    return s->t0 + s->shifts[c] + (double)s->count[c] * s->intervals[c]; /* no drift: t0 + k h */
}

static void advance(ClockSchedule *s, size_t c) {
    switch (s->kinds[c]) {
    case CLOCK_PERIODIC:
        s->count[c]++;
        s->next[c] = s->intervals[c] > 0 ? periodic_tick(s, c) : INFINITY;
        break;
    case CLOCK_TRIGGERED:
        s->tick_next[c]++;
        s->next[c] = s->tick_next[c] < s->tick_start[c + 1] ? s->ticks[s->tick_next[c]] : INFINITY;
        break;
    default: s->next[c] = INFINITY; /* a countdown ticks once per interval the FMU gives */
    }
}

void clocks_start(ClockSchedule *s, double t0) {
    s->t0 = t0;
    for (size_t c = 0; c < s->n; c++) {
        s->count[c] = 0;
        s->tick_next[c] = s->tick_start[c];
        if (s->kinds[c] == CLOCK_PERIODIC) {
            s->next[c] = s->intervals[c] > 0 ? periodic_tick(s, c) : INFINITY;
        } else if (s->kinds[c] == CLOCK_TRIGGERED) {
            /* ticks before the start are gone */
            while (s->tick_next[c] < s->tick_start[c + 1] && s->ticks[s->tick_next[c]] < t0 &&
                   !clocks_same_time(s->ticks[s->tick_next[c]], t0))
                s->tick_next[c]++;
            s->next[c] = s->tick_next[c] < s->tick_start[c + 1] ? s->ticks[s->tick_next[c]] : INFINITY;
        } else {
            s->next[c] = INFINITY;
        }
    }
}

double clocks_next(const ClockSchedule *s) {
    double next = INFINITY;
    for (size_t c = 0; c < s->n; c++) next = fmin(next, s->next[c]);
    return next;
}

size_t clocks_due(ClockSchedule *s, double t, size_t *due) {
    size_t n = 0;
    for (size_t c = 0; c < s->n; c++) {
        if (s->next[c] <= t || clocks_same_time(s->next[c], t)) {
            due[n++] = c;
            advance(s, c);
            /* a triggered clock listed twice at one time ticks once */
            while (s->kinds[c] == CLOCK_TRIGGERED && clocks_same_time(s->next[c], t)) advance(s, c);
        }
    }
    return n;
}

void clocks_countdown(ClockSchedule *s, size_t c, double at) { s->next[c] = at; }
