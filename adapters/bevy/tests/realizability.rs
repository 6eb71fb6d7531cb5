//! Realizability reports as bevy messages: a ball resting in a right-angle trough under a
//! constant torque (Antali & Stepan (2021) §6, docs/realizability.md §4 and §7.2 B5).
//!
//! Walls: two perpendicular fixed planes inclined at 45°; `e_x = (1, 1, 0)/√2` and
//! `e_y = (−1, 1, 0)/√2` are their inward normals, `e_z` the trough axis. Torque
//! `M = G r (m_x e_x + m_y e_y + m_z e_z)`, `G = m g/√2`, μ = 0.3 at both walls. docs/realizability.md §7.2 B5:
//! m = (0.2, 0.1, 0.3) is realizable; m = (0, 0, 0.6) is not, with SS as the only transition
//! (beyond the apex m_z3 = 0.5505); m = (0.1, 0.3, −0.2) is not realizable.

mod common;

use std::f32::consts::{FRAC_1_SQRT_2, FRAC_PI_4, SQRT_2};

use bevy::prelude::*;
use bevy_rapier3d::prelude::*;
use bevy_tribo::prelude::*;
use bevy_tribo::Transition;
use common::{run, G};

#[derive(Resource, Default)]
struct Reports(Vec<RealizabilityReport>);

const R: f32 = 0.1;

fn trough(m: [f32; 3]) -> (App, Entity, [Entity; 2]) {
    let mut app = App::new();
    app.add_plugins((
        MinimalPlugins,
        TransformPlugin,
        RapierPhysicsPlugin::<TriboHooks>::default(),
        TriboPlugin::default().with_realizability(true),
    ))
    .insert_resource(bevy::time::TimeUpdateStrategy::ManualDuration(std::time::Duration::from_secs_f32(
        1.0 / 480.0,
    )))
    .insert_resource(TimestepMode::Fixed { dt: 1.0 / 480.0, substeps: 1 })
    .init_resource::<Reports>()
    .add_systems(PostUpdate, collect.after(TriboSet::Step));
    app.finish();
    app.cleanup();
    app.update();

    let (ex, ey, ez) = (
        Vec3::new(FRAC_1_SQRT_2, FRAC_1_SQRT_2, 0.0),
        Vec3::new(-FRAC_1_SQRT_2, FRAC_1_SQRT_2, 0.0),
        Vec3::Z,
    );
    let (half_len, half_thick) = (5.0 * R, 0.5 * R);
    let bottom = Vec3::new(0.0, -SQRT_2 * R, 0.0);
    let mut walls = [Entity::PLACEHOLDER; 2];
    for (i, (n, angle)) in [(ey, FRAC_PI_4), (ex, -FRAC_PI_4)].into_iter().enumerate() {
        let along = Vec3::Z.cross(n);
        let up = if along.y > 0.0 { along } else { -along };
        let center = bottom + up * half_len - n * half_thick;
        walls[i] = app
            .world_mut()
            .spawn((
                Transform::from_translation(center).with_rotation(Quat::from_rotation_z(angle)),
                Collider::cuboid(half_len, half_thick, 20.0 * R),
            ))
            .id();
    }
    let mass = 1000.0 * 4.0 / 3.0 * std::f32::consts::PI * R * R * R;
    let big_g = mass * G / SQRT_2;
    let ball = app
        .world_mut()
        .spawn((
            Transform::IDENTITY,
            RigidBody::Dynamic,
            Collider::ball(R),
            ColliderMassProperties::Density(1000.0),
            Sleeping::disabled(),
            ExternalForce { force: Vec3::ZERO, torque: (ex * m[0] + ey * m[1] + ez * m[2]) * big_g * R },
            FrictionMaterial::new(0.3, 0.3)
                .unwrap()
                .with_roll_eta(0.0)
                .unwrap()
                .with_spin(bevy_tribo::SpinModel::Off)
                .unwrap(),
        ))
        .id();
    (app, ball, walls)
}

fn collect(mut r: MessageReader<RealizabilityReport>, mut out: ResMut<Reports>) {
    out.0.extend(r.read().cloned());
}

/// The first report of the ball (the torque acts from the first step, as in the model notes'
/// initial-value problem).
fn first_report(app: &mut App, ball: Entity) -> RealizabilityReport {
    run(app, 3);
    let reports = &app.world().resource::<Reports>().0;
    reports.iter().find(|r| r.body == Some(ball)).cloned().expect("a realizability report for the ball")
}

#[test]
fn realizable_case_b5() {
    let (mut app, ball, walls) = trough([0.2, 0.1, 0.3]);
    let rep = first_report(&mut app, ball);
    assert!(rep.realizable(), "{:?}", rep.report.outcome);
    assert!(rep.margin().unwrap() > 0.0);
    assert!(rep.transitions().is_empty());
    // The supports are the two walls, the body's collider is the ball.
    let mut supports: Vec<Entity> = rep.colliders.iter().map(|c| c.1.unwrap()).collect();
    supports.sort();
    let mut w = walls.to_vec();
    w.sort();
    assert_eq!(supports, w);
    assert!(rep.colliders.iter().all(|c| c.0 == Some(ball)));
    assert!(rep.report.contacts.iter().all(|c| c.tribo && (c.mu - 0.3).abs() < 1e-9));
}

#[test]
fn not_realizable_cases_b5() {
    let (mut app, ball, _) = trough([0.0, 0.0, 0.6]);
    let rep = first_report(&mut app, ball);
    assert!(!rep.realizable());
    assert!(rep.margin().unwrap() < 0.0);
    assert_eq!(rep.transitions(), &[Transition::SS]);
    assert_eq!(rep.slipping_colliders(Transition::SS), vec![Some(ball), Some(ball)]);

    // Expected (docs/realizability.md §7.2 B5): RS, i.e. the contact P⁻ on the e_x wall slips. The RS/SR label depends on which
    // contact tribo_rapier calls P⁺ (collider order), so check the slipping contact's wall.
    let (mut app, ball, _) = trough([0.1, 0.3, -0.2]);
    let rep = first_report(&mut app, ball);
    assert!(!rep.realizable());
    assert_eq!(rep.transitions().len(), 1);
    let slipping = rep.report.slipping_contacts(rep.transitions()[0]);
    assert_eq!(slipping.len(), 1);
    let ex = tribo::DVec3::new(1.0, 1.0, 0.0).normalize();
    assert!(slipping[0].normal.dot(ex) > 0.99, "slipping contact normal {:?}", slipping[0].normal);
}

#[test]
fn monitor_off_sends_nothing() {
    let (mut app, ball, _) = trough([0.2, 0.1, 0.3]);
    app.world_mut().resource_mut::<RealizabilityMonitor>().enabled = false;
    run(&mut app, 3);
    assert!(app.world().resource::<Reports>().0.iter().all(|r| r.body != Some(ball)));
}
