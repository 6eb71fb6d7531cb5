//! Test problems of docs/contensou.md §4: force-free disc and ball, limit-direction bifurcations, and the
//! stick–slip belt oscillator of [B] §5. Expected numbers are the model notes' "(derived)" values
//! (mpmath / scipy at rtol ≤ 1e-10), used as regression oracles, unless marked otherwise.

#![allow(clippy::needless_range_loop)]

use tribo::contensou::Model;
use tribo_lab::contensou::experiments::{disc_terminal_ratio, BeltOscillator, PlaneProblem};

mod common;
use common::rel;

/// ε* = v/(Rω) of the force-free uniform disc: docs/contensou.md §4.1 (derived; literature value 0.653).
const EPS_STAR: f64 = 0.653001789;

#[test]
fn disc_exact_stop_time_and_terminal_ratio() {
    // docs/contensou.md §4.1 table: exact model, u0 = 1, ω0 = 1 (ε0 = 1), stop at r = 1e-10: t = 1.34029828
    let d = PlaneProblem::disc(Model::Exact);
    let run = d.stop(1.0, 1.0, 1e-10);
    assert!(run.reached);
    assert!(rel(run.t, 1.34029828) < 1e-6, "t_stop = {}", run.t);
    // sliding and spin vanish together: both tiny, their ratio stays at ε* (not 0, not ∞)
    assert!(run.slip < 1e-9 && run.spin < 1e-9);
    assert!((run.eps - EPS_STAR).abs() < 2e-4, "eps = {}", run.eps);
    // terminal ratio as the root of h(ε) = 𝒬 − (4/3)ε𝒯 (docs/contensou.md §4.1 exact row), dh/dε = 0.5803
    let (e, dh) = disc_terminal_ratio();
    assert!((e - EPS_STAR).abs() < 1e-8, "eps* = {e}");
    assert!((dh - 0.5803).abs() < 1e-4, "dh/deps = {dh}");
}

#[test]
fn disc_exact_scaling_law_tau() {
    // docs/contensou.md §4.1: t_stop = (|u0|/μg) τ(ε0), τ(2) = 1.121685, τ(0.5) = 1.903220 (exact)
    let d = PlaneProblem::disc(Model::Exact);
    for (eps0, tau) in [(2.0, 1.121685), (0.5, 1.903220)] {
        let run = d.stop(1.0, 1.0 / eps0, 1e-10);
        assert!(rel(run.t, tau) < 2e-6, "eps0 {eps0}: {}", run.t);
    }
}

#[test]
fn disc_exact_converges_to_eps_star_from_any_start() {
    // docs/contensou.md §4.1: integrate to r = 1e-8 r0, then |ε − ε*| < 2e-4 for ε0 ∈ [0.2, 3];
    // and the derived values of ε at r/r0 = 1e-2, 1e-4, 1e-6, 1e-8 (table measured with
    // r = sqrt(|u|² + (Rω)²)).
    let d = PlaneProblem::disc(Model::Exact);
    let table = [
        (0.2, [0.48607, 0.63691, 0.65202, 0.65294]),
        (1.0, [0.66376, 0.65362, 0.65304, 0.65300]),
        (3.0, [0.69791, 0.65538, 0.65314, 0.65301]),
    ];
    for (eps0, want) in table {
        let r0 = (eps0 * eps0 + 1.0f64).sqrt(); // s0 = ε0, q0 = 1
        let run = d.stop_with_metric(eps0, 1.0, 1e-8 * r0, 1.0);
        assert!((run.eps - EPS_STAR).abs() < 2e-4, "eps0 {eps0}: {}", run.eps);
        for (k, w) in want.iter().enumerate() {
            let f = 10f64.powi(-2 * (k as i32 + 1));
            let e = d.stop_with_metric(eps0, 1.0, f * r0, 1.0).eps;
            assert!((e - w).abs() < 1e-5, "eps0 {eps0} at r/r0 = {f:e}: {e}");
        }
        // |u| and |ω| decrease monotonically along the way
        let mut prev = (f64::INFINITY, f64::INFINITY);
        for k in 1..=8 {
            let r = d.stop(eps0, 1.0, 10f64.powi(-k) * r0);
            assert!(r.slip < prev.0 && r.spin < prev.1);
            prev = (r.slip, r.spin);
        }
    }
}

#[test]
fn disc_approximate_models_stop_times_and_terminal_directions() {
    // docs/contensou.md §4.1 table (derived): stop time and terminal ε per model, ε0 = 1, r = 1e-10.
    let cases = [
        (Model::Harmonic(1), 1.291686, None),
        (Model::Harmonic(2), 1.393254, Some(0.4939)),
        (Model::Harmonic(3), 1.343216, Some(0.5761)),
        (Model::Harmonic(4), 1.345161, Some(0.6106)),
        (Model::Linear, 1.252032, None),
    ];
    for (m, t, eps) in cases {
        let run = PlaneProblem::disc(m).stop(1.0, 1.0, 1e-10);
        assert!(rel(run.t, t) < 1e-6, "{m:?}: t = {}", run.t);
        if let Some(e) = eps {
            assert!((run.eps - e).abs() < 2e-4, "{m:?}: eps = {}", run.eps);
        }
    }
}

#[test]
fn disc_linear_model_wrongly_ends_in_pure_spin() {
    // docs/contensou.md §4.1 ([A], qual + derived): with the linear (and N = 1) model the approach direction
    // goes to the pole: sliding dies before spin, ε → 0. At r = 1e-10 the model notes gives
    // w3 → 0.996 for linear ρ = κ, i.e. ε = ρ w12/w3 ≈ 0.06; the exact model keeps ε* = 0.653.
    for m in [Model::Linear, Model::Harmonic(1)] {
        let d = PlaneProblem::disc(m);
        let mut prev = f64::INFINITY;
        for k in [2, 4, 6, 8, 10] {
            let run = d.stop(1.0, 1.0, 10f64.powi(-k));
            assert!(run.eps < prev, "{m:?}: ε must keep decreasing");
            prev = run.eps;
        }
        assert!(prev < 0.08, "{m:?}: terminal ε = {prev}");
        let w3 = 1.0 / (1.0 + (prev / (2.0 / 3.0)).powi(2)).sqrt();
        if m == Model::Linear {
            assert!((w3 - 0.996).abs() < 1e-3, "w3 = {w3}");
        }
    }
    // and it has no interior F = 0 direction (only the pole), unlike the exact law
    assert!(PlaneProblem::disc(Model::Linear).bifurcations().w3_at_zero_force.is_none());
    assert!(PlaneProblem::disc(Model::Exact).bifurcations().w3_at_zero_force.is_some());
}

#[test]
fn disc_bifurcation_values() {
    // docs/contensou.md §4.1 numbers table (derived; F_P = 1/9 of the linear model is [A]'s formula).
    let tol = 1e-5;
    let b = PlaneProblem::disc(Model::Exact).bifurcations();
    assert!((b.f_t - 1.0).abs() < tol && (b.f_p - 0.5).abs() < tol);
    let (ff, w3) = b.fold.expect("exact model has a fold");
    assert!((ff - 0.0804632471).abs() < tol && (w3 - 0.876431).abs() < tol, "{ff} {w3}");
    assert!((b.w3_at_zero_force.unwrap() - 0.714390).abs() < tol);

    let b = PlaneProblem::disc(Model::Linear).bifurcations();
    assert!((b.f_t - 1.0).abs() < tol && (b.f_p - 1.0 / 9.0).abs() < tol && b.fold.is_none());
    let b = PlaneProblem::disc(Model::Harmonic(1)).bifurcations();
    assert!((b.f_t - 0.965989).abs() < tol && (b.f_p - 0.099669).abs() < tol && b.fold.is_none());

    for (n, ft, fp, ff, w3f, w30) in [
        (2u8, 1.047321, 0.390220, 0.049040, 0.939105, 0.803588),
        (3, 1.012863, 0.628721, 0.088618, 0.920087, 0.756638),
        (4, 0.992086, 0.598482, 0.088791, 0.884857, 0.737446),
    ] {
        let b = PlaneProblem::disc(Model::Harmonic(n)).bifurcations();
        let (f, w) = b.fold.expect("fold");
        assert!((b.f_t - ft).abs() < tol, "N={n} F_T {}", b.f_t);
        assert!((b.f_p - fp).abs() < tol, "N={n} F_P {}", b.f_p);
        assert!((f - ff).abs() < tol, "N={n} F_F {f}");
        assert!((w - w3f).abs() < 1e-4, "N={n} fold w3 {w}");
        assert!((b.w3_at_zero_force.unwrap() - w30).abs() < tol, "N={n}");
    }
}

#[test]
fn disc_n2_closed_form_fold_matches_scan() {
    // [A] (138) with k1 = C1 − 8S1/9, k2 = C2 − 8S2/9: w3 = sqrt((2k2−k1)/(3k2)),
    // F_F = sqrt(4(k1+k2)³/(27k2)); F = 0 direction w3 = sqrt(−k1/k2).
    let d = PlaneProblem::disc(Model::Harmonic(2));
    let t = d.patch.harmonic_table();
    let (c, s) = (t.poly_c[1], t.poly_s[1]);
    let k1 = c[0] - 8.0 / 9.0 * s[0];
    let k2 = c[1] - 8.0 / 9.0 * s[1];
    let b = d.bifurcations();
    let (ff, w3) = b.fold.unwrap();
    assert!((ff - (4.0 * (k1 + k2).powi(3) / (27.0 * k2)).sqrt()).abs() < 1e-9);
    assert!((w3 - ((2.0 * k2 - k1) / (3.0 * k2)).sqrt()).abs() < 1e-6);
    assert!((b.w3_at_zero_force.unwrap() - (-k1 / k2).sqrt()).abs() < 1e-9);
}

#[test]
fn disc_limit_direction_spot_checks() {
    // docs/contensou.md §4.1 "limit-direction spot checks" (derived, μg = 1).
    let close = |a: f64, b: f64| (a - b).abs() < 2e-6;
    let n2 = PlaneProblem::disc(Model::Harmonic(2));
    let d = n2.limit_directions(0.2);
    assert_eq!(d.len(), 1);
    assert!(close(d[0].w1, 0.859766) && close(d[0].w3, 0.510688) && close(d[0].r_star, -0.729854));
    // pure slide ŵ1 = (1,0,0): R* = −C1 + F = −0.847321
    assert!(close(n2.r_star(1.0, 0.0, 0.2), -0.847321));
    let d = n2.limit_directions(0.02);
    let neg: Vec<_> = d.iter().filter(|l| l.w1 < 0.0).collect();
    assert_eq!(neg.len(), 2);
    assert!(neg
        .iter()
        .any(|l| close(l.w1, -0.541400) && close(l.w3, 0.840765) && close(l.r_star, -0.854294)));
    assert!(neg
        .iter()
        .any(|l| close(l.w1, -0.095920) && close(l.w3, 0.995389) && close(l.r_star, -0.933494)));
    let ex = PlaneProblem::disc(Model::Exact).limit_directions(0.02);
    assert_eq!(ex.len(), 3);
    for (w1, w3) in [(0.716927, 0.697148), (-0.678682, 0.734432), (-0.090502, 0.995896)] {
        assert!(ex.iter().any(|l| close(l.w1, w1) && close(l.w3, w3) && l.r_star < 0.0), "{w1} {w3}");
    }
    let n1 = PlaneProblem::disc(Model::Harmonic(1)).limit_directions(0.05);
    assert_eq!(n1.len(), 1);
    assert!(close(n1[0].w1, 0.501663) && close(n1[0].w3, 0.865063));
}

#[test]
fn ball_bifurcations_no_fold() {
    // docs/contensou.md §4.2 table (derived): F_T, F_P at λ = 5, 10; exact F_P = 7/2 − 1/(2λ²).
    let tol = 1e-5;
    for (m, ft, fp5, fp10) in [
        (Model::Harmonic(1), 3.387569, 3.353663, 3.379093),
        (Model::Harmonic(2), 3.648629, 3.622164, 3.642013),
        (Model::Exact, 3.5, 3.48, 3.495),
    ] {
        let b5 = PlaneProblem::ball(m, 5.0).bifurcations();
        let b10 = PlaneProblem::ball(m, 10.0).bifurcations();
        assert!(
            (b5.f_t - ft).abs() < tol && (b5.f_p - fp5).abs() < tol && (b10.f_p - fp10).abs() < tol,
            "{m:?}"
        );
    }
    // no fold and no interior F = 0 root for exact and N ≤ 4, λ ∈ {5, 10} (docs/contensou.md §4.2, derived)
    for m in [Model::Exact, Model::Harmonic(1), Model::Harmonic(2), Model::Harmonic(3), Model::Harmonic(4)] {
        for l in [5.0, 10.0] {
            let b = PlaneProblem::ball(m, l).bifurcations();
            assert!(b.fold.is_none() && b.w3_at_zero_force.is_none(), "{m:?} λ={l}");
        }
    }
}

#[test]
fn ball_exact_stop_time() {
    // docs/contensou.md §4.2 simulation regression (exact, derived): λ = 5, R = 1, μg = 1, u0 = ω0 = 1:
    // t_stop = 17.0892; the approach is to the pole (ε → 0).
    let run = PlaneProblem::ball(Model::Exact, 5.0).stop(1.0, 1.0, 1e-10);
    assert!((run.t - 17.0892).abs() < 1e-4, "{}", run.t);
    assert!(run.eps.abs() < 1e-6 && run.slip.abs() < 1e-12);
}

#[test]
fn belt_oscillator_case_a_m05() {
    // docs/contensou.md §4.3 derived reference (m = 0.5, η′ = 13.7627, ε = 1e-5): period 99.863 (0.1 %),
    // ranges x ∈ [5.677, 19.834], φ ∈ [−16.650, −3.026], ẋ ∈ [−8.868, 1.011],
    // φ̇ ∈ [−11.144, 9.888] (0.5 %); stick exit on the static ellipse at η = 4.98.
    let o = BeltOscillator::paper(0.5, 13.7627, 1e-5).run([0.0; 4], 1000.0);
    assert!(rel(o.period, 99.863) < 1e-3, "period {}", o.period);
    let want = [5.677, 19.834, -16.650, -3.026, -8.868, 1.011, -11.144, 9.888];
    for i in 0..8 {
        assert!(rel(o.ranges[i], want[i]) < 5e-3, "range {i}: {} vs {}", o.ranges[i], want[i]);
    }
    check_invariants(&o, 4.98);
}

#[test]
fn belt_oscillator_case_b_m05_ic_independent() {
    // docs/contensou.md §4.3 derived reference (m = 0.5, η = 2.7 ⇒ η′ = 6.70852 by exact inversion):
    // period 60.8214, IC-independent (also from (−5, 5, 0, 1)); x ∈ [11.198, 19.724],
    // φ ∈ [−14.893, −11.002], ẋ ∈ [−4.846, 0.150], φ̇ ∈ [−3.674, 2.651].
    let ep = tribo::contensou::eta_prime_of_eta(2.7).unwrap();
    let osc = BeltOscillator::paper(0.5, ep, 1e-5);
    let want = [11.198, 19.724, -14.893, -11.002, -4.846, 0.150, -3.674, 2.651];
    for y0 in [[0.0; 4], [-5.0, 5.0, 0.0, 1.0]] {
        let o = osc.run(y0, 800.0);
        assert!(rel(o.period, 60.8214) < 1e-3, "period {}", o.period);
        for i in 0..8 {
            assert!(rel(o.ranges[i], want[i]) < 5e-3, "range {i}: {} vs {}", o.ranges[i], want[i]);
        }
        check_invariants(&o, 2.7);
    }
    // the printed η′ = 6.7627 (paper typo, docs/contensou.md §6 #24) gives period 61.1113 (derived): 0.5 %
    // longer, which is how large the typo's effect is
    let o = BeltOscillator::paper(0.5, 6.7627, 1e-5).run([0.0; 4], 800.0);
    assert!(rel(o.period, 61.1113) < 1e-3, "period {}", o.period);
}

fn check_invariants(o: &tribo_lab::contensou::experiments::OscillatorStats, eta: f64) {
    // docs/contensou.md §4.3 invariant checks: in stick max |v_s|, |ω_s| < 1e-3 and median |v_s| ≈ 0.1 ε
    // (1e-6 at ε = 1e-5); stick ends on the static ellipse (gauge = η, measured 4.9800);
    // translational and rotational stick coincide (fractions equal to 3 digits).
    assert!(o.stick_max_slip.0 < 1e-3 && o.stick_max_slip.1 < 1e-3);
    assert!(o.stick_median_slip < 1e-5, "median slip {}", o.stick_median_slip);
    assert!((o.exit_gauge - eta).abs() < 2e-3 * eta, "gauge {}", o.exit_gauge);
    let (tr, rot) = o.partial_stick_fractions;
    assert!((tr - rot).abs() < 1e-3 && (tr - o.stick_fraction).abs() < 1e-3);
    // During stick ẋ = v_b, so the x range of a cycle equals v_b × stick time (kinematic check
    // of the measured stick fraction; the model notes' 0.76/0.79 fractions are not consistent with
    // its own x ranges and are not asserted).
    let dx = o.ranges[1] - o.ranges[0];
    assert!(
        rel(0.15 * o.stick_fraction * o.period, dx) < 2e-3,
        "{} vs {dx}",
        0.15 * o.stick_fraction * o.period
    );
}

#[test]
fn limit_direction_stability_types() {
    // docs/contensou.md §4.1 spot checks and cases table (classification exact, §4.4 item 7):
    use tribo_lab::contensou::experiments::DirectionKind::*;
    let n2 = PlaneProblem::disc(Model::Harmonic(2));
    // N = 2, F = 0.2 (case 3): non-trivial pair is a stable node, ŵ1 a saddle
    assert_eq!(n2.limit_directions(0.2)[0].kind, StableNode);
    assert_eq!(n2.classify(1.0, 0.0, 0.2).2, Saddle);
    // ŵ2 = (−1, 0, 0) is always an attracting unstable node
    assert_eq!(n2.classify(-1.0, 0.0, 0.2).2, UnstableNode);
    assert!(n2.r_star(-1.0, 0.0, 0.2) < 0.0);
    // N = 2, F = 0.02 (case 4): (−0.5414, ±0.8408) saddle, (−0.0959, ±0.9954) unstable node
    for l in n2.limit_directions(0.02) {
        let want = if l.w1 > 0.0 {
            StableNode
        } else if l.w1 < -0.3 {
            Saddle
        } else {
            UnstableNode
        };
        assert_eq!(l.kind, want, "{l:?}");
    }
    // N = 1, F = 0.05: stable node
    assert_eq!(PlaneProblem::disc(Model::Harmonic(1)).limit_directions(0.05)[0].kind, StableNode);
    // exact model: case 4 at F = 0.02 like N = 2; case 2 (F_P < F < F_T): ŵ1 attracting stable
    // node; case 1 (F > F_T): ŵ1 repelling (R* > 0)
    let ex = PlaneProblem::disc(Model::Exact);
    let kinds: Vec<_> = ex.limit_directions(0.02).iter().map(|l| l.kind).collect();
    assert_eq!(kinds, vec![StableNode, Saddle, UnstableNode]);
    assert_eq!(ex.classify(1.0, 0.0, 0.7).2, StableNode);
    assert!(ex.r_star(1.0, 0.0, 0.7) < 0.0 && ex.r_star(1.0, 0.0, 1.2) > 0.0);
}

#[test]
fn belt_oscillator_event_driven_reference_agrees_with_smooth_model() {
    // docs/contensou.md §4.4 item 10: an event-driven set-valued reference (§3.6) must give the same
    // period as the smooth model at ε = 1e-5 to 0.05 % ([B] Fig. 4: the curves overlap).
    // Smooth-model periods: docs/contensou.md §4.3 derived 99.863 (η′ = 13.7627) and 60.8214 (η = 2.7).
    use tribo::contensou::{eta_of_eta_prime, eta_prime_of_eta};
    for (ep, period, x_range) in
        [(13.7627, 99.863, (5.677, 19.834)), (eta_prime_of_eta(2.7).unwrap(), 60.8214, (11.198, 19.724))]
    {
        let osc = BeltOscillator::paper(0.5, ep, 1e-5);
        let eta = eta_of_eta_prime(ep).0;
        let ev = osc.run_event_driven(0.0, 0.0, eta, 1500.0);
        assert!(rel(ev.period, period) < 5e-4, "event-driven period {} vs {period}", ev.period);
        // the last two periods agree (settled period-1 orbit)
        let n = ev.onsets.len();
        let prev = ev.onsets[n - 2] - ev.onsets[n - 3];
        assert!(rel(prev, ev.period) < 1e-5);
        // stick spans the x range of the smooth orbit (x grows at v_b during stick)
        assert!(
            rel(ev.stick_x.0, x_range.0) < 5e-3 && rel(ev.stick_x.1, x_range.1) < 5e-3,
            "{:?}",
            ev.stick_x
        );
    }
}
