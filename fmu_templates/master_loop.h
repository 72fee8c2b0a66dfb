/*
 * master_loop.h -- the co-simulation master's inner loop over flat tables, built once in
 * Python (cosim.master.native): for each communication step, in the stepping order, set each
 * component's inputs from the signal buffer (factor, offset, value map), call its doStep (or
 * the Model Exchange driver), read its outputs back into the buffer, and write one result row.
 * Algebraic loops are stages of several components iterated to a fixed point with rollback.
 * No allocation, no name lookup: FMU functions are called through their pointers.
 */
#ifndef COSIM_MASTER_LOOP_H
#define COSIM_MASTER_LOOP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "me_driver.h"

/* Exchange types; the order is cosim.fmi.types.VALUE_TYPES. FMI 2.0 uses FLOAT64 (Real),
 * INT32 (Integer) and BOOLEAN (as int). */
typedef enum {
    VT_FLOAT64, VT_FLOAT32, VT_INT8, VT_UINT8, VT_INT16, VT_UINT16, VT_INT32, VT_UINT32, VT_INT64,
    VT_UINT64, VT_BOOLEAN, VT_COUNT
} ValueType;

typedef void (*AnyFunction)(void);

typedef struct {
    int fmi_major;             /* 2 or 3 */
    void *instance;
    AnyFunction get[VT_COUNT]; /* fmi3GetFloat64 ... / fmi2GetReal ...; NULL where absent */
    AnyFunction set[VT_COUNT];
    AnyFunction do_step;       /* fmi3DoStep / fmi2DoStep; unused with a driver */
    AnyFunction get_state, set_state;
    MeDriver *driver;          /* Model Exchange: integrated by the driver */
    long long multiple;        /* steps every `multiple` base steps */
    void *saved_state;         /* FMU state kept for rollback */
    bool terminated;
} Component;

/* Values of one type read from or written to one component in one call: entries
 * [first, first + count) of the read or write tables. */
typedef struct {
    size_t component;
    int type;
    size_t first, count;
} Batch;

typedef struct {
    size_t n_components;
    Component *components;
    double *signals;                 /* every value read, by slot */
    /* reads (outputs and recorded variables), batches grouped by component */
    Batch *reads;
    size_t *read_start;              /* batches of component c: [read_start[c], read_start[c+1]) */
    uint32_t *read_vrs;
    size_t *read_slots;
    /* writes (connected inputs): value = map(factor * signals[source] + offset) */
    Batch *writes;
    size_t *write_start;
    uint32_t *write_vrs;
    size_t *write_sources;
    double *write_factors, *write_offsets;
    size_t *map_start;               /* pairs of entry e: [map_start[e], map_start[e+1]) */
    double *map_from, *map_to;
    double *written;                 /* last value written per entry */
    /* stages in stepping order: members [stage_start[s], stage_start[s+1]) of stage_members;
     * a loop stage is iterated to a fixed point */
    size_t n_stages;
    size_t *stage_start;
    size_t *stage_members;
    bool *stage_is_loop;
    bool jacobi;
    /* time grid: t_k = t0 + k h, the last point is stop */
    double t0, h, stop;
    long long n_steps;
    /* result rows: time, then signals[record_slots[j]] */
    size_t n_record;
    size_t *record_slots;
    /* algebraic loops */
    int max_iterations;
    double loop_tolerance;
    size_t loop_iterations;          /* total, for statistics */
    /* scratch for typed values: 8 bytes per value of the largest batch */
    unsigned char *scratch;
    /* what happened: the failing component, function, status and time */
    long long error_component;
    const char *error_function;
    int error_status;
    double error_time;
    size_t warnings;
    long long terminated_by;         /* component that asked to terminate, or -1 */
    /* safety: a wall-clock deadline, checked after every step (CLOCK_MONOTONIC seconds, 0:
     * none), and non-finite values read from an FMU: an error unless allowed; the first one
     * is kept (slot, value, time), allowed ones are counted */
    double deadline;
    bool allow_nonfinite;
    size_t nonfinite;
    long long nonfinite_slot;
    double nonfinite_value, nonfinite_time;
} Master;

/* master_steps returns one of these, or an FMI status >= 2 (error_* say where). */
#define MASTER_OK 0
#define MASTER_TERMINATED 100        /* a component asked to terminate: rows so far are valid */
#define MASTER_LOOP_DIVERGED 101     /* an algebraic loop did not converge (error_* say where) */
#define MASTER_NONFINITE 102         /* an FMU gave NaN or Inf (nonfinite_* say which, error_* where) */
#define MASTER_TIMEOUT 103           /* the deadline passed: rows so far are valid */

/* In Initialization Mode: set inputs and read outputs in stepping order (loops iterated). */
int master_initialize(Master *m);

/* Read every component's outputs into the signal buffer. */
int master_read_all(Master *m);

/* Write the result row of time t into row (1 + n_record values). */
void master_record(const Master *m, double t, double *row);

/* Steps k_begin .. k_end - 1 (each from t_k to t_(k+1)), one row per step into rows;
 * *done counts the steps completed (their rows are valid whatever the return value). */
int master_steps(Master *m, long long k_begin, long long k_end, double *rows, long long *done);

/* Time of grid point k. */
double master_time(const Master *m, long long k);

#endif
