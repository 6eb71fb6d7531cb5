//! `RollSpin::Torques`: roll and spin resistance as forces and torques, no motor joint. A ball
//! rolling on the flat stops at the closed form, a ball at rest on a slope within its rolling
//! resistance holds, a spinning ball spins down at the closed form, and tribo takes its forces
//! and torques back, leaving the user's own.

use tribo_rapier::rapier3d::prelude::*;
use tribo_rapier::{FrictionMaterial, RollSpin, Settings, SpinModel, TriboRapier, TRIBO_JOINT_USER_DATA};

const G: f32 = 9.81;
/// Ball radius (m) and rolling resistance length (m).
const R: f32 = 0.1;
const C: f64 = 0.005;

fn material() -> FrictionMaterial {
    FrictionMaterial::new(0.6, 0.5)
        .unwrap()
        .with_rolling_resistance(C)
        .unwrap()
        .with_spin(SpinModel::Heuristic { eta_psi: 0.05, curvature: None })
        .unwrap()
}

/// A world at `dt` with gravity tilted by `slope` (rad, down along +x), a floor (top face
/// y = 0) and a ball of radius R resting on it, both with `material()`, the store in `mode`.
fn scene(dt: f32, slope: f32, mode: RollSpin) -> (PhysicsWorld, TriboRapier, RigidBodyHandle) {
    let mut tribo = TriboRapier::with_settings(Settings { roll_spin: mode, ..Settings::default() });
    let mut w = PhysicsWorld::new();
    w.integration_parameters.dt = dt;
    w.gravity = Vector::new(G * slope.sin(), -G * slope.cos(), 0.0);
    let floor = w.insert_collider(
        ColliderBuilder::cuboid(40.0, 0.5, 40.0).translation(Vector::new(0.0, -0.5, 0.0)),
        None,
    );
    tribo.set_material(floor, material());
    let (b, c) = w.insert(
        RigidBodyBuilder::dynamic().translation(Vector::new(0.0, R, 0.0)),
        ColliderBuilder::ball(R).density(1000.0),
    );
    tribo.set_material(c, material());
    (w, tribo, b)
}

fn tribo_joints(w: &PhysicsWorld) -> usize {
    w.impulse_joints.iter().filter(|(_, j)| j.data.user_data == TRIBO_JOINT_USER_DATA).count()
}

/// Settles the ball at rest (its contact established, N = m g), then rolls it at `v0` along
/// +x without slip and returns the time (s) to its stop (|v| < 1 mm/s) and whether a motor
/// joint ever existed.
fn roll_to_stop(dt: f32, mode: RollSpin, v0: f32) -> (f64, bool) {
    let (mut w, mut tribo, b) = scene(dt, 0.0, mode);
    for _ in 0..30 {
        tribo.step_world(&mut w, &(), &());
    }
    let rb = &mut w.bodies[b];
    rb.set_linvel(Vector::new(v0, 0.0, 0.0), true);
    rb.set_angvel(Vector::new(0.0, 0.0, -v0 / R), true);
    let mut joints = false;
    for k in 1..=(20.0 / dt) as usize {
        tribo.step_world(&mut w, &(), &());
        joints |= tribo_joints(&w) > 0;
        if w.bodies[b].linvel().length() < 1e-3 {
            return (k as f64 * dt as f64, joints);
        }
    }
    (f64::INFINITY, joints)
}

/// Rolling against c N about the contact: I_c ω̇ = −c m g, I_c = 7/5 m R², so the ball
/// decelerates at 5 c g / (7 R) and stops at t = 7 R v0 / (5 c g) (2 m/s: 5.709 s).
#[test]
fn rolling_ball_stops_at_the_closed_form_without_joints() {
    let v0 = 2.0;
    let closed = 7.0 * R as f64 * v0 / (5.0 * C * G as f64);
    for dt in [1.0 / 60.0f32, 1.0 / 240.0] {
        let (t, joints) = roll_to_stop(dt, RollSpin::Torques, v0 as f32);
        assert!(!joints, "dt {dt}: no motor joint with torques");
        assert!(
            (t - closed).abs() <= 0.01 * closed + dt as f64,
            "dt {dt}: stopped at {t} s, closed form {closed} s"
        );
        let (t_motors, joints) = roll_to_stop(dt, RollSpin::Motors, v0 as f32);
        assert!(joints, "the motors' run has its joint");
        assert!((t_motors - closed).abs() <= 0.01 * closed + dt as f64, "motors: {t_motors} s");
    }
}

/// tan α = 0.04 < c/R = 0.05: the rolling resistance holds the ball (at rest: sleeping on, its
/// contact's first step without torque included); within 0.1 mm over 5 s, at 1/60 and 1/240.
#[test]
fn ball_on_a_slope_within_its_resistance_holds() {
    for dt in [1.0 / 60.0f32, 1.0 / 240.0] {
        let (mut w, mut tribo, b) = scene(dt, 0.04f32.atan(), RollSpin::Torques);
        for _ in 0..(5.0 / dt) as usize {
            tribo.step_world(&mut w, &(), &());
        }
        let x = w.bodies[b].translation().x;
        assert!(x.abs() < 1e-4, "dt {dt}: moved {x} m");
        assert_eq!(tribo_joints(&w), 0);
    }
}

/// Spinning about the normal at 20 rad/s: I ω̇ = −η_ψ μk N R (heuristic spin, curvature 1/R,
/// kinetic), I = 2/5 m R², so it stops at t = 0.4 R ω0 / (η_ψ μk g) = 6.80 s.
#[test]
fn spinning_ball_spins_down_at_the_closed_form() {
    let dt = 1.0 / 60.0f32;
    let (mut w, mut tribo, b) = scene(dt, 0.0, RollSpin::Torques);
    for _ in 0..30 {
        tribo.step_world(&mut w, &(), &());
    }
    w.bodies[b].set_angvel(Vector::new(0.0, 20.0, 0.0), true);
    let closed = 0.4 * R as f64 * 20.0 / (0.05 * 0.5 * G as f64);
    let mut stop = f64::INFINITY;
    for k in 1..=(10.0 / dt) as usize {
        tribo.step_world(&mut w, &(), &());
        if w.bodies[b].angvel().y.abs() < 1e-3 {
            stop = k as f64 * dt as f64;
            break;
        }
    }
    assert!(
        (stop - closed).abs() <= 0.01 * closed + dt as f64,
        "stopped at {stop} s, closed form {closed} s"
    );
}

/// tribo's forces and torques come off at the next `before_step`: switched back to motors, the
/// ball's user force and torque are the user's own again (here a torque the user set about the
/// vertical), to the f32 rounding of adding and removing tribo's.
#[test]
fn forces_and_torques_are_taken_back() {
    let dt = 1.0 / 60.0f32;
    let (mut w, mut tribo, b) = scene(dt, 0.04f32.atan(), RollSpin::Torques);
    let user = Vector::new(0.0, 1e-4, 0.0);
    w.bodies[b].add_torque(user, false);
    for _ in 0..60 {
        tribo.step_world(&mut w, &(), &());
    }
    let rb = &w.bodies[b];
    assert!(rb.user_torque() != user, "tribo's hold torque is on the ball");
    tribo.set_settings(Settings { roll_spin: RollSpin::Motors, ..*tribo.settings() });
    tribo.step_world(&mut w, &(), &());
    let rb = &w.bodies[b];
    assert!(rb.user_force().length() < 1e-6, "user force {:?}", rb.user_force());
    assert!((rb.user_torque() - user).length() < 1e-6, "user torque {:?}", rb.user_torque());
}
