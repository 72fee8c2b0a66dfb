/*
 * radau5.h -- Radau IIA of order 5 for stiff ODEs x' = f(t, x), after RADAU5 of
 * E. Hairer and G. Wanner, Solving Ordinary Differential Equations II, 2nd ed., Springer
 * 1996, Section IV.8.
 *
 * One step solves the 3-stage collocation system by a simplified Newton iteration whose
 * matrix, transformed with T^-1 (A^-1) T, splits into one real system (U1/h I - J) and one
 * complex system ((ALPHA + i BETA)/h I - J). The error estimate is the embedded one of
 * IV.8 (8.19)-(8.20), step sizes follow Gustafsson's predictive controller, and the
 * collocation polynomial of the last step is the dense output.
 *
 * Jacobian and LU reuse (the rule RADAU5 follows):
 *   - the Jacobian is re-evaluated after an accepted step only if the Newton iteration
 *     contracted slowly (theta > JACOBIAN_REUSE_THETA), and after a rejected step only if
 *     the Jacobian in use is not fresh;
 *   - the LU factors are kept when the Jacobian is kept and the new step size is within
 *     [STEP_KEEP_LOW, STEP_KEEP_HIGH] times the old one (the step size is then not changed);
 *   - large sparse systems (the sparse LU) keep the Jacobian and the step longer
 *     (LARGE_REUSE_THETA, [LARGE_KEEP_LOW, LARGE_KEEP_HIGH], widened to WIDE_KEEP_HIGH where
 *     the factors fill in much, as on 2-D grids), and a factorization that a new step size
 *     forces is made with a fresh Jacobian, which costs little next to it.
 *
 * Linear algebra: dense LU for small systems; sparse LU on the Jacobian's pattern when the
 * system has more than SPARSE_MIN_STATES states and the pattern is sparse enough.
 */
#ifndef COSIM_RADAU5_H
#define COSIM_RADAU5_H

#include <complex.h>
#include <stdbool.h>
#include <stddef.h>

#include "sparse_lu.h"

/* f(t, x) -> dx. Returns 0 on success, > 0 if x is outside the model's domain (the step is
 * retried with a smaller size), < 0 on an error that ends the integration. */
typedef int (*RadauRhs)(void *context, double t, const double *x, double *dx);

/* Values of df/dx at (t, x) in the order of the pattern (compressed sparse columns); fx is
 * f(t, x). Same return convention as RadauRhs; > 0 (not available at this point) makes the
 * integrator take finite differences instead. */
typedef int (*RadauJacobian)(void *context, double t, const double *x, const double *fx,
                             double *values);

typedef struct {
    size_t n;
    RadauRhs rhs;
    RadauJacobian jacobian;        /* NULL: finite differences on the pattern */
    void *context;
    const size_t *column_start;    /* pattern of df/dx, n + 1 entries; NULL: dense */
    const size_t *rows;
    const double *rtol;            /* per state, as the user asks for them */
    const double *atol;
} RadauProblem;

typedef enum {
    RadauOK = 0,
    RadauRhsError,          /* f or its Jacobian reported an error */
    RadauStepTooSmall,      /* h fell below the resolution of t */
    RadauSingularMatrix,    /* the Newton matrix was singular repeatedly */
    RadauTooManyRejections, /* the step was rejected too often in a row */
    RadauOutOfMemory
} RadauStatus;

typedef struct {
    size_t steps;        /* attempted steps */
    size_t accepted;
    size_t rejected;     /* by the error test, the first step excepted (as RADAU5 counts) */
    size_t rhs_calls;    /* f evaluations, those for finite-difference Jacobians excepted */
    size_t jacobians;
    size_t lu;           /* factorizations of both Newton matrices */
    size_t solves;       /* forward-backward substitutions of both systems */
} RadauCounters;

/* What survives between steps and must be saved with an FMU state for bit-identical
 * restarts (see radau5_state_size). */
typedef struct {
    double t;            /* the current point */
    double t_old;        /* start of the last accepted step */
    double t_limit;      /* the step in progress must not pass this time */
    double h;            /* step size proposed for the next step */
    double h_opt;        /* proposal before a step was shortened to reach t_limit */
    double h_old;        /* size of the last accepted step */
    double h_acc;        /* Gustafsson: size of the previous accepted step ... */
    double err_acc;      /* ... and its error */
    double fac_con;      /* Newton: contraction estimate carried into the next step */
    double theta;        /* Newton: last contraction rate */
    bool first;          /* no step taken since the last reset */
    bool reject;         /* the last attempt was rejected */
    bool jacobian_fresh; /* the Jacobian was evaluated at the current (t, x) */
    bool need_jacobian;  /* evaluate the Jacobian before the next attempt */
    RadauCounters count;
} RadauMemory;

typedef struct {
    RadauProblem problem;
    RadauMemory mem;
    double *x;          /* current state, n */
    double *fx;         /* f(t, x), n */
    double *cont;       /* dense output of the last accepted step, 4n */
    double *jacobian;   /* df/dx values on the pattern, nnz */
    double *rtol, *atol;/* tolerances as RADAU5 uses them internally */
    double newton_tol;
    /* work */
    double *z1, *z2, *z3, *f1, *f2, *f3, *scal, *tmp, *tmp2;
    double complex *ctmp;
    /* linear algebra */
    bool sparse;
    size_t nnz;
    size_t *column_start, *rows; /* the pattern used (given, or dense) */
    double lu_h;                 /* step size the LU factors belong to; 0: none */
    double *e1;                  /* dense: n x n real matrix / sparse: values */
    double complex *e2;
    size_t *pivot1, *pivot2;
    size_t *diagonal;            /* sparse: position of (i, i) in the augmented pattern */
    size_t *jacobian_position;   /* sparse: position of each Jacobian entry in it */
    SparsePattern newton_pattern;
    SparseLU sparse_e1;
    SparseLUComplex sparse_e2;
    size_t *fd_group;            /* finite differences: column groups */
    size_t fd_groups;
} Radau5;

/* Columns of the Newton matrices beyond which the sparse LU is used. */
#define SPARSE_MIN_STATES 50

RadauStatus radau5_init(Radau5 *r, const RadauProblem *problem);
void radau5_free(Radau5 *r);

/* Start (or restart after an event) at (t, x): the next step is a first step with a fresh
 * Jacobian. h0 > 0 suggests the first step size; 0 lets the integrator choose. */
RadauStatus radau5_reset(Radau5 *r, double t, const double *x, double h0);

/* f changed at the current point (new inputs): re-evaluate it; the Jacobian in use is then
 * no longer fresh. */
RadauStatus radau5_rhs_changed(Radau5 *r);

/* Take one accepted step, never past t_limit. Afterwards r->mem.t and r->x are the new point
 * and radau5_dense interpolates on the step just taken. */
RadauStatus radau5_step(Radau5 *r, double t_limit);

/* Move the current point to t without integrating: for distances below the time resolution
 * (a time event or communication point a rounding error away), where a step would be too
 * small to take. */
void radau5_shift_time(Radau5 *r, double t);

/* The collocation polynomial of the last accepted step at t (within that step). */
void radau5_dense(const Radau5 *r, double t, double *x);

/* Start of the last accepted step. */
double radau5_step_start(const Radau5 *r);

/* Everything a bit-identical restart needs, as a flat byte image. */
size_t radau5_state_size(const Radau5 *r);
void radau5_state_save(const Radau5 *r, unsigned char *buffer);
void radau5_state_load(Radau5 *r, const unsigned char *buffer);

const char *radau5_status_text(RadauStatus status);

#endif /* COSIM_RADAU5_H */
