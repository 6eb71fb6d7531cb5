//! tribo's motor joint of a contact in rapier's joint set: its rows ([`MotorRows`]) written in
//! place, and the rows or warm starts a step must not keep.

use super::*;

/// A motor's frames, velocity targets, torque bounds and damping (see [`set_motor`]).
#[derive(Clone, Copy, Debug)]
pub(super) struct MotorRows {
    pub(super) frames: (Pose, Pose),
    pub(super) targets: [f32; 3],
    pub(super) caps: [f32; 3],
    pub(super) damping: f32,
}

/// Writes a contact's motor: its frames, and one row per angular axis (X spin, Y and Z roll)
/// with a torque bound `caps` (finite and positive; the others lose their row: a kinetic roll
/// has no Z row). A row is a velocity motor towards `targets` (rapier's `set_motor_velocity`:
/// target angle kept, stiffness 0, damping `damping`) bounded by the capacity.
#[inline(always)]
pub(super) fn set_motor(d: &mut GenericJoint, rows: &MotorRows) {
    let MotorRows { frames: (frame1, frame2), targets, caps, damping } = *rows;
    d.local_frame1 = frame1;
    d.local_frame2 = frame2;
    let axes = [JointAxesMask::ANG_X, JointAxesMask::ANG_Y, JointAxesMask::ANG_Z];
    let index = [JointAxis::AngX as usize, JointAxis::AngY as usize, JointAxis::AngZ as usize];
    for k in 0..3 {
        let (t, c) = (targets[k], caps[k]);
        if c.is_finite() && c > 0.0 {
            d.motor_axes |= axes[k];
            let m = &mut d.motors[index[k]];
            m.target_vel = if t.is_finite() { t } else { 0.0 };
            m.stiffness = 0.0;
            m.damping = damping;
            m.max_force = c;
        } else {
            d.motor_axes.remove(axes[k]);
        }
    }
}

/// Zeroes the non-finite motor impulses (warm starts) of the motor joints of `states`: a step
/// with a NaN or infinite time step leaves NaN there, and the next step's warm start would
/// put it into the bodies.
pub(super) fn clear_nonfinite_motor_impulses(states: &[PairState], joints: &mut ImpulseJointSet) {
    for h in states.iter().filter_map(|s| s.joint) {
        clear_nonfinite_motor_impulse(h, joints);
    }
}

/// Zeroes the non-finite motor impulses of joint `h` (see [`clear_nonfinite_motor_impulses`]).
pub(super) fn clear_nonfinite_motor_impulse(h: ImpulseJointHandle, joints: &mut ImpulseJointSet) {
    if tribo_joint(joints, h).is_some_and(|jj| jj.data.motors.iter().any(|m| !m.impulse.is_finite())) {
        if let Some(jj) = tribo_joint_mut(joints, h) {
            for m in jj.data.motors.iter_mut().filter(|m| !m.impulse.is_finite()) {
                m.impulse = 0.0;
            }
        }
    }
}

/// Nothing to resist: the motor (if any) loses its rows. A joint without rows costs the solver
/// little, and keeping it avoids churn when the capacity comes back next step. A motor the
/// joint set no longer holds (rapier removed it with a body) is forgotten.
pub(super) fn clear_motor_rows(joint: &mut Option<ImpulseJointHandle>, joints: &mut ImpulseJointSet) {
    let Some(h) = *joint else { return };
    match tribo_joint_mut(joints, h) {
        Some(jj) => jj.data.motor_axes = JointAxesMask::empty(),
        None => *joint = None,
    }
}
