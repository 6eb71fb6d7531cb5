//! The few places where rapier 0.35 (the workspace pin, `=0.35.0-glamx0.2`) and rapier 0.36
//! differ. Everything else in the crate is written against the common API.
//!
//! | item | 0.35 | 0.36 |
//! |---|---|---|
//! | `ContactModificationContext` | flat `manifold`, `solver_contacts`, `normal`, `friction` fields | `ctx.rigid_mut()` → `ModifiableManifold` with the same fields |
//! | `PhysicsWorld` | no soft bodies | has `soft_bodies` (the world's `step` handles them) |

use crate::rapier3d::prelude::*;

/// The parts of a rigid contact manifold the friction hook edits.
pub(crate) struct ManifoldParts<'b> {
    /// The solver manifold (a contact cluster when clustering applies), read-only.
    pub manifold: &'b ContactManifold,
    /// The solver contacts (≤ 4 are used by the solver).
    pub solver_contacts: &'b mut Vec<SolverContact>,
    /// The per-manifold friction coefficient.
    pub friction: &'b mut Real,
    /// The world-space manifold normal (from collider 1 outwards).
    pub normal: &'b mut Vector,
    /// The manifold's user data (persistent between steps; see [`crate::hooks`]).
    pub user_data: &'b mut u32,
}

/// The editable parts of a rigid contact, or `None` (0.36: soft-body contacts).
#[cfg(not(feature = "rapier-0-36"))]
pub(crate) fn manifold_parts<'b>(ctx: &'b mut ContactModificationContext<'_>) -> Option<ManifoldParts<'b>> {
    Some(ManifoldParts {
        manifold: ctx.manifold,
        solver_contacts: ctx.solver_contacts,
        friction: ctx.friction,
        normal: ctx.normal,
        user_data: ctx.user_data,
    })
}

/// The manifold's user data, or `None` (0.36: soft-body contacts).
#[cfg(not(feature = "rapier-0-36"))]
pub(crate) fn manifold_user_data<'b>(ctx: &'b mut ContactModificationContext<'_>) -> Option<&'b mut u32> {
    Some(ctx.user_data)
}

/// The manifold's user data, or `None` (0.36: soft-body contacts).
#[cfg(feature = "rapier-0-36")]
pub(crate) fn manifold_user_data<'b>(ctx: &'b mut ContactModificationContext<'_>) -> Option<&'b mut u32> {
    Some(&mut *ctx.rigid_mut()?.user_data)
}

/// The editable parts of a rigid contact, or `None` (0.36: soft-body contacts).
#[cfg(feature = "rapier-0-36")]
pub(crate) fn manifold_parts<'b>(ctx: &'b mut ContactModificationContext<'_>) -> Option<ManifoldParts<'b>> {
    let m = ctx.rigid_mut()?;
    Some(ManifoldParts {
        manifold: m.manifold,
        solver_contacts: &mut *m.solver_contacts,
        friction: &mut *m.friction,
        normal: &mut *m.normal,
        user_data: &mut *m.user_data,
    })
}

/// The contact manifolds of a pair (0.35: the `manifolds` field; 0.36: `manifolds()`).
#[cfg(not(feature = "rapier-0-36"))]
pub(crate) fn pair_manifolds(pair: &ContactPair) -> &[ContactManifold] {
    &pair.manifolds
}

/// The contact manifolds of a pair (0.35: the `manifolds` field; 0.36: `manifolds()`).
#[cfg(feature = "rapier-0-36")]
pub(crate) fn pair_manifolds(pair: &ContactPair) -> &[ContactManifold] {
    pair.manifolds()
}

/// Whether `ContactData::impulse` includes, on top of the step's total, the warm-start impulse
/// the solver began the step with (rapier 0.35; fixed in 0.35.2 / 0.36: "one substep too
/// many"). tribo reads that warm start in the hook (the solver manifold's
/// `data.warmstart_impulse`, which the constraint builder uses) and subtracts it.
#[cfg(not(feature = "rapier-0-36"))]
pub(crate) const IMPULSE_INCLUDES_WARMSTART: bool = true;
/// Whether `ContactData::impulse` includes the warm-start impulse the step began with.
#[cfg(feature = "rapier-0-36")]
pub(crate) const IMPULSE_INCLUDES_WARMSTART: bool = false;

/// Removes a rigid body and its attached colliders (0.36 also takes a `SoftBodySet`; tribo only
/// removes its own anchor body, which is no soft-body frame, so an empty set is passed).
pub(crate) fn remove_body(
    islands: &mut IslandManager,
    bodies: &mut RigidBodySet,
    colliders: &mut ColliderSet,
    impulse_joints: &mut ImpulseJointSet,
    multibody_joints: &mut MultibodyJointSet,
    body: RigidBodyHandle,
) {
    #[cfg(not(feature = "rapier-0-36"))]
    bodies.remove(body, islands, colliders, impulse_joints, multibody_joints, true);
    #[cfg(feature = "rapier-0-36")]
    bodies.remove(body, islands, colliders, impulse_joints, multibody_joints, &mut SoftBodySet::new(), true);
}
