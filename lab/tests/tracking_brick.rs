//! T1 — brick on an incline (docs/tracking.md §7 T1; paper §4.1, Fig. 6).
//!
//! m = 1 kg, μs = 0.25, μk = 0.2, K_E = 1e5, N = m g cos α, g = 9.8, Δt = 1e-4, 1 s.

use tribo::tracking::{Damping, Mode};
use tribo_lab::tracking::experiments::{brick, mean_acceleration, G};

fn critical() -> Damping {
    // K_D = 2√(m K_E) = 632.456 (docs/tracking.md T1 setup, eq. 1c).
    Damping::Fixed(2.0 * (1.0e5_f64).sqrt())
}

mod common;
use common::rel;

#[test]
fn t1a_stick_at_018_damped() {
    let run = brick(0.18, critical(), 1.0).unwrap();
    // docs/tracking.md T1a: derived thresholds 𝒮_s = 2.41042e-5, 𝒮_k = 1.92833e-5, N = 9.64167 N.
    assert!(rel(run.n, 9.64167) < 1e-6, "N = {}", run.n);
    assert!(rel(run.s_static, 2.41042e-5) < 1e-5);
    assert!(rel(run.s_kinetic, 1.92833e-5) < 1e-5);
    // Stays static throughout.
    assert!(run.samples.iter().all(|s| s.slide == Mode::Static));
    let last = run.last();
    // E_f → m g sin α = 1.75449 N (docs/tracking.md T1a, paper 1.75), 1e-6 relative.
    let mgs = G * 0.18_f64.sin();
    assert!(rel(mgs, 1.75449) < 3e-6);
    assert!(rel(last.ef, mgs) < 1e-6, "E_f = {}", last.ef);
    // Final displacement −m g sin α / K_E = −1.75449e-5 m.
    assert!(rel(last.x, -mgs / 1e5) < 1e-6, "x = {}", last.x);
    assert!(last.v.abs() < 1e-9);
    // Emulator: E_f within 0.1 % by t ≈ 0.030 s, no overshoot; max |D_f| ≈ 1.30 N.
    let settled = run.samples.iter().find(|s| rel(s.ef, mgs) < 1e-3).unwrap().t;
    assert!((settled - 0.030).abs() < 0.003, "settled at {settled}");
    assert!(run.samples.iter().all(|s| s.ef <= mgs * (1.0 + 1e-9)), "overshoot");
    let max_df = run.samples.iter().map(|s| s.df.abs()).fold(0.0, f64::max);
    assert!((max_df - 1.30).abs() < 0.01, "max |D_f| = {max_df}");
}

#[test]
fn t1b_undamped_oscillation() {
    let run = brick(0.18, Damping::Fixed(0.0), 1.0).unwrap();
    // Emulator: s→k at 6.2 ms, k→s at 35.5 ms (±1 step), then no further switch.
    let sw = run.switches();
    assert_eq!(sw.len(), 2, "{sw:?}");
    assert_eq!(sw[0].1, Mode::Kinetic);
    assert!((sw[0].0 - 0.0062).abs() <= 1.01e-4, "{sw:?}");
    assert_eq!(sw[1].1, Mode::Static);
    assert!((sw[1].0 - 0.0355).abs() <= 1.01e-4, "{sw:?}");
    // Emulator band after the k→s switch: E_f ∈ [1.5807, 1.9283] N, mean 1.753 ("oscillates
    // around 1.75 N", paper); x ∈ [−98.6, −95.1] µm; never settles.
    let tail: Vec<_> = run.samples.iter().filter(|s| s.t > 0.04).collect();
    let (lo, hi) = tail.iter().fold((f64::MAX, f64::MIN), |(l, h), s| (l.min(s.ef), h.max(s.ef)));
    assert!((lo - 1.5807).abs() < 1e-4 && (hi - 1.9283).abs() < 1e-4, "band [{lo}, {hi}]");
    let mean = tail.iter().map(|s| s.ef).sum::<f64>() / tail.len() as f64;
    assert!((mean - 1.753).abs() < 2e-3, "mean {mean}");
    let (xl, xh) = tail.iter().fold((f64::MAX, f64::MIN), |(l, h), s| (l.min(s.x), h.max(s.x)));
    assert!((xl * 1e6 + 98.6).abs() < 0.1 && (xh * 1e6 + 95.1).abs() < 0.1, "x band [{xl}, {xh}]");
    assert!(hi - lo > 0.3, "oscillation did not persist");
}

#[test]
fn t1c_stick_at_atan_mu_k() {
    let alpha = 0.2_f64.atan();
    let run = brick(alpha, critical(), 1.0).unwrap();
    // docs/tracking.md T1c: N = 9.60969, final E_f = μk N = 1.92194 N, ‖S‖ = 1.92194e-5 < 𝒮_s = 2.40242e-5.
    assert!(rel(run.n, 9.60969) < 1e-6);
    assert!(run.samples.iter().all(|s| s.slide == Mode::Static));
    let last = run.last();
    assert!(rel(last.ef, 0.2 * run.n) < 1e-6 && rel(last.ef, 1.92194) < 3e-6, "E_f = {}", last.ef);
    assert!(rel(last.s_norm, 1.92194e-5) < 3e-6 && last.s_norm < 2.40242e-5);
}

#[test]
fn t1d_stick_at_atan_mu_s() {
    // Strict version at α = atan(μs)(1 − 1e-3): stick, ‖S‖ = 2.37452e-5 (docs/tracking.md T1d note).
    let alpha = 0.25_f64.atan() * (1.0 - 1e-3);
    let run = brick(alpha, critical(), 1.0).unwrap();
    assert!(run.samples.iter().all(|s| s.slide == Mode::Static));
    assert!(rel(run.last().s_norm, 2.37452e-5) < 1e-5, "‖S‖ = {}", run.last().s_norm);
    // Exact angle: knife-edge; only ‖S‖ ≤ 𝒮_s (1 + 1e-9) is asserted (docs/tracking.md T1d).
    let run = brick(0.25_f64.atan(), critical(), 1.0).unwrap();
    assert!(rel(run.n, 9.50740) < 1e-6);
    assert!(rel(run.s_static, 2.37685e-5) < 1e-5);
    assert!(run.samples.iter().all(|s| s.s_norm <= run.s_static * (1.0 + 1e-9)));
}

#[test]
fn t1e_slip_at_025() {
    let run = brick(0.25, critical(), 1.0).unwrap();
    // docs/tracking.md T1e: N = 9.49534; s→k at 18.5 ms (emulator, ±1 step); afterwards kinetic.
    assert!(rel(run.n, 9.49534) < 1e-6);
    let sw = run.switches();
    assert_eq!(sw.len(), 1, "{sw:?}");
    assert_eq!(sw[0].1, Mode::Kinetic);
    assert!((sw[0].0 - 0.0185).abs() <= 1.01e-4, "{sw:?}");
    // E_f = μk m g cos α = 1.89907 N (paper 1.899), 1e-6 relative.
    let ef_k = 0.2 * G * 0.25_f64.cos();
    assert!(rel(ef_k, 1.89907) < 3e-6);
    for s in run.samples.iter().filter(|s| s.t > 0.02) {
        assert!(rel(s.ef, ef_k) < 1e-6, "E_f = {} at {}", s.ef, s.t);
        assert_eq!(s.df, 0.0, "damping must be off in slip (docs/tracking.md §2.3)");
    }
    // Acceleration exactly −g(sin α − μk cos α) = −0.525490 m/s² (paper 0.525), 1e-6 relative.
    let a_exact = -G * (0.25_f64.sin() - 0.2 * 0.25_f64.cos());
    assert!(rel(a_exact, -0.525490) < 2e-6);
    let (a, _) = mean_acceleration(&run.samples, 0.5, 1.0);
    assert!(rel(a, a_exact) < 1e-6, "a = {a}");
    // x(1 s) ≈ −0.25325 m (emulator, damped).
    assert!((run.last().x + 0.25325).abs() < 1e-5, "x = {}", run.last().x);
}

#[test]
fn mean_acceleration_clamps_and_follows_the_sample_step() {
    // Out-of-range times are clamped instead of panicking, and a run with another step is
    // read at its own sample times. Samples of uniform acceleration a = 2 m/s² (v = 2t, an
    // exact analytic ramp) at Δt = 0.5 s: the mean acceleration is exactly 2.
    use tribo_lab::tracking::experiments::PlanarSample;
    let samples: Vec<PlanarSample> = (0..5)
        .map(|k| {
            let t = 0.5 * k as f64;
            PlanarSample { t, v: 2.0 * t, omega: -t, ..Default::default() }
        })
        .collect();
    assert_eq!(mean_acceleration(&samples, 0.5, 1.5), (2.0, -1.0));
    assert_eq!(mean_acceleration(&samples, -3.0, 99.0), (2.0, -1.0));
    assert!(mean_acceleration(&samples[..1], 0.0, 1.0).0.is_nan());
}
