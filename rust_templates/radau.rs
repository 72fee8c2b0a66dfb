// radau.rs -- Radau IIA of order 5 for stiff ODEs x' = f(t, x), after RADAU5 of E. Hairer and
// G. Wanner, Solving Ordinary Differential Equations II, 2nd ed., Springer 1996, IV.8; the
// same method, constants and reuse rules as fmu_templates/radau5.c.
//
// One step solves the 3-stage collocation system by a simplified Newton iteration whose
// matrix, transformed with T^-1 (A^-1) T, splits into one real system (U1/h I - J) and one
// complex system ((ALPHA + i BETA)/h I - J). The error estimate is the embedded one of IV.8
// (8.19)-(8.20), step sizes follow Gustafsson's predictive controller, and the collocation
// polynomial of the last step is the dense output.
//
// Jacobian and LU reuse: the Jacobian is evaluated again after an accepted step only if the
// Newton iteration contracted slowly (theta > JACOBIAN_REUSE_THETA), after a rejected step
// only if the one in use is not fresh; the LU factors are kept when the Jacobian is kept and
// the new step size is within [STEP_KEEP_LOW, STEP_KEEP_HIGH] times the old one.

use crate::lu::{lu_factor, lu_solve, Complex};
use crate::sparse::SparseLu;

// ---- Method coefficients (Hairer & Wanner IV.8, Table 5.6 and (8.18)) ----
const C1: f64 = 0.1550510257216821901803;
const C2: f64 = 0.6449489742783178098197;
const C1M1: f64 = -0.8449489742783178098197;
const C2M1: f64 = -0.3550510257216821901803;
const C1MC2: f64 = -0.4898979485566356196395;
const DD1: f64 = -10.04880939982741556246;
const DD2: f64 = 1.382142733160748895794;
const DD3: f64 = -1.0 / 3.0;
const U1: f64 = 3.637834252744495732208;
const ALPHA: f64 = 2.681082873627752133896;
const BETA: f64 = 3.050430199247410569426;
const T11: f64 = 9.1232394870892942792e-02;
const T12: f64 = -0.14125529502095420843;
const T13: f64 = -3.0029194105147424492e-02;
const T21: f64 = 0.24171793270710701896;
const T22: f64 = 0.20412935229379993199;
const T23: f64 = 0.38294211275726193779;
const T31: f64 = 0.96604818261509293619;
const TI11: f64 = 4.3255798900631553510;
const TI12: f64 = 0.33919925181580986954;
const TI13: f64 = 0.54177053993587487119;
const TI21: f64 = -4.1787185915519047273;
const TI22: f64 = -0.32768282076106238708;
const TI23: f64 = 0.47662355450055045196;
const TI31: f64 = -0.50287263494578687595;
const TI32: f64 = 2.5719269498556054292;
const TI33: f64 = -0.59603920482822492497;

// ---- Control parameters (RADAU5's defaults) ----
const UNIT_ROUNDOFF: f64 = 1e-16;
const NEWTON_MAXITER: usize = 7;
const SAFETY: f64 = 0.9;
const JACOBIAN_REUSE_THETA: f64 = 0.001;
const STEP_KEEP_LOW: f64 = 1.0;
const STEP_KEEP_HIGH: f64 = 1.2;
const MAX_QUOT: f64 = 5.0;
const MIN_QUOT: f64 = 0.125;
// RADAU5 controls 0.1 rtol^(2/3) instead of rtol, loosened by at most this factor (radau5.c)
const TOLERANCE_EXPONENT: f64 = 2.0 / 3.0;
const MAX_TOLERANCE_LOOSENING: f64 = 10.0;
const MAX_SINGULAR_LU: usize = 5;
const FIRST_STEP_REJECT_FACTOR: f64 = 0.1;
const NEWTON_FAILURE_FACTOR: f64 = 0.5;
const MAX_REJECTIONS_IN_A_ROW: usize = 200;
/// sparse LU when n > SPARSE_MIN_STATES and at most this share of entries is nonzero
pub const SPARSE_MIN_STATES: usize = 50;
const SPARSE_MAX_DENSITY: f64 = 0.25;
const ESTIMATOR_ORDER: f64 = 3.0;

/// The right-hand side as the integrator sees it. `rhs` and `jacobian` return 0 on success,
/// > 0 if x is outside the model's domain (a smaller step is tried; for the Jacobian:
/// differences are taken instead), < 0 on an error that ends the integration.
pub trait OdeSystem {
    fn rhs(&mut self, t: f64, x: &[f64], dx: &mut [f64]) -> i32;
    fn jacobian(&mut self, t: f64, x: &[f64], fx: &[f64], values: &mut [f64]) -> i32;
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RadauStatus {
    Ok,
    RhsError,
    StepTooSmall,
    SingularMatrix,
    TooManyRejections,
}

impl RadauStatus {
    pub fn text(self) -> &'static str {
        match self {
            RadauStatus::Ok => "ok",
            RadauStatus::RhsError => "the model's equations failed",
            RadauStatus::StepTooSmall => "step size became too small",
            RadauStatus::SingularMatrix => "Newton matrix repeatedly singular",
            RadauStatus::TooManyRejections => "too many step rejections in a row",
        }
    }
}

#[derive(Clone, Copy, Debug, Default)]
pub struct RadauCounters {
    pub steps: usize,
    pub accepted: usize,
    pub rejected: usize,
    pub rhs_calls: usize,
    pub jacobians: usize,
    pub lu: usize,
    pub solves: usize,
}

/// What survives between steps (saved with an FMU state for bit-identical restarts).
#[derive(Clone, Copy, Debug, Default)]
pub struct RadauMemory {
    pub t: f64,
    pub t_old: f64,
    pub t_limit: f64,
    pub h: f64,
    pub h_opt: f64,
    pub h_old: f64,
    pub h_acc: f64,
    pub err_acc: f64,
    pub fac_con: f64,
    pub theta: f64,
    pub first: bool,
    pub reject: bool,
    pub jacobian_fresh: bool,
    pub need_jacobian: bool,
    pub count: RadauCounters,
}

enum NewtonOutcome {
    Converged(usize),
    Shrink(f64),
    Failed,
    RhsError,
}

/// The Newton matrices E1 = U1/h I - J and E2 = (ALPHA + i BETA)/h I - J, factored.
enum NewtonMatrices {
    Dense { e1: Vec<f64>, e2: Vec<Complex>, pivot1: Vec<usize>, pivot2: Vec<usize> },
    Sparse { real: SparseLu<f64>, complex: SparseLu<Complex>, diagonal: Vec<usize>, position: Vec<usize> },
}

pub struct Radau {
    pub n: usize,
    pub mem: RadauMemory,
    pub x: Vec<f64>,
    pub fx: Vec<f64>,
    cont: Vec<f64>,
    pub jacobian: Vec<f64>,
    rtol: Vec<f64>,
    atol: Vec<f64>,
    newton_tol: f64,
    analytic: bool,
    z1: Vec<f64>,
    z2: Vec<f64>,
    z3: Vec<f64>,
    f1: Vec<f64>,
    f2: Vec<f64>,
    f3: Vec<f64>,
    scal: Vec<f64>,
    tmp: Vec<f64>,
    tmp2: Vec<f64>,
    ctmp: Vec<Complex>,
    column_start: Vec<usize>,
    rows: Vec<usize>,
    lu_h: f64,
    matrices: NewtonMatrices,
    fd_group: Vec<usize>,
    fd_groups: usize,
}

fn rms_norm(v: &[f64], scale: &[f64]) -> f64 {
    if v.is_empty() {
        return 0.0;
    }
    let sum: f64 = v.iter().zip(scale).map(|(v, s)| (v / s) * (v / s)).sum();
    (sum / v.len() as f64).sqrt()
}

/// The Newton matrices' pattern: the Jacobian's plus the whole diagonal (CSC), the position
/// of each diagonal entry and of each Jacobian entry in it.
fn newton_pattern(n: usize, column_start: &[usize], rows: &[usize]) -> (Vec<usize>, Vec<usize>, Vec<usize>, Vec<usize>) {
    let mut start = Vec::with_capacity(n + 1);
    let mut pattern = Vec::with_capacity(rows.len() + n);
    let mut diagonal = vec![0; n];
    let mut position = vec![0; rows.len()];
    for j in 0..n {
        start.push(pattern.len());
        let mut diagonal_done = false;
        for p in column_start[j]..column_start[j + 1] {
            let i = rows[p];
            if !diagonal_done && i >= j {
                if i > j {
                    pattern.push(j);
                }
                diagonal[j] = pattern.len() - if i > j { 1 } else { 0 };
                diagonal_done = true;
            }
            position[p] = pattern.len();
            pattern.push(i);
        }
        if !diagonal_done {
            diagonal[j] = pattern.len();
            pattern.push(j);
        }
    }
    start.push(pattern.len());
    (start, pattern, diagonal, position)
}

impl Radau {
    /// An integrator for n states; the pattern of df/dx in compressed sparse columns (None:
    /// dense); `analytic`: the system's jacobian gives values (else finite differences).
    pub fn new(n: usize, pattern: Option<(&[usize], &[usize])>, analytic: bool, rtol: &[f64], atol: &[f64]) -> Radau {
        let (column_start, rows): (Vec<usize>, Vec<usize>) = match pattern {
            Some((start, rows)) => (start.to_vec(), rows[..start[n]].to_vec()),
            None => ((0..=n).map(|j| j * n).collect(), (0..n * n).map(|k| k % n).collect()),
        };
        let nnz = rows.len();
        let mut internal_rtol = vec![0.0; n];
        let mut internal_atol = vec![0.0; n];
        let mut tightest: f64 = 1.0;
        for i in 0..n {
            let ratio = atol[i] / rtol[i];
            internal_rtol[i] = (0.1 * rtol[i].powf(TOLERANCE_EXPONENT)).min(MAX_TOLERANCE_LOOSENING * rtol[i]);
            internal_atol[i] = internal_rtol[i] * ratio;
            tightest = tightest.min(internal_rtol[i]);
        }
        let sparse = n > SPARSE_MIN_STATES && (nnz as f64) <= SPARSE_MAX_DENSITY * (n as f64) * (n as f64);
        let matrices = if sparse {
            let (start, pattern, diagonal, position) = newton_pattern(n, &column_start, &rows);
            NewtonMatrices::Sparse {
                real: SparseLu::new(n, &start, &pattern),
                complex: SparseLu::new(n, &start, &pattern),
                diagonal,
                position,
            }
        } else {
            NewtonMatrices::Dense {
                e1: vec![0.0; n * n],
                e2: vec![Complex::default(); n * n],
                pivot1: vec![0; n],
                pivot2: vec![0; n],
            }
        };
        let mut radau = Radau {
            n,
            mem: RadauMemory::default(),
            x: vec![0.0; n],
            fx: vec![0.0; n],
            cont: vec![0.0; 4 * n],
            jacobian: vec![0.0; nnz],
            rtol: internal_rtol,
            atol: internal_atol,
            newton_tol: (10.0 * UNIT_ROUNDOFF / tightest).max(0.03f64.min(tightest.sqrt())),
            analytic,
            z1: vec![0.0; n],
            z2: vec![0.0; n],
            z3: vec![0.0; n],
            f1: vec![0.0; n],
            f2: vec![0.0; n],
            f3: vec![0.0; n],
            scal: vec![0.0; n],
            tmp: vec![0.0; n],
            tmp2: vec![0.0; n],
            ctmp: vec![Complex::default(); n],
            column_start,
            rows,
            lu_h: 0.0,
            matrices,
            fd_group: vec![usize::MAX; n],
            fd_groups: 0,
        };
        radau.build_difference_groups();
        radau
    }

    pub fn sparse(&self) -> bool {
        matches!(self.matrices, NewtonMatrices::Sparse { .. })
    }

    /// Greedy column grouping for finite differences: columns in one group share no row, so
    /// one evaluation of f yields all of them (Curtis, Powell & Reid).
    fn build_difference_groups(&mut self) {
        let n = self.n;
        let mut row_group = vec![usize::MAX; n];
        let mut assigned = 0;
        while assigned < n {
            let group = self.fd_groups;
            self.fd_groups += 1;
            for item in row_group.iter_mut() {
                *item = usize::MAX;
            }
            for j in 0..n {
                if self.fd_group[j] != usize::MAX {
                    continue;
                }
                let column = self.column_start[j]..self.column_start[j + 1];
                if self.rows[column.clone()].iter().any(|&i| row_group[i] == group) {
                    continue;
                }
                for &i in &self.rows[column] {
                    row_group[i] = group;
                }
                self.fd_group[j] = group;
                assigned += 1;
            }
        }
    }

    fn update_scale(&mut self) {
        for i in 0..self.n {
            self.scal[i] = self.atol[i] + self.rtol[i] * self.x[i].abs();
        }
    }

    // ---------------------------------------------------------- Jacobian and LU

    fn difference_jacobian<S: OdeSystem>(&mut self, system: &mut S) -> i32 {
        let t = self.mem.t;
        for group in 0..self.fd_groups {
            for j in 0..self.n {
                if self.fd_group[j] != group {
                    continue;
                }
                self.tmp2[j] = (UNIT_ROUNDOFF * 1e-5f64.max(self.x[j].abs())).sqrt();
                self.f1[j] = self.x[j];
                self.x[j] += self.tmp2[j];
            }
            let status = system.rhs(t, &self.x, &mut self.tmp);
            for j in 0..self.n {
                if self.fd_group[j] != group {
                    continue;
                }
                self.x[j] = self.f1[j];
                for p in self.column_start[j]..self.column_start[j + 1] {
                    let row = self.rows[p];
                    self.jacobian[p] = (self.tmp[row] - self.fx[row]) / self.tmp2[j];
                }
            }
            if status != 0 {
                return status;
            }
        }
        0
    }

    fn evaluate_jacobian<S: OdeSystem>(&mut self, system: &mut S) -> i32 {
        self.mem.count.jacobians += 1;
        self.lu_h = 0.0;
        if self.analytic {
            let status = system.jacobian(self.mem.t, &self.x, &self.fx, &mut self.jacobian);
            // > 0: not at this point (a loop singular there, whose solution holds): differences
            if status <= 0 {
                return status;
            }
        }
        self.difference_jacobian(system)
    }

    /// Factor E1 and E2 for step size h; true when singular.
    #[inline(never)] // a step's parts stay functions: Radau::step stays small
    fn factor_newton_matrices(&mut self, h: f64) -> bool {
        let n = self.n;
        let fac1 = U1 / h;
        let fac2 = Complex::new(ALPHA / h, BETA / h);
        self.mem.count.lu += 1;
        let singular = match &mut self.matrices {
            NewtonMatrices::Dense { e1, e2, pivot1, pivot2 } => {
                for value in e1.iter_mut() {
                    *value = 0.0;
                }
                for value in e2.iter_mut() {
                    *value = Complex::default();
                }
                for j in 0..n {
                    for p in self.column_start[j]..self.column_start[j + 1] {
                        let at = self.rows[p] * n + j;
                        e1[at] = -self.jacobian[p];
                        e2[at] = Complex::new(-self.jacobian[p], 0.0);
                    }
                }
                for i in 0..n {
                    e1[i * n + i] += fac1;
                    e2[i * n + i] = e2[i * n + i] + fac2;
                }
                lu_factor(n, e1, pivot1) != 0 || lu_factor(n, e2, pivot2) != 0
            }
            NewtonMatrices::Sparse { real, complex, diagonal, position } => {
                let values_real = real.values_mut();
                for value in values_real.iter_mut() {
                    *value = 0.0;
                }
                for (p, &at) in position.iter().enumerate() {
                    values_real[at] = -self.jacobian[p];
                }
                for &at in diagonal.iter() {
                    values_real[at] += fac1;
                }
                let values_complex = complex.values_mut();
                for value in values_complex.iter_mut() {
                    *value = Complex::default();
                }
                for (p, &at) in position.iter().enumerate() {
                    values_complex[at] = Complex::new(-self.jacobian[p], 0.0);
                }
                for &at in diagonal.iter() {
                    values_complex[at] = values_complex[at] + fac2;
                }
                real.factor() != 0 || complex.factor() != 0
            }
        };
        self.lu_h = if singular { 0.0 } else { h };
        singular
    }

    fn solve_real(matrices: &mut NewtonMatrices, n: usize, b: &mut [f64]) {
        match matrices {
            NewtonMatrices::Dense { e1, pivot1, .. } => lu_solve(n, e1, pivot1, b),
            NewtonMatrices::Sparse { real, .. } => real.solve(b),
        }
    }

    /// Solve E2 (z2 + i z3) in place.
    fn solve_complex(&mut self) {
        let n = self.n;
        let (re, im) = (&mut self.z2, &mut self.z3);
        for i in 0..n {
            self.ctmp[i] = Complex::new(re[i], im[i]);
        }
        match &mut self.matrices {
            NewtonMatrices::Dense { e2, pivot2, .. } => lu_solve(n, e2, pivot2, &mut self.ctmp),
            NewtonMatrices::Sparse { complex, .. } => complex.solve(&mut self.ctmp),
        }
        for i in 0..n {
            re[i] = self.ctmp[i].re;
            im[i] = self.ctmp[i].im;
        }
    }

    // ---------------------------------------------------------------- Newton

    /// Starting values: zero on a first step, else the last collocation polynomial extrapolated.
    fn newton_start(&mut self, h: f64) {
        let n = self.n;
        if self.mem.first {
            for i in 0..n {
                self.z1[i] = 0.0;
                self.z2[i] = 0.0;
                self.z3[i] = 0.0;
                self.f1[i] = 0.0;
                self.f2[i] = 0.0;
                self.f3[i] = 0.0;
            }
            return;
        }
        let c3q = h / self.mem.h_old;
        let c1q = C1 * c3q;
        let c2q = C2 * c3q;
        for i in 0..n {
            let (ak1, ak2, ak3) = (self.cont[n + i], self.cont[2 * n + i], self.cont[3 * n + i]);
            let z1 = c1q * (ak1 + (c1q - C2M1) * (ak2 + (c1q - C1M1) * ak3));
            let z2 = c2q * (ak1 + (c2q - C2M1) * (ak2 + (c2q - C1M1) * ak3));
            let z3 = c3q * (ak1 + (c3q - C2M1) * (ak2 + (c3q - C1M1) * ak3));
            self.z1[i] = z1;
            self.z2[i] = z2;
            self.z3[i] = z3;
            self.f1[i] = TI11 * z1 + TI12 * z2 + TI13 * z3;
            self.f2[i] = TI21 * z1 + TI22 * z2 + TI23 * z3;
            self.f3[i] = TI31 * z1 + TI32 * z2 + TI33 * z3;
        }
    }

    /// f at the three stages, stored in z1..z3 (which held the stage increments).
    #[inline(never)] // a step's parts stay functions: Radau::step stays small
    fn evaluate_stages<S: OdeSystem>(&mut self, system: &mut S, h: f64) -> i32 {
        let t = self.mem.t;
        let times = [t + C1 * h, t + C2 * h, t + h];
        for (s, &time) in times.iter().enumerate() {
            let stage = match s {
                0 => &mut self.z1,
                1 => &mut self.z2,
                _ => &mut self.z3,
            };
            for i in 0..self.n {
                self.tmp[i] = self.x[i] + stage[i];
            }
            self.mem.count.rhs_calls += 1;
            let status = system.rhs(time, &self.tmp, stage);
            if status != 0 {
                return status;
            }
        }
        0
    }

    /// One simplified Newton correction: z1..z3 hold f at the stages on entry and the
    /// corrections of the transformed increments f1..f3 on return.
    #[inline(never)] // a step's parts stay functions: Radau::step stays small
    fn newton_correction(&mut self, h: f64) {
        let fac1 = U1 / h;
        let alphn = ALPHA / h;
        let betan = BETA / h;
        for i in 0..self.n {
            let (a1, a2, a3) = (self.z1[i], self.z2[i], self.z3[i]);
            let s2 = -self.f2[i];
            let s3 = -self.f3[i];
            self.z1[i] = TI11 * a1 + TI12 * a2 + TI13 * a3 - self.f1[i] * fac1;
            self.z2[i] = TI21 * a1 + TI22 * a2 + TI23 * a3 + s2 * alphn - s3 * betan;
            self.z3[i] = TI31 * a1 + TI32 * a2 + TI33 * a3 + s3 * alphn + s2 * betan;
        }
        Radau::solve_real(&mut self.matrices, self.n, &mut self.z1);
        self.solve_complex();
        self.mem.count.solves += 1;
    }

    fn newton<S: OdeSystem>(&mut self, system: &mut S, h: f64) -> NewtonOutcome {
        let n = self.n;
        self.newton_start(h);
        let mut fac_con = self.mem.fac_con.max(UNIT_ROUNDOFF).powf(0.8);
        let mut theta = JACOBIAN_REUSE_THETA;
        let mut dyno_old = 1.0;
        let mut thq_old = 1.0;
        let mut newt = 0;
        loop {
            if newt >= NEWTON_MAXITER {
                return NewtonOutcome::Failed;
            }
            let status = self.evaluate_stages(system, h);
            if status < 0 {
                return NewtonOutcome::RhsError;
            }
            if status > 0 {
                return NewtonOutcome::Failed;
            }
            self.newton_correction(h);
            newt += 1;
            let mut dyno = 0.0;
            for i in 0..n {
                let s = self.scal[i];
                dyno += (self.z1[i] / s) * (self.z1[i] / s) + (self.z2[i] / s) * (self.z2[i] / s)
                    + (self.z3[i] / s) * (self.z3[i] / s);
            }
            dyno = (dyno / (3 * n) as f64).sqrt();
            if newt > 1 && newt < NEWTON_MAXITER {
                let thq = dyno / dyno_old;
                theta = if newt == 2 { thq } else { (thq * thq_old).sqrt() };
                thq_old = thq;
                if theta >= 0.99 {
                    return NewtonOutcome::Failed;
                }
                fac_con = theta / (1.0 - theta);
                let remaining = (NEWTON_MAXITER - 1 - newt) as f64;
                let dyth = fac_con * dyno * theta.powf(remaining) / self.newton_tol;
                if dyth >= 1.0 {
                    // convergence too slow to finish in time: retry with the step predicted to
                    // converge (Hairer & Wanner IV.8 (8.10)-(8.11))
                    let qnewt = 1e-4f64.max(20.0f64.min(dyth));
                    return NewtonOutcome::Shrink(0.8 * qnewt.powf(-1.0 / (4.0 + remaining)));
                }
            }
            dyno_old = dyno.max(UNIT_ROUNDOFF);
            for i in 0..n {
                let f1 = self.f1[i] + self.z1[i];
                let f2 = self.f2[i] + self.z2[i];
                let f3 = self.f3[i] + self.z3[i];
                self.f1[i] = f1;
                self.f2[i] = f2;
                self.f3[i] = f3;
                self.z1[i] = T11 * f1 + T12 * f2 + T13 * f3;
                self.z2[i] = T21 * f1 + T22 * f2 + T23 * f3;
                self.z3[i] = T31 * f1 + f2;
            }
            if fac_con * dyno <= self.newton_tol {
                self.mem.fac_con = fac_con;
                self.mem.theta = theta;
                return NewtonOutcome::Converged(newt);
            }
        }
    }

    // ---------------------------------------------------- error and acceptance

    /// Embedded error estimate (8.19)-(8.20); on a first or rejected step a large estimate is
    /// refined by one more solve so that stiff components do not inflate it.
    #[inline(never)] // a step's parts stay functions: Radau::step stays small
    fn estimate_error<S: OdeSystem>(&mut self, system: &mut S, h: f64, err: &mut f64) -> i32 {
        let n = self.n;
        let (hee1, hee2, hee3) = (DD1 / h, DD2 / h, DD3 / h);
        for i in 0..n {
            self.f2[i] = hee1 * self.z1[i] + hee2 * self.z2[i] + hee3 * self.z3[i];
            self.tmp[i] = self.f2[i] + self.fx[i];
        }
        Radau::solve_real(&mut self.matrices, n, &mut self.tmp);
        *err = rms_norm(&self.tmp, &self.scal).max(1e-10);
        if *err < 1.0 || !(self.mem.first || self.mem.reject) {
            return 0;
        }
        for i in 0..n {
            self.tmp2[i] = self.x[i] + self.tmp[i];
        }
        self.mem.count.rhs_calls += 1;
        let status = system.rhs(self.mem.t, &self.tmp2, &mut self.f1);
        if status != 0 {
            return status;
        }
        for i in 0..n {
            self.tmp[i] = self.f1[i] + self.f2[i];
        }
        Radau::solve_real(&mut self.matrices, n, &mut self.tmp);
        *err = rms_norm(&self.tmp, &self.scal).max(1e-10);
        0
    }

    #[inline(never)] // a step's parts stay functions: Radau::step stays small
    fn accept_step<S: OdeSystem>(&mut self, system: &mut S, h: f64, err: f64, quot: f64, last: bool) -> i32 {
        let n = self.n;
        let m = &mut self.mem;
        m.first = false;
        m.count.accepted += 1;
        let mut quot = quot;
        if m.count.accepted > 1 {
            // Gustafsson's predictive controller (IV.8 (8.27))
            let gus = (m.h_acc / h) * (err * err / m.err_acc).powf(0.25) / SAFETY;
            quot = quot.max(MIN_QUOT.max(MAX_QUOT.min(gus)));
        }
        m.h_acc = h;
        m.err_acc = 1e-2f64.max(err);
        let mut h_new = h / quot;
        let t_new = if last { m.t_limit } else { m.t + h };
        for i in 0..n {
            let (z1, z2, z3) = (self.z1[i], self.z2[i], self.z3[i]);
            self.x[i] += z3;
            self.cont[i] = self.x[i];
            self.cont[n + i] = (z2 - z3) / C2M1;
            let ak = (z1 - z2) / C1MC2;
            let acont3 = (ak - z1 / C1) / C2;
            self.cont[2 * n + i] = (ak - self.cont[n + i]) / C1M1;
            self.cont[3 * n + i] = self.cont[2 * n + i] - acont3;
        }
        let m = &mut self.mem;
        m.t_old = m.t;
        m.t = t_new;
        m.h_old = h;
        m.jacobian_fresh = false;
        self.update_scale();
        self.mem.count.rhs_calls += 1;
        let status = system.rhs(self.mem.t, &self.x, &mut self.fx);
        let m = &mut self.mem;
        if last {
            m.h = m.h_opt;
        } else {
            if m.reject {
                h_new = h_new.min(h);
            }
            m.h_opt = h.min(h_new);
            let qt = h_new / h;
            let keep_step = m.theta <= JACOBIAN_REUSE_THETA && qt >= STEP_KEEP_LOW && qt <= STEP_KEEP_HIGH;
            m.h = if keep_step { h } else { h_new }; // an unchanged h keeps the LU factors
        }
        m.reject = false;
        m.need_jacobian = m.theta > JACOBIAN_REUSE_THETA;
        status
    }

    /// After a rejection: the step to retry with, and a fresh Jacobian unless it is fresh already.
    fn prepare_retry(&mut self, h_retry: f64) {
        self.mem.h = h_retry;
        self.mem.reject = true;
        if !self.mem.jacobian_fresh {
            self.mem.need_jacobian = true;
        }
    }

    /// Take one accepted step, never past t_limit. Afterwards mem.t and x are the new point
    /// and `dense` interpolates on the step just taken.
    pub fn step<S: OdeSystem>(&mut self, system: &mut S, t_limit: f64) -> RadauStatus {
        let mut singular_count = 0;
        let mut rejections = 0;
        self.mem.t_limit = t_limit;
        loop {
            if rejections > MAX_REJECTIONS_IN_A_ROW {
                return RadauStatus::TooManyRejections;
            }
            if self.mem.need_jacobian {
                if self.evaluate_jacobian(system) < 0 {
                    return RadauStatus::RhsError;
                }
                self.mem.jacobian_fresh = true;
                self.mem.need_jacobian = false;
            }
            let mut h = self.mem.h;
            let mut last = false;
            if self.mem.t + h * 1.0001 >= t_limit {
                h = t_limit - self.mem.t;
                last = true;
            }
            if 0.1 * h.abs() <= self.mem.t.abs() * UNIT_ROUNDOFF || h <= 0.0 {
                return RadauStatus::StepTooSmall;
            }
            if h != self.lu_h && self.factor_newton_matrices(h) {
                singular_count += 1;
                if singular_count >= MAX_SINGULAR_LU {
                    return RadauStatus::SingularMatrix;
                }
                self.prepare_retry(h * NEWTON_FAILURE_FACTOR);
                rejections += 1;
                continue;
            }
            self.mem.count.steps += 1;
            let iterations = match self.newton(system, h) {
                NewtonOutcome::Converged(iterations) => iterations,
                NewtonOutcome::RhsError => return RadauStatus::RhsError,
                NewtonOutcome::Failed => {
                    self.prepare_retry(h * NEWTON_FAILURE_FACTOR);
                    rejections += 1;
                    continue;
                }
                NewtonOutcome::Shrink(shrink) => {
                    self.prepare_retry(h * shrink);
                    rejections += 1;
                    continue;
                }
            };
            let mut err = 0.0;
            let status = self.estimate_error(system, h, &mut err);
            if status < 0 {
                return RadauStatus::RhsError;
            }
            if status > 0 {
                self.prepare_retry(h * NEWTON_FAILURE_FACTOR);
                rejections += 1;
                continue;
            }
            let quot = step_quotient(err, iterations);
            if err < 1.0 {
                return if self.accept_step(system, h, err, quot, last) < 0 {
                    RadauStatus::RhsError
                } else {
                    RadauStatus::Ok
                };
            }
            if self.mem.count.accepted >= 1 {
                self.mem.count.rejected += 1;
            }
            let retry = if self.mem.first { h * FIRST_STEP_REJECT_FACTOR } else { h / quot };
            self.prepare_retry(retry);
            rejections += 1;
        }
    }

    // --------------------------------------------------------------- restart

    fn initial_step<S: OdeSystem>(&mut self, system: &mut S) -> f64 {
        let n = self.n;
        let d0 = rms_norm(&self.x, &self.scal);
        let d1 = rms_norm(&self.fx, &self.scal);
        let h0 = if d0 < 1e-5 || d1 < 1e-5 { 1e-6 } else { 0.01 * d0 / d1 };
        for i in 0..n {
            self.tmp2[i] = self.x[i] + h0 * self.fx[i];
        }
        self.mem.count.rhs_calls += 1;
        if system.rhs(self.mem.t + h0, &self.tmp2, &mut self.tmp) != 0 {
            return h0;
        }
        for i in 0..n {
            self.tmp2[i] = self.tmp[i] - self.fx[i];
        }
        let d2 = rms_norm(&self.tmp2, &self.scal) / h0;
        let h1 = if d1 <= 1e-15 && d2 <= 1e-15 {
            1e-6f64.max(h0 * 1e-3)
        } else {
            (0.01 / d1.max(d2)).powf(1.0 / (ESTIMATOR_ORDER + 1.0))
        };
        (100.0 * h0).min(h1)
    }

    /// Start (or restart after an event) at (t, x): the next step is a first step with a
    /// fresh Jacobian. h0 > 0 suggests the first step size; 0 lets the integrator choose.
    pub fn reset<S: OdeSystem>(&mut self, system: &mut S, t: f64, x: &[f64], h0: f64) -> RadauStatus {
        let count = self.mem.count;
        self.mem = RadauMemory {
            t,
            t_old: t,
            t_limit: t,
            first: true,
            need_jacobian: true,
            fac_con: 1.0,
            theta: JACOBIAN_REUSE_THETA,
            count,
            ..RadauMemory::default()
        };
        self.x.copy_from_slice(x);
        self.update_scale();
        self.mem.count.rhs_calls += 1;
        if system.rhs(t, &self.x, &mut self.fx) != 0 {
            return RadauStatus::RhsError;
        }
        self.mem.h = if h0 > 0.0 { h0 } else { self.initial_step(system) };
        self.mem.h_old = self.mem.h;
        self.mem.h_opt = self.mem.h;
        let n = self.n;
        for i in 0..n {
            self.cont[i] = self.x[i];
            self.cont[n + i] = 0.0;
            self.cont[2 * n + i] = 0.0;
            self.cont[3 * n + i] = 0.0;
        }
        self.lu_h = 0.0;
        RadauStatus::Ok
    }

    /// f changed at the current point (new inputs): evaluate it again; the Jacobian in use is
    /// then no longer fresh.
    pub fn rhs_changed<S: OdeSystem>(&mut self, system: &mut S) -> RadauStatus {
        self.mem.jacobian_fresh = false;
        self.mem.count.rhs_calls += 1;
        if system.rhs(self.mem.t, &self.x, &mut self.fx) < 0 {
            RadauStatus::RhsError
        } else {
            RadauStatus::Ok
        }
    }

    /// Move the current point to t without integrating (a distance below the time resolution).
    pub fn shift_time(&mut self, t: f64) {
        self.mem.t = t;
        if self.mem.t_limit < t {
            self.mem.t_limit = t;
        }
    }

    /// The collocation polynomial of the last accepted step at t (within that step).
    pub fn dense(&self, t: f64, x: &mut [f64]) {
        let n = self.n;
        let s = (t - self.mem.t) / self.mem.h_old;
        for i in 0..n {
            x[i] = self.cont[i]
                + s * (self.cont[n + i] + (s - C2M1) * (self.cont[2 * n + i] + (s - C1M1) * self.cont[3 * n + i]));
        }
    }

    /// Start of the last accepted step.
    pub fn step_start(&self) -> f64 {
        self.mem.t_old
    }

    /// What a bit-identical restart needs besides the memory: x, f(x), the dense output and
    /// the Jacobian, one after another.
    pub fn saved_vectors(&self) -> Vec<f64> {
        let mut values = Vec::with_capacity(6 * self.n + self.jacobian.len());
        values.extend_from_slice(&self.x);
        values.extend_from_slice(&self.fx);
        values.extend_from_slice(&self.cont);
        values.extend_from_slice(&self.jacobian);
        values
    }

    /// The state of `saved_vectors`, with the memory it belongs to; false when the sizes differ.
    pub fn restore(&mut self, memory: RadauMemory, values: &[f64]) -> bool {
        let n = self.n;
        if values.len() != 6 * n + self.jacobian.len() {
            return false;
        }
        self.mem = memory;
        self.x.copy_from_slice(&values[..n]);
        self.fx.copy_from_slice(&values[n..2 * n]);
        self.cont.copy_from_slice(&values[2 * n..6 * n]);
        self.jacobian.copy_from_slice(&values[6 * n..]);
        self.update_scale();
        // the factors are a function of the saved Jacobian and step size: recomputed on demand
        self.lu_h = 0.0;
        true
    }
}

/// Step-size factor h / h_new from the error and the Newton effort (IV.8 (8.25)).
fn step_quotient(err: f64, newton_iterations: usize) -> f64 {
    let cfac = SAFETY * (1 + 2 * NEWTON_MAXITER) as f64;
    let fac = SAFETY.min(cfac / (newton_iterations + 2 * NEWTON_MAXITER) as f64);
    MIN_QUOT.max(MAX_QUOT.min(err.powf(0.25) / fac))
}
