/*
 * typed3.c -- a hand-written FMI 3.0 FMU (Model Exchange and Co-Simulation, not built by
 * cosim) with every kind of value the master exchanges:
 *
 *   n (UInt64, structural parameter, 1..8)   the size of the arrays u, y, x and M
 *   u[n] (Float64 input)  ->  y[n] = k u      (output, direct feedthrough)
 *   x[n] (states)  x' = u - x, x(0) = 0       (Co-Simulation: solved exactly over each step)
 *   M[2,n] (output)  M[1,j] = u[j], M[2,j] = x[j]
 *   i64, u64 (Int64, UInt64 inputs) -> i64_out, u64_out (the same values, every bit)
 *   s (String) -> s_out = "<" s ">";  b (Binary) -> b_out = b reversed;  flag -> flag_out = !flag
 *   p8 (Int8 parameter, min -100 max 100) -> p8_out;  u8 (UInt8 parameter) -> u8_out
 *
 * Value references are the enum below; arrays are row-major.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fmi3Functions.h"

enum {
    VR_TIME, VR_N, VR_K, VR_P8, VR_U, VR_Y, VR_X, VR_DX, VR_M, VR_I64, VR_I64_OUT, VR_U64, VR_U64_OUT, VR_S,
    VR_S_OUT, VR_B, VR_B_OUT, VR_FLAG, VR_FLAG_OUT, VR_P8_OUT, VR_U8, VR_U8_OUT
};
#define MAX_N 8
#define TEXT 256

typedef struct {
    fmi3InstanceEnvironment environment;
    fmi3LogMessageCallback log;
    bool model_exchange;
    double time, k;
    uint64_t n;
    double u[MAX_N], x[MAX_N];
    int64_t i64;
    uint64_t u64;
    int8_t p8;
    uint8_t u8;
    bool flag;
    char s[TEXT], s_out[TEXT + 2];
    unsigned char b[TEXT], b_out[TEXT];
    size_t b_size;
} Instance;

static fmi3Status fail(Instance *m, const char *message, size_t expected, size_t got) {
    char text[256];
    snprintf(text, sizeof text, "%s (expected %zu values, got %zu)", message, expected, got);
    if (m->log) m->log(m->environment, fmi3Error, "logStatusError", text);
    return fmi3Error;
}

static size_t size_of(const Instance *m, fmi3ValueReference vr) {
    switch (vr) {
    case VR_U: case VR_Y: case VR_X: case VR_DX: return m->n;
    case VR_M: return 2 * m->n;
    default: return 1;
    }
}

/* How many values the value references ask for. */
static size_t values_for(const Instance *m, const fmi3ValueReference vrs[], size_t nvr) {
    size_t total = 0;
    for (size_t k = 0; k < nvr; k++) total += size_of(m, vrs[k]);
    return total;
}

#define CHECK_VALUES()                                                          \
    do {                                                                        \
        const size_t expected_ = values_for(m, vrs, nvr);                       \
        if (expected_ != n_values) return fail(m, __func__, expected_, n_values); \
    } while (0)

static Instance *create(fmi3InstanceEnvironment environment, fmi3LogMessageCallback log, bool me) {
    Instance *m = calloc(1, sizeof *m);
    if (!m) return NULL;
    m->environment = environment, m->log = log, m->model_exchange = me;
    m->n = 3, m->k = 2.0;
    for (int j = 0; j < 3; j++) m->u[j] = j + 1;
    strcpy(m->s, "hello");
    m->b[0] = 0x00, m->b[1] = 0xff, m->b_size = 2;
    return m;
}

#define IMPLEMENTS_fmi3InstantiateModelExchange
fmi3Instance fmi3InstantiateModelExchange(fmi3String name, fmi3String token, fmi3String resources,
                                          fmi3Boolean visible, fmi3Boolean logging_on,
                                          fmi3InstanceEnvironment environment, fmi3LogMessageCallback log) {
    (void)name, (void)token, (void)resources, (void)visible, (void)logging_on;
    return create(environment, log, true);
}

#define IMPLEMENTS_fmi3InstantiateCoSimulation
fmi3Instance fmi3InstantiateCoSimulation(fmi3String name, fmi3String token, fmi3String resources, fmi3Boolean visible,
                                         fmi3Boolean logging_on, fmi3Boolean event_mode_used,
                                         fmi3Boolean early_return_allowed, const fmi3ValueReference required[],
                                         size_t n_required, fmi3InstanceEnvironment environment,
                                         fmi3LogMessageCallback log, fmi3IntermediateUpdateCallback update) {
    (void)name, (void)token, (void)resources, (void)visible, (void)logging_on, (void)event_mode_used;
    (void)early_return_allowed, (void)required, (void)n_required, (void)update;
    return create(environment, log, false);
}

#define IMPLEMENTS_fmi3FreeInstance
void fmi3FreeInstance(fmi3Instance instance) { free(instance); }

static void compute(Instance *m) {
    snprintf(m->s_out, sizeof m->s_out, "<%s>", m->s);
    for (size_t j = 0; j < m->b_size; j++) m->b_out[j] = m->b[m->b_size - 1 - j];
}

#define IMPLEMENTS_fmi3EnterInitializationMode
fmi3Status fmi3EnterInitializationMode(fmi3Instance instance, fmi3Boolean has_tolerance, fmi3Float64 tolerance,
                                       fmi3Float64 start, fmi3Boolean has_stop, fmi3Float64 stop) {
    (void)has_tolerance, (void)tolerance, (void)has_stop, (void)stop;
    ((Instance *)instance)->time = start;
    return fmi3OK;
}

#define IMPLEMENTS_fmi3ExitInitializationMode
fmi3Status fmi3ExitInitializationMode(fmi3Instance instance) {
    compute(instance);
    return fmi3OK;
}

#define IMPLEMENTS_fmi3EnterConfigurationMode
fmi3Status fmi3EnterConfigurationMode(fmi3Instance instance) { (void)instance; return fmi3OK; }
#define IMPLEMENTS_fmi3ExitConfigurationMode
fmi3Status fmi3ExitConfigurationMode(fmi3Instance instance) { (void)instance; return fmi3OK; }
#define IMPLEMENTS_fmi3EnterEventMode
fmi3Status fmi3EnterEventMode(fmi3Instance instance) { (void)instance; return fmi3OK; }
#define IMPLEMENTS_fmi3EnterContinuousTimeMode
fmi3Status fmi3EnterContinuousTimeMode(fmi3Instance instance) { (void)instance; return fmi3OK; }
#define IMPLEMENTS_fmi3EnterStepMode
fmi3Status fmi3EnterStepMode(fmi3Instance instance) { (void)instance; return fmi3OK; }
#define IMPLEMENTS_fmi3Terminate
fmi3Status fmi3Terminate(fmi3Instance instance) { (void)instance; return fmi3OK; }
#define IMPLEMENTS_fmi3SetDebugLogging
fmi3Status fmi3SetDebugLogging(fmi3Instance instance, fmi3Boolean on, size_t n, const fmi3String categories[]) {
    (void)instance, (void)on, (void)n, (void)categories;
    return fmi3OK;
}

#define IMPLEMENTS_fmi3Reset
fmi3Status fmi3Reset(fmi3Instance instance) {
    Instance *m = instance;
    Instance *fresh = create(m->environment, m->log, m->model_exchange);
    if (!fresh) return fmi3Fatal;
    *m = *fresh;
    free(fresh);
    return fmi3OK;
}

#define IMPLEMENTS_fmi3UpdateDiscreteStates
fmi3Status fmi3UpdateDiscreteStates(fmi3Instance instance, fmi3Boolean *again, fmi3Boolean *terminate,
                                    fmi3Boolean *nominals, fmi3Boolean *values, fmi3Boolean *next_defined,
                                    fmi3Float64 *next) {
    (void)instance;
    *again = *terminate = *nominals = *values = *next_defined = fmi3False;
    *next = 0;
    return fmi3OK;
}

/* ---- getters and setters ---- */

#define IMPLEMENTS_fmi3GetFloat64
fmi3Status fmi3GetFloat64(fmi3Instance instance, const fmi3ValueReference vrs[], size_t nvr, fmi3Float64 values[],
                          size_t n_values) {
    Instance *m = instance;
    CHECK_VALUES();
    size_t at = 0;
    for (size_t k = 0; k < nvr; k++) {
        for (size_t j = 0; j < size_of(m, vrs[k]); j++) {
            switch (vrs[k]) {
            case VR_TIME: values[at++] = m->time; break;
            case VR_K: values[at++] = m->k; break;
            case VR_U: values[at++] = m->u[j]; break;
            case VR_Y: values[at++] = m->k * m->u[j]; break;
            case VR_X: values[at++] = m->x[j]; break;
            case VR_DX: values[at++] = m->u[j] - m->x[j]; break;
            case VR_M: values[at++] = j < m->n ? m->u[j] : m->x[j - m->n]; break;
            default: return fail(m, "fmi3GetFloat64: not a Float64 value reference", vrs[k], 0);
            }
        }
    }
    return fmi3OK;
}

#define IMPLEMENTS_fmi3SetFloat64
fmi3Status fmi3SetFloat64(fmi3Instance instance, const fmi3ValueReference vrs[], size_t nvr,
                          const fmi3Float64 values[], size_t n_values) {
    Instance *m = instance;
    CHECK_VALUES();
    size_t at = 0;
    for (size_t k = 0; k < nvr; k++) {
        if (vrs[k] == VR_K) m->k = values[at++];
        else if (vrs[k] == VR_U) for (size_t j = 0; j < m->n; j++) m->u[j] = values[at++];
        else return fail(m, "fmi3SetFloat64: not a settable Float64", vrs[k], 0);
    }
    return fmi3OK;
}

#define IMPLEMENTS_fmi3GetInt8
fmi3Status fmi3GetInt8(fmi3Instance instance, const fmi3ValueReference vrs[], size_t nvr, fmi3Int8 values[],
                       size_t n_values) {
    Instance *m = instance;
    CHECK_VALUES();
    for (size_t k = 0; k < nvr; k++) values[k] = m->p8;
    return fmi3OK;
}

#define IMPLEMENTS_fmi3SetInt8
fmi3Status fmi3SetInt8(fmi3Instance instance, const fmi3ValueReference vrs[], size_t nvr, const fmi3Int8 values[],
                       size_t n_values) {
    Instance *m = instance;
    CHECK_VALUES();
    if (nvr) m->p8 = values[0];
    return fmi3OK;
}

#define IMPLEMENTS_fmi3GetUInt8
fmi3Status fmi3GetUInt8(fmi3Instance instance, const fmi3ValueReference vrs[], size_t nvr, fmi3UInt8 values[],
                        size_t n_values) {
    Instance *m = instance;
    CHECK_VALUES();
    for (size_t k = 0; k < nvr; k++) values[k] = m->u8;
    return fmi3OK;
}

#define IMPLEMENTS_fmi3SetUInt8
fmi3Status fmi3SetUInt8(fmi3Instance instance, const fmi3ValueReference vrs[], size_t nvr, const fmi3UInt8 values[],
                        size_t n_values) {
    Instance *m = instance;
    CHECK_VALUES();
    if (nvr) m->u8 = values[0];
    return fmi3OK;
}

#define IMPLEMENTS_fmi3GetInt64
fmi3Status fmi3GetInt64(fmi3Instance instance, const fmi3ValueReference vrs[], size_t nvr, fmi3Int64 values[],
                        size_t n_values) {
    Instance *m = instance;
    CHECK_VALUES();
    for (size_t k = 0; k < nvr; k++) values[k] = m->i64;
    return fmi3OK;
}

#define IMPLEMENTS_fmi3SetInt64
fmi3Status fmi3SetInt64(fmi3Instance instance, const fmi3ValueReference vrs[], size_t nvr, const fmi3Int64 values[],
                        size_t n_values) {
    Instance *m = instance;
    CHECK_VALUES();
    if (nvr) m->i64 = values[0];
    return fmi3OK;
}

#define IMPLEMENTS_fmi3GetUInt64
fmi3Status fmi3GetUInt64(fmi3Instance instance, const fmi3ValueReference vrs[], size_t nvr, fmi3UInt64 values[],
                         size_t n_values) {
    Instance *m = instance;
    CHECK_VALUES();
    for (size_t k = 0; k < nvr; k++) values[k] = vrs[k] == VR_N ? m->n : m->u64;
    return fmi3OK;
}

#define IMPLEMENTS_fmi3SetUInt64
fmi3Status fmi3SetUInt64(fmi3Instance instance, const fmi3ValueReference vrs[], size_t nvr, const fmi3UInt64 values[],
                         size_t n_values) {
    Instance *m = instance;
    if (nvr != n_values) return fail(m, "fmi3SetUInt64", nvr, n_values);
    for (size_t k = 0; k < nvr; k++) {
        if (vrs[k] == VR_N) {
            if (values[k] < 1 || values[k] > MAX_N) return fail(m, "fmi3SetUInt64: n out of 1..8", MAX_N, values[k]);
            m->n = values[k];
        } else {
            m->u64 = values[k];
        }
    }
    return fmi3OK;
}

#define IMPLEMENTS_fmi3GetBoolean
fmi3Status fmi3GetBoolean(fmi3Instance instance, const fmi3ValueReference vrs[], size_t nvr, fmi3Boolean values[],
                          size_t n_values) {
    Instance *m = instance;
    CHECK_VALUES();
    for (size_t k = 0; k < nvr; k++) values[k] = vrs[k] == VR_FLAG ? m->flag : !m->flag;
    return fmi3OK;
}

#define IMPLEMENTS_fmi3SetBoolean
fmi3Status fmi3SetBoolean(fmi3Instance instance, const fmi3ValueReference vrs[], size_t nvr,
                          const fmi3Boolean values[], size_t n_values) {
    Instance *m = instance;
    CHECK_VALUES();
    if (nvr) m->flag = values[0];
    return fmi3OK;
}

#define IMPLEMENTS_fmi3GetString
fmi3Status fmi3GetString(fmi3Instance instance, const fmi3ValueReference vrs[], size_t nvr, fmi3String values[],
                         size_t n_values) {
    Instance *m = instance;
    CHECK_VALUES();
    compute(m);
    for (size_t k = 0; k < nvr; k++) values[k] = vrs[k] == VR_S ? m->s : m->s_out;
    return fmi3OK;
}

#define IMPLEMENTS_fmi3SetString
fmi3Status fmi3SetString(fmi3Instance instance, const fmi3ValueReference vrs[], size_t nvr, const fmi3String values[],
                         size_t n_values) {
    Instance *m = instance;
    CHECK_VALUES();
    if (nvr) snprintf(m->s, sizeof m->s, "%s", values[0] ? values[0] : "");
    return fmi3OK;
}

#define IMPLEMENTS_fmi3GetBinary
fmi3Status fmi3GetBinary(fmi3Instance instance, const fmi3ValueReference vrs[], size_t nvr, size_t sizes[],
                         fmi3Binary values[], size_t n_values) {
    Instance *m = instance;
    CHECK_VALUES();
    compute(m);
    for (size_t k = 0; k < nvr; k++) {
        values[k] = vrs[k] == VR_B ? m->b : m->b_out;
        sizes[k] = m->b_size;
    }
    return fmi3OK;
}

#define IMPLEMENTS_fmi3SetBinary
fmi3Status fmi3SetBinary(fmi3Instance instance, const fmi3ValueReference vrs[], size_t nvr, const size_t sizes[],
                         const fmi3Binary values[], size_t n_values) {
    Instance *m = instance;
    CHECK_VALUES();
    if (nvr) {
        m->b_size = sizes[0] < TEXT ? sizes[0] : TEXT;
        memcpy(m->b, values[0], m->b_size);
    }
    return fmi3OK;
}

/* ---- Model Exchange ---- */

#define IMPLEMENTS_fmi3SetTime
fmi3Status fmi3SetTime(fmi3Instance instance, fmi3Float64 time) {
    ((Instance *)instance)->time = time;
    return fmi3OK;
}

#define IMPLEMENTS_fmi3GetNumberOfContinuousStates
fmi3Status fmi3GetNumberOfContinuousStates(fmi3Instance instance, size_t *n) {
    *n = ((Instance *)instance)->n;
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
    Instance *m = instance;
    if (n != m->n) return fail(m, "fmi3SetContinuousStates", m->n, n);
    memcpy(m->x, x, n * sizeof x[0]);
    return fmi3OK;
}

#define IMPLEMENTS_fmi3GetContinuousStates
fmi3Status fmi3GetContinuousStates(fmi3Instance instance, fmi3Float64 x[], size_t n) {
    Instance *m = instance;
    if (n != m->n) return fail(m, "fmi3GetContinuousStates", m->n, n);
    memcpy(x, m->x, n * sizeof x[0]);
    return fmi3OK;
}

#define IMPLEMENTS_fmi3GetContinuousStateDerivatives
fmi3Status fmi3GetContinuousStateDerivatives(fmi3Instance instance, fmi3Float64 dx[], size_t n) {
    Instance *m = instance;
    if (n != m->n) return fail(m, "fmi3GetContinuousStateDerivatives", m->n, n);
    for (size_t j = 0; j < n; j++) dx[j] = m->u[j] - m->x[j];
    return fmi3OK;
}

#define IMPLEMENTS_fmi3GetNominalsOfContinuousStates
fmi3Status fmi3GetNominalsOfContinuousStates(fmi3Instance instance, fmi3Float64 nominals[], size_t n) {
    (void)instance;
    for (size_t j = 0; j < n; j++) nominals[j] = 1.0;
    return fmi3OK;
}

#define IMPLEMENTS_fmi3GetEventIndicators
fmi3Status fmi3GetEventIndicators(fmi3Instance instance, fmi3Float64 z[], size_t n) {
    (void)instance, (void)z, (void)n;
    return fmi3OK;
}

#define IMPLEMENTS_fmi3CompletedIntegratorStep
fmi3Status fmi3CompletedIntegratorStep(fmi3Instance instance, fmi3Boolean no_set, fmi3Boolean *event,
                                       fmi3Boolean *terminate) {
    (void)instance, (void)no_set;
    *event = *terminate = fmi3False;
    return fmi3OK;
}

/* ---- Co-Simulation: x' = u - x solved exactly ---- */

#define IMPLEMENTS_fmi3DoStep
fmi3Status fmi3DoStep(fmi3Instance instance, fmi3Float64 t, fmi3Float64 h, fmi3Boolean no_set_prior,
                      fmi3Boolean *event_needed, fmi3Boolean *terminate, fmi3Boolean *early, fmi3Float64 *last) {
    (void)no_set_prior;
    Instance *m = instance;
    for (size_t j = 0; j < m->n; j++) m->x[j] = m->u[j] + (m->x[j] - m->u[j]) * exp(-h);
    m->time = t + h;
    *event_needed = *terminate = *early = fmi3False;
    *last = m->time;
    return fmi3OK;
}

/* ---- FMU state: the whole instance (it holds no pointers) ---- */

#define IMPLEMENTS_fmi3GetFMUState
fmi3Status fmi3GetFMUState(fmi3Instance instance, fmi3FMUState *state) {
    if (!*state) *state = malloc(sizeof(Instance));
    if (!*state) return fmi3Error;
    memcpy(*state, instance, sizeof(Instance));
    return fmi3OK;
}

#define IMPLEMENTS_fmi3SetFMUState
fmi3Status fmi3SetFMUState(fmi3Instance instance, fmi3FMUState state) {
    memcpy(instance, state, sizeof(Instance));
    return fmi3OK;
}

#define IMPLEMENTS_fmi3FreeFMUState
fmi3Status fmi3FreeFMUState(fmi3Instance instance, fmi3FMUState *state) {
    (void)instance;
    free(*state);
    *state = NULL;
    return fmi3OK;
}

#include "stubs3.c"
