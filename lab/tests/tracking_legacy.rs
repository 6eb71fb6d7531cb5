//! App. A legacy baselines (docs/tracking.md §6.1): magnitudes and caps of the formulas.

use tribo::DVec3;
use tribo_lab::tracking::legacy::*;

#[test]
fn constant_roll_torque_eq_8() {
    // M_r = −ω̂_r μ_r R F_n (8); T2c: μ_r = 0.1, R = 0.2, N = 49 → 0.98 N·m.
    let t = constant_roll_torque(DVec3::new(0.0, 3.0, 0.5), DVec3::ZERO, DVec3::Z, 0.1, 0.2, 49.0);
    assert!((t - DVec3::new(0.0, -0.98, 0.0)).length() < 1e-12, "{t}");
    // Spin part excluded (9)–(10); zero rate → zero torque.
    assert_eq!(constant_roll_torque(DVec3::Z, DVec3::ZERO, DVec3::Z, 0.1, 0.2, 49.0), DVec3::ZERO);
    let (r, sp) = split_rotation(DVec3::new(1.0, 2.0, 3.0), DVec3::new(0.0, 0.0, 1.0), DVec3::Z);
    assert_eq!((r, sp), (DVec3::new(1.0, 2.0, 0.0), DVec3::new(0.0, 0.0, 2.0)));
}

#[test]
fn spring_models_cap_at_their_capacity() {
    // Cundall–Strack: |F| ≤ μ|F_n| once sliding, dashpot off then.
    let mut cs = CundallStrack::default();
    let f = cs.step(DVec3::X * 1e-3, 1e-4, 1e5, 10.0, 0.5, 10.0);
    assert!((f - DVec3::X * (-1e5 * 1e-7 - 10.0 * 1e-3)).length() < 1e-12);
    let mut f = DVec3::ZERO;
    for _ in 0..10_000 {
        f = cs.step(DVec3::X, 1e-4, 1e5, 10.0, 0.5, 10.0);
    }
    assert!((f.length() - 5.0).abs() < 1e-9 && f.x < 0.0);
    // Spring–dashpot rolling: capped at μ_r R F_n.
    let mut sd = SpringDashpotRoll::default();
    let mut m = DVec3::ZERO;
    for _ in 0..10_000 {
        m = sd.step(DVec3::Y, 1e-4, 100.0, 1.0, 0.98);
    }
    assert!((m.length() - 0.98).abs() < 1e-12 && m.y < 0.0);
    // Marshall spin: capped at (2/3) μ F_n a.
    let mut ms = MarshallSpin::default();
    let mut t = 0.0;
    for _ in 0..10_000 {
        t = ms.step(2.0, 1e-4, 1.0, 0.1, MarshallSpin::capacity(0.3, 10.0, 0.01));
    }
    assert!((t + 2.0 / 3.0 * 0.3 * 10.0 * 0.01).abs() < 1e-15);
    // Lubkin: (3π/16) μ F a.
    assert!((lubkin_spin_moment(0.3, 10.0, 0.01) - 3.0 * std::f64::consts::PI / 16.0 * 0.03).abs() < 1e-15);
}
