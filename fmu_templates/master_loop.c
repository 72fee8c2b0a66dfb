/*
 * master_loop.c -- the master's stepping loop over flat tables (see master_loop.h).
 *
 * Typed access: FMI 3.0 getters and setters share one shape (instance, vrs, nvr, values,
 * nValues) and FMI 2.0 ones another (component, vrs, nvr, values); both are called through a
 * pointer type whose value argument is void *, and values are converted to and from the Value
 * slots here. Binary values (FMI 3.0 only) also pass their sizes.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fmi2FunctionTypes.h"
#include "fmi3FunctionTypes.h"
#include "master_loop.h"

typedef int (*Fmi3Access)(void *instance, const uint32_t *vrs, size_t n, void *values, size_t n_values);
typedef int (*Fmi2Access)(void *instance, const uint32_t *vrs, size_t n, void *values);
typedef int (*Fmi3BinaryAccess)(void *instance, const uint32_t *vrs, size_t n, size_t *sizes, void *values,
                                size_t n_values);

#define NO_SOURCE ((size_t)-1)

static int report(Master *m, size_t component, const char *function, int status, double t) {
    if (status == ME_WARNING) {
        m->warnings++;
        return ME_OK;
    }
    if (status > ME_WARNING) {
        m->error_component = (long long)component;
        m->error_function = function;
        m->error_status = status;
        m->error_time = t;
    }
    return status;
}

static int out_of_memory(Master *m, double t) {
    m->error_component = 0;
    m->error_function = "";
    m->error_status = MASTER_NO_MEMORY;
    m->error_time = t;
    return MASTER_NO_MEMORY;
}

#define TRY(expression)                          \
    do {                                         \
        const int status_ = (expression);        \
        if (status_ > ME_WARNING) return status_; \
    } while (0)

double master_time(const Master *m, long long k) { return k >= m->n_steps ? m->stop : m->t0 + (double)k * m->h; }

/* ---- texts ---- */

static bool grow(void **block, size_t *capacity, size_t needed, size_t each) {
    if (needed <= *capacity) return true;
    size_t wanted = *capacity ? *capacity : 64;
    while (wanted < needed) wanted *= 2;
    void *grown = realloc(*block, wanted * each);
    if (!grown) return false;
    *block = grown;
    *capacity = wanted;
    return true;
}

void master_lock(Master *m) { pthread_mutex_lock(&m->rows.lock); }
void master_unlock(Master *m) { pthread_mutex_unlock(&m->rows.lock); }

static size_t add_text(Master *m, const void *bytes, size_t size) {
    TextPool *p = &m->texts;
    if (!grow((void **)&p->bytes, &p->capacity, p->used + size + 1, 1)) return (size_t)-1;
    size_t slots = p->slots;
    if (!grow((void **)&p->offsets, &slots, p->count + 1, sizeof(size_t))) return (size_t)-1;
    slots = p->slots;
    if (!grow((void **)&p->lengths, &slots, p->count + 1, sizeof(size_t))) return (size_t)-1;
    p->slots = slots;
    if (size) memcpy(p->bytes + p->used, bytes, size);
    p->bytes[p->used + size] = 0;
    p->offsets[p->count] = p->used;
    p->lengths[p->count] = size;
    p->used += size + 1;
    return p->count++;
}

size_t master_add_text(Master *m, const void *bytes, size_t size) {
    master_lock(m);
    const size_t id = add_text(m, bytes, size);
    master_unlock(m);
    return id;
}

static const char *text_of(const Master *m, uint64_t id) {
    return (const char *)m->texts.bytes + m->texts.offsets[id < m->texts.count ? id : 0];
}

static size_t text_length(const Master *m, uint64_t id) { return m->texts.lengths[id < m->texts.count ? id : 0]; }

/* The slot keeps its id while the text is the same: a text is stored once per change. */
static int keep_text(Master *m, Value *slot, const void *bytes, size_t size) {
    if (!bytes) bytes = "", size = 0;
    if (text_length(m, slot->u) == size && memcmp(text_of(m, slot->u), bytes, size) == 0) return ME_OK;
    const size_t id = master_add_text(m, bytes, size);
    if (id == (size_t)-1) return MASTER_NO_MEMORY;
    slot->u = id;
    return ME_OK;
}

int master_setup(Master *m) {
    m->rows.n = 0;
    if (pthread_mutex_init(&m->rows.lock, NULL) != 0) return 0;
    return master_add_text(m, "", 0) == 0;
}

void master_release(Master *m) {
    pthread_mutex_destroy(&m->rows.lock);
    free(m->rows.data);
    free(m->texts.bytes);
    free(m->texts.offsets);
    free(m->texts.lengths);
    m->rows.data = NULL, m->texts.bytes = NULL, m->texts.offsets = NULL, m->texts.lengths = NULL;
    m->rows.capacity = m->rows.n = 0;
    m->texts.capacity = m->texts.used = m->texts.count = m->texts.slots = 0;
}

/* ---- typed values <-> Value slots ---- */

static bool is_float(int type) { return type == VT_FLOAT64 || type == VT_FLOAT32; }
static bool is_unsigned(int type) {
    return type == VT_UINT8 || type == VT_UINT16 || type == VT_UINT32 || type == VT_UINT64;
}
static bool is_text(int type) { return type == VT_STRING || type == VT_BINARY; }

static Value load(int type, int fmi_major, const unsigned char *p, size_t i) {
    Value v;
    switch (type) {
    case VT_FLOAT64: v.f = ((const double *)p)[i]; break;
    case VT_FLOAT32: v.f = ((const float *)p)[i]; break;
    case VT_INT8: v.i = ((const int8_t *)p)[i]; break;
    case VT_UINT8: v.u = ((const uint8_t *)p)[i]; break;
    case VT_INT16: v.i = ((const int16_t *)p)[i]; break;
    case VT_UINT16: v.u = ((const uint16_t *)p)[i]; break;
    case VT_INT32: v.i = ((const int32_t *)p)[i]; break;
    case VT_UINT32: v.u = ((const uint32_t *)p)[i]; break;
    case VT_INT64: v.i = ((const int64_t *)p)[i]; break;
    case VT_UINT64: v.u = ((const uint64_t *)p)[i]; break;
    default: v.i = fmi_major == 2 ? ((const int *)p)[i] != 0 : ((const bool *)p)[i];
    }
    return v;
}

static int64_t clamp_signed(int64_t v, int64_t low, int64_t high) { return v < low ? low : v > high ? high : v; }
static uint64_t clamp_unsigned(uint64_t v, uint64_t high) { return v > high ? high : v; }

/* Integer slots keep their type's range: the conversions below saturate. */
static void store(int type, int fmi_major, unsigned char *p, size_t i, Value v) {
    switch (type) {
    case VT_FLOAT64: ((double *)p)[i] = v.f; break;
    case VT_FLOAT32: ((float *)p)[i] = (float)v.f; break;
    case VT_INT8: ((int8_t *)p)[i] = (int8_t)clamp_signed(v.i, INT8_MIN, INT8_MAX); break;
    case VT_UINT8: ((uint8_t *)p)[i] = (uint8_t)clamp_unsigned(v.u, UINT8_MAX); break;
    case VT_INT16: ((int16_t *)p)[i] = (int16_t)clamp_signed(v.i, INT16_MIN, INT16_MAX); break;
    case VT_UINT16: ((uint16_t *)p)[i] = (uint16_t)clamp_unsigned(v.u, UINT16_MAX); break;
    case VT_INT32: ((int32_t *)p)[i] = (int32_t)clamp_signed(v.i, INT32_MIN, INT32_MAX); break;
    case VT_UINT32: ((uint32_t *)p)[i] = (uint32_t)clamp_unsigned(v.u, UINT32_MAX); break;
    case VT_INT64: ((int64_t *)p)[i] = v.i; break;
    case VT_UINT64: ((uint64_t *)p)[i] = v.u; break;
    default:
        if (fmi_major == 2) ((int *)p)[i] = v.i != 0;
        else ((bool *)p)[i] = v.i != 0;
    }
}

static double as_double(Value v, int type) {
    return is_float(type) ? v.f : is_unsigned(type) ? (double)v.u : (double)v.i;
}

static Value from_double(double x, int type) {
    Value v;
    if (is_float(type)) v.f = x;
    else if (is_unsigned(type)) v.u = !(x > 0) ? 0 : x >= 18446744073709551615.0 ? UINT64_MAX : (uint64_t)llround(x);
    else if (type == VT_BOOLEAN) v.i = x != 0.0;
    else v.i = !(x > -9223372036854775808.0) ? INT64_MIN : x >= 9223372036854775807.0 ? INT64_MAX : llround(x);
    return v;
}

/* Between signed and unsigned slots without a transformation: exact, saturating. */
static Value integer_between(Value v, int from, int to) {
    Value out;
    if (is_unsigned(from) == is_unsigned(to)) return v;
    if (is_unsigned(to)) out.u = v.i < 0 ? 0 : (uint64_t)v.i;
    else out.i = v.u > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)v.u;
    return out;
}

static const char *const GET_NAMES[2][VT_COUNT] = {
    {"fmi2GetReal", "", "", "", "", "", "fmi2GetInteger", "", "", "", "fmi2GetBoolean", "fmi2GetString", ""},
    {"fmi3GetFloat64", "fmi3GetFloat32", "fmi3GetInt8", "fmi3GetUInt8", "fmi3GetInt16", "fmi3GetUInt16",
     "fmi3GetInt32", "fmi3GetUInt32", "fmi3GetInt64", "fmi3GetUInt64", "fmi3GetBoolean", "fmi3GetString",
     "fmi3GetBinary"}};
static const char *const SET_NAMES[2][VT_COUNT] = {
    {"fmi2SetReal", "", "", "", "", "", "fmi2SetInteger", "", "", "", "fmi2SetBoolean", "fmi2SetString", ""},
    {"fmi3SetFloat64", "fmi3SetFloat32", "fmi3SetInt8", "fmi3SetUInt8", "fmi3SetInt16", "fmi3SetUInt16",
     "fmi3SetInt32", "fmi3SetUInt32", "fmi3SetInt64", "fmi3SetUInt64", "fmi3SetBoolean", "fmi3SetString",
     "fmi3SetBinary"}};

static int typed_call(const Master *m, const Component *c, AnyFunction function, const Batch *b, const uint32_t *vrs,
                  void *values) {
    if (b->type == VT_BINARY)
        return ((Fmi3BinaryAccess)function)(c->instance, vrs + b->first_vr, b->n_vrs, m->scratch_sizes, values,
                                            b->count);
    if (c->fmi_major == 3)
        return ((Fmi3Access)function)(c->instance, vrs + b->first_vr, b->n_vrs, values, b->count);
    return ((Fmi2Access)function)(c->instance, vrs + b->first_vr, b->n_vrs, values);
}

/* ---- reading outputs, writing inputs ---- */

/* A NaN or Inf in slot `slot` read from component `index` at time t: stop unless allowed. */
static int nonfinite(Master *m, size_t index, size_t slot, double value, double t) {
    if (m->nonfinite_slot < 0) {
        m->nonfinite_slot = (long long)slot;
        m->nonfinite_value = value;
        m->nonfinite_time = t;
    }
    if (m->allow_nonfinite) {
        m->nonfinite++;
        return ME_OK;
    }
    m->error_component = (long long)index;
    m->error_function = "";
    m->error_status = MASTER_NONFINITE;
    m->error_time = t;
    return MASTER_NONFINITE;
}

static int check_finite(Master *m, size_t index, const Batch *b, double t) {
    for (size_t i = 0; i < b->count; i++) {
        const size_t slot = m->read_slots[b->first + i];
        if (!isfinite(m->signals[slot].f)) {
            const int status = nonfinite(m, index, slot, m->signals[slot].f, t);
            if (status != ME_OK) return status;
        }
    }
    return ME_OK;
}

/* The values of a batch landed in the scratch area: into their slots. */
static int take_values(Master *m, const Component *c, const Batch *b, Value *slots, double t) {
    if (is_text(b->type)) {
        const char *const *texts = (const char *const *)(void *)m->scratch;
        for (size_t i = 0; i < b->count; i++) {
            const size_t size = b->type == VT_BINARY ? m->scratch_sizes[i] : texts[i] ? strlen(texts[i]) : 0;
            if (keep_text(m, &slots[i], texts[i], size) != ME_OK) return out_of_memory(m, t);
        }
    } else if (b->type != VT_FLOAT64) {
        for (size_t i = 0; i < b->count; i++) slots[i] = load(b->type, c->fmi_major, m->scratch, i);
    }
    return ME_OK;
}

static int read_component(Master *m, size_t index, double t) {
    const Component *c = &m->components[index];
    for (size_t k = m->read_start[index]; k < m->read_start[index + 1]; k++) {
        const Batch *b = &m->reads[k];
        /* slots of a batch are consecutive: Float64 values land in the buffer directly */
        Value *slots = &m->signals[m->read_slots[b->first]];
        void *values = b->type == VT_FLOAT64 ? (void *)slots : (void *)m->scratch;
        const int status = report(m, index, GET_NAMES[c->fmi_major == 3][b->type],
                                  typed_call(m, c, c->get[b->type], b, m->read_vrs, values), t);
        if (status > ME_WARNING) return status;
        TRY(take_values(m, c, b, slots, t));
        if (is_float(b->type)) TRY(check_finite(m, index, b, t));
    }
    return ME_OK;
}

static Value input_value(const Master *m, size_t e, int type) {
    const size_t source = m->write_sources[e];
    if (m->write_modes[e] == WRITE_HELD) return m->written[e];
    const Value v = m->signals[source];
    if (m->write_modes[e] == WRITE_SAME) return v;
    if (m->write_modes[e] == WRITE_INTEGER) return integer_between(v, m->slot_types[source], type);
    double x = m->write_factors[e] * as_double(v, m->slot_types[source]) + m->write_offsets[e];
    for (size_t p = m->map_start[e]; p < m->map_start[e + 1]; p++)
        if (m->map_from[p] == x) {
            x = m->map_to[p];
            break;
        }
    return from_double(x, type);
}

/* The batch's values into the scratch area, in the shape of its setter. */
static void put_values(Master *m, const Component *c, const Batch *b) {
    const char **texts = (const char **)(void *)m->scratch;
    for (size_t i = 0; i < b->count; i++) {
        const Value v = m->written[b->first + i];
        if (is_text(b->type)) {
            texts[i] = text_of(m, v.u);
            m->scratch_sizes[i] = text_length(m, v.u);
        } else {
            store(b->type, c->fmi_major, m->scratch, i, v);
        }
    }
}

static int write_component(Master *m, size_t index, double t) {
    const Component *c = &m->components[index];
    for (size_t k = m->write_start[index]; k < m->write_start[index + 1]; k++) {
        const Batch *b = &m->writes[k];
        for (size_t i = 0; i < b->count; i++) m->written[b->first + i] = input_value(m, b->first + i, b->type);
        put_values(m, c, b);
        const int status = report(m, index, SET_NAMES[c->fmi_major == 3][b->type],
                                  typed_call(m, c, c->set[b->type], b, m->write_vrs, m->scratch), t);
        if (status > ME_WARNING) return status;
    }
    return ME_OK;
}

/* Largest relative change between the inputs written last and what the outputs give now. */
static double input_change(const Master *m, size_t index) {
    double change = 0.0;
    for (size_t k = m->write_start[index]; k < m->write_start[index + 1]; k++) {
        const Batch *b = &m->writes[k];
        for (size_t e = b->first; e < b->first + b->count; e++) {
            if (is_text(b->type)) {
                if (input_value(m, e, b->type).u != m->written[e].u) change = INFINITY;
                continue;
            }
            const double v = as_double(input_value(m, e, b->type), b->type);
            change = fmax(change, fabs(v - as_double(m->written[e], b->type)) / (1.0 + fabs(v)));
        }
    }
    return change;
}

/* ---- inputs from files ---- */

static Value interpolated(const InputTable *in, size_t column, size_t row, double t) {
    const Value here = in->values[row * in->n_columns + column];
    if (!in->linear[column] || row + 1 >= in->n_rows || in->times[row + 1] <= in->times[row]) return here;
    const Value next = in->values[(row + 1) * in->n_columns + column];
    const double w = (t - in->times[row]) / (in->times[row + 1] - in->times[row]);
    Value v;
    v.f = here.f + w * (next.f - here.f);
    return v;
}

/* Signals of the input table at time t; whether a held (discrete) value changed. */
static bool apply_inputs(Master *m, double t) {
    InputTable *in = &m->inputs;
    if (in->n_rows == 0) return false;
    if (in->row >= in->n_rows || in->times[in->row] > t) in->row = 0;
    while (in->row + 1 < in->n_rows && in->times[in->row + 1] <= t) in->row++;
    bool changed = false;
    for (size_t j = 0; j < in->n_columns; j++) {
        Value *slot = &m->signals[in->slots[j]];
        const Value v = in->times[in->row] <= t ? interpolated(in, j, in->row, t) : in->values[j];
        if (!in->linear[j] && v.u != slot->u) changed = true;
        *slot = v;
    }
    return changed;
}

/* ---- result rows ---- */

static int append_row(Master *m, double t) {
    const size_t width = 1 + m->n_record;
    master_lock(m);
    size_t capacity = m->rows.capacity;
    const bool room = grow((void **)&m->rows.data, &capacity, (m->rows.n + 1) * width, sizeof(Value));
    if (room) {
        m->rows.capacity = capacity;
        Value *row = m->rows.data + m->rows.n * width;
        row[0].f = t;
        for (size_t j = 0; j < m->n_record; j++) row[1 + j] = m->signals[m->record_slots[j]];
        m->rows.n++;
    }
    master_unlock(m);
    return room ? ME_OK : out_of_memory(m, t);
}

int master_record(Master *m, double t) { return append_row(m, t); }

/* An event inside a component's step: a row before it and one after it, but for the rows
 * the step's start and end already give (the row before an event at the start, after one at
 * the end). */
static bool row_given(const StepContext *s, double t, bool after) {
    const double scale = 1e-12 * fmax(s->end - s->begin, fabs(t));
    return (after && fabs(t - s->end) <= scale) || (!after && fabs(t - s->begin) <= scale);
}

static int event_row(void *context, double t, bool after) {
    StepContext *s = context;
    Master *m = s->master;
    if (!m->event_rows || row_given(s, t, after)) return ME_OK;
    TRY(read_component(m, s->index, t));
    return append_row(m, t);
}

/* ---- Model Exchange driven in the worker of an isolated FMU ---- */

int master_attach_remote(Master *m, size_t index, Host *host) {
    Component *c = &m->components[index];
    c->remote = host;
    const size_t first = m->read_start[index], n = m->read_start[index + 1] - first;
    uint64_t batches[2 * 64];
    if (n > 64) return report(m, index, "driver: reads", ME_ERROR, m->t0);
    size_t n_vrs = 0;
    for (size_t k = 0; k < n; k++) {
        const Batch *b = &m->reads[first + k];
        batches[2 * k] = (uint64_t)GETTERS[c->fmi_major == 3][b->type];
        batches[2 * k + 1] = batch_pack(b->n_vrs, b->count);
        n_vrs += b->n_vrs;
    }
    const uint32_t *vrs = n ? m->read_vrs + m->reads[first].first_vr : m->read_vrs;
    return report(m, index, "driver: reads", cosim_host_driver_reads(host, n, batches, n_vrs, vrs), m->t0);
}

/* The rows of the events inside a step of a remote driver: its outputs as the worker read
 * them before and after each event. */
static int replay_events(Master *m, Component *c, const unsigned char *log, size_t entries) {
    const size_t index = (size_t)(c - m->components);
    const size_t first = m->read_start[index], n = m->read_start[index + 1] - first;
    for (size_t e = 0; e < entries; e++) {
        double t;
        uint64_t after;
        memcpy(&t, log, 8);
        memcpy(&after, log + 8, 8);
        const unsigned char *at = log + 16;
        for (size_t k = 0; k < n; k++) {
            const Batch *b = &m->reads[first + k];
            Value *slots = &m->signals[m->read_slots[b->first]];
            for (size_t i = 0; i < b->count; i++) slots[i] = load(b->type, c->fmi_major, at, i);
            at += channel_aligned(b->count * VALUE_BYTES[GETTERS[c->fmi_major == 3][b->type]]);
        }
        log = at;
        if (m->event_rows && !row_given(&c->context, t, after != 0)) TRY(append_row(m, t));
    }
    return ME_OK;
}

static int remote_step(Master *m, Component *c, double t, double h, bool *terminate) {
    const unsigned char *log = NULL;
    size_t entries = 0;
    bool overflow = false;
    const int status = cosim_host_driver_step(c->remote, t, h, m->deadline, m->event_rows, terminate, &c->reached,
                                              &log, &entries, &overflow);
    const int replayed = log ? replay_events(m, c, log, entries) : ME_OK; /* a failed step's too */
    return status > ME_WARNING ? status : replayed;
}

void master_attach_driver(Master *m, size_t index, MeDriver *driver) {
    Component *c = &m->components[index];
    c->driver = driver;
    if (driver) driver->deadline = m->deadline;
    if (driver && m->event_rows) me_driver_set_event_hook(driver, event_row, &c->context);
}

/* ---- stepping ---- */

/* An FMI 2.0 doStep that returned Discard: did the slave end the run (fmi2Terminated)? Then
 * *reached is where it stopped (fmi2LastSuccessfulTime, when it says). */
static bool fmi2_terminated(const Component *c, double *reached) {
    fmi2Boolean terminated = fmi2False;
    if (!c->get_boolean_status ||
        ((fmi2GetBooleanStatusTYPE *)c->get_boolean_status)(c->instance, fmi2Terminated, &terminated) > fmi2Warning ||
        !terminated)
        return false;
    double last = *reached;
    if (c->get_real_status &&
        ((fmi2GetRealStatusTYPE *)c->get_real_status)(c->instance, fmi2LastSuccessfulTime, &last) <= fmi2Warning)
        *reached = last;
    return true;
}

/* ---- input clocks ---- */

typedef struct {
    Master *m;
    Component *c;
    double t;
} ClockContext;

static int component_interval(void *context, uint32_t vr, double *interval, int *qualifier) {
    ClockContext *k = context;
    const size_t index = (size_t)(k->c - k->m->components);
    fmi3IntervalQualifier q = fmi3IntervalNotYetKnown;
    const int status = report(k->m, index, "fmi3GetIntervalDecimal",
                              ((fmi3GetIntervalDecimalTYPE *)k->c->get_interval)(k->c->instance, &vr, 1, interval, &q),
                              k->t);
    *qualifier = (int)q;
    return status;
}

static int settle_event(Master *m, Component *c, double t, bool *terminate);

static int poll_countdowns(Master *m, Component *c, double t) {
    ClockContext context = {m, c, t};
    return clocks_poll_countdowns(c->clocks, t, component_interval, &context);
}

/* Scheduled Execution: activate the partitions of the ticks up to `end` (at `end` too), in
 * time and priority order; a countdown clock the FMU gives an interval ticks in turn. */
static int activate_until(Master *m, Component *c, double end) {
    const size_t index = (size_t)(c - m->components);
    for (;;) {
        const double t = clocks_next(c->clocks);
        if (!(t <= end || clocks_same_time(t, end))) return ME_OK;
        const size_t n = clocks_due(c->clocks, t, c->due);
        for (size_t k = 0; k < n; k++) {
            TRY(report(m, index, "fmi3ActivateModelPartition",
                       ((fmi3ActivateModelPartitionTYPE *)c->activate)(c->instance, c->clocks->vrs[c->due[k]], t), t));
            TRY(poll_countdowns(m, c, t));
        }
    }
}

void cosim_clock_update(void *environment) {
    (void)environment; /* the master asks for the countdown intervals after each activation */
}

int master_start_clocks(Master *m) {
    for (size_t k = 0; k < m->n_components; k++) {
        Component *c = &m->components[k];
        if (!c->clocks || c->driver) continue; /* a Model Exchange driver starts its own */
        clocks_start(c->clocks, m->t0);
        c->context.begin = c->context.end = m->t0; /* no event rows: the first row follows */
        if (c->scheduled) {
            TRY(activate_until(m, c, m->t0));
        } else if (clocks_same_time(clocks_next(c->clocks), m->t0)) {
            bool terminate = false;
            TRY(settle_event(m, c, m->t0, &terminate));
            if (terminate && m->terminated_by < 0) c->terminated = true, m->terminated_by = (long long)k;
        }
    }
    return ME_OK;
}

/* In Event Mode: the input clocks that tick at t are active. */
static int set_due_clocks(Master *m, Component *c, double t) {
    const size_t n = clocks_due(c->clocks, t, c->due);
    if (!n) return ME_OK;
    bool active[64];
    for (size_t k = 0; k < 64; k++) active[k] = true;
    for (size_t done = 0; done < n; done += 64) {
        const size_t count = n - done < 64 ? n - done : 64;
        for (size_t k = 0; k < count; k++) c->due_vrs[k] = c->clocks->vrs[c->due[done + k]];
        TRY(report(m, (size_t)(c - m->components), "fmi3SetClock",
                   ((fmi3SetClockTYPE *)c->set_clock)(c->instance, c->due_vrs, count, active), t));
    }
    return ME_OK;
}

/* FMI 3.0 Event Mode of a Co-Simulation FMU at t (an early return, or input clocks that
 * tick): iterate the discrete states, then back to Step Mode. */
static int settle_event(Master *m, Component *c, double t, bool *terminate) {
    const size_t index = (size_t)(c - m->components);
    TRY(event_row(&c->context, t, false));
    TRY(report(m, index, "fmi3EnterEventMode", ((fmi3EnterEventModeTYPE *)c->enter_event_mode)(c->instance), t));
    if (c->clocks) TRY(set_due_clocks(m, c, t));
    bool again = true;
    for (int round = 0; again && round < ME_MAX_EVENT_ITERATIONS; round++) {
        bool nominals = false, values = false, next_defined = false;
        double next = 0.0;
        TRY(report(m, index, "fmi3UpdateDiscreteStates",
                   ((fmi3UpdateDiscreteStatesTYPE *)c->update_discrete_states)(c->instance, &again, terminate,
                                                                               &nominals, &values, &next_defined,
                                                                               &next),
                   t));
        if (*terminate) return ME_OK;
    }
    if (c->clocks) TRY(poll_countdowns(m, c, t));
    TRY(report(m, index, "fmi3EnterStepMode", ((fmi3EnterStepModeTYPE *)c->enter_step_mode)(c->instance), t));
    c->events++;
    return event_row(&c->context, t, true);
}

/* fmi3DoStep over [t, t + h], with Event Mode at every early return the FMU asks for. */
static bool tick_due(const Component *c, double t) {
    if (!c->clocks) return false;
    const double tick = clocks_next(c->clocks);
    return tick <= t || clocks_same_time(tick, t);
}

/* fmi3DoStep over [t, t + h], with Event Mode at every early return the FMU asks for and at
 * every tick of its input clocks (the step stops there); ticks at t + h are handled too. */
static int fmi3_step(Master *m, Component *c, double t, double h, bool rollback_possible, bool *terminate) {
    const size_t index = (size_t)(c - m->components);
    const double end = t + h;
    double now = t;
    for (;;) {
        if (tick_due(c, now)) {
            TRY(settle_event(m, c, now, terminate));
            if (*terminate) return ME_OK;
        }
        if (now >= end || clocks_same_time(now, end)) return ME_OK;
        double until = end;
        if (c->clocks) {
            const double tick = clocks_next(c->clocks);
            if (tick < end && !clocks_same_time(tick, end)) until = tick;
        }
        bool event = false, early = false;
        double last = until;
        int status = ((fmi3DoStepTYPE *)c->do_step)(c->instance, now, until - now, !rollback_possible, &event,
                                                    terminate, &early, &last);
        if (*terminate) c->reached = last;
        if (status == ME_DISCARD && *terminate) status = ME_OK; /* a Discard that ends the run */
        if (status > ME_WARNING || *terminate) return status;
        TRY(report(m, index, "fmi3DoStep", status, now));
        double reached = early && last > now ? last : until;
        if (clocks_same_time(reached, end)) reached = end;
        if (event && c->event_mode) {
            TRY(settle_event(m, c, reached, terminate));
            if (*terminate) return ME_OK;
        }
        now = reached;
    }
}

static int do_step(Master *m, Component *c, double t, double h, bool rollback_possible, bool *terminate) {
    c->reached = t + h;
    c->context.begin = t, c->context.end = t + h;
    if (c->driver) {
        const int status = me_driver_do_step(c->driver, t, h, terminate);
        c->reached = c->driver->t;
        return status;
    }
    if (c->remote) return remote_step(m, c, t, h, terminate);
    if (c->scheduled) return activate_until(m, c, t + h);
    if (c->fmi_major == 3) return fmi3_step(m, c, t, h, rollback_possible, terminate);
    const int status = ((fmi2DoStepTYPE *)c->do_step)(c->instance, t, h, rollback_possible ? fmi2False : fmi2True);
    if (status == ME_DISCARD && fmi2_terminated(c, &c->reached)) {
        *terminate = true;
        return ME_OK;
    }
    return status;
}

static const char *const STEP_NAMES[4] = {"doStep (Model Exchange driver)", "fmi2DoStep", "fmi3DoStep",
                                          "fmi3ActivateModelPartition"};

static int step_component(Master *m, size_t index, double t, double h, bool rollback_possible) {
    Component *c = &m->components[index];
    if (c->terminated) return ME_OK;
    bool terminate = false;
    const char *name = STEP_NAMES[c->driver || c->remote ? 0 : c->scheduled ? 3 : c->fmi_major - 1];
    const int status = do_step(m, c, t, h, rollback_possible, &terminate);
    if (status > ME_WARNING && m->error_status) return status; /* reported where it failed */
    TRY(report(m, index, name, status, t));
    if (terminate && !c->terminated) {
        c->terminated = true;
        if (m->terminated_by < 0) m->terminated_by = (long long)index;
    }
    return ME_OK;
}

static int save_state(Master *m, size_t index, double t) {
    Component *c = &m->components[index];
    if (c->driver) return report(m, index, "fmiGetFMUState (Model Exchange driver)", me_driver_save(c->driver), t);
    if (c->remote)
        return report(m, index, "fmiGetFMUState (Model Exchange driver)", cosim_host_driver_save(c->remote), t);
    if (c->fmi_major == 3)
        return report(m, index, "fmi3GetFMUState", ((fmi3GetFMUStateTYPE *)c->get_state)(c->instance, &c->saved_state), t);
    return report(m, index, "fmi2GetFMUstate", ((fmi2GetFMUstateTYPE *)c->get_state)(c->instance, &c->saved_state), t);
}

static int restore_state(Master *m, size_t index, double t) {
    Component *c = &m->components[index];
    if (c->driver) return report(m, index, "fmiSetFMUState (Model Exchange driver)", me_driver_restore(c->driver), t);
    if (c->remote)
        return report(m, index, "fmiSetFMUState (Model Exchange driver)", cosim_host_driver_restore(c->remote), t);
    if (c->fmi_major == 3)
        return report(m, index, "fmi3SetFMUState", ((fmi3SetFMUStateTYPE *)c->set_state)(c->instance, c->saved_state), t);
    return report(m, index, "fmi2SetFMUstate", ((fmi2SetFMUstateTYPE *)c->set_state)(c->instance, c->saved_state), t);
}

static double stage_change(const Master *m, size_t s) {
    double change = 0.0;
    for (size_t j = m->stage_start[s]; j < m->stage_start[s + 1]; j++)
        change = fmax(change, input_change(m, m->stage_members[j]));
    return change;
}

static int loop_diverged(Master *m, size_t s, double t) {
    m->error_component = (long long)m->stage_members[m->stage_start[s]];
    m->error_function = "algebraic loop";
    m->error_status = MASTER_LOOP_DIVERGED;
    m->error_time = t;
    return MASTER_LOOP_DIVERGED;
}

/* Fixed-point iteration of a loop stage over one step: step, compare the inputs the new
 * outputs give with those used, roll back and repeat until they agree. */
static int step_loop(Master *m, size_t s, double t, double h) {
    const size_t begin = m->stage_start[s], end = m->stage_start[s + 1];
    for (size_t j = begin; j < end; j++) TRY(save_state(m, m->stage_members[j], t));
    for (int iteration = 1; iteration <= m->max_iterations; iteration++) {
        m->loop_iterations++;
        const size_t rows = m->rows.n;
        for (size_t j = begin; j < end; j++) {
            const size_t c = m->stage_members[j];
            TRY(write_component(m, c, t));
            TRY(step_component(m, c, t, h, true));
            TRY(read_component(m, c, t + h));
        }
        if (stage_change(m, s) <= m->loop_tolerance) return ME_OK;
        m->rows.n = rows; /* event rows of an iteration that is rolled back */
        for (size_t j = begin; j < end; j++) TRY(restore_state(m, m->stage_members[j], t));
    }
    return loop_diverged(m, s, t);
}

static bool due(const Master *m, size_t c, long long k) { return k % m->components[c].multiple == 0; }

static double step_size(const Master *m, size_t c, long long k, double t) {
    return master_time(m, k + m->components[c].multiple) - t;
}

static int step_gauss_seidel(Master *m, long long k, double t) {
    for (size_t s = 0; s < m->n_stages; s++) {
        const size_t first = m->stage_members[m->stage_start[s]];
        if (!due(m, first, k)) continue;
        if (m->stage_is_loop[s]) {
            TRY(step_loop(m, s, t, step_size(m, first, k, t)));
            continue;
        }
        for (size_t j = m->stage_start[s]; j < m->stage_start[s + 1]; j++) {
            const size_t c = m->stage_members[j];
            const double h = step_size(m, c, k, t);
            TRY(write_component(m, c, t));
            TRY(step_component(m, c, t, h, false));
            TRY(read_component(m, c, t + h));
        }
    }
    return ME_OK;
}

static int step_jacobi(Master *m, long long k, double t) {
    for (size_t c = 0; c < m->n_components; c++)
        if (due(m, c, k)) TRY(write_component(m, c, t));
    for (size_t c = 0; c < m->n_components; c++)
        if (due(m, c, k)) TRY(step_component(m, c, t, step_size(m, c, k, t), false));
    for (size_t c = 0; c < m->n_components; c++)
        if (due(m, c, k)) TRY(read_component(m, c, t + step_size(m, c, k, t)));
    return ME_OK;
}

/* A held input changed at t (an event of the input file): the row after it, once every
 * component has its new inputs and shows their outputs. */
static int input_event_row(Master *m, double t) {
    for (size_t s = 0; s < m->n_stages; s++)
        for (size_t j = m->stage_start[s]; j < m->stage_start[s + 1]; j++) {
            const size_t c = m->stage_members[j];
            if (m->components[c].terminated) continue;
            TRY(write_component(m, c, t));
            TRY(read_component(m, c, t));
        }
    return append_row(m, t);
}

static bool past(double deadline) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec + 1e-9 * (double)now.tv_nsec >= deadline;
}

static double row_time(const Master *m, double t, long long k) {
    double t_row = master_time(m, k + 1);
    if (m->terminated_by >= 0) { /* the row of the FMU's last time, if it stopped early */
        const double reached = m->components[m->terminated_by].reached;
        if (reached > t && reached < t_row) t_row = reached;
    }
    return t_row;
}

/* ---- a lone FMU stepped in its worker ---- */

int master_go_lone(Master *m, Host *host) {
    const Component *c = &m->components[0];
    const size_t nb = m->read_start[1];
    LoneBatch batches[256];
    if (nb > 256) return ME_ERROR;
    size_t n_vrs = 0;
    for (size_t b = 0; b < nb; b++) {
        const Batch *r = &m->reads[b];
        batches[b] = (LoneBatch){(uint64_t)r->type, r->first_vr, r->n_vrs, r->first, r->count};
        n_vrs += r->n_vrs;
    }
    const LoneConfig config = {(uint64_t)c->fmi_major, nb, n_vrs, m->n_slots, c->event_mode, c->remote != NULL,
                               m->event_rows, m->allow_nonfinite, m->n_steps, m->t0, m->h, m->stop};
    int32_t types[4096];
    if (m->n_slots > 4096) return ME_ERROR;
    for (size_t k = 0; k < m->n_slots; k++) types[k] = m->slot_types[k];
    const int status = cosim_host_lone_new(host, &config, batches, m->read_vrs, types);
    if (status <= ME_WARNING) m->lone = host;
    return status;
}

static int lone_failed(Master *m, const LoneOutcome *out) {
    snprintf(m->lone_function, sizeof m->lone_function, "%s", out->error_function);
    m->error_component = 0;
    m->error_function = m->lone_function;
    m->error_status = (int)out->status;
    m->error_time = out->error_time;
    if (out->status == MASTER_NONFINITE) {
        m->nonfinite_slot = out->nonfinite_slot;
        m->nonfinite_value = out->nonfinite_value, m->nonfinite_time = out->nonfinite_time;
    }
    return (int)out->status;
}

static int lone_steps(Master *m, long long k_begin, long long k_end, long long *done) {
    LoneOutcome out;
    const unsigned char *rows = NULL;
    const int status = cosim_host_lone_steps(m->lone, k_begin, k_end, m->deadline, &out, &rows);
    const size_t width = 8 * (1 + m->n_slots);
    for (int64_t r = 0; r < out.rows; r++) {
        const unsigned char *row = rows + (size_t)r * width;
        double t;
        memcpy(&t, row, 8);
        memcpy(m->signals, row + 8, 8 * m->n_slots);
        TRY(append_row(m, t));
    }
    *done = out.done;
    m->components[0].reached = out.reached;
    if (status > ME_WARNING) { /* the worker died (or timed out) during the step it was in */
        snprintf(m->lone_function, sizeof m->lone_function, "%s", out.error_function);
        return report(m, 0, m->lone_function, status, out.error_time);
    }
    m->warnings += (size_t)out.warnings;
    m->nonfinite += (size_t)out.nonfinite_count;
    if (out.nonfinite_slot >= 0 && m->nonfinite_slot < 0) {
        m->nonfinite_slot = out.nonfinite_slot;
        m->nonfinite_value = out.nonfinite_value, m->nonfinite_time = out.nonfinite_time;
    }
    if (out.terminated && m->terminated_by < 0) {
        m->terminated_by = 0;
        m->components[0].terminated = true;
        m->components[0].reached = out.reached;
    }
    return out.status > ME_WARNING && out.status != MASTER_TERMINATED && out.status != MASTER_TIMEOUT
               ? lone_failed(m, &out)
               : (int)out.status;
}

int master_steps(Master *m, long long k_begin, long long k_end, long long *done) {
    *done = 0;
    if (m->lone) return lone_steps(m, k_begin, k_end, done);
    for (long long k = k_begin; k < k_end; k++) {
        const double t = master_time(m, k);
        if (apply_inputs(m, t) && m->event_rows && k > 0) TRY(input_event_row(m, t));
        const int status = m->jacobi ? step_jacobi(m, k, t) : step_gauss_seidel(m, k, t);
        if (status > ME_WARNING) return status;
        TRY(append_row(m, row_time(m, t, k)));
        ++*done;
        if (m->terminated_by >= 0) return MASTER_TERMINATED;
        if (m->deadline > 0 && past(m->deadline)) return MASTER_TIMEOUT;
    }
    return MASTER_OK;
}

/* ---- initialization ---- */

int master_read_all(Master *m) {
    for (size_t c = 0; c < m->n_components; c++) TRY(read_component(m, c, m->t0));
    return ME_OK;
}

int master_initialize(Master *m) {
    for (size_t c = 0; c < m->n_components; c++) {
        m->components[c].context.master = m;
        m->components[c].context.index = c;
    }
    apply_inputs(m, m->t0);
    for (size_t s = 0; s < m->n_stages; s++) {
        const size_t begin = m->stage_start[s], end = m->stage_start[s + 1];
        const int rounds = m->stage_is_loop[s] ? m->max_iterations : 1;
        for (int round = 1; round <= rounds; round++) {
            for (size_t j = begin; j < end; j++) {
                TRY(write_component(m, m->stage_members[j], m->t0));
                TRY(read_component(m, m->stage_members[j], m->t0));
            }
            if (!m->stage_is_loop[s] || stage_change(m, s) <= m->loop_tolerance) break;
            if (round == rounds) return loop_diverged(m, s, m->t0);
        }
    }
    return ME_OK;
}
