//! The single-contact slip diagnostic as bevy data (tribo_rapier's `watch_slip`,
//! docs/realizability.md §2.11, §9.3): turn it on with
//! [`TriboPlugin::with_slip_reports`](crate::TriboPlugin::with_slip_reports) and opt in per body
//! with [`WatchSlip`]; after every rapier step in which a watched body touches its supports at
//! exactly one contact, a [`SlipReport`] message says where its slip goes.

use bevy::prelude::*;
use bevy_rapier3d::prelude::{RapierContextColliders, RapierRigidBodySet};
use tribo_rapier::diagnostics::BodySlip;
use tribo_rapier::{LimitDirection, SlipEvolution, SlipFate};

/// Watch this rigid body's slip (a component; add it next to `RigidBody`; the plugin needs
/// [`TriboPlugin::with_slip_reports`](crate::TriboPlugin::with_slip_reports)): tribo predicts,
/// after every step in which the body is on exactly one support, whether its slip converges to
/// rolling, keeps its direction, turns or reverses, sent as a [`SlipReport`]. It costs one
/// single-contact analysis (tens of microseconds) per watched body and step.
#[derive(Component, Reflect, Debug, Clone, Copy, Default, PartialEq, Eq)]
#[reflect(Component, Default, Debug, PartialEq, Clone)]
pub struct WatchSlip;

/// The slip prediction for one watched body after one rapier step, as a bevy message (read it
/// with `MessageReader<SlipReport>`; see [`WatchSlip`]).
#[derive(Message, Debug, Clone)]
pub struct SlipReport {
    /// The rapier context entity.
    pub context: Entity,
    /// The body's entity.
    pub body: Option<Entity>,
    /// (the body's collider entity, the supporting collider entity).
    pub colliders: (Option<Entity>, Option<Entity>),
    /// Index of the rapier step within the frame (several with substeps).
    pub step: u32,
    /// tribo_rapier's full report (the contact, the single-contact problem, the prediction;
    /// `report.changed` marks the body's first report and a changed prediction).
    pub report: BodySlip,
}

impl SlipReport {
    pub(crate) fn new(
        context: Entity,
        step: u32,
        report: BodySlip,
        colliders: &RapierContextColliders,
        bodies: &RapierRigidBodySet,
    ) -> Self {
        SlipReport {
            context,
            body: bodies.rigid_body_entity(report.body),
            colliders: (
                colliders.collider_entity(report.contact.collider),
                colliders.collider_entity(report.contact.other_collider),
            ),
            step,
            report,
        }
    }

    /// Where the slip goes (`None` while the contact sticks, or when the analysis failed).
    pub fn evolution(&self) -> Option<&SlipEvolution> {
        self.report.evolution()
    }

    /// The fate of the slip: `Rolls { time }`, `RollsThenSlips { time }`, `Grows`, `Turns`.
    pub fn fate(&self) -> Option<SlipFate> {
        self.report.fate()
    }

    /// Whether rolling holds at the contact once reached (`false` when the analysis failed).
    pub fn rolling_holds(&self) -> bool {
        self.report.rolling_holds()
    }

    /// The limit directions of the slip (attracting `r < 0` or repelling, angularly stable or
    /// not).
    pub fn limit_directions(&self) -> &[LimitDirection] {
        self.report.limit_directions()
    }

    /// The contact point (world, m).
    pub fn point(&self) -> Vec3 {
        self.report.contact.point.as_vec3()
    }
}
