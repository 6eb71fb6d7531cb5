//! One two-contact realizability check (Definition 11 of \[004\]); goals: ball in the trough
//! ≤ 15 µs, general body ≤ 20 µs.
// criterion_group! generates undocumented public functions.
#![allow(missing_docs)]

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use glam::DMat3;
use tribo::realizability::{ContactSpec, TwoContactProblem};
use tribo::DVec3;
use tribo_lab::realizability::trough::Trough;

fn bench(c: &mut Criterion) {
    let trough = Trough::new(0.3, 0.4).problem([0.2, 0.1, 0.3]);
    c.bench_function("two_contact_realizability_trough", |b| {
        b.iter(|| black_box(&trough).realizability().unwrap())
    });
    // A general body: eccentric inertia, tilted normals, extra loads, spin and curvature.
    let inertia = DMat3::from_cols(
        DVec3::new(0.5, 0.05, 0.02),
        DVec3::new(0.05, 0.3, -0.04),
        DVec3::new(0.02, -0.04, 0.4),
    );
    let q = DMat3::from_diagonal(DVec3::new(0.2, 0.1, 0.0));
    let mut body = TwoContactProblem::new(
        2.0,
        inertia,
        DVec3::new(0.02, -0.03, 0.1),
        [
            ContactSpec::new(DVec3::new(0.4, 0.05, -0.2), DVec3::new(-0.5, 0.1, 1.0), 0.4),
            ContactSpec::new(DVec3::new(-0.35, -0.1, -0.25), DVec3::new(0.6, -0.05, 1.0), 0.5),
        ],
        DVec3::new(3.0, -2.0, -19.62),
        DVec3::new(0.5, 0.8, -0.3),
    )
    .with_spin(1.5);
    body.contacts[0].curvature_radius = {
        let n = body.contacts[0].normal.normalize();
        let p = DMat3::IDENTITY - DMat3::from_cols(n * n.x, n * n.y, n * n.z);
        p * q * p
    };
    c.bench_function("two_contact_realizability_general", |b| {
        b.iter(|| black_box(&body).realizability().unwrap())
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
