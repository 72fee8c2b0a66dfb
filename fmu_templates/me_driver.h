/*
 * me_driver.h -- integrates one Model Exchange FMU (FMI 3.0 or 2.0) with Radau IIA so that the
 * master can step it like a Co-Simulation FMU: time events, state events located on Radau's
 * dense output (crossing.c), step events (completedIntegratorStep), event iteration, state
 * changes at events, termination and the chattering guard.
 *
 * The FMU is reached through a table of its raw FMI function pointers (MeFmu) and a small
 * per-version adapter (me_fmi3.c, me_fmi2.c) that gives them one shape (MeAdapter). The
 * Jacobian comes from directional derivatives when the FMU provides them, else from finite
 * differences inside Radau.
 */
#ifndef COSIM_ME_DRIVER_H
#define COSIM_ME_DRIVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "clock_schedule.h"
#include "crossing.h"
#include "radau5.h"

/* FMI statuses, ordered by severity in both versions. */
enum { ME_OK = 0, ME_WARNING = 1, ME_DISCARD = 2, ME_ERROR = 3, ME_FATAL = 4 };
/* me_driver_do_step stopped between integrator steps: the deadline passed (= MASTER_TIMEOUT) */
#define ME_DEADLINE 103

/* The FMI functions the driver calls, by role; the adapter knows each one's C type. The last
 * two are FMI 3.0 clocks (fmi3SetClock, fmi3GetIntervalDecimal). */
typedef enum {
    ME_SET_TIME,
    ME_SET_STATES,
    ME_GET_STATES,
    ME_GET_DERIVATIVES,
    ME_GET_INDICATORS,
    ME_GET_NOMINALS,
    ME_COMPLETED_STEP,
    ME_ENTER_EVENT_MODE,
    ME_ENTER_CONTINUOUS_MODE,
    ME_UPDATE_DISCRETE,
    ME_DIRECTIONAL,
    ME_GET_FMU_STATE,
    ME_SET_FMU_STATE,
    ME_FREE_FMU_STATE,
    ME_SET_CLOCK,
    ME_GET_INTERVAL,
    ME_FUNCTION_COUNT
} MeFunction;

typedef void (*MeAnyFunction)(void);

typedef struct {
    void *instance;
    MeAnyFunction functions[ME_FUNCTION_COUNT];
} MeFmu;

/* What one round of event iteration reports (fmi3UpdateDiscreteStates / fmi2NewDiscreteStates). */
typedef struct {
    bool again;              /* discreteStatesNeedUpdate / newDiscreteStatesNeeded */
    bool terminate;
    bool nominals_changed;
    bool values_changed;
    bool next_time_defined;
    double next_time;
} MeEventInfo;

typedef struct {
    const char *names[ME_FUNCTION_COUNT]; /* the FMI names, for messages */
    int (*set_time)(const MeFmu *f, double t);
    int (*set_states)(const MeFmu *f, const double *x, size_t n);
    int (*get_states)(const MeFmu *f, double *x, size_t n);
    int (*get_derivatives)(const MeFmu *f, double *dx, size_t n);
    int (*get_indicators)(const MeFmu *f, double *z, size_t n);
    int (*get_nominals)(const MeFmu *f, double *nominals, size_t n);
    int (*completed_step)(const MeFmu *f, bool *enter_event, bool *terminate);
    int (*enter_event_mode)(const MeFmu *f);
    int (*enter_continuous_mode)(const MeFmu *f);
    int (*update_discrete)(const MeFmu *f, MeEventInfo *info);
    /* d unknowns / d known, one column */
    int (*directional)(const MeFmu *f, const uint32_t *unknowns, size_t n_unknowns, uint32_t known,
                       double *column);
    int (*get_fmu_state)(const MeFmu *f, void **state);
    int (*set_fmu_state)(const MeFmu *f, void *state);
    int (*free_fmu_state)(const MeFmu *f, void **state);
    int (*set_clocks)(const MeFmu *f, const uint32_t *vrs, size_t n); /* all active */
    int (*get_interval)(const MeFmu *f, uint32_t vr, double *interval, int *qualifier);
} MeAdapter;

extern const MeAdapter ME_FMI3_ADAPTER;
extern const MeAdapter ME_FMI2_ADAPTER;

#define ME_MAX_EVENT_ITERATIONS 100

/* Called at each event inside a step: before it (the FMU at the event time, values from the
 * left) and after it (the new values); a status above Warning stops the step. */
typedef int (*MeEventHook)(void *context, double t, bool after);

typedef struct {
    MeFmu fmu;
    const MeAdapter *adapter;
    size_t n, nz;
    uint32_t *state_vrs, *derivative_vrs; /* for directional derivatives */
    bool use_directional;
    double tolerance;
    double t;
    double *x, *z, *z_new, *z_event, *work, *nominal, *rtol, *atol;
    Radau5 radau;
    bool radau_allocated;
    bool next_time_defined;
    double next_time;
    bool terminated;
    ChatterGuard chatter;
    double time_scale; /* times compare relative to max(time_scale, |t|): crossing.h */
    /* rollback (fixed-point iteration of algebraic loops) */
    void *saved_fmu_state;
    double saved_t, saved_next_time;
    bool saved_next_time_defined, saved_terminated;
    double *saved_x, *saved_z;
    MeEventHook event_hook;
    void *hook_context;
    double deadline; /* CLOCK_MONOTONIC seconds (0: none), checked between integrator steps */
    /* input clocks (FMI 3.0): their ticks are time events, set active in Event Mode */
    ClockSchedule *clocks;
    size_t *due;
    uint32_t *due_vrs;
    /* statistics and the reason of a failure */
    size_t events, steps;
    char message[512];
} MeDriver;

/* A driver for an instantiated ME FMU; fmi_major is 2 or 3. state_vrs/derivative_vrs (n each)
 * are used for directional derivatives when use_directional. NULL when out of memory. */
MeDriver *me_driver_new(int fmi_major, const MeFmu *fmu, size_t n, size_t nz, const uint32_t *state_vrs,
                        const uint32_t *derivative_vrs, bool use_directional, double tolerance);
void me_driver_free(MeDriver *d);

/* After fmi*ExitInitializationMode (the FMU is in Event Mode): settle the event iteration,
 * enter Continuous-Time Mode and start the integrator at t0. */
int me_driver_start(MeDriver *d, double t0);

/* Integrate from t to t + h (new inputs were set at t); *terminate when the FMU asked to stop.
 * Afterwards the FMU stands at the point reached, so its outputs can be read. */
int me_driver_do_step(MeDriver *d, double t, double h, bool *terminate);

/* The FMU's input clocks tick as `clocks` says (tables the caller keeps; `due` and `due_vrs`
 * have room for clocks->n); call before me_driver_start. */
void me_driver_set_clocks(MeDriver *d, ClockSchedule *clocks, size_t *due, uint32_t *due_vrs);

/* The countdown clocks the FMU gave a new interval (fmi3IntervalChanged) tick at t + it. */
int clocks_poll_countdowns(ClockSchedule *s, double t, int (*get_interval)(void *context, uint32_t vr,
                                                                          double *interval, int *qualifier),
                           void *context);

/* Call `hook` before and after every event from now on (NULL: none). */
void me_driver_set_event_hook(MeDriver *d, MeEventHook hook, void *context);

/* Save and restore the driver with the FMU state (for iteration within a communication step). */
int me_driver_save(MeDriver *d);
int me_driver_restore(MeDriver *d);

#endif
