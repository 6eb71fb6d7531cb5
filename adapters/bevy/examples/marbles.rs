//! Headless bevy scene, stock bevy_rapier next to tribo:
//!
//! * marbles roll down a 10° ramp onto a flat floor. Stock rapier has no rolling resistance,
//!   so its marbles keep rolling. tribo's marbles (glass on wood, and a "felt" lane with more
//!   rolling resistance) stop where energy balance says they should;
//! * spinning tops (a body with a ball tip, a stem and a disk, each a child collider) spin on
//!   their tips. rapier's point contact has no spin friction, so the stock top spins on. tribo's
//!   spin friction on the tip stops its top at `t = ω0/α`.
//!
//! Run: `cargo run --release -p bevy_tribo --example marbles` (a few seconds, no window).

use std::time::Duration;

use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_rapier3d::prelude::*;
use bevy_tribo::prelude::*;

const DT: f32 = 1.0 / 60.0;
const SECONDS: f32 = 10.0;
const G: f32 = 9.81;

// Ramp and marbles.
const RAMP_ANGLE_DEG: f32 = 10.0;
const RAMP_LENGTH: f32 = 1.0;
const MARBLE_R: f32 = 0.05;
const MARBLE_START: f32 = 0.9; // distance along the ramp from its foot (m)
const MU: (f64, f64) = (0.5, 0.4);
// Rolling resistance lengths (m): roll torque bound c·N.
const C_GLASS: f64 = 0.002;
const C_FELT: f64 = 0.004;
const FOOT_MARK: f32 = 0.2; // x (m) past the ramp's foot where the flat-floor check starts

// Tops.
const TIP_R: f32 = 0.02;
const DISK_R: f32 = 0.1;
const OMEGA0: f32 = 40.0;
// Spinning resistance length of the tip (m): spin torque bound c·N.
const C_SPIN: f64 = 0.004;

#[derive(Component)]
struct Marble {
    label: &'static str,
    c_r: Option<f64>,
}

#[derive(Component)]
struct Top {
    label: &'static str,
    tribo: bool,
}

fn main() {
    let mut app = App::new();
    app.add_plugins((
        MinimalPlugins,
        TransformPlugin,
        RapierPhysicsPlugin::<TriboHooks>::default(),
        TriboPlugin::default(),
    ))
    .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs_f32(DT)))
    .insert_resource(TimestepMode::Fixed { dt: DT, substeps: 1 })
    .add_systems(Startup, setup);
    app.finish();
    app.cleanup();

    let frames = (SECONDS / DT).round() as usize;
    let mut stop_times: Vec<(Entity, f32)> = Vec::new();
    // (marble, x, speed) when it first passes x = FOOT_MARK on the flat floor.
    let mut on_flat: Vec<(Entity, f32, f32)> = Vec::new();
    // (top, ω) at t = 2 s.
    let mut spin_at_2s: Vec<(Entity, f32)> = Vec::new();
    println!("t (s) | marbles x (m): stock / glass / felt | tops ω (rad/s): stock / tribo");
    for frame in 1..=frames {
        app.update();
        let t = frame as f32 * DT;
        let world = app.world_mut();
        // Record when each tribo body comes to rest (first time below the thresholds).
        let mut q = world.query::<(Entity, &Velocity, Option<&Marble>, Option<&Top>)>();
        let bodies: Vec<(Entity, Velocity, bool, bool)> =
            q.iter(world).map(|(e, v, m, t)| (e, *v, m.is_some(), t.is_some())).collect();
        for (e, v, marble, top) in bodies {
            let (marble, top) = (marble.then_some(()), top.then_some(()));
            let resting = match (marble, top) {
                (Some(_), _) => v.linear.length() < 1e-3 && t > 0.5,
                (_, Some(_)) => v.angular.y.abs() < 1e-2,
                _ => false,
            };
            if resting && !stop_times.iter().any(|(s, _)| *s == e) {
                stop_times.push((e, t));
            }
            if marble.is_some() && !on_flat.iter().any(|(s, ..)| *s == e) {
                let x = world_x(world, e);
                if x >= FOOT_MARK {
                    on_flat.push((e, x, v.linear.length()));
                }
            }
            if top.is_some() && frame == (2.0 / DT).round() as usize {
                spin_at_2s.push((e, v.angular.y));
            }
        }
        if frame % 120 == 0 {
            let mut marbles = world.query::<(&Marble, &Transform)>();
            let xs: Vec<String> =
                marbles.iter(world).map(|(_, tr)| format!("{:6.2}", tr.translation.x)).collect();
            let mut tops = world.query::<(&Top, &Velocity)>();
            let ws: Vec<String> = tops.iter(world).map(|(_, v)| format!("{:5.2}", v.angular.y)).collect();
            println!("{t:5.1} | {} | {}", xs.join(" / "), ws.join(" / "));
        }
    }

    let world = app.world_mut();
    println!("\nMarbles (r = {MARBLE_R} m, released {MARBLE_START} m up a {RAMP_ANGLE_DEG}° ramp):");
    let mut marbles = world.query::<(Entity, &Marble, &Transform, &Velocity)>();
    for (e, m, tr, v) in marbles.iter(world) {
        let stopped = stop_times.iter().find(|(s, _)| *s == e).map(|(_, t)| *t);
        let flat = on_flat.iter().find(|(s, ..)| *s == e).map(|&(_, x, v)| (x, v));
        match (m.c_r, flat) {
            (Some(c), Some((x1, v1))) => {
                // Rolling without slipping on the flat with the rolling torque c N, N = m g,
                // I = 0.4 m R²: a = c g/(1.4 R), so it stops v1²/(2a) after passing x1 at
                // speed v1.
                let a = c as f32 * G / (1.4 * MARBLE_R);
                let expected = x1 + v1 * v1 / (2.0 * a);
                println!(
                    "  {:<28} passed x = {x1:.2} m at {v1:.2} m/s, stopped at x = {:5.2} m (v²/2a: {:5.2} m, {:+.1} %) at t = {}",
                    m.label,
                    tr.translation.x,
                    expected,
                    100.0 * (tr.translation.x - expected) / expected,
                    stopped.map_or("—".into(), |t| format!("{t:.1} s")),
                );
            }
            (Some(_), None) => {
                println!("  {:<28} stopped on the ramp at x = {:5.2} m", m.label, tr.translation.x)
            }
            (None, _) => println!(
                "  {:<28} still rolling at {:.2} m/s, x = {:5.2} m",
                m.label,
                v.linear.length(),
                tr.translation.x
            ),
        }
    }

    println!("\nSpinning tops (ω0 = {OMEGA0} rad/s, ball tip r = {TIP_R} m):");
    let mut tops = world.query::<(Entity, &Top, &Velocity, &ReadMassProperties, &Transform)>();
    for (e, top, v, mp, tr) in tops.iter(world) {
        let mp = mp.get();
        let tilt = (tr.rotation * Vec3::Y).angle_between(Vec3::Y).to_degrees();
        let w2 = spin_at_2s.iter().find(|(s, _)| *s == e).map_or(f32::NAN, |(_, w)| *w);
        if top.tribo {
            // Spin torque c N, N = m g; the axial moment of inertia of this disk top is its
            // largest principal one.
            let i_axial = mp.principal_inertia.max_element();
            let alpha = C_SPIN as f32 * mp.mass * G / i_axial;
            let expected = OMEGA0 - alpha * 2.0;
            let stopped = stop_times.iter().find(|(s, _)| *s == e).map(|(_, t)| *t);
            println!(
                "  {:<28} ω(2 s) = {w2:.2} rad/s (ω0 − α·2 s = {expected:.2}, {:+.1} %); stopped spinning at t = {} \
                 (ω0/α = {:.2} s; below ~20 rad/s it is no longer a sleeping top and tips over: tilt now {tilt:.0}°)",
                top.label,
                100.0 * (w2 - expected) / expected,
                stopped.map_or("—".into(), |t| format!("{t:.2} s")),
                OMEGA0 / alpha,
            );
        } else {
            println!(
                "  {:<28} ω(2 s) = {w2:.2} rad/s, still spinning at {:.2} rad/s, tilt {tilt:.0}° (no spin friction at a point contact)",
                top.label, v.angular.y
            );
        }
    }
    let stats = world.resource::<TriboStats>();
    println!(
        "\n{} rapier steps, {} tribo updates, {} bypassed hook calls",
        stats.rapier_steps, stats.tribo_updates, stats.bypassed_hook_calls
    );
}

fn world_x(world: &World, e: Entity) -> f32 {
    world.get::<Transform>(e).map_or(f32::NAN, |t| t.translation.x)
}

fn setup(mut commands: Commands) -> Result {
    // Floor (top at y = 0) and a ramp rising towards −x whose foot is at x = 0.
    commands.spawn((Transform::from_xyz(20.0, -0.5, 0.0), Collider::cuboid(40.0, 0.5, 10.0)));
    let theta = RAMP_ANGLE_DEG.to_radians();
    let normal = Vec3::new(theta.sin(), theta.cos(), 0.0);
    let along_up = Vec3::new(-theta.cos(), theta.sin(), 0.0);
    let half_t = 0.05;
    let top_center = along_up * (RAMP_LENGTH / 2.0);
    commands.spawn((
        Transform::from_translation(top_center - normal * half_t)
            .with_rotation(Quat::from_rotation_z(-theta)),
        Collider::cuboid(RAMP_LENGTH / 2.0, half_t, 2.0),
    ));

    let lanes: [(&str, Option<f64>, f32); 3] = [
        ("stock rapier", None, -1.0),
        ("tribo glass (c = 2 mm)", Some(C_GLASS), 0.0),
        ("tribo felt (c = 4 mm)", Some(C_FELT), 1.0),
    ];
    for (label, c_r, z) in lanes {
        let p = along_up * MARBLE_START + normal * MARBLE_R + Vec3::Z * z;
        let mut e = commands.spawn((
            Marble { label, c_r },
            Transform::from_translation(p),
            RigidBody::Dynamic,
            Collider::ball(MARBLE_R),
            ColliderMassProperties::Density(2500.0),
            Velocity::default(),
        ));
        if let Some(c) = c_r {
            e.insert(FrictionMaterial::builder().friction(MU.0, MU.1).rolling_resistance(c).build()?);
        }
    }

    for (label, tribo, z) in [("stock rapier top", false, -1.0), ("tribo top (c = 4 mm)", true, 1.0)] {
        let mut tip = commands.spawn((Transform::IDENTITY, Collider::ball(TIP_R)));
        if tribo {
            tip.insert(FrictionMaterial::builder().friction(MU.0, MU.1).spinning_resistance(C_SPIN).build()?);
        }
        let tip = tip.id();
        let stem =
            commands.spawn((Transform::from_xyz(0.0, 0.07, 0.0), Collider::cylinder(0.05, 0.004))).id();
        let disk = commands
            .spawn((
                Transform::from_xyz(0.0, 0.06, 0.0),
                Collider::cylinder(0.01, DISK_R),
                ColliderMassProperties::Density(3000.0),
            ))
            .id();
        commands
            .spawn((
                Top { label, tribo },
                Transform::from_xyz(-3.0, TIP_R, z),
                RigidBody::Dynamic,
                Velocity { linear: Vec3::ZERO, angular: Vec3::Y * OMEGA0 },
                Sleeping::disabled(),
                ReadMassProperties::default(),
            ))
            .add_children(&[tip, stem, disk]);
    }
    Ok(())
}
