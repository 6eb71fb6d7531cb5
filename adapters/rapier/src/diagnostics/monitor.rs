//! The per-step diagnostics kept in [`TriboRapier`]: the two-contact monitor (with the slide
//! modes of a monitored body's contacts following its verdict, docs/realizability.md §9.2) and
//! the slip diagnostic of the bodies the user watches.

use super::single_contact::{body_slip_with, BodySlip};
use super::two_contact::{slipping_in, two_contact_realizability_with, BodyRealizability};
use crate::rapier3d::prelude::*;
use crate::TriboRapier;
use tribo::realizability::{Options, Status};
use tribo::tracking::Mode;

/// Settings of the per-step two-contact monitor ([`TriboRapier::set_realizability`]).
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde-serialize", derive(serde::Serialize, serde::Deserialize))]
pub struct RealizabilitySettings {
    /// The world gravity; `None` (the default): the gravity of the world the store steps,
    /// which [`TriboRapier::step_world`] and bevy_tribo take from the world and
    /// [`TriboRapier::set_gravity`] sets (rapier's `IntegrationParameters` carry no gravity: it
    /// is an argument of `PhysicsPipeline::step`, so a store stepped around the pipeline has to
    /// be told it once).
    pub gravity: Option<Vector>,
    /// Numerical options of the two-contact analysis (defaults of tribo).
    pub options: Options,
    /// The slide modes of a monitored body's contacts follow its verdict (docs/realizability.md
    /// §9.2): when two-point rolling is not realizable, the contacts that slip in the predicted
    /// transitions turn kinetic in the same step, without waiting for their stick deflections
    /// to pass the static threshold. Default `true`; `false` leaves the monitor an observer.
    pub follow_verdict: bool,
}

impl Default for RealizabilitySettings {
    fn default() -> Self {
        RealizabilitySettings { gravity: None, options: Options::default(), follow_verdict: true }
    }
}

impl RealizabilitySettings {
    /// The monitor with world gravity `gravity` (instead of the store's), default options, and
    /// the slide modes following the verdict.
    pub fn new(gravity: Vector) -> Self {
        RealizabilitySettings { gravity: Some(gravity), ..Default::default() }
    }

    /// Sets the numerical options of the analysis.
    pub fn with_options(mut self, options: Options) -> Self {
        self.options = options;
        self
    }

    /// Sets whether the slide modes follow the verdict.
    pub fn with_follow_verdict(mut self, on: bool) -> Self {
        self.follow_verdict = on;
        self
    }
}

/// Per-step diagnostics state kept inside [`TriboRapier`].
#[derive(Clone, Debug, Default)]
#[cfg_attr(feature = "serde-serialize", derive(serde::Serialize, serde::Deserialize))]
pub(crate) struct Monitor {
    settings: Option<RealizabilitySettings>,
    /// The last step's reports: an output, not saved in a snapshot (the next `after_step`
    /// computes them again; its reports then all count as changed).
    #[cfg_attr(feature = "serde-serialize", serde(skip))]
    reports: Vec<BodyRealizability>,
    /// The time step of the last `after_step` (s), 0 before the first: the body-side contact
    /// anchors have turned with the body over it.
    #[cfg_attr(feature = "serde-serialize", serde(default))]
    dt: f32,
    /// The gravity of the world the store steps ([`TriboRapier::set_gravity`]).
    #[cfg_attr(feature = "serde-serialize", serde(default))]
    gravity: Option<Vector>,
    /// The bodies whose slip is watched ([`TriboRapier::watch_slip`]), sorted by handle.
    #[cfg_attr(feature = "serde-serialize", serde(default))]
    watched: Vec<RigidBodyHandle>,
    /// The last step's slip reports (an output, like `reports`).
    #[cfg_attr(feature = "serde-serialize", serde(skip))]
    slips: Vec<BodySlip>,
}

impl TriboRapier {
    /// Turns the per-step two-contact monitor on (`Some`) or off (`None`). When on,
    /// [`after_step`](Self::after_step) analyses every dynamic body that touches its supports at
    /// exactly two contacts, whatever the contacts do, and keeps the reports of that step
    /// ([`realizability_reports`](Self::realizability_reports)); with
    /// [`RealizabilitySettings::follow_verdict`] the slide modes of a body whose two-point
    /// rolling is not realizable turn kinetic at once (docs/realizability.md §9.2). Off by
    /// default: it costs one analysis per such body and step (0.1–0.7 ms for the ball in the
    /// trough, almost all of it tribo's two-contact analysis).
    pub fn set_realizability(&mut self, settings: Option<RealizabilitySettings>) {
        self.realizability.settings = settings;
        if settings.is_none() {
            self.realizability.reports.clear();
        }
    }

    /// The monitor settings, if on.
    pub fn realizability_settings(&self) -> Option<&RealizabilitySettings> {
        self.realizability.settings.as_ref()
    }

    /// The realizability reports of the last [`after_step`](Self::after_step) (empty when the
    /// monitor is off).
    pub fn realizability_reports(&self) -> &[BodyRealizability] {
        &self.realizability.reports
    }

    /// The last step's report of one body, if it was on two contacts.
    pub fn realizability_report(&self, body: RigidBodyHandle) -> Option<&BodyRealizability> {
        self.realizability.reports.iter().find(|r| r.body == body)
    }

    /// The reports of the last step whose verdict is new (the body's first report, or a
    /// verdict that differs from its report in the step before).
    pub fn realizability_changes(&self) -> impl Iterator<Item = &BodyRealizability> {
        self.realizability.reports.iter().filter(|r| r.changed)
    }

    /// Sets the world gravity the diagnostics use (unless [`RealizabilitySettings::gravity`]
    /// gives one). [`step_world`](Self::step_world) sets it from the world in every step, and
    /// bevy_tribo from bevy_rapier's `RapierConfiguration`; a store stepped around
    /// `PhysicsPipeline::step` is told it here (rapier's `IntegrationParameters` carry none).
    pub fn set_gravity(&mut self, gravity: Vector) {
        self.realizability.gravity = Some(gravity);
    }

    /// The world gravity the diagnostics use, if known.
    pub fn gravity(&self) -> Option<Vector> {
        self.realizability.gravity
    }

    /// Watches the slip of `body` (`on`) or stops watching it: after every step in which the
    /// body touches its supports at exactly one contact, [`after_step`](Self::after_step)
    /// predicts where its slip goes (docs/realizability.md §2.11, §9.3) and keeps the report
    /// ([`slip_reports`](Self::slip_reports)). Costs one single-contact analysis (tens of
    /// microseconds) per watched body and step.
    pub fn watch_slip(&mut self, body: RigidBodyHandle, on: bool) {
        let w = &mut self.realizability.watched;
        match (w.binary_search_by_key(&body.into_raw_parts(), |h| h.into_raw_parts()), on) {
            (Err(i), true) => w.insert(i, body),
            (Ok(i), false) => {
                w.remove(i);
                self.realizability.slips.retain(|r| r.body != body);
            }
            _ => {}
        }
    }

    /// Replaces the watched bodies with `bodies`.
    pub fn set_watched_slips(&mut self, bodies: impl IntoIterator<Item = RigidBodyHandle>) {
        let mut w: Vec<RigidBodyHandle> = bodies.into_iter().collect();
        w.sort_unstable_by_key(|h| h.into_raw_parts());
        w.dedup();
        let slips = &mut self.realizability.slips;
        slips.retain(|r| w.binary_search_by_key(&r.body.into_raw_parts(), |h| h.into_raw_parts()).is_ok());
        self.realizability.watched = w;
    }

    /// The bodies whose slip is watched.
    pub fn watched_slips(&self) -> &[RigidBodyHandle] {
        &self.realizability.watched
    }

    /// The slip reports of the last [`after_step`](Self::after_step): one per watched body on
    /// exactly one support.
    pub fn slip_reports(&self) -> &[BodySlip] {
        &self.realizability.slips
    }

    /// The last step's slip report of one watched body, if it was on one support.
    pub fn slip_report(&self, body: RigidBodyHandle) -> Option<&BodySlip> {
        self.realizability.slips.iter().find(|r| r.body == body)
    }

    /// The time step of the last `after_step` (0 before the first).
    pub(crate) fn monitor_dt(&self) -> f32 {
        self.realizability.dt
    }
}

/// Called at the end of [`TriboRapier::after_step`]: the two-contact reports of the step (the
/// slide modes following their verdicts) and the slip reports of the watched bodies.
pub(crate) fn after_step_monitor(
    tribo: &mut TriboRapier,
    bodies: &RigidBodySet,
    colliders: &ColliderSet,
    narrow_phase: &NarrowPhase,
    dt: f32,
) {
    tribo.realizability.dt = if dt.is_finite() && dt > 0.0 { dt } else { 0.0 };
    if let Some(s) = tribo.realizability.settings {
        let mut reports = two_contact_realizability_with(bodies, colliders, narrow_phase, s, tribo);
        let last = std::mem::take(&mut tribo.realizability.reports);
        for r in &mut reports {
            r.changed = !last.iter().any(|l| l.body == r.body && l.same_verdict(r));
            if s.follow_verdict {
                follow_verdict(tribo, r, bodies);
            }
        }
        tribo.realizability.reports = reports;
    }
    if !tribo.realizability.watched.is_empty() {
        let last = std::mem::take(&mut tribo.realizability.slips);
        let watched = std::mem::take(&mut tribo.realizability.watched);
        let mut slips = Vec::new();
        for &body in &watched {
            let Some(mut r) = body_slip_with(body, bodies, colliders, narrow_phase, tribo.gravity(), tribo)
            else {
                continue;
            };
            r.changed = !last.iter().any(|l| l.body == r.body && l.same_verdict(&r));
            slips.push(r);
        }
        tribo.realizability.watched = watched;
        tribo.realizability.slips = slips;
    }
}

/// The slide modes of body report `r`'s two contacts after its verdict (docs/realizability.md
/// §9.2). When two-point rolling is not realizable, every transition it names except the
/// lift-offs makes a set of contacts slip (RS: `P⁻`, SR: `P⁺`, SS: both). A body that rolls on
/// both contacts (both slides static) leaves the rolling state: every contact in one of the
/// sets turns kinetic now. A body already slipping at one contact keeps rolling at the other
/// unless that one slips in every set. Only an awake body whose two contacts both have tribo
/// state; its report's contacts show the new modes.
fn follow_verdict(tribo: &mut TriboRapier, r: &mut BodyRealizability, bodies: &RigidBodySet) {
    let Ok(out) = &r.outcome else { return };
    if out.status != Status::NotRealizable || bodies.get(r.body).is_none_or(|b| b.is_sleeping()) {
        return;
    }
    if r.contacts.iter().any(|c| c.slide.is_none()) {
        return;
    }
    let sets: Vec<[bool; 2]> =
        out.transitions.iter().map(|t| slipping_in(*t)).filter(|s| s[0] || s[1]).collect();
    if sets.is_empty() {
        return;
    }
    let any = [sets.iter().any(|s| s[0]), sets.iter().any(|s| s[1])];
    let every = [sets.iter().all(|s| s[0]), sets.iter().all(|s| s[1])];
    let rolling = r.contacts.iter().all(|c| c.slide == Some(Mode::Static));
    let turn = if rolling { any } else { every };
    for (k, c) in r.contacts.iter_mut().enumerate() {
        if turn[k] && tribo.slide_to_kinetic(c.collider, c.other_collider) {
            c.slide = Some(Mode::Kinetic);
            c.sticking = false;
        }
    }
}
