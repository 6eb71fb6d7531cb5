//! The rolling hold: how the hook asks rapier's solver to hold a round body's rolling contact
//! (docs/rapier.md §0, item 7).
//!
//! rapier builds a contact's rows once per step, at the point halfway between the two surfaces
//! (the lever arm of its normal and friction rows), and in every substep reads the separation
//! at that point as a *material* point of each body: a point that turns with the body. On a
//! body that rolls, the material point that touched when the step began turns up and away from
//! the support within the step, by `R (1 − cos ω s)` after a time `s` for a ball of radius `R`
//! (0.35 R after one step of a billiard ball rolling at 1.4 m/s, dt = 1/60). The solver reads
//! a gap that is not there, lets the body fall into it, and the body rolls sunk into its support
//! (2.9 mm of the billiard ball's 28.6 mm). Its friction row then holds the midpoint of the
//! sunk contact, `R − δ/2` from the centre: the ball settles at `v = ω (R − δ/2)`, its true
//! contact point slips backwards, and the friction's shorter lever arm changes the dynamics
//! of the skid and of the roll.
//!
//! For a contact of a round dynamic body (its surface's centre of curvature along the rolling
//! direction at its centre of mass: a ball, a cylinder or capsule rolling on its side) on a
//! side that does not move with the solver (no body, or a fixed or kinematic one), the body's
//! one support (a body with one collider that touches nothing else; the plan's
//! `hold_radius`), the hook ([`hold`]):
//! 1. puts each solver contact's point (the rows' lever arm) on the round body's surface, where
//!    the material point in contact is, keeping its separation: the friction row then holds
//!    the point that rolls without slip, `v = ω R`, and the friction acts with its true lever
//!    arm;
//! 2. while the body rolls by more than [`HOLD_TURN`] per step, takes off the separation the
//!    part of the gap the rotation opens during the step ([`RISE_SHARE`] of its mean over the
//!    solver's readings, [`mean_rise`]): the body sinks less.
//!
//! `after_step` measures the slip of such a contact at the solver's point, for both sides.
//!
//! The roll motor acts in every substep, the friction only in those where the solver applies a
//! normal impulse, and it applies none where it reads a gap (late in the step on a rolling
//! body, or after it pushed the body up): the motor's torque there leaves the contact slipping
//! at the end of the step, by at most what it turns the body at the contact in a step. For a
//! free body `after_step` asks the friction to hold the opposite of that slip in the next step
//! (`PairState::roll_fix`), so the step ends rolling; the slip test allows for it.

use crate::rapier3d::prelude::*;

/// The least turn (rad) per step for which the rise is taken off: below it the gap the rotation
/// opens in a step is below `R · 1.3e-3`. (Taken off down to 0.01 rad per step, a cart on
/// multibody axles stopped with its chassis moving back at 3.7e-4 m/s, and its wheels kicked at
/// 1.7e-4 rad/s in the step after.)
pub(crate) const HOLD_TURN: f32 = 0.05;

/// The share of the mean second-order rise taken off the separation. The solver pushes only
/// where it reads a penetration and lets the body approach where it reads a gap: taking off the
/// whole mean pushes the body up at the start of the step more than the gap at its end lets it
/// down, and a ball with topspin hops; none leaves it sunk (2.9 mm for the billiard ball at
/// 1.4 m/s, 6.4 mm with topspin at 2.3 m/s, dt = 1/60). Half keeps the billiard ball within
/// 1 mm of its radius while it rolls (docs/rapier.md §0, item 7).
pub(crate) const RISE_SHARE: f32 = 0.5;

/// The step's timing as the solver reads separations: its length and number of substeps.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct StepTiming {
    /// The step (s).
    pub dt: f32,
    /// `IntegrationParameters::num_solver_iterations` (substeps).
    pub substeps: usize,
}

impl Default for StepTiming {
    fn default() -> Self {
        StepTiming { dt: 1.0 / 60.0, substeps: 4 }
    }
}

/// Whether the contact of a body whose surface has curvature `kappa` along the rolling
/// direction (1/m), `depth` from its centre of mass to the contact point along the normal (m),
/// is round: the surface's centre of curvature is the centre of mass (within 10 %), so the
/// point in contact stays where it is relative to the centre of mass while the body rolls.
#[inline]
pub(crate) fn is_round(kappa: f64, depth: f32) -> bool {
    kappa > 0.0 && ((kappa as f32) * depth - 1.0).abs() < 0.1
}

/// The mean of `1 − cos φ` over the angles `φ = ω s` a body turning at `omega` (rad/s) has
/// turned through when the solver reads a separation: at the start of each substep (its biased
/// pass) and at its end (its relaxation pass), `s ∈ {0, h, …, (n−1) h} ∪ {h, …, n h}`,
/// `h = dt/n`.
pub(crate) fn mean_rise(omega: f32, timing: StepTiming) -> f32 {
    let n = timing.substeps.max(1);
    let x = omega * timing.dt / n as f32;
    if !(x.is_finite() && timing.dt > 0.0) {
        return 0.0;
    }
    // cos(kx) by the recurrence cos((k+1)x) = 2 cos x cos(kx) − cos((k−1)x).
    let c1 = x.cos();
    let (mut prev, mut cos) = (c1, 1.0f32); // cos(−x), cos(0)
    let mut sum = 0.0f32;
    for k in 0..=n {
        // Angle k x is read twice for 0 < k < n, once for k = 0 and k = n.
        let weight = if k == 0 || k == n { 1.0 } else { 2.0 };
        sum += weight * (1.0 - cos);
        (prev, cos) = (cos, 2.0 * c1 * cos - prev);
    }
    sum / (2 * n) as f32
}

/// The hold of a round body's rolling contact (module docs): each solver contact's point onto
/// the round body's surface (side `side`, 0 or 1, of the pair), its separation less what the
/// body's rotation `angvel` moves the held point along the normal during the step. `normal` is
/// the manifold's (from the first collider to the second), `com` the round body's centre of
/// mass, `radius` its radius of curvature at the contact as the last step found it: a solver
/// contact whose point lies elsewhere (parry's manifold of a line contact now and then holds a
/// point on a cylinder's end face, under a normal tilted towards its axis) is left as it is.
pub(crate) fn hold(
    solver_contacts: &mut [SolverContact],
    normal: Vector,
    (side, com, angvel): (usize, Vector, Vector),
    radius: f32,
    timing: StepTiming,
) {
    let omega = angvel.length();
    // (A step without a finite positive time step is left to rapier, as the motors are.)
    let valid = normal.is_finite() && com.is_finite() && omega.is_finite();
    if !(valid && timing.dt > 0.0 && timing.dt.is_finite()) {
        return;
    }
    // The rise is taken off while the body rolls by more than HOLD_TURN in this step.
    let rolling = angvel - normal * angvel.dot(normal);
    let rise = if rolling.length() * timing.dt > HOLD_TURN { mean_rise(omega, timing) } else { 0.0 };
    let turn = Turn { axis: if omega > 0.0 { angvel / omega } else { Vector::ZERO }, rise };
    for c in solver_contacts.iter_mut() {
        if let Some((a1, a2, dist)) =
            held_point((c.anchor1, c.anchor2, c.dist), normal, (side, com, radius), turn)
        {
            c.anchor1 = a1;
            c.anchor2 = a2;
            c.dist = dist;
        }
    }
}

/// A round body's rotation over one step: its unit axis and [`mean_rise`].
#[derive(Clone, Copy, Debug)]
struct Turn {
    axis: Vector,
    rise: f32,
}

/// One solver contact's anchors (world) and separation, held ([`hold`]); `None` if its point is
/// not on the round surface (within 10 % of `radius` from the centre along the normal) or the
/// result not finite.
fn held_point(
    (anchor1, anchor2, dist): (Vector, Vector, f32),
    normal: Vector,
    (side, com, radius): (usize, Vector, f32),
    turn: Turn,
) -> Option<(Vector, Vector, f32)> {
    // The round body's outward normal at the contact (towards the other side).
    let out = if side == 0 { normal } else { -normal };
    // The round body's surface point: rapier's point on the first side is the first anchor
    // moved along the normal to the contact's separation from the second.
    let p1 = anchor1 + normal * ((anchor2 - anchor1).dot(normal) - dist);
    let point = if side == 0 { p1 } else { anchor2 };
    // How far a turn φ about the unit axis k moves the material point at the arm `a` (along the
    // normal: a round body's surface point) away from the other side:
    // ((1 − R(φ)) a)·out = (1 − cos φ)(a·out − (k·a)(k·out)).
    let (a, k) = (point - com, turn.axis);
    if (a.dot(out) - radius).abs() > 0.1 * radius {
        return None;
    }
    let rise = turn.rise * (a.dot(out) - a.dot(k) * k.dot(out)).max(0.0);
    let dist = dist - RISE_SHARE * rise;
    // Anchors half the separation either side of the point: rapier's solver point, halfway
    // between them, is the point.
    let (a1, a2) = (point - normal * (0.5 * dist), point + normal * (0.5 * dist));
    (a1.is_finite() && a2.is_finite() && dist.is_finite()).then_some((a1, a2, dist))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mean_rise_is_the_mean_over_the_solver_readings() {
        // Four substeps of a turn θ: readings at 0, θ/4, θ/4, 2θ/4, 2θ/4, 3θ/4, 3θ/4, θ.
        let timing = StepTiming { dt: 1.0 / 60.0, substeps: 4 };
        let omega = 48.0f32;
        let theta = omega / 60.0;
        let ks = [0.0f32, 1.0, 1.0, 2.0, 2.0, 3.0, 3.0, 4.0];
        let direct = ks.iter().map(|k| 1.0 - (k * theta / 4.0).cos()).sum::<f32>() / 8.0;
        assert!((mean_rise(omega, timing) - direct).abs() < 1e-6);
        // No turn; one substep: the mean over 0 and θ.
        assert_eq!(mean_rise(0.0, timing), 0.0);
        let one = mean_rise(5.0, StepTiming { dt: 0.1, substeps: 1 });
        assert!((one - 0.5 * (1.0 - 0.5f32.cos())).abs() < 1e-6);
    }

    /// rapier's solver point of a solver contact: halfway between the first anchor moved along
    /// the normal to the separation and the second anchor.
    fn solver_point((a1, a2, dist): (Vector, Vector, f32), normal: Vector) -> Vector {
        (a1 + normal * ((a2 - a1).dot(normal) - dist) + a2) * 0.5
    }

    #[test]
    fn a_held_point_sits_on_the_round_surface_with_the_separation_kept_less_the_rise() {
        // A ball of radius 0.03 (centre at y = 0.029, 1 mm into the ground y = 0) as the second
        // collider on a static ground (first collider; normal +y from ground to ball), rolling
        // along +x (ω along −z).
        let r = 0.03f32;
        let com = Vector::new(0.0, 0.029, 0.0);
        let ball_point = com - Vector::Y * r;
        let normal = Vector::Y;
        let timing = StepTiming { dt: 1.0 / 60.0, substeps: 4 };
        let turn = |w: Vector| Turn { axis: w.normalize(), rise: mean_rise(w.length(), timing) };
        let contact = (Vector::ZERO, ball_point, -0.001);
        let rolling = turn(Vector::new(0.0, 0.0, -40.0));
        let held = held_point(contact, normal, (1, com, r), rolling).unwrap();
        assert!((solver_point(held, normal) - ball_point).length() < 1e-6);
        // The rise of the bottom point, (1 − cos φ) R on average, less its share.
        let expected = -0.001 - RISE_SHARE * r * mean_rise(40.0, timing);
        assert!((held.2 - expected).abs() < 1e-7, "{} vs {expected}", held.2);
        // A spin about the normal moves no point along it.
        let spin = held_point(contact, normal, (1, com, r), turn(Vector::Y * 40.0)).unwrap();
        assert!((spin.2 + 0.001).abs() < 1e-9);
        // The same ball as the first collider (normal from ball to ground, −y).
        let first = held_point((ball_point, Vector::ZERO, -0.001), -normal, (0, com, r), rolling).unwrap();
        assert!((solver_point(first, -normal) - ball_point).length() < 1e-6);
        assert!((first.2 - expected).abs() < 1e-7);
    }
}
