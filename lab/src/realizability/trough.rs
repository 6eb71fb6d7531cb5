//! Ball in a horizontal right-angle trough (\[004\] §6, docs/realizability.md §4): closed forms.
//!
//! Homogeneous ball (radius `r`, mass `m`, inertia `j m r² I`) touching two perpendicular
//! walls; `e_x` = inward normal of the wall at `P⁻`, `e_y` = inward normal of the wall at `P⁺`,
//! `e_z` = trough axis. Gravity `F_e = −G (e_x + e_y)` with `G = m g/√2`, constant torque
//! `M_e = G r (m_x, m_y, m_z)` (dimensionless torques `m = √2 M/(m g r)`, \[004\] (79)).
//!
//! [`Trough::problem`] builds the *generic* [`TwoContactProblem`] for this body, so that the
//! general method is exercised; the free functions are the paper's closed forms (with the
//! docs/realizability.md §6 corrections), used as independent checks.

use glam::{DMat3, DVec3};
use std::f64::consts::SQRT_2;
use tribo::realizability::{ContactSpec, TwoContactProblem};

/// Inertia ratio of a solid homogeneous ball.
pub const J_SOLID: f64 = 0.4;

/// Ball-in-trough parameters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Trough {
    /// Friction coefficient at both walls (`0 < μ < 1` for a well-posed SS analysis).
    pub mu: f64,
    /// Inertia ratio `j` (`J = j m r² I`).
    pub j: f64,
    /// Mass \[kg\] (results are independent of it).
    pub mass: f64,
    /// Radius \[m\] (results are independent of it).
    pub radius: f64,
    /// Gravitational acceleration [m/s²].
    pub g: f64,
}

impl Trough {
    /// `m = 1 kg`, `r = 1 m`, `g = 9.81 m/s²`.
    pub fn new(mu: f64, j: f64) -> Self {
        Trough { mu, j, mass: 1.0, radius: 1.0, g: 9.81 }
    }

    /// Sets mass and radius.
    pub fn with_mass_radius(mut self, mass: f64, radius: f64) -> Self {
        self.mass = mass;
        self.radius = radius;
        self
    }

    /// `G = m g/√2` \[N\].
    pub fn big_g(&self) -> f64 {
        self.mass * self.g / SQRT_2
    }

    /// The generic two-contact problem for dimensionless torques `m = (m_x, m_y, m_z)`
    /// (docs/realizability.md §7.2 construction: `r⁺ = −r e_y`, `r⁻ = −r e_x`, `n⁺ = e_y`, `n⁻ = e_x`,
    /// `Q± = r (I − n nᵀ)`).
    pub fn problem(&self, m: [f64; 3]) -> TwoContactProblem {
        let r = self.radius;
        let gg = self.big_g();
        let q = |n: DVec3| (DMat3::IDENTITY - DMat3::from_cols(n * n.x, n * n.y, n * n.z)) * r;
        let cp =
            ContactSpec::new(DVec3::new(0.0, -r, 0.0), DVec3::Y, self.mu).with_curvature_radius(q(DVec3::Y));
        let cm =
            ContactSpec::new(DVec3::new(-r, 0.0, 0.0), DVec3::X, self.mu).with_curvature_radius(q(DVec3::X));
        TwoContactProblem::new(
            self.mass,
            DMat3::IDENTITY * (self.j * self.mass * r * r),
            DVec3::ZERO,
            [cp, cm],
            -DVec3::new(gg, gg, 0.0),
            DVec3::new(m[0], m[1], m[2]) * (gg * r),
        )
    }

    /// The ball in the trough with its axis tilted by `theta` (rad) and no torque: gravity
    /// `m g (sin θ e_z − cos θ (e_x + e_y)/√2)` (down the axis along `+e_z`), the ball turning
    /// at `spin` (rad/s) about the chord `a = (e_x − e_y)/√2` from `P⁻` to `P⁺` (two-point
    /// rolling at `v = spin r/√2` along `+e_z`). Same construction as [`Trough::problem`].
    pub fn tilted_problem(&self, theta: f64, spin: f64) -> TwoContactProblem {
        let (s, c) = theta.sin_cos();
        let mut p = self.problem([0.0; 3]).with_spin(spin);
        p.applied_force = DVec3::new(-c / SQRT_2, -c / SQRT_2, s) * (self.mass * self.g);
        p
    }

    /// Two-point rolling acceleration along the trough (\[004\] (78)):
    /// `v̇ = g (m_x − m_y)/(√2 (1 + 2j))`.
    pub fn rr_acceleration(&self, m: [f64; 3]) -> f64 {
        self.g * (m[0] - m[1]) / (SQRT_2 * (1.0 + 2.0 * self.j))
    }

    /// RS one-sided slip acceleration `u̇1⁻(σ)` (docs/realizability.md §4.4).
    pub fn rs_slip_acc(&self, m: [f64; 3], sigma: f64) -> f64 {
        let (mu, j) = (self.mu, self.j);
        self.g / SQRT_2 * (j * m[0] + (1.0 + j) * m[1] - sigma * mu * (1.0 + 2.0 * j) * (1.0 + m[2]))
            / (j * (1.0 + j))
    }

    /// SR one-sided slip acceleration `u̇1⁺(σ)` (docs/realizability.md §4.4).
    pub fn sr_slip_acc(&self, m: [f64; 3], sigma: f64) -> f64 {
        let (mu, j) = (self.mu, self.j);
        self.g / SQRT_2 * (-(1.0 + j) * m[0] - j * m[1] - sigma * mu * (1.0 + 2.0 * j) * (1.0 - m[2]))
            / (j * (1.0 + j))
    }

    /// `|j m_x + (1+j) m_y| < μ(1+2j)(1 + m_z)` (\[004\] (82)).
    pub fn rs_ok(&self, m: [f64; 3]) -> bool {
        let (mu, j) = (self.mu, self.j);
        (j * m[0] + (1.0 + j) * m[1]).abs() < mu * (1.0 + 2.0 * j) * (1.0 + m[2])
    }

    /// `|(1+j) m_x + j m_y| < μ(1+2j)(1 − m_z)` (\[004\] (83)).
    pub fn sr_ok(&self, m: [f64; 3]) -> bool {
        let (mu, j) = (self.mu, self.j);
        ((1.0 + j) * m[0] + j * m[1]).abs() < mu * (1.0 + 2.0 * j) * (1.0 - m[2])
    }

    /// The SS limit field (\[004\] (85)–(86)) in `(u1⁺, u1⁻, u2)` coordinates at the friction
    /// angles `(φ⁺, φ⁻)`: returns `(u̇1⁺, u̇1⁻, u̇2, v̇)` and `(N⁺, N⁻)`.
    pub fn ss_field(&self, m: [f64; 3], phi_p: f64, phi_m: f64) -> ([f64; 4], [f64; 2]) {
        let (mu, j) = (self.mu, self.j);
        let (sp, cp) = phi_p.sin_cos();
        let (sm, cm) = phi_m.sin_cos();
        let gg = self.big_g();
        let d = 1.0 + mu * mu * sp * sm;
        let np = gg * (1.0 - mu * sm) / d;
        let nm = gg * (1.0 + mu * sp) / d;
        let mass = self.mass;
        let mr = gg / mass; // M_e/(r m) per unit dimensionless torque
        let u1p = -m[0] * mr / j - mu * (1.0 + j) / (j * mass) * np * cp - mu / mass * nm * cm;
        let u1m = m[1] * mr / j - mu * (1.0 + j) / (j * mass) * nm * cm - mu / mass * np * cp;
        let u2 = m[2] * mr / j - mu / (mass * j) * (np * sp + nm * sm);
        let v = -mu / mass * (np * cp + nm * cm);
        ([u1p, u1m, u2, v], [np, nm])
    }

    /// The attracting/repelling boundary surface (\[004\] (88)) at `(φ⁺, φ⁻)`.
    pub fn boundary_surface(&self, phi_p: f64, phi_m: f64) -> [f64; 3] {
        let (mu, j) = (self.mu, self.j);
        let (sp, cp) = phi_p.sin_cos();
        let (sm, cm) = phi_m.sin_cos();
        let d = 1.0 + mu * mu * sp * sm;
        [
            -mu * ((1.0 + j) * cp * (1.0 - mu * sm) + j * cm * (1.0 + mu * sp)) / d,
            mu * ((1.0 + j) * cm * (1.0 + mu * sp) + j * cp * (1.0 - mu * sm)) / d,
            mu * (sp + sm) / d,
        ]
    }

    /// Whether admissible two-point rolling forces exist ("possible", docs/realizability.md §7.2 B10 oracle).
    pub fn possible(&self, m: [f64; 3]) -> bool {
        let (mu, j) = (self.mu, self.j);
        let t1p = ((1.0 + j) * m[0] + j * m[1]) / (1.0 + 2.0 * j);
        let t1m = -((1.0 + j) * m[1] + j * m[0]) / (1.0 + 2.0 * j);
        let mz = m[2];
        if mz.abs() >= 1.0 {
            return false;
        }
        let k = 1.0 - mu * mu;
        let dp = mu * mu * (1.0 - mz).powi(2) - k * t1p * t1p;
        let dm = mu * mu * (1.0 + mz).powi(2) - k * t1m * t1m;
        if dp < 0.0 || dm < 0.0 {
            return false;
        }
        let ip = ((-mu * mu * (1.0 - mz) - dp.sqrt()) / k, (-mu * mu * (1.0 - mz) + dp.sqrt()) / k);
        let im = ((-mu * mu * (1.0 + mz) - dm.sqrt()) / k - mz, (-mu * mu * (1.0 + mz) + dm.sqrt()) / k - mz);
        ip.0.max(im.0) <= ip.1.min(im.1)
    }
}

/// `m_z1 = 2μ²/(1 + μ²)` (\[004\] (90), circles).
pub fn mz1(mu: f64) -> f64 {
    2.0 * mu * mu / (1.0 + mu * mu)
}

/// `m_z2 = (μ² + μ)/(2μ² − μ + 1)` (\[004\] (90), squares).
pub fn mz2(mu: f64) -> f64 {
    (mu * mu + mu) / (2.0 * mu * mu - mu + 1.0)
}

/// `m_z3 = 2μ/(1 + μ²)` (\[004\] (90), triangles: apex of the realizable region).
pub fn mz3(mu: f64) -> f64 {
    2.0 * mu / (1.0 + mu * mu)
}

/// Maximal realizable acceleration along the trough `√2 μ g` (\[004\] (91)).
pub fn max_acceleration(mu: f64, g: f64) -> f64 {
    SQRT_2 * mu * g
}

/// Converts a direction `d` in `(u1⁺, u1⁻, u_a)` and its radial value `R` to the paper's
/// `(u1⁺, u1⁻, u2)` coordinates (`u2 = √2 u_a`, \[C\] of docs/realizability.md §4.2): returns the unit
/// direction and `R` there.
pub fn to_paper_coords(d: DVec3, r: f64) -> (DVec3, f64) {
    let dp = DVec3::new(d.x, d.y, SQRT_2 * d.z);
    let l = dp.length();
    (dp / l, r * l)
}
