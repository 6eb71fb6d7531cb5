//! Realizability of two-point rolling in a rapier scene (docs/realizability.md §3, Antali & Stepan (2021)).
//!
//! For every dynamic body that touches fixed surfaces at **exactly two** active contacts that
//! both stick/roll, this module builds tribo's engine-agnostic
//! [`TwoContactProblem`] from rapier's data and runs
//! the Definition-11 analysis of Antali & Stepan: can the body keep rolling at both contacts,
//! or which slip can start (RS: `P⁻` slips, SR: `P⁺` slips, SS: both)? rapier's solver picks
//! *some* split of the (indeterminate) two-point contact forces and may show rolling the
//! physics does not allow, or slip it forbids; this diagnostic tells which.
//!
//! * On demand: [`two_contact_realizability`] (all bodies) or [`body_realizability`] (one).
//! * Per step: [`TriboRapier::set_realizability`] with a [`RealizabilitySettings`] makes
//!   [`TriboRapier::after_step`] store the reports of that step, read with
//!   [`TriboRapier::realizability_reports`].
//!
//! ```no_run
//! use tribo_rapier::diagnostics::{two_contact_realizability, RealizabilitySettings};
//! use tribo_rapier::rapier3d::prelude::*;
//! use tribo_rapier::TriboRapier;
//! # let mut world = PhysicsWorld::new();
//! let mut tribo = TriboRapier::new();
//! // On demand, after any step:
//! for r in two_contact_realizability(&world.bodies, &world.colliders, &world.narrow_phase, world.gravity, &tribo) {
//!     match &r.outcome {
//!         Ok(rep) if !rep.realizable => println!("{:?} cannot keep rolling: {:?}, margin {}", r.body, rep.transitions, rep.margin),
//!         Ok(_) => {}
//!         Err(e) => println!("{:?}: {e}", r.body),
//!     }
//! }
//! // Per step: `after_step` keeps the latest reports.
//! tribo.set_realizability(Some(RealizabilitySettings::new(world.gravity)));
//! tribo.step_world(&mut world, &(), &());
//! let reports = tribo.realizability_reports();
//! # let _ = reports;
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
//!   **into** the body;
//! * μ: the static μs of the contact's tribo material, or rapier's (combined, possibly
//!   hook-modified) manifold friction coefficient for stock contacts;
//! * the applied wrench at the centre of mass: `m g · gravity_scale + user_force`, minus
//!   rapier's linear damping `c_v m v`; torque `user_torque − c_ω J ω`;
//! * the spin `Ω_a = ω·a` about the chord, with a diagonal relative radius-of-curvature tensor
//!   from [`crate::curvature::collider_curvature`] along the two tangent directions (it only
//!   matters when `Ω_a ≠ 0` and the bodies are not spheres).
//!
//! "Sticking/rolling": a tribo contact whose slide mode is [`Mode::Static`]; a stock contact
//! (or a tribo contact without state yet) whose tangential slip speed is at most
//! [`Settings::slip_speed`](crate::Settings::slip_speed) plus 1 % of the body speed (the
//! store's own rule), measured as the store does without the velocity rapier's solver leaves
//! pressing the body into its supports (that velocity into one wall of a trough is tangential
//! to the other wall), within the part of it tangential to the contact.
//!
//! ## Limits (documented, not errors of the analysis)
//! * The theory is for a rigid body on **fixed** surfaces: a contact with another dynamic
//!   body yields [`TwoContactError::MovingSupport`]; kinematic bodies are treated as fixed at
//!   the instant (their acceleration is ignored).
//! * Joints (including tribo's own roll/spin motors) and rolling resistance are not part of
//!   the Coulomb point-contact model and are not included in the wrench.
//! * Bodies with locked axes are reported as [`TwoContactError::LockedAxes`].

use std::fmt;

use crate::curvature::collider_curvature;
use crate::rapier3d::prelude::*;
use crate::TriboRapier;
use tribo::realizability::{ContactSpec, RealizabilityError, Report, Transition, TwoContactProblem};
use tribo::realizability::{Options, Status};
use tribo::tracking::Mode;
use tribo::{DQuat, DVec3};

/// Settings of the per-step realizability monitor ([`TriboRapier::set_realizability`]).
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde-serialize", derive(serde::Serialize, serde::Deserialize))]
pub struct RealizabilitySettings {
    /// The world gravity (the same vector passed to `PhysicsPipeline::step`).
    pub gravity: Vector,
    /// Numerical options of the two-contact analysis (defaults of tribo).
    pub options: Options,
}

impl RealizabilitySettings {
    /// Monitor with world gravity `gravity` and default analysis options.
    pub fn new(gravity: Vector) -> Self {
        RealizabilitySettings { gravity, options: Options::default() }
    }

    /// Sets the numerical options of the analysis.
    pub fn with_options(mut self, options: Options) -> Self {
        self.options = options;
        self
    }
}

/// One of the two contacts of a [`BodyRealizability`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SupportContact {
    /// The body's collider.
    pub collider: ColliderHandle,
    /// The supporting collider.
    pub other_collider: ColliderHandle,
    /// World contact point (m).
    pub point: DVec3,
    /// Unit normal of the supporting surface, pointing into the body.
    pub normal: DVec3,
    /// Friction coefficient used (static μs of the tribo material, or rapier's coefficient).
    pub mu: f64,
    /// Whether the contact uses tribo friction (else stock rapier friction).
    pub tribo: bool,
    /// Tangential slip speed of the body's surface point relative to the support (m/s).
    pub slip_speed: f64,
}

/// Why no verdict could be given for a body.
#[derive(Clone, Debug, PartialEq)]
pub enum TwoContactError {
    /// The body's mass is zero, negative or not finite.
    NonPositiveMass,
    /// A principal inertia is zero, infinite or not finite (e.g. a body without colliders
    /// with density, or with infinite inertia).
    BadInertia,
    /// The body has locked translations or rotations (not covered by the theory).
    LockedAxes,
    /// A contact is with another dynamic body; the analysis assumes fixed supports.
    MovingSupport {
        /// The supporting collider that belongs to a dynamic body.
        collider: ColliderHandle,
    },
    /// Non-finite rapier data (named).
    NonFinite(&'static str),
    /// The two-contact analysis rejected the data (zero normal, coincident contacts, chord
    /// parallel to a normal, singular system …).
    Analysis(RealizabilityError),
}

impl fmt::Display for TwoContactError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TwoContactError::NonPositiveMass => write!(f, "body mass is zero, negative or not finite"),
            TwoContactError::BadInertia => write!(f, "body inertia is zero, infinite or not finite"),
            TwoContactError::LockedAxes => {
                write!(f, "body has locked axes (not covered by the two-contact analysis)")
            }
            TwoContactError::MovingSupport { collider } => {
                write!(f, "contact with collider {collider:?} of a dynamic body: the analysis assumes fixed supports")
            }
            TwoContactError::NonFinite(what) => write!(f, "non-finite rapier data: {what}"),
            TwoContactError::Analysis(e) => write!(f, "two-contact analysis: {e}"),
        }
    }
}

impl std::error::Error for TwoContactError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            TwoContactError::Analysis(e) => Some(e),
            _ => None,
        }
    }
}

/// Realizability report of one body rolling at two contacts.
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
    pub outcome: Result<Report, TwoContactError>,
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
    pub fn error(&self) -> Option<&TwoContactError> {
        self.outcome.as_ref().err()
    }

    /// The contacts that slip in transition `t` (RS: `[P⁻]`, SR: `[P⁺]`, SS: both; none for
    /// a lift-off).
    pub fn slipping_contacts(&self, t: Transition) -> Vec<&SupportContact> {
        match t {
            Transition::RS => vec![&self.contacts[1]],
            Transition::SR => vec![&self.contacts[0]],
            Transition::SS => vec![&self.contacts[0], &self.contacts[1]],
            Transition::LiftPlus | Transition::LiftMinus => vec![],
        }
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
}

/// Per-step monitor state kept inside [`TriboRapier`].
#[derive(Clone, Debug, Default)]
#[cfg_attr(feature = "serde-serialize", derive(serde::Serialize, serde::Deserialize))]
pub(crate) struct Monitor {
    settings: Option<RealizabilitySettings>,
    /// The last step's reports: an output, not saved in a snapshot (the next `after_step`
    /// computes them again).
    #[cfg_attr(feature = "serde-serialize", serde(skip))]
    reports: Vec<BodyRealizability>,
    /// The time step of the last `after_step` (s), 0 before the first: the body-side contact
    /// anchors have turned with the body over it (see [`body_realizability`]).
    #[cfg_attr(feature = "serde-serialize", serde(default))]
    dt: f32,
}

impl TriboRapier {
    /// Turns the per-step realizability monitor on (`Some`) or off (`None`). When on,
    /// [`after_step`](Self::after_step) runs [`two_contact_realizability`] on the scene and
    /// keeps the reports of that step ([`realizability_reports`](Self::realizability_reports)).
    /// Off by default: it costs one analysis per body rolling on two contacts (0.1–0.7 ms for
    /// the ball in the trough, almost all of it tribo's two-contact analysis).
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

    /// The last step's report of one body, if it rolled on two contacts.
    pub fn realizability_report(&self, body: RigidBodyHandle) -> Option<&BodyRealizability> {
        self.realizability.reports.iter().find(|r| r.body == body)
    }
}

/// Called at the end of [`TriboRapier::after_step`].
pub(crate) fn after_step_monitor(
    tribo: &mut TriboRapier,
    bodies: &RigidBodySet,
    colliders: &ColliderSet,
    narrow_phase: &NarrowPhase,
    dt: f32,
) {
    tribo.realizability.dt = if dt.is_finite() && dt > 0.0 { dt } else { 0.0 };
    let Some(s) = tribo.realizability.settings else { return };
    let reports = two_contact_realizability_with(bodies, colliders, narrow_phase, s, tribo);
    tribo.realizability.reports = reports;
}

/// Realizability reports of every dynamic body that touches its supports at exactly two
/// active contacts, both sticking/rolling (module docs). `gravity` is the world gravity.
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

/// [`two_contact_realizability`] with explicit settings.
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

/// The report of one body, or `None` when it is not a dynamic body rolling/sticking at exactly
/// two active contacts.
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

fn dv(v: Vector) -> DVec3 {
    DVec3::new(v.x as f64, v.y as f64, v.z as f64)
}

struct Raw {
    spec: SupportContact,
    other_body: Option<RigidBodyHandle>,
    sticking: bool,
    sort: (u32, usize),
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
    let rb = bodies.get(body)?;
    if !rb.is_dynamic() {
        return None;
    }
    let slip_tol = tribo.settings().slip_speed as f64 + 0.01 * dv(rb.linvel()).length();
    // The body's material points at its contacts now: its solver anchors turned with it over
    // the last step (by ω·dt), so that rotation is undone, as in the store's slip measurement.
    let dt = tribo.realizability.dt;
    let own_rot = crate::slip::start_frame(rb, dt).1;
    // The velocity the solver left pressing the body into its supports (zero for one
    // support direction): not slip (`crate::slip`).
    let mut pressing: Option<Vector> = None;
    let mut raw: Vec<Raw> = Vec::new();
    for &own in rb.colliders() {
        for pair in narrow_phase.contact_pairs_with(own) {
            if !pair.has_any_active_contact() {
                continue;
            }
            let own_is_1 = pair.collider1 == own;
            let other = if own_is_1 { pair.collider2 } else { pair.collider1 };
            let other_col = colliders.get(other);
            let other_body = other_col.and_then(|c| c.parent());
            if other_body == Some(body) {
                continue;
            }
            let material = tribo.pair_material(pair.collider1, pair.collider2);
            let state = tribo.contact(pair.collider1, pair.collider2);
            let tribo_contact = material.is_some() && !state.is_some_and(|s| s.stock_fallback);
            for (mi, m) in pair.solver_manifolds().iter().enumerate() {
                if m.data.solver_contacts.is_empty() {
                    continue;
                }
                let (mut psum, mut wsum, mut pavg) = (DVec3::ZERO, 0.0f64, DVec3::ZERO);
                let own_world_attached =
                    if own_is_1 { m.data.relative_dominance > 0 } else { m.data.relative_dominance < 0 };
                for c in &m.data.solver_contacts {
                    let id = c.contact_indices()[0] as usize;
                    let imp = m.points.get(id).map_or(0.0, |p| p.data.impulse.max(0.0) as f64);
                    let anchor = if own_is_1 { c.anchor1 } else { c.anchor2 };
                    let own =
                        if own_world_attached { anchor } else { rb.center_of_mass() + own_rot * anchor };
                    psum += dv(own) * imp;
                    wsum += imp;
                    pavg += dv(own);
                }
                let point = if wsum > 0.0 && psum.is_finite() {
                    psum / wsum
                } else {
                    pavg / m.data.solver_contacts.len() as f64
                };
                let n = dv(m.data.normal);
                let normal = if own_is_1 { -n } else { n };
                let mu = match (tribo_contact, material) {
                    (true, Some(mat)) => mat.mu_s(),
                    _ => m.data.friction as f64,
                };
                // Relative tangential slip of the body's surface point.
                let pf = Vector::new(point.x as f32, point.y as f32, point.z as f32);
                let v_own = dv(rb.velocity_at_point(pf));
                let v_other = other_body
                    .and_then(|b| bodies.get(b))
                    .map_or(DVec3::ZERO, |b| dv(b.velocity_at_point(pf)));
                let rel = v_own - v_other;
                let nn = normal.normalize_or_zero();
                let slip = (rel - nn * rel.dot(nn)).length();
                let sticking = match state {
                    Some(s) if tribo_contact => s.slide == Mode::Static,
                    _ if slip <= slip_tol => true,
                    _ => {
                        let f = dv(*pressing.get_or_insert_with(|| {
                            crate::slip::pressing_velocity(body, bodies, colliders, narrow_phase, dt)
                        }));
                        let (rel, ft) = (rel - f, f - nn * f.dot(nn));
                        (rel - nn * rel.dot(nn)).length() <= slip_tol + ft.length()
                    }
                };
                raw.push(Raw {
                    spec: SupportContact {
                        collider: own,
                        other_collider: other,
                        point,
                        normal,
                        mu,
                        tribo: tribo_contact,
                        slip_speed: slip,
                    },
                    other_body,
                    sticking,
                    sort: (other.into_raw_parts().0, mi),
                });
            }
        }
    }
    if raw.len() != 2 || !raw.iter().all(|r| r.sticking) {
        return None;
    }
    raw.sort_by_key(|r| r.sort);
    let contacts = [raw[0].spec, raw[1].spec];
    let mut out =
        BodyRealizability { body, contacts, problem: None, outcome: Err(TwoContactError::NonPositiveMass) };
    match build_problem(rb, &raw, bodies, colliders, settings) {
        Ok(p) => {
            out.outcome = p.realizability().map_err(TwoContactError::Analysis);
            out.problem = Some(p);
        }
        Err(e) => out.outcome = Err(e),
    }
    Some(out)
}

fn build_problem(
    rb: &RigidBody,
    raw: &[Raw],
    bodies: &RigidBodySet,
    colliders: &ColliderSet,
    settings: RealizabilitySettings,
) -> Result<TwoContactProblem, TwoContactError> {
    for r in raw {
        if let Some(b) = r.other_body.and_then(|b| bodies.get(b)) {
            if b.is_dynamic() {
                return Err(TwoContactError::MovingSupport { collider: r.spec.other_collider });
            }
        }
    }
    if !rb.locked_axes().is_empty() {
        return Err(TwoContactError::LockedAxes);
    }
    let mprops = &rb.mass_properties().local_mprops;
    let inv_m = mprops.inv_mass as f64;
    if !(inv_m.is_finite() && inv_m > 0.0) {
        return Err(TwoContactError::NonPositiveMass);
    }
    let mass = 1.0 / inv_m;
    let ip = dv(mprops.inv_principal_inertia);
    if !(ip.is_finite() && ip.min_element() > 0.0) {
        return Err(TwoContactError::BadInertia);
    }
    let principal = DVec3::ONE / ip;
    let q = |r: Rotation| DQuat::from_xyzw(r.x as f64, r.y as f64, r.z as f64, r.w as f64);
    let frame = (q(*rb.rotation()) * q(mprops.principal_inertia_local_frame)).normalize();
    if !frame.is_finite() {
        return Err(TwoContactError::NonFinite("body rotation"));
    }
    let axes = [frame * DVec3::X, frame * DVec3::Y, frame * DVec3::Z];
    // J = Σ I_k e_k e_kᵀ; J ω and the columns of J.
    let jmul = |v: DVec3| {
        axes.iter().zip(principal.to_array()).fold(DVec3::ZERO, |acc, (e, i)| acc + *e * (i * e.dot(v)))
    };
    let com = dv(rb.center_of_mass());
    let vel = dv(rb.linvel());
    let omega = dv(rb.angvel());
    let g = dv(settings.gravity) * rb.gravity_scale() as f64;
    let force = g * mass + dv(rb.user_force()) - vel * (rb.linear_damping() as f64 * mass);
    let torque = dv(rb.user_torque()) - jmul(omega) * rb.angular_damping() as f64;
    for (v, what) in [
        (com, "centre of mass"),
        (vel, "velocity"),
        (omega, "angular velocity"),
        (force, "applied force"),
        (torque, "applied torque"),
    ] {
        if !v.is_finite() {
            return Err(TwoContactError::NonFinite(what));
        }
    }
    let chord = raw[0].spec.point - raw[1].spec.point;
    let spin = if chord.length() > 0.0 { omega.dot(chord / chord.length()) } else { 0.0 };
    let mut specs = [ContactSpec::new(DVec3::ZERO, DVec3::Z, 0.0); 2];
    for (k, r) in raw.iter().enumerate() {
        let c = &r.spec;
        if !c.point.is_finite() || !c.normal.is_finite() || !c.mu.is_finite() {
            return Err(TwoContactError::NonFinite("contact"));
        }
        let mut spec = ContactSpec::new(c.point, c.normal, c.mu);
        if spin != 0.0 && c.normal.length() > 1e-12 {
            set_curvature_radius(&mut spec, c, colliders);
        }
        specs[k] = spec;
    }
    let jm = [jmul(DVec3::X), jmul(DVec3::Y), jmul(DVec3::Z)];
    let mut p = TwoContactProblem::new(mass, specs[0].curvature_radius, com, specs, force, torque)
        .with_spin(spin)
        .with_options(settings.options);
    p.inertia_world.x_axis = jm[0];
    p.inertia_world.y_axis = jm[1];
    p.inertia_world.z_axis = jm[2];
    Ok(p)
}

/// Diagonal relative radius-of-curvature tensor `Q = Σ t tᵀ/(κ_body(t) + κ_support(t))` over two
/// tangent directions (zero where the relative curvature vanishes: flat on flat cannot roll).
fn set_curvature_radius(spec: &mut ContactSpec, c: &SupportContact, colliders: &ColliderSet) {
    let (Some(own), Some(other)) = (colliders.get(c.collider), colliders.get(c.other_collider)) else {
        return;
    };
    let n = c.normal.normalize();
    let t1 = n.any_orthonormal_vector();
    let t2 = n.cross(t1);
    let f = |v: DVec3| Vector::new(v.x as f32, v.y as f32, v.z as f32);
    let p = f(c.point);
    let mut cols = [DVec3::ZERO; 3];
    for t in [t1, t2] {
        // The body's outward normal at the contact is −n, the support's is +n.
        let kb = collider_curvature(own, p, f(-n), f(t)).directional;
        let ke = collider_curvature(other, p, f(n), f(t)).directional;
        let k = kb + ke;
        if k.is_finite() && k > 1e-9 {
            for (i, col) in cols.iter_mut().enumerate() {
                *col += t * (t[i] / k);
            }
        }
    }
    spec.curvature_radius.x_axis = cols[0];
    spec.curvature_radius.y_axis = cols[1];
    spec.curvature_radius.z_axis = cols[2];
}
