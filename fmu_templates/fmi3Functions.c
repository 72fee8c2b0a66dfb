/*
 * fmi3Functions.c -- the FMI 3.0 API: every one of the 75 fmi3* functions, the state
 * machine and the argument checks, written once for all models.
 *
 * Each function starts with BEGIN(name, mask): a call in a state outside `mask` returns
 * fmi3Error and logs why, without touching the instance. Errors of the model itself move the
 * instance to the Error state (instance_status). Unsupported functions (clocks, scheduled
 * execution, configuration mode, adjoint derivatives, Binary and the narrow numeric types)
 * log and return fmi3Error.
 */
#define COSIM_RUNTIME_SOURCE /* model.h: sizes read at run time (MODEL), no config.h */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fmi3Functions.h"
#include "delays.h"
#include "instance.h"

/* ---- which state admits which call ---- */

#define ANY_INSTANCE_STATE                                                                      \
    (StateInstantiated | StateInitializationMode | StateEventMode | StateContinuousTimeMode | \
     StateStepMode | StateTerminated | StateError)
#define INITIALIZED_STATES (StateEventMode | StateContinuousTimeMode | StateStepMode)
#define MASK_GET (StateInitializationMode | INITIALIZED_STATES | StateTerminated | StateError)
#define MASK_SET (StateInstantiated | StateInitializationMode | INITIALIZED_STATES)
#define MASK_MODEL_EXCHANGE_READ \
    (StateInitializationMode | StateEventMode | StateContinuousTimeMode | StateTerminated | StateError)
#define MASK_DERIVATIVES (StateInitializationMode | INITIALIZED_STATES | StateTerminated)

/* Which interface a function belongs to. */
#define FOR_ANY 0
#define FOR_ME 1
#define FOR_CS 2

static const char *state_name(InstanceState state) {
    switch (state) {
    case StateStartAndEnd: return "StartAndEnd";
    case StateInstantiated: return "Instantiated";
    case StateInitializationMode: return "InitializationMode";
    case StateEventMode: return "EventMode";
    case StateContinuousTimeMode: return "ContinuousTimeMode";
    case StateStepMode: return "StepMode";
    case StateTerminated: return "Terminated";
    case StateError: return "Error";
    case StateFatal: return "Fatal";
    }
    return "unknown";
}

static bool allowed(ModelInstance *comp, const char *function, int mask, int interface) {
    if (!(comp->state & mask)) {
        char expected[256] = "";
        for (int bit = 0; bit <= 8; bit++) {
            if (!(mask & (1 << bit))) continue;
            if (expected[0]) strcat(expected, ", ");
            strcat(expected, state_name((InstanceState)(1 << bit)));
        }
        instance_log(comp, StatusError, LogStatusError, "%s: %s is not allowed in state %s (allowed in: %s)",
                     comp->name, function, state_name(comp->state), expected[0] ? expected : "none");
        return false;
    }
    if ((interface == FOR_ME && comp->interface_type != InterfaceModelExchange)
        || (interface == FOR_CS && comp->interface_type != InterfaceCoSimulation)) {
        instance_log(comp, StatusError, LogStatusError, "%s: %s is only for %s instances", comp->name,
                     function, interface == FOR_ME ? "Model Exchange" : "Co-Simulation");
        return false;
    }
    return true;
}

#define BEGIN(function, mask, interface)                                  \
    if (!instance) return fmi3Error;                                      \
    ModelInstance *const comp = (ModelInstance *)instance;                \
    if (!allowed(comp, #function, (mask), (interface))) return fmi3Error;

static bool missing(ModelInstance *comp, const char *function, const char *argument, const void *pointer) {
    if (pointer) return false;
    instance_log(comp, StatusError, LogStatusError, "%s: %s: argument %s must not be NULL", comp->name,
                 function, argument);
    return true;
}

static fmi3Status unsupported(fmi3Instance instance, const char *function, const char *why) {
    if (!instance) return fmi3Error;
    ModelInstance *comp = (ModelInstance *)instance;
    instance_log(comp, StatusError, LogStatusError, "%s: %s is not supported: %s", comp->name, function, why);
    return fmi3Error;
}

/* ---- variable access ---- */

static const char *const TYPE_NAMES[] = {"Float64", "Int32", "Int64", "Boolean", "String"};

/* May a variable be set in the instance's current state? (FMI 3.0, 2.3.3 and the state
 * machines of 3.2 and 4.2) */
static bool settable(const ModelInstance *comp, const VariableInfo *v) {
    const bool has_start = v->initial == InitialExact || v->initial == InitialApprox;
    const bool input = v->causality == CausalityInput;
    const bool tunable = v->causality == CausalityParameter && v->variability == VariabilityTunable;
    if (v->variability == VariabilityConstant || v->causality == CausalityIndependent) return false;
    switch (comp->state) {
    case StateInstantiated:
    case StateInitializationMode: return has_start || input;
    case StateEventMode:
    case StateStepMode: return input || tunable;
    case StateContinuousTimeMode: return input && v->variability == VariabilityContinuous;
    default: return false;
    }
}

/* Check the value references of a get or set call; on success each names a variable of
 * `type` (vr 0, time, counts as Float64). */
static bool check_access(ModelInstance *comp, const char *function, const fmi3ValueReference vr[],
                         size_t nvr, const void *values, size_t n_values, VariableType type, bool set) {
    if (nvr == 0) return true;
    if (missing(comp, function, "valueReferences", vr) || missing(comp, function, "values", values)) return false;
    size_t expected = 0;
    for (size_t k = 0; k < nvr; k++) expected += vr[k] < MODEL.n_value_references ? MODEL_VARIABLES[vr[k]].count : 1;
    if (n_values != expected) {
        instance_log(comp, StatusError, LogStatusError, "%s: %s: expected nValues = %zu but was %zu",
                     comp->name, function, expected, n_values);
        return false;
    }
    for (size_t k = 0; k < nvr; k++) {
        if (vr[k] >= MODEL.n_value_references) {
            instance_log(comp, StatusError, LogStatusError, "%s: %s: unknown value reference %u",
                         comp->name, function, (unsigned)vr[k]);
            return false;
        }
        const VariableInfo *v = &MODEL_VARIABLES[vr[k]];
        if (v->type != type) {
            instance_log(comp, StatusError, LogStatusError, "%s: %s: value reference %u (%s) is a %s variable",
                         comp->name, function, (unsigned)vr[k], v->name, TYPE_NAMES[v->type]);
            return false;
        }
        if (set && !settable(comp, v)) {
            instance_log(comp, StatusError, LogStatusError, "%s: %s: variable %s (value reference %u) cannot be set in state %s",
                         comp->name, function, v->name, (unsigned)vr[k], state_name(comp->state));
            return false;
        }
    }
    return true;
}

/* Bookkeeping after values were set: recompute before the next read, and tell the
 * integrator that inputs changed at this communication point. */
static void values_were_set(ModelInstance *comp, const fmi3ValueReference vr[], size_t nvr) {
    comp->values_dirty = true;
    if (comp->state != StateStepMode) return;
    for (size_t k = 0; k < nvr; k++) {
        const VariableInfo *v = &MODEL_VARIABLES[vr[k]];
        comp->inputs_changed = true;
        if (v->variability != VariabilityContinuous) comp->discrete_inputs_changed = true;
    }
}

static fmi3Status refresh(ModelInstance *comp, bool outputs) {
    const Status status = instance_refresh(comp, outputs);
    if (status > StatusWarning)
        instance_log(comp, status, LogStatusError, "%s: evaluating the model at t = %.17g failed", comp->name,
                     comp->data.time);
    return instance_status(comp, status);
}

#define GET_BODY(TYPE_ID, ARRAY, ASSIGN)                                                           \
    if (!check_access(comp, __func__, vr, nvr, values, nValues, TYPE_ID, false)) return fmi3Error; \
    fmi3Status status = fmi3OK;                                                                    \
    if (nvr > 0) status = refresh(comp, true);                                                     \
    if (status > fmi3Warning) return status;                                                       \
    size_t at_ = 0;                                                                                \
    for (size_t k = 0; k < nvr; k++)                                                               \
        for (size_t j = 0; j < MODEL_VARIABLES[vr[k]].count; j++)                                  \
            ASSIGN(values[at_++], comp->data.ARRAY[MODEL_VARIABLES[vr[k]].slot + j]);              \
    return status;

#define ASSIGN_VALUE(target, source) (target) = (source)

fmi3Status fmi3GetFloat64(fmi3Instance instance, const fmi3ValueReference vr[], size_t nvr,
                          fmi3Float64 values[], size_t nValues) {
    BEGIN(fmi3GetFloat64, MASK_GET, FOR_ANY)
    if (!check_access(comp, __func__, vr, nvr, values, nValues, TypeFloat64, false)) return fmi3Error;
    fmi3Status status = fmi3OK;
    if (nvr > 0) status = refresh(comp, true);
    if (status > fmi3Warning) return status;
    size_t at = 0;
    for (size_t k = 0; k < nvr; k++)
        for (size_t j = 0; j < MODEL_VARIABLES[vr[k]].count; j++)
            values[at++] = vr[k] == 0 ? comp->data.time : comp->data.r[MODEL_VARIABLES[vr[k]].slot + j];
    return status;
}

fmi3Status fmi3GetInt32(fmi3Instance instance, const fmi3ValueReference vr[], size_t nvr,
                        fmi3Int32 values[], size_t nValues) {
    BEGIN(fmi3GetInt32, MASK_GET, FOR_ANY)
    GET_BODY(TypeInt32, i, ASSIGN_VALUE)
}

fmi3Status fmi3GetInt64(fmi3Instance instance, const fmi3ValueReference vr[], size_t nvr,
                        fmi3Int64 values[], size_t nValues) {
    BEGIN(fmi3GetInt64, MASK_GET, FOR_ANY)
    GET_BODY(TypeInt64, e, ASSIGN_VALUE)
}

fmi3Status fmi3GetBoolean(fmi3Instance instance, const fmi3ValueReference vr[], size_t nvr,
                          fmi3Boolean values[], size_t nValues) {
    BEGIN(fmi3GetBoolean, MASK_GET, FOR_ANY)
    GET_BODY(TypeBoolean, b, ASSIGN_VALUE)
}

#define ASSIGN_STRING(target, source) (target) = (source) ? (source) : ""

fmi3Status fmi3GetString(fmi3Instance instance, const fmi3ValueReference vr[], size_t nvr,
                         fmi3String values[], size_t nValues) {
    BEGIN(fmi3GetString, MASK_GET, FOR_ANY)
    GET_BODY(TypeString, s, ASSIGN_STRING)
}

#define SET_BODY(TYPE_ID, ARRAY)                                                                  \
    if (!check_access(comp, __func__, vr, nvr, values, nValues, TYPE_ID, true)) return fmi3Error; \
    size_t at_ = 0;                                                                               \
    for (size_t k = 0; k < nvr; k++)                                                              \
        for (size_t j = 0; j < MODEL_VARIABLES[vr[k]].count; j++)                                 \
            comp->data.ARRAY[MODEL_VARIABLES[vr[k]].slot + j] = values[at_++];                    \
    values_were_set(comp, vr, nvr);                                                               \
    return fmi3OK;

fmi3Status fmi3SetFloat64(fmi3Instance instance, const fmi3ValueReference vr[], size_t nvr,
                          const fmi3Float64 values[], size_t nValues) {
    BEGIN(fmi3SetFloat64, MASK_SET, FOR_ANY)
    SET_BODY(TypeFloat64, r)
}

fmi3Status fmi3SetInt32(fmi3Instance instance, const fmi3ValueReference vr[], size_t nvr,
                        const fmi3Int32 values[], size_t nValues) {
    BEGIN(fmi3SetInt32, MASK_SET, FOR_ANY)
    SET_BODY(TypeInt32, i)
}

fmi3Status fmi3SetInt64(fmi3Instance instance, const fmi3ValueReference vr[], size_t nvr,
                        const fmi3Int64 values[], size_t nValues) {
    BEGIN(fmi3SetInt64, MASK_SET, FOR_ANY)
    SET_BODY(TypeInt64, e)
}

fmi3Status fmi3SetBoolean(fmi3Instance instance, const fmi3ValueReference vr[], size_t nvr,
                          const fmi3Boolean values[], size_t nValues) {
    BEGIN(fmi3SetBoolean, MASK_SET, FOR_ANY)
    SET_BODY(TypeBoolean, b)
}

fmi3Status fmi3SetString(fmi3Instance instance, const fmi3ValueReference vr[], size_t nvr,
                         const fmi3String values[], size_t nValues) {
    BEGIN(fmi3SetString, MASK_SET, FOR_ANY)
    if (!check_access(comp, __func__, vr, nvr, values, nValues, TypeString, true)) return fmi3Error;
    size_t at = 0;
    for (size_t k = 0; k < nvr; k++) {
        for (size_t j = 0; j < MODEL_VARIABLES[vr[k]].count; j++, at++) {
            if (missing(comp, __func__, "values[k]", values[at])) return fmi3Error;
            const size_t length = strlen(values[at]) + 1;
            char *copy = malloc(length);
            if (!copy) return instance_status(comp, StatusFatal);
            memcpy(copy, values[at], length);
            char **slot = &comp->data.s[MODEL_VARIABLES[vr[k]].slot + j];
            free(*slot);
            *slot = copy;
        }
    }
    values_were_set(comp, vr, nvr);
    return fmi3OK;
}

/* Types this runtime has no variables of: an empty call is fine, any value reference is not. */
static fmi3Status no_variables(fmi3Instance instance, const char *function, int mask, size_t nvr) {
    if (!instance) return fmi3Error;
    ModelInstance *const comp = (ModelInstance *)instance;
    if (!allowed(comp, function, mask, FOR_ANY)) return fmi3Error;
    if (nvr == 0) return fmi3OK;
    instance_log(comp, StatusError, LogStatusError, "%s: %s: this FMU has no variables of that type",
                 comp->name, function);
    return fmi3Error;
}

#define NO_VARIABLES_GET(Type, CType)                                                           \
    fmi3Status fmi3Get##Type(fmi3Instance instance, const fmi3ValueReference vr[], size_t nvr, \
                             CType values[], size_t nValues) {                                  \
        (void)vr, (void)values, (void)nValues;                                                  \
        return no_variables(instance, "fmi3Get" #Type, MASK_GET, nvr);                          \
    }
#define NO_VARIABLES_SET(Type, CType)                                                           \
    fmi3Status fmi3Set##Type(fmi3Instance instance, const fmi3ValueReference vr[], size_t nvr, \
                             const CType values[], size_t nValues) {                            \
        (void)vr, (void)values, (void)nValues;                                                  \
        return no_variables(instance, "fmi3Set" #Type, MASK_SET, nvr);                          \
    }
#define NO_VARIABLES(Type, CType) NO_VARIABLES_GET(Type, CType) NO_VARIABLES_SET(Type, CType)

NO_VARIABLES(Float32, fmi3Float32)
NO_VARIABLES(Int8, fmi3Int8)
NO_VARIABLES(UInt8, fmi3UInt8)
NO_VARIABLES(Int16, fmi3Int16)
NO_VARIABLES(UInt16, fmi3UInt16)
NO_VARIABLES(UInt32, fmi3UInt32)
NO_VARIABLES(UInt64, fmi3UInt64)

fmi3Status fmi3GetBinary(fmi3Instance instance, const fmi3ValueReference vr[], size_t nvr,
                         size_t valueSizes[], fmi3Binary values[], size_t nValues) {
    (void)vr, (void)valueSizes, (void)values, (void)nValues;
    return no_variables(instance, "fmi3GetBinary", MASK_GET, nvr);
}

fmi3Status fmi3SetBinary(fmi3Instance instance, const fmi3ValueReference vr[], size_t nvr,
                         const size_t valueSizes[], const fmi3Binary values[], size_t nValues) {
    (void)vr, (void)valueSizes, (void)values, (void)nValues;
    return no_variables(instance, "fmi3SetBinary", MASK_SET, nvr);
}

fmi3Status fmi3GetClock(fmi3Instance instance, const fmi3ValueReference vr[], size_t nvr, fmi3Clock values[]) {
    (void)vr, (void)values;
    return no_variables(instance, "fmi3GetClock", MASK_GET, nvr);
}

fmi3Status fmi3SetClock(fmi3Instance instance, const fmi3ValueReference vr[], size_t nvr, const fmi3Clock values[]) {
    (void)vr, (void)values;
    return no_variables(instance, "fmi3SetClock", MASK_SET, nvr);
}

/* ---- inquire version, logging, life cycle ---- */

const char *fmi3GetVersion(void) { return fmi3Version; }

fmi3Status fmi3SetDebugLogging(fmi3Instance instance, fmi3Boolean loggingOn, size_t nCategories,
                               const fmi3String categories[]) {
    BEGIN(fmi3SetDebugLogging, ANY_INSTANCE_STATE, FOR_ANY)
    if (nCategories > 0 && missing(comp, __func__, "categories", categories)) return fmi3Error;
    return instance_set_debug_logging(comp, loggingOn, nCategories, categories) ? fmi3OK : fmi3Error;
}

fmi3Instance fmi3InstantiateModelExchange(fmi3String instanceName, fmi3String instantiationToken,
                                          fmi3String resourcePath, fmi3Boolean visible,
                                          fmi3Boolean loggingOn, fmi3InstanceEnvironment instanceEnvironment,
                                          fmi3LogMessageCallback logMessage) {
    (void)visible;
    return instance_create(InterfaceModelExchange, instanceName, instantiationToken, resourcePath,
                           loggingOn, instanceEnvironment, logMessage);
}

fmi3Instance fmi3InstantiateCoSimulation(fmi3String instanceName, fmi3String instantiationToken,
                                         fmi3String resourcePath, fmi3Boolean visible,
                                         fmi3Boolean loggingOn, fmi3Boolean eventModeUsed,
                                         fmi3Boolean earlyReturnAllowed,
                                         const fmi3ValueReference requiredIntermediateVariables[],
                                         size_t nRequiredIntermediateVariables,
                                         fmi3InstanceEnvironment instanceEnvironment,
                                         fmi3LogMessageCallback logMessage,
                                         fmi3IntermediateUpdateCallback intermediateUpdate) {
    (void)visible, (void)requiredIntermediateVariables, (void)nRequiredIntermediateVariables;
    (void)intermediateUpdate;
    ModelInstance *comp = instance_create(InterfaceCoSimulation, instanceName, instantiationToken,
                                          resourcePath, loggingOn, instanceEnvironment, logMessage);
    if (comp && eventModeUsed) {
        /* hasEventMode is false in modelDescription.xml: events are handled inside doStep */
        instance_log(comp, StatusError, LogStatusError,
                     "%s: eventModeUsed = true, but this FMU has no Co-Simulation event mode", comp->name);
        instance_free(comp);
        return NULL;
    }
    if (comp) comp->early_return_allowed = earlyReturnAllowed;
    return comp;
}

fmi3Instance fmi3InstantiateScheduledExecution(fmi3String instanceName, fmi3String instantiationToken,
                                               fmi3String resourcePath, fmi3Boolean visible,
                                               fmi3Boolean loggingOn, fmi3InstanceEnvironment instanceEnvironment,
                                               fmi3LogMessageCallback logMessage, fmi3ClockUpdateCallback clockUpdate,
                                               fmi3LockPreemptionCallback lockPreemption,
                                               fmi3UnlockPreemptionCallback unlockPreemption) {
    (void)instantiationToken, (void)resourcePath, (void)visible, (void)loggingOn;
    (void)clockUpdate, (void)lockPreemption, (void)unlockPreemption;
    if (logMessage)
        logMessage(instanceEnvironment, fmi3Error, "logStatusError",
                   "fmi3InstantiateScheduledExecution: this FMU does not support Scheduled Execution");
    (void)instanceName;
    return NULL;
}

void fmi3FreeInstance(fmi3Instance instance) { instance_free((ModelInstance *)instance); }

fmi3Status fmi3EnterInitializationMode(fmi3Instance instance, fmi3Boolean toleranceDefined,
                                       fmi3Float64 tolerance, fmi3Float64 startTime,
                                       fmi3Boolean stopTimeDefined, fmi3Float64 stopTime) {
    BEGIN(fmi3EnterInitializationMode, StateInstantiated, FOR_ANY)
    if (toleranceDefined && !(tolerance > 0.0 && tolerance < 1.0)) {
        instance_log(comp, StatusError, LogStatusError, "%s: tolerance must be in (0, 1), was %g",
                     comp->name, tolerance);
        return fmi3Error;
    }
    if (stopTimeDefined && !(stopTime >= startTime)) {
        instance_log(comp, StatusError, LogStatusError, "%s: stopTime %g is before startTime %g",
                     comp->name, stopTime, startTime);
        return fmi3Error;
    }
    if (toleranceDefined) comp->tolerance = tolerance;
    comp->start_time = startTime;
    comp->stop_time_defined = stopTimeDefined;
    comp->stop_time = stopTime;
    comp->time_scale = time_scale_of(startTime, stopTime, stopTimeDefined);
    comp->data.time = startTime;
    comp->data.initial_phase = true;
    comp->data.event_mode = true;
    comp->values_dirty = true;
    comp->state = StateInitializationMode;
    return fmi3OK;
}

fmi3Status fmi3ExitInitializationMode(fmi3Instance instance) {
    BEGIN(fmi3ExitInitializationMode, StateInitializationMode, FOR_ANY)
    Status status = model_initialize(&comp->data);
    if (status <= StatusWarning) {
        comp->values_dirty = false;
        const Status recorded = delays_record(comp); /* the histories start here */
        if (recorded > status) status = recorded;
    }
    comp->data.initial_phase = false;   /* initial() is true during initialization only */
    if (status <= StatusWarning && comp->interface_type == InterfaceCoSimulation) {
        comp->state = StateStepMode;
        const Status started = cosim_enter_step_mode(comp);
        if (started > status) status = started;
    } else if (status <= StatusWarning) {
        comp->state = StateEventMode;
    }
    return instance_status(comp, status);
}

fmi3Status fmi3EnterEventMode(fmi3Instance instance) {
    BEGIN(fmi3EnterEventMode, StateContinuousTimeMode, FOR_ME)
    const Status recorded = delays_record(comp); /* the values before the event */
    if (recorded > StatusWarning) return instance_status(comp, recorded);
    comp->state = StateEventMode;
    comp->data.event_mode = true;
    comp->values_dirty = true;
    return fmi3OK;
}

fmi3Status fmi3Terminate(fmi3Instance instance) {
    BEGIN(fmi3Terminate, INITIALIZED_STATES | StateError, FOR_ANY)
    comp->data.terminal = true;
    comp->values_dirty = true;
    comp->state = StateTerminated;
    return fmi3OK;
}

fmi3Status fmi3Reset(fmi3Instance instance) {
    BEGIN(fmi3Reset, ANY_INSTANCE_STATE, FOR_ANY)
    instance_reset(comp);
    return fmi3OK;
}

/* ---- variable dependencies: given in modelDescription.xml only ---- */

fmi3Status fmi3GetNumberOfVariableDependencies(fmi3Instance instance, fmi3ValueReference valueReference,
                                               size_t *nDependencies) {
    (void)valueReference, (void)nDependencies;
    return unsupported(instance, __func__, "dependencies are listed in modelDescription.xml");
}

fmi3Status fmi3GetVariableDependencies(fmi3Instance instance, fmi3ValueReference dependent,
                                       size_t elementIndicesOfDependent[], fmi3ValueReference independents[],
                                       size_t elementIndicesOfIndependents[],
                                       fmi3DependencyKind dependencyKinds[], size_t nDependencies) {
    (void)dependent, (void)elementIndicesOfDependent, (void)independents;
    (void)elementIndicesOfIndependents, (void)dependencyKinds, (void)nDependencies;
    return unsupported(instance, __func__, "dependencies are listed in modelDescription.xml");
}

/* ---- FMU state ---- */

fmi3Status fmi3GetFMUState(fmi3Instance instance, fmi3FMUState *FMUState) {
    BEGIN(fmi3GetFMUState, ANY_INSTANCE_STATE, FOR_ANY)
    if (missing(comp, __func__, "FMUState", FMUState)) return fmi3Error;
    FmuState *snapshot = instance_save(comp);
    if (!snapshot) return instance_status(comp, StatusFatal);
    instance_free_state((FmuState *)*FMUState);
    *FMUState = snapshot;
    return fmi3OK;
}

fmi3Status fmi3SetFMUState(fmi3Instance instance, fmi3FMUState FMUState) {
    BEGIN(fmi3SetFMUState, ANY_INSTANCE_STATE, FOR_ANY)
    if (missing(comp, __func__, "FMUState", FMUState)) return fmi3Error;
    return instance_restore(comp, (const FmuState *)FMUState) ? fmi3OK : fmi3Error;
}

fmi3Status fmi3FreeFMUState(fmi3Instance instance, fmi3FMUState *FMUState) {
    BEGIN(fmi3FreeFMUState, ANY_INSTANCE_STATE, FOR_ANY)
    if (!FMUState) return fmi3OK;
    instance_free_state((FmuState *)*FMUState);
    *FMUState = NULL;
    return fmi3OK;
}

fmi3Status fmi3SerializedFMUStateSize(fmi3Instance instance, fmi3FMUState FMUState, size_t *size) {
    BEGIN(fmi3SerializedFMUStateSize, ANY_INSTANCE_STATE, FOR_ANY)
    if (missing(comp, __func__, "FMUState", FMUState) || missing(comp, __func__, "size", size)) return fmi3Error;
    *size = instance_serialized_size(comp, (const FmuState *)FMUState);
    return fmi3OK;
}

fmi3Status fmi3SerializeFMUState(fmi3Instance instance, fmi3FMUState FMUState, fmi3Byte serializedState[],
                                 size_t size) {
    BEGIN(fmi3SerializeFMUState, ANY_INSTANCE_STATE, FOR_ANY)
    if (missing(comp, __func__, "FMUState", FMUState) || missing(comp, __func__, "serializedState", serializedState))
        return fmi3Error;
    const size_t expected = instance_serialized_size(comp, (const FmuState *)FMUState);
    if (size != expected) {
        instance_log(comp, StatusError, LogStatusError, "%s: %s: expected size = %zu but was %zu",
                     comp->name, __func__, expected, size);
        return fmi3Error;
    }
    instance_serialize(comp, (const FmuState *)FMUState, serializedState);
    return fmi3OK;
}

fmi3Status fmi3DeserializeFMUState(fmi3Instance instance, const fmi3Byte serializedState[], size_t size,
                                   fmi3FMUState *FMUState) {
    BEGIN(fmi3DeserializeFMUState, ANY_INSTANCE_STATE, FOR_ANY)
    if (missing(comp, __func__, "serializedState", serializedState) || missing(comp, __func__, "FMUState", FMUState))
        return fmi3Error;
    FmuState *snapshot = instance_deserialize(comp, serializedState, size);
    if (!snapshot) return fmi3Error;
    *FMUState = snapshot;
    return fmi3OK;
}

/* ---- partial derivatives ---- */

/* Position of a Float64 variable among the states or derivatives, or SIZE_MAX. */
static size_t index_in(const size_t *slots, const VariableInfo *v) {
    for (size_t k = 0; k < n_states(); k++)
        if (v->type == TypeFloat64 && slots[k] == v->slot) return k;
    return SIZE_MAX;
}

static bool jacobian_applies(const fmi3ValueReference unknowns[], size_t n_unknowns,
                             const fmi3ValueReference knowns[], size_t n_knowns) {
    if (!MODEL.has_jacobian || n_states() == 0) return false;
    for (size_t k = 0; k < n_unknowns; k++)
        if (unknowns[k] == 0 || index_in(MODEL_DERIVATIVE_SLOT, &MODEL_VARIABLES[unknowns[k]]) == SIZE_MAX) return false;
    for (size_t k = 0; k < n_knowns; k++)
        if (knowns[k] == 0 || index_in(MODEL_STATE_SLOT, &MODEL_VARIABLES[knowns[k]]) == SIZE_MAX) return false;
    return true;
}

/* d der(x) / d x from the model's analytic Jacobian, times the seed. */
static Status jacobian_product(ModelInstance *comp, const fmi3ValueReference unknowns[], size_t n_unknowns,
                               const fmi3ValueReference knowns[], size_t n_knowns, const double seed[],
                               double sensitivity[]) {
    static const size_t none = SIZE_MAX;
    double *values = comp->jacobian_values, *column = comp->jacobian_column;
    Status status = instance_derivatives(comp);
    if (status <= StatusWarning) status = model_jacobian(&comp->data, values);
    if (status > StatusWarning) return status;
    for (size_t i = 0; i < n_states(); i++) column[i] = 0.0;
    for (size_t k = 0; k < n_knowns; k++) {
        const size_t j = index_in(MODEL_STATE_SLOT, &MODEL_VARIABLES[knowns[k]]);
        for (size_t p = MODEL_JACOBIAN_COLUMN_START[j]; p < MODEL_JACOBIAN_COLUMN_START[j + 1]; p++)
            column[MODEL_JACOBIAN_ROWS[p]] += values[p] * seed[k];
    }
    for (size_t k = 0; k < n_unknowns; k++) {
        const size_t i = index_in(MODEL_DERIVATIVE_SLOT, &MODEL_VARIABLES[unknowns[k]]);
        sensitivity[k] = i == none ? 0.0 : column[i];
    }
    return StatusOK;
}

static void add_to_knowns(ModelInstance *comp, const fmi3ValueReference knowns[], size_t n,
                          const double *base, const double seed[], double step) {
    for (size_t k = 0; k < n; k++)
        comp->data.r[MODEL_VARIABLES[knowns[k]].slot] = base[k] + step * seed[k];
    comp->values_dirty = true;
}

/* Any other unknown/known pair: a central difference along the seed direction (one pair of
 * model evaluations for the whole product). */
static Status difference_product(ModelInstance *comp, const fmi3ValueReference unknowns[], size_t n_unknowns,
                                 const fmi3ValueReference knowns[], size_t n_knowns, const double seed[],
                                 double sensitivity[]) {
    double *base = malloc((n_knowns ? n_knowns : 1) * sizeof(double));
    if (!base) return StatusFatal;
    double size = 0.0, seed_size = 0.0;
    for (size_t k = 0; k < n_knowns; k++) {
        base[k] = comp->data.r[MODEL_VARIABLES[knowns[k]].slot];
        size = fmax(size, fabs(base[k]));
        seed_size = fmax(seed_size, fabs(seed[k]));
    }
    Status status = StatusOK;
    if (seed_size > 0.0) {
        const double step = cbrt(DBL_EPSILON) * fmax(1.0, size) / seed_size;
        add_to_knowns(comp, knowns, n_knowns, base, seed, step);
        status = instance_refresh(comp, true);
        for (size_t k = 0; k < n_unknowns; k++) sensitivity[k] = comp->data.r[MODEL_VARIABLES[unknowns[k]].slot];
        add_to_knowns(comp, knowns, n_knowns, base, seed, -step);
        const Status second = instance_refresh(comp, true);
        if (second > status) status = second;
        for (size_t k = 0; k < n_unknowns; k++)
            sensitivity[k] = (sensitivity[k] - comp->data.r[MODEL_VARIABLES[unknowns[k]].slot]) / (2.0 * step);
    } else {
        for (size_t k = 0; k < n_unknowns; k++) sensitivity[k] = 0.0;
    }
    for (size_t k = 0; k < n_knowns; k++) comp->data.r[MODEL_VARIABLES[knowns[k]].slot] = base[k];
    comp->values_dirty = true;
    free(base);
    return status;
}

fmi3Status fmi3GetDirectionalDerivative(fmi3Instance instance, const fmi3ValueReference unknowns[],
                                        size_t nUnknowns, const fmi3ValueReference knowns[], size_t nKnowns,
                                        const fmi3Float64 seed[], size_t nSeed, fmi3Float64 sensitivity[],
                                        size_t nSensitivity) {
    BEGIN(fmi3GetDirectionalDerivative, MASK_DERIVATIVES, FOR_ANY)
    if (nSeed != nKnowns || nSensitivity != nUnknowns) {
        instance_log(comp, StatusError, LogStatusError,
                     "%s: %s: expected nSeed = nKnowns = %zu and nSensitivity = nUnknowns = %zu, got %zu and %zu",
                     comp->name, __func__, nKnowns, nUnknowns, nSeed, nSensitivity);
        return fmi3Error;
    }
    if (!check_access(comp, __func__, unknowns, nUnknowns, sensitivity, nSensitivity, TypeFloat64, false)
        || !check_access(comp, __func__, knowns, nKnowns, seed, nSeed, TypeFloat64, false))
        return fmi3Error;
    for (size_t k = 0; k < nKnowns; k++) {
        if (knowns[k] == 0) {
            instance_log(comp, StatusError, LogStatusError, "%s: %s: time cannot be a known", comp->name, __func__);
            return fmi3Error;
        }
    }
    fmi3Status status = refresh(comp, true);
    if (status > fmi3Warning) return status;
    const Status result = jacobian_applies(unknowns, nUnknowns, knowns, nKnowns)
                              ? jacobian_product(comp, unknowns, nUnknowns, knowns, nKnowns, seed, sensitivity)
                              : difference_product(comp, unknowns, nUnknowns, knowns, nKnowns, seed, sensitivity);
    return instance_status(comp, result);
}

fmi3Status fmi3GetAdjointDerivative(fmi3Instance instance, const fmi3ValueReference unknowns[], size_t nUnknowns,
                                    const fmi3ValueReference knowns[], size_t nKnowns, const fmi3Float64 seed[],
                                    size_t nSeed, fmi3Float64 sensitivity[], size_t nSensitivity) {
    (void)unknowns, (void)nUnknowns, (void)knowns, (void)nKnowns, (void)seed, (void)nSeed;
    (void)sensitivity, (void)nSensitivity;
    return unsupported(instance, __func__, "providesAdjointDerivatives is false");
}

/* ---- configuration mode and clocks: this FMU has neither structural parameters nor clocks ---- */

fmi3Status fmi3EnterConfigurationMode(fmi3Instance instance) {
    return unsupported(instance, __func__, "the FMU has no structural parameters");
}

fmi3Status fmi3ExitConfigurationMode(fmi3Instance instance) {
    return unsupported(instance, __func__, "the FMU has no structural parameters");
}

#define NO_CLOCKS "the FMU has no clocks"

fmi3Status fmi3GetIntervalDecimal(fmi3Instance instance, const fmi3ValueReference vr[], size_t nvr,
                                  fmi3Float64 intervals[], fmi3IntervalQualifier qualifiers[]) {
    (void)vr, (void)nvr, (void)intervals, (void)qualifiers;
    return unsupported(instance, __func__, NO_CLOCKS);
}

fmi3Status fmi3GetIntervalFraction(fmi3Instance instance, const fmi3ValueReference vr[], size_t nvr,
                                   fmi3UInt64 counters[], fmi3UInt64 resolutions[], fmi3IntervalQualifier qualifiers[]) {
    (void)vr, (void)nvr, (void)counters, (void)resolutions, (void)qualifiers;
    return unsupported(instance, __func__, NO_CLOCKS);
}

fmi3Status fmi3GetShiftDecimal(fmi3Instance instance, const fmi3ValueReference vr[], size_t nvr, fmi3Float64 shifts[]) {
    (void)vr, (void)nvr, (void)shifts;
    return unsupported(instance, __func__, NO_CLOCKS);
}

fmi3Status fmi3GetShiftFraction(fmi3Instance instance, const fmi3ValueReference vr[], size_t nvr,
                                fmi3UInt64 counters[], fmi3UInt64 resolutions[]) {
    (void)vr, (void)nvr, (void)counters, (void)resolutions;
    return unsupported(instance, __func__, NO_CLOCKS);
}

fmi3Status fmi3SetIntervalDecimal(fmi3Instance instance, const fmi3ValueReference vr[], size_t nvr,
                                  const fmi3Float64 intervals[]) {
    (void)vr, (void)nvr, (void)intervals;
    return unsupported(instance, __func__, NO_CLOCKS);
}

fmi3Status fmi3SetIntervalFraction(fmi3Instance instance, const fmi3ValueReference vr[], size_t nvr,
                                   const fmi3UInt64 counters[], const fmi3UInt64 resolutions[]) {
    (void)vr, (void)nvr, (void)counters, (void)resolutions;
    return unsupported(instance, __func__, NO_CLOCKS);
}

fmi3Status fmi3SetShiftDecimal(fmi3Instance instance, const fmi3ValueReference vr[], size_t nvr,
                               const fmi3Float64 shifts[]) {
    (void)vr, (void)nvr, (void)shifts;
    return unsupported(instance, __func__, NO_CLOCKS);
}

fmi3Status fmi3SetShiftFraction(fmi3Instance instance, const fmi3ValueReference vr[], size_t nvr,
                                const fmi3UInt64 counters[], const fmi3UInt64 resolutions[]) {
    (void)vr, (void)nvr, (void)counters, (void)resolutions;
    return unsupported(instance, __func__, NO_CLOCKS);
}

fmi3Status fmi3EvaluateDiscreteStates(fmi3Instance instance) {
    return unsupported(instance, __func__, NO_CLOCKS);
}

fmi3Status fmi3ActivateModelPartition(fmi3Instance instance, fmi3ValueReference clockReference,
                                      fmi3Float64 activationTime) {
    (void)clockReference, (void)activationTime;
    return unsupported(instance, __func__, "the FMU does not support Scheduled Execution");
}

/* ---- Model Exchange ---- */

fmi3Status fmi3UpdateDiscreteStates(fmi3Instance instance, fmi3Boolean *discreteStatesNeedUpdate,
                                    fmi3Boolean *terminateSimulation, fmi3Boolean *nominalsOfContinuousStatesChanged,
                                    fmi3Boolean *valuesOfContinuousStatesChanged, fmi3Boolean *nextEventTimeDefined,
                                    fmi3Float64 *nextEventTime) {
    BEGIN(fmi3UpdateDiscreteStates, StateEventMode, FOR_ME)
    if (missing(comp, __func__, "discreteStatesNeedUpdate", discreteStatesNeedUpdate)
        || missing(comp, __func__, "terminateSimulation", terminateSimulation)
        || missing(comp, __func__, "nominalsOfContinuousStatesChanged", nominalsOfContinuousStatesChanged)
        || missing(comp, __func__, "valuesOfContinuousStatesChanged", valuesOfContinuousStatesChanged)
        || missing(comp, __func__, "nextEventTimeDefined", nextEventTimeDefined)
        || missing(comp, __func__, "nextEventTime", nextEventTime))
        return fmi3Error;
    EventUpdate update;
    Status status = event_update_once(comp, &update);
    if (status <= StatusWarning && !update.discrete_states_need_update && !update.terminate_simulation) {
        /* settled: the importer's steps must not read beyond the histories */
        status = delays_after_event(comp, true);
        update.next_event_time_defined = comp->next_event_time_defined;
        update.next_event_time = comp->next_event_time;
    }
    if (status > StatusWarning) return instance_status(comp, status);
    *discreteStatesNeedUpdate = update.discrete_states_need_update;
    *terminateSimulation = update.terminate_simulation;
    *nominalsOfContinuousStatesChanged = false;
    *valuesOfContinuousStatesChanged = update.state_values_changed;
    *nextEventTimeDefined = update.next_event_time_defined;
    *nextEventTime = update.next_event_time_defined ? update.next_event_time : 0.0;
    instance_log(comp, StatusOK, LogEvents, "%s: event update at t = %.17g%s", comp->name, comp->data.time,
                 update.discrete_states_need_update ? " (iterate)" : "");
    return instance_status(comp, status);
}

fmi3Status fmi3EnterContinuousTimeMode(fmi3Instance instance) {
    BEGIN(fmi3EnterContinuousTimeMode, StateEventMode, FOR_ME)
    comp->data.event_mode = false;
    comp->data.initial_phase = false;
    comp->values_dirty = true;
    comp->state = StateContinuousTimeMode;
    return fmi3OK;
}

fmi3Status fmi3CompletedIntegratorStep(fmi3Instance instance, fmi3Boolean noSetFMUStatePriorToCurrentPoint,
                                       fmi3Boolean *enterEventMode, fmi3Boolean *terminateSimulation) {
    BEGIN(fmi3CompletedIntegratorStep, StateContinuousTimeMode, FOR_ME)
    (void)noSetFMUStatePriorToCurrentPoint;
    if (missing(comp, __func__, "enterEventMode", enterEventMode)
        || missing(comp, __func__, "terminateSimulation", terminateSimulation))
        return fmi3Error;
    *enterEventMode = false; /* no step events: dynamic state selection is not used */
    *terminateSimulation = false;
    fmi3Status status = fmi3OK;
    if (n_guesses() > 0 || MODEL.has_asserts) {
        /* the loops solved at an accepted step start the next evaluations, and continuous-time
         * asserts hold there, whatever the importer reads */
        status = refresh(comp, MODEL.has_asserts);
        if (status > fmi3Warning) return status;
        instance_keep_guesses(comp);
    }
    const fmi3Status recorded = instance_status(comp, delays_record(comp)); /* an accepted step */
    return recorded > status ? recorded : status;
}

fmi3Status fmi3SetTime(fmi3Instance instance, fmi3Float64 time) {
    BEGIN(fmi3SetTime, StateEventMode | StateContinuousTimeMode, FOR_ME)
    comp->data.time = time;
    comp->values_dirty = true;
    return fmi3OK;
}

static bool check_state_count(ModelInstance *comp, const char *function, const void *array, size_t n,
                              size_t expected, const char *what) {
    if (n != expected) {
        instance_log(comp, StatusError, LogStatusError, "%s: %s: expected %s = %zu but was %zu", comp->name,
                     function, what, expected, n);
        return false;
    }
    return n == 0 || !missing(comp, function, "array", array);
}

fmi3Status fmi3SetContinuousStates(fmi3Instance instance, const fmi3Float64 continuousStates[],
                                   size_t nContinuousStates) {
    BEGIN(fmi3SetContinuousStates, StateContinuousTimeMode, FOR_ME)
    if (!check_state_count(comp, __func__, continuousStates, nContinuousStates, n_states(), "nContinuousStates"))
        return fmi3Error;
    instance_set_states(comp, continuousStates);
    comp->values_dirty = true;
    return fmi3OK;
}

fmi3Status fmi3GetContinuousStateDerivatives(fmi3Instance instance, fmi3Float64 derivatives[],
                                             size_t nContinuousStates) {
    BEGIN(fmi3GetContinuousStateDerivatives, MASK_MODEL_EXCHANGE_READ, FOR_ME)
    if (!check_state_count(comp, __func__, derivatives, nContinuousStates, n_states(), "nContinuousStates"))
        return fmi3Error;
    const fmi3Status status = refresh(comp, false);
    if (status > fmi3Warning) return status;
    for (size_t k = 0; k < n_states(); k++) derivatives[k] = comp->data.r[MODEL_DERIVATIVE_SLOT[k]];
    return status;
}

fmi3Status fmi3GetEventIndicators(fmi3Instance instance, fmi3Float64 eventIndicators[], size_t nEventIndicators) {
    BEGIN(fmi3GetEventIndicators, MASK_MODEL_EXCHANGE_READ, FOR_ME)
    if (!check_state_count(comp, __func__, eventIndicators, nEventIndicators, n_event_indicators(),
                           "nEventIndicators"))
        return fmi3Error;
    fmi3Status status = refresh(comp, false);
    if (status > fmi3Warning || n_event_indicators() == 0) return status;
    return instance_status(comp, model_event_indicators(&comp->data, eventIndicators));
}

fmi3Status fmi3GetContinuousStates(fmi3Instance instance, fmi3Float64 continuousStates[], size_t nContinuousStates) {
    BEGIN(fmi3GetContinuousStates, MASK_MODEL_EXCHANGE_READ, FOR_ME)
    if (!check_state_count(comp, __func__, continuousStates, nContinuousStates, n_states(), "nContinuousStates"))
        return fmi3Error;
    fmi3Status status = fmi3OK;
    if (comp->state == StateInitializationMode) status = refresh(comp, false);
    if (status > fmi3Warning) return status;
    instance_get_states(comp, continuousStates);
    return status;
}

fmi3Status fmi3GetNominalsOfContinuousStates(fmi3Instance instance, fmi3Float64 nominals[], size_t nContinuousStates) {
    BEGIN(fmi3GetNominalsOfContinuousStates, MASK_MODEL_EXCHANGE_READ, FOR_ME)
    if (!check_state_count(comp, __func__, nominals, nContinuousStates, n_states(), "nContinuousStates"))
        return fmi3Error;
    for (size_t k = 0; k < n_states(); k++) nominals[k] = MODEL_STATE_NOMINAL[k];
    return fmi3OK;
}

fmi3Status fmi3GetNumberOfEventIndicators(fmi3Instance instance, size_t *nEventIndicators) {
    BEGIN(fmi3GetNumberOfEventIndicators, ANY_INSTANCE_STATE, FOR_ANY)
    if (missing(comp, __func__, "nEventIndicators", nEventIndicators)) return fmi3Error;
    *nEventIndicators = n_event_indicators();
    return fmi3OK;
}

fmi3Status fmi3GetNumberOfContinuousStates(fmi3Instance instance, size_t *nContinuousStates) {
    BEGIN(fmi3GetNumberOfContinuousStates, ANY_INSTANCE_STATE, FOR_ANY)
    if (missing(comp, __func__, "nContinuousStates", nContinuousStates)) return fmi3Error;
    *nContinuousStates = n_states();
    return fmi3OK;
}

/* ---- Co-Simulation ---- */

fmi3Status fmi3EnterStepMode(fmi3Instance instance) {
    /* only reachable from Event Mode, which this FMU's Co-Simulation does not have */
    BEGIN(fmi3EnterStepMode, StateEventMode, FOR_CS)
    comp->state = StateStepMode;
    return fmi3OK;
}

fmi3Status fmi3GetOutputDerivatives(fmi3Instance instance, const fmi3ValueReference vr[], size_t nvr,
                                    const fmi3Int32 orders[], fmi3Float64 values[], size_t nValues) {
    (void)vr, (void)nvr, (void)orders, (void)values, (void)nValues;
    return unsupported(instance, __func__, "maxOutputDerivativeOrder is 0");
}

fmi3Status fmi3DoStep(fmi3Instance instance, fmi3Float64 currentCommunicationPoint,
                      fmi3Float64 communicationStepSize, fmi3Boolean noSetFMUStatePriorToCurrentPoint,
                      fmi3Boolean *eventHandlingNeeded, fmi3Boolean *terminateSimulation, fmi3Boolean *earlyReturn,
                      fmi3Float64 *lastSuccessfulTime) {
    BEGIN(fmi3DoStep, StateStepMode, FOR_CS)
    (void)noSetFMUStatePriorToCurrentPoint;
    if (missing(comp, __func__, "eventHandlingNeeded", eventHandlingNeeded)
        || missing(comp, __func__, "terminateSimulation", terminateSimulation)
        || missing(comp, __func__, "earlyReturn", earlyReturn)
        || missing(comp, __func__, "lastSuccessfulTime", lastSuccessfulTime))
        return fmi3Error;
    const double t = comp->data.time;
    if (!(communicationStepSize > 0.0)) {
        instance_log(comp, StatusError, LogStatusError, "%s: communicationStepSize must be > 0, was %g",
                     comp->name, communicationStepSize);
        return fmi3Error;
    }
    if (fabs(currentCommunicationPoint - t) > 1e-9 * fmax(comp->time_scale, fabs(t))) {
        instance_log(comp, StatusError, LogStatusError,
                     "%s: currentCommunicationPoint = %.17g, but the FMU is at t = %.17g", comp->name,
                     currentCommunicationPoint, t);
        return fmi3Error;
    }
    const double t_end = currentCommunicationPoint + communicationStepSize;
    if (comp->stop_time_defined && t_end > comp->stop_time * (1.0 + 1e-12) + 1e-12) {
        instance_log(comp, StatusError, LogStatusError, "%s: step to t = %.17g goes beyond stopTime = %.17g",
                     comp->name, t_end, comp->stop_time);
        return fmi3Error;
    }
    bool terminate = false, early = false;
    double last = t;
    const Status status = cosim_do_step(comp, currentCommunicationPoint, communicationStepSize, &terminate, &early, &last);
    *eventHandlingNeeded = false;
    *terminateSimulation = terminate;
    *earlyReturn = early;
    *lastSuccessfulTime = last;
    return instance_status(comp, status);
}
