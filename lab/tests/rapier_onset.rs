//! The two-contact monitor and tribo's slide modes at the onset of slip (issue 39,
//! docs/realizability.md §9.1, §9.2): the ball in the trough tilted by 10° (`TILT_DEG`), whose
//! two-point rolling needs `μ ≥ μ* = √2 j tan θ/(1 + 2j) = 0.0554` (j = 2/5,
//! docs/realizability.md §4.6 with the axial load `m g sin θ` as the only drive). Below μ* no
//! rolling at both walls exists whatever the ball does, so the verdict is "not realizable" at
//! every step, with the transitions of the offline analysis of the same input
//! (`OnsetConfig::offline`, built from the closed-form trough of `Trough::tilted_problem`, not
//! from rapier data). At μ = 0.5 (9 μ*) rolling is realizable.
//!
//! Every case at the user's steps 1/60 and 1/240, rapier's default integration parameters.

use tribo::realizability::Status;
use tribo::tracking::Mode;
use tribo_lab::rapier::onset::{run, OnsetConfig};
use tribo_lab::rapier::trough::tilted_roll_mu;

/// Below μ*: 0.9 μ*.
const LOW: f64 = 0.05;
/// Above μ*.
const HIGH: f64 = 0.5;

/// `(dt, steps)`: one second at each step.
const STEPS: [(f32, usize); 2] = [(1.0 / 60.0, 60), (1.0 / 240.0, 240)];

#[test]
fn low_mu_is_not_realizable_from_the_first_step_at_rest_and_rolling() {
    assert!(LOW < tilted_roll_mu() && HIGH > tilted_roll_mu());
    for (dt, n) in STEPS {
        for v0 in [0.0, 1.0] {
            let cfg = OnsetConfig::new(dt, v0, LOW, n);
            let offline = cfg.offline();
            assert_eq!(offline.status, Status::NotRealizable);
            let r = run(&cfg);
            assert!(!r.nan);
            let first = &r.steps[0];
            assert_eq!(first.status, Some(Status::NotRealizable), "dt {dt} v0 {v0}: {first:?}");
            assert_eq!(first.transitions, offline.transitions, "dt {dt} v0 {v0}");
            assert!(first.changed);
            // The verdict holds on every step and is reported once (it never changes).
            assert_eq!(r.first_realizable(1), None, "dt {dt} v0 {v0}");
            assert_eq!(r.changes(), vec![1], "dt {dt} v0 {v0}");
            // tribo's slide modes follow at once: both contacts kinetic from step 1 (every
            // transition makes P⁻ or P⁺ slip, and SS both).
            assert_eq!(r.first_kinetic(1), Some(1), "dt {dt} v0 {v0}");
            assert!(r.steps.iter().all(|s| s.modes == [Some(Mode::Kinetic); 2]), "dt {dt} v0 {v0}");
        }
    }
}

/// μ lowered below μ* while the ball rolls (after half a second): the verdict turns at the first
/// step with the new μ, and tribo's contacts are kinetic within one step of it.
#[test]
fn mu_lowered_while_rolling_kinetic_within_one_step_of_the_verdict() {
    for (dt, n) in STEPS {
        let at = n / 2;
        let r = run(&OnsetConfig::new(dt, 0.0, HIGH, n).change_after(at, LOW));
        assert!(!r.nan);
        // Rolling before: realizable, both static.
        assert_eq!(r.first_not_realizable(1), Some(at + 1), "dt {dt}");
        assert_eq!(r.steps[at - 1].modes, [Some(Mode::Static); 2], "dt {dt}");
        let kinetic = r.first_kinetic(at + 1).expect("kinetic after the change");
        assert!(kinetic.abs_diff(at + 1) <= 1, "dt {dt}: verdict at {}, kinetic at {kinetic}", at + 1);
        // Reported twice: the first step and the change.
        assert_eq!(r.changes(), vec![1, at + 1], "dt {dt}");
    }
}

/// μ raised above μ* while the ball slides (after half a second): the verdict turns
/// "realizable" at the first step with the new μ, and the contacts are static within one step
/// of it once the slip has stopped (kinetic friction at μ = 0.5 stops a slip of ~8 cm/s in
/// `Δv (1 + 1/(2j))⁻¹ / (μ_eff g)` ≈ 5 ms, within one 1/60 step and two 1/240 steps).
#[test]
fn mu_raised_while_sliding_static_within_one_step_of_the_verdict() {
    for (dt, n) in STEPS {
        let at = n / 2;
        let r = run(&OnsetConfig::new(dt, 0.0, LOW, n).change_after(at, HIGH));
        assert!(!r.nan);
        assert_eq!(r.steps[at - 1].modes, [Some(Mode::Kinetic); 2], "dt {dt}");
        assert_eq!(r.first_realizable(1), Some(at + 1), "dt {dt}");
        let stopped = r.first_slip_below(at + 1, 0.005).expect("the slip stops");
        let statik = r.first_static(at + 1).expect("static after the change");
        assert!(
            statik <= (at + 1).max(stopped) + 1,
            "dt {dt}: realizable at {}, slip stopped at {stopped}, static at {statik}",
            at + 1
        );
        // And stays static (no stale kinetic threshold).
        assert!(r.steps[statik - 1..].iter().all(|s| s.modes == [Some(Mode::Static); 2]), "dt {dt}");
        assert_eq!(r.changes(), vec![1, at + 1], "dt {dt}");
    }
}
