//! Per-rapier-context tribo state: a [`tribo_rapier::TriboRapier`] store plus the entity ↔
//! collider bookkeeping.

use bevy::platform::collections::HashMap;
use bevy::prelude::*;
use bevy_rapier3d::prelude::{
    RapierContextColliders, RapierContextJoints, RapierContextSimulation, RapierRigidBodySet,
};
use rapier3d::dynamics::{IntegrationParameters, RigidBodyHandle};
use rapier3d::geometry::{ColliderHandle, InteractionGroups};
use tribo_rapier::{Settings, TriboRapier};

use crate::diagnostics::{ContactReport, RealizabilityReport, TriboContacts, TriboDiagnostic};
use tribo_rapier::diagnostics::RealizabilitySettings;

/// Messages collected over a frame's rapier steps (the step system's local buffer).
#[derive(Default)]
pub struct StepOutput {
    pub(crate) diagnostics: Vec<TriboDiagnostic>,
    pub(crate) realizability: Vec<RealizabilityReport>,
    pub(crate) slips: Vec<crate::SlipReport>,
}
use tribo_rapier::FrictionMaterial;

/// tribo's state for one rapier context: inserted automatically on every entity with a
/// `RapierContextSimulation` (with the plugin's [`Settings`]).
///
/// It owns the [`TriboRapier`] store (materials and per-contact history) of that context; read
/// it through [`TriboContext::store`] for anything the bevy-side diagnostics
/// ([`TriboContacts`]) do not show.
#[derive(Component)]
pub struct TriboContext {
    store: TriboRapier,
    /// Collider entity → rapier handle with a material in `store`.
    entities: HashMap<Entity, ColliderHandle>,
    /// Colliders whose material was set, changed or removed since the last step: their
    /// sleeping bodies, and the sleeping bodies touching them, are woken before it.
    wake: Vec<ColliderHandle>,
}

impl Default for TriboContext {
    fn default() -> Self {
        TriboContext::new(Settings::default())
    }
}

impl TriboContext {
    /// An empty state with these settings.
    pub fn new(settings: Settings) -> Self {
        TriboContext {
            store: TriboRapier::with_settings(settings),
            entities: HashMap::default(),
            wake: Vec::new(),
        }
    }

    /// Number of colliders of this context that carry a [`FrictionMaterial`].
    pub fn material_count(&self) -> usize {
        self.entities.len()
    }

    /// The underlying tribo_rapier store (per-contact state, motor joints, diagnostics).
    pub fn store(&self) -> &TriboRapier {
        &self.store
    }

    pub(crate) fn set_material(&mut self, e: Entity, handle: ColliderHandle, m: FrictionMaterial) {
        if let Some(old) = self.entities.insert(e, handle) {
            if old != handle {
                self.store.remove_material(old);
                self.wake.push(old);
            }
        }
        if self.store.material(handle) != Some(&m) {
            self.wake.push(handle);
        }
        self.store.set_material(handle, m);
    }

    pub(crate) fn set_hook_flag_owner(&mut self, handle: ColliderHandle, tribo: bool) {
        self.store.set_hook_flag_owner(handle, tribo);
    }

    pub(crate) fn remove_material(&mut self, e: Entity) {
        if let Some(h) = self.entities.remove(&e) {
            self.store.remove_material(h);
            self.wake.push(h);
        }
    }

    /// Makes a material set, changed or removed since the last step act from the coming one,
    /// for each collider in `self.wake`:
    /// * it wakes the sleeping dynamic bodies of the colliders touching it (tribo_rapier wakes
    ///   the collider's own body and the bodies of the contacts it tracks; a body that fell
    ///   asleep on stock friction against the ground has no tracked contact, and a material
    ///   given to the ground would only act once something else woke it);
    /// * it marks the collider's solver groups changed (same value), so that rapier updates its
    ///   contact pairs in full instead of recycling the solver contacts of the last full
    ///   update: a resting box whose material was removed (and with it the hook flag) kept the
    ///   friction tribo's hook had written into those contacts for as long as it did not move.
    fn refresh_changed(
        &mut self,
        sim: &RapierContextSimulation,
        colliders: &mut RapierContextColliders,
        bodies: &mut RapierRigidBodySet,
    ) {
        for &h in &self.wake {
            if let Some(c) = colliders.colliders.get_mut(h) {
                let groups = c.solver_groups();
                let other = if groups == InteractionGroups::none() {
                    InteractionGroups::all()
                } else {
                    InteractionGroups::none()
                };
                c.set_solver_groups(other);
                c.set_solver_groups(groups);
            }
        }
        let parent = |c| colliders.colliders.get(c).and_then(|c| c.parent());
        for h in self.wake.drain(..) {
            let touching = sim
                .narrow_phase
                .contact_pairs_with(h)
                .filter(|p| p.has_any_active_contact())
                .flat_map(|p| [parent(p.collider1), parent(p.collider2)]);
            for b in touching.flatten() {
                if bodies.bodies.get(b).is_some_and(|rb| rb.is_dynamic() && rb.is_sleeping()) {
                    if let Some(rb) = bodies.bodies.get_mut(b) {
                        rb.wake_up(true);
                    }
                }
            }
        }
    }

    fn params(sim: &RapierContextSimulation, dt: f32) -> IntegrationParameters {
        let mut p = sim.integration_parameters;
        p.dt = dt;
        p
    }

    pub(crate) fn before_step(
        &mut self,
        dt: f32,
        sim: &mut RapierContextSimulation,
        colliders: &mut RapierContextColliders,
        joints: &mut RapierContextJoints,
        bodies: &mut RapierRigidBodySet,
    ) {
        if !self.wake.is_empty() {
            self.refresh_changed(sim, colliders, bodies);
        }
        let params = Self::params(sim, dt);
        self.store.note_multibody_joints(&joints.multibody_joints);
        self.store.before_step(
            &params,
            &mut bodies.bodies,
            &mut colliders.colliders,
            &mut joints.impulse_joints,
        );
    }

    /// Sets the bodies whose slip the store watches (tribo_rapier's `set_watched_slips`).
    pub(crate) fn set_watched_slips(&mut self, bodies: impl IntoIterator<Item = RigidBodyHandle>) {
        self.store.set_watched_slips(bodies);
    }

    /// Turns tribo_rapier's per-step two-contact realizability monitor on or off, and gives the
    /// store the context's gravity (used by both diagnostics).
    pub(crate) fn set_realizability(&mut self, on: bool, gravity: Vec3) {
        self.store.set_gravity(gravity);
        match (on, self.store.realizability_settings().is_some()) {
            (true, false) => self.store.set_realizability(Some(RealizabilitySettings::default())),
            (false, true) => self.store.set_realizability(None),
            _ => {}
        }
    }

    #[allow(clippy::too_many_arguments)]
    pub(crate) fn after_step(
        &mut self,
        dt: f32,
        step: u32,
        sim: &mut RapierContextSimulation,
        colliders: &mut RapierContextColliders,
        joints: &mut RapierContextJoints,
        bodies: &mut RapierRigidBodySet,
        context: Entity,
        out: &mut StepOutput,
    ) {
        let params = Self::params(sim, dt);
        self.store.after_step(
            &params,
            &bodies.bodies,
            &colliders.colliders,
            &sim.narrow_phase,
            &mut joints.impulse_joints,
        );
        for d in self.store.take_diagnostics() {
            out.diagnostics.push(TriboDiagnostic::from_store(context, d, bodies));
        }
        for r in self.store.realizability_reports() {
            out.realizability.push(RealizabilityReport::new(context, step, r.clone(), colliders, bodies));
        }
        for r in self.store.slip_reports() {
            out.slips.push(crate::SlipReport::new(context, step, r.clone(), colliders, bodies));
        }
    }

    pub(crate) fn hooks<'a, H: rapier3d::pipeline::PhysicsHooks + ?Sized>(
        &'a self,
        user: &'a H,
    ) -> tribo_rapier::TriboHooks<'a, H> {
        self.store.hooks(user)
    }

    /// Appends this context's contacts, with entities and bodies resolved, to `out`.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn report(
        &self,
        context: Entity,
        colliders: &RapierContextColliders,
        bodies: &RapierRigidBodySet,
        out: &mut TriboContacts,
    ) {
        let finite_or_zero = |v: Vec3| if v.is_finite() { v } else { Vec3::ZERO };
        for info in self.store.contacts() {
            let (Some(collider1), Some(collider2)) =
                (colliders.collider_entity(info.collider1), colliders.collider_entity(info.collider2))
            else {
                continue;
            };
            let parent = |h| colliders.colliders.get(h).and_then(|c| c.parent());
            let (p1, p2) = (parent(info.collider1), parent(info.collider2));
            let rb = |p: Option<rapier3d::prelude::RigidBodyHandle>| p.and_then(|b| bodies.bodies.get(b));
            // Relative velocity of body 2 with respect to body 1 at the contact point, tangential.
            let v = |p| rb(p).map_or(Vec3::ZERO, |b| b.velocity_at_point(info.point));
            let dv = v(p2) - v(p1);
            let slip_velocity = finite_or_zero(dv - info.normal * dv.dot(info.normal));
            // Friction force on body 2 while slipping: the kinetic bound μ N against the slip
            // (what rapier's friction cone applies to a sliding contact).
            let friction_force = (info.slide == tribo_rapier::Mode::Kinetic && slip_velocity.length() > 1e-6)
                .then(|| finite_or_zero(-slip_velocity.normalize() * info.friction * info.normal_force));
            // Roll and spin torques on body 2 while rolling / spinning: the kinetic bounds
            // against the relative angular velocity (what tribo's motors apply then).
            let w = |p| rb(p).map_or(Vec3::ZERO, |b| b.angvel());
            let dw = w(p2) - w(p1);
            let wn = info.normal * dw.dot(info.normal);
            let wt = dw - wn;
            let roll_torque = (info.roll == tribo_rapier::Mode::Kinetic && wt.length() > 1e-6)
                .then(|| finite_or_zero(-wt.normalize() * info.roll_capacity));
            let spin_torque = (info.spin == tribo_rapier::Mode::Kinetic && wn.length() > 1e-6)
                .then(|| finite_or_zero(-wn.normalize() * info.spin_capacity));
            out.contacts.push(ContactReport {
                context,
                collider1,
                collider2,
                body1: p1.and_then(|b| bodies.rigid_body_entity(b)),
                body2: p2.and_then(|b| bodies.rigid_body_entity(b)),
                point: info.point,
                normal: info.normal,
                normal_force: info.normal_force,
                slide: info.slide,
                roll: info.roll,
                spin: info.spin,
                friction: info.friction,
                roll_capacity: info.roll_capacity,
                spin_capacity: info.spin_capacity,
                stock_fallback: info.stock_fallback,
                slip_velocity,
                friction_force,
                roll_torque,
                spin_torque,
            });
        }
    }

    /// Replaces the per-pair material overrides of this context's store.
    pub(crate) fn set_pair_table(&mut self, table: tribo_rapier::PairTable) {
        self.store.set_pair_table(table);
    }
}
