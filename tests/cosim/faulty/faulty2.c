/*
 * faulty2.c -- a hand-written FMI 2.0 Co-Simulation FMU (not built by cosim): y = u + t; from
 * t >= t_fail on, doStep returns fmi2Error (-DFAULT_ERROR), writes through NULL
 * (-DFAULT_SEGFAULT), or ends the run half-way through the step (-DFAULT_TERMINATE: fmi2Discard,
 * then fmi2GetBooleanStatus(fmi2Terminated) is true and fmi2LastSuccessfulTime says where).
 */
#include <stdio.h>
#include <stdlib.h>

#include "fmi2Functions.h"

enum { VR_U, VR_Y, VR_T_FAIL };

typedef struct {
    char name[128];
    fmi2CallbackFunctions functions;
    double time, u, y, t_fail;
    fmi2Boolean terminated;
} Instance;

const char *fmi2GetVersion(void) { return fmi2Version; }
const char *fmi2GetTypesPlatform(void) { return fmi2TypesPlatform; }

fmi2Component fmi2Instantiate(fmi2String name, fmi2Type type, fmi2String guid, fmi2String resources,
                              const fmi2CallbackFunctions *functions, fmi2Boolean visible, fmi2Boolean logging_on) {
    (void)type, (void)guid, (void)resources, (void)visible, (void)logging_on;
    Instance *m = calloc(1, sizeof *m);
    if (!m) return NULL;
    snprintf(m->name, sizeof m->name, "%s", name);
    m->functions = *functions;
    m->t_fail = 1.0;
    return m;
}

void fmi2FreeInstance(fmi2Component c) { free(c); }

fmi2Status fmi2SetupExperiment(fmi2Component c, fmi2Boolean has_tolerance, fmi2Real tolerance, fmi2Real start,
                               fmi2Boolean has_stop, fmi2Real stop) {
    (void)has_tolerance, (void)tolerance, (void)has_stop, (void)stop;
    Instance *m = c;
    m->time = start;
    m->y = m->u + m->time;
    return fmi2OK;
}

fmi2Status fmi2EnterInitializationMode(fmi2Component c) { (void)c; return fmi2OK; }
fmi2Status fmi2ExitInitializationMode(fmi2Component c) { (void)c; return fmi2OK; }
fmi2Status fmi2Terminate(fmi2Component c) { (void)c; return fmi2OK; }

fmi2Status fmi2GetReal(fmi2Component c, const fmi2ValueReference vrs[], size_t n, fmi2Real values[]) {
    Instance *m = c;
    for (size_t k = 0; k < n; k++) values[k] = vrs[k] == VR_U ? m->u : vrs[k] == VR_Y ? m->y : m->t_fail;
    return fmi2OK;
}

fmi2Status fmi2SetReal(fmi2Component c, const fmi2ValueReference vrs[], size_t n, const fmi2Real values[]) {
    Instance *m = c;
    for (size_t k = 0; k < n; k++) {
        if (vrs[k] == VR_U) m->u = values[k];
        else if (vrs[k] == VR_T_FAIL) m->t_fail = values[k];
    }
    return fmi2OK;
}

fmi2Status fmi2DoStep(fmi2Component c, fmi2Real t, fmi2Real h, fmi2Boolean no_set_prior) {
    (void)no_set_prior;
    Instance *m = c;
    if (t >= m->t_fail - 1e-9) {
#if defined(FAULT_ERROR)
        m->functions.logger(m->functions.componentEnvironment, m->name, fmi2Error, "logStatusError",
                            "the solver diverged at t = %g", t);
        return fmi2Error;
#elif defined(FAULT_SEGFAULT)
        volatile int *volatile nothing = NULL;
        *nothing = 42;
#elif defined(FAULT_TERMINATE)
        m->time = t + h / 2;
        m->y = m->u + m->time;
        m->terminated = fmi2True;
        return fmi2Discard;
#endif
    }
    m->time = t + h;
    m->y = m->u + m->time;
    return fmi2OK;
}

fmi2Status fmi2GetBooleanStatus(fmi2Component c, const fmi2StatusKind kind, fmi2Boolean *value) {
    Instance *m = c;
    if (kind != fmi2Terminated) return fmi2Discard;
    *value = m->terminated;
    return fmi2OK;
}

fmi2Status fmi2GetRealStatus(fmi2Component c, const fmi2StatusKind kind, fmi2Real *value) {
    Instance *m = c;
    if (kind != fmi2LastSuccessfulTime) return fmi2Discard;
    *value = m->time;
    return fmi2OK;
}
