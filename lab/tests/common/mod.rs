//! Helpers shared by the integration tests (`mod common;` in each test file that needs them).
//! Each test binary uses only some of them.
#![allow(dead_code)]

use glam::{DMat3, DQuat, DVec3};
use tribo::realizability::{ContactSpec, TwoContactProblem};

/// Deterministic xorshift64 generator for the randomised tests (fixed seeds: reproducible).
pub struct Rng(pub u64);

impl Rng {
    /// Uniform in `[0, 1)` (53 random bits).
    pub fn next(&mut self) -> f64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 11) as f64 / (1u64 << 53) as f64
    }
    /// Uniform in `[a, b)`.
    pub fn range(&mut self, a: f64, b: f64) -> f64 {
        a + (b - a) * self.next()
    }
    /// Uniformly distributed unit vector (rejection sampling in the unit ball).
    pub fn unit(&mut self) -> DVec3 {
        loop {
            let v = DVec3::new(self.range(-1.0, 1.0), self.range(-1.0, 1.0), self.range(-1.0, 1.0));
            let l = v.length();
            if l > 0.1 && l <= 1.0 {
                return v / l;
            }
        }
    }
    /// Random rotation (random axis, angle uniform in `[0, 2π)`).
    pub fn rot(&mut self) -> DQuat {
        DQuat::from_axis_angle(self.unit(), self.range(0.0, std::f64::consts::TAU))
    }
}

/// Relative difference `|a − b|/|b|`.
pub fn rel(a: f64, b: f64) -> f64 {
    (a - b).abs() / b.abs()
}

/// Random symmetric positive definite matrix with eigenvalues in `[lo, hi)`.
pub fn sym_psd(rng: &mut Rng, lo: f64, hi: f64) -> DMat3 {
    let r = DMat3::from_quat(rng.rot());
    r * DMat3::from_diagonal(DVec3::new(rng.range(lo, hi), rng.range(lo, hi), rng.range(lo, hi)))
        * r.transpose()
}

/// Random radius-of-curvature tensor on the tangent plane of `n`.
pub fn tangent_q(rng: &mut Rng, n: DVec3) -> DMat3 {
    let p = DMat3::IDENTITY - DMat3::from_cols(n * n.x, n * n.y, n * n.z);
    p * sym_psd(rng, 0.05, 0.6) * p
}

/// A random body lying in a V-shaped support under gravity, with random extra loads, spin and
/// curvature: friction coefficients in `mu`, extra force up to `force · m g` per axis, extra
/// torque up to `torque · m g h` per axis.
pub fn random_v_body(rng: &mut Rng, mu: (f64, f64), force: f64, torque: f64) -> TwoContactProblem {
    let mass = rng.range(0.5, 5.0);
    let inertia = sym_psd(rng, 0.05, 0.5) * mass;
    let com = DVec3::new(rng.range(-0.1, 0.1), rng.range(-0.1, 0.1), rng.range(0.0, 0.2));
    let half = rng.range(0.2, 0.6);
    let pp = DVec3::new(half, rng.range(-0.2, 0.2), rng.range(-0.4, -0.1));
    let pm = DVec3::new(-half, rng.range(-0.2, 0.2), rng.range(-0.4, -0.1));
    let np = DVec3::new(-rng.range(0.1, 1.0), rng.range(-0.3, 0.3), 1.0).normalize();
    let nm = DVec3::new(rng.range(0.1, 1.0), rng.range(-0.3, 0.3), 1.0).normalize();
    let cp = ContactSpec::new(pp, np, rng.range(mu.0, mu.1)).with_curvature_radius(tangent_q(rng, np));
    let cm = ContactSpec::new(pm, nm, rng.range(mu.0, mu.1)).with_curvature_radius(tangent_q(rng, nm));
    let g = 9.81;
    let f = DVec3::new(0.0, 0.0, -mass * g)
        + DVec3::new(rng.range(-1.0, 1.0), rng.range(-1.0, 1.0), rng.range(-1.0, 1.0)) * (force * mass * g);
    let t = DVec3::new(rng.range(-1.0, 1.0), rng.range(-1.0, 1.0), rng.range(-1.0, 1.0))
        * (torque * mass * g * half);
    TwoContactProblem::new(mass, inertia, com, [cp, cm], f, t).with_spin(rng.range(-3.0, 3.0))
}
