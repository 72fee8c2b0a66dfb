/* me_fmi2.c -- the FMI 2.0 Model Exchange functions in the shape of MeAdapter. */
#include "fmi2FunctionTypes.h"
#include "me_driver.h"

#define FN(f, role, type) ((type *)(f)->functions[role])

static int set_time(const MeFmu *f, double t) {
    return FN(f, ME_SET_TIME, fmi2SetTimeTYPE)(f->instance, t);
}
static int set_states(const MeFmu *f, const double *x, size_t n) {
    return FN(f, ME_SET_STATES, fmi2SetContinuousStatesTYPE)(f->instance, x, n);
}
static int get_states(const MeFmu *f, double *x, size_t n) {
    return FN(f, ME_GET_STATES, fmi2GetContinuousStatesTYPE)(f->instance, x, n);
}
static int get_derivatives(const MeFmu *f, double *dx, size_t n) {
    return FN(f, ME_GET_DERIVATIVES, fmi2GetDerivativesTYPE)(f->instance, dx, n);
}
static int get_indicators(const MeFmu *f, double *z, size_t n) {
    return FN(f, ME_GET_INDICATORS, fmi2GetEventIndicatorsTYPE)(f->instance, z, n);
}
static int get_nominals(const MeFmu *f, double *nominals, size_t n) {
    return FN(f, ME_GET_NOMINALS, fmi2GetNominalsOfContinuousStatesTYPE)(f->instance, nominals, n);
}
static int completed_step(const MeFmu *f, bool *enter_event, bool *terminate) {
    fmi2Boolean event = fmi2False, stop = fmi2False;
    const int status = FN(f, ME_COMPLETED_STEP, fmi2CompletedIntegratorStepTYPE)(f->instance, fmi2False, &event, &stop);
    *enter_event = event != fmi2False;
    *terminate = stop != fmi2False;
    return status;
}
static int enter_event_mode(const MeFmu *f) {
    return FN(f, ME_ENTER_EVENT_MODE, fmi2EnterEventModeTYPE)(f->instance);
}
static int enter_continuous_mode(const MeFmu *f) {
    return FN(f, ME_ENTER_CONTINUOUS_MODE, fmi2EnterContinuousTimeModeTYPE)(f->instance);
}
static int update_discrete(const MeFmu *f, MeEventInfo *info) {
    fmi2EventInfo event = {fmi2False, fmi2False, fmi2False, fmi2False, fmi2False, 0.0};
    const int status = FN(f, ME_UPDATE_DISCRETE, fmi2NewDiscreteStatesTYPE)(f->instance, &event);
    info->again = event.newDiscreteStatesNeeded != fmi2False;
    info->terminate = event.terminateSimulation != fmi2False;
    info->nominals_changed = event.nominalsOfContinuousStatesChanged != fmi2False;
    info->values_changed = event.valuesOfContinuousStatesChanged != fmi2False;
    info->next_time_defined = event.nextEventTimeDefined != fmi2False;
    info->next_time = event.nextEventTime;
    return status;
}
static int directional(const MeFmu *f, const uint32_t *unknowns, size_t n_unknowns, uint32_t known,
                       double *column) {
    const fmi2ValueReference known_vr = known;
    const fmi2Real seed = 1.0;
    return FN(f, ME_DIRECTIONAL, fmi2GetDirectionalDerivativeTYPE)(f->instance, unknowns, n_unknowns, &known_vr, 1,
                                                                   &seed, column);
}
static int get_fmu_state(const MeFmu *f, void **state) {
    return FN(f, ME_GET_FMU_STATE, fmi2GetFMUstateTYPE)(f->instance, state);
}
static int set_fmu_state(const MeFmu *f, void *state) {
    return FN(f, ME_SET_FMU_STATE, fmi2SetFMUstateTYPE)(f->instance, state);
}
static int free_fmu_state(const MeFmu *f, void **state) {
    return FN(f, ME_FREE_FMU_STATE, fmi2FreeFMUstateTYPE)(f->instance, state);
}

const MeAdapter ME_FMI2_ADAPTER = {
    {"fmi2SetTime", "fmi2SetContinuousStates", "fmi2GetContinuousStates", "fmi2GetDerivatives",
     "fmi2GetEventIndicators", "fmi2GetNominalsOfContinuousStates", "fmi2CompletedIntegratorStep",
     "fmi2EnterEventMode", "fmi2EnterContinuousTimeMode", "fmi2NewDiscreteStates",
     "fmi2GetDirectionalDerivative", "fmi2GetFMUstate", "fmi2SetFMUstate", "fmi2FreeFMUstate", "", ""},
    set_time, set_states, get_states, get_derivatives, get_indicators, get_nominals, completed_step,
    enter_event_mode, enter_continuous_mode, update_discrete, directional, get_fmu_state, set_fmu_state,
    free_fmu_state, NULL, NULL}; /* FMI 2.0 has no clocks */
