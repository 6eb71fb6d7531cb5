//! Track: the stick/slip machines of one moving contact's slide, roll and spin (docs/tracking.md
//! §2.2, §3.4, §4.2; the machine itself: `modes`), their onset holds, the bound each reached
//! on the user's joints, and the kinetic drop of the last step.
//!
//! Reads what `observe` measured ([`Observed`], [`Motion`]), the bodies' poses (onset holds), the
//! pair's impulses and the contact's motor (bounds reached on the user's joints). Writes the
//! contact's modes, deflections, holds and onset anchors.

use super::effects::StoreView;
use super::modes::{advance_mode, hold_step};
use super::observe::{
    contact_on_joints, point_impulses, touches_nothing_else, warm_impulses, Motion, Now, Observed, StepCtx,
};
use super::*;

/// Tracks contact `s`'s slide, roll and spin over the step. Returns whether its roll was
/// kinetic before this step's roll update (a roll that stops in this step: see `roll_stop`).
#[inline(always)]
pub(super) fn track<const STEADY: bool, const SLIDE: bool>(
    now: &Now<'_>,
    s: &mut PairState,
    o: &Observed,
    m: &Motion,
    joints: &ImpulseJointSet,
) -> bool {
    if let Some(p) = now.new {
        onset_anchors(now, s, o, p);
    }
    let view = now.view;
    // A contact of a body on the user's joints (no anchor pull-back) turns kinetic only once
    // its friction or motor reached its bound: see `bounds_reached`.
    let bounds = if view.user_joints || !view.multibody_links.is_empty() {
        bounds_reached(view, now.parents, now.rbs(), (now.pair, now.x.params, s.applied_mu), s.joint, joints)
            .map(Some)
    } else {
        [None; 3]
    };
    track_slide::<STEADY>(now, s, o, m, bounds[0]);
    let was_rolling = !SLIDE && s.roll == Mode::Kinetic;
    kinetic_drop::<SLIDE>(now, s, m);
    track_roll::<STEADY, SLIDE>(now, s, o, m, bounds[1], was_rolling);
    track_spin::<STEADY, SLIDE>(now, s, o, m, bounds[2]);
    was_rolling
}

/// The onset anchors of a contact new in this step (`p`: what the hook saw when it began).
///
/// While the slide is held (see `hold_step`) its deflection is the offset of the material
/// points that touched when the contact began, from the bodies' poses: rapier's
/// normal force builds up over a contact's first step, and the friction bound with
/// it, so a body set down on a slope slides a little before the contact holds, and
/// the pull-back that returns it moves it in substeps (the velocities after a step
/// say little of how far it went).
#[cold]
#[inline(never)]
fn onset_anchors(now: &Now<'_>, s: &mut PairState, o: &Observed, p: &NewPair) {
    let ([p1, p2], point) = (o.p, o.point);
    let [rb1, rb2] = now.rbs();
    // Each side's moving body and its pose when the step began (none: the side is
    // fixed in the world).
    let sides = [(rb1, p.start[0]), (rb2, p.start[1])].map(|side| match side {
        (Some(rb), Some(start)) if !rb.is_fixed() => Some((rb, start)),
        _ => None,
    });
    // Where the surfaces touched when the step began: each side's point less its
    // body's motion over the step (`p1`, `p2` moved with their centres of mass).
    let back = |q: Vector, side: Option<(&RigidBody, (Vector, Rotation))>| {
        side.map_or(q, |(rb, (com, _))| q - (rb.center_of_mass() - com))
    };
    let p0 = (back(p1.into(), sides[0]) + back(p2.into(), sides[1])) * 0.5;
    let p0 = if finite(p0) { p0 } else { point };
    s.slide_anchor = sides.map(|side| side.map_or(p0, |(_, (com, rot))| rot.inverse() * (p0 - com)));
    s.onset_rot = sides.map(|side| side.map_or(Rotation::IDENTITY, |(_, (_, rot))| rot));
}

/// The slide's step: its onset hold, or its stick/slip machine (`bound`: whether its friction
/// reached its bound, for a contact on the user's joints).
#[inline(always)]
fn track_slide<const STEADY: bool>(
    now: &Now<'_>,
    s: &mut PairState,
    o: &Observed,
    m: &Motion,
    bound: Option<bool>,
) {
    let StepCtx { narrow_phase, dt, slip_speed, .. } = *now.x;
    let ([c1, c2], new) = (now.cols, now.new);
    let (normal, returned) = (o.normal, o.returned);
    let Motion { slip, tol, slide_eps, loaded, d, .. } = *m;
    // Held only for a body on this one support and while it does not roll: with several
    // supports the anchors of its contacts disagree, and a rolling body's touching
    // material points change.
    if !STEADY
        && s.hold & HOLD_SLIDE != 0
        && (s.roll != Mode::Static || !touches_nothing_else(narrow_phase, [c1, c2], now.rbs()))
    {
        s.hold &= !HOLD_SLIDE;
    }
    let held_slide = (!STEADY && s.hold & HOLD_SLIDE != 0).then(|| {
        let [rb1, rb2] = now.rbs();
        let at = |rb: Option<&RigidBody>, a: Vector| match rb {
            Some(rb) if !rb.is_fixed() => rb.center_of_mass() + rb.rotation() * a,
            _ => a,
        };
        let d = at(rb2, s.slide_anchor[1]) - at(rb1, s.slide_anchor[0]);
        let d = d - normal * d.dot(normal);
        if finite(d) {
            d
        } else {
            Vector::ZERO
        }
    });
    let slide_accumulate = |defl: Vector| {
        let next = match held_slide {
            Some(d) => d,
            None => {
                let sl = slip.length();
                let excess = if sl > tol { slip * ((sl - tol) / sl) } else { Vector::ZERO };
                let dd = defl + excess * dt;
                dd - normal * dd.dot(normal)
            }
        };
        (next, next.length() as f64)
    };
    // A held slide is released within one step at the slip speed, and within half the
    // static threshold (so the ordinary stick goes on from there).
    mechanism_step(
        false,
        (!STEADY, new.is_some()),
        (&mut s.hold, HOLD_SLIDE, &mut s.slide_onset),
        (&mut s.slide, &mut s.slide_defl),
        (loaded, d.slide_static, ((slip_speed * dt) as f64).min(0.5 * d.slide_static)),
        (
            slip.length(),
            slide_eps,
            slip.length() <= slide_eps,
            bound.is_none_or(|b| slipping(b, slip.length(), slide_eps, &mut s.last_slip, 0)),
        ),
        slide_accumulate,
    );
    // The step a kept contact's points came back in (a landing): its tangential motion
    // is mostly the flight before the touch and the solver's recovery of the landing's
    // penetration, not a deflection of surfaces that stuck; it is judged against the
    // full threshold above, and a sticking slide starts from the end of the step.
    if returned && s.slide == Mode::Static {
        s.slide_defl = Vector::ZERO;
    }
}

/// What the last step's kinetic torque took off the relative roll and spin speeds:
/// the next step's motor carries only the fraction that stops them (see
/// `plan_contact`).
#[inline(always)]
fn kinetic_drop<const SLIDE: bool>(now: &Now<'_>, s: &mut PairState, m: &Motion) {
    let (new, wt, wn) = (now.new, m.wt, m.wn);
    let speeds = [wt.length(), wn.abs()];
    for (k, mode) in [s.roll, s.spin].into_iter().enumerate() {
        s.kinetic_drop[k] = if !SLIDE && mode == Mode::Kinetic && new.is_none() {
            (s.last_w[k] - speeds[k]).max(0.0)
        } else {
            0.0
        };
    }
    s.last_w = speeds;
}

/// The roll's step (`bound`: whether its motor rows reached their bound, for a contact on the
/// user's joints; `was_rolling`: its roll was kinetic before this step).
#[inline(always)]
fn track_roll<const STEADY: bool, const SLIDE: bool>(
    now: &Now<'_>,
    s: &mut PairState,
    o: &Observed,
    m: &Motion,
    bound: Option<bool>,
    was_rolling: bool,
) {
    let (dt, new, normal) = (now.x.dt, now.new, o.normal);
    let Motion { wt, roll_eps, loaded, d, .. } = *m;
    // Roll (off, or degenerate curvature: a static roll stays static with no
    // deflection). A rolling contact keeps rolling until its relative roll speed stops
    // it: over a step without load (a hop: the normal force and the capacities are
    // zero), and over a step whose curvature is degenerate (parry's manifold of a
    // cylinder on its side now and then has a normal tilted towards the cylinder's
    // axis, along which the plan finds the flat end face: turned static by it, the roll
    // held the still rolling cylinder with its static capacity in the next step).
    let roll_on = d.roll_static > 0.0;
    s.roll_threshold = d.roll_static as f32;
    let roll_accumulate = |defl: Vector| {
        let dd = defl + wt * dt;
        let next = dd - normal * dd.dot(normal);
        (next, next.length() as f64)
    };
    // A roll that sticks and is off or unloaded has no deflection and no hold (what
    // `hold_step` and `advance_mode` make of it).
    mechanism_step(
        SLIDE || (s.roll == Mode::Static && !(loaded && roll_on)),
        (!STEADY, new.is_some()),
        (&mut s.hold, HOLD_ROLL, &mut s.hold_onset[0]),
        (&mut s.roll, &mut s.roll_defl),
        (loaded && roll_on, d.roll_static, d.roll_static),
        (wt.length(), roll_eps, wt.length() <= roll_eps, bound.unwrap_or(true)),
        roll_accumulate,
    );
    // A body that stops rolling sticks where it stopped: what the slide deflection
    // gathered while it rolled (the contact point moved on both surfaces, and any slip
    // then was the solver's tolerance) is no stick load, and pulling it back would move
    // the stopped body backwards.
    if !SLIDE && was_rolling && s.roll == Mode::Static {
        s.slide_defl = Vector::ZERO;
    }
}

/// The spin's step (`bound`: whether its motor row reached its bound, for a contact on the
/// user's joints).
#[inline(always)]
fn track_spin<const STEADY: bool, const SLIDE: bool>(
    now: &Now<'_>,
    s: &mut PairState,
    o: &Observed,
    m: &Motion,
    bound: Option<bool>,
) {
    let (dt, new, normal) = (now.x.dt, now.new, o.normal);
    let Motion { wn, spin_eps, loaded, d, .. } = *m;
    // While the spin is held, its deflection is the bodies' relative turn about the
    // normal since the contact began, from their poses: the first step's turn is not
    // ω·dt (rapier moves the body in substeps, the spin-up with them), and the pull-back
    // then returns the body to where it was set down. The hold's slip test keeps the
    // velocity count (it allows for the first step's unresisted spin-up).
    let held_spin = (!STEADY && s.hold & HOLD_SPIN != 0).then(|| {
        let [rb1, rb2] = now.rbs();
        let rot = |rb: Option<&RigidBody>, onset: Rotation| match rb {
            Some(rb) if !rb.is_fixed() => *rb.rotation() * onset.inverse(),
            _ => Rotation::IDENTITY,
        };
        let t = (rot(rb2, s.onset_rot[1]) * rot(rb1, s.onset_rot[0]).inverse()).to_scaled_axis();
        if finite(t) {
            t.dot(normal)
        } else {
            0.0
        }
    });
    // Spin (as the roll: an unloaded step does not end a spin).
    let spin_on = d.spin_static > 0.0;
    let spin_accumulate = |defl: f32| {
        let next = defl + wn * dt;
        (next, next.abs() as f64)
    };
    // (As the roll.)
    mechanism_step(
        SLIDE || (s.spin == Mode::Static && !(loaded && spin_on)),
        (!STEADY, new.is_some()),
        (&mut s.hold, HOLD_SPIN, &mut s.hold_onset[1]),
        (&mut s.spin, &mut s.spin_defl),
        (loaded && spin_on, d.spin_static, d.spin_static),
        (
            wn.abs(),
            spin_eps,
            wn.abs() <= spin_eps || (loaded && !spin_on),
            bound.is_none_or(|b| slipping(b, wn.abs(), spin_eps, &mut s.last_slip, 1)),
        ),
        spin_accumulate,
    );
    if let (Some(t), Mode::Static) = (held_spin, s.spin) {
        s.spin_defl = t;
    }
}

/// Drops non-finite deflections (all three, to zero).
#[inline(always)]
pub(super) fn drop_nonfinite_deflections<const SLIDE: bool>(s: &mut PairState) {
    let (sd, rd) = (s.slide_defl, s.roll_defl);
    // (Slide only: the roll and spin deflections were set to zero above.)
    let finite_defl =
        if SLIDE { sd.is_finite() } else { all_finite([sd.x, sd.y, sd.z, rd.x, rd.y, rd.z, s.spin_defl]) };
    if !finite_defl {
        s.slide_defl = Vector::ZERO;
        s.roll_defl = Vector::ZERO;
        s.spin_defl = 0.0;
    }
}

/// One step of a slide, roll or spin mechanism (bit `bit` of the onset hold `hold`, its first
/// step's deflection `onset`): none at all when `off` (the contact has no such mechanism, or it
/// sticks while unloaded or off: no deflection, no hold), else the onset hold's step while it
/// is held (`may_hold`: the contact may be; `first_step`: its first step) and the stick/slip
/// machine's otherwise.
/// `(loaded, threshold, release)`: whether it carries load, its static threshold and the
/// deflection within which a hold ends (see `hold_step`); `(speed, settle_speed, settled)`: its
/// relative speed, the speed below which it counts as stopped, and whether a kinetic mechanism
/// returns to static, and whether it slips: its friction or motor row reached its bound (see
/// [`advance_mode`], `slipping`).
#[inline(always)]
fn mechanism_step<D: Copy + Default, F: Fn(D) -> (D, f64) + Copy>(
    off: bool,
    (may_hold, first_step): (bool, bool),
    (hold, bit, onset): (&mut u8, u8, &mut f32),
    (mode, deflection): (&mut Mode, &mut D),
    (loaded, threshold, release): (bool, f64, f64),
    (speed, settle_speed, settled, bound_reached): (f32, f32, bool, bool),
    accumulate: F,
) {
    if off {
        *hold &= !bit;
        *deflection = D::default();
        return;
    }
    // The onset holds are rare: a mechanism whose bit is clear goes to `advance_mode` without
    // evaluating the hold's arguments.
    let held = may_hold
        && *hold & bit != 0
        && hold_step(
            hold,
            bit,
            onset,
            first_step,
            (mode, deflection),
            loaded,
            (threshold, release),
            (speed, settle_speed),
            accumulate,
        );
    if !held {
        advance_mode(mode, deflection, loaded, threshold, settled, bound_reached, accumulate);
    }
}

/// Whether the slide friction, the roll rows and the spin row of a contact reached their bounds
/// in the step (`[slide, roll, spin]`), for a contact of a dynamic body on the user's joints
/// (impulse or multibody; any other contact: all true).
///
/// Such a contact gets no anchor pull-back (see `plan`), and rapier moves a held object a
/// little in the step a load comes on (a 0.2 kg box gripped by two pads at 1.02 times the
/// analytic hold force, on multibody fingers, moved 0.42 mm in the step its weight came on
/// at dt = 1/60, against a static threshold `μs N/K_E` of about 10 µm): its deflection passes
/// the threshold while the constraint holds. A slip is the constraint failing to hold, so
/// the mechanism turns kinetic only while its bound was reached (and, see `slipping`, its
/// speed does not drop): the friction impulse of the last substep at least [`BOUND_REACHED`]
/// of the friction coefficient times its normal impulse, the motor row's impulse at least
/// that share of its torque bound times the substep.
fn bounds_reached(
    view: &StoreView<'_>,
    parents: [Option<RigidBodyHandle>; 2],
    rbs: [Option<&RigidBody>; 2],
    (pair, params, mu): (&ContactPair, &IntegrationParameters, f32),
    joint: Option<ImpulseJointHandle>,
    joints: &ImpulseJointSet,
) -> [bool; 3] {
    if !contact_on_joints(view, parents, rbs, joints) {
        return [true; 3];
    }
    // A multibody link's contacts are rapier's generic constraints, which keep each point's
    // own friction impulse (the manifold's is their sum; a box on a flat pad read a quarter
    // of its bound through `warm_impulses`' per-manifold average).
    let generic = parents.iter().flatten().any(|&h| find_link(view.multibody_links, h).is_some());
    let (n, f) = if generic { point_impulses(pair) } else { warm_impulses(pair, params) };
    let slide = !(mu.is_finite() && n > 0.0) || f.length() >= BOUND_REACHED * mu * n;
    let substep = params.dt / params.num_solver_iterations.max(1) as f32;
    let row = |jj: &ImpulseJoint, axis: JointAxis, mask: JointAxesMask| {
        let m = &jj.data.motors[axis as usize];
        !jj.data.motor_axes.contains(mask) || m.impulse.abs() >= BOUND_REACHED * m.max_force * substep
    };
    match joint.and_then(|h| tribo_joint(joints, h)) {
        Some(jj) => [
            slide,
            row(jj, JointAxis::AngY, JointAxesMask::ANG_Y) || row(jj, JointAxis::AngZ, JointAxesMask::ANG_Z),
            row(jj, JointAxis::AngX, JointAxesMask::ANG_X),
        ],
        None => [slide, true, true],
    }
}

/// Whether a slide (`k` = 0) or spin (`k` = 1) of a contact of a body on the user's joints
/// slips: its bound was reached (`bound`) and its speed `speed` did not drop, above `eps`, in
/// this step and the one before (`last`: the speeds and that test after the previous step).
/// Static friction at its bound that takes speed off holds: the solver's creep in the step a
/// load came on (a box gripped at 1.02 times the analytic hold force moved at 15 mm/s after
/// that step at dt = 1/60, and slowed from there), or a light link's joint giving way for a
/// step, is not a slip.
fn slipping(bound: bool, speed: f32, eps: f32, last: &mut ([f32; 2], [bool; 2]), k: usize) -> bool {
    let rising = bound && last.0[k] > eps && speed >= last.0[k];
    let slips = rising && last.1[k];
    (last.0[k], last.1[k]) = (speed, rising);
    slips
}

/// The share of its bound a friction or motor impulse reaches when the bound holds it back
/// (see [`bounds_reached`]): rapier's projected impulses end at their bound to within f32
/// rounding (the box above, held at 1.02 times its hold force, used 0.996 of its friction
/// bound in its load step).
const BOUND_REACHED: f32 = 0.9999;

/// Whether every element of `v` is finite, with one branch: `x - x` is zero for a finite `x`
/// and NaN for an infinite or NaN one.
#[inline(always)]
#[allow(clippy::eq_op)] // `x - x` is the test
fn all_finite<const N: usize>(v: [f32; N]) -> bool {
    v.iter().fold(0.0f32, |acc, &x| acc + (x - x)) == 0.0
}
