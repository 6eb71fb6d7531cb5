//! The `gizmos` feature: the drawing system's parameters are satisfied by bevy's gizmo group
//! setup and it runs headless over live tribo contacts without error
//! (`cargo test --release -p bevy_tribo --features gizmos`). bevy keeps the recorded lines
//! private, so their content is not checked here.
#![cfg(feature = "gizmos")]

mod common;

use std::time::Duration;

use bevy::asset::AssetApp;
use bevy::gizmos::config::DefaultGizmoConfigGroup;
use bevy::gizmos::AppGizmoBuilder;
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_rapier3d::prelude::*;
use bevy_tribo::gizmos::TriboGizmosPlugin;
use bevy_tribo::prelude::*;

#[derive(Resource, Default)]
struct Frames(usize);

/// A headless app with tribo and its gizmos, frames of 1/60 s, not yet started.
fn gizmo_app() -> App {
    let mut app = App::new();
    app.add_plugins((
        MinimalPlugins,
        TransformPlugin,
        bevy::asset::AssetPlugin::default(),
        RapierPhysicsPlugin::<TriboHooks>::default(),
        TriboPlugin::default().with_slip_reports(true),
        TriboGizmosPlugin,
    ))
    // The gizmo storage, configuration and asset `Gizmos` needs (bevy's full `GizmoPlugin`, part
    // of `DefaultPlugins`, also wants camera plumbing a headless test lacks).
    .init_asset::<bevy::gizmos::GizmoAsset>()
    .init_gizmo_group::<DefaultGizmoConfigGroup>()
    .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs_f32(1.0 / 60.0)));
    app
}

#[test]
fn contact_gizmos_are_recorded() {
    let mut app = gizmo_app();
    app.init_resource::<Frames>()
        // Counts frames in which the drawing system had contacts to draw.
        .add_systems(
            Update,
            (|contacts: Res<TriboContacts>, mut frames: ResMut<Frames>| {
                if !contacts.contacts.is_empty() {
                    frames.0 += 1;
                }
            })
            .after(bevy_tribo::gizmos::draw_tribo_contacts),
        );
    app.finish();
    app.cleanup();
    app.update();
    common::ground(&mut app, None);
    common::ball(&mut app, 0.0, 0.25, Velocity::default(), Some(FrictionMaterial::default()));
    common::run(&mut app, 10);
    assert!(app.world().resource::<Frames>().0 >= 8);
    // Switching it off at run time is fine too.
    app.world_mut().resource_mut::<bevy_tribo::gizmos::TriboGizmoConfig>().enabled = false;
    common::run(&mut app, 2);
}

#[test]
#[should_panic(expected = "TriboGizmosPlugin needs bevy's gizmos: add `DefaultPlugins`")]
fn missing_gizmo_dependencies_name_what_to_add() {
    let mut app = App::new();
    app.add_plugins((
        MinimalPlugins,
        TransformPlugin,
        RapierPhysicsPlugin::<TriboHooks>::default(),
        TriboPlugin::default(),
        TriboGizmosPlugin,
    ));
    app.finish();
}

/// The drawing system with `TriboContacts` and `TriboGizmoConfig` removed by the user: it draws
/// nothing (no contacts) or with the default configuration instead of panicking on a missing
/// resource, and the physics goes on (the ball rolls: x > 0.5 m after 1 s at 1 m/s).
#[test]
fn removed_resources_do_not_stop_the_drawing_system() {
    let mut app = gizmo_app();
    app.finish();
    app.cleanup();
    app.update();
    common::ground(&mut app, None);
    let b = common::ball(
        &mut app,
        0.0,
        0.25,
        Velocity { linear: Vec3::X, angular: Vec3::Z * -4.0 },
        Some(FrictionMaterial::default()),
    );
    common::run(&mut app, 5);
    app.world_mut().remove_resource::<bevy_tribo::gizmos::TriboGizmoConfig>();
    common::run(&mut app, 5);
    app.world_mut().remove_resource::<TriboContacts>();
    common::run(&mut app, 50);
    assert!(common::position(&app, b).x > 0.5, "x = {}", common::position(&app, b).x);
}

/// The verdict drawing system runs over the frame's `SlipReport` messages of a watched ball
/// sliding on the ground (thrown at 2 m/s without spin: it slips for about 0.2 s, `ρ/A` with
/// `A = 3.5 μ g`), and with the drawing switched off it consumes them without drawing.
#[test]
fn verdict_gizmos_run_over_slip_reports() {
    let mut app = gizmo_app();
    app.init_resource::<Frames>().add_systems(
        Update,
        (|mut slips: MessageReader<SlipReport>, mut frames: ResMut<Frames>| {
            if slips.read().any(|r| r.evolution().is_some()) {
                frames.0 += 1;
            }
        })
        .after(bevy_tribo::gizmos::draw_tribo_verdicts),
    );
    app.finish();
    app.cleanup();
    app.update();
    common::ground(&mut app, None);
    let b =
        common::ball(&mut app, 0.0, 0.1, Velocity::linear(Vec3::X * 2.0), Some(FrictionMaterial::default()));
    app.world_mut().entity_mut(b).insert(WatchSlip);
    common::run(&mut app, 10);
    assert!(app.world().resource::<Frames>().0 >= 5, "{}", app.world().resource::<Frames>().0);
    app.world_mut().resource_mut::<bevy_tribo::gizmos::TriboGizmoConfig>().enabled = false;
    common::run(&mut app, 2);
}
