//! Realizability of two-point rolling for a body on exactly two supports (docs/realizability.md
//! §3, §9.1; Antali & Stepan (2021)).

use super::support::{
    body_model, curvature_radius, dv, dynamic_body_supports, moving_support, Support, SupportContact,
};
use super::{RealizabilitySettings, SupportError};
use crate::rapier3d::prelude::*;
use crate::TriboRapier;
use tribo::realizability::{ContactSpec, Report, Status, Transition, TwoContactProblem};

/// Realizability report of one body on two contacts.
#[derive(Clone, Debug)]
pub struct BodyRealizability {
    /// The body.
    pub body: RigidBodyHandle,
    /// `[P⁺, P⁻]` (ordered by the supporting collider's index, then manifold order). The
    /// transition [`Transition::RS`] means `P⁺ = contacts[0]` keeps rolling and
    /// `P⁻ = contacts[1]` slips; [`Transition::SR`] the converse.
    pub contacts: [SupportContact; 2],
    /// The problem handed to the analysis (`None` when the rapier data were rejected before).
    pub problem: Option<TwoContactProblem>,
    /// The analysis (`Err` for bad data: the entry is reported, nothing panics).
    pub outcome: Result<Report, SupportError>,
    /// The per-step monitor's first report of this body, or one whose verdict
    /// ([`status`](Self::status) and [`transitions`](Self::transitions), or the error) differs
    /// from its report in the step before. Always `true` in an on-demand report.
    pub changed: bool,
}

impl BodyRealizability {
    /// Whether two-point rolling is realizable (Definition 11, strict); `false` on error.
    pub fn realizable(&self) -> bool {
        self.outcome.as_ref().is_ok_and(|r| r.realizable)
    }

    /// Signed margin (m/s²) (`> 0` ⇔ realizable when well posed), `None` on error.
    pub fn margin(&self) -> Option<f64> {
        self.outcome.as_ref().ok().map(|r| r.margin)
    }

    /// The verdict, `None` on error.
    pub fn status(&self) -> Option<Status> {
        self.outcome.as_ref().ok().map(|r| r.status)
    }

    /// Transitions that can start (empty when realizable or on error).
    pub fn transitions(&self) -> &[Transition] {
        self.outcome.as_ref().map_or(&[], |r| &r.transitions)
    }

    /// The error, if any.
    pub fn error(&self) -> Option<&SupportError> {
        self.outcome.as_ref().err()
    }

    /// Whether both contacts stick (the body rolls or rests on them).
    pub fn rolling(&self) -> bool {
        self.contacts.iter().all(|c| c.sticking)
    }

    /// The contacts that slip in transition `t` (RS: `[P⁻]`, SR: `[P⁺]`, SS: both; none for
    /// a lift-off).
    pub fn slipping_contacts(&self, t: Transition) -> Vec<&SupportContact> {
        let [p, m] = slipping_in(t);
        self.contacts.iter().zip([p, m]).filter(|(_, s)| *s).map(|(c, _)| c).collect()
    }

    /// The contact that leaves its surface in transition `t` (LIFT+: `P⁺`, LIFT-: `P⁻`;
    /// `None` for the slip transitions).
    pub fn lifting_contact(&self, t: Transition) -> Option<&SupportContact> {
        match t {
            Transition::LiftPlus => Some(&self.contacts[0]),
            Transition::LiftMinus => Some(&self.contacts[1]),
            _ => None,
        }
    }

    /// The contacts predicted to lift off (empty when none or on error).
    pub fn lifting_contacts(&self) -> Vec<&SupportContact> {
        self.transitions().iter().filter_map(|t| self.lifting_contact(*t)).collect()
    }

    /// Whether the verdict is the same as `other`'s (status and transitions, or both errors
    /// alike).
    pub(super) fn same_verdict(&self, other: &BodyRealizability) -> bool {
        match (&self.outcome, &other.outcome) {
            (Ok(a), Ok(b)) => a.status == b.status && a.transitions == b.transitions,
            (Err(a), Err(b)) => a == b,
            _ => false,
        }
    }
}

/// Which of `[P⁺, P⁻]` slip in transition `t`.
pub(super) fn slipping_in(t: Transition) -> [bool; 2] {
    match t {
        Transition::RS => [false, true],
        Transition::SR => [true, false],
        Transition::SS => [true, true],
        Transition::LiftPlus | Transition::LiftMinus => [false, false],
    }
}

/// Realizability reports of every dynamic body that touches its supports at exactly two
/// active contacts, whatever the contacts do (stick, slip), built from the state after the
/// last step. `gravity` is the world gravity.
pub fn two_contact_realizability(
    bodies: &RigidBodySet,
    colliders: &ColliderSet,
    narrow_phase: &NarrowPhase,
    gravity: Vector,
    tribo: &TriboRapier,
) -> Vec<BodyRealizability> {
    two_contact_realizability_with(
        bodies,
        colliders,
        narrow_phase,
        RealizabilitySettings::new(gravity),
        tribo,
    )
}

/// [`two_contact_realizability`] with explicit settings (their `gravity`, else the store's
/// [`TriboRapier::gravity`]).
pub fn two_contact_realizability_with(
    bodies: &RigidBodySet,
    colliders: &ColliderSet,
    narrow_phase: &NarrowPhase,
    settings: RealizabilitySettings,
    tribo: &TriboRapier,
) -> Vec<BodyRealizability> {
    bodies
        .iter()
        .filter(|(_, rb)| rb.is_dynamic())
        .filter_map(|(h, _)| body_realizability_with(h, bodies, colliders, narrow_phase, settings, tribo))
        .collect()
}

/// The report of one body, or `None` when it is not a dynamic body touching its supports at
/// exactly two active contacts.
pub fn body_realizability(
    body: RigidBodyHandle,
    bodies: &RigidBodySet,
    colliders: &ColliderSet,
    narrow_phase: &NarrowPhase,
    gravity: Vector,
    tribo: &TriboRapier,
) -> Option<BodyRealizability> {
    body_realizability_with(body, bodies, colliders, narrow_phase, RealizabilitySettings::new(gravity), tribo)
}

/// [`body_realizability`] with explicit settings.
pub fn body_realizability_with(
    body: RigidBodyHandle,
    bodies: &RigidBodySet,
    colliders: &ColliderSet,
    narrow_phase: &NarrowPhase,
    settings: RealizabilitySettings,
    tribo: &TriboRapier,
) -> Option<BodyRealizability> {
    let (rb, found) = dynamic_body_supports(body, bodies, colliders, narrow_phase, tribo)?;
    let [p, m] = <[Support; 2]>::try_from(found).ok()?;
    let contacts = [p.spec, m.spec];
    let mut out = BodyRealizability {
        body,
        contacts,
        problem: None,
        outcome: Err(SupportError::NonPositiveMass),
        changed: true,
    };
    match build_problem(rb, &[p, m], bodies, colliders, settings, tribo) {
        Ok(problem) => {
            out.outcome = problem.realizability().map_err(SupportError::Analysis);
            out.problem = Some(problem);
        }
        Err(e) => out.outcome = Err(e),
    }
    Some(out)
}

/// The two-contact problem of `rb` on `sup` (module docs of [`crate::diagnostics`]: mass
/// properties, the applied wrench, one contact per manifold with μs, the spin about the
/// chord with the contacts' relative radius-of-curvature tensors).
fn build_problem(
    rb: &RigidBody,
    sup: &[Support; 2],
    bodies: &RigidBodySet,
    colliders: &ColliderSet,
    settings: RealizabilitySettings,
    tribo: &TriboRapier,
) -> Result<TwoContactProblem, SupportError> {
    if let Some(collider) = moving_support(sup, bodies) {
        return Err(SupportError::MovingSupport { collider });
    }
    if !rb.locked_axes().is_empty() {
        return Err(SupportError::LockedAxes);
    }
    let gravity = settings.gravity.or(tribo.gravity()).ok_or(SupportError::UnknownGravity)?;
    let b = body_model(rb, gravity)?;
    let chord = sup[0].spec.point - sup[1].spec.point;
    let spin = if chord.length() > 0.0 { b.omega.dot(chord / chord.length()) } else { 0.0 };
    let mut specs = [ContactSpec::new(dv(Vector::ZERO), dv(Vector::Z), 0.0); 2];
    for (k, s) in sup.iter().enumerate() {
        let c = &s.spec;
        if !c.point.is_finite() || !c.normal.is_finite() || !c.mu.is_finite() {
            return Err(SupportError::NonFinite("contact"));
        }
        let mut spec = ContactSpec::new(c.point, c.normal, c.mu);
        if spin != 0.0 && c.normal.length() > 1e-12 {
            spec.curvature_radius = curvature_radius(c, colliders);
        }
        specs[k] = spec;
    }
    Ok(TwoContactProblem::new(b.mass, b.inertia, b.com, specs, b.force, b.torque)
        .with_spin(spin)
        .with_options(settings.options))
}
