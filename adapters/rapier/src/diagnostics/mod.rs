//! Slip and roll diagnostics of a rapier scene (docs/realizability.md §9): tribo's
//! engine-agnostic analyses of Antali & Stepan built from rapier's data after a step.
//!
//! * **Two contacts** ([`BodyRealizability`], docs/realizability.md §3): for a body touching
//!   fixed supports at exactly two contacts, can it roll at both, or which slip can start (RS:
//!   `P⁻` slips, SR: `P⁺` slips, SS: both), or which contact lifts off? rapier's solver picks
//!   *some* split of the indeterminate two-point contact forces and may show rolling the
//!   physics does not allow, or slip it forbids; the verdict tells which. The body may roll or
//!   slip: the verdict is about its rolling state at its current pose, loads and spin about
//!   the chord (where rolling is impossible it says so from the first step).
//! * **One contact** ([`BodySlip`], docs/realizability.md §2, §2.11): for a body on one support,
//!   the limit directions of its slip (attracting or repelling, angularly stable or not), and,
//!   when it slips, where the slip goes: the limit direction it turns to, whether it shrinks to
//!   rolling (and when) or grows, whether it reverses.
//!
//! Both run on demand ([`two_contact_realizability`], [`body_realizability`], [`body_slip`])
//! or per step inside [`TriboRapier::after_step`]: the two-contact monitor for every body
//! ([`TriboRapier::set_realizability`], reports in [`TriboRapier::realizability_reports`]),
//! the slip diagnostic for the bodies you watch ([`TriboRapier::watch_slip`], reports in
//! [`TriboRapier::slip_reports`]). Each per-step report carries `changed`: the body's first
//! report, or a verdict that differs from the step before. With the monitor on, the slide modes
//! of a body's two contacts follow its verdict ([`RealizabilitySettings::follow_verdict`],
//! docs/realizability.md §9.2).
//!
//! ```no_run
//! use tribo_rapier::diagnostics::RealizabilitySettings;
//! use tribo_rapier::rapier3d::prelude::*;
//! use tribo_rapier::{Status, TriboRapier};
//! # let mut world = PhysicsWorld::new();
//! # let ball = RigidBodyHandle::invalid();
//! let mut tribo = TriboRapier::new();
//! // The gravity comes from the world (`step_world`).
//! tribo.set_realizability(Some(RealizabilitySettings::default()));
//! tribo.watch_slip(ball, true);
//! tribo.step_world(&mut world, &(), &());
//! for r in tribo.realizability_changes() {
//!     if r.status() == Some(Status::NotRealizable) {
//!         println!("{:?} cannot keep rolling: {:?} can start", r.body, r.transitions());
//!     }
//! }
//! if let Some(e) = tribo.slip_report(ball).and_then(|r| r.evolution()) {
//!     println!("slip {:.3} m/s: {:?}, reverses: {}", e.speed, e.fate, e.reverses());
//! }
//! ```
//!
//! ## What is taken from rapier
//! * mass, centre of mass and world inertia tensor from the body's mass properties
//!   (`local_mprops` rotated by the body pose);
//! * one contact per solver manifold (a contact patch): its point is the body's material
//!   point at the solver contacts (impulse-weighted when the last step had impulses, as in
//!   [`TriboRapier`]'s own state; the body-side anchors turned with the body over the last
//!   step, so that rotation `ω dt` is undone: on a ball rolling at 1.4 m/s at dt = 1/30 the
//!   turned anchor lies 0.6 rad up the ball), its normal the manifold normal turned to point
//!   **into** the body; a face contact is analysed as a point contact at that point;
//! * μ: the static μs (two contacts, and whether rolling holds at one) and the kinetic μk (the
//!   slipping law at one contact) of the contact's tribo material, or rapier's (combined,
//!   possibly hook-modified) manifold friction coefficient for stock contacts;
//! * the applied wrench at the centre of mass: `m g · gravity_scale + user_force`, minus
//!   rapier's linear damping `c_v m v`; torque `user_torque − c_ω J ω`; the gravity from the
//!   settings, else [`TriboRapier::gravity`] (set by [`TriboRapier::step_world`] and
//!   bevy_tribo from the world, or with [`TriboRapier::set_gravity`]);
//! * the angular velocity (two contacts: the spin `Ω_a = ω·a` about the chord), with a
//!   diagonal relative radius-of-curvature tensor from [`crate::curvature::collider_curvature`]
//!   along two tangent directions (it only matters for a turning body that is not a sphere);
//! * at one contact, rapier's locked axes as ideal constraints (`e·ω̇ = 0` about a locked
//!   world axis `e`).
//!
//! "Sticking" ([`SupportContact::sticking`]): a tribo contact whose slide mode is
//! [`Mode::Static`](crate::Mode); a stock contact (or a tribo contact without state yet) whose
//! tangential slip speed is at most [`Settings::slip_speed`](crate::Settings::slip_speed) plus
//! 1 % of the body speed (the store's own rule), measured as the store does without the velocity
//! rapier's solver leaves pressing the body into its supports (that velocity into one wall of a
//! trough is tangential to the other wall), within the part of it tangential to the contact.
//!
//! ## Limits (documented, not errors of the analysis)
//! * The theory is for a rigid body on **fixed** surfaces: a contact with another dynamic
//!   body yields [`SupportError::MovingSupport`]; kinematic bodies are treated as fixed at
//!   the instant (their acceleration is ignored).
//! * Joints (including tribo's own roll/spin motors) and rolling resistance are not part of
//!   the Coulomb point-contact model and are not included in the wrench.
//! * Bodies with locked axes get [`SupportError::LockedAxes`] from the two-contact analysis.
//! * The contact point is the body's material point at rapier's solver anchors with the last
//!   step's turn `ω dt` undone at the end-of-step `ω` (the `dt` of the store's last
//!   `after_step`); rapier's substeps turn the body at the velocities within the step, so while
//!   its spin changes at `α` the point lies about `r α dt²/2` off (0.57 mm for a slipping ball
//!   at 1/60: 2.5 % on the time to rolling, docs/realizability.md §9.3). On demand with a store
//!   that never stepped (`dt` unknown, taken as 0) nothing is undone: on a world stepped
//!   without tribo, the point of a turning body then lies `r ω dt` up its surface.

mod monitor;
mod single_contact;
mod support;
mod two_contact;

pub use monitor::RealizabilitySettings;
pub(crate) use monitor::{after_step_monitor, Monitor};
pub use single_contact::{body_slip, BodySlip, SlipPrediction};
pub use support::{SupportContact, SupportError, TwoContactError};
pub use two_contact::{
    body_realizability, body_realizability_with, two_contact_realizability, two_contact_realizability_with,
    BodyRealizability,
};

#[cfg(doc)]
use crate::TriboRapier;
