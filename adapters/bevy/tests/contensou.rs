//! A bevy app sets a Contensou material (the one `FrictionMaterial` type, built with the
//! builder) and sees the coupled slide/spin of a flat puck: launched at v0 = 3 m/s spinning at
//! ω0 = 30 rad/s (ε0 = v0/(Rω0) = 1), it stops sliding and spinning at the same instant, at
//! τ(1)·v0/(μg) = 1.340298 · 3/(0.3 · 9.81) = 1.366 s (docs/contensou.md §4.1) — later than the
//! v0/(μg) = 1.019 s of uncoupled Coulomb sliding.

mod common;

use bevy::prelude::*;
use bevy_rapier3d::prelude::*;
use bevy_tribo::contensou::Contensou;
use bevy_tribo::prelude::*;
use bevy_tribo::Mode;
use common::*;

const R: f32 = 0.1;
const MU: f32 = 0.3;

fn stop_times(material: FrictionMaterial) -> (f32, f32) {
    let mut app = app(1);
    ground(&mut app, None);
    let puck = app
        .world_mut()
        .spawn((
            Transform::from_xyz(0.0, 0.01, 0.0),
            RigidBody::Dynamic,
            Collider::cylinder(0.01, R),
            ColliderMassProperties::Density(1000.0),
            Velocity { linear: Vec3::new(3.0, 0.0, 0.0), angular: Vec3::new(0.0, 30.0, 0.0) },
            Sleeping::disabled(),
            material,
        ))
        .id();
    let (mut t_slide, mut t_spin) = (f32::NAN, f32::NAN);
    for frame in 1..=240 {
        app.update();
        let v = velocity(&app, puck);
        let t = frame as f32 * DT;
        let slide = Vec2::new(v.linear.x, v.linear.z).length();
        if t_slide.is_nan() && slide < 2e-3 {
            t_slide = t;
        }
        if t_spin.is_nan() && (v.angular.y * R).abs() < 2e-3 {
            t_spin = t;
        }
    }
    (t_slide, t_spin)
}

#[test]
fn bevy_contensou_material_couples_slide_and_spin() {
    let contensou = FrictionMaterial::builder()
        .friction(MU, MU)
        .contensou(Contensou::flat(R as f64).unwrap())
        .build()
        .unwrap();
    assert!(contensou.contensou().is_some(), "the bevy component keeps the Contensou model");
    let (t_slide, t_spin) = stop_times(contensou);
    let expected = 1.340298 * 3.0 / (MU * G);
    assert!((t_slide / expected - 1.0).abs() < 0.03, "slide stops at {t_slide} s, expected {expected} s");
    assert!((t_slide - t_spin).abs() <= 2.0 * DT + 1e-6, "slide stops at {t_slide} s, spin at {t_spin} s");

    // The same material without the model: the slide stops near v0/(μg) = 1.019 s instead.
    let plain = FrictionMaterial::builder().friction(MU, MU).build().unwrap();
    let (t_plain, _) = stop_times(plain);
    let coulomb = 3.0 / (MU * G);
    assert!(
        (t_plain / coulomb - 1.0).abs() < 0.05,
        "uncoupled slide stops at {t_plain} s, v0/(μg) = {coulomb}"
    );
}

/// Contact reports name the bodies and carry the slip velocity and friction force: a ball
/// pushed at 2 m/s without spin slides on μk = 0.4 (friction force μk m g, slip along +x).
#[test]
fn contact_report_has_bodies_slip_and_friction_force() {
    let mut app = app(1);
    let m = FrictionMaterial::builder().friction(0.5, 0.4).build().unwrap();
    let g = ground(&mut app, Some(m));
    let b = ball(&mut app, 0.0, 0.1, Velocity::linear(Vec3::new(2.0, 0.0, 0.0)), Some(m));
    run(&mut app, 3);
    let contacts = app.world().resource::<TriboContacts>();
    let c = contacts.involving_body(b).next().expect("contact report for the ball body");
    assert!(c.body1 == Some(b) || c.body2 == Some(b));
    assert!(c.collider1 == g || c.collider2 == g);
    assert_eq!(c.slide, Mode::Kinetic);
    // Slip of the ball relative to the ground: +x (sign by the collider order).
    let slip = if c.body2 == Some(b) { c.slip_velocity } else { -c.slip_velocity };
    assert!(slip.x > 1.0 && slip.y.abs() < 1e-3, "slip {slip}");
    // Friction force on the ball = μk N against the slip.
    let f = c.friction_force.expect("slipping contact has a friction force");
    let f = if c.body2 == Some(b) { f } else { -f };
    assert!((f.length() - 0.4 * c.normal_force).abs() < 0.02 * 0.4 * c.normal_force, "{c:?}");
    // Opposing the slip.
    assert!(f.x < 0.0 && f.normalize().dot(-slip.normalize()) > 0.999, "{f} vs slip {slip}");
}
