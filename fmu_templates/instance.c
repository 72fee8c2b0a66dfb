/*
 * instance.c -- model instances: creation, start values, logging, model evaluation, and
 * FMU states (one flat byte image serves fmi3GetFMUState and fmi3SerializeFMUState alike).
 */
#define COSIM_RUNTIME_SOURCE /* model.h: sizes read at run time (MODEL), no config.h */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "delays.h"
#include "instance.h"

#define LOG_CATEGORY_NAME(id, name, description) name,
static const char *const LOG_CATEGORY_NAMES[N_LOG_CATEGORIES] = {LOG_CATEGORIES(LOG_CATEGORY_NAME)};
#undef LOG_CATEGORY_NAME

static const char *const STATUS_CATEGORY[] = {
    "logAll", "logStatusWarning", "logStatusDiscard", "logStatusError", "logStatusFatal"};

#define LOG_BUFFER_SIZE 1024

static char *copy_string(const char *text) {
    if (!text) return NULL;
    const size_t length = strlen(text) + 1;
    char *copy = malloc(length);
    if (copy) memcpy(copy, text, length);
    return copy;
}

/* ------------------------------------------------------------- logging */

static bool category_enabled(const ModelInstance *comp, LogCategory category) {
    return comp->logging_on && (comp->log_category_on[category] || comp->log_category_on[LogAll]);
}

static void emit(ModelInstance *comp, Status status, const char *category, const char *format,
                 va_list args) {
    char message[LOG_BUFFER_SIZE];
    vsnprintf(message, sizeof message, format, args);
    comp->log_message(comp->environment, (fmi3Status)status, category, message);
}

/* Problems (Warning and worse) reach the importer whatever the debug-logging settings, so
 * that an error is never silent; everything else only in enabled categories. */
void instance_log(ModelInstance *comp, Status status, LogCategory category, const char *format, ...) {
    if (!comp || !comp->log_message) return;
    if (status == StatusOK && !category_enabled(comp, category)) return;
    const char *name = status == StatusOK ? LOG_CATEGORY_NAMES[category] : STATUS_CATEGORY[status];
    va_list args;
    va_start(args, format);
    emit(comp, status, name, format, args);
    va_end(args);
}

void model_log(ModelData *m, Status status, const char *category, const char *format, ...) {
    ModelInstance *comp = m->instance;
    if (!comp || !comp->log_message) return;
    LogCategory id = LogAll;
    for (int k = 0; k < N_LOG_CATEGORIES; k++)
        if (category && strcmp(category, LOG_CATEGORY_NAMES[k]) == 0) id = (LogCategory)k;
    if (status == StatusOK && !category_enabled(comp, id)) return;
    va_list args;
    va_start(args, format);
    emit(comp, status, status == StatusOK ? LOG_CATEGORY_NAMES[id] : STATUS_CATEGORY[status], format, args);
    va_end(args);
}

bool instance_set_debug_logging(ModelInstance *comp, bool on, size_t n, const char *const names[]) {
    comp->logging_on = on;
    if (n == 0) {
        for (int k = 0; k < N_LOG_CATEGORIES; k++) comp->log_category_on[k] = on;
        return true;
    }
    for (int k = 0; k < N_LOG_CATEGORIES; k++) comp->log_category_on[k] = false;
    for (size_t j = 0; j < n; j++) {
        int found = -1;
        for (int k = 0; k < N_LOG_CATEGORIES; k++)
            if (names[j] && strcmp(names[j], LOG_CATEGORY_NAMES[k]) == 0) found = k;
        if (found < 0) {
            instance_log(comp, StatusError, LogStatusError,
                         "fmi3SetDebugLogging: unknown log category '%s'", names[j] ? names[j] : "(null)");
            return false;
        }
        comp->log_category_on[found] = on;
    }
    return true;
}

fmi3Status instance_status(ModelInstance *comp, Status status) {
    if (status == StatusError) comp->state = StateError;
    if (status == StatusFatal) comp->state = StateFatal;
    return (fmi3Status)status;
}

/* ----------------------------------------------------------- storage */

/* Pieces of one block, each a multiple of this size so that every piece is aligned for
 * its type. */
#define PIECE_ALIGNMENT 16

typedef struct {
    unsigned char *base; /* NULL: only measure */
    size_t used;
} Block;

static void *carve(Block *block, size_t count, size_t element) {
    void *piece = block->base ? block->base + block->used : NULL;
    block->used += (ARRAY_SIZE(count) * element + PIECE_ALIGNMENT - 1) / PIECE_ALIGNMENT * PIECE_ALIGNMENT;
    return piece;
}

/* Every array of an instance whose length the model gives, in its block: measured with a
 * block without base, placed with one. */
static void lay_out(ModelInstance *comp, Block *block) {
    ModelData *m = &comp->data;
    m->r = carve(block, MODEL.n_float64, sizeof *m->r);
    m->pre_r = carve(block, MODEL.n_float64, sizeof *m->pre_r);
    m->i = carve(block, MODEL.n_int32, sizeof *m->i);
    m->pre_i = carve(block, MODEL.n_int32, sizeof *m->pre_i);
    m->e = carve(block, MODEL.n_int64, sizeof *m->e);
    m->pre_e = carve(block, MODEL.n_int64, sizeof *m->pre_e);
    m->b = carve(block, MODEL.n_boolean, sizeof *m->b);
    m->pre_b = carve(block, MODEL.n_boolean, sizeof *m->pre_b);
    m->s = carve(block, MODEL.n_string, sizeof *m->s);
    m->delays = carve(block, MODEL.n_delays, sizeof *m->delays);
    m->profiles = carve(block, MODEL.n_spatials, sizeof *m->profiles);
    comp->z = carve(block, MODEL.n_event_indicators, sizeof *comp->z);
    comp->z_probe = carve(block, MODEL.n_event_indicators, sizeof *comp->z_probe);
    comp->z_event = carve(block, MODEL.n_event_indicators, sizeof *comp->z_event);
    comp->z_work = carve(block, 2 * MODEL.n_event_indicators, sizeof *comp->z_work);
    comp->z_outputs = carve(block, MODEL.n_event_indicators, sizeof *comp->z_outputs);
    comp->rtol = carve(block, MODEL.n_states, sizeof *comp->rtol);
    comp->atol = carve(block, MODEL.n_states, sizeof *comp->atol);
    comp->x = carve(block, MODEL.n_states, sizeof *comp->x);
    comp->x_dense = carve(block, MODEL.n_states, sizeof *comp->x_dense);
    comp->guesses = carve(block, MODEL.n_guesses, sizeof *comp->guesses);
    comp->jacobian_values = carve(block, MODEL.n_jacobian_nonzeros, sizeof *comp->jacobian_values);
    comp->jacobian_column = carve(block, MODEL.n_states, sizeof *comp->jacobian_column);
}

/* The block of an instance's arrays, zeroed (false when out of memory). */
static bool allocate_storage(ModelInstance *comp) {
    Block measure = {NULL, 0};
    lay_out(comp, &measure);
    comp->storage = calloc(1, measure.used);
    if (!comp->storage) return false;
    Block block = {comp->storage, 0};
    lay_out(comp, &block);
    return true;
}

/* -------------------------------------------------------- life cycle */

static void free_strings(char **strings, size_t n) {
    for (size_t k = 0; k < n; k++) {
        free(strings[k]);
        strings[k] = NULL;
    }
}

/* External objects and Strings model code holds (model.h) */
static void release_resources(ModelData *m) {
    if (m->release) m->release(m);
    m->release = NULL;
    m->resources = NULL;
}

static void set_start_values(ModelInstance *comp) {
    ModelData *m = &comp->data;
    release_resources(m);
    m->time = comp->start_time;
    memcpy(m->r, START_FLOAT64, MODEL.n_float64 * sizeof *m->r);
    memcpy(m->i, START_INT32, MODEL.n_int32 * sizeof *m->i);
    memcpy(m->e, START_INT64, MODEL.n_int64 * sizeof *m->e);
    memcpy(m->b, START_BOOLEAN, MODEL.n_boolean * sizeof *m->b);
    free_strings(m->s, n_strings());
    for (size_t k = 0; k < n_strings(); k++) m->s[k] = copy_string(START_STRING[k]);
    memcpy(m->pre_r, m->r, MODEL.n_float64 * sizeof *m->r);
    memcpy(m->pre_i, m->i, MODEL.n_int32 * sizeof *m->i);
    memcpy(m->pre_e, m->e, MODEL.n_int64 * sizeof *m->e);
    memcpy(m->pre_b, m->b, MODEL.n_boolean * sizeof *m->b);
    m->initial_phase = true;
    m->event_mode = false;
    m->terminal = false;
    m->instance = comp;
}

ModelInstance *instance_create(InterfaceType type, fmi3String name, fmi3String token,
                               fmi3String resource_location, fmi3Boolean logging_on,
                               fmi3InstanceEnvironment environment,
                               fmi3LogMessageCallback log_message) {
    ModelInstance probe;
    memset(&probe, 0, sizeof probe);
    probe.log_message = log_message;
    probe.environment = environment;
    if (!name || !name[0]) {
        instance_log(&probe, StatusError, LogStatusError, "fmi3Instantiate: instanceName must not be empty");
        return NULL;
    }
    if (!token || strcmp(token, MODEL.instantiation_token) != 0) {
        instance_log(&probe, StatusError, LogStatusError,
                     "%s: instantiationToken '%s' does not match this binary's '%s'", name,
                     token ? token : "(null)", MODEL.instantiation_token);
        return NULL;
    }
    ModelInstance *comp = calloc(1, sizeof(ModelInstance));
    if (!comp || !allocate_storage(comp)) {
        free(comp);
        instance_log(&probe, StatusFatal, LogStatusFatal, "%s: out of memory", name);
        return NULL;
    }
    comp->interface_type = type;
    comp->name = copy_string(name);
    comp->resource_location = copy_string(resource_location);
    comp->environment = environment;
    comp->log_message = log_message;
    instance_set_debug_logging(comp, logging_on, 0, NULL);
    instance_reset(comp);
    return comp;
}

void instance_reset(ModelInstance *comp) {
    cosim_release_integrator(comp);
    comp->state = StateInstantiated;
    comp->start_time = 0.0;
    comp->stop_time_defined = false;
    comp->tolerance = MODEL.default_tolerance;
    comp->next_event_time_defined = false;
    comp->chatter.rapid = 0;
    comp->time_scale = 1.0;
    comp->inputs_changed = comp->discrete_inputs_changed = comp->terminate_requested = false;
    delays_clear(comp);
    set_start_values(comp);
    instance_keep_guesses(comp);
    comp->values_dirty = true;
}

void instance_free(ModelInstance *comp) {
    if (!comp) return;
    cosim_release_integrator(comp);
    release_resources(&comp->data);
    delays_free(comp);
    free_strings(comp->data.s, n_strings());
    free(comp->storage);
    free(comp->name);
    free(comp->resource_location);
    free(comp);
}

/* ------------------------------------------------------- evaluation */

void instance_set_states(ModelInstance *comp, const double *x) {
    for (size_t k = 0; k < n_states(); k++) comp->data.r[MODEL_STATE_SLOT[k]] = x[k];
}

void instance_get_states(const ModelInstance *comp, double *x) {
    for (size_t k = 0; k < n_states(); k++) x[k] = comp->data.r[MODEL_STATE_SLOT[k]];
}

void instance_keep_guesses(ModelInstance *comp) {
    for (size_t k = 0; k < n_guesses(); k++) comp->guesses[k] = comp->data.r[MODEL_GUESS_SLOT[k]];
}

Status instance_derivatives(ModelInstance *comp) {
    for (size_t k = 0; k < n_guesses(); k++) comp->data.r[MODEL_GUESS_SLOT[k]] = comp->guesses[k];
    return model_derivatives(&comp->data);
}

Status instance_refresh(ModelInstance *comp, bool outputs) {
    Status status = StatusOK;
    if (comp->values_dirty) {
        const bool initializing = comp->state == StateInitializationMode;
        status = initializing ? model_initialize(&comp->data) : instance_derivatives(comp);
        if (status > StatusWarning) return status;
        comp->values_dirty = false;
        comp->outputs_pending = !initializing;
    }
    if (outputs && comp->outputs_pending) {
        Status computed = model_outputs(&comp->data);
        if (computed <= StatusWarning && n_event_indicators() > 0) {
            double *z = comp->z_outputs;
            const Status indicators = model_event_indicators(&comp->data, z);
            for (size_t k = 0; k < n_event_indicators(); k++) comp->data.r[MODEL_EVENT_INDICATOR_SLOT[k]] = z[k];
            if (indicators > computed) computed = indicators;
        }
        if (computed > StatusWarning) return computed;
        comp->outputs_pending = false;
        if (computed > status) status = computed;
    }
    return status;
}

/* ------------------------------------------------------------ FMU state */

struct FmuState {
    size_t size;
    unsigned char bytes[];
};

#define STATE_MAGIC "cosim-fmu-state"
#define STATE_FORMAT 4u

/* Writes (or, with out == NULL, only measures) the image field by field. */
typedef struct {
    unsigned char *out;
    size_t size;
} Writer;

static void put(Writer *w, const void *data, size_t n) {
    if (w->out && n) memcpy(w->out + w->size, data, n);
    w->size += n;
}

static void put_string(Writer *w, const char *text) {
    const size_t length = text ? strlen(text) + 1 : 0; /* 0 encodes NULL */
    put(w, &length, sizeof length);
    put(w, text, length);
}

typedef struct {
    const unsigned char *in;
    size_t size, at;
} Reader;

static bool take(Reader *r, void *data, size_t n) {
    if (n > r->size - r->at) return false;
    if (n) memcpy(data, r->in + r->at, n);
    r->at += n;
    return true;
}

/* The fixed-size parts of an instance that an FMU state holds, in the order of the image;
 * the strings and the integrator's own state follow them. One list for writing and reading,
 * so the two cannot drift apart. */
typedef struct {
    void *address;
    size_t size;
} Field;

#define FIELD(x) {&(x), sizeof(x)}
#define ARRAY(x, n) {(x), (n) * sizeof *(x)}
#define N_STATE_FIELDS 30

static void state_fields(ModelInstance *comp, Field fields[N_STATE_FIELDS]) {
    ModelData *m = &comp->data;
    const Field list[N_STATE_FIELDS] = {
        FIELD(m->time), ARRAY(m->r, MODEL.n_float64), ARRAY(m->i, MODEL.n_int32),
        ARRAY(m->e, MODEL.n_int64), ARRAY(m->b, MODEL.n_boolean),
        ARRAY(m->pre_r, MODEL.n_float64), ARRAY(m->pre_i, MODEL.n_int32),
        ARRAY(m->pre_e, MODEL.n_int64), ARRAY(m->pre_b, MODEL.n_boolean),
        FIELD(m->initial_phase), FIELD(m->event_mode), FIELD(m->terminal),
        FIELD(comp->state), FIELD(comp->values_dirty), FIELD(comp->outputs_pending),
        FIELD(comp->start_time), FIELD(comp->stop_time_defined), FIELD(comp->stop_time), FIELD(comp->time_scale),
        FIELD(comp->tolerance), ARRAY(comp->z, n_event_indicators()), FIELD(comp->next_event_time_defined),
        FIELD(comp->next_event_time), FIELD(comp->chatter),
        FIELD(comp->inputs_changed), FIELD(comp->discrete_inputs_changed),
        FIELD(comp->terminate_requested), ARRAY(comp->x, n_states()), FIELD(comp->integrator_ready),
        ARRAY(comp->guesses, n_guesses())};
    memcpy(fields, list, sizeof list);
}

/* A delay history or profile: its delay times, then its records, oldest first. */
static void put_history(Writer *w, const DelayHistory *h) {
    put(w, &h->delay_time, sizeof h->delay_time);
    put(w, &h->delay_max, sizeof h->delay_max);
    put(w, &h->settled, sizeof h->settled);
    put(w, &h->count, sizeof h->count);
    for (size_t j = 0; j < h->count; j++) {
        const size_t at = (h->first + j) % h->capacity;
        put(w, &h->time[at], sizeof(double));
        put(w, &h->value[at], sizeof(double));
    }
}

static bool take_history(Reader *r, DelayHistory *h) {
    size_t count;
    if (!take(r, &h->delay_time, sizeof h->delay_time) || !take(r, &h->delay_max, sizeof h->delay_max)
        || !take(r, &h->settled, sizeof h->settled) || !take(r, &count, sizeof count) || count > (r->size - r->at) / (2 * sizeof(double))
        || !delays_reserve(h, count))
        return false;
    h->first = 0;
    h->count = count;
    for (size_t j = 0; j < count; j++)
        if (!take(r, &h->time[j], sizeof(double)) || !take(r, &h->value[j], sizeof(double))) return false;
    return true;
}

static void write_image(ModelInstance *comp, Writer *w) {
    const unsigned format = STATE_FORMAT;
    Field fields[N_STATE_FIELDS];
    put(w, STATE_MAGIC, sizeof STATE_MAGIC);
    put(w, &format, sizeof format);
    put_string(w, MODEL.instantiation_token);
    state_fields(comp, fields);
    for (size_t k = 0; k < N_STATE_FIELDS; k++) put(w, fields[k].address, fields[k].size);
    for (size_t k = 0; k < n_strings(); k++) put_string(w, comp->data.s[k]);
    for (size_t k = 0; k < n_delays(); k++) put_history(w, &comp->data.delays[k]);
    for (size_t k = 0; k < n_spatials(); k++) put_history(w, &comp->data.profiles[k]);
    if (comp->integrator_ready && n_states() > 0) {
        const size_t size = radau5_state_size(&comp->radau);
        put(w, &size, sizeof size);
        if (w->out) radau5_state_save(&comp->radau, w->out + w->size);
        w->size += size;
    }
}

FmuState *instance_save(ModelInstance *comp) {
    Writer measure = {NULL, 0};
    write_image(comp, &measure);
    FmuState *snapshot = malloc(sizeof(FmuState) + measure.size);
    if (!snapshot) return NULL;
    Writer w = {snapshot->bytes, 0};
    write_image(comp, &w);
    snapshot->size = w.size;
    return snapshot;
}

void instance_free_state(FmuState *snapshot) { free(snapshot); }

size_t instance_serialized_size(const ModelInstance *comp, const FmuState *snapshot) {
    (void)comp;
    return snapshot->size;
}

void instance_serialize(const ModelInstance *comp, const FmuState *snapshot, unsigned char *out) {
    (void)comp;
    memcpy(out, snapshot->bytes, snapshot->size);
}

static bool take_string(Reader *r, char **text) {
    size_t length;
    if (!take(r, &length, sizeof length)) return false;
    if (length == 0) {
        *text = NULL;
        return true;
    }
    if (length > r->size - r->at || r->in[r->at + length - 1] != '\0') return false;
    *text = copy_string((const char *)r->in + r->at);
    r->at += length;
    return *text != NULL;
}

/* Check the header: the image must come from this model. */
static bool read_header(Reader *r) {
    char magic[sizeof STATE_MAGIC];
    unsigned format;
    char *token = NULL;
    const bool ok = take(r, magic, sizeof magic) && memcmp(magic, STATE_MAGIC, sizeof magic) == 0
                    && take(r, &format, sizeof format) && format == STATE_FORMAT
                    && take_string(r, &token) && token && strcmp(token, MODEL.instantiation_token) == 0;
    free(token);
    return ok;
}

static bool read_integrator(ModelInstance *comp, Reader *r) {
    size_t size;
    if (!take(r, &size, sizeof size)) return false;
    if (cosim_prepare_integrator(comp) > StatusWarning) return false;
    if (size != radau5_state_size(&comp->radau) || size > r->size - r->at) return false;
    radau5_state_load(&comp->radau, r->in + r->at);
    r->at += size;
    comp->integrator_ready = true; /* (preparing may have released an integrator of another tolerance) */
    return true;
}

static bool read_image(ModelInstance *comp, Reader *r) {
    Field fields[N_STATE_FIELDS];
    bool ok = read_header(r);
    state_fields(comp, fields);
    for (size_t k = 0; ok && k < N_STATE_FIELDS; k++) ok = take(r, fields[k].address, fields[k].size);
    for (size_t k = 0; ok && k < n_strings(); k++) {
        free(comp->data.s[k]);
        comp->data.s[k] = NULL;
        ok = take_string(r, &comp->data.s[k]);
    }
    for (size_t k = 0; ok && k < n_delays(); k++) ok = take_history(r, &comp->data.delays[k]);
    for (size_t k = 0; ok && k < n_spatials(); k++) ok = take_history(r, &comp->data.profiles[k]);
    if (ok && comp->integrator_ready && n_states() > 0) ok = read_integrator(comp, r);
    return ok && r->at == r->size;
}

bool instance_restore(ModelInstance *comp, const FmuState *snapshot) {
    Reader r = {snapshot->bytes, snapshot->size, 0};
    if (!read_image(comp, &r)) {
        instance_log(comp, StatusError, LogStatusError, "fmi3SetFMUState: the FMU state is corrupt");
        return false;
    }
    comp->data.instance = comp;
    return true;
}

FmuState *instance_deserialize(ModelInstance *comp, const unsigned char *bytes, size_t size) {
    Reader r = {bytes, size, 0};
    if (!read_header(&r)) {
        instance_log(comp, StatusError, LogStatusError,
                     "fmi3DeserializeFMUState: the bytes are not an FMU state of this model");
        return NULL;
    }
    FmuState *snapshot = malloc(sizeof(FmuState) + size);
    if (!snapshot) return NULL;
    snapshot->size = size;
    memcpy(snapshot->bytes, bytes, size);
    return snapshot;
}
