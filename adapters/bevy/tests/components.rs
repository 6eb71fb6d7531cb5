//! `FrictionMaterial` bookkeeping: ActiveHooks flags and the sync into the per-context store
//! (added, changed, removed components, despawned entities).

mod common;

use bevy::prelude::*;
use bevy_rapier3d::prelude::*;
use bevy_tribo::prelude::*;

/// The shared headless app (fixed 1/60 s steps, one substep), after its startup frame.
fn app() -> App {
    common::app(1)
}

fn material_count(app: &mut App) -> usize {
    let mut q = app.world_mut().query::<&TriboContext>();
    q.single(app.world()).unwrap().material_count()
}

#[test]
fn active_hooks_are_added_and_merged() {
    let mut app = app();
    let plain = app.world_mut().spawn((Collider::ball(0.5), FrictionMaterial::default())).id();
    let filtered = app
        .world_mut()
        .spawn((Collider::ball(0.5), ActiveHooks::FILTER_CONTACT_PAIRS, FrictionMaterial::default()))
        .id();
    app.update();
    let h = |app: &App, e| *app.world().get::<ActiveHooks>(e).unwrap();
    assert_eq!(h(&app, plain), ActiveHooks::MODIFY_SOLVER_CONTACTS);
    // The user's own flag is kept.
    assert_eq!(h(&app, filtered), ActiveHooks::FILTER_CONTACT_PAIRS | ActiveHooks::MODIFY_SOLVER_CONTACTS);

    // Replacing ActiveHooks later does not drop tribo's flag.
    app.world_mut().entity_mut(plain).insert(ActiveHooks::FILTER_INTERSECTION_PAIR);
    app.update();
    assert_eq!(h(&app, plain), ActiveHooks::FILTER_INTERSECTION_PAIR | ActiveHooks::MODIFY_SOLVER_CONTACTS);

    // The flag reaches the rapier collider.
    let flags = common::with_rapier_collider(&mut app, filtered, |c| c.active_hooks());
    assert!(flags.contains(bevy_rapier3d::rapier::pipeline::ActiveHooks::MODIFY_SOLVER_CONTACTS));
    assert!(flags.contains(bevy_rapier3d::rapier::pipeline::ActiveHooks::FILTER_CONTACT_PAIRS));
}

#[test]
fn materials_follow_components_and_despawns() {
    let mut app = app();
    let a = app.world_mut().spawn((Collider::ball(0.5), FrictionMaterial::default())).id();
    let b = app
        .world_mut()
        .spawn((Collider::ball(0.5), Transform::from_xyz(3.0, 0.0, 0.0), FrictionMaterial::stock()))
        .id();
    let c = app.world_mut().spawn((Collider::ball(0.5), Transform::from_xyz(6.0, 0.0, 0.0))).id();
    app.update();
    assert_eq!(material_count(&mut app), 2);

    // Added later.
    app.world_mut().entity_mut(c).insert(FrictionMaterial::new(0.9, 0.7).unwrap());
    app.update();
    assert_eq!(material_count(&mut app), 3);
    assert_eq!(app.world().get::<ActiveHooks>(c).copied(), Some(ActiveHooks::MODIFY_SOLVER_CONTACTS));

    // Removed: the store forgets it and tribo's flag goes away again.
    app.world_mut().entity_mut(c).remove::<FrictionMaterial>();
    app.update();
    assert_eq!(material_count(&mut app), 2);
    assert_eq!(app.world().get::<ActiveHooks>(c).copied(), Some(ActiveHooks::empty()));

    // Despawned.
    app.world_mut().entity_mut(a).despawn();
    app.update();
    assert_eq!(material_count(&mut app), 1);
    app.world_mut().entity_mut(b).despawn();
    app.update();
    assert_eq!(material_count(&mut app), 0);
}

#[test]
fn bad_parameters_are_errors() {
    assert!(FrictionMaterial::new(0.3, 0.5).is_err()); // μs < μk
    assert!(FrictionMaterial::new(f64::NAN, 0.5).is_err());
    assert!(FrictionMaterial::new(0.5, -0.1).is_err());
    assert!(FrictionMaterial::new(0.5, 0.4).unwrap().with_roll_eta(-1.0).is_err());
    let msg = FrictionMaterial::new(0.3, 0.5).unwrap_err().to_string();
    assert!(msg.contains("μs"), "{msg}");
}

#[test]
fn despawning_bodies_with_live_tribo_contacts() {
    // Bodies and colliders despawned while tribo has contact state and a motor joint on them:
    // bevy_rapier removes them (rapier drops attached joints), tribo forgets them, nothing
    // panics and the contact report empties.
    let mut app = app();
    let ground =
        app.world_mut().spawn((Transform::from_xyz(0.0, -0.5, 0.0), Collider::cuboid(50.0, 0.5, 50.0))).id();
    let spawn_ball = |app: &mut App, z: f32| {
        app.world_mut()
            .spawn((
                Transform::from_xyz(0.0, 0.25, z),
                RigidBody::Dynamic,
                Collider::ball(0.25),
                Velocity { linear: Vec3::X * 2.0, angular: Vec3::Z * -8.0 },
                FrictionMaterial::new(0.6, 0.5).unwrap().with_roll_eta(0.1).unwrap(),
            ))
            .id()
    };
    let a = spawn_ball(&mut app, 0.0);
    let b = spawn_ball(&mut app, 2.0);
    for _ in 0..30 {
        app.update();
    }
    assert_eq!(app.world().resource::<TriboContacts>().contacts.len(), 2);
    app.world_mut().entity_mut(a).despawn();
    for _ in 0..5 {
        app.update();
    }
    let contacts = app.world().resource::<TriboContacts>();
    assert_eq!(contacts.contacts.len(), 1);
    assert!(contacts.involving(a).next().is_none());
    // The ground goes: ball b falls freely (g dt per frame), no contact left.
    app.world_mut().entity_mut(ground).despawn();
    for _ in 0..30 {
        app.update();
    }
    assert!(app.world().resource::<TriboContacts>().contacts.is_empty());
    let v = app.world().get::<Velocity>(b).unwrap().linear;
    assert!(v.y < -4.0 && v.is_finite(), "ball b should be falling: {v:?}");
    assert_eq!(material_count(&mut app), 1);
}

#[derive(Resource, Default)]
struct Seen(Vec<TriboDiagnostic>);

#[test]
fn zero_mass_body_is_reported_as_a_message() {
    // tribo_rapier cannot size roll/spin torques for a massless dynamic body: it falls back to
    // stock friction for its contacts and reports it; the plugin forwards that as a bevy message
    // naming the body entity.
    let mut app = app();
    app.init_resource::<Seen>().add_systems(
        Update,
        |mut r: MessageReader<TriboDiagnostic>, mut seen: ResMut<Seen>| {
            seen.0.extend(r.read().copied());
        },
    );
    app.world_mut().spawn((Transform::from_xyz(0.0, -0.5, 0.0), Collider::cuboid(50.0, 0.5, 50.0)));
    let ghost = app
        .world_mut()
        .spawn((
            Transform::from_xyz(0.0, 0.25, 0.0),
            RigidBody::Dynamic,
            Collider::ball(0.25),
            ColliderMassProperties::Density(0.0),
            FrictionMaterial::default(),
        ))
        .id();
    for _ in 0..20 {
        app.update();
    }
    let seen = &app.world().resource::<Seen>().0;
    assert!(!seen.is_empty(), "no diagnostic");
    assert_eq!(seen[0].body, Some(ghost));
    assert!(matches!(seen[0].diagnostic, bevy_tribo::Diagnostic::ZeroMassBody { .. }));
    assert!(seen[0].to_string().contains("mass"), "{}", seen[0]);
}

/// A box resting on the ground with a `FrictionMaterial` goes off the hook in the rapier world
/// while its contact sticks (`Settings::unhook_settled`: the `ActiveHooks` flag bevy_tribo
/// added is tribo's to take off), with its material's μs as rapier friction; a box whose
/// `ActiveHooks` the user gave `MODIFY_SOLVER_CONTACTS` keeps it.
#[test]
fn a_resting_box_goes_off_the_hook() {
    let mut app = app();
    // The ground's rapier friction is μs, so rapier's combination of the pair is exact.
    let g = common::ground(&mut app, None);
    app.world_mut().entity_mut(g).insert(Friction::coefficient(0.6));
    let spawn = |app: &mut App, x: f32, hooks: ActiveHooks| {
        app.world_mut()
            .spawn((
                Transform::from_xyz(x, 0.25, 0.0),
                RigidBody::Dynamic,
                Collider::cuboid(0.25, 0.25, 0.25),
                Friction::coefficient(0.3),
                Sleeping::disabled(),
                hooks,
                FrictionMaterial::new(0.6, 0.5).unwrap(),
            ))
            .id()
    };
    let tribos = spawn(&mut app, 0.0, ActiveHooks::empty());
    let users = spawn(&mut app, 3.0, ActiveHooks::MODIFY_SOLVER_CONTACTS);
    common::run(&mut app, 30);
    let handle = |app: &App, e| app.world().get::<RapierColliderHandle>(e).unwrap().0;
    let (ht, hu) = (handle(&app, tribos), handle(&app, users));
    let mut q = app.world_mut().query::<&TriboContext>();
    let store = q.single(app.world()).unwrap().store();
    assert!(store.is_unhooked(ht), "the resting box is off the hook");
    assert!(!store.is_unhooked(hu), "the user's flag stays");
    let mut q = app.world_mut().query::<&RapierContextColliders>();
    let colliders = q.single(app.world()).unwrap();
    let c = colliders.colliders.get(ht).unwrap();
    let modify = bevy_rapier3d::rapier::pipeline::ActiveHooks::MODIFY_SOLVER_CONTACTS;
    assert!(!c.active_hooks().contains(modify));
    assert_eq!(c.friction(), 0.6);
    let c = colliders.colliders.get(hu).unwrap();
    assert!(c.active_hooks().contains(modify));
    assert_eq!(c.friction(), 0.3);
}
