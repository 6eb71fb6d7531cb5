//! Abuse of the public API in small rapier `PhysicsWorld`s: bad inputs and ordinary engine
//! operations between steps must neither panic nor let NaN/∞ into the bodies or into any
//! reported `ContactInfo`, and where the physics is known the numbers must hold.

use tribo_rapier::rapier3d::prelude::*;
use tribo_rapier::{FrictionMaterial, RollSpin, Settings, SpinModel, TriboRapier};

const DT: f32 = 1.0 / 60.0;
const G: f32 = 9.81;

fn rolling() -> FrictionMaterial {
    FrictionMaterial::new(0.6, 0.5)
        .unwrap()
        .with_roll_eta(0.05)
        .unwrap()
        .with_spin(SpinModel::Heuristic { eta_psi: 0.05, curvature: None })
        .unwrap()
}

/// A world at dt = 1/60 with a 40 m floor collider (no body, top face y = 0) carrying `rolling()`.
fn world(tribo: &mut TriboRapier) -> (PhysicsWorld, ColliderHandle) {
    let mut w = PhysicsWorld::new();
    w.integration_parameters.dt = DT;
    let floor = w.insert_collider(
        ColliderBuilder::cuboid(20.0, 0.5, 20.0).translation(Vector::new(0.0, -0.5, 0.0)),
        None,
    );
    tribo.set_material(floor, rolling());
    (w, floor)
}

fn ball(
    w: &mut PhysicsWorld,
    tribo: &mut TriboRapier,
    r: f32,
    at: Vector,
) -> (RigidBodyHandle, ColliderHandle) {
    let (b, c) =
        w.insert(RigidBodyBuilder::dynamic().translation(at), ColliderBuilder::ball(r).density(1000.0));
    tribo.set_material(c, rolling());
    (b, c)
}

/// Every body's pose and velocity and every reported contact field is finite.
fn check_finite(w: &PhysicsWorld, tribo: &TriboRapier, what: &str) {
    for (h, b) in w.bodies.iter() {
        let p = b.position();
        assert!(
            p.translation.is_finite()
                && p.rotation.is_finite()
                && b.linvel().is_finite()
                && b.angvel().is_finite(),
            "{what}: body {h:?} not finite: {p:?} v {:?} ω {:?}",
            b.linvel(),
            b.angvel()
        );
    }
    check_reports_finite(tribo, what);
    for (_, j) in w.impulse_joints.iter() {
        for m in j.data.motors.iter() {
            assert!(m.max_force.is_finite() || m.max_force == f32::MAX, "{what}: joint motor {m:?}");
            assert!(m.target_vel.is_finite() && m.damping.is_finite(), "{what}: joint motor {m:?}");
        }
    }
}

/// Every reported contact field is finite, the normal force and friction non-negative.
fn check_reports_finite(tribo: &TriboRapier, what: &str) {
    for i in tribo.contacts() {
        assert!(
            i.normal_force.is_finite()
                && i.friction.is_finite()
                && i.roll_capacity.is_finite()
                && i.spin_capacity.is_finite()
                && i.normal.is_finite()
                && i.point.is_finite(),
            "{what}: contact not finite: {i:?}"
        );
        assert!(i.normal_force >= 0.0 && i.friction >= 0.0, "{what}: {i:?}");
    }
}

/// Every joint carrying tribo's marker is a motor the store owns: no orphan motor joint.
fn assert_no_orphan_motors(w: &PhysicsWorld, tribo: &TriboRapier, what: &str) {
    let marked = w
        .impulse_joints
        .iter()
        .filter(|(_, j)| j.data.user_data == tribo_rapier::TRIBO_JOINT_USER_DATA)
        .count();
    assert_eq!(marked, tribo.joint_count(), "{what}: orphan motor joints");
}

fn run(w: &mut PhysicsWorld, tribo: &mut TriboRapier, steps: usize, what: &str) {
    for _ in 0..steps {
        tribo.step_world(w, &(), &());
        check_finite(w, tribo, what);
    }
}

/// A ball at rest on flat ground stays at rest: drift < 1e-5 m and |v| < 1e-6 m/s after 10 s.
#[test]
fn ball_at_rest_stays() {
    let mut tribo = TriboRapier::new();
    let (mut w, floor) = world(&mut tribo);
    let (b, c) = ball(&mut w, &mut tribo, 0.1, Vector::new(0.0, 0.1, 0.0));
    run(&mut w, &mut tribo, 600, "rest");
    let body = &w.bodies[b];
    assert!(
        (body.translation().x).abs() < 1e-5 && body.translation().z.abs() < 1e-5,
        "{:?}",
        body.translation()
    );
    assert!(body.linvel().length() < 1e-6, "{:?}", body.linvel());
    let i = tribo.contact(floor, c).expect("contact");
    let mg = 1000.0 * 4.0 / 3.0 * std::f32::consts::PI * 1e-3 * G;
    assert!((i.normal_force - mg).abs() < 0.02 * mg, "{i:?}");
}

/// dt = 0, NaN, ∞, 1e6, −1/60 and 1e-30 for three steps each, then back to 1/60: no panic and
/// everything finite. Where rapier did not quarantine the ball, it still rests on the floor with
/// tribo friction (|v| < 1e-3 m/s, contact with μs = 0.6). (rapier 0.35 quarantines the ball of
/// a NaN step again at every step after the user re-enables it, stock or not, so those cases
/// only check finiteness.)
#[test]
fn degenerate_dt() {
    for bad in [0.0, f32::NAN, f32::INFINITY, 1e6, -DT, 1e-30] {
        let mut tribo = TriboRapier::new();
        let (mut w, floor) = world(&mut tribo);
        let (b, c) = ball(&mut w, &mut tribo, 0.1, Vector::new(0.0, 0.1, 0.0));
        run(&mut w, &mut tribo, 30, "before");
        w.integration_parameters.dt = bad;
        let mut quarantined = false;
        for _ in 0..3 {
            tribo.step_world(&mut w, &(), &());
            check_finite(&w, &tribo, &format!("dt = {bad}"));
            quarantined |= !w.quarantine().is_empty();
        }
        w.integration_parameters.dt = DT;
        run(&mut w, &mut tribo, 60, &format!("after dt = {bad}"));
        if !quarantined {
            let body = &w.bodies[b];
            assert!(body.linvel().length() < 1e-3, "dt = {bad}: {:?}", body.linvel());
            let i = tribo.contact(floor, c).unwrap_or_else(|| panic!("dt = {bad}: contact lost"));
            assert!((i.friction - 0.6).abs() < 1e-6, "dt = {bad}: {i:?}");
        }
    }
}

/// Gravity NaN / ∞ for one step, then back: no panic, no NaN reported by tribo.
#[test]
fn degenerate_gravity() {
    for bad in [f32::NAN, f32::INFINITY, 1e30] {
        let mut tribo = TriboRapier::new();
        let (mut w, _floor) = world(&mut tribo);
        let (_b, _c) = ball(&mut w, &mut tribo, 0.1, Vector::new(0.0, 0.1, 0.0));
        run(&mut w, &mut tribo, 30, "before");
        w.gravity = Vector::new(0.0, bad, 0.0);
        tribo.step_world(&mut w, &(), &());
        w.gravity = Vector::new(0.0, -G, 0.0);
        for _ in 0..60 {
            tribo.step_world(&mut w, &(), &());
        }
        // rapier may quarantine the body; tribo's reports must stay finite.
        check_reports_finite(&tribo, &format!("g = {bad}"));
    }
}

/// Zero-mass dynamic body (density 0), kinematic body moving across the floor, a ball on a
/// kinematic platform, a sensor with a material inside a ball, two parentless colliders
/// overlapping: all finite for 300 steps; the kinematic ball keeps its 1 m/s (x = 3 + 5 m) and
/// the ball on the platform rides it at 0.5 m/s.
#[test]
fn odd_bodies() {
    let mut tribo = TriboRapier::new();
    let (mut w, _floor) = world(&mut tribo);
    // zero mass
    let (_, c0) = w.insert(
        RigidBodyBuilder::dynamic().translation(Vector::new(-3.0, 0.1, 0.0)),
        ColliderBuilder::ball(0.1).density(0.0),
    );
    tribo.set_material(c0, rolling());
    // kinematic sliding over the floor
    let (k, ck) = w.insert(
        RigidBodyBuilder::kinematic_velocity_based()
            .translation(Vector::new(3.0, 0.1, 0.0))
            .linvel(Vector::new(1.0, 0.0, 0.0)),
        ColliderBuilder::ball(0.1),
    );
    tribo.set_material(ck, rolling());
    // a platform and a ball on it
    let (_, cp) = w.insert(
        RigidBodyBuilder::kinematic_velocity_based()
            .translation(Vector::new(0.0, 1.0, 5.0))
            .linvel(Vector::new(0.5, 0.0, 0.0)),
        ColliderBuilder::cuboid(1.0, 0.1, 1.0),
    );
    tribo.set_material(cp, rolling());
    let (bb, _) = ball(&mut w, &mut tribo, 0.1, Vector::new(0.0, 1.2, 5.0));
    // sensor overlapping a ball
    let (_, _) = ball(&mut w, &mut tribo, 0.1, Vector::new(0.0, 0.1, -5.0));
    let s = w.insert_collider(
        ColliderBuilder::ball(0.3).sensor(true).translation(Vector::new(0.0, 0.1, -5.0)),
        None,
    );
    tribo.set_material(s, rolling());
    // two parentless colliders overlapping
    let p1 = w.insert_collider(ColliderBuilder::ball(0.3).translation(Vector::new(8.0, 0.0, 0.0)), None);
    tribo.set_material(p1, rolling());
    run(&mut w, &mut tribo, 300, "odd bodies");
    assert!((w.bodies[k].translation().x - 8.0).abs() < 1e-3, "{:?}", w.bodies[k].translation());
    // The ball rides the platform: it moves with it (0.5 m/s).
    let v = w.bodies[bb].linvel();
    assert!((v.x - 0.5).abs() < 1e-3 && v.y.abs() < 1e-3, "ball on platform {v:?}");
}

/// Compound, trimesh and heightfield grounds: a ball rolling without slip at 1 m/s (η_r = 0.05,
/// μk = 0.5) stops within 3 % of v0²/(2a) = 1.427 m, a = 2 η_r μk g/1.4 = 0.350 m/s², and is
/// at rest (|v| < 1e-4 m/s) after 5 s.
#[test]
fn compound_trimesh_heightfield() {
    for kind in 0..3 {
        let mut tribo = TriboRapier::new();
        let mut w = PhysicsWorld::new();
        w.integration_parameters.dt = DT;
        let ground = match kind {
            0 => w.insert_collider(
                ColliderBuilder::compound(vec![
                    (
                        Pose::from_translation(Vector::new(0.0, -0.5, 0.0)),
                        SharedShape::cuboid(20.0, 0.5, 20.0),
                    ),
                    (
                        Pose::from_translation(Vector::new(0.0, -0.5, 45.0)),
                        SharedShape::cuboid(20.0, 0.5, 20.0),
                    ),
                ]),
                None,
            ),
            1 => {
                let v = vec![
                    Vector::new(-20.0, 0.0, -20.0),
                    Vector::new(20.0, 0.0, -20.0),
                    Vector::new(20.0, 0.0, 20.0),
                    Vector::new(-20.0, 0.0, 20.0),
                ];
                w.insert_collider(ColliderBuilder::trimesh(v, vec![[0, 2, 1], [0, 3, 2]]).unwrap(), None)
            }
            _ => {
                let heights = tribo_rapier::rapier3d::geometry::Array2::zeros(11, 11);
                w.insert_collider(ColliderBuilder::heightfield(heights, Vector::new(40.0, 1.0, 40.0)), None)
            }
        };
        tribo.set_material(ground, rolling());
        let r = 0.1;
        let (b, c) = ball(&mut w, &mut tribo, r, Vector::new(0.0, r, 0.0));
        w.bodies[b].set_linvel(Vector::new(1.0, 0.0, 0.0), true);
        w.bodies[b].set_angvel(Vector::new(0.0, 0.0, -1.0 / r), true);
        run(&mut w, &mut tribo, 300, &format!("ground {kind}"));
        assert!(tribo.contact(ground, c).is_some(), "ground {kind}: no tribo contact");
        // Rolling resistance torque 2 η_r μk R N (ball on plane, κ = 1/R): a = T/(1.4 m R) =
        // 2·0.05·0.5 g/1.4; stop distance v0²/(2a).
        let a = 2.0 * 0.05 * 0.5 * G / 1.4;
        let d = 1.0 / (2.0 * a);
        let x = w.bodies[b].translation().x;
        assert!((x - d).abs() < 0.03 * d, "ground {kind}: stopped at {x} for {d}");
        assert!(w.bodies[b].linvel().length() < 1e-4, "ground {kind}: {:?}", w.bodies[b].linvel());
    }
}

/// Extremely large and tiny materials (μ up to f64::MAX, K_E 1e-30 and 1e30, η_ψ 1e30) on balls
/// of radius 1 mm to 100 m launched at up to 1e6 m/s: finite everywhere, no ball on the floor falls
/// through it.
#[test]
fn extreme_materials_and_sizes() {
    let mats = [
        FrictionMaterial::new(1e30, 1e30).and_then(|m| m.with_roll_eta(1e30)),
        FrictionMaterial::new(1e-30, 1e-30).and_then(|m| m.with_roll_eta(1e-30)),
        FrictionMaterial::new(0.0, 0.0),
        FrictionMaterial::new(f64::MAX, f64::MAX),
        FrictionMaterial::new(0.5, 0.5).and_then(|m| m.with_stiffness(1e-30)),
        FrictionMaterial::new(0.5, 0.5).and_then(|m| m.with_stiffness(1e30)),
        FrictionMaterial::new(0.5, 0.5)
            .and_then(|m| m.with_spin(SpinModel::Heuristic { eta_psi: 1e30, curvature: Some(1e-30) })),
    ];
    for (k, m) in mats.into_iter().enumerate() {
        let Ok(m) = m else { continue };
        for (r, v) in [(0.1f32, 1.0f32), (1e-3, 1.0), (100.0, 1.0), (0.1, 1e6)] {
            let mut tribo = TriboRapier::new();
            let (mut w, floor) = world(&mut tribo);
            tribo.set_material(floor, m);
            let (b, c) = w.insert(
                RigidBodyBuilder::dynamic()
                    .translation(Vector::new(0.0, r, 0.0))
                    .linvel(Vector::new(v, 0.0, 0.0)),
                ColliderBuilder::ball(r).density(1000.0),
            );
            tribo.set_material(c, m);
            run(&mut w, &mut tribo, 120, &format!("material {k} r {r} v {v}"));
            // Off the 40 m floor (a fast ball leaves it) a ball falls; on it, it stays above it.
            let p = w.bodies[b].translation();
            assert!(p.x.abs() > 20.0 || p.y > 0.0, "material {k} r {r} v {v}: fell through at {p:?}");
        }
    }
}

/// Invalid material parameters are errors.
#[test]
fn invalid_materials_are_errors() {
    for (s, k) in
        [(f64::NAN, 0.5), (0.5, f64::NAN), (-0.1, 0.1), (0.5, 0.6), (f64::INFINITY, 0.5), (0.5, -0.0 - 1.0)]
    {
        assert!(FrictionMaterial::new(s, k).is_err(), "μs {s} μk {k}");
    }
    for e in [f64::NAN, -1.0, f64::INFINITY] {
        assert!(FrictionMaterial::new(0.5, 0.5).unwrap().with_roll_eta(e).is_err(), "η_r {e}");
        assert!(FrictionMaterial::new(0.5, 0.5).unwrap().with_stiffness(e).is_err(), "K_E {e}");
        assert!(
            FrictionMaterial::new(0.5, 0.5)
                .unwrap()
                .with_spin(SpinModel::Heuristic { eta_psi: e, curvature: None })
                .is_err(),
            "η_ψ {e}"
        );
        assert!(
            FrictionMaterial::new(0.5, 0.5)
                .unwrap()
                .with_spin(SpinModel::Heuristic { eta_psi: 0.1, curvature: Some(e) })
                .is_err(),
            "𝒦 {e}"
        );
    }
    assert!(FrictionMaterial::builder().friction(f64::NAN, 0.5).build().is_err());
    assert!(FrictionMaterial::builder().rolling_resistance(f64::NAN).build().is_err());
    assert!(FrictionMaterial::builder().spinning_resistance(-1.0).build().is_err());
    assert!(FrictionMaterial::builder().stiffness(0.0).build().is_err());
}

/// NaN / negative settings are clamped to the documented defaults and the store still works.
#[test]
fn nan_settings_are_clamped() {
    let mut tribo = TriboRapier::with_settings(Settings {
        slip_speed: f32::NAN,
        anchor_gain: f32::INFINITY,
        motor_damping: -1.0,
        unhook_settled: true,
        allow_fast_rotation: true,
        roll_spin: RollSpin::Motors,
    });
    let s = *tribo.settings();
    assert_eq!(s.slip_speed, 1e-3);
    assert_eq!(s.motor_damping, 1e6);
    let (mut w, floor) = world(&mut tribo);
    let (b, c) = ball(&mut w, &mut tribo, 0.1, Vector::new(0.0, 0.1, 0.0));
    tribo.set_settings(Settings {
        slip_speed: -1.0,
        anchor_gain: f32::NAN,
        motor_damping: f32::NAN,
        unhook_settled: false,
        allow_fast_rotation: false,
        roll_spin: RollSpin::Torques,
    });
    run(&mut w, &mut tribo, 120, "nan settings");
    assert!(tribo.contact(floor, c).is_some());
    assert!(w.bodies[b].linvel().length() < 1e-5);
}

/// Between steps: remove the ball's collider, remove the body, disable collider, disable body,
/// set_shape to a cuboid, change body type, set_parent to another body, put to sleep, clear,
/// forget_world, after_step without before_step, two before_steps. After each, the scene runs
/// on finite, and a fresh ball set down afterwards gets tribo friction (μs = 0.6) and rests.
#[test]
fn engine_operations_between_steps() {
    for op in 0..14 {
        let mut tribo = TriboRapier::new();
        let (mut w, floor) = world(&mut tribo);
        let r = 0.1;
        let (b, c) = ball(&mut w, &mut tribo, r, Vector::new(0.0, r, 0.0));
        let (b2, _c2) = ball(&mut w, &mut tribo, r, Vector::new(2.0, r, 0.0));
        w.bodies[b].set_linvel(Vector::new(1.0, 0.0, 0.0), true);
        w.bodies[b].set_angvel(Vector::new(0.0, 0.0, -1.0 / r), true);
        run(&mut w, &mut tribo, 20, "setup");
        match op {
            0 => {
                w.remove_collider(c);
            }
            1 => {
                w.remove_body(b);
            }
            2 => w.colliders[c].set_enabled(false),
            3 => w.bodies[b].set_enabled(false),
            4 => w.colliders[c].set_shape(SharedShape::cuboid(r, r, r)),
            5 => w.bodies[b].set_body_type(RigidBodyType::Fixed, true),
            6 => w.bodies[b].set_body_type(RigidBodyType::KinematicVelocityBased, true),
            7 => {
                let (colliders, bodies) = (&mut w.colliders, &mut w.bodies);
                colliders.set_parent(c, Some(b2), bodies);
            }
            8 => {
                let (colliders, bodies) = (&mut w.colliders, &mut w.bodies);
                colliders.set_parent(c, None, bodies);
            }
            9 => w.bodies[b].sleep(),
            10 => tribo.clear(&mut w.impulse_joints),
            11 => tribo.forget_world(),
            12 => {
                // after_step without before_step, and pipeline step without tribo
                w.step();
                tribo.after_step(
                    &w.integration_parameters,
                    &w.bodies,
                    &w.colliders,
                    &w.narrow_phase,
                    &mut w.impulse_joints,
                );
                tribo.after_step(
                    &w.integration_parameters,
                    &w.bodies,
                    &w.colliders,
                    &w.narrow_phase,
                    &mut w.impulse_joints,
                );
            }
            _ => {
                tribo.before_step(
                    &w.integration_parameters,
                    &mut w.bodies,
                    &mut w.colliders,
                    &mut w.impulse_joints,
                );
                tribo.before_step(
                    &w.integration_parameters,
                    &mut w.bodies,
                    &mut w.colliders,
                    &mut w.impulse_joints,
                );
            }
        }
        run(&mut w, &mut tribo, 60, &format!("op {op}"));
        // Undo what can be undone and go on.
        if let Some(col) = w.colliders.get_mut(c) {
            col.set_enabled(true);
        }
        if let Some(body) = w.bodies.get_mut(b) {
            body.set_enabled(true);
            body.set_body_type(RigidBodyType::Dynamic, true);
        }
        run(&mut w, &mut tribo, 60, &format!("op {op} undone"));
        // A fresh ball gets tribo friction and rests.
        let (b3, c3) = ball(&mut w, &mut tribo, r, Vector::new(-4.0, r, 4.0));
        run(&mut w, &mut tribo, 120, &format!("op {op} fresh"));
        let i =
            tribo.contact(floor, c3).unwrap_or_else(|| panic!("op {op}: fresh ball has no tribo contact"));
        assert!((i.friction - 0.6).abs() < 1e-6, "op {op}: {i:?}");
        assert!(w.bodies[b3].linvel().length() < 1e-5, "op {op}: {:?}", w.bodies[b3].linvel());
        // No orphan: every marked joint is one tribo owns.
        assert_no_orphan_motors(&w, &tribo, &format!("op {op}"));
    }
}

/// Re-setting the material of a resting ball (same or other) keeps tribo friction: the contact
/// reports the new μs.
#[test]
fn material_reset_keeps_tribo_friction() {
    let mut tribo = TriboRapier::new();
    let (mut w, floor) = world(&mut tribo);
    let (b, c) = ball(&mut w, &mut tribo, 0.1, Vector::new(0.0, 0.1, 0.0));
    run(&mut w, &mut tribo, 120, "rest");
    tribo.set_material(c, rolling());
    run(&mut w, &mut tribo, 10, "same");
    assert!((tribo.contact(floor, c).unwrap().friction - 0.6).abs() < 1e-6);
    let m2 = FrictionMaterial::new(0.9, 0.8).unwrap();
    tribo.set_material(c, m2);
    tribo.set_material(floor, m2);
    // The resting ball sleeps; a material change does not wake it (nor does rapier's
    // `set_friction`), and a sleeping contact keeps its last plan.
    w.wake_up(b, true);
    run(&mut w, &mut tribo, 10, "other");
    assert!((tribo.contact(floor, c).unwrap().friction - 0.9).abs() < 1e-6, "{:?}", tribo.contact(floor, c));
    tribo.remove_material(c);
    tribo.remove_material(floor);
    run(&mut w, &mut tribo, 10, "removed");
    assert!(tribo.contact(floor, c).is_none());
    tribo.set_material(c, rolling());
    tribo.set_material(floor, rolling());
    w.wake_up(b, true);
    run(&mut w, &mut tribo, 10, "back");
    assert!((tribo.contact(floor, c).unwrap().friction - 0.6).abs() < 1e-6);
}

/// Despawn/spawn churn each step with random-ish removals of colliders and bodies.
#[test]
fn churn_every_step() {
    let mut tribo = TriboRapier::new();
    let (mut w, _floor) = world(&mut tribo);
    let mut live: Vec<(RigidBodyHandle, ColliderHandle)> = Vec::new();
    let mut seed = 12345u32;
    let mut rnd = || {
        seed ^= seed << 13;
        seed ^= seed >> 17;
        seed ^= seed << 5;
        seed
    };
    for step in 0..2000 {
        let x = (rnd() % 100) as f32 * 0.05 - 2.5;
        let z = (rnd() % 100) as f32 * 0.05 - 2.5;
        live.push(ball(&mut w, &mut tribo, 0.1, Vector::new(x, 0.1 + (step % 3) as f32 * 0.2, z)));
        if live.len() > 40 {
            let i = rnd() as usize % live.len();
            let (b, c) = live.swap_remove(i);
            match rnd() % 3 {
                0 => {
                    w.remove_body(b);
                }
                1 => {
                    w.remove_collider(c);
                    w.remove_body(b);
                }
                _ => {
                    w.remove_collider(c);
                    let c = w.insert_collider(ColliderBuilder::cuboid(0.1, 0.1, 0.1), Some(b));
                    tribo.set_material(c, rolling());
                    live.push((b, c));
                }
            }
        }
        tribo.step_world(&mut w, &(), &());
        check_finite(&w, &tribo, "churn");
    }
    assert_no_orphan_motors(&w, &tribo, "end");
}

/// A body whose pose/velocity the user sets to NaN: tribo must not panic, and its reports stay
/// finite.
#[test]
fn user_sets_nan_velocity() {
    let mut tribo = TriboRapier::new();
    let (mut w, _floor) = world(&mut tribo);
    let (b, _c) = ball(&mut w, &mut tribo, 0.1, Vector::new(0.0, 0.1, 0.0));
    let (_b2, _) = ball(&mut w, &mut tribo, 0.1, Vector::new(1.0, 0.1, 0.0));
    run(&mut w, &mut tribo, 30, "before");
    w.bodies[b].set_linvel(Vector::new(f32::NAN, 0.0, 0.0), true);
    w.bodies[b].set_angvel(Vector::new(0.0, f32::INFINITY, 0.0), true);
    for _ in 0..30 {
        tribo.step_world(&mut w, &(), &());
        check_reports_finite(&tribo, "NaN velocity set by the user");
    }
}

/// A step at dt ≤ 0 leaves a ball resting on the floor at rest, as stock rapier does (it does
/// not integrate the bodies): tribo's motor joints sit the step out (solved at dt = −1/60 a
/// motor threw the ball to |v| = 0.46 m/s, ω = 39 rad/s), and the contact keeps its normal
/// force m g = 41.1 N (it reported 0, and the next step's motor bounds were planned from 0:
/// no roll resistance, under rapier 0.36 while the ball then slept). After dt = 0 the motors are planned
/// again at the next valid step and hold the ball (|v|, |ω| < 1e-6 for 60 steps, same roll
/// capacity as before). (After a negative dt rapier 0.35 integrates no body any more, stock or
/// not, so only the step itself is checked.)
#[test]
fn a_step_at_non_positive_dt_moves_nothing() {
    for bad in [-DT, -1e6, 0.0] {
        let mut tribo = TriboRapier::new();
        let (mut w, floor) = world(&mut tribo);
        let (b, c) = ball(&mut w, &mut tribo, 0.1, Vector::new(0.0, 0.1, 0.0));
        run(&mut w, &mut tribo, 30, "before");
        let cap = tribo.contact(floor, c).expect("contact").roll_capacity;
        w.integration_parameters.dt = bad;
        tribo.step_world(&mut w, &(), &());
        let still = |w: &PhysicsWorld, what: &str| {
            let rb = &w.bodies[b];
            assert!(
                rb.linvel().length() < 1e-6 && rb.angvel().length() < 1e-6,
                "dt = {bad}, {what}: v {:?} ω {:?}",
                rb.linvel(),
                rb.angvel()
            );
        };
        still(&w, "the step");
        // The step measured no force: the contact keeps reporting m g.
        let mg = 1000.0 * 4.0 / 3.0 * std::f32::consts::PI * 1e-3 * G;
        let n = tribo.contact(floor, c).expect("contact").normal_force;
        assert!((n - mg).abs() < 0.02 * mg, "dt = {bad}: N = {n} for m g = {mg}");
        if bad < 0.0 {
            continue;
        }
        w.integration_parameters.dt = DT;
        for k in 0..60 {
            tribo.step_world(&mut w, &(), &());
            still(&w, &format!("step {k} after"));
        }
        let i = tribo.contact(floor, c).expect("contact");
        assert!(
            i.joint.is_some() && (i.roll_capacity - cap).abs() <= 1e-6 * cap,
            "dt = {bad}: {i:?} vs {cap}"
        );
    }
}

/// A step with a NaN or infinite time step or NaN gravity makes rapier quarantine the bodies,
/// and its solver leaves NaN in the motor impulses (the warm starts) of the joints it solved:
/// tribo's motor joints are clean again after `after_step` (all motor impulses finite).
#[test]
fn motor_joints_are_clean_after_a_non_finite_step() {
    for (dt, g, rolling) in
        [(f32::NAN, -G, false), (f32::NAN, -G, true), (f32::INFINITY, -G, true), (DT, f32::NAN, true)]
    {
        let mut tribo = TriboRapier::new();
        let (mut w, _floor) = world(&mut tribo);
        // A ball at rest or rolling: its contact has a motor joint with roll and spin rows.
        let r = 0.1;
        let (b, _c) = ball(&mut w, &mut tribo, r, Vector::new(0.0, r, 0.0));
        if rolling {
            w.bodies[b].set_linvel(Vector::new(1.0, 0.0, 0.0), true);
            w.bodies[b].set_angvel(Vector::new(0.0, 1.0, -1.0 / r), true);
        }
        run(&mut w, &mut tribo, 30, "before");
        assert!(tribo.joint_count() > 0);
        w.integration_parameters.dt = dt;
        w.gravity = Vector::new(0.0, g, 0.0);
        tribo.step_world(&mut w, &(), &());
        for (_, j) in w.impulse_joints.iter() {
            for m in &j.data.motors {
                assert!(
                    m.impulse.is_finite(),
                    "dt {dt} g {g} rolling {rolling}: motor impulse {}",
                    m.impulse
                );
            }
        }
    }
}

/// A dynamic body of zero mass touching a tribo collider is reported once
/// (`Diagnostic::ZeroMassBody`) and its contact falls back to stock friction; after_step without
/// before_step is reported once (`Diagnostic::StepNotPrepared`).
#[test]
fn diagnostics_of_misuse() {
    let mut tribo = TriboRapier::new();
    let (mut w, floor) = world(&mut tribo);
    let (zb, zc) = w.insert(
        RigidBodyBuilder::dynamic().translation(Vector::new(0.0, 0.1, 0.0)),
        ColliderBuilder::ball(0.1).density(0.0),
    );
    tribo.set_material(zc, rolling());
    run(&mut w, &mut tribo, 30, "zero mass");
    let d = tribo.diagnostics().to_vec();
    assert_eq!(d, vec![tribo_rapier::Diagnostic::ZeroMassBody { body: zb }], "{d:?}");
    if let Some(i) = tribo.contact(floor, zc) {
        assert!(i.stock_fallback, "{i:?}");
    }
    for _ in 0..2 {
        w.step_with_events(&tribo.hooks(&()), &());
        tribo.after_step(
            &w.integration_parameters,
            &w.bodies,
            &w.colliders,
            &w.narrow_phase,
            &mut w.impulse_joints,
        );
    }
    let d = tribo.take_diagnostics();
    assert_eq!(d.len(), 2, "{d:?}");
    assert!(matches!(d[1], tribo_rapier::Diagnostic::StepNotPrepared { .. }), "{d:?}");
    check_finite(&w, &tribo, "unprepared");
}

/// `remove_tribo_objects` between steps (with the store told to `forget_world`): the world has
/// no marked joint or anchor body left, and the store takes the resting ball back (its contact
/// with μs = 0.6 and a motor joint, the ball at rest, |v| < 1e-5 m/s).
#[test]
fn remove_tribo_objects_then_continue() {
    let mut tribo = TriboRapier::new();
    let (mut w, floor) = world(&mut tribo);
    let (b, c) = ball(&mut w, &mut tribo, 0.1, Vector::new(0.0, 0.1, 0.0));
    run(&mut w, &mut tribo, 30, "before");
    assert!(tribo.joint_count() == 1 && tribo.anchor_body().is_some());
    let removed = TriboRapier::remove_tribo_objects(
        &mut w.islands,
        &mut w.bodies,
        &mut w.colliders,
        &mut w.impulse_joints,
        &mut w.multibody_joints,
    );
    assert_eq!(removed, (1, 1));
    tribo.forget_world();
    w.wake_up(b, true);
    run(&mut w, &mut tribo, 60, "after");
    let i = tribo.contact(floor, c).expect("contact back");
    assert!((i.friction - 0.6).abs() < 1e-6 && i.joint.is_some(), "{i:?}");
    assert!(w.bodies[b].linvel().length() < 1e-5);
    assert_no_orphan_motors(&w, &tribo, "end");
}

/// The user's own joints in the world (an impulse revolute joint and a multibody joint between
/// two balls resting on the floor), a collider whose combine rule changes mid-contact, a body
/// with locked rotations rolling (it slides instead) and a pair-table override: no panic, all
/// finite, and the locked-rotation box slides to rest in v0²/(2 μk g) = 0.102 m (±3 %).
#[test]
fn user_joints_combine_rules_locked_rotations() {
    let mut tribo = TriboRapier::new();
    let (mut w, floor) = world(&mut tribo);
    let (b1, _) = ball(&mut w, &mut tribo, 0.1, Vector::new(-2.0, 0.1, 0.0));
    let (b2, c2) = ball(&mut w, &mut tribo, 0.1, Vector::new(-2.5, 0.1, 0.0));
    let (b3, _) = ball(&mut w, &mut tribo, 0.1, Vector::new(-3.0, 0.1, 0.0));
    w.insert_impulse_joint(
        b1,
        b2,
        RevoluteJointBuilder::new(Vector::Z)
            .local_anchor1(Vector::new(-0.25, 0.0, 0.0))
            .local_anchor2(Vector::new(0.25, 0.0, 0.0)),
    );
    w.insert_multibody_joint(
        b2,
        b3,
        RevoluteJointBuilder::new(Vector::Z)
            .local_anchor1(Vector::new(-0.25, 0.0, 0.0))
            .local_anchor2(Vector::new(0.25, 0.0, 0.0)),
    );
    // A box with locked rotations sliding at 1 m/s: only slide friction μk = 0.5 acts.
    let (bl, cl) = w.insert(
        RigidBodyBuilder::dynamic()
            .translation(Vector::new(2.0, 0.1, 0.0))
            .lock_rotations()
            .linvel(Vector::new(1.0, 0.0, 0.0)),
        ColliderBuilder::cuboid(0.1, 0.1, 0.1).density(1000.0),
    );
    tribo.set_material(cl, FrictionMaterial::new(0.6, 0.5).unwrap());
    tribo.set_material(floor, FrictionMaterial::new(0.6, 0.5).unwrap());
    for k in 0..180 {
        if k == 30 {
            w.colliders[c2].set_friction_combine_rule(CoefficientCombineRule::Max);
        }
        if k == 60 {
            w.colliders[c2].set_friction_combine_rule(CoefficientCombineRule::Min);
        }
        tribo.step_world(&mut w, &(), &());
        check_finite(&w, &tribo, &format!("step {k}"));
    }
    let x = w.bodies[bl].translation().x - 2.0;
    let d = 1.0 / (2.0 * 0.5 * G);
    assert!((x - d).abs() < 0.03 * d, "slid {x} for {d}");
    assert!(w.bodies[bl].linvel().length() < 1e-4);
    assert!(tribo.contact(floor, c2).is_some());
}

/// Contensou (finite-patch) contacts with extreme and degenerate patches: a puck (flat cylinder)
/// spinning at 20 rad/s and sliding at 1 m/s with patch radius 1e-9 m, 1e3 m and the Hertz
/// radius: finite everywhere; the puck stops sliding (|v| < 1e-3 m/s after 4 s) and, but for
/// the 1 km patch, spinning too (|ω| < 1e-2 rad/s).
///
/// Under rapier 0.36 the two patches of no size (1 nm, and the Hertz patch of a flat face,
/// radius 0) leave the spinning puck on the one collapsed contact point without tipping support,
/// and it rocks: in its fourth second the slide kicks to up to 0.098 m/s in 14 and 15 of 60
/// steps (0 under rapier 0.35, 0 for the 1 km patch and for patches of 1 and 5 cm under
/// either). For those two, under 0.36, the test asks only that the puck stays finite, near
/// where sliding friction stops it (within 5 cm of `v0²/(2 μk g)` = 0.10 m) and slower than
/// 0.2 m/s.
#[test]
fn contensou_extremes() {
    use tribo_rapier::contensou::{Contensou, PatchRadius, Pressure};
    for radius in [
        PatchRadius::Given(1e-9),
        PatchRadius::Given(1e3),
        PatchRadius::Hertz { effective_modulus: Some(1e9) },
    ] {
        let Ok(cz) = Contensou::new(radius, Pressure::Uniform) else { continue };
        let m = FrictionMaterial::builder().friction(0.6, 0.5).contensou(cz).build().unwrap();
        let mut tribo = TriboRapier::new();
        let (mut w, floor) = world(&mut tribo);
        let (b, c) = w.insert(
            RigidBodyBuilder::dynamic()
                .translation(Vector::new(0.0, 0.02, 0.0))
                .linvel(Vector::new(1.0, 0.0, 0.0))
                .angvel(Vector::new(0.0, 20.0, 0.0)),
            ColliderBuilder::cylinder(0.02, 0.1).density(1000.0),
        );
        tribo.set_material(c, m);
        tribo.set_material(floor, m);
        run(&mut w, &mut tribo, 240, &format!("{radius:?}"));
        // The patch is finite; the slip–spin ratio is ≥ 0, ∞ for pure sliding or NaN at stick
        // (its documented sentinels).
        if let Some(info) = tribo.contensou_info(floor, c) {
            assert!(info.patch_radius.is_finite() && info.patch_radius >= 0.0, "{radius:?}: {info:?}");
            assert!(info.centre.is_none_or(|p| p.is_finite()), "{radius:?}: {info:?}");
            assert!(info.slip_spin_ratio.is_nan() || info.slip_spin_ratio >= 0.0, "{radius:?}: {info:?}");
        }
        let rb = &w.bodies[b];
        // A 1 nm patch has no spin friction to speak of (torque ~ μ N a), nor has the Hertz
        // patch of a flat face (radius 0): only the slide stops.
        let spin_stops = matches!(radius, PatchRadius::Given(a) if a > 1.0);
        let no_size = !matches!(radius, PatchRadius::Given(a) if a > 1e-3);
        if cfg!(feature = "rapier-0-36") && no_size {
            // (See the doc comment: the puck rocks on its one point.)
            let x = rb.translation();
            let stop = 1.0 / (2.0 * 0.5 * G);
            assert!(
                rb.linvel().length() < 0.2 && (x.x - stop).abs() < 0.05 && x.z.abs() < 0.05,
                "{radius:?}: at {x:?}, v {:?}",
                rb.linvel()
            );
            continue;
        }
        assert!(
            rb.linvel().length() < 1e-3 && (!spin_stops || rb.angvel().length() < 1e-2),
            "{radius:?}: v {:?} ω {:?}",
            rb.linvel(),
            rb.angvel()
        );
    }
}

/// `set_shape` on a resting ball's collider to every kind of shape (cuboid, capsule, cylinder,
/// cone, convex hull, round cuboid, compound, a 1 µm ball, a 100 m ball, a trimesh), then 120
/// steps: all finite, and the body keeps a tribo contact with the floor (μs = 0.6) whenever
/// rapier reports one. Also a ball spawned half sunk into the floor and a body removed with its
/// collider kept (the collider becomes parentless).
#[test]
fn shape_changes_and_odd_placements() {
    let r = 0.1;
    let pts: Vec<Vector> = (0..20)
        .map(|i| {
            let a = i as f32 * 0.7;
            Vector::new(r * a.cos(), r * ((i % 5) as f32 / 2.0 - 1.0), r * a.sin())
        })
        .collect();
    let tri = SharedShape::trimesh(
        vec![
            Vector::new(-r, -r, -r),
            Vector::new(r, -r, -r),
            Vector::new(0.0, -r, r),
            Vector::new(0.0, r, 0.0),
        ],
        vec![[0, 1, 2], [0, 3, 1], [1, 3, 2], [2, 3, 0]],
    )
    .unwrap();
    let shapes = vec![
        SharedShape::cuboid(r, r, r),
        SharedShape::capsule_y(r, r),
        SharedShape::cylinder(r, r),
        SharedShape::cone(r, r),
        SharedShape::convex_hull(&pts).unwrap(),
        SharedShape::round_cuboid(r, r, r, 0.02),
        SharedShape::compound(vec![
            (Pose::from_translation(Vector::new(-r, 0.0, 0.0)), SharedShape::ball(r)),
            (Pose::from_translation(Vector::new(r, 0.0, 0.0)), SharedShape::cuboid(r, r, r)),
        ]),
        SharedShape::ball(1e-6),
        SharedShape::ball(100.0),
        tri,
    ];
    for (k, shape) in shapes.into_iter().enumerate() {
        let mut tribo = TriboRapier::new();
        let (mut w, floor) = world(&mut tribo);
        let (b, c) = ball(&mut w, &mut tribo, r, Vector::new(0.0, r, 0.0));
        run(&mut w, &mut tribo, 30, "before");
        w.colliders[c].set_shape(shape);
        w.wake_up(b, true);
        run(&mut w, &mut tribo, 120, &format!("shape {k}"));
        let touching = w.narrow_phase.contact_pair(floor, c).is_some_and(|p| p.has_any_active_contact());
        if touching && w.bodies[b].is_dynamic() {
            let i = tribo.contact(floor, c).unwrap_or_else(|| panic!("shape {k}: no tribo contact"));
            assert!((i.friction - 0.6).abs() < 1e-6, "shape {k}: {i:?}");
        }
    }
    // Half sunk into the floor: pushed out, finite, resting on the floor afterwards.
    let mut tribo = TriboRapier::new();
    let (mut w, floor) = world(&mut tribo);
    let (b, c) = ball(&mut w, &mut tribo, r, Vector::new(0.0, 0.0, 0.0));
    run(&mut w, &mut tribo, 240, "sunk");
    let y = w.bodies[b].translation().y;
    assert!((y - r).abs() < 2e-3, "sunk ball at y = {y}");
    assert!(tribo.contact(floor, c).is_some());
    // Body removed, collider kept: it becomes a parentless collider, its contact goes.
    let (b2, c2) = ball(&mut w, &mut tribo, r, Vector::new(1.0, r, 0.0));
    run(&mut w, &mut tribo, 30, "second");
    #[cfg(not(feature = "rapier-0-36"))]
    w.bodies.remove(
        b2,
        &mut w.islands,
        &mut w.colliders,
        &mut w.impulse_joints,
        &mut w.multibody_joints,
        false,
    );
    #[cfg(feature = "rapier-0-36")]
    w.bodies.remove(
        b2,
        &mut w.islands,
        &mut w.colliders,
        &mut w.impulse_joints,
        &mut w.multibody_joints,
        &mut w.soft_bodies,
        false,
    );
    run(&mut w, &mut tribo, 30, "detached");
    assert!(tribo.contact(floor, c2).is_none());
    assert_no_orphan_motors(&w, &tribo, "end");
}

/// A level reload done the blunt way between steps: every body removed (tribo's hidden anchor
/// body included), the joint set replaced by an empty one, then a new floor and ball spawned
/// (rapier reuses the slots). The new ball gets tribo friction (μs = 0.6, a motor joint), rests
/// (|v| < 1e-5 m/s), and every marked joint is one tribo owns.
#[test]
fn blunt_level_reload() {
    for replace_joints in [false, true] {
        let mut tribo = TriboRapier::new();
        let (mut w, floor) = world(&mut tribo);
        let (_b, _c) = ball(&mut w, &mut tribo, 0.1, Vector::new(0.0, 0.1, 0.0));
        let (_b2, _c2) = ball(&mut w, &mut tribo, 0.1, Vector::new(1.0, 0.1, 0.0));
        run(&mut w, &mut tribo, 30, "level 1");
        assert!(tribo.anchor_body().is_some());
        let all: Vec<RigidBodyHandle> = w.bodies.iter().map(|(h, _)| h).collect();
        for h in all {
            w.remove_body(h);
        }
        w.remove_collider(floor);
        if replace_joints {
            w.impulse_joints = ImpulseJointSet::new();
        }
        let floor2 = w.insert_collider(
            ColliderBuilder::cuboid(20.0, 0.5, 20.0).translation(Vector::new(0.0, -0.5, 0.0)),
            None,
        );
        tribo.set_material(floor2, rolling());
        let (b3, c3) = ball(&mut w, &mut tribo, 0.1, Vector::new(3.0, 0.1, 0.0));
        run(&mut w, &mut tribo, 120, "level 2");
        let i = tribo
            .contact(floor2, c3)
            .unwrap_or_else(|| panic!("replace_joints {replace_joints}: no tribo contact"));
        assert!((i.friction - 0.6).abs() < 1e-6 && i.joint.is_some(), "{i:?}");
        assert!(w.bodies[b3].linvel().length() < 1e-5, "{:?}", w.bodies[b3].linvel());
        assert_no_orphan_motors(&w, &tribo, &format!("replace_joints {replace_joints}"));
        assert!(tribo.anchor_body().is_none_or(|a| w.bodies.get(a).is_some()), "stale anchor");
    }
}

/// The joint set replaced by a new one holding a user joint, while tribo's contacts go on: the
/// user's joint gets the handle tribo's motor had. tribo must not take it for its motor (nor
/// remove or rewrite it): it stays, with its bodies and its user data, and the ball's contact
/// gets a new motor joint.
#[test]
fn replaced_joint_set_keeps_the_users_joint() {
    let mut tribo = TriboRapier::new();
    let (mut w, floor) = world(&mut tribo);
    let (b, c) = ball(&mut w, &mut tribo, 0.1, Vector::new(0.0, 0.1, 0.0));
    let u1 = w.insert_body(RigidBodyBuilder::dynamic().translation(Vector::new(5.0, 3.0, 0.0)));
    let u2 = w.insert_body(RigidBodyBuilder::fixed().translation(Vector::new(5.0, 4.0, 0.0)));
    w.insert_collider(ColliderBuilder::ball(0.1), Some(u1));
    run(&mut w, &mut tribo, 30, "before");
    let old = tribo.contact(floor, c).and_then(|i| i.joint).expect("motor");
    w.impulse_joints = ImpulseJointSet::new();
    let mut j = GenericJoint::from(SphericalJointBuilder::new().local_anchor2(Vector::new(0.0, -1.0, 0.0)));
    j.user_data = 42;
    let uj = w.insert_impulse_joint(u1, u2, j);
    assert_eq!(uj, old, "the user's joint takes the motor's handle");
    // Roll the ball (a resting ball sleeps and its contact waits).
    w.bodies[b].set_linvel(Vector::new(0.5, 0.0, 0.0), true);
    w.bodies[b].set_angvel(Vector::new(0.0, 0.0, -5.0), true);
    run(&mut w, &mut tribo, 30, "after");
    let jj = w.impulse_joints.get(uj).expect("the user's joint was removed");
    assert_eq!((jj.body1(), jj.body2(), jj.data.user_data), (u1, u2, 42));
    assert!(jj.data.motor_axes.is_empty(), "tribo wrote motor rows into the user's joint");
    let i = tribo.contact(floor, c).expect("contact");
    assert!(i.joint.is_some_and(|h| h != uj), "{i:?}");
    // The pendulum hangs 1 m below its pivot.
    let y = w.bodies[u1].translation().y;
    assert!((y - 3.0).abs() < 1e-2, "y = {y}");
}

/// Kinematic supports doing violent things: a position-based platform teleported 1 km sideways
/// from under a resting ball, and a turntable spinning at 100 rad/s with a ball on its rim (it
/// is flung off). All finite; the platform's ball is left behind (within 2 m), falls to the
/// floor and rolls to rest there (|v| < 1e-4 m/s after 10 s) with tribo friction.
#[test]
fn violent_kinematic_supports() {
    let mut tribo = TriboRapier::new();
    let (mut w, floor) = world(&mut tribo);
    let (p, cp) = w.insert(
        RigidBodyBuilder::kinematic_position_based().translation(Vector::new(0.0, 1.0, 0.0)),
        ColliderBuilder::cuboid(1.0, 0.1, 1.0),
    );
    tribo.set_material(cp, rolling());
    let (b, c) = ball(&mut w, &mut tribo, 0.1, Vector::new(0.0, 1.2, 0.0));
    let (_t, ct) = w.insert(
        RigidBodyBuilder::kinematic_velocity_based()
            .translation(Vector::new(5.0, 0.1, 0.0))
            .angvel(Vector::new(0.0, 100.0, 0.0)),
        ColliderBuilder::cylinder(0.1, 1.0),
    );
    tribo.set_material(ct, rolling());
    let (_bt, _) = ball(&mut w, &mut tribo, 0.1, Vector::new(5.9, 0.3, 0.0));
    run(&mut w, &mut tribo, 30, "before");
    w.bodies[p].set_next_kinematic_translation(Vector::new(1000.0, 1.0, 0.0));
    run(&mut w, &mut tribo, 1, "teleported");
    // The platform is gone from under the ball (its friction acted for one step at 60 km/s:
    // μk g dt = 0.08 m/s at most): the ball falls to the floor and comes to rest there.
    run(&mut w, &mut tribo, 600, "after");
    let p = w.bodies[b].translation();
    assert!((p.y - 0.1).abs() < 2e-3 && p.x.abs() < 2.0, "ball at {p:?}");
    assert!(w.bodies[b].linvel().length() < 1e-4, "{:?}", w.bodies[b].linvel());
    assert!(tribo.contact(floor, c).is_some());
}
