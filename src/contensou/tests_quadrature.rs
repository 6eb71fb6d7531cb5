//! Numerical Contensou integrals (docs/contensou.md §2.7) as the oracle of the exact law (§4.4 items 2, 4),
//! and non-axisymmetric patches.

use crate::contensou::generic::{pade_n1, smooth_n1, GenericPatch};
use crate::contensou::quad::integrate_scalar;
use crate::contensou::{Model, Patch, Pressure, Smooth};
use std::f64::consts::PI;

fn uniform(r: f64, p: f64) -> impl Fn(f64, f64) -> f64 {
    move |_x, _y| p / (PI * r * r)
}
fn hertz(r: f64, p: f64) -> impl Fn(f64, f64) -> f64 {
    move |x, y| 1.5 * p / (PI * r * r) * (1.0 - (x * x + y * y) / (r * r)).max(0.0).sqrt()
}

#[test]
fn gauss_kronrod_exact_on_polynomials_and_handles_singularities() {
    // GK15 integrates degree ≤ 29 exactly: ∫₀¹ x²⁸ = 1/29; ∫₀¹ sqrt(x) = 2/3 (adaptive);
    // ∫₀¹ ln x = −1 (integrable endpoint singularity).
    assert!((integrate_scalar(|x| x.powi(28), 0.0, 1.0, &[], 0.0, 1e-15) - 1.0 / 29.0).abs() < 1e-15);
    assert!((integrate_scalar(|x| x.sqrt(), 0.0, 1.0, &[], 1e-15, 1e-14) - 2.0 / 3.0).abs() < 1e-13);
    assert!(
        (integrate_scalar(|x| if x > 0.0 { x.ln() } else { 0.0 }, 0.0, 1.0, &[], 1e-14, 1e-13) + 1.0).abs()
            < 1e-12
    );
}

#[test]
fn exact_law_matches_2d_quadrature() {
    // docs/contensou.md §4.4 item 2: exact closed forms vs 2D quadrature of §1.2 at ε ∈ {0.1, 0.5, 0.9,
    // 1.5, 5}, rel 1e-9; slip in an arbitrary direction, both spin signs.
    let (r, mu, pn) = (0.3, 0.6, 50.0);
    for pres in [Pressure::Uniform, Pressure::Hertz] {
        let patch = Patch::new(r, mu, pn, pres).unwrap();
        for eps in [0.1, 0.5, 0.9, 1.5, 5.0] {
            for w in [2.0, -2.0] {
                let speed = eps * r * 2.0;
                let slip = [speed * 0.8, -speed * 0.6];
                let exact = patch.resultant(&Model::Exact, slip, w).unwrap();
                let (num, p) = match pres {
                    Pressure::Uniform => {
                        GenericPatch::new(r, r, uniform(r, pn)).unwrap().resultant(mu, slip, w).unwrap()
                    }
                    Pressure::Hertz => {
                        GenericPatch::new(r, r, hertz(r, pn)).unwrap().resultant(mu, slip, w).unwrap()
                    }
                };
                assert!(((p - pn) / pn).abs() < 1e-9, "P = {p}");
                let fm = exact.force[0].hypot(exact.force[1]);
                for i in 0..2 {
                    assert!(
                        (num.force[i] - exact.force[i]).abs() <= 1e-9 * fm,
                        "{pres:?} ε={eps} Q{i}: {} vs {}",
                        num.force[i],
                        exact.force[i]
                    );
                }
                assert!(
                    ((num.torque - exact.torque) / exact.torque).abs() < 1e-9,
                    "{pres:?} ε={eps} T: {} vs {}",
                    num.torque,
                    exact.torque
                );
            }
        }
    }
}

#[test]
fn kappa_and_moments_by_quadrature() {
    // docs/contensou.md §4.4 item 4: κ by quadrature of (39) = 2R/3 (uniform) and 3πR/16 (Hertz).
    let r = 0.7;
    let mu = GenericPatch::new(r, r, uniform(r, 3.0)).unwrap().moments();
    assert!((mu.kappa() - 2.0 * r / 3.0).abs() < 1e-11 && (mu.p - 3.0).abs() < 1e-11);
    let mh = GenericPatch::new(r, r, hertz(r, 3.0)).unwrap().moments();
    assert!((mh.kappa() - 3.0 * PI * r / 16.0).abs() < 1e-10);
    assert!(mh.px.abs() < 1e-12 && mh.py.abs() < 1e-12 && mh.px_over_r.abs() < 1e-12);
}

#[test]
fn non_axisymmetric_patch_pure_motions_reduce_to_moments() {
    // docs/contensou.md §2.7: pure +x slide Q = (−μP, 0), T = +μ∬p y; pure +y slide T = −μ∬p x;
    // pure spin Q = (μ∬p y/r, −μ∬p x/r), T = −μ∬p r. Elliptical patch, tilted linear pressure.
    let (a, b) = (0.4, 0.25);
    let p = |x: f64, y: f64| {
        10.0 * (1.0 + 0.8 * x / a - 0.5 * y / b).max(0.0)
            * (1.0 - (x / a).powi(2) - (y / b).powi(2)).max(0.0).sqrt()
    };
    let g = GenericPatch::new(a, b, p).unwrap();
    let m = g.moments();
    let mu = 0.5;
    let (l, pn) = g.resultant(mu, [2.0, 0.0], 0.0).unwrap();
    assert!((pn - m.p).abs() < 1e-10 * m.p);
    assert!((l.force[0] + mu * m.p).abs() < 1e-10 * m.p && l.force[1].abs() < 1e-10 * m.p);
    assert!((l.torque - mu * m.py).abs() < 1e-10 * m.p);
    let (l, _) = g.resultant(mu, [0.0, 1.0], 0.0).unwrap();
    assert!((l.torque + mu * m.px).abs() < 1e-10 * m.p);
    let (l, _) = g.resultant(mu, [0.0, 0.0], 3.0).unwrap();
    assert!(
        (l.force[0] - mu * m.py_over_r).abs() < 1e-9 * m.p
            && (l.force[1] + mu * m.px_over_r).abs() < 1e-9 * m.p
    );
    assert!((l.torque + mu * m.pr).abs() < 1e-9 * m.pr);
    // the asymmetric patch has a force component perpendicular to the slip ([B] §5: T_υ ≠ 0)
    let (l, _) = g.resultant(mu, [0.2, 0.0], 3.0).unwrap();
    assert!(l.force[1].abs() > 1e-3 * m.p);
}

#[test]
fn generic_pade_n1_reduces_to_circular_model() {
    // [B] (3.4) → (3.5) for a circular axisymmetric patch (off-diagonal moments vanish).
    let r = 0.2;
    let g = GenericPatch::new(r, r, uniform(r, 8.0)).unwrap();
    let m = g.moments();
    let patch = Patch::new(r, 0.3, 8.0, Pressure::Uniform).unwrap();
    for (slip, w) in [([0.1, 0.05], 1.3), ([-0.3, 0.2], -4.0)] {
        let a = pade_n1(&m, 0.3, 2.0, 1.0, r, slip, w);
        let b = patch.resultant(&Model::PADE_KUDRA, slip, w).unwrap();
        assert!((a.force[0] - b.force[0]).abs() < 1e-10 && (a.force[1] - b.force[1]).abs() < 1e-10);
        assert!((a.torque - b.torque).abs() < 1e-10);
        // (4.4) → (4.5): smooth generic model with m = 2 equals the circular smooth model
        let sm = Smooth::new(1e-2, 1.4).unwrap();
        let c = smooth_n1(&m, 0.3, 2.0, 1.0, r, &sm, slip, w);
        let d = patch.resultant(&Model::Smooth(sm), slip, w).unwrap();
        assert!((c.force[0] - d.force[0]).abs() < 1e-10 && (c.force[1] - d.force[1]).abs() < 1e-10);
        assert!((c.torque - d.torque).abs() < 1e-10);
    }
}

#[test]
fn generic_errors() {
    assert!(GenericPatch::new(0.0, 1.0, |_, _| 1.0).is_err());
    let g = GenericPatch::new(1.0, 1.0, |_, _| 1.0).unwrap();
    assert!(g.resultant(0.5, [0.0, 0.0], 0.0).is_err());
    assert!(g.resultant(0.5, [f64::NAN, 0.0], 1.0).is_err());
    assert!(g.resultant(-0.5, [1.0, 0.0], 1.0).is_err());
}
