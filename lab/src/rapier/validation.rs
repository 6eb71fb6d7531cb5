//! Validation rows and the tribo-vs-stock comparison of the rapier scenarios
//! ([`crate::rapier::scenarios`]).

use crate::rapier::scenarios::*;
use crate::validation::{Row, Tolerance};
use tribo::tracking::Mode;

/// One scenario quantity: what the friction model predicts, what tribo_rapier measures and
/// what stock rapier does in the same scene.
#[derive(Clone, Debug)]
pub struct Comparison {
    /// Scenario and time step, e.g. `"S2 ball rolling, dt=1/60"`.
    pub scenario: String,
    /// Measured quantity with unit.
    pub quantity: &'static str,
    /// Expected value of the friction model.
    pub expected: f64,
    /// How the tribo value is checked against `expected`.
    pub tolerance: Tolerance,
    /// tribo_rapier's value.
    pub tribo: f64,
    /// Stock rapier's value in the same scene.
    pub stock: f64,
    /// What stock rapier is expected to do (checked): (bound, rule).
    pub stock_check: (f64, Tolerance),
    /// Where the expected value comes from.
    pub source: &'static str,
}

fn dt_name(dt: f32) -> &'static str {
    if dt > 0.01 {
        "1/60"
    } else if dt > 0.002 {
        "1/240"
    } else {
        "1e-3"
    }
}

/// Runs every scenario with tribo and stock friction at `dt` (1/60 and 1/240 in the rows).
pub fn comparisons(dt: f32) -> Vec<Comparison> {
    let d = dt_name(dt);
    let mut out = Vec::new();
    let mut push = |scenario: &str, quantity, expected, tolerance, tribo, stock, stock_check, source| {
        out.push(Comparison {
            scenario: format!("{scenario}, dt={d}"),
            quantity,
            expected,
            tolerance,
            tribo,
            stock,
            stock_check,
            source,
        })
    };
    brick_comparisons(dt, &mut push);
    ball_rolling_comparisons(dt, &mut push);
    ball_on_slope_comparisons(dt, &mut push);
    spin_and_incline_comparisons(dt, &mut push);
    out
}

/// Adds one comparison: scenario (the time step is appended), quantity, expected, tolerance,
/// tribo, stock, stock check and source, as the fields of [`Comparison`].
type Push<'a> = dyn FnMut(&str, &'static str, f64, Tolerance, f64, f64, (f64, Tolerance), &'static str) + 'a;

/// S1: a brick at rest below the static angle, sliding above it, and pushed between the two.
fn brick_comparisons(dt: f32, push: &mut Push) {
    let g = 9.81f64;
    // S1 brick.
    let (t, s) = (
        brick_on_slope(0.4, 0.0, dt, Friction::Tribo, 10.0),
        brick_on_slope(0.4, 0.0, dt, Friction::Stock, 10.0),
    );
    push(
        "S1 brick at rest, α=0.4 < atan μs",
        "drift over 10 s [m]",
        1e-3,
        Tolerance::AtMost,
        t.drift,
        s.drift,
        (1e-3, Tolerance::AtMost),
        "issue 3: < 1 mm",
    );
    let a_exp = g * (0.6f64.sin() - 0.3 * 0.6f64.cos());
    let (t, s) = (
        brick_on_slope(0.6, 0.0, dt, Friction::Tribo, 2.5),
        brick_on_slope(0.6, 0.0, dt, Friction::Stock, 2.5),
    );
    push(
        "S1 brick, α=0.6 > atan μs",
        "acceleration [m/s²]",
        a_exp,
        Tolerance::Rel(0.03),
        t.accel,
        s.accel,
        (g * (0.6f64.sin() - 0.5 * 0.6f64.cos()), Tolerance::Rel(0.03)),
        "g(sin α − μk cos α); stock: single μ = μs",
    );
    let (t, s) = (
        brick_on_slope(0.4, 1.0, dt, Friction::Tribo, 3.0),
        brick_on_slope(0.4, 1.0, dt, Friction::Stock, 3.0),
    );
    push(
        "S1 brick pushed, atan μk < α=0.4 < atan μs",
        "acceleration [m/s²]",
        g * (0.4f64.sin() - 0.3 * 0.4f64.cos()),
        Tolerance::Rel(0.03),
        t.accel,
        s.final_speed,
        (1e-3, Tolerance::AtMost),
        "keeps sliding: g(sin α − μk cos α); stock: stops (final speed shown)",
    );
}

/// S2: a ball rolling out from 2 m/s: its stopping distance, its rest after the stop, no chatter.
fn ball_rolling_comparisons(dt: f32, push: &mut Push) {
    // S2 ball rolling.
    let (t, s) = (
        ball_rolling(2.0, 0.0, dt, Friction::Tribo, 12.0),
        ball_rolling(2.0, 0.0, dt, Friction::Stock, 12.0),
    );
    push(
        "S2 ball rolling from 2 m/s",
        "stopping distance [m]",
        ball_rolling_expected(2.0),
        Tolerance::Rel(0.05),
        t.distance,
        s.distance,
        (20.0, Tolerance::AtLeast),
        "v0²/(2a), a = T_k R/(I+mR²), T_k = 2η_r μk R N; stock: distance in 12 s",
    );
    push(
        "S2 ball rolling from 2 m/s",
        "speed after the stop [m/s]",
        1e-4,
        Tolerance::AtMost,
        t.final_speed,
        s.final_speed,
        (1.9, Tolerance::AtLeast),
        "issue 3: |v| < 1e-4; stock keeps rolling",
    );
    push(
        "S2 ball rolling from 2 m/s",
        "ω sign flips 0.5–2 s after the stop",
        0.0,
        Tolerance::Abs(0.0),
        t.flips_after_stop as f64,
        s.flips_after_stop as f64,
        (0.0, Tolerance::AtLeast),
        "no chatter",
    );
}

/// S3: a ball at rest on a slope that it holds, and on one it rolls down.
fn ball_on_slope_comparisons(dt: f32, push: &mut Push) {
    // S3 ball on a slope.
    let hold = 0.5 * ball_roll_threshold(Mode::Kinetic) as f32;
    let roll = 1.5 * ball_roll_threshold(Mode::Static) as f32;
    let (t, s) = (
        ball_on_slope(hold, 0.0, dt, Friction::Tribo, 10.0),
        ball_on_slope(hold, 0.0, dt, Friction::Stock, 10.0),
    );
    push(
        "S3 ball at rest, tan α = η_r μk",
        "drift over 10 s [m]",
        1e-3,
        Tolerance::AtMost,
        t.0,
        s.0,
        (1.0, Tolerance::AtLeast),
        "App. D: holds; stock rolls away",
    );
    let (t, s) = (
        ball_on_slope(roll, 0.0, dt, Friction::Tribo, 3.0),
        ball_on_slope(roll, 0.0, dt, Friction::Stock, 3.0),
    );
    push(
        "S3 ball at rest, tan α = 3 η_r μs",
        "drift over 3 s [m]",
        0.3,
        Tolerance::AtLeast,
        t.0,
        s.0,
        (0.3, Tolerance::AtLeast),
        "App. D: rolls away",
    );
}

/// S4: a sphere spinning down from 10 rad/s; S5 (T3a): a sphere sent up a 35° incline.
fn spin_and_incline_comparisons(dt: f32, push: &mut Push) {
    // S4 spin.
    let (t, s) =
        (spinning_ball(10.0, dt, Friction::Tribo, 3.0), spinning_ball(10.0, dt, Friction::Stock, 3.0));
    push(
        "S4 sphere spinning at 10 rad/s",
        "stop time [s]",
        spinning_ball_expected(10.0),
        Tolerance::Rel(0.05),
        t.0,
        s.1,
        (9.9, Tolerance::AtLeast),
        "I ω0/T_ψk, T_ψk = η_ψ μk N R; stock: |ω| after 3 s shown",
    );
    // S5 T3a.
    let (t, s) = (sphere_up_incline(dt, Friction::Tribo), sphere_up_incline(dt, Friction::Stock));
    push(
        "S5 T3a sphere up 35°",
        "final acceleration [m/s²]",
        t3_expected_accel(),
        Tolerance::Rel(0.03),
        t.final_accel,
        s.final_accel,
        (-9.8 * 35f64.to_radians().sin() / 1.4, Tolerance::Rel(0.03)),
        "−g(sin α − μk cos α) (RwS); stock rolls without slip: −g sin α/1.4",
    );
    push(
        "S5 T3a sphere up 35°",
        "v/(ωR) at 1 s",
        2.455,
        Tolerance::Rel(0.05),
        t.slip_ratio,
        s.slip_ratio,
        (1.0, Tolerance::Rel(0.02)),
        "docs/tracking.md T3a emulator 0.491 m/R",
    );
}

/// Runs the rapier scenarios (tribo and stock) at dt = 1/60 and 1/240 (T3a phases at 1e-3,
/// the pile at 1/60) and returns one row per checked number; stock rows check stock rapier's
/// own (different) behaviour.
pub fn validation_rows() -> Vec<Row> {
    let mut rows = Vec::new();
    for dt in [1.0 / 60.0, 1.0 / 240.0] {
        for c in comparisons(dt) {
            rows.push(Row::new(
                format!("rapier {}", c.scenario),
                format!("{} (tribo)", c.quantity),
                c.expected,
                c.tribo,
                c.tolerance,
                c.source,
            ));
            rows.push(Row::new(
                format!("rapier {}", c.scenario),
                format!("{} (stock rapier)", c.quantity),
                c.stock_check.0,
                c.stock,
                c.stock_check.1,
                "stock rapier behaviour",
            ));
        }
    }
    rows.extend(super::fidelity::validation_rows());
    rows.extend(super::game_step::validation_rows());
    rows.extend(super::onset::validation_rows());
    rows.extend(super::slip_fate::validation_rows());
    let r = sphere_up_incline(1e-3, Friction::Tribo);
    rows.push(Row::flag(
        "rapier S5 T3a sphere up 35°, dt=1e-3",
        format!("phase order I→II→III→IV (got {:?})", r.phases),
        r.phases == [Phase::I, Phase::II, Phase::III, Phase::IV],
        "docs/tracking.md T3a",
    ));
    let t = pile(200, 1.0 / 60.0, Friction::Tribo, 6.0);
    let s = pile(200, 1.0 / 60.0, Friction::Stock, 6.0);
    rows.push(Row::new(
        "rapier S6 pile of 200 spheres, dt=1/60",
        "kinetic energy at 6 s [J] (tribo)",
        1e-4,
        t.kinetic_energy,
        Tolerance::AtMost,
        "settles to rest",
    ));
    rows.push(Row::flag(
        "rapier S6 pile of 200 spheres, dt=1/60",
        "no NaN, no body escaped (tribo)",
        !t.nan && t.escaped == 0,
        "issue 3",
    ));
    rows.push(Row::new(
        "rapier S6 pile of 200 spheres, dt=1/60",
        "kinetic energy at 6 s [J] (stock rapier)",
        0.5,
        s.kinetic_energy,
        Tolerance::AtLeast,
        "stock spheres keep rolling",
    ));
    // Realizability diagnostic (issue 5): ball in a right-angle trough.
    rows.extend(crate::rapier::trough::validation_rows());
    // Realizability diagnostic (issue 16): wheelset on two rails, contacts of different curvature.
    rows.extend(crate::rapier::wheelset::validation_rows());
    // Contensou contact model (issue 4): puck and Hertz-ball scenes.
    rows.extend(crate::rapier::contensou_scenarios::validation_rows());
    rows
}
