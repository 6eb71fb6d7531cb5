//! The `PhysicsHooks` wrapper: runs the user's hooks, then sets tribo's friction.

use crate::compat;
use crate::rapier3d::prelude::*;
use crate::store::TriboRapier;

/// rapier [`PhysicsHooks`] that compose the user's hooks `H` with tribo's friction.
///
/// Made by [`TriboRapier::hooks`]; pass it to `PhysicsPipeline::step`. Every call first
/// delegates to the user's hooks (their filters decide, their contact modifications run);
/// then, for contacts handled by tribo, the manifold friction is set to μs (stick) or μk
/// (slip) and a sticking contact gets a `tangent_velocity` pulling it back to its anchor.
///
/// Conveyor belts: a `tangent_velocity` set by the user's hook is kept (tribo's pull-back is
/// added to it) and tribo measures slip relative to it, so a body riding a belt sticks (μs)
/// and one dropped on a running belt slides (μk) until it reaches the belt's speed.
///
/// tribo turns on `ActiveHooks::MODIFY_SOLVER_CONTACTS` for colliders with a material, so the
/// user's `modify_solver_contacts` is also called for their pairs.
pub struct TriboHooks<'a, H: PhysicsHooks + ?Sized> {
    pub(crate) tribo: &'a TriboRapier,
    pub(crate) user: &'a H,
}

impl<H: PhysicsHooks + ?Sized> PhysicsHooks for TriboHooks<'_, H> {
    fn filter_contact_pair(&self, context: &PairFilterContext) -> Option<SolverFlags> {
        self.user.filter_contact_pair(context)
    }

    fn filter_intersection_pair(&self, context: &PairFilterContext) -> bool {
        self.user.filter_intersection_pair(context)
    }

    fn modify_solver_contacts(&self, context: &mut ContactModificationContext) {
        self.user.modify_solver_contacts(context);
        let (c1, c2) = (context.collider1, context.collider2);
        let (b1, b2) = (context.rigid_body1, context.rigid_body2);
        let bodies = context.bodies;
        let colliders = context.colliders;
        let Some(mut parts) = compat::manifold_parts(context) else { return };
        // The user's conveyor velocity (mean over the solver contacts; zero almost always).
        let belt = match parts.solver_contacts.len() {
            0 => Vector::ZERO,
            k => parts.solver_contacts.iter().map(|c| c.tangent_velocity).sum::<Vector>() / k as f32,
        };
        let slot = self.tribo.slot(c1, c2);
        let (mu, tangent_velocity) = match slot {
            Some(i) => {
                let plan = self.tribo.plan(i);
                // Contensou flat faces: one solver contact at the patch centre (no rapier twist
                // friction); first, so the warm start below is the one of the contact the solver
                // will use.
                if !plan.stock && plan.collapse {
                    crate::contensou::collapse(&mut parts);
                }
                // The warm-start normal impulse the solver will start from (see compat).
                if crate::compat::IMPULSE_INCLUDES_WARMSTART {
                    let points = &parts.manifold.points;
                    let w = parts
                        .solver_contacts
                        .iter()
                        .map(|c| {
                            points
                                .get(c.contact_indices()[0] as usize)
                                .map_or(0.0, |p| p.data.warmstart_impulse.max(0.0))
                        })
                        .sum::<f32>();
                    self.tribo.add_warmstart(i, w);
                }
                if plan.stock {
                    return;
                }
                if belt != Vector::ZERO {
                    self.tribo.add_belt(i, belt);
                }
                (plan.mu, plan.tangent_velocity)
            }
            None => {
                // A pair without state whose manifold has no solver contact (near but not
                // touching): nothing to set, and `after_step` would not create state for it.
                let Some(c) = parts.solver_contacts.first() else { return };
                // A contact new in this step: static unless the surfaces already slide past
                // each other.
                // A contact new in this step: how the surfaces moved relative to each other
                // when it began (the velocities the step starts from).
                let onset = || {
                    let n = *parts.normal;
                    let slip_speed = self.tribo.settings().slip_speed;
                    let v = |b: Option<RigidBodyHandle>, p: Vector| {
                        b.and_then(|b| bodies.get(b)).map_or(Vector::ZERO, |rb| rb.velocity_at_point(p))
                    };
                    let w = |b: Option<RigidBodyHandle>| {
                        b.and_then(|b| bodies.get(b)).map_or(Vector::ZERO, |rb| rb.angvel())
                    };
                    let dv = v(b2, c.anchor2) - v(b1, c.anchor1) - belt;
                    // Relative rotation, as a surface speed over the larger collider's bounding
                    // radius (the scale of its curvature radius).
                    let radius = [c1, c2]
                        .iter()
                        .filter_map(|&h| colliders.get(h))
                        .map(|c| c.shape().compute_local_bounding_sphere().radius)
                        .fold(0.0f32, f32::max);
                    crate::store::Onset {
                        sliding: (dv - n * dv.dot(n)).length() > slip_speed,
                        turning: (w(b2) - w(b1)).length() * radius > slip_speed,
                    }
                };
                let Some(mu) = self.tribo.new_contact_friction(c1, c2, belt, onset) else { return };
                (mu, Vector::ZERO)
            }
        };
        *parts.friction = mu;
        if tangent_velocity != Vector::ZERO {
            for c in parts.solver_contacts.iter_mut() {
                c.tangent_velocity += tangent_velocity;
            }
        }
    }
}
