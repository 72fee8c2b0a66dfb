/* numbers.h -- external C functions of the tests (External.mo): arrays, sizes, Integer and
 * Boolean results by pointer, an error through ModelicaUtilities.h. */
#ifndef EXTERNAL_NUMBERS_H
#define EXTERNAL_NUMBERS_H

#include <stddef.h>

/* c[0] + c[1] x + ... + c[n-1] x^(n-1), by Horner's rule */
double numbers_polynomial(const double *c, size_t n, double x);
/* k * x (called through the default mapping: the inputs in order) */
double scaled(double x, double k);
/* how many v[i] > 0, and whether some v[i] < 0 */
void numbers_signs(const double *v, size_t n, int *positives, int *any_negative);
/* sums[i] = v[0] + ... + v[i] */
void numbers_cumulative(const double *v, size_t n, double *sums);
/* the sum of the flags that are true times their position (1-based) */
int numbers_flag_positions(const int *flags, size_t n);
/* sqrt(x); ModelicaError for x < 0 */
double numbers_checked_sqrt(double x);

#endif
