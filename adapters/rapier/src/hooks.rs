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
        if let Some((i, plan)) = hint.and_then(|i| Some((i, self.tribo.plain_plan(c1, c2, i)?))) {
            // (All bits zero: a conveyor velocity of -0.0 takes the general path, which finds
            // no belt in it either.)
            let bits = |v: Vector| v.x.to_bits() | v.y.to_bits() | v.z.to_bits();
            if parts.solver_contacts.iter().all(|c| bits(c.tangent_velocity) == 0) {
                if *parts.user_data == 0 {
                    *parts.user_data = tag_of_slot(i);
                }
                if crate::compat::IMPULSE_INCLUDES_WARMSTART {
                    self.tribo.add_warmstart(i, warm_start(&parts));
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
        let slot = self.tribo.slot(c1, c2, hint);
        let rbs = [b1, b2].map(|b| b.and_then(|h| bodies.get(h)));
        let (mu, tangent_velocity) = match slot {
            Some(i) => {
                // Next step's hook finds the slot without a lookup (unless the user's hook uses
                // the manifold's user data: then it is left alone).
                if *parts.user_data == 0 {
                    *parts.user_data = tag_of_slot(i);
                }
                let plan = self.tribo.plan(i);
                // Contensou flat faces: one solver contact at the patch centre (no rapier twist
                // friction); first, so the warm start below is the one of the contact the solver
                // will use.
                if !plan.stock && plan.collapse {
                    crate::contensou::collapse(&mut parts);
                }
                // The warm-start normal impulse the solver will start from (see compat).
                if crate::compat::IMPULSE_INCLUDES_WARMSTART {
                    self.tribo.add_warmstart(i, warm_start(&parts));
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
                let Some(c) = parts.solver_contacts.first() else { return };
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
                    let start = |b: Option<RigidBodyHandle>| {
                        b.and_then(|b| bodies.get(b)).map(|rb| (rb.center_of_mass(), *rb.rotation()))
                    };
                    crate::store::Onset {
                        sliding: (dv - n * dv.dot(n)).length() > slip_speed,
                        turning: (w(b2) - w(b1)).length() * radius > slip_speed,
                        start: [start(b1), start(b2)],
                    }
                };
                let Some(mu) = self.tribo.new_contact_friction(c1, c2, belt, onset) else { return };
                (mu, Vector::ZERO)
            }
        };
        *parts.friction = mu;
        if let Some((i, plan)) = slot.map(|i| (i, self.tribo.plan(i))) {
            if plan.line {
                let cols = [colliders.get(c1), colliders.get(c2)];
                if let Some(n) = support_normal(parts.manifold, cols, self.tribo.last_normal(i)) {
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
                hold_rolling(parts.solver_contacts, normal, rbs, plan.hold_radius, self.tribo.timing());
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

/// Shapes whose contact with a flat or convex surface can be a line segment (their curved
/// side), which parry keeps behind the rolling axis (see [`onto_touching_lines`]).
fn is_line_shape(t: ShapeType) -> bool {
    matches!(
        t,
        ShapeType::Cylinder
            | ShapeType::Cone
            | ShapeType::Capsule
            | ShapeType::RoundCylinder
            | ShapeType::RoundCone
    )
}

/// Whether a contact between these colliders may touch along a line (either is a
/// cylinder, cone or capsule): the hook then puts its points back on the touching line.
pub(crate) fn may_touch_along_a_line(cols: [&Collider; 2]) -> bool {
    cols.iter().any(|c| is_line_shape(c.shape().shape_type()))
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

/// The normal of a line contact between a collider with a curved side (a cylinder, cone or
/// capsule) and one without, from the second (the support): the outward normal of its touching
/// face, or else its manifold normal, turned to point from the first collider to the second
/// (`None`: leave the manifold's normal).
///
/// rapier's manifold normal is the first collider's (`local_n1` in its frame), and parry's
/// manifold of a pair with a curved side need not carry the support's face normal:
/// - Between two full contact updates parry keeps a convex pair's manifold (while the relative
///   pose turns by less than 1°, `ContactManifold::try_update_contacts`), so when the rolling
///   side is the first collider its normal turns with it: on a cylinder rolling on its side it
///   tilts by up to 1° about the axis, and the normal force, tilted with it, pushes the cylinder
///   along its roll. At dt = 1/240 (≈ 0.8° of roll per step at 3.5 rad/s) every second step is
///   such a step; the normal force then alternates between 160 and 330 N for a weight of 246 N.
/// - With the cylinder as the first collider, parry's polyhedral-feature contact now and then
///   returns a normal tilted by ≈ 10° from the face it touches (the ground's top face): the
///   tilted normal force kicks the cylinder about the vertical and onto its rim.
///
/// When the manifold's normal finds no such face, the contact's normal after the last step
/// (`last`, from the first collider to the second) is tried: parry's manifold in the
/// cylinder-first order now and then puts its point on the ground's top face under a normal
/// 60° off it, pointing into the ground, and that normal threw a cylinder rolling at 0.8 m/s back
/// and stopped it within one step.
fn support_normal(manifold: &ContactManifold, cols: [Option<&Collider>; 2], last: Vector) -> Option<Vector> {
    let [Some(c1), Some(c2)] = cols else { return None };
    let support = match [c1, c2].map(|c| is_line_shape(c.shape().shape_type())) {
        [true, false] => 1,
        [false, true] => 0,
        _ => return None,
    };
    let col = [c1, c2][support];
    // The support's manifold normal, and its last normal, outward from it (in its frame).
    let local = if support == 0 { manifold.local_n1 } else { manifold.local_n2 };
    let last = col.position().rotation.inverse() * if support == 0 { last } else { -last };
    let points = || manifold.points.iter().map(|p| if support == 0 { p.local_p1 } else { p.local_p2 });
    let face =
        face_normal(col.shape(), local, points()).or_else(|| face_normal(col.shape(), last, points()))?;
    let n = col.position().rotation * face;
    let n = if support == 0 { n } else { -n };
    (n.is_finite() && (n.length_squared() - 1.0).abs() < 1e-3).then_some(n)
}

/// The outward normal (in the shape's frame) of the face of a convex polyhedral `shape` that
/// supports it in direction `dir`, if the manifold's `points` on the shape all lie inside that
/// face (in its plane, off its border) and the face is within 60° of `dir` (`None`: no
/// polygonal features, a composite shape, the support feature is an edge or a vertex, or a point
/// lies elsewhere: on a cylinder rolling over the box's edge the points lie on the edge, and the
/// normal turns with the cylinder about it).
fn face_normal(shape: &dyn Shape, dir: Vector, mut points: impl Iterator<Item = Vector>) -> Option<Vector> {
    if shape.as_composite_shape().is_some() || is_line_shape(shape.shape_type()) {
        return None;
    }
    let (pfm, _) = shape.as_polygonal_feature_map()?;
    let mut f = crate::rapier3d::parry::shape::PolygonalFeature::default();
    pfm.local_support_feature(dir, &mut f);
    let k = f.num_vertices;
    if k < 3 {
        return None;
    }
    let v = &f.vertices[..k];
    let n = (v[1] - v[0]).cross(v[2] - v[0]).try_normalize()?;
    let n = if n.dot(dir) < 0.0 { -n } else { n };
    if n.dot(dir) < 0.5 * dir.length() {
        return None;
    }
    let centre = v.iter().copied().sum::<Vector>() / k as f32;
    let inside = |p: Vector| {
        let tol = 1e-4 + 1e-5 * p.length();
        (p - v[0]).dot(n).abs() <= tol
            && (0..k).all(|i| {
                let (a, b) = (v[i], v[(i + 1) % k]);
                let Some(m) = n.cross(b - a).try_normalize() else { return false };
                let m = if m.dot(centre - a) < 0.0 { -m } else { m };
                m.dot(p - a) > tol
            })
    };
    points.all(inside).then_some(n)
}

/// Puts the solver contacts of a line contact (a cylinder, cone or capsule on its side) back on
/// the line where the surfaces touch now.
///
/// parry keeps a convex pair's contact points while the relative pose turns by less than 1°
/// (`ContactManifold::try_update_contacts`): the points stay on the material of the surfaces,
/// so on a cylinder rolling on its side they ride backwards with its rotation, up to `R · 1°`
/// behind the axis (3.5 mm for R = 0.2 m). The normal force then acts behind the axis and its
/// moment drives the rolling: at low speed it cancels up to a quarter of the rolling resistance
/// and the roll-out comes 7–14 % late (stock rapier: a resistance-free cylinder speeds up). A
/// ball's contact is recomputed every step and a face's points lie on the face, so only a side
/// with a curved side (cylinder, cone, capsule and their rounded forms) whose support feature
/// towards the other side is a segment is moved: each point onto that segment (plus the shape's
/// border radius), the other side's point by the same tangential offset, the separation by the
/// normal one.
fn onto_touching_lines(solver_contacts: &mut [SolverContact], normal: Vector, cols: [Option<&Collider>; 2]) {
    if solver_contacts.is_empty() || !normal.is_finite() {
        return;
    }
    for (side, col) in cols.into_iter().enumerate() {
        let Some(col) = col else { continue };
        let shape = col.shape();
        if !is_line_shape(shape.shape_type()) {
            continue;
        }
        let Some((pfm, border)) = shape.as_polygonal_feature_map() else { continue };
        let pose = col.position();
        // The side's outward direction towards the other side.
        let out = if side == 0 { normal } else { -normal };
        let dir = pose.rotation.inverse() * out;
        let mut feature = crate::rapier3d::parry::shape::PolygonalFeature::default();
        pfm.local_support_feature(dir, &mut feature);
        if feature.num_vertices != 2 {
            continue;
        }
        let (a, ab) = (feature.vertices[0], feature.vertices[1] - feature.vertices[0]);
        let len2 = ab.length_squared();
        if !(len2 > 0.0 && len2.is_finite()) {
            continue;
        }
        for c in solver_contacts.iter_mut() {
            let p = if side == 0 { c.anchor1 } else { c.anchor2 };
            let q = pose.inverse_transform_point(p);
            let t = ((q - a).dot(ab) / len2).clamp(0.0, 1.0);
            let on = pose.transform_point(a + ab * t + dir * border);
            let d = on - p;
            if !d.is_finite() {
                continue;
            }
            let dn = d.dot(normal);
            let tangential = d - normal * dn;
            if side == 0 {
                c.anchor1 = on;
                c.anchor2 += tangential;
                c.dist -= dn;
            } else {
                c.anchor2 = on;
                c.anchor1 += tangential;
                c.dist += dn;
            }
        }
    }
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
