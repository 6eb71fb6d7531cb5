//! Speed of the Contensou laws: the exact law (goal ≤ 1 µs per evaluation) and each
//! approximation (goal ≤ 30 ns). Each benchmark evaluates `Patch::resultant` over 64 slip/spin
//! states spread over ε = 1e-3 … 1e3 (all branches of the exact algorithm); divide the reported
//! time by 64 for one evaluation. Max errors vs the exact law are in
//! `tests/contensou_models.rs::accuracy_table_sup_errors` and the validation rows.
// criterion_group! generates undocumented public functions.
#![allow(missing_docs)]

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use tribo::contensou::{Model, Patch, Pressure, Smooth};

fn inputs() -> Vec<([f64; 2], f64)> {
    (0..64)
        .map(|i| {
            let eps = 10f64.powf(-3.0 + 6.0 * i as f64 / 63.0);
            let a = i as f64 * 0.37;
            // R = 0.02, ω = 10 ⇒ R|ω| = 0.2; |u| = 0.2 ε
            ([0.2 * eps * a.cos(), 0.2 * eps * a.sin()], if i % 2 == 0 { 10.0 } else { -10.0 })
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let xs = inputs();
    let models: Vec<(&str, Model)> = vec![
        ("exact", Model::Exact),
        ("linear", Model::Linear),
        ("harmonic1", Model::Harmonic(1)),
        ("harmonic2", Model::Harmonic(2)),
        ("harmonic3", Model::Harmonic(3)),
        ("harmonic4", Model::Harmonic(4)),
        ("pade_m2_b1", Model::PADE_KUDRA),
        ("pade_m1", Model::Pade { m: 1.0, b: 0.664 }),
        ("pade_m3.5", Model::Pade { m: 3.5, b: 0.7 }),
        ("smooth", Model::Smooth(Smooth::new(1e-4, 1.3).unwrap())),
    ];
    for pressure in [Pressure::Uniform, Pressure::Hertz] {
        let patch = Patch::new(0.02, 0.5, 100.0, pressure).unwrap();
        let mut g = c.benchmark_group(format!("contensou_{pressure:?}_x64"));
        for (name, m) in &models {
            g.bench_function(*name, |b| {
                b.iter(|| {
                    let mut acc = 0.0;
                    for (slip, w) in &xs {
                        let l = patch.resultant(black_box(m), black_box(*slip), black_box(*w)).unwrap();
                        acc += l.force[0] + l.torque;
                    }
                    acc
                })
            });
        }
        g.finish();
    }
    // the exact law in its elliptic-integral region only (worst case), one evaluation
    let patch = Patch::new(0.02, 0.5, 100.0, Pressure::Uniform).unwrap();
    c.bench_function("contensou_exact_uniform_eps_2.5_single", |b| {
        b.iter(|| patch.resultant(&Model::Exact, black_box([0.5, 0.0]), black_box(10.0)).unwrap())
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(30).warm_up_time(std::time::Duration::from_millis(300)).measurement_time(std::time::Duration::from_millis(800));
    targets = bench
}
criterion_main!(benches);
