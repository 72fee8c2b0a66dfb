/*
 * isolation_proxy.h -- hosting an FMU in a worker process (isolation.h): start and stop the
 * worker, and the table of proxy FMI functions (name, pointer) that forward calls to it.
 */
#ifndef COSIM_ISOLATION_PROXY_H
#define COSIM_ISOLATION_PROXY_H

#include <stdbool.h>
#include <stddef.h>

#include "isolation.h"

typedef struct Host Host;
typedef void (*ProxyFunction)(void);
typedef struct {
    const char *name;
    ProxyFunction function;
} ProxyEntry;

/* Start `worker` hosting `library` (FMI 2 or 3); NULL with a message in `error` on failure.
 * `preload` (may be NULL) is loaded globally first if the library needs it. */
Host *cosim_host_start(const char *worker, const char *library, int fmi_major, const char *preload, char *error,
                       size_t error_size);
/* Ask the worker to exit (killed after a grace period) and release everything. */
void cosim_host_stop(Host *h);
/* Calls waiting past `deadline` (CLOCK_MONOTONIC seconds, 0: none) kill the worker. */
void cosim_host_set_deadline(Host *h, double deadline);
int cosim_host_pid(const Host *h);
/* Seconds both sides spin for the other before they sleep (default DEFAULT_SPIN_SECONDS). */
void cosim_host_set_spin(Host *h, double seconds);
/* Whether the FMU's library exports function `function` (an index of cosim_proxy_functions). */
int cosim_host_exports(const Host *h, int function);
/* 1 when the worker is gone: its signal, exit status, and whether a deadline killed it. */
int cosim_host_outcome(const Host *h, int *signal, int *exit_code, int *timed_out);
/* The queued call that failed in the last batch ("" when it was the call that sent it). */
const char *cosim_host_failed_function(const Host *h);

/* The Model Exchange driver run in the worker (isolation_driver.c): made, told the reads of
 * its event rows (batches: getter function id, batch_pack(value references, values)), started,
 * stepped (the event rows are left at *log: *entries rows of event_entry_bytes each), saved and
 * restored; the driver's message of the last failure. */
int cosim_host_driver_new(Host *h, int fmi_major, size_t n, size_t nz, const uint32_t *state_vrs,
                          const uint32_t *derivative_vrs, bool directional, double tolerance);
int cosim_host_driver_reads(Host *h, size_t n_batches, const uint64_t *batches, size_t n_vrs, const uint32_t *vrs);
int cosim_host_driver_start(Host *h, double t0, double *t_reached);
int cosim_host_driver_step(Host *h, double t, double step, double deadline, bool event_rows, bool *terminate,
                           double *t_reached, const unsigned char **log, size_t *entries, bool *overflow);
int cosim_host_driver_save(Host *h);
int cosim_host_driver_restore(Host *h);
const char *cosim_host_driver_message(const Host *h);

/* A lone FMU stepped by the master loop in its worker: its tables once, then chunks of steps
 * (the rows are left at *rows: out->rows rows of 1 + config->n_slots values). */
int cosim_host_lone_new(Host *h, const LoneConfig *config, const LoneBatch *batches, const uint32_t *vrs,
                        const int32_t *types);
int cosim_host_lone_steps(Host *h, long long k_begin, long long k_end, double deadline, LoneOutcome *out,
                          const unsigned char **rows);

extern const ProxyEntry cosim_proxy_functions[];
extern const size_t cosim_proxy_count;

#endif
