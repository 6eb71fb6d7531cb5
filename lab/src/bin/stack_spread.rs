//! A stack of 10 cubes built with gaps between them (they drop onto each other): how its drift
//! and tilt after 20 s spread over builds that differ only in the gap, under stock rapier, stock
//! rapier with every cube on a no-op hook (rapier's hooked path), tribo, and tribo with
//! μk = μs, at dt = 1/30, 1/60 and 1/240 (docs/rapier.md §2, "Hooked pairs").
//!
//! `cargo run --release -p tribo_lab --bin stack_spread [-- --landing] [--no-sleep]`
//!
//! - default: 28 builds, gaps of 10, 15, 20 and 25 mm, each also ±0.4, ±0.8 and ±1.2 mm;
//! - `--landing`: 121 builds, gaps of 20–26 mm 0.05 mm apart (the cubes start beyond rapier's
//!   contact prediction, so every contact between them begins with a landing);
//! - `--no-sleep`: the cubes never sleep (rapier's sleeping freezes a stack that still sways).

use tribo_lab::rapier::fidelity::{dense_landing_gaps, spread_gaps, stack_spread, StackContacts};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let known = ["--landing", "--no-sleep"];
    if let Some(a) = args.iter().find(|a| !known.contains(&a.as_str())) {
        eprintln!("stack_spread: unknown argument {a:?} (known: {})", known.join(", "));
        std::process::exit(2);
    }
    let gaps = if args.iter().any(|a| a == "--landing") { dense_landing_gaps() } else { spread_gaps() };
    let sleep = !args.iter().any(|a| a == "--no-sleep");
    println!(
        "{} builds, sleeping {}; drift: median (quartiles, largest); tilt: median, largest",
        gaps.len(),
        if sleep { "on" } else { "off" }
    );
    for dt in [1.0f32 / 30.0, 1.0 / 60.0, 1.0 / 240.0] {
        for (name, contacts, mu_k) in [
            ("stock", StackContacts::Stock, 0.5),
            ("stock, no-op hook", StackContacts::StockHooked, 0.5),
            ("tribo", StackContacts::Tribo, 0.5),
            ("tribo, μk = μs", StackContacts::Tribo, 0.6),
        ] {
            let s = stack_spread(&gaps, dt, contacts, mu_k, sleep);
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
