/* numbers.c -- see numbers.h */
#include <math.h>

#include "ModelicaUtilities.h"
#include "numbers.h"

double numbers_polynomial(const double *c, size_t n, double x) {
    double value = 0.0;
    for (size_t k = n; k > 0; k--) value = value * x + c[k - 1];
    return value;
}

double scaled(double x, double k) { return k * x; }

void numbers_signs(const double *v, size_t n, int *positives, int *any_negative) {
    *positives = 0;
    *any_negative = 0;
    for (size_t k = 0; k < n; k++) {
        if (v[k] > 0.0) (*positives)++;
        if (v[k] < 0.0) *any_negative = 1;
    }
}

void numbers_cumulative(const double *v, size_t n, double *sums) {
    double total = 0.0;
    for (size_t k = 0; k < n; k++) {
        total += v[k];
        sums[k] = total;
    }
}

int numbers_flag_positions(const int *flags, size_t n) {
    int total = 0;
    for (size_t k = 0; k < n; k++)
        if (flags[k]) total += (int)k + 1;
    return total;
}

double numbers_checked_sqrt(double x) {
    if (x < 0.0) ModelicaFormatError("numbers_checked_sqrt: %g is negative", x);
    return sqrt(x);
}
