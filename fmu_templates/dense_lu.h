/*
 * dense_lu.h -- LU factorization with partial pivoting of small dense matrices, real and
 * complex (Radau IIA needs one of each per step size). Matrices are row-major n x n.
 */
#ifndef COSIM_DENSE_LU_H
#define COSIM_DENSE_LU_H

#include <complex.h>
#include <stddef.h>

/* Factor a in place into L\U with row pivots (U's diagonal stored as reciprocals); returns
 * 0, or k+1 if column k has no usable pivot (the matrix is singular to working precision). */
int dense_lu_factor(size_t n, double *a, size_t *pivot);
int dense_lu_factor_complex(size_t n, double complex *a, size_t *pivot);

/* Solve A x = b in place with the factors from dense_lu_factor*. */
void dense_lu_solve(size_t n, const double *lu, const size_t *pivot, double *b);
void dense_lu_solve_complex(size_t n, const double complex *lu, const size_t *pivot,
                            double complex *b);

#endif
