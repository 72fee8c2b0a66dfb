/*
 * isolation_worker.c -- a process that hosts one FMU instance for the master (isolation.h).
 *
 *     cosim-worker LIBRARY FMI_MAJOR [PRELOAD]
 *
 * The channel is file descriptor 3. The worker loads LIBRARY (after PRELOAD, made global, if
 * the library needs symbols the master's process would have provided: a Python FMU needs
 * libpython), says which functions it exports, then runs call records until told to exit.
 * If the FMU crashes, only this process dies; the master sees it and reports the signal.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>

#include "fmi2FunctionTypes.h"
#include "fmi3FunctionTypes.h"
#include "isolation.h"
#include "isolation_driver.h"

#define WORKER_SLICE_SECONDS 1.0

static Channel *channel;
static void *functions[F_COUNT];
static void *instance;

#define NAME(name, shape) #name,
static const char *const NAMES[F_EXIT + 1] = {ISOLATED_FUNCTIONS(NAME) "exit"};
#undef NAME

/* ---- logging into the channel ---- */

static void log_entry(int status, const char *category, const char *message) {
    category = category ? category : "";
    message = message ? message : "";
    const size_t c = strlen(category) + 1, m = strnlen(message, 4000) + 1;
    const size_t need = (sizeof(LogEntry) + c + m + 7) & ~(size_t)7;
    if (channel->log_used + need > CHANNEL_LOG_BYTES) {
        channel->log_lost++;
        return;
    }
    unsigned char *at = channel->log + channel->log_used;
    const LogEntry entry = {status, (uint32_t)c, (uint32_t)m};
    memcpy(at, &entry, sizeof entry);
    memcpy(at + sizeof entry, category, c);
    memcpy(at + sizeof entry + c, message, m - 1);
    at[sizeof entry + c + m - 1] = 0;
    channel->log_used += (uint32_t)need;
}

static void log_fmi3(fmi3InstanceEnvironment env, fmi3Status status, fmi3String category, fmi3String message) {
    (void)env;
    log_entry((int)status, category, message);
}

static void log_fmi2(fmi2ComponentEnvironment env, fmi2String name, fmi2Status status, fmi2String category,
                 fmi2String message, ...) {
    (void)env, (void)name;
    char text[4000];
    va_list args;
    va_start(args, message);
    vsnprintf(text, sizeof text, message ? message : "", args);
    va_end(args);
    log_entry((int)status, category, text);
}

static const fmi2CallbackFunctions FMI2_CALLBACKS = {log_fmi2, calloc, free, NULL, NULL};

/* ---- record access ---- */

static void *array(Record *r, int k) { return (unsigned char *)r + r->offset[k]; }

static const char *string_at(Record *r, int k, size_t j) {
    const uint64_t *offsets = array(r, k);
    return (const char *)r + offsets[j];
}

/* Room for n string pointers (grown as needed, kept for the next call). */
static const char **pointers(size_t n) {
    static const char **list;
    static size_t capacity;
    if (n > capacity) {
        const char **grown = realloc(list, n * sizeof *list);
        if (!grown) return NULL;
        list = grown, capacity = n;
    }
    return list;
}

/* Strings of array k as a pointer array. */
static const char **strings(Record *r, int k) {
    const char **list = pointers(r->n[k] ? r->n[k] : 1);
    if (list)
        for (size_t j = 0; j < r->n[k]; j++) list[j] = string_at(r, k, j);
    return list;
}

/* Results of GetString and GetBinary: offsets (from the record) in array k, the bytes after
 * the record; `sizes` NULL: NUL-terminated strings. */
static void put_blocks(Record *r, int k, const void *const *values, const size_t *sizes, size_t n) {
    uint64_t *offsets = array(r, k);
    uint64_t at = r->size;
    unsigned char *limit = channel->area + CHANNEL_RECORD_BYTES;
    for (size_t j = 0; j < n; j++) {
        const void *block = values[j] ? values[j] : "";
        const size_t length = sizes ? sizes[j] : strlen(block) + 1;
        if ((unsigned char *)r + at + length > limit) {
            r->status = fmi3Error;
            log_entry(fmi3Error, "logStatusError", "the values do not fit into the isolation channel");
            return;
        }
        if (length) memcpy((unsigned char *)r + at, block, length);
        offsets[j] = at;
        at += length;
    }
}

static void put_strings(Record *r, const char *const *values, size_t n) {
    put_blocks(r, 1, (const void *const *)values, NULL, n);
}

/* Scheduled Execution: the FMU asks for a clock update during an activation. */
static bool clock_update_asked;
static void clock_update(fmi3InstanceEnvironment env) {
    (void)env;
    clock_update_asked = true;
}

/* ---- calls ---- */

typedef int Inst(void *);
typedef int Time(void *, double);
typedef int Access3(void *, const uint32_t *, size_t, void *, size_t);
typedef int Access2(void *, const uint32_t *, size_t, void *);
typedef int Array(void *, void *, size_t);
typedef int StatePointer(void *, void **);
typedef int StateValue(void *, void *);

#define FN(type) ((type *)functions[r->function])

static void instantiate(Record *r) {
    const char *name = string_at(r, 0, 0), *token = string_at(r, 0, 1), *resources = string_at(r, 0, 2);
    switch (r->function) {
    case F_fmi3InstantiateCoSimulation:
        instance = ((fmi3InstantiateCoSimulationTYPE *)functions[r->function])(
            name, token, resources, r->i[0], r->i[1], r->i[2], r->i[3], NULL, 0, NULL, log_fmi3, NULL);
        break;
    case F_fmi3InstantiateScheduledExecution:
        instance = ((fmi3InstantiateScheduledExecutionTYPE *)functions[r->function])(
            name, token, resources, r->i[0], r->i[1], NULL, log_fmi3, clock_update, NULL, NULL);
        break;
    case F_fmi3InstantiateModelExchange:
        instance = ((fmi3InstantiateModelExchangeTYPE *)functions[r->function])(name, token, resources, r->i[0],
                                                                              r->i[1], NULL, log_fmi3);
        break;
    default:
        instance = ((fmi2InstantiateTYPE *)functions[r->function])(name, (fmi2Type)r->i[2], token, resources,
                                                                   &FMI2_CALLBACKS, (fmi2Boolean)r->i[0],
                                                                   (fmi2Boolean)r->i[1]);
    }
    r->status = instance ? fmi3OK : fmi3Error;
}

static void call_more(Record *r, Shape shape) {
    switch (shape) {
    case SHAPE_GETSTR3:
    case SHAPE_GETSTR2: {
        const char **values = pointers(r->n[1] ? r->n[1] : 1);
        if (!values) {
            r->status = fmi3Error;
            break;
        }
        r->status = shape == SHAPE_GETSTR3 ? FN(Access3)(instance, array(r, 0), r->n[0], values, r->n[1])
                                           : FN(Access2)(instance, array(r, 0), r->n[0], values);
        if (r->status <= fmi3Warning) put_strings(r, values, r->n[1]);
        break;
    }
    case SHAPE_SETSTR3: r->status = FN(Access3)(instance, array(r, 0), r->n[0], strings(r, 1), r->n[1]); break;
    case SHAPE_SETSTR2: r->status = FN(Access2)(instance, array(r, 0), r->n[0], strings(r, 1)); break;
    case SHAPE_DEBUG3:
        r->status = ((fmi3SetDebugLoggingTYPE *)functions[r->function])(instance, r->i[0], r->n[0],
                                                                         strings(r, 0));
        break;
    case SHAPE_DEBUG2:
        r->status = ((fmi2SetDebugLoggingTYPE *)functions[r->function])(instance, (fmi2Boolean)r->i[0], r->n[0],
                                                                         strings(r, 0));
        break;
    case SHAPE_DIRECTIONAL3:
        r->status = ((fmi3GetDirectionalDerivativeTYPE *)functions[r->function])(
            instance, array(r, 0), r->n[0], array(r, 1), r->n[1], array(r, 2), r->n[2], array(r, 3), r->n[3]);
        break;
    case SHAPE_DIRECTIONAL2:
        r->status = ((fmi2GetDirectionalDerivativeTYPE *)functions[r->function])(
            instance, array(r, 0), r->n[0], array(r, 1), r->n[1], array(r, 2), array(r, 3));
        break;
    case SHAPE_UPDATE3: {
        bool flags[5] = {false};
        double next = 0.0;
        r->status = ((fmi3UpdateDiscreteStatesTYPE *)functions[r->function])(
            instance, &flags[0], &flags[1], &flags[2], &flags[3], &flags[4], &next);
        for (int k = 0; k < 5; k++) r->out_i[k] = flags[k];
        r->out_d[0] = next;
        break;
    }
    case SHAPE_NEWDISCRETE2: {
        fmi2EventInfo info = {0};
        r->status = ((fmi2NewDiscreteStatesTYPE *)functions[r->function])(instance, &info);
        r->out_i[0] = (uint64_t)info.newDiscreteStatesNeeded, r->out_i[1] = (uint64_t)info.terminateSimulation;
        r->out_i[2] = (uint64_t)info.nominalsOfContinuousStatesChanged;
        r->out_i[3] = (uint64_t)info.valuesOfContinuousStatesChanged;
        r->out_i[4] = (uint64_t)info.nextEventTimeDefined;
        r->out_d[0] = info.nextEventTime;
        break;
    }
    case SHAPE_COMPLETED3: {
        bool event = false, terminate = false;
        r->status = ((fmi3CompletedIntegratorStepTYPE *)functions[r->function])(instance, r->i[0], &event,
                                                                                 &terminate);
        r->out_i[0] = event, r->out_i[1] = terminate;
        break;
    }
    case SHAPE_COMPLETED2: {
        fmi2Boolean event = 0, terminate = 0;
        r->status = ((fmi2CompletedIntegratorStepTYPE *)functions[r->function])(instance, (fmi2Boolean)r->i[0],
                                                                                 &event, &terminate);
        r->out_i[0] = (uint64_t)event, r->out_i[1] = (uint64_t)terminate;
        break;
    }
    case SHAPE_GETBIN3: {
        const void **values = (const void **)pointers(r->n[1] ? r->n[1] : 1);
        if (!values) {
            r->status = fmi3Error;
            break;
        }
        size_t *sizes = array(r, 2);
        r->status = ((fmi3GetBinaryTYPE *)functions[r->function])(instance, array(r, 0), r->n[0], sizes,
                                                                   (fmi3Binary *)values, r->n[1]);
        if (r->status <= fmi3Warning) put_blocks(r, 1, values, sizes, r->n[1]);
        break;
    }
    case SHAPE_SETBIN3:
        r->status = ((fmi3SetBinaryTYPE *)functions[r->function])(instance, array(r, 0), r->n[0], array(r, 1),
                                                                   (const fmi3Binary *)strings(r, 2), r->n[1]);
        break;
    case SHAPE_CLOCK3:
        r->status = r->function == F_fmi3GetClock
                        ? ((fmi3GetClockTYPE *)functions[r->function])(instance, array(r, 0), r->n[0], array(r, 1))
                        : ((fmi3SetClockTYPE *)functions[r->function])(instance, array(r, 0), r->n[0], array(r, 1));
        break;
    case SHAPE_INTERVAL3:
        r->status = ((fmi3GetIntervalDecimalTYPE *)functions[r->function])(instance, array(r, 0), r->n[0],
                                                                            array(r, 1), array(r, 2));
        break;
    case SHAPE_SHIFT3:
        r->status = ((fmi3GetShiftDecimalTYPE *)functions[r->function])(instance, array(r, 0), r->n[0], array(r, 1));
        break;
    case SHAPE_ACTIVATE3:
        clock_update_asked = false;
        r->status = ((fmi3ActivateModelPartitionTYPE *)functions[r->function])(instance, (fmi3ValueReference)r->i[0],
                                                                                r->d[0]);
        r->out_i[0] = clock_update_asked;
        break;
    case SHAPE_STATUS2: { /* fmi2GetBooleanStatus, fmi2GetRealStatus: the value in out_i or out_d */
        fmi2Boolean flag = fmi2False;
        if (r->function == F_fmi2GetBooleanStatus) {
            r->status = ((fmi2GetBooleanStatusTYPE *)functions[r->function])(instance, (fmi2StatusKind)r->i[0], &flag);
            r->out_i[0] = (uint64_t)flag;
        } else {
            r->status = ((fmi2GetRealStatusTYPE *)functions[r->function])(instance, (fmi2StatusKind)r->i[0], r->out_d);
        }
        break;
    }
    case SHAPE_SIZE_OUT: {
        size_t n = 0;
        r->status = ((fmi3GetNumberOfEventIndicatorsTYPE *)functions[r->function])(instance, &n);
        r->out_i[0] = n;
        break;
    }
    default:
        r->status = fmi3Error;
        log_entry(fmi3Error, "logStatusError", "the isolation worker does not know this call");
    }
}

static void call(Record *r, Shape shape) {
    switch (shape) {
    case SHAPE_INSTANTIATE_CS3:
    case SHAPE_INSTANTIATE_SE3:
    case SHAPE_INSTANTIATE_ME3:
    case SHAPE_INSTANTIATE2: instantiate(r); break;
    case SHAPE_VOID:
        ((void (*)(void *))functions[r->function])(instance);
        instance = NULL;
        r->status = fmi3OK;
        break;
    case SHAPE_INST: r->status = FN(Inst)(instance); break;
    case SHAPE_TIME: r->status = FN(Time)(instance, r->d[0]); break;
    case SHAPE_EXPERIMENT3:
        r->status = ((fmi3EnterInitializationModeTYPE *)functions[r->function])(instance, r->i[0], r->d[0], r->d[1],
                                                                                 r->i[1], r->d[2]);
        break;
    case SHAPE_EXPERIMENT2:
        r->status = ((fmi2SetupExperimentTYPE *)functions[r->function])(
            instance, (fmi2Boolean)r->i[0], r->d[0], r->d[1], (fmi2Boolean)r->i[1], r->d[2]);
        break;
    case SHAPE_GET3:
    case SHAPE_SET3: r->status = FN(Access3)(instance, array(r, 0), r->n[0], array(r, 1), r->n[1]); break;
    case SHAPE_GET2:
    case SHAPE_SET2: r->status = FN(Access2)(instance, array(r, 0), r->n[0], array(r, 1)); break;
    case SHAPE_GETSTATE: {
        void *state = (void *)(uintptr_t)r->i[0];
        r->status = FN(StatePointer)(instance, &state);
        r->out_i[0] = (uint64_t)(uintptr_t)state;
        break;
    }
    case SHAPE_SETSTATE: r->status = FN(StateValue)(instance, (void *)(uintptr_t)r->i[0]); break;
    case SHAPE_FREESTATE: {
        void *state = (void *)(uintptr_t)r->i[0];
        r->status = FN(StatePointer)(instance, &state);
        break;
    }
    case SHAPE_ARRAY_IN:
    case SHAPE_ARRAY_OUT: r->status = FN(Array)(instance, array(r, 0), r->n[0]); break;
    case SHAPE_DOSTEP3: {
        bool event = false, terminate = false, early = false;
        double last = r->d[0] + r->d[1];
        r->status = ((fmi3DoStepTYPE *)functions[r->function])(instance, r->d[0], r->d[1], r->i[0], &event,
                                                                &terminate, &early, &last);
        r->out_i[0] = event, r->out_i[1] = terminate, r->out_i[2] = early;
        r->out_d[0] = last;
        break;
    }
    case SHAPE_DOSTEP2:
        r->status = ((fmi2DoStepTYPE *)functions[r->function])(instance, r->d[0], r->d[1], (fmi2Boolean)r->i[0]);
        break;
    default: call_more(r, shape);
    }
}

#define SHAPE_OF(name, shape) SHAPE_##shape,
static const Shape SHAPES[F_EXIT + 1] = {ISOLATED_FUNCTIONS(SHAPE_OF) SHAPE_EXIT};
#undef SHAPE_OF

/* Run the posted batch; returns false when told to exit. */
static bool run_batch(void) {
    const uint32_t n = channel->n_records;
    unsigned char *at = channel->area;
    channel->status = fmi3OK;
    channel->failed = n;
    for (uint32_t k = 0; k < n; k++) {
        Record *r = (Record *)at;
        if (r->function >= F_COUNT || r->size < sizeof(Record) || r->size > CHANNEL_AREA_BYTES) {
            channel->status = fmi3Fatal;
            channel->failed = k;
            return true;
        }
        if (r->function == F_EXIT) return false;
        if (r->function >= F_LONE_NEW) {
            lone_call(r, (void *const *)functions, instance, channel);
        } else if (r->function >= FIRST_DRIVER_FUNCTION) {
            driver_call(r, (void *const *)functions, instance, channel);
        } else if (!functions[r->function]) {
            r->status = fmi3Error;
            log_entry(fmi3Error, "logStatusError", "the FMU does not export this function");
        } else {
            call(r, SHAPES[r->function]);
        }
        if (r->status > channel->status) channel->status = r->status;
        if (r->status > fmi3Warning) {
            channel->failed = k;
            break;
        }
        at += r->size;
    }
    return true;
}

static int start(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: %s LIBRARY FMI_MAJOR [PRELOAD]\n", argv[0]);
        return 2;
    }
    channel = mmap(NULL, CHANNEL_BYTES, PROT_READ | PROT_WRITE, MAP_SHARED, WORKER_CHANNEL_FD, 0);
    if (channel == MAP_FAILED) return 3;
    void *library = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (!library && argc > 3 && dlopen(argv[3], RTLD_NOW | RTLD_GLOBAL)) library = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        snprintf(channel->text, sizeof channel->text, "%s", dlerror());
        channel->ready = -1;
        return 0;
    }
    const char prefix = argv[2][0] == '2' ? '2' : '3';
    for (int f = 0; f < F_EXIT; f++) {
        if (NAMES[f][3] != prefix) continue;
        functions[f] = dlsym(library, NAMES[f]);
        if (functions[f]) channel->exported[f / 64] |= (uint64_t)1 << (f % 64);
    }
    channel->ready = 1;
    return 0;
}

int main(int argc, char **argv) {
    prctl(PR_SET_PDEATHSIG, SIGKILL); /* never outlive the master */
    const struct rlimit no_core = {0, 0};
    setrlimit(RLIMIT_CORE, &no_core);  /* a crashing FMU leaves no core file behind */
    const int failed = start(argc, argv);
    if (failed) return failed;
    uint32_t done = 0;
    channel_post(&channel->reply, ++done, &channel->master_sleeps);
    if (channel->ready < 0) return 0;
    for (;;) {
        while (!channel_wait(&channel->request, done + 1, &channel->worker_sleeps, channel->spin,
                             WORKER_SLICE_SECONDS))
            if (getppid() == 1) return 0;
        const bool go_on = run_batch();
        channel_post(&channel->reply, ++done, &channel->master_sleeps);
        if (!go_on) return 0;
    }
}
