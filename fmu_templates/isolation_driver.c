/*
 * isolation_driver.c -- the worker's side of a Model Exchange driver (isolation_driver.h).
 *
 * Records: F_DRIVER_NEW (i: FMI major, states, indicators, directional; d: tolerance; arrays:
 * state and derivative value references), F_DRIVER_READS (arrays: batches as (getter, values)
 * pairs, their value references), F_DRIVER_START (d: t0), F_DRIVER_STEP (i: event rows; d: t,
 * h, deadline; out: terminate, events; out_d: the time reached), F_DRIVER_SAVE, F_DRIVER_RESTORE.
 * A failing driver call leaves the driver's message in the channel's text.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isolation_driver.h"
#include "me_driver.h"

/* The FMI functions of each MeFunction role, by version (me_driver.h's order). */
static const FunctionId ROLES3[ME_FUNCTION_COUNT] = {
    F_fmi3SetTime, F_fmi3SetContinuousStates, F_fmi3GetContinuousStates, F_fmi3GetContinuousStateDerivatives,
    F_fmi3GetEventIndicators, F_fmi3GetNominalsOfContinuousStates, F_fmi3CompletedIntegratorStep,
    F_fmi3EnterEventMode, F_fmi3EnterContinuousTimeMode, F_fmi3UpdateDiscreteStates,
    F_fmi3GetDirectionalDerivative, F_fmi3GetFMUState, F_fmi3SetFMUState, F_fmi3FreeFMUState, F_fmi3SetClock,
    F_fmi3GetIntervalDecimal};
static const FunctionId ROLES2[ME_FUNCTION_COUNT] = {
    F_fmi2SetTime, F_fmi2SetContinuousStates, F_fmi2GetContinuousStates, F_fmi2GetDerivatives,
    F_fmi2GetEventIndicators, F_fmi2GetNominalsOfContinuousStates, F_fmi2CompletedIntegratorStep,
    F_fmi2EnterEventMode, F_fmi2EnterContinuousTimeMode, F_fmi2NewDiscreteStates,
    F_fmi2GetDirectionalDerivative, F_fmi2GetFMUstate, F_fmi2SetFMUstate, F_fmi2FreeFMUstate, F_COUNT, F_COUNT};

typedef int Access3(void *, const uint32_t *, size_t, void *, size_t);
typedef int Access2(void *, const uint32_t *, size_t, void *);

/* The driver and what its event rows read. */
static struct {
    MeDriver *driver;
    int fmi_major;
    void *instance;
    void *const *functions;
    uint64_t *batches; /* (getter, values) pairs */
    size_t n_batches;
    uint32_t *vrs;
    uint64_t entry_bytes;
    Channel *channel;
    size_t entries;
    bool overflow;
} worker;

static void *array_of(Record *r, int k) { return (unsigned char *)r + r->offset[k]; }

static void say(Channel *channel, const char *text) { snprintf(channel->text, sizeof channel->text, "%s", text); }

/* An event row: the time, before or after, and the values of every read batch. */
static int event_row(void *context, double t, bool after) {
    (void)context;
    unsigned char *log = worker.channel->area + CHANNEL_RECORD_BYTES;
    if ((worker.entries + 1) * worker.entry_bytes > CHANNEL_EVENT_BYTES) {
        worker.overflow = true;
        return ME_OK; /* too many events in one step: the later ones have no rows */
    }
    unsigned char *entry = log + worker.entries * worker.entry_bytes;
    memcpy(entry, &t, 8);
    const uint64_t flag = after;
    memcpy(entry + 8, &flag, 8);
    unsigned char *at = entry + 16;
    const uint32_t *vrs = worker.vrs;
    for (size_t b = 0; b < worker.n_batches; b++) {
        const FunctionId f = (FunctionId)worker.batches[2 * b];
        const size_t n_vrs = batch_vrs(worker.batches[2 * b + 1]), n = batch_values(worker.batches[2 * b + 1]);
        const int status = worker.fmi_major == 3 ? ((Access3 *)worker.functions[f])(worker.instance, vrs, n_vrs, at, n)
                                                 : ((Access2 *)worker.functions[f])(worker.instance, vrs, n_vrs, at);
        if (status > ME_WARNING) return status;
        vrs += n_vrs;
        at += channel_aligned(n * VALUE_BYTES[f]);
    }
    worker.entries++;
    return ME_OK;
}

static void driver_new(Record *r) {
    if (worker.driver) me_driver_free(worker.driver);
    worker.fmi_major = (int)r->i[0];
    MeFmu fmu = {worker.instance, {NULL}};
    const FunctionId *roles = worker.fmi_major == 3 ? ROLES3 : ROLES2;
    for (int k = 0; k < ME_FUNCTION_COUNT; k++)
        fmu.functions[k] = roles[k] < F_COUNT ? (MeAnyFunction)worker.functions[roles[k]] : NULL;
    worker.driver = me_driver_new(worker.fmi_major, &fmu, (size_t)r->i[1], (size_t)r->i[2], array_of(r, 0),
                                  array_of(r, 1), r->i[3] != 0, r->d[0]);
    r->status = worker.driver ? ME_OK : ME_FATAL;
    if (!worker.driver) say(worker.channel, "no memory for the Model Exchange driver");
}

/* Batches arrive as (getter, batch_pack(value references, values)): kept for the event rows. */
static void driver_reads(Record *r) {
    free(worker.batches);
    free(worker.vrs);
    worker.n_batches = r->n[0] / 2;
    worker.batches = malloc(8 * (r->n[0] + 1));
    worker.vrs = malloc(4 * (r->n[1] + 1));
    if (!worker.batches || !worker.vrs) {
        r->status = ME_FATAL;
        say(worker.channel, "no memory for the event rows");
        return;
    }
    memcpy(worker.batches, array_of(r, 0), 8 * r->n[0]);
    memcpy(worker.vrs, array_of(r, 1), 4 * r->n[1]);
    worker.entry_bytes = event_entry_bytes(worker.batches, worker.n_batches);
    r->status = ME_OK;
}

static void driver_step(Record *r) {
    MeDriver *d = worker.driver;
    worker.entries = 0;
    worker.overflow = false;
    d->deadline = r->d[2];
    me_driver_set_event_hook(d, r->i[0] ? event_row : NULL, NULL);
    bool terminate = false;
    r->status = me_driver_do_step(d, r->d[0], r->d[1], &terminate);
    r->out_i[0] = terminate;
    r->out_i[1] = worker.entries;
    r->out_i[2] = worker.overflow;
    r->out_d[0] = d->t;
}

MeDriver *driver_in_worker(void) { return worker.driver; }

void driver_call(Record *r, void *const *functions, void *instance, Channel *channel) {
    worker.functions = functions, worker.instance = instance, worker.channel = channel;
    if (r->function != F_DRIVER_NEW && !worker.driver) {
        r->status = ME_ERROR;
        say(channel, "no Model Exchange driver in the worker");
        return;
    }
    switch (r->function) {
    case F_DRIVER_NEW: driver_new(r); return;
    case F_DRIVER_READS: driver_reads(r); return;
    case F_DRIVER_START: r->status = me_driver_start(worker.driver, r->d[0]); break;
    case F_DRIVER_STEP: driver_step(r); break;
    case F_DRIVER_SAVE: r->status = me_driver_save(worker.driver); break;
    case F_DRIVER_RESTORE: r->status = me_driver_restore(worker.driver); break;
    default: r->status = ME_ERROR;
    }
    r->out_d[0] = worker.driver->t;
    if (r->status > ME_WARNING) say(channel, worker.driver->message);
}
