//! Approximate models of docs/contensou.md §3 against the exact law, the §1.4 structural properties for
//! every model, the η(η′) relation of the smooth model, and the vector-level API.

use std::f64::consts::PI;
use tribo::contensou::{eta_of_eta_prime, eta_prime_fit, eta_prime_of_eta, HarmonicTable};
use tribo::contensou::{hertz_radius, q_eps, t_eps, ContensouError, Model, Patch, Pressure, Smooth};
use tribo_lab::contensou::experiments::sup_errors;

fn models() -> Vec<Model> {
    vec![
        Model::Exact,
        Model::Linear,
        Model::Harmonic(1),
        Model::Harmonic(2),
        Model::Harmonic(3),
        Model::Harmonic(4),
        Model::PADE_KUDRA,
        Model::Pade { m: 1.0, b: 0.664 },
        Model::Pade { m: 3.5, b: 0.7 },
        Model::Smooth(Smooth::new(1e-3, 1.3).unwrap()),
    ]
}

#[test]
fn harmonic_fourier_coefficients_match_spec_table() {
    // docs/contensou.md §3.2 coefficient tables (derived, stable to ≥ 10 digits); tolerance 1e-9 (§4.4 item 5)
    let cases: [(Pressure, f64, [f64; 6], [f64; 6]); 4] = [
        (
            Pressure::Uniform,
            2.0 / 3.0,
            [
                0.965989138584,
                0.0813314657691,
                -0.0344578247846,
                -0.0207762951508,
                0.00139883491514,
                0.00700500486181,
            ],
            [
                0.974610618758,
                -0.0784576390444,
                -0.0614156381035,
                0.00152071420872,
                0.0159432834756,
                0.00489499850582,
            ],
        ),
        (
            Pressure::Uniform,
            1.0,
            [
                1.075625063,
                -0.0451185828287,
                -0.0451185828287,
                0.00969388251287,
                0.00969388251287,
                -0.00341750946827,
            ],
            [
                0.840557734369,
                -0.189948745799,
                -0.00568464869034,
                0.0297400516255,
                -0.00271920210336,
                -0.00899557514797,
            ],
        ),
        (
            Pressure::Hertz,
            3.0 * PI / 16.0,
            [
                0.967876888804,
                0.0745885085883,
                -0.0297022278446,
                -0.0181448853125,
                -0.000282962550139,
                0.00499300477567,
            ],
            [
                0.977184605102,
                -0.0714859364891,
                -0.0579424392019,
                -0.00202669422848,
                0.0128193333932,
                0.00572705554163,
            ],
        ),
        (
            Pressure::Hertz,
            1.0,
            [
                1.10335544365,
                -0.0880415067303,
                -0.0300041642899,
                0.014120846371,
                0.00442524916268,
                -0.00412099271797,
            ],
            [
                0.801327372262,
                -0.207798430986,
                0.0159359350734,
                0.0237938397897,
                -0.00765133351112,
                -0.00541078805458,
            ],
        ),
    ];
    for (p, rho, c, s) in cases {
        let t = HarmonicTable::compute(p, rho);
        for i in 0..6 {
            assert!((t.c[i] - c[i]).abs() < 1e-9, "{p:?} ρ={rho} c{}: {} vs {}", i + 1, t.c[i], c[i]);
            assert!((t.s[i] - s[i]).abs() < 1e-9, "{p:?} ρ={rho} s{}: {} vs {}", i + 1, t.s[i], s[i]);
        }
        if p == Pressure::Uniform && rho == 1.0 {
            // self-check from 𝒬(ε) = ε𝒬(1/ε): c2 = c3, c4 = c5 (docs/contensou.md §3.2)
            assert!((t.c[1] - t.c[2]).abs() < 1e-12 && (t.c[3] - t.c[4]).abs() < 1e-12);
        }
    }
}

#[test]
fn harmonic_polynomial_coefficients_and_n2_identities() {
    // docs/contensou.md §3.2 table of C_k, S_k for ρ = κ (derived, 9 digits) and (94): C1 = c1 + c2,
    // C2 = −4c2, S1 = s1 + 3s2, S2 = −4s2.
    let want: [(Pressure, usize, &[f64], &[f64]); 8] = [
        (Pressure::Uniform, 1, &[0.965989139], &[0.974610619]),
        (Pressure::Uniform, 2, &[1.047320604, -0.325325863], &[0.739237702, 0.313830556]),
        (
            Pressure::Uniform,
            3,
            &[1.012862780, 0.088168034, -0.551325197],
            &[0.432159511, 1.542143318, -0.982650210],
        ),
        (
            Pressure::Uniform,
            4,
            &[0.992086484, 0.586799118, -2.213428809, 1.329682890],
            &[0.442804511, 1.456983323, -0.812330218, -0.097325709],
        ),
        (Pressure::Hertz, 1, &[0.967876889], &[0.977184605]),
        (Pressure::Hertz, 2, &[1.042465397, -0.298354034], &[0.762726796, 0.285943746]),
        (
            Pressure::Hertz,
            3,
            &[1.012763170, 0.058072700, -0.475235646],
            &[0.473014600, 1.444792530, -0.927079027],
        ),
        (
            Pressure::Hertz,
            4,
            &[0.994618284, 0.493549947, -1.926826471, 1.161272660],
            &[0.458827740, 1.558287407, -1.154068781, 0.129708431],
        ),
    ];
    for (p, n, c, s) in want {
        let t = HarmonicTable::default_for(p);
        for k in 0..n {
            assert!((t.poly_c[n - 1][k] - c[k]).abs() < 2e-9, "{p:?} N={n} C{}", k + 1);
            assert!((t.poly_s[n - 1][k] - s[k]).abs() < 2e-9, "{p:?} N={n} S{}", k + 1);
        }
        if n == 2 {
            assert!((t.poly_c[1][0] - (t.c[0] + t.c[1])).abs() < 1e-14);
            assert!((t.poly_c[1][1] + 4.0 * t.c[1]).abs() < 1e-14);
            assert!((t.poly_s[1][0] - (t.s[0] + 3.0 * t.s[1])).abs() < 1e-14);
            assert!((t.poly_s[1][1] + 4.0 * t.s[1]).abs() < 1e-14);
        }
    }
    // 𝒞 > 0 and 𝒮 > 0 on [0, 1] for every N ≤ 6 (docs/contensou.md §3.2: min 𝒞 ≥ 0.54, min 𝒮 ≥ 0.17)
    for p in [Pressure::Uniform, Pressure::Hertz] {
        for rho in [p.kappa_ratio(), 1.0] {
            let t = HarmonicTable::compute(p, rho);
            for n in 1..=6 {
                for i in 0..=200 {
                    let (c, s) = t.eval(n, i as f64 / 200.0);
                    assert!(c >= 0.54 && s >= 0.17, "{p:?} ρ={rho} N={n}");
                }
            }
        }
    }
}

#[test]
fn accuracy_table_sup_errors() {
    // docs/contensou.md §3.1/§3.2/§3.4 sup-norm error tables (derived); tolerance 2e-3 (§4.4 item 6).
    let tol = 2e-3;
    let u = Patch::new(1.0, 1.0, 1.0, Pressure::Uniform).unwrap();
    let h = Patch::new(1.0, 1.0, 1.0, Pressure::Hertz).unwrap();
    let ur = u.clone().with_rho_ratio(1.0).unwrap();
    let hr = h.clone().with_rho_ratio(1.0).unwrap();
    let cases: Vec<(&Patch, Model, f64, f64)> = vec![
        (&u, Model::Linear, 0.1227, 0.1506),
        (&h, Model::Linear, 0.1111, 0.1404),
        (&ur, Model::Linear, 0.1429, 0.3047),
        (&hr, Model::Linear, 0.1779, 0.3406),
        (&u, Model::Harmonic(1), 0.105, 0.139),
        (&u, Model::Harmonic(2), 0.062, 0.072),
        (&u, Model::Harmonic(3), 0.029, 0.029),
        (&u, Model::Harmonic(4), 0.015, 0.028),
        (&ur, Model::Harmonic(1), 0.089, 0.207),
        (&ur, Model::Harmonic(2), 0.059, 0.040),
        (&ur, Model::Harmonic(3), 0.024, 0.043),
        (&ur, Model::Harmonic(4), 0.018, 0.019),
        (&h, Model::Harmonic(1), 0.095, 0.130),
        (&h, Model::Harmonic(2), 0.052, 0.065),
        (&h, Model::Harmonic(3), 0.025, 0.023),
        (&h, Model::Harmonic(4), 0.010, 0.024),
        (&hr, Model::Harmonic(1), 0.108, 0.214),
        (&hr, Model::Harmonic(2), 0.041, 0.045),
        (&hr, Model::Harmonic(3), 0.022, 0.034),
        (&hr, Model::Harmonic(4), 0.010, 0.017),
        (&u, Model::PADE_KUDRA, 0.143, 0.305),
        (&u, Model::Pade { m: 2.0, b: 2.0 / 3.0 }, 0.123, 0.151),
        (&u, Model::Pade { m: 2.0, b: 0.642 }, 0.137, 0.137),
        (&u, Model::Pade { m: 1.0, b: 1.0 }, 0.358, 0.170),
        (&u, Model::Pade { m: 1.0, b: 0.664 }, 0.260, 0.260),
        (&h, Model::Pade { m: 2.0, b: 3.0 * PI / 16.0 }, 0.111, 0.140),
        (&h, Model::Pade { m: 1.0, b: 0.589 }, 0.256, 0.256),
    ];
    for (p, m, eq, et) in cases {
        let (gq, gt) = sup_errors(p, &m);
        assert!(
            (gq - eq).abs() < tol && (gt - et).abs() < tol,
            "{:?} ρ={} {m:?}: {gq} / {gt}",
            p.pressure(),
            p.rho_ratio()
        );
    }
}

#[test]
fn harmonic_endpoint_errors_and_spot_values() {
    // docs/contensou.md §3.2: endpoint errors (uniform, ρ = κ) 𝒬(pure slide) − 1 = −0.034, +0.047, +0.013,
    // −0.008 and 𝒯(pure spin) − 1 = −0.025, +0.053, −0.008, −0.010 for N = 1…4.
    let u = Patch::new(1.0, 1.0, 1.0, Pressure::Uniform).unwrap();
    let dq = [-0.034, 0.047, 0.013, -0.008];
    let dt = [-0.025, 0.053, -0.008, -0.010];
    for n in 1..=4u8 {
        let q = u.reduced(&Model::Harmonic(n), 1.0, 0.0).0 - 1.0;
        let t = u.reduced(&Model::Harmonic(n), 0.0, 1.0).1 - 1.0;
        assert!(
            (q - dq[n as usize - 1]).abs() < 1e-3 && (t - dt[n as usize - 1]).abs() < 1e-3,
            "N={n}: {q} {t}"
        );
    }
    // spot values table (ρ = κ; Q_w = w12 𝒞(w3), T_w = w3 𝒮(w3)), 6 digits
    let rows: [(Pressure, f64, [f64; 8]); 6] = [
        (Pressure::Uniform, 0.3, [0.971351, 0.180405, 0.921495, 0.292383, 0.971149, 0.230245, 0.953939, 0.3]),
        (Pressure::Uniform, 0.6, [0.788931, 0.508979, 0.772791, 0.584766, 0.744163, 0.511330, 0.8, 0.6]),
        (Pressure::Uniform, 0.8, [0.483844, 0.821623, 0.579593, 0.779688, 0.503467, 0.752071, 0.6, 0.8]),
        (Pressure::Hertz, 0.3, [0.970548, 0.185257, 0.923296, 0.293155, 0.968834, 0.236539, 0.953939, 0.3]),
        (Pressure::Hertz, 0.6, [0.782586, 0.525839, 0.774302, 0.586311, 0.748046, 0.519400, 0.8, 0.6]),
        (Pressure::Hertz, 0.8, [0.495072, 0.819110, 0.580726, 0.781748, 0.510911, 0.756585, 0.6, 0.8]),
    ];
    for (p, w3, v) in rows {
        let patch = Patch::new(1.0, 1.0, 1.0, p).unwrap();
        let w12 = (1.0 - w3 * w3).sqrt();
        // direction (s, ρq) ∝ (w12, w3)
        let (s, q) = (w12, w3 / p.kappa_ratio());
        for (k, m) in [Model::Exact, Model::Harmonic(1), Model::Harmonic(2), Model::Linear].iter().enumerate()
        {
            let (a, b) = patch.reduced(m, s, q);
            assert!(
                (a - v[2 * k]).abs() < 2e-6 && (b - v[2 * k + 1]).abs() < 2e-6,
                "{p:?} w3={w3} {m:?}: {a} {b}"
            );
        }
    }
}

#[test]
fn structural_properties_for_every_model() {
    // docs/contensou.md §1.4 / §4.4 item 3: homogeneity of degree 0, reflections, rotation covariance,
    // Q ∥ −u, pure-slide / pure-spin limits (exact and linear models are exact there).
    for p in [Pressure::Uniform, Pressure::Hertz] {
        let patch = Patch::new(0.02, 0.4, 30.0, p).unwrap();
        for m in models() {
            let smooth = matches!(m, Model::Smooth(_));
            for &(ux, uy, w) in &[(0.3, -0.2, 7.0), (1.0, 0.5, -50.0), (-0.01, 0.002, 3.0)] {
                let l = patch.resultant(&m, [ux, uy], w).unwrap();
                assert!(l.force[0].is_finite() && l.force[1].is_finite() && l.torque.is_finite());
                // Q antiparallel to u, torque opposes ω
                let cross = l.force[0] * uy - l.force[1] * ux;
                let dot = l.force[0] * ux + l.force[1] * uy;
                assert!(cross.abs() < 1e-12 * (1.0 + dot.abs()) && dot < 0.0, "{m:?}");
                assert!(l.torque * w < 0.0, "{m:?}");
                // |Q| ≤ μP·η and |T| ≤ μPκ·η (μP = 12; η = 1 except smooth; harmonic
                // endpoint overshoot ≤ 6 %, docs/contensou.md §3.2)
                let cap = if let Model::Smooth(s) = m { s.eta() } else { 1.06 };
                assert!(
                    l.force[0].hypot(l.force[1]) <= cap * 12.0
                        && l.torque.abs() <= cap * 12.0 * patch.kappa()
                );
                // reflections: T odd in ω, even in u; Q even in ω, odd in u
                let a = patch.resultant(&m, [ux, uy], -w).unwrap();
                let b = patch.resultant(&m, [-ux, -uy], w).unwrap();
                assert!((a.torque + l.torque).abs() < 1e-12 && (a.force[0] - l.force[0]).abs() < 1e-12);
                assert!((b.torque - l.torque).abs() < 1e-12 && (b.force[1] + l.force[1]).abs() < 1e-12);
                // rotation covariance (docs/contensou.md §6 #7 corrected sign)
                let al: f64 = 0.7;
                let (sa, ca) = al.sin_cos();
                let r = patch.resultant(&m, [ca * ux - sa * uy, sa * ux + ca * uy], w).unwrap();
                assert!((r.force[0] - (ca * l.force[0] - sa * l.force[1])).abs() < 1e-12, "{m:?}");
                assert!((r.force[1] - (sa * l.force[0] + ca * l.force[1])).abs() < 1e-12, "{m:?}");
                assert!((r.torque - l.torque).abs() < 1e-12);
                if !smooth {
                    // zero-degree homogeneity
                    let h = patch.resultant(&m, [ux * 37.0, uy * 37.0], w * 37.0).unwrap();
                    assert!(
                        (h.force[0] - l.force[0]).abs() < 1e-12 && (h.torque - l.torque).abs() < 1e-13,
                        "{m:?}"
                    );
                }
            }
            if matches!(m, Model::Exact | Model::Linear) {
                // pure sliding = Coulomb; pure spin = μPκ (docs/contensou.md (40)-(41))
                let l = patch.resultant(&m, [0.0, -2.0], 0.0).unwrap();
                assert!((l.force[1] - 0.4 * 30.0).abs() < 1e-12 && l.force[0] == 0.0 && l.torque == 0.0);
                let l = patch.resultant(&m, [0.0, 0.0], 4.0).unwrap();
                assert!((l.torque + 0.4 * 30.0 * patch.kappa()).abs() < 1e-12 && l.force == [0.0, 0.0]);
            }
        }
    }
}

#[test]
fn pade_relations() {
    // docs/contensou.md §3.4 (derived): Padé m = 2 with b = κ/R is the fitted linear model with ρ = κ;
    // m = 1 gives 𝒬 = ε/(ε+b), 𝒯 = b/(ε+b).
    let u = Patch::new(1.0, 1.0, 1.0, Pressure::Uniform).unwrap();
    for i in 0..50 {
        let psi = i as f64 / 49.0 * PI / 2.0;
        let (s, q) = (psi.cos(), psi.sin());
        let a = u.reduced(&Model::Pade { m: 2.0, b: 2.0 / 3.0 }, s, q);
        let b = u.reduced(&Model::Linear, s, q);
        assert!((a.0 - b.0).abs() < 1e-14 && (a.1 - b.1).abs() < 1e-14);
        // general m: L = (s^m + (bq)^m)^(1/m) ([B] (3.5))
        let (mm, bb) = (3.5, 0.7);
        let l = (s.powf(mm) + (bb * q).powf(mm)).powf(1.0 / mm);
        let g = u.reduced(&Model::Pade { m: mm, b: bb }, s, q);
        assert!((g.0 - s / l).abs() < 1e-14 && (g.1 - bb * q / l).abs() < 1e-14);
        if q > 0.0 {
            let e = s / q;
            let c = u.reduced(&Model::Pade { m: 1.0, b: 0.7 }, s, q);
            assert!((c.0 - e / (e + 0.7)).abs() < 1e-14 && (c.1 - 0.7 / (e + 0.7)).abs() < 1e-14);
        }
    }
}

#[test]
fn eta_of_eta_prime_table_and_inverse() {
    // docs/contensou.md §3.5 table (derived): η(η′) and argmax v/ε; exact inverses (1e-5, §4.4 item 9).
    for (ep, eta, arg) in [
        (2.0, 1.220697, 0.8391),
        (4.0, 1.834707, 0.6957),
        (6.7627, 2.717426, 0.6453),
        (8.0, 3.115994, 0.6345),
        (13.7627, 4.980011, 0.6101),
    ] {
        let (e, a) = eta_of_eta_prime(ep);
        assert!((e - eta).abs() < 1e-5 && (a - arg).abs() < 1e-4, "η′={ep}: {e} {a}");
    }
    assert_eq!(eta_of_eta_prime(0.0).0, 1.0);
    assert_eq!(eta_of_eta_prime(1.0).0, 1.0);
    // threshold η′ = 1.149929: no static overshoot below it
    assert_eq!(eta_of_eta_prime(1.1499).0, 1.0);
    assert!(eta_of_eta_prime(1.1500).0 > 1.0);
    for (eta, ep) in [
        (1.01, 1.1979),
        (1.05, 1.37112),
        (1.1, 1.56672),
        (1.3, 2.27037),
        (2.0, 4.52155),
        (2.7, 6.70852),
        (4.98, 13.76267),
    ] {
        let got = eta_prime_of_eta(eta).unwrap();
        assert!((got - ep).abs() < 1e-4, "η={eta}: {got}");
        assert!((eta_of_eta_prime(got).0 - eta).abs() < 1e-12);
    }
    // paper's printed case (b) setting η′ = 6.7627 really means η = 2.7174 (docs/contensou.md §6 #24)
    assert!((eta_of_eta_prime(6.7627).0 - 2.7174).abs() < 1e-4);
    assert_eq!(eta_prime_of_eta(1.0), Some(0.0));
    assert_eq!(eta_prime_of_eta(0.9), None);
    assert_eq!(eta_prime_of_eta(f64::NAN), None);
    // [B]'s polynomial fits: back-substituted η within 0.001 on [1, 2.7] (paper; derived ≤ 0.00097)
    let mut worst = 0.0f64;
    for i in 0..=1700 {
        let eta = 1.0 + i as f64 * 1e-3;
        let back = eta_of_eta_prime(eta_prime_fit(eta)).0;
        worst = worst.max((back - eta).abs());
    }
    assert!(worst < 1e-3, "fit error {worst}");
}

#[test]
fn smooth_model_static_peak_and_stick() {
    // docs/contensou.md §3.5: the reachable set of (force/μP, torque/μPκ) is the disc of radius η
    // (independent of b); at stick the load is zero; far from stick it tends to Padé m = 2.
    let eta = 1.6;
    for b in [1.0, 0.5] {
        let sm = Smooth::new(1e-4, eta).unwrap().with_b(b).unwrap();
        let patch = Patch::new(0.1, 0.5, 10.0, Pressure::Uniform).unwrap();
        let m = Model::Smooth(sm);
        let mut peak = 0.0f64;
        for i in 0..4000 {
            let v = 1e-6 * 1.005f64.powi(i);
            for dir in 0..8 {
                let a = dir as f64 * PI / 16.0;
                let (s, q) = (v * a.cos(), v * a.sin());
                let (x, y) = patch.reduced(&m, s, q);
                peak = peak.max(x.hypot(y));
            }
        }
        assert!((peak - eta).abs() < 1e-4, "b={b}: peak {peak}");
        let l = patch.resultant(&m, [0.0, 0.0], 0.0).unwrap();
        assert_eq!(l, Default::default());
        let far = patch.reduced(&m, 3.0, 40.0);
        let pade = patch.reduced(&Model::Pade { m: 2.0, b }, 3.0, 40.0);
        assert!((far.0 - pade.0).abs() < 1e-6 && (far.1 - pade.1).abs() < 1e-6);
    }
    assert!(Smooth::new(0.0, 1.2).is_err());
    assert!(Smooth::new(1e-3, 0.9).is_err());
    assert!(Smooth::new(1e-3, 1.2).unwrap().with_b(-1.0).is_err());
    let p = Smooth::from_eta_prime(1e-5, 13.7627).unwrap();
    assert!((p.eta() - 4.980011).abs() < 1e-5);
}

#[test]
fn api_validation_edge_cases_and_helpers() {
    use ContensouError::*;
    assert!(matches!(Patch::new(-1.0, 0.5, 1.0, Pressure::Uniform), Err(InvalidRadius(_))));
    assert!(matches!(Patch::new(f64::NAN, 0.5, 1.0, Pressure::Uniform), Err(InvalidRadius(_))));
    assert!(matches!(Patch::new(1.0, -0.5, 1.0, Pressure::Uniform), Err(InvalidMu(_))));
    assert!(matches!(Patch::new(1.0, 0.5, f64::INFINITY, Pressure::Uniform), Err(InvalidNormalForce(_))));
    let p = Patch::new(0.01, 0.5, 20.0, Pressure::Hertz).unwrap();
    assert!(matches!(p.clone().with_rho_ratio(0.0), Err(InvalidRho(_))));
    assert_eq!(p.resultant(&Model::Exact, [0.0, 0.0], 0.0), Err(Stick));
    assert_eq!(p.resultant(&Model::Exact, [f64::NAN, 0.0], 1.0), Err(NonFiniteInput));
    assert_eq!(p.resultant(&Model::Harmonic(7), [1.0, 0.0], 1.0), Err(InvalidHarmonicDegree(7)));
    assert_eq!(p.resultant(&Model::Harmonic(0), [1.0, 0.0], 1.0), Err(InvalidHarmonicDegree(0)));
    assert!(matches!(
        p.resultant(&Model::Pade { m: 0.0, b: 1.0 }, [1.0, 0.0], 1.0),
        Err(InvalidParameter("m", _))
    ));
    assert!(!format!("{}", Stick).is_empty());
    // N = 0 → zero load, never NaN; R = 0 → point contact (Coulomb, no torque)
    let z = p.clone().with_normal_force(0.0).unwrap();
    for m in models() {
        let l = z.resultant(&m, [1.0, 2.0], 3.0).unwrap();
        assert_eq!((l.force[0].abs(), l.force[1].abs(), l.torque.abs()), (0.0, 0.0, 0.0));
    }
    let pt = p.clone().with_radius(0.0).unwrap();
    let l = pt.resultant(&Model::Exact, [3.0, 4.0], 100.0).unwrap();
    assert!((l.force[0] + 0.5 * 20.0 * 0.6).abs() < 1e-12 && l.torque == 0.0);
    // extreme ratios ε = 1e-8 … 1e8 never NaN, for every model
    for m in models() {
        for k in -8..=8 {
            let e = 10f64.powi(k);
            let l = p.resultant(&m, [e * 0.01 * 1.0, 0.0], 1.0).unwrap();
            assert!(l.force[0].is_finite() && l.torque.is_finite(), "{m:?} ε=1e{k}");
        }
    }
    // huge and tiny (but finite) velocities: finite, and still on the sliding law
    for m in models() {
        for (v, w) in [(1e200, 3e201), (1e-300, 2e-299), (1e300, 0.0)] {
            let l = p.resultant(&m, [v, 0.0], w).unwrap();
            assert!(l.force[0].is_finite() && l.torque.is_finite(), "{m:?} {v}");
            if v > 1.0 {
                assert!(l.force[0] < 0.0, "{m:?} {v}");
            }
        }
    }
    // limits(): μ𝒬(ε) and μPκ𝒯(ε), for the rapier adapter
    let lim = p.limits(&Model::Exact, 0.01, 1.0).unwrap(); // ε = 0.01/(0.01·1) = 1
    assert!((lim.slip_spin_ratio - 1.0).abs() < 1e-15);
    assert!((lim.slide_coefficient - 0.5 * 9.0 * PI / 32.0).abs() < 1e-14);
    assert!((lim.force - 20.0 * lim.slide_coefficient).abs() < 1e-12);
    assert!((lim.torque - 0.5 * 20.0 * p.kappa() * 0.375).abs() < 1e-14);
    let st = p.limits(&Model::Exact, 0.0, 0.0).unwrap();
    assert_eq!((st.force, st.torque), (10.0, 10.0 * p.kappa()));
    assert!(p.limits(&Model::Exact, f64::NAN, 0.0).is_err());
    // dimensionless functions
    assert!((q_eps(Pressure::Uniform, 1.0) - 8.0 / (3.0 * PI)).abs() < 1e-15);
    assert!((t_eps(Pressure::Hertz, 1.0) - 0.375).abs() < 1e-15);
    // Hertz radius a = (3NR/(4E*))^(1/3): steel ball R = 0.01 m, E* = 115 GPa, N = 10 N
    let a = hertz_radius(10.0, 0.01, 115e9).unwrap();
    assert!((a - (3.0 * 10.0 * 0.01 / (4.0 * 115e9f64)).cbrt()).abs() < 1e-18 && (a - 8.67e-5).abs() < 1e-7);
    assert!(hertz_radius(10.0, 0.01, 0.0).is_err());
    let hp = Patch::hertz_sphere(0.01, 115e9, 0.3, 10.0).unwrap();
    assert_eq!(hp.pressure(), Pressure::Hertz);
    assert!((hp.radius() - a).abs() < 1e-18);
}

#[test]
fn vector_api_matches_planar_form() {
    // resultant_vec in an arbitrary frame equals the planar law: force = −μP𝒬 u/|u| in the
    // contact plane, torque = −μPκ𝒯 sgn(ω·n) n (docs/contensou.md §2.6).
    use tribo::DVec3;
    let p = Patch::new(0.02, 0.4, 50.0, Pressure::Uniform).unwrap();
    let n = DVec3::new(0.3, -0.4, 0.866).normalize();
    let t1 = n.any_orthonormal_vector();
    let t2 = n.cross(t1);
    let (ux, uy, w) = (0.05, -0.02, 3.0);
    let slip = t1 * ux + t2 * uy + n * 7.0; // the normal component is ignored
    let omega = n * w + t1 * 100.0; // only the spin about n counts
    for m in [Model::Exact, Model::Harmonic(2), Model::Linear, Model::Smooth(Smooth::new(1e-4, 1.2).unwrap())]
    {
        let l3 = p.resultant_vec(&m, n * 2.5, slip, omega).unwrap();
        let l2 = p.resultant(&m, [ux, uy], w).unwrap();
        let f = t1 * l2.force[0] + t2 * l2.force[1];
        assert!((l3.force - f).length() < 1e-12 && (l3.torque - n * l2.torque).length() < 1e-14, "{m:?}");
    }
    assert!(p.resultant_vec(&Model::Exact, DVec3::ZERO, slip, omega).is_err());
    assert_eq!(p.resultant_vec(&Model::Exact, n, n, DVec3::X - DVec3::X), Err(ContensouError::Stick));
}

#[test]
fn no_nan_from_overflowing_or_bad_speeds() {
    // Finite inputs whose |u| or R|ω| overflows f64, and bad reduced speeds (NaN, negative,
    // infinite), are clamped as documented instead of giving NaN. Expected values: the exact
    // law's limits 𝒬(∞) = 1, 𝒯(0) = 1 (docs/contensou.md §2, pure slide / pure spin).
    let (mu, n) = (0.5, 20.0);
    let p = Patch::new(0.01, mu, n, Pressure::Hertz).unwrap();
    let big = Patch::new(10.0, mu, n, Pressure::Uniform).unwrap();
    for m in models() {
        // |u| = √2·1e308 > f64::MAX: pure sliding along −(1, 1).
        let l = p.resultant(&m, [1e308, 1e308], 1.0).unwrap();
        assert!(l.force[0].is_finite() && l.force[1].is_finite() && l.torque.is_finite(), "{m:?} {l:?}");
        assert!(
            l.force[0] < 0.0 && (l.force[0] - l.force[1]).abs() <= 1e-12 * l.force[0].abs(),
            "{m:?} {l:?}"
        );
        let cap = if let Model::Smooth(s) = m { s.eta() } else { 1.06 };
        assert!(l.force[0].hypot(l.force[1]) <= cap * mu * n, "{m:?}");
        // R|ω| = 1e309 overflows: pure spin.
        let l = big.resultant(&m, [1.0, 0.0], 1e308).unwrap();
        assert!(l.force[0].is_finite() && l.torque.is_finite() && l.torque < 0.0, "{m:?} {l:?}");
        for (s, q) in [
            (f64::NAN, 1.0),
            (1.0, f64::NAN),
            (-1.0, 1.0),
            (f64::INFINITY, 1.0),
            (1.0, f64::INFINITY),
            (f64::INFINITY, f64::INFINITY),
        ] {
            let (a, b) = p.reduced(&m, s, q);
            assert!(a.is_finite() && b.is_finite() && a >= 0.0 && b >= 0.0, "{m:?} ({s}, {q}): ({a}, {b})");
        }
    }
    let l = p.resultant(&Model::Exact, [1e308, 1e308], 1.0).unwrap();
    assert!((l.force[0].hypot(l.force[1]) - mu * n).abs() < 1e-12 * mu * n, "{l:?}");
    let l = big.resultant(&Model::Exact, [1.0, 0.0], 1e308).unwrap();
    assert!((l.torque + mu * n * big.kappa()).abs() < 1e-12 * mu * n * big.kappa(), "{l:?}");
    // Subnormal slip (1/|u| overflows): still Coulomb sliding −μP û (exact 𝒬(∞) = 1).
    for m in [Model::Exact, Model::Linear] {
        let l = p.resultant(&m, [1e-320, 0.0], 0.0).unwrap();
        assert_eq!(l.force, [-mu * n, 0.0], "{m:?}");
        let l3 = p.resultant_vec(&m, tribo::DVec3::Z, tribo::DVec3::X * 1e-160, tribo::DVec3::ZERO).unwrap();
        assert!(
            (l3.force.x + mu * n).abs() < 1e-12 && l3.force.y == 0.0 && l3.force.is_finite(),
            "{m:?} {l3:?}"
        );
    }
    // Capacities μP, μPR that overflow f64 are rejected at construction.
    assert!(matches!(
        Patch::new(1.0, 1e200, 1e200, Pressure::Uniform),
        Err(ContensouError::InvalidParameter(..))
    ));
    assert!(matches!(
        Patch::new(1e200, 1e100, 1e10, Pressure::Uniform),
        Err(ContensouError::InvalidParameter(..))
    ));
    let p4 = Patch::new(1.0, 4.0, 1.0, Pressure::Uniform).unwrap();
    assert!(p4.with_normal_force(1e308).is_err() && big.clone().with_radius(1e308).is_err());
    for pr in [Pressure::Uniform, Pressure::Hertz] {
        let exact = Patch::new(0.01, mu, n, pr).unwrap();
        assert_eq!(exact.reduced(&Model::Exact, f64::NAN, 1.0), (0.0, 1.0));
        assert_eq!(exact.reduced(&Model::Exact, 1.0, f64::NAN), (1.0, 0.0));
        assert_eq!(exact.reduced(&Model::Exact, f64::INFINITY, f64::INFINITY), (1.0, 0.0));
        assert_eq!(exact.reduced(&Model::Exact, 1.0, f64::INFINITY), (0.0, 1.0));
        assert_eq!(p.reduced(&Model::Exact, f64::INFINITY, f64::INFINITY), (1.0, 0.0));
    }
}
