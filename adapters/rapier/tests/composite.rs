//! Composite ground (triangle mesh): a contact may span several manifolds (one per triangle,
//! merged by rapier's contact clustering). tribo keeps one state per collider pair; the
//! results must match the flat-cuboid ground.

use tribo_rapier::rapier3d::prelude::*;
use tribo_rapier::scenarios::*;

/// A flat square triangle mesh (top at y = 0) of `cells`² cells over [−h, h]².
fn mesh_ground(sim: &mut Sim, h: f32, cells: u32) -> ColliderHandle {
    let mut v = Vec::new();
    let mut idx = Vec::new();
    let n = cells + 1;
    for i in 0..n {
        for j in 0..n {
            v.push(Vector::new(-h + 2.0 * h * i as f32 / cells as f32, 0.0, -h + 2.0 * h * j as f32 / cells as f32));
        }
    }
    for i in 0..cells {
        for j in 0..cells {
            let a = i * n + j;
            idx.push([a, a + 1, a + n]);
            idx.push([a + 1, a + n + 1, a + n]);
        }
    }
    sim.world.colliders.insert(ColliderBuilder::trimesh_with_flags(v, idx, TriMeshFlags::FIX_INTERNAL_EDGES).expect("valid mesh"))
}

#[test]
fn ball_rolling_on_a_mesh_stops_like_on_a_cuboid() {
    // Expected distance v0²/(2a) as in scenario 2 (spec §3.3); cells of 0.5 m so the ball
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
        RigidBodyBuilder::dynamic().translation(Vector::new(-15.0, 0.1, 0.2)).linvel(Vector::new(1.0, 0.0, 0.0)),
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
