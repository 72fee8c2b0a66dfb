/* crossing.c -- Illinois root location of the first domain change, and the chattering guard. */
#include <math.h>
#include <string.h>

#include "crossing.h"

bool crossing_domain_changed(size_t n, const double *a, const double *b, size_t *which) {
    for (size_t k = 0; k < n; k++) {
        if ((a[k] > 0.0) != (b[k] > 0.0)) {
            if (which) *which = k;
            return true;
        }
    }
    return false;
}

/* Next trial time: the earliest regula-falsi root among the indicators that change in the
 * bracket; alpha weights the low end (Illinois). */
static double trial_time(size_t n, double t_lo, const double *z_lo, double t_hi, const double *z_hi,
                         double alpha) {
    double earliest = t_hi;
    for (size_t k = 0; k < n; k++) {
        if ((z_lo[k] > 0.0) == (z_hi[k] > 0.0)) continue;
        const double denominator = z_hi[k] - alpha * z_lo[k];
        const double fraction = denominator != 0.0 ? z_hi[k] / denominator : 0.5;
        const double candidate = t_hi - (t_hi - t_lo) * fraction;
        if (candidate < earliest) earliest = candidate;
    }
    return earliest;
}

int crossing_locate(size_t n, IndicatorsAt indicators, void *context, double t_lo, const double *z_lo_in,
                    double t_hi, const double *z_hi_in, double *work, double *t_event, size_t *which,
                    double *z_event, double time_scale) {
    double *z_lo = work, *z_mid = work + n, *z_hi = z_event;
    memcpy(z_lo, z_lo_in, n * sizeof(double));
    memcpy(z_hi, z_hi_in, n * sizeof(double));
    double alpha = 1.0;
    int last_side = 0; /* -1: the low end moved last, +1: the high end */
    const double resolution = EVENT_TIME_RESOLUTION * fmax(time_scale, fabs(t_hi));
    for (int iteration = 0; iteration < MAX_LOCATION_ITERATIONS && t_hi - t_lo > resolution; iteration++) {
        double t_mid = trial_time(n, t_lo, z_lo, t_hi, z_hi, alpha);
        /* stay strictly inside the bracket so that it always shrinks */
        const double margin = 0.5 * resolution;
        if (t_mid <= t_lo + margin) t_mid = t_lo + margin;
        if (t_mid >= t_hi - margin) t_mid = t_hi - margin;
        const int status = indicators(context, t_mid, z_mid);
        if (status != 0) return status;
        if (crossing_domain_changed(n, z_lo, z_mid, NULL)) {
            t_hi = t_mid;
            memcpy(z_hi, z_mid, n * sizeof(double));
            alpha = last_side == +1 ? 0.5 * alpha : 1.0; /* low end kept twice: halve its weight */
            last_side = +1;
        } else {
            t_lo = t_mid;
            memcpy(z_lo, z_mid, n * sizeof(double));
            alpha = last_side == -1 ? 2.0 * alpha : 1.0; /* high end kept twice: halve its weight */
            last_side = -1;
        }
    }
    *t_event = t_hi;
    crossing_domain_changed(n, z_lo, z_hi, which);
    return 0;
}

double time_scale_of(double start_time, double stop_time, bool stop_time_defined) {
    const double span = stop_time - start_time;
    return stop_time_defined && span > 0.0 && span < 1.0 ? span : 1.0;
}

bool chatter_guard_register(ChatterGuard *guard, double t, double time_scale) {
    if (t - guard->last <= CHATTER_INTERVAL * fmax(time_scale, fabs(t)))
        guard->rapid++;
    else
        guard->rapid = 0;
    guard->last = t;
    return guard->rapid <= MAX_RAPID_EVENTS;
}
