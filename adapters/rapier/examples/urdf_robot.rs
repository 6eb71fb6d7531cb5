//! A URDF robot with tribo friction, as a robotics user sets it up: load a parallel-jaw gripper
//! from its URDF file (the repository's `lab/robots/gripper_round.urdf`), give its fingers'
//! colliders a tribo material by link name, close the fingers with their joint motors on a box,
//! put the box's weight on the grip, step, and read each contact's modes and forces. Also shows
//! the error a wrong link name gives. Fails if the gripped box slips.
//!
//! ```text
//! cargo run --release -p tribo_rapier --no-default-features --features urdf --example urdf_robot
//! ```
//!
//! The READMEs' robot section shows `grip` below (`tests/readme_robot.rs` checks that it is
//! this code).

use std::path::Path;

use tribo_rapier::rapier3d::prelude::*;
use tribo_rapier::urdf::{fixed_root, Joints, Robot};
use tribo_rapier::{FrictionMaterial, TriboRapier};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../lab/robots/gripper_round.urdf");
    let drop = grip(&path)?;
    if drop > 1e-4 {
        return Err(format!("the gripped box slipped {:.3} mm", drop * 1000.0).into());
    }
    Ok(())
}

/// Grips a 0.2 kg box with the gripper of the URDF file at `path`; returns how far the box
/// dropped in the 1 s after its weight came on (m).
fn grip(path: &Path) -> Result<f32, Box<dyn std::error::Error>> {
    let mut world = PhysicsWorld::new();
    world.gravity = Vector::new(0.0, 0.0, -9.81);
    let mut tribo = TriboRapier::new();

    // Load: impulse joints or multibody joints (reduced coordinates; use these for wheeled
    // robots at game steps). The gripper's base is bolted to the world.
    let robot = Robot::load(path, Joints::Multibody, &fixed_root(), &mut world)?;

    // Materials by link name: rubber finger tips, μs 0.9, μk 0.7, spin resistance 4 mm
    // (torsional friction 4 mm × N at each point contact).
    let rubber = FrictionMaterial::builder().friction(0.9, 0.7).spinning_resistance(0.004).build()?;
    robot.set_materials(&mut tribo, &[("finger_left", rubber), ("finger_right", rubber)])?;

    // A wrong link name is an error that names it (and nothing is set).
    if let Err(e) = robot.set_materials(&mut tribo, &[("finger_middle", rubber)]) {
        println!("as expected: {e}");
    }

    // A 0.2 kg box between the finger tips (80 mm below the base), weightless while the
    // fingers close.
    let centre = Vector::new(0.0, 0.0, -0.08);
    let object = world.bodies.insert(RigidBodyBuilder::dynamic().translation(centre).gravity_scale(0.0));
    let shape = ColliderBuilder::cuboid(0.02, 0.02, 0.02).mass(0.2);
    world.colliders.insert_with_parent(shape, object, &mut world.bodies);

    // Motors by joint name (rapier3d-urdf does not read `<limit effort>`): each finger closes
    // at 5 cm/s with at most 5 N, so pressed on the box it pushes with 5 N.
    for joint in ["left_slide", "right_slide"] {
        robot.set_motor(&mut world, joint, 0.05, 5.0)?;
    }
    let dt = world.integration_parameters.dt;
    let steps = |seconds: f32| (seconds / dt).round() as usize;
    for _ in 0..steps(0.5) {
        tribo.step_world(&mut world, &(), &());
    }
    // The weight comes on: 2 μs F = 9 N ≥ m g = 1.96 N, held by static friction.
    world.bodies[object].set_gravity_scale(1.0, true);
    let z0 = world.bodies[object].translation().z;
    for _ in 0..steps(1.0) {
        tribo.step_world(&mut world, &(), &());
    }
    let drop = z0 - world.bodies[object].translation().z;
    println!("box drop after 1 s: {:.3} mm", drop * 1000.0);

    let name = |c: ColliderHandle| {
        let body = world.colliders.get(c).and_then(|c| c.parent());
        robot.links.iter().find(|l| Some(l.body) == body).map_or("box", |l| l.name.as_str())
    };
    for c in tribo.contacts() {
        println!(
            "{} – {}: normal force {:.2} N, slide {:?}, spin {:?} (capacity {:.4} N m)",
            name(c.collider1),
            name(c.collider2),
            c.normal_force,
            c.slide,
            c.spin,
            c.spin_capacity,
        );
    }
    Ok(drop)
}
