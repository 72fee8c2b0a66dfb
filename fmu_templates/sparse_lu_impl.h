/*
 * sparse_lu_impl.h -- the numeric sparse LU, written once for any scalar type.
 * Included by sparse_lu.c with SCALAR, MAGNITUDE, SUBTRACT_PRODUCT (target -= a * b), TYPE and
 * PREFIX defined.
 *
 * Column k of the factors: x = L \ A(:, order[k]) restricted to the rows reachable in the
 * graph of L (Gilbert & Peierls, 1988), then the pivot is chosen among the rows that are not
 * yet pivotal. L keeps its unit diagonal first in each column, U its diagonal last, stored as
 * its reciprocal so that solves multiply.
 */

static bool PREFIX(reserve)(TYPE *lu, size_t needed_l, size_t needed_u) {
    if (needed_l > lu->capacity_l) {
        const size_t capacity = 2 * needed_l;
        size_t *rows = realloc(lu->l_rows, capacity * sizeof(size_t));
        if (rows) lu->l_rows = rows;
        SCALAR *values = realloc(lu->l_values, capacity * sizeof(SCALAR));
        if (values) lu->l_values = values;
        if (!rows || !values) return false;
        lu->capacity_l = capacity;
    }
    if (needed_u > lu->capacity_u) {
        const size_t capacity = 2 * needed_u;
        size_t *rows = realloc(lu->u_rows, capacity * sizeof(size_t));
        if (rows) lu->u_rows = rows;
        SCALAR *values = realloc(lu->u_values, capacity * sizeof(SCALAR));
        if (values) lu->u_values = values;
        if (!rows || !values) return false;
        lu->capacity_u = capacity;
    }
    return true;
}

bool PREFIX(init)(TYPE *lu, const SparsePattern *pattern) {
    const size_t n = pattern->n ? pattern->n : 1;
    memset(lu, 0, sizeof(*lu));
    lu->pattern = pattern;
    lu->l_start = malloc((n + 1) * sizeof(size_t));
    lu->u_start = malloc((n + 1) * sizeof(size_t));
    lu->pivot_of_row = malloc(n * sizeof(size_t));
    lu->work = calloc(n, sizeof(SCALAR));
    lu->reach = malloc(n * sizeof(size_t));
    lu->stack = malloc(n * sizeof(size_t));
    lu->next_child = malloc(n * sizeof(size_t));
    lu->visited = calloc(n, sizeof(size_t));
    /* first guess at the fill: twice the matrix; factor() grows it when needed */
    const bool ok = lu->l_start && lu->u_start && lu->pivot_of_row && lu->work && lu->reach
                    && lu->stack && lu->next_child && lu->visited
                    && PREFIX(reserve)(lu, pattern->nnz + n, pattern->nnz + n);
    if (!ok) PREFIX(free)(lu);
    return ok;
}

void PREFIX(free)(TYPE *lu) {
    free(lu->l_start);
    free(lu->l_rows);
    free(lu->l_values);
    free(lu->u_start);
    free(lu->u_rows);
    free(lu->u_values);
    free(lu->pivot_of_row);
    free(lu->work);
    free(lu->reach);
    free(lu->stack);
    free(lu->next_child);
    free(lu->visited);
    memset(lu, 0, sizeof(*lu));
}

/* Rows reachable from the nonzeros of column `column` through the columns of L computed so
 * far, in topological order, written to reach[top..n-1]; returns top. Iterative DFS. */
static size_t PREFIX(reach_of_column)(TYPE *lu, size_t column) {
    const SparsePattern *a = lu->pattern;
    const size_t n = a->n;
    size_t top = n;
    lu->visit_mark++;
    for (size_t p = a->column_start[column]; p < a->column_start[column + 1]; p++) {
        const size_t start = a->rows[p];
        if (lu->visited[start] == lu->visit_mark) continue;
        size_t depth = 0;
        lu->stack[0] = start;
        lu->visited[start] = lu->visit_mark;
        const size_t start_column = lu->pivot_of_row[start];
        lu->next_child[0] = start_column == NOT_PIVOTAL ? 0 : lu->l_start[start_column] + 1;
        while (true) {
            const size_t row = lu->stack[depth];
            const size_t l_column = lu->pivot_of_row[row];
            bool descended = false;
            if (l_column != NOT_PIVOTAL) {
                const size_t end = lu->l_start[l_column + 1];
                while (lu->next_child[depth] < end) {
                    const size_t child = lu->l_rows[lu->next_child[depth]++];
                    if (lu->visited[child] == lu->visit_mark) continue;
                    lu->visited[child] = lu->visit_mark;
                    const size_t child_column = lu->pivot_of_row[child];
                    lu->stack[++depth] = child;
                    lu->next_child[depth] =
                        child_column == NOT_PIVOTAL ? 0 : lu->l_start[child_column] + 1;
                    descended = true;
                    break;
                }
            }
            if (descended) continue;
            lu->reach[--top] = row;
            if (depth == 0) break;
            depth--;
        }
    }
    return top;
}

/* Factor on the pivots and patterns of the last factorization (rows in pivot order): the
 * entries of U's column k come in the topological order the search gave them. Returns false
 * when a pivot fails the threshold test (or is zero): then the caller factors anew. */
static bool PREFIX(refactor)(TYPE *lu, const SCALAR *values) {
    const SparsePattern *a = lu->pattern;
    const size_t n = a->n;
    SCALAR *x = lu->work;
    for (size_t k = 0; k < n; k++) {
        const size_t u_begin = lu->u_start[k], diagonal = lu->u_start[k + 1] - 1;
        const size_t l_begin = lu->l_start[k] + 1, l_end = lu->l_start[k + 1];
        for (size_t p = u_begin; p <= diagonal; p++) x[lu->u_rows[p]] = 0;
        for (size_t p = l_begin; p < l_end; p++) x[lu->l_rows[p]] = 0;
        const size_t column = a->order[k];
        for (size_t p = a->column_start[column]; p < a->column_start[column + 1]; p++)
            x[lu->pivot_of_row[a->rows[p]]] = values[p];
        for (size_t p = u_begin; p < diagonal; p++) {
            const size_t j = lu->u_rows[p];
            const SCALAR xj = x[j];
            lu->u_values[p] = xj;
            for (size_t q = lu->l_start[j] + 1; q < lu->l_start[j + 1]; q++)
                SUBTRACT_PRODUCT(x[lu->l_rows[q]], lu->l_values[q], xj);
        }
        const double pivot_magnitude = MAGNITUDE(x[k]);
        double largest = pivot_magnitude;
        for (size_t p = l_begin; p < l_end; p++) {
            const double magnitude = MAGNITUDE(x[lu->l_rows[p]]);
            if (magnitude > largest) largest = magnitude;
        }
        if (!(pivot_magnitude > 0.0) || pivot_magnitude < DIAGONAL_PIVOT_THRESHOLD * largest) return false;
        const SCALAR inverse_pivot = 1.0 / x[k];
        lu->u_values[diagonal] = inverse_pivot;
        for (size_t p = l_begin; p < l_end; p++) lu->l_values[p] = x[lu->l_rows[p]] * inverse_pivot;
    }
    return true;
}

/* Factor with a search for each column's reach and pivot (Gilbert-Peierls). */
static int PREFIX(factor_anew)(TYPE *lu, const SCALAR *values) {
    const SparsePattern *a = lu->pattern;
    const size_t n = a->n;
    size_t l_count = 0, u_count = 0;
    for (size_t i = 0; i < n; i++) lu->pivot_of_row[i] = NOT_PIVOTAL;
    for (size_t k = 0; k < n; k++) {
        /* L(:,k) is still being built, so l_start[k+1] must not be read by the DFS yet: the
         * DFS only enters columns whose rows are pivotal, i.e. columns < k. */
        lu->l_start[k] = l_count;
        lu->u_start[k] = u_count;
        if (!PREFIX(reserve)(lu, l_count + n, u_count + n)) return -1;
        const size_t column = a->order[k];
        const size_t top = PREFIX(reach_of_column)(lu, column);
        SCALAR *x = lu->work;
        for (size_t p = top; p < n; p++) x[lu->reach[p]] = 0;
        for (size_t p = a->column_start[column]; p < a->column_start[column + 1]; p++)
            x[a->rows[p]] = values[p];
        for (size_t p = top; p < n; p++) {
            const size_t row = lu->reach[p];
            const size_t l_column = lu->pivot_of_row[row];
            if (l_column == NOT_PIVOTAL) continue;
            const SCALAR xj = x[row];
            for (size_t q = lu->l_start[l_column] + 1; q < lu->l_start[l_column + 1]; q++)
                SUBTRACT_PRODUCT(x[lu->l_rows[q]], lu->l_values[q], xj);
        }
        size_t pivot_row = NOT_PIVOTAL;
        double largest = -1.0;
        for (size_t p = top; p < n; p++) {
            const size_t row = lu->reach[p];
            if (lu->pivot_of_row[row] == NOT_PIVOTAL) {
                const double magnitude = MAGNITUDE(x[row]);
                if (magnitude > largest) {
                    largest = magnitude;
                    pivot_row = row;
                }
            } else {
                lu->u_rows[u_count] = lu->pivot_of_row[row];
                lu->u_values[u_count++] = x[row];
            }
        }
        if (pivot_row == NOT_PIVOTAL || largest <= 0.0) return (int)k + 1;
        if (lu->pivot_of_row[column] == NOT_PIVOTAL && lu->visited[column] == lu->visit_mark
            && MAGNITUDE(x[column]) >= DIAGONAL_PIVOT_THRESHOLD * largest)
            pivot_row = column;
        const SCALAR pivot = x[pivot_row];
        const SCALAR inverse_pivot = 1.0 / pivot;
        lu->u_rows[u_count] = k;
        lu->u_values[u_count++] = inverse_pivot;
        lu->pivot_of_row[pivot_row] = k;
        lu->l_rows[l_count] = pivot_row;
        lu->l_values[l_count++] = 1.0;
        for (size_t p = top; p < n; p++) {
            const size_t row = lu->reach[p];
            if (lu->pivot_of_row[row] == NOT_PIVOTAL) {
                lu->l_rows[l_count] = row;
                lu->l_values[l_count++] = x[row] * inverse_pivot;
            }
        }
    }
    lu->l_start[n] = l_count;
    lu->u_start[n] = u_count;
    /* from here on, L's rows are numbered in pivot order */
    for (size_t p = 0; p < l_count; p++) lu->l_rows[p] = lu->pivot_of_row[lu->l_rows[p]];
    return 0;
}

int PREFIX(factor)(TYPE *lu, const SCALAR *values) {
    if (lu->factored && PREFIX(refactor)(lu, values)) return 0;
    const int status = PREFIX(factor_anew)(lu, values);
    lu->factored = status == 0;
    return status;
}

void PREFIX(solve)(TYPE *lu, SCALAR *b) {
    const size_t n = lu->pattern->n;
    SCALAR *x = lu->work;
    for (size_t i = 0; i < n; i++) x[lu->pivot_of_row[i]] = b[i];
    for (size_t j = 0; j < n; j++) {
        const SCALAR xj = x[j];
        for (size_t p = lu->l_start[j] + 1; p < lu->l_start[j + 1]; p++)
            SUBTRACT_PRODUCT(x[lu->l_rows[p]], lu->l_values[p], xj);
    }
    for (size_t j = n; j-- > 0;) {
        const size_t diagonal = lu->u_start[j + 1] - 1;
        x[j] *= lu->u_values[diagonal];
        const SCALAR xj = x[j];
        for (size_t p = lu->u_start[j]; p < diagonal; p++) SUBTRACT_PRODUCT(x[lu->u_rows[p]], lu->u_values[p], xj);
    }
    for (size_t k = 0; k < n; k++) b[lu->pattern->order[k]] = x[k];
}
