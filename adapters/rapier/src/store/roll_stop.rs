//! Roll stop: the rolling geometry of one moving contact's next step, written into its
//! [`Plan`] for the hook: a roll that stopped (or stops in the next step) gets its friction in
//! the body's centre-of-mass plane (`hooks::friction_in_com_plane`, with [`stop_offset`]); a
//! round body rolling on its one support gets the rolling hold (`crate::rolling`, radius
//! [`hold_radius`]) and the slip its roll motor leaves corrected (`PairState::roll_fix`).
//!
//! Reads the tracked modes and kinetic drop (`track`), what `observe` measured, the pair's
//! warm-start impulses and the narrow phase (whether the body touches anything else). Writes
//! `Plan::roll_stopped`, `Plan::hold_radius`, `Plan::stop_offset` and `PairState::roll_fix`.

use super::bodies::{BodyNow, DYNAMIC};
use super::observe::{touches_nothing_else, warm_impulses, Motion, Now, Observed, StepCtx};
use super::*;
use crate::rapier3d::parry::math::Vec3A;

/// Plans the rolling geometry of contact `s` for the next step (`was_rolling`: its roll was
/// kinetic before this step's roll update).
#[inline(always)]
pub(super) fn plan_roll_stop<const SLIDE: bool>(
    now: &Now<'_>,
    s: &mut PairState,
    plan: &mut Plan,
    o: &Observed,
    m: &Motion,
    was_rolling: bool,
) {
    let StepCtx { params, narrow_phase, dt, .. } = *now.x;
    let (pair, [b1, b2], [c1, c2], [par1, par2], view) = (now.pair, now.b, now.cols, now.parents, now.view);
    let Observed { held, returned, unloaded_before, normal, point, .. } = *o;
    let Motion { slip, wt, kappas: (k1, k2), loaded, tol, .. } = *m;
    // The friction acts in the body's centre-of-mass plane for one step after a roll
    // stopped, and in its last kinetic step too (its relative speed below what the
    // kinetic torque took off in the step before, rolling without slip, the friction
    // braking the body): the contacts of a body on joints (a cart's wheels) do not all
    // stop in the same step, and those still rolling would carry their stale braking
    // friction into the step that stops the body.
    let stops_next = !SLIDE
        && s.roll == Mode::Kinetic
        && s.slide == Mode::Static
        && s.kinetic_drop[0] > 0.0
        && wt.length() < s.kinetic_drop[0]
        && friction_brakes(pair, now.rbs(), params);
    // (Only a body that rolls without slip: a roll that stops while the body slides, a
    // ball with backspin turning through zero, keeps the friction's moment.)
    // Both only for a body on this one support (the narrow-phase walk only for a candidate).
    let stopping = (was_rolling && s.roll == Mode::Static) || stops_next;
    let radius = if stopping { 0.0 } else { hold_radius([b1, b2], [k1, k2], point, normal) };
    let alone = (stopping || radius > 0.0) && touches_nothing_else(narrow_phase, [c1, c2], now.rbs());
    let roll_stopped = stopping && alone;
    plan.roll_stopped = roll_stopped;
    plan.hold_radius = if alone { radius } else { 0.0 };
    // A held rolling contact whose roll motor left it slipping at the end of the step (by
    // at most `tol`, the motor's turn in a step): its friction holds that slip's opposite in
    // the next step, so that the step ends rolling.
    s.roll_fix = if held
        && plan.hold_radius > 0.0
        && wt.length() * dt > crate::rolling::HOLD_TURN
        && !(returned || (unloaded_before && loaded))
        && s.joint.is_some()
        && s.slide == Mode::Static
        && s.roll == Mode::Kinetic
        && tol > 0.0
    {
        let fix = (s.roll_fix - slip).clamp_length_max(tol);
        if finite(fix) {
            fix
        } else {
            Vector::ZERO
        }
    } else {
        Vector::ZERO
    };
    // On a multibody link the offset stays zero: the impulses rapier keeps for such a
    // contact do not describe its friction (a rolling multibody cart's wheels show lateral
    // warm-start friction at μ times the normal one), and with an offset from them the
    // cart's chassis moved at up to 9.7e-5 m/s after its stop (1.5e-6 without).
    plan.stop_offset = if roll_stopped && !any_on_multibody(view.multibody_links, [par1, par2]) {
        stop_offset(pair, now.rbs(), point, normal, s.roll_axis, params)
    } else {
        Vector::ZERO
    };
}

/// The radius of a round body's rolling contact, which may be held in the next step (see
/// `crate::rolling`), or 0: exactly one side is dynamic and its surface is round about its
/// centre of mass along the rolling direction (curvatures `kappas`, the contact at `point` with
/// `normal` from the first side to the second). (The hold also needs the body on this one
/// support and turning.)
#[inline]
fn hold_radius(
    bodies: [&BodyNow; 2],
    kappas: [crate::curvature::Curvature; 2],
    point: Vector,
    normal: Vector,
) -> f32 {
    let side = match (bodies[0].is(DYNAMIC), bodies[1].is(DYNAMIC)) {
        (true, false) => 0,
        (false, true) => 1,
        _ => return 0.0,
    };
    let out = if side == 0 { normal } else { -normal };
    let depth = (Vec3A::from(point) - bodies[side].com).dot(Vec3A::from(out));
    let kappa = kappas[side].directional;
    if crate::rolling::is_round(kappa, depth) {
        (1.0 / kappa) as f32
    } else {
        0.0
    }
}

/// The tangential offset of a stopped roll's solver contacts in the step its friction acts in
/// the body's centre-of-mass plane (`hooks::friction_in_com_plane`): with it, the contacts sit
/// where the line of action of the contact's normal force and its friction along the roll axis
/// `axis` (across the rolling direction) crosses that plane, so that force keeps its moment
/// about the centre of mass and only the friction along the rolling direction (the stale
/// deceleration) loses its own. A body on joints carries that moment through them: the loaded
/// cart's wheels carry a lateral friction stress through their axles. From the impulses rapier
/// keeps to warm-start the next step (both its last substep's): with `d` the centre of mass'
/// height over the contact along the normal, `N` the normal and `f` the friction impulse along
/// the axis on the body, the offset is `d f / N` (the same for either side, the normal impulse
/// pushing the second body along the normal). Zero unless one side is dynamic and the normal
/// impulse is positive.
fn stop_offset(
    pair: &ContactPair,
    rbs: [Option<&RigidBody>; 2],
    point: Vector,
    normal: Vector,
    axis: Vector,
    params: &IntegrationParameters,
) -> Vector {
    let dynamic = |k: usize| rbs[k].filter(|b| b.is_dynamic());
    let Some(rb) = (match (dynamic(0), dynamic(1)) {
        (Some(b), None) | (None, Some(b)) => Some(b),
        _ => None,
    }) else {
        return Vector::ZERO;
    };
    // rapier's friction impulse acts on the first collider's body, the normal one pushes the
    // second along the normal: on either side f / N = -(friction on body 1) / (normal impulse).
    // The simplified friction model (rapier's default) has one friction impulse per manifold,
    // stored on each of its points; the Coulomb model one per point.
    let (n, f) = warm_impulses(pair, params);
    let axis = axis - normal * axis.dot(normal);
    let (l2, d) = (axis.length_squared(), (rb.center_of_mass() - point).dot(normal));
    let s = -axis * (f.dot(axis) / l2) * (d / n);
    if n > 0.0 && l2 > 0.0 && finite(s) {
        s
    } else {
        Vector::ZERO
    }
}

/// Whether the friction of `pair` brakes its one dynamic body: the friction impulse on that body
/// (from the impulses rapier warm-starts the next step with) points against the velocity of its
/// centre of mass relative to the other side. A roll the kinetic torque brings to rest
/// decelerates the body through that friction; a roll that reverses under a load (a ball
/// rolling up a slope, whose friction pushes it up the slope) is not braked by it.
fn friction_brakes(pair: &ContactPair, rbs: [Option<&RigidBody>; 2], params: &IntegrationParameters) -> bool {
    let dynamic = |k: usize| rbs[k].filter(|b| b.is_dynamic());
    let (rb, sign, other) = match (dynamic(0), dynamic(1)) {
        (Some(b), None) => (b, 1.0f32, rbs[1]),
        (None, Some(b)) => (b, -1.0f32, rbs[0]),
        _ => return false,
    };
    let (_, f) = warm_impulses(pair, params);
    // The body's velocity relative to its support (a moving platform), and the friction impulse
    // on the body.
    let v = rb.linvel() - other.map_or(Vector::ZERO, |o| o.velocity_at_point(rb.center_of_mass()));
    sign * f.dot(v) < 0.0
}
