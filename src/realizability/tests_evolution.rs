//! Where a slip goes (docs/realizability.md §2.11) on the single-contact worked examples of
//! \[003\]: the sphere pushed by a horizontal force (S4) against the closed-form slip
//! trajectory, and the wheel (S3) against its limit directions.

use crate::realizability::tests_single::wheel;
use crate::realizability::{SingleContactProblem, SlipFate};
use crate::DVec3;
use glam::DMat3;
use std::f64::consts::{PI, TAU};

/// The sphere of S4 (m = 3 kg, ρ = 0.2 m, μ = 0.4, j = 2/5) on the plane z = 0, pushed by
/// `fmag μ m g` along (0.6, 0.8, 0).
fn sphere(fmag: f64) -> (SingleContactProblem, DVec3) {
    let (m, rho, mu, g) = (3.0, 0.2, 0.4, 9.81);
    let dir = DVec3::new(0.6, 0.8, 0.0);
    let p = SingleContactProblem::new(
        m,
        DMat3::IDENTITY * (0.4 * m * rho * rho),
        DVec3::Z * rho,
        DVec3::ZERO,
        DVec3::Z,
        mu,
    )
    .with_loads(dir * (fmag * mu * m * g) - DVec3::Z * (m * g), DVec3::ZERO);
    (p, dir)
}

/// The unit slip at angle `phi` from `dir` in the plane z = 0 (counter-clockwise about +z).
fn slip_at(dir: DVec3, phi: f64) -> DVec3 {
    dir * phi.cos() + DVec3::Z.cross(dir) * phi.sin()
}

/// S4, rolling realizable (`c = |F|/m = 2 μg < A = 3.5 μg`): the slip of a sphere obeys
/// `u̇ = c f̂ − A û` exactly (the field does not depend on the slip speed). In polar form about
/// `f̂`, `ρ̇ = c cos φ − A`, `ρ φ̇ = −c sin φ`, so `d ln ρ/dφ = −cot φ + (A/c)/sin φ`:
/// `ρ = K tan^k(φ/2)/sin φ` with `k = A/c`, and `dt = ρ dφ/(−c sin φ)` integrates (with
/// `s = tan(φ/2)`) to the time to rolling
/// `T = ρ0 [cos²(φ0/2)/(A − c) + sin²(φ0/2)/(A + c)]` (`ρ0/(A − c)` along the force,
/// `ρ0/(A + c)` against it). The slip turns to the force direction (the stable, attracting
/// limit direction) the short way.
#[test]
fn s4_sphere_slip_reaches_rolling_in_the_closed_form_time() {
    let (mu, g) = (0.4, 9.81);
    let (a, c) = (3.5 * mu * g, 2.0 * mu * g);
    let (p, dir) = sphere(2.0);
    let rep = p.analyze().unwrap();
    assert!(rep.rolling_realizable);
    let rho0 = 0.7;
    for k in 0..24 {
        let phi0 = (k as f64 * 15.0 + 7.5).to_radians();
        let ev = rep.evolution(slip_at(dir, phi0) * rho0).expect("a slip");
        let half = 0.5 * phi0;
        let want = rho0 * (half.cos().powi(2) / (a - c) + half.sin().powi(2) / (a + c));
        let SlipFate::Rolls { time } = ev.fate else { panic!("{phi0}: {ev:?}") };
        assert!((time - want).abs() < 1e-7 * want, "φ0 = {phi0}: T = {time}, closed form {want}");
        let fin = ev.final_direction.unwrap();
        assert!((fin.slip_dir - dir).length() < 1e-9, "{fin:?}");
        assert!(fin.attracting && fin.angularly_stable);
        // The short way round: φ0 ∈ (0, π) turns clockwise (negative), (π, 2π) counter-clockwise.
        let short = if phi0 < PI { -phi0 } else { TAU - phi0 };
        assert!((ev.turn - short).abs() < 1e-9, "{phi0}: {}", ev.turn);
        assert_eq!(ev.reverses(), phi0.cos() < 0.0);
        assert!((ev.speed - rho0).abs() < 1e-12);
    }
    // Along the force the slip keeps its direction: T = ρ0/(A − c).
    let ev = rep.evolution(dir * rho0).unwrap();
    assert!(ev.keeps_direction(1e-12));
    let time = ev.time_to_rolling().unwrap();
    assert!((time - rho0 / (a - c)).abs() < 1e-12, "{time}");
}

/// S4 beyond the realizable region (`c = 5 μg > A`): the force direction is the stable,
/// repelling limit direction (R = c − A > 0): every slip off the opposite direction turns to it
/// and grows; it reverses when it starts against the force (cos φ0 < 0). Without a force
/// (`V ≡ 0`, the Continuum case) a slip keeps its direction and ends after `ρ0/A`.
#[test]
fn s4_sphere_slip_grows_along_the_force_or_keeps_its_direction() {
    let (mu, g) = (0.4, 9.81);
    let (p, dir) = sphere(5.0);
    let rep = p.analyze().unwrap();
    assert!(!rep.rolling_realizable);
    for k in 0..24 {
        let phi0 = (k as f64 * 15.0 + 7.5).to_radians();
        let ev = rep.evolution(slip_at(dir, phi0) * 0.3).unwrap();
        assert_eq!(ev.fate, SlipFate::Grows, "{phi0}");
        let fin = ev.final_direction.unwrap();
        assert!((fin.slip_dir - dir).length() < 1e-9 && !fin.attracting && fin.angularly_stable);
        assert!((fin.r - (5.0 - 3.5) * mu * g).abs() < 1e-9, "R = {}", fin.r);
        assert_eq!(ev.reverses(), phi0.cos() < 0.0, "{phi0}");
        assert!(!ev.reaches_rolling() && ev.time_to_rolling().is_none());
    }
    let (p, _) = sphere(0.0);
    let rep = p.analyze().unwrap();
    let ev = rep.evolution(DVec3::new(0.3, -0.4, 0.0)).unwrap();
    assert!(ev.keeps_direction(0.0));
    let SlipFate::Rolls { time } = ev.fate else { panic!("{ev:?}") };
    assert!((time - 0.5 / (3.5 * mu * g)).abs() < 1e-12, "{time}");
    // No slip, or a non-finite one: no evolution.
    assert!(rep.evolution(DVec3::ZERO).is_none());
    assert!(rep.evolution(DVec3::new(f64::NAN, 0.0, 0.0)).is_none());
    // Only the tangential part counts.
    assert_eq!(rep.evolution(DVec3::new(0.3, -0.4, 5.0)).unwrap().speed, 0.5);
}

/// S3, the upright wheel driven by a moment `M_d` about its axle (ω2 ω3 = 0): in units of μg
/// and the wheel's frame (t1 the rolling direction) the field is
/// `F* = (−3 cos φ + c1, −sin φ)` with `c1 = −2 M_d/(m ρ μ g)`, so
/// `V = sin φ (2 cos φ − c1)`, `R = −3 cos² φ + c1 cos φ − sin² φ`, `dV/dφ(0) = 2 − c1`,
/// `dV/dφ(π) = 2 + c1`:
/// * c1 = 1 (case II): limit directions 0 (R = −2), π (R = −4) (both angularly unstable) and
///   `cos φ = c1/2`, ±60° (R = −1, stable): a slip turns to the nearer of ±60° and rolls; one
///   along 60° keeps it and rolls after `ρ0/(1 μg)`;
/// * c1 = 2.5 (case I): 0 (R = −0.5, stable) and π (unstable): every slip but one along π
///   rolls, along 0 after `ρ0/(0.5 μg)`;
/// * c1 = 3.5 (case III): 0 (R = +0.5, stable, repelling) and π: the slip grows along 0 and a
///   slip backwards (170°) reverses.
#[test]
fn s3_wheel_slips_turn_to_the_stable_limit_directions() {
    let (m, rho, mu, g) = (2.0, 0.3, 0.5, 9.81);
    let mug = mu * g;
    let wheel_c1 = |c1: f64| wheel(m, rho, mu, -c1 * m * rho * mug / 2.0, 0.0, 0.0, 0.0).analyze().unwrap();
    let at = |phi: f64| DVec3::new(phi.cos(), phi.sin(), 0.0) * 0.4;
    let deg = |x: f64| x.to_radians();
    // c1 = 1.
    let rep = wheel_c1(1.0);
    for (phi0, to) in
        [(10.0, 60.0), (100.0, 60.0), (170.0, 60.0), (190.0, 300.0), (300.0, 300.0), (350.0, 300.0)]
    {
        let ev = rep.evolution(at(deg(phi0))).unwrap();
        let fin = ev.final_direction.unwrap();
        assert!((fin.phi - deg(to)).abs() < 1e-9, "{phi0} → {}: {:?}", fin.phi.to_degrees(), rep.limit);
        assert!(matches!(ev.fate, SlipFate::Rolls { .. }), "{phi0}: {ev:?}");
        assert!((fin.r + mug).abs() < 1e-9 * mug, "R = {}", fin.r / mug);
    }
    let ev = rep.evolution(at(deg(60.0))).unwrap();
    assert!(ev.keeps_direction(1e-9));
    let time = ev.time_to_rolling().unwrap();
    assert!((time - 0.4 / mug).abs() < 1e-9 * time, "{time}");
    // c1 = 2.5.
    let rep = wheel_c1(2.5);
    for phi0 in [10.0, 90.0, 179.0, 181.0, 270.0] {
        let ev = rep.evolution(at(deg(phi0))).unwrap();
        let phi = ev.final_direction.unwrap().phi;
        assert!(phi.sin().abs() < 1e-9 && phi.cos() > 0.0, "{phi0} → {phi}");
        assert!(matches!(ev.fate, SlipFate::Rolls { .. }), "{phi0}: {ev:?}");
    }
    let ev = rep.evolution(at(0.0)).unwrap();
    assert!((ev.time_to_rolling().unwrap() - 0.4 / (0.5 * mug)).abs() < 1e-9);
    // c1 = 3.5.
    let rep = wheel_c1(3.5);
    assert!(!rep.rolling_realizable);
    let ev = rep.evolution(at(deg(170.0))).unwrap();
    assert_eq!(ev.fate, SlipFate::Grows);
    let phi = ev.final_direction.unwrap().phi;
    assert!(phi.sin().abs() < 1e-9 && phi.cos() > 0.0 && ev.reverses(), "{phi}");
    assert!((ev.turn + deg(170.0)).abs() < 1e-9);
    let ev = rep.evolution(at(deg(20.0))).unwrap();
    assert!(ev.fate == SlipFate::Grows && !ev.reverses());
}
