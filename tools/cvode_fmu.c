/*
 * cvode_fmu.c -- CVODE (SUNDIALS BDF) integrating an FMU's Model Exchange interface, the peer
 * of tools/bench_work_precision.py. It runs in C, as our Co-Simulation does, so that neither
 * side pays for Python calls: both integrate the same compiled model code.
 *
 * The right-hand side is fmi3SetTime, fmi3SetContinuousStates and
 * fmi3GetContinuousStateDerivatives; the Jacobian (dense solver) one
 * fmi3GetDirectionalDerivative per column, which the FMU answers from the model's analytic
 * Jacobian; the band solver uses CVODE's own banded difference quotients. The
 * scikit-sundae wheel ships the SUNDIALS 7 libraries but not their headers, so the few
 * declarations used are written out below (sunindextype is int in that build).
 */
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fmi3FunctionTypes.h"

typedef double sunrealtype;
typedef int sunindextype;
typedef struct SUNContextOpaque *SUNContext;
typedef struct NVectorOpaque *N_Vector;
typedef struct SUNMatrixOpaque *SUNMatrix;
typedef struct SUNLinearSolverOpaque *SUNLinearSolver;
typedef int (*CVRhsFn)(sunrealtype t, N_Vector y, N_Vector ydot, void *user_data);
typedef int (*CVLsJacFn)(sunrealtype t, N_Vector y, N_Vector fy, SUNMatrix jac, void *user_data,
                         N_Vector tmp1, N_Vector tmp2, N_Vector tmp3);
#define CV_BDF 2
#define CV_NORMAL 1

int SUNContext_Create(int comm, SUNContext *ctx);
int SUNContext_Free(SUNContext *ctx);
N_Vector N_VNew_Serial(sunindextype length, SUNContext ctx);
sunrealtype *N_VGetArrayPointer(N_Vector v);
void N_VDestroy(N_Vector v);
SUNMatrix SUNDenseMatrix(sunindextype rows, sunindextype columns, SUNContext ctx);
sunrealtype **SUNDenseMatrix_Cols(SUNMatrix a);
SUNMatrix SUNBandMatrix(sunindextype n, sunindextype upper, sunindextype lower, SUNContext ctx);
void SUNMatDestroy(SUNMatrix a);
SUNLinearSolver SUNLinSol_Dense(N_Vector y, SUNMatrix a, SUNContext ctx);
SUNLinearSolver SUNLinSol_Band(N_Vector y, SUNMatrix a, SUNContext ctx);
int SUNLinSolFree(SUNLinearSolver solver);
void *CVodeCreate(int lmm, SUNContext ctx);
int CVodeInit(void *mem, CVRhsFn f, sunrealtype t0, N_Vector y0);
int CVodeSVtolerances(void *mem, sunrealtype rtol, N_Vector atol);
int CVodeSetLinearSolver(void *mem, SUNLinearSolver solver, SUNMatrix a);
int CVodeSetJacFn(void *mem, CVLsJacFn jac);
int CVodeSetUserData(void *mem, void *data);
int CVodeSetMaxNumSteps(void *mem, long steps);
int CVodeSetStopTime(void *mem, sunrealtype stop);
int CVode(void *mem, sunrealtype tout, N_Vector yout, sunrealtype *tret, int task);
int CVodeGetNumSteps(void *mem, long *n);
int CVodeGetNumRhsEvals(void *mem, long *n);
int CVodeGetNumJacEvals(void *mem, long *n);
int CVodeGetNumLinSolvSetups(void *mem, long *n);
int CVodeGetNumLinRhsEvals(void *mem, long *n);
void CVodeFree(void **mem);

typedef struct {
    fmi3Instance instance;
    fmi3SetTimeTYPE *set_time;
    fmi3SetContinuousStatesTYPE *set_states;
    fmi3GetContinuousStateDerivativesTYPE *get_derivatives;
    fmi3GetDirectionalDerivativeTYPE *directional;
    size_t n;
    const fmi3ValueReference *state_vrs, *derivative_vrs;
    const size_t *order; /* CVODE's state k is the FMU's state order[k] */
    double *fmu_states, *fmu_derivatives;
} Model;

static void to_fmu(const Model *m, const double *cvode, double *fmu) {
    for (size_t k = 0; k < m->n; k++) fmu[m->order[k]] = cvode[k];
}

static void from_fmu(const Model *m, const double *fmu, double *cvode) {
    for (size_t k = 0; k < m->n; k++) cvode[k] = fmu[m->order[k]];
}

static int set_states(Model *m, sunrealtype t, N_Vector y) {
    to_fmu(m, N_VGetArrayPointer(y), m->fmu_states);
    return m->set_time(m->instance, t) > fmi3Warning
           || m->set_states(m->instance, m->fmu_states, m->n) > fmi3Warning;
}

static int rhs(sunrealtype t, N_Vector y, N_Vector ydot, void *data) {
    Model *m = data;
    if (set_states(m, t, y) || m->get_derivatives(m->instance, m->fmu_derivatives, m->n) > fmi3Warning)
        return 1; /* recoverable: CVODE retries with a smaller step */
    from_fmu(m, m->fmu_derivatives, N_VGetArrayPointer(ydot));
    return 0;
}

static int jacobian(sunrealtype t, N_Vector y, N_Vector fy, SUNMatrix jac, void *data, N_Vector tmp1,
                    N_Vector tmp2, N_Vector tmp3) {
    Model *m = data;
    (void)fy, (void)tmp1, (void)tmp2, (void)tmp3;
    if (set_states(m, t, y)) return 1;
    sunrealtype **columns = SUNDenseMatrix_Cols(jac);
    const fmi3Float64 seed = 1.0;
    for (size_t j = 0; j < m->n; j++)
        if (m->directional(m->instance, m->derivative_vrs, m->n, &m->state_vrs[j], 1, &seed, 1, columns[j], m->n)
            > fmi3Warning)
            return 1;
    return 0;
}

static void quiet(fmi3InstanceEnvironment environment, fmi3Status status, fmi3String category,
                  fmi3String message) {
    (void)environment, (void)category;
    if (status > fmi3Warning) fprintf(stderr, "FMU: %s\n", message);
}

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

#define SYMBOL(type, name) ((type *)dlsym(library, #name))

/* Integrate from t0 to t1 (CVODE's state k is the FMU's continuous state order[k], the one of
 * state_vrs[k] and derivative_vrs[k]); band < 0: dense solver with the FMU's Jacobian, else the band
 * solver with half-bandwidth `band`. Returns 0 on success; y (the final states), stats
 * (steps, f evaluations including those for Jacobians, Jacobians, LU setups) and *seconds
 * (CPU seconds of this thread in the integration alone, instantiation and initialization
 * excluded). */
int cvode_fmu(const char *binary, const char *token, size_t n, const fmi3ValueReference *state_vrs,
              const fmi3ValueReference *derivative_vrs, const size_t *order, double t0, double t1, double rtol,
              const double *atol, int band, double *y, long *stats, double *seconds) {
    void *library = dlopen(binary, RTLD_NOW | RTLD_LOCAL);
    if (!library) return -1;
    Model m = {NULL, SYMBOL(fmi3SetTimeTYPE, fmi3SetTime), SYMBOL(fmi3SetContinuousStatesTYPE, fmi3SetContinuousStates),
               SYMBOL(fmi3GetContinuousStateDerivativesTYPE, fmi3GetContinuousStateDerivatives),
               SYMBOL(fmi3GetDirectionalDerivativeTYPE, fmi3GetDirectionalDerivative), n, state_vrs, derivative_vrs,
               order, malloc(n * sizeof(double)), malloc(n * sizeof(double))};
    fmi3Instance instance = SYMBOL(fmi3InstantiateModelExchangeTYPE, fmi3InstantiateModelExchange)(
        "cvode", token, NULL, fmi3False, fmi3False, NULL, quiet);
    m.instance = instance;
    fmi3Boolean more = fmi3True, ignored;
    fmi3Float64 next;
    int result = -2;
    if (!instance || !m.fmu_states || !m.fmu_derivatives) goto free_instance;
    result = -3;
    if (SYMBOL(fmi3EnterInitializationModeTYPE, fmi3EnterInitializationMode)(instance, fmi3True, rtol, t0, fmi3True, t1) > fmi3Warning
        || SYMBOL(fmi3ExitInitializationModeTYPE, fmi3ExitInitializationMode)(instance) > fmi3Warning)
        goto free_instance;
    while (more)
        if (SYMBOL(fmi3UpdateDiscreteStatesTYPE, fmi3UpdateDiscreteStates)(instance, &more, &ignored, &ignored,
                                                                            &ignored, &ignored, &next) > fmi3Warning)
            goto free_instance;
    if (SYMBOL(fmi3EnterContinuousTimeModeTYPE, fmi3EnterContinuousTimeMode)(instance) > fmi3Warning) goto free_instance;
    SYMBOL(fmi3GetContinuousStatesTYPE, fmi3GetContinuousStates)(instance, m.fmu_states, n);

    const double started = now();
    SUNContext context;
    SUNContext_Create(0, &context);
    N_Vector state = N_VNew_Serial((sunindextype)n, context), tolerances = N_VNew_Serial((sunindextype)n, context);
    from_fmu(&m, m.fmu_states, N_VGetArrayPointer(state));
    memcpy(N_VGetArrayPointer(tolerances), atol, n * sizeof(double));
    SUNMatrix matrix = band < 0 ? SUNDenseMatrix((sunindextype)n, (sunindextype)n, context)
                                : SUNBandMatrix((sunindextype)n, band, band, context);
    SUNLinearSolver solver = band < 0 ? SUNLinSol_Dense(state, matrix, context) : SUNLinSol_Band(state, matrix, context);
    void *cvode = CVodeCreate(CV_BDF, context);
    CVodeInit(cvode, rhs, t0, state);
    CVodeSVtolerances(cvode, rtol, tolerances);
    CVodeSetUserData(cvode, &m);
    CVodeSetLinearSolver(cvode, solver, matrix);
    if (band < 0) CVodeSetJacFn(cvode, jacobian);
    CVodeSetMaxNumSteps(cvode, 100000000L);
    CVodeSetStopTime(cvode, t1);
    sunrealtype reached = t0;
    const int flag = CVode(cvode, t1, state, &reached, CV_NORMAL);
    *seconds = now() - started;
    memcpy(y, N_VGetArrayPointer(state), n * sizeof(double));
    long linear_f = 0;
    CVodeGetNumSteps(cvode, &stats[0]);
    CVodeGetNumRhsEvals(cvode, &stats[1]);
    CVodeGetNumLinRhsEvals(cvode, &linear_f);
    stats[1] += linear_f;
    CVodeGetNumJacEvals(cvode, &stats[2]);
    CVodeGetNumLinSolvSetups(cvode, &stats[3]);
    CVodeFree(&cvode);
    SUNLinSolFree(solver);
    SUNMatDestroy(matrix);
    N_VDestroy(state);
    N_VDestroy(tolerances);
    SUNContext_Free(&context);
    result = flag < 0 ? flag : 0;
free_instance:
    if (instance) SYMBOL(fmi3FreeInstanceTYPE, fmi3FreeInstance)(instance);
    free(m.fmu_states);
    free(m.fmu_derivatives);
    dlclose(library);
    return result;
}
