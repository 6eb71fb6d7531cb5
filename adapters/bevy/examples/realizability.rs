//! Headless: prints the realizability diagnostics' messages (docs/realizability.md §9).
//!
//! Gravity tilted 10° along +z. A ball lies in a V-trough whose μ = 0.05 is below the 0.0554
//! two-point rolling needs: `RealizabilityReport` says "not realizable, RS SR SS" at the first
//! step; at 0.5 s its material is changed to μ = 0.5 and the verdict turns "realizable". Beside
//! it a ball watched with `WatchSlip` is thrown sliding up the slope: `SlipReport` says its slip
//! reverses and ends in rolling, and when.
//!
//! Run: `cargo run --release -p bevy_tribo --example realizability` (no window).

use std::f32::consts::{FRAC_PI_4, SQRT_2};
use std::time::Duration;

use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_rapier3d::prelude::*;
use bevy_tribo::prelude::*;

const DT: f32 = 1.0 / 60.0;
const R: f32 = 0.1;
const TILT_DEG: f32 = 10.0;

#[derive(Component)]
struct TroughBall;

fn material(mu: f64) -> FrictionMaterial {
    FrictionMaterial::builder().friction(mu, mu).no_rolling_resistance().build().expect("valid material")
}

fn setup(mut commands: Commands, mut config: Query<&mut RapierConfiguration>) {
    let tilt = TILT_DEG.to_radians();
    for mut c in &mut config {
        c.gravity = Vec3::new(0.0, -9.81 * tilt.cos(), 9.81 * tilt.sin());
    }
    // The V-trough along z: two walls at ±45° meeting below the ball.
    for (normal, angle) in [(Vec3::new(-1.0, 1.0, 0.0), FRAC_PI_4), (Vec3::new(1.0, 1.0, 0.0), -FRAC_PI_4)] {
        let n = normal.normalize();
        let along = Vec3::Z.cross(n);
        let up = if along.y > 0.0 { along } else { -along };
        let center = Vec3::new(0.0, -SQRT_2 * R, 10.0) + up * (5.0 * R) - n * (0.5 * R);
        commands.spawn((
            Transform::from_translation(center).with_rotation(Quat::from_rotation_z(angle)),
            Collider::cuboid(5.0 * R, 0.5 * R, 11.0),
        ));
    }
    commands.spawn((
        TroughBall,
        Transform::IDENTITY,
        RigidBody::Dynamic,
        Collider::ball(R),
        ColliderMassProperties::Density(1000.0),
        Sleeping::disabled(),
        material(0.05),
    ));
    // The slope: level ground at x = 10 m under the tilted gravity (downslope is +z).
    commands.spawn((Transform::from_xyz(10.0, -0.5, 0.0), Collider::cuboid(4.0, 0.5, 20.0)));
    commands.spawn((
        WatchSlip,
        Transform::from_xyz(10.0, R, 0.0),
        RigidBody::Dynamic,
        Collider::ball(R),
        ColliderMassProperties::Density(1000.0),
        Velocity::linear(Vec3::new(0.3, 0.0, -1.0)),
        material(0.2),
    ));
}

fn print_verdicts(
    mut two: MessageReader<RealizabilityReport>,
    mut one: MessageReader<SlipReport>,
    time: Res<Time>,
) {
    let t = time.elapsed_secs();
    for r in two.read().filter(|r| r.report.changed) {
        match r.status() {
            Some(RealizabilityStatus::NotRealizable) => println!(
                "t = {t:.3} s: trough ball {:?} cannot roll on both walls: {:?} can start (margin {:.3} m/s²)",
                r.body,
                r.transitions(),
                r.margin().unwrap_or(f64::NAN)
            ),
            status => println!("t = {t:.3} s: trough ball {:?}: {status:?}", r.body),
        }
    }
    for r in one.read().filter(|r| r.report.changed) {
        match (r.evolution(), r.fate()) {
            (Some(e), Some(fate)) => println!(
                "t = {t:.3} s: slope ball {:?} slips at {:.2} m/s, turns {:.0}°, reverses: {}, {fate:?}",
                r.body,
                e.speed,
                e.turn.to_degrees(),
                e.reverses()
            ),
            _ => {
                println!("t = {t:.3} s: slope ball {:?} rolls (rolling holds: {})", r.body, r.rolling_holds())
            }
        }
    }
}

fn main() {
    let mut app = App::new();
    app.add_plugins((
        MinimalPlugins,
        TransformPlugin,
        RapierPhysicsPlugin::<TriboHooks>::default(),
        TriboPlugin::default().with_realizability(true).with_slip_reports(true),
    ))
    .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs_f32(DT)))
    .insert_resource(TimestepMode::Fixed { dt: DT, substeps: 1 })
    .add_systems(Startup, setup)
    .add_systems(PostUpdate, print_verdicts.after(TriboSet::Step));
    app.finish();
    app.cleanup();
    for frame in 1..=60 {
        app.update();
        if frame == 30 {
            let world = app.world_mut();
            let mut q = world.query_filtered::<&mut FrictionMaterial, With<TroughBall>>();
            for mut m in q.iter_mut(world) {
                *m = material(0.5);
            }
        }
    }
}
