//! Bounded resistance torques carried as explicit torques over an engine's step
//! (docs/rapier.md §8).
//!
//! A velocity-level engine (rapier, avian) solves its contacts and joints implicitly within a
//! step and adds external torques held constant over the step. A rolling or spinning
//! resistance `|T| ≤ T_max` can reach such an engine as one of those torques, if the torque is
//! chosen so that the step ends where an implicit bounded row would have put it. This module
//! chooses it from what the last step showed (an observer of the load), for one set of
//! resisted axes of one contact:
//!
//! * load over the last step: `τ̂ = I (ω_k − ω_{k−1}) / Δt − T_{k−1}` (what besides the
//!   resistance turned the relative rotation: gravity's moment about the contact, a push),
//! * the torque that ends the next step at the target rate `ω*`:
//!   `T* = −τ̂ − I (ω_k − ω*) / Δt`, with `ω* = −β θ / Δt` (static: returns the creep angle `θ`
//!   accumulated while sticking, a fraction `β` per step) or `ω* = 0` (kinetic: the stop step),
//! * static: `T = T*` while `|T*| ≤ T_s`; saturated for [`SLIP_STEPS`] steps in a row with the
//!   rotation moving, the contact slips (kinetic);
//! * kinetic: `T = −T_k ω̂` (Coulomb's bound against the rotation) until `|T*| ≤ T_k` with
//!   `ω* = 0`: that step stops the rotation exactly and the contact sticks again;
//! * onset: a contact's first step runs before it is observed, without the resistance, and
//!   no load estimate exists yet (`τ̂ = 0`); a first torque at the bound is twice the bound, so
//!   that the angular impulse of the first two steps is the bounded one.
//!
//! `I` is the effective inertia of the relative rotation about the resisted axes: for rolling
//! on a contact point, about that point (`1/I = Σ 1/(Iᵤ + m r⊥²)` over the dynamic bodies),
//! since rolling without slip turns the whole body about the contact. With `I` exact and a load
//! constant over two steps, a sticking contact stays at `ω = 0` to round-off and a rolling one
//! stops within one step of the closed form; a load that changes from one step to the next is
//! followed one step late.

use glam::DVec3;
use std::fmt;

/// Saturated static steps in a row (with the rotation moving) after which a contact slips.
/// One saturated step is not enough: at an impact the load estimate of one step is the
/// impulse of the impact, not a sustained load.
pub const SLIP_STEPS: u8 = 2;

/// Fraction of the creep angle a sticking contact returns per step (`β`).
pub const CREEP_RETURN: f64 = 0.2;

/// Rotation rate (rad/s) below which a saturated static contact is not yet slipping.
pub const MOVING_RATE: f64 = 1e-6;

/// The resisted axes of a contact.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Axes {
    /// Every axis perpendicular to the unit vector (rolling of a point contact: the tangent
    /// plane of the normal).
    Plane(DVec3),
    /// The unit vector's own line (spinning about the normal; rolling of a cylinder, a capsule
    /// or a cone on a line contact, about its axis).
    Line(DVec3),
}

impl Axes {
    /// The part of `v` along the resisted axes.
    pub fn project(self, v: DVec3) -> DVec3 {
        match self {
            Axes::Plane(n) => v - n * n.dot(v),
            Axes::Line(a) => a * a.dot(v),
        }
    }

    fn unit(self) -> DVec3 {
        match self {
            Axes::Plane(n) | Axes::Line(n) => n,
        }
    }
}

/// Whether a contact's resisted rotation sticks or slips.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ResistanceMode {
    /// Sticking: the torque holds the relative rotation at rest (bound `T_s`).
    #[default]
    Static,
    /// Slipping: the torque is the kinetic bound against the rotation (`T_k`).
    Kinetic,
}

/// One step's observation of a contact's relative rotation.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ResistanceInput {
    /// The resisted axes (their unit vector must be of length 1 within 1e-6).
    pub axes: Axes,
    /// Relative angular velocity of the two bodies now, `ω_i − ω_j` (rad/s, global; only its
    /// part along `axes` is used).
    pub omega: DVec3,
    /// Effective inertia of the relative rotation about the resisted axes (kg m², > 0).
    pub inertia: f64,
    /// Static bound `T_s` (N m, ≥ 0).
    pub static_bound: f64,
    /// Kinetic bound `T_k` (N m, ≥ 0).
    pub kinetic_bound: f64,
    /// The engine's step (s, > 0).
    pub dt: f64,
}

/// Invalid [`ResistanceInput`]: the controller's state is left untouched.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ResistanceError {
    /// A value is NaN or infinite.
    NotFinite(&'static str),
    /// `inertia` or `dt` is not positive.
    NotPositive(&'static str),
    /// A bound is negative.
    NegativeBound(&'static str),
    /// The axes' vector is not of unit length.
    NotUnitAxis,
}

impl fmt::Display for ResistanceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ResistanceError::NotFinite(w) => write!(f, "resistance input {w} is not finite"),
            ResistanceError::NotPositive(w) => write!(f, "resistance input {w} must be positive"),
            ResistanceError::NegativeBound(w) => write!(f, "resistance bound {w} must not be negative"),
            ResistanceError::NotUnitAxis => write!(f, "resistance axes need a unit vector"),
        }
    }
}

impl std::error::Error for ResistanceError {}

impl ResistanceInput {
    fn check(&self) -> Result<(), ResistanceError> {
        use ResistanceError as E;
        let u = self.axes.unit();
        if !u.is_finite() {
            return Err(E::NotFinite("axes"));
        }
        if (u.length_squared() - 1.0).abs() > 2e-6 {
            return Err(E::NotUnitAxis);
        }
        if !self.omega.is_finite() {
            return Err(E::NotFinite("omega"));
        }
        for (v, w) in [
            (self.inertia, "inertia"),
            (self.static_bound, "static_bound"),
            (self.kinetic_bound, "kinetic_bound"),
            (self.dt, "dt"),
        ] {
            if !v.is_finite() {
                return Err(E::NotFinite(w));
            }
        }
        if self.inertia <= 0.0 {
            return Err(E::NotPositive("inertia"));
        }
        if self.dt <= 0.0 {
            return Err(E::NotPositive("dt"));
        }
        if self.static_bound < 0.0 {
            return Err(E::NegativeBound("static_bound"));
        }
        if self.kinetic_bound < 0.0 {
            return Err(E::NegativeBound("kinetic_bound"));
        }
        Ok(())
    }
}

/// One bounded row observed over a step: the explicit-torque form of a velocity motor row
/// (`|T| ≤ bound`, driving the relative rate along its axis to `target`), for an engine whose
/// solver does not carry the row itself.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Row {
    /// Relative angular velocity along the row's axis now (rad/s).
    pub omega: f64,
    /// The rate along the same axis when the last torque was chosen, and that torque (N m):
    /// `None` at the row's first step (no load estimate yet).
    pub last: Option<(f64, f64)>,
    /// The rate the step should end at (rad/s).
    pub target: f64,
    /// Effective inertia of the relative rotation about the axis (kg m², > 0).
    pub inertia: f64,
    /// Torque bound (N m, ≥ 0).
    pub bound: f64,
    /// The step (s, > 0).
    pub dt: f64,
}

impl Row {
    /// The torque, within `±bound`, that ends the next step at `target` under the load the last
    /// step showed, `τ̂ = I (ω − ω_last)/Δt − T_last` (0 at the first step): `T* = −τ̂ − I (ω −
    /// target)/Δt`, clamped. 0 for an invalid row (a non-finite value, `inertia` or `dt` not
    /// positive, a negative bound).
    pub fn torque(&self) -> f64 {
        let Row { omega, last, target, inertia, bound, dt } = *self;
        let valid = [omega, target, inertia, bound, dt].iter().all(|v| v.is_finite())
            && last.is_none_or(|(w, t)| w.is_finite() && t.is_finite())
            && inertia > 0.0
            && dt > 0.0
            && bound >= 0.0;
        if !valid {
            return 0.0;
        }
        let load = last.map_or(0.0, |(w, t)| inertia * (omega - w) / dt - t);
        (-load - inertia * (omega - target) / dt).clamp(-bound, bound)
    }
}

/// The observer and stick/slip state of one contact's resisted axes (see the module docs).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ResistanceTorque {
    started: bool,
    mode: ResistanceMode,
    /// `ω_{k−1}` along the axes of the last step.
    last_omega: DVec3,
    /// `T_{k−1}`: the torque of the last step (on body i; body j got its opposite).
    last_torque: DVec3,
    /// Creep angle accumulated while sticking.
    creep: DVec3,
    /// Saturated static steps in a row.
    saturated: u8,
}

impl ResistanceTorque {
    /// A contact that has not been observed yet (sticking, no load known).
    pub fn new() -> Self {
        Self::default()
    }

    /// Sticking or slipping.
    pub fn mode(&self) -> ResistanceMode {
        self.mode
    }

    /// The torque chosen for the step now starting (on body i; body j takes its opposite).
    pub fn torque(&self) -> DVec3 {
        self.last_torque
    }

    /// The load estimate of the last step and the torque for the next one: call once per
    /// step, after the engine's step, with the rotation it left; apply the returned torque
    /// (on body i, its opposite on body j) over the next step.
    pub fn update(&mut self, input: &ResistanceInput) -> Result<DVec3, ResistanceError> {
        input.check()?;
        let ResistanceInput { axes, inertia: i, static_bound, kinetic_bound, dt, .. } = *input;
        // The contact's first step ran before its first observation, without the resistance:
        // a first torque at the bound is twice the bound, so that the angular impulse over the
        // first two steps is what a bounded row acting from the first step would have given.
        let onset = if self.started { 1.0 } else { 2.0 };
        let omega = axes.project(input.omega);
        // τ̂: what turned the rotation over the last step besides our torque (0 at the first).
        let load = if self.started {
            i * (omega - axes.project(self.last_omega)) / dt - axes.project(self.last_torque)
        } else {
            DVec3::ZERO
        };
        let stop = -load - i * omega / dt;
        let torque = match self.mode {
            ResistanceMode::Static => {
                self.creep = axes.project(self.creep) + omega * dt;
                let wanted = stop - i * CREEP_RETURN * self.creep / (dt * dt);
                if wanted.length() <= static_bound {
                    self.saturated = 0;
                    wanted
                } else {
                    self.saturated = self.saturated.saturating_add(1);
                    if self.saturated >= SLIP_STEPS && omega.length() > MOVING_RATE {
                        self.mode = ResistanceMode::Kinetic;
                        self.creep = DVec3::ZERO;
                        self.saturated = 0;
                    }
                    wanted.normalize_or_zero() * (onset * static_bound)
                }
            }
            ResistanceMode::Kinetic => {
                if stop.length() <= kinetic_bound {
                    self.mode = ResistanceMode::Static;
                    stop
                } else if omega != DVec3::ZERO {
                    -omega.normalize() * (onset * kinetic_bound)
                } else {
                    stop.normalize_or_zero() * (onset * kinetic_bound)
                }
            }
        };
        self.started = true;
        self.last_omega = omega;
        self.last_torque = torque;
        Ok(torque)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A rigid rotation `I ω̇ = load + T` integrated as a velocity-level engine does (the
    /// torque held over the step), with the controller observing after each step (axes,
    /// inertia, bounds and dt from `contact`); returns `(ω, angle)` after every step.
    fn run(
        ctl: &mut ResistanceTorque,
        contact: ResistanceInput,
        omega0: DVec3,
        load: impl Fn(usize) -> DVec3,
        steps: usize,
    ) -> Vec<(DVec3, DVec3)> {
        let (i, dt) = (contact.inertia, contact.dt);
        let (mut omega, mut angle, mut t) = (omega0, DVec3::ZERO, DVec3::ZERO);
        let mut out = Vec::with_capacity(steps);
        for k in 0..steps {
            omega += (load(k) + t) * dt / i;
            angle += omega * dt;
            t = ctl.update(&ResistanceInput { omega, ..contact }).expect("valid input");
            out.push((omega, angle));
        }
        out
    }

    fn contact(
        axes: Axes,
        inertia: f64,
        (static_bound, kinetic_bound): (f64, f64),
        dt: f64,
    ) -> ResistanceInput {
        ResistanceInput { axes, omega: DVec3::ZERO, inertia, static_bound, kinetic_bound, dt }
    }

    /// A ball (m = 1 kg, R = 0.1 m, I_c = 7/5 m R²) rolling on a flat at ω0 = 20 rad/s
    /// (2 m/s) against T_k = c m g (c = 5 mm): ω̇ = −T_k / I_c, it stops at
    /// t = I_c ω0 / T_k = 5.708 s and stays at rest.
    #[test]
    fn rolling_ball_stops_at_the_closed_form_time_and_stays() {
        let (m, r, c, g, dt) = (1.0, 0.1, 0.005, 9.81, 1.0 / 60.0);
        let i = 1.4 * m * r * r;
        let tk = c * m * g;
        let axes = Axes::Plane(DVec3::Y);
        let mut ctl = ResistanceTorque::new();
        ctl.mode = ResistanceMode::Kinetic;
        let h = run(
            &mut ctl,
            contact(axes, i, (1.2 * tk, tk), dt),
            DVec3::new(0.0, 0.0, -20.0),
            |_| DVec3::ZERO,
            420,
        );
        // The first step runs before the first observation, without torque; the second
        // catches up with twice the bound.
        let t_stop = i * 20.0 / tk;
        let first_rest = h.iter().position(|(w, _)| w.length() < 1e-12).expect("stops");
        let t_rest = (first_rest + 1) as f64 * dt;
        assert!((t_rest - t_stop).abs() <= dt, "stopped at {t_rest} s, closed form {t_stop} s");
        assert!(h[first_rest..].iter().all(|(w, _)| w.length() < 1e-12), "stays at rest");
        // The angle rolled: ω0² I / (2 T_k) within the last step's ω0·dt.
        let angle = h.last().unwrap().1.length();
        let closed = 20.0 * 20.0 * i / (2.0 * tk);
        assert!((angle - closed).abs() <= 20.0 * dt, "rolled {angle} rad, closed form {closed}");
        assert_eq!(ctl.mode(), ResistanceMode::Static);
    }

    /// A constant load below the static bound (a ball on a slope with tan α < c/R): held; the
    /// creep is the first step's response to the unknown load, `load dt² / I`, returned
    /// geometrically by [`CREEP_RETURN`].
    #[test]
    fn load_below_the_static_bound_is_held() {
        let (i, dt) = (0.014, 1.0 / 60.0);
        let load = DVec3::new(0.03, 0.0, 0.0);
        let axes = Axes::Plane(DVec3::Y);
        let mut ctl = ResistanceTorque::new();
        let h = run(&mut ctl, contact(axes, i, (0.05, 0.04), dt), DVec3::ZERO, |_| load, 300);
        let first = load.length() * dt * dt / i;
        let peak = h.iter().map(|(_, a)| a.length()).fold(0.0, f64::max);
        assert!(peak <= 2.0 * first, "peak creep {peak} rad, first step {first}");
        let (w, a) = *h.last().unwrap();
        assert!(w.length() < 1e-9 && a.length() < 1e-6 * first, "ω {w}, creep {a} after 5 s");
        assert_eq!(ctl.mode(), ResistanceMode::Static);
    }

    /// A load above the static bound: the contact slips after [`SLIP_STEPS`] saturated steps and
    /// then accelerates at (load − T_k) / I.
    #[test]
    fn load_above_the_static_bound_slips_at_the_kinetic_rate() {
        let (i, dt) = (0.014, 1.0 / 60.0);
        let (ts, tk) = (0.05, 0.04);
        let load = DVec3::new(0.0, 0.0, 0.08);
        let mut ctl = ResistanceTorque::new();
        let h = run(&mut ctl, contact(Axes::Plane(DVec3::Y), i, (ts, tk), dt), DVec3::ZERO, |_| load, 120);
        assert_eq!(ctl.mode(), ResistanceMode::Kinetic);
        let rate = (h[119].0.z - h[59].0.z) / (60.0 * dt);
        let closed = (0.08 - tk) / i;
        assert!((rate - closed).abs() < 1e-9 * closed, "ω̇ {rate}, closed form {closed}");
    }

    /// Spin about the normal (a line): the part of ω off the line is not resisted and not
    /// touched; a spinning top at 20 rad/s against T_k stops at I ω / T_k.
    #[test]
    fn spin_about_a_line_only() {
        let (i, dt, tk) = (0.004, 1.0 / 240.0, 0.02);
        let axes = Axes::Line(DVec3::Y);
        let mut ctl = ResistanceTorque::new();
        ctl.mode = ResistanceMode::Kinetic;
        let h =
            run(&mut ctl, contact(axes, i, (tk, tk), dt), DVec3::new(0.0, 20.0, 0.0), |_| DVec3::ZERO, 2000);
        let first_rest = h.iter().position(|(w, _)| w.y.abs() < 1e-12).expect("stops");
        let t = (first_rest + 1) as f64 * dt;
        let closed = i * 20.0 / tk;
        assert!((t - closed).abs() <= dt, "stopped at {t} s, closed form {closed}");
        let input = ResistanceInput {
            axes,
            omega: DVec3::new(3.0, 0.0, 0.0),
            inertia: i,
            static_bound: tk,
            kinetic_bound: tk,
            dt,
        };
        assert_eq!(ResistanceTorque::new().update(&input), Ok(DVec3::ZERO));
    }

    /// A row held by [`Row::torque`] against a constant load below its bound: after the first
    /// step (no estimate) the rate is the target exactly; above the bound the torque is the
    /// bound and the rate grows at (load − bound) / I.
    #[test]
    fn row_holds_below_its_bound_and_saturates_above() {
        let (i, dt) = (0.2, 1.0 / 60.0);
        for (load, bound) in [(0.5, 0.8), (1.2, 0.8)] {
            let (mut omega, mut last) = (0.0, None);
            let mut rates = Vec::new();
            for _ in 0..30 {
                let t = Row { omega, last, target: 0.0, inertia: i, bound, dt }.torque();
                last = Some((omega, t));
                omega += (load + t) * dt / i;
                rates.push(omega);
            }
            if load < bound {
                assert!(rates[2..].iter().all(|w: &f64| w.abs() < 1e-12), "held: {rates:?}");
            } else {
                let rate = (rates[29] - rates[9]) / (20.0 * dt);
                assert!((rate - (load - bound) / i).abs() < 1e-9, "rate {rate}");
            }
        }
        let bad = Row { omega: f64::NAN, last: None, target: 0.0, inertia: i, bound: 1.0, dt };
        assert_eq!(bad.torque(), 0.0);
        assert_eq!(Row { inertia: 0.0, omega: 1.0, ..bad }.torque(), 0.0);
    }

    #[test]
    fn bad_input_is_an_error_and_leaves_the_state() {
        let good = ResistanceInput {
            axes: Axes::Plane(DVec3::Y),
            omega: DVec3::X,
            inertia: 1.0,
            static_bound: 1.0,
            kinetic_bound: 0.5,
            dt: 0.01,
        };
        let mut ctl = ResistanceTorque::new();
        ctl.update(&good).unwrap();
        let before = ctl;
        let cases = [
            (
                ResistanceInput { omega: DVec3::new(f64::NAN, 0.0, 0.0), ..good },
                ResistanceError::NotFinite("omega"),
            ),
            (ResistanceInput { inertia: 0.0, ..good }, ResistanceError::NotPositive("inertia")),
            (ResistanceInput { inertia: f64::INFINITY, ..good }, ResistanceError::NotFinite("inertia")),
            (ResistanceInput { dt: -0.01, ..good }, ResistanceError::NotPositive("dt")),
            (ResistanceInput { static_bound: -1.0, ..good }, ResistanceError::NegativeBound("static_bound")),
            (
                ResistanceInput { kinetic_bound: f64::NAN, ..good },
                ResistanceError::NotFinite("kinetic_bound"),
            ),
            (
                ResistanceInput { axes: Axes::Line(DVec3::new(0.0, 2.0, 0.0)), ..good },
                ResistanceError::NotUnitAxis,
            ),
            (ResistanceInput { axes: Axes::Plane(DVec3::ZERO), ..good }, ResistanceError::NotUnitAxis),
        ];
        for (input, err) in cases {
            assert_eq!(ctl.update(&input), Err(err));
            assert_eq!(ctl, before);
        }
    }
}
