//! Real trigonometric polynomials of degree ≤ 2 and their roots on the circle.
//!
//! Used for the circumferential and radial parts `V(φ)`, `R(φ)` of single-contact limit
//! fields (docs/realizability.md §2.3, §2.8): `p(φ) = a0 + a1 cos φ + b1 sin φ + a2 cos 2φ + b2 sin 2φ`.

use nalgebra::Matrix4;
use std::f64::consts::PI;

/// `a0 + a1 cos φ + b1 sin φ + a2 cos 2φ + b2 sin 2φ`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct TrigPoly2 {
    /// Constant term.
    pub a0: f64,
    /// Coefficient of `cos φ`.
    pub a1: f64,
    /// Coefficient of `sin φ`.
    pub b1: f64,
    /// Coefficient of `cos 2φ`.
    pub a2: f64,
    /// Coefficient of `sin 2φ`.
    pub b2: f64,
}

/// Roots of a [`TrigPoly2`] with the two independent counts of docs/realizability.md §2.3.
#[derive(Clone, Debug, Default)]
pub struct TrigRoots {
    /// Distinct roots in `[0, 2π)`, sorted.
    pub roots: Vec<f64>,
    /// Number of real roots from the companion matrix of the half-angle quartic.
    pub companion_count: usize,
    /// Number of sign changes on a 720-point equispaced sampling.
    pub sampled_count: usize,
}

impl TrigPoly2 {
    /// Value at `φ`.
    pub fn eval(&self, phi: f64) -> f64 {
        let (s, c) = phi.sin_cos();
        let (s2, c2) = (2.0 * s * c, c * c - s * s);
        self.a0 + self.a1 * c + self.b1 * s + self.a2 * c2 + self.b2 * s2
    }

    /// Derivative `dp/dφ` at `φ`.
    pub fn deriv(&self, phi: f64) -> f64 {
        let (s, c) = phi.sin_cos();
        let (s2, c2) = (2.0 * s * c, c * c - s * s);
        -self.a1 * s + self.b1 * c - 2.0 * self.a2 * s2 + 2.0 * self.b2 * c2
    }

    /// Largest coefficient magnitude.
    pub fn scale(&self) -> f64 {
        [self.a0, self.a1, self.b1, self.a2, self.b2].iter().fold(0.0f64, |m, x| m.max(x.abs()))
    }

    /// Exact coefficients from 8 samples at `φ_k = 2πk/8` (aliasing-free for degree ≤ 3).
    pub fn from_samples8(f: &[f64; 8]) -> Self {
        let mut p = TrigPoly2::default();
        for (k, &v) in f.iter().enumerate() {
            let phi = 2.0 * PI * k as f64 / 8.0;
            let (s, c) = phi.sin_cos();
            let (s2, c2) = (2.0 * s * c, c * c - s * s);
            p.a0 += v / 8.0;
            p.a1 += v * c / 4.0;
            p.b1 += v * s / 4.0;
            p.a2 += v * c2 / 4.0;
            p.b2 += v * s2 / 4.0;
        }
        p
    }

    /// The polynomial `ψ ↦ p(ψ + s)`.
    pub fn shifted(&self, s: f64) -> Self {
        let (ss, cs) = s.sin_cos();
        let (ss2, cs2) = (2.0 * s).sin_cos();
        TrigPoly2 {
            a0: self.a0,
            a1: self.a1 * cs + self.b1 * ss,
            b1: -self.a1 * ss + self.b1 * cs,
            a2: self.a2 * cs2 + self.b2 * ss2,
            b2: -self.a2 * ss2 + self.b2 * cs2,
        }
    }

    /// All roots in `[0, 2π)`: companion-matrix roots of the half-angle quartic (after a
    /// rotation that keeps the leading coefficient away from zero), polished by Newton, united
    /// with bracketed sign changes of a 720-point sampling; duplicates closer than `1e-9` rad
    /// are merged. Returns no roots for the zero polynomial and for non-finite coefficients.
    pub fn roots(&self) -> TrigRoots {
        let scale = self.scale();
        // `scale` alone would miss a NaN coefficient (`f64::max` ignores NaN); a NaN companion
        // matrix must not reach the eigenvalue iteration.
        let finite = [self.a0, self.a1, self.b1, self.a2, self.b2].iter().all(|x| x.is_finite());
        if !finite || !(scale > 0.0) {
            return TrigRoots::default();
        }
        // Rotation keeping q(π) (the t⁴ coefficient) large.
        let mut best = (0.0, -1.0);
        for k in 0..16 {
            let s = 2.0 * PI * k as f64 / 16.0;
            let v = self.eval(s + PI).abs();
            if v > best.1 {
                best = (s, v);
            }
        }
        let shift = best.0;
        let q = self.shifted(shift);
        // q(ψ)(1+t²)² with t = tan(ψ/2):
        let c4 = q.a0 - q.a1 + q.a2;
        let c3 = 2.0 * q.b1 - 4.0 * q.b2;
        let c2 = 2.0 * q.a0 - 6.0 * q.a2;
        let c1 = 2.0 * q.b1 + 4.0 * q.b2;
        let c0 = q.a0 + q.a1 + q.a2;
        let mut cand: Vec<f64> = Vec::new();
        let mut companion_count = 0;
        if c4.abs() > 1e-14 * scale {
            let comp = Matrix4::new(
                -c3 / c4,
                -c2 / c4,
                -c1 / c4,
                -c0 / c4, //
                1.0,
                0.0,
                0.0,
                0.0, //
                0.0,
                1.0,
                0.0,
                0.0, //
                0.0,
                0.0,
                1.0,
                0.0,
            );
            for z in comp.complex_eigenvalues().iter() {
                if z.im.abs() <= 1e-6 * (1.0 + z.re.abs()) {
                    companion_count += 1;
                    cand.push(2.0 * z.re.atan() + shift);
                }
            }
        }
        // Sampling pass (docs/realizability.md §2.3 verification): sign changes on 720 angles.
        let n = 720;
        let mut sampled_count = 0;
        let off = 1.234_567e-3;
        let mut prev = self.eval(off);
        for k in 1..=n {
            let x1 = off + 2.0 * PI * k as f64 / n as f64;
            let v1 = self.eval(x1);
            if (prev < 0.0 && v1 >= 0.0) || (prev > 0.0 && v1 <= 0.0) {
                sampled_count += 1;
                let x0 = off + 2.0 * PI * (k - 1) as f64 / n as f64;
                cand.push(self.bisect(x0, x1));
            }
            prev = v1;
        }
        let tol_v = 1e-9 * scale;
        let mut roots: Vec<f64> = Vec::new();
        for c in cand {
            let r = self.polish(c);
            if self.eval(r).abs() > tol_v {
                continue;
            }
            let r = r.rem_euclid(2.0 * PI);
            if !roots.iter().any(|&x| circ_dist(x, r) < 1e-9) {
                roots.push(r);
            }
        }
        roots.sort_by(f64::total_cmp);
        TrigRoots { roots, companion_count, sampled_count }
    }

    fn bisect(&self, mut lo: f64, mut hi: f64) -> f64 {
        let mut flo = self.eval(lo);
        for _ in 0..80 {
            let mid = 0.5 * (lo + hi);
            let fm = self.eval(mid);
            if fm == 0.0 {
                return mid;
            }
            if (fm < 0.0) == (flo < 0.0) {
                lo = mid;
                flo = fm;
            } else {
                hi = mid;
            }
        }
        0.5 * (lo + hi)
    }

    fn polish(&self, mut x: f64) -> f64 {
        for _ in 0..30 {
            let f = self.eval(x);
            let d = self.deriv(x);
            if d == 0.0 || !d.is_finite() {
                break;
            }
            let step = f / d;
            if step.abs() > 0.5 {
                break;
            }
            let xn = x - step;
            if self.eval(xn).abs() > f.abs() {
                break;
            }
            x = xn;
            if step.abs() < 1e-16 {
                break;
            }
        }
        x
    }
}

/// Distance of two angles on the circle.
pub(crate) fn circ_dist(a: f64, b: f64) -> f64 {
    let d = (a - b).rem_euclid(2.0 * PI);
    d.min(2.0 * PI - d)
}
