/* ramp_table.h -- an external object of the tests (External.mo): a table of (x, y) rows,
 * interpolated linearly, held between its constructor and destructor. */
#ifndef EXTERNAL_RAMP_TABLE_H
#define EXTERNAL_RAMP_TABLE_H

#include <stddef.h>

/* a copy of the rows x, y (row-major, n_rows x 2); ModelicaError for fewer than 2 rows or
 * x not increasing */
void *ramp_table_open(const double *rows, size_t n_rows, size_t n_columns, const char *name);
/* the rows of a text file: one "x y" pair a line */
void *ramp_table_read(const char *file_name);
void ramp_table_close(void *table);
/* y at x (the end rows continue linearly) */
double ramp_table_value(void *table, double x);
/* the first row's x after `x` (a very large number after the last) */
double ramp_table_next_x(void *table, double x);

#endif
