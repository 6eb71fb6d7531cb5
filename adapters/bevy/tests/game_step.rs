//! A billiard ball in bevy at the frame rates games run, with bevy_rapier's default timestep mode
//! (`TimestepMode::Variable { max_dt: 1/60 }`) and a default `RigidBody::Dynamic` (rapier's
//! angular speed cap not lifted by the user): struck without spin, it skids, rolls and stops as
//! the closed form says, its slide `Static` while it rolls.

mod common;

use bevy::prelude::*;
use bevy_rapier3d::prelude::*;
use bevy_tribo::prelude::*;
use tribo::tracking::Mode;

/// A pool ball: radius (m), mass (kg).
const R: f32 = 0.028575;
const M: f32 = 0.17;
/// The cloth: μs, μk, rolling resistance (m).
const MU_S: f64 = 0.25;
const MU_K: f64 = 0.2;
const C: f64 = 0.0005;
const G: f64 = common::G as f64;

/// A ball struck at `v0` with spin `w0` (rad/s, forward positive) on a plane: while the contact
/// slips (s = v − ωR ≠ 0) kinetic friction μk g acts against s on the centre, and with the
/// kinetic roll torque c N against ω, `ω̇ = (sgn(s) μk g R − sgn(ω) c g)/(0.4 R²)` (I = 0.4 m R²);
/// the phases end where s or ω turns through zero. Rolling (v = ωR), the moments about the contact
/// point, `1.4 m R² ω̇ = −c N`, give the deceleration `a = 5 c g/(7 R)`. Returns (end of the skid,
/// speed then, stop time, distance).
fn shot(v0: f64, w0: f64) -> (f64, f64, f64, f64) {
    let r = R as f64;
    let (mut t, mut x, mut v, mut w) = (0.0, 0.0, v0, w0);
    for _ in 0..3 {
        let s = v - w * r;
        if s.abs() < 1e-12 {
            break;
        }
        let dv = -s.signum() * MU_K * G;
        let dw = (s.signum() * MU_K * G * r - w.signum() * C * G) / (0.4 * r * r);
        let (t_slip, t_spin) =
            (-s / (dv - dw * r), if w != 0.0 && -w / dw > 0.0 { -w / dw } else { f64::INFINITY });
        let h = t_slip.min(t_spin);
        (x, v, t) = (x + v * h + 0.5 * dv * h * h, v + dv * h, t + h);
        if t_spin < t_slip {
            // ω turned through zero; otherwise the slip ended and the ball rolls.
            w = dw.signum() * 1e-300;
        } else {
            break;
        }
    }
    let a = 5.0 * C * G / (7.0 * r);
    (t, v, t + v / a, x + v * v / (2.0 * a))
}

/// What the struck ball did: skid end (time and speed: the first frame with |v − ωR| below 1 % of
/// v and 1 mm/s), stop (time and distance: |v| and |ωR| below 1e-3), and the share of rolling
/// frames with `Static` slide.
#[derive(Debug, Default)]
struct Run {
    t_skid: f64,
    v_skid: f64,
    t_stop: f64,
    distance: f64,
    static_rolling: f64,
}

/// A pool ball at rest on a cloth for half a second, then struck at `v0` along +x with spin `w0`
/// (rad/s, topspin positive), in an app
/// with bevy_rapier's `TimestepMode::Variable { max_dt: 1/60 }` and frames of `frame` seconds.
fn strike(frame: f32, v0: f32, w0: f32) -> (Run, f32) {
    let mode = TimestepMode::Variable { max_dt: 1.0 / 60.0, time_scale: 1.0, substeps: 1 };
    let mut app = common::app_with_frames(mode, frame);
    // The step each frame takes.
    let dt = frame.min(1.0 / 60.0);
    let ground = common::ground(&mut app, None);
    let material = FrictionMaterial::builder()
        .friction(MU_S, MU_K)
        .rolling_resistance(C)
        .spin(tribo::tracking::SpinModel::Off)
        .build()
        .unwrap();
    let ball = app
        .world_mut()
        .spawn((
            Transform::from_xyz(0.0, R, 0.0),
            RigidBody::Dynamic,
            Collider::ball(R),
            ColliderMassProperties::Mass(M),
            Friction::coefficient(MU_S as f32),
            Velocity::zero(),
            Sleeping::disabled(),
            material,
        ))
        .id();
    common::run(&mut app, (0.5 / dt).round() as usize);
    let x0 = common::position(&app, ball).x as f64;
    let mut vel = app.world_mut().get_mut::<Velocity>(ball).unwrap();
    (vel.linear, vel.angular) = (Vec3::X * v0, Vec3::Z * -w0);
    let mut run = Run { t_skid: f64::NAN, t_stop: f64::NAN, ..Default::default() };
    let (mut rolling, mut static_rolling) = (0usize, 0usize);
    for k in 1..=(25.0 / dt).round() as usize {
        app.update();
        let t = k as f64 * dt as f64;
        let vel = common::velocity(&app, ball);
        let (v, w) = (vel.linear.x as f64, -vel.angular.z as f64);
        let x = common::position(&app, ball).x as f64 - x0;
        let contacts = app.world().resource::<TriboContacts>();
        let slide = contacts
            .involving(ball)
            .find(|c| c.collider1 == ground || c.collider2 == ground)
            .map(|c| c.slide);
        if run.t_skid.is_nan() {
            if k > 1 && (v - w * R as f64).abs() <= 0.01 * v.abs() + 1e-3 {
                (run.t_skid, run.v_skid) = (t, v);
            }
        } else if v.abs() < 1e-3 && (w * R as f64).abs() < 1e-3 {
            (run.t_stop, run.distance) = (t, x);
            break;
        } else {
            rolling += 1;
            static_rolling += usize::from(slide == Some(Mode::Static));
        }
        run.distance = x;
    }
    run.static_rolling = static_rolling as f64 / rolling.max(1) as f64;
    (run, dt)
}

/// Struck at 2 m/s without spin, with topspin (ω0 R = 3 m/s) and with backspin (ω0 R = −2 m/s),
/// in frames of 1/30 (bevy_rapier's max_dt of 1/60 clamps the step to 1/60), 1/60, 1/144 and
/// 1/240 s, rolling at up to 2.3 m/s (79 rad/s: above rapier's cap of 47 rad/s at 1/60, which
/// tribo lifts on its bodies): the skid ends, and the ball stops, within 1 % + one step of the
/// closed form, the distance within 1 % + one step's travel at the skid's end speed; the slide
/// is `Static` on at least 95 % of the rolling frames.
#[test]
fn a_billiard_ball_struck_with_and_without_spin_skids_rolls_and_stops_on_time() {
    for (v0, w0r) in [(2.0, 0.0), (2.0, 3.0), (2.0, -2.0)] {
        let (t1, v1, t_stop, x_stop) = shot(v0, w0r / R as f64);
        for frame in [1.0 / 30.0, 1.0 / 60.0, 1.0 / 144.0, 1.0 / 240.0] {
            let (run, dt) = strike(frame, v0 as f32, (w0r / R as f64) as f32);
            let dt = dt as f64;
            let msg = format!("v0 {v0}, ω0R {w0r}, frame {frame}: {run:?} vs t* {t1}, v* {v1}, stop {t_stop} s at {x_stop} m");
            assert!((run.t_skid - t1).abs() <= 0.01 * t1 + dt, "{msg}");
            assert!((run.v_skid - v1).abs() <= 0.01 * v1 + MU_K * G * dt, "{msg}");
            assert!((run.t_stop - t_stop).abs() <= 0.01 * t_stop + dt, "{msg}");
            assert!((run.distance - x_stop).abs() <= 0.01 * x_stop + v1 * dt, "{msg}");
            assert!(run.static_rolling >= 0.95, "{msg}");
        }
    }
}
