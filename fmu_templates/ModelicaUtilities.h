/*
 * ModelicaUtilities.h -- the services a Modelica tool offers the C code of external functions
 * (Modelica Language Specification, section 12.9.6), implemented by this runtime in
 * external_support.c.
 *
 * Messages reach the FMU's logger (logMessages, logStatusWarning, logStatusError). An error
 * does not return: it ends the model call that reached the external function, which then
 * reports an error to the importer. Strings allocated here live until that model call
 * returns (the runtime frees them): an external function returns its String results in them.
 */
#ifndef MODELICA_UTILITIES_H
#define MODELICA_UTILITIES_H

#include <stdarg.h>
#include <stddef.h>

#if defined(__GNUC__)
#define MODELICA_UTILITIES_PRINTF(n) __attribute__((format(printf, n, n + 1)))
#define MODELICA_UTILITIES_VPRINTF(n) __attribute__((format(printf, n, 0)))
#define MODELICA_UTILITIES_NORETURN __attribute__((noreturn))
#else
#define MODELICA_UTILITIES_PRINTF(n)
#define MODELICA_UTILITIES_VPRINTF(n)
#define MODELICA_UTILITIES_NORETURN
#endif

#if defined(__cplusplus)
extern "C" {
#endif

/* A message (no format control), printf-style, or with an argument list. */
void ModelicaMessage(const char *string);
void ModelicaFormatMessage(const char *format, ...) MODELICA_UTILITIES_PRINTF(1);
void ModelicaVFormatMessage(const char *format, va_list args) MODELICA_UTILITIES_VPRINTF(1);

/* A warning: the model call goes on. */
void ModelicaWarning(const char *string);
void ModelicaFormatWarning(const char *format, ...) MODELICA_UTILITIES_PRINTF(1);
void ModelicaVFormatWarning(const char *format, va_list args) MODELICA_UTILITIES_VPRINTF(1);

/* An error: logged, and the model call ends with an error (never returns). */
void ModelicaError(const char *string) MODELICA_UTILITIES_NORETURN;
void ModelicaFormatError(const char *format, ...) MODELICA_UTILITIES_PRINTF(1) MODELICA_UTILITIES_NORETURN;
void ModelicaVFormatError(const char *format, va_list args) MODELICA_UTILITIES_VPRINTF(1) MODELICA_UTILITIES_NORETURN;

/* Memory for a String result of `len` characters (the terminating 0 is added); on failure
 * an error, or NULL from the WithErrorReturn variant. */
char *ModelicaAllocateString(size_t len);
char *ModelicaAllocateStringWithErrorReturn(size_t len);

/* A copy of `str` in memory as ModelicaAllocateString gives it. */
char *ModelicaDuplicateString(const char *str);
char *ModelicaDuplicateStringWithErrorReturn(const char *str);

#if defined(__cplusplus)
}
#endif

#endif /* MODELICA_UTILITIES_H */
