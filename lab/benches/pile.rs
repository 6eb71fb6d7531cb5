//! A pile of 1000 spheres (radius 0.1 m) dropped into a box, 300 steps at dt = 1/60: stock
//! rapier vs tribo with the full model (slide μs/μk, roll and spin resistance), same scene and
//! settings. Goal: tribo ≤ 1.25 × stock.
//!
//! `cargo bench -p tribo_lab --bench pile`
// criterion_group! generates undocumented public functions.
#![allow(missing_docs)]

use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use std::time::Duration;
use tribo_lab::rapier::scenarios::{pile_scene, Friction};

fn pile(c: &mut Criterion) {
    let mut g = c.benchmark_group("pile_1000_spheres_300_steps");
    g.sample_size(10).warm_up_time(Duration::from_millis(1)).measurement_time(Duration::from_secs(30));
    for (name, fr) in [("stock", Friction::Stock), ("tribo", Friction::Tribo)] {
        g.bench_function(name, |b| {
            b.iter_batched(
                || pile_scene(1000, 1.2, 1.0 / 60.0, fr).0,
                |mut sim| {
                    for _ in 0..300 {
                        sim.step();
                    }
                    sim
                },
                BatchSize::PerIteration,
            )
        });
    }
    g.finish();
}

criterion_group!(benches, pile);
criterion_main!(benches);
