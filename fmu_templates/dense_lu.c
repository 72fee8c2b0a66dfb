/* dense_lu.c -- instantiates dense_lu_impl.h for double and double complex. */
#include <math.h>

#include "dense_lu.h"

#define SCALAR double
#define MAGNITUDE fabs
#define SUFFIX(name) name
#include "dense_lu_impl.h"
#undef SCALAR
#undef MAGNITUDE
#undef SUFFIX

static double magnitude_1(double complex z) { return fabs(creal(z)) + fabs(cimag(z)); }

#define SCALAR double complex
#define MAGNITUDE magnitude_1  /* |re| + |im|, as LINPACK pivots: no hypot */
#define SUFFIX(name) name##_complex
#include "dense_lu_impl.h"
#undef SCALAR
#undef MAGNITUDE
#undef SUFFIX
