//! A stack of 10 cubes built with gaps of 9–26 mm between them (they drop onto each other), 28
//! builds that differ only in the gap: how its drift and tilt after 20 s spread under stock
//! rapier, stock rapier with every cube on a no-op hook (rapier's hooked path), tribo, and
//! tribo with μk = μs, at dt = 1/30, 1/60 and 1/240 (docs/rapier.md §2, "Hooked pairs").
//!
//! `cargo run --release -p tribo_lab --bin stack_spread`

use tribo_lab::rapier::fidelity::{stack_spread, StackContacts};

fn main() {
    println!("drift: median (quartiles, largest); tilt: median, largest");
    for dt in [1.0f32 / 30.0, 1.0 / 60.0, 1.0 / 240.0] {
        for (name, contacts, mu_k) in [
            ("stock", StackContacts::Stock, 0.5),
            ("stock, no-op hook", StackContacts::StockHooked, 0.5),
            ("tribo", StackContacts::Tribo, 0.5),
            ("tribo, μk = μs", StackContacts::Tribo, 0.6),
        ] {
            let s = stack_spread(dt, contacts, mu_k);
            let [m, q1, q3, max] = s.drift.map(|x| x * 1e3);
            println!(
                "1/{:<4} {name:<18} {m:6.2} mm ({q1:.2}–{q3:.2}, {max:.2}); {:.3}°, {:.3}°",
                (1.0 / dt).round(),
                s.tilt_deg[0],
                s.tilt_deg[3]
            );
        }
    }
}
