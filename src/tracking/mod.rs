//! Slide / roll / spin friction by contact-point tracking (Fang & Negrut; docs/tracking.md).
//!
//! Per contact, an engine adapter stores a [`ContactState`] (start from
//! `ContactState::default()`, drop it when the contact ends) and calls
//! [`ContactState::update`] once per step with plain inputs ([`ContactInput`]: poses, contact
//! points on both bodies, the normal pointing **into body i**, the normal force N and Δt). The
//! update tracks the contact point on both surfaces (frame continuation, [`Surface`] arcs), feeds one
//! generic spring–damper–slider ([`Slider`], static/kinetic modes) per mechanism — slide
//! (vector), roll (vector, one per body) and spin (scalar) — and returns the friction
//! [`Wrench`] on each body (docs/tracking.md §0.1 sign conventions).
//!
//! The paper's experiments (docs/tracking.md §7 T1–T8), the reference integrator that runs
//! them and the App. A baselines live in the workspace's laboratory crate (`lab/`), not here.
//!
//! # Conventions (docs/tracking.md)
//!
//! * **Normal** `n` points into body i. Slide force `F_f` acts on i at `C_i^1`, `−F_f` on j at
//!   `C_j^1` (plus their moments about each centre of mass); roll torques `τ_i = 𝒯_i × n`,
//!   `τ_j = n × 𝒯_j` (not equal and opposite); spin `τ_i = −𝒯^ψ n`, `τ_j = +𝒯^ψ n` (§0.1).
//! * **Onset** (first update of a [`ContactState`]): zero loads, histories 0, all modes
//!   static (§1.2). Drop the state when the contact ends.
//! * **Capping** with the mode held at t0; the s→k step carries the static capacity; damping
//!   only when the mode after the update is static, with the raw increment (§2.2–2.3).
//! * **N ≤ 0**: zero loads, histories released to 0, kinematic tracking continues.
//! * **Counter-spin** `p_j = Rot(n, +ψ) p̄_j` by default ([`CounterSpin`]); histories follow a
//!   tilting normal by the minimal rotation (§5.2 E); roll friction is off when
//!   `κ_i + κ_j ≤ ε_κ` (flat on flat, conforming pairs).
//! * **Damping defaults** are critical against the [`DampingInertia`] you pass (eq. 1c uses
//!   the plain mass); for bodies whose contact point is far from the centre of mass relative
//!   to their inertia, [`DampingInertia::tangential_effective_mass`] keeps the explicit
//!   stick-phase dashpot stable.
//!
//! ```
//! use tribo::tracking::{ContactBody, ContactInput, ContactState, DampingInertia, Material,
//!     Surface, TrackingConfig};
//! use tribo::{DQuat, DVec3};
//!
//! // μs = 0.5, μk = 0.4, rolling resistance 4 mm (roll torque bound 0.004 m × N).
//! let material = Material::new(0.5, 0.4)?.with_rolling_resistance(0.004)?;
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

mod contact;
mod geometry;
mod kinematics;
mod material;
mod slider;
#[cfg(test)]
mod tests;

pub use contact::{
    ContactBody, ContactInput, ContactOutput, ContactState, DampingInertia, TrackingConfig, UpdateError,
    Wrench,
};
pub use geometry::{ArcMode, GeometryError, Surface};
pub use kinematics::CounterSpin;
pub use material::{
    limits, CombineRule, CombineRules, Damping, Derived, Material, MaterialId, Mode, ParamError, PerNewton,
    RollOverride, SpinModel,
};
pub use slider::{Deflection, Slider, SliderParams};
