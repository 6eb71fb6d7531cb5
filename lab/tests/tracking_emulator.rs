//! Cross-check against the model notes' reduced planar reference emulator (docs/tracking.md Appendix Z,
//! ported line by line below): in the planar tests the 3D algorithm reduces exactly to the
//! emulator's equations (ψ = 0, sphere arc = R|Δθ|), so whole trajectories must agree to
//! rounding, not just the tabulated numbers.

use tribo::tracking::Damping;
use tribo_lab::tracking::experiments::{brick, disk, sphere_incline, spinning_sphere_heuristic, DT, G};

/// `Cap` of Appendix Z: capped spring with s/k state machine (scalar).
struct Cap {
    k: f64,
    d: f64,
    th_s: f64,
    th_k: f64,
    h: f64,
    stick: bool,
    inc: f64,
}

impl Cap {
    fn new(k: f64, d: f64, th_s: f64, th_k: f64) -> Self {
        Cap { k, d, th_s, th_k, h: 0.0, stick: true, inc: 0.0 }
    }
    fn update(&mut self, inc: f64) {
        self.inc = inc;
        self.h += inc;
        let mag = self.h.abs();
        if self.stick {
            if mag > self.th_s {
                self.h *= self.th_s / mag;
                self.stick = false;
            }
        } else if mag > self.th_k {
            self.h *= self.th_k / mag;
        } else {
            self.stick = true;
        }
    }
    fn total(&self, dt: f64) -> f64 {
        self.k * self.h + if self.stick { self.d * self.inc / dt } else { 0.0 }
    }
}

/// `run_planar` of Appendix Z, returning (x, v, ω) after every step.
#[allow(clippy::too_many_arguments)]
fn run_planar(
    m: f64,
    i: f64,
    r: f64,
    alpha: f64,
    (mu_s, mu_k): (f64, f64),
    (k_e, k_d): (f64, f64),
    (k_r, d_r, th_s, th_k): (f64, f64, f64, f64),
    v0: f64,
    t: f64,
    rotating: bool,
) -> Vec<(f64, f64, f64)> {
    let n = m * G * alpha.cos();
    let mut slide = Cap::new(k_e, k_d, mu_s * n / k_e, mu_k * n / k_e);
    let mut roll = Cap::new(k_r, d_r, th_s, th_k);
    let (mut x, mut th, mut v, mut w, mut f, mut tq) = (0.0, 0.0, v0, 0.0, 0.0, 0.0);
    let mut out = Vec::new();
    for _ in 0..(t / DT).round() as usize {
        let a = (-m * G * alpha.sin() - f) / m;
        let wd = if rotating { (r * f - tq) / i } else { 0.0 };
        v += DT * a;
        let x1 = x + DT * v;
        w += DT * wd;
        let th1 = th + DT * w;
        let p_i = x1 - x;
        let p_j = if rotating { r * (th1 - th) } else { 0.0 };
        slide.update(p_i - p_j);
        roll.update(if rotating { th1 - th } else { 0.0 });
        f = slide.total(DT);
        tq = if rotating { roll.total(DT) } else { 0.0 };
        x = x1;
        th = th1;
        out.push((x, v, w));
    }
    out
}

fn assert_same(name: &str, emu: &[(f64, f64, f64)], ours: impl Iterator<Item = (f64, f64, f64)>, tol: f64) {
    let mut n = 0;
    for (k, (e, o)) in emu.iter().zip(ours).enumerate() {
        for (a, b, what) in [(e.0, o.0, "x"), (e.1, o.1, "v"), (e.2, o.2, "ω")] {
            assert!(
                (a - b).abs() <= tol * (1.0 + a.abs()),
                "{name}: {what} differs at step {}: emulator {a} vs 3D {b}",
                k + 1
            );
        }
        n += 1;
    }
    assert_eq!(n, emu.len());
}

#[test]
fn brick_trajectories_match_emulator() {
    for (alpha, kd) in [(0.18, 2.0 * 1e5f64.sqrt()), (0.18, 0.0), (0.25, 2.0 * 1e5f64.sqrt())] {
        let emu =
            run_planar(1.0, 1.0, 0.0, alpha, (0.25, 0.2), (1e5, kd), (0.0, 0.0, 0.0, 0.0), 0.0, 1.0, false);
        let ours = brick(alpha, Damping::Fixed(kd), 1.0).unwrap();
        assert_same("brick", &emu, ours.samples[1..].iter().map(|s| (s.x, s.v, 0.0)), 1e-9);
    }
}

#[test]
fn disk_and_sphere_trajectories_match_emulator() {
    // T2a disk (K_R = 1600, D_R = 2√(0.1·1600), Θ = μN/(2RK_E)), first 3 s.
    let n = 5.0 * G;
    let emu = run_planar(
        5.0,
        0.1,
        0.2,
        0.0,
        (0.25, 0.2),
        (1e5, 2.0 * (5.0f64 * 1e5).sqrt()),
        (1600.0, 2.0 * (0.1f64 * 1600.0).sqrt(), 0.25 * n / (0.4 * 1e5), 0.2 * n / (0.4 * 1e5)),
        5.0,
        3.0,
        true,
    );
    let ours = disk(5.0, 1.0, 3.0).unwrap();
    assert_same("disk", &emu, ours.samples[1..].iter().map(|s| (s.x, s.v, s.omega)), 1e-9);
    // T3a sphere at 35°, η_r = 0.3, critical damping, 1 s.
    let a = 35f64.to_radians();
    let n = 5.0 * G * a.cos();
    let k_r = 4.0 * 0.3 * 0.04 * 1e5;
    let emu = run_planar(
        5.0,
        0.08,
        0.2,
        a,
        (0.25, 0.2),
        (1e5, 2.0 * (5.0f64 * 1e5).sqrt()),
        (k_r, 2.0 * (0.08 * k_r).sqrt(), 0.25 * n / (0.4 * 1e5), 0.2 * n / (0.4 * 1e5)),
        0.5,
        1.0,
        true,
    );
    let ours = sphere_incline(35.0, 0.3, 1.0, 0.5, DT, 1.0).unwrap();
    assert_same("sphere 35°", &emu, ours.samples[1..].iter().map(|s| (s.x, s.v, s.omega)), 1e-9);
}

#[test]
fn spin_trajectory_matches_emulator() {
    // run_spin of Appendix Z with the T4 parameters (η_ψ = 0.01, 𝒦 = 5).
    let (i, n, k_e, kap, eta) = (0.08, 49.0, 1e5, 5.0, 0.01);
    let k_psi = eta * k_e / (kap * kap);
    let mut sp = Cap::new(k_psi, 2.0 * (i * k_psi).sqrt(), kap * 0.25 * n / k_e, kap * 0.2 * n / k_e);
    let (mut w, mut tq) = (1.0, 0.0);
    let ours = spinning_sphere_heuristic(eta, 8.0).unwrap();
    for (k, s) in ours.samples[1..].iter().enumerate() {
        w += DT * (-tq / i);
        sp.update(DT * w);
        tq = sp.total(DT);
        assert!((s.omega - w).abs() < 1e-9, "step {}: {} vs {w}", k + 1, s.omega);
    }
}
