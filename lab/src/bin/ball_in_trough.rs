//! Ball in a right-angle trough in rapier (docs/realizability.md §4): for a grid of
//! constant torques, the realizability prediction of `tribo_rapier::diagnostics` (built from
//! rapier's own data) next to what the simulation did, with tribo friction and with stock
//! rapier friction, and the agreement rates. Scene, measurement and agreement rule:
//! `tribo_lab::rapier::trough`.
//!
//! `cargo run --release -p tribo_lab --bin ball_in_trough` (add `-- --quiet` for the summaries only).

use tribo_lab::rapier::scenarios::Friction;
use tribo_lab::rapier::trough::{agreement, run_grid, TroughConfig, DEFAULT_BAND};

fn main() {
    let quiet = std::env::args().any(|a| a == "--quiet");
    let mut summaries = Vec::new();
    for friction in [Friction::Tribo, Friction::Stock] {
        let cfg = TroughConfig::new(friction);
        let t0 = std::time::Instant::now();
        let runs = run_grid(&cfg);
        let elapsed = t0.elapsed().as_secs_f64();
        let band = DEFAULT_BAND * cfg.g as f64;
        if !quiet {
            println!(
                "# {friction:?} friction: mu = {}, dt = 1/{:.0} s, observed {} s after the torque onset",
                cfg.mu,
                1.0 / cfg.dt,
                cfg.duration
            );
            println!("# prediction: realizable? / transitions that can start / margin [m/s^2] / labels of the escape directions");
            println!("# simulation: outcome, angle to the nearest predicted escape direction [deg], max slip speed at P+ and P- [m/s]");
            println!(
                "{:>5} {:>5} {:>5} | {:>5} {:>8} {:>8} {:>8} | {:>3} {:>6} {:>7} {:>7} | agree",
                "m_x", "m_y", "m_z", "real", "trans", "margin", "labels", "sim", "angle", "slip+", "slip-"
            );
            for r in &runs {
                let tr: Vec<&str> = r.predicted_transitions.iter().map(|t| t.as_str()).collect();
                let lb: Vec<&str> = r.predicted_outcomes.iter().map(|t| t.as_str()).collect();
                let pred = r.predicted_realizable.map_or("n/a".to_string(), |b| {
                    if b {
                        "yes".into()
                    } else {
                        "no".into()
                    }
                });
                let verdict = if r.margin.abs() < band {
                    "excluded (near boundary)"
                } else if r.agrees() {
                    "yes"
                } else if r.predicted_realizable == Some(false) && r.analytic_possible {
                    "NO (possible but not realizable: the solver held rolling)"
                } else {
                    "NO"
                };
                println!(
                    "{:>5.2} {:>5.2} {:>5.2} | {:>5} {:>8} {:>8.3} {:>8} | {:>3} {:>6.1} {:>7.4} {:>7.4} | {}",
                    r.m[0], r.m[1], r.m[2], pred, tr.join(","), r.margin, lb.join(","), r.outcome.as_str(), r.direction_error,
                    r.max_slip[0], r.max_slip[1], verdict
                );
            }
        }
        let a = agreement(&runs, DEFAULT_BAND, cfg.g as f64);
        summaries.push(format!(
            "{friction:?}: agreement {}/{} = {:.1} % (keeps rolling or not: {}/{} = {:.1} %); {} runs with |margin| < {} g excluded; \
             slip direction vs predicted escape: median {:.1} deg, max {:.1} deg; diagnostic = analytic closed form on {}/{}; {:.1} s",
            a.agree, a.counted, 100.0 * a.rate(), a.agree_rolling, a.counted, 100.0 * a.rolling_rate(), a.excluded, DEFAULT_BAND,
            a.direction_error.0, a.direction_error.1, a.analytic_match, a.counted, elapsed
        ));
    }
    println!();
    for s in summaries {
        println!("{s}");
    }
}
