//! tribo friction vs stock rapier friction, side by side, for the issue-3 scenarios.
//!
//! `cargo run --release -p tribo_lab --bin compare_stock`

use tribo_lab::rapier::comparisons;

fn main() {
    for dt in [1.0f32 / 60.0, 1.0 / 240.0] {
        println!(
            "\n{:<52} {:<36} {:>12} {:>12} {:>12}",
            "scenario", "quantity", "expected", "tribo", "stock"
        );
        println!("{}", "-".repeat(128));
        for c in comparisons(dt) {
            let ok = if c.tolerance.check(c.expected, c.tribo) { " " } else { "✗" };
            println!(
                "{:<52} {:<36} {:>12.5} {:>12.5}{ok}{:>12.5}",
                c.scenario, c.quantity, c.expected, c.tribo, c.stock
            );
        }
    }
    println!("\nexpected: the friction model (formulas of docs/tracking.md); stock: rapier with one friction coefficient μs and no roll/spin resistance.");
}
