//! Slide / roll / spin friction by contact-point tracking (Fang & Negrut; spec SPEC-001).
//!
//! Per contact, an engine adapter stores a [`ContactState`] and calls
//! [`ContactState::update`] once per step with plain inputs ([`ContactInput`]: poses, contact
//! points, normal into body i, normal force, Δt). The update tracks the contact point on both
//! surfaces ([`kinematics`], [`geometry`]), feeds three kinds of
//! [`Slider`] (spring–damper–slider with static/kinetic modes: slide, roll per body, spin) and
//! returns the friction [`Wrench`] on each body.
//!
//! [`sim`] is an engine-independent reference integrator (semi-implicit Euler, spec §5.1) that
//! runs the paper's experiments ([`experiments`]); [`legacy`] holds the App. A baselines.

pub mod contact;
pub mod experiments;
pub mod geometry;
pub mod kinematics;
pub mod legacy;
pub mod material;
mod rows;
pub mod sim;
pub mod slider;

pub use contact::{
    ContactBody, ContactInput, ContactOutput, ContactState, DampingInertia, TrackingConfig, UpdateError, Wrench,
};
pub use geometry::{ArcMode, GeometryError, Surface};
pub use kinematics::CounterSpin;
pub use material::{Damping, Derived, Material, Mode, ParamError, RollOverride, SpinModel};
pub use slider::{Deflection, Slider, SliderParams};

/// Validation rows of this module's experiments (spec §7 T1–T7): runs every experiment of
/// [`experiments`] and returns one row per checked number (expected, measured, tolerance,
/// source).
pub fn validation_rows() -> Vec<crate::validation::Row> {
    rows::all()
}
