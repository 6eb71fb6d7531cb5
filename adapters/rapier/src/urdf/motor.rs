//! Driving a loaded robot's joints: velocity motors by joint name ([`Robot::set_motor`]) and the
//! damping of its multibodies ([`Robot::set_multibody_damping`]).

use super::{JointHandle, Robot, RobotError};
use crate::rapier3d::prelude::*;

/// The damping factor of the velocity motors [`Robot::set_motor`] sets: large, so the motor
/// holds its target velocity up to its force bound.
pub const MOTOR_DAMPING: f32 = 1e6;

impl Robot {
    /// Drives joint `name` along its one free axis (a revolute or continuous joint's angle, a
    /// prismatic joint's slide) with a velocity motor: target velocity `target` (rad/s or m/s
    /// along the URDF axis) with at most `max_force` (N·m or N; 0 releases the joint). URDF's
    /// `<limit effort>` is not read by `rapier3d-urdf`: this is where a robot's effort goes.
    ///
    /// Errors: [`RobotError::BadMotor`] (a value NaN or infinite, or a negative force),
    /// [`RobotError::UnknownJoint`], [`RobotError::NotDrivable`] (no single free axis).
    pub fn set_motor(
        &self,
        world: &mut PhysicsWorld,
        name: &str,
        target: f32,
        max_force: f32,
    ) -> Result<(), RobotError> {
        if !(target.is_finite() && max_force.is_finite() && max_force >= 0.0) {
            return Err(RobotError::BadMotor { joint: name.to_string() });
        }
        let joint = self.joint(name)?;
        let not_drivable = || RobotError::NotDrivable { joint: name.to_string() };
        let data = match joint.handle {
            JointHandle::Impulse(h) => {
                &mut world.impulse_joints.get_mut(h, true).ok_or_else(not_drivable)?.data
            }
            JointHandle::Multibody(h) => {
                let (mb, id) =
                    world.multibody_joints.get_mut(h.ok_or_else(not_drivable)?).ok_or_else(not_drivable)?;
                &mut mb.link_mut(id).ok_or_else(not_drivable)?.joint.data
            }
        };
        let free = !data.locked_axes.bits() & JointAxesMask::all().bits();
        let axis = if free == JointAxesMask::ANG_X.bits() {
            JointAxis::AngX
        } else if free == JointAxesMask::LIN_X.bits() {
            JointAxis::LinX
        } else {
            return Err(not_drivable());
        };
        // A stiff velocity motor up to its force bound (rapier's acceleration-based model: the
        // damping factor times the joint's effective mass).
        data.set_motor_velocity(axis, target, MOTOR_DAMPING);
        data.set_motor_max_force(axis, max_force);
        for b in joint.bodies {
            if let Some(rb) = world.bodies.get_mut(b) {
                rb.wake_up(true);
            }
        }
        Ok(())
    }

    /// Keeps every link's body awake (`RigidBodyActivation::cannot_sleep`). rapier puts a body
    /// that moves slowly to sleep even while a joint motor drives it (a robot turning in place
    /// slowly, a finger closing at a few cm/s), and [`Robot::set_motor`] only wakes the joint's
    /// bodies when it is called: a robot driven slowly needs this.
    pub fn keep_awake(&self, world: &mut PhysicsWorld) {
        for link in &self.links {
            if let Some(rb) = world.bodies.get_mut(link.body) {
                *rb.activation_mut() = RigidBodyActivation::cannot_sleep();
            }
        }
    }

    /// Sets the damping of every degree of freedom of the robot's multibodies (rapier gives each
    /// free angular one 0.1 by default, which brakes a coasting wheel); no effect on impulse
    /// joints. `damping` must be finite and ≥ 0 ([`RobotError::BadDamping`]).
    pub fn set_multibody_damping(&self, world: &mut PhysicsWorld, damping: f32) -> Result<(), RobotError> {
        if !(damping.is_finite() && damping >= 0.0) {
            return Err(RobotError::BadDamping { value: damping });
        }
        for j in &self.joints {
            if let JointHandle::Multibody(Some(h)) = j.handle {
                if let Some((mb, _)) = world.multibody_joints.get_mut(h) {
                    mb.damping_mut().fill(damping);
                }
            }
        }
        Ok(())
    }
}
