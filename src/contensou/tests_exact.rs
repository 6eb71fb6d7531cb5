//! Exact Contensou law of a circular patch: docs/contensou.md §2 (closed forms, series, robust algorithm).

use crate::contensou::elliptic::{carlson_rd, carlson_rf, ellip_e, ellip_k, ellip_ke_agm};
use crate::contensou::exact::{q_t_of_eps, reduced, REFERENCE_TABLE};
use crate::contensou::Pressure::{self, Hertz, Uniform};
use std::f64::consts::PI;

fn rel(a: f64, b: f64) -> f64 {
    if b == 0.0 {
        a.abs()
    } else {
        ((a - b) / b).abs()
    }
}

#[test]
fn reference_table_rel_1e12() {
    for row in REFERENCE_TABLE {
        let (qu, tu) = q_t_of_eps(Uniform, row[0]);
        let (qh, th) = q_t_of_eps(Hertz, row[0]);
        for (got, want, what) in
            [(qu, row[1], "uQ"), (tu, row[2], "uT"), (qh, row[3], "hQ"), (th, row[4], "hT")]
        {
            assert!(
                rel(got, want) <= 1e-12,
                "{what} at eps={}: got {got:e} want {want:e} rel {:e}",
                row[0],
                rel(got, want)
            );
        }
    }
}

#[test]
fn eps_one_constants() {
    // model-notes key results: uniform 8/(3π), 4/(3π); Hertz 9π/32, 3/8.
    let (q, t) = q_t_of_eps(Uniform, 1.0);
    assert!(rel(q, 8.0 / (3.0 * PI)) < 1e-15 && rel(t, 4.0 / (3.0 * PI)) < 1e-15);
    let (q, t) = q_t_of_eps(Hertz, 1.0);
    assert!(rel(q, 9.0 * PI / 32.0) < 1e-15 && rel(t, 0.375) < 1e-15);
    // ε = 1 ± 1e-12 must be continuous with the special case (docs/contensou.md §2.4)
    for p in [Uniform, Hertz] {
        let c = q_t_of_eps(p, 1.0);
        for e in [1.0 - 1e-12, 1.0 + 1e-12] {
            let v = q_t_of_eps(p, e);
            assert!((v.0 - c.0).abs() < 1e-11 && (v.1 - c.1).abs() < 1e-11, "{p:?} {e}");
        }
    }
}

#[test]
fn branch_continuity_at_region_boundaries() {
    // docs/contensou.md §4.4 item 1: series/closed-form continuity at ε = 1/4, 1, 4 within 1e-13.
    for p in [Uniform, Hertz] {
        for e in [0.25f64, 1.0, 4.0] {
            let lo = q_t_of_eps(p, e * (1.0 - 1e-15));
            let hi = q_t_of_eps(p, e * (1.0 + 1e-15));
            assert!((lo.0 - hi.0).abs() <= 1e-13, "{p:?} Q jump at {e}: {:e}", lo.0 - hi.0);
            assert!((lo.1 - hi.1).abs() <= 1e-13, "{p:?} T jump at {e}: {:e}", lo.1 - hi.1);
        }
    }
}

#[test]
fn uniform_reciprocity_identity() {
    // docs/contensou.md §2.1 derived identity: 𝒬(ε) = ε 𝒬(1/ε) (uniform).
    let mut e = 1e-6;
    while e < 1.0 {
        let a = q_t_of_eps(Uniform, e).0;
        let b = e * q_t_of_eps(Uniform, 1.0 / e).0;
        assert!(rel(a, b) < 1e-13, "eps {e}: {a} vs {b}");
        e *= 1.37;
    }
}

#[test]
fn never_nan_over_huge_range_and_limits() {
    for p in [Uniform, Hertz] {
        let mut e = 1e-8;
        let mut prev = q_t_of_eps(p, 0.0);
        while e <= 1e8 {
            let (q, t) = q_t_of_eps(p, e);
            assert!(q.is_finite() && t.is_finite(), "{p:?} {e}");
            assert!((0.0..=1.0).contains(&q) && (0.0..=1.0).contains(&t));
            // 𝒬 increasing, 𝒯 decreasing in ε (exact law, [A] §4)
            assert!(q >= prev.0 && t <= prev.1, "{p:?} monotone at {e}");
            prev = (q, t);
            e *= 1.01;
        }
        assert_eq!(q_t_of_eps(p, f64::INFINITY), (1.0, 0.0));
        assert_eq!(q_t_of_eps(p, 0.0), (0.0, 1.0));
        assert_eq!(reduced(p, 0.0, 3.0), (0.0, 1.0));
        assert_eq!(reduced(p, 3.0, 0.0), (1.0, 0.0));
        // extreme but finite inputs: subnormal and huge
        let (q, t) = reduced(p, 1e-310, 1e300);
        assert!(q.is_finite() && t.is_finite());
        let (q, t) = reduced(p, 1e300, 1e-310);
        assert!(q.is_finite() && t.is_finite());
    }
}

#[test]
fn series_coefficients_first_values() {
    // docs/contensou.md §2.3 "first values for unit tests" (exact rationals)
    let g = crate::contensou::exact::tables::g();
    let want_g = [1.0, -1.0 / 8.0, -1.0 / 64.0, -5.0 / 1024.0, -35.0 / 16384.0, -147.0 / 131072.0];
    let h = crate::contensou::exact::tables::h();
    let want_h = [1.0, -3.0 / 4.0, 9.0 / 64.0, 5.0 / 256.0, 105.0 / 16384.0, 189.0 / 65536.0];
    let s = crate::contensou::exact::tables::s();
    let want_s = [3.0 / 8.0, 1.0 / 32.0, 9.0 / 1024.0, 15.0 / 4096.0, 245.0 / 131072.0, 567.0 / 524288.0];
    let q = crate::contensou::exact::tables::q_hertz();
    let want_q = [1.0, -1.0 / 10.0, -3.0 / 280.0, -1.0 / 336.0, -5.0 / 4224.0, -21.0 / 36608.0];
    let t = crate::contensou::exact::tables::tau_hertz();
    let want_t = [16.0 / 15.0, 8.0 / 105.0, 2.0 / 105.0, 5.0 / 693.0, 35.0 / 10296.0, 21.0 / 11440.0];
    for (got, want) in [(g, want_g), (h, want_h), (s, want_s), (q, want_q), (t, want_t)] {
        for i in 0..6 {
            assert!(rel(got[i], want[i]) < 1e-14, "{i}: {} vs {}", got[i], want[i]);
        }
    }
}

#[test]
fn elliptic_integrals_carlson_vs_agm_and_known_values() {
    // K(0) = E(0) = π/2; E(1) = 1; K(1/2) = 1.854074677301372 (A&S table 17.1).
    assert!(rel(ellip_k(0.0), PI / 2.0) < 1e-15);
    assert!(rel(ellip_e(0.0), PI / 2.0) < 1e-15);
    assert!(rel(ellip_k(0.5), 1.854_074_677_301_372) < 1e-14);
    assert!(rel(ellip_e(0.5), 1.350_643_881_047_675) < 1e-14);
    for i in 0..200 {
        let m = i as f64 / 200.0 * 0.999_999;
        let (k, e) = ellip_ke_agm(m);
        assert!(rel(ellip_k(m), k) < 5e-15, "K({m})");
        assert!(rel(ellip_e(m), e) < 5e-15, "E({m})");
    }
    // R_F(1,2,0) = 1.3110287771461 and R_D(0,2,1) = 1.7972103521034 (Carlson 1995 test values)
    assert!(rel(carlson_rf(1.0, 2.0, 0.0), 1.311_028_777_146_1) < 1e-12);
    assert!(rel(carlson_rd(0.0, 2.0, 1.0), 1.797_210_352_103_4) < 1e-12);
}

#[test]
fn hertz_derivative_continuity_at_one() {
    // docs/contensou.md §2.2: the Hertz branches meet with value and first-derivative continuity.
    let d = |p: Pressure, e: f64, h: f64| {
        let a = q_t_of_eps(p, e + h);
        let b = q_t_of_eps(p, e);
        ((a.0 - b.0) / h, (a.1 - b.1) / h)
    };
    let l = d(Hertz, 1.0, -1e-6);
    let r = d(Hertz, 1.0, 1e-6);
    assert!((l.0 - r.0).abs() < 1e-4 && (l.1 - r.1).abs() < 1e-4, "{l:?} {r:?}");
}
