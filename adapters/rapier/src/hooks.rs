//! The `PhysicsHooks` wrapper: runs the user's hooks, then sets tribo's friction.

use crate::compat;
use crate::line_contact::{onto_touching_lines, support_normal};
use crate::rapier3d::prelude::*;
use crate::rolling::StepTiming;
use crate::store::{Contacts, HookInbox, Materials, Onset, TriboRapier};

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
/// user's `modify_solver_contacts` is also called for their pairs — except while a collider's
/// contacts all stick ([`Settings::unhook_settled`](crate::Settings::unhook_settled)): set the
/// flag yourself on colliders whose pairs your hook must see every step.
///
/// tribo keeps, in the `user_data` of the contact manifolds of its contacts, the index of the
/// contact's state (tagged: the top byte is `0xA5`), so the hook finds a contact's plan without
/// a lookup. The tag is taken off before the user's hook is called, which sees the value it
/// left itself; a user hook that puts its own value there keeps it (tribo then looks the
/// contact up instead). Values whose top byte is `0xA5` are tribo's: one `u32` cannot hold
/// both every value of the user's and the mark of tribo's tag, so such a value left by the
/// user's hook is taken for a tag and the hook sees 0 at its next call. Code reading
/// `user_data` from the narrow phase between steps sees the tag on tribo's contacts.
pub struct TriboHooks<'a, H: PhysicsHooks + ?Sized> {
    /// The store's tables the hook reads (contacts, materials) and reports into (the inbox, the
    /// contacts' warm-start sums).
    contacts: &'a Contacts,
    materials: &'a Materials,
    inbox: &'a HookInbox,
    /// The step the solver runs, as the last `before_step` saw it (see [`crate::rolling`]).
    timing: StepTiming,
    slip_speed: f32,
    user: &'a H,
}

impl TriboRapier {
    /// The hooks to pass to `PhysicsPipeline::step`, wrapping the user's own hooks (use `&()`
    /// for none).
    pub fn hooks<'a, H: PhysicsHooks + ?Sized>(&'a self, user: &'a H) -> TriboHooks<'a, H> {
        let (contacts, materials, inbox, timing) = self.hook_tables();
        TriboHooks { contacts, materials, inbox, timing, slip_speed: self.settings().slip_speed, user }
    }
}

impl<H: PhysicsHooks + ?Sized> PhysicsHooks for TriboHooks<'_, H> {
    fn filter_contact_pair(&self, context: &PairFilterContext) -> Option<SolverFlags> {
        self.user.filter_contact_pair(context)
    }

    fn filter_intersection_pair(&self, context: &PairFilterContext) -> bool {
        self.user.filter_intersection_pair(context)
    }

    fn modify_solver_contacts(&self, context: &mut ContactModificationContext) {
        // tribo's slot tag (see `SLOT_TAG`) comes off before the user's hook runs, so that hook
        // sees the value it left itself.
        let hint = compat::manifold_user_data(context).and_then(|ud| {
            let slot = slot_of_tag(*ud)?;
            *ud = 0;
            Some(slot)
        });
        self.user.modify_solver_contacts(context);
        let Some(parts) = compat::manifold_parts(context) else { return };
        if parts.solver_contacts.is_empty() {
            // Near but not touching (most calls in a pile): nothing to set; the tag stays.
            if let Some(slot) = hint.filter(|_| *parts.user_data == 0) {
                *parts.user_data = tag_of_slot(slot);
            }
            return;
        }
        self.set_friction(context, hint);
    }
}

impl<H: PhysicsHooks + ?Sized> TriboHooks<'_, H> {
    /// tribo's part of the hook for a manifold with solver contacts (kept out of line: most
    /// calls in a pile are for manifolds without, and return above).
    #[inline(never)]
    fn set_friction(&self, context: &mut ContactModificationContext, hint: Option<u32>) {
        let (c1, c2) = (context.collider1, context.collider2);
        // The common case, a contact with state whose plan only sets the coefficient and the
        // pull-back, on a manifold without the user's conveyor velocity: what
        // `set_friction_general` does for it, without its other cases (and their stack frame).
        let Some(parts) = compat::manifold_parts(context) else { return };
        if let Some((i, plan)) = hint.and_then(|i| Some((i, self.contacts.plain_plan(c1, c2, i)?))) {
            // (All bits zero: a conveyor velocity of -0.0 takes the general path, which finds
            // no belt in it either.)
            let bits = |v: Vector| v.x.to_bits() | v.y.to_bits() | v.z.to_bits();
            if parts.solver_contacts.iter().all(|c| bits(c.tangent_velocity) == 0) {
                if *parts.user_data == 0 {
                    *parts.user_data = tag_of_slot(i);
                }
                if crate::compat::IMPULSE_INCLUDES_WARMSTART {
                    self.contacts.add_warmstart(i, warm_start(&parts));
                }
                *parts.friction = plan.mu;
                let tv = plan.tangent_velocity;
                if tv != Vector::ZERO {
                    for c in parts.solver_contacts.iter_mut() {
                        c.tangent_velocity += tv;
                    }
                }
                return;
            }
        }
        self.set_friction_general(context, hint);
    }

    /// [`set_friction`](Self::set_friction) in every case: a new contact, a stock fallback, a
    /// collapsed Contensou face, a line contact, a stopped roll, a conveyor velocity.
    #[inline(never)]
    #[cold]
    fn set_friction_general(&self, context: &mut ContactModificationContext, hint: Option<u32>) {
        let (c1, c2) = (context.collider1, context.collider2);
        let (b1, b2) = (context.rigid_body1, context.rigid_body2);
        let bodies = context.bodies;
        let colliders = context.colliders;
        let Some(mut parts) = compat::manifold_parts(context) else { return };
        // The user's conveyor velocity (mean over the solver contacts): zero unless the user's
        // hook set one, which the test finds without the sum and the division.
        let belt = if parts.solver_contacts.iter().any(|c| c.tangent_velocity != Vector::ZERO) {
            parts.solver_contacts.iter().map(|c| c.tangent_velocity).sum::<Vector>()
                / parts.solver_contacts.len() as f32
        } else {
            Vector::ZERO
        };
        let slot = self.contacts.slot(c1, c2, hint);
        let rbs = [b1, b2].map(|b| b.and_then(|h| bodies.get(h)));
        let (mu, tangent_velocity) = match slot {
            Some(i) => {
                // Next step's hook finds the slot without a lookup (unless the user's hook uses
                // the manifold's user data: then it is left alone).
                if *parts.user_data == 0 {
                    *parts.user_data = tag_of_slot(i);
                }
                let plan = self.contacts.plan(i);
                // Contensou flat faces: one solver contact at the patch centre (no rapier twist
                // friction); first, so the warm start below is the one of the contact the solver
                // will use.
                if !plan.stock && plan.collapse {
                    crate::contensou::collapse(&mut parts);
                }
                // The warm-start normal impulse the solver will start from (see compat).
                if crate::compat::IMPULSE_INCLUDES_WARMSTART {
                    self.contacts.add_warmstart(i, warm_start(&parts));
                }
                if plan.stock {
                    return;
                }
                if belt != Vector::ZERO {
                    self.inbox.add_belt(i, belt);
                }
                (plan.mu, plan.tangent_velocity)
            }
            None => {
                let Some(c) = parts.solver_contacts.first() else { return };
                // A contact new in this step: how the surfaces moved relative to each other
                // when it began (the velocities the step starts from).
                let onset = || {
                    let n = *parts.normal;
                    let slip_speed = self.slip_speed;
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
                    let start = |b: Option<RigidBodyHandle>| {
                        b.and_then(|b| bodies.get(b)).map(|rb| (rb.center_of_mass(), *rb.rotation()))
                    };
                    Onset {
                        sliding: (dv - n * dv.dot(n)).length() > slip_speed,
                        turning: (w(b2) - w(b1)).length() * radius > slip_speed,
                        start: [start(b1), start(b2)],
                        w0: w(b2) - w(b1),
                    }
                };
                let Some(mu) = self.inbox.new_contact_friction(self.materials, c1, c2, belt, onset) else {
                    return;
                };
                (mu, Vector::ZERO)
            }
        };
        *parts.friction = mu;
        if let Some((i, plan)) = slot.map(|i| (i, self.contacts.plan(i))) {
            if plan.line {
                let cols = [colliders.get(c1), colliders.get(c2)];
                if let Some(n) = support_normal(parts.manifold, cols, self.contacts.last_normal(i)) {
                    // Each solver contact's separation along the new normal (its anchors stay).
                    let old = *parts.normal;
                    for c in parts.solver_contacts.iter_mut() {
                        c.dist += (c.anchor2 - c.anchor1).dot(n - old);
                    }
                    *parts.normal = n;
                }
                onto_touching_lines(parts.solver_contacts, *parts.normal, cols);
            }
            let normal = *parts.normal;
            if plan.hold_radius > 0.0 {
                hold_rolling(parts.solver_contacts, normal, rbs, plan.hold_radius, self.timing);
            }
            if plan.roll_stopped {
                friction_in_com_plane(parts.solver_contacts, normal, rbs, plan.stop_offset);
            }
        }
        if tangent_velocity != Vector::ZERO {
            for c in parts.solver_contacts.iter_mut() {
                c.tangent_velocity += tangent_velocity;
            }
        }
    }
}

/// The warm-start normal impulse the solver starts a manifold's solver contacts from: the sum
/// of their points' (see `compat::IMPULSE_INCLUDES_WARMSTART`).
#[inline(always)]
fn warm_start(parts: &compat::ManifoldParts<'_>) -> f32 {
    let points = &parts.manifold.points;
    parts
        .solver_contacts
        .iter()
        .map(|c| {
            points.get(c.contact_indices()[0] as usize).map_or(0.0, |p| p.data.warmstart_impulse.max(0.0))
        })
        .sum::<f32>()
}

/// Top byte of a manifold `user_data` holding a tribo slot (see [`TriboHooks`]).
const SLOT_TAG: u32 = 0xA5 << 24;
/// The slots a tag can hold (24 bits).
const SLOT_MASK: u32 = (1 << 24) - 1;

/// The tagged `user_data` of a slot, or 0 (untagged) for a slot beyond 24 bits.
fn tag_of_slot(slot: u32) -> u32 {
    if slot <= SLOT_MASK {
        SLOT_TAG | slot
    } else {
        0
    }
}

/// The slot of a tagged `user_data`.
fn slot_of_tag(user_data: u32) -> Option<u32> {
    (user_data & !SLOT_MASK == SLOT_TAG).then_some(user_data & SLOT_MASK)
}

/// The rolling hold ([`crate::rolling::hold`]) of a contact whose one dynamic side is a round
/// body (nothing is done unless exactly one side is dynamic).
fn hold_rolling(
    solver_contacts: &mut [SolverContact],
    normal: Vector,
    rbs: [Option<&RigidBody>; 2],
    radius: f32,
    timing: crate::rolling::StepTiming,
) {
    let dynamic = |k: usize| rbs[k].filter(|b| b.is_dynamic());
    let (side, rb) = match (dynamic(0), dynamic(1)) {
        (Some(b), None) => (0, b),
        (None, Some(b)) => (1, b),
        _ => return,
    };
    crate::rolling::hold(solver_contacts, normal, (side, rb.center_of_mass(), rb.angvel()), radius, timing);
}

/// Moves the solver contacts of a roll that stopped in the last step, or stops in this one,
/// along the normal into the plane through the rolling body's centre of mass (the one dynamic
/// side; nothing is done when both sides are dynamic), for this one step.
///
/// rapier warm-starts the contact's friction with the last substep impulse of the step before:
/// the impulse that decelerated the roll. In every substep the motor rows are solved before the
/// friction rows (and positions are integrated in between), so with the friction coupled to the
/// rotation through its lever arm the Gauss–Seidel passes remove that stale impulse only by a
/// factor ≈ 0.7 per substep and the stopped body moves back (≈ 1e-3 m/s for a ball at
/// dt = 1/30). In the centre-of-mass plane the friction has no moment about a tangential axis:
/// it only acts on the translation, and its row cancels the stale impulse within the first
/// substep while the roll motor holds the rotation. The separation is kept (both anchors move
/// alike), and the friction's moment about the normal (spin) too.
///
/// A roll's last kinetic step (its friction braking the body) is moved too. The contacts of a
/// body on joints do not all stop in the same step (a cart's front wheels one step before its
/// rear ones at dt = 1/240): the stale braking friction of the wheels still rolling then meets
/// the held ones, and the wheels rolled back, the chassis on the joints' residual. In the
/// centre-of-mass plane the friction stops the translation within the step (the remaining speed
/// is below one step's deceleration) and the motor, bounded to the fraction of the kinetic torque
/// that ends the roll, the rotation.
///
/// `offset` (`Plan::stop_offset`) moves the contacts along the roll axis as well, onto the
/// line of action of the normal force and the friction across the rolling direction: that
/// force keeps its moment about the centre of mass (a shift along the normal alone would drop
/// its friction's share, which a body on joints carries through them: the loaded cart's wheels
/// carry a lateral friction stress through their axles, and losing its moment for one step
/// kicks them about the direction of motion). Only the friction along the rolling direction
/// acts without a moment.
fn friction_in_com_plane<'a>(
    solver_contacts: &mut [SolverContact],
    normal: Vector,
    rbs: [Option<&'a RigidBody>; 2],
    offset: Vector,
) {
    let dynamic = |rb: Option<&'a RigidBody>| rb.filter(|b| b.is_dynamic());
    let com = match (dynamic(rbs[0]), dynamic(rbs[1])) {
        (Some(b), None) | (None, Some(b)) => b.center_of_mass(),
        _ => return,
    };
    if !normal.is_finite() || !com.is_finite() {
        return;
    }
    for c in solver_contacts.iter_mut() {
        // rapier's solver point: midway between the anchors once the separation is applied.
        let p1 = c.anchor1 + normal * ((c.anchor2 - c.anchor1).dot(normal) - c.dist);
        let d = (com - (p1 + c.anchor2) * 0.5).dot(normal);
        let shift = normal * d + offset;
        if shift.is_finite() {
            c.anchor1 += shift;
            c.anchor2 += shift;
        }
    }
}
