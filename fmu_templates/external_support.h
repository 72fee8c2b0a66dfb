/*
 * external_support.h -- what model code needs when it calls external C functions, holds
 * external objects or computes Strings (compiled into an FMU only when its model does).
 *
 * Guard. Each model function of model.h runs inside a frame (EXTERNAL_GUARDED): the frame
 * names the ModelData that ModelicaUtilities.h reaches without an argument, catches
 * ModelicaError (the model function then returns external_failure), and owns the Strings made
 * during the call. Frames nest (a model function calling another); the outermost one frees
 * the Strings as the call ends, so model code copies a String it keeps into its slot
 * (string_assign).
 *
 * Resources. The first frame of an instance allocates its ExternalResources: the external
 * objects (OBJECT(k), NULL until constructed) and the Strings of the call. They hang on
 * ModelData.resources; the runtime calls ModelData.release when the instance is reset or
 * freed, which destroys the objects (ExternalModel.destroy_objects) and frees the rest.
 */
#ifndef COSIM_EXTERNAL_SUPPORT_H
#define COSIM_EXTERNAL_SUPPORT_H

#include <setjmp.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model.h"

/* What the generated code tells the support about one model. */
typedef struct ExternalModel {
    size_t n_objects;                     /* external objects (OBJECT(0) .. OBJECT(n - 1)) */
    void (*destroy_objects)(ModelData *m); /* calls the destructor of every object constructed */
} ExternalModel;

typedef struct StringBlock StringBlock;

typedef struct ExternalResources {
    const ExternalModel *model;
    void **objects;
    StringBlock *strings;   /* Strings made during the current model call */
} ExternalResources;

/* The external object number k of the model whose ModelData is `m` */
#define OBJECT(k) (((ExternalResources *)m->resources)->objects[k])

/* A model call in progress. */
typedef struct ExternalFrame {
    ModelData *m;
    struct ExternalFrame *outer;
    jmp_buf jump;   /* where ModelicaError returns to */
} ExternalFrame;

/* Start a frame (false: out of memory, after logging); end it, passing `status` through. */
bool external_enter(ExternalFrame *frame, ModelData *m, const ExternalModel *model);
Status external_leave(ExternalFrame *frame, Status status);

/* What a ModelicaError means: in fmi3DoStep's integrator between events a smaller step is
 * tried (StatusDiscard, MLS 12.9.6.1); elsewhere it is final (StatusError). */
Status external_failure(const ModelData *m);

/* The body of a model function of model.h that runs `call` inside a frame. */
#define EXTERNAL_GUARDED(model, m, call)                                          \
    ExternalFrame frame_;                                                         \
    if (!external_enter(&frame_, (m), (model))) return StatusFatal;               \
    if (setjmp(frame_.jump) != 0) return external_leave(&frame_, external_failure(m));\
    return external_leave(&frame_, (call))

/* ---- Strings: made in the current frame (they live until the model call ends) ---- */

/* a + b */
const char *string_concat(ModelData *m, const char *a, const char *b);
/* Modelica's String(x, minimumLength, leftJustified, significantDigits) of a Real, Integer
 * or Boolean (MLS 3.7.1.2); String(x, format = f) of a Real or Integer */
const char *string_of_real(ModelData *m, double x, int32_t minimum_length, bool left_justified,
                           int32_t significant_digits);
const char *string_of_integer(ModelData *m, int64_t x, int32_t minimum_length, bool left_justified);
const char *string_of_boolean(ModelData *m, bool x, int32_t minimum_length, bool left_justified);
const char *string_formatted(ModelData *m, double x, const char *format);
/* `text` with blanks up to `minimum_length` characters, after it when left justified */
const char *string_padded(ModelData *m, const char *text, int32_t minimum_length, bool left_justified);
/* Store a copy of `value` in a String slot of the model (the runtime owns it) */
Status string_assign(ModelData *m, char **slot, const char *value);
/* Lexicographic comparison of Modelica Strings (a NULL pointer reads as "") */
int string_compare(const char *a, const char *b);

/* ---- resources ---- */

/* The path of the resource `name` the FMU ships in its resources/ (loadResource of a
 * modelica:// URI), or `compiled`, where it was at compile time, when the importer gave no
 * resource folder holding it */
const char *model_resource(ModelData *m, const char *name, const char *compiled);

#endif /* COSIM_EXTERNAL_SUPPORT_H */
