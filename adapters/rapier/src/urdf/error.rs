//! [`RobotError`]: what went wrong loading or addressing a robot, naming the file, link or joint.

use std::fmt;
use std::path::PathBuf;

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
        /// The file, or what the caller named the text (e.g. `<string>`).
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
        /// The robot's joint names.
        known: Vec<String>,
    },
    /// The link has no collision shape (nothing to give a material to).
    NoColliders {
        /// The link.
        link: String,
    },
    /// The joint has no single free axis to drive (fixed, spherical, floating or planar joint),
    /// or rapier refused the multibody joint (it would close a loop).
    NotDrivable {
        /// The joint.
        joint: String,
    },
    /// A motor's target or force is NaN or infinite, or the force is negative.
    BadMotor {
        /// The joint.
        joint: String,
    },
    /// A friction coefficient that is NaN, infinite or negative.
    BadFriction {
        /// The link.
        link: String,
        /// The value given.
        value: f32,
    },
    /// A multibody damping that is NaN, infinite or negative.
    BadDamping {
        /// The value given.
        value: f32,
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
            RobotError::UnknownJoint { robot, joint, known } => {
                write!(f, "robot `{robot}` has no joint `{joint}` (its joints: {})", known.join(", "))
            }
            RobotError::NoColliders { link } => {
                write!(f, "link `{link}` has no collision shape: no collider to give a material to")
            }
            RobotError::NotDrivable { joint } => {
                write!(f, "joint `{joint}` has no single free axis to drive")
            }
            RobotError::BadMotor { joint } => {
                write!(f, "motor of joint `{joint}`: target and force must be finite, force ≥ 0")
            }
            RobotError::BadFriction { link, value } => {
                write!(f, "friction coefficient {value} of link `{link}`: must be finite and ≥ 0")
            }
            RobotError::BadDamping { value } => {
                write!(f, "multibody damping {value}: must be finite and ≥ 0")
            }
        }
    }
}

impl std::error::Error for RobotError {}
