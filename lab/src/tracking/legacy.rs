//! Legacy friction models of the paper's App. A (docs/tracking.md §6.1), as baselines only: the T2c
//! comparison uses the constant-torque rolling resistance (7)–(8).
//!
//! Conventions: `n` is the unit contact normal; `ω_rel = ω_i − ω_j`; returned loads act on
//! body i (body j receives the opposite).

use glam::DVec3;

/// Split of the relative rotation rate (9)–(10): `(ω_r, ω_sp)` with `ω_sp = (n·ω_rel) n` and
/// `ω_r = ω_rel − ω_sp`.
pub fn split_rotation(omega_i: DVec3, omega_j: DVec3, n: DVec3) -> (DVec3, DVec3) {
    let rel = omega_i - omega_j;
    let sp = n * rel.dot(n);
    (rel - sp, sp)
}

/// Constant-torque rolling resistance (7)–(8) on body i:
/// `M_r = −(ω_r/‖ω_r‖) μ_r R_eff F_n`, using the rolling part `ω_r` of `ω_i − ω_j` (9)–(10).
/// Zero when `ω_r = 0`. Its sign flips with ω, so it chatters around rest (T2c).
pub fn constant_roll_torque(
    omega_i: DVec3,
    omega_j: DVec3,
    n: DVec3,
    mu_r: f64,
    r_eff: f64,
    f_n: f64,
) -> DVec3 {
    let (w_r, _) = split_rotation(omega_i, omega_j, n);
    let len = w_r.length();
    if len > 0.0 && f_n > 0.0 {
        -w_r / len * (mu_r * r_eff * f_n)
    } else {
        DVec3::ZERO
    }
}

/// Cundall–Strack tangential spring (App. A): `ξ = ∫ v_t dt`,
/// `F_t = −min(μ|F_n|, K_t|ξ|) ξ̂ − D_t v_t` with the dashpot off in full sliding; on sliding
/// the spring is reset to the capacity (`|ξ| = μ|F_n|/K_t`).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct CundallStrack {
    /// Accumulated tangential displacement ξ.
    pub xi: DVec3,
}

impl CundallStrack {
    /// Advances with tangential relative velocity `v_t` over `dt` and returns the force on the
    /// body whose velocity is `v_t`.
    pub fn step(&mut self, v_t: DVec3, dt: f64, k_t: f64, d_t: f64, mu: f64, f_n: f64) -> DVec3 {
        self.xi += v_t * dt;
        let cap = mu * f_n.abs();
        let spring = k_t * self.xi.length();
        if spring > cap {
            self.xi *= cap / spring;
            -self.xi * k_t
        } else {
            -self.xi * k_t - v_t * d_t
        }
    }
}

/// Spring–dashpot rolling resistance (App. A): `M_k ← M_k − K_r ω_r Δt` capped at
/// `μ_r R_eff F_n`, plus `M_d = −C_r ω_r` off when saturated. Returns the torque on body i.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SpringDashpotRoll {
    /// Spring torque M_r^k.
    pub m_k: DVec3,
}

impl SpringDashpotRoll {
    /// Advances with rolling rate `omega_r` (of body i relative to j).
    pub fn step(&mut self, omega_r: DVec3, dt: f64, k_r: f64, c_r: f64, cap: f64) -> DVec3 {
        self.m_k -= omega_r * (k_r * dt);
        let m = self.m_k.length();
        if m > cap {
            self.m_k *= cap / m;
            self.m_k
        } else {
            self.m_k - omega_r * c_r
        }
    }
}

/// Marshall's spin model (11): `M_sp = −K_sp ∫ω_sp dt − D_sp ω_sp`, capped at `(2/3) μ F_n a`
/// (dashpot off when saturated). Scalar about the normal; returns the torque on body i.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct MarshallSpin {
    /// Spring torque.
    pub m_k: f64,
}

impl MarshallSpin {
    /// Advances with spin rate `omega_sp = n·(ω_i − ω_j)`; `k_sp = K_t a²/2`,
    /// `d_sp = D_t a²/2` in the original; `cap` from [`MarshallSpin::capacity`].
    pub fn step(&mut self, omega_sp: f64, dt: f64, k_sp: f64, d_sp: f64, cap: f64) -> f64 {
        self.m_k -= k_sp * omega_sp * dt;
        if self.m_k.abs() > cap {
            self.m_k = cap.copysign(self.m_k);
            self.m_k
        } else {
            self.m_k - d_sp * omega_sp
        }
    }
}

impl MarshallSpin {
    /// Marshall's cap `(2/3) μ |F_n| a`.
    pub fn capacity(mu: f64, f_n: f64, a: f64) -> f64 {
        2.0 / 3.0 * mu * f_n.abs() * a
    }
}

/// Lubkin's critical spin moment of a Hertz patch of radius `a`: `(3π/16) μ F_n a`.
pub fn lubkin_spin_moment(mu: f64, f_n: f64, a: f64) -> f64 {
    3.0 * std::f64::consts::PI / 16.0 * mu * f_n * a
}
