//! Composite ground (triangle mesh): a contact may span several manifolds (one per triangle,
//! merged by rapier's contact clustering). tribo keeps one state per collider pair; the
//! results must match the flat-cuboid ground.

use tribo_lab::rapier::scenarios::*;
use tribo_rapier::rapier3d::prelude::*;

/// A flat square triangle mesh (top at y = 0) of `cells`² cells over [−h, h]².
fn mesh_ground(sim: &mut Sim, h: f32, cells: u32) -> ColliderHandle {
    let mut v = Vec::new();
    let mut idx = Vec::new();
    let n = cells + 1;
    for i in 0..n {
        for j in 0..n {
            v.push(Vector::new(
                -h + 2.0 * h * i as f32 / cells as f32,
                0.0,
                -h + 2.0 * h * j as f32 / cells as f32,
            ));
        }
    }
    for i in 0..cells {
        for j in 0..cells {
            let a = i * n + j;
            idx.push([a, a + 1, a + n]);
            idx.push([a + 1, a + n + 1, a + n]);
        }
    }
    sim.world.colliders.insert(
        ColliderBuilder::trimesh_with_flags(v, idx, TriMeshFlags::FIX_INTERNAL_EDGES).expect("valid mesh"),
    )
}

#[test]
fn ball_rolling_on_a_mesh_stops_like_on_a_cuboid() {
    // Expected distance v0²/(2a) as in scenario 2 (docs/tracking.md §3.3); cells of 0.5 m so the ball
    // crosses many triangle edges.
    let expected = ball_rolling_expected(2.0);
    for dt in [1.0f32 / 60.0, 1.0 / 240.0] {
        let mut sim = Sim::new(Vector::new(0.0, -9.81, 0.0), dt, Friction::Tribo);
        let g = mesh_ground(&mut sim, 10.0, 40);
        let (b, c) = sim.add_dynamic(
            RigidBodyBuilder::dynamic()
                .translation(Vector::new(-4.0, BALL_R, 0.3))
                .linvel(Vector::new(2.0, 0.0, 0.0))
                .angvel(Vector::new(0.0, 0.0, -2.0 / BALL_R)),
            ColliderBuilder::ball(BALL_R).density(1000.0),
            &ball_material(),
        );
        let mut n_max = 0.0f32;
        for k in 0..steps(9.0, dt) {
            sim.step();
            if k == steps(1.0, dt) {
                let info = sim.tribo.as_ref().unwrap().contact(g, c).expect("contact state");
                n_max = info.normal_force;
            }
            let rb = sim.body(b);
            assert!(rb.translation().is_finite() && rb.linvel().is_finite());
        }
        let rb = sim.body(b);
        let d = rb.translation().x as f64 + 4.0;
        assert!((d - expected).abs() < 0.05 * expected, "dt {dt}: {d} vs {expected}");
        assert!(rb.linvel().length() < 1e-3, "dt {dt}: still moving");
        let mg = rb.mass() * 9.81;
        assert!((n_max - mg).abs() < 0.02 * mg, "N = {n_max} vs m g = {mg}");
        assert_eq!(sim.tribo.as_ref().unwrap().len(), 1, "one state per collider pair");
    }
}

#[test]
fn brick_on_a_mesh_slides_with_kinetic_acceleration() {
    // Pushed brick on a tilted-gravity mesh slope between atan μk and atan μs keeps sliding with
    // a = g(sin α − μk cos α) (scenario 1 hysteresis, Coulomb).
    let alpha = 0.4f32;
    let expected = 9.81 * ((alpha as f64).sin() - 0.3 * (alpha as f64).cos());
    let mut sim = Sim::new(slope_gravity(9.81, alpha), 1.0 / 60.0, Friction::Tribo);
    let g = mesh_ground(&mut sim, 20.0, 40);
    let (b, c) = sim.add_dynamic(
        RigidBodyBuilder::dynamic()
            .translation(Vector::new(-15.0, 0.1, 0.2))
            .linvel(Vector::new(1.0, 0.0, 0.0)),
        ColliderBuilder::cuboid(0.2, 0.1, 0.15).density(1000.0),
        &brick_material(),
    );
    let mut v1 = 0.0;
    for k in 1..=steps(2.5, 1.0 / 60.0) {
        sim.step();
        if k == 60 {
            v1 = sim.body(b).linvel().x as f64;
        }
    }
    let a = (sim.body(b).linvel().x as f64 - v1) / 1.5;
    assert!((a - expected).abs() < 0.03 * expected, "{a} vs {expected}");
    // The brick's contact spans several triangle manifolds merged into one solver cluster; the
    // normal force read from the solver is still m g cos α.
    let n = sim.tribo.as_ref().unwrap().contact(g, c).unwrap().normal_force as f64;
    let mgc = sim.body(b).mass() as f64 * 9.81 * (alpha as f64).cos();
    assert!((n - mgc).abs() < 0.02 * mgc, "N = {n} vs {mgc}");
}

#[test]
fn capsule_rolling_across_its_axis_stops_at_the_kinetic_roll_distance() {
    // A capsule (axis z, radius r) lying on flat ground, rolling along x without slip at v0.
    // Curvature across the cylindrical part is 1/r (tribo_rapier::curvature), so the kinetic
    // roll torque is T_k = 2 η_r μk r N (docs/tracking.md §3.3, plane) and the deceleration is
    // a = T_k r/(I_z + m r²), I_z the capsule's moment about its axis (cylinder m_c r²/2 plus
    // two hemispheres = a ball, 2/5 m_b r²): distance v0²/(2a) within 5 %.
    let (r, half, v0) = (0.15f32, 0.3f32, 1.5f32);
    let mut sim = Sim::new(Vector::new(0.0, -9.81, 0.0), 1.0 / 60.0, Friction::Tribo);
    sim.add_ground(50.0);
    let (b, _) = sim.add_dynamic(
        RigidBodyBuilder::dynamic()
            .translation(Vector::new(0.0, r, 0.0))
            .linvel(Vector::new(v0, 0.0, 0.0))
            .angvel(Vector::new(0.0, 0.0, -v0 / r)),
        ColliderBuilder::capsule_z(half, r).density(1000.0),
        &ball_material(),
    );
    let rb = sim.body(b);
    let m = rb.mass() as f64;
    let (rr, hh) = (r as f64, half as f64);
    let (m_cyl, m_ball) = (
        1000.0 * std::f64::consts::PI * rr * rr * 2.0 * hh,
        1000.0 * 4.0 / 3.0 * std::f64::consts::PI * rr.powi(3),
    );
    assert!((m_cyl + m_ball - m).abs() < 1e-3 * m, "capsule mass {m}");
    let iz = 0.5 * m_cyl * rr * rr + 0.4 * m_ball * rr * rr;
    let tk =
        ball_material().roll_torque_capacity(tribo::tracking::Mode::Kinetic, m * 9.81, 1.0 / r as f64, 0.0);
    let a = tk * r as f64 / (iz + m * (r as f64).powi(2));
    let expected = (v0 as f64).powi(2) / (2.0 * a);
    for _ in 0..steps(expected / v0 as f64 * 2.0 + 2.0, 1.0 / 60.0) {
        sim.step();
    }
    let d = sim.body(b).translation().x as f64;
    assert!((d - expected).abs() < 0.05 * expected, "{d} vs {expected}");
    assert!(sim.body(b).linvel().length() < 1e-3);
    // Still lying across (it rolled, it did not slew round).
    assert!(sim.body(b).translation().z.abs() < 0.05);
}
