//! Prints the verdicts of tribo_rapier's two run-time diagnostics (docs/realizability.md §9):
//!
//! 1. the two-contact monitor on a ball released in a V-trough tilted 10° whose μ = 0.05 is
//!    below the 0.0554 two-point rolling needs: "not realizable, RS SR SS" from the first step,
//!    reported again when μ is raised to 0.5 and the verdict turns;
//! 2. the single-contact slip diagnostic on a ball thrown sliding up a 10° slope (μ = 0.2): the
//!    slip reverses, turns downslope and ends at the predicted time.
//!
//! ```text
//! cargo run --release -p tribo_rapier --example diagnostics
//! ```

use std::f32::consts::{FRAC_PI_4, SQRT_2};
use tribo_rapier::diagnostics::RealizabilitySettings;
use tribo_rapier::rapier3d::prelude::*;
use tribo_rapier::{FrictionMaterial, SlipFate, Status, TriboRapier};

fn material(mu: f64) -> FrictionMaterial {
    FrictionMaterial::builder().friction(mu, mu).no_rolling_resistance().build().expect("valid material")
}

fn trough() {
    println!("== two contacts: a ball in a V-trough tilted 10°, μ 0.05, raised to 0.5 at step 30 ==");
    let r = 0.1;
    let tilt = 10f32.to_radians();
    let mut world = PhysicsWorld::new();
    world.gravity = Vector::new(0.0, -9.81 * tilt.cos(), 9.81 * tilt.sin());
    // Two walls at ±45° meeting below the ball, running along z.
    for (normal, angle) in
        [(Vector::new(-1.0, 1.0, 0.0), FRAC_PI_4), (Vector::new(1.0, 1.0, 0.0), -FRAC_PI_4)]
    {
        let n = normal.normalize();
        let along = Vector::Z.cross(n);
        let up = if along.y > 0.0 { along } else { -along };
        let center = Vector::new(0.0, -SQRT_2 * r, 10.0) + up * (5.0 * r) - n * (0.5 * r);
        let wall = RigidBodyBuilder::fixed().translation(center).rotation(Vector::new(0.0, 0.0, angle));
        let wall = world.bodies.insert(wall);
        let collider = ColliderBuilder::cuboid(5.0 * r, 0.5 * r, 11.0);
        world.colliders.insert_with_parent(collider, wall, &mut world.bodies);
    }
    let ball = world.bodies.insert(RigidBodyBuilder::dynamic().can_sleep(false));
    let collider =
        world.colliders.insert_with_parent(ColliderBuilder::ball(r).density(1000.0), ball, &mut world.bodies);
    let mut tribo = TriboRapier::new();
    tribo.set_material(collider, material(0.05));
    // The gravity comes from the world (`step_world`).
    tribo.set_realizability(Some(RealizabilitySettings::default()));
    for step in 1..=60 {
        tribo.step_world(&mut world, &(), &());
        for rep in tribo.realizability_changes() {
            match rep.status() {
                Some(Status::NotRealizable) => println!(
                    "step {step}: not realizable, can start {:?} (margin {:.3} m/s²; slide modes {:?})",
                    rep.transitions(),
                    rep.margin().unwrap_or(f64::NAN),
                    rep.contacts.map(|c| c.slide),
                ),
                Some(status) => {
                    println!("step {step}: {status:?} (slide modes {:?})", rep.contacts.map(|c| c.slide))
                }
                None => println!(
                    "step {step}: no verdict: {}",
                    rep.error().map_or(String::new(), |e| e.to_string())
                ),
            }
        }
        if step == 30 {
            tribo.set_material(collider, material(0.5));
        }
    }
}

fn slope() {
    println!("== one contact: a ball thrown sliding up a 10° slope, μ 0.2 ==");
    let alpha = 10f32.to_radians();
    let mut world = PhysicsWorld::new();
    // The slope as a level ground under tilted gravity: downslope is +x.
    world.gravity = Vector::new(9.81 * alpha.sin(), -9.81 * alpha.cos(), 0.0);
    world.colliders.insert(ColliderBuilder::cuboid(50.0, 0.5, 50.0).translation(Vector::new(0.0, -0.5, 0.0)));
    let ball = world.bodies.insert(
        RigidBodyBuilder::dynamic()
            .translation(Vector::new(0.0, 0.1, 0.0))
            .linvel(Vector::new(-1.0, 0.0, 0.3)),
    );
    let collider = world.colliders.insert_with_parent(
        ColliderBuilder::ball(0.1).density(1000.0),
        ball,
        &mut world.bodies,
    );
    let mut tribo = TriboRapier::new();
    tribo.set_material(collider, material(0.2));
    tribo.watch_slip(ball, true);
    for step in 1..=30 {
        tribo.step_world(&mut world, &(), &());
        let Some(rep) = tribo.slip_report(ball).filter(|r| r.changed || step == 1) else { continue };
        match (rep.evolution(), rep.error()) {
            (Some(e), _) => {
                let to = e.final_direction.map(|d| d.slip_dir);
                let when = match e.fate {
                    SlipFate::Rolls { time } => format!("rolls after {time:.3} s"),
                    fate => format!("{fate:?}"),
                };
                println!(
                    "step {step}: slip {:.3} m/s, turns {:.0}° to {to:.3?}, reverses: {}, {when}",
                    e.speed,
                    e.turn.to_degrees(),
                    e.reverses(),
                );
            }
            (None, Some(err)) => println!("step {step}: no prediction: {err}"),
            (None, None) => {
                println!("step {step}: the contact sticks (rolling holds: {})", rep.rolling_holds())
            }
        }
    }
}

fn main() {
    trough();
    slope();
}
