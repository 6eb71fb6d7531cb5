//! The main job: runs every validation experiment of tribo and prints one table
//! (case, quantity, expected, measured, tolerance, pass). `--json` prints one JSON object
//! per row instead. `--report DIR` also writes `DIR/index.html`, a self-contained page with the
//! tables and SVG plots of the experiments (and each plot as `DIR/<id>.svg`). Exits with status
//! 1 if any row fails. `--only TEXT` runs the sections whose title contains TEXT. Built with
//! `--no-default-features --features rapier-0-36`, it also has the `robot …` rows (URDF robots).
//!
//! ```text
//! cargo run --release -p tribo_lab --bin validate [-- --json] [-- --report DIR] [-- --only TEXT]
//! cargo run --release -p tribo_lab --no-default-features --features rapier-0-36 --bin validate -- --only robot
//! ```

use std::io::Write;
use tribo_lab::validation::Row;

/// A titled group of rows and the function that computes them.
type Section = (&'static str, fn() -> Vec<Row>);

fn sections() -> Vec<Section> {
    #[allow(unused_mut)]
    let mut sections: Vec<Section> = vec![
        ("contact-point tracking (core)", tribo_lab::tracking::validation_rows),
        ("Contensou patch (core)", tribo_lab::contensou::validation_rows),
        ("realizability (core)", tribo_lab::realizability::validation_rows),
        ("rapier scenarios: tribo vs stock (tribo_rapier)", tribo_lab::rapier::validation_rows),
    ];
    // URDF robots: rapier3d-urdf follows rapier 0.36.
    #[cfg(feature = "rapier-0-36")]
    sections.push((
        "robot: URDF gripper and differential-drive robot (rapier3d-urdf), tribo vs stock",
        tribo_lab::rapier::robots::rows::validation_rows,
    ));
    sections
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let json = args.iter().any(|a| a == "--json");
    // `--roll-spin=torques`: every scene's store carries roll and spin by torques.
    if args.iter().any(|a| a == "--roll-spin=torques") {
        tribo_lab::rapier::scenarios::set_roll_spin_torques(true);
    }
    let report = args.iter().position(|a| a == "--report").map(|i| args.get(i + 1).cloned());
    let report = match report {
        Some(None) => {
            eprintln!("--report needs a directory");
            std::process::exit(2);
        }
        Some(Some(d)) => Some(std::path::PathBuf::from(d)),
        None => None,
    };
    let mut failed = 0usize;
    let mut total = 0usize;
    // `--only TEXT`: the sections whose title contains TEXT.
    let only = args.iter().position(|a| a == "--only").map(|i| args.get(i + 1).cloned().unwrap_or_default());
    let mut done: Vec<(String, Vec<Row>)> = Vec::new();
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    for (name, rows) in
        sections().into_iter().filter(|(name, _)| only.as_ref().is_none_or(|t| name.contains(t.as_str())))
    {
        let rows = rows();
        total += rows.len();
        failed += rows.iter().filter(|r| !r.pass).count();
        quiet_on_closed_pipe(tribo_lab::validation::write_section(&mut out, name, &rows, json));
        done.push((name.to_string(), rows));
    }
    if let Some(dir) = report {
        match tribo_lab::report::write(&dir, &done) {
            Ok(p) => eprintln!("report written: {}", p.display()),
            Err(e) => {
                eprintln!("report failed: {e}");
                std::process::exit(2);
            }
        }
    }
    if !json {
        quiet_on_closed_pipe(writeln!(out, "\n{} rows, {} passed, {} failed", total, total - failed, failed));
    }
    if failed > 0 {
        std::process::exit(1);
    }
}

/// The reader went away (`validate --json | head`): stop quietly, as `head`'s user expects; any
/// other write error is reported.
fn quiet_on_closed_pipe(r: std::io::Result<()>) {
    match r {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => std::process::exit(0),
        Err(e) => {
            eprintln!("validate: cannot write the table: {e}");
            std::process::exit(2);
        }
    }
}
