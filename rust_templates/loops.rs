// loops.rs -- the solvers of algebraic loops for model code: linear systems by LU (a
// singular but consistent one keeps the unknowns it leaves free at their guesses) and
// nonlinear ones by Newton's method with a line search, a scalar one with a search for a
// sign change where Newton stalls. As fmu_templates/model_support.c (and through it
// compiler/interp/solvers.py), so that the runtimes and the interpreter agree.
//
// A failure is logged naming the loop and returns Discard between events (the integrator
// then tries a smaller step) and Error at events and during initialization.

use crate::data::ModelData;
use crate::lu::{lu_factor, lu_solve};
use crate::support::*;

fn failure(m: &ModelData) -> Status {
    if m.event_mode {
        Status::Error
    } else {
        Status::Discard
    }
}

/// Factor A (row-major n x n) for several solves with lu_solve.
pub fn factor_linear(m: &ModelData, n: usize, a: &mut [f64], pivot: &mut [usize], description: &str) -> Status {
    let singular = lu_factor(n, a, pivot);
    if singular == 0 {
        return Status::Ok;
    }
    let status = failure(m);
    m.log(status, "logSingularLinearSystems", &format!(
        "singular linear system (no pivot in column {}) in {} at t = {}", singular, description, format_g(m.time, 17)));
    status
}

/// A pivot below this fraction of the largest entry counts as zero in a singular system, and
/// an equation it leaves over must hold within this fraction of the values' scale.
const RANK_TOLERANCE: f64 = 1e-12;
const CONSISTENCY_TOLERANCE: f64 = 1e-9;

fn largest(v: &[f64]) -> f64 {
    v.iter().fold(0.0, |found: f64, x| found.max(x.abs()))
}

/// dx with A dx = r for a singular A (row-major, overwritten): Gaussian elimination with
/// complete pivoting until the pivots vanish; the unknowns left without one keep dx = 0, the
/// equations left over must hold (|r| small).
fn solve_singular(n: usize, a: &mut [f64], r: &mut [f64], dx: &mut [f64], scale: f64) -> bool {
    let tiny = RANK_TOLERANCE * largest(a);
    let mut order: Vec<usize> = (0..n).collect(); // column k holds unknown order[k]
    let mut rank = 0;
    while rank < n {
        let (mut row, mut column, mut best) = (rank, rank, 0.0);
        for i in rank..n {
            for j in rank..n {
                if a[i * n + j].abs() > best {
                    best = a[i * n + j].abs();
                    row = i;
                    column = j;
                }
            }
        }
        if !(best > tiny) {
            break;
        }
        for j in 0..n {
            a.swap(rank * n + j, row * n + j);
        }
        r.swap(rank, row);
        for i in 0..n {
            a.swap(i * n + rank, i * n + column);
        }
        order.swap(rank, column);
        for i in rank + 1..n {
            let factor = a[i * n + rank] / a[rank * n + rank];
            if factor == 0.0 {
                continue;
            }
            for j in rank..n {
                a[i * n + j] -= factor * a[rank * n + j];
            }
            r[i] -= factor * r[rank];
        }
        rank += 1;
    }
    if r[rank..n].iter().any(|value| !(value.abs() <= CONSISTENCY_TOLERANCE * scale)) {
        return false;
    }
    let mut y = vec![0.0; n];
    for k in (0..rank).rev() {
        let mut sum = r[k];
        for j in k + 1..rank {
            sum -= a[k * n + j] * y[j];
        }
        y[k] = sum / a[k * n + k];
    }
    for k in 0..n {
        dx[order[k]] = y[k];
    }
    true
}

/// Solve A x = b (b becomes x) for a loop whose unknowns hold the guess x0 (their values so
/// far); a singular system whose equations agree keeps the unknowns it leaves free at x0.
pub fn solve_linear_near(m: &ModelData, n: usize, a: &mut [f64], b: &mut [f64], x0: &[f64], description: &str) -> Status {
    let copy = a.to_vec();
    let mut pivot = vec![0usize; n];
    if lu_factor(n, a, &mut pivot) == 0 {
        lu_solve(n, a, &pivot, b);
        return Status::Ok;
    }
    // r = b - A x0, the change dx from the guess solves A dx = r
    let mut copy = copy;
    let scale = 1.0 + largest(b) + largest(&copy) * largest(x0);
    let mut r: Vec<f64> = (0..n).map(|i| b[i] - (0..n).map(|j| copy[i * n + j] * x0[j]).sum::<f64>()).collect();
    let mut dx = vec![0.0; n];
    if solve_singular(n, &mut copy, &mut r, &mut dx, scale) {
        for j in 0..n {
            b[j] = x0[j] + dx[j];
        }
        return Status::Ok;
    }
    let status = failure(m);
    m.log(status, "logSingularLinearSystems", &format!(
        "singular linear system (its equations contradict each other) in {} at t = {}", description, format_g(m.time, 17)));
    status
}

// Newton's constants, as in compiler/interp/solvers.py
const NEWTON_TOLERANCE: f64 = 1e-12; // relative step size at which Newton stops
const NEWTON_MAX_ITERATIONS: usize = 100;
const MIN_DAMPING: f64 = 1e-6; // smallest fraction of a Newton step the line search tries
// a cut step converges when its full length is within 1e-9 relative (model_support.c)
const CUT_STEP_SCALE: f64 = 1e-3;
const RESIDUAL_TOLERANCE: f64 = 1e-10; // an unconverged iteration still counts with residuals this small
const DIFFERENCE_STEP: f64 = 1e-7;
// A scalar loop's search for a sign change: distances from x, relative to 1 + |x|
const BRACKET_FIRST: f64 = 1e-6;
const BRACKET_LAST: f64 = 1e12;
const BISECTIONS: usize = 200;

/// The residuals r(x) of a loop, computed after writing x into the model's variables.
pub type NewtonResidual = fn(&mut ModelData, &[f64], &mut [f64]) -> Status;
/// d r / d x, row-major n x n, at the point of the last residual call.
pub type NewtonJacobian = fn(&mut ModelData, &mut [f64]) -> Status;

pub struct NewtonSystem {
    pub n: usize,
    pub residual: NewtonResidual,
    pub jacobian: Option<NewtonJacobian>, // None: forward differences
    pub description: &'static str,
}

fn max_norm(v: &[f64]) -> f64 {
    let mut norm: f64 = 0.0;
    for value in v {
        if !(value.abs() <= norm) {
            norm = value.abs(); // NaN propagates
        }
    }
    norm
}

/// r(x) and its max-norm; a failed or non-finite evaluation counts as an infinite norm when
/// `trial` (the line search then shortens the step), and as an error otherwise.
fn residual_norm(m: &mut ModelData, system: &NewtonSystem, x: &[f64], r: &mut [f64], trial: bool, norm: &mut f64) -> Status {
    let status = (system.residual)(m, x, r);
    *norm = if status > Status::Warning { f64::INFINITY } else { max_norm(r) };
    if norm.is_nan() {
        *norm = f64::INFINITY;
    }
    if trial || status <= Status::Warning {
        Status::Ok
    } else {
        status
    }
}

/// Forward differences of r at x (r holds r(x)), or central ones when `central`; leaves the
/// model at x again.
fn differences(m: &mut ModelData, system: &NewtonSystem, x: &mut [f64], r: &[f64], shifted: &mut [f64], jacobian: &mut [f64], central: bool) -> Status {
    let n = system.n;
    let mut norm = 0.0;
    let mut back = vec![0.0; if central { n } else { 0 }];
    for j in 0..n {
        let saved = x[j];
        let h = DIFFERENCE_STEP * 1f64.max(saved.abs());
        x[j] = saved + h;
        check!(residual_norm(m, system, x, shifted, false, &mut norm));
        if central {
            x[j] = saved - h;
            check!(residual_norm(m, system, x, &mut back, false, &mut norm));
            for i in 0..n {
                jacobian[i * n + j] = (shifted[i] - back[i]) / (2.0 * h);
            }
        } else {
            for i in 0..n {
                jacobian[i * n + j] = (shifted[i] - r[i]) / h;
            }
        }
        x[j] = saved;
    }
    residual_norm(m, system, x, shifted, false, &mut norm)
}

fn converged(x: &[f64], step: &[f64], factor: f64) -> bool {
    x.iter().zip(step).all(|(x, step)| (factor * step).abs() <= NEWTON_TOLERANCE * (1.0 + x.abs()))
}

fn small_residual(x: &[f64], norm: f64) -> bool {
    norm <= RESIDUAL_TOLERANCE * (1.0 + max_norm(x))
}

/// How Newton's iteration ended, when no evaluation failed
#[derive(Clone, Copy, PartialEq, Eq)]
enum NewtonEnd {
    Converged,
    Stalled,
    Singular,
}

/// Row weights of the residuals for the line search: 1 / max_j |J_ij| w_j, with w_j = |x_j|
/// (1 where x_j = 0), so that each residual counts by how much its variables move it.
fn residual_weights(n: usize, jacobian: &[f64], x: &[f64], weight: &mut [f64]) {
    for i in 0..n {
        let mut found: f64 = 0.0;
        for j in 0..n {
            found = found.max(jacobian[i * n + j].abs() * if x[j] != 0.0 { x[j].abs() } else { 1.0 });
        }
        weight[i] = if found > 0.0 && found.is_finite() { 1.0 / found } else { 1.0 };
    }
}

fn weighted_norm(r: &[f64], weight: &[f64]) -> f64 {
    let mut norm: f64 = 0.0;
    for (value, weight) in r.iter().zip(weight) {
        let value = value.abs() * weight;
        if !(value <= norm) {
            norm = value; // NaN propagates
        }
    }
    if norm.is_nan() {
        f64::INFINITY
    } else {
        norm
    }
}

/// Newton's iteration from x; *norm ends as the residual norm at x. Returns the failure of an
/// evaluation, else Ok with `end` telling whether it converged.
fn newton_iterate(m: &mut ModelData, system: &NewtonSystem, x: &mut [f64], norm: &mut f64, end: &mut NewtonEnd, central: bool) -> Status {
    let n = system.n;
    let (mut r, mut step, mut trial, mut r_trial, mut weight) = (vec![0.0; n], vec![0.0; n], vec![0.0; n], vec![0.0; n], vec![0.0; n]);
    let mut jacobian = vec![0.0; n * n];
    let mut pivot = vec![0usize; n];
    let mut norm_trial = 0.0;
    let mut singular = false; // whether a step came from a singular Jacobian
    *end = NewtonEnd::Converged;
    check!(residual_norm(m, system, x, &mut r, false, norm));
    for _ in 0..NEWTON_MAX_ITERATIONS {
        if *norm == 0.0 {
            return Status::Ok;
        }
        match system.jacobian {
            Some(evaluate) => check!(evaluate(m, &mut jacobian)),
            None => check!(differences(m, system, x, &r, &mut r_trial, &mut jacobian, central)),
        }
        residual_weights(n, &jacobian, x, &mut weight);
        if lu_factor(n, &mut jacobian, &mut pivot) != 0 {
            // a singular Jacobian whose equations agree (a pipe between two closed tank ports
            // fixes the difference of its end pressures, not their level): the step that
            // leaves the undetermined unknowns where they are
            match system.jacobian {
                Some(evaluate) => check!(evaluate(m, &mut jacobian)),
                None => check!(differences(m, system, x, &r, &mut r_trial, &mut jacobian, central)),
            }
            for k in 0..n {
                trial[k] = -r[k];
            }
            let scale = 1.0 + largest(&r) + largest(&jacobian) * largest(x);
            if !solve_singular(n, &mut jacobian, &mut trial, &mut step, scale) {
                *end = NewtonEnd::Singular;
                return Status::Ok;
            }
            singular = true;
        } else {
            for k in 0..n {
                step[k] = -r[k];
            }
            lu_solve(n, &jacobian, &pivot, &mut step);
        }
        let merit = weighted_norm(&r, &weight);
        let mut factor = 1.0;
        let mut improved = false;
        loop {
            for k in 0..n {
                trial[k] = x[k] + factor * step[k];
            }
            check!(residual_norm(m, system, &trial, &mut r_trial, true, &mut norm_trial));
            if norm_trial.is_finite() && weighted_norm(&r_trial, &weight) < merit {
                improved = true;
                break;
            }
            if factor < MIN_DAMPING {
                break;
            }
            factor *= 0.5;
        }
        if !norm_trial.is_finite() {
            break;
        }
        x.copy_from_slice(&trial);
        r.copy_from_slice(&r_trial);
        *norm = norm_trial;
        // as in model_support.c: a step of a loop of several unknowns cut to a millionth
        // converges only if the full one would; after steps of a singular Jacobian a small
        // step counts only with a small residual
        let cut = !improved && n > 1;
        if converged(x, &step, if cut { CUT_STEP_SCALE } else { factor }) && (!singular || small_residual(x, *norm)) {
            return Status::Ok;
        }
    }
    if !norm_trial.is_finite() {
        check!(residual_norm(m, system, x, &mut r, false, norm)); // back to x
    }
    if !small_residual(x, *norm) {
        *end = if singular { NewtonEnd::Singular } else { NewtonEnd::Stalled };
    }
    Status::Ok
}

/// r(x) of a scalar loop, NaN where it cannot be evaluated.
fn scalar_residual(m: &mut ModelData, system: &NewtonSystem, x: f64) -> f64 {
    let mut r = [0.0];
    let mut norm = 0.0;
    if residual_norm(m, system, &[x], &mut r, true, &mut norm) != Status::Ok || !norm.is_finite() {
        return f64::NAN;
    }
    r[0]
}

fn opposite(a: f64, b: f64) -> bool {
    (a < 0.0 && b > 0.0) || (a > 0.0 && b < 0.0)
}

/// A scalar loop whose Newton iteration stalls where |r| has a local minimum that is no root:
/// look for a sign change of r at distances from x that double on either side, the nearest
/// first, and narrow it down by bisection. Sets x to a point within the tolerance of the sign
/// change; false if none.
fn bracket_root(m: &mut ModelData, system: &NewtonSystem, x: &mut f64) -> bool {
    let r_x = scalar_residual(m, system, *x);
    if !r_x.is_finite() {
        return false;
    }
    if r_x == 0.0 {
        return true;
    }
    let (mut a, mut r_a, mut b) = (*x, r_x, *x);
    let mut found = false;
    let mut d = BRACKET_FIRST * (1.0 + x.abs());
    while !found && d < BRACKET_LAST * (1.0 + x.abs()) {
        for side in 0..2 {
            if found {
                break;
            }
            b = *x + if side == 1 { -d } else { d };
            let r_b = scalar_residual(m, system, b);
            found = r_b.is_finite() && (r_b == 0.0 || opposite(r_x, r_b));
        }
        d *= 2.0;
    }
    if !found {
        return false;
    }
    let mut k = 0;
    while k < BISECTIONS && (b - a).abs() > NEWTON_TOLERANCE * (1.0 + a.abs()) {
        let middle = 0.5 * (a + b);
        let r_middle = scalar_residual(m, system, middle);
        if !r_middle.is_finite() {
            return false;
        }
        if r_middle == 0.0 {
            a = middle;
            b = middle;
        } else if opposite(r_a, r_middle) {
            b = middle;
        } else {
            a = middle;
            r_a = r_middle;
        }
        k += 1;
    }
    *x = 0.5 * (a + b);
    true
}

/// Newton's method with step halving from the guess x, which ends as the solution; on
/// success the model's variables hold the solution.
pub fn solve_newton(m: &mut ModelData, system: &NewtonSystem, x: &mut [f64]) -> Status {
    let mut norm = 0.0;
    let mut end = NewtonEnd::Converged;
    let guess = x.to_vec();
    check!(newton_iterate(m, system, x, &mut norm, &mut end, false));
    if end == NewtonEnd::Converged {
        return Status::Ok;
    }
    if system.n == 1 {
        // Newton again from the sign change: it converges there, or the change is a jump
        let mut polished = [x[0]];
        let mut polished_norm = 0.0;
        let mut polished_end = NewtonEnd::Stalled;
        if bracket_root(m, system, &mut polished[0]) {
            check!(newton_iterate(m, system, &mut polished, &mut polished_norm, &mut polished_end, false));
        }
        if polished_end == NewtonEnd::Converged {
            x[0] = polished[0];
            return Status::Ok;
        }
        let mut r = [0.0];
        check!(residual_norm(m, system, x, &mut r, false, &mut norm)); // the model back at x
    }
    if system.jacobian.is_none() && system.n > 1 {
        // as in model_support.c: again from the guess with central differences
        let mut central = guess;
        let (mut central_norm, mut central_end) = (0.0, NewtonEnd::Stalled);
        check!(newton_iterate(m, system, &mut central, &mut central_norm, &mut central_end, true));
        if central_end == NewtonEnd::Converged {
            x.copy_from_slice(&central);
            return Status::Ok;
        }
        let mut r = vec![0.0; system.n];
        check!(residual_norm(m, system, x, &mut r, false, &mut norm)); // the model back at x
    }
    let status = failure(m);
    let why = if end == NewtonEnd::Singular { "met a singular Jacobian" } else { "did not converge" };
    m.log(status, "logNonlinearSystems", &format!(
        "Newton iteration {} in {} at t = {} (residual {})", why, system.description, format_g(m.time, 17), format_g(norm, 3)));
    status
}
