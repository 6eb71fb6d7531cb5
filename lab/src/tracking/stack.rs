//! T8 — three-sphere stack (docs/tracking.md §7 T8; paper §4.6, Figs. 15–16): an optional multi-body
//! integration experiment with Hertz normal forces and contact-point-tracking friction on all
//! sphere–sphere and sphere–ground contacts.

use super::experiments::{DT, G};
use super::sim::{RigidBody, SimError};
use glam::DVec3;
use tribo::tracking::Surface;
use tribo::tracking::{ContactBody, ContactInput, ContactState, DampingInertia, TrackingConfig};
use tribo::tracking::{Material, Mode, SpinModel};

/// Parameters of the stack (docs/tracking.md T8: m = 1 kg, R = 0.15 m, E = 2 MPa, ν = 0.3, restitution
/// 0.4, μs = 0.25, μk = 0.2, K_E = 1e5).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StackParams {
    /// Roll energy-tie coefficient η_r of every contact.
    pub eta_r: f64,
    /// Mass of the top sphere (kg).
    pub top_mass: f64,
    /// Gap between the bottom spheres as a fraction of R (0.3: centres 2.3R apart).
    pub gap: f64,
    /// Duration (s).
    pub duration: f64,
}

/// Outcome of a stack run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StackRun {
    /// Whether the top sphere fell by more than R/2.
    pub collapsed: bool,
    /// Drop of the top sphere's centre (m).
    pub top_drop: f64,
    /// (slide, roll) modes of a bottom sphere's ground contact when the collapse got under
    /// way (top dropped by R/20), or at the end if it never did.
    pub ground_modes: (Mode, Mode),
    /// |ω|R/|v| of a bottom sphere at that moment (1: rolling, 0: sliding).
    pub roll_ratio: f64,
}

const R: f64 = 0.15;
const M: f64 = 1.0;

/// Hertz normal force with the usual restitution damping (Tsuji / Chrono SMC form):
/// `F = (4/3) E* √R* δ^{3/2} + 2√(5/6) β √(S_n m*) δ̇`, `S_n = 2E*√(R*δ)`,
/// `β = −ln e/√(ln²e + π²)`, clamped at ≥ 0.
fn hertz(delta: f64, delta_dot: f64, r_eff: f64, m_eff: f64) -> f64 {
    let (e, nu, rest) = (2.0e6, 0.3, 0.4f64);
    let e_eff = e / (2.0 * (1.0 - nu * nu));
    let beta = -rest.ln() / (rest.ln().powi(2) + std::f64::consts::PI.powi(2)).sqrt();
    let s_n = 2.0 * e_eff * (r_eff * delta).sqrt();
    let f = 4.0 / 3.0 * e_eff * r_eff.sqrt() * delta.powf(1.5)
        + 2.0 * (5.0f64 / 6.0).sqrt() * beta * (s_n * m_eff).sqrt() * delta_dot;
    f.max(0.0)
}

/// Runs the stack: bottom spheres 0 and 1 on the ground, top sphere 2 released from rest
/// barely touching both.
pub fn three_sphere_stack(p: StackParams) -> Result<StackRun, SimError> {
    let material =
        Material::new(0.25, 0.2)?.with_stiffness(1e5)?.with_roll_eta(p.eta_r)?.with_spin(SpinModel::Off)?;
    let config = TrackingConfig::default();
    let half = (2.0 + p.gap) * R / 2.0;
    let h = ((2.0 * R).powi(2) - half * half).sqrt();
    let i_b = 0.4 * M * R * R;
    let i_t = 0.4 * p.top_mass * R * R;
    let mut bodies = [
        RigidBody::new(M, DVec3::splat(i_b))?.with_position(DVec3::new(-half, 0.0, R)),
        RigidBody::new(M, DVec3::splat(i_b))?.with_position(DVec3::new(half, 0.0, R)),
        RigidBody::new(p.top_mass, DVec3::splat(i_t))?.with_position(DVec3::new(0.0, 0.0, R + h)),
    ];
    let z0 = bodies[2].position.z;
    // Pairs: (None = ground, body) and (body a, body b).
    let pairs: [(Option<usize>, usize); 6] =
        [(None, 0), (None, 1), (None, 2), (Some(0), 2), (Some(1), 2), (Some(0), 1)];
    let mut states: [Option<ContactState>; 6] = [None; 6];
    let mut run = StackRun {
        collapsed: false,
        top_drop: 0.0,
        ground_modes: (Mode::Static, Mode::Static),
        roll_ratio: 0.0,
    };
    let mut onset_seen = false;
    let steps = (p.duration / DT).round() as usize;
    for k in 0..=steps {
        // Contacts, normal forces and friction at the current time; the loads advance the
        // bodies by one step afterwards (docs/tracking.md §5.1).
        let mut force = [DVec3::ZERO; 3];
        let mut torque = [DVec3::ZERO; 3];
        for (idx, &(a, b)) in pairs.iter().enumerate() {
            let bb = &bodies[b];
            let (body_i, n, ci, cj, delta, delta_dot, r_eff, inertia) = match a {
                None => {
                    let c = DVec3::new(bb.position.x, bb.position.y, 0.0);
                    let m = bb.mass();
                    let ib = bb.inertia().x;
                    (
                        ContactBody::ground(Surface::Plane),
                        DVec3::NEG_Z,
                        c,
                        bb.position - DVec3::Z * R,
                        R - bb.position.z,
                        -bb.velocity.z,
                        R,
                        DampingInertia::new(m, ib, ib),
                    )
                }
                Some(a) => {
                    let ba = &bodies[a];
                    let d = ba.position - bb.position;
                    let dist = d.length();
                    let n = d / dist;
                    let ia = DampingInertia::new(ba.mass(), ba.inertia().x, ba.inertia().x);
                    let ib = DampingInertia::new(bb.mass(), bb.inertia().x, bb.inertia().x);
                    (
                        ContactBody::new(ba.position, ba.rotation, Surface::Sphere { radius: R }),
                        n,
                        ba.position - n * R,
                        bb.position + n * R,
                        2.0 * R - dist,
                        -(ba.velocity - bb.velocity).dot(n),
                        R / 2.0,
                        DampingInertia::of_pair(Some(ia), Some(ib)),
                    )
                }
            };
            if delta <= 0.0 {
                states[idx] = None;
                continue;
            }
            let m_eff = match a {
                None => bb.mass(),
                Some(a) => bodies[a].mass() * bb.mass() / (bodies[a].mass() + bb.mass()),
            };
            let n_force = hertz(delta, delta_dot, r_eff, m_eff);
            let input = ContactInput {
                body_i,
                body_j: ContactBody::new(bb.position, bb.rotation, Surface::Sphere { radius: R }),
                point_i: ci,
                point_j: cj,
                normal: n,
                normal_force: n_force,
                dt: DT,
                inertia,
            };
            let st = states[idx].get_or_insert_with(ContactState::default);
            let out = st.update(&material, &config, &input)?;
            // Normal force: +n on i (into i pushes i away from j), −n on j.
            force[b] += out.wrench_j.force - n * n_force;
            torque[b] += out.wrench_j.torque;
            if let Some(a) = a {
                force[a] += out.wrench_i.force + n * n_force;
                torque[a] += out.wrench_i.torque;
            }
        }
        let drop = z0 - bodies[2].position.z;
        if !onset_seen && (drop > R / 20.0 || k == steps) {
            onset_seen = true;
            if let Some(st) = &states[0] {
                run.ground_modes = (st.slide().mode(), st.roll_j().mode());
            }
            let b0 = &bodies[0];
            let v = b0.velocity.length();
            run.roll_ratio = if v > 0.0 { b0.angular_velocity.length() * R / v } else { 0.0 };
        }
        run.top_drop = drop;
        if drop > R / 2.0 {
            run.collapsed = true;
            break;
        }
        if k == steps {
            break;
        }
        for (b, body) in bodies.iter_mut().enumerate() {
            body.step(force[b] + DVec3::new(0.0, 0.0, -G) * body.mass(), torque[b], DT);
        }
    }
    Ok(run)
}

/// Smallest top mass (within `tol`, searched in `[lo, hi]` kg by bisection) for which the stack
/// collapses within `duration`: `(m_c, run just below m_c, run at m_c)`. `tol` must be finite
/// and > 0 and the bracket finite with `lo < hi` (else [`SimError::BadParameter`]); the
/// bisection also stops when the bracket cannot be halved in floating point.
pub fn critical_top_mass(
    eta_r: f64,
    gap: f64,
    duration: f64,
    (mut lo, mut hi): (f64, f64),
    tol: f64,
) -> Result<(f64, StackRun, StackRun), SimError> {
    if !(tol > 0.0 && tol.is_finite()) {
        return Err(SimError::BadParameter { name: "tol", value: tol });
    }
    if !(lo < hi && lo.is_finite() && hi.is_finite()) {
        return Err(SimError::BadParameter { name: "mass bracket (lo < hi)", value: hi - lo });
    }
    let run = |m: f64| three_sphere_stack(StackParams { eta_r, top_mass: m, gap, duration });
    let mut below = run(lo)?;
    let mut above = run(hi)?;
    while hi - lo > tol {
        let mid = 0.5 * (lo + hi);
        if !(mid > lo && mid < hi) {
            break;
        }
        let r = run(mid)?;
        if r.collapsed {
            hi = mid;
            above = r;
        } else {
            lo = mid;
            below = r;
        }
    }
    Ok((hi, below, above))
}
