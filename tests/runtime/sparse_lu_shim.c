/* Test shim: one call that factors and solves with fmu_templates/sparse_lu.c, for Python. */
#include <complex.h>
#include <string.h>

#include "sparse_lu.h"

int solve_real(size_t n, const size_t *start, const size_t *rows, const double *values, double *b) {
    SparsePattern pattern;
    SparseLU lu;
    if (!sparse_pattern_init(&pattern, n, start, rows)) return -1;
    if (!sparse_lu_init(&lu, &pattern)) return -1;
    const int singular = sparse_lu_factor(&lu, values);
    if (!singular) sparse_lu_solve(&lu, b);
    sparse_lu_free(&lu);
    sparse_pattern_free(&pattern);
    return singular;
}

/* values and b as (re, im) pairs */
int solve_complex(size_t n, const size_t *start, const size_t *rows, const double *values, double *b) {
    SparsePattern pattern;
    SparseLUComplex lu;
    if (!sparse_pattern_init(&pattern, n, start, rows)) return -1;
    if (!sparse_lu_complex_init(&lu, &pattern)) return -1;
    double complex *v = (double complex *)values, *x = (double complex *)b;
    const int singular = sparse_lu_complex_factor(&lu, v);
    if (!singular) sparse_lu_complex_solve(&lu, x);
    sparse_lu_complex_free(&lu);
    sparse_pattern_free(&pattern);
    return singular;
}

/* the minimum degree order, for inspection */
int order_of(size_t n, const size_t *start, const size_t *rows, size_t *order) {
    SparsePattern pattern;
    if (!sparse_pattern_init(&pattern, n, start, rows)) return -1;
    memcpy(order, pattern.order, n * sizeof(size_t));
    sparse_pattern_free(&pattern);
    return 0;
}
