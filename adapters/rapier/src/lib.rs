//! # tribo_rapier — real dry friction for rapier3d
//!
//! Replaces rapier's single-coefficient point friction on the colliders you choose with
//! tribo's model (docs/tracking.md, Fang & Negrut):
//!
//! * **slide**: static μs while a contact sticks, kinetic μk while it slips (hysteresis: a
//!   brick at rest on a slope between atan μk and atan μs stays, a pushed one keeps sliding),
//!   set per manifold through rapier's contact-modification hook; a sticking contact is pulled
//!   back to its anchor through `tangent_velocity`, so it does not creep (a conveyor
//!   `tangent_velocity` set by your own hook is kept, and slip is measured relative to it);
//! * **roll resistance** and **spin resistance**: torques bounded by the capacities of
//!   [`tribo::tracking::Material`] (`c N` for a resistance length c in metres; the paper's η
//!   forms `2 η_r μ N/(κ_i+κ_j)` and `η_ψ μ N/𝒦`; Hertz `½ a μ N`),
//!   static capacity in stick and kinetic in slip, applied through one angular-motor
//!   [`GenericJoint`](rapier3d::prelude::GenericJoint) per contact (target relative angular
//!   velocity 0, max torque = capacity). rapier solves the motor implicitly inside its velocity
//!   solver with a bounded impulse: a ball stops and stays stopped at dt = 1/60, with no chatter
//!   and no creep. The single roll row is aligned every step with the rolling axis (slip) or
//!   the accumulated roll deflection (stick), so the roll limit is a circle in the tangent
//!   plane (no box);
//! * optional **Contensou contact model** ([`contensou`], [`FrictionMaterial::with_contensou`]):
//!   coupled slide/spin friction of a finite patch (flat face or Hertz), the slide coefficient
//!   `μ𝒬(ε)` and the spin-motor bound `μNκ𝒯(ε)` set together every step from the slip/spin
//!   ratio ε — a spinning puck slides easily, and a puck launched sliding and spinning stops
//!   both at the same instant.
//!
//! Colliders without a [`FrictionMaterial`] keep stock rapier behaviour.
//!
//! ## Use from plain rapier
//!
//! ```no_run
//! use tribo_rapier::rapier3d::prelude::*;
//! use tribo_rapier::{FrictionMaterial, TriboRapier};
//! # let (mut pipeline, gravity, params) = (PhysicsPipeline::new(), Vector::new(0.0, -9.81, 0.0), IntegrationParameters::default());
//! # let (mut islands, mut broad_phase, mut narrow_phase) = (IslandManager::new(), BroadPhaseBvh::new(), NarrowPhase::new());
//! # let (mut bodies, mut colliders) = (RigidBodySet::new(), ColliderSet::new());
//! # let (mut impulse_joints, mut multibody_joints, mut ccd) = (ImpulseJointSet::new(), MultibodyJointSet::new(), CCDSolver::new());
//! # let ball_collider = colliders.insert(ColliderBuilder::ball(0.1));
//! let mut tribo = TriboRapier::new();
//! // μs = 0.6, μk = 0.5, rolling resistance 2 mm: roll torque bound 0.002 m × N.
//! let material = FrictionMaterial::builder().friction(0.6, 0.5).rolling_resistance(0.002).build()?;
//! tribo.set_material(ball_collider, material);
//! let user_hooks = (); // your own PhysicsHooks, if any: they still run
//! for _ in 0..600 {
//!     tribo.before_step(&params, &mut bodies, &mut colliders, &mut impulse_joints);
//!     # #[cfg(not(feature = "rapier-0-36"))]
//!     pipeline.step(gravity, &params, &mut islands, &mut broad_phase, &mut narrow_phase,
//!         &mut bodies, &mut colliders, &mut impulse_joints, &mut multibody_joints, &mut ccd,
//!         &tribo.hooks(&user_hooks), &());
//!     # #[cfg(feature = "rapier-0-36")]
//!     # pipeline.step(gravity, &params, &mut islands, &mut broad_phase, &mut narrow_phase,
//!     #     &mut bodies, &mut colliders, &mut impulse_joints, &mut multibody_joints,
//!     #     &mut SoftBodySet::new(), &mut ccd, &tribo.hooks(&user_hooks), &());
//!     tribo.after_step(&params, &bodies, &colliders, &narrow_phase, &mut impulse_joints);
//! }
//! # Ok::<(), tribo_rapier::MaterialError>(())
//! ```
//! (With rapier 0.36 `PhysicsPipeline::step` takes the extra `&mut SoftBodySet`.)
//! [`TriboRapier::step_world`] does the same around a rapier `PhysicsWorld`.
//!
//! ## Design notes
//! * **Contact identity: one state per touching collider pair** (key: the two collider handles
//!   in rapier's pair order). The manifolds of a composite shape (mesh triangles, compound
//!   parts) are merged into that one state: rapier's friction coefficient is per manifold and
//!   its contact clustering merges coplanar manifolds anyway, and the roll/spin motor acts on the
//!   relative rotation of the two bodies, so one per pair. Keying by sub-shape and feature ids
//!   would make the state churn whenever rapier regenerates features (a rocking brick) without
//!   changing any load.
//! * One state per contacting collider pair: modes (static/kinetic) of slide, roll and spin,
//!   the slide and roll/spin deflections of a sticking contact, the last normal force
//!   `N = Σ impulse/dt` read from `ContactPair::solver_manifolds()`, and the motor joint.
//!   A mechanism goes from stick to slip when the deflection accumulated while sticking
//!   (slide offset, roll angle, spin angle) exceeds the material's static threshold (`μs N/K_E`,
//!   `Θ^s`, `𝒮_s^ψ`; docs/tracking.md §2.2, §3.4, §4.2): the bounded constraint (friction cone, motor)
//!   could not hold it. It returns to stick when the relative velocity falls below
//!   [`Settings::slip_speed`] (angular: `slip_speed·κ̄`).
//! * Roll and spin capacities use the normal force of the previous step (one-step lag); on the
//!   first step of a contact they are 0 (docs/tracking.md §1.2: no loads on the first contact step).
//! * One pass per step over the contacts: `after_step` reads a contact's impulses, updates its
//!   modes and plans the next step (friction coefficient and anchor pull-back for the hook,
//!   kept in a small array of its own; motor bounds and frame, written into the existing joint
//!   in place) while the contact's bodies and colliders are at hand. `before_step` only drops
//!   the state of removed colliders and bodies (and of contacts with no dynamic side left),
//!   re-combines changed materials, recomputes the curvatures of contacts whose shape or parent
//!   changed, and plans the Contensou contacts, whose limits depend on the velocities the step starts from. A body
//!   the user teleports or spins between two steps therefore gets motor axes aligned with its
//!   previous motion for that one step.
//! * The motor acts on the *relative* angular velocity of the two bodies (equal and opposite
//!   torques), the usual rolling-resistance convention of DEM codes; against fixed ground this
//!   is the body's own angular velocity.
//! * A contact whose collider has no parent body (static ground collider) is attached to one
//!   hidden fixed body that [`TriboRapier`] inserts in the `RigidBodySet` when first needed
//!   ([`TriboRapier::anchor_body`]).
//! * Joints and the anchor body created by tribo carry [`TRIBO_JOINT_USER_DATA`] in their
//!   `user_data`. Snapshots, adoption of a restored world and cleanup: see
//!   [`TriboRapier::forget_world`], [`TriboRapier::remove_tribo_objects`] and the README.
//!   With the `serde-serialize` feature (rapier's name, forwarded) the store is `Serialize` and
//!   `Deserialize`: save it with the rapier world after `after_step`, restore both together.
//! * Determinism: what the hook reports (new contacts, conveyor velocities) is sorted into a
//!   canonical order before `after_step` creates states and joints, so runs are bit-identical
//!   under rapier's `parallel` feature (forwarded as this crate's `parallel`;
//!   `enhanced-determinism` too).

#![warn(missing_docs)]

#[cfg(not(any(feature = "rapier-0-35", feature = "rapier-0-36")))]
compile_error!("tribo_rapier: enable exactly one of the features `rapier-0-35` (default) or `rapier-0-36`");

/// The rapier this crate is built against (0.35.0-glamx0.2 by default, 0.36.1 with the
/// `rapier-0-36` feature). Use it to be sure your types match.
#[cfg(not(feature = "rapier-0-36"))]
pub use rapier3d;
/// The rapier this crate is built against (0.35.0-glamx0.2 by default, 0.36.1 with the
/// `rapier-0-36` feature). Use it to be sure your types match.
#[cfg(feature = "rapier-0-36")]
pub use rapier3d_036 as rapier3d;

mod compat;
pub mod contensou;
pub mod curvature;
pub mod diagnostics;
mod hooks;
mod line_contact;
mod material;
mod rolling;
mod slip;
mod store;
#[cfg(feature = "urdf")]
pub mod urdf;

pub use hooks::TriboHooks;
pub use material::{combine_rule_of, FrictionMaterial, FrictionMaterialBuilder, MaterialError, PairTable};
pub use store::{
    ContactInfo, Diagnostic, RollSpin, Settings, TriboRapier, MIN_VALIDATED_DT, TRIBO_JOINT_USER_DATA,
};
/// The types the [`diagnostics`] reports are matched on: the two-contact verdict ([`Status`],
/// [`Transition`], [`Report`]) and the single-contact analysis ([`SingleContactReport`],
/// [`LimitDirection`], [`Case`], [`SlipEvolution`], [`SlipFate`]), from tribo's core.
pub use tribo::realizability::{
    Case, LimitDirection, Report, SingleContactReport, SlipEvolution, SlipFate, Status, Transition,
};
pub use tribo::tracking::{
    limits, CombineRule, CombineRules, Damping, Material, MaterialId, Mode, ParamError, RollOverride,
    SpinModel,
};

pub use tribo::DVec3;

/// The README's examples, compiled and run as doctests (`cargo test --doc`) so they follow the
/// API. They are written for the default rapier (0.35; 0.36's `PhysicsPipeline::step` takes
/// one more set).
#[cfg(all(doctest, not(feature = "rapier-0-36")))]
#[doc = include_str!("../README.md")]
pub struct ReadmeExamples;
