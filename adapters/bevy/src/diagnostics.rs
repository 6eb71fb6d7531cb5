//! Diagnostics as bevy data: step counters and per-contact friction state.

use bevy::prelude::*;
use bevy_rapier3d::prelude::{RapierContextColliders, RapierRigidBodySet};
use tribo::realizability::Status;
use tribo::realizability::Transition;
use tribo_rapier::diagnostics::BodyRealizability;
use tribo_rapier::{Diagnostic, Mode};

/// Step counters of tribo's stepping (a resource).
///
/// `rapier_steps` counts the rapier steps tribo's step system performed and `tribo_updates` the
/// tribo per-step updates (before-step, rapier step, after-step) among them; they are equal
/// whenever every rapier context has its [`TriboContext`](crate::TriboContext).
#[derive(Resource, Reflect, Default, Debug, Clone, PartialEq, Eq)]
#[reflect(Resource, Default, Debug, PartialEq, Clone)]
pub struct TriboStats {
    /// Runs of tribo's step system (one per run of the physics schedule).
    pub frames: u64,
    /// Rapier steps taken, summed over contexts.
    pub rapier_steps: u64,
    /// tribo per-step updates, summed over contexts.
    pub tribo_updates: u64,
    /// Calls of [`TriboHooks`](crate::TriboHooks) that did not come from tribo's stepping
    /// (bevy_rapier's own `step_simulation` still running somewhere). Should stay 0.
    pub bypassed_hook_calls: u64,
}

/// Per-contact friction state after the last rapier step of the frame (a resource).
///
/// Rebuilt every run of tribo's step system (with the physics pipeline paused, from the
/// contacts of the last rapier step); systems ordered after
/// [`TriboSet::Step`](crate::TriboSet) read the current frame's contacts.
#[derive(Resource, Reflect, Default, Debug, Clone)]
#[reflect(opaque, Resource, Default, Debug, Clone)]
pub struct TriboContacts {
    /// One entry per tracked contact (all rapier contexts).
    pub contacts: Vec<ContactReport>,
}

impl TriboContacts {
    pub(crate) fn clear(&mut self) {
        self.contacts.clear();
    }

    /// The contacts involving collider entity `e`.
    pub fn involving(&self, e: Entity) -> impl Iterator<Item = &ContactReport> {
        self.contacts.iter().filter(move |c| c.collider1 == e || c.collider2 == e)
    }

    /// The contacts involving rigid-body entity `b`.
    pub fn involving_body(&self, b: Entity) -> impl Iterator<Item = &ContactReport> {
        self.contacts.iter().filter(move |c| c.body1 == Some(b) || c.body2 == Some(b))
    }
}

/// The friction state of one contact, in world space, after a rapier step.
///
/// Its numbers are `f32`, rapier's precision, as in [`tribo_rapier::ContactInfo`] (whose docs
/// say why); the materials they come from are `f64`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ContactReport {
    /// The rapier context entity the contact belongs to.
    pub context: Entity,
    /// First collider entity.
    pub collider1: Entity,
    /// Second collider entity.
    pub collider2: Entity,
    /// Rigid-body entity of collider1 (`None`: a collider without a body, e.g. static ground).
    pub body1: Option<Entity>,
    /// Rigid-body entity of collider2.
    pub body2: Option<Entity>,
    /// Contact point (world, m).
    pub point: Vec3,
    /// Contact normal, pointing from collider1 to collider2 (world).
    pub normal: Vec3,
    /// Normal force N = Σ normal impulse / dt of the last step (N).
    pub normal_force: f32,
    /// Slide mode: `Static` (sticking, μs) or `Kinetic` (slipping, μk).
    pub slide: Mode,
    /// Roll mode.
    pub roll: Mode,
    /// Spin mode.
    pub spin: Mode,
    /// Friction coefficient given to rapier for the next step (μs or μk).
    pub friction: f32,
    /// Rolling-resistance torque bound for the next step (N·m).
    pub roll_capacity: f32,
    /// Spin-friction torque bound for the next step (N·m).
    pub spin_capacity: f32,
    /// The contact fell back to stock rapier friction (see [`TriboDiagnostic`]).
    pub stock_fallback: bool,
    /// Slip velocity: velocity of body2 relative to body1 at the contact point, tangential
    /// component (world, m/s; a conveyor velocity set by a user hook is not subtracted).
    pub slip_velocity: Vec3,
    /// Sliding friction force on body2 while the contact slips (world, N; on body1 the
    /// opposite): `−μk N` along the slip velocity. `None` while it sticks: the static friction
    /// force is whatever rapier's solver needs below `μs N`, and rapier does not expose it in a
    /// usable frame.
    pub friction_force: Option<Vec3>,
    /// Rolling-resistance torque on body2 while it rolls relative to body1 (world, N·m; on
    /// body1 the opposite): the kinetic bound `roll_capacity` against the relative tangential
    /// angular velocity. `None` while the roll sticks (the holding torque is below the bound).
    pub roll_torque: Option<Vec3>,
    /// Spin-friction torque on body2 while it spins relative to body1 (world, N·m, along the
    /// normal): the kinetic bound `spin_capacity` against the relative spin. `None` while the
    /// spin sticks.
    pub spin_torque: Option<Vec3>,
}

impl ContactReport {
    /// Slide friction force bound of the next step, `μ N` (N).
    pub fn slide_capacity(&self) -> f32 {
        self.friction * self.normal_force
    }
}

/// A problem tribo found in the scene, as a bevy message (read it with
/// `MessageReader<TriboDiagnostic>`); see [`Diagnostic`] for what each means and does.
#[derive(Message, Debug, Clone, Copy, PartialEq)]
pub struct TriboDiagnostic {
    /// The rapier context entity.
    pub context: Entity,
    /// The rigid-body entity concerned, when there is one.
    pub body: Option<Entity>,
    /// What tribo_rapier reported.
    pub diagnostic: Diagnostic,
}

impl TriboDiagnostic {
    pub(crate) fn from_store(context: Entity, diagnostic: Diagnostic, bodies: &RapierRigidBodySet) -> Self {
        let body = match diagnostic {
            Diagnostic::ZeroMassBody { body } | Diagnostic::AngularSpeedCapped { body } => {
                bodies.rigid_body_entity(body)
            }
            _ => None,
        };
        TriboDiagnostic { context, body, diagnostic }
    }
}

impl std::fmt::Display for TriboDiagnostic {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.body {
            Some(b) => write!(f, "{} (entity {b})", self.diagnostic),
            None => write!(f, "{}", self.diagnostic),
        }
    }
}

/// Whether tribo_rapier's two-contact realizability monitor runs (a resource; set it from
/// [`TriboPlugin::with_realizability`](crate::TriboPlugin::with_realizability) or at run time).
///
/// When on, after every rapier step each dynamic body that touches fixed supports at exactly
/// two contacts is analysed, whatever its contacts do (Antali & Stepan's Definition 11,
/// docs/realizability.md §9.1): can it roll at both contacts, or which slip can start? Every
/// analysis is sent as a [`RealizabilityReport`] message (`report.changed` marks a body's first
/// report and a changed verdict), and the slide modes of a body whose two-point rolling is not
/// realizable turn kinetic in the same step (§9.2). It costs one two-contact analysis per such
/// body and step (0.1–0.7 ms each, per tribo_rapier), so it is off by default.
#[derive(Resource, Reflect, Debug, Clone, Copy, Default, PartialEq, Eq)]
#[reflect(Resource, Default, Debug, PartialEq, Clone)]
pub struct RealizabilityMonitor {
    /// Run the monitor.
    pub enabled: bool,
}

/// The realizability verdict for one body after one rapier step, as a bevy message (read it
/// with `MessageReader<RealizabilityReport>`; see [`RealizabilityMonitor`]).
#[derive(Message, Debug, Clone)]
pub struct RealizabilityReport {
    /// The rapier context entity.
    pub context: Entity,
    /// The body's entity.
    pub body: Option<Entity>,
    /// `[P⁺, P⁻]` as (the body's collider entity, the supporting collider entity), in the order
    /// of `report.contacts`.
    pub colliders: [(Option<Entity>, Option<Entity>); 2],
    /// Index of the rapier step within the frame (several with substeps).
    pub step: u32,
    /// tribo_rapier's full report (contacts, the two-contact problem, the analysis).
    pub report: BodyRealizability,
}

impl RealizabilityReport {
    pub(crate) fn new(
        context: Entity,
        step: u32,
        report: BodyRealizability,
        colliders: &RapierContextColliders,
        bodies: &RapierRigidBodySet,
    ) -> Self {
        let pair = |i: usize| {
            (
                colliders.collider_entity(report.contacts[i].collider),
                colliders.collider_entity(report.contacts[i].other_collider),
            )
        };
        RealizabilityReport {
            context,
            body: bodies.rigid_body_entity(report.body),
            colliders: [pair(0), pair(1)],
            step,
            report,
        }
    }

    /// Whether two-point rolling is realizable (`false` when the analysis failed).
    pub fn realizable(&self) -> bool {
        self.report.realizable()
    }

    /// Signed margin (m/s², `> 0` ⇔ realizable), `None` when the analysis failed.
    pub fn margin(&self) -> Option<f64> {
        self.report.margin()
    }

    /// The verdict, `None` when the analysis failed.
    pub fn status(&self) -> Option<Status> {
        self.report.status()
    }

    /// Transitions that can start: RS (`P⁻` slips), SR (`P⁺` slips), SS (both), LIFT+ (`P⁺`
    /// leaves its support), LIFT- (`P⁻` leaves its support).
    pub fn transitions(&self) -> &[Transition] {
        self.report.transitions()
    }

    /// The collider entities (of the body) that slip in transition `t` (none for a lift-off).
    pub fn slipping_colliders(&self, t: Transition) -> Vec<Option<Entity>> {
        match t {
            Transition::RS => vec![self.colliders[1].0],
            Transition::SR => vec![self.colliders[0].0],
            Transition::SS => vec![self.colliders[0].0, self.colliders[1].0],
            Transition::LiftPlus | Transition::LiftMinus => vec![],
        }
    }

    /// The (body collider, supporting collider) pair that separates in transition `t`
    /// (LIFT+: `P⁺`, LIFT-: `P⁻`; `None` for the slip transitions).
    pub fn lifting_pair(&self, t: Transition) -> Option<(Option<Entity>, Option<Entity>)> {
        match t {
            Transition::LiftPlus => Some(self.colliders[0]),
            Transition::LiftMinus => Some(self.colliders[1]),
            _ => None,
        }
    }

    /// Whether lift-off of one of the two contacts is predicted.
    pub fn lift_off(&self) -> bool {
        self.transitions().iter().any(|t| matches!(t, Transition::LiftPlus | Transition::LiftMinus))
    }
}
