//! Wheelset on two rails in rapier (docs/realizability.md §3, §3.11): for a grid of lateral,
//! yaw and drive loads, the realizability prediction of `tribo_rapier::diagnostics` next to
//! what the simulation did, with tribo friction and with stock rapier friction, and the
//! agreement rates. Scene, measurement and agreement rule: `tribo_lab::rapier::wheelset`.
//!
//! `cargo run --release -p tribo_lab --bin wheelset` (add `-- --quiet` for the summaries only,
//! `-- --fine` for the 1 050-load grid instead of the 286 loads of CI).

use tribo_lab::rapier::scenarios::Friction;
use tribo_lab::rapier::trough::DEFAULT_BAND;
use tribo_lab::rapier::wheelset::{agreement, run_grid, WheelsetConfig};

fn main() {
    let quiet = std::env::args().any(|a| a == "--quiet");
    let fine = std::env::args().any(|a| a == "--fine");
    let mut summaries = Vec::new();
    for friction in [Friction::Tribo, Friction::Stock] {
        let cfg = WheelsetConfig::new(friction);
        let t0 = std::time::Instant::now();
        let runs = run_grid(&cfg, fine);
        let elapsed = t0.elapsed().as_secs_f64();
        let band = DEFAULT_BAND * cfg.g as f64;
        if !quiet {
            println!(
                "# {friction:?} friction: mu = {}, dt = 1/{:.0} s, observed {} s",
                cfg.mu,
                1.0 / cfg.dt,
                cfg.duration
            );
            println!(
                "{:>5} {:>5} {:>4} | {:>4} {:>10} {:>8} | {:>3} {:>6} {:>7} {:>7} {:>7} {:>7} | agree",
                "f", "m_y", "d", "real", "trans", "margin", "sim", "angle", "slip+", "slip-", "gap+", "gap-"
            );
            for r in &runs {
                let tr: Vec<&str> = r.predicted_transitions.iter().map(|t| t.as_str()).collect();
                let pred = match r.predicted_realizable {
                    Some(true) => "yes",
                    Some(false) => "no",
                    None => "n/a",
                };
                let verdict = if r.margin.abs() < band {
                    "excluded (near boundary)"
                } else if r.agrees() {
                    "yes"
                } else {
                    "NO"
                };
                println!(
                    "{:>5.2} {:>5.3} {:>4.1} | {:>4} {:>10} {:>8.3} | {:>3} {:>6.1} {:>7.4} {:>7.4} {:>7.4} {:>7.4} | {}",
                    r.load[0], r.load[1], r.load[2], pred, tr.join(","), r.margin, r.outcome.as_str(),
                    r.direction_error, r.max_slip[0], r.max_slip[1], r.max_gap[0], r.max_gap[1], verdict
                );
            }
        }
        let a = agreement(&runs, DEFAULT_BAND, cfg.g as f64);
        summaries.push(format!(
            "{friction:?}: agreement {}/{} = {:.1} % (keeps rolling or not: {}/{} = {:.1} %); {} runs with |margin| < {} g excluded; \
             slip direction vs predicted escape: median {:.1} deg, max {:.1} deg; {} loads, {:.1} s",
            a.agree, a.counted, 100.0 * a.rate(), a.agree_rolling, a.counted, 100.0 * a.rolling_rate(), a.excluded, DEFAULT_BAND,
            a.direction_error.0, a.direction_error.1, runs.len(), elapsed
        ));
    }
    println!();
    for s in summaries {
        println!("{s}");
    }
}
