//! The [`FrictionMaterial`] component.

use bevy::prelude::*;
use tribo::tracking::{Damping, Material, ParamError, SpinModel};

/// tribo friction on a collider entity (put it next to bevy_rapier's `Collider`).
///
/// The parameters are those of [`tribo::tracking::Material`]: static and kinetic coefficients
/// μs ≥ μk, rolling resistance (energy-tie coefficient η_r: a ball of radius R on a plane feels
/// a kinetic rolling torque `2 η_r μk R N`), spin friction (heuristic η_ψ: kinetic spin torque
/// `η_ψ μk N R` for a ball, or Hertz from Young's modulus and Poisson ratio), stiffness and
/// damping. Every setter validates its input and returns a [`ParamError`] for NaN, infinite,
/// negative or inconsistent values, so a `FrictionMaterial` that exists is always usable; in a
/// bevy system returning `Result` just use `?`:
///
/// ```
/// # use bevy::prelude::*;
/// # use bevy_rapier3d::prelude::*;
/// # use bevy_tribo::prelude::*;
/// fn spawn_marble(mut commands: Commands) -> Result {
///     commands.spawn((
///         RigidBody::Dynamic,
///         Collider::ball(0.01),
///         FrictionMaterial::new(0.6, 0.5)?.with_roll(0.05)?.with_spin_heuristic(0.05)?,
///     ));
///     Ok(())
/// }
/// ```
///
/// Pairing rules (those of `tribo_rapier`): a contact uses tribo friction when at least one of
/// its colliders has a tribo material and neither is [`FrictionMaterial::stock`]; two tribo
/// materials are combined with [`Material::combine`]; one tribo material against a collider
/// without the component is used alone. Other contacts keep bevy_rapier's `Friction`.
#[derive(Component, Clone, Copy, Debug, PartialEq)]
pub struct FrictionMaterial {
    /// `None`: stock rapier friction.
    material: Option<Material>,
}

impl Default for FrictionMaterial {
    /// μs = 0.6, μk = 0.5 with [`Material::new`]'s defaults (η_r = 0.01, heuristic spin
    /// η_ψ = 0.01 with the geometric curvature, K_E = 1e5 N/m, critical damping).
    fn default() -> Self {
        FrictionMaterial { material: Some(Material::new(0.6, 0.5).expect("valid default coefficients")) }
    }
}

impl From<Material> for FrictionMaterial {
    fn from(m: Material) -> Self {
        FrictionMaterial { material: Some(m) }
    }
}

impl From<FrictionMaterial> for tribo_rapier::FrictionMaterial {
    fn from(m: FrictionMaterial) -> Self {
        match m.material {
            Some(m) => tribo_rapier::FrictionMaterial::Tribo(m),
            None => tribo_rapier::FrictionMaterial::Stock,
        }
    }
}

impl From<tribo_rapier::FrictionMaterial> for FrictionMaterial {
    fn from(m: tribo_rapier::FrictionMaterial) -> Self {
        FrictionMaterial { material: m.material().copied() }
    }
}

impl FrictionMaterial {
    /// A tribo material with static and kinetic coefficients `mu_s ≥ mu_k ≥ 0` and the other
    /// parameters at [`Material::new`]'s defaults.
    ///
    /// # Errors
    /// NaN, infinite or negative coefficients, or `mu_s < mu_k`.
    pub fn new(mu_s: f64, mu_k: f64) -> Result<Self, ParamError> {
        Ok(Material::new(mu_s, mu_k)?.into())
    }

    /// rapier's own friction for every contact of this collider (no tribo treatment), e.g. to
    /// compare side by side or to exempt one collider from a tribo neighbour.
    pub fn stock() -> Self {
        FrictionMaterial { material: None }
    }

    /// Whether this is [`FrictionMaterial::stock`].
    pub fn is_stock(&self) -> bool {
        self.material.is_none()
    }

    /// The tribo material, or `None` for [`FrictionMaterial::stock`].
    pub fn material(&self) -> Option<&Material> {
        self.material.as_ref()
    }

    /// Applies any [`Material`] setter (no effect on `stock`):
    /// `FrictionMaterial::new(0.6, 0.5)?.map(|m| m.with_roll_damping(Damping::Fixed(0.1)))?`.
    pub fn map(self, f: impl FnOnce(Material) -> Result<Material, ParamError>) -> Result<Self, ParamError> {
        match self.material {
            None => Ok(self),
            Some(m) => Ok(f(m)?.into()),
        }
    }

    /// Rolling resistance: energy-tie coefficient `η_r ≥ 0` (0 turns it off). A ball of radius
    /// R on a plane gets the kinetic rolling torque `2 η_r μk R N`.
    pub fn with_roll(self, eta_r: f64) -> Result<Self, ParamError> {
        self.map(|m| m.with_roll(eta_r))
    }

    /// Spin friction model ([`SpinModel::Off`], heuristic, or [`SpinModel::hertz`]).
    pub fn with_spin(self, spin: SpinModel) -> Result<Self, ParamError> {
        self.map(|m| m.with_spin(spin))
    }

    /// Heuristic spin friction with energy-tie coefficient `η_ψ ≥ 0` and the contact's geometric
    /// curvature: a ball of radius R gets the kinetic spin torque `η_ψ μk N R`.
    pub fn with_spin_heuristic(self, eta_psi: f64) -> Result<Self, ParamError> {
        self.with_spin(SpinModel::Heuristic { eta_psi, curvature: None })
    }

    /// Slide stiffness `K_E > 0` (N/m).
    pub fn with_stiffness(self, k_e: f64) -> Result<Self, ParamError> {
        self.map(|m| m.with_stiffness(k_e))
    }

    /// Damping of slide, roll and spin micro-deflections (default critical).
    pub fn with_damping(self, slide: Damping, roll: Damping, spin: Damping) -> Result<Self, ParamError> {
        self.map(|m| m.with_slide_damping(slide)?.with_roll_damping(roll)?.with_spin_damping(spin))
    }
}
