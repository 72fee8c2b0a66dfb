/* An FMI 2.0 Model Exchange FMU written by hand, for testing the master's FMI 2.0 adapter of
 * the Model Exchange driver: a ball bouncing with restitution e,
 *   der(h) = v, der(v) = -g, when h < 0 then reinit(v, -e * pre(v)).
 * The relation h < 0 switches with a small hysteresis band, as model.h describes. */
#include <stdlib.h>
#include <string.h>

#include "fmi2Functions.h"

#define GUID "{8c4e810f-3df3-4a00-8276-176fa3c9f000}"
#define BAND 1e-10
enum { VR_H, VR_DER_H, VR_V, VR_DER_V, VR_G, VR_E, N_VR };

typedef struct {
    double time, values[N_VR];
    int ground; /* latched h < 0 */
    int event_mode;
    fmi2CallbackFunctions callbacks;
} Ball;

static void derivatives(Ball *b) {
    b->values[VR_DER_H] = b->values[VR_V];
    b->values[VR_DER_V] = -b->values[VR_G];
}

const char *fmi2GetTypesPlatform(void) { return fmi2TypesPlatform; }
const char *fmi2GetVersion(void) { return fmi2Version; }

fmi2Status fmi2SetDebugLogging(fmi2Component c, fmi2Boolean on, size_t n, const fmi2String categories[]) {
    (void)c, (void)on, (void)n, (void)categories;
    return fmi2OK;
}

fmi2Component fmi2Instantiate(fmi2String name, fmi2Type type, fmi2String guid, fmi2String location,
                              const fmi2CallbackFunctions *callbacks, fmi2Boolean visible, fmi2Boolean logging) {
    (void)name, (void)location, (void)visible, (void)logging;
    if (type != fmi2ModelExchange || !guid || strcmp(guid, GUID) != 0) return NULL;
    Ball *b = calloc(1, sizeof(Ball));
    if (!b) return NULL;
    b->callbacks = *callbacks;
    b->values[VR_H] = 1.0;
    b->values[VR_G] = 9.81;
    b->values[VR_E] = 0.7;
    return b;
}

void fmi2FreeInstance(fmi2Component c) { free(c); }

fmi2Status fmi2SetupExperiment(fmi2Component c, fmi2Boolean tolerance_defined, fmi2Real tolerance,
                               fmi2Real start, fmi2Boolean stop_defined, fmi2Real stop) {
    (void)tolerance_defined, (void)tolerance, (void)stop_defined, (void)stop;
    ((Ball *)c)->time = start;
    return fmi2OK;
}

fmi2Status fmi2EnterInitializationMode(fmi2Component c) { (void)c; return fmi2OK; }

fmi2Status fmi2ExitInitializationMode(fmi2Component c) {
    Ball *b = c;
    b->ground = -b->values[VR_H] > 0.0;
    b->event_mode = 1;
    derivatives(b);
    return fmi2OK;
}

fmi2Status fmi2Terminate(fmi2Component c) { (void)c; return fmi2OK; }
fmi2Status fmi2Reset(fmi2Component c) { (void)c; return fmi2Error; }

fmi2Status fmi2GetReal(fmi2Component c, const fmi2ValueReference vr[], size_t n, fmi2Real value[]) {
    Ball *b = c;
    derivatives(b);
    for (size_t k = 0; k < n; k++) {
        if (vr[k] >= N_VR) return fmi2Error;
        value[k] = b->values[vr[k]];
    }
    return fmi2OK;
}

fmi2Status fmi2SetReal(fmi2Component c, const fmi2ValueReference vr[], size_t n, const fmi2Real value[]) {
    Ball *b = c;
    for (size_t k = 0; k < n; k++) {
        if (vr[k] >= N_VR || vr[k] == VR_DER_H || vr[k] == VR_DER_V) return fmi2Error;
        b->values[vr[k]] = value[k];
    }
    return fmi2OK;
}

fmi2Status fmi2EnterEventMode(fmi2Component c) {
    ((Ball *)c)->event_mode = 1;
    return fmi2OK;
}

fmi2Status fmi2NewDiscreteStates(fmi2Component c, fmi2EventInfo *info) {
    Ball *b = c;
    const double d = -b->values[VR_H];
    const int before = b->ground;
    b->ground = before ? d > -BAND : d >= BAND;
    memset(info, 0, sizeof *info);
    if (b->ground && !before) { /* when h < 0 */
        b->values[VR_V] = -b->values[VR_E] * b->values[VR_V];
        info->valuesOfContinuousStatesChanged = fmi2True;
    }
    info->newDiscreteStatesNeeded = fmi2False;
    return fmi2OK;
}

fmi2Status fmi2EnterContinuousTimeMode(fmi2Component c) {
    ((Ball *)c)->event_mode = 0;
    return fmi2OK;
}

fmi2Status fmi2CompletedIntegratorStep(fmi2Component c, fmi2Boolean no_set_prior, fmi2Boolean *event,
                                       fmi2Boolean *terminate) {
    (void)c, (void)no_set_prior;
    *event = fmi2False;
    *terminate = fmi2False;
    return fmi2OK;
}

fmi2Status fmi2SetTime(fmi2Component c, fmi2Real time) {
    ((Ball *)c)->time = time;
    return fmi2OK;
}

fmi2Status fmi2SetContinuousStates(fmi2Component c, const fmi2Real x[], size_t n) {
    Ball *b = c;
    if (n != 2) return fmi2Error;
    b->values[VR_H] = x[0];
    b->values[VR_V] = x[1];
    return fmi2OK;
}

fmi2Status fmi2GetContinuousStates(fmi2Component c, fmi2Real x[], size_t n) {
    Ball *b = c;
    if (n != 2) return fmi2Error;
    x[0] = b->values[VR_H];
    x[1] = b->values[VR_V];
    return fmi2OK;
}

fmi2Status fmi2GetDerivatives(fmi2Component c, fmi2Real dx[], size_t n) {
    Ball *b = c;
    if (n != 2) return fmi2Error;
    derivatives(b);
    dx[0] = b->values[VR_DER_H];
    dx[1] = b->values[VR_DER_V];
    return fmi2OK;
}

fmi2Status fmi2GetEventIndicators(fmi2Component c, fmi2Real z[], size_t n) {
    Ball *b = c;
    if (n != 1) return fmi2Error;
    z[0] = b->ground ? -b->values[VR_H] + BAND : -b->values[VR_H] - BAND;
    return fmi2OK;
}

fmi2Status fmi2GetNominalsOfContinuousStates(fmi2Component c, fmi2Real nominals[], size_t n) {
    (void)c;
    for (size_t k = 0; k < n; k++) nominals[k] = 1.0;
    return fmi2OK;
}

/* Not provided by this FMU (canGetAndSetFMUstate and providesDirectionalDerivative are false). */
#define UNSUPPORTED(call) fmi2Status call { return fmi2Error; }
UNSUPPORTED(fmi2GetInteger(fmi2Component c, const fmi2ValueReference vr[], size_t n, fmi2Integer v[]))
UNSUPPORTED(fmi2GetBoolean(fmi2Component c, const fmi2ValueReference vr[], size_t n, fmi2Boolean v[]))
UNSUPPORTED(fmi2GetString(fmi2Component c, const fmi2ValueReference vr[], size_t n, fmi2String v[]))
UNSUPPORTED(fmi2SetInteger(fmi2Component c, const fmi2ValueReference vr[], size_t n, const fmi2Integer v[]))
UNSUPPORTED(fmi2SetBoolean(fmi2Component c, const fmi2ValueReference vr[], size_t n, const fmi2Boolean v[]))
UNSUPPORTED(fmi2SetString(fmi2Component c, const fmi2ValueReference vr[], size_t n, const fmi2String v[]))
UNSUPPORTED(fmi2GetFMUstate(fmi2Component c, fmi2FMUstate *s))
UNSUPPORTED(fmi2SetFMUstate(fmi2Component c, fmi2FMUstate s))
UNSUPPORTED(fmi2FreeFMUstate(fmi2Component c, fmi2FMUstate *s))
UNSUPPORTED(fmi2SerializedFMUstateSize(fmi2Component c, fmi2FMUstate s, size_t *n))
UNSUPPORTED(fmi2SerializeFMUstate(fmi2Component c, fmi2FMUstate s, fmi2Byte b[], size_t n))
UNSUPPORTED(fmi2DeSerializeFMUstate(fmi2Component c, const fmi2Byte b[], size_t n, fmi2FMUstate *s))
UNSUPPORTED(fmi2GetDirectionalDerivative(fmi2Component c, const fmi2ValueReference u[], size_t nu,
                                         const fmi2ValueReference k[], size_t nk, const fmi2Real dk[], fmi2Real du[]))
