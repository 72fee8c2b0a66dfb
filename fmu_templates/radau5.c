/*
 * radau5.c -- Radau IIA order 5 (see radau5.h for the method and the reuse rules).
 *
 * One step, as in Hairer & Wanner IV.8:
 *   newton()          simplified Newton iteration on the transformed stage increments
 *   estimate_error()  embedded error estimate, refined on first and rejected steps
 *   accept_step()     update x, the dense output, Gustafsson's step-size prediction and the
 *                     Jacobian/LU reuse decision
 * radau5_step() strings them together and handles rejections.
 */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dense_lu.h"
#include "radau5.h"

/* ---- Method coefficients (Hairer & Wanner IV.8, Table 5.6 and (8.18)) ---- */

/* collocation nodes c1, c2 (c3 = 1) and differences used by the dense output */
#define C1 0.1550510257216821901803
#define C2 0.6449489742783178098197
#define C1M1 (-0.8449489742783178098197)
#define C2M1 (-0.3550510257216821901803)
#define C1MC2 (-0.4898979485566356196395)
/* error estimator weights (8.19), divided by h at use */
#define DD1 (-10.04880939982741556246)
#define DD2 1.382142733160748895794
#define DD3 (-1.0 / 3.0)
/* eigenvalues of A^-1: one real (U1), one complex pair (ALPHA +- i BETA) */
#define U1 3.637834252744495732208
#define ALPHA 2.681082873627752133896
#define BETA 3.050430199247410569426
/* T and T^-1 that transform A^-1 to block diagonal form */
static const double T11 = 9.1232394870892942792e-02, T12 = -0.14125529502095420843,
                    T13 = -3.0029194105147424492e-02, T21 = 0.24171793270710701896,
                    T22 = 0.20412935229379993199, T23 = 0.38294211275726193779,
                    T31 = 0.96604818261509293619; /* T32 = 1, T33 = 0 */
static const double TI11 = 4.3255798900631553510, TI12 = 0.33919925181580986954,
                    TI13 = 0.54177053993587487119, TI21 = -4.1787185915519047273,
                    TI22 = -0.32768282076106238708, TI23 = 0.47662355450055045196,
                    TI31 = -0.50287263494578687595, TI32 = 2.5719269498556054292,
                    TI33 = -0.59603920482822492497;

/* ---- Control parameters (RADAU5's defaults) ---- */

#define UNIT_ROUNDOFF 1e-16
#define NEWTON_MAXITER 7             /* NIT */
#define SAFETY 0.9                   /* SAFE */
#define JACOBIAN_REUSE_THETA 0.001   /* THET */
#define STEP_KEEP_LOW 1.0            /* QUOT1 */
#define STEP_KEEP_HIGH 1.2           /* QUOT2 */
/* Large sparse systems (the sparse LU): RADAU5's advice for large systems, where an LU costs
 * far more than a right-hand side: keep the Jacobian unless Newton converged slower than
 * this, and the step (so the LU factors) while the step-size quotient stays in the window. */
#define LARGE_REUSE_THETA 0.1        /* THET */
#define LARGE_KEEP_LOW 0.99          /* QUOT1 */
#define LARGE_KEEP_HIGH 2.0          /* QUOT2 */
/* QUOT2 where the factors hold more than FILL_FOR_WIDER_WINDOW times the Newton matrix's
 * entries (2-D grids, not 1-D chains): an LU of both Newton matrices then costs several
 * steps' solves and f evaluations, and the wider window saves more in LUs than it adds in
 * steps (2-D Brusselator, 2048 states, rtol 1e-4: 33 instead of 36 LUs, 79 instead of 72
 * steps, 5-8% less time; on a 1-D rod it only added steps) */
#define FILL_FOR_WIDER_WINDOW 3.0
#define WIDE_KEEP_HIGH 3.0
#define MAX_QUOT 5.0                 /* FACL: h_new >= h / 5 */
#define MIN_QUOT 0.125               /* FACR: h_new <= 8 h */
/* RADAU5 controls 0.1 rtol^(2/3) instead of rtol: its error estimate is of lower order than
 * the method, so on smooth problems the achieved error is near rtol. On stiff problems order
 * reduction makes the achieved error track the controlled tolerance itself, so we loosen the
 * request by at most MAX_TOLERANCE_LOOSENING (the cap only acts below rtol = 1e-6). */
#define TOLERANCE_EXPONENT (2.0 / 3.0)
#define MAX_TOLERANCE_LOOSENING 10.0
#define MAX_SINGULAR_LU 5
#define FIRST_STEP_REJECT_FACTOR 0.1 /* a rejected first step shrinks tenfold */
#define NEWTON_FAILURE_FACTOR 0.5    /* "unexpected step rejection" */
#define MAX_REJECTIONS_IN_A_ROW 200
/* sparse LU when n > SPARSE_MIN_STATES and at most this share of entries is structurally
 * nonzero; denser patterns factor faster dense */
#define SPARSE_MAX_DENSITY 0.25
/* initial step heuristic (Hairer, Norsett & Wanner I, II.4) for an error estimator of order 3 */
#define ESTIMATOR_ORDER 3

typedef enum { NewtonConverged, NewtonShrink, NewtonFailed, NewtonRhsError } NewtonOutcome;

static double rms_norm(size_t n, const double *v, const double *scale) {
    double sum = 0.0;
    for (size_t i = 0; i < n; i++) {
        const double q = v[i] / scale[i];
        sum += q * q;
    }
    return n ? sqrt(sum / (double)n) : 0.0;
}

static void update_scale(Radau5 *r) {
    for (size_t i = 0; i < r->problem.n; i++) r->scal[i] = r->atol[i] + r->rtol[i] * fabs(r->x[i]);
}

static int call_rhs(Radau5 *r, double t, const double *x, double *dx) {
    r->mem.count.rhs_calls++;
    return r->problem.rhs(r->problem.context, t, x, dx);
}

/* ---------------------------------------------------------------- set-up */

static bool build_patterns(Radau5 *r) {
    const size_t n = r->problem.n;
    if (r->problem.column_start) {
        r->nnz = r->problem.column_start[n];
        r->column_start = malloc((n + 1) * sizeof(size_t));
        r->rows = malloc((r->nnz ? r->nnz : 1) * sizeof(size_t));
        if (!r->column_start || !r->rows) return false;
        memcpy(r->column_start, r->problem.column_start, (n + 1) * sizeof(size_t));
        memcpy(r->rows, r->problem.rows, r->nnz * sizeof(size_t));
    } else {
        r->nnz = n * n;
        r->column_start = malloc((n + 1) * sizeof(size_t));
        r->rows = malloc((r->nnz ? r->nnz : 1) * sizeof(size_t));
        if (!r->column_start || !r->rows) return false;
        for (size_t j = 0; j <= n; j++) r->column_start[j] = j * n;
        for (size_t k = 0; k < r->nnz; k++) r->rows[k] = k % n;
    }
    return true;
}

/* The Newton matrices have the Jacobian's pattern plus the whole diagonal. */
static bool build_newton_pattern(Radau5 *r) {
    const size_t n = r->problem.n;
    size_t *start = malloc((n + 1) * sizeof(size_t));
    size_t *rows = malloc((r->nnz + n) * sizeof(size_t));
    r->diagonal = malloc(n * sizeof(size_t));
    r->jacobian_position = malloc((r->nnz ? r->nnz : 1) * sizeof(size_t));
    bool ok = start && rows && r->diagonal && r->jacobian_position;
    size_t count = 0;
    for (size_t j = 0; ok && j < n; j++) {
        start[j] = count;
        bool diagonal_done = false;
        for (size_t p = r->column_start[j]; p < r->column_start[j + 1]; p++) {
            const size_t i = r->rows[p];
            if (!diagonal_done && i >= j) {
                if (i > j) rows[count++] = j;
                r->diagonal[j] = count - (i > j ? 1 : 0);
                diagonal_done = true;
            }
            r->jacobian_position[p] = count;
            rows[count++] = i;
        }
        if (!diagonal_done) {
            r->diagonal[j] = count;
            rows[count++] = j;
        }
    }
    if (ok) {
        start[n] = count;
        ok = sparse_pattern_init(&r->newton_pattern, n, start, rows)
             && sparse_lu_init(&r->sparse_e1, &r->newton_pattern)
             && sparse_lu_complex_init(&r->sparse_e2, &r->newton_pattern);
    }
    free(start);
    free(rows);
    if (ok) {
        r->e1 = malloc(count * sizeof(double));
        r->e2 = malloc(count * sizeof(double complex));
        ok = r->e1 && r->e2;
    }
    return ok;
}

/* Greedy column grouping for finite differences: columns in one group share no row, so one
 * evaluation of f yields all of them (Curtis, Powell & Reid). */
static bool build_difference_groups(Radau5 *r) {
    const size_t n = r->problem.n;
    size_t *row_group = malloc(n * sizeof(size_t));
    r->fd_group = malloc(n * sizeof(size_t));
    if (!row_group || !r->fd_group) {
        free(row_group);
        return false;
    }
    for (size_t j = 0; j < n; j++) r->fd_group[j] = SIZE_MAX;
    size_t assigned = 0;
    r->fd_groups = 0;
    while (assigned < n) {
        const size_t group = r->fd_groups++;
        for (size_t i = 0; i < n; i++) row_group[i] = SIZE_MAX;
        for (size_t j = 0; j < n; j++) {
            if (r->fd_group[j] != SIZE_MAX) continue;
            bool free_rows = true;
            for (size_t p = r->column_start[j]; p < r->column_start[j + 1] && free_rows; p++)
                free_rows = row_group[r->rows[p]] != group;
            if (!free_rows) continue;
            for (size_t p = r->column_start[j]; p < r->column_start[j + 1]; p++)
                row_group[r->rows[p]] = group;
            r->fd_group[j] = group;
            assigned++;
        }
    }
    free(row_group);
    return true;
}

RadauStatus radau5_init(Radau5 *r, const RadauProblem *problem) {
    memset(r, 0, sizeof(*r));
    r->problem = *problem;
    const size_t n = problem->n;
    const size_t m = n ? n : 1;
    r->x = calloc(m, sizeof(double));
    r->fx = calloc(m, sizeof(double));
    r->cont = calloc(4 * m, sizeof(double));
    r->rtol = malloc(m * sizeof(double));
    r->atol = malloc(m * sizeof(double));
    double *work[] = {NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL};
    for (size_t k = 0; k < sizeof(work) / sizeof(work[0]); k++) work[k] = calloc(m, sizeof(double));
    r->z1 = work[0], r->z2 = work[1], r->z3 = work[2], r->f1 = work[3], r->f2 = work[4];
    r->f3 = work[5], r->scal = work[6], r->tmp = work[7], r->tmp2 = work[8];
    r->ctmp = calloc(m, sizeof(double complex));
    bool ok = r->x && r->fx && r->cont && r->rtol && r->atol && r->ctmp;
    for (size_t k = 0; k < sizeof(work) / sizeof(work[0]); k++) ok = ok && work[k];
    ok = ok && build_patterns(r);
    if (!ok) {
        radau5_free(r);
        return RadauOutOfMemory;
    }
    double tightest = 1.0;
    for (size_t i = 0; i < n; i++) {
        const double ratio = problem->atol[i] / problem->rtol[i];
        r->rtol[i] = fmin(0.1 * pow(problem->rtol[i], TOLERANCE_EXPONENT),
                          MAX_TOLERANCE_LOOSENING * problem->rtol[i]);
        r->atol[i] = r->rtol[i] * ratio;
        if (r->rtol[i] < tightest) tightest = r->rtol[i];
    }
    r->newton_tol = fmax(10.0 * UNIT_ROUNDOFF / tightest, fmin(0.03, sqrt(tightest)));
    r->jacobian = calloc(r->nnz ? r->nnz : 1, sizeof(double));
    r->sparse = n > SPARSE_MIN_STATES && (double)r->nnz <= SPARSE_MAX_DENSITY * (double)n * (double)n;
    if (r->sparse) {
        ok = r->jacobian && build_newton_pattern(r);
    } else {
        r->e1 = malloc(m * m * sizeof(double));
        r->e2 = malloc(m * m * sizeof(double complex));
        r->pivot1 = malloc(m * sizeof(size_t));
        r->pivot2 = malloc(m * sizeof(size_t));
        ok = r->jacobian && r->e1 && r->e2 && r->pivot1 && r->pivot2;
    }
    if (ok) ok = build_difference_groups(r); /* also where the analytic Jacobian fails */
    if (!ok) {
        radau5_free(r);
        return RadauOutOfMemory;
    }
    return RadauOK;
}

void radau5_free(Radau5 *r) {
    double *buffers[] = {r->x, r->fx, r->cont, r->jacobian, r->rtol, r->atol, r->z1, r->z2,
                         r->z3, r->f1, r->f2, r->f3, r->scal, r->tmp, r->tmp2, r->e1};
    for (size_t k = 0; k < sizeof(buffers) / sizeof(buffers[0]); k++) free(buffers[k]);
    free(r->e2);
    free(r->ctmp);
    free(r->column_start);
    free(r->rows);
    free(r->pivot1);
    free(r->pivot2);
    free(r->diagonal);
    free(r->jacobian_position);
    free(r->fd_group);
    if (r->sparse) {
        sparse_lu_free(&r->sparse_e1);
        sparse_lu_complex_free(&r->sparse_e2);
        sparse_pattern_free(&r->newton_pattern);
    }
    memset(r, 0, sizeof(*r));
}

/* ------------------------------------------------------- Jacobian and LU */

static int difference_jacobian(Radau5 *r) {
    const double t = r->mem.t;
    for (size_t group = 0; group < r->fd_groups; group++) {
        for (size_t j = 0; j < r->problem.n; j++) {
            if (r->fd_group[j] != group) continue;
            r->tmp2[j] = sqrt(UNIT_ROUNDOFF * fmax(1e-5, fabs(r->x[j])));
            r->f1[j] = r->x[j];
            r->x[j] += r->tmp2[j];
        }
        const int status = r->problem.rhs(r->problem.context, t, r->x, r->tmp);
        for (size_t j = 0; j < r->problem.n; j++) {
            if (r->fd_group[j] != group) continue;
            r->x[j] = r->f1[j];
            for (size_t p = r->column_start[j]; p < r->column_start[j + 1]; p++)
                r->jacobian[p] = (r->tmp[r->rows[p]] - r->fx[r->rows[p]]) / r->tmp2[j];
        }
        if (status != 0) return status;
    }
    return 0;
}

static int evaluate_jacobian(Radau5 *r) {
    r->mem.count.jacobians++;
    r->lu_h = 0.0;
    if (r->problem.jacobian) {
        const int status = r->problem.jacobian(r->problem.context, r->mem.t, r->x, r->fx, r->jacobian);
        /* > 0: not at this point (a loop singular there, whose solution holds): differences */
        if (status <= 0) return status;
    }
    return difference_jacobian(r);
}

/* E1 = U1/h I - J and E2 = (ALPHA + i BETA)/h I - J, factored. Returns 0 or singular. */
static int factor_newton_matrices(Radau5 *r, double h) {
    const size_t n = r->problem.n;
    const double fac1 = U1 / h;
    const double complex fac2 = (ALPHA + BETA * I) / h;
    int singular;
    r->mem.count.lu++;
    if (r->sparse) {
        const size_t count = r->newton_pattern.nnz;
        for (size_t k = 0; k < count; k++) r->e1[k] = 0.0, r->e2[k] = 0.0;
        for (size_t k = 0; k < r->nnz; k++) {
            r->e1[r->jacobian_position[k]] = -r->jacobian[k];
            r->e2[r->jacobian_position[k]] = -r->jacobian[k];
        }
        for (size_t i = 0; i < n; i++) r->e1[r->diagonal[i]] += fac1, r->e2[r->diagonal[i]] += fac2;
        singular = sparse_lu_factor(&r->sparse_e1, r->e1);
        /* E2 has E1's pattern and, as a rule, its diagonal pivots: its first factorization
         * starts from E1's structure instead of searching the graph again */
        if (!singular && !r->sparse_e2.factored)
            sparse_lu_complex_adopt_structure(&r->sparse_e2, &r->sparse_e1);
        if (!singular) singular = sparse_lu_complex_factor(&r->sparse_e2, r->e2);
    } else {
        for (size_t k = 0; k < n * n; k++) r->e1[k] = 0.0, r->e2[k] = 0.0;
        for (size_t j = 0; j < n; j++) {
            for (size_t p = r->column_start[j]; p < r->column_start[j + 1]; p++) {
                r->e1[r->rows[p] * n + j] = -r->jacobian[p];
                r->e2[r->rows[p] * n + j] = -r->jacobian[p];
            }
        }
        for (size_t i = 0; i < n; i++) r->e1[i * n + i] += fac1, r->e2[i * n + i] += fac2;
        singular = dense_lu_factor(n, r->e1, r->pivot1);
        if (!singular) singular = dense_lu_factor_complex(n, r->e2, r->pivot2);
    }
    r->lu_h = singular ? 0.0 : h;
    return singular;
}

static void solve_real(Radau5 *r, double *b) {
    if (r->sparse)
        sparse_lu_solve(&r->sparse_e1, b);
    else
        dense_lu_solve(r->problem.n, r->e1, r->pivot1, b);
}

/* Solve E2 (b_re + i b_im) in place. */
static void solve_complex(Radau5 *r, double *b_re, double *b_im) {
    const size_t n = r->problem.n;
    for (size_t i = 0; i < n; i++) r->ctmp[i] = b_re[i] + b_im[i] * I;
    if (r->sparse)
        sparse_lu_complex_solve(&r->sparse_e2, r->ctmp);
    else
        dense_lu_solve_complex(n, r->e2, r->pivot2, r->ctmp);
    for (size_t i = 0; i < n; i++) b_re[i] = creal(r->ctmp[i]), b_im[i] = cimag(r->ctmp[i]);
}

/* ---------------------------------------------------------- Newton */

/* Starting values: zero on a first step, else the last collocation polynomial extrapolated. */
static void newton_start(Radau5 *r, double h) {
    const size_t n = r->problem.n;
    if (r->mem.first) {
        for (size_t i = 0; i < n; i++) {
            r->z1[i] = r->z2[i] = r->z3[i] = 0.0;
            r->f1[i] = r->f2[i] = r->f3[i] = 0.0;
        }
        return;
    }
    const double c3q = h / r->mem.h_old, c1q = C1 * c3q, c2q = C2 * c3q;
    const double *ak1 = r->cont + n, *ak2 = r->cont + 2 * n, *ak3 = r->cont + 3 * n;
    for (size_t i = 0; i < n; i++) {
        const double z1 = c1q * (ak1[i] + (c1q - C2M1) * (ak2[i] + (c1q - C1M1) * ak3[i]));
        const double z2 = c2q * (ak1[i] + (c2q - C2M1) * (ak2[i] + (c2q - C1M1) * ak3[i]));
        const double z3 = c3q * (ak1[i] + (c3q - C2M1) * (ak2[i] + (c3q - C1M1) * ak3[i]));
        r->z1[i] = z1, r->z2[i] = z2, r->z3[i] = z3;
        r->f1[i] = TI11 * z1 + TI12 * z2 + TI13 * z3;
        r->f2[i] = TI21 * z1 + TI22 * z2 + TI23 * z3;
        r->f3[i] = TI31 * z1 + TI32 * z2 + TI33 * z3;
    }
}

/* f at the three stages, stored in z1..z3 (which held the stage increments). */
static int evaluate_stages(Radau5 *r, double h) {
    const size_t n = r->problem.n;
    const double t = r->mem.t;
    double *stage[3] = {r->z1, r->z2, r->z3};
    const double node[3] = {C1, C2, 1.0};
    for (int s = 0; s < 3; s++) {
        for (size_t i = 0; i < n; i++) r->tmp[i] = r->x[i] + stage[s][i];
        const int status = call_rhs(r, s == 2 ? t + h : t + node[s] * h, r->tmp, stage[s]);
        if (status != 0) return status;
    }
    return 0;
}

/* One simplified Newton correction: z1..z3 hold f at the stages on entry and the
 * corrections of the transformed increments f1..f3 on return. */
static void newton_correction(Radau5 *r, double h) {
    const size_t n = r->problem.n;
    const double fac1 = U1 / h, alphn = ALPHA / h, betan = BETA / h;
    for (size_t i = 0; i < n; i++) {
        const double a1 = r->z1[i], a2 = r->z2[i], a3 = r->z3[i];
        const double s2 = -r->f2[i], s3 = -r->f3[i];
        r->z1[i] = TI11 * a1 + TI12 * a2 + TI13 * a3 - r->f1[i] * fac1;
        r->z2[i] = TI21 * a1 + TI22 * a2 + TI23 * a3 + s2 * alphn - s3 * betan;
        r->z3[i] = TI31 * a1 + TI32 * a2 + TI33 * a3 + s3 * alphn + s2 * betan;
    }
    solve_real(r, r->z1);
    solve_complex(r, r->z2, r->z3);
    r->mem.count.solves++;
}

static NewtonOutcome newton(Radau5 *r, double h, double *shrink, int *iterations) {
    const size_t n = r->problem.n;
    RadauMemory *m = &r->mem;
    newton_start(r, h);
    double fac_con = pow(fmax(m->fac_con, UNIT_ROUNDOFF), 0.8);
    double theta = JACOBIAN_REUSE_THETA, dyno_old = 1.0, thq_old = 1.0;
    for (int newt = 0;;) {
        if (newt >= NEWTON_MAXITER) return NewtonFailed;
        const int status = evaluate_stages(r, h);
        if (status < 0) return NewtonRhsError;
        if (status > 0) return NewtonFailed;
        newton_correction(r, h);
        newt++;
        double dyno = 0.0;
        for (size_t i = 0; i < n; i++) {
            const double s = r->scal[i];
            dyno += (r->z1[i] / s) * (r->z1[i] / s) + (r->z2[i] / s) * (r->z2[i] / s)
                    + (r->z3[i] / s) * (r->z3[i] / s);
        }
        dyno = sqrt(dyno / (double)(3 * n));
        if (newt > 1 && newt < NEWTON_MAXITER) {
            const double thq = dyno / dyno_old;
            theta = newt == 2 ? thq : sqrt(thq * thq_old);
            thq_old = thq;
            if (theta >= 0.99) return NewtonFailed;
            fac_con = theta / (1.0 - theta);
            const double remaining = NEWTON_MAXITER - 1 - newt;
            const double dyth = fac_con * dyno * pow(theta, remaining) / r->newton_tol;
            if (dyth >= 1.0) {
                /* convergence too slow to finish in time: retry with the step predicted
                 * to converge (Hairer & Wanner IV.8 (8.10)-(8.11)) */
                const double qnewt = fmax(1e-4, fmin(20.0, dyth));
                *shrink = 0.8 * pow(qnewt, -1.0 / (4.0 + remaining));
                return NewtonShrink;
            }
        }
        dyno_old = fmax(dyno, UNIT_ROUNDOFF);
        for (size_t i = 0; i < n; i++) {
            const double f1 = r->f1[i] + r->z1[i], f2 = r->f2[i] + r->z2[i], f3 = r->f3[i] + r->z3[i];
            r->f1[i] = f1, r->f2[i] = f2, r->f3[i] = f3;
            r->z1[i] = T11 * f1 + T12 * f2 + T13 * f3;
            r->z2[i] = T21 * f1 + T22 * f2 + T23 * f3;
            r->z3[i] = T31 * f1 + f2;
        }
        if (fac_con * dyno <= r->newton_tol) {
            m->fac_con = fac_con;
            m->theta = theta;
            *iterations = newt;
            return NewtonConverged;
        }
    }
}

/* ---------------------------------------------------- error and acceptance */

/* Embedded error estimate (8.19)-(8.20); on a first or rejected step a large estimate is
 * refined by one more solve so that stiff components do not inflate it. */
static int estimate_error(Radau5 *r, double h, double *err) {
    const size_t n = r->problem.n;
    const double hee1 = DD1 / h, hee2 = DD2 / h, hee3 = DD3 / h;
    for (size_t i = 0; i < n; i++) {
        r->f2[i] = hee1 * r->z1[i] + hee2 * r->z2[i] + hee3 * r->z3[i];
        r->tmp[i] = r->f2[i] + r->fx[i];
    }
    solve_real(r, r->tmp);
    *err = fmax(rms_norm(n, r->tmp, r->scal), 1e-10);
    if (*err < 1.0 || !(r->mem.first || r->mem.reject)) return 0;
    for (size_t i = 0; i < n; i++) r->tmp2[i] = r->x[i] + r->tmp[i];
    const int status = call_rhs(r, r->mem.t, r->tmp2, r->f1);
    if (status != 0) return status;
    for (size_t i = 0; i < n; i++) r->tmp[i] = r->f1[i] + r->f2[i];
    solve_real(r, r->tmp);
    *err = fmax(rms_norm(n, r->tmp, r->scal), 1e-10);
    return 0;
}

/* Step-size factor h / h_new from the error and the Newton effort (IV.8 (8.25)). */
static double step_quotient(double err, int newton_iterations) {
    const double cfac = SAFETY * (1 + 2 * NEWTON_MAXITER);
    const double fac = fmin(SAFETY, cfac / (newton_iterations + 2 * NEWTON_MAXITER));
    return fmax(MIN_QUOT, fmin(MAX_QUOT, pow(err, 0.25) / fac));
}

/* Newton's convergence rate below which the Jacobian is kept for the next step. */
static double reuse_theta(const Radau5 *r) { return r->sparse ? LARGE_REUSE_THETA : JACOBIAN_REUSE_THETA; }

/* The step-size quotients within which the step, and so the LU, is kept. */
static double keep_low(const Radau5 *r) { return r->sparse ? LARGE_KEEP_LOW : STEP_KEEP_LOW; }

static double keep_high(const Radau5 *r) {
    if (!r->sparse) return STEP_KEEP_HIGH;
    const size_t n = r->problem.n;
    const double fill = (double)(r->sparse_e1.l_start[n] + r->sparse_e1.u_start[n]);
    return r->sparse_e1.factored && fill > FILL_FOR_WIDER_WINDOW * (double)r->newton_pattern.nnz
               ? WIDE_KEEP_HIGH : LARGE_KEEP_HIGH;
}

static int accept_step(Radau5 *r, double h, double err, double quot, bool last) {
    const size_t n = r->problem.n;
    RadauMemory *m = &r->mem;
    m->first = false;
    m->count.accepted++;
    if (m->count.accepted > 1) {
        /* Gustafsson's predictive controller (IV.8 (8.27)) */
        const double gus = (m->h_acc / h) * pow(err * err / m->err_acc, 0.25) / SAFETY;
        quot = fmax(quot, fmax(MIN_QUOT, fmin(MAX_QUOT, gus)));
    }
    m->h_acc = h;
    m->err_acc = fmax(1e-2, err);
    double h_new = h / quot;
    const double t_new = last ? m->t_limit : m->t + h;
    for (size_t i = 0; i < n; i++) {
        const double z1 = r->z1[i], z2 = r->z2[i], z3 = r->z3[i];
        r->x[i] += z3;
        r->cont[i] = r->x[i];
        r->cont[n + i] = (z2 - z3) / C2M1;
        const double ak = (z1 - z2) / C1MC2;
        const double acont3 = (ak - z1 / C1) / C2;
        r->cont[2 * n + i] = (ak - r->cont[n + i]) / C1M1;
        r->cont[3 * n + i] = r->cont[2 * n + i] - acont3;
    }
    m->t_old = m->t;
    m->t = t_new;
    m->h_old = h;
    m->jacobian_fresh = false;
    update_scale(r);
    const int status = call_rhs(r, m->t, r->x, r->fx);
    if (last) {
        m->h = m->h_opt;
    } else {
        if (m->reject) h_new = fmin(h_new, h);
        m->h_opt = fmin(h, h_new);
        const double qt = h_new / h;
        const bool keep_step = m->theta <= reuse_theta(r) && qt >= keep_low(r) && qt <= keep_high(r);
        m->h = keep_step ? h : h_new; /* an unchanged h keeps the LU factors */
    }
    m->reject = false;
    m->need_jacobian = m->theta > reuse_theta(r);
    return status;
}

/* After a rejection: the step to retry with, and a fresh Jacobian unless it is fresh already. */
static void prepare_retry(Radau5 *r, double h_retry) {
    r->mem.h = h_retry;
    r->mem.reject = true;
    if (!r->mem.jacobian_fresh) r->mem.need_jacobian = true;
}

RadauStatus radau5_step(Radau5 *r, double t_limit) {
    RadauMemory *m = &r->mem;
    int singular_count = 0, rejections = 0;
    m->t_limit = t_limit;
    for (;;) {
        if (rejections > MAX_REJECTIONS_IN_A_ROW) return RadauTooManyRejections;
        if (m->need_jacobian) {
            if (evaluate_jacobian(r) < 0) return RadauRhsError;
            m->jacobian_fresh = true;
            m->need_jacobian = false;
        }
        double h = m->h;
        bool last = false;
        if (m->t + h * 1.0001 >= t_limit) {
            h = t_limit - m->t;
            last = true;
        }
        if (0.1 * fabs(h) <= fabs(m->t) * UNIT_ROUNDOFF || h <= 0.0) return RadauStepTooSmall;
        if (h != r->lu_h && r->sparse && !m->jacobian_fresh) {
            /* Large sparse systems: a factorization costs far more than a Jacobian (a few
             * grouped f evaluations), so one that the step size forces is made with a fresh
             * Jacobian; the stale one would slow Newton at the new h and ask for a second
             * factorization at the next step. */
            if (evaluate_jacobian(r) < 0) return RadauRhsError;
            m->jacobian_fresh = true;
            m->need_jacobian = false;
        }
        if (h != r->lu_h && factor_newton_matrices(r, h)) {
            if (++singular_count >= MAX_SINGULAR_LU) return RadauSingularMatrix;
            prepare_retry(r, h * NEWTON_FAILURE_FACTOR);
            rejections++;
            continue;
        }
        m->count.steps++;
        double shrink = NEWTON_FAILURE_FACTOR;
        int iterations = 0;
        const NewtonOutcome outcome = newton(r, h, &shrink, &iterations);
        if (outcome == NewtonRhsError) return RadauRhsError;
        if (outcome != NewtonConverged) {
            prepare_retry(r, h * shrink);
            rejections++;
            continue;
        }
        double err;
        const int status = estimate_error(r, h, &err);
        if (status < 0) return RadauRhsError;
        if (status > 0) {
            prepare_retry(r, h * NEWTON_FAILURE_FACTOR);
            rejections++;
            continue;
        }
        const double quot = step_quotient(err, iterations);
        if (err < 1.0) return accept_step(r, h, err, quot, last) < 0 ? RadauRhsError : RadauOK;
        if (m->count.accepted >= 1) m->count.rejected++;
        prepare_retry(r, m->first ? h * FIRST_STEP_REJECT_FACTOR : h / quot);
        rejections++;
    }
}

/* --------------------------------------------------------- restart */

static double initial_step(Radau5 *r) {
    const size_t n = r->problem.n;
    const double d0 = rms_norm(n, r->x, r->scal), d1 = rms_norm(n, r->fx, r->scal);
    const double h0 = (d0 < 1e-5 || d1 < 1e-5) ? 1e-6 : 0.01 * d0 / d1;
    for (size_t i = 0; i < n; i++) r->tmp2[i] = r->x[i] + h0 * r->fx[i];
    if (call_rhs(r, r->mem.t + h0, r->tmp2, r->tmp) != 0) return h0;
    for (size_t i = 0; i < n; i++) r->tmp2[i] = r->tmp[i] - r->fx[i];
    const double d2 = rms_norm(n, r->tmp2, r->scal) / h0;
    const double h1 = (d1 <= 1e-15 && d2 <= 1e-15) ? fmax(1e-6, h0 * 1e-3)
                                                   : pow(0.01 / fmax(d1, d2), 1.0 / (ESTIMATOR_ORDER + 1));
    return fmin(100.0 * h0, h1);
}

RadauStatus radau5_reset(Radau5 *r, double t, const double *x, double h0) {
    RadauMemory *m = &r->mem;
    const RadauCounters count = m->count;
    memset(m, 0, sizeof(*m));
    m->count = count;
    m->t = m->t_old = m->t_limit = t;
    m->first = true;
    m->need_jacobian = true;
    m->fac_con = 1.0;
    m->theta = JACOBIAN_REUSE_THETA;
    memcpy(r->x, x, r->problem.n * sizeof(double));
    update_scale(r);
    if (call_rhs(r, t, r->x, r->fx) != 0) return RadauRhsError;
    m->h = h0 > 0.0 ? h0 : initial_step(r);
    m->h_old = m->h_opt = m->h;
    for (size_t i = 0; i < r->problem.n; i++) {
        r->cont[i] = r->x[i];
        r->cont[r->problem.n + i] = r->cont[2 * r->problem.n + i] = r->cont[3 * r->problem.n + i] = 0.0;
    }
    r->lu_h = 0.0;
    return RadauOK;
}

RadauStatus radau5_rhs_changed(Radau5 *r) {
    r->mem.jacobian_fresh = false;
    return call_rhs(r, r->mem.t, r->x, r->fx) < 0 ? RadauRhsError : RadauOK;
}

void radau5_shift_time(Radau5 *r, double t) {
    r->mem.t = t;
    if (r->mem.t_limit < t) r->mem.t_limit = t;
}

void radau5_dense(const Radau5 *r, double t, double *x) {
    const size_t n = r->problem.n;
    const double s = (t - r->mem.t) / r->mem.h_old;
    for (size_t i = 0; i < n; i++)
        x[i] = r->cont[i]
               + s * (r->cont[n + i] + (s - C2M1) * (r->cont[2 * n + i] + (s - C1M1) * r->cont[3 * n + i]));
}

double radau5_step_start(const Radau5 *r) { return r->mem.t_old; }

/* ------------------------------------------------------- FMU state */

size_t radau5_state_size(const Radau5 *r) {
    return sizeof(RadauMemory) + (6 * r->problem.n + r->nnz) * sizeof(double);
}

void radau5_state_save(const Radau5 *r, unsigned char *buffer) {
    const size_t n = r->problem.n;
    memcpy(buffer, &r->mem, sizeof(RadauMemory));
    buffer += sizeof(RadauMemory);
    memcpy(buffer, r->x, n * sizeof(double));
    buffer += n * sizeof(double);
    memcpy(buffer, r->fx, n * sizeof(double));
    buffer += n * sizeof(double);
    memcpy(buffer, r->cont, 4 * n * sizeof(double));
    buffer += 4 * n * sizeof(double);
    memcpy(buffer, r->jacobian, r->nnz * sizeof(double));
}

void radau5_state_load(Radau5 *r, const unsigned char *buffer) {
    const size_t n = r->problem.n;
    memcpy(&r->mem, buffer, sizeof(RadauMemory));
    buffer += sizeof(RadauMemory);
    memcpy(r->x, buffer, n * sizeof(double));
    buffer += n * sizeof(double);
    memcpy(r->fx, buffer, n * sizeof(double));
    buffer += n * sizeof(double);
    memcpy(r->cont, buffer, 4 * n * sizeof(double));
    buffer += 4 * n * sizeof(double);
    memcpy(r->jacobian, buffer, r->nnz * sizeof(double));
    update_scale(r);
    /* the factors are a function of the saved Jacobian and step size: recomputed on demand */
    r->lu_h = 0.0;
}

const char *radau5_status_text(RadauStatus status) {
    switch (status) {
    case RadauOK: return "ok";
    case RadauRhsError: return "the model's equations failed";
    case RadauStepTooSmall: return "step size became too small";
    case RadauSingularMatrix: return "Newton matrix repeatedly singular";
    case RadauTooManyRejections: return "too many step rejections in a row";
    case RadauOutOfMemory: return "out of memory";
    }
    return "unknown status";
}
