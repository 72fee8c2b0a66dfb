/*
 * isolation_proxy.c -- FMI functions that forward each call to a worker process hosting the
 * real FMU (isolation.h, isolation_worker.c). The master's C loop, the Model Exchange driver
 * and the ctypes bindings call these through the same pointers they would use for the FMU;
 * the instance handle is the Host. Setters are queued and travel with the next call that
 * needs an answer. When the worker dies (a crash in the FMU) or a deadline passes, calls
 * return fmi3Fatal and the Host says why (signal, exit status, timeout, failing function).
 */
#define _GNU_SOURCE
#include "isolation_proxy.h"

#include <errno.h>
#include <signal.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>

#include "fmi2FunctionTypes.h"
#include "fmi3FunctionTypes.h"

extern char **environ;

/* Sleeps are cut into slices this long to notice a dead worker or a passed deadline. */
#define MASTER_SLICE_SECONDS 0.01
#define STOP_GRACE_SECONDS 1.0

enum { OK = 0, WARNING = 1, ERROR = 3, FATAL = 4 };

struct Host {
    Channel *channel;
    int fd;
    pid_t pid;
    int fmi_major;
    uint32_t posted;             /* batches posted (the worker's start counts as one) */
    uint32_t n_records;          /* records queued, not yet posted */
    uint64_t used;               /* bytes they take */
    /* the master's logger */
    void *log_environment;
    fmi3LogMessageCallback log3;
    fmi2CallbackLogger log2;
    fmi3ClockUpdateCallback clock_update; /* Scheduled Execution: told after the activation */
    char name[256];
    char driver_message[CHANNEL_TEXT_BYTES]; /* why the worker's driver failed */
    /* what went wrong */
    bool dead, timed_out;
    int signal, exit_code;
    const char *failed_function;
    double deadline;             /* CLOCK_MONOTONIC seconds; 0: none */
    /* strings returned by GetString stay valid until the next call */
    char *text;
    size_t text_capacity;
    /* The master reads the same outputs after every doStep: that read travels with the
     * doStep, and the read that follows is answered from its reply (one round trip). */
    bool after_step;             /* the last call was a doStep */
    FunctionId read_function;    /* the read seen after a doStep (0: none yet) */
    uint32_t *read_vrs;
    size_t read_nvr, read_n;
    Record *prefetched;          /* its answer, valid until the next call */
};

#define NAME(name, shape) #name,
static const char *const NAMES[F_COUNT] = {ISOLATED_FUNCTIONS(NAME) "exit", "driver: new", "driver: reads",
                                           "doStep (Model Exchange driver)", "doStep (Model Exchange driver)",
                                           "fmiGetFMUState (Model Exchange driver)",
                                           "fmiSetFMUState (Model Exchange driver)", "lone: new",
                                           "lone: steps"};
#undef NAME

/* ---- the worker's life ---- */

static void reap(Host *h, int status) {
    h->dead = true;
    if (WIFSIGNALED(status)) h->signal = WTERMSIG(status);
    else if (WIFEXITED(status)) h->exit_code = WEXITSTATUS(status);
}

static bool worker_gone(Host *h) {
    if (h->dead) return true;
    int status = 0;
    const pid_t done = waitpid(h->pid, &status, WNOHANG);
    if (done == h->pid) reap(h, status);
    else if (done < 0 && errno == ECHILD) h->dead = true; /* reaped by someone else */
    return h->dead;
}

static void kill_worker(Host *h) {
    if (h->dead) return;
    kill(h->pid, SIGKILL);
    int status = 0;
    if (waitpid(h->pid, &status, 0) == h->pid) reap(h, status);
    else h->dead = true;
}

/* Wait for the reply to batch h->posted; false when the worker died or the deadline passed. */
static bool await_reply(Host *h) {
    for (;;) {
        double slice = MASTER_SLICE_SECONDS;
        if (h->deadline > 0) {
            const double left = h->deadline - monotonic_seconds();
            if (left <= 0) {
                h->timed_out = true;
                kill_worker(h);
                return false;
            }
            if (left < slice) slice = left;
        }
        if (channel_wait(&h->channel->reply, h->posted, &h->channel->master_sleeps, h->channel->spin, slice))
            return true;
        if (worker_gone(h)) return atomic_load(&h->channel->reply) == h->posted;
    }
}

Host *cosim_host_start(const char *worker, const char *library, int fmi_major, const char *preload, char *error,
                       size_t error_size) {
    Host *h = calloc(1, sizeof *h);
    if (!h) return NULL;
    h->fmi_major = fmi_major;
    h->fd = memfd_create("cosim-isolation", MFD_CLOEXEC);
    if (h->fd < 0 || ftruncate(h->fd, (off_t)CHANNEL_BYTES) != 0 ||
        (h->channel = mmap(NULL, CHANNEL_BYTES, PROT_READ | PROT_WRITE, MAP_SHARED, h->fd, 0)) == MAP_FAILED) {
        snprintf(error, error_size, "no shared memory for the isolation worker: %s", strerror(errno));
        if (h->fd >= 0) close(h->fd);
        free(h);
        return NULL;
    }
    char major[8];
    snprintf(major, sizeof major, "%d", fmi_major);
    char *argv[] = {(char *)worker, (char *)library, major, (char *)(preload && *preload ? preload : NULL), NULL};
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, h->fd, WORKER_CHANNEL_FD);
    posix_spawnattr_t attributes;
    posix_spawnattr_init(&attributes);
    sigset_t none, all;
    sigemptyset(&none);
    sigfillset(&all);
    posix_spawnattr_setsigmask(&attributes, &none);
    posix_spawnattr_setsigdefault(&attributes, &all);
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
    const int failed = posix_spawn(&h->pid, worker, &actions, &attributes, argv, environ);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attributes);
    if (failed) {
        snprintf(error, error_size, "cannot start the isolation worker %s: %s", worker, strerror(failed));
        h->dead = true;
        cosim_host_stop(h);
        return NULL;
    }
    h->posted = 1;
    if (!await_reply(h) || h->channel->ready != 1) {
        if (h->channel->ready < 0)
            snprintf(error, error_size, "cannot load the binary: %.*s", (int)sizeof h->channel->text,
                     h->channel->text);
        else
            snprintf(error, error_size, "the isolation worker did not start (%s %d)",
                     h->signal ? "signal" : "exit status", h->signal ? h->signal : h->exit_code);
        cosim_host_stop(h);
        return NULL;
    }
    return h;
}

void cosim_host_stop(Host *h) {
    if (!h) return;
    if (!h->dead && h->channel) {
        Record *r = (Record *)h->channel->area;
        memset(r, 0, sizeof *r);
        r->function = F_EXIT;
        r->size = sizeof *r;
        h->channel->n_records = 1;
        channel_post(&h->channel->request, ++h->posted, &h->channel->worker_sleeps);
        h->deadline = monotonic_seconds() + STOP_GRACE_SECONDS;
        await_reply(h);
        const double until = monotonic_seconds() + STOP_GRACE_SECONDS;
        while (!worker_gone(h) && monotonic_seconds() < until) usleep(1000);
        kill_worker(h);
    }
    if (h->channel && h->channel != MAP_FAILED) munmap(h->channel, CHANNEL_BYTES);
    if (h->fd >= 0) close(h->fd);
    free(h->text);
    free(h->read_vrs);
    free(h);
}

void cosim_host_set_deadline(Host *h, double deadline) { h->deadline = deadline; }

void cosim_host_set_spin(Host *h, double seconds) { h->channel->spin = seconds; }

int cosim_host_pid(const Host *h) { return (int)h->pid; }

int cosim_host_exports(const Host *h, int function) {
    return function >= 0 && function < F_EXIT && (h->channel->exported[function / 64] >> (function % 64) & 1);
}

int cosim_host_outcome(const Host *h, int *signal, int *exit_code, int *timed_out) {
    *signal = h->signal, *exit_code = h->exit_code, *timed_out = h->timed_out;
    return h->dead;
}

const char *cosim_host_failed_function(const Host *h) { return h->failed_function ? h->failed_function : ""; }

/* ---- records ---- */

typedef struct {
    uint64_t count, bytes; /* elements, and bytes in all */
} Span;

static uint64_t aligned(uint64_t n) { return (n + 7) & ~(uint64_t)7; }

static void replay_log(Host *h) {
    Channel *c = h->channel;
    uint32_t at = 0;
    const uint32_t used = c->log_used < CHANNEL_LOG_BYTES ? c->log_used : CHANNEL_LOG_BYTES;
    while (at + sizeof(LogEntry) <= used) {
        LogEntry entry;
        memcpy(&entry, c->log + at, sizeof entry);
        const uint64_t size = aligned(sizeof entry + (uint64_t)entry.category_bytes + entry.message_bytes);
        if (entry.category_bytes == 0 || entry.message_bytes == 0 || at + size > used) break;
        const char *category = (const char *)c->log + at + sizeof entry;
        const char *message = category + entry.category_bytes;
        c->log[at + sizeof entry + entry.category_bytes - 1] = 0; /* whatever the worker wrote */
        c->log[at + sizeof entry + entry.category_bytes + entry.message_bytes - 1] = 0;
        if (h->log3) h->log3(h->log_environment, (fmi3Status)entry.status, category, message);
        else if (h->log2) h->log2(h->log_environment, h->name, (fmi2Status)entry.status, category, message);
        at += (uint32_t)size;
    }
    if (c->log_lost && h->log3) h->log3(h->log_environment, fmi3Warning, "logStatusWarning", "(log messages lost)");
    c->log_used = 0, c->log_lost = 0;
}

/* Post the queued records and wait: the batch's status (that of the record that stopped it). */
static int exchange(Host *h) {
    Channel *c = h->channel;
    c->n_records = h->n_records;
    h->n_records = 0, h->used = 0;
    channel_post(&c->request, ++h->posted, &c->worker_sleeps);
    const bool answered = await_reply(h);
    replay_log(h);
    if (!answered) return FATAL;
    if (c->failed < c->n_records) {
        const Record *r = (const Record *)c->area;
        for (uint32_t k = 0; k < c->failed; k++) r = (const Record *)((const unsigned char *)r + r->size);
        h->failed_function = r->function < F_COUNT ? NAMES[r->function] : "?";
    }
    return c->status;
}

/* Whether the last batch came back (the worker did not die or time out on it). */
static bool answered(const Host *h) { return !h->dead; }

/* A new record for function f with arrays of the given sizes, or NULL when it cannot travel. */
static Record *begin(Host *h, FunctionId f, Span a0, Span a1, Span a2, Span a3) {
    if (h->dead) return NULL;
    const Span spans[RECORD_ARRAYS] = {a0, a1, a2, a3};
    uint64_t size = aligned(sizeof(Record));
    for (int k = 0; k < RECORD_ARRAYS; k++) size += aligned(spans[k].bytes);
    if (h->used + size > CHANNEL_RECORD_BYTES && h->n_records && exchange(h) > WARNING) return NULL;
    if (size > CHANNEL_RECORD_BYTES) {
        if (h->log3) h->log3(h->log_environment, fmi3Error, "logStatusError", "too many values for one isolated call");
        return NULL;
    }
    Record *r = (Record *)(h->channel->area + h->used);
    memset(r, 0, sizeof *r);
    r->function = f;
    r->size = size;
    uint64_t at = aligned(sizeof(Record));
    for (int k = 0; k < RECORD_ARRAYS; k++) {
        r->n[k] = spans[k].count;
        r->offset[k] = at;
        at += aligned(spans[k].bytes);
    }
    h->used += size;
    h->n_records++;
    h->failed_function = NULL;
    h->prefetched = NULL;
    h->after_step = false;
    return r;
}

static void *array(Record *r, int k) { return (unsigned char *)r + r->offset[k]; }

static const Span NONE = {0, 0};

static Span values(size_t n, size_t each) { return (Span){n, (uint64_t)n * each}; }

/* Blocks of bytes travel as an array of offsets (from the record) followed by the bytes;
 * `sizes` NULL: NUL-terminated strings. */
static Span block_list(const void *const *list, const size_t *sizes, size_t n) {
    uint64_t bytes = 8 * (uint64_t)n;
    for (size_t j = 0; j < n; j++) bytes += sizes ? sizes[j] : strlen(list[j] ? list[j] : "") + 1;
    return (Span){n, bytes};
}

static Span text_list(const char *const *list, size_t n) { return block_list((const void *const *)list, NULL, n); }

static void put_blocks(Record *r, int k, const void *const *list, const size_t *sizes, size_t n) {
    uint64_t *offsets = array(r, k);
    uint64_t at = r->offset[k] + 8 * (uint64_t)n;
    for (size_t j = 0; j < n; j++) {
        const void *block = list[j] ? list[j] : "";
        const size_t length = sizes ? sizes[j] : strlen(block) + 1;
        if (length) memcpy((unsigned char *)r + at, block, length);
        offsets[j] = at;
        at += length;
    }
}

static void put_text(Record *r, int k, const char *const *list, size_t n) {
    put_blocks(r, k, (const void *const *)list, NULL, n);
}

/* Blocks a Get reply left after the record (offsets in array k, sizes in `sizes` or, for
 * strings, up to their NUL), copied so they outlive the channel's reuse. */
static int take_blocks(Host *h, Record *r, int k, const void **out, const size_t *sizes, size_t n) {
    const uint64_t *offsets = array(r, k);
    const unsigned char *end = h->channel->area + CHANNEL_RECORD_BYTES;
    size_t total = 0;
    for (size_t j = 0; j < n; j++) {
        const unsigned char *block = (const unsigned char *)r + offsets[j];
        if (offsets[j] < r->size || block >= end || (sizes && sizes[j] > (size_t)(end - block))) return ERROR;
        total += (sizes ? sizes[j] : strnlen((const char *)block, (size_t)(end - block))) + 1;
    }
    if (total > h->text_capacity) {
        char *grown = realloc(h->text, total ? total : 1);
        if (!grown) return ERROR;
        h->text = grown, h->text_capacity = total;
    }
    size_t at = 0;
    for (size_t j = 0; j < n; j++) {
        const unsigned char *block = (const unsigned char *)r + offsets[j];
        const size_t length = sizes ? sizes[j] : strnlen((const char *)block, total - at);
        memcpy(h->text + at, block, length);
        h->text[at + length] = 0;
        out[j] = h->text + at;
        at += length + 1;
    }
    return OK;
}

static int take_text(Host *h, Record *r, const char **out, size_t n) {
    return take_blocks(h, r, 1, (const void **)out, NULL, n);
}

/* A call that needs its answer: post everything queued and return the status. */
static int send(Host *h, Record *r) { return r ? exchange(h) : FATAL; }

/* ---- proxies, by shape ---- */

static int proxy_inst(Host *h, FunctionId f) { return send(h, begin(h, f, NONE, NONE, NONE, NONE)); }

static void proxy_void(Host *h, FunctionId f) {
    if (!h->dead) send(h, begin(h, f, NONE, NONE, NONE, NONE));
}

static int proxy_time(Host *h, FunctionId f, double t) {
    Record *r = begin(h, f, NONE, NONE, NONE, NONE);
    if (r) r->d[0] = t;
    return send(h, r);
}

static int proxy_experiment(Host *h, FunctionId f, int has_tolerance, double tolerance, double start, int has_stop,
                            double stop) {
    Record *r = begin(h, f, NONE, NONE, NONE, NONE);
    if (r) r->i[0] = (uint64_t)has_tolerance, r->i[1] = (uint64_t)has_stop, r->d[0] = tolerance, r->d[1] = start,
           r->d[2] = stop;
    return send(h, r);
}

static bool same_read(const Host *h, FunctionId f, const uint32_t *vrs, size_t nvr, size_t n) {
    return h->read_function == f && h->read_nvr == nvr && h->read_n == n &&
           memcmp(h->read_vrs, vrs, 4 * nvr) == 0;
}

static void remember_read(Host *h, FunctionId f, const uint32_t *vrs, size_t nvr, size_t n) {
    uint32_t *copy = malloc(4 * nvr + 4);
    if (!copy) return;
    memcpy(copy, vrs, 4 * nvr);
    free(h->read_vrs);
    h->read_vrs = copy, h->read_function = f, h->read_nvr = nvr, h->read_n = n;
}

/* After a doStep record: queue the read that followed the last doStep. */
static Record *queue_read(Host *h) {
    if (!h->read_function) return NULL;
    Record *r = begin(h, h->read_function, values(h->read_nvr, 4), values(h->read_n, VALUE_BYTES[h->read_function]),
                      NONE, NONE);
    if (r) memcpy(array(r, 0), h->read_vrs, 4 * h->read_nvr);
    return r;
}

static int proxy_get(Host *h, FunctionId f, const uint32_t *vrs, size_t nvr, void *out, size_t n) {
    Record *ready = h->prefetched;
    if (ready && same_read(h, f, vrs, nvr, n)) {
        h->prefetched = NULL;
        memcpy(out, array(ready, 1), n * VALUE_BYTES[f]);
        return ready->status;
    }
    if (h->after_step && !same_read(h, f, vrs, nvr, n)) remember_read(h, f, vrs, nvr, n);
    Record *r = begin(h, f, values(nvr, 4), values(n, VALUE_BYTES[f]), NONE, NONE);
    if (!r) return FATAL;
    memcpy(array(r, 0), vrs, 4 * nvr);
    const int status = exchange(h);
    if (status <= WARNING) memcpy(out, array(r, 1), n * VALUE_BYTES[f]);
    return status;
}

/* Setters are queued: they travel with the next call that needs an answer. */
static int proxy_set(Host *h, FunctionId f, const uint32_t *vrs, size_t nvr, const void *in, size_t n) {
    Record *r = begin(h, f, values(nvr, 4), values(n, VALUE_BYTES[f]), NONE, NONE);
    if (!r) return FATAL;
    memcpy(array(r, 0), vrs, 4 * nvr);
    memcpy(array(r, 1), in, n * VALUE_BYTES[f]);
    return OK;
}

static int proxy_get_strings(Host *h, FunctionId f, const uint32_t *vrs, size_t nvr, const char **out, size_t n) {
    Record *r = begin(h, f, values(nvr, 4), values(n, 8), NONE, NONE);
    if (!r) return FATAL;
    memcpy(array(r, 0), vrs, 4 * nvr);
    const int status = exchange(h);
    return status <= WARNING && take_text(h, r, out, n) != OK ? ERROR : status;
}

static int proxy_set_strings(Host *h, FunctionId f, const uint32_t *vrs, size_t nvr, const char *const *in,
                             size_t n) {
    Record *r = begin(h, f, values(nvr, 4), text_list(in, n), NONE, NONE);
    if (!r) return FATAL;
    memcpy(array(r, 0), vrs, 4 * nvr);
    put_text(r, 1, in, n);
    return send(h, r);
}

static int proxy_get_binary(Host *h, FunctionId f, const uint32_t *vrs, size_t nvr, size_t *sizes, const void **out,
                            size_t n) {
    Record *r = begin(h, f, values(nvr, 4), values(n, 8), values(n, 8), NONE);
    if (!r) return FATAL;
    memcpy(array(r, 0), vrs, 4 * nvr);
    const int status = exchange(h);
    if (status > WARNING) return status;
    memcpy(sizes, array(r, 2), 8 * n);
    return take_blocks(h, r, 1, out, sizes, n) != OK ? ERROR : status;
}

static int proxy_set_binary(Host *h, FunctionId f, const uint32_t *vrs, size_t nvr, const size_t *sizes,
                            const void *const *in, size_t n) {
    Record *r = begin(h, f, values(nvr, 4), values(n, 8), block_list(in, sizes, n), NONE);
    if (!r) return FATAL;
    memcpy(array(r, 0), vrs, 4 * nvr);
    memcpy(array(r, 1), sizes, 8 * n);
    put_blocks(r, 2, in, sizes, n);
    return OK; /* queued, as the other setters */
}

/* fmi3GetClock / fmi3SetClock: one Boolean per clock */
static int proxy_clock(Host *h, FunctionId f, const uint32_t *vrs, size_t nvr, bool *clocks) {
    Record *r = begin(h, f, values(nvr, 4), values(nvr, sizeof(bool)), NONE, NONE);
    if (!r) return FATAL;
    memcpy(array(r, 0), vrs, 4 * nvr);
    const bool set = f == F_fmi3SetClock;
    if (set) memcpy(array(r, 1), clocks, nvr * sizeof(bool));
    const int status = exchange(h);
    if (!set && status <= WARNING) memcpy(clocks, array(r, 1), nvr * sizeof(bool));
    return status;
}

/* fmi3GetIntervalDecimal (intervals and qualifiers) and fmi3GetShiftDecimal (shifts) */
static int proxy_intervals(Host *h, FunctionId f, const uint32_t *vrs, size_t nvr, double *intervals,
                           int *qualifiers) {
    Record *r = begin(h, f, values(nvr, 4), values(nvr, 8), values(nvr, sizeof(int)), NONE);
    if (!r) return FATAL;
    memcpy(array(r, 0), vrs, 4 * nvr);
    const int status = exchange(h);
    if (status <= WARNING) {
        memcpy(intervals, array(r, 1), 8 * nvr);
        if (qualifiers) memcpy(qualifiers, array(r, 2), nvr * sizeof(int));
    }
    return status;
}

static int proxy_debug(Host *h, FunctionId f, int on, size_t n, const char *const *categories) {
    Record *r = begin(h, f, text_list(categories, n), NONE, NONE, NONE);
    if (!r) return FATAL;
    r->i[0] = (uint64_t)on;
    put_text(r, 0, categories, n);
    return send(h, r);
}

static int proxy_get_state(Host *h, FunctionId f, void **state) {
    Record *r = begin(h, f, NONE, NONE, NONE, NONE);
    if (!r) return FATAL;
    r->i[0] = (uint64_t)(uintptr_t)*state;
    const int status = exchange(h);
    if (status <= WARNING) *state = (void *)(uintptr_t)r->out_i[0];
    return status;
}

static int proxy_set_state(Host *h, FunctionId f, void *state) {
    Record *r = begin(h, f, NONE, NONE, NONE, NONE);
    if (r) r->i[0] = (uint64_t)(uintptr_t)state;
    return send(h, r);
}

static int proxy_free_state(Host *h, FunctionId f, void **state) {
    Record *r = begin(h, f, NONE, NONE, NONE, NONE);
    if (!r) return FATAL;
    r->i[0] = (uint64_t)(uintptr_t)*state;
    const int status = exchange(h);
    if (status <= WARNING) *state = NULL;
    return status;
}

static int proxy_array_in(Host *h, FunctionId f, const double *x, size_t n) {
    Record *r = begin(h, f, values(n, 8), NONE, NONE, NONE);
    if (!r) return FATAL;
    memcpy(array(r, 0), x, 8 * n);
    return send(h, r);
}

static int proxy_array_out(Host *h, FunctionId f, double *x, size_t n) {
    Record *r = begin(h, f, values(n, 8), NONE, NONE, NONE);
    if (!r) return FATAL;
    const int status = exchange(h);
    if (status <= WARNING) memcpy(x, array(r, 0), 8 * n);
    return status;
}

static int proxy_directional(Host *h, FunctionId f, const uint32_t *unknowns, size_t n_unknowns,
                             const uint32_t *knowns, size_t n_knowns, const double *seed, size_t n_seed,
                             double *sensitivity, size_t n_sensitivity) {
    Record *r = begin(h, f, values(n_unknowns, 4), values(n_knowns, 4), values(n_seed, 8), values(n_sensitivity, 8));
    if (!r) return FATAL;
    memcpy(array(r, 0), unknowns, 4 * n_unknowns);
    memcpy(array(r, 1), knowns, 4 * n_knowns);
    memcpy(array(r, 2), seed, 8 * n_seed);
    const int status = exchange(h);
    if (status <= WARNING) memcpy(sensitivity, array(r, 3), 8 * n_sensitivity);
    return status;
}

/* A call whose results are the record's out_i / out_d: returns the record after the exchange. */
static int proxy_results(Host *h, FunctionId f, uint64_t in, double d0, double d1, Record **out) {
    Record *r = begin(h, f, NONE, NONE, NONE, NONE);
    if (!r) return FATAL;
    r->i[0] = in, r->d[0] = d0, r->d[1] = d1;
    *out = r;
    return exchange(h);
}

/* doStep, with the read that usually follows it. */
static int proxy_step(Host *h, FunctionId f, uint64_t no_set, double t, double step, double extra, Record **out) {
    const uint32_t index = h->n_records; /* queued setters go first */
    Record *r = begin(h, f, NONE, NONE, NONE, NONE);
    if (!r) return FATAL;
    r->i[0] = no_set, r->d[0] = t, r->d[1] = step, r->d[2] = extra;
    *out = r;
    Record *read = queue_read(h);
    const int batch = exchange(h);
    const uint32_t failed = h->channel->failed;
    if (!answered(h) || failed <= index) return batch; /* a setter or the doStep failed */
    if (read && failed == h->channel->n_records) h->prefetched = read;
    h->failed_function = NULL; /* a failed read is made again, and reported then */
    h->after_step = true;
    return r->status;
}

static void *instantiate(Host *h, FunctionId f, const char *name, const char *token, const char *resources,
                         const uint64_t flags[4]) {
    const char *texts[3] = {name, token, resources};
    Record *r = begin(h, f, text_list(texts, 3), NONE, NONE, NONE);
    if (!r) return NULL;
    put_text(r, 0, texts, 3);
    memcpy(r->i, flags, sizeof r->i);
    snprintf(h->name, sizeof h->name, "%s", name ? name : "");
    return exchange(h) <= WARNING ? h : NULL;
}

/* ---- the FMI functions, one thin typed wrapper each ---- */

#define P_INSTANTIATE_CS3(name)
#define P_INSTANTIATE_ME3(name)
#define P_INSTANTIATE2(name)
#define P_VOID(name) static void p_##name(void *h) { proxy_void(h, F_##name); }
#define P_INST(name) static int p_##name(void *h) { return proxy_inst(h, F_##name); }
#define P_TIME(name) static int p_##name(void *h, double t) { return proxy_time(h, F_##name, t); }
#define P_EXPERIMENT3(name)                                                                         \
    static int p_##name(void *h, bool has_tolerance, double tolerance, double start, bool has_stop, \
                        double stop) {                                                              \
        return proxy_experiment(h, F_##name, has_tolerance, tolerance, start, has_stop, stop);      \
    }
#define P_EXPERIMENT2(name)                                                                       \
    static int p_##name(void *h, int has_tolerance, double tolerance, double start, int has_stop, \
                        double stop) {                                                            \
        return proxy_experiment(h, F_##name, has_tolerance, tolerance, start, has_stop, stop);    \
    }
#define P_DEBUG3(name)                                                                \
    static int p_##name(void *h, bool on, size_t n, const char *const *categories) { \
        return proxy_debug(h, F_##name, on, n, categories);                           \
    }
#define P_DEBUG2(name)                                                               \
    static int p_##name(void *h, int on, size_t n, const char *const *categories) { \
        return proxy_debug(h, F_##name, on, n, categories);                          \
    }
#define P_GET3(name)                                                                         \
    static int p_##name(void *h, const uint32_t *vrs, size_t nvr, void *values, size_t n) { \
        return proxy_get(h, F_##name, vrs, nvr, values, n);                                  \
    }
#define P_SET3(name)                                                                               \
    static int p_##name(void *h, const uint32_t *vrs, size_t nvr, const void *values, size_t n) { \
        return proxy_set(h, F_##name, vrs, nvr, values, n);                                        \
    }
#define P_GET2(name)                                                               \
    static int p_##name(void *h, const uint32_t *vrs, size_t nvr, void *values) { \
        return proxy_get(h, F_##name, vrs, nvr, values, nvr);                      \
    }
#define P_SET2(name)                                                                     \
    static int p_##name(void *h, const uint32_t *vrs, size_t nvr, const void *values) { \
        return proxy_set(h, F_##name, vrs, nvr, values, nvr);                            \
    }
#define P_GETSTR3(name)                                                                             \
    static int p_##name(void *h, const uint32_t *vrs, size_t nvr, const char **values, size_t n) { \
        return proxy_get_strings(h, F_##name, vrs, nvr, values, n);                                 \
    }
#define P_SETSTR3(name)                                                                                   \
    static int p_##name(void *h, const uint32_t *vrs, size_t nvr, const char *const *values, size_t n) { \
        return proxy_set_strings(h, F_##name, vrs, nvr, values, n);                                       \
    }
#define P_GETSTR2(name)                                                                   \
    static int p_##name(void *h, const uint32_t *vrs, size_t nvr, const char **values) { \
        return proxy_get_strings(h, F_##name, vrs, nvr, values, nvr);                     \
    }
#define P_SETSTR2(name)                                                                         \
    static int p_##name(void *h, const uint32_t *vrs, size_t nvr, const char *const *values) { \
        return proxy_set_strings(h, F_##name, vrs, nvr, values, nvr);                           \
    }
#define P_GETSTATE(name) static int p_##name(void *h, void **s) { return proxy_get_state(h, F_##name, s); }
#define P_SETSTATE(name) static int p_##name(void *h, void *s) { return proxy_set_state(h, F_##name, s); }
#define P_FREESTATE(name) static int p_##name(void *h, void **s) { return proxy_free_state(h, F_##name, s); }
#define P_GETBIN3(name)                                                                                    \
    static int p_##name(void *h, const uint32_t *vrs, size_t nvr, size_t *sizes, const void **values, size_t n) { \
        return proxy_get_binary(h, F_##name, vrs, nvr, sizes, values, n);                                  \
    }
#define P_SETBIN3(name)                                                                                      \
    static int p_##name(void *h, const uint32_t *vrs, size_t nvr, const size_t *sizes, const void *const *values, \
                        size_t n) {                                                                          \
        return proxy_set_binary(h, F_##name, vrs, nvr, sizes, values, n);                                    \
    }
#define P_CLOCK3(name) \
    static int p_##name(void *h, const uint32_t *vrs, size_t nvr, bool *c) { return proxy_clock(h, F_##name, vrs, nvr, c); }
#define P_INTERVAL3(name)                                                                   \
    static int p_##name(void *h, const uint32_t *vrs, size_t nvr, double *v, int *q) {      \
        return proxy_intervals(h, F_##name, vrs, nvr, v, q);                                \
    }
#define P_SHIFT3(name)                                                                      \
    static int p_##name(void *h, const uint32_t *vrs, size_t nvr, double *v) {              \
        return proxy_intervals(h, F_##name, vrs, nvr, v, NULL);                             \
    }
#define P_ACTIVATE3(name)
#define P_INSTANTIATE_SE3(name)
#define P_DIRECTIONAL3(name)                                                                                \
    static int p_##name(void *h, const uint32_t *unknowns, size_t nu, const uint32_t *knowns, size_t nk,  \
                        const double *seed, size_t ns, double *sensitivity, size_t nsens) {               \
        return proxy_directional(h, F_##name, unknowns, nu, knowns, nk, seed, ns, sensitivity, nsens);    \
    }
#define P_DIRECTIONAL2(name)                                                                               \
    static int p_##name(void *h, const uint32_t *unknowns, size_t nu, const uint32_t *knowns, size_t nk, \
                        const double *seed, double *sensitivity) {                                       \
        return proxy_directional(h, F_##name, unknowns, nu, knowns, nk, seed, nk, sensitivity, nu);      \
    }
#define P_ARRAY_IN(name) \
    static int p_##name(void *h, const double *x, size_t n) { return proxy_array_in(h, F_##name, x, n); }
#define P_ARRAY_OUT(name) \
    static int p_##name(void *h, double *x, size_t n) { return proxy_array_out(h, F_##name, x, n); }
#define P_SIZE_OUT(name)                                              \
    static int p_##name(void *h, size_t *n) {                        \
        Record *r = NULL;                                            \
        const int status = proxy_results(h, F_##name, 0, 0, 0, &r);  \
        if (status <= WARNING && n) *n = (size_t)r->out_i[0];        \
        return status;                                               \
    }
#define P_COMPLETED3(name)                                                             \
    static int p_##name(void *h, bool no_set, bool *event, bool *terminate) {          \
        Record *r = NULL;                                                              \
        const int status = proxy_results(h, F_##name, (uint64_t)no_set, 0, 0, &r);    \
        if (status <= WARNING) {                                                       \
            if (event) *event = r->out_i[0] != 0;                                      \
            if (terminate) *terminate = r->out_i[1] != 0;                              \
        }                                                                              \
        return status;                                                                 \
    }
#define P_COMPLETED2(name)                                                           \
    static int p_##name(void *h, int no_set, int *event, int *terminate) {           \
        Record *r = NULL;                                                            \
        const int status = proxy_results(h, F_##name, (uint64_t)no_set, 0, 0, &r);  \
        if (status <= WARNING) {                                                     \
            if (event) *event = (int)r->out_i[0];                                    \
            if (terminate) *terminate = (int)r->out_i[1];                            \
        }                                                                            \
        return status;                                                               \
    }
#define P_STATUS2(name)
static int p_fmi2GetBooleanStatus(void *h, int kind, int *value) {
    Record *r = NULL;
    const int status = proxy_results(h, F_fmi2GetBooleanStatus, (uint64_t)kind, 0, 0, &r);
    if (status <= WARNING && value) *value = (int)r->out_i[0];
    return status;
}
static int p_fmi2GetRealStatus(void *h, int kind, double *value) {
    Record *r = NULL;
    const int status = proxy_results(h, F_fmi2GetRealStatus, (uint64_t)kind, 0, 0, &r);
    if (status <= WARNING && value) *value = r->out_d[0];
    return status;
}
#define P_DOSTEP2(name)                                                    \
    static int p_##name(void *h, double t, double step, int no_set) {      \
        Record *r = NULL;                                                  \
        return proxy_step(h, F_##name, (uint64_t)no_set, t, step, 0, &r);  \
    }

static int p_fmi3DoStep(void *h, double t, double step, bool no_set, bool *event, bool *terminate, bool *early,
                        double *last) {
    Record *r = NULL;
    const int status = proxy_step(h, F_fmi3DoStep, no_set, t, step, 0, &r);
    if (status <= WARNING || status == 2) { /* Discard: the FMU stopped early, say where */
        if (event) *event = r->out_i[0] != 0;
        if (terminate) *terminate = r->out_i[1] != 0;
        if (early) *early = r->out_i[2] != 0;
        if (last) *last = r->out_d[0];
    }
    return status;
}
#define P_DOSTEP3(name)

static int p_fmi3UpdateDiscreteStates(void *h, bool *again, bool *terminate, bool *nominals, bool *values,
                                      bool *next_defined, double *next) {
    Record *r = NULL;
    const int status = proxy_results(h, F_fmi3UpdateDiscreteStates, 0, 0, 0, &r);
    bool *flags[5] = {again, terminate, nominals, values, next_defined};
    if (status <= WARNING) {
        for (int k = 0; k < 5; k++)
            if (flags[k]) *flags[k] = r->out_i[k] != 0;
        if (next) *next = r->out_d[0];
    }
    return status;
}
#define P_UPDATE3(name)

static int p_fmi3ActivateModelPartition(void *host, uint32_t clock, double time) {
    Host *h = host;
    Record *r = NULL;
    const int status = proxy_results(h, F_fmi3ActivateModelPartition, clock, time, 0, &r);
    if (status <= WARNING && r->out_i[0] && h->clock_update) h->clock_update(h->log_environment);
    return status;
}

static int p_fmi2NewDiscreteStates(void *h, fmi2EventInfo *info) {
    Record *r = NULL;
    const int status = proxy_results(h, F_fmi2NewDiscreteStates, 0, 0, 0, &r);
    if (status <= WARNING && info) {
        info->newDiscreteStatesNeeded = (fmi2Boolean)r->out_i[0];
        info->terminateSimulation = (fmi2Boolean)r->out_i[1];
        info->nominalsOfContinuousStatesChanged = (fmi2Boolean)r->out_i[2];
        info->valuesOfContinuousStatesChanged = (fmi2Boolean)r->out_i[3];
        info->nextEventTimeDefined = (fmi2Boolean)r->out_i[4];
        info->nextEventTime = r->out_d[0];
    }
    return status;
}
#define P_NEWDISCRETE2(name)

#define DEFINE(name, shape) P_##shape(name)
ISOLATED_FUNCTIONS(DEFINE)
#undef DEFINE

/* Instantiation takes the Host first (Python binds it): the handle it returns is the Host. */
void *cosim_proxy_fmi3InstantiateCoSimulation(Host *h, const char *name, const char *token, const char *resources,
                                              bool visible, bool logging_on, bool event_mode_used,
                                              bool early_return_allowed, const uint32_t *required, size_t n_required,
                                              void *environment, fmi3LogMessageCallback log, void *intermediate) {
    (void)required, (void)n_required, (void)intermediate; /* intermediate updates are not used */
    h->log_environment = environment, h->log3 = log;
    const uint64_t flags[4] = {visible, logging_on, event_mode_used, early_return_allowed};
    return instantiate(h, F_fmi3InstantiateCoSimulation, name, token, resources, flags);
}

void *cosim_proxy_fmi3InstantiateScheduledExecution(Host *h, const char *name, const char *token,
                                                    const char *resources, bool visible, bool logging_on,
                                                    void *environment, fmi3LogMessageCallback log,
                                                    fmi3ClockUpdateCallback clock_update, void *lock,
                                                    void *unlock) {
    (void)lock, (void)unlock; /* one partition runs at a time in the worker: no preemption */
    h->log_environment = environment, h->log3 = log, h->clock_update = clock_update;
    const uint64_t flags[4] = {visible, logging_on, 0, 0};
    return instantiate(h, F_fmi3InstantiateScheduledExecution, name, token, resources, flags);
}

void *cosim_proxy_fmi3InstantiateModelExchange(Host *h, const char *name, const char *token, const char *resources,
                                               bool visible, bool logging_on, void *environment,
                                               fmi3LogMessageCallback log) {
    h->log_environment = environment, h->log3 = log;
    const uint64_t flags[4] = {visible, logging_on, 0, 0};
    return instantiate(h, F_fmi3InstantiateModelExchange, name, token, resources, flags);
}

void *cosim_proxy_fmi2Instantiate(Host *h, const char *name, int type, const char *guid, const char *resources,
                                  const fmi2CallbackFunctions *functions, int visible, int logging_on) {
    h->log_environment = functions ? functions->componentEnvironment : NULL;
    h->log2 = functions ? functions->logger : NULL;
    const uint64_t flags[4] = {(uint64_t)visible, (uint64_t)logging_on, (uint64_t)type, 0};
    return instantiate(h, F_fmi2Instantiate, name, guid, resources, flags);
}

#define ENTRY(name, shape) {#name, (ProxyFunction)p_##name},
#define p_fmi3InstantiateCoSimulation cosim_proxy_fmi3InstantiateCoSimulation
#define p_fmi3InstantiateModelExchange cosim_proxy_fmi3InstantiateModelExchange
#define p_fmi3InstantiateScheduledExecution cosim_proxy_fmi3InstantiateScheduledExecution
#define p_fmi2Instantiate cosim_proxy_fmi2Instantiate
const ProxyEntry cosim_proxy_functions[] = {ISOLATED_FUNCTIONS(ENTRY)};
const size_t cosim_proxy_count = sizeof cosim_proxy_functions / sizeof cosim_proxy_functions[0];

/* ---- the Model Exchange driver in the worker (isolation_driver.c) ---- */

/* A driver call that needs its answer; a failure keeps the driver's message. */
static int driver_exchange(Host *h, Record *r, double *t_reached) {
    if (!r) return FATAL;
    const int status = exchange(h);
    if (status > WARNING && answered(h))
        snprintf(h->driver_message, sizeof h->driver_message, "%.*s", (int)sizeof h->channel->text, h->channel->text);
    if (t_reached && answered(h)) *t_reached = r->out_d[0];
    return status;
}

int cosim_host_driver_new(Host *h, int fmi_major, size_t n, size_t nz, const uint32_t *state_vrs,
                          const uint32_t *derivative_vrs, bool directional, double tolerance) {
    Record *r = begin(h, F_DRIVER_NEW, values(n, 4), values(n, 4), NONE, NONE);
    if (r) {
        r->i[0] = (uint64_t)fmi_major, r->i[1] = n, r->i[2] = nz, r->i[3] = directional, r->d[0] = tolerance;
        memcpy(array(r, 0), state_vrs, 4 * n);
        memcpy(array(r, 1), derivative_vrs, 4 * n);
    }
    return driver_exchange(h, r, NULL);
}

int cosim_host_driver_reads(Host *h, size_t n_batches, const uint64_t *batches, size_t n_vrs, const uint32_t *vrs) {
    Record *r = begin(h, F_DRIVER_READS, values(2 * n_batches, 8), values(n_vrs, 4), NONE, NONE);
    if (r) {
        memcpy(array(r, 0), batches, 16 * n_batches);
        memcpy(array(r, 1), vrs, 4 * n_vrs);
    }
    return driver_exchange(h, r, NULL);
}

int cosim_host_driver_start(Host *h, double t0, double *t_reached) {
    Record *r = begin(h, F_DRIVER_START, NONE, NONE, NONE, NONE);
    if (r) r->d[0] = t0;
    return driver_exchange(h, r, t_reached);
}

int cosim_host_driver_step(Host *h, double t, double step, double deadline, bool event_rows, bool *terminate,
                           double *t_reached, const unsigned char **log, size_t *entries, bool *overflow) {
    Record *r = NULL;
    const int status = proxy_step(h, F_DRIVER_STEP, event_rows, t, step, deadline, &r);
    if (!answered(h) || !r) return status > WARNING ? status : FATAL;
    if (status > WARNING)
        snprintf(h->driver_message, sizeof h->driver_message, "%.*s", (int)sizeof h->channel->text, h->channel->text);
    *terminate = r->out_i[0] != 0;
    *entries = (size_t)r->out_i[1];
    *overflow = r->out_i[2] != 0;
    *t_reached = r->out_d[0];
    *log = h->channel->area + CHANNEL_RECORD_BYTES;
    return status;
}

int cosim_host_driver_save(Host *h) { return driver_exchange(h, begin(h, F_DRIVER_SAVE, NONE, NONE, NONE, NONE), NULL); }

int cosim_host_driver_restore(Host *h) {
    return driver_exchange(h, begin(h, F_DRIVER_RESTORE, NONE, NONE, NONE, NONE), NULL);
}

const char *cosim_host_driver_message(const Host *h) { return h->driver_message; }

/* ---- a lone FMU stepped by the master loop in the worker (isolation_lone.c) ---- */

int cosim_host_lone_new(Host *h, const LoneConfig *config, const LoneBatch *batches, const uint32_t *vrs,
                        const int32_t *types) {
    Record *r = begin(h, F_LONE_NEW, values(1, sizeof *config), values(config->n_batches, sizeof *batches),
                      values(config->n_vrs, 4), values(config->n_slots, 4));
    if (r) {
        memcpy(array(r, 0), config, sizeof *config);
        memcpy(array(r, 1), batches, config->n_batches * sizeof *batches);
        memcpy(array(r, 2), vrs, 4 * config->n_vrs);
        memcpy(array(r, 3), types, 4 * config->n_slots);
    }
    return driver_exchange(h, r, NULL);
}

int cosim_host_lone_steps(Host *h, long long k_begin, long long k_end, double deadline, LoneOutcome *out,
                          const unsigned char **rows) {
    Record *r = begin(h, F_LONE_STEPS, values(1, sizeof *out), NONE, NONE, NONE);
    if (!r) return FATAL;
    r->i[0] = (uint64_t)k_begin, r->i[1] = (uint64_t)k_end, r->d[0] = deadline;
    const int status = exchange(h);
    /* the worker keeps its progress in the record as it steps: there even if it died */
    memcpy(out, array(r, 0), sizeof *out);
    out->error_function[sizeof out->error_function - 1] = 0;
    const int64_t most = (int64_t)(CHANNEL_EVENT_BYTES / 8);
    if (out->rows < 0 || out->rows > most) out->rows = 0;
    if (answered(h) && out->status > WARNING)
        snprintf(h->driver_message, sizeof h->driver_message, "%.*s", (int)sizeof h->channel->text, h->channel->text);
    *rows = h->channel->area + CHANNEL_RECORD_BYTES;
    h->failed_function = out->error_function[0] ? NULL : h->failed_function;
    return answered(h) ? status : FATAL;
}
