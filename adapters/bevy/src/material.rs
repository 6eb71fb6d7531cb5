//! The [`FrictionMaterial`] component.

use bevy::prelude::*;
use tribo::tracking::{Material, ParamError};

/// tribo friction on a collider entity (next to bevy_rapier's `Collider`).
///
/// A contact pair uses tribo friction when at least one of its colliders has a tribo
/// `FrictionMaterial`; the two materials are combined with
/// [`Material::combine`](tribo::tracking::Material::combine) (a collider without the component
/// counts as [`FrictionMaterial::default`]).
#[derive(Component, Clone, Copy, Debug, PartialEq)]
pub struct FrictionMaterial {
    kind: Kind,
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Kind {
    Tribo(Material),
    Stock,
}

impl Default for FrictionMaterial {
    /// μs = 0.6, μk = 0.5 and tribo's default other parameters.
    fn default() -> Self {
        FrictionMaterial::new(0.6, 0.5).expect("valid default coefficients")
    }
}

impl FrictionMaterial {
    /// A tribo material with static and kinetic coefficients `mu_s ≥ mu_k ≥ 0`.
    pub fn new(mu_s: f64, mu_k: f64) -> Result<Self, ParamError> {
        Ok(FrictionMaterial { kind: Kind::Tribo(Material::new(mu_s, mu_k)?) })
    }

    /// Wraps a full tribo [`Material`].
    pub fn from_material(m: Material) -> Self {
        FrictionMaterial { kind: Kind::Tribo(m) }
    }

    /// rapier's own friction for this collider (no tribo treatment), e.g. to compare side by
    /// side.
    pub fn stock() -> Self {
        FrictionMaterial { kind: Kind::Stock }
    }

    /// The tribo material, or `None` for [`FrictionMaterial::stock`].
    pub fn material(&self) -> Option<&Material> {
        match &self.kind {
            Kind::Tribo(m) => Some(m),
            Kind::Stock => None,
        }
    }
}
