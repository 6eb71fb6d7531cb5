//! tribo's per-step work runs exactly once per rapier step in every `TimestepMode`.
//!
//! The independent count of rapier steps is a user hook: a ball resting on the ground (sleeping
//! disabled) has one contact manifold, and rapier calls `modify_solver_contacts` once per step
//! for it. The user hook runs inside the same composed hooks as tribo's, so this also checks
//! that user hooks keep running next to tribo's.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_rapier3d::prelude::*;
use bevy_tribo::prelude::*;

#[derive(Resource, Default)]
struct HookCalls(AtomicU64);

#[derive(SystemParam)]
struct CountingHooks<'w> {
    calls: Res<'w, HookCalls>,
}

impl BevyPhysicsHooks for CountingHooks<'_> {
    fn modify_solver_contacts(&self, _ctx: ContactModificationContextView) {
        self.calls.0.fetch_add(1, Ordering::Relaxed);
    }
}

/// Startup scene of every stepping test: a ground slab and a tribo ball resting on it (kept awake).
fn ball_on_ground(mut commands: Commands) {
    commands.spawn((
        Transform::from_xyz(0.0, -0.1, 0.0),
        RigidBody::Fixed,
        Collider::cuboid(10.0, 0.1, 10.0),
    ));
    commands.spawn((
        Transform::from_xyz(0.0, 0.5, 0.0),
        RigidBody::Dynamic,
        Collider::ball(0.5),
        Sleeping::disabled(),
        FrictionMaterial::default(),
    ));
}

fn app(mode: TimestepMode, frame: Duration, fixed_schedule: bool) -> App {
    let mut app = App::new();
    let rapier = RapierPhysicsPlugin::<TriboHooks<CountingHooks>>::default();
    let tribo = TriboPlugin::<CountingHooks>::new();
    if fixed_schedule {
        app.add_plugins((
            MinimalPlugins,
            TransformPlugin,
            rapier.in_fixed_schedule(),
            tribo.in_fixed_schedule(),
        ));
    } else {
        app.add_plugins((MinimalPlugins, TransformPlugin, rapier, tribo));
    }
    app.insert_resource(TimeUpdateStrategy::ManualDuration(frame))
        .insert_resource(mode)
        .init_resource::<HookCalls>()
        .add_systems(Startup, ball_on_ground);
    app.finish();
    app.cleanup();
    app
}

/// Runs 10 warm-up frames, then `frames` more; returns (hook calls, rapier steps, tribo
/// updates, bypassed hook calls) over the measured frames.
fn measure(app: &mut App, frames: usize) -> (u64, u64, u64, u64) {
    for _ in 0..10 {
        app.update();
    }
    let calls0 = app.world().resource::<HookCalls>().0.load(Ordering::Relaxed);
    let s0 = app.world().resource::<TriboStats>().clone();
    for _ in 0..frames {
        app.update();
    }
    let calls = app.world().resource::<HookCalls>().0.load(Ordering::Relaxed) - calls0;
    let s = app.world().resource::<TriboStats>().clone();
    (calls, s.rapier_steps - s0.rapier_steps, s.tribo_updates - s0.tribo_updates, s.bypassed_hook_calls)
}

#[test]
fn fixed_with_substeps() {
    // 3 substeps per frame: 60 frames → 180 rapier steps, each with one tribo update.
    let mut app =
        app(TimestepMode::Fixed { dt: 1.0 / 60.0, substeps: 3 }, Duration::from_secs_f64(1.0 / 60.0), false);
    let (calls, steps, updates, bypassed) = measure(&mut app, 60);
    assert_eq!(steps, 180);
    assert_eq!(updates, 180);
    assert_eq!(calls, 180, "user hook calls vs rapier steps");
    assert_eq!(bypassed, 0);
    // tribo attached its state to the rapier context and knows the ball's material.
    let mut q = app.world_mut().query::<&TriboContext>();
    assert_eq!(q.single(app.world()).unwrap().material_count(), 1);
}

#[test]
fn variable_with_substeps() {
    // dt = min(1/50 · 1, 1/30) split in 2 substeps: 2 rapier steps per frame.
    let mut app = app(
        TimestepMode::Variable { max_dt: 1.0 / 30.0, time_scale: 1.0, substeps: 2 },
        Duration::from_secs_f64(1.0 / 50.0),
        false,
    );
    let (calls, steps, updates, bypassed) = measure(&mut app, 50);
    assert_eq!(steps, 100);
    assert_eq!(updates, 100);
    assert_eq!(calls, 100);
    assert_eq!(bypassed, 0);
}

#[test]
fn interpolated_catch_up() {
    // Frames of 25 ms against dt = 10 ms with 2 substeps: over 40 frames (1 s) the catch-up
    // loop takes 100 iterations ± 1 (the accumulator's phase), i.e. 200 ± 2 rapier steps.
    let mut app = app(
        TimestepMode::Interpolated { dt: 0.01, time_scale: 1.0, substeps: 2 },
        Duration::from_millis(25),
        false,
    );
    let (calls, steps, updates, bypassed) = measure(&mut app, 40);
    assert!((198..=202).contains(&steps), "steps {steps}");
    assert_eq!(updates, steps);
    assert_eq!(calls, steps);
    assert_eq!(bypassed, 0);
}

#[test]
fn fixed_schedule() {
    // Physics in FixedUpdate (64 Hz by default), Fixed { 1/64, 2 substeps }, frames of 1/32 s:
    // two FixedUpdate runs per frame → 4 rapier steps per frame.
    let mut app =
        app(TimestepMode::Fixed { dt: 1.0 / 64.0, substeps: 2 }, Duration::from_secs_f64(1.0 / 32.0), true);
    let (calls, steps, updates, bypassed) = measure(&mut app, 32);
    assert_eq!(steps, 128);
    assert_eq!(updates, 128);
    assert_eq!(calls, 128);
    assert_eq!(bypassed, 0);
}

#[test]
#[should_panic(expected = "RapierPhysicsPlugin::<TriboHooks")]
fn rapier_plugin_without_tribo_hooks_is_refused() {
    // bevy_rapier with its plain `()` hooks would step without tribo's contact modification.
    let mut app = App::new();
    app.add_plugins((
        MinimalPlugins,
        TransformPlugin,
        RapierPhysicsPlugin::<()>::default(),
        TriboPlugin::default(),
    ));
    app.finish();
}

#[test]
#[should_panic(expected = "put both in the same schedule")]
fn schedule_mismatch_is_a_startup_error() {
    // bevy_rapier in FixedUpdate, tribo in PostUpdate: bevy_rapier's own step (not disabled in
    // FixedUpdate) would step the world a second time per frame without tribo's friction.
    let mut app = App::new();
    app.add_plugins((
        MinimalPlugins,
        TransformPlugin,
        RapierPhysicsPlugin::<TriboHooks<CountingHooks>>::default().in_fixed_schedule(),
        TriboPlugin::<CountingHooks>::new(),
    ))
    .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs_f64(1.0 / 32.0)))
    .init_resource::<HookCalls>()
    .add_systems(Startup, ball_on_ground);
    app.finish();
    for _ in 0..20 {
        app.update();
    }
    unreachable!("refused by TriboPlugin::finish");
}

#[derive(Resource, Default)]
struct Seen(Vec<TriboDiagnostic>);

/// A headless app whose frames advance by bevy's real clock (`app.update()` in a loop, no
/// `TimeUpdateStrategy`) steps rapier by the frames' length, microseconds to tens of
/// microseconds, far below the 1 ms tribo is validated at: tribo reports it once as
/// `Diagnostic::StepTooShort`. The real clock's frame length depends on the machine, so the test
/// gives the frames a fixed 20 µs (the real clock's order) against 1/60 s (nothing reported).
#[test]
fn real_clock_headless_steps_are_reported() {
    for game_frame in [false, true] {
        let frame = if game_frame { Duration::from_secs_f64(1.0 / 60.0) } else { Duration::from_micros(20) };
        let mut app = app(TimestepMode::default(), frame, false);
        app.init_resource::<Seen>().add_systems(
            Update,
            |mut r: MessageReader<TriboDiagnostic>, mut seen: ResMut<Seen>| {
                seen.0.extend(r.read().copied());
            },
        );
        for _ in 0..30 {
            app.update();
        }
        let short: Vec<f32> = app
            .world()
            .resource::<Seen>()
            .0
            .iter()
            .filter_map(|d| match d.diagnostic {
                bevy_tribo::Diagnostic::StepTooShort { dt } => Some(dt),
                _ => None,
            })
            .collect();
        if game_frame {
            assert!(short.is_empty(), "{short:?}");
        } else {
            // 30 frames of 20 µs, each one step: reported exactly once, with its length.
            assert_eq!(short.len(), 1, "{short:?}");
            assert!((short[0] - 20e-6).abs() < 1e-7, "{short:?}");
        }
    }
}
