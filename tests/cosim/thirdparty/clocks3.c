/*
 * clocks3.c -- a hand-written FMI 3.0 FMU with input clocks, in all three interfaces:
 * Scheduled Execution (a model partition per clock), and Co-Simulation (with Event Mode) and
 * Model Exchange, where the importer sets the clocks active in Event Mode.
 *
 *   tick       periodic, every 0.25 s from the start    -> ticks += 1; every 4th tick sets
 *                                                           the countdown clock to 0.1 s
 *   trigger    triggered (the importer says when)        -> triggers += 1
 *   countdown  countdown, 0.1 s after every 4th tick     -> countdowns += 1, countdown_time = t
 *
 * Priorities: tick before trigger before countdown. No continuous states.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fmi3Functions.h"

enum { VR_TIME = 0, VR_TICK = 1, VR_TRIGGER = 2, VR_COUNTDOWN = 3, VR_TICKS = 10, VR_TRIGGERS = 11,
       VR_COUNTDOWNS = 12, VR_COUNTDOWN_TIME = 13 };

typedef struct {
    fmi3InstanceEnvironment environment;
    fmi3LogMessageCallback log;
    fmi3ClockUpdateCallback clock_update;
    double time, countdown_time;
    int ticks, triggers, countdowns;
    fmi3IntervalQualifier countdown_qualifier;
    bool active[3]; /* in Event Mode: tick, trigger, countdown */
} Instance;

static Instance *create(fmi3InstanceEnvironment environment, fmi3LogMessageCallback log,
                        fmi3ClockUpdateCallback clock_update) {
    Instance *m = calloc(1, sizeof *m);
    if (!m) return NULL;
    m->environment = environment, m->log = log, m->clock_update = clock_update;
    m->countdown_qualifier = fmi3IntervalNotYetKnown;
    return m;
}

static void say(Instance *m, const char *text) {
    if (m->log) m->log(m->environment, fmi3Error, "logStatusError", text);
}

/* What one activation of clock vr at time t does. */
static fmi3Status activate(Instance *m, fmi3ValueReference vr, double t) {
    m->time = t;
    switch (vr) {
    case VR_TICK:
        if (++m->ticks % 4 == 0) {
            m->countdown_qualifier = fmi3IntervalChanged;
            if (m->clock_update) m->clock_update(m->environment);
        }
        return fmi3OK;
    case VR_TRIGGER: m->triggers++; return fmi3OK;
    case VR_COUNTDOWN:
        m->countdowns++;
        m->countdown_time = t;
        return fmi3OK;
    default: say(m, "not an input clock"); return fmi3Error;
    }
}

#define IMPLEMENTS_fmi3InstantiateScheduledExecution
fmi3Instance fmi3InstantiateScheduledExecution(fmi3String name, fmi3String token, fmi3String resources,
                                               fmi3Boolean visible, fmi3Boolean logging_on,
                                               fmi3InstanceEnvironment environment, fmi3LogMessageCallback log,
                                               fmi3ClockUpdateCallback clock_update, fmi3LockPreemptionCallback lock,
                                               fmi3UnlockPreemptionCallback unlock) {
    (void)name, (void)token, (void)resources, (void)visible, (void)logging_on, (void)lock, (void)unlock;
    return create(environment, log, clock_update);
}

#define IMPLEMENTS_fmi3InstantiateCoSimulation
fmi3Instance fmi3InstantiateCoSimulation(fmi3String name, fmi3String token, fmi3String resources, fmi3Boolean visible,
                                         fmi3Boolean logging_on, fmi3Boolean event_mode_used,
                                         fmi3Boolean early_return_allowed, const fmi3ValueReference required[],
                                         size_t n_required, fmi3InstanceEnvironment environment,
                                         fmi3LogMessageCallback log, fmi3IntermediateUpdateCallback update) {
    (void)name, (void)token, (void)resources, (void)visible, (void)logging_on, (void)early_return_allowed;
    (void)required, (void)n_required, (void)update;
    if (!event_mode_used) {
        if (log) log(environment, fmi3Error, "logStatusError", "clocks need Event Mode (eventModeUsed)");
        return NULL;
    }
    return create(environment, log, NULL);
}

#define IMPLEMENTS_fmi3InstantiateModelExchange
fmi3Instance fmi3InstantiateModelExchange(fmi3String name, fmi3String token, fmi3String resources,
                                          fmi3Boolean visible, fmi3Boolean logging_on,
                                          fmi3InstanceEnvironment environment, fmi3LogMessageCallback log) {
    (void)name, (void)token, (void)resources, (void)visible, (void)logging_on;
    return create(environment, log, NULL);
}

#define IMPLEMENTS_fmi3FreeInstance
void fmi3FreeInstance(fmi3Instance instance) { free(instance); }

#define IMPLEMENTS_fmi3EnterInitializationMode
fmi3Status fmi3EnterInitializationMode(fmi3Instance instance, fmi3Boolean has_tolerance, fmi3Float64 tolerance,
                                       fmi3Float64 start, fmi3Boolean has_stop, fmi3Float64 stop) {
    (void)has_tolerance, (void)tolerance, (void)has_stop, (void)stop;
    ((Instance *)instance)->time = start;
    return fmi3OK;
}

#define IMPLEMENTS_fmi3ExitInitializationMode
fmi3Status fmi3ExitInitializationMode(fmi3Instance instance) { (void)instance; return fmi3OK; }
#define IMPLEMENTS_fmi3EnterEventMode
fmi3Status fmi3EnterEventMode(fmi3Instance instance) { (void)instance; return fmi3OK; }
#define IMPLEMENTS_fmi3EnterStepMode
fmi3Status fmi3EnterStepMode(fmi3Instance instance) { (void)instance; return fmi3OK; }
#define IMPLEMENTS_fmi3EnterContinuousTimeMode
fmi3Status fmi3EnterContinuousTimeMode(fmi3Instance instance) { (void)instance; return fmi3OK; }
#define IMPLEMENTS_fmi3Terminate
fmi3Status fmi3Terminate(fmi3Instance instance) { (void)instance; return fmi3OK; }

#define IMPLEMENTS_fmi3Reset
fmi3Status fmi3Reset(fmi3Instance instance) {
    Instance *m = instance;
    Instance fresh = {m->environment, m->log, m->clock_update, 0, 0, 0, 0, 0, fmi3IntervalNotYetKnown, {false}};
    *m = fresh;
    return fmi3OK;
}

#define IMPLEMENTS_fmi3ActivateModelPartition
fmi3Status fmi3ActivateModelPartition(fmi3Instance instance, fmi3ValueReference clock, fmi3Float64 time) {
    return activate(instance, clock, time);
}

#define IMPLEMENTS_fmi3SetClock
fmi3Status fmi3SetClock(fmi3Instance instance, const fmi3ValueReference vrs[], size_t n, const fmi3Clock values[]) {
    Instance *m = instance;
    for (size_t k = 0; k < n; k++) {
        if (vrs[k] < VR_TICK || vrs[k] > VR_COUNTDOWN) {
            say(m, "fmi3SetClock: not an input clock");
            return fmi3Error;
        }
        m->active[vrs[k] - VR_TICK] = values[k];
    }
    return fmi3OK;
}

#define IMPLEMENTS_fmi3UpdateDiscreteStates
fmi3Status fmi3UpdateDiscreteStates(fmi3Instance instance, fmi3Boolean *again, fmi3Boolean *terminate,
                                    fmi3Boolean *nominals, fmi3Boolean *values, fmi3Boolean *next_defined,
                                    fmi3Float64 *next) {
    Instance *m = instance;
    for (int k = 0; k < 3; k++) { /* in priority order */
        if (m->active[k] && activate(m, VR_TICK + (fmi3ValueReference)k, m->time) != fmi3OK) return fmi3Error;
        m->active[k] = false;
    }
    *again = *terminate = *nominals = *values = *next_defined = fmi3False;
    *next = 0.0;
    return fmi3OK;
}

#define IMPLEMENTS_fmi3GetIntervalDecimal
fmi3Status fmi3GetIntervalDecimal(fmi3Instance instance, const fmi3ValueReference vrs[], size_t n,
                                  fmi3Float64 intervals[], fmi3IntervalQualifier qualifiers[]) {
    Instance *m = instance;
    for (size_t k = 0; k < n; k++) {
        if (vrs[k] == VR_TICK) {
            intervals[k] = 0.25;
            qualifiers[k] = fmi3IntervalUnchanged;
        } else if (vrs[k] == VR_COUNTDOWN) {
            qualifiers[k] = m->countdown_qualifier;
            if (m->countdown_qualifier == fmi3IntervalChanged) {
                intervals[k] = 0.1;
                m->countdown_qualifier = fmi3IntervalUnchanged;
            }
        } else {
            say(m, "fmi3GetIntervalDecimal: no interval");
            return fmi3Error;
        }
    }
    return fmi3OK;
}

#define IMPLEMENTS_fmi3GetInt32
fmi3Status fmi3GetInt32(fmi3Instance instance, const fmi3ValueReference vrs[], size_t n, fmi3Int32 values[],
                        size_t n_values) {
    Instance *m = instance;
    if (n != n_values) return fmi3Error;
    for (size_t k = 0; k < n; k++)
        values[k] = vrs[k] == VR_TICKS ? m->ticks : vrs[k] == VR_TRIGGERS ? m->triggers : m->countdowns;
    return fmi3OK;
}

#define IMPLEMENTS_fmi3GetFloat64
fmi3Status fmi3GetFloat64(fmi3Instance instance, const fmi3ValueReference vrs[], size_t n, fmi3Float64 values[],
                          size_t n_values) {
    Instance *m = instance;
    if (n != n_values) return fmi3Error;
    for (size_t k = 0; k < n; k++) values[k] = vrs[k] == VR_TIME ? m->time : m->countdown_time;
    return fmi3OK;
}

/* ---- Co-Simulation and Model Exchange without states ---- */

#define IMPLEMENTS_fmi3DoStep
fmi3Status fmi3DoStep(fmi3Instance instance, fmi3Float64 t, fmi3Float64 h, fmi3Boolean no_set_prior,
                      fmi3Boolean *event_needed, fmi3Boolean *terminate, fmi3Boolean *early, fmi3Float64 *last) {
    (void)no_set_prior;
    Instance *m = instance;
    m->time = t + h;
    *event_needed = *terminate = *early = fmi3False;
    *last = m->time;
    return fmi3OK;
}

#define IMPLEMENTS_fmi3SetTime
fmi3Status fmi3SetTime(fmi3Instance instance, fmi3Float64 time) {
    ((Instance *)instance)->time = time;
    return fmi3OK;
}

#define IMPLEMENTS_fmi3GetNumberOfContinuousStates
fmi3Status fmi3GetNumberOfContinuousStates(fmi3Instance instance, size_t *n) {
    (void)instance;
    *n = 0;
    return fmi3OK;
}

#define IMPLEMENTS_fmi3GetNumberOfEventIndicators
fmi3Status fmi3GetNumberOfEventIndicators(fmi3Instance instance, size_t *n) {
    (void)instance;
    *n = 0;
    return fmi3OK;
}

#define IMPLEMENTS_fmi3SetContinuousStates
fmi3Status fmi3SetContinuousStates(fmi3Instance instance, const fmi3Float64 x[], size_t n) {
    (void)instance, (void)x;
    return n == 0 ? fmi3OK : fmi3Error;
}

#define IMPLEMENTS_fmi3GetContinuousStates
fmi3Status fmi3GetContinuousStates(fmi3Instance instance, fmi3Float64 x[], size_t n) {
    (void)instance, (void)x;
    return n == 0 ? fmi3OK : fmi3Error;
}

#define IMPLEMENTS_fmi3GetContinuousStateDerivatives
fmi3Status fmi3GetContinuousStateDerivatives(fmi3Instance instance, fmi3Float64 dx[], size_t n) {
    (void)instance, (void)dx;
    return n == 0 ? fmi3OK : fmi3Error;
}

#define IMPLEMENTS_fmi3GetNominalsOfContinuousStates
fmi3Status fmi3GetNominalsOfContinuousStates(fmi3Instance instance, fmi3Float64 nominals[], size_t n) {
    (void)instance, (void)nominals;
    return n == 0 ? fmi3OK : fmi3Error;
}

#define IMPLEMENTS_fmi3GetEventIndicators
fmi3Status fmi3GetEventIndicators(fmi3Instance instance, fmi3Float64 z[], size_t n) {
    (void)instance, (void)z;
    return n == 0 ? fmi3OK : fmi3Error;
}

#define IMPLEMENTS_fmi3CompletedIntegratorStep
fmi3Status fmi3CompletedIntegratorStep(fmi3Instance instance, fmi3Boolean no_set, fmi3Boolean *event,
                                       fmi3Boolean *terminate) {
    (void)instance, (void)no_set;
    *event = *terminate = fmi3False;
    return fmi3OK;
}

#include "stubs3.c"
