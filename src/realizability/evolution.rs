//! Where a slip at one contact goes (docs/realizability.md §2.11): the evolution of the slip
//! velocity `u` under the single-contact limit field `F*(φ)` of \[003\], frozen at the state of
//! the analysis.
//!
//! In polar form `u = ρ (cos φ t1 + sin φ t2)` the field gives `ρ̇ = R(φ)` and `ρ φ̇ = V(φ)`.
//! With the time-like variable `τ` (`dt = ρ dτ`) the angle obeys `dφ/dτ = V(φ)` on its own and
//! `d ln ρ/dτ = R(φ)`: the slip direction moves monotonically (the sign of `V`) to the first
//! root of `V` it meets, an angularly stable limit direction `φ_s` (`dV/dφ < 0`), reached as
//! `τ → ∞`, while `ln ρ → −∞` there if `R(φ_s) < 0` (the slip vanishes, in finite time
//! `t = ∫ ρ dτ`) and `ln ρ → +∞` if `R(φ_s) > 0` (the slip grows along `φ_s` for ever). The
//! slip cannot vanish on the way: `ln ρ` stays finite for finite `τ`. For a ball on a flat
//! support the field does not depend on the slip speed, the spin or the position, and the
//! prediction is exact; for other bodies it holds while their angular velocity and pose change
//! little compared with the slip.

use super::single::{Case, LimitDirection, NonGenericKind, SingleContactReport, SlipField};
use glam::DVec3;
use std::f64::consts::{PI, TAU};

/// What becomes of a slip (docs/realizability.md §2.11).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SlipFate {
    /// The slip shrinks to zero, arriving along the final direction, after `time` seconds,
    /// and rolling holds there (rolling realizable).
    Rolls {
        /// Time to rolling under the frozen field (s).
        time: f64,
    },
    /// The slip shrinks to zero after `time` seconds but rolling is not realizable there: a
    /// slip starts again along the repelling limit direction
    /// ([`SingleContactReport::escape_direction`]).
    RollsThenSlips {
        /// Time to zero slip under the frozen field (s).
        time: f64,
    },
    /// The slip grows along the final (repelling) direction: the body never rolls.
    Grows,
    /// No limit direction exists: the slip direction keeps turning (no final direction).
    Turns,
}

/// The predicted evolution of one slip (from [`SingleContactReport::evolution`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SlipEvolution {
    /// Slip speed now (m/s).
    pub speed: f64,
    /// Slip angle now, from `t1` toward `t2` of the report's frame (rad, `[0, 2π)`).
    pub angle: f64,
    /// The limit direction the slip direction turns to (`None` with [`SlipFate::Turns`]).
    /// A slip that already lies along a limit direction keeps it (also an angularly unstable
    /// one; with `V ≡ 0`, every direction is one and the slip keeps its own).
    pub final_direction: Option<LimitDirection>,
    /// Signed angle the slip direction turns through to reach it (rad, positive from `t1`
    /// toward `t2`; `0` with [`SlipFate::Turns`]).
    pub turn: f64,
    /// What becomes of the slip.
    pub fate: SlipFate,
}

impl SlipEvolution {
    /// The slip ends up pointing against its direction now (it turns by more than 90°).
    pub fn reverses(&self) -> bool {
        self.final_direction.is_some() && self.turn.cos() < 0.0
    }

    /// The slip direction changes by at most `tol` rad.
    pub fn keeps_direction(&self, tol: f64) -> bool {
        self.final_direction.is_some() && self.turn.abs() <= tol
    }

    /// The slip shrinks to zero ([`SlipFate::Rolls`] or [`SlipFate::RollsThenSlips`]).
    pub fn reaches_rolling(&self) -> bool {
        matches!(self.fate, SlipFate::Rolls { .. } | SlipFate::RollsThenSlips { .. })
    }

    /// The time to zero slip (s), if it shrinks to zero.
    pub fn time_to_rolling(&self) -> Option<f64> {
        match self.fate {
            SlipFate::Rolls { time } | SlipFate::RollsThenSlips { time } => Some(time),
            _ => None,
        }
    }
}

/// Slip speed below which the slip ends, relative to the starting one.
const END_RATIO: f64 = 1e-10;
/// Largest number of `τ` steps of the time integration.
const MAX_STEPS: usize = 200_000;

impl SingleContactReport {
    /// Where the slip `slip` (the body's velocity relative to the support at the contact, world
    /// frame; its normal part is ignored) goes under this report's limit field, frozen
    /// (docs/realizability.md §2.11, module docs of `evolution`). `None` for a zero or
    /// non-finite slip, a problem that is not well posed, or a contact that opens.
    pub fn evolution(&self, slip: DVec3) -> Option<SlipEvolution> {
        let [t1, t2, _] = self.frame;
        let (u1, u2) = (slip.dot(t1), slip.dot(t2));
        let speed = u1.hypot(u2);
        if !self.well_posed || self.lift_off || !(speed > 0.0 && speed.is_finite()) {
            return None;
        }
        let angle = u2.atan2(u1).rem_euclid(TAU);
        let field = &self.field;
        let (r0, v0) = field.eval(angle);
        let scale = r0.abs().max(v0.abs()).max(field_scale(field));
        let on_root = |v: f64| v.abs() <= 1e-12 * scale;
        let continuum = self.limit.case == Case::NonGeneric(NonGenericKind::Continuum);
        let (final_direction, turn) = if continuum || on_root(v0) {
            // Along a limit direction (or `V ≡ 0`): the slip keeps its direction.
            let own = self.limit.directions.iter().find(|d| angle_between(d.phi, angle) < 1e-9).copied();
            let d = own.unwrap_or(LimitDirection {
                phi: angle,
                slip_dir: t1 * angle.cos() + t2 * angle.sin(),
                r: r0,
                dv_dphi: 0.0,
                attracting: r0 < 0.0,
                angularly_stable: false,
            });
            (Some(d), 0.0)
        } else {
            // The first root of `V` in the direction of its sign.
            let sign = v0.signum();
            let next = self
                .limit
                .directions
                .iter()
                .map(|d| (d, (sign * (d.phi - angle)).rem_euclid(TAU)))
                .filter(|(_, gap)| *gap > 0.0)
                .min_by(|a, b| a.1.total_cmp(&b.1));
            match next {
                Some((d, gap)) => (Some(*d), sign * gap),
                None => (None, 0.0),
            }
        };
        let Some(fin) = final_direction else {
            return Some(SlipEvolution {
                speed,
                angle,
                final_direction: None,
                turn: 0.0,
                fate: SlipFate::Turns,
            });
        };
        let fate = if fin.r < 0.0 {
            let time = time_to_zero(field, angle, speed, fin.r, continuum || turn == 0.0);
            // (With `V ≡ 0` every direction is attracting here: rolling holds, Theorem 4.)
            if self.rolling_realizable || (continuum && self.margin > 0.0) {
                SlipFate::Rolls { time }
            } else {
                SlipFate::RollsThenSlips { time }
            }
        } else {
            SlipFate::Grows
        };
        Some(SlipEvolution { speed, angle, final_direction: Some(fin), turn, fate })
    }
}

/// The largest coefficient of `R`, `V` (a scale for tolerances), from their values at eight
/// angles.
fn field_scale(f: &SlipField) -> f64 {
    (0..8).map(|k| f.eval(PI * k as f64 / 4.0)).fold(0.0f64, |m, (r, v)| m.max(r.abs()).max(v.abs()))
}

/// The unsigned angle between two angles (rad, `[0, π]`).
fn angle_between(a: f64, b: f64) -> f64 {
    let d = (a - b).rem_euclid(TAU);
    d.min(TAU - d)
}

/// The time for the slip to vanish from speed `rho0` at angle `phi0`, its direction turning to
/// an attracting limit direction (radial part `r_s < 0`). `fixed`: the slip keeps its
/// angle, `t = ρ0/|R|`. Otherwise classic fourth-order Runge–Kutta steps in `τ`
/// (`dφ/dτ = V`, `d ln ρ/dτ = R`, `dt/dτ = ρ`), each one at most 2 % of the field's time
/// scale, until the slip is [`END_RATIO`] of its start; the rest, `ρ/|R(φ)|`, is added.
fn time_to_zero(field: &SlipField, phi0: f64, rho0: f64, r_s: f64, fixed: bool) -> f64 {
    if fixed {
        return rho0 / -r_s;
    }
    let scale = field_scale(field).max(r_s.abs());
    let h = 0.02 / scale;
    // State: (φ, ℓ = ln(ρ/ρ0), t).
    let rhs = |phi: f64, ell: f64| {
        let (r, v) = field.eval(phi);
        (v, r, rho0 * ell.exp())
    };
    let (mut phi, mut ell, mut t) = (phi0, 0.0f64, 0.0f64);
    let end = END_RATIO.ln();
    for _ in 0..MAX_STEPS {
        if ell <= end {
            break;
        }
        let k1 = rhs(phi, ell);
        let k2 = rhs(phi + 0.5 * h * k1.0, ell + 0.5 * h * k1.1);
        let k3 = rhs(phi + 0.5 * h * k2.0, ell + 0.5 * h * k2.1);
        let k4 = rhs(phi + h * k3.0, ell + h * k3.1);
        phi += h / 6.0 * (k1.0 + 2.0 * k2.0 + 2.0 * k3.0 + k4.0);
        ell += h / 6.0 * (k1.1 + 2.0 * k2.1 + 2.0 * k3.1 + k4.1);
        t += h / 6.0 * (k1.2 + 2.0 * k2.2 + 2.0 * k3.2 + k4.2);
    }
    // What is left shrinks at about R(φ) (R(φ_s) once the direction has settled).
    let (r, _) = field.eval(phi);
    let r = if r < 0.0 { r } else { r_s };
    t + rho0 * ell.exp() / -r
}
