//! T2 — disk rolling on a flat surface (docs/tracking.md §7 T2; paper §4.2, Figs. 8–10).
//!
//! Disk = sphere R = 0.2, m = 5, isotropic I = 0.1, v0 = 5 m/s, K_E = 1e5, μs = 0.25, μk = 0.2,
//! K_R = 1600 (explicit, docs/tracking.md §8 item 10), thresholds (2c) for a plane, critical damping.

use tribo::tracking::Mode;
use tribo_lab::tracking::experiments::{disk, disk_analytic, disk_legacy, DISK_R};

mod common;
use common::rel;

/// Kinetic roll torque T_k = K_R Θ^d = 1600 · μk N/(2 R K_E) = 0.392 N·m (docs/tracking.md T2a).
const T_K: f64 = 1600.0 * 0.2 * 49.0 / (2.0 * 0.2 * 1e5);

#[test]
fn t2a_disk_matches_analytic_and_stops() {
    assert!((T_K - 0.392).abs() < 1e-12);
    let (t_star, t_stop, dist) = disk_analytic(5.0, T_K);
    // The analytic oracle itself reproduces the model notes' table (0.9812 s, 12.755 s, 22.076 m).
    assert!((t_star - 0.9812).abs() < 1e-4 && (t_stop - 12.755).abs() < 1e-3 && (dist - 22.076).abs() < 1e-3);

    let run = disk(5.0, 1.0, 14.0).unwrap();
    // Paper claim 1: slide saturates at once (E_f = μk m g = 9.8 N).
    let early = &run.samples[100];
    assert_eq!(early.slide, Mode::Kinetic);
    assert!(rel(early.ef.abs(), 9.8) < 1e-9, "E_f = {}", early.ef);
    // Emulator: roll goes kinetic at 7.6 ms (±1 step).
    let roll_k = run.samples.iter().find(|s| s.roll == Mode::Kinetic).unwrap().t;
    assert!((roll_k - 0.0076).abs() <= 1.01e-4, "roll→k at {roll_k}");
    // Paper claim 2: θ̇ grows while slipping.
    assert!(run.samples[5000].omega > run.samples[1000].omega && run.samples[1000].omega > 0.0);
    // t*, t_stop, distance within 0.5 % of the analytic piecewise solution (docs/tracking.md T2a).
    let ts = run.t_star().unwrap();
    let tp = run.t_stop().unwrap();
    let x = run.last().x;
    assert!(rel(ts, t_star) < 5e-3, "t* = {ts} vs {t_star}");
    assert!(rel(tp, t_stop) < 5e-3, "t_stop = {tp} vs {t_stop}");
    assert!(rel(x, dist) < 5e-3, "distance = {x} vs {dist}");
    // Emulator values (t* = 0.9837, t_stop = 12.7397, x = 22.028): same algorithm, ±2 ms / 1 mm.
    assert!((ts - 0.9837).abs() < 2e-3 && (tp - 12.7397).abs() < 2e-3 && (x - 22.028).abs() < 1e-3);
    // Rolling phase: v − Rω ≈ 0 and roll stays kinetic.
    for s in run.window(2.0, 12.0) {
        assert!((s.v - DISK_R * s.omega).abs() < 1e-4, "slip {} at {}", s.v - DISK_R * s.omega, s.t);
        assert_eq!(s.roll, Mode::Kinetic);
        assert_eq!(s.slide, Mode::Static);
    }
    // After the stop everything relaxes: at t = 14 s |E_f|, |𝒯_E|, |v|, |ω| < 1e-8 (Fig. 10b).
    let l = run.last();
    assert!(l.ef.abs() < 1e-8 && l.roll_elastic.abs() < 1e-8, "E_f {} T_E {}", l.ef, l.roll_elastic);
    assert!(l.v.abs() < 1e-8 && l.omega.abs() < 1e-8, "v {} ω {}", l.v, l.omega);
    assert_eq!(l.slide, Mode::Static);
    assert_eq!(l.roll, Mode::Static);
    // `window` never panics: reversed, negative and past-the-end ranges are clamped.
    assert!(run.window(3.0, 2.0).is_empty() && run.window(-2.0, -1.0).is_empty());
    let w = run.window(13.5, 99.0);
    assert_eq!((w.first().unwrap().t, w.last().unwrap().t), (13.5, l.t));
}

#[test]
fn t2b_damping_sweep_is_monotone() {
    // docs/tracking.md T2b: scaling K_D and D_R by 0.6, 1.0, 1.5 × critical: larger damping → smaller
    // overshoot and earlier stop (emulator: last |v| > 1e-6 at 13.130 / 12.983 / 12.873 s;
    // min v after the stop −2.77e-3 / −2.24e-3 / −1.80e-3 m/s).
    let runs: Vec<_> = [0.6, 1.0, 1.5].iter().map(|&k| disk(5.0, k, 14.0).unwrap()).collect();
    let last: Vec<f64> = runs.iter().map(|r| r.last_moving(1e-6)).collect();
    let minv: Vec<f64> = runs.iter().map(|r| r.min_v_after_stop()).collect();
    assert!(last[0] > last[1] && last[1] > last[2], "last moving {last:?}");
    assert!(minv[0] < minv[1] && minv[1] < minv[2] && minv[2] < 0.0, "overshoot {minv:?}");
    // Overshoot: v changes sign before settling, in every run.
    for (r, (&lm, &mv)) in runs.iter().zip(last.iter().zip(&minv)) {
        assert!(mv < -1e-4);
        assert!(lm < 14.0 && r.last().v.abs() < 1e-6);
    }
    for (m, e) in last.iter().zip([13.130, 12.983, 12.873]) {
        assert!((m - e).abs() < 0.02, "last moving {m} vs emulator {e}");
    }
    for (m, e) in minv.iter().zip([-2.77e-3, -2.24e-3, -1.80e-3]) {
        assert!(rel(*m, e) < 0.02, "min v {m} vs emulator {e}");
    }
}

#[test]
fn t2c_legacy_roll_chatters_history_model_stops() {
    // docs/tracking.md T2c: constant roll torque (8) with μ_r = 0.1: |M_r| = μ_r R N = 0.98 N·m; analytic
    // nominal t* = 1.2755 s, t_stop = 5.102 s (the T2a formula with T = 0.98).
    let (t_star, t_stop, _) = disk_analytic(5.0, 0.98);
    assert!((t_star - 1.2755).abs() < 1e-4 && (t_stop - 5.102).abs() < 1e-3);
    let legacy = disk_legacy(5.0, 7.0).unwrap();
    assert!(rel(legacy.t_star().unwrap(), t_star) < 5e-3);
    assert!(rel(legacy.t_stop().unwrap(), t_stop) < 5e-3);
    // After the stop the legacy torque keeps flipping sign, ω flips sign (chatter).
    let tail = legacy.window(5.5, 7.0);
    let omega_flips = tail.windows(2).filter(|w| w[0].omega * w[1].omega < 0.0).count();
    assert!(omega_flips > tail.len() / 4, "ω flips {omega_flips} of {}", tail.len());
    // The roll part of the torque is ±0.98 N·m; the slide part is small and static.
    let big = tail.iter().filter(|s| (s.torque_y.abs() - 0.98).abs() < 0.05).count();
    assert!(big > tail.len() / 2, "{big} of {}", tail.len());
    // The history model (T2a) instead ends with zero torque and zero motion.
    let hist = disk(5.0, 1.0, 14.0).unwrap();
    let h = hist.window(13.5, 14.0);
    assert!(h.iter().all(|s| s.torque_y.abs() < 1e-6 && s.omega.abs() < 1e-6));
    // A decaying relaxation may cross zero once or twice, never step-by-step chatter.
    assert!(h.windows(2).filter(|w| w[0].omega * w[1].omega < 0.0).count() < 5);
}
