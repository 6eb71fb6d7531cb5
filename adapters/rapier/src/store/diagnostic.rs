//! Problems tribo finds in a scene ([`Diagnostic`]).

use super::*;
use std::fmt;

/// A problem tribo found in the scene. The affected contact falls back to stock rapier
/// friction; nothing non-finite enters the simulation.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde-serialize", derive(serde::Serialize, serde::Deserialize))]
pub enum Diagnostic {
    /// A dynamic body with zero, negative or non-finite mass touches a tribo collider (give it
    /// a collider with density or additional mass). Its contacts use stock friction.
    ZeroMassBody {
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
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Diagnostic::ZeroMassBody { body } => write!(
                f,
                "dynamic rigid body {body:?} has zero or non-finite mass; its contacts fall back to stock rapier friction"
            ),
            Diagnostic::StepNotPrepared { step } => write!(
                f,
                "tribo after_step (step {step}) ran without before_step before the physics step: call TriboRapier::before_step right before every PhysicsPipeline::step"
            ),
        }
    }
}

impl std::error::Error for Diagnostic {}
