//! Wheelset on two rails in rapier (docs/realizability.md §3, §3.11): the realizability
//! diagnostic built from rapier's data against what the simulation does, over a grid of
//! lateral, yaw and drive loads, with tribo and with stock rapier friction.

use tribo::realizability::Transition;
use tribo_lab::rapier::scenarios::Friction;
use tribo_lab::rapier::trough::{Outcome, DEFAULT_BAND};
use tribo_lab::rapier::wheelset::{agreement, run, run_grid, WheelsetConfig};

/// Measured (dt = 1/480, 0.3 s, band 0.02 g): tribo 267/267, stock 267/267 outside the band
/// (19 of 286 excluded); 77 realizable loads. 0.98 leaves room for ~5 borderline runs; a
/// swapped contact or a wrong sign in the diagnostic flips whole regions of the grid.
const MIN_AGREEMENT: f64 = 0.98;

#[test]
fn wheelset_grid_agreement_tribo_and_stock() {
    for friction in [Friction::Tribo, Friction::Stock] {
        let cfg = WheelsetConfig::new(friction);
        let runs = run_grid(&cfg, false);
        assert_eq!(runs.len(), 286);
        assert!(runs.iter().all(|r| !r.nan && r.predicted_realizable.is_some()));
        let a = agreement(&runs, DEFAULT_BAND, cfg.g as f64);
        assert!(a.excluded < 30, "{friction:?}: {a:?}");
        assert!(a.rate() >= MIN_AGREEMENT, "{friction:?}: agreement {:.4} ({a:?})", a.rate());
        assert!(a.rolling_rate() >= MIN_AGREEMENT, "{friction:?}: {a:?}");
        // Slip starts near a predicted escape direction: measured median 11°, max 28°.
        assert!(a.direction_error.0 < 20.0, "{friction:?}: {a:?}");
        // The grid straddles the realizable region.
        let real = runs.iter().filter(|r| r.predicted_realizable == Some(true)).count();
        assert!(real > 40 && real < 250, "{real} realizable loads");
    }
}

/// Single loads with a clear answer: at rest and under a small lateral force the wheelset keeps
/// rolling; a yaw torque of 0.3 m g (gauge/2) makes the wheel at x > 0 (`P⁺`, the smaller
/// wheel on the thinner rail) slip alone (SR) along its axle direction; a lateral force of
/// 0.4 m g toward x > 0 makes both wheels slip along the axle (SS).
#[test]
fn wheelset_single_loads() {
    let cfg = WheelsetConfig::new(Friction::Tribo);
    for load in [[0.0, 0.0, 0.0], [0.1, 0.0, 0.0], [-0.2, 0.0, 0.3]] {
        let r = run(&cfg, load);
        assert_eq!(r.predicted_realizable, Some(true), "{load:?}: {r:?}");
        assert_eq!(r.outcome, Outcome::RR, "{load:?}: {r:?}");
        assert!(r.agrees());
    }
    let r = run(&cfg, [0.0, 0.3, 0.0]);
    assert_eq!(r.predicted_transitions, vec![Transition::SR], "{r:?}");
    assert_eq!(r.outcome, Outcome::SR, "{r:?}");
    assert!(r.direction_error < 5.0 && r.agrees(), "{r:?}");
    let r = run(&cfg, [0.4, 0.0, 0.0]);
    assert_eq!(r.predicted_transitions, vec![Transition::SS], "{r:?}");
    assert_eq!(r.outcome, Outcome::SS, "{r:?}");
    let d = r.measured_direction.unwrap();
    assert!(d.z.abs() > 0.99 && r.agrees(), "{r:?}");
}
