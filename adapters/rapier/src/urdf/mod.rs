//! URDF robots (feature `urdf`): load a robot with [`rapier3d-urdf`](rapier3d_urdf) into a
//! rapier [`PhysicsWorld`](crate::rapier3d::prelude::PhysicsWorld), on impulse or multibody
//! joints ([`Joints`]), give its links' colliders tribo materials by link name
//! ([`Robot::set_materials`]) and drive its joints with velocity motors by joint name
//! ([`Robot::set_motor`]; a robot driven slowly is put to sleep by rapier unless kept awake,
//! [`Robot::keep_awake`]).
//!
//! `rapier3d-urdf` follows rapier 0.36, so the `urdf` feature turns on `rapier-0-36`: depend on
//! the crate with `default-features = false, features = ["urdf"]` (with the default
//! `rapier-0-35` left on as well, the crate still builds against rapier 0.36, and compiles
//! rapier 0.35 for nothing).
//!
//! Every failure is a [`RobotError`] that names what is wrong (the file, the link, the joint):
//! a file that cannot be read or parsed, a joint whose parent or child link does not exist
//! (`rapier3d-urdf` itself would panic on it), a link or joint name the robot does not have, a
//! material for a link without colliders, a motor on a joint without a single free axis, a
//! motor force, friction coefficient or damping that is not a finite non-negative number.
//!
//! **Which joints.** Both kinds hold a gripped object the same way. For wheeled robots at game
//! steps (dt = 1/60) use [`Joints::Multibody`]: on impulse joints at that step rapier's joints
//! alone brake and disturb the robot (a differential-drive robot turned at 0.66 rad/s² where
//! 1.62 is expected; on multibody joints 1.6183). Measurements: `docs/robots.md` in the
//! repository.
//!
//! ```
//! use tribo_rapier::rapier3d::prelude::*;
//! use tribo_rapier::urdf::{fixed_root, Joints, Robot, RobotError};
//! use tribo_rapier::{FrictionMaterial, TriboRapier};
//!
//! // A base bolted to the world and a finger on a prismatic joint along x (a file works the
//! // same way: `Robot::load("gripper.urdf", …)`).
//! const URDF: &str = r#"<robot name="slider">
//!   <link name="base"><inertial><mass value="1"/>
//!     <inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.01"/></inertial></link>
//!   <link name="finger"><inertial><mass value="0.05"/>
//!     <inertia ixx="1e-5" ixy="0" ixz="0" iyy="1e-5" iyz="0" izz="1e-5"/></inertial>
//!     <collision><geometry><box size="0.01 0.04 0.04"/></geometry></collision></link>
//!   <joint name="slide" type="prismatic"><parent link="base"/><child link="finger"/>
//!     <axis xyz="1 0 0"/><limit lower="-0.1" upper="0.1" effort="10" velocity="1"/></joint>
//! </robot>"#;
//!
//! fn main() -> Result<(), Box<dyn std::error::Error>> {
//!     let mut world = PhysicsWorld::new();
//!     let mut tribo = TriboRapier::new();
//!     let robot = Robot::from_urdf(URDF, "<string>", Joints::Multibody, &fixed_root(), &mut world)?;
//!     // Materials by link name: a rubber finger tip.
//!     let rubber = FrictionMaterial::builder().friction(0.9, 0.7).spinning_resistance(0.004).build()?;
//!     robot.set_materials(&mut tribo, &[("finger", rubber)])?;
//!     // Motors by joint name: 5 cm/s with at most 5 N (`rapier3d-urdf` ignores `<limit effort>`).
//!     robot.set_motor(&mut world, "slide", 0.05, 5.0)?;
//!     // At 5 cm/s rapier would put the finger to sleep with its motor on.
//!     robot.keep_awake(&mut world);
//!     // A name the robot does not have is an error naming it.
//!     let err = robot.set_motor(&mut world, "elbow", 0.05, 5.0).unwrap_err();
//!     assert!(matches!(err, RobotError::UnknownJoint { .. }) && err.to_string().contains("elbow"));
//!
//!     for _ in 0..60 {
//!         tribo.step_world(&mut world, &(), &());
//!     }
//!     let x = world.bodies[robot.body("finger")?].translation().x;
//!     assert!((x - 0.05).abs() < 0.005, "the finger moved 5 cm in 1 s: {x}");
//!     Ok(())
//! }
//! ```

mod error;
mod load;
mod motor;
mod robot;

pub use error::RobotError;
pub use load::{fixed_root, Joints};
pub use motor::MOTOR_DAMPING;
/// `rapier3d-urdf` (0.36.1), which this module drives: its [`UrdfLoaderOptions`] set the pose,
/// density and fixed root of a loaded robot.
pub use rapier3d_urdf;
pub use rapier3d_urdf::UrdfLoaderOptions;
pub use robot::{JointHandle, Robot, RobotJoint, RobotLink};
