/* me_fmi3.c -- the FMI 3.0 Model Exchange functions in the shape of MeAdapter. */
#include "fmi3FunctionTypes.h"
#include "me_driver.h"

#define FN(f, role, type) ((type *)(f)->functions[role])

static int set_time(const MeFmu *f, double t) {
    return FN(f, ME_SET_TIME, fmi3SetTimeTYPE)(f->instance, t);
}
static int set_states(const MeFmu *f, const double *x, size_t n) {
    return FN(f, ME_SET_STATES, fmi3SetContinuousStatesTYPE)(f->instance, x, n);
}
static int get_states(const MeFmu *f, double *x, size_t n) {
    return FN(f, ME_GET_STATES, fmi3GetContinuousStatesTYPE)(f->instance, x, n);
}
static int get_derivatives(const MeFmu *f, double *dx, size_t n) {
    return FN(f, ME_GET_DERIVATIVES, fmi3GetContinuousStateDerivativesTYPE)(f->instance, dx, n);
}
static int get_indicators(const MeFmu *f, double *z, size_t n) {
    return FN(f, ME_GET_INDICATORS, fmi3GetEventIndicatorsTYPE)(f->instance, z, n);
}
static int get_nominals(const MeFmu *f, double *nominals, size_t n) {
    return FN(f, ME_GET_NOMINALS, fmi3GetNominalsOfContinuousStatesTYPE)(f->instance, nominals, n);
}
static int completed_step(const MeFmu *f, bool *enter_event, bool *terminate) {
    return FN(f, ME_COMPLETED_STEP, fmi3CompletedIntegratorStepTYPE)(f->instance, false, enter_event, terminate);
}
static int enter_event_mode(const MeFmu *f) {
    return FN(f, ME_ENTER_EVENT_MODE, fmi3EnterEventModeTYPE)(f->instance);
}
static int enter_continuous_mode(const MeFmu *f) {
    return FN(f, ME_ENTER_CONTINUOUS_MODE, fmi3EnterContinuousTimeModeTYPE)(f->instance);
}
static int update_discrete(const MeFmu *f, MeEventInfo *info) {
    return FN(f, ME_UPDATE_DISCRETE, fmi3UpdateDiscreteStatesTYPE)(
        f->instance, &info->again, &info->terminate, &info->nominals_changed, &info->values_changed,
        &info->next_time_defined, &info->next_time);
}
static int directional(const MeFmu *f, const uint32_t *unknowns, size_t n_unknowns, uint32_t known,
                       double *column) {
    const double seed = 1.0;
    return FN(f, ME_DIRECTIONAL, fmi3GetDirectionalDerivativeTYPE)(f->instance, unknowns, n_unknowns, &known, 1,
                                                                   &seed, 1, column, n_unknowns);
}
static int get_fmu_state(const MeFmu *f, void **state) {
    return FN(f, ME_GET_FMU_STATE, fmi3GetFMUStateTYPE)(f->instance, state);
}
static int set_fmu_state(const MeFmu *f, void *state) {
    return FN(f, ME_SET_FMU_STATE, fmi3SetFMUStateTYPE)(f->instance, state);
}
static int free_fmu_state(const MeFmu *f, void **state) {
    return FN(f, ME_FREE_FMU_STATE, fmi3FreeFMUStateTYPE)(f->instance, state);
}

static int set_clocks(const MeFmu *f, const uint32_t *vrs, size_t n) {
    bool active[64];
    int status = 0;
    for (size_t done = 0; done < n && status <= 1; done += 64) { /* at most 64 per call */
        const size_t count = n - done < 64 ? n - done : 64;
        for (size_t k = 0; k < count; k++) active[k] = true;
        status = FN(f, ME_SET_CLOCK, fmi3SetClockTYPE)(f->instance, vrs + done, count, active);
    }
    return status;
}
static int get_interval(const MeFmu *f, uint32_t vr, double *interval, int *qualifier) {
    fmi3IntervalQualifier q = fmi3IntervalNotYetKnown;
    const int status = FN(f, ME_GET_INTERVAL, fmi3GetIntervalDecimalTYPE)(f->instance, &vr, 1, interval, &q);
    *qualifier = (int)q;
    return status;
}

const MeAdapter ME_FMI3_ADAPTER = {
    {"fmi3SetTime", "fmi3SetContinuousStates", "fmi3GetContinuousStates",
     "fmi3GetContinuousStateDerivatives", "fmi3GetEventIndicators", "fmi3GetNominalsOfContinuousStates",
     "fmi3CompletedIntegratorStep", "fmi3EnterEventMode", "fmi3EnterContinuousTimeMode",
     "fmi3UpdateDiscreteStates", "fmi3GetDirectionalDerivative", "fmi3GetFMUState", "fmi3SetFMUState",
     "fmi3FreeFMUState", "fmi3SetClock", "fmi3GetIntervalDecimal"},
    set_time, set_states, get_states, get_derivatives, get_indicators, get_nominals, completed_step,
    enter_event_mode, enter_continuous_mode, update_discrete, directional, get_fmu_state, set_fmu_state,
    free_fmu_state, set_clocks, get_interval};
