// lu.rs -- dense LU with partial pivoting, written once for real and complex matrices (the
// two Newton matrices of Radau IIA, and the linear systems of model code). Row-major n x n.
// As fmu_templates/dense_lu_impl.h: the diagonal keeps its reciprocal, so that solves
// multiply; complex pivots are chosen by |re| + |im| as LINPACK does.

use std::ops::{Add, Mul, Neg, Sub};

/// A complex number: just what the LU and Radau's complex Newton system need.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Complex {
    pub re: f64,
    pub im: f64,
}

impl Complex {
    pub fn new(re: f64, im: f64) -> Complex {
        Complex { re, im }
    }
}

impl Add for Complex {
    type Output = Complex;
    fn add(self, b: Complex) -> Complex {
        Complex::new(self.re + b.re, self.im + b.im)
    }
}

impl Sub for Complex {
    type Output = Complex;
    fn sub(self, b: Complex) -> Complex {
        Complex::new(self.re - b.re, self.im - b.im)
    }
}

impl Mul for Complex {
    type Output = Complex;
    fn mul(self, b: Complex) -> Complex {
        Complex::new(self.re * b.re - self.im * b.im, self.re * b.im + self.im * b.re)
    }
}

impl Neg for Complex {
    type Output = Complex;
    fn neg(self) -> Complex {
        Complex::new(-self.re, -self.im)
    }
}

/// The element type of a matrix the LU factors.
pub trait Scalar:
    Copy + Add<Output = Self> + Sub<Output = Self> + Mul<Output = Self> + Neg<Output = Self> + PartialEq
{
    const ZERO: Self;
    const ONE: Self;
    /// The size that chooses pivots.
    fn magnitude(self) -> f64;
    fn reciprocal(self) -> Self;
}

impl Scalar for f64 {
    const ZERO: f64 = 0.0;
    const ONE: f64 = 1.0;
    fn magnitude(self) -> f64 {
        self.abs()
    }
    fn reciprocal(self) -> f64 {
        1.0 / self
    }
}

impl Scalar for Complex {
    const ZERO: Complex = Complex { re: 0.0, im: 0.0 };
    const ONE: Complex = Complex { re: 1.0, im: 0.0 };
    fn magnitude(self) -> f64 {
        self.re.abs() + self.im.abs()
    }
    fn reciprocal(self) -> Complex {
        // Smith's division 1 / (re + i im), as C's complex division avoids overflow
        if self.re.abs() >= self.im.abs() {
            let ratio = self.im / self.re;
            let denominator = self.re + self.im * ratio;
            Complex::new(1.0 / denominator, -ratio / denominator)
        } else {
            let ratio = self.re / self.im;
            let denominator = self.re * ratio + self.im;
            Complex::new(ratio / denominator, -1.0 / denominator)
        }
    }
}

/// Factor `a` in place; 0 on success, k + 1 when column k has no pivot.
pub fn lu_factor<T: Scalar>(n: usize, a: &mut [T], pivot: &mut [usize]) -> usize {
    for k in 0..n {
        let mut p = k;
        let mut largest = a[k * n + k].magnitude();
        for i in k + 1..n {
            let candidate = a[i * n + k].magnitude();
            if candidate > largest {
                largest = candidate;
                p = i;
            }
        }
        pivot[k] = p;
        if largest == 0.0 {
            return k + 1;
        }
        if p != k {
            for j in 0..n {
                a.swap(k * n + j, p * n + j);
            }
        }
        let inverse = a[k * n + k].reciprocal();
        a[k * n + k] = inverse;
        let (upper, lower) = a.split_at_mut((k + 1) * n);
        let pivot_row = &upper[k * n..];
        for row in lower.chunks_exact_mut(n) {
            let factor = row[k] * inverse;
            row[k] = factor;
            if factor == T::ZERO {
                continue;
            }
            for j in k + 1..n {
                row[j] = row[j] - factor * pivot_row[j];
            }
        }
    }
    0
}

/// Solve A x = b in place with the factors of `lu_factor` (slices and zips: the loops run
/// without bounds checks, which matter for the small systems Radau solves at every step).
pub fn lu_solve<T: Scalar>(n: usize, lu: &[T], pivot: &[usize], b: &mut [T]) {
    let lu = &lu[..n * n];
    let b = &mut b[..n];
    for (k, &p) in pivot[..n].iter().enumerate() {
        if p != k {
            b.swap(k, p);
        }
    }
    for i in 1..n {
        let (solved, rest) = b.split_at_mut(i);
        let mut sum = rest[0];
        for (value, x) in lu[i * n..i * n + i].iter().zip(solved.iter()) {
            sum = sum - *value * *x;
        }
        rest[0] = sum;
    }
    for i in (0..n).rev() {
        let row = &lu[i * n..(i + 1) * n];
        let (head, tail) = b.split_at_mut(i + 1);
        let mut sum = head[i];
        for (value, x) in row[i + 1..].iter().zip(tail.iter()) {
            sum = sum - *value * *x;
        }
        head[i] = sum * row[i];
    }
}
