/*
 * isolation_lone.c -- a lone isolated FMU stepped by the master loop inside its worker, many
 * communication steps per round trip (isolation.h: LoneConfig, LoneBatch, LoneOutcome). The
 * master sends its read tables once (F_LONE_NEW); each F_LONE_STEPS runs master_steps here
 * and leaves the rows (time, then every slot) at the end of the channel's area.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isolation_driver.h"
#include "master_loop.h"

static struct {
    Master m;
    Component component;
    Batch *reads;
    uint32_t *vrs;
    int *slot_types;
    size_t *read_start, *read_slots, *record_slots, stage_start[2], stage_members[1];
    size_t write_start[2];
    bool stage_is_loop[1];
    Value *signals;
    unsigned char *scratch;
    size_t *scratch_sizes;
    bool ready;
} lone;

static void *array_of(Record *r, int k) { return (unsigned char *)r + r->offset[k]; }

static void release(void) {
    if (lone.ready) master_release(&lone.m);
    free(lone.reads), free(lone.vrs), free(lone.slot_types), free(lone.read_start), free(lone.read_slots);
    free(lone.record_slots), free(lone.signals), free(lone.scratch), free(lone.scratch_sizes);
    memset(&lone, 0, sizeof lone);
}

static void component(const LoneConfig *config, void *const *functions, void *instance) {
    Component *c = &lone.component;
    memset(c, 0, sizeof *c);
    const int v = config->fmi_major == 3;
    c->fmi_major = (int)config->fmi_major;
    c->instance = instance;
    for (int t = 0; t < VT_COUNT; t++)
        c->get[t] = GETTERS[v][t] < F_COUNT ? (AnyFunction)functions[GETTERS[v][t]] : NULL;
    c->do_step = (AnyFunction)functions[v ? F_fmi3DoStep : F_fmi2DoStep];
    if (!v) {
        c->get_boolean_status = (AnyFunction)functions[F_fmi2GetBooleanStatus];
        c->get_real_status = (AnyFunction)functions[F_fmi2GetRealStatus];
    }
    c->event_mode = config->event_mode != 0;
    c->enter_event_mode = (AnyFunction)functions[F_fmi3EnterEventMode];
    c->update_discrete_states = (AnyFunction)functions[F_fmi3UpdateDiscreteStates];
    c->enter_step_mode = (AnyFunction)functions[F_fmi3EnterStepMode];
    c->driver = config->use_driver ? driver_in_worker() : NULL;
    c->multiple = 1;
}

static bool tables(const LoneConfig *config, const LoneBatch *batches, const uint32_t *vrs, const int32_t *types) {
    const size_t nb = config->n_batches, ns = config->n_slots;
    lone.reads = calloc(nb + 1, sizeof(Batch));
    lone.vrs = calloc(config->n_vrs + 1, sizeof(uint32_t));
    lone.slot_types = calloc(ns + 1, sizeof(int));
    lone.read_start = calloc(2, sizeof(size_t));
    lone.read_slots = calloc(ns + 1, sizeof(size_t));
    lone.record_slots = calloc(ns + 1, sizeof(size_t));
    lone.signals = calloc(ns + 1, sizeof(Value));
    size_t widest = 1;
    for (size_t b = 0; b < nb; b++) widest = batches[b].count > widest ? batches[b].count : widest;
    lone.scratch = calloc(widest, 8);
    lone.scratch_sizes = calloc(widest, sizeof(size_t));
    if (!lone.reads || !lone.vrs || !lone.slot_types || !lone.read_start || !lone.read_slots || !lone.record_slots ||
        !lone.signals || !lone.scratch || !lone.scratch_sizes)
        return false;
    for (size_t b = 0; b < nb; b++)
        lone.reads[b] = (Batch){0, (int)batches[b].type, batches[b].first_vr, batches[b].n_vrs, batches[b].first,
                                batches[b].count};
    memcpy(lone.vrs, vrs, 4 * config->n_vrs);
    for (size_t k = 0; k < ns; k++) lone.slot_types[k] = types[k], lone.read_slots[k] = k, lone.record_slots[k] = k;
    lone.read_start[1] = nb;
    return true;
}

static void master(const LoneConfig *config) {
    Master *m = &lone.m;
    memset(m, 0, sizeof *m);
    m->n_components = 1, m->components = &lone.component;
    m->signals = lone.signals, m->slot_types = lone.slot_types, m->n_slots = config->n_slots;
    m->reads = lone.reads, m->read_start = lone.read_start, m->read_vrs = lone.vrs, m->read_slots = lone.read_slots;
    m->write_start = lone.write_start; /* nothing feeds a lone FMU */
    lone.stage_start[1] = 1;
    m->n_stages = 1, m->stage_start = lone.stage_start, m->stage_members = lone.stage_members;
    m->stage_is_loop = lone.stage_is_loop;
    m->t0 = config->t0, m->h = config->h, m->stop = config->stop, m->n_steps = config->n_steps;
    m->n_record = config->n_slots, m->record_slots = lone.record_slots;
    m->event_rows = config->event_rows != 0, m->allow_nonfinite = config->allow_nonfinite != 0;
    m->max_iterations = 1, m->scratch = lone.scratch, m->scratch_sizes = lone.scratch_sizes;
    m->error_component = -1, m->terminated_by = -1, m->nonfinite_slot = -1;
}

static void lone_new(Record *r, void *const *functions, void *instance, Channel *channel) {
    release();
    const LoneConfig *config = array_of(r, 0);
    component(config, functions, instance);
    if (config->use_driver && !lone.component.driver) {
        r->status = 3;
        snprintf(channel->text, sizeof channel->text, "no Model Exchange driver in the worker");
        return;
    }
    if (!tables(config, array_of(r, 1), array_of(r, 2), array_of(r, 3))) {
        r->status = 4;
        snprintf(channel->text, sizeof channel->text, "no memory for the lone FMU's tables");
        return;
    }
    master(config);
    lone.ready = master_setup(&lone.m) != 0;
    if (lone.ready) {
        lone.m.components[0].context.master = &lone.m;
        if (lone.component.driver) master_attach_driver(&lone.m, 0, lone.component.driver);
    }
    r->status = lone.ready ? 0 : 4;
}

/* Steps until k_end, an error, the end of the run, or rows that fill half the event area. The
 * rows and the progress go to shared memory after every step: if the FMU crashes the worker,
 * the master still has them, and the step and function it died in. */
static void lone_steps(Record *r, Channel *channel) {
    Master *m = &lone.m;
    LoneOutcome *out = array_of(r, 0);
    memset(out, 0, sizeof *out);
    m->deadline = r->d[0];
    Component *c = &m->components[0];
    if (c->driver) c->driver->deadline = r->d[0];
    const char *step = c->driver ? "doStep (Model Exchange driver)" : c->fmi_major == 3 ? "fmi3DoStep" : "fmi2DoStep";
    const size_t width = 8 * (1 + m->n_record);
    unsigned char *rows = channel->area + CHANNEL_RECORD_BYTES;
    int status = 0;
    for (long long k = (long long)r->i[0]; k < (long long)r->i[1] && status == 0; k++) {
        out->error_time = master_time(m, k);
        snprintf(out->error_function, sizeof out->error_function, "%s", step);
        long long one = 0;
        status = master_steps(m, k, k + 1, &one);
        const size_t fit = (CHANNEL_EVENT_BYTES / width) - (size_t)out->rows;
        const size_t n = m->rows.n < fit ? m->rows.n : fit;
        memcpy(rows + (size_t)out->rows * width, m->rows.data, n * width);
        m->rows.n = 0;
        out->rows += (int64_t)n;
        out->done += one;
        if ((size_t)out->rows * width > CHANNEL_EVENT_BYTES / 2) break;
    }
    out->status = status;
    out->terminated = m->terminated_by >= 0, out->reached = c->reached;
    out->nonfinite_slot = m->nonfinite_slot, out->nonfinite_count = (int64_t)m->nonfinite;
    out->nonfinite_value = m->nonfinite_value, out->nonfinite_time = m->nonfinite_time;
    out->warnings = (int64_t)m->warnings;
    m->warnings = 0;
    if (status > 1) {
        out->error_time = m->error_time;
        snprintf(out->error_function, sizeof out->error_function, "%s", m->error_function ? m->error_function : "");
        if (c->driver) snprintf(channel->text, sizeof channel->text, "%s", c->driver->message);
    }
    r->status = 0; /* the outcome says how the steps went */
}

void lone_call(Record *r, void *const *functions, void *instance, Channel *channel) {
    if (r->function == F_LONE_NEW) {
        lone_new(r, functions, instance, channel);
    } else if (lone.ready) {
        lone_steps(r, channel);
    } else {
        r->status = 3;
        snprintf(channel->text, sizeof channel->text, "no lone FMU in the worker");
    }
}
