//! Engine-scene fidelity in bevy, at dt = 1/30, 1/60 and 1/240 (frames of dt, one rapier step
//! each): a ball rolling without slip is reported with static sliding, and a ball set down at
//! rest on a slope within its static rolling capacity stays where it was put, and a rolling ball
//! stops on time.
//! Roll torque bound c·N (docs/tracking.md §3.3 in length form): a ball holds on a slope while
//! tan α ≤ c_s/R and rolls on it below c_k/R.

use bevy::prelude::*;
use bevy_rapier3d::prelude::*;
use bevy_tribo::prelude::*;
use bevy_tribo::Mode;

mod common;

const DTS: [f32; 3] = [1.0 / 30.0, 1.0 / 60.0, 1.0 / 240.0];
use common::G;

/// A headless app with tribo, one rapier step of `dt` per frame of `dt`, gravity `gravity`,
/// and a ground whose top face is y = 0.
fn app(dt: f32, gravity: Vec3) -> App {
    let mut app = common::app_with_frames(TimestepMode::Fixed { dt, substeps: 1 }, dt);
    common::set_gravity(&mut app, gravity);
    common::ground(&mut app, None);
    app
}

/// A ball of radius `r`, density 1000, at rest or rolling along +x at `v0` without slip.
fn ball(app: &mut App, r: f32, v0: f32, material: FrictionMaterial) -> Entity {
    app.world_mut()
        .spawn((
            Transform::from_xyz(0.0, r, 0.0),
            RigidBody::Dynamic,
            Collider::ball(r),
            ColliderMassProperties::Density(1000.0),
            Velocity { linear: Vec3::X * v0, angular: Vec3::Z * (-v0 / r) },
            material,
        ))
        .id()
}

#[test]
fn a_rolling_ball_is_static_sliding() {
    let material = FrictionMaterial::builder().friction(0.6, 0.5).rolling_resistance(0.01).build().unwrap();
    for dt in DTS {
        let mut app = app(dt, Vec3::new(0.0, -G, 0.0));
        let b = ball(&mut app, 0.2, 2.0, material);
        // c = 0.01 m: a = c g/(1.4 R) = 0.35 m/s², rolling for 5.7 s; check the first 2 s.
        for k in 0..(2.0 / dt) as usize {
            app.update();
            let contacts = app.world().resource::<TriboContacts>();
            let Some(c) = contacts.involving(b).next() else { continue };
            if k > 1 {
                assert_eq!(c.slide, Mode::Static, "dt {dt} frame {k}");
                assert_eq!(c.roll, Mode::Kinetic, "dt {dt} frame {k}");
            }
        }
        let v = app.world().get::<Velocity>(b).unwrap().linear.x;
        let expected = 2.0 - 0.01 * G / (1.4 * 0.2) * 2.0;
        assert!((v - expected).abs() < 0.02 * 2.0, "dt {dt}: v(2 s) = {v}, expected {expected}");
    }
}

#[test]
fn a_ball_set_down_within_its_static_rolling_capacity_stays_put() {
    // R = 0.1 m, c_s = 10.8 mm, c_k = 7.2 mm: holds while tan α ≤ 0.108, rolls on below 0.072;
    // tan α = 0.09 is in the gap, where only static friction holds it.
    let material =
        FrictionMaterial::builder().friction(0.6, 0.4).rolling_resistances(0.0108, 0.0072).build().unwrap();
    let alpha = 0.09f32.atan();
    for dt in DTS {
        let mut app = app(dt, Vec3::new(G * alpha.sin(), -G * alpha.cos(), 0.0));
        let b = ball(&mut app, 0.1, 0.0, material);
        for _ in 0..(10.0 / dt) as usize {
            app.update();
        }
        let p = app.world().get::<Transform>(b).unwrap().translation;
        let drift = p.x.hypot(p.z);
        assert!(drift < 1e-4, "dt {dt}: drifted {drift} m");
    }
    // The same ball with stock friction rolls away.
    let mut app = app(1.0 / 60.0, Vec3::new(G * alpha.sin(), -G * alpha.cos(), 0.0));
    let b = ball(&mut app, 0.1, 0.0, FrictionMaterial::stock());
    for _ in 0..120 {
        app.update();
    }
    let x = app.world().get::<Transform>(b).unwrap().translation.x;
    assert!(x > 0.5 * 0.5 * G * alpha.sin() / 1.4 * 4.0, "stock ball at {x} m after 2 s");
}

/// A ball rolling from 2 m/s with rolling resistance c = 0.01 m decelerates at
/// a = c g/(1.4 R) from its contact's second step and stops at t = dt + v0/a,
/// x = v0 dt + v0²/(2a) (`common::roll_out`): within 1 % + one frame; in the second
/// after the first stopped frame |v| < 1e-4 m/s and |ω| < 1e-4 rad/s (no back-motion).
#[test]
fn a_rolling_ball_stops_on_time() {
    let material = FrictionMaterial::builder().friction(0.6, 0.5).rolling_resistance(0.01).build().unwrap();
    let (r, v0) = (0.2f32, 2.0f32);
    let a = 0.01 * G as f64 / (1.4 * r as f64);
    for dt in DTS {
        let (t_exp, x_exp) = common::roll_out(v0 as f64, a, dt);
        let mut app = app(dt, Vec3::new(0.0, -G, 0.0));
        let b = ball(&mut app, r, v0, material);
        let (mut stop, mut after) = (None, 0.0f32);
        for k in 1..=(8.0 / dt) as usize {
            app.update();
            let t = k as f64 * dt as f64;
            let vel = *app.world().get::<Velocity>(b).unwrap();
            match stop {
                Some((ts, _)) if t > ts + 1.0 => break,
                Some(_) => after = after.max(vel.linear.length()).max(vel.angular.length()),
                None if vel.linear.length() < 1e-4 && vel.angular.length() < 1e-4 => {
                    stop = Some((t, app.world().get::<Transform>(b).unwrap().translation.x as f64));
                }
                None => {}
            }
        }
        let (ts, x) = stop.unwrap_or_else(|| panic!("dt {dt}: still rolling after 8 s"));
        assert!((ts - t_exp).abs() <= 0.01 * t_exp + dt as f64, "dt {dt}: stop at {ts} s, analytic {t_exp}");
        assert!((x - x_exp).abs() <= 0.01 * x_exp, "dt {dt}: stopped at {x} m, analytic {x_exp}");
        assert!(after < 1e-4, "dt {dt}: |v| or |ω| reached {after} in the second after the stop");
    }
}
