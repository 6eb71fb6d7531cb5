//! Loading a URDF robot into a rapier world with `rapier3d-urdf`, naming its links and joints,
//! giving its links' colliders tribo materials by link name, and driving its joints' motors.
//!
//! Every failure is a [`RobotError`] that names what is wrong (the file, the link, the joint):
//! a file that cannot be read or parsed, a joint whose parent or child link does not exist
//! (`rapier3d-urdf` would panic on it), a link name the robot does not have, a material for a
//! link without colliders, a motor on a joint without a free axis.
//!
//! This file depends only on `rapier3d-urdf` and `tribo_rapier`: copy it into your project.
//!
//! ```no_run
//! # use tribo_lab::rapier::robots::urdf::*;
//! # use tribo_rapier::rapier3d::prelude::*;
//! # use tribo_rapier::{FrictionMaterial, TriboRapier};
//! let mut world = PhysicsWorld::new();
//! let mut tribo = TriboRapier::new();
//! let robot = Robot::load("lab/robots/gripper_round.urdf", Joints::Multibody, &fixed_root(), &mut world)?;
//! let rubber = FrictionMaterial::builder().friction(0.9, 0.7).spinning_resistance(0.004).build().unwrap();
//! robot.set_materials(&mut tribo, &[("finger_left", rubber), ("finger_right", rubber)])?;
//! robot.set_motor(&mut world, "left_slide", 0.05, 10.0)?;
//! # Ok::<(), RobotError>(())
//! ```

use std::fmt;
use std::path::{Path, PathBuf};

use rapier3d_urdf::{UrdfLoaderOptions, UrdfMultibodyOptions, UrdfRobot};
use tribo_rapier::rapier3d::prelude::*;
use tribo_rapier::{FrictionMaterial, TriboRapier};

/// How the robot's joints go into the world.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Joints {
    /// rapier impulse joints (`ImpulseJointSet`), `rapier3d-urdf`'s
    /// `insert_using_impulse_joints`: each link a free body held by its joint's constraint rows.
    Impulse,
    /// rapier multibody joints (`MultibodyJointSet`, reduced coordinates),
    /// `insert_using_multibody_joints`: each link moves only along its joint's free axes.
    Multibody,
}

/// What went wrong loading or addressing a robot; every variant names the file, link or joint.
#[derive(Clone, Debug, PartialEq)]
pub enum RobotError {
    /// The file could not be read.
    Read {
        /// The file.
        path: PathBuf,
        /// The system's message.
        message: String,
    },
    /// The text is not a URDF robot (XML or URDF structure).
    Malformed {
        /// The file, or `<string>`.
        source: String,
        /// The parser's message.
        message: String,
    },
    /// A joint names a parent or child link the robot does not have.
    JointLink {
        /// The joint.
        joint: String,
        /// The missing link.
        link: String,
    },
    /// No link of that name.
    UnknownLink {
        /// The robot.
        robot: String,
        /// The name asked for.
        link: String,
        /// The robot's link names.
        known: Vec<String>,
    },
    /// No joint of that name.
    UnknownJoint {
        /// The robot.
        robot: String,
        /// The name asked for.
        joint: String,
    },
    /// The link has no collision shape (nothing to give a material to).
    NoColliders {
        /// The link.
        link: String,
    },
    /// The joint has no single free axis to drive (fixed, spherical, floating or planar joint),
    /// or the multibody joint is the root's.
    NotDrivable {
        /// The joint.
        joint: String,
    },
    /// A motor's target or force is NaN or infinite, or the force is negative.
    BadMotor {
        /// The joint.
        joint: String,
    },
}

impl fmt::Display for RobotError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RobotError::Read { path, message } => {
                write!(f, "cannot read URDF file {}: {message}", path.display())
            }
            RobotError::Malformed { source, message } => write!(f, "malformed URDF in {source}: {message}"),
            RobotError::JointLink { joint, link } => {
                write!(f, "URDF joint `{joint}` names link `{link}`, which the robot does not have")
            }
            RobotError::UnknownLink { robot, link, known } => {
                write!(f, "robot `{robot}` has no link `{link}` (its links: {})", known.join(", "))
            }
            RobotError::UnknownJoint { robot, joint } => write!(f, "robot `{robot}` has no joint `{joint}`"),
            RobotError::NoColliders { link } => {
                write!(f, "link `{link}` has no collision shape: no collider to give a material to")
            }
            RobotError::NotDrivable { joint } => {
                write!(f, "joint `{joint}` has no single free axis to drive")
            }
            RobotError::BadMotor { joint } => {
                write!(f, "motor of joint `{joint}`: target and force must be finite, force ≥ 0")
            }
        }
    }
}

impl std::error::Error for RobotError {}

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

/// A robot loaded into a rapier [`PhysicsWorld`]: its links and joints by URDF name.
#[derive(Clone, Debug)]
pub struct Robot {
    /// The URDF robot name.
    pub name: String,
    /// The links (those `rapier3d-urdf` keeps: it drops empty links between fixed joints).
    pub links: Vec<RobotLink>,
    /// The joints.
    pub joints: Vec<RobotJoint>,
}

/// `rapier3d-urdf`'s default options with the root link made fixed (a gripper bolted to the
/// world).
pub fn fixed_root() -> UrdfLoaderOptions {
    UrdfLoaderOptions { make_roots_fixed: true, ..Default::default() }
}

impl Robot {
    /// Reads the URDF file at `path` and inserts the robot into `world` with `joints`.
    pub fn load(
        path: impl AsRef<Path>,
        joints: Joints,
        options: &UrdfLoaderOptions,
        world: &mut PhysicsWorld,
    ) -> Result<Robot, RobotError> {
        let path = path.as_ref();
        let text = std::fs::read_to_string(path)
            .map_err(|e| RobotError::Read { path: path.to_path_buf(), message: e.to_string() })?;
        Self::from_urdf(&text, &path.display().to_string(), joints, options, world)
    }

    /// Parses `urdf` (its origin `source` for messages: a file name or `<string>`) and inserts
    /// the robot into `world` with `joints`. Meshes are not loaded (`rapier3d-urdf` without its
    /// mesh features): use primitive collision shapes.
    pub fn from_urdf(
        urdf: &str,
        source: &str,
        joints: Joints,
        options: &UrdfLoaderOptions,
        world: &mut PhysicsWorld,
    ) -> Result<Robot, RobotError> {
        let robot = rapier3d_urdf::urdf_rs::read_from_string(urdf)
            .map_err(|e| RobotError::Malformed { source: source.to_string(), message: e.to_string() })?;
        // rapier3d-urdf indexes its link table by the joints' link names (a panic on a typo).
        for j in &robot.joints {
            for link in [&j.parent.link, &j.child.link] {
                if !robot.links.iter().any(|l| &l.name == link) {
                    return Err(RobotError::JointLink { joint: j.name.clone(), link: link.clone() });
                }
            }
        }
        let loaded = UrdfRobot::from_robot(&robot, options.clone(), Path::new("."));
        let link_names: Vec<String> =
            loaded.links.iter().map(|l| robot.links[l.urdf_link_index].name.clone()).collect();
        let joint_names: Vec<String> =
            loaded.joints.iter().map(|j| robot.joints[j.urdf_joint_index].name.clone()).collect();
        // The joints under their URDF names, in the loader's order.
        let named = |handles: Vec<(JointHandle, [RigidBodyHandle; 2])>| -> Vec<RobotJoint> {
            handles
                .into_iter()
                .zip(&joint_names)
                .map(|((handle, bodies), name)| RobotJoint { name: name.clone(), handle, bodies })
                .collect()
        };
        let (links, joints) = match joints {
            Joints::Impulse => {
                let h = loaded.insert_using_impulse_joints(
                    &mut world.bodies,
                    &mut world.colliders,
                    &mut world.impulse_joints,
                );
                let joints = named(
                    h.joints.iter().map(|j| (JointHandle::Impulse(j.joint), [j.link1, j.link2])).collect(),
                );
                (h.links, joints)
            }
            Joints::Multibody => {
                let h = loaded.insert_using_multibody_joints(
                    &mut world.bodies,
                    &mut world.colliders,
                    &mut world.multibody_joints,
                    UrdfMultibodyOptions::empty(),
                );
                let joints = named(
                    h.joints.iter().map(|j| (JointHandle::Multibody(j.joint), [j.link1, j.link2])).collect(),
                );
                (h.links, joints)
            }
        };
        let links = links
            .iter()
            .zip(link_names)
            .map(|(l, name)| RobotLink {
                name,
                body: l.body,
                colliders: l.colliders.iter().map(|c| c.handle).collect(),
            })
            .collect();
        Ok(Robot { name: robot.name.clone(), links, joints })
    }

    /// The link named `name`.
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

    /// The joint named `name`.
    pub fn joint(&self, name: &str) -> Result<&RobotJoint, RobotError> {
        self.joints
            .iter()
            .find(|j| j.name == name)
            .ok_or_else(|| RobotError::UnknownJoint { robot: self.name.clone(), joint: name.to_string() })
    }

    /// Gives every collider of each named link its material (`(link name, material)`). Checks
    /// every name first: on an error no material is set.
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

    /// Sets rapier's friction coefficient of every collider of link `name` (stock rapier's
    /// friction, for a scene without tribo).
    pub fn set_friction(&self, world: &mut PhysicsWorld, name: &str, mu: f32) -> Result<(), RobotError> {
        for &c in &self.link(name)?.colliders {
            if let Some(col) = world.colliders.get_mut(c) {
                col.set_friction(mu);
            }
        }
        Ok(())
    }

    /// Drives joint `name` along its one free axis (a revolute or continuous joint's angle, a
    /// prismatic joint's slide) with a velocity motor: target velocity `target` (rad/s or m/s
    /// along the URDF axis) with at most `max_force` (N·m or N; 0 releases the joint). URDF's
    /// `<limit effort>` is not read by `rapier3d-urdf`: this is where a robot's effort goes.
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

    /// Sets the damping of every degree of freedom of the robot's multibodies (rapier gives each
    /// free angular one 0.1 by default, which brakes a coasting wheel); no effect on impulse
    /// joints.
    pub fn set_multibody_damping(&self, world: &mut PhysicsWorld, damping: f32) {
        for j in &self.joints {
            if let JointHandle::Multibody(Some(h)) = j.handle {
                if let Some((mb, _)) = world.multibody_joints.get_mut(h) {
                    mb.damping_mut().fill(damping);
                }
            }
        }
    }
}

/// The damping factor of the velocity motors [`Robot::set_motor`] sets: large, so the motor
/// holds its target velocity up to its force bound.
pub const MOTOR_DAMPING: f32 = 1e6;
