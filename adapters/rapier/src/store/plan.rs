//! Plan: a contact's next step, the last stage of the per-contact pipeline (`pipeline`) and
//! what `before_step` runs for contacts that wait for a plan or have a Contensou model: the
//! hook's friction coefficient and anchor pull-back, the roll/spin motor (frame, targets,
//! torque bounds).
//!
//! Reads the contact's tracked state (modes, deflections, holds, kinetic drop, roll-stop
//! geometry), its curvatures (measured again through `observe` when they depend on the roll
//! axis), the bodies' velocities and rotations, and the user's joints (`motor_body`). Writes
//! the contact's `Plan`, roll axis and capacities, and its motor through the contact's
//! `effects`.

use super::bodies::{BodyNow, MASS_OK};
use super::effects::{Direct, Effects, Slot, StoreView};
use super::motor::{set_motor, MotorRows};
use super::observe::{angular_slip_speeds, contact_on_joints, measure_curvature, Motion, Now, StepCtx};
use super::*;
use crate::rapier3d::parry::math::Vec3A;

/// Plans contact `c` for the next step from its modes, deflections and last normal force: the
/// hook's friction coefficient and anchor pull-back, and the roll/spin motor (created, updated
/// in place or removed, through `fx`). Zero-mass dynamic bodies switch the contact to stock
/// (`masses_valid`: the caller has checked both bodies' masses in this step).
///
/// A slide-only contact (no roll or spin capacity, no Contensou model, curvatures that do not
/// depend on the direction) is planned here; the rest in [`plan_torques`].
#[allow(clippy::too_many_arguments)]
#[inline(always)]
pub(super) fn plan_contact<E: Effects>(
    c: &mut Slot<'_>,
    view: &StoreView<'_>,
    colliders: &ColliderSet,
    parents: [Option<RigidBodyHandle>; 2],
    bodies: &RigidBodySet,
    anchor: Option<&(RigidBodyHandle, Pose)>,
    dt: f32,
    derived: Option<&Derived>,
    masses_valid: bool,
    fx: &mut E,
) {
    let Some(on_joints) = plan_start(c, view, parents, bodies, masses_valid, fx) else { return };
    let s = &*c.s;
    // Slide only (no roll or spin resistance, no Contensou model): the friction coefficient
    // and the anchor pull-back are the whole plan.
    if let (None, true, Some(d)) = (&s.contensou_model, s.kappa_const && s.curvature.is_some(), derived) {
        let torque = d.roll_capacity(s.roll) > 0.0 || d.spin_capacity(s.spin) > 0.0;
        if !torque {
            plan_slide_only(c, view, dt, on_joints, fx);
            return;
        }
    }
    let rbs = parents.map(|p| p.and_then(|b| bodies.get(b)));
    // The bodies the motor joins (see `motor_body`).
    let sides = if on_joints && view.user_joints {
        let sides = parents.map(|p| p.map(|h| motor_body(h, bodies, fx.joints())));
        if sides[0] == sides[1] {
            parents
        } else {
            sides
        }
    } else {
        parents
    };
    let motor = (sides, sides.map(|p| p.and_then(|b| bodies.get(b))));
    plan_torques(c, view, colliders, parents, rbs, motor, anchor, dt, derived, on_joints, fx);
}

/// [`plan_contact`] without derived parameters at hand and with the bodies' masses still to
/// check (a contact that waits for a plan, or a stock fallback).
#[allow(clippy::too_many_arguments)]
pub(super) fn replan<E: Effects>(
    c: &mut Slot<'_>,
    view: &StoreView<'_>,
    colliders: &ColliderSet,
    parents: [Option<RigidBodyHandle>; 2],
    bodies: &RigidBodySet,
    anchor: Option<&(RigidBodyHandle, Pose)>,
    dt: f32,
    fx: &mut E,
) {
    plan_contact(c, view, colliders, parents, bodies, anchor, dt, None, false, fx);
}

/// What every plan does first: a dynamic body with zero (or non-finite) mass switches the
/// contact to stock (`None`: planned so; `masses_valid`: the caller has checked both bodies'
/// masses in this step), else the contact is tribo's again and waits for no plan. Returns
/// whether a dynamic body of the contact is on the user's joints.
#[inline(always)]
fn plan_start<E: Effects>(
    c: &mut Slot<'_>,
    view: &StoreView<'_>,
    parents: [Option<RigidBodyHandle>; 2],
    bodies: &RigidBodySet,
    masses_valid: bool,
    fx: &mut E,
) -> Option<bool> {
    let rbs = || parents.map(|p| p.and_then(|b| bodies.get(b)));
    if !masses_valid && zero_mass_fallback(c, parents, rbs(), fx) {
        return None;
    }
    // A body on the user's joints (a wheel on its axle, on an impulse or a multibody joint)
    // is not pulled back: its contact cannot return it alone. The wheels of a cart at rest
    // turn and move with the chassis, and the pull-backs of their four contacts, whose
    // deflections do not describe one rigid motion of the cart, fight through it: the cart
    // jitters (its wheels at up to 6.9e-3 rad/s at dt = 1/30) and never falls asleep. Their
    // friction and the motors' velocity targets hold it.
    let on_joints = contact_on_joints(view, parents, rbs(), fx.joints());
    c.plan.stock = false;
    c.s.pending = false;
    Some(on_joints)
}

/// [`plan_contact`] of a contact known to be slide only (no roll or spin capacity, no
/// Contensou model, curvatures that do not depend on the direction, no motor).
#[inline(always)]
pub(super) fn plan_slide<E: Effects>(
    c: &mut Slot<'_>,
    view: &StoreView<'_>,
    parents: [Option<RigidBodyHandle>; 2],
    bodies: &RigidBodySet,
    dt: f32,
    masses_valid: bool,
    fx: &mut E,
) {
    if let Some(on_joints) = plan_start(c, view, parents, bodies, masses_valid, fx) {
        plan_slide_only(c, view, dt, on_joints, fx);
    }
}

/// The plan of a slide-only contact: the friction coefficient of its slide mode and the
/// anchor pull-back, no roll or spin capacity (its motor, if any, without rows).
#[inline(always)]
fn plan_slide_only<E: Effects>(c: &mut Slot<'_>, view: &StoreView<'_>, dt: f32, on_joints: bool, fx: &mut E) {
    let (s, plan) = (&mut *c.s, &mut *c.plan);
    let (mu, tv) = (s.material.mu(s.slide) as f32, slide_pull(s, &view.settings, dt, on_joints));
    plan.mu = if mu.is_finite() { mu } else { 0.0 };
    plan.tangent_velocity = if finite(tv) { tv } else { Vector::ZERO };
    plan.collapse = false;
    s.roll_cap = 0.0;
    s.spin_cap = 0.0;
    if s.torque.started || s.torque.planned {
        s.torque.clear();
    }
    if s.joint.is_some_and(|h| !fx.clear_motor_rows(h)) {
        s.joint = None;
    }
}

/// Whether contact `c` falls back to stock friction for a dynamic body with zero (or
/// non-finite) mass among `rbs` (reported once, its motor removed).
#[cold]
#[inline(never)]
fn zero_mass_fallback<E: Effects>(
    c: &mut Slot<'_>,
    parents: [Option<RigidBodyHandle>; 2],
    rbs: [Option<&RigidBody>; 2],
    fx: &mut E,
) -> bool {
    for (h, rb) in parents.into_iter().zip(rbs) {
        if let (Some(h), Some(rb)) = (h, rb) {
            let mass = rb.mass();
            if rb.is_dynamic() && !(mass > 0.0 && mass.is_finite()) {
                fx.report_once(Diagnostic::ZeroMassBody { body: h });
                c.s.pending = false;
                c.plan.stock = true;
                c.s.torque.clear();
                if let Some(j) = c.s.joint.take() {
                    fx.remove_joint(j);
                }
                return true;
            }
        }
    }
    false
}

/// A kinetic roll (`k` = 0) or spin (`k` = 1) whose remaining relative speed `speed` is less
/// than what the kinetic torque took off in the last step stops within this step: its motor
/// carries only that fraction of the torque, so the rotation ends at zero instead of
/// overshooting into a reverse motion that the stick phase would then have to pull back.
#[inline(always)]
fn last_step(s: &PairState, k: usize, mode: Mode, speed: f32) -> f32 {
    let drop = s.kinetic_drop[k];
    if mode == Mode::Kinetic && drop > 0.0 && speed < drop {
        speed / drop
    } else {
        1.0
    }
}

/// The plan of a contact with roll or spin resistance or a Contensou model (see
/// [`plan_contact`], which has set `stock` and `pending`): the slide coefficient and pull-back,
/// and the motor joint's frame, targets and torque bounds.
#[allow(clippy::too_many_arguments)]
#[inline(never)]
fn plan_torques<E: Effects>(
    c: &mut Slot<'_>,
    view: &StoreView<'_>,
    colliders: &ColliderSet,
    parents: [Option<RigidBodyHandle>; 2],
    rbs: [Option<&RigidBody>; 2],
    (sides, [side1, side2]): ([Option<RigidBodyHandle>; 2], [Option<&RigidBody>; 2]),
    anchor: Option<&(RigidBodyHandle, Pose)>,
    dt: f32,
    derived: Option<&Derived>,
    on_joints: bool,
    fx: &mut E,
) {
    let settings = view.settings;
    let gain = settings.anchor_gain;
    let damping = settings.motor_damping;
    let slip_speed = settings.slip_speed;
    let slot = c.i;
    let s = &mut *c.s;
    let plan = &mut *c.plan;
    let pull = |d: Vector, limit: f32| pull_back(d, gain, dt, limit);

    // Geometry and capacities (the vector arithmetic in SIMD vectors).
    let n = s.normal;
    let point = s.point;
    let na = Vec3A::from(n);
    let (w, wt, ea, eza) = roll_axis(s, view, parents, rbs);
    let (e, ez) = (Vector::from(ea), Vector::from(eza));
    let Some((k1, k2, d)) = torque_params(s, colliders, derived, ez) else { return };
    let mat = &s.material;
    let roll_cap = d.roll_capacity(s.roll) as f32;
    let spin_cap = d.spin_capacity(s.spin) as f32;
    let mu = mat.mu(s.slide) as f32;
    let (mu, spin_cap, (cz_tilt, cz_level)) =
        contensou_limits(s, rbs, (mu, spin_cap), k1.mean + k2.mean, (e, ez), &settings, dt);
    plan.collapse = s.contensou_model.is_some() && s.contensou.collapse;
    // Anchor pull-back of a sticking contact: `gain` of the deflection per step, at most at
    // the slip-detection speed. Faster pull-back makes the several contacts of a body in a
    // pile fight each other (they cannot all return to their anchors) and keeps it jittering.
    let (roll_eps, spin_eps) = angular_slip_speeds(slip_speed, (k1, k2));
    let tv = slide_pull(s, &settings, dt, on_joints) + if on_joints { Vector::ZERO } else { s.roll_fix };
    // Motor targets: pull a sticking roll/spin back the same way.
    // A contact held after its onset (see `hold_step`) returns its first step's deflection
    // at the full gain: that deflection is an artefact of the missing first motor step, and
    // the body may fall asleep before a pull-back at the slip-detection speed ends.
    let (roll_lim, spin_lim) = (
        if s.hold & HOLD_ROLL != 0 { f32::MAX } else { roll_eps },
        if s.hold & HOLD_SPIN != 0 { f32::MAX } else { spin_eps },
    );
    let roll_target =
        if s.roll == Mode::Static && !on_joints { pull(s.roll_defl, roll_lim) } else { Vector::ZERO };
    let spin_target =
        if s.spin == Mode::Static { (-s.spin_defl * (gain / dt)).clamp(-spin_lim, spin_lim) } else { 0.0 };
    let geometry_ok = na.is_finite() && Vec3A::from(point).is_finite();
    // A rolling contact: one roll row, along the axis chosen above (an isotropic, circular
    // roll limit). A sticking one whose curvatures do not depend on the direction (a ball):
    // a second row across it, with the same bound, so that the roll is held about every axis
    // in the contact plane (a ball stopped rolling up a slope, its stop leaving it turning
    // slowly across its rolling axis, had its one row turned across and the slope's load
    // unresisted: it crept down 0.5 mm at dt = 1/60). (A cylinder's capacity across its
    // rolling axis is another: one row.) So does a kinetic roll that barely turns (below the
    // roll's slip speed): its axis is the direction of noise (a marble at rest on a mesh
    // bowl's facet, its static roll turned kinetic by a deflection past its threshold, had
    // its one row across the facet's slope and rolled off at 0.4 rad/s). Only on a body's one
    // support (its contact held, or its roll stopped, there: `after_step`): a body with
    // several contacts has its turn held by their friction together, and second rows on
    // every contact of a pile of spheres left the solver's iterations short (the
    // benchmark piles fell asleep 0.4 s later).
    let at_rest = s.roll == Mode::Static || wt.length() <= roll_eps;
    let one_support = plan.hold_radius > 0.0 || plan.roll_stopped;
    let across = if at_rest && one_support && s.kappa_const { roll_cap } else { 0.0 };
    let (roll_y, roll_z) = (roll_cap.max(cz_tilt[0]), cz_tilt[1].max(across));
    // The motor's bodies (`sides`, see `motor_body`): a side without a body or on a fixed body
    // is the world.
    let world1 = side1.is_none_or(|b| b.is_fixed());
    let world2 = side2.is_none_or(|b| b.is_fixed());
    let need_joint = (roll_y > 0.0 || roll_z > 0.0 || spin_cap > 0.0) && geometry_ok && !(world1 && world2);
    let roll_target = roll_target + cz_level;

    let (roll_f, spin_f) = (last_step(s, 0, s.roll, wt.length()), last_step(s, 1, s.spin, w.dot(na).abs()));
    plan.mu = if mu.is_finite() { mu } else { 0.0 };
    plan.tangent_velocity = if finite(tv) { tv } else { Vector::ZERO };
    s.roll_axis = e;
    s.roll_cap = roll_cap;
    s.spin_cap = spin_cap;
    if settings.roll_spin == RollSpin::Torques && !on_joints && s.contensou_model.is_none() {
        // Torques instead of a motor (see `torques`).
        if let Some(h) = s.joint.take() {
            fx.remove_joint(h);
        }
        let counts = parents.map(|p| view.torques.contacts_of(p));
        let sides = super::torques::Sides::new(rbs, counts, (point, n), s.slide);
        let roll_target = Vec3A::from(roll_target);
        // The first torque step also carries what the contact's first step lacked (as the
        // motor's first step does, see below).
        let onset = |bit: u8| if !s.torque.planned && s.hold & bit != 0 { 2.0 } else { 1.0 };
        let rows = need_joint.then(|| super::torques::Rows {
            axes: [n, e, ez],
            targets: [spin_target, roll_target.dot(ea), roll_target.dot(eza)],
            caps: [
                spin_cap * onset(HOLD_SPIN) * spin_f,
                roll_y * onset(HOLD_ROLL) * roll_f,
                roll_z * onset(HOLD_ROLL) * roll_f,
            ],
            inertia: [0.0; 3],
        });
        s.torque.plan_rows(Vector::from(w), rows, dt, &sides);
        plan.mu = s.torque.friction_left(plan.mu, s.n, s.roll);
        return;
    }
    if s.torque.started || s.torque.planned {
        s.torque.clear();
    }
    if !need_joint {
        // A motor rapier removed (with a body, the collider kept) is no motor any more.
        if s.joint.is_some_and(|h| !fx.clear_motor_rows(h)) {
            s.joint = None;
        }
        return;
    }
    let (frame1, frame2) = motor_frames((n, e, ez), anchor, (world1, world2), [side1, side2]);
    let roll_target = Vec3A::from(roll_target);
    let targets = [spin_target, roll_target.dot(ea), roll_target.dot(eza)];
    // The contact's first motor step also carries the static impulse its first step lacked
    // (no motor existed then, see `hold_step`): a body set down at rest within its static
    // capacity is stopped within this step instead of drifting while a single step's
    // capacity decelerates it.
    let onset = |bit: u8| if s.joint.is_none() && s.hold & bit != 0 { 2.0 } else { 1.0 };
    let caps = [
        spin_cap * onset(HOLD_SPIN) * spin_f,
        roll_y * onset(HOLD_ROLL) * roll_f,
        roll_z * onset(HOLD_ROLL) * roll_f,
    ];
    let rows = MotorRows { frames: (frame1, frame2), targets, caps, damping };
    attach_motor(s, slot, &rows, sides, (world1, world2), anchor, fx);
}

/// The roll axis of contact `s` for the next step (see [`plan_torques`]), from the bodies `rbs`
/// (handles `parents`): the relative angular velocity `w` of the bodies, its tangential part
/// `wt`, the axis `ea` and `eza` = n × `ea`.
#[inline(always)]
fn roll_axis(
    s: &PairState,
    view: &StoreView<'_>,
    parents: [Option<RigidBodyHandle>; 2],
    rbs: [Option<&RigidBody>; 2],
) -> (Vec3A, Vec3A, Vec3A, Vec3A) {
    let [rb1, rb2] = rbs;
    let n = s.normal;
    let na = Vec3A::from(n);
    let tangential = |v: Vec3A| v - na * v.dot(na);
    // Roll axis: the stick deflection (static) or the rolling direction (relative angular
    // velocity), else the previous axis; always re-projected on the tangent plane.
    let angvel = |rb: Option<&RigidBody>| rb.map_or(Vec3A::ZERO, |b| Vec3A::from(b.angvel()));
    let w = angvel(rb2) - angvel(rb1);
    let wt = tangential(w);
    let (roll_defl, roll_axis) = (Vec3A::from(s.roll_defl), Vec3A::from(s.roll_axis));
    let cand = match s.roll {
        // Sticking: along the accumulated roll deflection (the direction the load turns the
        // body); rolling: along the rolling axis.
        // A deflection small against the static threshold (pulled back, or noise) keeps the
        // previous axis: its direction says nothing about the load, and a single roll row
        // off the load direction would leave the rest of the load unresisted. A wheel on a
        // revolute multibody joint turns about its axle only: the row lies along the axle.
        Mode::Static if roll_defl.length() > (0.5 * s.roll_threshold).max(1e-7) => tangential(roll_defl),
        Mode::Static
            if let Some(a) = multibody_axle(view.multibody_links, parents, rbs)
                .map(|a| tangential(a.into()))
                .filter(|a| a.length() > 1e-3) =>
        {
            a
        }
        Mode::Static if roll_axis != Vec3A::ZERO => tangential(roll_axis),
        _ if wt.length() > 1e-6 => wt,
        _ => tangential(roll_axis),
    };
    let cand_len = cand.length();
    let ea = if cand_len > 1e-6 && cand.is_finite() { cand * (1.0 / cand_len) } else { any_perp(n).into() };
    let eza = na.cross(ea);
    (w, wt, ea, eza)
}

/// The surfaces' curvatures of contact `s` about roll axis `ez` (the direction of motion of a
/// body rolling about `e`) and the material's parameters for its load (`derived`: those
/// `after_step` computed, if at hand). `None`: a collider was removed (`before_step` releases
/// the contact).
#[inline(always)]
fn torque_params(
    s: &mut PairState,
    colliders: &ColliderSet,
    derived: Option<&Derived>,
    ez: Vector,
) -> Option<(Curvature, Curvature, Derived)> {
    let (n, point, nf) = (s.normal, s.point, s.n);
    // Curvatures along the direction of motion of a body rolling about e (both balls or
    // flat shapes: independent of the direction, computed once).
    // The derived parameters of `after_step` hold unless the curvatures change with the axis.
    let (k1, k2, d) = match (s.curvature, derived) {
        (Some(k), Some(d)) if s.kappa_const => (k.0, k.1, *d),
        (Some(k), None) if s.kappa_const => (k.0, k.1, derive(&s.material, nf, k)),
        // A step without load (a hop): its normal and point come from a manifold that does
        // not touch (a rolling cylinder's can point along its axis, at its end face) and say
        // nothing of the surfaces: the curvatures of the last loaded step stay.
        (Some(k), d) if nf.is_nan() || nf <= 0.0 => {
            (k.0, k.1, d.copied().unwrap_or_else(|| derive(&s.material, nf, k)))
        }
        _ => {
            // A collider was removed: `before_step` releases the contact.
            let k = measure_curvature(s, colliders, point, n, ez)?;
            (k.0, k.1, derive(&s.material, nf, k))
        }
    };
    Some((k1, k2, d))
}

/// The Contensou contact model's coupled slide/spin limits and flat-face tipping support
/// (`crate::contensou::step_limits`) of contact `s` in the frame `(e, ez)` of its roll axis, or
/// the plain friction coefficient and spin capacity `(mu, spin_cap)` without a model.
#[inline(always)]
fn contensou_limits(
    s: &mut PairState,
    [rb1, rb2]: [Option<&RigidBody>; 2],
    (mu, spin_cap): (f32, f32),
    mean_curvature: f64,
    (e, ez): (Vector, Vector),
    settings: &Settings,
    dt: f32,
) -> (f32, f32, ([f32; 2], Vector)) {
    let (n, point, nf, mat) = (s.normal, s.point, s.n, &s.material);
    let (gain, slip_speed) = (settings.anchor_gain, settings.slip_speed);
    // Contensou contact model: coupled slide/spin limits and flat-face tipping support.
    let (mu, spin_cap, (cz_tilt, cz_level)) = match &s.contensou_model {
        Some(cfg) => {
            let input = crate::contensou::StepInput {
                contensou: cfg,
                material: mat,
                n: nf,
                normal: n,
                point,
                slide: s.slide,
                spin: s.spin,
                rb1,
                rb2,
                mean_curvature,
                slip_speed,
                axis_y: e,
                axis_z: ez,
                gain,
                dt,
            };
            let o = crate::contensou::step_limits(&input, &mut s.contensou);
            (o.mu, o.spin_cap, (o.tilt, o.level))
        }
        // No model: the Contensou state was cleared with it (`before_step`).
        None => (mu, spin_cap, ([0.0; 2], Vector::ZERO)),
    };
    (mu, spin_cap, (cz_tilt, cz_level))
}

/// The frames of a contact's motor (X = normal `n`, Y = roll axis `e`, Z = `ez`) on its two
/// sides (`world`: the side is the world, attached to the anchor body).
#[inline(always)]
fn motor_frames(
    (n, e, ez): (Vector, Vector, Vector),
    anchor: Option<&(RigidBodyHandle, Pose)>,
    (world1, world2): (bool, bool),
    [side1, side2]: [Option<&RigidBody>; 2],
) -> (Pose, Pose) {
    // Motor frame: X = normal, Y = roll axis, Z = n × Y.
    let world_rot = Rotation::from_mat3(&Mat3::from_cols(n, e, ez)).normalize();
    // A side without a body or on a fixed body is attached to tribo's hidden fixed anchor
    // body: rapier scans the joints of a pair's first body for every contact pair (to honour
    // `contacts_enabled`), so hundreds of motors on one fixed floor body would make each of
    // its contact pairs walk them all.
    // The motor has angular rows only, which rapier builds from the frames' rotations (their
    // translations place linear rows): the frames sit at the bodies' origins.
    let arot = anchor.map_or(Rotation::IDENTITY, |a| a.1.rotation);
    let rot1 = if world1 { arot } else { side1.map_or(Rotation::IDENTITY, |b| *b.rotation()) };
    let rot2 = if world2 { arot } else { side2.map_or(Rotation::IDENTITY, |b| *b.rotation()) };
    let frame1 = Pose::from_parts(Vector::ZERO, rot1.inverse() * world_rot);
    let frame2 = Pose::from_parts(Vector::ZERO, rot2.inverse() * world_rot);
    (frame1, frame2)
}

/// Writes `rows` into contact `s`'s motor between the bodies `sides` (`world`: the side is the
/// world, attached to the anchor body), creating it (or re-attaching it) through `fx`.
#[inline(always)]
fn attach_motor<E: Effects>(
    s: &mut PairState,
    slot: usize,
    rows: &MotorRows,
    sides: [Option<RigidBodyHandle>; 2],
    (world1, world2): (bool, bool),
    anchor: Option<&(RigidBodyHandle, Pose)>,
    fx: &mut E,
) {
    let [p1, p2] = sides;
    let side = |world: bool, p: Option<RigidBodyHandle>| if world { anchor.map(|a| a.0) } else { p };
    let (want1, want2) = (side(world1, p1), side(world2, p2));
    if let Some(h) = s.joint {
        if let (Some(b1), Some(b2)) = (want1, want2) {
            if fx.set_motor(h, [b1, b2], rows) {
                return;
            }
        }
        // Attached to other bodies (a body changed type) or removed by the user: re-attach
        // (a user's joint that took its handle stays).
        fx.remove_joint(h);
        s.joint = None;
    }
    // New motor: attach it, world sides to the anchor body.
    let (Some(b1), Some(b2)) = (want1, want2) else {
        // No anchor body yet (created by the next before_step): plan the motor then.
        s.joint = None;
        s.pending = true;
        fx.need_anchor();
        return;
    };
    let mut j = GenericJoint::new(JointAxesMask::empty());
    j.user_data = TRIBO_JOINT_USER_DATA;
    set_motor(&mut j, rows);
    s.joint = fx.insert_joint(slot, [b1, b2], j);
}

/// The material's per-step parameters for normal force `n` and the two surfaces' curvatures.
#[inline]
pub(super) fn derive(material: &Material, n: f32, (k1, k2): (Curvature, Curvature)) -> Derived {
    material.derive(n as f64, k1.directional + k2.directional, 0.0, k1.mean + k2.mean, 0.0)
}

/// The body a contact's roll/spin motor on dynamic body `h` acts through: `h` itself, or, while
/// one of the user's impulse joints locks every relative rotation between `h` and another
/// body (a fixed joint, or a prismatic joint: a gripper's finger on its slide), the body at
/// that joint's other end, followed up to [`ROOT_HOPS`] such joints (a chain ends at a
/// non-dynamic body, at a body without such a joint, or where it came back to `h`).
///
/// rapier solves the joints before the contacts within each substep, one after another, and
/// does not warm-start them by default: a motor between a heavy object and a light link turns
/// the link with the object, and the link's own joint, solved after it, stops the link again,
/// so only about the share `I_link/(I_link + I_object)` of the motor's impulse reaches the
/// object in each pass (docs/robots.md: a rod pinched by 50 g fingers on impulse joints swung
/// at the gravity torque less half the spin capacity at dt = 1/60, in stock rapier a motor
/// joint between the rod and a finger did nothing). The link cannot turn relative to the body
/// it is locked to, so a motor on that body acts on the same relative rotation, and rapier
/// solves it against a fixed (or heavier) body.
fn motor_body(h: RigidBodyHandle, bodies: &RigidBodySet, joints: &ImpulseJointSet) -> RigidBodyHandle {
    let mut at = h;
    for _ in 0..ROOT_HOPS {
        if !bodies.get(at).is_some_and(|b| b.is_dynamic()) {
            break;
        }
        let next = joints.attached_joints(at).find_map(|(b1, b2, _, j)| {
            let locks = !is_tribo_joint(j) && j.data.locked_axes.contains(JointAxesMask::ANG_AXES);
            locks.then_some(if b1 == at { b2 } else { b1 })
        });
        match next {
            Some(n) if n != h && n != at => at = n,
            _ => break,
        }
    }
    at
}

/// The most rotation-locking joints [`motor_body`] follows from a body.
const ROOT_HOPS: usize = 8;

/// The anchor pull-back of a sticking contact: `anchor_gain` of its slide deflection per step
/// (tangential part), at most at the slip-detection speed. None while the contact rolls, on a
/// body on the user's joints (`on_joints`), or while settled with [`Settings::unhook_settled`]
/// (its deflection is within half its static threshold, and no pull-back lets its colliders
/// leave the hook after the next step, see `settle`).
#[inline(always)]
fn slide_pull(s: &PairState, settings: &Settings, dt: f32, on_joints: bool) -> Vector {
    let gain = settings.anchor_gain;
    if s.slide == Mode::Static
        && s.roll == Mode::Static
        && gain > 0.0
        && !(settings.unhook_settled && s.settled)
        && !on_joints
    {
        let n = s.normal;
        pull_back(s.slide_defl - n * s.slide_defl.dot(n), gain, dt, settings.slip_speed)
    } else {
        Vector::ZERO
    }
}

/// The pull-back velocity of a sticking deflection `d`: `gain` of it per step of `dt`, at most
/// `limit` fast.
#[inline(always)]
fn pull_back(d: Vector, gain: f32, dt: f32, limit: f32) -> Vector {
    (-d * (gain / dt)).clamp_length_max(limit)
}

impl TriboRapier {
    /// [`replan`](fn@replan) of contact `i`, its effects made at once.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn replan(
        &mut self,
        i: usize,
        colliders: &ColliderSet,
        parents: [Option<RigidBodyHandle>; 2],
        bodies: &RigidBodySet,
        anchor: Option<&(RigidBodyHandle, Pose)>,
        dt: f32,
        joints: &mut ImpulseJointSet,
    ) {
        let view = StoreView {
            settings: self.settings,
            user_joints: self.user_joints,
            multibody_links: &self.multibody_links,
            torques: &self.torques,
        };
        let mut fx = Direct::new(joints, &mut self.motors, &mut self.reported, &mut self.diagnostics);
        let mut c = Slot {
            i,
            s: &mut self.contacts.states[i],
            plan: &mut self.contacts.plans[i],
            warm: &self.contacts.warm[i],
        };
        replan(&mut c, &view, colliders, parents, bodies, anchor, dt, &mut fx);
    }
}

/// The plan of contact `c` for the next step, made after its update (`m`: what `observe`
/// measured; `was_settled`: it was settled before this step): kept, or made again.
#[inline(always)]
pub(super) fn plan_next<const SLIDE: bool, E: Effects>(
    now: &Now<'_>,
    c: &mut Slot<'_>,
    m: &Motion,
    was_settled: bool,
    fx: &mut E,
) {
    let StepCtx { bodies, colliders, dt, plan_ok, .. } = *now.x;
    let (anchor, view, [b1, b2], [par1, par2], d) = (&now.x.anchor, now.view, now.b, now.parents, m.d);
    // Plan the next step now, while this contact's bodies and colliders are at hand
    // (Contensou contacts are planned by before_step from the velocities the step starts
    // from). A slide-only contact that was settled and stays settled keeps its plan (μs,
    // no pull-back, no motor: what `plan_contact` would make of it again) while the
    // masses are valid.
    let (s, plan) = (&*c.s, &*c.plan);
    let mass_ok = |h: Option<RigidBodyHandle>, b: &BodyNow| h.is_none() || b.is(MASS_OK);
    let masses_valid = mass_ok(par1, b1) && mass_ok(par2, b2);
    let keep = was_settled
        && s.settled
        && s.slide == Mode::Static
        && masses_valid
        && view.settings.unhook_settled
        && !s.pending
        && (SLIDE || (s.kappa_const && s.joint.is_none()))
        && s.roll_cap == 0.0
        && s.spin_cap == 0.0
        && (SLIDE || (d.roll_capacity(s.roll) == 0.0 && d.spin_capacity(s.spin) == 0.0))
        && !plan.stock
        && !plan.collapse
        && !plan.roll_stopped
        && plan.tangent_velocity == Vector::ZERO
        && plan.mu == s.material.mu_s() as f32;
    if SLIDE && plan_ok && !keep {
        plan_slide(c, view, [par1, par2], bodies, dt, masses_valid, fx);
    } else if plan_ok && s.contensou_model.is_none() && !keep {
        plan_contact(
            c,
            view,
            colliders,
            [par1, par2],
            bodies,
            anchor.as_ref(),
            dt,
            Some(&d),
            masses_valid,
            fx,
        );
    }
}
