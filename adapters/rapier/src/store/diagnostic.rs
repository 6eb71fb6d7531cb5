//! Problems tribo finds in a scene ([`Diagnostic`]).

use super::*;
use std::fmt;

/// A problem tribo found in the scene; each variant says what it does about it. Nothing
/// non-finite enters the simulation. More variants may come: match with a wildcard arm.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde-serialize", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub enum Diagnostic {
    /// A dynamic body with zero, negative or non-finite mass touches a tribo collider (give it
    /// a collider with density or additional mass). Its contacts use stock friction.
    ZeroMassBody {
        /// The body.
        body: RigidBodyHandle,
    },
    /// A dynamic body in a tribo contact turns at rapier's angular speed cap `(π/4)/dt` (47 rad/s
    /// at dt = 1/60): rapier clamps its spin, so a ball rolls with its spin below its speed and
    /// its contact slides. tribo lifts the cap on its bodies
    /// ([`Settings::allow_fast_rotation`](crate::Settings::allow_fast_rotation)); this body has
    /// it (the setting is off, or the body's `set_allow_fast_rotation(false)` came later). Call
    /// `RigidBody::set_allow_fast_rotation(true)` on it. Reported once per body.
    AngularSpeedCapped {
        /// The body.
        body: RigidBodyHandle,
    },
    /// [`TriboRapier::after_step`] ran after a step that [`TriboRapier::before_step`] did not
    /// prepare: materials given since the last prepared step are not active yet, removed
    /// colliders are not cleaned up and the normal forces of that step may be off. Call
    /// `before_step` right before every `PhysicsPipeline::step`. Reported once per store.
    StepNotPrepared {
        /// The store's step count (number of `after_step` calls) when it happened.
        step: u64,
    },
    /// A step shorter than [`MIN_VALIDATED_DT`] (0.1 ms). tribo is validated at steps from
    /// 1/30 s to 1 ms; far below that, rapier's f32 position update rounds each step's move
    /// (v·dt next to the position) and bodies drift: a ball rolling at 1 m/s gains 0.7 %
    /// speed in 0.5 s at dt = 10 µs in stock rapier, and tribo's roll-out is 1 % long there
    /// (docs/rapier.md §7). The usual cause is a headless bevy app whose frames advance by the
    /// real clock (`app.update()` in a loop): use `TimeUpdateStrategy::ManualDuration` or a
    /// fixed timestep. The step is taken as given. Reported once per store, with the first such
    /// step.
    StepTooShort {
        /// The step's length, seconds.
        dt: f32,
    },
}

/// The shortest step tribo is checked at (0.1 ms, ten times below the 1 ms of its finest
/// validated scenes); a shorter one is reported as [`Diagnostic::StepTooShort`].
pub const MIN_VALIDATED_DT: f32 = 1e-4;

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Diagnostic::ZeroMassBody { body } => write!(
                f,
                "dynamic rigid body {body:?} has zero or non-finite mass; its contacts fall back to stock rapier friction"
            ),
            Diagnostic::AngularSpeedCapped { body } => write!(
                f,
                "rigid body {body:?} turns at rapier's angular speed cap (pi/4 per step); call RigidBody::set_allow_fast_rotation(true) on it (tribo does unless Settings::allow_fast_rotation is off)"
            ),
            Diagnostic::StepNotPrepared { step } => write!(
                f,
                "tribo after_step (step {step}) ran without before_step before the physics step: call TriboRapier::before_step right before every PhysicsPipeline::step"
            ),
            Diagnostic::StepTooShort { dt } => write!(
                f,
                "time step {dt:e} s is below {MIN_VALIDATED_DT:e} s, far finer than tribo is validated at (1/30 s to 1 ms); rapier's f32 positions drift at such steps. A headless bevy app driven by the real clock does this: use TimeUpdateStrategy::ManualDuration or a fixed timestep"
            ),
        }
    }
}

impl std::error::Error for Diagnostic {}
