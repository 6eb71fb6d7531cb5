//! The main job: runs every validation experiment of tribo and prints one table
//! (case, quantity, expected, measured, tolerance, pass). `--json` prints one JSON object
//! per row instead. Exits with status 1 if any row fails.
//!
//! ```text
//! cargo run --release -p tribo_lab --bin validate [-- --json]
//! ```

use tribo_lab::validation::Row;

/// A titled group of rows and the function that computes them.
type Section = (&'static str, fn() -> Vec<Row>);

fn sections() -> Vec<Section> {
    vec![
        ("contact-point tracking (core)", tribo_lab::tracking::validation_rows),
        ("Contensou patch (core)", tribo_lab::contensou::validation_rows),
        ("realizability (core)", tribo_lab::realizability::validation_rows),
        ("rapier scenarios: tribo vs stock (tribo_rapier)", tribo_lab::rapier::validation_rows),
    ]
}

fn main() {
    let json = std::env::args().skip(1).any(|a| a == "--json");
    let mut failed = 0usize;
    let mut total = 0usize;
    for (name, rows) in sections() {
        let rows = rows();
        let wc = rows.iter().map(|r| r.case.chars().count()).max().unwrap_or(4).max(4);
        let wq = rows.iter().map(|r| r.quantity.chars().count()).max().unwrap_or(8).max(8);
        if !json && !rows.is_empty() {
            println!("\n== {name} ==");
            println!(
                "{:<wc$} {:<wq$} {:>14} {:>14} {:>10} {:>5}",
                "case", "quantity", "expected", "measured", "tol", "pass"
            );
        }
        for r in &rows {
            total += 1;
            if !r.pass {
                failed += 1;
            }
            if json {
                println!("{}", serde_json::to_string(r).expect("row serialises"));
            } else {
                println!(
                    "{:<wc$} {:<wq$} {:>14.7} {:>14.7} {:>10} {:>5}",
                    r.case,
                    r.quantity,
                    r.expected,
                    r.measured,
                    r.tolerance.to_string(),
                    if r.pass { "ok" } else { "FAIL" }
                );
            }
        }
    }
    if !json {
        println!("\n{} rows, {} passed, {} failed", total, total - failed, failed);
    }
    if failed > 0 {
        std::process::exit(1);
    }
}
