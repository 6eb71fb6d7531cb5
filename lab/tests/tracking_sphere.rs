//! T3 — sphere rolling up an incline (docs/tracking.md §7 T3; paper §4.3, Figs. 11–12, Table 2,
//! App. D). Sphere m = 5, R = 0.2, I = 0.08; μs = 0.25, μk = 0.2, K_E = 1e5, K_R by (2b).

use tribo::tracking::Mode;
use tribo_lab::tracking::experiments::{sphere_incline, SteadyClass, DT, G, SPHERE_I, SPHERE_R};

mod common;
use common::rel;

/// Mean acceleration (ẍ, ω̇) over [t0, t1] from the samples.
fn accel(run: &tribo_lab::tracking::experiments::SphereRun, t0: f64, t1: f64) -> (f64, f64) {
    let (a, b) = (run.at(t0), run.at(t1));
    ((b.v - a.v) / (b.t - a.t), (b.omega - a.omega) / (b.t - a.t))
}

#[test]
fn t3a_phases_at_35_degrees() {
    let run = sphere_incline(35.0, 0.3, 1.0, 0.5, DT, 1.0).unwrap();
    let alpha = 35f64.to_radians();
    // Paper: N = 40.1385 N.
    assert!(rel(run.n, 40.1385) < 2e-6, "N = {}", run.n);
    let n = run.n;
    let slide = run.slide_switches();
    let roll = run.roll_switches();
    // Emulator events (±2 ms): slide→k 0.3 ms, roll→k 1.1 ms, I→II slide→s 0.0487 s,
    // roll→s 0.0748 s, roll→k 0.0833 s, III→IV slide→k 0.0909 s; nothing afterwards.
    let near = |t: f64, e: f64| (t - e).abs() <= 2e-3;
    assert_eq!(slide.len(), 3, "slide switches {slide:?}");
    assert!(slide[0].1 == Mode::Kinetic && near(slide[0].0, 0.0003), "{slide:?}");
    assert!(slide[1].1 == Mode::Static && near(slide[1].0, 0.0487), "{slide:?}");
    assert!(slide[2].1 == Mode::Kinetic && near(slide[2].0, 0.0909), "{slide:?}");
    assert_eq!(roll.len(), 3, "roll switches {roll:?}");
    assert!(roll[0].1 == Mode::Kinetic && near(roll[0].0, 0.0011), "{roll:?}");
    assert!(roll[1].1 == Mode::Static && near(roll[1].0, 0.0748), "{roll:?}");
    assert!(roll[2].1 == Mode::Kinetic && near(roll[2].0, 0.0833), "{roll:?}");
    // Phase order I→II→III→IV and the paper's snapshot times inside their phases:
    // I (k,k) at 0.004 s; II (s,k, rolling up) at 0.05 s; III (s,k, rolling down) at 0.09 s;
    // IV (k,k, rolling down with slip) at 0.2 s.
    let s = run.at(0.004);
    assert!(s.slide == Mode::Kinetic && s.roll == Mode::Kinetic && s.v > 0.0);
    let s = run.at(0.05);
    assert!(s.slide == Mode::Static && s.roll == Mode::Kinetic && s.v > 0.0);
    // v/ω ≈ R up to the micro-slip of the stick spring (its oscillation, ~30 ms period, has
    // just started at 0.0487 s).
    assert!(
        (s.v - SPHERE_R * s.omega).abs() < 0.01,
        "pure rolling v/ω ≈ R: v {} Rω {}",
        s.v,
        SPHERE_R * s.omega
    );
    // Emulator at the I→II switch: v = 0.1214, ω = 0.610.
    let sw = run.at(slide[1].0);
    assert!((sw.v - 0.1214).abs() < 1e-3 && (sw.omega - 0.610).abs() < 2e-3, "v {} ω {}", sw.v, sw.omega);
    let s = run.at(0.09);
    assert!(s.slide == Mode::Static && s.roll == Mode::Kinetic && s.v < 0.0);
    let s = run.at(0.2);
    assert!(s.slide == Mode::Kinetic && s.roll == Mode::Kinetic && s.v < 0.0);
    // Phase I/IV accelerations to 1e-6: I: ẍ = −g(sin α + μk cos α) = −7.2266,
    // ω̇ = (μk N R − 2η_r R μk N)/I = +8.0277; IV: ẍ = −g(sin α − μk cos α) = −4.0155,
    // ω̇ = −μk N R (1 − 2η_r)/I = −8.0277 (App. D / docs/tracking.md T3a, exact).
    let a1 = -G * (alpha.sin() + 0.2 * alpha.cos());
    let w1 = (0.2 * n * SPHERE_R - 2.0 * 0.3 * SPHERE_R * 0.2 * n) / SPHERE_I;
    let a4 = -G * (alpha.sin() - 0.2 * alpha.cos());
    let w4 = -0.2 * n * SPHERE_R * (1.0 - 0.6) / SPHERE_I;
    assert!(
        rel(a1, -7.2266) < 1e-5
            && rel(w1, 8.0277) < 1e-5
            && rel(a4, -4.0155) < 1e-5
            && rel(w4, -8.0277) < 1e-5
    );
    let (a, w) = accel(&run, 0.01, 0.04);
    assert!(rel(a, a1) < 1e-6 && rel(w, w1) < 1e-6, "phase I: {a} {w}");
    let (a, w) = accel(&run, 0.3, 1.0);
    assert!(rel(a, a4) < 1e-6 && rel(w, w4) < 1e-6, "phase IV: {a} {w}");
    // |E_f| = μk N = 8.0277 and |T_E| = 2η_r R μk N = 0.9633 to 1e-6 in kinetic phases.
    for t in [0.01, 0.03, 0.2, 0.5, 1.0] {
        let s = run.at(t);
        assert!(rel(s.ef.abs(), 0.2 * n) < 1e-6 && rel(0.2 * n, 8.0277) < 1e-5, "E_f {} at {t}", s.ef);
        assert!(
            rel(s.roll_elastic.abs(), 2.0 * 0.3 * SPHERE_R * 0.2 * n) < 1e-6,
            "T_E {} at {t}",
            s.roll_elastic
        );
    }
    // |E_f| ≤ μs N = 10.0346 at all times.
    assert!(run.samples.iter().all(|s| s.ef.abs() <= 0.25 * n * (1.0 + 1e-12)));
    // Emulator: v(0.5 s) = −1.69191, ω(0.5 s) = −3.5251.
    let h = run.at(0.5);
    assert!((h.v + 1.69191).abs() < 1e-4 && (h.omega + 3.5251).abs() < 1e-3, "v {} ω {}", h.v, h.omega);
    // Emulator: v(1 s) = −3.69966, ω(1 s) = −7.5390; v/ω = 0.491 m > R (slipping).
    let l = run.at(1.0);
    assert!((l.v + 3.69966).abs() < 1e-4 && (l.omega + 7.5390).abs() < 1e-3, "v {} ω {}", l.v, l.omega);
    assert!((l.v / l.omega - 0.491).abs() < 1e-3);
    assert_eq!(run.class(), SteadyClass::RollingWithSlip);
}

#[test]
fn t3b_robust_steady_state_points() {
    // docs/tracking.md T3b (Table 2 classes; emulator robust points), paper settings: half-critical
    // damping, v0 = 0.5 m/s, 1 s. Steady checks over t ∈ [0.8, 1] s.
    let cases: [(f64, f64, SteadyClass); 5] = [
        (3.0, 0.3, SteadyClass::Stationary),
        (18.0, 0.3, SteadyClass::PureRolling),
        (30.0, 0.35, SteadyClass::RollingWithSlip),
        (25.0, 0.6, SteadyClass::PureSliding),
        (10.0, 0.6, SteadyClass::Stationary),
    ];
    for (alpha, eta, class) in cases {
        let run = sphere_incline(alpha, eta, 0.5, 0.5, DT, 1.0).unwrap();
        assert_eq!(run.class(), class, "α = {alpha}°, η_r = {eta}");
        let (a, w) = accel(&run, 0.8, 1.0);
        let l = run.at(1.0);
        let ar = alpha.to_radians();
        match class {
            SteadyClass::Stationary => {
                assert!(l.v.abs() < 1e-6 && l.omega.abs() < 1e-6, "v {} ω {}", l.v, l.omega);
            }
            SteadyClass::PureRolling => {
                // App. D: ẍ = −g(sin α − 2η_r μk cos α)/1.4 = −1.36423 m/s², v = ωR.
                let e = -G * (ar.sin() - 2.0 * eta * 0.2 * ar.cos()) / 1.4;
                assert!(rel(e, -1.36423) < 1e-5);
                assert!(rel(a, e) < 1e-4, "PR ẍ = {a}");
                assert!(rel(l.v / (l.omega * SPHERE_R), 1.0) < 1e-5);
            }
            SteadyClass::RollingWithSlip => {
                // App. D: ẍ = −g(sin α − μk cos α) = −3.20259, ω̇ = −μk g cos α (1 − 2η_r)/(0.4R) = −6.36529.
                let e = -G * (ar.sin() - 0.2 * ar.cos());
                let ew = -0.2 * G * ar.cos() * (1.0 - 2.0 * eta) / (0.4 * SPHERE_R);
                assert!(rel(e, -3.20259) < 1e-5 && rel(ew, -6.36529) < 1e-5);
                assert!(rel(a, e) < 1e-6 && rel(w, ew) < 1e-6, "RwS {a} {w}");
            }
            SteadyClass::PureSliding => {
                // App. D: ẍ = −g(sin α − μk cos α) = −2.36530, ω ≡ 0.
                let e = -G * (ar.sin() - 0.2 * ar.cos());
                assert!(rel(e, -2.36530) < 1e-5);
                assert!(rel(a, e) < 1e-6, "PS ẍ = {a}");
                assert!(run.samples[8000..].iter().all(|s| s.omega.abs() < 1e-6), "ω ≠ 0");
            }
        }
    }
}

#[test]
fn t3b_classes_are_robust_to_damping_start_and_step() {
    // docs/tracking.md T3b: each robust point keeps its class under damping ∈ {½, 1}×critical,
    // v0 ∈ {0, 0.5} and Δt ∈ {1e-4, 5e-5} (checked on two points to bound the run time).
    for (alpha, eta, class) in [(18.0, 0.3, SteadyClass::PureRolling), (25.0, 0.6, SteadyClass::PureSliding)]
    {
        for (damp, v0, dt) in [(1.0, 0.5, 1e-4), (0.5, 0.0, 1e-4), (0.5, 0.5, 5e-5)] {
            let run = sphere_incline(alpha, eta, damp, v0, dt, 1.0).unwrap();
            assert_eq!(run.class(), class, "α = {alpha}, η_r = {eta}, damping {damp}, v0 {v0}, Δt {dt}");
        }
    }
}

#[test]
fn t3b_regime_boundaries() {
    // docs/tracking.md T3b "observed behaviour" (emulator), tested outside the ambiguous bands:
    // PR/RwS follows atan(3.5μs − 5η_rμk) within 1° (29.90° at η_r = 0.3, 18.0° at 0.55);
    // S/PR lies between 6.5° and 7.0° at η_r = 0.3 (near atan(2η_rμk) = 6.84°, not App. D's
    // atan(2η_rμs) = 8.53°); PS needs η_r > 0.5 and appears beyond the PR/RwS line.
    let line = |eta: f64| (3.5f64 * 0.25 - 5.0 * eta * 0.2).atan().to_degrees();
    assert!((line(0.3) - 29.90).abs() < 0.01);
    let cases = [
        (line(0.3) - 1.5, 0.3, SteadyClass::PureRolling),
        (line(0.3) + 1.5, 0.3, SteadyClass::RollingWithSlip),
        (6.0, 0.3, SteadyClass::Stationary),
        (9.5, 0.3, SteadyClass::PureRolling),
        (line(0.55) + 5.0, 0.55, SteadyClass::PureSliding),
        (11.0, 0.55, SteadyClass::Stationary), // below atan(2·0.55·μk) = 12.4°
    ];
    for (alpha, eta, class) in cases {
        let run = sphere_incline(alpha, eta, 0.5, 0.5, DT, 1.0).unwrap();
        assert_eq!(run.class(), class, "α = {alpha:.2}°, η_r = {eta}");
    }
}
