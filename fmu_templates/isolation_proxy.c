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

/* The master spins this long for a reply before sleeping: most calls are shorter. */
#define MASTER_SPIN_SECONDS 0
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
    char name[256];
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
static const char *const NAMES[F_COUNT] = {ISOLATED_FUNCTIONS(NAME) "exit"};
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
        if (channel_wait(&h->channel->reply, h->posted, &h->channel->master_sleeps, MASTER_SPIN_SECONDS, slice))
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
    if (h->used + size > CHANNEL_AREA_BYTES && h->n_records && exchange(h) > WARNING) return NULL;
    if (size > CHANNEL_AREA_BYTES) {
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

static Span text_list(const char *const *list, size_t n) {
    uint64_t bytes = 8 * (uint64_t)n;
    for (size_t j = 0; j < n; j++) bytes += strlen(list[j] ? list[j] : "") + 1;
    return (Span){n, bytes};
}

static void put_text(Record *r, int k, const char *const *list, size_t n) {
    uint64_t *offsets = array(r, k);
    uint64_t at = r->offset[k] + 8 * (uint64_t)n;
    for (size_t j = 0; j < n; j++) {
        const char *text = list[j] ? list[j] : "";
        const size_t length = strlen(text) + 1;
        memcpy((unsigned char *)r + at, text, length);
        offsets[j] = at;
        at += length;
    }
}

/* Strings a GetString reply left after the record, copied so they outlive the channel's reuse. */
static int take_text(Host *h, Record *r, const char **out, size_t n) {
    const uint64_t *offsets = array(r, 1);
    const unsigned char *end = h->channel->area + CHANNEL_AREA_BYTES;
    size_t total = 0;
    for (size_t j = 0; j < n; j++) {
        const char *text = (const char *)r + offsets[j];
        if (offsets[j] < r->size || (const unsigned char *)text >= end) return ERROR;
        total += strnlen(text, (size_t)(end - (const unsigned char *)text)) + 1;
    }
    if (total > h->text_capacity) {
        char *grown = realloc(h->text, total);
        if (!grown) return ERROR;
        h->text = grown, h->text_capacity = total;
    }
    size_t at = 0;
    for (size_t j = 0; j < n; j++) {
        const char *text = (const char *)r + offsets[j];
        const size_t length = strnlen(text, total - at);
        memcpy(h->text + at, text, length);
        h->text[at + length] = 0;
        out[j] = h->text + at;
        at += length + 1;
    }
    return OK;
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

static const size_t VALUE_BYTES[F_COUNT] = {
    [F_fmi3GetFloat64] = 8, [F_fmi3GetFloat32] = 4, [F_fmi3GetInt8] = 1, [F_fmi3GetUInt8] = 1,
    [F_fmi3GetInt16] = 2, [F_fmi3GetUInt16] = 2, [F_fmi3GetInt32] = 4, [F_fmi3GetUInt32] = 4,
    [F_fmi3GetInt64] = 8, [F_fmi3GetUInt64] = 8, [F_fmi3GetBoolean] = sizeof(bool),
    [F_fmi3SetFloat64] = 8, [F_fmi3SetFloat32] = 4, [F_fmi3SetInt8] = 1, [F_fmi3SetUInt8] = 1,
    [F_fmi3SetInt16] = 2, [F_fmi3SetUInt16] = 2, [F_fmi3SetInt32] = 4, [F_fmi3SetUInt32] = 4,
    [F_fmi3SetInt64] = 8, [F_fmi3SetUInt64] = 8, [F_fmi3SetBoolean] = sizeof(bool),
    [F_fmi2GetReal] = 8, [F_fmi2GetInteger] = sizeof(int), [F_fmi2GetBoolean] = sizeof(int),
    [F_fmi2SetReal] = 8, [F_fmi2SetInteger] = sizeof(int), [F_fmi2SetBoolean] = sizeof(int)};

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
static int proxy_step(Host *h, FunctionId f, uint64_t no_set, double t, double step, Record **out) {
    const uint32_t index = h->n_records; /* queued setters go first */
    Record *r = begin(h, f, NONE, NONE, NONE, NONE);
    if (!r) return FATAL;
    r->i[0] = no_set, r->d[0] = t, r->d[1] = step;
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
#define P_DOSTEP2(name)                                                    \
    static int p_##name(void *h, double t, double step, int no_set) {      \
        Record *r = NULL;                                                  \
        return proxy_step(h, F_##name, (uint64_t)no_set, t, step, &r);     \
    }

static int p_fmi3DoStep(void *h, double t, double step, bool no_set, bool *event, bool *terminate, bool *early,
                        double *last) {
    Record *r = NULL;
    const int status = proxy_step(h, F_fmi3DoStep, no_set, t, step, &r);
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
#define p_fmi2Instantiate cosim_proxy_fmi2Instantiate
const ProxyEntry cosim_proxy_functions[] = {ISOLATED_FUNCTIONS(ENTRY)};
const size_t cosim_proxy_count = sizeof cosim_proxy_functions / sizeof cosim_proxy_functions[0];
