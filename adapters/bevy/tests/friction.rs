//! Headless physics through the bevy plugin, checked against closed-form results.
//!
//! Material model (tribo::tracking::Material, docs/tracking.md §3.3/§4.3): a ball of radius R on a
//! plane feels a kinetic rolling torque `T_r = 2 η_r μk R N` and a kinetic spin torque
//! `T_ψ = η_ψ μk N R` (heuristic spin, geometric curvature 𝒦 = 1/R).

mod common;

use bevy::prelude::*;
use bevy_rapier3d::prelude::*;
use bevy_tribo::prelude::*;
use common::*;

/// Rolling ball, v0 = 2 m/s. While it rolls without slipping, energy balance
/// `d/dt (½ m v² + ½ I ω²) = −T_r ω` with `v = ωR`, `I = 0.4 m R²`, `N = m g` gives the
/// deceleration `a = 2 η_r μk g / 1.4`, stopping distance `v0²/(2a)`.
#[test]
fn ball_rolls_and_stops() {
    ball_rolls_and_stops_in(TimestepMode::Fixed { dt: DT, substeps: 1 });
}

/// Same with 4 rapier steps per frame: tribo runs once per rapier step, so the result does not
/// depend on how bevy_rapier splits a frame.
#[test]
fn ball_rolls_and_stops_fixed_substeps() {
    ball_rolls_and_stops_in(TimestepMode::Fixed { dt: DT, substeps: 4 });
}

/// Same with the variable timestep (frames of 1/60 s, 2 substeps).
#[test]
fn ball_rolls_and_stops_variable_substeps() {
    ball_rolls_and_stops_in(TimestepMode::Variable { max_dt: 1.0 / 30.0, time_scale: 1.0, substeps: 2 });
}

fn ball_rolls_and_stops_in(mode: TimestepMode) {
    let (r, v0, eta_r, mu_s, mu_k) = (0.25_f32, 2.0_f32, 0.1, 0.6, 0.5);
    let a = 2.0 * eta_r as f32 * mu_k as f32 * G / 1.4;
    let d_expected = v0 * v0 / (2.0 * a); // 2.854 m
    let t_expected = v0 / a; // 2.85 s

    let mut app = app_with(mode);
    ground(&mut app, None);
    let rolling = Velocity { linear: Vec3::X * v0, angular: Vec3::Z * (-v0 / r) };
    let tribo = ball(
        &mut app,
        0.0,
        r,
        rolling,
        Some(FrictionMaterial::new(mu_s, mu_k).unwrap().with_roll_eta(eta_r).unwrap()),
    );
    // Stock rapier next to it (z = 5 m): no rolling resistance at all.
    let stock = {
        let e = ball(&mut app, 0.0, r, rolling, None);
        app.world_mut().get_mut::<Transform>(e).unwrap().translation.z = 5.0;
        e
    };

    // Halfway in time the speed is v0 − a t (within 5 %).
    let half = (0.5 * t_expected / DT) as usize;
    run(&mut app, half);
    let v_half = velocity(&app, tribo).linear.x;
    let v_half_expected = v0 - a * half as f32 * DT;
    assert!((v_half - v_half_expected).abs() < 0.05 * v0, "v(t/2) = {v_half}, expected {v_half_expected}");

    // Stopped by 1.3 t_expected, after v0²/(2a) within 7 %.
    run(&mut app, (0.8 * t_expected / DT) as usize);
    let v = velocity(&app, tribo);
    assert!(v.linear.length() < 0.01, "still moving: {:?}", v.linear);
    let d = position(&app, tribo).x;
    assert!((d - d_expected).abs() < 0.07 * d_expected, "stopping distance {d}, expected {d_expected}");

    // And stays put (static rolling resistance, no creep): < 1 mm in 2 s more.
    run(&mut app, 120);
    assert!((position(&app, tribo).x - d).abs() < 1e-3);

    // Stock rapier keeps rolling at ~v0.
    assert!(velocity(&app, stock).linear.x > 0.95 * v0);
}

/// Ball spinning about the contact normal, ω0 = 10 rad/s. `I α = T_ψ = η_ψ μk m g R` with
/// `I = 0.4 m R²`: `α = η_ψ μk g / (0.4 R)`; it stops at `t = ω0/α`.
#[test]
fn spinning_sphere_stops() {
    let (r, w0, eta_psi, mu_s, mu_k) = (0.25_f32, 10.0_f32, 0.1, 0.6, 0.5);
    let alpha = eta_psi as f32 * mu_k as f32 * G / (0.4 * r); // 4.905 rad/s²
    let t_stop = w0 / alpha; // 2.04 s

    let mut app = app(1);
    ground(&mut app, None);
    let spin = Velocity { linear: Vec3::ZERO, angular: Vec3::Y * w0 };
    let m = FrictionMaterial::new(mu_s, mu_k).unwrap().with_spin_eta(eta_psi).unwrap();
    let tribo = ball(&mut app, 0.0, r, spin, Some(m));
    let stock = ball(&mut app, 3.0, r, spin, None);

    run(&mut app, 60); // 1 s
    let w = velocity(&app, tribo).angular.y;
    let w_expected = w0 - alpha * 1.0;
    assert!((w - w_expected).abs() < 0.05 * w0, "ω(1 s) = {w}, expected {w_expected}");

    run(&mut app, ((t_stop + 0.5 - 1.0) / DT) as usize);
    let w = velocity(&app, tribo).angular;
    assert!(w.length() < 0.05, "still spinning: {w:?}");
    // The spin did not turn into translation.
    assert!(position(&app, tribo).xz().length() < 0.01);
    // Stock rapier: a single-point contact has no spin friction.
    assert!(velocity(&app, stock).angular.y > 0.95 * w0);
}

/// Brick on a slope (gravity tilted by θ; flat ground). Static friction holds it while
/// tan θ < μs; between atan μk and atan μs it stays at rest (stick hysteresis), where a stock
/// rapier brick with friction μk slides with `a = g (sin θ − μk cos θ)`.
#[test]
fn brick_holds_below_atan_mu_s() {
    let (mu_s, mu_k) = (0.6_f64, 0.4_f64);
    let theta = 25f32.to_radians(); // tan = 0.466: atan μk = 21.8° < 25° < atan μs = 31.0°
    let mut app = app(1);
    set_gravity(&mut app, Vec3::new(G * theta.sin(), -G * theta.cos(), 0.0));
    ground(&mut app, None);
    let brick = |app: &mut App, z: f32, m: FrictionMaterial| {
        app.world_mut()
            .spawn((
                Transform::from_xyz(0.0, 0.1, z),
                RigidBody::Dynamic,
                Collider::cuboid(0.2, 0.1, 0.2),
                Sleeping::disabled(),
                Velocity::default(),
                m,
            ))
            .id()
    };
    let tribo = brick(&mut app, 0.0, FrictionMaterial::new(mu_s, mu_k).unwrap());
    let stock = brick(&mut app, 2.0, FrictionMaterial::stock());
    // Stock friction μk: `Min` wins over the ground's default `Average` rule.
    app.world_mut()
        .entity_mut(stock)
        .insert(Friction { coefficient: mu_k as f32, combine_rule: CoefficientCombineRule::Min });

    run(&mut app, 180); // 3 s
    let x = position(&app, tribo).x;
    assert!(x.abs() < 2e-3, "tribo brick moved {x} m");
    assert!(velocity(&app, tribo).linear.length() < 1e-3);
    // Stock: d = ½ a t², a = g (sin θ − μk cos θ) = 0.589 m/s² → 2.65 m (10 %).
    let a = G * (theta.sin() - mu_k as f32 * theta.cos());
    let d = position(&app, stock).x;
    assert!((d - 0.5 * a * 9.0).abs() < 0.1 * 0.5 * a * 9.0, "stock brick slid {d} m");

    // The contact report shows a static slide mode and N = m g cos θ.
    let contacts = app.world().resource::<TriboContacts>();
    let c = contacts.involving(tribo).next().expect("tribo contact reported");
    assert_eq!(c.slide, bevy_tribo::Mode::Static);
    let m = 0.4 * 0.2 * 0.4; // density 1
    assert!((c.normal_force - m * G * theta.cos()).abs() < 0.02 * m * G, "N = {}", c.normal_force);
}

/// Above atan μs the brick breaks away and slides with the kinetic coefficient:
/// `a = g (sin θ − μk cos θ)`.
#[test]
fn brick_slides_above_atan_mu_s_with_mu_k() {
    let (mu_s, mu_k) = (0.6_f64, 0.4_f64);
    let theta = 35f32.to_radians(); // tan = 0.700 > μs
    let mut app = app(1);
    set_gravity(&mut app, Vec3::new(G * theta.sin(), -G * theta.cos(), 0.0));
    ground(&mut app, None);
    let brick = app
        .world_mut()
        .spawn((
            Transform::from_xyz(0.0, 0.1, 0.0),
            RigidBody::Dynamic,
            Collider::cuboid(0.2, 0.1, 0.2),
            Sleeping::disabled(),
            Velocity::default(),
            FrictionMaterial::new(mu_s, mu_k).unwrap(),
        ))
        .id();
    run(&mut app, 120); // 2 s
    let a = G * (theta.sin() - mu_k as f32 * theta.cos()); // 2.412 m/s²
    let d = position(&app, brick).x;
    let d_expected = 0.5 * a * 4.0;
    assert!((d - d_expected).abs() < 0.05 * d_expected, "slid {d} m, expected {d_expected}");
    let contacts = app.world().resource::<TriboContacts>();
    assert_eq!(contacts.involving(brick).next().unwrap().slide, bevy_tribo::Mode::Kinetic);
}
