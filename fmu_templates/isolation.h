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
    X(fmi3GetBinary, GETBIN3) X(fmi3SetBinary, SETBIN3) X(fmi3GetClock, CLOCK3) X(fmi3SetClock, CLOCK3)  \
    X(fmi3GetIntervalDecimal, INTERVAL3) X(fmi3GetShiftDecimal, SHIFT3)                              \
    X(fmi3ActivateModelPartition, ACTIVATE3) X(fmi3InstantiateScheduledExecution, INSTANTIATE_SE3)   \
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
    X(fmi2GetNominalsOfContinuousStates, ARRAY_OUT) X(fmi2DoStep, DOSTEP2)                           \
    X(fmi2GetBooleanStatus, STATUS2) X(fmi2GetRealStatus, STATUS2)

/* After the FMI functions: the worker's exit, and the Model Exchange driver run in the worker
 * (isolation_driver.c): one round trip per communication step instead of one per call. */
#define ISOLATION_ID(name, shape) F_##name,
typedef enum {
    ISOLATED_FUNCTIONS(ISOLATION_ID) F_EXIT, F_DRIVER_NEW, F_DRIVER_READS, F_DRIVER_START, F_DRIVER_STEP,
    F_DRIVER_SAVE, F_DRIVER_RESTORE, F_LONE_NEW, F_LONE_STEPS, F_COUNT
} FunctionId;
#undef ISOLATION_ID
#define FIRST_DRIVER_FUNCTION F_DRIVER_NEW

#define ISOLATION_SHAPE(name, shape) SHAPE_##shape,
typedef enum {
    SHAPE_INSTANTIATE_CS3, SHAPE_INSTANTIATE_ME3, SHAPE_INSTANTIATE_SE3, SHAPE_INSTANTIATE2, SHAPE_VOID, SHAPE_INST,
    SHAPE_GETBIN3, SHAPE_SETBIN3, SHAPE_CLOCK3, SHAPE_INTERVAL3, SHAPE_SHIFT3, SHAPE_ACTIVATE3,
    SHAPE_EXPERIMENT3, SHAPE_EXPERIMENT2, SHAPE_DEBUG3, SHAPE_DEBUG2, SHAPE_GET3, SHAPE_SET3,
    SHAPE_GET2, SHAPE_SET2, SHAPE_GETSTR3, SHAPE_SETSTR3, SHAPE_GETSTR2, SHAPE_SETSTR2,
    SHAPE_GETSTATE, SHAPE_SETSTATE, SHAPE_FREESTATE, SHAPE_DIRECTIONAL3, SHAPE_DIRECTIONAL2,
    SHAPE_UPDATE3, SHAPE_NEWDISCRETE2, SHAPE_COMPLETED3, SHAPE_COMPLETED2, SHAPE_TIME,
    SHAPE_ARRAY_IN, SHAPE_ARRAY_OUT, SHAPE_SIZE_OUT, SHAPE_DOSTEP3, SHAPE_DOSTEP2, SHAPE_STATUS2,
    SHAPE_EXIT
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
    double spin;                 /* seconds both sides spin before they sleep (the master sets it) */
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
/* The end of the area holds the event rows of a driver step (isolation_driver.c); records and
 * the texts they return use the rest. */
#define CHANNEL_EVENT_BYTES ((uint64_t)16 * 1024 * 1024)
#define CHANNEL_RECORD_BYTES (CHANNEL_AREA_BYTES - CHANNEL_EVENT_BYTES)

/* Bytes of one value of a getter or setter. */
static const size_t VALUE_BYTES[F_COUNT] = {
    [F_fmi3GetFloat64] = 8, [F_fmi3GetFloat32] = 4, [F_fmi3GetInt8] = 1, [F_fmi3GetUInt8] = 1,
    [F_fmi3GetInt16] = 2, [F_fmi3GetUInt16] = 2, [F_fmi3GetInt32] = 4, [F_fmi3GetUInt32] = 4,
    [F_fmi3GetInt64] = 8, [F_fmi3GetUInt64] = 8, [F_fmi3GetBoolean] = sizeof(_Bool),
    [F_fmi3SetFloat64] = 8, [F_fmi3SetFloat32] = 4, [F_fmi3SetInt8] = 1, [F_fmi3SetUInt8] = 1,
    [F_fmi3SetInt16] = 2, [F_fmi3SetUInt16] = 2, [F_fmi3SetInt32] = 4, [F_fmi3SetUInt32] = 4,
    [F_fmi3SetInt64] = 8, [F_fmi3SetUInt64] = 8, [F_fmi3SetBoolean] = sizeof(_Bool),
    [F_fmi2GetReal] = 8, [F_fmi2GetInteger] = sizeof(int), [F_fmi2GetBoolean] = sizeof(int),
    [F_fmi2SetReal] = 8, [F_fmi2SetInteger] = sizeof(int), [F_fmi2SetBoolean] = sizeof(int)};

static inline uint64_t channel_aligned(uint64_t n) { return (n + 7) & ~(uint64_t)7; }

/* The getter of each value type (the order of master_loop.h's ValueType; F_COUNT: none). */
static const FunctionId GETTERS[2][13] = {
    {F_fmi2GetReal, F_COUNT, F_COUNT, F_COUNT, F_COUNT, F_COUNT, F_fmi2GetInteger, F_COUNT, F_COUNT, F_COUNT,
     F_fmi2GetBoolean, F_COUNT, F_COUNT},
    {F_fmi3GetFloat64, F_fmi3GetFloat32, F_fmi3GetInt8, F_fmi3GetUInt8, F_fmi3GetInt16, F_fmi3GetUInt16,
     F_fmi3GetInt32, F_fmi3GetUInt32, F_fmi3GetInt64, F_fmi3GetUInt64, F_fmi3GetBoolean, F_COUNT, F_COUNT}};

/* A lone FMU (the only component, fed by nothing) stepped by the master loop in its worker
 * (isolation_lone.c): chunks of communication steps per round trip. F_LONE_NEW sends the
 * config, the read batches, their value references and the slots' types; F_LONE_STEPS
 * (i: first and end step; d: deadline) answers a LoneOutcome and leaves its rows (time, then
 * every slot) at the end of the area. */
typedef struct {
    uint64_t fmi_major, n_batches, n_vrs, n_slots, event_mode, use_driver, event_rows, allow_nonfinite;
    int64_t n_steps;
    double t0, h, stop;
} LoneConfig;

typedef struct {
    uint64_t type, first_vr, n_vrs, first, count;
} LoneBatch;

typedef struct {
    int64_t done, rows, status, terminated, nonfinite_slot, nonfinite_count, warnings;
    double error_time, nonfinite_value, nonfinite_time, reached;
    char error_function[64];
} LoneOutcome;

/* A read batch of a driver's event rows: (getter, value references << 32 | values). */
static inline uint64_t batch_pack(size_t n_vrs, size_t n_values) { return (uint64_t)n_vrs << 32 | n_values; }
static inline size_t batch_vrs(uint64_t packed) { return (size_t)(packed >> 32); }
static inline size_t batch_values(uint64_t packed) { return (size_t)(packed & 0xffffffff); }

/* The bytes of one event row of a driver step: time, after-flag, then each read batch's values
 * (8-byte aligned). */
static inline uint64_t event_entry_bytes(const uint64_t *batches, size_t n_batches) {
    uint64_t bytes = 16;
    for (size_t b = 0; b < n_batches; b++)
        bytes += channel_aligned(batch_values(batches[2 * b + 1]) * VALUE_BYTES[batches[2 * b]]);
    return bytes;
}

/* Both sides spin this long for the other before sleeping on the futex: a reply that comes
 * sooner costs no system call, but a spin takes a core from anything else. */
#define DEFAULT_SPIN_SECONDS 0.0

/* The worker gets the channel as this file descriptor. */
#define WORKER_CHANNEL_FD 3

_Static_assert(F_EXIT <= 128, "the exported mask has 128 bits");

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
