//! Per-rapier-context tribo state.

use bevy::platform::collections::HashMap;
use bevy::prelude::*;
use bevy_rapier3d::prelude::{
    RapierContextColliders, RapierContextJoints, RapierContextSimulation, RapierRigidBodySet,
};
use rapier3d::geometry::ColliderHandle;
use rapier3d::pipeline::ContactModificationContext;

use crate::diagnostics::TriboContacts;
use crate::hooks::TriboContactModifier;
use crate::material::FrictionMaterial;

/// tribo's state for one rapier context; inserted automatically on every entity with a
/// `RapierContextSimulation`.
#[derive(Component, Default)]
pub struct TriboContext {
    /// Collider entity → (rapier handle, material) as last synchronised.
    pub(crate) materials: HashMap<Entity, (ColliderHandle, FrictionMaterial)>,
}

impl TriboContext {
    /// Number of colliders of this context that carry a [`FrictionMaterial`].
    pub fn material_count(&self) -> usize {
        self.materials.len()
    }

    pub(crate) fn set_material(&mut self, e: Entity, handle: ColliderHandle, m: FrictionMaterial) {
        self.materials.insert(e, (handle, m));
    }

    pub(crate) fn remove_material(&mut self, e: Entity) {
        self.materials.remove(&e);
    }

    pub(crate) fn before_step(
        &mut self,
        _dt: f32,
        _sim: &mut RapierContextSimulation,
        _colliders: &mut RapierContextColliders,
        _joints: &mut RapierContextJoints,
        _bodies: &mut RapierRigidBodySet,
    ) {
    }

    pub(crate) fn after_step(
        &mut self,
        _dt: f32,
        _sim: &mut RapierContextSimulation,
        _colliders: &mut RapierContextColliders,
        _joints: &mut RapierContextJoints,
        _bodies: &mut RapierRigidBodySet,
    ) {
    }

    pub(crate) fn modifier(&self) -> &(dyn TriboContactModifier + '_) {
        self
    }

    pub(crate) fn report(
        &self,
        _context: Entity,
        _colliders: &RapierContextColliders,
        _bodies: &RapierRigidBodySet,
        _out: &mut TriboContacts,
    ) {
    }
}

impl TriboContactModifier for TriboContext {
    fn modify_solver_contacts(&self, _context: &mut ContactModificationContext) {}
}
