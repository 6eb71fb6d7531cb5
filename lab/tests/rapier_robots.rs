//! URDF robots (rapier3d-urdf, feature `rapier-0-36`): every `robot …` validation row passes
//! (the gripper's hold thresholds, slip accelerations and re-grip, the pinched rod's and ball's
//! torsional hold, the differential-drive robot's coasting, turning and parking; each expected number is
//! the scene's mechanics, derived in `lab/src/rapier/robots/{gripper,drive}.rs`), and the URDF
//! helper's errors name what is wrong.
#![cfg(feature = "rapier-0-36")]

use tribo_lab::rapier::robots::gripper::robots_dir;
use tribo_lab::rapier::robots::urdf::{fixed_root, Joints, Robot, RobotError};
use tribo_rapier::rapier3d::prelude::*;
use tribo_rapier::{FrictionMaterial, TriboRapier};

#[test]
fn every_robot_row_passes() {
    let rows = tribo_lab::rapier::robots::rows::validation_rows();
    // 4 (joints × dt) × (box 11 + rod 4 + ball 5) + the box at 1/1000 (6) + 3 drive
    // configurations × (coast 3 + turn 4 + park 4).
    assert_eq!(rows.len(), 4 * 20 + 6 + 3 * 11);
    let failed: Vec<String> = rows
        .iter()
        .filter(|r| !r.pass)
        .map(|r| format!("{} | {}: expected {} measured {}", r.case, r.quantity, r.expected, r.measured))
        .collect();
    assert!(failed.is_empty(), "failed rows:\n{}", failed.join("\n"));
}

fn rubber() -> FrictionMaterial {
    FrictionMaterial::builder().friction(0.9, 0.7).spinning_resistance(0.004).build().unwrap()
}

#[test]
fn a_missing_link_name_is_an_error_naming_it() {
    for joints in [Joints::Impulse, Joints::Multibody] {
        let mut world = PhysicsWorld::new();
        let mut tribo = TriboRapier::new();
        let robot =
            Robot::load(robots_dir().join("gripper_round.urdf"), joints, &fixed_root(), &mut world).unwrap();
        let err = robot
            .set_materials(&mut tribo, &[("finger_left", rubber()), ("finger_middle", rubber())])
            .unwrap_err();
        match &err {
            RobotError::UnknownLink { link, known, .. } => {
                assert_eq!(link, "finger_middle");
                assert!(known.iter().any(|k| k == "finger_left"));
            }
            e => panic!("{e:?}"),
        }
        assert!(err.to_string().contains("finger_middle"), "{err}");
        // Nothing was set: the names are checked first.
        assert!(tribo.material(robot.link("finger_left").unwrap().colliders[0]).is_none());
        assert!(matches!(robot.joint("elbow"), Err(RobotError::UnknownJoint { .. })));
    }
}

#[test]
fn a_malformed_file_is_an_error_naming_the_file() {
    let mut world = PhysicsWorld::new();
    let err = Robot::from_urdf(
        "<robot name=\"x\"><link name=",
        "broken.urdf",
        Joints::Impulse,
        &fixed_root(),
        &mut world,
    )
    .unwrap_err();
    assert!(matches!(err, RobotError::Malformed { .. }), "{err:?}");
    assert!(err.to_string().contains("broken.urdf"), "{err}");
    let err = Robot::load("no/such/robot.urdf", Joints::Impulse, &fixed_root(), &mut world).unwrap_err();
    assert!(
        matches!(err, RobotError::Read { .. }) && err.to_string().contains("no/such/robot.urdf"),
        "{err}"
    );
    // A joint naming a link the robot does not have (rapier3d-urdf would panic on it).
    let urdf = r#"<robot name="r"><link name="a"/><joint name="j" type="fixed"><parent link="a"/><child link="b"/></joint></robot>"#;
    let err = Robot::from_urdf(urdf, "<string>", Joints::Multibody, &fixed_root(), &mut world).unwrap_err();
    assert_eq!(err, RobotError::JointLink { joint: "j".into(), link: "b".into() });
    assert!(world.bodies.is_empty());
}

#[test]
fn a_link_without_colliders_is_an_error_naming_it() {
    let urdf = r#"<robot name="r">
      <link name="base"><inertial><mass value="1"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial></link>
      <link name="pad"><inertial><mass value="1"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial>
        <collision><geometry><sphere radius="0.01"/></geometry></collision></link>
      <joint name="j" type="prismatic"><parent link="base"/><child link="pad"/><axis xyz="1 0 0"/>
        <limit lower="0" upper="1" effort="1" velocity="1"/></joint>
    </robot>"#;
    let mut world = PhysicsWorld::new();
    let mut tribo = TriboRapier::new();
    let robot = Robot::from_urdf(urdf, "<string>", Joints::Impulse, &fixed_root(), &mut world).unwrap();
    let err = robot.set_materials(&mut tribo, &[("pad", rubber()), ("base", rubber())]).unwrap_err();
    assert_eq!(err, RobotError::NoColliders { link: "base".into() });
    assert!(err.to_string().contains("`base`"), "{err}");
    // A motor: only on a joint with one free axis, finite, force ≥ 0.
    robot.set_motor(&mut world, "j", 0.1, 2.0).unwrap();
    assert_eq!(
        robot.set_motor(&mut world, "j", f32::NAN, 2.0),
        Err(RobotError::BadMotor { joint: "j".into() })
    );
    assert_eq!(robot.set_motor(&mut world, "j", 0.1, -1.0), Err(RobotError::BadMotor { joint: "j".into() }));
}
