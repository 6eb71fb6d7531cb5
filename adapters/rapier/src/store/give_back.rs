//! The turn a contact's motor took off its bodies in a step without contact points, given back
//! at the start of the next step.
//!
//! A contact's roll/spin motor is planned by `after_step` from the step just taken and acts in
//! the next. rapier's narrow phase can find no contact point for a pair in that step (the pair
//! parted, or parry's contact of a cylinder on its side on a box loses its points for a step now
//! and then), and the motor, a joint the solver keeps whatever the contact does, still brakes
//! the bodies' relative rotation without any normal force to carry the torque: a rolling
//! cylinder lands from such a step with its rotation braked and its centre not, slipping. The
//! hooks cannot disable a joint inside the step, so `after_step` measures the angular impulse
//! the motor gave the bodies in such a step and the next `before_step` gives it back
//! (docs/rapier.md §7).

use super::*;

/// An angular impulse to give back to a body at the start of the next step.
#[derive(Clone, Copy, Debug)]
#[cfg_attr(feature = "serde-serialize", derive(serde::Serialize, serde::Deserialize))]
pub(super) struct GiveBack {
    pub(super) body: RigidBodyHandle,
    /// World-space angular impulse (N·m·s).
    pub(super) impulse: Vector,
}

/// The motor of contact `s` acted in a step whose pair had no contact point: the angular
/// impulses it gave its two bodies (in `joints`), to be taken back by the next `before_step`.
/// None if the contact has no motor or its motor gave no angular impulse in the step.
#[inline(always)]
pub(super) fn motor_turn(
    s: &PairState,
    params: &IntegrationParameters,
    bodies: &RigidBodySet,
    joints: &ImpulseJointSet,
) -> [Option<GiveBack>; 2] {
    let Some(h) = s.joint else { return [None; 2] };
    let Some(jj) = tribo_joint(joints, h) else { return [None; 2] };
    let Some(impulse) = motor_angular_impulse(jj, params, bodies) else { return [None; 2] };
    // The solver adds the motor's impulse to the first body's angular momentum and takes
    // it from the second's (rapier's `JointConstraint::solve_generic`). A sleeping body was
    // not solved.
    let gifts = [(jj.body1(), -1.0f32), (jj.body2(), 1.0)];
    gifts.map(|(body, sign)| {
        bodies
            .get(body)
            .is_some_and(|b| b.is_dynamic() && !b.is_sleeping())
            .then(|| GiveBack { body, impulse: impulse * sign })
    })
}

impl TriboRapier {
    /// Gives the recorded angular impulses back (see the module docs). Bodies removed since
    /// are skipped.
    #[cold]
    #[inline(never)]
    pub(super) fn apply_give_back(&mut self, bodies: &mut RigidBodySet) {
        for g in self.motors.give_back.drain(..) {
            if let Some(rb) = bodies.get_mut(g.body) {
                if finite(g.impulse) {
                    rb.apply_torque_impulse(g.impulse, false);
                }
            }
        }
    }
}

/// The angular impulse (world frame) the motor rows of joint `jj` gave its first body over the
/// step just taken, or `None` if it gave none (no angular motor row, or no impulse). rapier solves a step in
/// `num_solver_iterations` substeps (more when a body asks for additional solver iterations)
/// and keeps each motor's impulse of the last substep, bounded by `max_force · dt / substeps`;
/// a braking motor on a body in flight carries that bound in every substep (the relative
/// rotation it brakes only gets slower), so the step's impulse is the last substep's times the
/// number of substeps, at most `max_force · dt`.
fn motor_angular_impulse(
    jj: &ImpulseJoint,
    params: &IntegrationParameters,
    bodies: &RigidBodySet,
) -> Option<Vector> {
    // A step without a finite positive time step gives nothing back (and `max_force · dt` would
    // be a NaN clamp bound, which panics).
    if !(params.dt > 0.0 && params.dt.is_finite()) {
        return None;
    }
    let d = &jj.data;
    let extra = |h: RigidBodyHandle| bodies.get(h).map_or(0, |b| b.additional_solver_iterations());
    let substeps = (params.num_solver_iterations + extra(jj.body1()).max(extra(jj.body2()))).max(1) as f32;
    let rot1 = bodies.get(jj.body1()).map_or(Rotation::IDENTITY, |b| b.position().rotation);
    let frame = rot1 * d.local_frame1.rotation;
    let mut impulse = Vector::ZERO;
    for (k, ax) in [JointAxis::AngX, JointAxis::AngY, JointAxis::AngZ].into_iter().enumerate() {
        if !d.motor_axes.contains(JointAxesMask::from(ax)) {
            continue;
        }
        let m = &d.motors[ax as usize];
        let bound = (m.max_force * params.dt).abs();
        let i = (m.impulse * substeps).clamp(-bound, bound);
        impulse += frame * (Vector::AXES[k] * i);
    }
    (impulse != Vector::ZERO && finite(impulse)).then_some(impulse)
}
