/*
 * isolation_proxy.h -- hosting an FMU in a worker process (isolation.h): start and stop the
 * worker, and the table of proxy FMI functions (name, pointer) that forward calls to it.
 */
#ifndef COSIM_ISOLATION_PROXY_H
#define COSIM_ISOLATION_PROXY_H

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
/* Whether the FMU's library exports function `function` (an index of cosim_proxy_functions). */
int cosim_host_exports(const Host *h, int function);
/* 1 when the worker is gone: its signal, exit status, and whether a deadline killed it. */
int cosim_host_outcome(const Host *h, int *signal, int *exit_code, int *timed_out);
/* The queued call that failed in the last batch ("" when it was the call that sent it). */
const char *cosim_host_failed_function(const Host *h);

extern const ProxyEntry cosim_proxy_functions[];
extern const size_t cosim_proxy_count;

#endif
