//! Settle verdict: whether one moving contact is settled after the step, so that its colliders
//! may leave the hook (`settle`) and its plan may be kept (`plan::plan_next`).
//!
//! Reads the tracked modes and deflections (`track`), what `observe` measured, and, for a
//! sliding contact, its colliders' poses, hook flags and the bodies' velocities (rapier's
//! contact-recycling bounds). Writes `PairState::settled`, `off_motion` and `extent`.

use super::observe::{Motion, Now, Observed, StepCtx};
use super::settle::SETTLE_SLIP;
use super::*;

/// Judges whether contact `s` is settled after the step; returns whether it was before.
#[inline(always)]
pub(super) fn judge<const SLIDE: bool>(now: &Now<'_>, s: &mut PairState, o: &Observed, m: &Motion) -> bool {
    let StepCtx { params, colliders, dt, slip_speed, .. } = *now.x;
    let [c1, c2] = now.cols;
    let unloaded_before = o.unloaded_before;
    let Motion { slip, wt, wn, d, roll_eps, spin_eps, loaded, .. } = *m;
    // Settled (see `settle`): every mechanism sticks (no onset hold), the slide
    // deflection is within half its static threshold (the anchor pull-back, which only
    // the hook applies, is not needed yet), the slip is below ten slip speeds, or the
    // contact carries no load, or the deflection stays within half the threshold over
    // one more step at this slip (no pull-back is needed in that step either, and an
    // unloaded contact has no deflection: a stack's rebound rocks the cubes, and their
    // relative turn shows at the faces as 1–4 cm/s of slip for a few steps while the
    // contacts stick), and a curved contact's relative roll and spin are below their
    // slip speeds.
    // The half-threshold tests do not judge a contact's first loaded step (a landing):
    // its normal force is the step's average of a load that began during the step,
    // and its deflection is the tangential motion over the whole step, most of it
    // before the touch. The threshold from that force is far below the one of the load
    // the contact takes on (a cube landing on a stack: 55–230 N in that step, 4.6–8.2 kN
    // in the next), and the test would put the contact back on the hook for a pull-back
    // that the next step's threshold does not ask for. The stick → slip test still
    // judges it: a deflection past the full threshold turns the contact kinetic.
    let landing = unloaded_before && loaded;
    // A contact that slides (kinetic) while it neither rolls nor spins is settled too: the
    // hook's whole work for it is μk, which a pair rapier recycles keeps (see `settle`).
    let was_settled = s.settled;
    s.settled = (SLIDE || (s.roll == Mode::Static && s.spin == Mode::Static && s.hold == 0))
        && (s.slide == Mode::Kinetic
            || landing
            || ((s.slide_defl.length() as f64) <= 0.5 * d.slide_static
                && (slip.length() <= SETTLE_SLIP * slip_speed
                    || !loaded
                    || ((s.slide_defl + slip * dt).length() as f64) <= 0.5 * d.slide_static)))
        && (wt.length() <= roll_eps || roll_eps <= slip_speed * 1e-3)
        && (wn.abs() <= spin_eps || spin_eps <= slip_speed * 1e-3);
    // A sliding contact off the hook keeps the μk the hook wrote at the pair's last full
    // update only while rapier recycles the pair: while its colliders' relative pose
    // stays within `contact_recycle_distance` of that update's (translation plus the
    // relative turn times the larger collider's extent) and each body turned less than
    // acos 0.98 ≈ 11.5° since. Then rapier updates it in full with the colliders'
    // combined friction, μs. So the contact counts as settled only while bounds on both
    // (the path lengths since its last step on the hook) are within half of rapier's.
    // (Bounded only while settled otherwise: an unsettled contact is on the hook in the
    // next step, which starts the bounds again.)
    if s.settled && s.slide == Mode::Kinetic {
        let (step_motion, hooked) = match (colliders.get(c1), colliders.get(c2)) {
            (Some(col1), Some(col2)) => (
                pair_motion(now.rbs(), [col1, col2], &mut s.extent, dt),
                (col1.active_hooks() | col2.active_hooks()).contains(ActiveHooks::MODIFY_SOLVER_CONTACTS),
            ),
            _ => ([f32::INFINITY; 2], true),
        };
        // A step on the hook began with a full update of the pair.
        let since = if hooked { [0.0; 2] } else { s.off_motion };
        s.off_motion = [since[0] + step_motion[0], since[1] + step_motion[1]];
        let recycle = if params.contact_recycling { params.contact_recycle_distance() } else { 0.0 };
        s.settled &= s.off_motion[0] <= 0.5 * recycle && s.off_motion[1] <= 0.5 * RECYCLE_TURN;
    }
    was_settled
}

/// The largest turn of a body (rad) since a pair's last full update at which rapier still
/// recycles the pair: its bound cos Δθ > 0.98.
const RECYCLE_TURN: f32 = 0.2;

/// Bounds on how far a step at the current velocities moves two colliders' relative pose (as
/// rapier measures it for contact recycling: the change of the second collider's pose in the
/// first's frame, its translation plus its turn times the larger collider's extent) and the
/// larger of the bodies' turns (rad).
/// `extent` caches the larger collider's extent (0: not known).
fn pair_motion(rbs: [Option<&RigidBody>; 2], cols: [&Collider; 2], extent: &mut f32, dt: f32) -> [f32; 2] {
    let at = |k: usize| cols[k].position().translation;
    let v = |k: usize| rbs[k].map_or(Vector::ZERO, |b| b.velocity_at_point(at(k)));
    let w = |k: usize| rbs[k].map_or(Vector::ZERO, |b| b.angvel());
    if *extent == 0.0 {
        *extent = cols
            .iter()
            .map(|c| {
                let aabb = c.shape().compute_local_aabb();
                aabb.mins.length().max(aabb.maxs.length())
            })
            .fold(0.0f32, f32::max);
    }
    let extent = *extent;
    let rate =
        (v(1) - v(0)).length() + w(0).length() * (at(1) - at(0)).length() + (w(1) - w(0)).length() * extent;
    let turn = w(0).length().max(w(1).length());
    [rate * dt, turn * dt]
}
