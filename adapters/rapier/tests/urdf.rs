//! The URDF loader (feature `urdf`): the repository's three robots load on impulse and
//! multibody joints with their links, colliders and joints under their URDF names; a robot this
//! test writes to a file loads, takes materials by link name and turns its joint with a motor
//! by joint name; and every `RobotError` names what is wrong.
#![cfg(feature = "urdf")]

use std::path::{Path, PathBuf};

use tribo_rapier::rapier3d::prelude::*;
use tribo_rapier::urdf::{fixed_root, JointHandle, Joints, Robot, RobotError, UrdfLoaderOptions};
use tribo_rapier::{FrictionMaterial, TriboRapier};

const BOTH: [Joints; 2] = [Joints::Impulse, Joints::Multibody];

fn robots_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../lab/robots")
}

fn rubber() -> FrictionMaterial {
    FrictionMaterial::builder().friction(0.9, 0.7).spinning_resistance(0.004).build().unwrap()
}

fn names<T>(items: &[T], name: impl Fn(&T) -> &str) -> Vec<String> {
    let mut v: Vec<String> = items.iter().map(|i| name(i).to_string()).collect();
    v.sort();
    v
}

/// Loads `file` of the repository's robots on `joints` and checks it against the names, joint
/// count and collision shapes written in the file.
fn check_repository_robot(file: &str, joints: Joints, links: &[&str], joint_names: &[&str], shapes: usize) {
    let mut world = PhysicsWorld::new();
    let robot = Robot::load(robots_dir().join(file), joints, &fixed_root(), &mut world).unwrap();
    assert_eq!(robot.name, file.trim_end_matches(".urdf"));
    let mut expected: Vec<String> = links.iter().map(|s| s.to_string()).collect();
    expected.sort();
    assert_eq!(names(&robot.links, |l| &l.name), expected, "{file}");
    let mut expected: Vec<String> = joint_names.iter().map(|s| s.to_string()).collect();
    expected.sort();
    assert_eq!(names(&robot.joints, |j| &j.name), expected, "{file}");
    // One body per link, one collider per <collision> shape, each on its link's body.
    assert_eq!(world.bodies.len(), links.len(), "{file}");
    assert_eq!(world.colliders.len(), shapes, "{file}");
    assert_eq!(robot.links.iter().map(|l| l.colliders.len()).sum::<usize>(), shapes, "{file}");
    for l in &robot.links {
        for &c in &l.colliders {
            assert_eq!(world.colliders[c].parent(), Some(l.body), "{file}: {}", l.name);
        }
    }
    // The joints went into the set `joints` names, joining their links' bodies.
    match joints {
        Joints::Impulse => assert_eq!(world.impulse_joints.len(), joint_names.len(), "{file}"),
        Joints::Multibody => assert_eq!(world.impulse_joints.len(), 0, "{file}"),
    }
    for j in &robot.joints {
        match (joints, j.handle) {
            (Joints::Impulse, JointHandle::Impulse(h)) => {
                let joint = world.impulse_joints.get(h).expect("the joint is in the set");
                assert_eq!([joint.body1(), joint.body2()], j.bodies, "{file}: {}", j.name);
            }
            (Joints::Multibody, JointHandle::Multibody(Some(h))) => {
                assert!(world.multibody_joints.get(h).is_some(), "{file}: {}", j.name);
            }
            (_, h) => panic!("{file}: joint {} loaded as {h:?} for {joints:?}", j.name),
        }
    }
    // The root is fixed, the other links are dynamic.
    let fixed: Vec<&str> =
        robot.links.iter().filter(|l| world.bodies[l.body].is_fixed()).map(|l| l.name.as_str()).collect();
    assert_eq!(fixed, [links[0]], "{file}");
}

#[test]
fn the_repository_robots_load_on_both_joint_kinds() {
    for joints in BOTH {
        let gripper = (["base", "finger_left", "finger_right"], ["left_slide", "right_slide"], 3);
        for file in ["gripper_flat.urdf", "gripper_round.urdf"] {
            check_repository_robot(file, joints, &gripper.0, &gripper.1, gripper.2);
        }
        check_repository_robot(
            "diff_drive.urdf",
            joints,
            &["chassis", "wheel_left", "wheel_right", "caster"],
            &["left_axle", "right_axle", "caster_socket"],
            4,
        );
    }
}

/// A pendulum: a base bolted to the world and an arm on a continuous (revolute, unlimited) joint about y, with a ball
/// at its end (the one collision shape); no gravity in the test's world.
const PENDULUM: &str = r#"<?xml version="1.0"?>
<robot name="pendulum">
  <link name="base">
    <inertial><mass value="1"/><inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.01"/></inertial>
  </link>
  <link name="arm">
    <inertial><origin xyz="0.2 0 0"/><mass value="0.5"/>
      <inertia ixx="1e-4" ixy="0" ixz="0" iyy="1e-4" iyz="0" izz="1e-4"/></inertial>
    <collision><origin xyz="0.2 0 0"/><geometry><sphere radius="0.03"/></geometry></collision>
  </link>
  <joint name="shoulder" type="continuous">
    <parent link="base"/><child link="arm"/><axis xyz="0 1 0"/>
  </joint>
  <joint name="weld" type="fixed">
    <parent link="arm"/><child link="tip"/><origin xyz="0.2 0 0"/>
  </joint>
  <link name="tip">
    <inertial><mass value="0.1"/><inertia ixx="1e-5" ixy="0" ixz="0" iyy="1e-5" iyz="0" izz="1e-5"/></inertial>
    <collision><geometry><box size="0.01 0.01 0.01"/></geometry></collision>
  </link>
</robot>"#;

/// Writes `text` to a file of its own in the system's temporary directory.
fn temp_file(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tribo_rapier_urdf_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn a_written_robot_takes_materials_by_link_and_motors_by_joint() {
    let path = temp_file("pendulum.urdf", PENDULUM);
    for joints in BOTH {
        let mut world = PhysicsWorld::new();
        world.gravity = Vector::ZERO;
        let mut tribo = TriboRapier::new();
        let robot = Robot::load(&path, joints, &fixed_root(), &mut world).unwrap();
        assert_eq!(robot.name, "pendulum");

        robot.set_materials(&mut tribo, &[("arm", rubber())]).unwrap();
        let arm = robot.link("arm").unwrap();
        assert_eq!(arm.colliders.len(), 1);
        assert_eq!(tribo.material(arm.colliders[0]), Some(&rubber()));
        robot.set_friction(&mut world, "arm", 0.3).unwrap();
        assert_eq!(world.colliders[arm.colliders[0]].friction(), 0.3);

        // The motor (10 N m, far above what the arm's inertia needs) turns the arm about the
        // joint's axis (y) at its target rate within 3 s: at once on the multibody joint, with
        // rapier's soft approach on the impulse joint.
        robot.set_multibody_damping(&mut world, 0.0).unwrap();
        robot.set_motor(&mut world, "shoulder", 2.0, 10.0).unwrap();
        for _ in 0..180 {
            tribo.step_world(&mut world, &(), &());
        }
        let w = world.bodies[robot.body("arm").unwrap()].angvel();
        assert!((w.y - 2.0).abs() < 0.05 && w.x.abs() < 1e-3 && w.z.abs() < 1e-3, "{joints:?}: {w:?}");
        // Released (force bound 0), nothing drives or brakes it: with no gravity it coasts.
        robot.set_motor(&mut world, "shoulder", 0.0, 0.0).unwrap();
        for _ in 0..30 {
            tribo.step_world(&mut world, &(), &());
        }
        let w2 = world.bodies[robot.body("arm").unwrap()].angvel().y;
        assert!(w2 > 0.98 * w.y, "{joints:?}: released arm at {w2} rad/s");
    }
}

#[test]
fn the_loader_options_place_the_robot() {
    let options =
        UrdfLoaderOptions { shift: Pose::from_translation(Vector::new(1.0, 2.0, 3.0)), ..fixed_root() };
    let mut world = PhysicsWorld::new();
    let robot = Robot::from_urdf(PENDULUM, "<string>", Joints::Multibody, &options, &mut world).unwrap();
    let base = world.bodies[robot.body("base").unwrap()].translation();
    assert_eq!(base, Vector::new(1.0, 2.0, 3.0));
}

#[test]
fn an_unreadable_file_is_an_error_naming_it() {
    let mut world = PhysicsWorld::new();
    let err = Robot::load("no/such/robot.urdf", Joints::Impulse, &fixed_root(), &mut world).unwrap_err();
    assert!(
        matches!(&err, RobotError::Read { path, .. } if path == Path::new("no/such/robot.urdf")),
        "{err:?}"
    );
    assert!(err.to_string().contains("no/such/robot.urdf"), "{err}");
}

#[test]
fn a_malformed_file_is_an_error_naming_the_file() {
    let mut world = PhysicsWorld::new();
    // Not XML.
    let path = temp_file("broken.urdf", "<robot name=\"x\"><link name=");
    let err = Robot::load(&path, Joints::Impulse, &fixed_root(), &mut world).unwrap_err();
    assert!(matches!(&err, RobotError::Malformed { source, .. } if *source == path.display().to_string()));
    assert!(err.to_string().contains("broken.urdf"), "{err}");
    // XML, but not a robot.
    let err =
        Robot::from_urdf("<robots/>", "mine.urdf", Joints::Multibody, &fixed_root(), &mut world).unwrap_err();
    assert!(matches!(&err, RobotError::Malformed { source, .. } if source == "mine.urdf"), "{err:?}");
    // Two links, or two joints, of one name.
    let two_arms = PENDULUM.replace(r#"<link name="tip">"#, r#"<link name="arm">"#);
    let err =
        Robot::from_urdf(&two_arms, "mine.urdf", Joints::Impulse, &fixed_root(), &mut world).unwrap_err();
    assert!(matches!(&err, RobotError::Malformed { message, .. } if message.contains("`arm`")), "{err:?}");
    let two_welds = PENDULUM.replace(r#"<joint name="shoulder""#, r#"<joint name="weld""#);
    let err =
        Robot::from_urdf(&two_welds, "mine.urdf", Joints::Impulse, &fixed_root(), &mut world).unwrap_err();
    assert!(matches!(&err, RobotError::Malformed { message, .. } if message.contains("`weld`")), "{err:?}");
    assert!(world.bodies.is_empty() && world.colliders.is_empty());
}

#[test]
fn a_joint_naming_a_missing_link_is_an_error_naming_both() {
    for joints in BOTH {
        let mut world = PhysicsWorld::new();
        let urdf = PENDULUM.replace(r#"<child link="tip"/>"#, r#"<child link="tipp"/>"#);
        let err = Robot::from_urdf(&urdf, "<string>", joints, &fixed_root(), &mut world).unwrap_err();
        assert_eq!(err, RobotError::JointLink { joint: "weld".into(), link: "tipp".into() });
        assert!(err.to_string().contains("`weld`") && err.to_string().contains("`tipp`"), "{err}");
        assert!(world.bodies.is_empty() && world.colliders.is_empty() && world.impulse_joints.is_empty());
    }
}

#[test]
fn unknown_link_and_joint_names_are_errors_naming_them() {
    for joints in BOTH {
        let mut world = PhysicsWorld::new();
        let mut tribo = TriboRapier::new();
        let robot =
            Robot::load(robots_dir().join("gripper_round.urdf"), joints, &fixed_root(), &mut world).unwrap();
        // Materials: every name is checked before any is set.
        let err = robot
            .set_materials(&mut tribo, &[("finger_left", rubber()), ("finger_middle", rubber())])
            .unwrap_err();
        match &err {
            RobotError::UnknownLink { robot, link, known } => {
                assert_eq!((robot.as_str(), link.as_str()), ("gripper_round", "finger_middle"));
                assert!(known.iter().any(|k| k == "finger_left"), "{known:?}");
            }
            e => panic!("{e:?}"),
        }
        assert!(err.to_string().contains("finger_middle"), "{err}");
        assert_eq!(tribo.material(robot.link("finger_left").unwrap().colliders[0]), None);
        assert!(matches!(robot.body("palm"), Err(RobotError::UnknownLink { .. })));
        assert!(matches!(robot.set_friction(&mut world, "palm", 0.5), Err(RobotError::UnknownLink { .. })));
        // Motors.
        let err = robot.set_motor(&mut world, "elbow", 0.1, 1.0).unwrap_err();
        match &err {
            RobotError::UnknownJoint { joint, known, .. } => {
                assert_eq!(joint, "elbow");
                assert!(known.iter().any(|k| k == "left_slide"), "{known:?}");
            }
            e => panic!("{e:?}"),
        }
        assert!(err.to_string().contains("elbow"), "{err}");
    }
}

#[test]
fn a_material_for_a_link_without_collision_shapes_is_an_error() {
    let mut world = PhysicsWorld::new();
    let mut tribo = TriboRapier::new();
    let robot = Robot::from_urdf(PENDULUM, "<string>", Joints::Impulse, &fixed_root(), &mut world).unwrap();
    let err = robot.set_materials(&mut tribo, &[("arm", rubber()), ("base", rubber())]).unwrap_err();
    assert_eq!(err, RobotError::NoColliders { link: "base".into() });
    assert!(err.to_string().contains("`base`"), "{err}");
    assert_eq!(tribo.material(robot.link("arm").unwrap().colliders[0]), None);
}

#[test]
fn a_motor_needs_a_joint_with_one_free_axis() {
    for joints in BOTH {
        // The pendulum's weld (fixed) and the robot's caster ball socket (spherical).
        let mut world = PhysicsWorld::new();
        let robot = Robot::from_urdf(PENDULUM, "<string>", joints, &fixed_root(), &mut world).unwrap();
        assert_eq!(
            robot.set_motor(&mut world, "weld", 1.0, 1.0),
            Err(RobotError::NotDrivable { joint: "weld".into() }),
            "{joints:?}"
        );
        let mut world = PhysicsWorld::new();
        let drive = Robot::load(
            robots_dir().join("diff_drive.urdf"),
            joints,
            &UrdfLoaderOptions::default(),
            &mut world,
        )
        .unwrap();
        let err = drive.set_motor(&mut world, "caster_socket", 1.0, 1.0).unwrap_err();
        assert_eq!(err, RobotError::NotDrivable { joint: "caster_socket".into() });
        assert!(err.to_string().contains("caster_socket"), "{err}");
        drive.set_motor(&mut world, "left_axle", 1.0, 1.0).unwrap();
    }
}

#[test]
fn motor_friction_and_damping_values_are_validated() {
    let mut world = PhysicsWorld::new();
    let robot = Robot::from_urdf(PENDULUM, "<string>", Joints::Multibody, &fixed_root(), &mut world).unwrap();
    let arm = robot.link("arm").unwrap().colliders[0];
    let mu = world.colliders[arm].friction();
    for (target, force) in
        [(f32::NAN, 1.0), (f32::INFINITY, 1.0), (1.0, -1.0), (1.0, f32::NAN), (1.0, f32::INFINITY)]
    {
        let err = robot.set_motor(&mut world, "shoulder", target, force).unwrap_err();
        assert_eq!(err, RobotError::BadMotor { joint: "shoulder".into() }, "{target} {force}");
    }
    for mu in [-0.1, f32::NAN, f32::INFINITY] {
        let err = robot.set_friction(&mut world, "arm", mu).unwrap_err();
        assert!(matches!(&err, RobotError::BadFriction { link, .. } if link == "arm"), "{mu}: {err:?}");
    }
    for d in [-1.0, f32::NAN, f32::INFINITY] {
        assert!(
            matches!(robot.set_multibody_damping(&mut world, d), Err(RobotError::BadDamping { .. })),
            "{d}"
        );
    }
    // The refused coefficients left the collider's as it was.
    assert_eq!(world.colliders[arm].friction(), mu);
}
