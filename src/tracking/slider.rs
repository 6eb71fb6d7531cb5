//! The one generic spring–damper–slider with static/kinetic modes and capping
//! (docs/tracking.md §2.2–2.3, §3.4, §4.2), shared by slide (vector), roll (vector, one per body) and spin
//! (scalar).

use super::material::Mode;
use glam::DVec3;
use std::fmt::Debug;
use std::ops::{Add, Mul};

/// A micro-deflection value the slider can hold: a scalar (spin) or a tangent vector
/// (slide, roll). `magnitude` is `|x|` or `‖x‖`.
pub trait Deflection:
    Copy + Default + PartialEq + Debug + Add<Output = Self> + Mul<f64, Output = Self>
{
    /// `|x|` (scalar) or Euclidean norm (vector).
    fn magnitude(self) -> f64;
    /// `x²` (scalar) or squared Euclidean norm (vector).
    fn magnitude_squared(self) -> f64;
    /// Whether every component is finite.
    fn all_finite(self) -> bool;
}

impl Deflection for f64 {
    #[inline]
    fn magnitude(self) -> f64 {
        self.abs()
    }
    #[inline]
    fn magnitude_squared(self) -> f64 {
        self * self
    }
    #[inline]
    fn all_finite(self) -> bool {
        self.is_finite()
    }
}

impl Deflection for DVec3 {
    #[inline]
    fn magnitude(self) -> f64 {
        self.length()
    }
    #[inline]
    fn magnitude_squared(self) -> f64 {
        self.length_squared()
    }
    #[inline]
    fn all_finite(self) -> bool {
        self.is_finite()
    }
}

/// Per-step parameters of a [`Slider`]: stiffness, damping coefficient and the two thresholds
/// on the history magnitude.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SliderParams {
    /// Spring stiffness K (load per unit history).
    pub stiffness: f64,
    /// Damping coefficient D (load per unit history rate); applied in stick only.
    pub damping: f64,
    /// Static threshold on ‖history‖ (capacity `K·static_threshold`).
    pub static_threshold: f64,
    /// Kinetic threshold on ‖history‖.
    pub kinetic_threshold: f64,
}

/// Capped spring–damper with a static/kinetic state machine.
///
/// One [`Slider::step`] (docs/tracking.md §2.2, "applied at t1"):
/// 1. accumulate: `h ← h + Δ`;
/// 2. cap with the mode held at t0: in `Static`, if `‖h‖ > thr_s` then `h ← h·thr_s/‖h‖` and
///    the mode becomes `Kinetic` (so the transition step carries exactly the static capacity);
///    in `Kinetic`, if `‖h‖ > thr_k` then `h ← h·thr_k/‖h‖`, otherwise the mode becomes
///    `Static`. The cap is written `if ‖h‖ > thr { h *= thr/‖h‖ }`, so `thr = 0` gives `h = 0`
///    without a division by zero;
/// 3. loads: elastic `K h`; damping `D Δ/Δt` with the **raw** increment, only if the mode
///    **after** the update is `Static` (docs/tracking.md §2.3 DECISION); total = elastic + damping.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Slider<H> {
    history: H,
    mode: Mode,
    elastic: H,
    damping: H,
}

impl<H: Deflection> Slider<H> {
    /// A slider with zero history in `Static` mode.
    pub fn new() -> Self {
        Self::default()
    }

    /// Advances by one step with history increment `increment` over `dt` (> 0) and returns
    /// the total load.
    #[inline]
    pub fn step(&mut self, increment: H, p: &SliderParams, dt: f64) -> H {
        self.history = self.history + increment;
        // Compare squared magnitudes; take the root only when capping.
        let mag2 = self.history.magnitude_squared();
        match self.mode {
            Mode::Static => {
                let thr = p.static_threshold;
                if mag2 > thr * thr {
                    self.history = self.history * (thr / mag2.sqrt());
                    self.mode = Mode::Kinetic;
                }
            }
            Mode::Kinetic => {
                let thr = p.kinetic_threshold;
                if mag2 > thr * thr {
                    self.history = self.history * (thr / mag2.sqrt());
                } else {
                    self.mode = Mode::Static;
                }
            }
        }
        self.elastic = self.history * p.stiffness;
        self.damping =
            if self.mode == Mode::Static && dt > 0.0 { increment * (p.damping / dt) } else { H::default() };
        self.elastic + self.damping
    }

    /// The micro-deflection (history) after the last step.
    pub fn history(&self) -> H {
        self.history
    }
    /// The mode after the last step.
    pub fn mode(&self) -> Mode {
        self.mode
    }
    /// Elastic load `K h` of the last step.
    pub fn elastic(&self) -> H {
        self.elastic
    }
    /// Damping load `D Δ/Δt` of the last step (zero in `Kinetic`).
    pub fn damping(&self) -> H {
        self.damping
    }
    /// Total load of the last step (elastic + damping).
    pub fn total(&self) -> H {
        self.elastic + self.damping
    }
    /// Back to zero history, `Static` mode, zero loads.
    pub fn reset(&mut self) {
        *self = Self::default();
    }
    /// Zero loads without touching history or mode.
    pub(crate) fn clear_loads(&mut self) {
        self.elastic = H::default();
        self.damping = H::default();
    }
    /// Replaces the history (history transport, docs/tracking.md §5.2 E).
    pub(crate) fn set_history(&mut self, h: H) {
        self.history = h;
    }
    /// Whether history and loads are finite.
    pub fn is_finite(&self) -> bool {
        self.history.all_finite() && self.elastic.all_finite() && self.damping.all_finite()
    }
}
