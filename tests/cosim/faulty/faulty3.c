/*
 * faulty3.c -- a hand-written FMI 3.0 Co-Simulation FMU (not built by cosim) that misbehaves
 * from t >= t_fail on, as chosen at compile time: -DFAULT_ERROR (doStep returns fmi3Error),
 * -DFAULT_FATAL, -DFAULT_NAN (y becomes NaN), -DFAULT_SEGFAULT (writes through NULL),
 * -DFAULT_ABORT, -DFAULT_HANG, -DFAULT_EXIT (exit(3)), or none of them (a healthy FMU).
 * y = u + t at the end of each step. fmi3SetFloat64 refuses |u| > 1e6 with fmi3Error.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fmi3Functions.h"

enum { VR_TIME, VR_U, VR_Y, VR_T_FAIL };

typedef struct {
    char name[128];
    fmi3InstanceEnvironment environment;
    fmi3LogMessageCallback log;
    double time, u, y, t_fail;
} Instance;

static void say(Instance *m, fmi3Status status, const char *format, double value) {
    char text[256];
    snprintf(text, sizeof text, format, value);
    if (m->log) m->log(m->environment, status, status > fmi3Warning ? "logStatusError" : "logEvents", text);
}

const char *fmi3GetVersion(void) { return fmi3Version; }

fmi3Instance fmi3InstantiateCoSimulation(fmi3String name, fmi3String token, fmi3String resources, fmi3Boolean visible,
                                         fmi3Boolean logging_on, fmi3Boolean event_mode_used,
                                         fmi3Boolean early_return_allowed, const fmi3ValueReference required[],
                                         size_t n_required, fmi3InstanceEnvironment environment,
                                         fmi3LogMessageCallback log, fmi3IntermediateUpdateCallback update) {
    (void)token, (void)resources, (void)visible, (void)logging_on, (void)event_mode_used;
    (void)early_return_allowed, (void)required, (void)n_required, (void)update;
    Instance *m = calloc(1, sizeof *m);
    if (!m) return NULL;
    snprintf(m->name, sizeof m->name, "%s", name);
    m->environment = environment, m->log = log, m->t_fail = 1.0;
    return m;
}

void fmi3FreeInstance(fmi3Instance instance) { free(instance); }

fmi3Status fmi3EnterInitializationMode(fmi3Instance instance, fmi3Boolean has_tolerance, fmi3Float64 tolerance,
                                       fmi3Float64 start, fmi3Boolean has_stop, fmi3Float64 stop) {
    (void)has_tolerance, (void)tolerance, (void)has_stop, (void)stop;
    Instance *m = instance;
    m->time = start;
    m->y = m->u + m->time;
    return fmi3OK;
}

fmi3Status fmi3ExitInitializationMode(fmi3Instance instance) { (void)instance; return fmi3OK; }
fmi3Status fmi3Terminate(fmi3Instance instance) { (void)instance; return fmi3OK; }

fmi3Status fmi3GetFloat64(fmi3Instance instance, const fmi3ValueReference vrs[], size_t n, fmi3Float64 values[],
                          size_t n_values) {
    Instance *m = instance;
    if (n != n_values) return fmi3Error;
    for (size_t k = 0; k < n; k++) {
        switch (vrs[k]) {
        case VR_TIME: values[k] = m->time; break;
        case VR_U: values[k] = m->u; break;
        case VR_Y: values[k] = m->y; break;
        case VR_T_FAIL: values[k] = m->t_fail; break;
        default: say(m, fmi3Error, "fmi3GetFloat64: unknown value reference %g", vrs[k]); return fmi3Error;
        }
    }
    return fmi3OK;
}

fmi3Status fmi3SetFloat64(fmi3Instance instance, const fmi3ValueReference vrs[], size_t n,
                          const fmi3Float64 values[], size_t n_values) {
    Instance *m = instance;
    if (n != n_values) return fmi3Error;
    for (size_t k = 0; k < n; k++) {
        if (vrs[k] == VR_U && fabs(values[k]) > 1e6) {
            say(m, fmi3Error, "u = %g is out of range", values[k]);
            return fmi3Error;
        }
        if (vrs[k] == VR_U) m->u = values[k];
        else if (vrs[k] == VR_T_FAIL) m->t_fail = values[k];
        else return fmi3Error;
    }
    return fmi3OK;
}

fmi3Status fmi3DoStep(fmi3Instance instance, fmi3Float64 t, fmi3Float64 h, fmi3Boolean no_set_prior,
                      fmi3Boolean *event_needed, fmi3Boolean *terminate, fmi3Boolean *early, fmi3Float64 *last) {
    (void)no_set_prior;
    Instance *m = instance;
    *event_needed = fmi3False, *terminate = fmi3False, *early = fmi3False;
    if (t >= m->t_fail - 1e-9) {
#if defined(FAULT_ERROR)
        say(m, fmi3Error, "the solver diverged at t = %g", t);
        return fmi3Error;
#elif defined(FAULT_FATAL)
        say(m, fmi3Fatal, "memory corrupted at t = %g", t);
        return fmi3Fatal;
#elif defined(FAULT_NAN)
        m->time = t + h;
        m->y = NAN;
        *last = m->time;
        return fmi3OK;
#elif defined(FAULT_SEGFAULT)
        say(m, fmi3Warning, "about to write through NULL at t = %g", t);
        volatile int *volatile nothing = NULL;
        *nothing = 42;
#elif defined(FAULT_ABORT)
        say(m, fmi3Warning, "an assertion fails at t = %g", t);
        abort();
#elif defined(FAULT_HANG)
        for (;;) pause();
#elif defined(FAULT_EXIT)
        exit(3);
#endif
    }
    m->time = t + h;
    m->y = m->u + m->time;
    *last = m->time;
    return fmi3OK;
}
