//! Single contact (\[003\], docs/realizability.md §2, §5 and §7.1): limit directions, cases I–IV, Theorem 4 and
//! the wheel example, through the coefficient-level field and the general rigid-body solve.

use crate::realizability::single::{
    block_sticking, BilateralConstraint, Case, NonGenericKind, PlanarLimitField,
};
use crate::realizability::{RealizabilityError, SingleContactProblem};
use crate::{DQuat, DVec3};
use glam::DMat3;
use std::f64::consts::PI;

use crate::test_util::Rng;

fn spd(rng: &mut Rng, lo: f64, hi: f64) -> DMat3 {
    let r = DMat3::from_quat(rng.rot());
    r * DMat3::from_diagonal(DVec3::new(rng.range(lo, hi), rng.range(lo, hi), rng.range(lo, hi)))
        * r.transpose()
}

fn deg(x: f64) -> f64 {
    x.to_degrees().rem_euclid(360.0)
}

/// S3: the wheel table of docs/realizability.md §7.1 (units μg = 1, A1 = −3, B2 = −1).
#[test]
fn s3_wheel_table() {
    #[allow(clippy::type_complexity)]
    let rows: [((f64, f64), Case, &[(f64, f64, f64)], bool); 8] = [
        (
            (0.0, 0.5),
            Case::II,
            &[(90.0, -0.5, -2.5), (194.47751, -3.0, 1.875), (270.0, -1.5, -1.5), (345.52249, -3.0, 1.875)],
            true,
        ),
        (
            (0.0, 1.5),
            Case::IV,
            &[(90.0, 0.5, -3.5), (228.59038, -3.0, 0.875), (270.0, -2.5, -0.5), (311.40962, -3.0, 0.875)],
            false,
        ),
        ((0.0, 2.5), Case::III, &[(90.0, 1.5, -4.5), (270.0, -3.5, 0.5)], false),
        ((1.2, 0.5), Case::I, &[(62.11418, -0.434313, -2.128180), (188.94762, -4.214783, 3.166403)], true),
        (
            (1.0, 0.3),
            Case::II,
            &[
                (64.60845, -0.667921, -1.964337),
                (185.72955, -4.005021, 2.985088),
                (308.16098, -1.381544, -0.854921),
                (341.50102, -1.945514, 0.744171),
            ],
            true,
        ),
        (
            (0.3, 1.2),
            Case::IV,
            &[
                (84.62953, 0.205291, -3.187771),
                (210.72122, -3.348974, 1.827015),
                (297.77935, -2.356317, -0.209245),
                (306.86990, -2.5, 0.22),
            ],
            false,
        ),
        ((-1.0, 0.5), Case::I, &[(113.14851, -0.456220, -2.234700), (350.45108, -4.014050, 2.959012)], true),
        ((2.5, 0.0), Case::I, &[(0.0, -0.5, -0.5), (180.0, -5.5, 4.5)], true),
    ];
    for ((c1, c2), case, dirs, realizable) in rows {
        let f = PlanarLimitField::principal(-3.0, -1.0, c1, c2);
        let a = f.analyze();
        assert_eq!(a.case, case, "({c1}, {c2})");
        assert_eq!(a.all_attracting, realizable);
        assert_eq!(a.directions.len(), dirs.len());
        for &(phi, r, dv) in dirs {
            let d = a.directions.iter().find(|d| {
                let e = (deg(d.phi) - phi).abs();
                e.min(360.0 - e) < 2e-5
            });
            let d = d.unwrap_or_else(|| panic!("φ = {phi} not found for ({c1}, {c2}): {:?}", a.directions));
            assert!(
                (d.r - r).abs() < 2e-6 && (d.dv_dphi - dv).abs() < 2e-6,
                "({c1},{c2}) φ={phi}: {} {}",
                d.r,
                d.dv_dphi
            );
            assert_eq!(d.attracting, r < 0.0);
            assert_eq!(d.angularly_stable, dv < 0.0);
        }
        // Theorem 3 / ellipse: C1²/A1² + C2²/B2² < 1 ⇔ realizable; the static friction
        // utilisation of the rolling wheel is η = √(C1²/9 + C2²) (docs/realizability.md §7.1 S3).
        let eta2 = c1 * c1 / 9.0 + c2 * c2;
        assert!((f.ellipse_value() - eta2).abs() < 1e-12);
        assert_eq!(eta2 < 1.0, realizable);
    }
}

/// The wheel through the generic single-contact path (docs/realizability.md §7.1 S3 SI instance): thin disc,
/// knife-edge curvature Q = diag(ρ, 0), tilt constraint t1·ω̇ = −ω2ω3.
pub(super) fn wheel(m: f64, rho: f64, mu: f64, md: f64, ms: f64, w2: f64, w3: f64) -> SingleContactProblem {
    let g = 9.81;
    let (t1, t2, n) = (DVec3::X, DVec3::Y, DVec3::Z);
    let j = DMat3::from_diagonal(DVec3::new(m * rho * rho / 4.0, m * rho * rho / 2.0, m * rho * rho / 4.0));
    SingleContactProblem::new(m, j, n * rho, DVec3::ZERO, n, mu)
        .with_tangent(t1)
        .with_omega(t2 * w2 + n * w3)
        .with_curvature_radius(DMat3::from_cols(t1 * rho, DVec3::ZERO, DVec3::ZERO))
        .with_loads(-n * (m * g), t2 * md + n * ms)
        .with_constraint(BilateralConstraint { lin: DVec3::ZERO, ang: t1, rhs: -w2 * w3 })
}

#[test]
fn s3_wheel_full_model() {
    let rep = wheel(2.0, 0.3, 0.5, 0.7, 0.2, 4.0, 1.5).analyze().unwrap();
    assert!(rep.well_posed && !rep.coupled);
    let f = rep.uncoupled.unwrap();
    // (003:68): A1 = −3μg, B2 = −μg, A2 = B1 = 0, C1 = −2M_d/(mρ), C2 = −ρω2ω3; N = mg.
    assert!((f.m[0][0] + 14.715).abs() < 1e-9, "{:?}", f);
    assert!((f.m[1][1] + 4.905).abs() < 1e-9);
    assert!(f.m[0][1].abs() < 1e-9 && f.m[1][0].abs() < 1e-9);
    assert!((f.c[0] + 0.7 * 2.0 / (2.0 * 0.3)).abs() < 1e-9);
    assert!((f.c[1] + 1.8).abs() < 1e-9);
    assert!((rep.normal_force_rolling - 19.62).abs() < 1e-9);
    // Utilisation η = √(C1²/9 + C2²) in units μg equals ‖f‖/(μ m g) of the rolling solve.
    let mug = 0.5 * 9.81;
    let eta = ((f.c[0] / mug).powi(2) / 9.0 + (f.c[1] / mug).powi(2)).sqrt();
    assert!((rep.utilization - eta).abs() < 1e-9);
    assert!(rep.theorem4_consistent);
    // Static check (docs/realizability.md §5.2): f1 = 2M_d/(3ρ), f2 = mρω2ω3 (magnitudes).
    assert!((rep.static_friction.x.abs() - 2.0 * 0.7 / (3.0 * 0.3)).abs() < 1e-9);
    assert!((rep.static_friction.y.abs() - 2.0 * 0.3 * 4.0 * 1.5).abs() < 1e-9);
}

/// Corrected special drive moments of docs/realizability.md §5.2: 1.5, 1.0 and 0.2296397 μ m g ρ.
#[test]
fn s3_wheel_special_values() {
    let (m, rho, mu, g) = (2.0, 0.3, 0.5, 9.81);
    let unit = mu * m * g * rho;
    // Ellipse vertex: rolling lost at |M_d| = 1.5 μmgρ (ω2ω3 = 0).
    assert!(wheel(m, rho, mu, 1.499 * unit, 0.0, 0.0, 0.0).analyze().unwrap().rolling_realizable);
    assert!(!wheel(m, rho, mu, 1.501 * unit, 0.0, 0.0, 0.0).analyze().unwrap().rolling_realizable);
    assert!(!wheel(m, rho, mu, -1.501 * unit, 0.0, 0.0, 0.0).analyze().unwrap().rolling_realizable);
    // Astroid vertex: 4 directions below |M_d| = μmgρ, 2 above.
    assert_eq!(wheel(m, rho, mu, 0.999 * unit, 0.0, 0.0, 0.0).analyze().unwrap().limit.directions.len(), 4);
    assert_eq!(wheel(m, rho, mu, 1.001 * unit, 0.0, 0.0, 0.0).analyze().unwrap().limit.directions.len(), 2);
    // Ellipse–astroid intersection: X² + 9Y² = 9, X^{2/3} + Y^{2/3} = 2^{2/3} (solved here by
    // bisection on the ellipse X = 3 cos t, Y = sin t).
    let f = |t: f64| (3.0 * t.cos()).powf(2.0 / 3.0) + t.sin().powf(2.0 / 3.0) - 2f64.powf(2.0 / 3.0);
    let (mut lo, mut hi) = (1.3, PI / 2.0);
    assert!(f(lo) > 0.0 && f(hi) < 0.0);
    for _ in 0..100 {
        let mid = 0.5 * (lo + hi);
        if f(mid) > 0.0 {
            lo = mid
        } else {
            hi = mid
        }
    }
    let (x, y) = (3.0 * lo.cos(), lo.sin());
    assert!((x - 0.45927933).abs() < 1e-8 && (y - 0.98821177).abs() < 1e-8, "{x} {y}");
    // M_d = X/2 μmgρ and ρω2ω3 = Y μg: on both curves at once.
    let md = 0.5 * x * unit;
    assert!((md / unit - 0.2296397).abs() < 1e-7);
    let w2w3 = y * mu * g / rho;
    let rep = wheel(m, rho, mu, md, 0.0, w2w3.sqrt(), w2w3.sqrt()).analyze().unwrap();
    let pf = rep.principal.unwrap();
    assert!((pf.ellipse_value - 1.0).abs() < 1e-9, "{}", pf.ellipse_value);
    assert!(pf.astroid_value.abs() < 1e-9, "{}", pf.astroid_value);
}

/// S4: homogeneous sphere on a plane with a horizontal force at C.
#[test]
fn s4_sphere() {
    let (m, rho, mu, g) = (3.0, 0.2, 0.4, 9.81);
    for fmag in [0.0, 0.5, 2.0, 3.4, 3.6, 5.0] {
        let f = DVec3::new(0.6, 0.8, 0.0) * (fmag * mu * m * g);
        let p = SingleContactProblem::new(
            m,
            DMat3::IDENTITY * (0.4 * m * rho * rho),
            DVec3::Z * rho,
            DVec3::ZERO,
            DVec3::Z,
            mu,
        )
        .with_loads(f - DVec3::Z * (m * g), DVec3::ZERO);
        let rep = p.analyze().unwrap();
        let pf = rep.principal.unwrap();
        // A1 = B2 = −μg(1 + 1/j) = −3.5 μg.
        assert!((pf.a1 + 3.5 * mu * g).abs() < 1e-9 && (pf.b2 + 3.5 * mu * g).abs() < 1e-9);
        if fmag == 0.0 {
            assert_eq!(rep.limit.case, Case::NonGeneric(NonGenericKind::Continuum));
            continue;
        }
        assert_eq!(rep.limit.directions.len(), 2);
        let fl = f.length() / m;
        for d in &rep.limit.directions {
            let along = d.slip_dir.dot(f.normalize());
            assert!((along.abs() - 1.0).abs() < 1e-9);
            assert!((d.r - (-3.5 * mu * g + along.signum() * fl)).abs() < 1e-9);
        }
        assert_eq!(rep.rolling_realizable, fmag < 3.5);
        assert_eq!(rep.limit.case, if fmag < 3.5 { Case::I } else { Case::III });
        if !rep.rolling_realizable {
            assert!((rep.escape_direction.unwrap() - f.normalize()).length() < 1e-9);
        }
    }
}

/// S2: (003:38–39) as corrected (`r3²` terms) against the friction-induced part of v̇_P with N
/// held fixed (direct rigid-body kinematics), and the library's uncoupled coefficients.
#[test]
fn s2_coefficient_formulas() {
    let mut rng = Rng(0xface_b00c_0123_4567);
    for _ in 0..100 {
        let m = rng.range(0.5, 5.0);
        let jw = spd(&mut rng, 0.05, 1.0) * m;
        let mu = rng.range(0.1, 0.9);
        let nn = rng.range(1.0, 50.0);
        let (t1, t2, n) = (DVec3::X, DVec3::Y, DVec3::Z);
        let jinv = jw.inverse();
        let jm = jinv * m; // [j_ik] = m J⁻¹
        let j = |i: usize, k: usize| jm.col(k)[i];
        let rpc = DVec3::new(rng.range(-0.5, 0.5), rng.range(-0.5, 0.5), rng.range(0.1, 0.8)); // P→C
        let r = -rpc; // C→P
        let fric = |lam: DVec3| {
            let f = -lam * (mu * nn);
            f / m + (jinv * r.cross(f)).cross(r)
        };
        let (r1, r2, r3) = (rpc.x, rpc.y, rpc.z);
        let k = mu * nn / m;
        let a1 = -k * (1.0 + r2 * r2 * j(2, 2) - 2.0 * r2 * r3 * j(1, 2) + r3 * r3 * j(1, 1));
        let b2 = -k * (1.0 + r1 * r1 * j(2, 2) - 2.0 * r1 * r3 * j(0, 2) + r3 * r3 * j(0, 0));
        let a2 = -k * (r2 * r3 * j(0, 2) + r1 * r3 * j(1, 2) - r3 * r3 * j(0, 1) - r1 * r2 * j(2, 2));
        let v1 = fric(t1);
        let v2 = fric(t2);
        assert!((v1.dot(t1) - a1).abs() < 1e-10 * k.max(1.0) * 10.0, "A1");
        assert!((v2.dot(t2) - b2).abs() < 1e-10 * k.max(1.0) * 10.0, "B2");
        assert!((v1.dot(t2) - a2).abs() < 1e-10 * k.max(1.0) * 10.0, "A2");
        assert!((v2.dot(t1) - a2).abs() < 1e-10 * k.max(1.0) * 10.0, "B1 = A2");
        // Library, uncoupled case r = r3 n: A1 = −(μN/m)(1 + r3² j22) etc.
        let rr = DVec3::new(0.0, 0.0, -r3);
        let p = SingleContactProblem::new(m, jw, -rr, DVec3::ZERO, n, mu)
            .with_tangent(t1)
            .with_loads(-n * nn, DVec3::ZERO);
        let rep = p.analyze().unwrap();
        assert!(!rep.coupled);
        let f = rep.uncoupled.unwrap();
        let kk = mu * rep.normal_force_rolling / m;
        assert!((rep.normal_force_rolling - nn).abs() < 1e-9 * nn);
        assert!((f.m[0][0] + kk * (1.0 + r3 * r3 * j(1, 1))).abs() < 1e-9 * kk * 10.0);
        assert!((f.m[1][1] + kk * (1.0 + r3 * r3 * j(0, 0))).abs() < 1e-9 * kk * 10.0);
        assert!((f.m[0][1] - kk * r3 * r3 * j(0, 1)).abs() < 1e-9 * kk * 10.0);
        assert!((f.m[1][0] - kk * r3 * r3 * j(0, 1)).abs() < 1e-9 * kk * 10.0);
    }
}

/// Theorem 3, Prop. 9, (003:45) corrected quartic, (003:54) and the corrected sliding vector
/// (003:56–57) on random symmetric negative-definite planar fields.
#[test]
fn planar_field_theorems() {
    let mut rng = Rng(0x1357_9bdf_2468_ace0);
    let mut seen = [0usize; 4];
    for _ in 0..3000 {
        let (a, b) = (rng.range(-5.0, -0.2), rng.range(-5.0, -0.2));
        let th = rng.range(0.0, PI);
        let (s, c) = th.sin_cos();
        let m = [[a * c * c + b * s * s, (a - b) * s * c], [(a - b) * s * c, a * s * s + b * c * c]];
        let cc = [rng.range(-6.0, 6.0), rng.range(-6.0, 6.0)];
        let f = PlanarLimitField { m, c: cc };
        let an = f.analyze();
        let ev = f.ellipse_value();
        if (ev - 1.0).abs() < 1e-6 || an.near_fold {
            continue;
        }
        let n_rep = an.directions.iter().filter(|d| !d.attracting).count();
        if ev < 1.0 {
            assert_eq!(n_rep, 0);
        } else {
            assert_eq!(n_rep, 1); // exactly one repelling direction
            assert!(an.directions.iter().any(|d| d.attracting));
        }
        for d in &an.directions {
            if !d.attracting {
                assert!(d.angularly_stable, "Prop. 9: repelling ⇒ angularly stable");
            }
        }
        let pf = f.principal_form();
        assert!((pf.ellipse_value - ev).abs() < 1e-9 * ev.max(1.0));
        if pf.astroid_value.abs() > 1e-6 {
            assert_eq!(an.directions.len(), if pf.astroid_value < 0.0 { 4 } else { 2 });
        }
        let idx = match an.case {
            Case::I => 0,
            Case::II => 1,
            Case::III => 2,
            Case::IV => 3,
            _ => continue,
        };
        seen[idx] += 1;
        // Corrected quartic (003:45) in the principal frame: (1 − c²)(K c − C1)² − C2² c² = 0.
        let k = pf.b2 - pf.a1;
        for d in &an.directions {
            let cphi = (d.phi - pf.delta).cos();
            let q = (1.0 - cphi * cphi) * (k * cphi - pf.c1).powi(2) - pf.c2 * pf.c2 * cphi * cphi;
            assert!(q.abs() < 1e-8 * (1.0 + k * k + pf.c1 * pf.c1 + pf.c2 * pf.c2), "{q}");
        }
        // Corrected sliding vector: α = (B1C2 − B2C1)/(A1B2 − A2B1), β = (A2C1 − A1C2)/(…)
        // makes α A + β B + C tangent to Σ (both slip components zero).
        let [[a1, b1], [a2, b2]] = m;
        let det = a1 * b2 - a2 * b1;
        let al = (b1 * cc[1] - b2 * cc[0]) / det;
        let be = (a2 * cc[0] - a1 * cc[1]) / det;
        assert!((a1 * al + b1 * be + cc[0]).abs() < 1e-9 && (a2 * al + b2 * be + cc[1]).abs() < 1e-9);
        assert!(((al * al + be * be) - ev).abs() < 1e-9 * ev.max(1.0), "η² = ‖M⁻¹C‖²");
    }
    assert!(seen.iter().all(|&n| n > 20), "cases seen {seen:?}");
    // (003:54): on the ellipse, the R = 0 direction has dV/dφ = A1C2²/B2² + B2C1²/A1² < 0.
    let (a1, b2) = (-3.0, -1.0);
    let t: f64 = 0.7;
    let (c1, c2) = (-a1 * t.cos(), -b2 * t.sin()); // cos φ₁ = −C1/A1 = cos t, sin φ₁ = −C2/B2
    let an = PlanarLimitField::principal(a1, b2, c1, c2).analyze();
    let d = an.directions.iter().find(|d| (d.phi - t).abs() < 1e-6).expect("R = 0 direction at φ = t");
    assert!(d.r.abs() < 1e-9);
    assert!((d.dv_dphi - (a1 * c2 * c2 / (b2 * b2) + b2 * c1 * c1 / (a1 * a1))).abs() < 1e-9);
    assert_eq!(an.case, Case::NonGeneric(NonGenericKind::Marginal));
    // Fold: on the astroid (|C1|^{2/3} + |C2|^{2/3} = |B2 − A1|^{2/3}) there are 3 directions.
    let kk: f64 = 2.0;
    let s = 0.8f64;
    let fold = PlanarLimitField::principal(a1, b2, kk * s.cos().powi(3), kk * s.sin().powi(3)).analyze();
    assert_eq!(fold.case, Case::NonGeneric(NonGenericKind::Fold));
}

/// Random coupled bodies (eccentric contact, curvature, spin): V/N is an exact degree-2
/// trigonometric polynomial, Theorem 4 holds ((η < 1) ⇔ no repelling direction), and the root
/// count equals the sign-change count of a dense sampling (docs/realizability.md §7.1 S5).
#[test]
fn s5_coupled_bodies() {
    let mut rng = Rng(0x0dd0_0dd0_abcd_ef01);
    let mut wp = 0;
    let mut coupled = 0;
    for _ in 0..150 {
        let m = rng.range(0.5, 5.0);
        let jw = spd(&mut rng, 0.05, 1.0) * m;
        let n = rng.unit();
        let com = rng.unit() * rng.range(0.1, 0.5) + n * 0.3;
        let mu = rng.range(0.1, 0.9);
        let t = n.any_orthonormal_vector();
        let tt = n.cross(t);
        let q = {
            let a = DMat3::from_cols(t, tt, DVec3::ZERO);
            let s = spd(&mut rng, 0.05, 0.5);
            a * s * a.transpose()
        };
        let g = -n * (m * 9.81) + rng.unit() * (m * rng.range(0.0, 6.0));
        let p = SingleContactProblem::new(m, jw, com, DVec3::ZERO, n, mu)
            .with_omega(rng.unit() * rng.range(0.0, 3.0))
            .with_curvature_radius(q)
            .with_loads(g, rng.unit() * (m * rng.range(0.0, 2.0)));
        let rep = p.analyze().unwrap();
        if !rep.well_posed || rep.limit.near_fold || rep.limit.directions.iter().any(|d| d.r.abs() < 1e-7) {
            continue;
        }
        wp += 1;
        if rep.coupled {
            coupled += 1;
        }
        assert!(rep.theorem4_consistent, "η = {} realizable = {}", rep.utilization, rep.rolling_realizable);
        // V/N fit (own DFT here) and dense sign changes.
        let field = |phi: f64| p.limit_field(phi).unwrap().unwrap();
        let vn = |phi: f64| {
            let (f1, f2, nn) = field(phi);
            let (s, c) = phi.sin_cos();
            (-f1 * s + f2 * c) / nn
        };
        let samples: Vec<f64> = (0..8).map(|k| vn(2.0 * PI * k as f64 / 8.0)).collect();
        let coef = |h: usize, sin: bool| -> f64 {
            samples
                .iter()
                .enumerate()
                .map(|(k, v)| {
                    let a = 2.0 * PI * (k * h) as f64 / 8.0;
                    v * if sin { a.sin() } else { a.cos() }
                })
                .sum::<f64>()
                / if h == 0 { 8.0 } else { 4.0 }
        };
        let c = [coef(0, false), coef(1, false), coef(1, true), coef(2, false), coef(2, true)];
        let scale = samples.iter().fold(0.0f64, |a, x| a.max(x.abs()));
        for _ in 0..6 {
            let phi = rng.range(0.0, 2.0 * PI);
            let fit = c[0]
                + c[1] * phi.cos()
                + c[2] * phi.sin()
                + c[3] * (2.0 * phi).cos()
                + c[4] * (2.0 * phi).sin();
            assert!((fit - vn(phi)).abs() < 1e-10 * scale, "V/N not degree 2");
        }
        let mut changes = 0;
        let nsmp = 720;
        let mut prev = vn(0.001);
        for k in 1..=nsmp {
            let v = vn(0.001 + 2.0 * PI * k as f64 / nsmp as f64);
            if (v < 0.0) != (prev < 0.0) {
                changes += 1;
            }
            prev = v;
        }
        assert_eq!(changes, rep.limit.directions.len());
        assert!(matches!(rep.limit.directions.len(), 2 | 4));
    }
    assert!(wp > 80 && coupled > 60, "{wp} {coupled}");
}

/// S1: rotating the tangent frame changes nothing physical.
#[test]
fn s1_frame_invariance() {
    let mut rng = Rng(0x3141_5926_5358_9793);
    for _ in 0..50 {
        let m = rng.range(0.5, 5.0);
        let jw = spd(&mut rng, 0.05, 1.0) * m;
        let n = rng.unit();
        let com = rng.unit() * 0.3 + n * 0.4;
        let p = SingleContactProblem::new(m, jw, com, DVec3::ZERO, n, 0.5)
            .with_loads(-n * (m * 9.81) + rng.unit() * (3.0 * m), rng.unit() * m);
        let t = n.any_orthonormal_vector();
        let t_rot = DQuat::from_axis_angle(n, rng.range(0.0, std::f64::consts::TAU)) * t;
        let a = p.clone().with_tangent(t).analyze().unwrap();
        let b = p.with_tangent(t_rot).analyze().unwrap();
        assert_eq!(a.limit.case, b.limit.case);
        assert_eq!(a.rolling_realizable, b.rolling_realizable);
        assert_eq!(a.limit.directions.len(), b.limit.directions.len());
        for d in &a.limit.directions {
            let e = b
                .limit
                .directions
                .iter()
                .find(|e| (e.slip_dir - d.slip_dir).length() < 1e-7)
                .expect("same world direction");
            assert!((e.r - d.r).abs() < 1e-8 && (e.dv_dphi - d.dv_dphi).abs() < 1e-8);
            assert_eq!(e.angularly_stable, d.angularly_stable);
        }
    }
}

/// S6: block (004 §4.1): realizable ⇔ possible ⇔ |L| ≤ μ_s m g.
#[test]
fn s6_block() {
    let (m, g, mu) = (2.0, 9.81, 0.4);
    for l in [-10.0, -7.85, -7.8, 0.0, 3.0, 7.8, 7.85, 12.0] {
        let (possible, realizable) = block_sticking(l, m, g, mu);
        let expect = f64::abs(l) <= mu * m * g;
        assert_eq!(possible, expect);
        assert_eq!(realizable, expect);
    }
}

#[test]
fn single_contact_invalid_input() {
    let ok = SingleContactProblem::new(1.0, DMat3::IDENTITY, DVec3::Z, DVec3::ZERO, DVec3::Z, 0.5);
    assert!(ok.analyze().is_ok());
    let mut p = ok.clone();
    p.mass = 0.0;
    assert_eq!(p.analyze().unwrap_err(), RealizabilityError::NonPositiveMass);
    let mut p = ok.clone();
    p.mu = -0.2;
    assert_eq!(p.analyze().unwrap_err(), RealizabilityError::NegativeFriction);
    let mut p = ok.clone();
    p.normal = DVec3::ZERO;
    assert_eq!(p.analyze().unwrap_err(), RealizabilityError::ZeroNormal);
    let mut p = ok.clone();
    p.omega.x = f64::NAN;
    assert!(matches!(p.analyze(), Err(RealizabilityError::NonFinite(_))));
    let mut p = ok.clone();
    p.inertia_world = DMat3::from_diagonal(DVec3::new(1.0, 0.0, 1.0));
    assert_eq!(p.analyze().unwrap_err(), RealizabilityError::InertiaNotSpd);
    let p = ok.clone().with_tangent(DVec3::Z);
    assert!(matches!(p.analyze(), Err(RealizabilityError::DegenerateGeometry(_))));
}

/// docs/realizability.md §1.3 [V]: for a sphere rolling on a plane the velocity-product terms cancel
/// (`ω × (ω × r) + ω × w_P = 0` with `w_P = ρ (ω × n)`), so the limit field does not depend on
/// the angular velocity; with a knife-edge (Q = 0 across) it does.
#[test]
fn sphere_spin_does_not_change_limit_field() {
    let mut rng = Rng(0x7777_0000_7777_0000);
    let (m, rho, mu, g) = (2.0, 0.25, 0.35, 9.81);
    let n = DVec3::Z;
    let q = DMat3::from_diagonal(DVec3::new(rho, rho, 0.0));
    let base =
        SingleContactProblem::new(m, DMat3::IDENTITY * (0.4 * m * rho * rho), n * rho, DVec3::ZERO, n, mu)
            .with_tangent(DVec3::X)
            .with_curvature_radius(q)
            .with_loads(DVec3::new(1.5, -0.7, -m * g), DVec3::new(0.1, 0.2, 0.05));
    let f0 = base.analyze().unwrap().uncoupled.unwrap();
    for _ in 0..10 {
        let w = rng.unit() * rng.range(0.5, 20.0);
        let f = base.clone().with_omega(w).analyze().unwrap().uncoupled.unwrap();
        for i in 0..2 {
            assert!((f.c[i] - f0.c[i]).abs() < 1e-9, "{:?} vs {:?}", f.c, f0.c);
            for k in 0..2 {
                assert!((f.m[i][k] - f0.m[i][k]).abs() < 1e-9);
            }
        }
    }
    // Zero curvature radius (a point on a cone tip, say): the drift term vanishes and the spin
    // changes the smooth part C by ω × (ω × r).
    let tip = base.clone().with_curvature_radius(DMat3::ZERO).with_omega(DVec3::new(3.0, 0.0, 0.0));
    let f = tip.analyze().unwrap().uncoupled.unwrap();
    let w = DVec3::new(3.0, 0.0, 0.0);
    let extra = w.cross(w.cross(DVec3::new(0.0, 0.0, -rho)));
    // Tangentially nothing changes (ω × (ω × r) ∥ n here); normally the centre now moves on a
    // circle about P: a_C·n = −ω²ρ, so N = m g − m ω² ρ (ΔN = −m (ω×(ω×r))·n).
    let r0 = base.analyze().unwrap();
    let r1 = tip.analyze().unwrap();
    assert!((f.c[0] - f0.c[0]).abs() < 1e-9 && (f.c[1] - f0.c[1]).abs() < 1e-9);
    assert!((extra.z - 9.0 * rho).abs() < 1e-12);
    assert!(
        (r1.normal_force_rolling - r0.normal_force_rolling + m * 9.0 * rho).abs() < 1e-9,
        "{} {}",
        r1.normal_force_rolling,
        r0.normal_force_rolling
    );
}

#[test]
fn trig_poly_roots_reject_non_finite_coefficients() {
    // A NaN coefficient is not caught by `scale()` (f64::max ignores NaN): `roots()` must
    // return no roots instead of feeding NaN to the eigenvalue solver or the sort.
    use crate::realizability::trigpoly::TrigPoly2;
    for bad in [f64::NAN, f64::INFINITY] {
        let p = TrigPoly2 { a0: bad, a1: 1.0, ..Default::default() };
        let r = p.roots();
        assert!(r.roots.is_empty() && r.companion_count == 0 && r.sampled_count == 0);
    }
    // cos φ has the roots π/2 and 3π/2 (analytic).
    let r = TrigPoly2 { a1: 1.0, ..Default::default() }.roots();
    assert_eq!(r.roots.len(), 2);
    assert!((r.roots[0] - PI / 2.0).abs() < 1e-12 && (r.roots[1] - 1.5 * PI).abs() < 1e-12);
}

/// docs/realizability.md §2.10: a homogeneous sphere (m = 2 kg, r = 0.1 m) on a plane under
/// gravity plus an upward pull `F`: the rolling normal force is `N = m g − F`. `F = 1.5 m g`
/// gives `N = −0.5 m g = −9.81 N`: lift-off (a verdict, well posed), rolling not realizable;
/// `F = 0.5 m g` gives `N = 9.81 N`, rolling realizable (with a side force `0.1 m g` the static
/// friction is `0.1 m g·j/(1 + j)`, `η = 0.143 < 1`); `F = m g` gives `N = 0`: lift-off
/// (N ≤ 0).
#[test]
fn lift_off_when_normal_force_non_positive() {
    let (m, r, g) = (2.0, 0.1, 9.81);
    let j = DMat3::IDENTITY * (0.4 * m * r * r);
    let n = DVec3::Z;
    for (pull, n_expect, lifts) in [(1.5, -9.81, true), (0.5, 9.81, false), (1.0, 0.0, true)] {
        let p = SingleContactProblem::new(m, j, n * r, DVec3::ZERO, n, 0.4)
            .with_loads(DVec3::new(0.1 * m * g, 0.0, -m * g + pull * m * g), DVec3::ZERO);
        let rep = p.analyze().unwrap();
        assert!(rep.well_posed, "{pull}: {:?}", rep.ill_posed_reasons);
        assert!((rep.normal_force_rolling - n_expect).abs() < 1e-9, "{}", rep.normal_force_rolling);
        assert_eq!(rep.lift_off, lifts, "{pull}");
        assert_eq!(rep.rolling_realizable, !lifts, "{pull}");
        if lifts {
            assert!(rep.escape_direction.is_none() && rep.utilization == f64::INFINITY);
        } else {
            assert!((rep.utilization - 0.1 * m * g * 0.4 / 1.4 / (0.4 * 9.81)).abs() < 1e-9);
        }
        assert!(rep.theorem4_consistent);
    }
}
