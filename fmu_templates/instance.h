/*
 * instance.h -- the model instance and the services the FMI layer is built on.
 *
 * fmi3Functions.c owns the FMI API: state machine, argument checks, dispatch.
 * instance.c      creates and frees instances, logs, and saves/restores FMU states.
 * events.c        event iteration and state-event location on the integrator's dense output.
 * cosimulation.c  fmi3DoStep: Radau IIA steps with events in between.
 * None of them knows a particular model: they reach it through model.h.
 */
#ifndef COSIM_INSTANCE_H
#define COSIM_INSTANCE_H

#include <stdbool.h>
#include <stddef.h>

#include "fmi3PlatformTypes.h"
#include "fmi3FunctionTypes.h"
#include "crossing.h"
#include "model.h"
#include "radau5.h"

/* FMI 3.0 states as bit flags, so that "allowed in" is a mask. */
typedef enum {
    StateStartAndEnd = 1 << 0,
    StateInstantiated = 1 << 1,
    StateInitializationMode = 1 << 2,
    StateEventMode = 1 << 3,
    StateContinuousTimeMode = 1 << 4,
    StateStepMode = 1 << 5,
    StateTerminated = 1 << 6,
    StateError = 1 << 7,  /* a computation failed: only inspection, restore, reset, free */
    StateFatal = 1 << 8   /* nothing but fmi3FreeInstance */
} InstanceState;

typedef enum { InterfaceModelExchange, InterfaceCoSimulation } InterfaceType;

/* The log categories this runtime writes to; modelDescription.xml lists the same names (the
 * packager reads them from here). */
#define LOG_CATEGORIES(X)                                                                  \
    X(LogEvents, "logEvents", "Events: time, state and step events, event iterations")     \
    X(LogSingularLinearSystems, "logSingularLinearSystems", "Singular linear systems")      \
    X(LogNonlinearSystems, "logNonlinearSystems", "Nonlinear systems: Newton iterations")   \
    X(LogIntegrator, "logIntegrator", "Radau IIA: statistics of each communication step")  \
    X(LogMessages, "logMessages", "Messages of the model's external functions and print()") \
    X(LogStatusWarning, "logStatusWarning", "Warnings")                                    \
    X(LogStatusDiscard, "logStatusDiscard", "Discarded steps")                             \
    X(LogStatusError, "logStatusError", "Errors, including calls in a wrong state")        \
    X(LogStatusFatal, "logStatusFatal", "Fatal errors")                                    \
    X(LogAll, "logAll", "Everything")

#define LOG_CATEGORY_ENUM(id, name, description) id,
typedef enum { LOG_CATEGORIES(LOG_CATEGORY_ENUM) N_LOG_CATEGORIES } LogCategory;
#undef LOG_CATEGORY_ENUM

typedef struct ModelInstance {
    ModelData data;
    InterfaceType interface_type;
    InstanceState state;
    char *name;
    char *resource_location;
    fmi3InstanceEnvironment environment;
    fmi3LogMessageCallback log_message;
    bool logging_on;
    bool log_category_on[N_LOG_CATEGORIES];

    /* computed values are stale: recompute before the next read */
    bool values_dirty;
    /* derivatives are current but outputs not yet (Model Exchange reads derivatives often) */
    bool outputs_pending;

    /* experiment */
    double start_time;
    bool stop_time_defined;
    double stop_time;
    double tolerance;

    /* The arrays below (and those of `data`) have the lengths the model's sizes give
     * (MODEL, model.h); they live in one block allocated with the instance. */
    void *storage;

    /* events */
    double *z;          /* n_event_indicators: indicators where the last step ended */
    double *z_probe;    /* n_event_indicators */
    double *z_event;    /* n_event_indicators: at a located event */
    double *z_work;     /* 2 n_event_indicators: for crossing_locate */
    double *z_outputs;  /* n_event_indicators: as outputs compute them */
    bool next_event_time_defined;
    double next_event_time;
    ChatterGuard chatter;
    double time_scale;    /* times are compared relative to max(time_scale, |t|): crossing.h */

    /* Co-Simulation */
    bool early_return_allowed;
    bool integrator_ready;  /* radau holds the current states; false forces a restart */
    bool inputs_changed;    /* since the integrator last evaluated f */
    bool discrete_inputs_changed; /* a discrete input changed: an event at the next step */
    bool terminate_requested;     /* the model called terminate(): the next step reports it */
    bool radau_allocated;
    double radau_tolerance;       /* the tolerance radau was set up with */
    Radau5 radau;
    double *rtol, *atol, *x;  /* n_states */
    double *x_dense;          /* n_states: a point of the dense output */

    /* n_guesses: the values of MODEL_GUESS_SLOT at the last accepted point */
    double *guesses;

    /* directional derivatives from the model's Jacobian */
    double *jacobian_values;  /* n_jacobian_nonzeros */
    double *jacobian_column;  /* n_states */
} ModelInstance;

/* ---- instance.c ---- */
ModelInstance *instance_create(InterfaceType type, fmi3String name, fmi3String token,
                               fmi3String resource_location, fmi3Boolean logging_on,
                               fmi3InstanceEnvironment environment,
                               fmi3LogMessageCallback log_message);
void instance_free(ModelInstance *comp);
void instance_reset(ModelInstance *comp);
void instance_log(ModelInstance *comp, Status status, LogCategory category, const char *format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
bool instance_set_debug_logging(ModelInstance *comp, bool on, size_t n, const char *const names[]);
/* Error and Fatal move the instance to the matching state; returns status as fmi3Status. */
fmi3Status instance_status(ModelInstance *comp, Status status);

/* Copy states into the model, and back. */
void instance_set_states(ModelInstance *comp, const double *x);
void instance_get_states(const ModelInstance *comp, double *x);
/* Recompute stale values before a read: everything, or (outputs false) what the
 * derivatives need. In Initialization Mode this runs the initialization. */
Status instance_refresh(ModelInstance *comp, bool outputs);
/* model_derivatives, its loops started from the guesses of the last accepted point */
Status instance_derivatives(ModelInstance *comp);
/* The current point is accepted (initialized, an event, an integrator step): its loop
 * solutions are the guesses from now on. */
void instance_keep_guesses(ModelInstance *comp);

/* FMU state: an opaque snapshot; serialization is a flat byte image of it. */
typedef struct FmuState FmuState;
FmuState *instance_save(ModelInstance *comp);
bool instance_restore(ModelInstance *comp, const FmuState *snapshot);
void instance_free_state(FmuState *snapshot);
size_t instance_serialized_size(const ModelInstance *comp, const FmuState *snapshot);
void instance_serialize(const ModelInstance *comp, const FmuState *snapshot, unsigned char *out);
FmuState *instance_deserialize(ModelInstance *comp, const unsigned char *bytes, size_t size);

/* ---- events.c ---- */
/* Events that no indicator announces, as `indicator` arguments below. */
#define EVENT_TIME ((size_t)-1)
#define EVENT_INPUT ((size_t)-2)
/* "h < 0 (Ball.mo:12:5)", "a time event", ... */
const char *event_name(size_t indicator);
/* Event iteration at the current time until discrete values settle (what an importer does
 * with fmi3UpdateDiscreteStates for Model Exchange). */
Status event_iterate(ModelInstance *comp, bool *terminate, bool *states_changed);
/* One iteration: pre := current, then the model's event update. */
Status event_update_once(ModelInstance *comp, EventUpdate *update);
/* Evaluate the indicators at (t, x) into z. */
Status event_indicators_at(ModelInstance *comp, double t, const double *x, double *z);
/* True if some indicator changed its domain (z > 0 versus z <= 0) from a to b; the index of
 * the first such indicator in *which. */
bool event_domain_changed(const double *a, const double *b, size_t *which);
/* Locate the first domain change in the integrator's last step [t_old, t_new]: on return
 * *t_event is the earliest time at which some indicator has changed its domain, z_event the
 * indicators there, and comp->x the dense-output state there. */
Status event_locate(ModelInstance *comp, double t_old, const double *z_old, double t_new,
                    const double *z_new, double *t_event, double *z_event, size_t *indicator);
/* Register an event at time t; returns false (after logging) when events chatter. */
bool event_chattering_guard(ModelInstance *comp, double t, size_t indicator);

/* ---- cosimulation.c ---- */
Status cosim_do_step(ModelInstance *comp, double t_start, double h, bool *terminate,
                     bool *early_return, double *last_successful_time);
/* After initialization: the initial event iteration, then the integrator starts. */
Status cosim_enter_step_mode(ModelInstance *comp);
/* Allocate the integrator (no restart); used when an FMU state brings the integrator's own. */
Status cosim_prepare_integrator(ModelInstance *comp);
void cosim_release_integrator(ModelInstance *comp);

#endif /* COSIM_INSTANCE_H */
