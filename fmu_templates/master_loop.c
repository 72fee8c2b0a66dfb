/*
 * master_loop.c -- the master's stepping loop over flat tables (see master_loop.h).
 *
 * Typed access: FMI 3.0 getters and setters share one shape (instance, vrs, nvr, values,
 * nValues) and FMI 2.0 ones another (component, vrs, nvr, values); both are called through a
 * pointer type whose value argument is void *, and values are converted to and from the
 * double signal buffer here.
 */
#include <math.h>
#include <string.h>
#include <time.h>

#include "fmi2FunctionTypes.h"
#include "fmi3FunctionTypes.h"
#include "master_loop.h"

typedef int (*Fmi3Access)(void *instance, const uint32_t *vrs, size_t n, void *values, size_t n_values);
typedef int (*Fmi2Access)(void *instance, const uint32_t *vrs, size_t n, void *values);

static int report(Master *m, size_t component, const char *function, int status, double t) {
    if (status == ME_WARNING) {
        m->warnings++;
        return ME_OK;
    }
    if (status > ME_WARNING) {
        m->error_component = (long long)component;
        m->error_function = function;
        m->error_status = status;
        m->error_time = t;
    }
    return status;
}

double master_time(const Master *m, long long k) { return k >= m->n_steps ? m->stop : m->t0 + (double)k * m->h; }

/* ---- typed values <-> doubles ---- */

static double load(int type, int fmi_major, const unsigned char *p, size_t i) {
    switch (type) {
    case VT_FLOAT64: return ((const double *)p)[i];
    case VT_FLOAT32: return ((const float *)p)[i];
    case VT_INT8: return ((const int8_t *)p)[i];
    case VT_UINT8: return ((const uint8_t *)p)[i];
    case VT_INT16: return ((const int16_t *)p)[i];
    case VT_UINT16: return ((const uint16_t *)p)[i];
    case VT_INT32: return ((const int32_t *)p)[i];
    case VT_UINT32: return ((const uint32_t *)p)[i];
    case VT_INT64: return (double)((const int64_t *)p)[i];
    case VT_UINT64: return (double)((const uint64_t *)p)[i];
    default: return fmi_major == 2 ? ((const int *)p)[i] != 0 : ((const bool *)p)[i];
    }
}

static void store(int type, int fmi_major, unsigned char *p, size_t i, double v) {
    switch (type) {
    case VT_FLOAT64: ((double *)p)[i] = v; break;
    case VT_FLOAT32: ((float *)p)[i] = (float)v; break;
    case VT_INT8: ((int8_t *)p)[i] = (int8_t)llround(v); break;
    case VT_UINT8: ((uint8_t *)p)[i] = (uint8_t)llround(v); break;
    case VT_INT16: ((int16_t *)p)[i] = (int16_t)llround(v); break;
    case VT_UINT16: ((uint16_t *)p)[i] = (uint16_t)llround(v); break;
    case VT_INT32: ((int32_t *)p)[i] = (int32_t)llround(v); break;
    case VT_UINT32: ((uint32_t *)p)[i] = (uint32_t)llround(v); break;
    case VT_INT64: ((int64_t *)p)[i] = (int64_t)llround(v); break;
    case VT_UINT64: ((uint64_t *)p)[i] = (uint64_t)v; break;
    default:
        if (fmi_major == 2) ((int *)p)[i] = v != 0.0;
        else ((bool *)p)[i] = v != 0.0;
    }
}

static const char *const GET_NAMES[2][VT_COUNT] = {
    {"fmi2GetReal", "", "", "", "", "", "fmi2GetInteger", "", "", "", "fmi2GetBoolean"},
    {"fmi3GetFloat64", "fmi3GetFloat32", "fmi3GetInt8", "fmi3GetUInt8", "fmi3GetInt16", "fmi3GetUInt16",
     "fmi3GetInt32", "fmi3GetUInt32", "fmi3GetInt64", "fmi3GetUInt64", "fmi3GetBoolean"}};
static const char *const SET_NAMES[2][VT_COUNT] = {
    {"fmi2SetReal", "", "", "", "", "", "fmi2SetInteger", "", "", "", "fmi2SetBoolean"},
    {"fmi3SetFloat64", "fmi3SetFloat32", "fmi3SetInt8", "fmi3SetUInt8", "fmi3SetInt16", "fmi3SetUInt16",
     "fmi3SetInt32", "fmi3SetUInt32", "fmi3SetInt64", "fmi3SetUInt64", "fmi3SetBoolean"}};

static int access(const Component *c, AnyFunction function, const Batch *b, const uint32_t *vrs, void *values) {
    if (c->fmi_major == 3) return ((Fmi3Access)function)(c->instance, vrs + b->first, b->count, values, b->count);
    return ((Fmi2Access)function)(c->instance, vrs + b->first, b->count, values);
}

/* ---- reading outputs, writing inputs ---- */

/* A NaN or Inf in slot `slot` read from component `index` at time t: stop unless allowed. */
static int nonfinite(Master *m, size_t index, size_t slot, double value, double t) {
    if (m->nonfinite_slot < 0) {
        m->nonfinite_slot = (long long)slot;
        m->nonfinite_value = value;
        m->nonfinite_time = t;
    }
    if (m->allow_nonfinite) {
        m->nonfinite++;
        return ME_OK;
    }
    m->error_component = (long long)index;
    m->error_function = "";
    m->error_status = MASTER_NONFINITE;
    m->error_time = t;
    return MASTER_NONFINITE;
}

static int check_finite(Master *m, size_t index, const Batch *b, double t) {
    for (size_t i = 0; i < b->count; i++) {
        const size_t slot = m->read_slots[b->first + i];
        if (!isfinite(m->signals[slot])) {
            const int status = nonfinite(m, index, slot, m->signals[slot], t);
            if (status != ME_OK) return status;
        }
    }
    return ME_OK;
}

static int read_component(Master *m, size_t index, double t) {
    const Component *c = &m->components[index];
    for (size_t k = m->read_start[index]; k < m->read_start[index + 1]; k++) {
        const Batch *b = &m->reads[k];
        /* slots of a batch are consecutive: Float64 values land in the buffer directly */
        double *direct = &m->signals[m->read_slots[b->first]];
        void *values = b->type == VT_FLOAT64 ? (void *)direct : (void *)m->scratch;
        const int status = report(m, index, GET_NAMES[c->fmi_major == 3][b->type], access(c, c->get[b->type], b, m->read_vrs, values), t);
        if (status > ME_WARNING) return status;
        if (b->type != VT_FLOAT64)
            for (size_t i = 0; i < b->count; i++)
                m->signals[m->read_slots[b->first + i]] = load(b->type, c->fmi_major, m->scratch, i);
        if (b->type == VT_FLOAT64 || b->type == VT_FLOAT32) {
            const int finite = check_finite(m, index, b, t);
            if (finite != ME_OK) return finite;
        }
    }
    return ME_OK;
}

static double input_value(const Master *m, size_t e) {
    double v = m->write_factors[e] * m->signals[m->write_sources[e]] + m->write_offsets[e];
    for (size_t p = m->map_start[e]; p < m->map_start[e + 1]; p++)
        if (m->map_from[p] == v) return m->map_to[p];
    return v;
}

static int write_component(Master *m, size_t index, double t) {
    const Component *c = &m->components[index];
    for (size_t k = m->write_start[index]; k < m->write_start[index + 1]; k++) {
        const Batch *b = &m->writes[k];
        for (size_t i = 0; i < b->count; i++) {
            const double v = input_value(m, b->first + i);
            m->written[b->first + i] = v;
            store(b->type, c->fmi_major, m->scratch, i, v);
        }
        const int status = report(m, index, SET_NAMES[c->fmi_major == 3][b->type], access(c, c->set[b->type], b, m->write_vrs, m->scratch), t);
        if (status > ME_WARNING) return status;
    }
    return ME_OK;
}

/* Largest relative change between the inputs written last and what the outputs give now. */
static double input_change(const Master *m, size_t index) {
    double change = 0.0;
    for (size_t k = m->write_start[index]; k < m->write_start[index + 1]; k++) {
        const Batch *b = &m->writes[k];
        for (size_t e = b->first; e < b->first + b->count; e++) {
            const double v = input_value(m, e);
            change = fmax(change, fabs(v - m->written[e]) / (1.0 + fabs(v)));
        }
    }
    return change;
}

/* ---- stepping ---- */

static int step_component(Master *m, size_t index, double t, double h, bool rollback_possible) {
    Component *c = &m->components[index];
    if (c->terminated) return ME_OK;
    int status;
    bool terminate = false;
    if (c->driver) {
        status = report(m, index, "doStep (Model Exchange driver)", me_driver_do_step(c->driver, t, h, &terminate), t);
    } else if (c->fmi_major == 3) {
        bool event = false, early = false;
        double last = t;
        status = report(m, index, "fmi3DoStep",
                        ((fmi3DoStepTYPE *)c->do_step)(c->instance, t, h, !rollback_possible, &event, &terminate,
                                                       &early, &last),
                        t);
    } else {
        status = report(m, index, "fmi2DoStep",
                        ((fmi2DoStepTYPE *)c->do_step)(c->instance, t, h, rollback_possible ? fmi2False : fmi2True), t);
    }
    if (terminate && !c->terminated) {
        c->terminated = true;
        if (m->terminated_by < 0) m->terminated_by = (long long)index;
    }
    return status;
}

static int save_state(Master *m, size_t index, double t) {
    Component *c = &m->components[index];
    if (c->driver) return report(m, index, "fmiGetFMUState (Model Exchange driver)", me_driver_save(c->driver), t);
    if (c->fmi_major == 3)
        return report(m, index, "fmi3GetFMUState", ((fmi3GetFMUStateTYPE *)c->get_state)(c->instance, &c->saved_state), t);
    return report(m, index, "fmi2GetFMUstate", ((fmi2GetFMUstateTYPE *)c->get_state)(c->instance, &c->saved_state), t);
}

static int restore_state(Master *m, size_t index, double t) {
    Component *c = &m->components[index];
    if (c->driver) return report(m, index, "fmiSetFMUState (Model Exchange driver)", me_driver_restore(c->driver), t);
    if (c->fmi_major == 3)
        return report(m, index, "fmi3SetFMUState", ((fmi3SetFMUStateTYPE *)c->set_state)(c->instance, c->saved_state), t);
    return report(m, index, "fmi2SetFMUstate", ((fmi2SetFMUstateTYPE *)c->set_state)(c->instance, c->saved_state), t);
}

#define TRY(expression)                          \
    do {                                         \
        const int status_ = (expression);        \
        if (status_ > ME_WARNING) return status_; \
    } while (0)

static double stage_change(const Master *m, size_t s) {
    double change = 0.0;
    for (size_t j = m->stage_start[s]; j < m->stage_start[s + 1]; j++)
        change = fmax(change, input_change(m, m->stage_members[j]));
    return change;
}

static int loop_diverged(Master *m, size_t s, double t) {
    m->error_component = (long long)m->stage_members[m->stage_start[s]];
    m->error_function = "algebraic loop";
    m->error_status = MASTER_LOOP_DIVERGED;
    m->error_time = t;
    return MASTER_LOOP_DIVERGED;
}

/* Fixed-point iteration of a loop stage over one step: step, compare the inputs the new
 * outputs give with those used, roll back and repeat until they agree. */
static int step_loop(Master *m, size_t s, double t, double h) {
    const size_t begin = m->stage_start[s], end = m->stage_start[s + 1];
    for (size_t j = begin; j < end; j++) TRY(save_state(m, m->stage_members[j], t));
    for (int iteration = 1; iteration <= m->max_iterations; iteration++) {
        m->loop_iterations++;
        for (size_t j = begin; j < end; j++) {
            const size_t c = m->stage_members[j];
            TRY(write_component(m, c, t));
            TRY(step_component(m, c, t, h, true));
            TRY(read_component(m, c, t + h));
        }
        if (stage_change(m, s) <= m->loop_tolerance) return ME_OK;
        for (size_t j = begin; j < end; j++) TRY(restore_state(m, m->stage_members[j], t));
    }
    return loop_diverged(m, s, t);
}

static bool due(const Master *m, size_t c, long long k) { return k % m->components[c].multiple == 0; }

static double step_size(const Master *m, size_t c, long long k, double t) {
    return master_time(m, k + m->components[c].multiple) - t;
}

static int step_gauss_seidel(Master *m, long long k, double t) {
    for (size_t s = 0; s < m->n_stages; s++) {
        const size_t first = m->stage_members[m->stage_start[s]];
        if (!due(m, first, k)) continue;
        if (m->stage_is_loop[s]) {
            TRY(step_loop(m, s, t, step_size(m, first, k, t)));
            continue;
        }
        for (size_t j = m->stage_start[s]; j < m->stage_start[s + 1]; j++) {
            const size_t c = m->stage_members[j];
            const double h = step_size(m, c, k, t);
            TRY(write_component(m, c, t));
            TRY(step_component(m, c, t, h, false));
            TRY(read_component(m, c, t + h));
        }
    }
    return ME_OK;
}

static int step_jacobi(Master *m, long long k, double t) {
    for (size_t c = 0; c < m->n_components; c++)
        if (due(m, c, k)) TRY(write_component(m, c, t));
    for (size_t c = 0; c < m->n_components; c++)
        if (due(m, c, k)) TRY(step_component(m, c, t, step_size(m, c, k, t), false));
    for (size_t c = 0; c < m->n_components; c++)
        if (due(m, c, k)) TRY(read_component(m, c, t + step_size(m, c, k, t)));
    return ME_OK;
}

static bool past(double deadline) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec + 1e-9 * (double)now.tv_nsec >= deadline;
}

void master_record(const Master *m, double t, double *row) {
    row[0] = t;
    for (size_t j = 0; j < m->n_record; j++) row[1 + j] = m->signals[m->record_slots[j]];
}

int master_steps(Master *m, long long k_begin, long long k_end, double *rows, long long *done) {
    *done = 0;
    for (long long k = k_begin; k < k_end; k++) {
        const double t = master_time(m, k);
        const int status = m->jacobi ? step_jacobi(m, k, t) : step_gauss_seidel(m, k, t);
        if (status > ME_WARNING) return status;
        master_record(m, master_time(m, k + 1), rows + (size_t)(k - k_begin) * (1 + m->n_record));
        ++*done;
        if (m->terminated_by >= 0) return MASTER_TERMINATED;
        if (m->deadline > 0 && past(m->deadline)) return MASTER_TIMEOUT;
    }
    return MASTER_OK;
}

/* ---- initialization ---- */

int master_read_all(Master *m) {
    for (size_t c = 0; c < m->n_components; c++) TRY(read_component(m, c, m->t0));
    return ME_OK;
}

int master_initialize(Master *m) {
    for (size_t s = 0; s < m->n_stages; s++) {
        const size_t begin = m->stage_start[s], end = m->stage_start[s + 1];
        const int rounds = m->stage_is_loop[s] ? m->max_iterations : 1;
        for (int round = 1; round <= rounds; round++) {
            for (size_t j = begin; j < end; j++) {
                TRY(write_component(m, m->stage_members[j], m->t0));
                TRY(read_component(m, m->stage_members[j], m->t0));
            }
            if (!m->stage_is_loop[s] || stage_change(m, s) <= m->loop_tolerance) break;
            if (round == rounds) return loop_diverged(m, s, m->t0);
        }
    }
    return ME_OK;
}
