//! A game developer's abuse of the plugin in headless apps: entity churn, components added,
//! replaced and removed at run time, body-type changes, disabled bodies and colliders, own
//! hooks, every timestep mode (zero-length frames and a zero time scale included), a paused
//! pipeline, plugin order and missing resources.
//!
//! Every case checks after every frame that all `Transform`s and `Velocity`s are finite and
//! that every reported contact value is finite; where the physics is known it also checks the
//! number: a ball at rest on flat ground stays within 0.1 mm, and a ball of radius R = 0.2 m
//! with rolling resistance c = 0.01 m decelerates at a = c g/(1.4 R) = 0.350 m/s² (torque
//! bound c N on a solid sphere, I = 0.4 m R²: a = (c/R) g / (1 + 0.4); see `fidelity.rs`).

mod common;

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_rapier3d::prelude::*;
use bevy_tribo::prelude::*;
use common::{position, velocity, DT, G};

/// Rolling radius (m) and rolling resistance (m) of the test ball.
const R: f32 = 0.2;
const C: f32 = 0.01;
/// The rolling ball's deceleration a = c g / (1.4 R) (m/s²).
const A: f32 = C * G / (1.4 * R);

fn rolling() -> FrictionMaterial {
    FrictionMaterial::builder().friction(0.6, 0.5).rolling_resistance(C as f64).build().unwrap()
}

/// Panics naming the entity and value when a `Transform`, `Velocity` or reported contact value
/// is not finite.
fn assert_finite(app: &mut App, what: &str) {
    let world = app.world_mut();
    let mut q = world.query::<(Entity, &Transform)>();
    for (e, t) in q.iter(world) {
        assert!(
            t.translation.is_finite() && t.rotation.is_finite() && t.scale.is_finite(),
            "{what}: {e} transform {t:?}"
        );
    }
    let mut q = world.query::<(Entity, &Velocity)>();
    for (e, v) in q.iter(world) {
        assert!(v.linear.is_finite() && v.angular.is_finite(), "{what}: {e} velocity {v:?}");
    }
    for c in &world.resource::<TriboContacts>().contacts {
        let vectors = [
            Some(c.point),
            Some(c.normal),
            Some(c.slip_velocity),
            c.friction_force,
            c.roll_torque,
            c.spin_torque,
        ];
        let scalars = [c.normal_force, c.friction, c.roll_capacity, c.spin_capacity];
        assert!(
            vectors.iter().flatten().all(|v| v.is_finite()) && scalars.iter().all(|s| s.is_finite()),
            "{what}: contact {c:?}"
        );
        assert!(c.normal_force >= 0.0 && c.friction >= 0.0, "{what}: contact {c:?}");
    }
}

/// `frames` updates, checking finiteness after each.
fn run(app: &mut App, frames: usize, what: &str) {
    for _ in 0..frames {
        app.update();
        assert_finite(app, what);
    }
}

/// The shared app (Fixed 1/60 s, one substep) with a stock ground, top face at y = 0.
fn scene() -> App {
    let mut app = common::app(1);
    common::ground(&mut app, None);
    app
}

/// A dynamic ball of radius R, density 1000, on the ground at `x`, rolling along +x at `v0`
/// without slip; never sleeps.
fn roller(app: &mut App, x: f32, v0: f32, material: Option<FrictionMaterial>) -> Entity {
    let mut e = app.world_mut().spawn((
        Transform::from_xyz(x, R, 0.0),
        RigidBody::Dynamic,
        Collider::ball(R),
        ColliderMassProperties::Density(1000.0),
        Velocity { linear: Vec3::X * v0, angular: Vec3::Z * (-v0 / R) },
        Sleeping::disabled(),
    ));
    if let Some(m) = material {
        e.insert(m);
    }
    e.id()
}

/// Measured deceleration (m/s²) of `b` along +x over `frames` frames.
fn deceleration(app: &mut App, b: Entity, frames: usize, what: &str) -> f32 {
    let v0 = velocity(app, b).linear.x;
    run(app, frames, what);
    (v0 - velocity(app, b).linear.x) / (frames as f32 * DT)
}

/// Asserts a measured deceleration is the rolling-resistance value A within 5 %.
fn assert_rolling_resistance(a: f32, what: &str) {
    assert!((a - A).abs() < 0.05 * A, "{what}: deceleration {a} m/s², expected c g/(1.4 R) = {A}");
}

fn context(app: &mut App) -> &TriboContext {
    let mut q = app.world_mut().query::<&TriboContext>();
    q.single(app.world()).unwrap()
}

/// Whether rapier has the body of entity `e` asleep.
fn asleep(app: &mut App, e: Entity) -> bool {
    let h = app.world().get::<RapierRigidBodyHandle>(e).unwrap().0;
    let mut q = app.world_mut().query::<&RapierRigidBodySet>();
    q.single(app.world()).unwrap().bodies.get(h).unwrap().is_sleeping()
}

/// Balls spawned with a material and despawned 1–7 frames later, one new ball per frame for
/// 3000 frames, next to a ball at rest: nothing panics, the store and the contact report do not
/// grow (at most 8 materials, 9 contacts), the resting ball drifts < 0.1 mm and still has its
/// contact afterwards, and a ball rolled in afterwards decelerates at c g/(1.4 R).
#[test]
fn churn_of_material_entities() {
    let mut app = scene();
    let ground_material = FrictionMaterial::builder().friction(0.6, 0.5).build().unwrap();
    let rest = common::ball(&mut app, -5.0, 0.25, Velocity::default(), Some(ground_material));
    let p0 = position(&app, rest);
    let mut alive: std::collections::VecDeque<(usize, Entity)> = Default::default();
    let (mut max_materials, mut max_contacts) = (0, 0);
    for k in 0..3000usize {
        let z = (k % 10) as f32 * 0.6;
        let e = app
            .world_mut()
            .spawn((
                Transform::from_xyz(2.0, 0.25, z),
                RigidBody::Dynamic,
                Collider::ball(0.25),
                Velocity { linear: Vec3::X, angular: Vec3::Z * -4.0 },
                rolling(),
            ))
            .id();
        alive.push_back((k + 1 + k % 7, e));
        while alive.front().is_some_and(|&(end, _)| end <= k) {
            let (_, e) = alive.pop_front().unwrap();
            app.world_mut().entity_mut(e).despawn();
        }
        app.update();
        if k % 50 == 0 {
            assert_finite(&mut app, "churn");
        }
        max_materials = max_materials.max(context(&mut app).material_count());
        max_contacts = max_contacts.max(app.world().resource::<TriboContacts>().contacts.len());
    }
    // Up to 7 churned balls live at once, each touching the ground from its first step.
    assert!(max_contacts >= 5, "the churned balls had {max_contacts} contacts at most");
    assert!(max_materials <= 9, "materials {max_materials}");
    assert!(max_contacts <= 9, "contacts {max_contacts}");
    for (_, e) in alive.drain(..) {
        app.world_mut().entity_mut(e).despawn();
    }
    run(&mut app, 2, "churn end");
    assert_eq!(context(&mut app).material_count(), 1);
    assert_eq!(context(&mut app).store().len(), 1, "only the resting ball's contact is left");
    let drift = (position(&app, rest) - p0).length();
    assert!(drift < 1e-4, "resting ball drifted {drift} m");
    let b = roller(&mut app, 10.0, 2.0, Some(rolling()));
    run(&mut app, 10, "churn roller");
    assert_rolling_resistance(deceleration(&mut app, b, 60, "churn roller"), "after churn");
}

/// A body with two child colliders carrying materials, rolling: despawning the parent takes
/// its colliders, materials and contacts out of tribo; the ground's material stays.
#[test]
fn despawn_a_parent_with_child_colliders() {
    let mut app = common::app(1);
    let ground = common::ground(&mut app, Some(rolling()));
    let body = app
        .world_mut()
        .spawn((
            Transform::from_xyz(0.0, R, 0.0),
            RigidBody::Dynamic,
            Velocity { linear: Vec3::X, angular: Vec3::Z * (-1.0 / R) },
            Sleeping::disabled(),
        ))
        .with_children(|c| {
            c.spawn((Transform::default(), Collider::ball(R), rolling()));
            c.spawn((Transform::from_xyz(0.0, 0.0, 0.5), Collider::ball(R), rolling()));
        })
        .id();
    run(&mut app, 20, "two-collider body");
    assert_eq!(context(&mut app).material_count(), 3);
    assert_eq!(app.world().resource::<TriboContacts>().involving_body(body).count(), 2);
    app.world_mut().entity_mut(body).despawn();
    run(&mut app, 30, "parent despawned");
    assert_eq!(context(&mut app).material_count(), 1);
    assert!(app.world().resource::<TriboContacts>().contacts.is_empty());
    assert_eq!(context(&mut app).store().joint_count(), 0, "motor joints left behind");
    assert!(app.world().get_entity(ground).is_ok());
}

/// Despawning only the collider entity of a body (its child) while it rolls: tribo forgets the
/// collider; a new child collider with a material on the same body gets tribo friction again
/// (the rolling deceleration is c g/(1.4 R)).
#[test]
fn despawn_only_the_collider_entity() {
    let mut app = scene();
    let body = app
        .world_mut()
        .spawn((
            Transform::from_xyz(0.0, R, 0.0),
            RigidBody::Dynamic,
            Velocity { linear: Vec3::X * 2.0, angular: Vec3::Z * (-2.0 / R) },
            Sleeping::disabled(),
        ))
        .id();
    let spawn_collider = |app: &mut App| {
        app.world_mut()
            .spawn((
                Transform::default(),
                Collider::ball(R),
                ColliderMassProperties::Density(1000.0),
                rolling(),
                ChildOf(body),
            ))
            .id()
    };
    let collider = spawn_collider(&mut app);
    run(&mut app, 20, "child collider");
    assert_eq!(context(&mut app).material_count(), 1);
    app.world_mut().entity_mut(collider).despawn();
    run(&mut app, 5, "collider despawned");
    assert_eq!(context(&mut app).material_count(), 0);
    assert!(app.world().resource::<TriboContacts>().contacts.is_empty());
    // Put the body back on the ground, rolling, with a new collider.
    app.world_mut().entity_mut(body).insert((
        Transform::from_xyz(0.0, R, 0.0),
        Velocity { linear: Vec3::X * 2.0, angular: Vec3::Z * (-2.0 / R) },
    ));
    spawn_collider(&mut app);
    run(&mut app, 10, "new collider");
    assert_rolling_resistance(deceleration(&mut app, body, 60, "new collider"), "new child collider");
}

/// A stock ball rolls on without deceleration; a `FrictionMaterial` inserted at run time gives
/// it a = c g/(1.4 R); replacing it with one of 2c doubles a; removing it brings back stock
/// rolling (no deceleration, < 2 % of A).
#[test]
fn insert_replace_remove_material_at_run_time() {
    let mut app = scene();
    let b = roller(&mut app, 0.0, 3.0, None);
    run(&mut app, 5, "stock");
    let a = deceleration(&mut app, b, 30, "stock");
    assert!(a.abs() < 0.02 * A, "stock ball decelerates at {a}");
    app.world_mut().entity_mut(b).insert(rolling());
    run(&mut app, 2, "inserted");
    assert_rolling_resistance(deceleration(&mut app, b, 60, "inserted"), "inserted");
    let double =
        FrictionMaterial::builder().friction(0.6, 0.5).rolling_resistance(2.0 * C as f64).build().unwrap();
    app.world_mut().entity_mut(b).insert(double);
    run(&mut app, 2, "replaced");
    let a2 = deceleration(&mut app, b, 60, "replaced");
    assert!((a2 - 2.0 * A).abs() < 0.05 * 2.0 * A, "replaced: {a2}, expected {}", 2.0 * A);
    app.world_mut().entity_mut(b).remove::<FrictionMaterial>();
    run(&mut app, 2, "removed");
    let a = deceleration(&mut app, b, 30, "removed");
    assert!(a.abs() < 0.02 * A, "after removal the ball decelerates at {a}");
    assert_eq!(context(&mut app).material_count(), 0);
}

/// Gravity tilted by α (tan α = 0.3) on flat ground (friction 0.5): a box of friction
/// `friction` (combine rule Min) at rest, with a material if given.
fn box_on_a_slope(app: &mut App, z: f32, friction: f32, m: Option<FrictionMaterial>) -> Entity {
    let mut e = app.world_mut().spawn((
        Transform::from_xyz(0.0, 0.25, z),
        RigidBody::Dynamic,
        Collider::cuboid(0.25, 0.25, 0.25),
        Friction { coefficient: friction, combine_rule: CoefficientCombineRule::Min },
        Velocity::default(),
    ));
    if let Some(m) = m {
        e.insert(m);
    }
    e.id()
}

/// The app of the sliding-box tests: gravity tilted by atan 0.3, a ground of friction 0.5.
fn slope() -> App {
    let mut app = common::app(1);
    let alpha = 0.3f32.atan();
    common::set_gravity(&mut app, Vec3::new(G * alpha.sin(), -G * alpha.cos(), 0.0));
    let g = common::ground(&mut app, None);
    app.world_mut().entity_mut(g).insert(Friction::coefficient(0.5));
    app
}

/// Asserts that box `b` slides ½ g (sin α − μk cos α) t² (within 5 %) in the next second.
fn assert_slides(app: &mut App, b: Entity, mu_k: f32, what: &str) {
    let alpha = 0.3f32.atan();
    let x0 = position(app, b).x;
    run(app, 60, what);
    let expected = 0.5 * G * (alpha.sin() - mu_k * alpha.cos());
    let dx = position(app, b).x - x0;
    assert!((dx - expected).abs() < 0.05 * expected, "{what}: slid {dx} m in 1 s, expected {expected}");
}

/// A box with stock friction (μ 0.5 > tan α = 0.3) sticks and falls asleep; an ice material
/// (μk 0.04) inserted on the sleeping box takes effect at once: it slides
/// ½ g (sin α − μk cos α) t². (A body asleep on stock friction has no tribo contact for
/// tribo_rapier to wake.)
#[test]
fn material_given_to_a_sleeping_stock_body_acts() {
    let mut app = slope();
    let b = box_on_a_slope(&mut app, 0.0, 0.5, None);
    run(&mut app, 240, "settling");
    assert!(asleep(&mut app, b), "the box should sleep");
    app.world_mut().entity_mut(b).insert(FrictionMaterial::new(0.05, 0.04).unwrap());
    assert_slides(&mut app, b, 0.04, "ice on a sleeping box");
}

/// A box held by a material (μs 0.8) over slippery stock friction (0.1), once asleep and once
/// kept awake: removing the material brings back stock friction at once, the box slides
/// ½ g (sin α − 0.1 cos α) t². (rapier recycles the solver contacts of a pair that has not
/// moved, with the friction tribo's hook wrote into them, once the hook flag is gone.)
#[test]
fn material_removed_from_a_resting_body_acts() {
    let mut app = slope();
    let held = FrictionMaterial::new(0.8, 0.7).unwrap();
    let asleep_box = box_on_a_slope(&mut app, 0.0, 0.1, Some(held));
    let awake_box = box_on_a_slope(&mut app, 3.0, 0.1, Some(held));
    app.world_mut().entity_mut(awake_box).insert(Sleeping::disabled());
    run(&mut app, 240, "settling");
    assert!(asleep(&mut app, asleep_box), "the box should sleep");
    let x = position(&app, awake_box).x;
    assert!(x.abs() < 1e-3, "the held box moved {x} m");
    for b in [asleep_box, awake_box] {
        app.world_mut().entity_mut(b).remove::<FrictionMaterial>();
    }
    let x0 = [position(&app, asleep_box).x, position(&app, awake_box).x];
    run(&mut app, 60, "material removed");
    let alpha = 0.3f32.atan();
    let expected = 0.5 * G * (alpha.sin() - 0.1 * alpha.cos());
    for (b, x0) in [asleep_box, awake_box].into_iter().zip(x0) {
        let dx = position(&app, b).x - x0;
        assert!((dx - expected).abs() < 0.05 * expected, "{b}: slid {dx} m in 1 s, expected {expected}");
    }
}

/// Replacing the `Collider` of a rolling ball (a new ball shape of the same radius, then a
/// cube, then the ball again) keeps its material: the deceleration is c g/(1.4 R) before and
/// after; the cube phase stays finite.
#[test]
fn replace_the_collider_shape() {
    let mut app = scene();
    let b = roller(&mut app, 0.0, 3.0, Some(rolling()));
    run(&mut app, 5, "ball");
    assert_rolling_resistance(deceleration(&mut app, b, 30, "ball"), "before");
    app.world_mut().entity_mut(b).insert(Collider::ball(R));
    run(&mut app, 2, "same ball");
    assert_rolling_resistance(deceleration(&mut app, b, 30, "same ball"), "new ball shape");
    app.world_mut().entity_mut(b).insert(Collider::cuboid(R, R, R));
    run(&mut app, 30, "cube");
    assert_eq!(context(&mut app).material_count(), 1);
    app.world_mut().entity_mut(b).insert((
        Collider::ball(R),
        Transform::from_xyz(0.0, R, 0.0),
        Velocity { linear: Vec3::X * 2.0, angular: Vec3::Z * (-2.0 / R) },
    ));
    run(&mut app, 3, "ball again");
    assert_rolling_resistance(deceleration(&mut app, b, 30, "ball again"), "ball again");
}

/// A rolling ball with a material goes Dynamic → Fixed → KinematicPositionBased →
/// KinematicVelocityBased → Dynamic: nothing panics or goes non-finite, and back as a dynamic
/// body rolling again it decelerates at c g/(1.4 R).
#[test]
fn change_the_rigid_body_type() {
    let mut app = scene();
    let b = roller(&mut app, 0.0, 2.0, Some(rolling()));
    run(&mut app, 20, "dynamic");
    for kind in [RigidBody::Fixed, RigidBody::KinematicPositionBased, RigidBody::KinematicVelocityBased] {
        app.world_mut().entity_mut(b).insert(kind);
        run(&mut app, 20, &format!("{kind:?}"));
    }
    app.world_mut().entity_mut(b).insert((
        RigidBody::Dynamic,
        Transform::from_xyz(0.0, R, 0.0),
        Velocity { linear: Vec3::X * 2.0, angular: Vec3::Z * (-2.0 / R) },
    ));
    run(&mut app, 5, "dynamic again");
    assert_rolling_resistance(deceleration(&mut app, b, 60, "dynamic again"), "dynamic again");
}

/// `Sleeping` forced on and off, `ColliderDisabled` and `RigidBodyDisabled` added and removed
/// on a ball at rest with a material: the ball never moves more than 0.1 mm (a disabled body is
/// frozen; a disabled collider is re-enabled before the ball has fallen 0.1 mm: one frame,
/// ½ g dt² = 0.07 mm), and its contact is back in the report afterwards.
#[test]
fn sleeping_and_disabled_toggles_on_a_resting_ball() {
    let mut app = scene();
    let b = common::ball(&mut app, 0.0, R, Velocity::default(), Some(rolling()));
    run(&mut app, 30, "settle");
    let p0 = position(&app, b);
    for round in 0..3 {
        app.world_mut().entity_mut(b).insert(Sleeping { sleeping: true, ..Sleeping::default() });
        run(&mut app, 10, "asleep");
        app.world_mut().entity_mut(b).insert(Sleeping::disabled());
        run(&mut app, 10, "awake");
        app.world_mut().entity_mut(b).insert(RigidBodyDisabled);
        run(&mut app, 10, "body disabled");
        app.world_mut().entity_mut(b).remove::<RigidBodyDisabled>();
        run(&mut app, 10, "body enabled");
        app.world_mut().entity_mut(b).insert(ColliderDisabled);
        run(&mut app, 1, "collider disabled");
        app.world_mut().entity_mut(b).remove::<ColliderDisabled>();
        run(&mut app, 20, "collider enabled");
        let drift = (position(&app, b) - p0).length();
        assert!(drift < 1e-4, "round {round}: drifted {drift} m");
    }
    assert_eq!(app.world().resource::<TriboContacts>().involving(b).count(), 1);
    assert_eq!(context(&mut app).material_count(), 1);
}

/// A rolling ball with `RigidBodyDisabled` for half a second keeps its position (frozen), and
/// once enabled again decelerates at c g/(1.4 R); with `ColliderDisabled` its contact leaves the
/// report and its material stays registered.
#[test]
fn disable_a_rolling_body_and_its_collider() {
    let mut app = scene();
    let b = roller(&mut app, 0.0, 2.0, Some(rolling()));
    run(&mut app, 10, "rolling");
    let x = position(&app, b).x;
    app.world_mut().entity_mut(b).insert(RigidBodyDisabled);
    run(&mut app, 30, "disabled");
    assert!((position(&app, b).x - x).abs() < 1e-6, "a disabled body moved");
    app.world_mut().entity_mut(b).remove::<RigidBodyDisabled>();
    run(&mut app, 3, "enabled");
    assert_rolling_resistance(deceleration(&mut app, b, 60, "enabled"), "re-enabled");
    app.world_mut().entity_mut(b).insert(ColliderDisabled);
    run(&mut app, 30, "collider disabled");
    assert_eq!(app.world().resource::<TriboContacts>().involving(b).count(), 0);
    assert_eq!(context(&mut app).material_count(), 1);
}

/// A collider entity with a material moved (`ChildOf`) from one body to another while resting
/// on the ground: nothing panics or goes non-finite and the material stays registered once.
#[test]
fn reparent_a_collider_to_another_body() {
    let mut app = scene();
    let body = |app: &mut App, x: f32| {
        app.world_mut().spawn((Transform::from_xyz(x, R, 0.0), RigidBody::Dynamic, Sleeping::disabled())).id()
    };
    let (a, b) = (body(&mut app, 0.0), body(&mut app, 2.0));
    let c = app.world_mut().spawn((Transform::default(), Collider::ball(R), rolling(), ChildOf(a))).id();
    app.world_mut().spawn((Transform::default(), Collider::ball(R), ChildOf(b)));
    run(&mut app, 20, "before");
    app.world_mut().entity_mut(c).insert(ChildOf(b));
    run(&mut app, 60, "reparented");
    assert_eq!(context(&mut app).material_count(), 1);
}

/// A ball rolling with its `ActiveHooks` component removed by the user, then replaced with
/// `ActiveHooks::empty()`: tribo friction keeps working (deceleration c g/(1.4 R)) and the
/// component gets tribo's flag back.
#[test]
fn user_removes_or_empties_active_hooks() {
    let mut app = scene();
    let b = roller(&mut app, 0.0, 3.0, Some(rolling()));
    run(&mut app, 5, "rolling");
    app.world_mut().entity_mut(b).remove::<ActiveHooks>();
    run(&mut app, 2, "hooks removed");
    assert_rolling_resistance(deceleration(&mut app, b, 30, "hooks removed"), "ActiveHooks removed");
    app.world_mut().entity_mut(b).insert(ActiveHooks::empty());
    run(&mut app, 2, "hooks emptied");
    assert_eq!(app.world().get::<ActiveHooks>(b).copied(), Some(ActiveHooks::MODIFY_SOLVER_CONTACTS));
    assert_rolling_resistance(deceleration(&mut app, b, 30, "hooks emptied"), "ActiveHooks emptied");
}

/// Marks colliders the user's `filter_contact_pair` drops.
#[derive(Component)]
struct Ghost;

#[derive(Resource, Default)]
struct FilterCalls(AtomicU64);

/// The user's hooks: no contact for ghosts.
#[derive(SystemParam)]
struct GhostHooks<'w, 's> {
    ghosts: Query<'w, 's, &'static Ghost>,
    calls: Res<'w, FilterCalls>,
}

impl BevyPhysicsHooks for GhostHooks<'_, '_> {
    fn filter_contact_pair(&self, ctx: PairFilterContextView) -> Option<SolverFlags> {
        self.calls.0.fetch_add(1, Ordering::Relaxed);
        if self.ghosts.get(ctx.collider1()).is_ok() || self.ghosts.get(ctx.collider2()).is_ok() {
            None
        } else {
            Some(SolverFlags::COMPUTE_IMPULSES)
        }
    }
}

/// The user's own `filter_contact_pair` through `TriboHooks<GhostHooks>`, with the plugin added
/// before bevy_rapier's: a ghost ball with a material falls through the ground (y < −1 m after
/// 1 s), a normal ball with a material rolls with deceleration c g/(1.4 R), and the user's
/// hook was called.
#[test]
fn own_filter_hooks_and_plugin_order() {
    let mut app = App::new();
    app.add_plugins((
        MinimalPlugins,
        TransformPlugin,
        TriboPlugin::<GhostHooks>::new(),
        RapierPhysicsPlugin::<TriboHooks<GhostHooks>>::default(),
    ))
    .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs_f32(DT)))
    .insert_resource(TimestepMode::Fixed { dt: DT, substeps: 1 })
    .init_resource::<FilterCalls>();
    app.finish();
    app.cleanup();
    app.update();
    let g = common::ground(&mut app, None);
    app.world_mut().entity_mut(g).insert(ActiveHooks::FILTER_CONTACT_PAIRS);
    let ghost = roller(&mut app, 0.0, 0.0, Some(rolling()));
    app.world_mut().entity_mut(ghost).insert((Ghost, ActiveHooks::FILTER_CONTACT_PAIRS));
    let b = roller(&mut app, 3.0, 3.0, Some(rolling()));
    run(&mut app, 5, "ghost");
    assert_rolling_resistance(deceleration(&mut app, b, 55, "ghost"), "next to a ghost");
    assert!(position(&app, ghost).y < -1.0, "ghost at {}", position(&app, ghost));
    assert!(app.world().resource::<FilterCalls>().0.load(Ordering::Relaxed) > 0);
    assert_eq!(app.world().resource::<TriboStats>().bypassed_hook_calls, 0);
}

/// An app in this timestep mode with frames of `frame` s, a ball at rest (R) and a rolling
/// ball (3 m/s), both with the rolling material.
fn timestep_scene(mode: TimestepMode, frame: f32) -> (App, Entity, Entity) {
    let mut app = common::app_with_frames(mode, frame);
    common::ground(&mut app, None);
    let rest = common::ball(&mut app, -3.0, R, Velocity::default(), Some(rolling()));
    let b = roller(&mut app, 0.0, 3.0, Some(rolling()));
    (app, rest, b)
}

/// `Variable` with a first frame of dt = 0 (bevy's first `Time` delta) and with time scale 0
/// for 30 frames: no NaN anywhere; with time scale 0 nothing moves (the rolling ball keeps its
/// velocity); after switching to scale 1 the rolling ball decelerates at c g/(1.4 R) and the
/// resting ball has drifted < 0.1 mm.
#[test]
fn variable_timestep_zero_dt_and_zero_time_scale() {
    let (mut app, rest, b) =
        timestep_scene(TimestepMode::Variable { max_dt: 1.0 / 30.0, time_scale: 1.0, substeps: 1 }, DT);
    run(&mut app, 5, "variable");
    let p0 = position(&app, rest);
    app.insert_resource(TimestepMode::Variable { max_dt: 1.0 / 30.0, time_scale: 0.0, substeps: 2 });
    let (x, v) = (position(&app, b).x, velocity(&app, b).linear.x);
    run(&mut app, 30, "time scale 0");
    assert!((position(&app, b).x - x).abs() < 1e-6, "moved with time scale 0");
    assert!((velocity(&app, b).linear.x - v).abs() < 1e-6, "velocity changed with time scale 0");
    app.insert_resource(TimestepMode::Variable { max_dt: 1.0 / 30.0, time_scale: 1.0, substeps: 1 });
    run(&mut app, 2, "scale 1");
    assert_rolling_resistance(deceleration(&mut app, b, 60, "scale 1"), "after time scale 0");
    let drift = (position(&app, rest) - p0).length();
    assert!(drift < 1e-4, "resting ball drifted {drift} m");
}

/// Frames of zero length (`TimeUpdateStrategy::ManualDuration(0)`) in `Variable` mode, then
/// normal frames: no NaN, and the rolling ball then decelerates at c g/(1.4 R).
#[test]
fn zero_length_frames() {
    let (mut app, _rest, b) =
        timestep_scene(TimestepMode::Variable { max_dt: 1.0 / 30.0, time_scale: 1.0, substeps: 1 }, DT);
    run(&mut app, 5, "variable");
    app.insert_resource(TimeUpdateStrategy::ManualDuration(Duration::ZERO));
    run(&mut app, 20, "zero-length frames");
    app.insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs_f32(DT)));
    run(&mut app, 2, "normal frames");
    assert_rolling_resistance(deceleration(&mut app, b, 60, "normal frames"), "after zero-length frames");
}

/// `Interpolated` (dt 1/60, frames of 1/60 s) with time scale 0 for 30 frames, then 1: nothing
/// moves at scale 0, the rolling ball then decelerates at c g/(1.4 R) and the resting ball
/// drifts < 0.1 mm.
#[test]
fn interpolated_with_zero_time_scale() {
    let (mut app, rest, b) =
        timestep_scene(TimestepMode::Interpolated { dt: DT, time_scale: 1.0, substeps: 1 }, DT);
    run(&mut app, 5, "interpolated");
    let p0 = position(&app, rest);
    app.insert_resource(TimestepMode::Interpolated { dt: DT, time_scale: 0.0, substeps: 1 });
    let x = position(&app, b).x;
    run(&mut app, 30, "interpolated, scale 0");
    assert!((position(&app, b).x - x).abs() < 1e-6, "moved with time scale 0");
    app.insert_resource(TimestepMode::Interpolated { dt: DT, time_scale: 1.0, substeps: 1 });
    run(&mut app, 2, "interpolated, scale 1");
    assert_rolling_resistance(deceleration(&mut app, b, 60, "interpolated"), "interpolated");
    let drift = (position(&app, rest) - p0).length();
    assert!(drift < 1e-4, "resting ball drifted {drift} m");
}

/// `Fixed` with dt = 0, then −1/60, then NaN (20 frames each): steps of zero, negative or
/// non-finite length leave everything in place and finite; with dt = 1/60 again the rolling
/// ball decelerates at c g/(1.4 R).
#[test]
fn fixed_timestep_of_zero_negative_or_nan() {
    let (mut app, rest, b) = timestep_scene(TimestepMode::Fixed { dt: DT, substeps: 1 }, DT);
    run(&mut app, 5, "fixed");
    let (p, x) = (position(&app, rest), position(&app, b).x);
    for dt in [0.0, -DT, f32::NAN] {
        app.insert_resource(TimestepMode::Fixed { dt, substeps: 1 });
        run(&mut app, 20, &format!("fixed dt {dt}"));
        assert!((position(&app, b).x - x).abs() < 1e-6, "dt {dt}: the rolling ball moved");
        assert!((position(&app, rest) - p).length() < 1e-6, "dt {dt}: the resting ball moved");
    }
    app.insert_resource(TimestepMode::Fixed { dt: DT, substeps: 1 });
    run(&mut app, 2, "fixed again");
    assert_rolling_resistance(deceleration(&mut app, b, 60, "fixed again"), "after dt 0, -1/60, NaN");
}

/// `Variable` mode with the scene spawned by a `Startup` system: bevy's first frame has
/// delta 0, so its step has dt = 0; the ball spawned rolling at 3 m/s, ω = 15 rad/s keeps its
/// spin through it (within 1 %) and then decelerates at c g/(1.4 R).
#[test]
fn variable_first_frame_keeps_the_spin() {
    let mut app = common::app_unstarted(
        TimestepMode::Variable { max_dt: 1.0 / 30.0, time_scale: 1.0, substeps: 1 },
        DT,
    );
    app.add_systems(Startup, |mut commands: Commands| {
        commands.spawn((Transform::from_xyz(0.0, -0.5, 0.0), Collider::cuboid(50.0, 0.5, 50.0)));
        commands.spawn((
            Transform::from_xyz(0.0, R, 0.0),
            RigidBody::Dynamic,
            Collider::ball(R),
            ColliderMassProperties::Density(1000.0),
            Velocity { linear: Vec3::X * 3.0, angular: Vec3::Z * (-3.0 / R) },
            Sleeping::disabled(),
            rolling(),
        ));
    });
    app.finish();
    app.cleanup();
    run(&mut app, 1, "first frame");
    let mut q = app.world_mut().query_filtered::<Entity, With<RigidBody>>();
    let b = q.single(app.world()).unwrap();
    let w = velocity(&app, b).angular.z;
    assert!((w + 3.0 / R).abs() < 0.01 * 3.0 / R, "spin after the first frame: {w} rad/s");
    run(&mut app, 3, "next frames");
    assert_rolling_resistance(deceleration(&mut app, b, 60, "variable"), "variable mode");
}

/// Degenerate geometry with a material: a ball of radius 0 and a flat (zero-height) cuboid,
/// dropped rolling on a ground with a material next to a normal ball: nothing panics and no
/// value goes non-finite over 2 s. (A `Transform` scale of 0 is left out: bevy_rapier turns it
/// into a NaN rotation with or without tribo.)
#[test]
fn degenerate_colliders_with_materials() {
    let mut app = common::app(1);
    common::ground(&mut app, Some(rolling()));
    let spawn = |app: &mut App, x: f32, collider: Collider| {
        app.world_mut().spawn((
            Transform::from_xyz(x, 0.3, 0.0),
            RigidBody::Dynamic,
            collider,
            Velocity { linear: Vec3::X, angular: Vec3::Z * -3.0 },
            rolling(),
        ));
    };
    spawn(&mut app, 0.0, Collider::ball(0.0));
    spawn(&mut app, 4.0, Collider::cuboid(0.2, 0.0, 0.2));
    spawn(&mut app, 6.0, Collider::ball(0.2));
    run(&mut app, 120, "degenerate");
}

/// Physics paused (`RapierConfiguration::physics_pipeline_active = false`) for 30 frames: the
/// rolling ball stays where it is, the contact report keeps the contacts of the last rapier
/// step (the resting ball's included), and after resuming the rolling ball decelerates at
/// c g/(1.4 R).
#[test]
fn paused_and_resumed_pipeline() {
    let (mut app, rest, b) = timestep_scene(TimestepMode::Fixed { dt: DT, substeps: 1 }, DT);
    run(&mut app, 10, "running");
    let before = app.world().resource::<TriboContacts>().contacts.len();
    assert_eq!(before, 2);
    let set_active = |app: &mut App, on: bool| {
        let mut q = app.world_mut().query::<&mut RapierConfiguration>();
        q.single_mut(app.world_mut()).unwrap().physics_pipeline_active = on;
    };
    set_active(&mut app, false);
    let x = position(&app, b).x;
    run(&mut app, 30, "paused");
    assert!((position(&app, b).x - x).abs() < 1e-6, "moved while paused");
    let contacts = app.world().resource::<TriboContacts>();
    assert_eq!(contacts.contacts.len(), before, "contact report while paused");
    assert_eq!(contacts.involving(rest).count(), 1);
    set_active(&mut app, true);
    run(&mut app, 2, "resumed");
    assert_rolling_resistance(deceleration(&mut app, b, 60, "resumed"), "resumed");
}

/// tribo in `FixedUpdate`, bevy_rapier in `PostUpdate`: refused at startup with the README's
/// message.
#[test]
#[should_panic(expected = "put both in the same schedule")]
fn tribo_fixed_rapier_not_is_refused() {
    let mut app = App::new();
    app.add_plugins((
        MinimalPlugins,
        TransformPlugin,
        RapierPhysicsPlugin::<TriboHooks>::default(),
        TriboPlugin::default().in_fixed_schedule(),
    ));
    app.finish();
}

/// The user removes the plugin's resources (`TriboContacts`, `TriboStats`,
/// `RealizabilityMonitor`, `TriboPairMaterials`): nothing panics and friction keeps working
/// (deceleration c g/(1.4 R)).
#[test]
fn removed_plugin_resources() {
    let mut app = scene();
    let b = roller(&mut app, 0.0, 3.0, Some(rolling()));
    run(&mut app, 5, "rolling");
    let world = app.world_mut();
    world.remove_resource::<TriboContacts>();
    world.remove_resource::<TriboStats>();
    world.remove_resource::<RealizabilityMonitor>();
    world.remove_resource::<TriboPairMaterials>();
    for _ in 0..2 {
        app.update();
    }
    let v0 = velocity(&app, b).linear.x;
    for _ in 0..60 {
        app.update();
    }
    let a = (v0 - velocity(&app, b).linear.x) / (60.0 * DT);
    assert_rolling_resistance(a, "resources removed");
}

#[derive(Resource, Default)]
struct Reports(Vec<RealizabilityReport>);

/// A ball (R = 0.1 m) at rest in a right-angle trough (two fixed walls at ±45°, μ 0.3), the
/// realizability monitor switched on and off through its resource at run time, with
/// zero-length frames and a paused pipeline in between: every report names the ball, has a
/// finite margin and says rolling is realizable (no load but gravity), the ball stays within
/// 0.1 mm, and reports come only while the monitor is on and steps are taken.
#[test]
fn realizability_monitor_toggled_at_run_time() {
    use std::f32::consts::{FRAC_1_SQRT_2, FRAC_PI_4, SQRT_2};
    let mut app = common::app(1);
    app.init_resource::<Reports>().add_systems(
        PostUpdate,
        (|mut r: MessageReader<RealizabilityReport>, mut seen: ResMut<Reports>| {
            seen.0.extend(r.read().cloned())
        })
        .after(TriboSet::Step),
    );
    let r = 0.1;
    let bottom = Vec3::new(0.0, -SQRT_2 * r, 0.0);
    for (n, angle) in [
        (Vec3::new(-FRAC_1_SQRT_2, FRAC_1_SQRT_2, 0.0), FRAC_PI_4),
        (Vec3::new(FRAC_1_SQRT_2, FRAC_1_SQRT_2, 0.0), -FRAC_PI_4),
    ] {
        let along = Vec3::Z.cross(n);
        let up = if along.y > 0.0 { along } else { -along };
        app.world_mut().spawn((
            Transform::from_translation(bottom + up * 5.0 * r - n * 0.5 * r)
                .with_rotation(Quat::from_rotation_z(angle)),
            Collider::cuboid(5.0 * r, 0.5 * r, 20.0 * r),
        ));
    }
    let ball = app
        .world_mut()
        .spawn((
            Transform::IDENTITY,
            RigidBody::Dynamic,
            Collider::ball(r),
            Sleeping::disabled(),
            FrictionMaterial::new(0.3, 0.3).unwrap(),
        ))
        .id();
    run(&mut app, 30, "settle");
    let p0 = position(&app, ball);
    let monitor = |app: &mut App, on: bool| {
        app.insert_resource(RealizabilityMonitor { enabled: on });
    };
    let count = |app: &App| app.world().resource::<Reports>().0.len();
    monitor(&mut app, true);
    run(&mut app, 10, "monitor on");
    assert_eq!(count(&app), 10, "one report per step");
    monitor(&mut app, false);
    run(&mut app, 10, "monitor off");
    assert_eq!(count(&app), 10);
    monitor(&mut app, true);
    app.insert_resource(TimeUpdateStrategy::ManualDuration(Duration::ZERO));
    app.insert_resource(TimestepMode::Variable { max_dt: 1.0 / 30.0, time_scale: 1.0, substeps: 1 });
    run(&mut app, 10, "zero-length frames");
    assert_eq!(count(&app), 10, "no step, no report");
    app.insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs_f32(DT)));
    run(&mut app, 10, "variable");
    assert_eq!(count(&app), 20);
    let mut q = app.world_mut().query::<&mut RapierConfiguration>();
    q.single_mut(app.world_mut()).unwrap().physics_pipeline_active = false;
    run(&mut app, 10, "paused");
    assert_eq!(count(&app), 20);
    for rep in &app.world().resource::<Reports>().0 {
        assert_eq!(rep.body, Some(ball));
        let margin = rep.margin().expect("analysis");
        assert!(margin.is_finite() && rep.realizable(), "report {rep:?}");
    }
    let drift = (position(&app, ball) - p0).length();
    assert!(drift < 1e-4, "ball drifted {drift} m");
}

/// A system that takes the `FrictionMaterial` mutably every frame without changing it (bevy
/// marks it changed): a box on flat ground still falls asleep within 4 s and stays within
/// 0.1 mm, so an unchanged material wakes nothing.
#[test]
fn material_touched_every_frame_without_change() {
    let mut app = scene();
    app.add_systems(Update, |mut q: Query<&mut FrictionMaterial>| {
        for mut m in &mut q {
            m.set_changed();
        }
    });
    let b = app
        .world_mut()
        .spawn((
            Transform::from_xyz(0.0, 0.25, 0.0),
            RigidBody::Dynamic,
            Collider::cuboid(0.25, 0.25, 0.25),
            FrictionMaterial::new(0.6, 0.5).unwrap(),
        ))
        .id();
    run(&mut app, 30, "settle");
    let p0 = position(&app, b);
    run(&mut app, 210, "touched");
    assert!(asleep(&mut app, b), "the box should sleep");
    let drift = (position(&app, b) - p0).length();
    assert!(drift < 1e-4, "box drifted {drift} m");
}
