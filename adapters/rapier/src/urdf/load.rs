//! Loading a URDF robot into a rapier [`PhysicsWorld`]: [`Robot::load`] and
//! [`Robot::from_urdf`], with impulse or multibody joints ([`Joints`]).

use std::path::Path;

use rapier3d_urdf::{UrdfLoaderOptions, UrdfMultibodyOptions, UrdfRobot};

use super::{JointHandle, Robot, RobotError, RobotJoint, RobotLink};
use crate::rapier3d::prelude::*;

/// How the robot's joints go into the world.
///
/// Use [`Joints::Multibody`] for wheeled robots at game steps (dt = 1/60): rapier's impulse
/// joints alone brake and disturb a wheeled robot at that step (`docs/robots.md`, "Limits");
/// both kinds hold a gripped object.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Joints {
    /// rapier impulse joints (`ImpulseJointSet`), `rapier3d-urdf`'s
    /// `insert_using_impulse_joints`: each link a free body held by its joint's constraint rows.
    Impulse,
    /// rapier multibody joints (`MultibodyJointSet`, reduced coordinates),
    /// `insert_using_multibody_joints`: each link moves only along its joint's free axes.
    Multibody,
}

/// `rapier3d-urdf`'s default options with the root link made fixed (a gripper or an arm bolted
/// to the world).
pub fn fixed_root() -> UrdfLoaderOptions {
    UrdfLoaderOptions { make_roots_fixed: true, ..Default::default() }
}

impl Robot {
    /// Reads the URDF file at `path` and inserts the robot into `world` with `joints`.
    ///
    /// Errors: [`RobotError::Read`] (the file cannot be read), and those of
    /// [`Robot::from_urdf`], naming the file.
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

    /// Parses `urdf` (named `source` in error messages: a file name, or e.g. `<string>`) and
    /// inserts the robot into `world` with `joints`. Meshes are not loaded (`rapier3d-urdf`
    /// without its mesh features): give the links primitive collision shapes.
    ///
    /// Errors: [`RobotError::Malformed`] (not XML, not a URDF robot with at least one link, or
    /// two links or two joints of the same name) and
    /// [`RobotError::JointLink`] (a joint naming a link the robot does not have). On an error
    /// nothing is inserted into `world`.
    pub fn from_urdf(
        urdf: &str,
        source: &str,
        joints: Joints,
        options: &UrdfLoaderOptions,
        world: &mut PhysicsWorld,
    ) -> Result<Robot, RobotError> {
        let robot = rapier3d_urdf::urdf_rs::read_from_string(urdf)
            .map_err(|e| RobotError::Malformed { source: source.to_string(), message: e.to_string() })?;
        // The parser accepts any root element; a URDF robot has at least one link.
        if robot.links.is_empty() {
            let message = "no <link> in a <robot> element".to_string();
            return Err(RobotError::Malformed { source: source.to_string(), message });
        }
        // Names address links and joints: each must be unique (rapier3d-urdf would silently
        // join a joint to one of two links of the same name).
        let duplicate = |kind: &str, names: Vec<&String>| {
            let mut sorted = names;
            sorted.sort();
            sorted.windows(2).find(|w| w[0] == w[1]).map(|w| RobotError::Malformed {
                source: source.to_string(),
                message: format!("two {kind}s named `{}`", w[0]),
            })
        };
        if let Some(e) = duplicate("link", robot.links.iter().map(|l| &l.name).collect()) {
            return Err(e);
        }
        if let Some(e) = duplicate("joint", robot.joints.iter().map(|j| &j.name).collect()) {
            return Err(e);
        }
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
}
