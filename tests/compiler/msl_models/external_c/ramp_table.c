/* ramp_table.c -- see ramp_table.h */
#include <float.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ModelicaUtilities.h"
#include "ramp_table.h"

typedef struct {
    size_t n;
    double *x, *y;
} RampTable;

void *ramp_table_open(const double *rows, size_t n_rows, size_t n_columns, const char *name) {
    if (n_rows < 2 || n_columns != 2)
        ModelicaFormatError("ramp table %s: needs at least 2 rows of 2 columns, not %zu x %zu", name,
                            n_rows, n_columns);
    for (size_t k = 1; k < n_rows; k++)
        if (!(rows[2 * k] > rows[2 * (k - 1)]))
            ModelicaFormatError("ramp table %s: x must increase (row %zu)", name, k + 1);
    RampTable *table = malloc(sizeof *table);
    double *x = malloc(n_rows * sizeof *x), *y = malloc(n_rows * sizeof *y);
    if (!table || !x || !y) {
        free(table), free(x), free(y);
        ModelicaError("ramp table: out of memory");
    }
    for (size_t k = 0; k < n_rows; k++) {
        x[k] = rows[2 * k];
        y[k] = rows[2 * k + 1];
    }
    table->n = n_rows;
    table->x = x;
    table->y = y;
    return table;
}

#define MAX_ROWS 64

void *ramp_table_read(const char *file_name) {
    FILE *file = fopen(file_name, "r");
    if (!file) ModelicaFormatError("ramp table: cannot open %s", file_name);
    double rows[2 * MAX_ROWS];
    size_t n = 0;
    while (n < MAX_ROWS && fscanf(file, "%lf %lf", &rows[2 * n], &rows[2 * n + 1]) == 2) n++;
    fclose(file);
    return ramp_table_open(rows, n, 2, file_name);
}

void ramp_table_close(void *object) {
    RampTable *table = object;
    if (!table) return;
    free(table->x);
    free(table->y);
    free(table);
}

double ramp_table_value(void *object, double x) {
    const RampTable *table = object;
    size_t k = 1;
    while (k < table->n - 1 && x > table->x[k]) k++;
    const double slope = (table->y[k] - table->y[k - 1]) / (table->x[k] - table->x[k - 1]);
    return table->y[k - 1] + slope * (x - table->x[k - 1]);
}

double ramp_table_next_x(void *object, double x) {
    const RampTable *table = object;
    for (size_t k = 0; k < table->n; k++)
        if (table->x[k] > x) return table->x[k];
    return DBL_MAX;
}
