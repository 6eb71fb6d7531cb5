//! A user's own `BevyPhysicsHooks` keep running next to tribo's contact modification.

mod common;

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_rapier3d::prelude::*;
use bevy_tribo::prelude::*;
use common::{position, run, velocity, DT};

/// A conveyor belt surface moving at this speed along +x.
#[derive(Component)]
struct Belt(f32);

#[derive(Resource, Default)]
struct Calls(AtomicU64);

/// The user's hooks: conveyor belts through `tangent_velocity` (the bevy_rapier / rapier
/// one-way-platform example technique).
#[derive(SystemParam)]
struct ConveyorHooks<'w, 's> {
    belts: Query<'w, 's, &'static Belt>,
    calls: Res<'w, Calls>,
}

impl BevyPhysicsHooks for ConveyorHooks<'_, '_> {
    fn modify_solver_contacts(&self, ctx: ContactModificationContextView) {
        self.calls.0.fetch_add(1, Ordering::Relaxed);
        // rapier drives the tangential velocity of collider 2 relative to collider 1 towards
        // `tangent_velocity`: the box should move at the belt speed relative to the ground.
        let v = if let Ok(b) = self.belts.get(ctx.collider1()) {
            Vec3::X * b.0
        } else if let Ok(b) = self.belts.get(ctx.collider2()) {
            -Vec3::X * b.0
        } else {
            return;
        };
        for c in ctx.raw.solver_contacts.iter_mut() {
            c.tangent_velocity = v;
        }
    }
}

/// A box with a tribo material on a 1 m/s belt: the user's hook moves the belt surface, tribo's
/// static friction (μs = 0.8) carries the box along at the belt speed (within 5 %), and tribo
/// reports the riding contact as sticking.
#[test]
fn user_conveyor_hook_runs_with_tribo() {
    let mut app = App::new();
    app.add_plugins((
        MinimalPlugins,
        TransformPlugin,
        RapierPhysicsPlugin::<TriboHooks<ConveyorHooks>>::default(),
        TriboPlugin::<ConveyorHooks>::new(),
    ))
    .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs_f32(DT)))
    .insert_resource(TimestepMode::Fixed { dt: DT, substeps: 1 })
    .init_resource::<Calls>();
    app.finish();
    app.cleanup();
    app.update();

    app.world_mut().spawn((Transform::from_xyz(0.0, -0.5, 0.0), Collider::cuboid(50.0, 0.5, 2.0), Belt(1.0)));
    let boxed = app
        .world_mut()
        .spawn((
            Transform::from_xyz(0.0, 0.1, 0.0),
            RigidBody::Dynamic,
            Collider::cuboid(0.2, 0.1, 0.2),
            Velocity::default(),
            Sleeping::disabled(),
            FrictionMaterial::new(0.8, 0.6).unwrap(),
        ))
        .id();
    run(&mut app, 60);
    let x0 = position(&app, boxed).x;
    run(&mut app, 60);
    let v = velocity(&app, boxed).linear;
    let dx = position(&app, boxed).x - x0;
    assert!((v.x - 1.0).abs() < 0.05, "box velocity {v:?}");
    assert!((dx - 1.0).abs() < 0.05, "box moved {dx} m in 1 s");
    assert!(app.world().resource::<Calls>().0.load(Ordering::Relaxed) >= 120);
    // tribo handled the contact and measures slip relative to the belt surface: the riding box
    // sticks, with μs = 0.8 (not μk = 0.6, nor bevy_rapier's default 0.5).
    let c = app.world().resource::<TriboContacts>().involving(boxed).next().copied().expect("tribo contact");
    assert!(!c.stock_fallback);
    assert_eq!(c.slide, bevy_tribo::Mode::Static, "a box riding the belt sticks");
    assert!((c.friction - 0.8).abs() < 1e-6, "μ = {}", c.friction);
    assert!((c.normal_force - 0.032 * common::G).abs() < 0.02 * 0.032 * common::G, "N = {}", c.normal_force);
}
