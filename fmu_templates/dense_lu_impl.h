/*
 * dense_lu_impl.h -- the body of dense LU, written once for any scalar type.
 * Included by dense_lu.c with SCALAR, MAGNITUDE and SUFFIX defined (real and complex).
 */

int SUFFIX(dense_lu_factor)(size_t n, SCALAR *a, size_t *pivot) {
    for (size_t k = 0; k < n; k++) {
        size_t p = k;
        double largest = MAGNITUDE(a[k * n + k]);
        for (size_t i = k + 1; i < n; i++) {
            const double candidate = MAGNITUDE(a[i * n + k]);
            if (candidate > largest) {
                largest = candidate;
                p = i;
            }
        }
        pivot[k] = p;
        if (largest == 0.0) return (int)k + 1;
        if (p != k) {
            for (size_t j = 0; j < n; j++) {
                const SCALAR tmp = a[k * n + j];
                a[k * n + j] = a[p * n + j];
                a[p * n + j] = tmp;
            }
        }
        /* the diagonal keeps its reciprocal: solves then multiply (a complex division is a
         * library call, a multiplication is not) */
        const SCALAR inverse = 1.0 / a[k * n + k];
        a[k * n + k] = inverse;
        for (size_t i = k + 1; i < n; i++) {
            SCALAR *row = a + i * n;
            const SCALAR factor = row[k] * inverse;
            row[k] = factor;
            if (factor == 0.0) continue;
            const SCALAR *pivot_row = a + k * n;
            for (size_t j = k + 1; j < n; j++) row[j] -= factor * pivot_row[j];
        }
    }
    return 0;
}

void SUFFIX(dense_lu_solve)(size_t n, const SCALAR *lu, const size_t *pivot, SCALAR *b) {
    for (size_t k = 0; k < n; k++) {
        if (pivot[k] != k) {
            const SCALAR tmp = b[k];
            b[k] = b[pivot[k]];
            b[pivot[k]] = tmp;
        }
    }
    for (size_t i = 1; i < n; i++) {
        SCALAR sum = b[i];
        for (size_t j = 0; j < i; j++) sum -= lu[i * n + j] * b[j];
        b[i] = sum;
    }
    for (size_t i = n; i-- > 0;) {
        SCALAR sum = b[i];
        for (size_t j = i + 1; j < n; j++) sum -= lu[i * n + j] * b[j];
        b[i] = sum * lu[i * n + i];
    }
}
