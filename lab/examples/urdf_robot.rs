//! A URDF robot with tribo friction, as a robotics user sets it up: load a parallel-jaw gripper
//! from its URDF file (`lab/robots/gripper_round.urdf`), give its fingers' colliders a tribo
//! material by link name, close the fingers with their joint motors on a box, lift its weight
//! onto the grip, step, and read each contact's modes and forces. Also shows the errors a
//! wrong link name gives.
//!
//! ```text
//! cargo run --release -p tribo_lab --no-default-features --features rapier-0-36 --example urdf_robot
//! ```
//!
//! `lab/src/rapier/robots/urdf.rs` (the `Robot` helper used here) depends only on
//! `rapier3d-urdf` and `tribo_rapier`: copy it into your project.

use tribo_lab::rapier::robots::gripper::robots_dir;
use tribo_lab::rapier::robots::urdf::{fixed_root, Joints, Robot, RobotError};
use tribo_rapier::rapier3d::prelude::*;
use tribo_rapier::{FrictionMaterial, TriboRapier};

fn main() -> Result<(), RobotError> {
    let mut world = PhysicsWorld::new();
    world.gravity = Vector::new(0.0, 0.0, -9.81);
    let mut tribo = TriboRapier::new();

    // Load: impulse joints (rapier3d-urdf's default way); `Joints::Multibody` for reduced
    // coordinates. The gripper's base is bolted to the world.
    let path = robots_dir().join("gripper_round.urdf");
    let robot = Robot::load(&path, Joints::Impulse, &fixed_root(), &mut world)?;

    // Materials by link name: rubber finger tips, μs 0.9, μk 0.7, spin resistance 4 mm
    // (torsional friction 4 mm × N at each point contact).
    let rubber = FrictionMaterial::builder()
        .friction(0.9, 0.7)
        .spinning_resistance(0.004)
        .build()
        .expect("a valid material");
    robot.set_materials(&mut tribo, &[("finger_left", rubber), ("finger_right", rubber)])?;

    // A wrong link name is an error that names it (and nothing is set).
    if let Err(e) = robot.set_materials(&mut tribo, &[("finger_middle", rubber)]) {
        println!("as expected: {e}");
    }

    // A 0.2 kg box between the finger tips (the grip centre is 80 mm below the base),
    // weightless while the fingers close.
    let centre = Vector::new(0.0, 0.0, -0.08);
    let object = world.bodies.insert(RigidBodyBuilder::dynamic().translation(centre).gravity_scale(0.0));
    world.colliders.insert_with_parent(
        ColliderBuilder::cuboid(0.02, 0.02, 0.02).mass(0.2),
        object,
        &mut world.bodies,
    );

    // rapier3d-urdf does not read `<limit effort>`: the motors are set here. Each finger
    // closes at 5 cm/s with at most 5 N: pressed on the box, it pushes with 5 N.
    for joint in ["left_slide", "right_slide"] {
        robot.set_motor(&mut world, joint, 0.05, 5.0)?;
    }
    let dt = world.integration_parameters.dt;
    for _ in 0..(0.5 / dt) as usize {
        tribo.step_world(&mut world, &(), &());
    }
    // Its weight comes on: 2 μs F = 9 N ≥ m g = 1.96 N, held by static friction.
    world.bodies[object].set_gravity_scale(1.0, true);
    let z0 = world.bodies[object].translation().z;
    for _ in 0..(1.0 / dt) as usize {
        tribo.step_world(&mut world, &(), &());
    }

    println!("box drop after 1 s: {:.3} mm", (z0 - world.bodies[object].translation().z) * 1000.0);
    let finger = |c: ColliderHandle| {
        let body = world.colliders.get(c).and_then(|c| c.parent());
        robot.links.iter().find(|l| Some(l.body) == body).map_or("box", |l| l.name.as_str())
    };
    for c in tribo.contacts() {
        println!(
            "{} – {}: normal force {:.2} N, slide {:?}, spin {:?} (capacity {:.4} N m), friction coefficient {:.2}",
            finger(c.collider1),
            finger(c.collider2),
            c.normal_force,
            c.slide,
            c.spin,
            c.spin_capacity,
            c.friction,
        );
    }
    Ok(())
}
