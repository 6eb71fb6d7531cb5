//! Slide / roll / spin friction by contact-point tracking (Fang & Negrut; spec SPEC-001).
//!
//! Per contact, an engine adapter stores a [`ContactState`] (start from
//! `ContactState::default()`, drop it when the contact ends) and calls
//! [`ContactState::update`] once per step with plain inputs ([`ContactInput`]: poses, contact
//! points on both bodies, the normal pointing **into body i**, the normal force N and Δt). The
//! update tracks the contact point on both surfaces ([`kinematics`], [`geometry`]), feeds one
//! generic spring–damper–slider ([`Slider`], static/kinetic modes) per mechanism — slide
//! (vector), roll (vector, one per body) and spin (scalar) — and returns the friction
//! [`Wrench`] on each body (spec §0.1 sign conventions).
//!
//! [`sim`] is an engine-independent reference integrator (semi-implicit Euler, spec §5.1)
//! that runs the paper's experiments ([`experiments`], spec §7 T1–T7, and [`stack`], T8);
//! [`legacy`] holds the App. A baselines; [`validation_rows`] turns the experiments into
//! validation rows.
//!
//! ```
//! use tribo::tracking::{ContactBody, ContactInput, ContactState, DampingInertia, Material,
//!     Surface, TrackingConfig};
//! use tribo::{DQuat, DVec3};
//!
//! let material = Material::new(0.5, 0.4)?.with_roll(0.05)?;
//! let config = TrackingConfig::default();
//! let ball = Surface::sphere(0.1)?;
//! let mut state = ContactState::default();
//! // A ball (body j, R = 0.1 m, 1 kg) on the ground (body i); the normal points into the ground.
//! let input = |x: f64| ContactInput {
//!     body_i: ContactBody::ground(Surface::Plane),
//!     body_j: ContactBody::new(DVec3::new(x, 0.0, 0.1), DQuat::IDENTITY, ball),
//!     point_i: DVec3::new(x, 0.0, 0.0),
//!     point_j: DVec3::new(x, 0.0, 0.0),
//!     normal: DVec3::NEG_Z,
//!     normal_force: 9.81,
//!     dt: 1e-3,
//!     inertia: DampingInertia::new(1.0, 0.004, 0.004),
//! };
//! let first = state.update(&material, &config, &input(0.0))?; // onset: zero loads
//! assert!(first.onset);
//! let out = state.update(&material, &config, &input(1e-5))?; // dragged +x without rolling
//! assert!(out.wrench_j.force.x < 0.0); // friction on the ball opposes the drag
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod contact;
pub mod experiments;
pub mod geometry;
pub mod kinematics;
pub mod legacy;
pub mod material;
mod rows;
pub mod sim;
pub mod slider;
pub mod stack;

pub use contact::{
    ContactBody, ContactInput, ContactOutput, ContactState, DampingInertia, TrackingConfig, UpdateError, Wrench,
};
pub use geometry::{ArcMode, GeometryError, Surface};
pub use kinematics::CounterSpin;
pub use material::{Damping, Derived, Material, Mode, ParamError, RollOverride, SpinModel};
pub use slider::{Deflection, Slider, SliderParams};

/// Validation rows of this module's experiments (spec §7 T1–T8): runs every experiment of
/// [`experiments`] and returns one row per checked number (expected, measured, tolerance,
/// source).
pub fn validation_rows() -> Vec<crate::validation::Row> {
    rows::all()
}
