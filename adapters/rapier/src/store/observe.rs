//! Observe: what rapier's step did to one moving contact, read from its pair in the narrow
//! phase and its bodies after the step. Writes the contact's normal force, normal, point, warm
//! start, applied coefficient and (once) curvatures into its state ([`load`], [`motion`]); hands
//! the stages after it the slip, relative turn, thresholds and tolerances of the step
//! ([`Observed`], [`Motion`]). Also the readers of rapier's impulses the later stages use
//! ([`warm_impulses`], [`point_impulses`], [`touches_nothing_else`]).
//!
//! Reads: the pair's solver manifolds (impulses, anchors, friction), the bodies as read in this
//! step (`bodies`), the colliders' shapes (curvatures), the narrow phase (pressing supports).

use super::bodies::{BodyNow, DYNAMIC, MOVING};
use super::effects::{record_give_back, Effects, Slot, StoreView};
use super::*;
use crate::curvature::collider_curvature;
use crate::rapier3d::parry::math::Vec3A;

/// What every contact's update in one `after_step` reads (see `pipeline::update`).
pub(super) struct StepCtx<'a> {
    pub(super) params: &'a IntegrationParameters,
    pub(super) bodies: &'a RigidBodySet,
    pub(super) colliders: &'a ColliderSet,
    pub(super) narrow_phase: &'a NarrowPhase,
    pub(super) step: u64,
    /// The step's time step (0 when not finite and positive: `plan_ok` false).
    pub(super) dt: f32,
    pub(super) inv_dt: f32,
    pub(super) plan_ok: bool,
    pub(super) slip_speed: f32,
    pub(super) anchor: Option<(RigidBodyHandle, Pose)>,
    /// The conveyor velocities the user's hook set, sorted by slot.
    pub(super) belts: &'a [(u32, Vector)],
}

impl StepCtx<'_> {
    /// The mean conveyor velocity the user's hook set on contact `slot` (zero if none).
    pub(super) fn belt_of(&self, slot: usize) -> Vector {
        let belts = self.belts;
        if belts.is_empty() {
            return Vector::ZERO;
        }
        let lo = belts.partition_point(|b| (b.0 as usize) < slot);
        let hi = belts.partition_point(|b| (b.0 as usize) <= slot);
        if hi == lo {
            return Vector::ZERO;
        }
        belts[lo..hi].iter().map(|b| b.1).sum::<Vector>() / (hi - lo) as f32
    }
}

/// What the stages read of one moving contact's step besides its slot.
pub(super) struct Now<'a> {
    pub(super) x: &'a StepCtx<'a>,
    pub(super) view: &'a StoreView<'a>,
    pub(super) pair: &'a ContactPair,
    /// The pair's record if the contact is new in this step (never for a steady one).
    pub(super) new: Option<&'a NewPair>,
    /// The contact's bodies as read in this step.
    pub(super) b: [&'a BodyNow; 2],
    /// The contact's colliders, and the parents `before_step` checked (or `after_step`
    /// recorded for a new contact).
    pub(super) cols: [ColliderHandle; 2],
    pub(super) parents: [Option<RigidBodyHandle>; 2],
}

impl Now<'_> {
    /// The contact's bodies in rapier's set (for the rarer parts of the update).
    #[inline(always)]
    pub(super) fn rbs(&self) -> [Option<&RigidBody>; 2] {
        let (bodies, [par1, par2]) = (self.x.bodies, self.parents);
        [par1.and_then(|b| bodies.get(b)), par2.and_then(|b| bodies.get(b))]
    }
}

/// What [`load`] observed of a contact's step, for the stages after it.
pub(super) struct Observed {
    /// The contact's points came back in this step after steps without (see [`absent`]).
    pub(super) returned: bool,
    /// The hook held the contact as a round body's rolling contact (`crate::rolling`).
    pub(super) held: bool,
    /// The last step carried no load (or the contact is new).
    pub(super) unloaded_before: bool,
    /// The contact normal (from the first collider to the second), in SIMD and plain form.
    pub(super) normal_a: Vec3A,
    pub(super) normal: Vector,
    /// The contact point, and each side's point (where the solver's friction rows act).
    pub(super) point: Vector,
    pub(super) p: [Vec3A; 2],
}

/// What [`motion`] measured of a contact's relative motion, and the step's thresholds.
pub(super) struct Motion {
    /// The tangential slip (relative to a conveyor surface, without a pressing support's
    /// approach velocity), the relative turn in the tangent plane and about the normal.
    pub(super) slip: Vector,
    pub(super) wt: Vector,
    pub(super) wn: f32,
    /// The two surfaces' curvatures, and the material's parameters for this step's load.
    pub(super) kappas: (Curvature, Curvature),
    pub(super) d: Derived,
    /// The relative angular speeds below which a roll and a spin count as stopped.
    pub(super) roll_eps: f32,
    pub(super) spin_eps: f32,
    /// The contact carries load after this step.
    pub(super) loaded: bool,
    /// The slip ignored as the solver's, and the speed below which a slide counts as stopped.
    pub(super) tol: f32,
    pub(super) slide_eps: f32,
}

/// The sums over a pair's solver contacts that [`load`] reads the normal force, normal and
/// points from.
struct SolverSums {
    imp: f32,
    warm_next: f32,
    nsum: Vec3A,
    p1sum: Vec3A,
    p2sum: Vec3A,
    p1avg: Vec3A,
    p2avg: Vec3A,
    count: f32,
    applied_mu: f32,
}

/// The sums of `pair`'s solver contacts (bodies `b1`, `b2` as read in this step).
#[inline(always)]
fn solver_sums(pair: &ContactPair, b1: &BodyNow, b2: &BodyNow) -> SolverSums {
    // Normal force, normal and points from the solver's impulses. rapier 0.35 reports in
    // `impulse` the step's total plus the warm start it began with (the last substep
    // impulse of the previous step, which the hook summed in `warm`); 0.36
    // reports the plain total.
    // (In SIMD vectors: the same arithmetic as the plain vectors', in fewer instructions.)
    let mut imp = 0.0f32;
    let mut warm_next = 0.0f32;
    let mut nsum = Vec3A::ZERO;
    let (mut p1sum, mut p2sum) = (Vec3A::ZERO, Vec3A::ZERO);
    let (mut p1avg, mut p2avg) = (Vec3A::ZERO, Vec3A::ZERO);
    let mut count = 0.0f32;
    // The friction coefficient the solver applied in this step (the hook's, or rapier's
    // combination at a full update off the hook, or the one a recycled pair kept).
    let mut applied_mu = f32::NAN;
    // A body-side anchor is the material point that touched at the start of the step, in
    // the body's CoM-centred local frame: after the step it has turned with the body (a
    // rolling ball's by ω·dt, up and away from the ground). The contact now touches the
    // material point at the same world offset from the centre of mass as then, so the
    // step's rotation is undone (once per body): the slip of a body rolling without slip
    // is then zero whatever its speed.
    for m in pair.solver_manifolds() {
        let (mf1, mf2) = manifold_frames(m, b1, b2);
        for c in &m.data.solver_contacts {
            let id = c.contact_indices()[0] as usize;
            let (pi, wi) = m
                .points
                .get(id)
                .map_or((0.0, 0.0), |p| (p.data.impulse.max(0.0), p.data.warmstart_impulse.max(0.0)));
            warm_next += wi;
            let (a, b) = (mf1.anchor_in_world(c.anchor1), mf2.anchor_in_world(c.anchor2));
            imp += pi;
            nsum += Vec3A::from(m.data.normal) * pi;
            p1sum += a * pi;
            p2sum += b * pi;
            p1avg += a;
            p2avg += b;
            count += 1.0;
        }
        if !m.data.solver_contacts.is_empty() {
            applied_mu = m.data.friction;
            if nsum == Vec3A::ZERO {
                nsum = Vec3A::from(m.data.normal) * 1e-12;
            }
        }
    }
    SolverSums { imp, warm_next, nsum, p1sum, p2sum, p1avg, p2avg, count, applied_mu }
}

/// Observes contact `c`'s step: its normal force (`N = Σ impulse/dt`), normal, point, warm start
/// and applied coefficient, written into its state; a Contensou contact's patch too. `None`: the
/// pair had no active contact in the step (see [`absent`]), or its normal or point is not finite.
#[inline(always)]
pub(super) fn load<const STEADY: bool, E: Effects>(
    now: &Now<'_>,
    c: &mut Slot<'_>,
    fx: &mut E,
) -> Option<Observed> {
    let StepCtx { params, bodies, colliders, step, inv_dt, plan_ok, .. } = *now.x;
    let (pair, new, [b1, b2], [c1, c2]) = (now.pair, now.new, now.b, now.cols);
    let (moving1, moving2) = (b1.is(MOVING), b2.is(MOVING));
    let SolverSums { imp, warm_next, nsum, p1sum, p2sum, p1avg, p2avg, count, applied_mu } =
        solver_sums(pair, b1, b2);
    if count == 0.0 {
        absent(now, c.s, params, bodies, plan_ok, step, fx);
        return None;
    }
    let returned = !STEADY && std::mem::take(&mut c.s.absent) > 0;
    let len = nsum.length();
    let normal_a = if len > 0.0 { nsum * (1.0 / len) } else { Vec3A::Y };
    let (p1, p2) = if imp > 0.0 { (p1sum / imp, p2sum / imp) } else { (p1avg / count, p2avg / count) };
    let plan = &*c.plan;
    let s = &mut *c.s;
    // A contact whose friction acted in its body's centre-of-mass plane in this step (a
    // roll that had just stopped) keeps the point it touched at.
    let (p1, p2) = if !STEADY && plan.roll_stopped { (s.point.into(), s.point.into()) } else { (p1, p2) };
    // A round body's contact on its one support (see `crate::rolling`): both sides at the
    // solver's point, the round body's surface point when the hook held it (a body turning
    // too slowly for the hold: the sides' midpoint, a distance of half the penetration from
    // it along the normal).
    let held = new.is_none() && plan.hold_radius > 0.0;
    let (p1, p2) = if held {
        let m = (p1 + p2) * 0.5;
        (m, m)
    } else {
        (p1, p2)
    };
    let point_a = (p1 + p2) * 0.5;
    if !(normal_a.is_finite() && point_a.is_finite()) {
        return None;
    }
    let (normal, point) = (Vector::from(normal_a), Vector::from(point_a));
    // What the hook did to the pair's solver contacts in this step (if hooked).
    let hook_plain =
        plan.tangent_velocity == Vector::ZERO && (STEADY || (!plan.roll_stopped && !plan.collapse));
    s.seen = step;
    s.hook_plain = hook_plain;
    s.applied_mu = applied_mu;
    // The hook summed the warm start of a hooked pair; a pair off the hook (see
    // `settle`) started from the warm starts the last step left.
    let warm = match c.warm.load(Ordering::Relaxed) {
        WARM_UNSET => s.warm_next,
        bits => f32::from_bits(bits),
    };
    s.warm_next = warm_next;
    let total = if compat::IMPULSE_INCLUDES_WARMSTART { imp - warm } else { imp };
    // The last step carried no load (or the contact is new): if this one does, the
    // bodies touched during it (see the settle test below).
    let unloaded_before = s.n <= 0.0;
    // A step without a finite positive dt measures no force: the last one stands (the
    // next plan's motor bounds come from it).
    if plan_ok {
        s.n = (total * inv_dt).max(0.0);
    }
    s.normal = normal;
    s.point = point;
    if !STEADY && s.contensou_model.is_some() && s.contensou.enabled {
        if let (Some(col1), Some(col2)) = (colliders.get(c1), colliders.get(c2)) {
            crate::contensou::observe(
                &mut s.contensou,
                pair,
                bodies,
                [col1, col2],
                [moving1, moving2],
                normal,
                params.prediction_distance(),
            );
        }
    }
    Some(Observed { returned, held, unloaded_before, normal_a, normal, point, p: [p1, p2] })
}

/// A step in which contact `s`'s pair had no active contact.
#[cold]
#[inline(never)]
fn absent<E: Effects>(
    now: &Now<'_>,
    s: &mut PairState,
    params: &IntegrationParameters,
    bodies: &RigidBodySet,
    plan_ok: bool,
    step: u64,
    fx: &mut E,
) {
    let (dynamic1, dynamic2) = (now.b[0].is(DYNAMIC), now.b[1].is(DYNAMIC));
    // No active contact in this step. The motor still acted in it (rapier solves
    // the joint whatever the contact does): the turn it gave the bodies is given back
    // by the next `before_step` (see `give_back`).
    record_give_back(s, params, bodies, fx);
    // Nor does a planned torque carry on into a step without the contact.
    if s.torque.started || s.torque.planned {
        s.torque.clear();
    }
    // A body rolling or spinning on a support (kinetic roll or spin, one side not
    // dynamic) keeps its contact for up to `ABSENT_STEPS` such steps, reported
    // unloaded, its plan and motor bounds those of its last loaded step: parry's
    // contact of a cylinder on its side (as the pair's first collider) on a box
    // loses its points for a step now and then, and the contact that comes back is
    // the same rolling contact, loaded in the step it comes back in (the motor's
    // turn in the steps between is given back). Any other contact, or after that:
    // swept below (two bodies of a pile that part keep nothing: a contact between
    // them that begins again starts sticking, and the pile falls asleep as before).
    let turning = s.roll == Mode::Kinetic || s.spin == Mode::Kinetic;
    let on_support = !(dynamic1 && dynamic2);
    if turning && on_support && s.absent < ABSENT_STEPS && plan_ok {
        s.absent += 1;
        s.seen = step;
        s.n = 0.0;
        // The surfaces parted: a sticking slide lets go of its deflection (as any
        // unloaded step does, `advance_mode`).
        if s.slide == Mode::Static {
            s.slide_defl = Vector::ZERO;
        }
    }
}

/// Measures contact `s`'s relative motion after the step (slip, relative turn) at the points
/// [`load`] observed (`o`), its curvatures on its first step, and the step's thresholds and
/// tolerances. `None`: a collider was removed (`before_step` releases the contact).
#[inline(always)]
pub(super) fn motion<const STEADY: bool, const SLIDE: bool>(
    now: &Now<'_>,
    idx: usize,
    s: &mut PairState,
    o: &Observed,
    pressing: &mut crate::slip::Pressing,
) -> Option<Motion> {
    let StepCtx { bodies, colliders, narrow_phase, dt, slip_speed, belts, .. } = *now.x;
    let (new, [b1, b2], [par1, par2]) = (now.new, now.b, now.parents);
    let (dynamic1, dynamic2) = (b1.is(DYNAMIC), b2.is(DYNAMIC));
    let (normal_a, normal, point, [p1, p2], held) = (o.normal_a, o.normal, o.point, o.p, o.held);
    // Relative kinematics after the step, each body at its own contact point (the
    // points the solver's friction rows use).
    let (v1, v2) = (b1.velocity_at(p1), b2.velocity_at(p2));
    // Slip relative to a conveyor surface the user's hook set (`tangent_velocity`; none:
    // no belt to take off).
    let dv = match new {
        Some(p) => v2 - v1 - Vec3A::from(p.belt),
        None if STEADY || belts.is_empty() => v2 - v1,
        None => v2 - v1 - Vec3A::from(now.x.belt_of(idx)),
    };
    let slip = dv - normal_a * dv.dot(normal_a);
    let (w1, w2) = (b1.angvel, b2.angvel);
    let w = w2 - w1;
    let wn = w.dot(normal_a);
    let wt = w - normal_a * wn;
    let (dv, slip, wt) = (Vector::from(dv), Vector::from(slip), Vector::from(wt));
    // Thresholds. Stick → slip as in docs/tracking.md §2.2/§3.4/§4.2: when the deflection accumulated
    // while sticking (slide offset S, roll angle Θ, spin angle Ψ) exceeds the static
    // threshold of the material (μs N/K_E, Θ^s, 𝒮_s^ψ). Slip → stick when the relative
    // velocity falls below `slip_speed` (angular: `slip_speed·κ̄`).
    let (k1, k2) = match s.curvature {
        Some(k) => k,
        None => {
            // New contact: curvatures along the current rolling direction.
            let dir = if wt.length() > 1e-6 { normal.cross(wt).normalize() } else { any_perp(normal) };
            measure_curvature(s, colliders, point, normal, dir)?
        }
    };
    let d = if SLIDE { s.derived_slide(s.n, (k1, k2)) } else { s.derived(s.n, (k1, k2)) };
    let (roll_eps, spin_eps) = angular_slip_speeds(slip_speed, (k1, k2));
    let loaded = s.n > 0.0;
    // A held rolling contact: the roll motor acts in every substep of the step, the
    // friction only in those with a normal impulse (rapier's solver reads a gap at a
    // rolling body's contact late in the step, see `crate::rolling`), and the motor's torque
    // there leaves the contact slipping by up to what it turns the bodies at the contact
    // point in a step. Any other contact: rapier's solver leaves a small apparent slip on
    // fast rolling contacts (its lever arms are frozen over the step), and 1 % of the
    // relative body speed is ignored.
    let tol = if held {
        if s.joint.is_some() || s.torque.planned {
            motor_slip(s, now.rbs(), point, dt)
        } else {
            0.0
        }
    } else {
        0.01 * (b2.linvel - b1.linvel).length()
    };
    let slide_eps = slip_speed + tol;
    // A body pressed into supports with different normals: the solver's approach
    // velocity into one reads as slip at the other. Measured without it, and within
    // the part of it that lies in this contact's tangent plane (`crate::slip`).
    let on_support = !(dynamic1 && dynamic2);
    let (slip, tol, slide_eps) =
        if on_support && crate::slip::may_be_pressing(slip, dv, normal, slide_eps, slip_speed) {
            let (slip, extra) = pressing.slip(dv, normal, [par1, par2], bodies, colliders, narrow_phase, dt);
            (slip, tol + extra, slide_eps + extra)
        } else {
            (slip, tol, slide_eps)
        };
    Some(Motion { slip, wt, wn, kappas: (k1, k2), d, roll_eps, spin_eps, loaded, tol, slide_eps })
}

/// Measures the curvatures of contact `s`'s two surfaces at `point` (normal `normal`, from the
/// first collider to the second) along the direction of motion `dir`, and stores them in the
/// contact (its per-newton parameters go with them). `None`: a collider was removed
/// (`before_step` releases the contact).
#[inline]
pub(super) fn measure_curvature(
    s: &mut PairState,
    colliders: &ColliderSet,
    point: Vector,
    normal: Vector,
    dir: Vector,
) -> Option<(Curvature, Curvature)> {
    let (Some(col1), Some(col2)) = (colliders.get(s.c1), colliders.get(s.c2)) else { return None };
    let k = (collider_curvature(col1, point, normal, dir), collider_curvature(col2, point, -normal, dir));
    s.curvature = Some(k);
    s.per_newton = None;
    Some(k)
}

/// Whether the one dynamic side of the contact between `cols` (a body with a single collider)
/// touches nothing else: the body whose roll stopped is then held by this contact alone, and
/// its friction may act in the body's centre-of-mass plane for a step
/// (`hooks::friction_in_com_plane`) without changing how the load is shared between contacts.
pub(super) fn touches_nothing_else(
    narrow_phase: &NarrowPhase,
    cols: [ColliderHandle; 2],
    rbs: [Option<&RigidBody>; 2],
) -> bool {
    let dynamic = |k: usize| rbs[k].filter(|b| b.is_dynamic()).map(|b| (cols[k], b));
    let Some((c, rb)) = (match (dynamic(0), dynamic(1)) {
        (Some(d), None) | (None, Some(d)) => Some(d),
        _ => None,
    }) else {
        return false;
    };
    rb.colliders().len() == 1
        && narrow_phase.contact_pairs_with(c).filter(|p| p.has_any_active_contact()).nth(1).is_none()
}

/// The largest slip the roll motor of contact `s` (bound `roll_cap` about `roll_axis`, as
/// planned for this step) gives its bodies `rbs` at the contact `point` in a step of `dt`: for
/// each dynamic body, `|I⁻¹ T dt × a|` with `a` the arm from its centre of mass.
pub(super) fn motor_slip(s: &PairState, rbs: [Option<&RigidBody>; 2], point: Vector, dt: f32) -> f32 {
    let impulse = s.roll_axis * (s.roll_cap * dt);
    let turn = |rb: Option<&RigidBody>| match rb.filter(|b| b.is_dynamic()) {
        Some(b) => (b.mass_properties().effective_world_inv_inertia * impulse)
            .cross(point - b.center_of_mass())
            .length(),
        None => 0.0,
    };
    let slip = turn(rbs[0]) + turn(rbs[1]);
    if slip.is_finite() {
        slip
    } else {
        0.0
    }
}

/// The normal and friction impulses rapier keeps to warm-start the next step of `pair` (its last
/// substep's): the sum of the normal impulses and the friction impulse in world space (the
/// impulse on the first body; the second gets its opposite). The
/// simplified friction model (rapier's default) has one friction impulse per manifold, stored on
/// each of its points; the Coulomb model one per point.
pub(super) fn warm_impulses(pair: &ContactPair, params: &IntegrationParameters) -> (f32, Vector) {
    let per_manifold = params.friction_model == crate::rapier3d::dynamics::FrictionModel::Simplified;
    let (mut n, mut f) = (0.0f32, Vector::ZERO);
    for m in pair.solver_manifolds() {
        let (mut fm, mut count) = (Vector::ZERO, 0.0f32);
        for c in &m.data.solver_contacts {
            if let Some(p) = m.points.get(c.contact_indices()[0] as usize) {
                n += p.data.warmstart_impulse.max(0.0);
                fm += p.data.warmstart_tangent_world;
                count += 1.0;
            }
        }
        f += if per_manifold && count > 0.0 { fm / count } else { fm };
    }
    (n, f)
}

/// The normal and friction impulses of `pair`'s last substep, summed over its solver contacts'
/// points (rapier's generic constraints keep each point's own friction impulse).
pub(super) fn point_impulses(pair: &ContactPair) -> (f32, Vector) {
    let (mut n, mut f) = (0.0f32, Vector::ZERO);
    for m in pair.solver_manifolds() {
        for c in &m.data.solver_contacts {
            if let Some(p) = m.points.get(c.contact_indices()[0] as usize) {
                n += p.data.warmstart_impulse.max(0.0);
                f += p.data.warmstart_tangent_world;
            }
        }
    }
    (n, f)
}

/// The bodies the anchors of manifold `m`'s solver contacts are mapped to the world with, for
/// side 1 and side 2 (`b1`, `b2`: the contact's bodies): [`BodyNow::WORLD`], which leaves an
/// anchor as it is, for a side without a body or whose anchors are in world space already
/// (rapier's solver treats the side with the lower dominance as fixed and keeps its anchors in
/// world space).
#[inline(always)]
pub(super) fn manifold_frames<'a>(
    m: &ContactManifold,
    b1: &'a BodyNow,
    b2: &'a BodyNow,
) -> (&'a BodyNow, &'a BodyNow) {
    let dominance = m.data.relative_dominance;
    let world = &BodyNow::WORLD;
    (
        if m.data.rigid_body1.is_some() && dominance <= 0 { b1 } else { world },
        if m.data.rigid_body2.is_some() && dominance >= 0 { b2 } else { world },
    )
}

/// The relative angular speeds below which a roll and a spin count as settled:
/// `slip_speed · max(½(κ_i + κ_j), 10⁻³)` along the rolling direction and
/// `slip_speed · max(κ̄_i + κ̄_j, 10⁻³)` about the normal.
#[inline]
pub(super) fn angular_slip_speeds(slip_speed: f32, (k1, k2): (Curvature, Curvature)) -> (f32, f32) {
    let roll = (0.5 * (k1.directional + k2.directional) as f32).max(1e-3);
    let spin = ((k1.mean + k2.mean) as f32).max(1e-3);
    (slip_speed * roll, slip_speed * spin)
}

/// Whether a dynamic body of the contact between bodies `parents` (`rbs`) is on one of the
/// user's impulse joints or is a multibody link.
#[inline(always)]
pub(super) fn contact_on_joints(
    view: &StoreView<'_>,
    parents: [Option<RigidBodyHandle>; 2],
    rbs: [Option<&RigidBody>; 2],
    joints: &ImpulseJointSet,
) -> bool {
    (view.user_joints && on_user_joints(parents, rbs, joints))
        || (!view.multibody_links.is_empty() && dynamic_on_multibody(view.multibody_links, parents, rbs))
}

/// Whether a dynamic body among `rbs` (handles `parents`) is on one of the user's joints (a
/// joint without tribo's marker).
fn on_user_joints(
    parents: [Option<RigidBodyHandle>; 2],
    rbs: [Option<&RigidBody>; 2],
    joints: &ImpulseJointSet,
) -> bool {
    rbs.iter().zip(parents).any(|(rb, p)| {
        rb.is_some_and(|b| b.is_dynamic())
            && p.is_some_and(|h| joints.attached_joints(h).any(|(_, _, _, j)| !is_tribo_joint(j)))
    })
}
