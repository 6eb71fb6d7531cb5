//! The contact store under what a game does to a rapier world: despawn and spawn in the same
//! frame, churn, invalid handles, shape and body-type changes, snapshots (clone and restore),
//! a world restored without its store, steps not prepared by `before_step`, and run-to-run
//! determinism (also under rapier's `parallel` feature: `--features parallel`).

use tribo_rapier::rapier3d::prelude::*;
use tribo_rapier::{Diagnostic, FrictionMaterial, Material, Mode, RollSpin, Settings, TriboRapier};

mod common;
use common::{rolling_material, World, G};

/// Despawning a body and spawning another in the same frame: rapier gives the new collider the
/// freed slot with a new generation. Its material must survive the next `before_step`, which
/// cleans up the removed collider's material.
#[test]
fn same_frame_despawn_and_spawn_keeps_the_new_material() {
    let mut w = World::new();
    let mut tribo = TriboRapier::new();
    let (floor, b_old, c_old) = w.rolling_ball_on_floor(&mut tribo);
    for _ in 0..30 {
        w.step(&mut tribo);
    }
    assert!(tribo.contact(floor, c_old).is_some());
    // Same frame: despawn, spawn.
    w.remove_body(b_old, true);
    let (_, c_new) = w.ball(0.1, Vector::new(1.0, 0.1, 0.0));
    assert_eq!(c_new.into_raw_parts().0, c_old.into_raw_parts().0, "rapier reuses the slot");
    tribo.set_material(c_new, rolling_material());
    for _ in 0..30 {
        w.step(&mut tribo);
    }
    assert!(tribo.material(c_new).is_some(), "the new collider's material was dropped");
    assert!(tribo.material(c_old).is_none());
    let info = tribo.contact(floor, c_new).expect("tribo friction on the new ball");
    // The ball rests: N = m g with m = 1000 · 4/3 π 0.1³.
    let mg = 1000.0 * 4.0 / 3.0 * std::f32::consts::PI * 1e-3 * G;
    assert!((info.normal_force - mg).abs() < 0.02 * mg, "N = {} vs m g = {mg}", info.normal_force);
}

/// Churn soak: a ball spawned every 10 steps, each despawned 300 steps later (30 alive), for
/// 20,000 steps. Every ball resting on the floor has tribo state; the state, the joints in the
/// world and the materials stay bounded and consistent.
#[test]
fn churn_soak_keeps_tribo_on_every_live_body() {
    let mut w = World::new();
    let mut tribo = TriboRapier::new();
    let floor = w.floor();
    tribo.set_material(floor, rolling_material());
    let mut live: std::collections::VecDeque<(u64, RigidBodyHandle, ColliderHandle)> = Default::default();
    let mut checked = 0;
    for step in 0..20_000u64 {
        if step % 10 == 0 {
            if live.front().is_some_and(|(born, _, _)| step - born >= 300) {
                let (_, b, _) = live.pop_front().unwrap();
                w.remove_body(b, true);
            }
            // 6 × 5 grid of spots 1 m apart, reused in turn.
            let k = (step / 10) % 30;
            let at = Vector::new((k % 6) as f32 - 2.5, 0.1, (k / 6) as f32 - 2.0);
            let (b, c) = w.ball(0.1, at);
            tribo.set_material(c, rolling_material());
            live.push_back((step, b, c));
        }
        w.step(&mut tribo);
        // Balls older than 60 steps rest on the floor: each has a loaded tribo contact.
        if step % 500 == 499 {
            for &(born, _, c) in &live {
                if step - born > 60 {
                    let info = tribo.contact(floor, c);
                    assert!(
                        info.is_some_and(|i| i.normal_force > 0.0),
                        "step {step}: ball born at {born} has no tribo contact"
                    );
                    checked += 1;
                }
            }
            assert!(tribo.len() <= live.len(), "{} states for {} balls", tribo.len(), live.len());
            assert_eq!(w.marked_joints(), tribo.joint_count(), "orphan or missing motor joints");
            assert!(w.marked_bodies() <= 1);
        }
    }
    // 40 checks × 24 balls older than 60 steps (ages 69 … 299 of the 30 alive).
    assert_eq!(checked, 40 * 24);
}

/// `set_material` with handles of no collider (invalid, never inserted) neither aborts nor
/// allocates; they are dropped at the next `before_step` and change nothing.
#[test]
fn invalid_handles_are_harmless() {
    let mut w = World::new();
    let mut tribo = TriboRapier::new();
    tribo.set_material(ColliderHandle::invalid(), rolling_material());
    tribo.set_material(ColliderHandle::from_raw_parts(u32::MAX - 1, 7), rolling_material());
    assert!(tribo.material(ColliderHandle::invalid()).is_some());
    assert!(tribo.remove_material(ColliderHandle::from_raw_parts(123_456_789, 3)).is_none());
    let floor = w.floor();
    let (_, c) = w.ball(0.1, Vector::new(0.0, 0.1, 0.0));
    tribo.set_material(floor, rolling_material());
    tribo.set_material(c, rolling_material());
    for _ in 0..10 {
        w.step(&mut tribo);
    }
    assert!(tribo.material(ColliderHandle::invalid()).is_none(), "dropped by before_step");
    assert!(tribo.contact(floor, c).is_some());
    assert!(tribo.contact(ColliderHandle::invalid(), c).is_none());
}

/// `set_shape` from a 0.1 m ball to a 1 m ball: the roll capacity `2 η_r μ N R` (ball on a
/// plane, κ = 1/R) follows the new radius.
#[test]
fn set_shape_updates_the_roll_capacity() {
    let mut w = World::new();
    let mut tribo = TriboRapier::new();
    let floor = w.floor();
    tribo.set_material(floor, rolling_material());
    let (b, c) = w.ball(0.1, Vector::new(0.0, 0.1, 0.0));
    w.bodies.get_mut(b).unwrap().set_angvel(Vector::new(0.0, 0.0, -5.0), true);
    tribo.set_material(c, rolling_material());
    let ratio = |tribo: &TriboRapier| {
        let i = tribo.contact(floor, c).unwrap();
        i.roll_capacity / (2.0 * 0.05 * 0.5 * i.normal_force)
    };
    for _ in 0..60 {
        w.step(&mut tribo);
    }
    assert!((ratio(&tribo) - 0.1).abs() < 1e-3, "R = 0.1: {}", ratio(&tribo));
    w.colliders.get_mut(c).unwrap().set_shape(SharedShape::ball(1.0));
    w.bodies.get_mut(b).unwrap().set_angvel(Vector::new(0.0, 0.0, -1.0), true);
    for _ in 0..120 {
        w.step(&mut tribo);
    }
    assert!((ratio(&tribo) - 1.0).abs() < 1e-2, "R = 1: {}", ratio(&tribo));
}

/// A contact whose dynamic side stops being dynamic (made fixed, made kinematic, or its body
/// removed with the collider kept) is released together with its motor joint.
#[test]
fn contacts_without_a_dynamic_side_release_their_joints() {
    for change in 0..3 {
        let mut w = World::new();
        let mut tribo = TriboRapier::new();
        let (floor, b, c) = w.rolling_ball_on_floor(&mut tribo);
        for _ in 0..30 {
            w.step(&mut tribo);
        }
        assert_eq!(tribo.joint_count(), 1);
        assert_eq!(w.marked_joints(), 1);
        match change {
            0 => w.bodies.get_mut(b).unwrap().set_body_type(RigidBodyType::Fixed, true),
            1 => w.bodies.get_mut(b).unwrap().set_body_type(RigidBodyType::KinematicPositionBased, true),
            _ => w.remove_body(b, false),
        }
        for _ in 0..3 {
            w.step(&mut tribo);
        }
        assert!(tribo.contact(floor, c).is_none(), "change {change}: state kept");
        assert_eq!(tribo.joint_count(), 0, "change {change}");
        assert_eq!(w.marked_joints(), 0, "change {change}: joint kept in the world");
    }
}

/// A body removed with its collider kept takes its joints with it, tribo's motors among them.
/// A contact of that collider that is unloaded in that step (its motor kept without rows) names
/// no motor rapier removed.
///
/// Scene: a box body (half extents 0.5 × 0.1 × 0.5) on the floor, a ball (r = 0.1) spinning
/// about the vertical on its top face (ω = 20 rad/s against a spinning resistance: kinetic
/// spin, so the contact has a motor). The ball is then set down at rest on the floor beside the
/// box, its centre at x = 0.61: 0.01 m from the box's side face x = 0.5, within rapier's 0.02 m
/// prediction distance, so the pair keeps a speculative contact that carries no load (N = 0, the
/// motor loses its rows but stays). Then the box body is removed with its collider kept.
#[test]
fn an_unloaded_contact_names_no_motor_removed_with_a_body() {
    let mut w = World::new();
    let mut tribo = TriboRapier::new();
    let m = FrictionMaterial::builder().friction(0.5, 0.5).spinning_resistance(0.005).build().unwrap();
    let floor = w.floor();
    tribo.set_material(floor, m);
    let bb = w.bodies.insert(RigidBodyBuilder::dynamic().translation(Vector::new(0.0, 0.1, 0.0)));
    let cb = w.colliders.insert_with_parent(
        ColliderBuilder::cuboid(0.5, 0.1, 0.5).density(1000.0),
        bb,
        &mut w.bodies,
    );
    tribo.set_material(cb, m);
    let (ba, ca) = w.ball(0.1, Vector::new(0.0, 0.3, 0.0));
    w.bodies[ba].set_angvel(Vector::new(0.0, 20.0, 0.0), true);
    tribo.set_material(ca, m);
    let info = |tribo: &TriboRapier| tribo.contact(ca, cb).or_else(|| tribo.contact(cb, ca));
    for _ in 0..30 {
        w.step(&mut tribo);
    }
    let on_top = info(&tribo).expect("ball on box");
    assert_eq!(on_top.spin, Mode::Kinetic);
    let motor = on_top.joint.expect("a spinning contact has a motor");
    w.bodies[ba].set_translation(Vector::new(0.61, 0.1, 0.0), true);
    w.bodies[ba].set_angvel(Vector::ZERO, true);
    for _ in 0..3 {
        w.step(&mut tribo);
    }
    let beside = info(&tribo).expect("the speculative contact beside the box");
    assert_eq!(beside.normal_force, 0.0);
    assert_eq!(beside.joint, Some(motor), "an unloaded contact keeps its motor");
    w.remove_body(bb, false);
    assert!(w.joints.get(motor).is_none(), "rapier removed the motor with the box body");
    for k in 0..3 {
        w.step(&mut tribo);
        assert!(info(&tribo).is_some(), "step {k}: the contact goes on (the collider is kept)");
        for i in tribo.contacts() {
            if let Some(j) = i.joint {
                assert!(
                    w.joints.get(j).is_some(),
                    "step {k}: {:?}/{:?} names removed joint {j:?}",
                    i.collider1,
                    i.collider2
                );
            }
        }
    }
}

/// `ContactInfo` is in rapier's `f32`, materials in `f64` (see `ContactInfo`'s docs): the
/// friction coefficient a sliding contact hands rapier is the material's μk rounded to the
/// nearest `f32` (0.1, not representable in either, as `0.1f64 as f32`), and the box slides
/// with it: a box launched at 3 m/s on a floor of the same material decelerates at μk g
/// = 0.981 m/s² (Coulomb), so after 0.5 s it moves at 3 − 0.4905 = 2.5095 m/s.
#[test]
fn contact_info_is_the_materials_f64_rounded_to_rapiers_f32() {
    let mut w = World::new();
    let mut tribo = TriboRapier::new();
    let m = FrictionMaterial::builder().friction(0.3, 0.1).build().unwrap();
    let floor = w.floor();
    tribo.set_material(floor, m);
    let b = w.bodies.insert(RigidBodyBuilder::dynamic().translation(Vector::new(0.0, 0.25, 0.0)));
    let c = w.colliders.insert_with_parent(ColliderBuilder::cuboid(0.25, 0.25, 0.25), b, &mut w.bodies);
    tribo.set_material(c, m);
    w.bodies[b].set_linvel(Vector::new(3.0, 0.0, 0.0), true);
    for _ in 0..30 {
        w.step(&mut tribo);
    }
    let info = tribo.contact(floor, c).expect("box on floor");
    assert_eq!(info.slide, Mode::Kinetic);
    assert_eq!(info.friction, 0.1f64 as f32);
    assert_eq!(tribo.material(c).and_then(|m| m.material()).map(|m| m.mu_k()), Some(0.1f64));
    let v = w.bodies[b].linvel().x;
    assert!((v - 2.5095).abs() < 0.01, "v = {v}, Coulomb 2.5095");
}

/// rapier caps every body's angular speed at (π/4)/dt = 47.12 rad/s at dt = 1/60. A ball of
/// R = 3 cm rolling at 2 m/s turns at v/R = 66.7 rad/s. With `Settings::allow_fast_rotation`
/// (default) tribo lifts the cap: the ball rolls on, decelerated by its rolling resistance
/// c = 1 mm alone, a = c g/(1.4 R) = 0.2336 m/s², so v(0.5 s) = 1.883 m/s (the motor acts from
/// the contact's second step: 1.885), and nothing is reported. With it off the cap holds ω at
/// 47.12 rad/s, ωR = 1.414 m/s: the contact slides, and friction (μk g = 4.9 m/s²) takes the
/// ball down to that speed within 0.12 s (and on below it, as the cap cuts the spin the friction
/// gives it in every substep), and `Diagnostic::AngularSpeedCapped` names the ball, once.
#[test]
fn the_angular_speed_cap_is_lifted_or_reported() {
    for lift in [true, false] {
        let mut w = World::new();
        let mut tribo = TriboRapier::with_settings(tribo_rapier::Settings {
            allow_fast_rotation: lift,
            ..Default::default()
        });
        let m = FrictionMaterial::builder().friction(0.5, 0.5).rolling_resistance(0.001).build().unwrap();
        let floor = w.floor();
        tribo.set_material(floor, m);
        let r = 0.03;
        let (b, c) = w.ball(r, Vector::new(0.0, r, 0.0));
        w.bodies[b].set_linvel(Vector::new(2.0, 0.0, 0.0), true);
        w.bodies[b].set_angvel(Vector::new(0.0, 0.0, -2.0 / r), true);
        tribo.set_material(c, m);
        for _ in 0..30 {
            w.step(&mut tribo);
        }
        let (v, omega) = (w.bodies[b].linvel().x, w.bodies[b].angvel().length());
        let cap = std::f32::consts::FRAC_PI_4 / common::DT;
        if lift {
            let expected = 2.0 - 0.001 * G / (1.4 * r) * 29.0 * common::DT;
            assert!((v - expected).abs() < 0.01 * expected, "v = {v}, expected {expected}");
            assert!(omega > 1.2 * cap, "ω = {omega}");
            assert!(tribo.diagnostics().is_empty(), "{:?}", tribo.diagnostics());
        } else {
            assert!(omega <= cap * 1.0001, "ω = {omega}, cap {cap}");
            assert!(v < cap * r, "v = {v}: no faster than rolling at the cap, {}", cap * r);
            assert_eq!(tribo.diagnostics(), &[Diagnostic::AngularSpeedCapped { body: b }]);
        }
    }
}

/// `after_step` without `before_step` reports [`Diagnostic::StepNotPrepared`] (once).
#[test]
fn unprepared_step_is_reported() {
    let mut w = World::new();
    let mut tribo = TriboRapier::new();
    let floor = w.floor();
    let (_, c) = w.ball(0.1, Vector::new(0.0, 0.1, 0.0));
    tribo.set_material(floor, rolling_material());
    tribo.set_material(c, rolling_material());
    for _ in 0..5 {
        w.step(&mut tribo);
    }
    assert!(tribo.diagnostics().is_empty());
    for _ in 0..3 {
        w.physics_step(&tribo);
        tribo.after_step(&w.params, &w.bodies, &w.colliders, &w.narrow, &mut w.joints);
    }
    assert_eq!(tribo.diagnostics(), &[Diagnostic::StepNotPrepared { step: 6 }]);
}

/// A ball (R = 0.05 m) rolling at 1 m/s on a floor, rolling resistance c = 4 mm, stepped
/// `steps` times at `dt` with `step_world`; the store and the ball's speed.
fn roll_at(dt: f32, steps: usize) -> (TriboRapier, f32) {
    let mut w = PhysicsWorld::new();
    w.integration_parameters.dt = dt;
    let mut tribo = TriboRapier::new();
    let m = FrictionMaterial::builder().friction(0.6, 0.5).rolling_resistance(0.004).build().unwrap();
    let floor = w.insert_collider(
        ColliderBuilder::cuboid(50.0, 0.5, 50.0).translation(Vector::new(0.0, -0.5, 0.0)),
        None,
    );
    let (b, c) = w.insert(
        RigidBodyBuilder::dynamic()
            .translation(Vector::new(0.0, 0.05, 0.0))
            .linvel(Vector::new(1.0, 0.0, 0.0))
            .angvel(Vector::new(0.0, 0.0, -20.0)),
        ColliderBuilder::ball(0.05).density(1000.0),
    );
    tribo.set_material(floor, m);
    tribo.set_material(c, m);
    for _ in 0..steps {
        tribo.step_world(&mut w, &(), &());
    }
    let v = w.bodies[b].linvel().x;
    (tribo, v)
}

/// A step shorter than `MIN_VALIDATED_DT` is reported once, with its length; steps at and
/// above it are not. At `MIN_VALIDATED_DT` itself the roll-out still matches the closed form:
/// a rolling ball with roll torque bound c·N decelerates at c g/(1.4 R) (I = 0.4 m R²), so
/// after 0.5 s v = 1 − 0.5·0.004·9.81/(1.4·0.05) = 0.71971 m/s.
#[test]
fn step_below_the_validated_range_is_reported() {
    let v_expected = 1.0 - 0.5 * 0.004 * 9.81 / (1.4 * 0.05);
    let (tribo, v) = roll_at(tribo_rapier::MIN_VALIDATED_DT, 5000);
    assert!(tribo.diagnostics().is_empty(), "{:?}", tribo.diagnostics());
    assert!((v - v_expected).abs() < 3e-3 * v_expected, "v {v} vs {v_expected}");
    let (tribo, _) = roll_at(1.0 / 60.0, 30);
    assert!(tribo.diagnostics().is_empty(), "{:?}", tribo.diagnostics());
    let dt = 2e-5;
    let (tribo, _) = roll_at(dt, 200);
    assert_eq!(tribo.diagnostics(), &[Diagnostic::StepTooShort { dt }]);
}

/// A scene with every mechanism active: rolling balls, sliding and resting boxes on a floor
/// collider without a body (motors on the anchor body), and a box on a fixed body.
fn mixed_scene(w: &mut World, tribo: &mut TriboRapier) {
    let m = FrictionMaterial::new(0.6, 0.4).unwrap().with_roll_eta(0.02).unwrap();
    let floor = w.floor();
    tribo.set_material(floor, m);
    for i in 0..6 {
        let x = i as f32 - 2.5;
        let (b, c) = w.ball(0.1 + 0.02 * i as f32, Vector::new(x, 0.3, -1.0));
        w.bodies.get_mut(b).unwrap().set_linvel(Vector::new(0.5 + 0.3 * i as f32, 0.0, 0.4), true);
        tribo.set_material(c, m);
        let bb = w.bodies.insert(
            RigidBodyBuilder::dynamic()
                .translation(Vector::new(x, 0.2, 1.0))
                .linvel(Vector::new(0.4 * i as f32, 0.0, 0.0))
                .angvel(Vector::new(0.0, 2.0, 0.0)),
        );
        let cc = w.colliders.insert_with_parent(
            ColliderBuilder::cuboid(0.2, 0.1, 0.15).density(800.0),
            bb,
            &mut w.bodies,
        );
        tribo.set_material(cc, m);
    }
}

fn run_mixed(steps: usize) -> (World, TriboRapier) {
    let mut w = World::new();
    let mut tribo = TriboRapier::new();
    mixed_scene(&mut w, &mut tribo);
    for _ in 0..steps {
        w.step(&mut tribo);
    }
    (w, tribo)
}

/// Snapshot at step 100 of 300 (world sets and store cloned together): the restored copy
/// continues bit-identically to the uninterrupted run.
#[test]
fn snapshot_continues_bit_identically() {
    let (full, full_tribo) = run_mixed(300);
    assert!(full_tribo.joint_count() > 0);
    let (w, tribo) = run_mixed(100);
    let (mut w2, mut tribo2) = (w.snapshot(), tribo.clone());
    drop((w, tribo));
    for _ in 100..300 {
        w2.step(&mut tribo2);
    }
    assert_eq!(w2.fingerprint(), full.fingerprint());
    assert_eq!(tribo2.len(), full_tribo.len());
}

/// A world restored without its store: a new store (same materials) adopts it — the motor
/// joints of the old store are removed on its first `before_step`, the anchor body is reused,
/// and no marked joint exists that the new store does not own. `remove_tribo_objects` turns the
/// world back into a plain rapier world.
#[test]
fn restored_world_has_no_orphan_joints() {
    let (w, tribo) = run_mixed(100);
    let joints_before = tribo.joint_count();
    assert!(joints_before > 0);
    assert_eq!(w.marked_joints(), joints_before);
    let mut w2 = w.snapshot();
    drop(tribo); // dropped without clear(): its joints stay in the world
    w2.adopt_with_fresh_store(FrictionMaterial::new(0.6, 0.4).unwrap().with_roll_eta(0.02).unwrap());

    // A live store whose world is replaced by an older snapshot: `forget_world`, then the store
    // adopts the restored world.
    let (mut w3, mut t3) = run_mixed(100);
    let mut w5 = w3.snapshot();
    for _ in 0..50 {
        w3.step(&mut t3);
    }
    t3.forget_world();
    for _ in 0..5 {
        w5.step(&mut t3);
    }
    assert_eq!(w5.marked_joints(), t3.joint_count());
    assert_eq!(w5.marked_bodies(), 1);

    let removed = TriboRapier::remove_tribo_objects(
        &mut w5.islands,
        &mut w5.bodies,
        &mut w5.colliders,
        &mut w5.joints,
        &mut w5.multibody,
    );
    assert_eq!(removed, (t3.joint_count(), 1));
    assert_eq!((w5.marked_joints(), w5.marked_bodies()), (0, 0));
}

/// A 500-body drop (balls and boxes into a pile), 240 steps, twice: bit-identical. Under the
/// `parallel` feature (`cargo test -p tribo_rapier --features parallel`) the narrow phase calls
/// the hook from several threads in varying order and `after_step` updates the contacts on
/// rayon's threads: the drop is also the same to the bit in pools of 1, 2 and as many threads as
/// the machine has (and with `RAYON_NUM_THREADS` set for the whole run).
#[test]
fn five_hundred_body_drop_is_deterministic() {
    drop_is_deterministic(RollSpin::Motors);
}

/// The same with roll and spin carried by torques (`RollSpin::Torques`): no motor joint, and
/// the same to the bit in every pool (the torques are planned per contact on rayon's threads
/// and applied in slot order).
#[test]
fn five_hundred_body_drop_with_torques_is_deterministic() {
    let a = drop_is_deterministic(RollSpin::Torques);
    assert_eq!(a.2, 0, "no motor joint");
}

fn drop_is_deterministic(roll_spin: RollSpin) -> (Vec<u32>, usize, usize) {
    let a = five_hundred_body_drop(roll_spin);
    assert!(a.1 > 500, "a pile: {} contacts", a.1);
    let b = five_hundred_body_drop(roll_spin);
    assert_eq!(a.1, b.1);
    assert_eq!(a.2, b.2);
    assert!(a.0 == b.0, "two runs differ");
    #[cfg(feature = "parallel")]
    {
        let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
        for threads in [1, 2, cores] {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
            let c = pool.install(|| five_hundred_body_drop(roll_spin));
            assert!((c.1, c.2) == (a.1, a.2) && c.0 == a.0, "{threads} threads differ");
        }
    }
    a
}

/// The 500-body drop: the world's fingerprint after 240 steps, the contacts and motor joints.
fn five_hundred_body_drop(roll_spin: RollSpin) -> (Vec<u32>, usize, usize) {
    let run = || {
        let mut w = World::new();
        let mut tribo = TriboRapier::with_settings(Settings { roll_spin, ..Settings::default() });
        let m = FrictionMaterial::new(0.6, 0.4).unwrap().with_roll_eta(0.02).unwrap();
        let floor = w.floor();
        tribo.set_material(floor, m);
        for i in 0..500 {
            let (x, z, y) =
                ((i % 10) as f32 * 0.25 - 1.2, ((i / 10) % 10) as f32 * 0.25 - 1.2, (i / 100) as f32);
            let at = Vector::new(x + 0.01 * (i % 7) as f32, 0.2 + 0.3 * y, z);
            let c = if i % 3 == 0 {
                let b = w.bodies.insert(RigidBodyBuilder::dynamic().translation(at));
                w.colliders.insert_with_parent(
                    ColliderBuilder::cuboid(0.1, 0.1, 0.1).density(500.0),
                    b,
                    &mut w.bodies,
                )
            } else {
                w.ball(0.1, at).1
            };
            tribo.set_material(c, m);
        }
        for _ in 0..240 {
            w.step(&mut tribo);
        }
        (w.fingerprint(), tribo.len(), tribo.joint_count())
    };
    run()
}

/// The view of a contact stays finite for extreme accepted materials.
#[test]
fn contact_info_is_finite_for_extreme_materials() {
    let mut w = World::new();
    let mut tribo = TriboRapier::new();
    let floor = w.floor();
    let (_, c) = w.ball(0.1, Vector::new(0.0, 0.1, 0.0));
    let Ok(m) = Material::new(1e30, 1e30).and_then(|m| m.with_roll_eta(1e30)) else { return };
    tribo.set_material(floor, m);
    tribo.set_material(c, m);
    for _ in 0..30 {
        w.step(&mut tribo);
    }
    for i in tribo.contacts() {
        for x in [i.normal_force, i.friction, i.roll_capacity, i.spin_capacity] {
            assert!(x.is_finite(), "{i:?}");
        }
        assert!(i.normal.is_finite() && i.point.is_finite());
    }
}

/// A user hook that records the manifold `user_data` it is given for every contact and, if
/// `mark` is set, claims an unclaimed one with that value (as a one-way platform hook does).
struct UserDataHook {
    mark: Option<u32>,
    seen: std::sync::Mutex<Vec<u32>>,
}

impl PhysicsHooks for UserDataHook {
    fn modify_solver_contacts(&self, context: &mut ContactModificationContext) {
        #[cfg(not(feature = "rapier-0-36"))]
        let ud = &mut *context.user_data;
        #[cfg(feature = "rapier-0-36")]
        let Some(ud) = context.rigid_mut().map(|m| &mut *m.user_data) else {
            return;
        };
        self.seen.lock().unwrap().push(*ud);
        if let Some(v) = self.mark.filter(|_| *ud == 0) {
            *ud = v;
        }
    }
}

/// tribo keeps a tagged slot in the manifold `user_data` of its contacts; the user's hook never
/// sees it, a value the user's hook writes is kept (whatever its bytes, but a top byte `0xA5`),
/// and tribo's friction acts either way: a ball rolling at 1 m/s with rolling resistance
/// c = 2 η_r μ R = 0.05 R decelerates at a = c g/(1.4 R) = 0.350 m/s² (from the contact's second
/// step, when its motor exists). A value with the top byte `0xA5` is reserved for tribo's tag
/// (as the README and `TriboHooks` say): the user's hook sees 0 again at its next call, and the
/// friction is the same (tribo looks the contact up when the tag names another contact's slot).
#[test]
fn the_users_hook_sees_only_its_own_manifold_user_data() {
    let kept = [None, Some(7), Some(0x00A5_0000), Some(0xA4FF_FFFF), Some(0xA600_0000), Some(u32::MAX)];
    let reserved = [Some(0xA500_0000), Some(0xA500_0003), Some(0xA5FF_FFFF)];
    for (mark, is_kept) in kept.into_iter().map(|m| (m, true)).chain(reserved.into_iter().map(|m| (m, false)))
    {
        let mut w = World::new();
        let mut tribo = TriboRapier::new();
        let floor = w.floor();
        let r = 0.1;
        let (b, c) = w.ball(r, Vector::new(0.0, r, 0.0));
        w.bodies[b].set_linvel(Vector::new(1.0, 0.0, 0.0), true);
        w.bodies[b].set_angvel(Vector::new(0.0, 0.0, -1.0 / r), true);
        tribo.set_material(floor, rolling_material());
        tribo.set_material(c, rolling_material());
        let hook = UserDataHook { mark, seen: Default::default() };
        let steps = 60;
        for _ in 0..steps {
            tribo.before_step(&w.params, &mut w.bodies, &mut w.colliders, &mut w.joints);
            w.physics_step_with(&tribo, &hook);
            tribo.after_step(&w.params, &w.bodies, &w.colliders, &w.narrow, &mut w.joints);
        }
        let seen = hook.seen.lock().unwrap();
        assert!(seen.len() >= steps - 1, "hook calls: {}", seen.len());
        let expected_after_first = if is_kept { mark.unwrap_or(0) } else { 0 };
        assert_eq!(seen[0], 0, "mark={mark:?}");
        assert!(
            seen[1..].iter().all(|&u| u == expected_after_first),
            "mark={mark:?}: the user's hook saw {:x?}",
            seen.iter().filter(|&&u| u != expected_after_first).take(5).collect::<Vec<_>>()
        );
        // The motor acts from the contact's second step.
        let t = (steps - 1) as f32 * common::DT;
        let expected = 1.0 - 0.05 * G / 1.4 * t;
        let v = w.bodies[b].linvel().x;
        assert!(
            (v - expected).abs() < 0.02 * (1.0 - expected),
            "mark={mark:?}: v = {v}, expected {expected}"
        );
    }
}

/// A ball rolling with a kinetic roll (radius 0.1 m, density 1000: m g = 41.09 N, roll torque
/// bound `2 η_r μk R m g` = 0.2055 N·m, I = 0.01676 kg·m²) is lifted off the floor between two
/// steps, by 5 cm (beyond rapier's 2 cm prediction distance: its pair stays without contact
/// points, and the rolling contact is kept) or by 1 m (the pair goes: the contact ends). Its motor, planned from the last loaded step, acts in the step in
/// flight and takes `T dt / I` = 0.204 rad/s off its spin; the next `before_step` gives that
/// back: the spin the following step starts from is the one it had before, within 1e-4 rad/s.
#[test]
fn a_motor_that_acted_without_contact_points_gives_its_turn_back() {
    for (lift, kept) in [(0.05f32, true), (1.0, false)] {
        let mut w = World::new();
        let mut tribo = TriboRapier::new();
        let (floor, b, c) = w.rolling_ball_on_floor(&mut tribo);
        {
            let rb = w.bodies.get_mut(b).unwrap();
            rb.set_linvel(Vector::new(1.0, 0.0, 0.0), true);
            rb.set_angvel(Vector::new(0.0, 0.0, -10.0), true);
        }
        for _ in 0..30 {
            w.step(&mut tribo);
        }
        let info = tribo.contact(floor, c).expect("rolling contact");
        assert_eq!(info.roll, tribo_rapier::Mode::Kinetic, "lift {lift}: {info:?}");
        let spin = w.bodies[b].angvel();
        let mut pose = *w.bodies[b].position();
        pose.translation.y += lift;
        w.bodies.get_mut(b).unwrap().set_position(pose, true);
        w.step(&mut tribo);
        assert_eq!(tribo.contact(floor, c).is_some(), kept, "lift {lift}");
        let lost = (w.bodies[b].angvel() - spin).length();
        assert!((lost - 0.204).abs() < 0.02, "lift {lift}: the motor took off {lost} rad/s in flight");
        tribo.before_step(&w.params, &mut w.bodies, &mut w.colliders, &mut w.joints);
        let left = (w.bodies[b].angvel() - spin).length();
        assert!(left < 1e-4, "lift {lift}: {left} rad/s of the motor's turn left");
    }
}
