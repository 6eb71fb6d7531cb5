//! The material table: each collider's [`FrictionMaterial`], the pair overrides, and the epoch
//! that changes with any of them. The one place the store combines two colliders' materials.

use super::*;

/// The materials of colliders and pairs (see the module docs).
#[derive(Clone, Default)]
pub(crate) struct Materials {
    /// Materials keyed by the full collider handle (index and generation): a handle whose slot
    /// rapier reuses for a new collider never sees the old collider's material.
    pub(super) by_collider: HandleMap<FrictionMaterial>,
    /// Per-pair material overrides.
    pub(super) pair_table: PairTable,
    /// The colliders with a material, in the order they were given one (the deterministic
    /// order `before_step` visits them in).
    pub(super) colliders: Vec<ColliderHandle>,
    /// Changes whenever a material or the pair table changes.
    pub(super) epoch: u64,
}

impl Materials {
    /// The material of a collider, if set.
    pub(crate) fn material(&self, collider: ColliderHandle) -> Option<&FrictionMaterial> {
        if self.by_collider.is_empty() {
            return None;
        }
        self.by_collider.get(&handle_key(collider))
    }

    /// The combined material of a contact between two colliders with rapier's default combine
    /// rule (`Average`) on both sides and this store's pair table, or `None` for stock friction.
    /// The store's contacts also use the colliders' own `friction_combine_rule`
    /// ([`FrictionMaterial::combine_pair`]).
    pub(crate) fn pair_material(&self, c1: ColliderHandle, c2: ColliderHandle) -> Option<Material> {
        let fallback = (tribo::tracking::CombineRule::Average, tribo::tracking::CombineRule::Average);
        FrictionMaterial::combine_pair(self.material(c1), self.material(c2), fallback, Some(&self.pair_table))
            .map(|(m, _)| m)
    }

    /// The material and Contensou model of a contact between two colliders: the one place
    /// the store combines materials (rules: [`FrictionMaterial::combine_pair`], with each
    /// collider's rapier `friction_combine_rule` and the pair table).
    pub(super) fn contact_material(
        &self,
        (c1, col1): (ColliderHandle, &Collider),
        (c2, col2): (ColliderHandle, &Collider),
    ) -> Option<(Material, Option<crate::contensou::Contensou>)> {
        let fallback = (
            crate::combine_rule_of(col1.friction_combine_rule()),
            crate::combine_rule_of(col2.friction_combine_rule()),
        );
        FrictionMaterial::combine_pair(self.material(c1), self.material(c2), fallback, Some(&self.pair_table))
    }
}
