//! [`Robot`]: a loaded robot's links and joints by URDF name, and its links' materials.

use super::RobotError;
use crate::rapier3d::prelude::*;
use crate::{FrictionMaterial, TriboRapier};

/// One link of a loaded robot.
#[derive(Clone, Debug)]
pub struct RobotLink {
    /// The URDF link name.
    pub name: String,
    /// Its rigid body.
    pub body: RigidBodyHandle,
    /// Its colliders (one per `<collision>` shape).
    pub colliders: Vec<ColliderHandle>,
}

/// A loaded joint's handle.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum JointHandle {
    /// In the world's `ImpulseJointSet`.
    Impulse(ImpulseJointHandle),
    /// In the world's `MultibodyJointSet` (`None`: rapier refused it, e.g. it would close a loop).
    Multibody(Option<MultibodyJointHandle>),
}

/// One joint of a loaded robot.
#[derive(Clone, Debug)]
pub struct RobotJoint {
    /// The URDF joint name.
    pub name: String,
    /// Its handle.
    pub handle: JointHandle,
    /// The parent link's body and the child link's body.
    pub bodies: [RigidBodyHandle; 2],
}

/// A robot loaded into a rapier [`PhysicsWorld`] ([`Robot::load`], [`Robot::from_urdf`]): its
/// links and joints by URDF name.
#[derive(Clone, Debug)]
pub struct Robot {
    /// The URDF robot name.
    pub name: String,
    /// The links (those `rapier3d-urdf` keeps: it drops empty links between fixed joints).
    pub links: Vec<RobotLink>,
    /// The joints.
    pub joints: Vec<RobotJoint>,
}

impl Robot {
    /// The link named `name` ([`RobotError::UnknownLink`] lists the robot's links).
    pub fn link(&self, name: &str) -> Result<&RobotLink, RobotError> {
        self.links.iter().find(|l| l.name == name).ok_or_else(|| RobotError::UnknownLink {
            robot: self.name.clone(),
            link: name.to_string(),
            known: self.links.iter().map(|l| l.name.clone()).collect(),
        })
    }

    /// The body of the link named `name`.
    pub fn body(&self, name: &str) -> Result<RigidBodyHandle, RobotError> {
        Ok(self.link(name)?.body)
    }

    /// The joint named `name` ([`RobotError::UnknownJoint`] lists the robot's joints).
    pub fn joint(&self, name: &str) -> Result<&RobotJoint, RobotError> {
        self.joints.iter().find(|j| j.name == name).ok_or_else(|| RobotError::UnknownJoint {
            robot: self.name.clone(),
            joint: name.to_string(),
            known: self.joints.iter().map(|j| j.name.clone()).collect(),
        })
    }

    /// Gives every collider of each named link its tribo material (`(link name, material)`).
    /// Checks every name first: on an error ([`RobotError::UnknownLink`],
    /// [`RobotError::NoColliders`]) no material is set.
    pub fn set_materials(
        &self,
        tribo: &mut TriboRapier,
        materials: &[(&str, FrictionMaterial)],
    ) -> Result<(), RobotError> {
        for (name, _) in materials {
            if self.link(name)?.colliders.is_empty() {
                return Err(RobotError::NoColliders { link: name.to_string() });
            }
        }
        for (name, material) in materials {
            for &c in &self.link(name)?.colliders {
                tribo.set_material(c, *material);
            }
        }
        Ok(())
    }

    /// Sets rapier's own friction coefficient `mu` on every collider of link `name` (stock
    /// rapier friction, for a comparison without tribo). `mu` must be finite and ≥ 0
    /// ([`RobotError::BadFriction`]).
    pub fn set_friction(&self, world: &mut PhysicsWorld, name: &str, mu: f32) -> Result<(), RobotError> {
        let link = self.link(name)?;
        if !(mu.is_finite() && mu >= 0.0) {
            return Err(RobotError::BadFriction { link: name.to_string(), value: mu });
        }
        for &c in &link.colliders {
            if let Some(col) = world.colliders.get_mut(c) {
                col.set_friction(mu);
            }
        }
        Ok(())
    }
}
