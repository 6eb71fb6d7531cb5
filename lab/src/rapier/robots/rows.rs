//! The `robot …` validation rows: the URDF gripper ([`super::gripper`]) and the
//! differential-drive robot ([`super::drive`]) on multibody and impulse joints, at dt = 1/60
//! and 1/240 (and the box grip at 1/1000), with tribo and stock rapier side by side. Every
//! expected number is the mechanics of the scene, derived in the scene's module docs.
//!
//! ```text
//! cargo run --release -p tribo_lab --no-default-features --features rapier-0-36 --bin validate -- --only robot
//! ```

use super::gripper::{self as grip, Object};
use crate::rapier::scenarios::Friction;
use crate::validation::{Row, Tolerance};
use tribo_rapier::urdf::Joints;

/// The steps the rows run at.
const DTS: [(f32, &str); 2] = [(1.0 / 60.0, "1/60"), (1.0 / 240.0, "1/240")];
/// The joint kinds the rows run on.
const JOINTS: [(Joints, &str); 2] = [(Joints::Multibody, "multibody"), (Joints::Impulse, "impulse")];
/// How far below and above a threshold the hold rows look (a share of it).
const MARGIN: f64 = 0.02;
/// A held box's largest drop over the [`grip::HOLD_WINDOW`] (m), and a held rod's largest
/// swing (rad).
const HELD: (f64, f64) = (1e-4, 1e-3);
/// The drop (m) or swing (rad) at which a hold run stops: the object was not held.
const LOST: (f64, f64) = (0.03, 0.5);

fn name(f: Friction) -> &'static str {
    match f {
        Friction::Tribo => "tribo",
        Friction::Stock => "stock",
    }
}

/// Every `robot …` row.
pub fn validation_rows() -> Vec<Row> {
    let mut rows = Vec::new();
    for (joints, jn) in JOINTS {
        for (dt, dn) in DTS {
            rows.extend(box_rows(joints, dt, &format!("robot gripper box, {jn} joints, dt={dn}")));
            rows.extend(rod_rows(joints, dt, &format!("robot gripper rod, {jn} joints, dt={dn}")));
            rows.extend(ball_rows(joints, dt, &format!("robot gripper ball, {jn} joints, dt={dn}")));
        }
    }
    rows.extend(box_rows(Joints::Impulse, 1.0 / 1000.0, "robot gripper box, impulse joints, dt=1/1000"));
    rows.extend(super::drive::validation_rows());
    rows
}

/// The box between flat pads: held at `(1 + MARGIN)` times `F* = m g/(2 μs)`, slipping at
/// `(1 − MARGIN)` times it with `a = g − 2 μk F/m` (stock: `g − 2 μs F/m`, its one coefficient),
/// and (1/60 and 1/240) the re-grip hysteresis.
fn box_rows(joints: Joints, dt: f32, case: &str) -> Vec<Row> {
    let mut rows = Vec::new();
    let f_star = grip::box_hold_force();
    let (above, below) = ((1.0 + MARGIN) * f_star, (1.0 - MARGIN) * f_star);
    for friction in [Friction::Tribo, Friction::Stock] {
        let n = name(friction);
        let held = grip::hold(Object::Box, joints, dt, friction, above);
        rows.push(Row::new(
            case,
            format!("{n}: drop over the last {} s at F = 1.02 F* [m] (held)", grip::HOLD_WINDOW),
            HELD.0,
            held.creep,
            Tolerance::AtMost,
            "2 μs F ≥ m g: held (F* = m g/(2 μs) = 1.635 N)",
        ));
        let slip = grip::hold(Object::Box, joints, dt, friction, below);
        rows.push(Row::new(
            case,
            format!("{n}: drop at F = 0.98 F* [m] (slips)"),
            LOST.0,
            slip.total,
            Tolerance::AtLeast,
            "2 μs F < m g: slips",
        ));
        let mu = if friction == Friction::Tribo { grip::MU.1 } else { grip::MU.0 };
        rows.push(Row::new(
            case,
            format!("{n}: slip acceleration at F = 0.98 F* [m/s²]"),
            grip::G - 2.0 * mu * below / grip::BOX_MASS,
            slip.accel,
            Tolerance::Rel(0.02),
            if friction == Friction::Tribo {
                "a = g − 2 μk F/m"
            } else {
                "a = g − 2 μ F/m (stock: one coefficient, μs)"
            },
        ));
    }
    if dt < 1.0 / 500.0 {
        return rows;
    }
    let hold = grip::box_hold_force();
    let [_, mid, last] = grip::REGRIP_FORCES.map(|r| r * hold);
    for friction in [Friction::Tribo, Friction::Stock] {
        let n = name(friction);
        let r = grip::regrip(joints, dt, friction);
        if friction == Friction::Tribo {
            rows.push(Row::new(
                case,
                format!("{n}: re-grip, acceleration at F = 1.1 F* after a slip [m/s²]"),
                grip::box_slip_accel(mid),
                r.accel_mid,
                Tolerance::Rel(0.02),
                "m g/(2 μs) < F < m g/(2 μk): the slip goes on at a = g − 2 μk F/m",
            ));
            let t = r.v_last / (2.0 * grip::MU.1 * last / grip::BOX_MASS - grip::G);
            rows.push(Row::new(
                case,
                format!("{n}: re-grip, stop time at F = 1.5 F* [s]"),
                t,
                r.stop_time,
                Tolerance::Abs(0.01 * t + dt as f64),
                "t = v/(2 μk F/m − g), within 1 % + one step",
            ));
        } else {
            let decel = 2.0 * grip::MU.0 * mid / grip::BOX_MASS - grip::G;
            rows.push(Row::new(
                case,
                format!("{n}: re-grip, speed after {} s at F = 1.1 F* [m/s]", grip::REGRIP_PHASES[1]),
                (r.v_mid - decel * grip::REGRIP_PHASES[1]).max(0.0),
                r.v_last,
                Tolerance::Abs(0.005),
                "stock: one coefficient μs, the slip stops at 2 μs F/m − g (no hysteresis)",
            ));
        }
        rows.push(Row::new(
            case,
            format!("{n}: re-grip, drop over {} s after the stop [m] (held)", grip::HOLD_WINDOW),
            HELD.0,
            r.creep.abs(),
            Tolerance::AtMost,
            "held from the step the slip stops",
        ));
    }
    rows
}

/// The rod pinched by the round pads `d` off its centre of mass: held at `(1 − MARGIN) d*`,
/// `d* = 2 c_s F/(m g)`, swinging at `(1 + MARGIN) d*`, and at `1.5 d*` with
/// `α = (m g d − 2 c_k F)/(I_c + m d²)`; stock rapier (no torsional friction at a point
/// contact) swings freely at `(1 − MARGIN) d*`, `α = m g d/(I_c + m d²)`.
fn rod_rows(joints: Joints, dt: f32, case: &str) -> Vec<Row> {
    let d_star = grip::rod_hold_offset();
    let hold = |d: f64, f: Friction| grip::hold(Object::Rod(d), joints, dt, f, grip::PINCH_FORCE);
    let below = (1.0 - MARGIN) * d_star;
    let held = hold(below, Friction::Tribo);
    let swings = hold((1.0 + MARGIN) * d_star, Friction::Tribo);
    let fast = hold(1.5 * d_star, Friction::Tribo);
    let stock = hold(below, Friction::Stock);
    vec![
        Row::new(
            case,
            format!("tribo: swing over the last {} s at d = 0.98 d* [rad] (held)", grip::HOLD_WINDOW),
            HELD.1,
            held.creep.abs(),
            Tolerance::AtMost,
            "m g d ≤ 2 c_s F: held (d* = 2 c_s F/(m g) = 27.2 mm)",
        ),
        Row::new(
            case,
            "tribo: swing at d = 1.02 d* [rad] (swings)",
            LOST.1,
            swings.total,
            Tolerance::AtLeast,
            "m g d > 2 c_s F: swings",
        ),
        Row::new(
            case,
            "tribo: angular acceleration at d = 1.5 d* [rad/s²]",
            grip::rod_swing_accel(1.5 * d_star, true),
            fast.accel,
            Tolerance::Rel(0.02),
            "α = (m g d − 2 c_k F)/(I_c + m d²)",
        ),
        Row::new(
            case,
            "stock: angular acceleration at d = 0.98 d* [rad/s²]",
            grip::rod_swing_accel(below, false),
            stock.accel,
            Tolerance::Rel(0.02),
            "stock: one point per round pad, no torsional friction: α = m g d/(I_c + m d²)",
        ),
    ]
}

/// The ball (centre of mass `d` off its centre) pinched by the round pads: it turns about the
/// line through its two pad contacts, so it is held iff `m g ℓ ≤ 2 · ½ a μs F` (the pads' Hertz
/// spin capacity, `a` the Hertz contact radius at `N = F`), `ℓ` the weight's lever arm about
/// that line ([`grip::weight_arm`], measured when the weight comes on). The runs are placed at
/// `m g ℓ` = `(1 ∓ MARGIN)` times the capacity (the offset `d` corrected by the squeezed arm's
/// miss). Stock rapier (no torsional friction at a point contact) lets the ball swing down at
/// `0.98 d*`, `d* = a μs F/(m g)` the nominal threshold offset.
fn ball_rows(joints: Joints, dt: f32, case: &str) -> Vec<Row> {
    let torque = grip::ball_hold_torque();
    let weight = grip::BALL.1 * grip::G;
    let scene = |d: f64, f: Friction| grip::GripScene::new(Object::Ball(d), joints, dt, f, grip::PINCH_FORCE);
    let d0 = grip::ball_hold_offset();
    // The offset whose squeezed arm is `arm`: two corrections by the arm's miss (the arm
    // minus the offset changes little with the offset).
    let place = |arm: f64| {
        let mut d = arm;
        for _ in 0..2 {
            d += grip::weight_arm(&scene(d, Friction::Tribo)).map_or(0.0, |got| arm - got);
        }
        d
    };
    let mut rows = Vec::new();
    for (share, held) in [(1.0 - MARGIN, true), (1.0 + MARGIN, false)] {
        let s = scene(place(share * torque / weight), Friction::Tribo);
        let ratio = grip::weight_arm(&s).map_or(f64::NAN, |arm| weight * arm / torque);
        let run = grip::hold_scene(s, true);
        rows.push(Row::new(
            case,
            format!("tribo: m g ℓ/(a μs F) when the weight comes on (placed at {share:.2})"),
            share,
            ratio,
            Tolerance::Abs(0.005),
            "ℓ: the weight's arm about the line through the two pad contacts",
        ));
        rows.push(if held {
            Row::new(
                case,
                format!(
                    "tribo: swing over the last {} s at m g ℓ = 0.98 a μs F [rad] (held)",
                    grip::HOLD_WINDOW
                ),
                HELD.1,
                run.creep.abs(),
                Tolerance::AtMost,
                "m g ℓ ≤ 2 · ½ a μs F (Hertz spin capacity of the two pads): held",
            )
        } else {
            Row::new(
                case,
                "tribo: swing at m g ℓ = 1.02 a μs F [rad] (swings)",
                LOST.1,
                run.total,
                Tolerance::AtLeast,
                "m g ℓ > 2 · ½ a μs F: swings",
            )
        });
    }
    let stock = grip::hold(Object::Ball((1.0 - MARGIN) * d0), joints, dt, Friction::Stock, grip::PINCH_FORCE);
    rows.push(Row::new(
        case,
        "stock: swing at d = 0.98 d* [rad] (swings)",
        LOST.1,
        stock.total,
        Tolerance::AtLeast,
        "stock: one point per round pad, no torsional friction: swings at any d > 0",
    ));
    rows
}
