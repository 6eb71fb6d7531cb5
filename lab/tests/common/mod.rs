//! Helpers shared by the integration tests (`mod common;` in each test file that needs them).
//! Each test binary uses only some of them.
#![allow(dead_code)]

use glam::{DQuat, DVec3};

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
