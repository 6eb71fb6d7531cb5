//! The friction material of a collider ([`FrictionMaterial`]), its builder, the per-pair
//! override table and the combination of two colliders' materials.

#[cfg(feature = "bevy")]
use bevy_ecs::reflect::ReflectComponent;
use std::collections::HashMap;
use std::fmt;

use crate::contensou::{Contensou, ContensouError};
use crate::rapier3d::prelude::CoefficientCombineRule;
use tribo::tracking::{CombineRule, CombineRules, Damping, Material, MaterialId, ParamError, SpinModel};

/// tribo's [`CombineRule`] for a rapier `CoefficientCombineRule` (same names and formulas).
pub fn combine_rule_of(rule: CoefficientCombineRule) -> CombineRule {
    match rule {
        CoefficientCombineRule::Average => CombineRule::Average,
        CoefficientCombineRule::Min => CombineRule::Min,
        CoefficientCombineRule::Multiply => CombineRule::Multiply,
        CoefficientCombineRule::Max => CombineRule::Max,
        CoefficientCombineRule::ClampedSum => CombineRule::ClampedSum,
        CoefficientCombineRule::GeometricMean => CombineRule::GeometricMean,
    }
}

/// Friction material of one collider: the one material type of tribo_rapier and bevy_tribo
/// (there a bevy `Component`, with the `bevy` feature of this crate).
///
/// Build it with [`FrictionMaterial::builder`] (f32 or f64 inputs, validated once by
/// [`FrictionMaterialBuilder::build`]), or from a [`Material`] with `.into()`.
///
/// **Units.** Rolling and spin resistance are lengths in metres (torque bound `c·N`, as
/// Chrono's, Bullet's and MuJoCo's): [`FrictionMaterialBuilder::rolling_resistance`],
/// [`FrictionMaterialBuilder::spinning_resistance`]. The paper's dimensionless energy-tie
/// factors carry `eta` in their names ([`FrictionMaterialBuilder::roll_eta`],
/// [`FrictionMaterialBuilder::spin_eta`], [`FrictionMaterial::with_roll_eta`],
/// [`FrictionMaterial::with_spin_eta`]), so that a number written for one cannot be read as
/// the other: `roll_eta(0.0005)` is not 0.5 mm (ball of radius R on a plane: `c = 2 η_r μ R`).
///
/// **Errors.** Every way of making or changing a material ([`FrictionMaterialBuilder::build`],
/// [`FrictionMaterial::new`], the `with_*` methods, [`FrictionMaterial::with_contensou`])
/// returns the one error type [`MaterialError`], which names the parameter and its value.
///
/// Combine rules for the two colliders of a contact ([`FrictionMaterial::combine_pair`]):
/// * either side [`FrictionMaterial::Stock`] → the contact keeps stock rapier friction;
/// * both sides labelled ([`MaterialId`]) and the pair in the [`PairTable`] → the table's
///   material ("ice on steel");
/// * both sides tribo → [`Material::combine_with`], each coefficient with the rule the
///   material sets, else the collider's rapier `friction_combine_rule` (bevy_rapier's
///   `Friction::combine_rule`; `Average` unless set), resolved by rapier's priority;
/// * one side tribo, the other without any material → that side's material alone;
/// * neither side has a material → stock;
/// * the Contensou model: `a`'s, else `b`'s (none if either side is `Stock`).
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde-serialize", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "bevy", derive(bevy_ecs::component::Component, bevy_reflect::Reflect))]
#[cfg_attr(feature = "bevy", reflect(opaque, Component, Debug, PartialEq, Clone))]
pub enum FrictionMaterial {
    /// Leave rapier's friction untouched for every contact of this collider.
    Stock,
    /// tribo friction with this material.
    Tribo(Material),
    /// tribo friction with this material and the Contensou contact model (coupled slide/spin
    /// limits of a finite patch, see [`crate::contensou`]); build with
    /// [`FrictionMaterial::with_contensou`].
    Contensou(Material, Contensou),
}

impl FrictionMaterial {
    /// A tribo material with static and kinetic coefficients (`mu_s ≥ mu_k ≥ 0`) and the
    /// defaults of [`Material::new`] (roll `η_r = 0.01`, heuristic spin `η_ψ = 0.01` with the
    /// geometric curvature). Errors: NaN/infinite/negative values, μs < μk. The same as
    /// `FrictionMaterial::builder().friction(mu_s, mu_k).build()`.
    pub fn new(mu_s: f64, mu_k: f64) -> Result<Self, MaterialError> {
        Ok(FrictionMaterial::Tribo(Material::new(mu_s, mu_k)?))
    }

    /// The stock option (same as [`FrictionMaterial::Stock`]).
    pub fn stock() -> Self {
        FrictionMaterial::Stock
    }

    /// Sets the paper's dimensionless roll energy-tie coefficient η_r (ball of radius R on a
    /// plane: kinetic roll torque `2 η_r μk R N`; see [`Material::with_roll_eta`]). For a
    /// rolling resistance in metres use
    /// [`with_rolling_resistance`](Self::with_rolling_resistance). No effect on `Stock`.
    pub fn with_roll_eta(self, eta_r: f64) -> Result<Self, MaterialError> {
        self.map(|m| m.with_roll_eta(eta_r))
    }

    /// Sets the spin model, e.g. `SpinModel::Length { .. }`, `SpinModel::hertz(E, ν)?` or the
    /// paper's `SpinModel::Heuristic { eta_psi, curvature: None }`. No effect on `Stock`.
    pub fn with_spin(self, spin: SpinModel) -> Result<Self, MaterialError> {
        self.map(|m| m.with_spin(spin))
    }

    /// Applies a [`Material`] setter to a `Tribo` or `Contensou` material (`Stock` stays).
    pub fn map(
        self,
        f: impl FnOnce(Material) -> Result<Material, ParamError>,
    ) -> Result<Self, MaterialError> {
        match self {
            FrictionMaterial::Stock => Ok(self),
            FrictionMaterial::Tribo(m) => Ok(FrictionMaterial::Tribo(f(m)?)),
            FrictionMaterial::Contensou(m, c) => Ok(FrictionMaterial::Contensou(f(m)?, c)),
        }
    }

    /// The tribo material, if any.
    pub fn material(&self) -> Option<&Material> {
        match self {
            FrictionMaterial::Stock => None,
            FrictionMaterial::Tribo(m) => Some(m),
            FrictionMaterial::Contensou(m, _) => Some(m),
        }
    }

    /// The material of a contact between colliders with materials `a` and `b` (`None`: no
    /// material set) with rapier's default rule (`Average`) on both sides and no pair table,
    /// or `None` when the contact keeps stock friction. See [`FrictionMaterial::combine_pair`].
    pub fn combine(a: Option<&FrictionMaterial>, b: Option<&FrictionMaterial>) -> Option<Material> {
        Self::combine_pair(a, b, (CombineRule::Average, CombineRule::Average), None).map(|(m, _)| m)
    }

    /// The material and Contensou model of a contact between colliders with materials `a` and
    /// `b` (`None`: no material set), `fallback` being each collider's own combine rule (rapier's
    /// `friction_combine_rule`) and `table` the per-pair overrides; `None` for stock friction.
    /// Rules in the type docs.
    pub fn combine_pair(
        a: Option<&FrictionMaterial>,
        b: Option<&FrictionMaterial>,
        fallback: (CombineRule, CombineRule),
        table: Option<&PairTable>,
    ) -> Option<(Material, Option<Contensou>)> {
        if matches!(a, Some(FrictionMaterial::Stock)) || matches!(b, Some(FrictionMaterial::Stock)) {
            return None;
        }
        let (ma, mb) = (a.and_then(|m| m.material()), b.and_then(|m| m.material()));
        if let (Some(t), Some(ia), Some(ib)) = (table, ma.and_then(|m| m.id()), mb.and_then(|m| m.id())) {
            if let Some(o) = t.get(ia, ib) {
                return o.material().map(|m| (*m, o.contensou().copied()));
            }
        }
        let m = match (ma, mb) {
            (Some(x), Some(y)) => x.combine_with(y, fallback.0, fallback.1),
            (Some(x), None) | (None, Some(x)) => *x,
            (None, None) => return None,
        };
        Some((m, Self::combine_contensou(a, b)))
    }
}

impl From<Material> for FrictionMaterial {
    fn from(m: Material) -> Self {
        FrictionMaterial::Tribo(m)
    }
}

impl Default for FrictionMaterial {
    /// μs = 0.6, μk = 0.5 with [`Material::new`]'s defaults (roll `η_r = 0.01`, heuristic spin
    /// `η_ψ = 0.01` with the geometric curvature, `K_E = 1e5 N/m`, critical damping).
    fn default() -> Self {
        FrictionMaterial::Tribo(Material::new(0.6, 0.5).expect("valid default coefficients"))
    }
}

impl FrictionMaterial {
    /// A builder: set what you need, with f32 or f64 values, then
    /// [`build`](FrictionMaterialBuilder::build) validates everything once.
    ///
    /// ```
    /// use tribo_rapier::{CombineRule, FrictionMaterial, MaterialId};
    /// // Bullet: friction 0.5, rollingFriction 0.004, spinningFriction 0.001 (metres).
    /// let rubber = FrictionMaterial::builder()
    ///     .friction(0.6f32, 0.5f32)
    ///     .rolling_resistance(0.004f32)
    ///     .spinning_resistance(0.001)
    ///     .combine_rule(CombineRule::Max)
    ///     .id(MaterialId(1))
    ///     .build()?;
    /// assert_eq!(rubber.material().unwrap().rolling_resistance(), Some((0.004f32 as f64, 0.004f32 as f64)));
    /// # Ok::<(), tribo_rapier::MaterialError>(())
    /// ```
    pub fn builder() -> FrictionMaterialBuilder {
        FrictionMaterialBuilder::default()
    }

    /// Whether this is [`FrictionMaterial::Stock`].
    pub fn is_stock(&self) -> bool {
        matches!(self, FrictionMaterial::Stock)
    }

    /// The paper's heuristic spin friction with the dimensionless energy-tie coefficient
    /// `η_ψ ≥ 0` and the contact's geometric curvature: a ball of radius R gets the spin torque
    /// bound `η_ψ μ R N`. For a spin resistance in metres use
    /// [`with_spinning_resistance`](Self::with_spinning_resistance).
    pub fn with_spin_eta(self, eta_psi: f64) -> Result<Self, MaterialError> {
        self.with_spin(SpinModel::Heuristic { eta_psi, curvature: None })
    }

    /// Rolling resistance length `c` (m): torque bound `c·N` (see
    /// [`Material::with_rolling_resistance`]).
    pub fn with_rolling_resistance(self, c: f64) -> Result<Self, MaterialError> {
        self.map(|m| m.with_rolling_resistance(c))
    }

    /// Spin resistance length `c` (m): torque bound `c·N` (see
    /// [`Material::with_spinning_resistance`]).
    pub fn with_spinning_resistance(self, c: f64) -> Result<Self, MaterialError> {
        self.map(|m| m.with_spinning_resistance(c))
    }

    /// Slide stiffness `K_E > 0` (N/m).
    pub fn with_stiffness(self, k_e: f64) -> Result<Self, MaterialError> {
        self.map(|m| m.with_stiffness(k_e))
    }

    /// Damping of slide, roll and spin micro-deflections (default critical).
    pub fn with_damping(self, slide: Damping, roll: Damping, spin: Damping) -> Result<Self, MaterialError> {
        self.map(|m| m.with_slide_damping(slide)?.with_roll_damping(roll)?.with_spin_damping(spin))
    }
}

/// The error of every way of making a [`FrictionMaterial`] ([`FrictionMaterialBuilder::build`],
/// [`FrictionMaterial::new`], its `with_*` methods and [`FrictionMaterial::with_contensou`]):
/// the first invalid parameter, by name and value.
#[derive(Clone, Debug, PartialEq)]
pub enum MaterialError {
    /// A friction parameter is invalid.
    Param(ParamError),
    /// The Contensou model is invalid.
    Contensou(ContensouError),
    /// A Contensou model whose patch radius is Hertz's without its own modulus
    /// (`PatchRadius::Hertz { effective_modulus: None }`) on a material whose spin model is not
    /// [`SpinModel::Hertz`], where that modulus would come from.
    PatchNeedsHertzSpin {
        /// The material's spin model.
        spin: SpinModel,
    },
}

impl fmt::Display for MaterialError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MaterialError::Param(e) => e.fmt(f),
            MaterialError::Contensou(e) => write!(f, "Contensou model: {e}"),
            MaterialError::PatchNeedsHertzSpin { spin } => write!(
                f,
                "Contensou model: PatchRadius::Hertz {{ effective_modulus: None }} takes E* from the \
                 material's SpinModel::Hertz, but its spin model is {spin:?}: give the modulus \
                 (Contensou::hertz(Some(E*))) or set .spin(SpinModel::hertz(E, ν)?)"
            ),
        }
    }
}

impl std::error::Error for MaterialError {}

impl From<ParamError> for MaterialError {
    fn from(e: ParamError) -> Self {
        MaterialError::Param(e)
    }
}

impl From<ContensouError> for MaterialError {
    fn from(e: ContensouError) -> Self {
        MaterialError::Contensou(e)
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Roll {
    Default,
    Length(f64, f64),
    Eta(f64),
}

/// Builder of a [`FrictionMaterial`]: every setter takes f32 or f64 and stores the value; one
/// validation in [`build`](Self::build). Unset parameters keep [`Material::new`]'s defaults
/// (μs = 0.6, μk = 0.5 if `friction` is not called; roll `η_r = 0.01`, heuristic spin
/// `η_ψ = 0.01`, `K_E = 1e5 N/m`, critical damping, the collider's combine rule).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FrictionMaterialBuilder {
    stock: bool,
    mu: (f64, f64),
    roll: Roll,
    spin: Option<SpinModel>,
    stiffness: Option<f64>,
    damping: Option<(Damping, Damping, Damping)>,
    rules: CombineRules,
    id: Option<MaterialId>,
    contensou: Option<Contensou>,
}

impl Default for FrictionMaterialBuilder {
    fn default() -> Self {
        FrictionMaterialBuilder {
            stock: false,
            mu: (0.6, 0.5),
            roll: Roll::Default,
            spin: None,
            stiffness: None,
            damping: None,
            rules: CombineRules::default(),
            id: None,
            contensou: None,
        }
    }
}

impl FrictionMaterialBuilder {
    /// Static and kinetic friction coefficients `μs ≥ μk ≥ 0`.
    pub fn friction(mut self, mu_s: impl Into<f64>, mu_k: impl Into<f64>) -> Self {
        self.mu = (mu_s.into(), mu_k.into());
        self
    }
    /// One coefficient for static and kinetic friction (rapier's single `friction`).
    pub fn friction_coefficient(self, mu: impl Into<f64>) -> Self {
        let mu = mu.into();
        self.friction(mu, mu)
    }
    /// Rolling resistance length `c ≥ 0` (m): roll torque bound `c·N`, static and kinetic.
    pub fn rolling_resistance(self, c: impl Into<f64>) -> Self {
        let c = c.into();
        self.rolling_resistances(c, c)
    }
    /// Rolling resistance lengths `c_s ≥ c_k ≥ 0` (m): holding bound `c_s N`, rolling `c_k N`.
    pub fn rolling_resistances(mut self, c_static: impl Into<f64>, c_kinetic: impl Into<f64>) -> Self {
        self.roll = Roll::Length(c_static.into(), c_kinetic.into());
        self
    }
    /// Rolling resistance by the paper's dimensionless energy-tie factor `η_r` (torque bound
    /// `2 η_r μ N/(κ_i+κ_j)`, ball of radius R on a plane `2 η_r μ R N`), μ = μs static and
    /// μk kinetic. Not a length: for metres use [`rolling_resistance`](Self::rolling_resistance).
    pub fn roll_eta(mut self, eta_r: impl Into<f64>) -> Self {
        self.roll = Roll::Eta(eta_r.into());
        self
    }
    /// No rolling resistance.
    pub fn no_rolling_resistance(mut self) -> Self {
        self.roll = Roll::Eta(0.0);
        self
    }
    /// Spin resistance length `c ≥ 0` (m): spin torque bound `c·N`, static and kinetic.
    pub fn spinning_resistance(self, c: impl Into<f64>) -> Self {
        let c = c.into();
        self.spinning_resistances(c, c)
    }
    /// Spin resistance lengths `c_s ≥ c_k ≥ 0` (m).
    pub fn spinning_resistances(self, c_static: impl Into<f64>, c_kinetic: impl Into<f64>) -> Self {
        self.spin(SpinModel::Length { static_len: c_static.into(), kinetic_len: c_kinetic.into() })
    }
    /// Spin resistance by the paper's dimensionless energy-tie factor `η_ψ` with the contact's
    /// geometric curvature (torque bound `η_ψ μ N/𝒦`, ball of radius R on a plane
    /// `η_ψ μ R N`; [`SpinModel::Heuristic`]). Not a length: for metres use
    /// [`spinning_resistance`](Self::spinning_resistance).
    pub fn spin_eta(self, eta_psi: impl Into<f64>) -> Self {
        self.spin(SpinModel::Heuristic { eta_psi: eta_psi.into(), curvature: None })
    }
    /// Any spin model ([`SpinModel::Off`], heuristic η_ψ, Hertz, lengths).
    pub fn spin(mut self, spin: SpinModel) -> Self {
        self.spin = Some(spin);
        self
    }
    /// Slide stiffness `K_E` (N/m).
    pub fn stiffness(mut self, k_e: impl Into<f64>) -> Self {
        self.stiffness = Some(k_e.into());
        self
    }
    /// Damping of slide, roll and spin micro-deflections.
    pub fn damping(mut self, slide: Damping, roll: Damping, spin: Damping) -> Self {
        self.damping = Some((slide, roll, spin));
        self
    }
    /// One combine rule for μ, roll and spin (overrides the collider's rule).
    pub fn combine_rule(mut self, rule: CombineRule) -> Self {
        self.rules = CombineRules::all(rule);
        self
    }
    /// Per-coefficient combine rules.
    pub fn combine_rules(mut self, rules: CombineRules) -> Self {
        self.rules = rules;
        self
    }
    /// Label for the [`PairTable`].
    pub fn id(mut self, id: MaterialId) -> Self {
        self.id = Some(id);
        self
    }
    /// The Contensou contact model (coupled slide/spin of a finite patch).
    pub fn contensou(mut self, c: Contensou) -> Self {
        self.contensou = Some(c);
        self
    }
    /// Stock rapier friction (every other setting is ignored).
    pub fn stock(mut self) -> Self {
        self.stock = true;
        self
    }
    /// Validates every parameter and returns the material, or the first error.
    pub fn build(self) -> Result<FrictionMaterial, MaterialError> {
        if self.stock {
            return Ok(FrictionMaterial::Stock);
        }
        let mut m = Material::new(self.mu.0, self.mu.1)?;
        m = match self.roll {
            Roll::Default => m,
            Roll::Length(s, k) => m.with_rolling_resistances(s, k)?,
            Roll::Eta(e) => m.with_roll_eta(e)?,
        };
        if let Some(s) = self.spin {
            m = m.with_spin(s)?;
        }
        if let Some(k) = self.stiffness {
            m = m.with_stiffness(k)?;
        }
        if let Some((a, b, c)) = self.damping {
            m = m.with_slide_damping(a)?.with_roll_damping(b)?.with_spin_damping(c)?;
        }
        m = m.with_combine_rules(self.rules);
        if let Some(id) = self.id {
            m = m.with_id(id);
        }
        let fm = FrictionMaterial::Tribo(m);
        Ok(match self.contensou {
            Some(c) => fm.with_contensou(c)?,
            None => fm,
        })
    }
}

/// Per-pair material overrides keyed by two [`MaterialId`]s ("ice on steel"), symmetric. A
/// contact whose two colliders' materials carry ids found here uses the table's material
/// instead of combining the two.
///
/// ```
/// use tribo_rapier::{FrictionMaterial, MaterialId, PairTable};
/// const ICE: MaterialId = MaterialId(1);
/// const STEEL: MaterialId = MaterialId(2);
/// let mut table = PairTable::default();
/// table.insert(ICE, STEEL, FrictionMaterial::builder().friction(0.03, 0.02).build()?);
/// assert!(table.get(STEEL, ICE).is_some());
/// # Ok::<(), tribo_rapier::MaterialError>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde-serialize", derive(serde::Serialize, serde::Deserialize))]
pub struct PairTable {
    #[cfg_attr(feature = "serde-serialize", serde(with = "pairs_serde"))]
    pairs: HashMap<(MaterialId, MaterialId), FrictionMaterial>,
}

fn ordered(a: MaterialId, b: MaterialId) -> (MaterialId, MaterialId) {
    if a <= b {
        (a, b)
    } else {
        (b, a)
    }
}

impl PairTable {
    /// Sets the material of contacts between `a` and `b` (either order). `Stock` makes those
    /// contacts stock.
    pub fn insert(&mut self, a: MaterialId, b: MaterialId, material: impl Into<FrictionMaterial>) {
        self.pairs.insert(ordered(a, b), material.into());
    }
    /// Removes the override of `a`–`b`.
    pub fn remove(&mut self, a: MaterialId, b: MaterialId) -> Option<FrictionMaterial> {
        self.pairs.remove(&ordered(a, b))
    }
    /// The override of `a`–`b`, if any.
    pub fn get(&self, a: MaterialId, b: MaterialId) -> Option<&FrictionMaterial> {
        self.pairs.get(&ordered(a, b))
    }
    /// Whether the table is empty.
    pub fn is_empty(&self) -> bool {
        self.pairs.is_empty()
    }
}

/// [`PairTable`] as a sequence of `((a, b), material)` sorted by pair (a stable encoding that
/// every serde format accepts, unlike a map with tuple keys).
#[cfg(feature = "serde-serialize")]
mod pairs_serde {
    use super::{FrictionMaterial, MaterialId};
    use serde::{Deserialize, Deserializer, Serialize, Serializer};
    use std::collections::HashMap;

    type Pairs = HashMap<(MaterialId, MaterialId), FrictionMaterial>;

    pub(super) fn serialize<S: Serializer>(pairs: &Pairs, s: S) -> Result<S::Ok, S::Error> {
        let mut v: Vec<_> = pairs.iter().collect();
        v.sort_by_key(|(k, _)| **k);
        v.serialize(s)
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Pairs, D::Error> {
        let v = Vec::<((MaterialId, MaterialId), FrictionMaterial)>::deserialize(d)?;
        Ok(v.into_iter().map(|((a, b), m)| (super::ordered(a, b), m)).collect())
    }
}
