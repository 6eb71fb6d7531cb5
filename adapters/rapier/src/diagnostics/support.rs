//! What both diagnostics read from rapier: a body's supports (one contact per solver manifold)
//! and the body as a rigid body under its applied wrench.

use std::fmt;

use crate::curvature::collider_curvature;
use crate::rapier3d::prelude::*;
use crate::TriboRapier;
use tribo::realizability::RealizabilityError;
use tribo::tracking::Mode;
use tribo::{DMat3, DQuat, DVec3};

/// One contact of a body with a support, as the diagnostics read it after a step.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SupportContact {
    /// The body's collider.
    pub collider: ColliderHandle,
    /// The supporting collider.
    pub other_collider: ColliderHandle,
    /// World contact point (m): the body's material point at rapier's solver contacts
    /// (impulse-weighted), the body's turn over the last step undone.
    pub point: DVec3,
    /// Unit normal of the supporting surface, pointing into the body.
    pub normal: DVec3,
    /// Static friction coefficient: μs of the contact's tribo material, or rapier's (combined,
    /// possibly hook-modified) manifold coefficient for a stock contact.
    pub mu: f64,
    /// Kinetic friction coefficient: μk of the tribo material, or rapier's coefficient.
    pub mu_kinetic: f64,
    /// Whether the contact uses tribo friction (else stock rapier friction).
    pub tribo: bool,
    /// tribo's slide mode of the contact after the step (`None`: a stock contact, or one
    /// without tribo state yet).
    pub slide: Option<Mode>,
    /// Whether the contact sticks (rolls): its tribo slide mode is `Static`; for a stock
    /// contact, its slip is at most [`Settings::slip_speed`](crate::Settings::slip_speed) plus
    /// 1 % of the body's speed (the store's rule, without the velocity rapier's solver leaves
    /// pressing the body into its other supports).
    pub sticking: bool,
    /// Tangential velocity of the body's surface point relative to the support (m/s, world).
    pub slip: DVec3,
    /// Its magnitude (m/s).
    pub slip_speed: f64,
}

/// Why a diagnostic could give no verdict for a body.
#[derive(Clone, Debug, PartialEq)]
pub enum SupportError {
    /// The body's mass is zero, negative or not finite.
    NonPositiveMass,
    /// A principal inertia is zero, infinite or not finite (e.g. a body without colliders
    /// with density, or with infinite inertia).
    BadInertia,
    /// The body has locked translations or rotations (the two-contact analysis does not cover
    /// them; the single-contact one takes them as ideal constraints).
    LockedAxes,
    /// A contact is with another dynamic body; the analyses assume fixed supports.
    MovingSupport {
        /// The supporting collider that belongs to a dynamic body.
        collider: ColliderHandle,
    },
    /// Non-finite rapier data (named).
    NonFinite(&'static str),
    /// The world's gravity is not known: give it in
    /// [`RealizabilitySettings`](super::RealizabilitySettings) or with
    /// [`TriboRapier::set_gravity`] (rapier's `IntegrationParameters` carry none;
    /// [`TriboRapier::step_world`] and bevy_tribo set it from the world).
    UnknownGravity,
    /// The analysis rejected the data (zero normal, coincident contacts, chord parallel to a
    /// normal, singular system …).
    Analysis(RealizabilityError),
}

/// The errors of the two-contact analysis (those of [`SupportError`]).
pub type TwoContactError = SupportError;

impl fmt::Display for SupportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SupportError::NonPositiveMass => write!(f, "body mass is zero, negative or not finite"),
            SupportError::BadInertia => write!(f, "body inertia is zero, infinite or not finite"),
            SupportError::LockedAxes => {
                write!(f, "body has locked axes (not covered by the two-contact analysis)")
            }
            SupportError::MovingSupport { collider } => {
                write!(f, "contact with collider {collider:?} of a dynamic body: the analysis assumes fixed supports")
            }
            SupportError::NonFinite(what) => write!(f, "non-finite rapier data: {what}"),
            SupportError::UnknownGravity => write!(
                f,
                "world gravity unknown: pass it in RealizabilitySettings or call TriboRapier::set_gravity"
            ),
            SupportError::Analysis(e) => write!(f, "analysis: {e}"),
        }
    }
}

impl std::error::Error for SupportError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            SupportError::Analysis(e) => Some(e),
            _ => None,
        }
    }
}

pub(super) fn dv(v: Vector) -> DVec3 {
    DVec3::new(v.x as f64, v.y as f64, v.z as f64)
}

/// One support of a body, with what the diagnostics need besides the public record.
pub(super) struct Support {
    pub(super) spec: SupportContact,
    pub(super) other_body: Option<RigidBodyHandle>,
    /// Order of the supports: the supporting collider's index, then the manifold's.
    pub(super) sort: (u32, usize),
}

/// Body `body` and its supports, `None` unless it is a dynamic body of `bodies`: one support
/// per solver manifold with solver contacts of a pair with an active contact, sorted by the
/// supporting collider's index (then manifold order). The body's turn over the store's last
/// step is undone at the solver anchors.
pub(super) fn dynamic_body_supports<'a>(
    body: RigidBodyHandle,
    bodies: &'a RigidBodySet,
    colliders: &ColliderSet,
    narrow_phase: &NarrowPhase,
    tribo: &TriboRapier,
) -> Option<(&'a RigidBody, Vec<Support>)> {
    let rb = bodies.get(body).filter(|rb| rb.is_dynamic())?;
    Some((rb, supports(body, rb, bodies, colliders, narrow_phase, tribo, tribo.monitor_dt())))
}

/// [`dynamic_body_supports`] of a body at hand (`rb`); `dt` the last step.
fn supports(
    body: RigidBodyHandle,
    rb: &RigidBody,
    bodies: &RigidBodySet,
    colliders: &ColliderSet,
    narrow_phase: &NarrowPhase,
    tribo: &TriboRapier,
    dt: f32,
) -> Vec<Support> {
    let slip_tol = tribo.settings().slip_speed as f64 + 0.01 * dv(rb.linvel()).length();
    // The body's material points at its contacts now: its solver anchors turned with it over
    // the last step (by ω·dt), so that rotation is undone, as in the store's slip measurement.
    let own_rot = crate::slip::start_frame(rb, dt).1;
    // The velocity the solver left pressing the body into its supports (zero for one
    // support direction): not slip (`crate::slip`).
    let mut pressing: Option<Vector> = None;
    let mut out: Vec<Support> = Vec::new();
    for (pair, own_is_1, other_body) in crate::slip::contacts_with_others(rb, body, colliders, narrow_phase) {
        let (own, other) =
            if own_is_1 { (pair.collider1, pair.collider2) } else { (pair.collider2, pair.collider1) };
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
                let own = if own_world_attached { anchor } else { rb.center_of_mass() + own_rot * anchor };
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
            let (mu, mu_kinetic) = match (tribo_contact, material) {
                (true, Some(mat)) => (mat.mu_s(), mat.mu_k()),
                _ => (m.data.friction as f64, m.data.friction as f64),
            };
            // Relative tangential slip of the body's surface point.
            let pf = Vector::new(point.x as f32, point.y as f32, point.z as f32);
            let v_own = dv(rb.velocity_at_point(pf));
            let v_other =
                other_body.and_then(|b| bodies.get(b)).map_or(DVec3::ZERO, |b| dv(b.velocity_at_point(pf)));
            let rel = v_own - v_other;
            let nn = normal.normalize_or_zero();
            let slip = rel - nn * rel.dot(nn);
            let slide = if tribo_contact { state.map(|s| s.slide) } else { None };
            let sticking = match slide {
                Some(mode) => mode == Mode::Static,
                None if slip.length() <= slip_tol => true,
                None => {
                    let f = dv(*pressing.get_or_insert_with(|| {
                        crate::slip::pressing_velocity(body, bodies, colliders, narrow_phase, dt)
                    }));
                    let (rel, ft) = (rel - f, f - nn * f.dot(nn));
                    (rel - nn * rel.dot(nn)).length() <= slip_tol + ft.length()
                }
            };
            out.push(Support {
                spec: SupportContact {
                    collider: own,
                    other_collider: other,
                    point,
                    normal,
                    mu,
                    mu_kinetic,
                    tribo: tribo_contact,
                    slide,
                    sticking,
                    slip,
                    slip_speed: slip.length(),
                },
                other_body,
                sort: (other.into_raw_parts().0, mi),
            });
        }
    }
    out.sort_by_key(|r| r.sort);
    out
}

/// The first support that belongs to a dynamic body (the analyses assume fixed supports;
/// kinematic bodies count as fixed at the instant).
pub(super) fn moving_support(supports: &[Support], bodies: &RigidBodySet) -> Option<ColliderHandle> {
    supports
        .iter()
        .find(|s| s.other_body.and_then(|b| bodies.get(b)).is_some_and(|b| b.is_dynamic()))
        .map(|s| s.spec.other_collider)
}

/// A dynamic body as the analyses see it: mass, world inertia about the centre of mass,
/// velocities and the applied wrench at the centre of mass.
pub(super) struct BodyModel {
    pub(super) mass: f64,
    pub(super) inertia: DMat3,
    pub(super) com: DVec3,
    pub(super) omega: DVec3,
    /// `m g · gravity_scale + user_force − c_v m v`.
    pub(super) force: DVec3,
    /// `user_torque − c_ω J ω`.
    pub(super) torque: DVec3,
}

/// The model of `rb` under world gravity `gravity`: mass and centre of mass from its mass
/// properties, the world inertia `Σ I_k e_k e_kᵀ` from the principal inertia turned by the
/// body's rotation, the applied wrench with rapier's linear and angular damping.
pub(super) fn body_model(rb: &RigidBody, gravity: Vector) -> Result<BodyModel, SupportError> {
    let mprops = &rb.mass_properties().local_mprops;
    let inv_m = mprops.inv_mass as f64;
    if !(inv_m.is_finite() && inv_m > 0.0) {
        return Err(SupportError::NonPositiveMass);
    }
    let mass = 1.0 / inv_m;
    let ip = dv(mprops.inv_principal_inertia);
    if !(ip.is_finite() && ip.min_element() > 0.0) {
        return Err(SupportError::BadInertia);
    }
    let principal = DVec3::ONE / ip;
    let q = |r: Rotation| DQuat::from_xyzw(r.x as f64, r.y as f64, r.z as f64, r.w as f64);
    let frame = (q(*rb.rotation()) * q(mprops.principal_inertia_local_frame)).normalize();
    if !frame.is_finite() {
        return Err(SupportError::NonFinite("body rotation"));
    }
    let axes = [frame * DVec3::X, frame * DVec3::Y, frame * DVec3::Z];
    // J = Σ I_k e_k e_kᵀ.
    let jmul = |v: DVec3| {
        axes.iter().zip(principal.to_array()).fold(DVec3::ZERO, |acc, (e, i)| acc + *e * (i * e.dot(v)))
    };
    let inertia = DMat3::from_cols(jmul(DVec3::X), jmul(DVec3::Y), jmul(DVec3::Z));
    let com = dv(rb.center_of_mass());
    let vel = dv(rb.linvel());
    let omega = dv(rb.angvel());
    let g = dv(gravity) * rb.gravity_scale() as f64;
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
            return Err(SupportError::NonFinite(what));
        }
    }
    Ok(BodyModel { mass, inertia, com, omega, force, torque })
}

/// Diagonal relative radius-of-curvature tensor `Q = Σ t tᵀ/(κ_body(t) + κ_support(t))` of
/// contact `c` over two tangent directions (zero where the relative curvature vanishes: flat
/// on flat cannot roll).
pub(super) fn curvature_radius(c: &SupportContact, colliders: &ColliderSet) -> DMat3 {
    let (Some(own), Some(other)) = (colliders.get(c.collider), colliders.get(c.other_collider)) else {
        return DMat3::ZERO;
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
    DMat3::from_cols(cols[0], cols[1], cols[2])
}
