//! Friction material of one contact: coefficients, stiffnesses, energy-tie factors and the
//! derived per-step parameters (docs/tracking.md §2.1, §3.3, §4.3).
//!
//! A [`Material`] is validated at construction: every `with_*` setter and [`Material::new`]
//! returns a [`ParamError`] for NaN, infinite, negative, out-of-range or inconsistent values,
//! so a material that exists is always usable. The accepted ranges are **bounded** (not
//! clamped) so that every accepted value keeps the arithmetic finite and friction monotone
//! (a larger μ, η or resistance length never gives less resistance): see [`limits`].
//! Run-time inputs are clamped instead: `N ≤ 0` or non-finite `N` gives zero capacities, `N`
//! above [`limits::MAX_NORMAL_FORCE`] counts as that value, and every capacity is at most
//! [`limits::MAX_CAPACITY`].
//!
//! Rolling and spin resistance are given either as **lengths** (metres: the torque bound is
//! `c·N`, as in Chrono, Bullet and MuJoCo; [`Material::with_rolling_resistance`],
//! [`Material::with_spinning_resistance`]) or by the paper's dimensionless energy-tie factors
//! η_r, η_ψ ([`Material::with_roll_eta`], [`SpinModel::Heuristic`]). The one conversion:
//! `c_r = 2 η_r μ/(κ_i+κ_j)` and `c_ψ = η_ψ μ/𝒦` (ball of radius R on a plane:
//! `c_r = 2 η_r μ R`, `c_ψ = η_ψ μ R`), with μ = μs for the static and μk for the kinetic value.

use std::fmt;

/// Static (stick) or kinetic (slip) mode of one friction mechanism.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
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
    /// The named parameter is above its bound in [`limits`].
    TooLarge {
        /// Parameter name.
        name: &'static str,
        /// Its value.
        value: f64,
        /// The largest accepted value.
        max: f64,
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
            ParamError::TooLarge { name, value, max } => {
                write!(
                    f,
                    "friction parameter `{name}` = {value} is too large: at most {max:e} (tracking::limits)"
                )
            }
            ParamError::StaticBelowKinetic { mu_s, mu_k } => {
                write!(f, "static friction μs = {mu_s} is below kinetic friction μk = {mu_k}; need μs ≥ μk")
            }
        }
    }
}

impl std::error::Error for ParamError {}

/// Bounds of the accepted material parameters and the run-time clamps (see the module docs).
///
/// A parameter above its bound is rejected with [`ParamError::OutOfRange`]; the bounds are far
/// beyond physical values and keep every product the model forms (μ·N/K_E, η·K_E·R², the
/// combined values of two materials) finite in both f64 and the f32 of the engines.
pub mod limits {
    /// Largest friction coefficient μs, μk (and energy-tie factors η_r, η_ψ): 1e4.
    pub const MAX_COEFFICIENT: f64 = 1.0e4;
    /// Largest rolling or spin resistance length c (m): 1e3.
    pub const MAX_LENGTH: f64 = 1.0e3;
    /// Largest stiffness K_E (N/m), roll-override stiffness and fixed damping: 1e12.
    pub const MAX_STIFFNESS: f64 = 1.0e12;
    /// Smallest slide stiffness K_E (N/m): 1e-6.
    pub const MIN_STIFFNESS: f64 = 1.0e-6;
    /// Largest Young's or effective modulus (Pa): 1e15.
    pub const MAX_MODULUS: f64 = 1.0e15;
    /// Largest curvature (explicit spin curvature, ε_κ) (1/m): 1e9.
    pub const MAX_CURVATURE: f64 = 1.0e9;
    /// Largest roll-override threshold: 1e6.
    pub const MAX_THRESHOLD: f64 = 1.0e6;
    /// Normal forces above this (N) count as this value in [`super::Material::derive`]: 1e15.
    pub const MAX_NORMAL_FORCE: f64 = 1.0e15;
    /// Every force or torque capacity is clamped to at most this value (N, N·m): 1e30 (finite
    /// as f32).
    pub const MAX_CAPACITY: f64 = 1.0e30;
}

/// Checks `value` is finite and `> 0` (`strict`) or `≥ 0`, and at most `max`.
pub(crate) fn check_bounded(
    name: &'static str,
    value: f64,
    strict: bool,
    max: f64,
) -> Result<f64, ParamError> {
    if !value.is_finite() {
        return Err(ParamError::NotFinite { name, value });
    }
    if (strict && value <= 0.0) || value < 0.0 {
        return Err(ParamError::OutOfRange { name, value, expected: if strict { "> 0" } else { "≥ 0" } });
    }
    if value > max {
        return Err(ParamError::TooLarge { name, value, max });
    }
    Ok(value)
}

/// How the values of the two sides of a contact combine: rapier's `CoefficientCombineRule`,
/// same names, same formulas and same priority (when the two sides disagree, the rule later in
/// this list wins: Average < Min < Multiply < Max < ClampedSum < GeometricMean).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum CombineRule {
    /// `(a + b)/2` (rapier's default for friction).
    #[default]
    Average,
    /// `min(a, b)` ("ice on anything is ice").
    Min,
    /// `a·b`.
    Multiply,
    /// `max(a, b)` ("rubber on anything is rubber").
    Max,
    /// `clamp(a + b, 0, 1)`.
    ClampedSum,
    /// `√(a·b)`.
    GeometricMean,
}

impl CombineRule {
    /// The rule of a contact whose sides use `a` and `b`: the higher-priority one (rapier's rule).
    pub fn resolve(a: CombineRule, b: CombineRule) -> CombineRule {
        a.max(b)
    }

    /// Combines two non-negative values. Every rule is non-decreasing in each argument, so it
    /// keeps `μs ≥ μk` and static ≥ kinetic lengths.
    pub fn apply(self, a: f64, b: f64) -> f64 {
        match self {
            CombineRule::Average => 0.5 * a + 0.5 * b,
            CombineRule::Min => a.min(b),
            CombineRule::Multiply => a * b,
            CombineRule::Max => a.max(b),
            CombineRule::ClampedSum => (a + b).clamp(0.0, 1.0),
            CombineRule::GeometricMean => (a * b).sqrt(),
        }
    }
}

/// Per-coefficient combine rules of a material. `None` defers to the fallback the adapter
/// passes (tribo_rapier: the collider's rapier `friction_combine_rule`, itself `Average` by
/// default). Each side's rule is its own setting or the fallback; the contact uses
/// [`CombineRule::resolve`] of the two.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct CombineRules {
    /// Rule for μs and μk.
    pub friction: Option<CombineRule>,
    /// Rule for the rolling resistance (lengths or η_r).
    pub roll: Option<CombineRule>,
    /// Rule for the spin resistance (lengths or η_ψ).
    pub spin: Option<CombineRule>,
}

impl CombineRules {
    /// The same rule for every coefficient.
    pub fn all(rule: CombineRule) -> Self {
        CombineRules { friction: Some(rule), roll: Some(rule), spin: Some(rule) }
    }
}

/// User label of a material, the key of per-pair overrides ("ice on steel") in the adapters'
/// pair tables. Not combined: the material of a contact has no id.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct MaterialId(pub u32);

/// How a damping coefficient is chosen.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
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
            check_bounded(name, c, false, limits::MAX_STIFFNESS)?;
        }
        Ok(self)
    }
}

/// Spin-friction parameter set (docs/tracking.md §4.3).
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
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
    /// Spin resistance as lengths (m): static torque bound `c_s N`, kinetic `c_k N`,
    /// independent of μ and radius (Chrono's and Bullet's spinning friction, MuJoCo's second
    /// friction coefficient). Stiffness `K_ψ = K_E/𝒦²` with the geometric curvature `𝒦`;
    /// off for flat-on-flat contacts (`𝒦 ≤ ε_κ`), where rapier's several contact points
    /// already resist spin (or use the Contensou model). Build with
    /// [`Material::with_spinning_resistance`].
    Length {
        /// Static torque bound per newton of N, `c_s ≥ c_k` (m).
        static_len: f64,
        /// Kinetic torque bound per newton of N (m).
        kinetic_len: f64,
    },
}

impl SpinModel {
    /// Hertz spin parameters of a body of Young's modulus `e` (Pa) and Poisson ratio `nu`
    /// against a rigid counterpart: `E_eff = E* = E/(1−ν²)` (eq. 15). Combine two with
    /// [`Material::combine`].
    ///
    /// Errors: `e` not in `(0, 1e15]` Pa, `nu` not in `(−1, 0.5]`, and a plane-strain modulus
    /// `E/(1−ν²)` above `2e15` Pa (the bound [`Material::with_spin`] accepts), which a ν near
    /// −1 gives: `1 − ν²` → 0 (ν = −0.999 multiplies E by 500). Every model this returns is
    /// accepted by `with_spin`.
    pub fn hertz(e: f64, nu: f64) -> Result<Self, ParamError> {
        check_bounded("youngs_modulus", e, true, limits::MAX_MODULUS)?;
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
        // 1 − ν² ≥ 0.75 for ν ∈ [−0.5, 0.5] (E_eff ≤ 1.34 E), but → 0 as ν → −1 (auxetic
        // materials): the plane-strain modulus is checked against the bound `with_spin` applies.
        let effective_modulus = e / (1.0 - nu * nu);
        if !effective_modulus.is_finite() || effective_modulus > MAX_EFFECTIVE_MODULUS {
            return Err(ParamError::OutOfRange {
                name: "poisson_ratio",
                value: nu,
                expected: "in (-1, 0.5] with E/(1 - ν²) ≤ 2e15 Pa (too close to -1 for this Young's modulus)",
            });
        }
        Ok(SpinModel::Hertz { effective_modulus })
    }

    fn validated(self) -> Result<Self, ParamError> {
        match self {
            SpinModel::Off => {}
            SpinModel::Heuristic { eta_psi, curvature } => {
                check_bounded("eta_psi", eta_psi, false, limits::MAX_COEFFICIENT)?;
                if let Some(k) = curvature {
                    check_bounded("spin_curvature", k, true, limits::MAX_CURVATURE)?;
                }
            }
            SpinModel::Hertz { effective_modulus } => {
                check_bounded("effective_modulus", effective_modulus, true, MAX_EFFECTIVE_MODULUS)?;
            }
            SpinModel::Length { static_len, kinetic_len } => {
                check_lengths("spin_static_length", static_len, "spin_kinetic_length", kinetic_len)?;
            }
        }
        Ok(self)
    }
}

/// Two effective moduli in series, `E₁E₂/(E₁+E₂)` (eq. 15: `1/E* = 1/E₁* + 1/E₂*`), in
/// `[min/2, min]`: computed as `lo/(1 + lo/hi)` with `lo ≤ hi`, whose quotient is at most 1, so
/// neither the product nor the quotient overflows (`a/(1 + a/b)` with `a = 1e12`, `b = 1e-300`
/// gave `1e12/∞ = 0`). For positive moduli the result is positive: where halving the smaller
/// one would underflow (subnormal moduli) it is the smaller one.
fn series_modulus(a: f64, b: f64) -> f64 {
    let (lo, hi) = if a <= b { (a, b) } else { (b, a) };
    let e = lo / (1.0 + lo / hi);
    if e > 0.0 {
        e
    } else {
        lo
    }
}

/// The largest effective (plane-strain) modulus `E/(1−ν²)` accepted: twice
/// [`limits::MAX_MODULUS`].
const MAX_EFFECTIVE_MODULUS: f64 = 2.0 * limits::MAX_MODULUS;

fn check_lengths(sn: &'static str, s: f64, kn: &'static str, k: f64) -> Result<(), ParamError> {
    check_bounded(sn, s, false, limits::MAX_LENGTH)?;
    check_bounded(kn, k, false, limits::MAX_LENGTH)?;
    if s < k {
        return Err(ParamError::OutOfRange {
            name: sn,
            value: s,
            expected: "≥ the kinetic length (static resistance at least kinetic)",
        });
    }
    Ok(())
}

/// Explicit roll parameters, replacing the energy tie (2b)–(2c). Needed to reproduce
/// experiments that fix `K_R` and the thresholds directly (docs/tracking.md §5.2, T2).
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct RollOverride {
    /// Roll stiffness K_R (N·m/rad... per unit Θ).
    pub stiffness: f64,
    /// Static threshold Θ^s (or, with `per_newton`, Θ^s per newton of N).
    pub static_threshold: f64,
    /// Kinetic threshold Θ^d.
    pub kinetic_threshold: f64,
    /// Whether the thresholds scale with N (multiplied by N each step). Without, they are
    /// constant while `N > 0`; at `N ≤ 0` or non-finite N the roll capacity is zero either
    /// way, as every capacity (see the module docs).
    pub per_newton: bool,
}

/// The friction material of a contact (docs/tracking.md §5.2 "configuration to expose").
///
/// Defaults (from [`Material::new`]), all explicit:
///
/// | parameter | default | ball of radius R on a plane |
/// |---|---|---|
/// | slide stiffness `K_E` | 1e5 N/m | |
/// | damping (slide, roll, spin) | critical | |
/// | rolling resistance | energy tie `η_r = 0.01` | torque bound `0.02 μ R N` (μs static, μk kinetic), i.e. `c_r = 0.02 μ R` |
/// | spin resistance | heuristic `η_ψ = 0.01`, geometric `𝒦` | torque bound `0.01 μ R N`, i.e. `c_ψ = 0.01 μ R` |
/// | `ε_κ` | 1e-9 1/m | |
/// | combine rules | `None` (the collider's rule; rapier's default `Average`) | |
///
/// For resistance independent of μ and radius set lengths:
/// [`with_rolling_resistance`](Self::with_rolling_resistance) and
/// [`with_spinning_resistance`](Self::with_spinning_resistance); for none,
/// `with_roll_eta(0.0)` and `with_spin(SpinModel::Off)`.
///
/// ```
/// use tribo::tracking::{Material, Mode};
/// // Bullet's rollingFriction = 0.004 m: torque bound 0.004 m × N, whatever the radius.
/// let m = Material::new(0.6, 0.5)?.with_rolling_resistance(0.004)?;
/// for r in [0.01, 0.1, 1.0] {
///     let cap = m.roll_torque_capacity(Mode::Kinetic, 10.0, 1.0 / r, 0.0);
///     assert!((cap - 0.04).abs() < 1e-12);
/// }
/// # Ok::<(), tribo::tracking::ParamError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(try_from = "MaterialRecord", into = "MaterialRecord"))]
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
    /// Rolling resistance lengths (static, kinetic), replacing the energy tie when set.
    roll_length: Option<(f64, f64)>,
    rules: CombineRules,
    id: Option<MaterialId>,
}

/// The serialized form of [`Material`]: its fields, read back through the validating setters
/// (a record the builders would reject is an error, never an invalid material).
#[cfg(feature = "serde")]
#[derive(Clone, Copy, serde::Serialize, serde::Deserialize)]
struct MaterialRecord {
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
    roll_length: Option<(f64, f64)>,
    rules: CombineRules,
    id: Option<MaterialId>,
}

#[cfg(feature = "serde")]
impl From<Material> for MaterialRecord {
    fn from(m: Material) -> Self {
        MaterialRecord {
            mu_s: m.mu_s,
            mu_k: m.mu_k,
            k_e: m.k_e,
            slide_damping: m.slide_damping,
            eta_r: m.eta_r,
            roll_damping: m.roll_damping,
            roll_override: m.roll_override,
            spin: m.spin,
            spin_damping: m.spin_damping,
            eps_kappa: m.eps_kappa,
            roll_length: m.roll_length,
            rules: m.rules,
            id: m.id,
        }
    }
}

#[cfg(feature = "serde")]
impl TryFrom<MaterialRecord> for Material {
    type Error = ParamError;
    fn try_from(r: MaterialRecord) -> Result<Self, ParamError> {
        let mut m = Material::new(r.mu_s, r.mu_k)?
            .with_stiffness(r.k_e)?
            .with_slide_damping(r.slide_damping)?
            .with_roll_eta(r.eta_r)?
            .with_roll_damping(r.roll_damping)?
            .with_spin(r.spin)?
            .with_spin_damping(r.spin_damping)?
            .with_curvature_epsilon(r.eps_kappa)?
            .with_combine_rules(r.rules);
        if let Some(o) = r.roll_override {
            m = m.with_roll_override(o)?;
        }
        if let Some((s, k)) = r.roll_length {
            m = m.with_rolling_resistances(s, k)?;
        }
        if let Some(id) = r.id {
            m = m.with_id(id);
        }
        Ok(m)
    }
}
impl Material {
    /// A material with static and kinetic coefficients `mu_s ≥ mu_k ≥ 0` and default other
    /// parameters (see the type docs).
    pub fn new(mu_s: f64, mu_k: f64) -> Result<Self, ParamError> {
        check_bounded("mu_s", mu_s, false, limits::MAX_COEFFICIENT)?;
        check_bounded("mu_k", mu_k, false, limits::MAX_COEFFICIENT)?;
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
            roll_length: None,
            rules: CombineRules::default(),
            id: None,
        })
    }

    /// Rolling resistance as a length `c ≥ 0` (m), static and kinetic alike: the roll torque
    /// bound is `c·N`, independent of μ and of the radius (Chrono `SetRollingFriction`, Bullet
    /// `rollingFriction`, MuJoCo's third friction coefficient). Replaces the energy tie η_r.
    /// Roll stiffness `K_R = K_E/(κ_i+κ_j)²` (ball on a plane: `K_E R²`); roll friction is off
    /// for flat-on-flat contacts (`κ_i+κ_j ≤ ε_κ`) as with η_r. `c = 0` turns it off.
    pub fn with_rolling_resistance(self, c: f64) -> Result<Self, ParamError> {
        self.with_rolling_resistances(c, c)
    }
    /// Rolling resistance lengths with distinct static (holding) and kinetic (rolling) values
    /// `c_s ≥ c_k ≥ 0` (m): torque bounds `c_s N` while the contact sticks, `c_k N` while it rolls.
    pub fn with_rolling_resistances(mut self, c_static: f64, c_kinetic: f64) -> Result<Self, ParamError> {
        check_lengths("roll_static_length", c_static, "roll_kinetic_length", c_kinetic)?;
        self.roll_length = Some((c_static, c_kinetic));
        Ok(self)
    }
    /// Spin resistance as a length `c ≥ 0` (m), static and kinetic alike: spin torque bound
    /// `c·N` ([`SpinModel::Length`]; Chrono `SetSpinningFriction`, Bullet `spinningFriction`,
    /// MuJoCo's second friction coefficient).
    pub fn with_spinning_resistance(self, c: f64) -> Result<Self, ParamError> {
        self.with_spinning_resistances(c, c)
    }
    /// Spin resistance lengths `c_s ≥ c_k ≥ 0` (m), see [`SpinModel::Length`].
    pub fn with_spinning_resistances(self, c_static: f64, c_kinetic: f64) -> Result<Self, ParamError> {
        self.with_spin(SpinModel::Length { static_len: c_static, kinetic_len: c_kinetic })
    }
    /// The same combine rule for μ, roll and spin resistance (see [`CombineRules`]).
    pub fn with_combine_rule(mut self, rule: CombineRule) -> Self {
        self.rules = CombineRules::all(rule);
        self
    }
    /// Per-coefficient combine rules.
    pub fn with_combine_rules(mut self, rules: CombineRules) -> Self {
        self.rules = rules;
        self
    }
    /// Labels the material for per-pair overrides ([`MaterialId`]).
    pub fn with_id(mut self, id: MaterialId) -> Self {
        self.id = Some(id);
        self
    }
    /// Rolling resistance lengths `(c_s, c_k)` (m), if set in that form.
    pub fn rolling_resistance(&self) -> Option<(f64, f64)> {
        self.roll_length
    }
    /// The combine rules.
    pub fn combine_rules(&self) -> CombineRules {
        self.rules
    }
    /// The label, if any.
    pub fn id(&self) -> Option<MaterialId> {
        self.id
    }

    /// Sets the slide stiffness `K_E > 0` (N/m).
    pub fn with_stiffness(mut self, k_e: f64) -> Result<Self, ParamError> {
        if k_e < limits::MIN_STIFFNESS && k_e.is_finite() && k_e > 0.0 {
            return Err(ParamError::OutOfRange { name: "k_e", value: k_e, expected: "≥ 1e-6 N/m" });
        }
        self.k_e = check_bounded("k_e", k_e, true, limits::MAX_STIFFNESS)?;
        Ok(self)
    }
    /// Sets the slide damping `K_D` (default critical, eq. 1c).
    pub fn with_slide_damping(mut self, d: Damping) -> Result<Self, ParamError> {
        self.slide_damping = d.validated("k_d")?;
        Ok(self)
    }
    /// Sets the roll energy-tie coefficient `η_r ≥ 0` (dimensionless; 0 disables roll
    /// friction), the paper's form: torque bound `2 η_r μ N/(κ_i+κ_j)` (μs static, μk
    /// kinetic; a ball of radius R on a plane: `2 η_r μ R N`). Replaces rolling resistance
    /// lengths if they were set. For a rolling resistance in metres (torque bound `c·N`, as in
    /// Chrono, Bullet and MuJoCo) use [`with_rolling_resistance`](Self::with_rolling_resistance);
    /// `with_roll_eta(0.0005)` is not 0.5 mm.
    pub fn with_roll_eta(mut self, eta_r: f64) -> Result<Self, ParamError> {
        self.eta_r = check_bounded("eta_r", eta_r, false, limits::MAX_COEFFICIENT)?;
        self.roll_length = None;
        Ok(self)
    }
    /// Sets the roll damping `D_R` (default critical).
    pub fn with_roll_damping(mut self, d: Damping) -> Result<Self, ParamError> {
        self.roll_damping = d.validated("d_r")?;
        Ok(self)
    }
    /// Replaces the roll energy tie by explicit stiffness and thresholds.
    pub fn with_roll_override(mut self, o: RollOverride) -> Result<Self, ParamError> {
        check_bounded("k_r", o.stiffness, false, limits::MAX_STIFFNESS)?;
        check_bounded("theta_s", o.static_threshold, false, limits::MAX_THRESHOLD)?;
        check_bounded("theta_d", o.kinetic_threshold, false, limits::MAX_THRESHOLD)?;
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
        self.eps_kappa = check_bounded("eps_kappa", eps, true, limits::MAX_CURVATURE)?;
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

    /// Combines the materials of two bodies into the material of their contact, each side's
    /// rules defaulting to rapier's default `Average` (see [`Material::combine_with`]).
    pub fn combine(&self, other: &Material) -> Material {
        self.combine_with(other, CombineRule::Average, CombineRule::Average)
    }

    /// Combines the materials of two bodies into the material of their contact; `fallback_self`
    /// and `fallback_other` are each side's rule where its [`CombineRules`] entry is `None`
    /// (tribo_rapier passes the collider's rapier `friction_combine_rule`).
    ///
    /// Rules (documented, symmetric), with `rule = CombineRule::resolve(side rules)` per
    /// coefficient:
    /// * μs and μk: the friction rule (every rule keeps μs ≥ μk);
    /// * rolling resistance: the roll rule on the lengths `c_s`, `c_k` when both sides give
    ///   lengths, on η_r when both use the energy tie; a length against an energy tie: the
    ///   length side (a length is absolute, η_r is relative to μ and curvature, so they cannot
    ///   be mixed without the contact's geometry);
    /// * spin: off on either side → off; both lengths or both heuristic → the spin rule on
    ///   the lengths or η_ψ (explicit curvature taken from `self` if present, else `other`);
    ///   Hertz moduli in series `E₁*E₂*/(E₁*+E₂*)` (eq. 15); otherwise a length side wins over
    ///   a Hertz one, and Hertz over heuristic;
    /// * K_E: springs in series `k₁k₂/(k₁+k₂)`; damping: `Fixed` values averaged, `Critical`
    ///   wins if either side is critical; roll overrides: `self`'s if present, else `other`'s;
    ///   ε_κ: the larger; combine rules: each coefficient's resolved rule; id: none.
    ///
    /// Combined values above the bounds of [`limits`] (e.g. `Multiply` of two large μ) are
    /// clamped to them, so the combination of two valid materials is a valid material.
    pub fn combine_with(
        &self,
        other: &Material,
        fallback_self: CombineRule,
        fallback_other: CombineRule,
    ) -> Material {
        fn damp(a: Damping, b: Damping) -> Damping {
            match (a, b) {
                (Damping::Fixed(x), Damping::Fixed(y)) => Damping::Fixed(0.5 * x + 0.5 * y),
                _ => Damping::Critical,
            }
        }
        let rule = |a: Option<CombineRule>, b: Option<CombineRule>| {
            CombineRule::resolve(a.unwrap_or(fallback_self), b.unwrap_or(fallback_other))
        };
        let (rf, rr, rs) = (
            rule(self.rules.friction, other.rules.friction),
            rule(self.rules.roll, other.rules.roll),
            rule(self.rules.spin, other.rules.spin),
        );
        let coef = |r: CombineRule, a: f64, b: f64| r.apply(a, b).min(limits::MAX_COEFFICIENT);
        let len = |r: CombineRule, a: f64, b: f64| r.apply(a, b).min(limits::MAX_LENGTH);
        let spin = match (self.spin, other.spin) {
            (SpinModel::Off, _) | (_, SpinModel::Off) => SpinModel::Off,
            (
                SpinModel::Length { static_len: s1, kinetic_len: k1 },
                SpinModel::Length { static_len: s2, kinetic_len: k2 },
            ) => SpinModel::Length { static_len: len(rs, s1, s2), kinetic_len: len(rs, k1, k2) },
            (l @ SpinModel::Length { .. }, _) | (_, l @ SpinModel::Length { .. }) => l,
            (SpinModel::Hertz { effective_modulus: a }, SpinModel::Hertz { effective_modulus: b }) => {
                SpinModel::Hertz { effective_modulus: series_modulus(a, b) }
            }
            (h @ SpinModel::Hertz { .. }, _) | (_, h @ SpinModel::Hertz { .. }) => h,
            (
                SpinModel::Heuristic { eta_psi: e1, curvature: c1 },
                SpinModel::Heuristic { eta_psi: e2, curvature: c2 },
            ) => SpinModel::Heuristic { eta_psi: coef(rs, e1, e2), curvature: c1.or(c2) },
        };
        let (eta_r, roll_length) = match (self.roll_length, other.roll_length) {
            (Some((s1, k1)), Some((s2, k2))) => (0.0, Some((len(rr, s1, s2), len(rr, k1, k2)))),
            (Some(l), None) | (None, Some(l)) => (0.0, Some(l)),
            (None, None) => (coef(rr, self.eta_r, other.eta_r), None),
        };
        Material {
            mu_s: coef(rf, self.mu_s, other.mu_s),
            mu_k: coef(rf, self.mu_k, other.mu_k),
            // k₁k₂/(k₁+k₂) without overflow of the product.
            k_e: (self.k_e / (1.0 + self.k_e / other.k_e)).max(limits::MIN_STIFFNESS),
            slide_damping: damp(self.slide_damping, other.slide_damping),
            eta_r,
            roll_damping: damp(self.roll_damping, other.roll_damping),
            roll_override: self.roll_override.or(other.roll_override),
            spin,
            spin_damping: damp(self.spin_damping, other.spin_damping),
            eps_kappa: self.eps_kappa.max(other.eps_kappa),
            roll_length,
            rules: CombineRules { friction: Some(rf), roll: Some(rr), spin: Some(rs) },
            id: None,
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
        let slide = self.derive_slide(n);
        // Slide only (no rolling or spin resistance): the common case needs nothing more.
        if !self.has_torques() {
            return slide;
        }
        self.derive_torques(slide, kappa_i, kappa_j, mean_kappa_i, mean_kappa_j)
    }

    /// [`derive`](Self::derive) of a material without roll or spin resistance
    /// ([`has_torques`](Self::has_torques) false): its slide parameters, and zero for every roll
    /// and spin parameter (which is all `derive` gives such a material, whatever the
    /// curvatures).
    #[inline]
    pub fn derive_slide(&self, n: f64) -> Derived {
        let n = if n.is_finite() && n > 0.0 { n.min(limits::MAX_NORMAL_FORCE) } else { 0.0 };
        let k_e = self.k_e;
        Derived {
            n,
            slide_stiffness: k_e,
            slide_static: clamp_threshold(self.mu_s * n / k_e, k_e),
            slide_kinetic: clamp_threshold(self.mu_k * n / k_e, k_e),
            ..Derived::default()
        }
    }

    /// Whether the material may resist roll or spin: a roll override, a positive rolling
    /// resistance (energy tie or length), or a spin model that is not off or zero. Without,
    /// every roll and spin parameter of [`derive`](Self::derive) is zero.
    #[inline]
    pub fn has_torques(&self) -> bool {
        self.roll_override.is_some()
            || self.roll_length.is_some_and(|(cs, _)| cs > 0.0)
            || self.eta_r > 0.0
            || match self.spin {
                SpinModel::Off => false,
                SpinModel::Heuristic { eta_psi, .. } => eta_psi > 0.0,
                SpinModel::Hertz { .. } => true,
                SpinModel::Length { static_len, .. } => static_len > 0.0,
            }
    }

    /// [`derive`](Self::derive) for fixed curvatures as a function of the normal force alone
    /// ([`PerNewton::at`]): every threshold is then a constant times `N`, clamped, which a
    /// contact whose curvatures do not change (balls, flat faces) can keep and evaluate each
    /// step with a few multiplications instead of the divisions of `derive`. The values agree
    /// with `derive`'s to rounding (the same factors, multiplied in another order). `None`
    /// for the Hertz spin model, whose patch radius grows as `N^{1/3}`.
    pub fn per_newton(
        &self,
        kappa_i: f64,
        kappa_j: f64,
        mean_kappa_i: f64,
        mean_kappa_j: f64,
    ) -> Option<PerNewton> {
        if matches!(self.spin, SpinModel::Hertz { .. }) {
            return None;
        }
        // `derive` at N = 1 gives the factors of the thresholds that scale with N; a roll
        // override whose thresholds do not is kept as a constant.
        let one = self.derive(1.0, kappa_i, kappa_j, mean_kappa_i, mean_kappa_j);
        let limit = |k: f64| if k > 0.0 { limits::MAX_CAPACITY / k } else { f64::INFINITY };
        let (roll_per_n, roll_const) = match self.roll_override {
            Some(o) if !o.per_newton => ([0.0; 2], [one.roll_static, one.roll_kinetic]),
            _ => ([one.roll_static, one.roll_kinetic], [0.0; 2]),
        };
        Some(PerNewton {
            stiffness: [one.slide_stiffness, one.roll_stiffness, one.spin_stiffness],
            per_n: [[one.slide_static, one.slide_kinetic], roll_per_n, [one.spin_static, one.spin_kinetic]],
            roll_const,
            // (A roll override's thresholds are capacities, clamped as such.)
            limit: [
                limit(one.slide_stiffness),
                if self.roll_override.is_some() { limits::MAX_CAPACITY } else { limit(one.roll_stiffness) },
                limit(one.spin_stiffness),
            ],
        })
    }

    /// [`derive`](Self::derive)'s roll and spin parameters, added to its slide-only `slide`.
    #[inline(never)]
    fn derive_torques(
        &self,
        slide: Derived,
        kappa_i: f64,
        kappa_j: f64,
        mean_kappa_i: f64,
        mean_kappa_j: f64,
    ) -> Derived {
        let Derived { n, slide_stiffness: k_e, slide_static, slide_kinetic, .. } = slide;
        let cap = |c: f64| c.min(limits::MAX_CAPACITY);
        let clamp_th = clamp_threshold;

        // Roll (2b)-(2c), lengths, or override.
        let ksum = kappa_i + kappa_j;
        let curved = ksum.is_finite() && ksum > self.eps_kappa;
        let (roll_stiffness, roll_static, roll_kinetic) = match (self.roll_override, self.roll_length) {
            (Some(o), _) => {
                // Thresholds per newton scale with N; constant ones apply while N > 0 (every
                // capacity is zero at N = 0, which the clamp above makes of N ≤ 0, NaN and ∞).
                let s = if o.per_newton {
                    n
                } else if n > 0.0 {
                    1.0
                } else {
                    0.0
                };
                (o.stiffness, cap(o.static_threshold * s), cap(o.kinetic_threshold * s))
            }
            (None, Some((cs, ck))) if cs > 0.0 && curved => {
                // K_R = K_E/(κ_i+κ_j)², capacities c N.
                let kr = k_e / (ksum * ksum);
                if kr > 0.0 && kr.is_finite() {
                    (kr, cap(cs * n) / kr, cap(ck * n) / kr)
                } else {
                    (0.0, 0.0, 0.0)
                }
            }
            (None, None) if self.eta_r > 0.0 && curved => {
                let kr = 4.0 * self.eta_r * k_e / (ksum * ksum);
                if kr > 0.0 && kr.is_finite() {
                    // Θ^■ = μ_■ N (κ_i+κ_j)/(2 K_E): K_R Θ^■ = 2 η_r μ_■ N/(κ_i+κ_j), clamped.
                    let th = |mu: f64| clamp_th(mu * n * ksum / (2.0 * k_e), kr);
                    (kr, th(self.mu_s), th(self.mu_k))
                } else {
                    (0.0, 0.0, 0.0)
                }
            }
            _ => (0.0, 0.0, 0.0),
        };

        // Spin (3c), (12)-(15) or lengths.
        let kmean = mean_kappa_i + mean_kappa_j;
        let kmean_ok = kmean.is_finite() && kmean > self.eps_kappa;
        let (spin_stiffness, spin_static, spin_kinetic) = match self.spin {
            SpinModel::Off => (0.0, 0.0, 0.0),
            SpinModel::Heuristic { eta_psi, curvature } => {
                let k = curvature.unwrap_or(kmean);
                let kpsi = eta_psi * k_e / (k * k);
                if eta_psi > 0.0 && k.is_finite() && k > self.eps_kappa && kpsi > 0.0 && kpsi.is_finite() {
                    // 𝒮^ψ_■ = 𝒦 μ_■ N/K_E: K_ψ 𝒮^ψ_■ = η_ψ μ_■ N/𝒦, clamped.
                    let th = |mu: f64| clamp_th(k * (mu * n / k_e), kpsi);
                    (kpsi, th(self.mu_s), th(self.mu_k))
                } else {
                    (0.0, 0.0, 0.0)
                }
            }
            SpinModel::Hertz { effective_modulus } => {
                if kmean_ok && n > 0.0 {
                    let r_eff = 1.0 / kmean;
                    // a = (3 N R_eff/(4 E))^{1/3}; as a product of cube roots where the
                    // quotient under- or overflows.
                    let a = match (3.0 * n * r_eff / (4.0 * effective_modulus)).cbrt() {
                        a if a > 0.0 && a.is_finite() => a,
                        _ => 0.75f64.cbrt() * n.cbrt() * r_eff.cbrt() / effective_modulus.cbrt(),
                    };
                    let kpsi = 0.5 * a * a * k_e;
                    if kpsi > 0.0 && kpsi.is_finite() {
                        // 𝒮^ψ_■ = μ_■ N/(a K_E): K_ψ 𝒮^ψ_■ = ½ a μ_■ N, clamped.
                        let th = |mu: f64| clamp_th((1.0 / a) * (mu * n / k_e), kpsi);
                        (kpsi, th(self.mu_s), th(self.mu_k))
                    } else {
                        (0.0, 0.0, 0.0)
                    }
                } else {
                    (0.0, 0.0, 0.0)
                }
            }
            SpinModel::Length { static_len, kinetic_len } => {
                let kpsi = k_e / (kmean * kmean);
                if static_len > 0.0 && kmean_ok && kpsi > 0.0 && kpsi.is_finite() {
                    (kpsi, cap(static_len * n) / kpsi, cap(kinetic_len * n) / kpsi)
                } else {
                    (0.0, 0.0, 0.0)
                }
            }
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

    /// Roll torque capacity `K_R Θ^■` in `mode`: `c_■ N` with rolling resistance lengths,
    /// `2 η_r μ_■ N/(κ_i+κ_j)` with the energy tie (ball of radius R on a plane: `2 η_r μ_■ R N`),
    /// μ_■ = μs static, μk kinetic; 0 when roll friction is off or `κ_i+κ_j ≤ ε_κ`.
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
            let n = n.min(limits::MAX_NORMAL_FORCE);
            match (3.0 * n / (kmean * 4.0 * effective_modulus)).cbrt() {
                a if a > 0.0 && a.is_finite() => Some(a),
                _ => Some(0.75f64.cbrt() * n.cbrt() / (kmean.cbrt() * effective_modulus.cbrt())),
            }
        } else {
            None
        }
    }

    /// Spin torque capacity `K_ψ 𝒮^ψ_■` in `mode`: `η_ψ μ_■ N/𝒦` (heuristic), `½ a μ_■ N`
    /// (Hertz) or `c_■ N` (lengths), μ_■ = μs static, μk kinetic, from the mean curvatures of
    /// the two surfaces.
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
    /// These parameters with every roll and spin parameter zero (what [`Material::derive`]
    /// gives a material without roll or spin resistance).
    #[inline]
    pub fn slide_only(self) -> Derived {
        let Derived { n, slide_stiffness, slide_static, slide_kinetic, .. } = self;
        Derived { n, slide_stiffness, slide_static, slide_kinetic, ..Derived::default() }
    }

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

/// [`Material::derive`] for fixed curvatures, as a function of the normal force (see
/// [`Material::per_newton`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PerNewton {
    /// The slide, roll and spin stiffnesses.
    stiffness: [f64; 3],
    /// The static and kinetic thresholds of slide, roll and spin per newton.
    per_n: [[f64; 2]; 3],
    /// The roll thresholds of a roll override that does not scale with N.
    roll_const: [f64; 2],
    /// The largest thresholds (capacity [`limits::MAX_CAPACITY`] over the stiffness).
    limit: [f64; 3],
}

impl PerNewton {
    /// The derived parameters for normal force `n` (N); non-finite or negative `n` counts as 0
    /// and large ones as [`limits::MAX_NORMAL_FORCE`], as in [`Material::derive`].
    #[inline]
    pub fn at(&self, n: f64) -> Derived {
        let n = if n.is_finite() && n > 0.0 { n.min(limits::MAX_NORMAL_FORCE) } else { 0.0 };
        let th = |k: usize, m: usize, c: f64| (self.per_n[k][m] * n + c).min(self.limit[k]);
        // A roll override's constant thresholds apply while N > 0, as in `derive`.
        let roll_const = if n > 0.0 { self.roll_const } else { [0.0; 2] };
        Derived {
            n,
            slide_stiffness: self.stiffness[0],
            slide_static: th(0, 0, 0.0),
            slide_kinetic: th(0, 1, 0.0),
            roll_stiffness: self.stiffness[1],
            roll_static: th(1, 0, roll_const[0]),
            roll_kinetic: th(1, 1, roll_const[1]),
            spin_stiffness: self.stiffness[2],
            spin_static: th(2, 0, 0.0),
            spin_kinetic: th(2, 1, 0.0),
        }
    }
}

/// The threshold `th` of a mechanism with stiffness `k`, clamped so that `k·th` stays within
/// [`limits::MAX_CAPACITY`]: capacities (forces or torques) are clamped there, and thresholds
/// follow as capacity / stiffness.
#[inline(always)]
fn clamp_threshold(th: f64, k: f64) -> f64 {
    th.min(limits::MAX_CAPACITY / k)
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
        assert!(m.with_roll_eta(f64::NAN).is_err());
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
            .with_roll_eta(0.3)
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

#[cfg(test)]
mod tests_units {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() <= 1e-12 * a.abs().max(b.abs()).max(1e-300)
    }

    #[test]
    fn rolling_resistance_length_is_independent_of_mu_and_radius() {
        // Torque bound c N for every radius and μ: c = 0.004 m, N = 10 N → 0.04 N·m.
        for (mu_s, mu_k) in [(0.9, 0.8), (0.3, 0.1), (0.0, 0.0)] {
            let m = Material::new(mu_s, mu_k).unwrap().with_rolling_resistances(0.005, 0.004).unwrap();
            for r in [0.01, 0.1, 2.0] {
                assert!(close(m.roll_torque_capacity(Mode::Kinetic, 10.0, 1.0 / r, 0.0), 0.04));
                assert!(close(m.roll_torque_capacity(Mode::Static, 10.0, 1.0 / r, 0.0), 0.05));
                // K_R = K_E R² (ball on a plane).
                assert!(close(m.derive(10.0, 1.0 / r, 0.0, 0.0, 0.0).roll_stiffness, 1e5 * r * r));
            }
        }
        // Spin lengths likewise: c_ψ = 0.002 m → 0.02 N·m.
        let m = Material::new(0.5, 0.4).unwrap().with_spinning_resistance(0.002).unwrap();
        for r in [0.01, 0.5] {
            assert!(close(m.spin_torque_capacity(Mode::Kinetic, 10.0, 1.0 / r, 0.0), 0.02));
        }
        // Flat on flat: off.
        assert_eq!(m.spin_torque_capacity(Mode::Static, 10.0, 0.0, 0.0), 0.0);
        // Static below kinetic is rejected.
        assert!(Material::new(0.5, 0.4).unwrap().with_rolling_resistances(0.001, 0.002).is_err());
        assert!(Material::new(0.5, 0.4).unwrap().with_rolling_resistance(f64::NAN).is_err());
        assert!(Material::new(0.5, 0.4).unwrap().with_spinning_resistance(-1.0).is_err());
    }

    #[test]
    fn documented_conversion_between_eta_and_length() {
        // c_r = 2 η_r μ R and c_ψ = η_ψ μ R (ball on a plane) give the same capacities.
        let (r, n, eta_r, eta_psi) = (0.05, 3.0, 0.02, 0.03);
        let base = Material::new(0.6, 0.5).unwrap();
        let tie =
            base.with_roll_eta(eta_r).unwrap().with_spin(SpinModel::Heuristic { eta_psi, curvature: None });
        let tie = tie.unwrap();
        let len = base
            .with_rolling_resistances(2.0 * eta_r * 0.6 * r, 2.0 * eta_r * 0.5 * r)
            .unwrap()
            .with_spinning_resistances(eta_psi * 0.6 * r, eta_psi * 0.5 * r)
            .unwrap();
        for mode in [Mode::Static, Mode::Kinetic] {
            assert!(close(
                tie.roll_torque_capacity(mode, n, 1.0 / r, 0.0),
                len.roll_torque_capacity(mode, n, 1.0 / r, 0.0)
            ));
            assert!(close(
                tie.spin_torque_capacity(mode, n, 1.0 / r, 0.0),
                len.spin_torque_capacity(mode, n, 1.0 / r, 0.0)
            ));
        }
    }

    #[test]
    fn combine_rules_on_mu_and_lengths() {
        let a = Material::new(0.8, 0.6).unwrap().with_rolling_resistance(0.004).unwrap();
        let b = Material::new(0.2, 0.1).unwrap().with_rolling_resistance(0.001).unwrap();
        let cases = [
            (CombineRule::Average, 0.5, 0.35, 0.0025),
            (CombineRule::Min, 0.2, 0.1, 0.001),
            (CombineRule::Max, 0.8, 0.6, 0.004),
            (CombineRule::Multiply, 0.16, 0.06, 0.000004),
        ];
        for (rule, mu_s, mu_k, c) in cases {
            let ab = a.with_combine_rule(rule).combine(&b);
            assert!(close(ab.mu_s(), mu_s) && close(ab.mu_k(), mu_k), "{rule:?}");
            assert!(close(ab.rolling_resistance().unwrap().1, c), "{rule:?}");
            // Symmetric, and the fallback of a side without a rule gives the same.
            assert_eq!(ab.mu_s(), b.combine(&a.with_combine_rule(rule)).mu_s());
            let fb = a.combine_with(&b, rule, rule);
            assert!(close(fb.mu_s(), mu_s) && close(fb.rolling_resistance().unwrap().0, c), "{rule:?}");
        }
        // Priority: Max beats Min (rapier's order).
        let ab = a.with_combine_rule(CombineRule::Min).combine(&b.with_combine_rule(CombineRule::Max));
        assert!(close(ab.mu_s(), 0.8));
        // Same length on both sides = that length (Average, Min, Max).
        let same = a.combine(&a);
        assert_eq!(same.rolling_resistance(), Some((0.004, 0.004)));
        // Length against an energy tie: the length side.
        let tie = Material::new(0.5, 0.5).unwrap().with_roll_eta(0.3).unwrap();
        assert_eq!(tie.combine(&a).rolling_resistance(), Some((0.004, 0.004)));
        // Per coefficient: friction Min, roll Max.
        let rules =
            CombineRules { friction: Some(CombineRule::Min), roll: Some(CombineRule::Max), spin: None };
        let ab = a.with_combine_rules(rules).combine(&b);
        assert!(close(ab.mu_s(), 0.2) && close(ab.rolling_resistance().unwrap().0, 0.004));
    }

    #[test]
    fn extreme_values_are_bounded_finite_and_monotone() {
        // Out of the documented bounds: rejected.
        assert!(Material::new(1e300, 0.1).is_err());
        assert!(Material::new(0.5, 0.4).unwrap().with_roll_eta(1e300).is_err());
        assert!(Material::new(0.5, 0.4).unwrap().with_stiffness(1e300).is_err());
        assert!(Material::new(0.5, 0.4).unwrap().with_rolling_resistance(1e300).is_err());
        assert!(SpinModel::hertz(1e300, 0.3).is_err());
        let max = limits::MAX_COEFFICIENT;
        // Capacities are non-decreasing in μ, η and c up to the bounds, and finite.
        let geom = [(1.0, 1e-3, 1.0), (1e30, 1e-8, 1e-8), (1e15, 1e9, 1e9), (f64::MAX, 10.0, 10.0)];
        for (n, kap, kmean) in geom {
            let mut last = [0.0f64; 6];
            for mu in [0.0, 1e-3, 0.5, 10.0, 1e3, max] {
                let m = Material::new(mu, mu)
                    .unwrap()
                    .with_roll_eta(mu)
                    .unwrap()
                    .with_spin(SpinModel::Heuristic { eta_psi: mu, curvature: None })
                    .unwrap();
                let l = Material::new(mu, mu)
                    .unwrap()
                    .with_rolling_resistance(mu.min(limits::MAX_LENGTH))
                    .unwrap()
                    .with_spin(SpinModel::hertz(1e3, 0.3).unwrap())
                    .unwrap();
                let d = m.derive(n, kap, 0.0, kmean, 0.0);
                let e = l.derive(n, kap, 0.0, kmean, 0.0);
                let caps = [
                    d.slide_capacity(Mode::Static),
                    d.roll_capacity(Mode::Static),
                    d.spin_capacity(Mode::Kinetic),
                    e.roll_capacity(Mode::Kinetic),
                    e.spin_capacity(Mode::Static),
                    e.slide_capacity(Mode::Kinetic),
                ];
                for (k, c) in caps.iter().enumerate() {
                    assert!(c.is_finite() && *c >= 0.0 && *c <= limits::MAX_CAPACITY * (1.0 + 1e-12), "{c}");
                    assert!(*c >= last[k] * (1.0 - 1e-12), "cap {k} decreased at μ = {mu}, n = {n}");
                    assert!((*c as f32).is_finite());
                }
                for x in [d.roll_static, d.spin_static, e.roll_static, e.spin_static, d.roll_stiffness] {
                    assert!(x.is_finite());
                }
                last = caps;
                assert!(l.hertz_contact_radius(n, kmean, 0.0).is_none_or(|a| a.is_finite() && a > 0.0));
            }
        }
        // Combining valid materials gives a valid material (Multiply of the largest μ is clamped).
        let big = Material::new(max, max)
            .unwrap()
            .with_rolling_resistance(limits::MAX_LENGTH)
            .unwrap()
            .with_stiffness(limits::MIN_STIFFNESS)
            .unwrap()
            .with_combine_rule(CombineRule::Multiply);
        let c = big.combine(&big);
        assert!(c.mu_s() <= max && c.mu_s() >= c.mu_k());
        assert!(c.stiffness() >= limits::MIN_STIFFNESS);
        let rebuilt =
            Material::new(c.mu_s(), c.mu_k()).and_then(|m| m.with_stiffness(c.stiffness())).and_then(|m| {
                m.with_rolling_resistances(
                    c.rolling_resistance().unwrap().0,
                    c.rolling_resistance().unwrap().1,
                )
            });
        assert!(rebuilt.is_ok(), "{rebuilt:?}");
        let h = Material::new(0.5, 0.4).unwrap().with_spin(SpinModel::hertz(1e15, 0.5).unwrap()).unwrap();
        let hh = h.combine(&h);
        assert!(matches!(hh.spin(), SpinModel::Hertz { effective_modulus } if effective_modulus.is_finite()));
        assert!(hh.spin().validated().is_ok());
    }
}

/// The edge cases of construction and combination: a constructor that returns a value accepts
/// it everywhere, zero normal force gives zero capacity, and combining valid materials gives a
/// valid one.
#[cfg(test)]
mod tests_edges {
    use super::*;

    /// `SpinModel::hertz` rejects what `with_spin` would reject. `E/(1−ν²)` with E = 1e15 Pa
    /// (the largest accepted) exceeds the 2e15 Pa bound once `1 − ν² < 0.5`, i.e. ν < −√0.5
    /// ≈ −0.7071; with E = 1e9 Pa once `1 − ν² < 5e-7`, i.e. ν < −(1 − 2.5e-7) (to first order).
    #[test]
    fn hertz_rejects_what_with_spin_rejects() {
        let base = Material::new(0.5, 0.4).unwrap();
        let nus = [0.5, 0.3, 0.0, -0.5, -0.7, -0.71, -0.9, -0.999, -0.999_999, -0.999_999_9, -1.0 + 1e-15];
        for e in [1.0, 1e9, 1e12, 1e15] {
            for nu in nus {
                match SpinModel::hertz(e, nu) {
                    Ok(h) => {
                        assert!(base.with_spin(h).is_ok(), "hertz({e}, {nu}) = {h:?} rejected by with_spin")
                    }
                    Err(err) => {
                        // Only for ν past the bound derived above, with ν named.
                        assert!(e / (1.0 - nu * nu) > 2e15, "hertz({e}, {nu}): {err}");
                        assert!(
                            matches!(err, ParamError::OutOfRange { name: "poisson_ratio", value, .. } if value == nu),
                            "{err:?}"
                        );
                    }
                }
            }
        }
        // The two boundary sides for E = 1e15: ν = −0.70 (1/(1 − 0.49) = 1.96) is accepted,
        // ν = −0.71 (1/(1 − 0.5041) = 2.017) is not.
        assert!(SpinModel::hertz(1e15, -0.70).is_ok());
        assert!(SpinModel::hertz(1e15, -0.71).is_err());
        let msg = SpinModel::hertz(1e9, -0.999_999_9).unwrap_err().to_string();
        assert!(msg.contains("poisson_ratio") && msg.contains("-0.9999999"), "{msg}");
    }

    /// A roll override with constant thresholds (`per_newton: false`) gives the capacity
    /// `K_R Θ` while N > 0 (K_R = 50, Θ^s = 0.02, Θ^d = 0.01: 1.0 and 0.5 N·m) and zero at
    /// N = 0, N < 0, NaN and ∞, as every capacity (module docs: non-finite N counts as 0), in
    /// `derive` and in `per_newton(..).at`.
    #[test]
    fn constant_roll_override_is_zero_without_load() {
        let o = RollOverride {
            stiffness: 50.0,
            static_threshold: 0.02,
            kinetic_threshold: 0.01,
            per_newton: false,
        };
        let m = Material::new(0.6, 0.5).unwrap().with_roll_override(o).unwrap();
        let kap = 10.0;
        let p = m.per_newton(kap, 0.0, kap, 0.0).unwrap();
        for n in [1e-9, 5.0, 1e6] {
            assert_eq!(m.roll_torque_capacity(Mode::Static, n, kap, 0.0), 1.0, "N = {n}");
            assert_eq!(m.roll_torque_capacity(Mode::Kinetic, n, kap, 0.0), 0.5, "N = {n}");
            assert_eq!(p.at(n).roll_capacity(Mode::Static), 1.0, "N = {n}");
        }
        for n in [0.0, -0.0, -1.0, f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
            for mode in [Mode::Static, Mode::Kinetic] {
                assert_eq!(m.roll_torque_capacity(mode, n, kap, 0.0), 0.0, "N = {n}, {mode:?}");
                assert_eq!(p.at(n).roll_capacity(mode), 0.0, "N = {n}, {mode:?}");
            }
        }
    }

    /// Hertz moduli in series, `1/E = 1/E₁ + 1/E₂` (eq. 15), for two valid moduli far apart:
    /// E₁ = 1e-300 and E₂ = 1e12 give E = E₁/(1 + E₁/E₂) = 1e-300 to rounding (E₁/E₂ = 1e-312),
    /// in either order; the combined material is valid and keeps its spin friction (the
    /// capacity of E₁ alone). For any two accepted moduli the result lies in [min/2, min].
    #[test]
    fn hertz_moduli_far_apart_combine_to_a_valid_modulus() {
        let soft = Material::new(0.5, 0.4)
            .unwrap()
            .with_spin(SpinModel::Hertz { effective_modulus: 1e-300 })
            .unwrap();
        let hard =
            Material::new(0.5, 0.4).unwrap().with_spin(SpinModel::Hertz { effective_modulus: 1e12 }).unwrap();
        for c in [soft.combine(&hard), hard.combine(&soft)] {
            let SpinModel::Hertz { effective_modulus: e } = c.spin() else { panic!("{:?}", c.spin()) };
            assert!((e - 1e-300).abs() <= 1e-15 * 1e-300, "E = {e}");
            assert!(c.spin().validated().is_ok());
            let cap = c.spin_torque_capacity(Mode::Kinetic, 1.0, 10.0, 0.0);
            assert!(cap > 0.0 && cap == soft.spin_torque_capacity(Mode::Kinetic, 1.0, 10.0, 0.0), "{cap}");
        }
        let moduli = [5e-324, 1e-310, 1e-300, 1e-3, 1.0, 2e11, 1e15, 2e15];
        for a in moduli {
            for b in moduli {
                let e = series_modulus(a, b);
                let lo = a.min(b);
                assert!(e > 0.0 && e <= lo && (e >= 0.5 * lo || lo < 1e-307), "{a} {b}: {e}");
                assert_eq!(e, series_modulus(b, a));
                assert!(SpinModel::Hertz { effective_modulus: e }.validated().is_ok());
            }
        }
    }
}
