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

/* `count` matrices of one pattern factored in turn by one factorization object (the later
 * ones on the pivots of the earlier where they hold), each solving its own right-hand side:
 * values[k * nnz ...], b[k * n ...]; complex ones as (re, im) pairs. Returns the first
 * nonzero status. */
#define SOLVE_SEQUENCE(NAME, TYPE, PREFIX, SCALAR)                                              \
    int NAME(size_t n, const size_t *start, const size_t *rows, size_t count, const double *values, \
             double *b) {                                                                         \
        SparsePattern pattern;                                                                    \
        TYPE lu;                                                                                  \
        if (!sparse_pattern_init(&pattern, n, start, rows)) return -1;                            \
        if (!PREFIX##_init(&lu, &pattern)) return -1;                                             \
        int status = 0;                                                                           \
        for (size_t k = 0; k < count && !status; k++) {                                           \
            status = PREFIX##_factor(&lu, (const SCALAR *)values + k * start[n]);                 \
            if (!status) PREFIX##_solve(&lu, (SCALAR *)b + k * n);                                \
        }                                                                                         \
        PREFIX##_free(&lu);                                                                       \
        sparse_pattern_free(&pattern);                                                            \
        return status;                                                                            \
    }
SOLVE_SEQUENCE(solve_sequence_real, SparseLU, sparse_lu, double)
SOLVE_SEQUENCE(solve_sequence_complex, SparseLUComplex, sparse_lu_complex, double complex)

/* Factor the real matrix, give its structure to a complex factorization of the same pattern
 * and factor the complex matrix on it (searching anew where its pivots fail), then solve the
 * complex system (values and b as (re, im) pairs). Returns the first nonzero status, or 1 if
 * the structure was not adopted. */
int solve_complex_after_real(size_t n, const size_t *start, const size_t *rows, const double *real_values,
                             const double *values, double *b) {
    SparsePattern pattern;
    SparseLU real;
    SparseLUComplex lu;
    if (!sparse_pattern_init(&pattern, n, start, rows)) return -1;
    if (!sparse_lu_init(&real, &pattern) || !sparse_lu_complex_init(&lu, &pattern)) return -1;
    int status = sparse_lu_factor(&real, real_values);
    if (!status && !sparse_lu_complex_adopt_structure(&lu, &real)) status = 1;
    if (!status) status = sparse_lu_complex_factor(&lu, (const double complex *)values);
    if (!status) sparse_lu_complex_solve(&lu, (double complex *)b);
    sparse_lu_complex_free(&lu);
    sparse_lu_free(&real);
    sparse_pattern_free(&pattern);
    return status;
}
