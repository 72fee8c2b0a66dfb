/*
 * isolation.h -- the channel between the master's FMI proxy (isolation_proxy.c) and the
 * worker process that hosts one third-party FMU instance (isolation_worker.c).
 *
 * One shared-memory region per worker: a header (sequence counters used as futex words, the
 * batch's outcome, the FMU's log messages) and an area of call records. The master queues
 * records (setters are queued without waiting), bumps `request`, and waits for `reply` to
 * reach the same number; the worker runs the records in order, stops at the first one whose
 * status is worse than Warning, writes results into the records in place and bumps `reply`.
 * Both sides spin briefly before sleeping on the futex, so a call that follows at once
 * (getting outputs after doStep) costs no system call.
 */
#ifndef COSIM_ISOLATION_H
#define COSIM_ISOLATION_H

#include <linux/futex.h>
#include <stdatomic.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* Every FMI function the master calls, with the shape that tells how its arguments travel. */
#define ISOLATED_FUNCTIONS(X)                                                                        \
    X(fmi3InstantiateCoSimulation, INSTANTIATE_CS3) X(fmi3InstantiateModelExchange, INSTANTIATE_ME3) \
    X(fmi3FreeInstance, VOID) X(fmi3EnterInitializationMode, EXPERIMENT3)                            \
    X(fmi3ExitInitializationMode, INST) X(fmi3EnterEventMode, INST) X(fmi3Terminate, INST)           \
    X(fmi3Reset, INST) X(fmi3EnterConfigurationMode, INST) X(fmi3ExitConfigurationMode, INST)        \
    X(fmi3EnterContinuousTimeMode, INST) X(fmi3EnterStepMode, INST) X(fmi3SetDebugLogging, DEBUG3)   \
    X(fmi3GetFloat64, GET3) X(fmi3GetFloat32, GET3) X(fmi3GetInt8, GET3) X(fmi3GetUInt8, GET3)       \
    X(fmi3GetInt16, GET3) X(fmi3GetUInt16, GET3) X(fmi3GetInt32, GET3) X(fmi3GetUInt32, GET3)        \
    X(fmi3GetInt64, GET3) X(fmi3GetUInt64, GET3) X(fmi3GetBoolean, GET3)                             \
    X(fmi3SetFloat64, SET3) X(fmi3SetFloat32, SET3) X(fmi3SetInt8, SET3) X(fmi3SetUInt8, SET3)       \
    X(fmi3SetInt16, SET3) X(fmi3SetUInt16, SET3) X(fmi3SetInt32, SET3) X(fmi3SetUInt32, SET3)        \
    X(fmi3SetInt64, SET3) X(fmi3SetUInt64, SET3) X(fmi3SetBoolean, SET3)                             \
    X(fmi3GetString, GETSTR3) X(fmi3SetString, SETSTR3) X(fmi3GetFMUState, GETSTATE)                 \
    X(fmi3SetFMUState, SETSTATE) X(fmi3FreeFMUState, FREESTATE)                                      \
    X(fmi3GetDirectionalDerivative, DIRECTIONAL3) X(fmi3UpdateDiscreteStates, UPDATE3)               \
    X(fmi3CompletedIntegratorStep, COMPLETED3) X(fmi3SetTime, TIME)                                  \
    X(fmi3SetContinuousStates, ARRAY_IN) X(fmi3GetContinuousStateDerivatives, ARRAY_OUT)             \
    X(fmi3GetEventIndicators, ARRAY_OUT) X(fmi3GetContinuousStates, ARRAY_OUT)                       \
    X(fmi3GetNominalsOfContinuousStates, ARRAY_OUT) X(fmi3GetNumberOfEventIndicators, SIZE_OUT)      \
    X(fmi3GetNumberOfContinuousStates, SIZE_OUT) X(fmi3DoStep, DOSTEP3)                              \
    X(fmi2Instantiate, INSTANTIATE2) X(fmi2FreeInstance, VOID) X(fmi2SetupExperiment, EXPERIMENT2)   \
    X(fmi2EnterInitializationMode, INST) X(fmi2ExitInitializationMode, INST) X(fmi2Terminate, INST)  \
    X(fmi2Reset, INST) X(fmi2EnterEventMode, INST) X(fmi2EnterContinuousTimeMode, INST)              \
    X(fmi2SetDebugLogging, DEBUG2) X(fmi2GetReal, GET2) X(fmi2GetInteger, GET2)                      \
    X(fmi2GetBoolean, GET2) X(fmi2SetReal, SET2) X(fmi2SetInteger, SET2) X(fmi2SetBoolean, SET2)     \
    X(fmi2GetString, GETSTR2) X(fmi2SetString, SETSTR2) X(fmi2GetFMUstate, GETSTATE)                 \
    X(fmi2SetFMUstate, SETSTATE) X(fmi2FreeFMUstate, FREESTATE)                                      \
    X(fmi2GetDirectionalDerivative, DIRECTIONAL2) X(fmi2NewDiscreteStates, NEWDISCRETE2)             \
    X(fmi2CompletedIntegratorStep, COMPLETED2) X(fmi2SetTime, TIME)                                  \
    X(fmi2SetContinuousStates, ARRAY_IN) X(fmi2GetDerivatives, ARRAY_OUT)                            \
    X(fmi2GetEventIndicators, ARRAY_OUT) X(fmi2GetContinuousStates, ARRAY_OUT)                       \
    X(fmi2GetNominalsOfContinuousStates, ARRAY_OUT) X(fmi2DoStep, DOSTEP2)

#define ISOLATION_ID(name, shape) F_##name,
typedef enum { ISOLATED_FUNCTIONS(ISOLATION_ID) F_EXIT, F_COUNT } FunctionId;
#undef ISOLATION_ID

#define ISOLATION_SHAPE(name, shape) SHAPE_##shape,
typedef enum {
    SHAPE_INSTANTIATE_CS3, SHAPE_INSTANTIATE_ME3, SHAPE_INSTANTIATE2, SHAPE_VOID, SHAPE_INST,
    SHAPE_EXPERIMENT3, SHAPE_EXPERIMENT2, SHAPE_DEBUG3, SHAPE_DEBUG2, SHAPE_GET3, SHAPE_SET3,
    SHAPE_GET2, SHAPE_SET2, SHAPE_GETSTR3, SHAPE_SETSTR3, SHAPE_GETSTR2, SHAPE_SETSTR2,
    SHAPE_GETSTATE, SHAPE_SETSTATE, SHAPE_FREESTATE, SHAPE_DIRECTIONAL3, SHAPE_DIRECTIONAL2,
    SHAPE_UPDATE3, SHAPE_NEWDISCRETE2, SHAPE_COMPLETED3, SHAPE_COMPLETED2, SHAPE_TIME,
    SHAPE_ARRAY_IN, SHAPE_ARRAY_OUT, SHAPE_SIZE_OUT, SHAPE_DOSTEP3, SHAPE_DOSTEP2, SHAPE_EXIT
} Shape;

/* Up to this many arrays travel with one call (strings count as an offset array). */
#define RECORD_ARRAYS 4

/* One call. Arrays follow the record, each 8-byte aligned at `offset[k]` from its start. */
typedef struct {
    uint32_t function;           /* FunctionId */
    int32_t status;              /* written by the worker */
    uint64_t size;               /* bytes of the record and its arrays */
    uint64_t i[4];               /* integer, Boolean, size and FMU-state arguments */
    double d[3];                 /* real arguments */
    uint64_t out_i[6];           /* integer, Boolean and FMU-state results */
    double out_d[1];             /* real results */
    uint64_t n[RECORD_ARRAYS];   /* element counts of the arrays */
    uint64_t offset[RECORD_ARRAYS];
} Record;

#define CHANNEL_LOG_BYTES (64 * 1024)
#define CHANNEL_TEXT_BYTES 1024
/* Virtual size of the shared region: pages are only backed once written. */
#define CHANNEL_BYTES ((uint64_t)64 * 1024 * 1024)

typedef struct {
    _Atomic uint32_t request;    /* batches posted by the master (futex word) */
    _Atomic uint32_t reply;      /* batches completed by the worker (futex word) */
    _Atomic uint32_t worker_sleeps, master_sleeps;
    uint32_t n_records;
    uint32_t failed;             /* index of the record that stopped the batch, or n_records */
    int32_t status;              /* worst status of the records that ran */
    int32_t ready;               /* worker start: 1 loaded, -1 failed (text says why) */
    uint32_t log_used, log_lost; /* bytes of log entries, entries that did not fit */
    uint64_t exported[2];        /* bit f: the library exports function f */
    char text[CHANNEL_TEXT_BYTES];
    unsigned char log[CHANNEL_LOG_BYTES];
    _Alignas(8) unsigned char area[];
} Channel;

/* A log entry: this header, then category and message, each NUL-terminated. */
typedef struct {
    int32_t status;
    uint32_t category_bytes, message_bytes;
} LogEntry;

#define CHANNEL_AREA_BYTES (CHANNEL_BYTES - sizeof(Channel))

/* The worker gets the channel as this file descriptor. */
#define WORKER_CHANNEL_FD 3

_Static_assert(F_COUNT <= 128, "the exported mask has 128 bits");

static inline double monotonic_seconds(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec + 1e-9 * (double)now.tv_nsec;
}

/* Wait until *word == target: spin for `spin` seconds, then sleep on the futex for at most
 * `slice` seconds at a time. Returns 1 when reached, 0 after one slice (the caller then
 * checks the other side is alive and calls again). `sleeps` tells the other side to wake us. */
static inline int channel_wait(_Atomic uint32_t *word, uint32_t target, _Atomic uint32_t *sleeps,
                               double spin, double slice) {
    if (atomic_load_explicit(word, memory_order_acquire) == target) return 1;
    const double until = monotonic_seconds() + spin;
    do {
        for (int k = 0; k < 64; k++) {
            if (atomic_load_explicit(word, memory_order_acquire) == target) return 1;
            __builtin_ia32_pause();
        }
    } while (monotonic_seconds() < until);
    atomic_store(sleeps, 1);
    const uint32_t seen = atomic_load(word);
    if (seen != target) {
        const struct timespec timeout = {(time_t)slice, (long)((slice - (double)(time_t)slice) * 1e9)};
        syscall(SYS_futex, (uint32_t *)word, FUTEX_WAIT, seen, &timeout, NULL, 0);
    }
    atomic_store(sleeps, 0);
    return atomic_load_explicit(word, memory_order_acquire) == target;
}

/* Publish *word = value and wake the other side if it sleeps on it. */
static inline void channel_post(_Atomic uint32_t *word, uint32_t value, _Atomic uint32_t *sleeps) {
    atomic_store(word, value);
    if (atomic_load(sleeps)) syscall(SYS_futex, (uint32_t *)word, FUTEX_WAKE, 1, NULL, NULL, 0);
}

#endif
