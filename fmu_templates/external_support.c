/*
 * external_support.c -- frames, external objects and Strings of model code (see
 * external_support.h), and the services of ModelicaUtilities.h on top of them.
 */
#define _POSIX_C_SOURCE 200809L /* access() */

#define COSIM_RUNTIME_SOURCE /* model.h: sizes read at run time (MODEL), no config.h */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ModelicaUtilities.h"
#include "external_support.h"
#include "instance.h"

#define MESSAGE_SIZE 1024
/* the longest text String() makes from a number, besides its minimum length */
#define NUMBER_SIZE 64

struct StringBlock {
    StringBlock *next;
    char text[];
};

/* The innermost frame of this thread: ModelicaUtilities.h takes no instance argument. */
static __thread ExternalFrame *current_frame;

static void free_strings(ExternalResources *resources) {
    StringBlock *block = resources->strings;
    while (block) {
        StringBlock *next = block->next;
        free(block);
        block = next;
    }
    resources->strings = NULL;
}

/* The runtime's ModelData.release: destroy the objects (inside a frame of its own, since a
 * destructor may report an error), then free everything. */
static void external_release(ModelData *m) {
    ExternalResources *resources = m->resources;
    if (!resources) return;
    ExternalFrame frame;
    if (external_enter(&frame, m, resources->model)) {
        if (setjmp(frame.jump) == 0) ((ExternalResources *)m->resources)->model->destroy_objects(m);
        external_leave(&frame, StatusOK);
    }
    resources = m->resources;
    free_strings(resources);
    free(resources->objects);
    free(resources);
    m->resources = NULL;
    m->release = NULL;
}

static ExternalResources *new_resources(const ExternalModel *model) {
    ExternalResources *resources = calloc(1, sizeof *resources);
    if (!resources) return NULL;
    resources->model = model;
    resources->objects = calloc(model->n_objects > 0 ? model->n_objects : 1, sizeof(void *));
    if (!resources->objects) {
        free(resources);
        return NULL;
    }
    return resources;
}

bool external_enter(ExternalFrame *frame, ModelData *m, const ExternalModel *model) {
    if (!m->resources) {
        m->resources = new_resources(model);
        if (!m->resources) {
            model_log(m, StatusFatal, "logStatusFatal", "out of memory for external objects");
            return false;
        }
        m->release = external_release;
    }
    frame->m = m;
    frame->outer = current_frame;
    current_frame = frame;
    return true;
}

Status external_leave(ExternalFrame *frame, Status status) {
    current_frame = frame->outer;
    if (!frame->outer) free_strings(frame->m->resources);
    return status;
}

/* ---- messages ---- */

static ExternalFrame *frame_or_abort(const char *what, const char *message) {
    if (current_frame) return current_frame;
    /* an external function called outside a model call: nowhere to report to */
    fprintf(stderr, "%s outside a model call: %s\n", what, message);
    abort();
}

void ModelicaVFormatMessage(const char *format, va_list args) {
    char message[MESSAGE_SIZE];
    vsnprintf(message, sizeof message, format, args);
    if (!current_frame) {
        fputs(message, stdout);
        return;
    }
    model_log(current_frame->m, StatusOK, "logMessages", "%s", message);
}

void ModelicaVFormatWarning(const char *format, va_list args) {
    char message[MESSAGE_SIZE];
    vsnprintf(message, sizeof message, format, args);
    ExternalFrame *frame = frame_or_abort("ModelicaWarning", message);
    model_log(frame->m, StatusWarning, "logStatusWarning", "%s", message);
}

void ModelicaVFormatError(const char *format, va_list args) {
    char message[MESSAGE_SIZE];
    vsnprintf(message, sizeof message, format, args);
    ExternalFrame *frame = frame_or_abort("ModelicaError", message);
    const Status status = external_failure(frame->m);
    model_log(frame->m, status, status == StatusError ? "logStatusError" : "logStatusDiscard",
              "%s at t = %.17g", message, frame->m->time);
    longjmp(frame->jump, 1);
}

Status external_failure(const ModelData *m) {
    return m->integrating && !m->event_mode ? StatusDiscard : StatusError;
}

void ModelicaMessage(const char *string) { ModelicaFormatMessage("%s", string); }
void ModelicaWarning(const char *string) { ModelicaFormatWarning("%s", string); }
void ModelicaError(const char *string) { ModelicaFormatError("%s", string); }

void ModelicaFormatMessage(const char *format, ...) {
    va_list args;
    va_start(args, format);
    ModelicaVFormatMessage(format, args);
    va_end(args);
}

void ModelicaFormatWarning(const char *format, ...) {
    va_list args;
    va_start(args, format);
    ModelicaVFormatWarning(format, args);
    va_end(args);
}

void ModelicaFormatError(const char *format, ...) {
    va_list args;
    va_start(args, format);
    ModelicaVFormatError(format, args);
    va_end(args); /* not reached */
}

/* ---- Strings ---- */

char *ModelicaAllocateStringWithErrorReturn(size_t len) {
    ExternalFrame *frame = current_frame;
    if (!frame || len >= (size_t)-1 - sizeof(StringBlock)) return NULL;
    StringBlock *block = malloc(sizeof(StringBlock) + len + 1);
    if (!block) return NULL;
    ExternalResources *resources = frame->m->resources;
    block->next = resources->strings;
    resources->strings = block;
    block->text[len] = '\0';
    return block->text;
}

char *ModelicaAllocateString(size_t len) {
    char *text = ModelicaAllocateStringWithErrorReturn(len);
    if (!text) ModelicaFormatError("out of memory for a String of %zu characters", len);
    return text;
}

char *ModelicaDuplicateStringWithErrorReturn(const char *str) {
    const size_t length = strlen(str);
    char *copy = ModelicaAllocateStringWithErrorReturn(length);
    if (copy) memcpy(copy, str, length);
    return copy;
}

char *ModelicaDuplicateString(const char *str) {
    const size_t length = strlen(str);
    char *copy = ModelicaAllocateString(length);
    memcpy(copy, str, length);
    return copy;
}

const char *string_concat(ModelData *m, const char *a, const char *b) {
    (void)m;
    const size_t n_a = strlen(a), n_b = strlen(b);
    char *text = ModelicaAllocateString(n_a + n_b);
    memcpy(text, a, n_a);
    memcpy(text + n_a, b, n_b);
    return text;
}

const char *string_padded(ModelData *m, const char *text, int32_t minimum_length, bool left_justified) {
    (void)m;
    const size_t length = strlen(text);
    const size_t width = minimum_length > 0 && (size_t)minimum_length > length ? (size_t)minimum_length : length;
    char *result = ModelicaAllocateString(width);
    const size_t pad = width - length;
    memset(result, ' ', width);
    memcpy(result + (left_justified ? 0 : pad), text, length);
    return result;
}

const char *string_of_real(ModelData *m, double x, int32_t minimum_length, bool left_justified,
                           int32_t significant_digits) {
    char number[NUMBER_SIZE];
    snprintf(number, sizeof number, "%.*g", significant_digits > 0 ? (int)significant_digits : 1, x);
    return string_padded(m, number, minimum_length, left_justified);
}

const char *string_of_integer(ModelData *m, int64_t x, int32_t minimum_length, bool left_justified) {
    char number[NUMBER_SIZE];
    snprintf(number, sizeof number, "%lld", (long long)x);
    return string_padded(m, number, minimum_length, left_justified);
}

const char *string_of_boolean(ModelData *m, bool x, int32_t minimum_length, bool left_justified) {
    return string_padded(m, x ? "true" : "false", minimum_length, left_justified);
}

/* Whether `format` is one printf conversion without its '%': flags, width, precision, and an
 * integer or floating conversion; *integral tells which. */
static bool valid_format(const char *format, bool *integral) {
    const char *p = format;
    while (*p && strchr("-+ #0", *p)) p++;
    while (*p >= '0' && *p <= '9') p++;
    if (*p == '.') {
        p++;
        while (*p >= '0' && *p <= '9') p++;
    }
    if (!*p || p[1] != '\0') return false;
    *integral = strchr("diouxX", *p) != NULL;
    return *integral || strchr("eEfFgG", *p) != NULL;
}

const char *string_formatted(ModelData *m, double x, const char *format) {
    (void)m;
    bool integral = false;
    if (strlen(format) > 32 || !valid_format(format, &integral))
        ModelicaFormatError("String(x, format = \"%s\"): not a printf conversion", format);
    char conversion[40];
    snprintf(conversion, sizeof conversion, "%%%s", format);
    const char *last = format + strlen(format) - 1;
    if (integral) {
        /* the integer conversions print a long long: insert "ll" before the conversion */
        snprintf(conversion, sizeof conversion, "%%%.*sll%c", (int)(last - format), format, *last);
    }
    const int length = integral ? snprintf(NULL, 0, conversion, (long long)x) : snprintf(NULL, 0, conversion, x);
    if (length < 0) ModelicaFormatError("String(x, format = \"%s\") failed", format);
    char *text = ModelicaAllocateString((size_t)length);
    if (integral)
        snprintf(text, (size_t)length + 1, conversion, (long long)x);
    else
        snprintf(text, (size_t)length + 1, conversion, x);
    return text;
}

Status string_assign(ModelData *m, char **slot, const char *value) {
    if (*slot && strcmp(*slot, value) == 0) return StatusOK;
    const size_t length = strlen(value) + 1;
    char *copy = malloc(length);
    if (!copy) {
        model_log(m, StatusFatal, "logStatusFatal", "out of memory for a String");
        return StatusFatal;
    }
    memcpy(copy, value, length);
    free(*slot);
    *slot = copy;
    return StatusOK;
}

int string_compare(const char *a, const char *b) { return strcmp(a ? a : "", b ? b : ""); }

/* ---- resources ---- */

const char *model_resource(ModelData *m, const char *name, const char *compiled) {
    const ModelInstance *comp = m->instance;
    const char *folder = comp ? comp->resource_location : NULL;
    if (!folder || !folder[0]) return compiled;
    if (strncmp(folder, "file://", 7) == 0) folder += 7; /* a URI, as FMI 2 gave it */
    const size_t n_folder = strlen(folder), n_name = strlen(name);
    const bool separated = folder[n_folder - 1] == '/' || folder[n_folder - 1] == '\\';
    char *path = ModelicaAllocateString(n_folder + !separated + n_name);
    memcpy(path, folder, n_folder);
    if (!separated) path[n_folder] = '/';
    memcpy(path + n_folder + !separated, name, n_name);
    return access(path, F_OK) == 0 ? path : compiled;
}

