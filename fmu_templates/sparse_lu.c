/* sparse_lu.c -- pattern analysis (minimum degree order) and the numeric factorizations. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sparse_lu.h"

/* A row not yet chosen as a pivot. */
#define NOT_PIVOTAL SIZE_MAX

/* Take the diagonal as pivot while it is at least this fraction of the column's largest
 * candidate: keeps the fill-reducing order intact without giving up stability. */
#define DIAGONAL_PIVOT_THRESHOLD 0.1

/* ---- minimum degree order on the graph of A + A^T ---- */

typedef struct {
    size_t *items;
    size_t count, capacity;
} IndexList;

static bool list_push(IndexList *list, size_t item) {
    if (list->count == list->capacity) {
        const size_t capacity = list->capacity ? 2 * list->capacity : 4;
        size_t *items = realloc(list->items, capacity * sizeof(size_t));
        if (!items) return false;
        list->items = items;
        list->capacity = capacity;
    }
    list->items[list->count++] = item;
    return true;
}

static void list_remove(IndexList *list, size_t item) {
    for (size_t k = 0; k < list->count; k++) {
        if (list->items[k] == item) {
            list->items[k] = list->items[--list->count];
            return;
        }
    }
}

static bool build_symmetric_graph(IndexList *adjacent, size_t n, const size_t *column_start,
                                  const size_t *rows, size_t *mark) {
    for (size_t j = 0; j < n; j++) {
        for (size_t p = column_start[j]; p < column_start[j + 1]; p++) {
            const size_t i = rows[p];
            if (i == j) continue;
            if (!list_push(&adjacent[i], j) || !list_push(&adjacent[j], i)) return false;
        }
    }
    /* drop duplicate edges (an entry present in both (i,j) and (j,i)) */
    for (size_t i = 0; i < n; i++) mark[i] = SIZE_MAX;
    for (size_t v = 0; v < n; v++) {
        size_t kept = 0;
        for (size_t k = 0; k < adjacent[v].count; k++) {
            const size_t u = adjacent[v].items[k];
            if (mark[u] == v) continue;
            mark[u] = v;
            adjacent[v].items[kept++] = u;
        }
        adjacent[v].count = kept;
    }
    return true;
}

/* Eliminate vertex v: its neighbours become a clique and lose v. */
/* mark[] must hold SIZE_MAX everywhere on entry. */
static bool eliminate_vertex(IndexList *adjacent, size_t v, size_t *mark) {
    const IndexList *clique = &adjacent[v];
    for (size_t a = 0; a < clique->count; a++) {
        IndexList *neighbour = &adjacent[clique->items[a]];
        list_remove(neighbour, v);
        for (size_t k = 0; k < neighbour->count; k++) mark[neighbour->items[k]] = a;
        mark[clique->items[a]] = a;
        for (size_t b = 0; b < clique->count; b++) {
            const size_t w = clique->items[b];
            if (mark[w] != a && !list_push(neighbour, w)) return false;
        }
    }
    return true;
}

/* The vertices not yet eliminated in lists by degree (doubly linked), so that one of least
 * degree is found without scanning them all: O(n + fill) for the whole order. */
typedef struct {
    size_t *head;      /* n: first vertex of each degree, SIZE_MAX for none */
    size_t *next, *previous, *degree;
} DegreeLists;

static void degree_insert(DegreeLists *lists, size_t v, size_t degree) {
    lists->degree[v] = degree;
    lists->previous[v] = SIZE_MAX;
    lists->next[v] = lists->head[degree];
    if (lists->head[degree] != SIZE_MAX) lists->previous[lists->head[degree]] = v;
    lists->head[degree] = v;
}

static void degree_remove(DegreeLists *lists, size_t v) {
    const size_t previous = lists->previous[v], next = lists->next[v];
    if (previous != SIZE_MAX) lists->next[previous] = next;
    else lists->head[lists->degree[v]] = next;
    if (next != SIZE_MAX) lists->previous[next] = previous;
}

/* Multiple minimum degree (Liu, 1985): each round eliminates vertices of the least degree
 * that are not neighbours of one eliminated earlier in the round, and updates the degrees of
 * the touched vertices when the round ends. On grid-like patterns (the Newton matrices of
 * discretized PDEs) this independent-set rule gives clearly less fill and fewer operations
 * than eliminating one vertex at a time, whose ties chase the last elimination's front. */
static bool minimum_degree_order(size_t n, const size_t *column_start, const size_t *rows,
                                 size_t *order) {
    IndexList *adjacent = calloc(n, sizeof(IndexList));
    size_t *mark = malloc(n * sizeof(size_t));
    size_t *touched = malloc(n * sizeof(size_t)); /* vertices out of the lists this round */
    bool *is_touched = calloc(n, sizeof(bool));
    DegreeLists lists = {malloc(n * sizeof(size_t)), malloc(n * sizeof(size_t)),
                         malloc(n * sizeof(size_t)), malloc(n * sizeof(size_t))};
    bool ok = adjacent && mark && touched && is_touched && lists.head && lists.next
              && lists.previous && lists.degree
              && build_symmetric_graph(adjacent, n, column_start, rows, mark);
    for (size_t i = 0; ok && i < n; i++) mark[i] = lists.head[i] = SIZE_MAX;
    for (size_t v = n; ok && v-- > 0;) degree_insert(&lists, v, adjacent[v].count);
    size_t least = 0; /* no vertex in the lists has a smaller degree */
    for (size_t step = 0; ok && step < n;) {
        while (lists.head[least] == SIZE_MAX) least++;
        size_t touched_count = 0;
        while (ok && lists.head[least] != SIZE_MAX) {
            const size_t best = lists.head[least];
            degree_remove(&lists, best);
            order[step++] = best;
            ok = eliminate_vertex(adjacent, best, mark);
            /* back to SIZE_MAX where eliminate_vertex marked: the lists it touched (O(fill),
             * not O(n) per step); the clique leaves the lists until the round ends */
            const IndexList *clique = &adjacent[best];
            for (size_t a = 0; ok && a < clique->count; a++) {
                const size_t w = clique->items[a];
                const IndexList *neighbour = &adjacent[w];
                mark[w] = SIZE_MAX;
                for (size_t k = 0; k < neighbour->count; k++) mark[neighbour->items[k]] = SIZE_MAX;
                if (!is_touched[w]) {
                    degree_remove(&lists, w);
                    is_touched[w] = true;
                    touched[touched_count++] = w;
                }
            }
            adjacent[best].count = 0;
        }
        for (size_t k = 0; k < touched_count; k++) {
            const size_t w = touched[k];
            is_touched[w] = false;
            degree_insert(&lists, w, adjacent[w].count);
            if (adjacent[w].count < least) least = adjacent[w].count;
        }
    }
    for (size_t v = 0; adjacent && v < n; v++) free(adjacent[v].items);
    free(adjacent);
    free(mark);
    free(touched);
    free(is_touched);
    free(lists.head);
    free(lists.next);
    free(lists.previous);
    free(lists.degree);
    return ok;
}

bool sparse_pattern_init(SparsePattern *pattern, size_t n, const size_t *column_start,
                         const size_t *rows) {
    memset(pattern, 0, sizeof(*pattern));
    pattern->n = n;
    pattern->nnz = column_start[n];
    pattern->column_start = malloc((n + 1) * sizeof(size_t));
    pattern->rows = malloc((pattern->nnz ? pattern->nnz : 1) * sizeof(size_t));
    pattern->order = malloc((n ? n : 1) * sizeof(size_t));
    if (!pattern->column_start || !pattern->rows || !pattern->order) {
        sparse_pattern_free(pattern);
        return false;
    }
    memcpy(pattern->column_start, column_start, (n + 1) * sizeof(size_t));
    memcpy(pattern->rows, rows, pattern->nnz * sizeof(size_t));
    if (!minimum_degree_order(n, column_start, rows, pattern->order)) {
        sparse_pattern_free(pattern);
        return false;
    }
    return true;
}

void sparse_pattern_free(SparsePattern *pattern) {
    free(pattern->column_start);
    free(pattern->rows);
    free(pattern->order);
    memset(pattern, 0, sizeof(*pattern));
}

/* ---- numeric factorizations, real and complex ---- */

#define SCALAR double
#define MAGNITUDE fabs
#define SUBTRACT_PRODUCT(target, a, b) ((target) -= (a) * (b))
#define TYPE SparseLU
#define PREFIX(name) sparse_lu_##name
#include "sparse_lu_impl.h"
#undef SCALAR
#undef MAGNITUDE
#undef SUBTRACT_PRODUCT
#undef TYPE
#undef PREFIX

static double magnitude_1(double complex z) { return fabs(creal(z)) + fabs(cimag(z)); }

/* target -= a * b on the (re, im) pair a double complex is (C99 6.2.5): the textbook product,
 * without the checks for infinite parts that C's complex product makes on every entry */
static inline void subtract_complex_product(double complex *target, double complex a, double complex b) {
    double *pair = (double *)target;
    const double ar = creal(a), ai = cimag(a), br = creal(b), bi = cimag(b);
    pair[0] -= ar * br - ai * bi;
    pair[1] -= ar * bi + ai * br;
}

#define SCALAR double complex
#define MAGNITUDE magnitude_1  /* |re| + |im|, as LINPACK pivots: no hypot */
#define SUBTRACT_PRODUCT(target, a, b) subtract_complex_product(&(target), (a), (b))
#define TYPE SparseLUComplex
#define PREFIX(name) sparse_lu_complex_##name
#include "sparse_lu_impl.h"
#undef SCALAR
#undef MAGNITUDE
#undef SUBTRACT_PRODUCT
#undef TYPE
#undef PREFIX
