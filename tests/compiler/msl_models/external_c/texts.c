/* texts.c -- see texts.h */
#include <string.h>

#include "ModelicaUtilities.h"
#include "texts.h"

int texts_length(const char *s) { return (int)strlen(s); }

const char *texts_wrapped(const char *prefix, const char *s) {
    const size_t n_prefix = strlen(prefix), n = strlen(s);
    char *result = ModelicaAllocateString(n_prefix + n + 2);
    memcpy(result, prefix, n_prefix);
    result[n_prefix] = '(';
    memcpy(result + n_prefix + 1, s, n);
    result[n_prefix + n + 1] = ')';
    return result;
}

void texts_count(const char *s, const char *c, int *count) {
    *count = 0;
    for (; *s; s++)
        if (*s == c[0]) (*count)++;
}
