//! # tribo — real 3D dry friction for rigid-body engines
//!
//! Engine-agnostic friction science, in `f64`, deterministic and without engine types:
//!
//! * [`tracking`] — slide / roll / spin friction by contact-point tracking (Fang & Negrut),
//!   each a spring–damper–slider with static/kinetic modes and history.
//! * [`contensou`] — coupled slide/spin friction of a finite circular contact patch
//!   (exact integrals and fast approximations).
//! * [`realizability`] — slip/roll transition and two-point-rolling realizability
//!   diagnostics (Antali & Stepan).
//! * [`resistance`] — bounded roll and spin resistance carried as explicit torques over an
//!   engine's step (an observer of the load; stick/slip with static and kinetic bounds).
//!
//! Engine adapters live in their own crates: `tribo_rapier` (rapier3d) and `bevy_tribo`.

pub mod contensou;
pub mod realizability;
pub mod resistance;
pub mod tracking;

#[cfg(test)]
mod test_util;

pub use glam::{DMat3, DQuat, DVec3};
