//! Issue 3 scenarios 1–4 in rapier at dt = 1/60 and 1/240 (default integration parameters
//! otherwise), each with tribo friction and with stock friction.

use tribo::tracking::Mode;
use tribo_lab::rapier::scenarios::*;
use tribo_rapier::Settings;

const DTS: [f32; 2] = [1.0 / 60.0, 1.0 / 240.0];

/// Scenario 1, brick material μs = 0.5, μk = 0.3 (g = 9.81).
/// Expected acceleration when sliding: g(sin α − μk cos α) (Coulomb, docs/tracking.md T1e form).
fn slide_accel(alpha: f64, mu: f64) -> f64 {
    9.81 * (alpha.sin() - mu * alpha.cos())
}

#[test]
fn brick_below_static_angle_stays() {
    // α = 0.4 rad < atan 0.5 = 0.4636: stays, drift < 1 mm over 10 s (issue 3 §1).
    for dt in DTS {
        let r = brick_on_slope(0.4, 0.0, dt, Friction::Tribo, 10.0);
        assert!(!r.nan);
        assert!(r.drift < 1e-3, "dt {dt}: drift {} m", r.drift);
        assert!(r.final_speed < 1e-4, "dt {dt}: speed {}", r.final_speed);
        // Stock (μ = 0.5) also holds a brick at rest here.
        let s = brick_on_slope(0.4, 0.0, dt, Friction::Stock, 10.0);
        assert!(s.drift < 1e-3, "stock drift {}", s.drift);
    }
}

#[test]
fn brick_above_static_angle_slides_with_kinetic_acceleration() {
    // α = 0.6 rad > atan μs: a = g(sin α − μk cos α) within 3 %.
    let expected = slide_accel(0.6, 0.3);
    for dt in DTS {
        let r = brick_on_slope(0.6, 0.0, dt, Friction::Tribo, 2.5);
        assert!((r.accel - expected).abs() < 0.03 * expected, "dt {dt}: a = {} vs {expected}", r.accel);
        // Stock has one coefficient (μ = μs = 0.5): a = g(sin α − μs cos α), far below.
        let s = brick_on_slope(0.6, 0.0, dt, Friction::Stock, 2.5);
        let stock_expected = slide_accel(0.6, 0.5);
        assert!((s.accel - stock_expected).abs() < 0.03 * stock_expected, "stock a = {}", s.accel);
        assert!(s.accel < 0.6 * expected);
    }
}

#[test]
fn brick_hysteresis_between_kinetic_and_static_angles() {
    // atan μk = 0.291 < α = 0.4 < atan μs = 0.464: at rest stays (test above); pushed down-slope
    // at 1 m/s keeps sliding, accelerating at g(sin α − μk cos α) > 0.
    let expected = slide_accel(0.4, 0.3);
    for dt in DTS {
        let r = brick_on_slope(0.4, 1.0, dt, Friction::Tribo, 3.0);
        assert!(r.final_speed > 1.0, "dt {dt}: pushed brick stopped ({})", r.final_speed);
        assert!((r.accel - expected).abs() < 0.03 * expected, "dt {dt}: a = {} vs {expected}", r.accel);
        // Stock cannot do this: the pushed brick decelerates at g(μ cos α − sin α) and stops.
        let s = brick_on_slope(0.4, 1.0, dt, Friction::Stock, 3.0);
        assert!(s.final_speed < 1e-3, "stock pushed brick still moving at {}", s.final_speed);
    }
}

#[test]
fn ball_rolling_stops_at_kinetic_roll_distance() {
    // Scenario 2: distance v0²/(2a), a = T_k R/(I + mR²), T_k = 2 η_r μk R N (docs/tracking.md §3.3),
    // within 5 %; after the stop |v| < 1e-4 and no chatter.
    let expected = ball_rolling_expected(2.0);
    for dt in DTS {
        let r = ball_rolling(2.0, 0.0, dt, Friction::Tribo, 12.0);
        assert!(!r.nan);
        assert!((r.distance - expected).abs() < 0.05 * expected, "dt {dt}: {} vs {expected}", r.distance);
        assert!(r.final_speed < 1e-4, "dt {dt}: final speed {}", r.final_speed);
        assert_eq!(r.flips_after_stop, 0, "dt {dt}: chatter");
        // The measured normal force is m g (solver impulses).
        assert!((r.normal_force - r.mass * 9.81).abs() < 0.01 * r.mass * 9.81, "N = {}", r.normal_force);
        // Stock: no rolling resistance; the ball is still rolling at ~v0 after 12 s.
        let s = ball_rolling(2.0, 0.0, dt, Friction::Stock, 12.0);
        assert!(s.final_speed > 1.9, "stock ball slowed to {}", s.final_speed);
        assert!(s.distance > 3.0 * expected);
    }
}

#[test]
fn roll_resistance_is_isotropic() {
    // Rolling in several directions of the ground plane gives the same stopping distance
    // (motor axis aligned with the rolling direction every step: no box limit).
    let expected = ball_rolling_expected(1.0);
    for theta in [0.0f32, 0.4, std::f32::consts::FRAC_PI_4, 1.1, 2.5] {
        let r = ball_rolling(1.0, theta, 1.0 / 60.0, Friction::Tribo, 6.0);
        assert!((r.distance - expected).abs() < 0.05 * expected, "θ {theta}: {} vs {expected}", r.distance);
    }
}

#[test]
fn slide_friction_is_isotropic() {
    // A brick pushed at 2 m/s on flat ground in several directions stops after v²/(2 μk g).
    let expected = 4.0 / (2.0 * 0.3 * 9.81);
    for theta in [0.0f32, 0.5, std::f32::consts::FRAC_PI_4, 1.3, 2.8] {
        let r = brick_on_slope_dir(0.0, 2.0, theta, 1.0 / 60.0, Friction::Tribo, 2.0);
        assert!((r.drift - expected).abs() < 0.03 * expected, "θ {theta}: {} vs {expected}", r.drift);
    }
}

#[test]
fn ball_on_slope_holds_or_rolls() {
    // Scenario 3: holds (drift < 1 mm / 10 s) at tan α = ½·2η_r μk, rolls away at
    // tan α = 1.5·2η_r μs (docs/tracking.md App. D, T3b: avoid the band between).
    let hold = 0.5 * ball_roll_threshold(Mode::Kinetic) as f32;
    let roll = 1.5 * ball_roll_threshold(Mode::Static) as f32;
    for dt in DTS {
        for theta in [0.0f32, 0.7] {
            let (drift, v) = ball_on_slope(hold, theta, dt, Friction::Tribo, 10.0);
            assert!(drift < 1e-3 && v < 1e-4, "dt {dt} θ {theta}: drift {drift}, v {v}");
            let (drift, v) = ball_on_slope(roll, theta, dt, Friction::Tribo, 3.0);
            assert!(drift > 0.3 && v > 0.3, "dt {dt} θ {theta}: ball did not roll away ({drift}, {v})");
        }
        // Stock: even the gentle slope rolls the ball away.
        let (drift, _) = ball_on_slope(hold, 0.0, dt, Friction::Stock, 10.0);
        assert!(drift > 1.0, "stock drift {drift}");
    }
}

#[test]
fn spinning_sphere_stops_at_kinetic_spin_time() {
    // Scenario 4: stop time I ω0 / T_ψk, T_ψk = η_ψ μk N R (docs/tracking.md §4.3a, 𝒦 = 1/R), within 5 %.
    let expected = spinning_ball_expected(10.0);
    for dt in DTS {
        let (t, w) = spinning_ball(10.0, dt, Friction::Tribo, 3.0);
        assert!((t - expected).abs() < 0.05 * expected, "dt {dt}: {t} vs {expected}");
        assert!(w < 1e-3, "dt {dt}: still spinning at {w}");
        // Stock: a single-point contact has no spin friction; still ~10 rad/s after 3 s.
        let (_, ws) = spinning_ball(10.0, dt, Friction::Stock, 3.0);
        assert!(ws > 9.9, "stock spin {ws}");
    }
}

#[test]
fn paper_sphere_up_incline_t3a() {
    // Scenario 5 (docs/tracking.md T3a): m = 5 kg, R = 0.2 m, 35°, μs = 0.25, μk = 0.2, η_r = 0.3, v0 = 0.5
    // up-slope. At dt = 1e-3 the phases run I → II → III → IV; the final (RwS) phase has
    // acceleration −g(sin α − μk cos α) = −4.0155 m/s² (App. D), within 3 % at 1/60 and 1/240.
    let r = sphere_up_incline(1e-3, Friction::Tribo);
    assert_eq!(r.phases, vec![Phase::I, Phase::II, Phase::III, Phase::IV], "{r:?}");
    // The phases last a few hundredths of a second (emulator: I→II 0.0487 s, III→IV 0.0909 s).
    assert!(r.phase_times[3] < 0.15, "{:?}", r.phase_times);
    let expected = t3_expected_accel();
    for dt in [1e-3, DTS[0], DTS[1]] {
        let r = sphere_up_incline(dt, Friction::Tribo);
        assert!(
            (r.final_accel - expected).abs() < 0.03 * expected.abs(),
            "dt {dt}: {} vs {expected}",
            r.final_accel
        );
        // Rolling with slip at 1 s: v/(ωR) ≈ 0.491/0.2 = 2.455 (emulator), clearly > 1.
        assert!(r.slip_ratio > 2.0, "dt {dt}: v/(ωR) = {}", r.slip_ratio);
        // Stock rolls without slip (v = ωR): no roll resistance, single μ.
        let s = sphere_up_incline(dt, Friction::Stock);
        assert!((s.slip_ratio - 1.0).abs() < 0.02, "stock v/(ωR) = {}", s.slip_ratio);
    }
}

#[test]
fn pile_of_200_spheres_settles() {
    // Scenario 6: full model (slide, roll, spin) on 200 spheres dropped into a box: kinetic
    // energy → 0, no NaN, nobody escapes. Stock spheres keep rolling around the box floor.
    for dt in DTS {
        let r = pile(200, dt, Friction::Tribo, 6.0);
        assert!(!r.nan && r.escaped == 0, "dt {dt}: {r:?}");
        assert!(r.kinetic_energy < 1e-4, "dt {dt}: KE {}", r.kinetic_energy);
        assert!(r.contacts > 200, "pile contacts {}", r.contacts);
        let s = pile(200, dt, Friction::Stock, 6.0);
        assert!(!s.nan && s.escaped == 0);
        assert!(s.kinetic_energy > 0.5, "dt {dt}: stock pile at rest already (KE {})", s.kinetic_energy);
    }
}

/// Steps until every dynamic body of the benchmark pile scene (`n` spheres in a box of
/// half-width `half`, dt = 1/60, tribo with `settings`) is asleep, or `None` within `max_steps`.
fn steps_until_asleep(n: usize, half: f32, settings: Settings, max_steps: usize) -> Option<usize> {
    let (mut sim, _) = pile_scene(n, half, 1.0 / 60.0, Friction::Tribo);
    sim.tribo.as_mut().expect("tribo scene").set_settings(settings);
    (1..=max_steps).find(|_| {
        sim.step();
        sim.world.bodies.iter().all(|(_, b)| !b.is_dynamic() || b.is_sleeping())
    })
}

#[test]
fn anchor_pull_back_does_not_keep_a_pile_awake() {
    // The anchor pull-back only removes creep; it must not inject motion. Reference: the same
    // benchmark piles without pull-back (anchor_gain = 0). An unbounded pull-back (half the
    // deflection per step) made the contacts of a wedged sphere fight each other and kept it
    // spinning at several rad/s, above rapier's sleep thresholds, for ~90 steps longer than the
    // reference; the default pull-back is bounded by the slip-detection speed. Piles are chaotic:
    // any change to the contacts' plans (reordering the solver's joints alone) moves one pile's
    // sleep step by tens of steps either way (a standard deviation of about 35 steps over the
    // piles here, with and without pull-back alike). Hence eight piles (800 to 1150 spheres)
    // and their mean, with a slack of 45 steps (2.6 standard deviations of the difference of
    // two such means).
    let piles: Vec<(usize, f32)> = (0..8).map(|i| (800 + 50 * i, 1.1 + 0.025 * i as f32)).collect();
    let mean = |settings: Settings| {
        let steps: Vec<usize> = piles
            .iter()
            .map(|&(n, half)| {
                steps_until_asleep(n, half, settings, 600)
                    .unwrap_or_else(|| panic!("pile of {n} never fell asleep with {settings:?}"))
            })
            .collect();
        (steps.iter().sum::<usize>() as f64 / steps.len() as f64, steps)
    };
    let (without, w) = mean(Settings { anchor_gain: 0.0, ..Settings::default() });
    let (default, d) = mean(Settings::default());
    assert!(default <= without + 45.0, "asleep at steps {d:?} with the default pull-back, {w:?} without");
}
