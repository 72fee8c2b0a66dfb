/*
 * master_loop.h -- the co-simulation master's inner loop over flat tables, built once in
 * Python (cosim.master.native_tables): for each communication step, in the stepping order, set
 * each component's inputs from the signal buffer (factor, offset, value map), call its doStep
 * (or the Model Exchange driver), read its outputs back into the buffer, and append one result
 * row (and a row before and after each event, when asked). Algebraic loops are stages of
 * several components iterated to a fixed point with rollback. Inputs read from files are a
 * table interpolated at each communication point. No name lookup: FMU functions are called
 * through their pointers; memory grows only for result rows and new text values.
 *
 * Values travel in 8-byte slots (Value) that keep each type exact: a double for Float32/64, an
 * int64 for signed integers and Booleans, a uint64 for unsigned integers, and for String and
 * Binary the id of the text in a pool (a text is stored once each time it changes).
 */
#ifndef COSIM_MASTER_LOOP_H
#define COSIM_MASTER_LOOP_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "isolation_proxy.h"
#include "me_driver.h"

/* Exchange types; the order is cosim.fmi.types.VALUE_TYPES. FMI 2.0 uses FLOAT64 (Real),
 * INT32 (Integer), BOOLEAN (as int) and STRING. */
typedef enum {
    VT_FLOAT64, VT_FLOAT32, VT_INT8, VT_UINT8, VT_INT16, VT_UINT16, VT_INT32, VT_UINT32, VT_INT64,
    VT_UINT64, VT_BOOLEAN, VT_STRING, VT_BINARY, VT_COUNT
} ValueType;

typedef union {
    double f;   /* Float32, Float64 */
    int64_t i;  /* signed integers, Boolean (0 or 1) */
    uint64_t u; /* unsigned integers; String and Binary: the text's id in the pool */
} Value;

typedef void (*AnyFunction)(void);

/* Texts read from FMUs and from input files; id k is bytes[offsets[k] .. + lengths[k]) (a
 * NUL follows every text). Id 0 is the empty text. */
typedef struct {
    unsigned char *bytes;
    size_t used, capacity;
    size_t *offsets, *lengths;
    size_t count, slots;
} TextPool;

/* Where the master is while one component steps: for event rows. */
typedef struct Master Master;
typedef struct {
    Master *master;
    size_t index;
    double begin, end; /* the component's current communication step */
} StepContext;

typedef struct {
    int fmi_major;             /* 2 or 3 */
    void *instance;
    AnyFunction get[VT_COUNT]; /* fmi3GetFloat64 ... / fmi2GetReal ...; NULL where absent */
    AnyFunction set[VT_COUNT];
    AnyFunction do_step;       /* fmi3DoStep / fmi2DoStep; unused with a driver */
    AnyFunction get_state, set_state;
    AnyFunction get_boolean_status, get_real_status; /* FMI 2.0: did a Discard end the run? */
    /* FMI 3.0 Co-Simulation in Event Mode (eventModeUsed): events inside a step */
    bool event_mode;
    AnyFunction enter_event_mode, update_discrete_states, enter_step_mode;
    MeDriver *driver;          /* Model Exchange: integrated by the driver */
    Host *remote;              /* ... or by a driver in the worker of an isolated FMU */
    /* FMI 3.0 input clocks: Scheduled Execution activates the partition of each tick, clocked
     * Co-Simulation sets the clock active in Event Mode (Model Exchange: the driver does) */
    bool scheduled;
    ClockSchedule *clocks;     /* NULL: none */
    size_t *due;               /* room for clocks->n */
    uint32_t *due_vrs;
    AnyFunction activate, set_clock, get_interval;
    long long multiple;        /* steps every `multiple` base steps */
    void *saved_state;         /* FMU state kept for rollback */
    bool terminated;
    double reached;            /* where the step that asked to terminate ended */
    StepContext context;
    size_t events;             /* events handled inside steps (Model Exchange, CS Event Mode) */
} Component;

/* Values of one type read from or written to one component in one call: value references
 * [first_vr, first_vr + n_vrs) of the read or write tables, their values (array variables
 * have several) entries [first, first + count). */
typedef struct {
    size_t component;
    int type;
    size_t first_vr, n_vrs;
    size_t first, count;
} Batch;

/* How a write entry gets its value from its source slot. */
enum { WRITE_SAME = 0, WRITE_NUMBER = 1, WRITE_INTEGER = 2, WRITE_HELD = 3 };

/* Inputs read from a file: rows of times (non-decreasing, a time twice is a jump), one
 * column per signal slot; continuous columns are interpolated linearly, the others hold the
 * last row at or before t. */
typedef struct {
    size_t n_rows, n_columns;
    double *times;
    Value *values;            /* row-major: values[row * n_columns + column] */
    size_t *slots;            /* the signal slot of each column */
    int *types;               /* its ValueType */
    bool *linear;
    size_t row;               /* a cursor: the last row at or before the last time asked */
} InputTable;

typedef struct {
    Value *data;
    size_t n, capacity;       /* rows of width 1 + n_record */
    pthread_mutex_t lock;     /* rows and texts: a watchdog may copy them during a step */
} RowBuffer;

struct Master {
    size_t n_components;
    Component *components;
    Value *signals;                  /* every value read, by slot */
    int *slot_types;                 /* the ValueType of each slot */
    size_t n_slots;
    /* reads (outputs and recorded variables), batches grouped by component */
    Batch *reads;
    size_t *read_start;              /* batches of component c: [read_start[c], read_start[c+1]) */
    uint32_t *read_vrs;
    size_t *read_slots;              /* the slot of each value (consecutive within a batch) */
    /* writes (connected inputs): value = map(factor * signals[source] + offset) */
    Batch *writes;
    size_t *write_start;
    uint32_t *write_vrs;
    size_t *write_sources;
    int *write_modes;                /* WRITE_* */
    double *write_factors, *write_offsets;
    size_t *map_start;               /* pairs of entry e: [map_start[e], map_start[e+1]) */
    double *map_from, *map_to;
    Value *written;                  /* last value written per entry (held values: fixed) */
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
    /* result rows: time, then signals[record_slots[j]]; event rows too when asked */
    size_t n_record;
    size_t *record_slots;
    bool event_rows;
    RowBuffer rows;
    TextPool texts;
    InputTable inputs;
    /* algebraic loops */
    int max_iterations;
    double loop_tolerance;
    size_t loop_iterations;          /* total, for statistics */
    /* scratch for typed values: 8 bytes per value of the largest batch, and its sizes */
    unsigned char *scratch;
    size_t *scratch_sizes;
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
    /* a lone isolated FMU stepped by the master loop in its worker (NULL: here) */
    Host *lone;
    char lone_function[64];
};

/* master_steps returns one of these, or an FMI status >= 2 (error_* say where). */
#define MASTER_OK 0
#define MASTER_TERMINATED 100        /* a component asked to terminate: rows so far are valid */
#define MASTER_LOOP_DIVERGED 101     /* an algebraic loop did not converge (error_* say where) */
#define MASTER_NONFINITE 102         /* an FMU gave NaN or Inf (nonfinite_* say which, error_* where) */
#define MASTER_TIMEOUT 103           /* the deadline passed: rows so far are valid */
#define MASTER_NO_MEMORY 104         /* no memory for result rows or texts */

/* Before anything else: the text pool (id 0, the empty text). 0 when out of memory. */
int master_setup(Master *m);

/* Release what the loop allocated (rows, texts); the tables belong to the caller. */
void master_release(Master *m);

/* Intern `size` bytes as a text; its id, or (size_t)-1 when out of memory. */
size_t master_add_text(Master *m, const void *bytes, size_t size);

/* The row and text buffers are locked while they grow: another thread takes them with
 * master_lock held (a watchdog, while a step does not return). */
void master_lock(Master *m);
void master_unlock(Master *m);

/* After initialization: the clocks start; Scheduled Execution activates the partitions of the
 * ticks at t0 (the first row shows them, as the other rows show the ticks at their time). */
int master_start_clocks(Master *m);

/* The clockUpdate callback given to Scheduled Execution FMUs. */
void cosim_clock_update(void *environment);

/* Component `index` is integrated by the driver in the worker `host` (already started): it
 * learns which outputs the event rows read. */
int master_attach_remote(Master *m, size_t index, Host *host);

/* The only component, isolated and fed by nothing, is stepped in its worker from now on, many
 * steps per round trip (its Model Exchange driver, if any, runs there already). */
int master_go_lone(Master *m, Host *host);

/* Point component `index` at its Model Exchange driver (event rows hook it). */
void master_attach_driver(Master *m, size_t index, MeDriver *driver);

/* In Initialization Mode: set inputs and read outputs in stepping order (loops iterated). */
int master_initialize(Master *m);

/* Read every component's outputs into the signal buffer. */
int master_read_all(Master *m);

/* Append the result row of time t to m->rows. */
int master_record(Master *m, double t);

/* Steps k_begin .. k_end - 1 (each from t_k to t_(k+1)), rows appended to m->rows; *done
 * counts the steps completed (their rows are valid whatever the return value). */
int master_steps(Master *m, long long k_begin, long long k_end, long long *done);

/* Time of grid point k. */
double master_time(const Master *m, long long k);

#endif
