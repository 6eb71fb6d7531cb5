//! One contact-point-tracking update (slide + roll + spin) for a sphere rolling, slipping and
//! spinning on a plane (docs/tracking.md §5.2 A–J). Goal: < 200 ns per contact-step.
// criterion_group! generates undocumented public functions.
#![allow(missing_docs)]

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use tribo::tracking::{
    ContactBody, ContactInput, ContactState, DampingInertia, Material, SpinModel, Surface, TrackingConfig,
};
use tribo::{DQuat, DVec3};

fn inputs() -> Vec<ContactInput> {
    // Sphere R = 0.2 rolling along x with a little slip and a spin about the normal.
    let (r, dt) = (0.2, 1e-4);
    let w = DVec3::new(0.3, 9.0, 0.8);
    (0..1024)
        .map(|k| {
            let t = k as f64 * dt;
            let pos = DVec3::new(2.0 * t, 0.1 * t, r);
            let rot = DQuat::from_scaled_axis(w * t);
            let c = DVec3::new(pos.x, pos.y, 0.0);
            ContactInput {
                body_i: ContactBody::ground(Surface::Plane),
                body_j: ContactBody::new(pos, rot, Surface::Sphere { radius: r }),
                point_i: c,
                point_j: c,
                normal: DVec3::NEG_Z,
                normal_force: 49.0,
                dt,
                inertia: DampingInertia::new(5.0, 0.08, 0.08),
            }
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let material = Material::new(0.25, 0.2)
        .unwrap()
        .with_roll_eta(0.3)
        .unwrap()
        .with_spin(SpinModel::Heuristic { eta_psi: 0.01, curvature: None })
        .unwrap();
    let config = TrackingConfig::default();
    let inputs = inputs();
    let mut state = ContactState::default();
    for i in &inputs[..8] {
        state.update(&material, &config, i).unwrap();
    }
    let mut k = 8usize;
    c.bench_function("contact_update sphere-on-plane slide+roll+spin", |b| {
        b.iter(|| {
            k = (k + 1) & 1023;
            let out = state.update(&material, &config, black_box(&inputs[k]));
            black_box(out.map(|o| (o.wrench_i, o.wrench_j)).ok())
        })
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
