//! Ball in a right-angle trough in rapier (issue 5): the diagnostic's prediction against what
//! the simulation does, over the torque grid and on single-axis torques with the analytic
//! thresholds of docs/realizability.md §4.6.

use tribo_lab::rapier::scenarios::Friction;
use tribo_lab::rapier::trough::{agreement, run, run_grid, Outcome, TroughConfig, DEFAULT_BAND};

/// Grid agreement thresholds. Measured (dt = 1/480, 0.3 s, band 0.02 g): tribo 1087/1091 =
/// 99.6 %, stock 1087/1091 = 99.6 %, all four disagreements at m = ±(0.4, −0.4, ±0.3), where
/// the solver slips 4–5× slower than the predicted onset and stays under the detection
/// threshold within 0.3 s. 0.98 allows ~20 more borderline runs (solver-order or platform
/// differences) while a wrong sign or a swapped P⁺/P⁻ in the diagnostic (which flips whole
/// faces of the region, > 10 % of the grid) fails.
const MIN_AGREEMENT: f64 = 0.98;

#[test]
fn grid_agreement_tribo_and_stock() {
    for friction in [Friction::Tribo, Friction::Stock] {
        let cfg = TroughConfig::new(friction);
        let runs = run_grid(&cfg);
        assert_eq!(runs.len(), 1125);
        assert!(runs.iter().all(|r| !r.nan));
        let a = agreement(&runs, DEFAULT_BAND, cfg.g as f64);
        // Near-boundary band: measured 34 of 1125 runs.
        assert!(a.excluded < 60, "{friction:?}: {a:?}");
        // The diagnostic built from rapier data equals the independent closed form of the model notes
        // §7.2 B10 (RS_ok ∧ SR_ok ∧ possible) on every run outside the band.
        assert_eq!(a.analytic_match, a.counted, "{friction:?}: {a:?}");
        assert!(a.rate() >= MIN_AGREEMENT, "{friction:?}: agreement {:.4} ({a:?})", a.rate());
        assert!(a.rolling_rate() >= MIN_AGREEMENT, "{friction:?}: {a:?}");
        // Slip starts along a predicted escape direction: measured median ≈ 1°, max 9.3°.
        assert!(a.direction_error.0 < 3.0 && a.direction_error.1 < 20.0, "{friction:?}: {a:?}");
        // Both outcomes occur in numbers (the grid straddles the region).
        let rr = runs.iter().filter(|r| r.outcome == Outcome::RR).count();
        assert!(rr > 100 && rr < 1000, "{rr} rolling runs");
    }
}

/// Single-axis torques (docs/realizability.md §4.6, μ = 0.3, j = 2/5): drive `(M̂, −M̂, 0)` realizable iff
/// `M̂ < μ(1 + 2j) = 0.54`; twist `(M̂, M̂, 0)` iff `M̂ < μ = 0.3`; spin `(0, 0, m_z)` iff
/// `m_z < 2μ/(1 + μ²) = 0.5504587`. At 0.9× the threshold the ball must keep rolling, at 1.2×
/// it must slip, and the diagnostic must say so.
#[test]
fn single_axis_torques_against_analytic_thresholds() {
    let mu = 0.3;
    let j = 0.4;
    type Ray = fn(f64) -> [f64; 3];
    let cases: [(&str, f64, Ray); 3] = [
        ("drive", mu * (1.0 + 2.0 * j), |s| [s, -s, 0.0]),
        ("twist", mu, |s| [s, s, 0.0]),
        ("spin", 2.0 * mu / (1.0 + mu * mu), |s| [0.0, 0.0, s]),
    ];
    for friction in [Friction::Tribo, Friction::Stock] {
        let cfg = TroughConfig::new(friction);
        for (name, threshold, m_of) in cases {
            let inside = run(&cfg, m_of(0.9 * threshold));
            assert_eq!(inside.predicted_realizable, Some(true), "{friction:?} {name} 0.9×");
            assert!(inside.analytic_realizable);
            assert_eq!(inside.outcome, Outcome::RR, "{friction:?} {name} 0.9×: {inside:?}");
            let outside = run(&cfg, m_of(1.2 * threshold));
            assert_eq!(outside.predicted_realizable, Some(false), "{friction:?} {name} 1.2×");
            assert!(!outside.analytic_realizable);
            assert_ne!(outside.outcome, Outcome::RR, "{friction:?} {name} 1.2×: {outside:?}");
            assert!(outside.agrees(), "{friction:?} {name} 1.2×: {outside:?}");
        }
    }
}
