/*
 * sparse_lu.h -- sparse LU factorization for the Newton matrices of Radau IIA.
 *
 * Left-looking Gilbert-Peierls LU with threshold partial pivoting that prefers the diagonal,
 * on a fill-reducing column order (multiple minimum degree with external degrees and mass
 * elimination on the pattern of A + A^T). The pattern is
 * analysed once (sparse_pattern_init); each numeric factorization then reuses it for a real
 * and a complex matrix with the same pattern. A factorization keeps its pivots and the
 * patterns of L and U, and the next one (new values, same pattern) runs on them without the
 * graph searches, as long as every pivot passes the same threshold test that chose it.
 * Storage is compressed sparse columns.
 */
#ifndef COSIM_SPARSE_LU_H
#define COSIM_SPARSE_LU_H

#include <complex.h>
#include <stdbool.h>
#include <stddef.h>

/* The pattern of the matrices to factor and its column order; shared by both factorizations. */
typedef struct {
    size_t n;
    size_t nnz;
    size_t *column_start; /* n + 1 */
    size_t *rows;         /* nnz, ascending within each column */
    size_t *order;        /* column k of the factors is column order[k] of A */
} SparsePattern;

/* Analyse a square pattern (CSC). Returns false if memory runs out. */
bool sparse_pattern_init(SparsePattern *pattern, size_t n, const size_t *column_start,
                         const size_t *rows);
void sparse_pattern_free(SparsePattern *pattern);

/* Declares the numeric factor type and its functions for one scalar type. */
#define DECLARE_SPARSE_LU(TYPE, SCALAR, PREFIX)                                              \
    typedef struct {                                                                          \
        const SparsePattern *pattern;                                                         \
        size_t capacity_l, capacity_u;                                                        \
        size_t *l_start, *l_rows, *u_start, *u_rows;                                          \
        SCALAR *l_values, *u_values;                                                          \
        size_t *pivot_of_row; /* row i is the pivot of column pivot_of_row[i] */              \
        SCALAR *work;                                                                         \
        size_t *reach, *stack, *next_child, *visited;                                         \
        size_t visit_mark;                                                                    \
        bool factored; /* the pivots and patterns of L and U hold: factor() reuses them */   \
    } TYPE;                                                                                   \
    bool PREFIX##_init(TYPE *lu, const SparsePattern *pattern);                               \
    void PREFIX##_free(TYPE *lu);                                                             \
    /* Factor the matrix whose values (in the pattern's order) are `values`: on the pivots  \
     * and patterns of the last factorization while its pivots stay acceptable, else anew.  \
     * Returns 0, k+1 when column k has no pivot, or -1 when memory runs out. */             \
    int PREFIX##_factor(TYPE *lu, const SCALAR *values);                                      \
    /* Solve A x = b in place. */                                                             \
    void PREFIX##_solve(TYPE *lu, SCALAR *b);

DECLARE_SPARSE_LU(SparseLU, double, sparse_lu)
DECLARE_SPARSE_LU(SparseLUComplex, double complex, sparse_lu_complex)

/* Give a complex factorization of the same pattern the pivots and the patterns of L and U of a
 * real one, so that its next factor() runs on them without the graph searches (it searches
 * anew if a pivot fails its threshold test). Returns false (and changes nothing) when `real`
 * holds no factorization of this pattern or memory runs out. */
bool sparse_lu_complex_adopt_structure(SparseLUComplex *lu, const SparseLU *real);

#endif
