//! A pile of 1000 spheres (radius 0.1 m) dropped into a box, 300 steps at dt = 1/60, in four
//! configurations (same scene and settings): stock rapier; stock with a no-op
//! contact-modification hook on every collider (rapier's floor for any hook-based friction);
//! tribo slide-only (no motor joints); tribo's full model (slide μs/μk, roll and spin
//! resistance). Targets: slide-only ≤ 1.15 × no-op hook, full ≤ 2.0 × stock.
//!
//! `cargo bench -p tribo_lab --bench pile`
// criterion_group! generates undocumented public functions.
#![allow(missing_docs)]

use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use std::time::Duration;
use tribo_lab::rapier::scenarios::{pile_config_scene, pile_config_step, PileConfig};

fn pile(c: &mut Criterion) {
    let mut g = c.benchmark_group("pile_1000_spheres_300_steps");
    g.sample_size(10).warm_up_time(Duration::from_millis(1)).measurement_time(Duration::from_secs(30));
    for config in PileConfig::ALL {
        g.bench_function(config.name(), |b| {
            b.iter_batched(
                || pile_config_scene(config).0,
                |mut sim| {
                    for _ in 0..300 {
                        pile_config_step(&mut sim, config);
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
