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

// Whose `MODIFY_SOLVER_CONTACTS` flag a collider carries follows who last wrote its
// `ActiveHooks`: tribo's flag (added with a material) goes with the material and may be taken
// off the rapier collider while the contacts stick; the user's stays.

const MODIFY: ActiveHooks = ActiveHooks::MODIFY_SOLVER_CONTACTS;
const FILTER: ActiveHooks = ActiveHooks::FILTER_CONTACT_PAIRS;

/// The entity's `ActiveHooks` component and its rapier collider's hook flags (as bevy_rapier's
/// flags, same bits).
fn hooks(app: &mut App, e: Entity) -> (ActiveHooks, ActiveHooks) {
    let ecs = *app.world().get::<ActiveHooks>(e).unwrap();
    let rapier = common::with_rapier_collider(app, e, |c| c.active_hooks());
    (ecs, ActiveHooks::from_bits(rapier.bits()).unwrap())
}

/// Asserts both the component and the rapier collider carry exactly `expected`.
fn assert_hooks(app: &mut App, e: Entity, expected: ActiveHooks, what: &str) {
    assert_eq!(hooks(app, e), (expected, expected), "{what}: (component, rapier collider)");
}

/// Whether tribo took the rapier collider of entity `e` off the hook
/// (`Settings::unhook_settled`), and the friction rapier uses for it.
fn unhooked(app: &mut App, e: Entity) -> (bool, f32) {
    let handle = app.world().get::<RapierColliderHandle>(e).unwrap().0;
    let mut q = app.world_mut().query::<&TriboContext>();
    let off = q.single(app.world()).unwrap().store().is_unhooked(handle);
    (off, common::with_rapier_collider(app, e, |c| c.friction()))
}

/// The user's rapier friction of the resting boxes, and their material's μs (the ground's
/// rapier friction too, so rapier's combination of a pair off the hook is exactly μs).
const USER_FRICTION: f32 = 0.3;
const MU_S: f32 = 0.6;

/// A 0.5 m box resting on the ground at `x` with a material (μs, 0.5), user friction 0.3 and,
/// if given, the user's `ActiveHooks` (inserted after the material, before any update).
fn resting_box(app: &mut App, x: f32, user_hooks: Option<ActiveHooks>) -> Entity {
    let mut e = app.world_mut().spawn((
        Transform::from_xyz(x, 0.25, 0.0),
        RigidBody::Dynamic,
        Collider::cuboid(0.25, 0.25, 0.25),
        Friction::coefficient(USER_FRICTION),
        Sleeping::disabled(),
        FrictionMaterial::new(MU_S as f64, 0.5).unwrap(),
    ));
    if let Some(h) = user_hooks {
        e.insert(h);
    }
    e.id()
}

/// An app with a box (the user's `ActiveHooks` given with its material: `user_hooks`) resting
/// on a ground of μs for 60 frames, long enough for its contact to settle.
fn settled_box(user_hooks: Option<ActiveHooks>) -> (App, Entity) {
    let mut app = common::app(1);
    ground_of_mu_s(&mut app);
    let b = resting_box(&mut app, 0.0, user_hooks);
    run(&mut app, 60);
    (app, b)
}

/// Inserts `bundle` on entity `e`, runs 3 frames and checks that its `ActiveHooks` component
/// and its rapier collider's flags are both `want`.
fn insert_then(app: &mut App, e: Entity, bundle: impl Bundle, want: ActiveHooks, msg: &str) {
    app.world_mut().entity_mut(e).insert(bundle);
    run(app, 3);
    assert_hooks(app, e, want, msg);
}

/// Removes entity `e`'s `FrictionMaterial`, runs 3 frames and checks its flags as
/// [`insert_then`] does.
fn remove_material_then(app: &mut App, e: Entity, want: ActiveHooks, msg: &str) {
    app.world_mut().entity_mut(e).remove::<FrictionMaterial>();
    run(app, 3);
    assert_hooks(app, e, want, msg);
}

/// A ground of rapier friction μs, top face at y = 0.
fn ground_of_mu_s(app: &mut App) {
    let g = common::ground(app, None);
    app.world_mut().entity_mut(g).insert(Friction::coefficient(MU_S));
}

/// An app with a ball rolling on the ground (a rolling contact never settles, so the rapier
/// collider stays hooked) after 3 frames, with tribo's flag; and the ball's material.
fn rolling_ball() -> (App, Entity, FrictionMaterial) {
    let mut app = common::app(1);
    common::ground(&mut app, None);
    let material = FrictionMaterial::builder().friction(0.6, 0.5).rolling_resistance(0.01).build().unwrap();
    let b = common::ball(
        &mut app,
        0.0,
        0.2,
        Velocity { linear: Vec3::X * 3.0, angular: Vec3::Z * -15.0 },
        Some(material),
    );
    run(&mut app, 3);
    assert_hooks(&mut app, b, MODIFY, "tribo's flag");
    (app, b, material)
}

/// A rolling ball (a rolling contact never settles, so the rapier collider stays hooked):
/// tribo's flag, then the user's `MODIFY | FILTER` written over it; removing the material
/// leaves the user's two flags. The material given again keeps the user's flag; the user's
/// `FILTER`-only write then gets tribo's flag back, which the next removal takes off (and only
/// it).
#[test]
fn the_flag_is_whoever_wrote_it_last() {
    let (mut app, b, material) = rolling_ball();

    insert_then(&mut app, b, MODIFY | FILTER, MODIFY | FILTER, "the user's write");
    remove_material_then(&mut app, b, MODIFY | FILTER, "the user's flag after the material's removal");
    insert_then(&mut app, b, material, MODIFY | FILTER, "material given again");
    insert_then(&mut app, b, FILTER, MODIFY | FILTER, "tribo's flag back");
    remove_material_then(&mut app, b, FILTER, "tribo's flag gone with the material");
}

/// The same through a change of the component (a `Mut` write in a system) rather than an
/// insert: the user's `FILTER`-only value on a collider whose flag was theirs gets tribo's flag
/// back, and the material's removal takes off only that flag.
#[test]
fn a_changed_component_is_a_write_too() {
    let mut app = common::app(1);
    common::ground(&mut app, None);
    let b =
        common::ball(&mut app, 0.0, 0.2, Velocity::default(), Some(FrictionMaterial::new(0.6, 0.5).unwrap()));
    app.world_mut().entity_mut(b).insert(MODIFY);
    run(&mut app, 3);
    // The user's flag (inserted after tribo's): the removal keeps it.
    remove_material_then(&mut app, b, MODIFY, "the user's flag");
    insert_then(&mut app, b, FrictionMaterial::new(0.6, 0.5).unwrap(), MODIFY, "material given again");
    *app.world_mut().get_mut::<ActiveHooks>(b).unwrap() = FILTER;
    run(&mut app, 3);
    assert_hooks(&mut app, b, MODIFY | FILTER, "tribo's flag back");
    remove_material_then(&mut app, b, FILTER, "tribo's flag gone with the material");
}

/// Two boxes settle on the ground. One got tribo's flag, the user wrote their own
/// `MODIFY | FILTER` over it before it settled: the flag is the user's, so the store leaves it
/// on the rapier collider (and the user's friction, 0.3). The other kept tribo's flag: it goes
/// off the hook with rapier friction μs (the control).
#[test]
fn a_settled_box_keeps_the_users_flag() {
    let mut app = common::app(1);
    ground_of_mu_s(&mut app);
    let users = resting_box(&mut app, 0.0, None);
    let tribos = resting_box(&mut app, 3.0, None);
    app.update();
    assert_eq!(unhooked(&mut app, users), (false, USER_FRICTION), "hooked before its contact exists");
    app.world_mut().entity_mut(users).insert(MODIFY | FILTER);
    run(&mut app, 60);
    assert_eq!(unhooked(&mut app, tribos), (true, MU_S), "tribo's flag: off the hook");
    assert_hooks(&mut app, users, MODIFY | FILTER, "the user's flag on the settled box");
    assert_eq!(unhooked(&mut app, users), (false, USER_FRICTION), "the user's flag stays on");
}

/// A settled box whose flag was the user's (`ActiveHooks::MODIFY_SOLVER_CONTACTS` written
/// with the material: it stays on the hook), then a `FILTER`-only write by the user: tribo's flag is back
/// and tribo's, so the box goes off the hook (the component keeps both flags, the rapier
/// collider `FILTER` only, rapier friction μs). A `FILTER`-only write on a box that is off the
/// hook is the same: the box is back off the hook with tribo's flag.
#[test]
fn a_settled_box_with_tribos_flag_back_goes_off_the_hook() {
    let (mut app, b) = settled_box(Some(MODIFY));
    assert_eq!(unhooked(&mut app, b), (false, USER_FRICTION), "the user's flag");
    app.world_mut().entity_mut(b).insert(FILTER);
    run(&mut app, 60);
    assert_eq!(hooks(&mut app, b), (MODIFY | FILTER, FILTER), "(component, rapier collider)");
    assert_eq!(unhooked(&mut app, b), (true, MU_S), "tribo's flag back: off the hook");

    app.world_mut().entity_mut(b).insert(FILTER);
    run(&mut app, 60);
    assert_eq!(hooks(&mut app, b), (MODIFY | FILTER, FILTER), "(component, rapier collider)");
    assert_eq!(unhooked(&mut app, b), (true, MU_S), "written while off: tribo's flag again");
}

/// The user removes the `ActiveHooks` component of a rolling ball that has tribo's flag.
/// bevy_rapier does not pass a removal on to the rapier collider, which keeps tribo's flag
/// while the material stays (tribo's friction goes on). With the material the flag goes too:
/// tribo puts an empty component back, which bevy_rapier writes to the collider. (Without it,
/// the rapier collider would keep tribo's flag for good.)
#[test]
fn a_removed_component_leaves_no_flag_behind() {
    let (mut app, b, _) = rolling_ball();
    app.world_mut().entity_mut(b).remove::<ActiveHooks>();
    run(&mut app, 3);
    let rapier = |app: &mut App| common::with_rapier_collider(app, b, |c| c.active_hooks().bits());
    assert_eq!(rapier(&mut app), MODIFY.bits(), "the rapier collider keeps tribo's flag");
    app.world_mut().entity_mut(b).remove::<FrictionMaterial>();
    run(&mut app, 3);
    assert_eq!(rapier(&mut app), 0, "tribo's flag gone with the material");
    assert_eq!(app.world().get::<ActiveHooks>(b), Some(&ActiveHooks::empty()));
}

/// A settled box off the hook with tribo's flag loses the material: the flag is gone from the
/// component and stays off the rapier collider, whose friction is the user's again.
#[test]
fn a_settled_box_loses_tribos_flag_with_the_material() {
    let (mut app, b) = settled_box(Some(FILTER));
    assert_eq!(unhooked(&mut app, b), (true, MU_S), "tribo's flag: off the hook");
    app.world_mut().entity_mut(b).remove::<FrictionMaterial>();
    run(&mut app, 3);
    assert_hooks(&mut app, b, FILTER, "material removed");
    assert_eq!(unhooked(&mut app, b), (false, USER_FRICTION), "material removed");
}
