//! Where the slip of a body on one support goes (docs/realizability.md §2, §2.11, §9.3;
//! Antali & Stepan (2019)).

use super::support::{
    body_model, curvature_radius, dynamic_body_supports, moving_support, Support, SupportContact,
};
use super::SupportError;
use crate::rapier3d::prelude::*;
use crate::TriboRapier;
use tribo::realizability::{
    BilateralConstraint, LimitDirection, SingleContactProblem, SingleContactReport, SlipEvolution, SlipFate,
};
use tribo::DVec3;

/// The slip diagnostic of one body on one support.
#[derive(Clone, Debug)]
pub struct BodySlip {
    /// The body.
    pub body: RigidBodyHandle,
    /// Its one contact.
    pub contact: SupportContact,
    /// The problem handed to the analysis (`None` when the rapier data were rejected before).
    pub problem: Option<SingleContactProblem>,
    /// The prediction (`Err` for bad data: the entry is reported, nothing panics).
    pub outcome: Result<SlipPrediction, SupportError>,
    /// The per-step monitor's first report of this body, or one whose prediction (slipping or
    /// not, the fate of the slip, rolling holding or not, or the error) differs from its
    /// report in the step before. Always `true` in an on-demand report.
    pub changed: bool,
}

/// What the single-contact analysis predicts for a body on one support.
#[derive(Clone, Debug, PartialEq)]
pub struct SlipPrediction {
    /// The analysis at the body's state with the kinetic coefficient μk of the contact (the
    /// slipping law): limit directions (attracting `R < 0` / repelling `R > 0`, angularly
    /// stable or not), the case I–IV, whether rolling is realizable at μk, the escape
    /// direction, the rolling solve's normal and friction forces.
    pub analysis: SingleContactReport,
    /// Rolling holds once reached: the contact is pressed and the rolling solve's friction is
    /// below `μs N` (Theorem 4 of \[003\] with the static coefficient).
    pub rolling_holds: bool,
    /// Where the slip goes, if the contact slips (`None` while it sticks, or for a contact that
    /// opens or a problem that is not well posed). Its fate is [`SlipFate::Rolls`] when the slip
    /// shrinks to zero and [`rolling_holds`](Self::rolling_holds).
    pub evolution: Option<SlipEvolution>,
}

impl BodySlip {
    /// The prediction, if any.
    pub fn prediction(&self) -> Option<&SlipPrediction> {
        self.outcome.as_ref().ok()
    }

    /// Where the slip goes (`None` while the contact sticks, or on error).
    pub fn evolution(&self) -> Option<&SlipEvolution> {
        self.prediction().and_then(|p| p.evolution.as_ref())
    }

    /// The fate of the slip (`None` while the contact sticks, or on error).
    pub fn fate(&self) -> Option<SlipFate> {
        self.evolution().map(|e| e.fate)
    }

    /// The limit directions of the slip field (empty on error).
    pub fn limit_directions(&self) -> &[LimitDirection] {
        self.prediction().map_or(&[], |p| &p.analysis.limit.directions)
    }

    /// Whether rolling holds at the contact (`false` on error).
    pub fn rolling_holds(&self) -> bool {
        self.prediction().is_some_and(|p| p.rolling_holds)
    }

    /// The error, if any.
    pub fn error(&self) -> Option<&SupportError> {
        self.outcome.as_ref().err()
    }

    /// What [`changed`](Self::changed) compares.
    fn verdict(&self) -> Result<(bool, Option<u8>, bool), &SupportError> {
        self.outcome.as_ref().map(|p| {
            let fate = p.evolution.map(|e| match e.fate {
                SlipFate::Rolls { .. } => 0,
                SlipFate::RollsThenSlips { .. } => 1,
                SlipFate::Grows => 2,
                SlipFate::Turns => 3,
            });
            (p.evolution.is_some(), fate, p.rolling_holds)
        })
    }

    /// Whether the prediction is the same as `other`'s (module docs of [`changed`](Self::changed)).
    pub(super) fn same_verdict(&self, other: &BodySlip) -> bool {
        self.verdict() == other.verdict()
    }
}

/// The slip diagnostic of `body` after the last step, or `None` when it is not a dynamic body
/// touching its supports at exactly one active contact. `gravity` is the world gravity.
pub fn body_slip(
    body: RigidBodyHandle,
    bodies: &RigidBodySet,
    colliders: &ColliderSet,
    narrow_phase: &NarrowPhase,
    gravity: Vector,
    tribo: &TriboRapier,
) -> Option<BodySlip> {
    body_slip_with(body, bodies, colliders, narrow_phase, Some(gravity), tribo)
}

/// [`body_slip`] with the gravity perhaps unknown (the report's error then).
pub(super) fn body_slip_with(
    body: RigidBodyHandle,
    bodies: &RigidBodySet,
    colliders: &ColliderSet,
    narrow_phase: &NarrowPhase,
    gravity: Option<Vector>,
    tribo: &TriboRapier,
) -> Option<BodySlip> {
    let (rb, found) = dynamic_body_supports(body, bodies, colliders, narrow_phase, tribo)?;
    let [support] = <[Support; 1]>::try_from(found).ok()?;
    let mut out = BodySlip {
        body,
        contact: support.spec,
        problem: None,
        outcome: Err(SupportError::NonPositiveMass),
        changed: true,
    };
    match build_problem(rb, &support, bodies, colliders, gravity) {
        Ok(problem) => {
            let slipping = !support.spec.sticking;
            out.outcome = predict(&problem, &support.spec, slipping);
            out.problem = Some(problem);
        }
        Err(e) => out.outcome = Err(e),
    }
    Some(out)
}

/// The analysis of `problem` (at μk) and the evolution of the contact's slip if it slips.
fn predict(
    problem: &SingleContactProblem,
    c: &SupportContact,
    slipping: bool,
) -> Result<SlipPrediction, SupportError> {
    let analysis = problem.analyze().map_err(SupportError::Analysis)?;
    let friction = analysis.static_friction.length();
    let n = analysis.normal_force_rolling;
    let rolling_holds = analysis.well_posed && !analysis.lift_off && friction < c.mu * n;
    let evolution = if slipping { analysis.evolution(c.slip) } else { None };
    // The field is the kinetic one; once the slip has vanished the static coefficient holds
    // the rolling (μs ≥ μk: rolling realizable at μk holds at μs too).
    let evolution = evolution.map(|mut e| {
        if let (SlipFate::RollsThenSlips { time }, true) = (e.fate, rolling_holds) {
            e.fate = SlipFate::Rolls { time };
        }
        e
    });
    Ok(SlipPrediction { analysis, rolling_holds, evolution })
}

/// The single-contact problem of `rb` on `s`: mass properties, the applied wrench, the
/// contact's point and normal with μk, the body's angular velocity with the contact's relative
/// radius-of-curvature tensor, rapier's locked axes as ideal constraints (a locked rotation
/// about the world axis `e`: `e·ω̇ = 0`; a locked translation: `e·a_C = 0`), and the first
/// tangent along the slip when there is one (slip angle 0).
fn build_problem(
    rb: &RigidBody,
    s: &Support,
    bodies: &RigidBodySet,
    colliders: &ColliderSet,
    gravity: Option<Vector>,
) -> Result<SingleContactProblem, SupportError> {
    if let Some(collider) = moving_support(std::slice::from_ref(s), bodies) {
        return Err(SupportError::MovingSupport { collider });
    }
    let b = body_model(rb, gravity.ok_or(SupportError::UnknownGravity)?)?;
    let c = &s.spec;
    if !c.point.is_finite() || !c.normal.is_finite() || !c.mu_kinetic.is_finite() || !c.slip.is_finite() {
        return Err(SupportError::NonFinite("contact"));
    }
    let mut p = SingleContactProblem::new(b.mass, b.inertia, b.com, c.point, c.normal, c.mu_kinetic)
        .with_omega(b.omega)
        .with_loads(b.force, b.torque);
    if c.normal.length() > 1e-12 && b.omega != DVec3::ZERO {
        p = p.with_curvature_radius(curvature_radius(c, colliders));
    }
    if c.slip.length() > 0.0 {
        p = p.with_tangent(c.slip);
    }
    let locked = rb.locked_axes();
    let axes = [DVec3::X, DVec3::Y, DVec3::Z];
    for (k, flag) in
        [LockedAxes::TRANSLATION_LOCKED_X, LockedAxes::TRANSLATION_LOCKED_Y, LockedAxes::TRANSLATION_LOCKED_Z]
            .into_iter()
            .enumerate()
    {
        if locked.contains(flag) {
            p = p.with_constraint(BilateralConstraint { lin: axes[k], ang: DVec3::ZERO, rhs: 0.0 });
        }
    }
    for (k, flag) in
        [LockedAxes::ROTATION_LOCKED_X, LockedAxes::ROTATION_LOCKED_Y, LockedAxes::ROTATION_LOCKED_Z]
            .into_iter()
            .enumerate()
    {
        if locked.contains(flag) {
            p = p.with_constraint(BilateralConstraint { lin: DVec3::ZERO, ang: axes[k], rhs: 0.0 });
        }
    }
    Ok(p)
}
