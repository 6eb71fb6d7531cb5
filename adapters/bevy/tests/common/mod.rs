//! Shared headless test setup: MinimalPlugins + TransformPlugin + bevy_rapier + tribo, fixed
//! frames of 1/60 s.

#![allow(dead_code)]

use std::time::Duration;

use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_rapier3d::prelude::*;
use bevy_tribo::prelude::*;

/// Standard gravity used by bevy_rapier's default configuration (m/s²).
pub const G: f32 = 9.81;
/// Frame (and rapier step) length.
pub const DT: f32 = 1.0 / 60.0;

/// An app with tribo, physics stepped with `TimestepMode::Fixed { dt: 1/60, substeps }`.
pub fn app(substeps: usize) -> App {
    app_with(TimestepMode::Fixed { dt: DT, substeps })
}

/// An app with tribo and this timestep mode; frames of 1/60 s.
pub fn app_with(mode: TimestepMode) -> App {
    app_with_frames(mode, DT)
}

/// An app with tribo and this timestep mode; frames of `frame` seconds.
pub fn app_with_frames(mode: TimestepMode, frame: f32) -> App {
    let mut app = app_unstarted(mode, frame);
    app.finish();
    app.cleanup();
    app.update(); // startup: creates the rapier context
    app
}

/// The plugins and resources of [`app_with_frames`], before `finish` and the first update (for
/// tests that add `Startup` systems).
pub fn app_unstarted(mode: TimestepMode, frame: f32) -> App {
    let mut app = App::new();
    app.add_plugins((
        MinimalPlugins,
        TransformPlugin,
        RapierPhysicsPlugin::<TriboHooks>::default(),
        TriboPlugin::default(),
    ))
    .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs_f32(frame)))
    .insert_resource(mode);
    app
}

/// Sets the gravity of the default rapier context.
pub fn set_gravity(app: &mut App, g: Vec3) {
    let mut q = app.world_mut().query_filtered::<&mut RapierConfiguration, With<DefaultRapierContext>>();
    q.single_mut(app.world_mut()).unwrap().gravity = g;
}

/// A static ground: a collider without rigid body, top face at y = 0.
pub fn ground(app: &mut App, material: Option<FrictionMaterial>) -> Entity {
    let mut e =
        app.world_mut().spawn((Transform::from_xyz(0.0, -0.5, 0.0), Collider::cuboid(50.0, 0.5, 50.0)));
    if let Some(m) = material {
        e.insert(m);
    }
    e.id()
}

/// A dynamic ball of radius `r` (density 1) resting on y = 0 at `x`, with initial velocity.
pub fn ball(app: &mut App, x: f32, r: f32, vel: Velocity, material: Option<FrictionMaterial>) -> Entity {
    let mut e = app.world_mut().spawn((
        Transform::from_xyz(x, r, 0.0),
        RigidBody::Dynamic,
        Collider::ball(r),
        vel,
        Sleeping::disabled(),
    ));
    if let Some(m) = material {
        e.insert(m);
    }
    e.id()
}

pub fn velocity(app: &App, e: Entity) -> Velocity {
    *app.world().get::<Velocity>(e).unwrap()
}

pub fn position(app: &App, e: Entity) -> Vec3 {
    app.world().get::<Transform>(e).unwrap().translation
}

pub fn run(app: &mut App, frames: usize) {
    for _ in 0..frames {
        app.update();
    }
}

/// `f` of entity `e`'s rapier collider (in the app's one rapier context).
pub fn with_rapier_collider<R>(
    app: &mut App,
    e: Entity,
    f: impl FnOnce(&bevy_rapier3d::rapier::geometry::Collider) -> R,
) -> R {
    let handle = app.world().get::<RapierColliderHandle>(e).unwrap().0;
    let mut q = app.world_mut().query::<&RapierContextColliders>();
    f(q.single(app.world()).unwrap().colliders.get(handle).unwrap())
}

/// The stop time and distance of a body set down rolling at `v0` (m/s) that decelerates at `a`
/// (m/s²), at the time step `dt`: `(dt + v0/a, v0 dt + v0²/(2a))`. Its contact is new in the
/// first step, which carries no roll torque (tribo's first contact step has no load: the torque
/// bounds come from a step's normal force), so it rolls that step at `v0`.
#[allow(dead_code)]
pub fn roll_out(v0: f64, a: f64, dt: f32) -> (f64, f64) {
    let dt = dt as f64;
    (dt + v0 / a, v0 * dt + v0 * v0 / (2.0 * a))
}
