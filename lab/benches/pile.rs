//! A pile of 1000 spheres (radius 0.1 m) dropped into a box, 300 steps at dt = 1/60, in four
//! configurations (same scene and settings): stock rapier; stock with a no-op
//! contact-modification hook on every collider (rapier's floor for any hook-based friction);
//! tribo slide-only (no motor joints); tribo's full model (slide μs/μk, roll and spin
//! resistance). Targets: slide-only ≤ 1.15 × no-op hook, full ≤ 2.0 × stock.
//!
//! The second group times one step of the same pile once it has fallen asleep (every body
//! asleep; stepped up to 600 steps to get there): what a world at rest costs, which for rapier
//! is close to nothing and for tribo is its look at each tracked contact (see the rapier
//! adapter's README, "Where the time goes").
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

fn asleep_pile(c: &mut Criterion) {
    let mut g = c.benchmark_group("pile_1000_spheres_asleep_one_step");
    g.sample_size(20).warm_up_time(Duration::from_millis(100)).measurement_time(Duration::from_secs(3));
    for config in PileConfig::ALL {
        let mut sim = pile_config_scene(config).0;
        let mut k = 0;
        while !sim.all_asleep() && k < 600 {
            pile_config_step(&mut sim, config);
            k += 1;
        }
        if !sim.all_asleep() {
            eprintln!("{}: not asleep after {k} steps, not timed", config.name());
            continue;
        }
        g.bench_function(config.name(), |b| b.iter(|| pile_config_step(&mut sim, config)));
    }
    g.finish();
}

criterion_group!(benches, pile, asleep_pile);
criterion_main!(benches);
