//! rapier test scenes: tribo friction against stock rapier and the friction model's
//! analytic values ([`scenarios`], [`contensou_scenarios`], [`fidelity`], and at the time steps
//! games run, [`game_step`]), the ball in a
//! V-trough against the realizability diagnostic ([`trough`]), a wheelset on two rails against
//! it ([`wheelset`]), and their validation rows.

pub mod contensou_scenarios;
pub mod fidelity;
pub mod game_step;
pub mod onset;
#[cfg(feature = "rapier-0-36")]
pub mod robots;
pub mod scenarios;
pub mod slip_fate;
pub mod trough;
mod validation;
pub mod wheelset;

pub use validation::{comparisons, validation_rows, Comparison};
