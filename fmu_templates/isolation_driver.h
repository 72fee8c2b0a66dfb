/*
 * isolation_driver.h -- the Model Exchange driver (me_driver.c) inside the worker that hosts an
 * isolated FMU: the master sends one record per communication step (F_DRIVER_STEP) instead of
 * one per FMU call, and gets back the state it reached, the rows of the events inside the step
 * (the outputs the master reads, before and after each event) and the driver's message.
 */
#ifndef COSIM_ISOLATION_DRIVER_H
#define COSIM_ISOLATION_DRIVER_H

#include "isolation.h"

#include "me_driver.h"

/* Run one driver record (F_DRIVER_*) on the worker's instance. */
void driver_call(Record *r, void *const *functions, void *instance, Channel *channel);

/* The driver made by F_DRIVER_NEW (NULL: none). */
MeDriver *driver_in_worker(void);

/* Run one lone-FMU record (F_LONE_*, isolation_lone.c). */
void lone_call(Record *r, void *const *functions, void *instance, Channel *channel);

#endif
