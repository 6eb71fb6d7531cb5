//! Friction material of one contact: coefficients, stiffnesses, energy-tie factors and the
//! derived per-step parameters (docs/tracking.md §2.1, §3.3, §4.3).
//!
//! A [`Material`] is validated at construction: every `with_*` setter and [`Material::new`]
//! returns a [`ParamError`] for NaN, infinite, negative or inconsistent values, so a material
//! that exists is always usable. Run-time inputs (normal force, curvatures) are clamped instead:
//! `N ≤ 0` or non-finite `N` gives zero capacities.

use std::fmt;

/// Static (stick) or kinetic (slip) mode of one friction mechanism.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Mode {
    /// Stick: the static threshold applies and the damper is active.
    #[default]
    Static,
    /// Slip: the kinetic threshold applies and the damper is off.
    Kinetic,
}

/// Error for an invalid friction parameter.
#[derive(Clone, Debug, PartialEq)]
pub enum ParamError {
    /// The named parameter is NaN or infinite.
    NotFinite {
        /// Parameter name.
        name: &'static str,
        /// Its value.
        value: f64,
    },
    /// The named parameter is negative (or zero where it must be positive).
    OutOfRange {
        /// Parameter name.
        name: &'static str,
        /// Its value.
        value: f64,
        /// The valid range.
        expected: &'static str,
    },
    /// μs < μk: static friction must be at least kinetic friction.
    StaticBelowKinetic {
        /// Static coefficient.
        mu_s: f64,
        /// Kinetic coefficient.
        mu_k: f64,
    },
}

impl fmt::Display for ParamError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParamError::NotFinite { name, value } => {
                write!(f, "friction parameter `{name}` must be finite, got {value}")
            }
            ParamError::OutOfRange { name, value, expected } => {
                write!(f, "friction parameter `{name}` = {value} is out of range: expected {expected}")
            }
            ParamError::StaticBelowKinetic { mu_s, mu_k } => {
                write!(f, "static friction μs = {mu_s} is below kinetic friction μk = {mu_k}; need μs ≥ μk")
            }
        }
    }
}

impl std::error::Error for ParamError {}

/// Checks `value` is finite and `> 0` (`strict`) or `≥ 0`.
pub(crate) fn check_param(name: &'static str, value: f64, strict: bool) -> Result<f64, ParamError> {
    if !value.is_finite() {
        return Err(ParamError::NotFinite { name, value });
    }
    if (strict && value <= 0.0) || value < 0.0 {
        return Err(ParamError::OutOfRange { name, value, expected: if strict { "> 0" } else { "≥ 0" } });
    }
    Ok(value)
}

/// How a damping coefficient is chosen.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Damping {
    /// Critical damping of the spring against the contact's fictitious mass/inertia:
    /// `K_D = 2√(m K_E)` (eq. 1c), `D_R = 2√(I K_R)`, `D_ψ = 2√(I K_ψ)` (eq. 3d).
    Critical,
    /// A fixed coefficient (N·s/m for slide, N·m·s for roll and spin).
    Fixed(f64),
}

impl Damping {
    /// The coefficient for stiffness `k` and fictitious mass or inertia `m`.
    pub fn coefficient(self, k: f64, m: f64) -> f64 {
        match self {
            Damping::Critical => 2.0 * (m.max(0.0) * k.max(0.0)).sqrt(),
            Damping::Fixed(c) => c,
        }
    }

    fn validated(self, name: &'static str) -> Result<Self, ParamError> {
        if let Damping::Fixed(c) = self {
            check_param(name, c, false)?;
        }
        Ok(self)
    }
}

/// Spin-friction parameter set (docs/tracking.md §4.3).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SpinModel {
    /// No spin friction.
    Off,
    /// Heuristic (a): energy-tie factor `η_ψ` and spin curvature `𝒦` (1/m). With
    /// `curvature: None` the geometric curvature `𝒦_mean,i + 𝒦_mean,j` of the contact is used
    /// (1/R for a sphere on a plane); spin friction is then off for flat-on-flat contacts.
    /// Capacities: static `η_ψ μs N/𝒦`, kinetic `η_ψ μk N/𝒦`; `K_ψ = η_ψ K_E/𝒦²` (3c).
    Heuristic {
        /// Energy-tie coefficient η_ψ ≥ 0.
        eta_psi: f64,
        /// Spin curvature 𝒦 > 0 in 1/m, or `None` for the geometric one.
        curvature: Option<f64>,
    },
    /// Hertz-based (b, App. C): patch radius `a = (3 N R_eff / (4 E_eff))^{1/3}`,
    /// `K_ψ = ½ a² K_E`, capacities `½ a μ N`. `effective_modulus` is the contact's `E_eff`
    /// (Pa) — `E/(1−ν²)` of the deformable body against a rigid one, see [`SpinModel::hertz`].
    Hertz {
        /// Effective (plane-strain, series-combined) modulus E_eff in Pa.
        effective_modulus: f64,
    },
}

impl SpinModel {
    /// Hertz spin parameters of a body of Young's modulus `e` (Pa) and Poisson ratio `nu`
    /// against a rigid counterpart: `E_eff = E* = E/(1−ν²)` (eq. 15). Combine two with
    /// [`Material::combine`].
    pub fn hertz(e: f64, nu: f64) -> Result<Self, ParamError> {
        check_param("youngs_modulus", e, true)?;
        if !nu.is_finite() {
            return Err(ParamError::NotFinite { name: "poisson_ratio", value: nu });
        }
        if !(nu > -1.0 && nu <= 0.5) {
            return Err(ParamError::OutOfRange {
                name: "poisson_ratio",
                value: nu,
                expected: "in (-1, 0.5]",
            });
        }
        Ok(SpinModel::Hertz { effective_modulus: e / (1.0 - nu * nu) })
    }

    fn validated(self) -> Result<Self, ParamError> {
        match self {
            SpinModel::Off => {}
            SpinModel::Heuristic { eta_psi, curvature } => {
                check_param("eta_psi", eta_psi, false)?;
                if let Some(k) = curvature {
                    check_param("spin_curvature", k, true)?;
                }
            }
            SpinModel::Hertz { effective_modulus } => {
                check_param("effective_modulus", effective_modulus, true)?;
            }
        }
        Ok(self)
    }
}

/// Explicit roll parameters, replacing the energy tie (2b)–(2c). Needed to reproduce
/// experiments that fix `K_R` and the thresholds directly (docs/tracking.md §5.2, T2).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RollOverride {
    /// Roll stiffness K_R (N·m/rad... per unit Θ).
    pub stiffness: f64,
    /// Static threshold Θ^s (or, with `per_newton`, Θ^s per newton of N).
    pub static_threshold: f64,
    /// Kinetic threshold Θ^d.
    pub kinetic_threshold: f64,
    /// Whether the thresholds scale with N (multiplied by N each step).
    pub per_newton: bool,
}

/// The friction material of a contact (docs/tracking.md §5.2 "configuration to expose").
///
/// Defaults (from [`Material::new`]): `K_E = 1e5 N/m`, critical damping for slide, roll and
/// spin, `η_r = 0.01` (ball on a plane: kinetic roll torque `0.02 R μk N`), heuristic spin with
/// `η_ψ = 0.01` and geometric `𝒦`, `ε_κ = 1e-9 1/m`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Material {
    mu_s: f64,
    mu_k: f64,
    k_e: f64,
    slide_damping: Damping,
    eta_r: f64,
    roll_damping: Damping,
    roll_override: Option<RollOverride>,
    spin: SpinModel,
    spin_damping: Damping,
    eps_kappa: f64,
}

impl Material {
    /// A material with static and kinetic coefficients `mu_s ≥ mu_k ≥ 0` and default other
    /// parameters (see the type docs).
    pub fn new(mu_s: f64, mu_k: f64) -> Result<Self, ParamError> {
        check_param("mu_s", mu_s, false)?;
        check_param("mu_k", mu_k, false)?;
        if mu_s < mu_k {
            return Err(ParamError::StaticBelowKinetic { mu_s, mu_k });
        }
        Ok(Material {
            mu_s,
            mu_k,
            k_e: 1.0e5,
            slide_damping: Damping::Critical,
            eta_r: 0.01,
            roll_damping: Damping::Critical,
            roll_override: None,
            spin: SpinModel::Heuristic { eta_psi: 0.01, curvature: None },
            spin_damping: Damping::Critical,
            eps_kappa: 1.0e-9,
        })
    }

    /// Sets the slide stiffness `K_E > 0` (N/m).
    pub fn with_stiffness(mut self, k_e: f64) -> Result<Self, ParamError> {
        self.k_e = check_param("k_e", k_e, true)?;
        Ok(self)
    }
    /// Sets the slide damping `K_D` (default critical, eq. 1c).
    pub fn with_slide_damping(mut self, d: Damping) -> Result<Self, ParamError> {
        self.slide_damping = d.validated("k_d")?;
        Ok(self)
    }
    /// Sets the roll energy-tie coefficient `η_r ≥ 0` (0 disables roll friction).
    pub fn with_roll(mut self, eta_r: f64) -> Result<Self, ParamError> {
        self.eta_r = check_param("eta_r", eta_r, false)?;
        Ok(self)
    }
    /// Sets the roll damping `D_R` (default critical).
    pub fn with_roll_damping(mut self, d: Damping) -> Result<Self, ParamError> {
        self.roll_damping = d.validated("d_r")?;
        Ok(self)
    }
    /// Replaces the roll energy tie by explicit stiffness and thresholds.
    pub fn with_roll_override(mut self, o: RollOverride) -> Result<Self, ParamError> {
        check_param("k_r", o.stiffness, false)?;
        check_param("theta_s", o.static_threshold, false)?;
        check_param("theta_d", o.kinetic_threshold, false)?;
        if o.static_threshold < o.kinetic_threshold {
            return Err(ParamError::OutOfRange {
                name: "theta_s",
                value: o.static_threshold,
                expected: "≥ the kinetic roll threshold",
            });
        }
        self.roll_override = Some(o);
        Ok(self)
    }
    /// Sets the spin model.
    pub fn with_spin(mut self, spin: SpinModel) -> Result<Self, ParamError> {
        self.spin = spin.validated()?;
        Ok(self)
    }
    /// Sets the spin damping `D_ψ` (default critical, eq. 3d).
    pub fn with_spin_damping(mut self, d: Damping) -> Result<Self, ParamError> {
        self.spin_damping = d.validated("d_psi")?;
        Ok(self)
    }
    /// Sets the degenerate-curvature tolerance `ε_κ > 0` (1/m): roll friction is off when
    /// `κ_i + κ_j ≤ ε_κ` (docs/tracking.md §3.3 DECISION), geometric spin when `𝒦 ≤ ε_κ`.
    pub fn with_curvature_epsilon(mut self, eps: f64) -> Result<Self, ParamError> {
        self.eps_kappa = check_param("eps_kappa", eps, true)?;
        Ok(self)
    }

    /// Static friction coefficient μs.
    pub fn mu_s(&self) -> f64 {
        self.mu_s
    }
    /// Kinetic friction coefficient μk.
    pub fn mu_k(&self) -> f64 {
        self.mu_k
    }
    /// The coefficient that applies in `mode`.
    pub fn mu(&self, mode: Mode) -> f64 {
        match mode {
            Mode::Static => self.mu_s,
            Mode::Kinetic => self.mu_k,
        }
    }
    /// Slide stiffness K_E.
    pub fn stiffness(&self) -> f64 {
        self.k_e
    }
    /// Slide damping rule.
    pub fn slide_damping(&self) -> Damping {
        self.slide_damping
    }
    /// Roll energy-tie coefficient η_r.
    pub fn eta_r(&self) -> f64 {
        self.eta_r
    }
    /// Roll damping rule.
    pub fn roll_damping(&self) -> Damping {
        self.roll_damping
    }
    /// Explicit roll parameters, if set.
    pub fn roll_override(&self) -> Option<RollOverride> {
        self.roll_override
    }
    /// Spin model.
    pub fn spin(&self) -> SpinModel {
        self.spin
    }
    /// Spin damping rule.
    pub fn spin_damping(&self) -> Damping {
        self.spin_damping
    }
    /// Degenerate-curvature tolerance ε_κ.
    pub fn curvature_epsilon(&self) -> f64 {
        self.eps_kappa
    }

    /// Combines the materials of two bodies into the material of their contact.
    ///
    /// Rules (documented, symmetric): μs, μk, η_r, η_ψ: arithmetic mean (rapier's default
    /// `CoefficientCombineRule::Average`; keeps μs ≥ μk); K_E: springs in series
    /// `k₁k₂/(k₁+k₂)`; Hertz moduli: in series `E₁*E₂*/(E₁*+E₂*)` (eq. 15); a Hertz material
    /// against a heuristic or off one uses the Hertz side; spin off on either side: off;
    /// damping: `Fixed` values averaged, `Critical` wins if either side is critical; explicit
    /// spin curvature and roll overrides: taken from `self` if present, else from `other`;
    /// ε_κ: the larger.
    pub fn combine(&self, other: &Material) -> Material {
        fn damp(a: Damping, b: Damping) -> Damping {
            match (a, b) {
                (Damping::Fixed(x), Damping::Fixed(y)) => Damping::Fixed(0.5 * (x + y)),
                _ => Damping::Critical,
            }
        }
        let spin = match (self.spin, other.spin) {
            (SpinModel::Off, _) | (_, SpinModel::Off) => SpinModel::Off,
            (SpinModel::Hertz { effective_modulus: a }, SpinModel::Hertz { effective_modulus: b }) => {
                SpinModel::Hertz { effective_modulus: a * b / (a + b) }
            }
            (h @ SpinModel::Hertz { .. }, _) | (_, h @ SpinModel::Hertz { .. }) => h,
            (
                SpinModel::Heuristic { eta_psi: e1, curvature: c1 },
                SpinModel::Heuristic { eta_psi: e2, curvature: c2 },
            ) => SpinModel::Heuristic { eta_psi: 0.5 * (e1 + e2), curvature: c1.or(c2) },
        };
        Material {
            mu_s: 0.5 * (self.mu_s + other.mu_s),
            mu_k: 0.5 * (self.mu_k + other.mu_k),
            k_e: self.k_e * other.k_e / (self.k_e + other.k_e),
            slide_damping: damp(self.slide_damping, other.slide_damping),
            eta_r: 0.5 * (self.eta_r + other.eta_r),
            roll_damping: damp(self.roll_damping, other.roll_damping),
            roll_override: self.roll_override.or(other.roll_override),
            spin,
            spin_damping: damp(self.spin_damping, other.spin_damping),
            eps_kappa: self.eps_kappa.max(other.eps_kappa),
        }
    }

    /// Per-step derived parameters for normal force `n` (N), directional curvatures
    /// `kappa_i`, `kappa_j` along the motion (1/m, docs/tracking.md §1.6) and mean curvatures
    /// `mean_kappa_i`, `mean_kappa_j` (S-5). Non-finite or negative `n` is treated as 0.
    #[inline]
    pub fn derive(
        &self,
        n: f64,
        kappa_i: f64,
        kappa_j: f64,
        mean_kappa_i: f64,
        mean_kappa_j: f64,
    ) -> Derived {
        let n = if n.is_finite() && n > 0.0 { n } else { 0.0 };
        let k_e = self.k_e;
        let slide_static = self.mu_s * n / k_e;
        let slide_kinetic = self.mu_k * n / k_e;

        // Roll (2b)-(2c) or override.
        let ksum = kappa_i + kappa_j;
        let (roll_stiffness, roll_static, roll_kinetic) = match self.roll_override {
            Some(o) => {
                let s = if o.per_newton { n } else { 1.0 };
                (o.stiffness, o.static_threshold * s, o.kinetic_threshold * s)
            }
            None if self.eta_r > 0.0 && ksum.is_finite() && ksum > self.eps_kappa => (
                4.0 * self.eta_r * k_e / (ksum * ksum),
                self.mu_s * n * ksum / (2.0 * k_e),
                self.mu_k * n * ksum / (2.0 * k_e),
            ),
            None => (0.0, 0.0, 0.0),
        };

        // Spin (3c) or (12)-(15).
        let kmean = mean_kappa_i + mean_kappa_j;
        let (spin_stiffness, spin_curv) = match self.spin {
            SpinModel::Off => (0.0, 0.0),
            SpinModel::Heuristic { eta_psi, curvature } => {
                let k = curvature.unwrap_or(kmean);
                if eta_psi > 0.0 && k.is_finite() && k > self.eps_kappa {
                    (eta_psi * k_e / (k * k), k)
                } else {
                    (0.0, 0.0)
                }
            }
            SpinModel::Hertz { effective_modulus } => {
                if kmean.is_finite() && kmean > self.eps_kappa && n > 0.0 {
                    let r_eff = 1.0 / kmean;
                    let a = (3.0 * n * r_eff / (4.0 * effective_modulus)).cbrt();
                    (0.5 * a * a * k_e, 1.0 / a)
                } else {
                    (0.0, 0.0)
                }
            }
        };
        let (spin_static, spin_kinetic) = if spin_stiffness > 0.0 {
            (spin_curv * slide_static, spin_curv * slide_kinetic)
        } else {
            (0.0, 0.0)
        };

        Derived {
            n,
            slide_stiffness: k_e,
            slide_static,
            slide_kinetic,
            roll_stiffness,
            roll_static,
            roll_kinetic,
            spin_stiffness,
            spin_static,
            spin_kinetic,
        }
    }

    /// Roll torque capacity `K_R Θ^■ = 2 η_r μ_■ N/(κ_i+κ_j)` in `mode` (0 when roll friction
    /// is off or the curvature is degenerate). Ball of radius R on a plane: `2 η_r μ R N`.
    pub fn roll_torque_capacity(&self, mode: Mode, n: f64, kappa_i: f64, kappa_j: f64) -> f64 {
        self.derive(n, kappa_i, kappa_j, 0.0, 0.0).roll_capacity(mode)
    }

    /// Hertz contact radius `a = (3 N R_eff/(4 E_eff))^{1/3}` with `1/R_eff = 𝒦_mean,i + 𝒦_mean,j`
    /// (App. C, docs/tracking.md §4.3(b)); `None` unless the spin model is Hertz, N > 0 and the summed mean
    /// curvature exceeds ε_κ.
    pub fn hertz_contact_radius(&self, n: f64, mean_kappa_i: f64, mean_kappa_j: f64) -> Option<f64> {
        let SpinModel::Hertz { effective_modulus } = self.spin else { return None };
        let kmean = mean_kappa_i + mean_kappa_j;
        if n.is_finite() && n > 0.0 && kmean.is_finite() && kmean > self.eps_kappa {
            Some((3.0 * n / (kmean * 4.0 * effective_modulus)).cbrt())
        } else {
            None
        }
    }

    /// Spin torque capacity `K_ψ 𝒮^ψ_■` in `mode`: `η_ψ μ_■ N/𝒦` (heuristic) or `½ a μ_■ N`
    /// (Hertz), from the mean curvatures of the two surfaces.
    pub fn spin_torque_capacity(&self, mode: Mode, n: f64, mean_kappa_i: f64, mean_kappa_j: f64) -> f64 {
        self.derive(n, 0.0, 0.0, mean_kappa_i, mean_kappa_j).spin_capacity(mode)
    }
}

/// Per-step parameters derived from a [`Material`], N and the curvatures.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Derived {
    /// Normal force used (clamped to ≥ 0).
    pub n: f64,
    /// K_E.
    pub slide_stiffness: f64,
    /// 𝒮_s^S = μs N/K_E.
    pub slide_static: f64,
    /// 𝒮_k^S = μk N/K_E.
    pub slide_kinetic: f64,
    /// K_R (0: roll off).
    pub roll_stiffness: f64,
    /// Θ^s.
    pub roll_static: f64,
    /// Θ^d.
    pub roll_kinetic: f64,
    /// K_ψ (0: spin off).
    pub spin_stiffness: f64,
    /// 𝒮_s^ψ.
    pub spin_static: f64,
    /// 𝒮_k^ψ.
    pub spin_kinetic: f64,
}

impl Derived {
    /// Slide force capacity `K_E 𝒮^S_■ = μ_■ N`.
    pub fn slide_capacity(&self, mode: Mode) -> f64 {
        self.slide_stiffness * pick(mode, self.slide_static, self.slide_kinetic)
    }
    /// Roll torque capacity `K_R Θ^■`.
    pub fn roll_capacity(&self, mode: Mode) -> f64 {
        self.roll_stiffness * pick(mode, self.roll_static, self.roll_kinetic)
    }
    /// Spin torque capacity `K_ψ 𝒮^ψ_■`.
    pub fn spin_capacity(&self, mode: Mode) -> f64 {
        self.spin_stiffness * pick(mode, self.spin_static, self.spin_kinetic)
    }
}

fn pick(mode: Mode, s: f64, k: f64) -> f64 {
    match mode {
        Mode::Static => s,
        Mode::Kinetic => k,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rejects_bad_coefficients() {
        assert!(matches!(Material::new(0.3, 0.5), Err(ParamError::StaticBelowKinetic { .. })));
        assert!(matches!(Material::new(f64::NAN, 0.5), Err(ParamError::NotFinite { .. })));
        assert!(matches!(Material::new(0.5, -0.1), Err(ParamError::OutOfRange { .. })));
        assert!(Material::new(f64::INFINITY, 0.1).is_err());
        let m = Material::new(0.5, 0.4).unwrap();
        assert!(m.with_stiffness(0.0).is_err());
        assert!(m.with_stiffness(-1.0).is_err());
        assert!(m.with_roll(f64::NAN).is_err());
        assert!(m.with_slide_damping(Damping::Fixed(-1.0)).is_err());
        assert!(m.with_spin(SpinModel::Heuristic { eta_psi: 0.1, curvature: Some(0.0) }).is_err());
        assert!(SpinModel::hertz(-1.0, 0.3).is_err());
        assert!(SpinModel::hertz(1e7, 0.7).is_err());
        assert!(SpinModel::hertz(1e7, f64::NAN).is_err());
        let msg = Material::new(0.3, 0.5).unwrap_err().to_string();
        assert!(msg.contains("μs"), "{msg}");
    }

    #[test]
    fn ball_on_plane_capacities() {
        // docs/tracking.md §3.3: ball of radius R on a plane: static 2 η_r R μs N, kinetic 2 η_r R μk N.
        // docs/tracking.md §4.3(a) with 𝒦 = 1/R: kinetic spin torque μk N η_ψ R.
        let (r, n) = (0.2, 9.8);
        let m = Material::new(0.5, 0.4)
            .unwrap()
            .with_roll(0.3)
            .unwrap()
            .with_spin(SpinModel::Heuristic { eta_psi: 0.25, curvature: None })
            .unwrap();
        let kap = 1.0 / r;
        assert!((m.roll_torque_capacity(Mode::Static, n, kap, 0.0) - 2.0 * 0.3 * r * 0.5 * n).abs() < 1e-12);
        assert!((m.roll_torque_capacity(Mode::Kinetic, n, kap, 0.0) - 2.0 * 0.3 * r * 0.4 * n).abs() < 1e-12);
        assert!((m.spin_torque_capacity(Mode::Kinetic, n, kap, 0.0) - 0.4 * n * 0.25 * r).abs() < 1e-12);
        // Table 1 "plane" row: K_R = 4 η_r R² K_E.
        let d = m.derive(n, kap, 0.0, kap, 0.0);
        assert!((d.roll_stiffness - 4.0 * 0.3 * r * r * 1e5).abs() < 1e-6);
        // Degenerate curvature (flat on flat) disables roll; N ≤ 0 and NaN give zero.
        assert_eq!(m.roll_torque_capacity(Mode::Static, n, 0.0, 0.0), 0.0);
        assert_eq!(m.roll_torque_capacity(Mode::Static, -3.0, kap, 0.0), 0.0);
        assert_eq!(m.spin_torque_capacity(Mode::Static, f64::NAN, kap, 0.0), 0.0);
        assert_eq!(m.derive(n, kap, 0.0, kap, 0.0).slide_capacity(Mode::Static), 0.5 * n);
    }

    #[test]
    fn hertz_spin_capacity() {
        // App. C: a = (3 N R_eff/(4 E_eff))^{1/3}, max spin torque ½ a μs N.
        let (e, nu, r, n) = (1.0e7, 0.3, 0.05, 2.0);
        let m = Material::new(0.6, 0.5).unwrap().with_spin(SpinModel::hertz(e, nu).unwrap()).unwrap();
        let e_eff = e / (1.0 - nu * nu);
        let a = (3.0 * n * r / (4.0 * e_eff)).cbrt();
        let cap = m.spin_torque_capacity(Mode::Static, n, 1.0 / r, 0.0);
        assert!((cap - 0.5 * a * 0.6 * n).abs() < 1e-12 * cap.max(1.0));
        // K_ψ = ½ a² K_E (13).
        let d = m.derive(n, 0.0, 0.0, 1.0 / r, 0.0);
        assert!((d.spin_stiffness - 0.5 * a * a * 1e5).abs() < 1e-9);
    }

    #[test]
    fn combine_rules() {
        let a = Material::new(0.8, 0.6).unwrap().with_spin(SpinModel::hertz(2e7, 0.0).unwrap()).unwrap();
        let b = Material::new(0.4, 0.2).unwrap().with_stiffness(3e5).unwrap();
        let c = a.combine(&b);
        assert!((c.mu_s() - 0.6).abs() < 1e-15 && (c.mu_k() - 0.4).abs() < 1e-15);
        assert!((c.stiffness() - 1e5 * 3e5 / 4e5).abs() < 1e-9);
        assert_eq!(c.spin(), SpinModel::Hertz { effective_modulus: 2e7 });
        let h = a.combine(&a);
        assert_eq!(h.spin(), SpinModel::Hertz { effective_modulus: 1e7 });
        assert_eq!(c, b.combine(&a));
    }
}
