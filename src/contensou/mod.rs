//! # Finite-patch Contensou friction (coupled slide/spin of a circular contact patch)
//!
//! A flat patch of radius `R` slides with velocity `u = (u_x, u_y)` (velocity of the body point
//! at the patch centre) and spins with `ω` about the normal on a fixed plane. Integrating the
//! local Coulomb law `q = −μ p v/|v|` over the patch (the *Contensou integrals*, docs/contensou.md §1.2)
//! couples sliding and spin: spinning lowers the sliding resistance and sliding lowers the
//! spin torque. The result depends only on the slip–spin ratio `ε = |u|/(R|ω|)`:
//!
//! ```text
//! |Q| = μP 𝒬(ε)   (Q antiparallel to u),     T_z = −μPκ 𝒯(ε) sgn ω
//! ```
//!
//! with `P` the normal force and `κ` the pressure-weighted mean radius (`2R/3` uniform,
//! `3πR/16` Hertz).
//!
//! * [`Patch`] — a validated circular patch (radius, μ, normal force, [`Pressure`]);
//!   [`Patch::resultant`] gives the force and torque **on the body** in SI units for any
//!   [`Model`]; [`Patch::resultant_vec`] is the frame-free 3D form (contact normal, relative
//!   velocity and angular velocity in world coordinates) for engine adapters;
//!   [`Patch::limits`] gives the coupled slide/spin capacities `μP𝒬(ε)`, `μPκ𝒯(ε)` and the
//!   effective sliding coefficient `μ𝒬(ε)` (what an engine that enforces separate slide and
//!   spin limits sets each step from the current slip/spin ratio). [`hertz_radius`] and
//!   [`Patch::hertz_sphere`] build Hertz patches.
//! * [`Model`] — [`Model::Exact`] (closed forms with elliptic integrals, ≤ 1e-13 relative error
//!   over ε ∈ [1e-8, 1e8], ≈ 30–250 ns), fitted linear-ellipsoidal [`Model::Linear`]
//!   (sup error 0.12/0.15), harmonic models [`Model::Harmonic`] of degree 1–6 (N = 4: 0.015 /
//!   0.028), the generalised Padé family [`Model::Pade`] of Kudra & Awrejcewicz, and the
//!   smooth regularised model [`Model::Smooth`] with a stick phase and a static peak
//!   (`η = μ_s/μ_k`, [`Smooth`]). Errors are sup-norm errors of `𝒬`/`𝒯` (uniform pressure,
//!   ρ = κ), measured by the laboratory's accuracy table (docs/contensou.md §3).
//! * [`q_eps`], [`t_eps`] — the dimensionless exact functions `𝒬(ε)`, `𝒯(ε)`;
//!   [`Patch::reduced`] gives `(𝒬, 𝒯)` of any model.
//! * [`GenericPatch`] — numerical integration of the Contensou integrals for an arbitrary
//!   pressure field on a circular or elliptical patch (docs/contensou.md §2.7), its pressure
//!   [`Moments`], and \[B\]'s generic-patch Padé and smooth models of order 1 ([`pade_n1`],
//!   [`smooth_n1`]).
//!
//! Zero slip and zero spin is stick: the Coulomb law is set-valued there, so the non-smooth
//! models return [`ContensouError::Stick`] (docs/contensou.md §2.6 DECISION); [`Model::Smooth`] is defined
//! everywhere. Bad input (NaN, negative μ/radius/normal force, invalid model parameters) is a
//! [`ContensouError`]; no evaluation returns NaN.
//!
//! Sources: docs/contensou.md (docs/contensou.md), after \[A\] (finite circular contact
//! region, exact and harmonic models) and \[B\] Kudra & Awrejcewicz, J. Theor. Appl. Mech.
//! 54(3) 2016 (Padé and smooth regularised models).
//!
//! ```
//! use tribo::contensou::{Model, Patch, Pressure};
//! let patch = Patch::new(0.01, 0.5, 100.0, Pressure::Hertz).unwrap();
//! // slide at 1 m/s along x while spinning at 100 rad/s: ε = 1/(0.01·100) = 1
//! let load = patch.resultant(&Model::Exact, [1.0, 0.0], 100.0).unwrap();
//! assert!((load.force[0] + 0.5 * 100.0 * 9.0 * std::f64::consts::PI / 32.0).abs() < 1e-9);
//! assert!(load.torque < 0.0);
//! ```

// `!(x > 0.0)` is used on purpose: it also rejects NaN. Index loops mirror the formulas.
#![allow(clippy::neg_cmp_op_on_partial_ord, clippy::needless_range_loop)]

mod approx;
mod elliptic;
mod exact;
mod generic;
mod quad;
#[cfg(test)]
mod tests_exact;
#[cfg(test)]
mod tests_quadrature;

pub use approx::{
    eta_of_eta_prime, eta_prime_fit, eta_prime_of_eta, smooth_factor, HarmonicTable, MAX_HARMONIC_DEGREE,
};
pub use exact::REFERENCE_TABLE;
pub use generic::{pade_n1, smooth_n1, GenericPatch, Moments};
use glam::DVec3;
use std::fmt;
use std::sync::Arc;

/// Axisymmetric normal-pressure distribution over the circular patch (docs/contensou.md §1.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Pressure {
    /// Uniform pressure `P/(πR²)` (a flat punch / a disc face). `κ = 2R/3`.
    Uniform,
    /// Hertz (semi-ellipsoidal) pressure `(3P/(2πR²))·sqrt(1 − ξ²/R²)` (a ball on a plane).
    /// `κ = 3πR/16`.
    Hertz,
}

impl Pressure {
    /// `κ/R`, the pressure-weighted mean radius over the patch radius (\[A\] (76)–(77)).
    pub fn kappa_ratio(self) -> f64 {
        match self {
            Pressure::Uniform => 2.0 / 3.0,
            Pressure::Hertz => 3.0 * std::f64::consts::PI / 16.0,
        }
    }
}

/// Errors of the Contensou API.
#[derive(Clone, Debug, PartialEq)]
pub enum ContensouError {
    /// Patch radius must be finite and ≥ 0.
    InvalidRadius(f64),
    /// Friction coefficient must be finite and ≥ 0.
    InvalidMu(f64),
    /// Normal force must be finite and ≥ 0.
    InvalidNormalForce(f64),
    /// The length ρ of the w-models must be finite and > 0.
    InvalidRho(f64),
    /// A model parameter is out of range (name, value).
    InvalidParameter(&'static str, f64),
    /// Harmonic degree outside `1..=6`.
    InvalidHarmonicDegree(u8),
    /// Slip velocity or spin is NaN or infinite.
    NonFiniteInput,
    /// Zero slip and zero spin: the Coulomb law is set-valued (stick). Only the non-smooth
    /// models report this; [`Model::Smooth`] is defined there.
    Stick,
}

impl fmt::Display for ContensouError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ContensouError::InvalidRadius(v) => write!(f, "patch radius must be finite and >= 0, got {v}"),
            ContensouError::InvalidMu(v) => {
                write!(f, "friction coefficient must be finite and >= 0, got {v}")
            }
            ContensouError::InvalidNormalForce(v) => {
                write!(f, "normal force must be finite and >= 0, got {v}")
            }
            ContensouError::InvalidRho(v) => write!(f, "length rho must be finite and > 0, got {v}"),
            ContensouError::InvalidParameter(n, v) => write!(f, "invalid model parameter {n} = {v}"),
            ContensouError::InvalidHarmonicDegree(n) => write!(f, "harmonic degree must be 1..=6, got {n}"),
            ContensouError::NonFiniteInput => write!(f, "slip velocity and spin must be finite"),
            ContensouError::Stick => write!(f, "zero slip and zero spin: friction is set-valued (stick)"),
        }
    }
}

impl std::error::Error for ContensouError {}

/// Parameters of the smooth regularised model with a static peak (\[B\] (4.5), docs/contensou.md §3.5).
///
/// `S = |u|² + b²(Rω)² + ε_reg²`, `f = S^{-1/2} + η′ ε_reg³ S^{-2}`;
/// force `−μP f u`, torque `−μPκ b f Rω`. The reachable set of (force/μP, torque/μPκ) is the
/// disc of radius `η` (static-to-kinetic ratio); at large slip it tends to the Padé `m = 2`
/// law with the same `b`.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(try_from = "SmoothRecord", into = "SmoothRecord"))]
pub struct Smooth {
    eps_reg: f64,
    eta: f64,
    eta_prime: f64,
    b: f64,
}

/// The serialized form of [`Smooth`], checked like its constructors when read.
#[cfg(feature = "serde")]
#[derive(Clone, Copy, serde::Serialize, serde::Deserialize)]
struct SmoothRecord {
    eps_reg: f64,
    eta: f64,
    eta_prime: f64,
    b: f64,
}

#[cfg(feature = "serde")]
impl From<Smooth> for SmoothRecord {
    fn from(s: Smooth) -> Self {
        SmoothRecord { eps_reg: s.eps_reg, eta: s.eta, eta_prime: s.eta_prime, b: s.b }
    }
}

#[cfg(feature = "serde")]
impl TryFrom<SmoothRecord> for Smooth {
    type Error = ContensouError;
    fn try_from(r: SmoothRecord) -> Result<Self, ContensouError> {
        let s = Smooth::from_eta_prime(r.eps_reg, r.eta_prime)?.with_b(r.b)?;
        if approx::eta_prime_of_eta(r.eta).is_none() {
            return Err(ContensouError::InvalidParameter("eta", r.eta));
        }
        // η as written (η and η′ are each other's inverse only to rounding).
        Ok(Smooth { eta: r.eta, ..s })
    }
}
impl Smooth {
    /// Regularisation velocity `eps_reg > 0` (m/s, in the units of the slip velocity) and
    /// static-to-kinetic ratio `eta ≥ 1` (`μ_s/μ_k`; `μ` of the [`Patch`] is the kinetic
    /// coefficient). `η′` is found by exact inversion (docs/contensou.md §3.5 DECISION). `b` defaults to
    /// 1 (\[B\]'s choice); see [`Smooth::with_b`].
    pub fn new(eps_reg: f64, eta: f64) -> Result<Self, ContensouError> {
        if !(eps_reg > 0.0) || !eps_reg.is_finite() {
            return Err(ContensouError::InvalidParameter("eps_reg", eps_reg));
        }
        let eta_prime = approx::eta_prime_of_eta(eta).ok_or(ContensouError::InvalidParameter("eta", eta))?;
        Ok(Smooth { eps_reg, eta, eta_prime, b: 1.0 })
    }

    /// Builds from a given shape parameter `η′ ≥ 0` (e.g. to reproduce a published setting);
    /// `η` is computed from it.
    pub fn from_eta_prime(eps_reg: f64, eta_prime: f64) -> Result<Self, ContensouError> {
        if !(eps_reg > 0.0) || !eps_reg.is_finite() {
            return Err(ContensouError::InvalidParameter("eps_reg", eps_reg));
        }
        if !(eta_prime >= 0.0) || !eta_prime.is_finite() {
            return Err(ContensouError::InvalidParameter("eta_prime", eta_prime));
        }
        Ok(Smooth { eps_reg, eta: approx::eta_of_eta_prime(eta_prime).0, eta_prime, b: 1.0 })
    }

    /// Sets the spin weight `b > 0` (`ρ = bR` in \[A\]'s terms; `b = κ/R` makes the sliding
    /// part equal to the fitted linear model with ρ = κ, the more accurate choice).
    pub fn with_b(mut self, b: f64) -> Result<Self, ContensouError> {
        if !(b > 0.0) || !b.is_finite() {
            return Err(ContensouError::InvalidParameter("b", b));
        }
        self.b = b;
        Ok(self)
    }

    /// Regularisation velocity.
    pub fn eps_reg(&self) -> f64 {
        self.eps_reg
    }
    /// Static-to-kinetic ratio η.
    pub fn eta(&self) -> f64 {
        self.eta
    }
    /// Shape parameter η′.
    pub fn eta_prime(&self) -> f64 {
        self.eta_prime
    }
    /// Spin weight b.
    pub fn b(&self) -> f64 {
        self.b
    }
}

/// Friction law used to evaluate a [`Patch`].
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Model {
    /// Exact Contensou integrals (closed forms, docs/contensou.md §2.4).
    Exact,
    /// Fitted linear-ellipsoidal model (\[A\] (69)) with the patch's ρ (default κ).
    Linear,
    /// Harmonic model of degree N = 1…6 (\[A\] §6, docs/contensou.md §3.2) with the patch's ρ.
    Harmonic(u8),
    /// Generalised Padé model of order n = 1 (\[B\] (3.5)): `L = (|u|^m + b^m (R|ω|)^m)^{1/m}`,
    /// force `−μP u/L`, torque `−μPκ b Rω/L`. `m = 2, b = κ/R` equals [`Model::Linear`].
    Pade {
        /// Exponent `m > 0`.
        m: f64,
        /// Spin weight `b > 0`.
        b: f64,
    },
    /// Smooth regularised model with stick and static peak (\[B\] (4.5)).
    Smooth(Smooth),
}

impl Model {
    /// \[B\]'s example setting of the Padé model: `m = 2`, `b = 1`.
    pub const PADE_KUDRA: Model = Model::Pade { m: 2.0, b: 1.0 };

    /// Checks the model's parameters.
    pub fn validate(&self) -> Result<(), ContensouError> {
        match *self {
            Model::Harmonic(n) if n == 0 || n as usize > MAX_HARMONIC_DEGREE => {
                Err(ContensouError::InvalidHarmonicDegree(n))
            }
            Model::Pade { m, b } => {
                if !(m > 0.0) || !m.is_finite() {
                    Err(ContensouError::InvalidParameter("m", m))
                } else if !(b > 0.0) || !b.is_finite() {
                    Err(ContensouError::InvalidParameter("b", b))
                } else {
                    Ok(())
                }
            }
            _ => Ok(()),
        }
    }
}

/// Force and torque of the patch **on the body** (SI units: N, N·m), about the patch centre.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PatchLoad {
    /// Tangential force `(Q_x, Q_y)`, opposing the slip.
    pub force: [f64; 2],
    /// Torque about the contact normal, opposing the spin.
    pub torque: f64,
}

/// Force and torque of the patch on the body as 3D vectors (world frame), see
/// [`Patch::resultant_vec`].
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PatchLoad3 {
    /// Tangential friction force (N), in the contact plane, opposing the slip.
    pub force: DVec3,
    /// Friction torque about the contact normal through the patch centre (N·m), along ±n.
    pub torque: DVec3,
}

/// Coupled slide/spin friction capacities for one slip/spin state (see [`Patch::limits`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SlideSpinLimits {
    /// Slip–spin ratio `ε = |u|/(R|ω|)` (∞ for pure sliding, 0 for pure spin).
    pub slip_spin_ratio: f64,
    /// Effective sliding friction coefficient `μ𝒬(ε)` (≤ μ).
    pub slide_coefficient: f64,
    /// Maximum tangential force `μP𝒬(ε)` (N).
    pub force: f64,
    /// Maximum spin torque `μPκ𝒯(ε)` (N·m).
    pub torque: f64,
}

/// A circular contact patch with axisymmetric pressure.
#[derive(Clone, Debug, PartialEq)]
pub struct Patch {
    radius: f64,
    mu: f64,
    normal_force: f64,
    pressure: Pressure,
    rho: f64,
    harmonic: Arc<HarmonicTable>,
}

/// Hertz contact radius of a sphere (radius `curvature_radius`) pressed on a plane with normal
/// force `normal_force`: `a = (3 N R / (4 E*))^{1/3}`, with `E*` the effective modulus
/// `1/E* = (1−ν₁²)/E₁ + (1−ν₂²)/E₂`. Returns an error for negative/non-finite input or
/// `E* ≤ 0`.
pub fn hertz_radius(normal_force: f64, curvature_radius: f64, e_star: f64) -> Result<f64, ContensouError> {
    if !(normal_force >= 0.0) || !normal_force.is_finite() {
        return Err(ContensouError::InvalidNormalForce(normal_force));
    }
    if !(curvature_radius >= 0.0) || !curvature_radius.is_finite() {
        return Err(ContensouError::InvalidRadius(curvature_radius));
    }
    if !(e_star > 0.0) || !e_star.is_finite() {
        return Err(ContensouError::InvalidParameter("e_star", e_star));
    }
    // The direct quotient where it is finite and positive, else the product of cube roots
    // (no overflow or 0·∞): the result is always finite.
    match (3.0 * normal_force * curvature_radius / (4.0 * e_star)).cbrt() {
        a if a > 0.0 && a.is_finite() => Ok(a),
        _ => match 0.75f64.cbrt() * normal_force.cbrt() * curvature_radius.cbrt() / e_star.cbrt() {
            a if a.is_finite() => Ok(a),
            _ => Err(ContensouError::InvalidParameter("e_star (radius not representable)", e_star)),
        },
    }
}

/// `𝒬(ε)` of the exact law: sliding force over `μP` (docs/contensou.md §2, `ε ∈ [0, ∞]`).
pub fn q_eps(pressure: Pressure, eps: f64) -> f64 {
    exact::q_t_of_eps(pressure, eps).0
}

/// `𝒯(ε)` of the exact law: spin torque over `μPκ` (docs/contensou.md §2, `ε ∈ [0, ∞]`).
pub fn t_eps(pressure: Pressure, eps: f64) -> f64 {
    exact::q_t_of_eps(pressure, eps).1
}

/// `sqrt(x² + y²)` without the cost of `hypot` in the normal range; falls back to `hypot`
/// when the squares would overflow or underflow.
#[inline(always)]
fn norm2(x: f64, y: f64) -> f64 {
    let s = x * x + y * y;
    if s < 1e300 && s > 1e-300 {
        s.sqrt()
    } else {
        x.hypot(y)
    }
}

/// The capacities `μP` and `μPR` must be finite (bounds every load of every model).
fn check_capacity(radius: f64, mu: f64, normal_force: f64) -> Result<(), ContensouError> {
    let cap = mu * normal_force * radius.max(1.0);
    if cap.is_finite() {
        Ok(())
    } else {
        Err(ContensouError::InvalidParameter("mu*normal_force*max(radius, 1)", cap))
    }
}

/// `|v|` without overflow or underflow of the squares (as [`norm2`]).
#[inline(always)]
fn norm3(v: DVec3) -> f64 {
    let s = v.length_squared();
    if s < 1e300 && s > 1e-300 {
        s.sqrt()
    } else {
        let m = v.abs().max_element();
        if m > 0.0 && m.is_finite() {
            m * (v / m).length()
        } else {
            m
        }
    }
}

static DEFAULT_TABLES: std::sync::OnceLock<[Arc<HarmonicTable>; 2]> = std::sync::OnceLock::new();

fn default_table(p: Pressure) -> Arc<HarmonicTable> {
    let t = DEFAULT_TABLES.get_or_init(|| {
        [
            Arc::new(HarmonicTable::default_for(Pressure::Uniform).clone()),
            Arc::new(HarmonicTable::default_for(Pressure::Hertz).clone()),
        ]
    });
    match p {
        Pressure::Uniform => t[0].clone(),
        Pressure::Hertz => t[1].clone(),
    }
}

impl Patch {
    /// A patch of radius `radius ≥ 0` (m), kinetic friction coefficient `mu ≥ 0`, normal force
    /// `normal_force ≥ 0` (N) and pressure distribution. `radius = 0` is the point-contact
    /// limit (no spin torque, Coulomb sliding). ρ defaults to κ (docs/contensou.md §1.7 DECISION).
    /// Errors: negative or non-finite input, and [`ContensouError::InvalidParameter`] when the
    /// capacities `μP` or `μPR` overflow `f64` (so that no evaluation overflows into NaN).
    pub fn new(radius: f64, mu: f64, normal_force: f64, pressure: Pressure) -> Result<Self, ContensouError> {
        if !(radius >= 0.0) || !radius.is_finite() {
            return Err(ContensouError::InvalidRadius(radius));
        }
        if !(mu >= 0.0) || !mu.is_finite() {
            return Err(ContensouError::InvalidMu(mu));
        }
        if !(normal_force >= 0.0) || !normal_force.is_finite() {
            return Err(ContensouError::InvalidNormalForce(normal_force));
        }
        check_capacity(radius, mu, normal_force)?;
        Ok(Patch {
            radius,
            mu,
            normal_force,
            pressure,
            rho: pressure.kappa_ratio(),
            harmonic: default_table(pressure),
        })
    }

    /// Hertz patch of a sphere of radius `sphere_radius` on a plane: radius from
    /// [`hertz_radius`], Hertz pressure.
    pub fn hertz_sphere(
        sphere_radius: f64,
        e_star: f64,
        mu: f64,
        normal_force: f64,
    ) -> Result<Self, ContensouError> {
        let a = hertz_radius(normal_force, sphere_radius, e_star)?;
        Patch::new(a, mu, normal_force, Pressure::Hertz)
    }

    /// Sets ρ/R for the w-space models ([`Model::Linear`], [`Model::Harmonic`]); default κ/R.
    /// Recomputes the harmonic coefficients by quadrature (about a millisecond) unless ρ = κ.
    pub fn with_rho_ratio(mut self, rho_ratio: f64) -> Result<Self, ContensouError> {
        if !(rho_ratio > 0.0) || !rho_ratio.is_finite() {
            return Err(ContensouError::InvalidRho(rho_ratio));
        }
        self.rho = rho_ratio;
        self.harmonic = if rho_ratio == self.pressure.kappa_ratio() {
            default_table(self.pressure)
        } else {
            Arc::new(HarmonicTable::compute(self.pressure, rho_ratio))
        };
        Ok(self)
    }

    /// Sets the normal force (N), keeping the radius. Errors as [`Patch::new`].
    pub fn with_normal_force(mut self, normal_force: f64) -> Result<Self, ContensouError> {
        if !(normal_force >= 0.0) || !normal_force.is_finite() {
            return Err(ContensouError::InvalidNormalForce(normal_force));
        }
        check_capacity(self.radius, self.mu, normal_force)?;
        self.normal_force = normal_force;
        Ok(self)
    }

    /// Sets the patch radius (m). Errors as [`Patch::new`].
    pub fn with_radius(mut self, radius: f64) -> Result<Self, ContensouError> {
        if !(radius >= 0.0) || !radius.is_finite() {
            return Err(ContensouError::InvalidRadius(radius));
        }
        check_capacity(radius, self.mu, self.normal_force)?;
        self.radius = radius;
        Ok(self)
    }

    /// Patch radius R (m).
    pub fn radius(&self) -> f64 {
        self.radius
    }
    /// Kinetic friction coefficient μ.
    pub fn mu(&self) -> f64 {
        self.mu
    }
    /// Normal force P (N).
    pub fn normal_force(&self) -> f64 {
        self.normal_force
    }
    /// Pressure distribution.
    pub fn pressure(&self) -> Pressure {
        self.pressure
    }
    /// Pressure-weighted mean radius κ (m).
    pub fn kappa(&self) -> f64 {
        self.pressure.kappa_ratio() * self.radius
    }
    /// ρ/R of the w-space models.
    pub fn rho_ratio(&self) -> f64 {
        self.rho
    }
    /// The harmonic coefficient table in use (for the patch's pressure and ρ).
    pub fn harmonic_table(&self) -> &HarmonicTable {
        &self.harmonic
    }

    /// Dimensionless `(𝒬, 𝒯)` of `model` for sliding speed `s = |u| ≥ 0` and rim spin speed
    /// `q = R|ω| ≥ 0` (velocities; only their ratio matters except for [`Model::Smooth`]).
    /// For non-smooth models `(0, 0)` returns `(0, 0)`. Clamps, so that no input gives NaN: a
    /// negative or NaN speed counts as 0; an infinite speed makes the motion pure sliding
    /// (`s = ∞`, also for `(∞, ∞)`) or pure spin (`q = ∞`).
    #[inline]
    pub fn reduced(&self, model: &Model, s: f64, q: f64) -> (f64, f64) {
        // `!(x > 0)` also catches NaN; infinities become the largest finite speed against 0.
        let s = if s > 0.0 { s } else { 0.0 };
        let q = if q > 0.0 { q } else { 0.0 };
        let (s, q) = if s == f64::INFINITY {
            (f64::MAX, 0.0)
        } else if q == f64::INFINITY {
            (0.0, f64::MAX)
        } else {
            (s, q)
        };
        match *model {
            Model::Exact => {
                if s == 0.0 && q == 0.0 {
                    (0.0, 0.0)
                } else {
                    exact::reduced(self.pressure, s, q)
                }
            }
            Model::Linear | Model::Harmonic(_) => {
                let z = self.rho * q;
                if z == f64::INFINITY {
                    // ρ q overflows: pure spin direction.
                    let sm = match *model {
                        Model::Harmonic(n) => self.harmonic.eval(n as usize, 1.0).1,
                        _ => 1.0,
                    };
                    return (0.0, sm);
                }
                let r = norm2(s, z);
                if r == 0.0 {
                    return (0.0, 0.0);
                }
                let (w12, w3) = (s / r, z / r);
                match *model {
                    Model::Harmonic(n) => {
                        let (c, sm) = self.harmonic.eval(n as usize, w3);
                        (w12 * c, w3 * sm)
                    }
                    _ => (w12, w3),
                }
            }
            Model::Pade { m, b } => {
                let bq = b * q;
                if bq == f64::INFINITY {
                    // b q overflows: pure spin, (x, y) = (0, 1) and L = 1.
                    return (0.0, 1.0);
                }
                let mx = s.max(bq);
                if mx == 0.0 {
                    return (0.0, 0.0);
                }
                let (x, y) = (s / mx, bq / mx);
                let l = if m == 2.0 {
                    norm2(x, y)
                } else if m == 1.0 {
                    x + y
                } else {
                    // one of x, y is 1: L = (1 + r^m)^(1/m) with r = min(x, y) ≤ 1
                    (1.0 + x.min(y).powf(m)).powf(1.0 / m)
                };
                (x / l, y / l)
            }
            Model::Smooth(sm) => {
                // scale-free form: divide all velocities by their maximum (no overflow)
                let bq = sm.b * q;
                let mx = s.max(bq).max(sm.eps_reg);
                let (x, y, e) = (s / mx, bq / mx, sm.eps_reg / mx);
                let f = approx::smooth_factor(x * x + y * y, e, sm.eta_prime);
                (x * f, y * f)
            }
        }
    }

    /// Force and torque on the body for slip velocity `slip = (u_x, u_y)` (m/s, velocity of
    /// the body point at the patch centre relative to the plane, in the plane) and spin `spin`
    /// (rad/s, about the normal; positive counter-clockwise seen from the normal).
    ///
    /// The force opposes `slip` and the torque opposes `spin`. Errors: non-finite input,
    /// invalid model parameters, and [`ContensouError::Stick`] for zero slip and spin with a
    /// non-smooth model (the law is set-valued there, docs/contensou.md §2.6 DECISION).
    pub fn resultant(&self, model: &Model, slip: [f64; 2], spin: f64) -> Result<PatchLoad, ContensouError> {
        if !(slip[0].is_finite() && slip[1].is_finite() && spin.is_finite()) {
            return Err(ContensouError::NonFiniteInput);
        }
        model.validate()?;
        let mut slip = slip;
        let mut s = norm2(slip[0], slip[1]);
        let mut q = self.radius * spin.abs();
        if s == f64::INFINITY || q == f64::INFINITY {
            // |u| or R|ω| overflows for finite inputs near f64::MAX: scale both by an exact
            // power of two (the ratio, hence the law, is unchanged; the smooth model is then
            // deep in its sliding range either way).
            let k = 0.5f64.powi(600);
            slip = [slip[0] * k, slip[1] * k];
            s = norm2(slip[0], slip[1]);
            q = self.radius * (spin.abs() * k);
        }
        if s == 0.0 && q == 0.0 && !matches!(model, Model::Smooth(_)) {
            return Err(ContensouError::Stick);
        }
        let (qq, tt) = self.reduced(model, s, q);
        let mp = self.mu * self.normal_force;
        let force = if s > 0.0 {
            let k = -mp * qq / s;
            if k.is_finite() {
                [k * slip[0], k * slip[1]]
            } else {
                // subnormal |u|: 1/s overflows; take the unit direction first
                let f = -mp * qq;
                [f * (slip[0] / s), f * (slip[1] / s)]
            }
        } else {
            [0.0, 0.0]
        };
        let torque = if q > 0.0 { -mp * self.kappa() * tt * spin.signum() } else { 0.0 };
        Ok(PatchLoad { force, torque })
    }

    /// Frame-free 3D form of [`Patch::resultant`] for engine adapters: `normal` is the contact
    /// normal (any length > 0; the sign does not matter), `slip` the velocity of the body
    /// point at the patch centre relative to the other surface, and `angular_velocity` the
    /// relative angular velocity (world frame). Only the tangential part of `slip` and the
    /// normal component of `angular_velocity` (the spin) are used; projection round-off
    /// (below 8 ulps of the input magnitude) counts as zero. Errors as
    /// [`Patch::resultant`], plus [`ContensouError::NonFiniteInput`] for a zero or non-finite
    /// normal.
    pub fn resultant_vec(
        &self,
        model: &Model,
        normal: DVec3,
        slip: DVec3,
        angular_velocity: DVec3,
    ) -> Result<PatchLoad3, ContensouError> {
        if !(normal.is_finite() && slip.is_finite() && angular_velocity.is_finite()) {
            return Err(ContensouError::NonFiniteInput);
        }
        let len = norm3(normal);
        if !(len > 0.0) || !len.is_finite() {
            return Err(ContensouError::NonFiniteInput);
        }
        let n = normal / len;
        let mut u = slip - slip.dot(n) * n;
        let mut spin = angular_velocity.dot(n);
        // Projection round-off is not slip: a tangential part below a few ulps of the input
        // is set to zero (same for the spin).
        let mut s = norm3(u);
        if s <= 8.0 * f64::EPSILON * norm3(slip) {
            u = DVec3::ZERO;
            s = 0.0;
        }
        if spin.abs() <= 8.0 * f64::EPSILON * angular_velocity.length() {
            spin = 0.0;
        }
        // evaluate in the 2D form with the slip along a local x axis
        let l = self.resultant(model, [s, 0.0], spin)?;
        let force = if s > 0.0 {
            let k = l.force[0] / s;
            if k.is_finite() {
                u * k
            } else {
                (u / s) * l.force[0]
            }
        } else {
            DVec3::ZERO
        };
        Ok(PatchLoad3 { force, torque: n * l.torque })
    }

    /// Coupled friction capacities for sliding speed `slip_speed = |u|` (m/s) and spin `spin`
    /// (rad/s): the force magnitude `μP𝒬(ε)`, the torque magnitude `μPκ𝒯(ε)` and the
    /// effective sliding coefficient `μ𝒬(ε)`. An engine that enforces separate slide and spin
    /// limits sets both from these every step. At zero slip and spin (stick) this returns the
    /// pure-slide and pure-spin capacities `μP`, `μPκ` (the bounding box of the limit surface;
    /// the smooth model returns its own value, 0). Non-finite input returns an error.
    pub fn limits(
        &self,
        model: &Model,
        slip_speed: f64,
        spin: f64,
    ) -> Result<SlideSpinLimits, ContensouError> {
        if !slip_speed.is_finite() || !spin.is_finite() {
            return Err(ContensouError::NonFiniteInput);
        }
        model.validate()?;
        let s = slip_speed.abs();
        let q = self.radius * spin.abs();
        let (qq, tt) = if s == 0.0 && q == 0.0 && !matches!(model, Model::Smooth(_)) {
            (1.0, 1.0)
        } else {
            self.reduced(model, s, q)
        };
        let mp = self.mu * self.normal_force;
        let ratio = if q > 0.0 {
            s / q
        } else if s > 0.0 {
            f64::INFINITY
        } else {
            0.0
        };
        Ok(SlideSpinLimits {
            slip_spin_ratio: ratio,
            slide_coefficient: self.mu * qq,
            force: mp * qq,
            torque: mp * self.kappa() * tt,
        })
    }
}

#[cfg(test)]
mod tests_extremes {
    use super::*;

    #[test]
    fn reduced_is_finite_at_infinite_spin_for_every_model() {
        // A valid Padé model with b > 1 and the w-space models with ρ > 1 at q = ∞ (issue: NaN).
        let p = Patch::new(0.02, 0.5, 10.0, Pressure::Uniform).unwrap();
        let models = [
            Model::Pade { m: 2.0, b: 3.0 },
            Model::Pade { m: 1.5, b: 1e10 },
            Model::PADE_KUDRA,
            Model::Linear,
            Model::Harmonic(4),
            Model::Exact,
        ];
        for model in models {
            for (s, q) in [(0.0, f64::INFINITY), (1.0, f64::INFINITY), (f64::MAX, f64::MAX), (1e300, 1e308)] {
                let (qq, tt) = p.reduced(&model, s, q);
                assert!(qq.is_finite() && tt.is_finite(), "{model:?} ({s}, {q}) -> ({qq}, {tt})");
                // Pure spin (q = ∞, s finite): no sliding force, the full spin torque fraction.
                if q == f64::INFINITY {
                    assert_eq!(qq, 0.0, "{model:?}");
                    assert!(tt > 0.0, "{model:?}");
                }
            }
        }
        let p = p.with_rho_ratio(5.0).unwrap();
        for model in [Model::Linear, Model::Harmonic(3)] {
            let (qq, tt) = p.reduced(&model, 1.0, f64::INFINITY);
            assert!(qq == 0.0 && tt.is_finite() && tt > 0.0, "{model:?}");
        }
    }

    #[test]
    fn hertz_radius_is_never_nan() {
        // a = (3 N R/(4 E*))^{1/3}: N = 1 N, R = 0.1 m, E* = 1e7 Pa → (7.5e-9)^{1/3} = 1.957e-3 m.
        let a = hertz_radius(1.0, 0.1, 1e7).unwrap();
        assert!((a - 7.5e-9f64.cbrt()).abs() < 1e-15);
        for (n, r, e) in [
            (f64::MAX, f64::MAX, f64::MAX),
            (f64::MAX, 1.0, 1e-300),
            (0.0, f64::MAX, f64::MAX),
            (1e-300, 1e-300, f64::MAX),
            (f64::MAX, f64::MAX, f64::MIN_POSITIVE),
        ] {
            if let Ok(a) = hertz_radius(n, r, e) {
                assert!(a.is_finite() && a >= 0.0, "({n}, {r}, {e}) -> {a}");
            }
        }
        // N = R = E = f64::MAX: the quotient is inf/inf; the answer is (3/4)^{1/3} · MAX^{1/3}.
        let a = hertz_radius(f64::MAX, f64::MAX, f64::MAX).unwrap();
        assert!((a / (0.75f64.cbrt() * f64::MAX.cbrt()) - 1.0).abs() < 1e-12);
    }
}
