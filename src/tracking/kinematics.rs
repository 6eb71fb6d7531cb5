//! Contact kinematics (spec §1.2–1.5): onset frame, continued contact frame (App. B closed
//! form), spin increment ψ, tangent-plane vectors `p_b` and the counter-spin.
//!
//! All vectors are global. Normals are unit vectors pointing into body i.

use glam::{DQuat, DVec3};

/// Threshold below which the App. B vector `v` is treated as zero (spec §1.3 item 3).
pub const FRAME_EPSILON: f64 = 1e-12;

/// Direction of the counter-spin that carries `p̄_j` into body i's frame (spec §1.5, §8 item 6).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum CounterSpin {
    /// `p_j = Rot(n, +ψ) p̄_j`, following the paper's Fig. 3 (default, spec DECISION).
    #[default]
    Paper,
    /// `p_j = Rot(n, −ψ) p̄_j`, as in the author's prototype code.
    Reversed,
    /// `p_j = p̄_j`: no counter-spin (exactly symmetric under i↔j relabelling).
    Off,
}

/// Deterministic onset tangent (spec §1.2 DECISION): `u0 = normalize(e × n0)` with `e` the
/// global axis least aligned with `n0` (first such axis on ties). Returns `(u0, w0 = n0 × u0)`.
pub fn onset_frame(n0: DVec3) -> (DVec3, DVec3) {
    let a = n0.abs();
    let e = if a.x <= a.y && a.x <= a.z {
        DVec3::X
    } else if a.y <= a.z {
        DVec3::Y
    } else {
        DVec3::Z
    };
    let u0 = e.cross(n0).normalize();
    (u0, n0.cross(u0))
}

/// Projection onto the plane ⟂ `n` (unit): `P(v) = v − (v·n) n`.
#[inline]
pub fn project(v: DVec3, n: DVec3) -> DVec3 {
    v - v.dot(n) * n
}

/// Continued contact frame (spec §1.3 item 3, App. B): the orthonormal tangent pair `(u1, w1)`,
/// `w1 = n1 × u1`, that maximises `u0'·u + w0'·w` for the carried old frame `(u0', w0')`.
///
/// Closed form `u1 ∝ P(u0') + w0' × n1`. Fallbacks when that vector vanishes (a near-180° frame
/// flip in one step): `P(u0')`, then `w0' × n1`, then the onset construction.
pub fn continue_frame(u0: DVec3, w0: DVec3, n1: DVec3) -> (DVec3, DVec3) {
    let pu = project(u0, n1);
    let wn = w0.cross(n1);
    let v = pu + wn;
    let u1 = if v.length_squared() > FRAME_EPSILON * FRAME_EPSILON {
        v.normalize()
    } else if pu.length_squared() > FRAME_EPSILON * FRAME_EPSILON {
        pu.normalize()
    } else if wn.length_squared() > FRAME_EPSILON * FRAME_EPSILON {
        project(wn, n1).normalize()
    } else {
        return onset_frame(n1);
    };
    (u1, n1.cross(u1))
}

/// Spin increment ψ (S-1): the signed angle turning body j's continued tangent `u_bar` into
/// body i's `u`, positive counter-clockwise about `n` (right-hand rule):
/// `ψ = atan2((ū×u)·n, ū·u)`.
#[inline]
pub fn spin_increment(u_bar: DVec3, u: DVec3, n: DVec3) -> f64 {
    u_bar.cross(u).dot(n).atan2(u_bar.dot(u))
}

/// Tangent-plane vector `p_b` (S-2): length `arc`, direction of `P(new − carried)`;
/// zero when that projection is shorter than `eps_rel · arc` (or exactly zero).
#[inline]
pub fn arc_vector(arc: f64, carried: DVec3, new: DVec3, n: DVec3, eps_rel: f64) -> DVec3 {
    let d = project(new - carried, n);
    let len = d.length();
    if len > 0.0 && len > eps_rel * arc && arc > 0.0 {
        d * (arc / len)
    } else {
        DVec3::ZERO
    }
}

/// Counter-spin (S-3): rotates the tangent vector `p_bar` about `n` by `±ψ` (Rodrigues, using
/// `p_bar ⟂ n`) according to `mode`.
#[inline]
pub fn counter_spin(p_bar: DVec3, n: DVec3, psi: f64, mode: CounterSpin) -> DVec3 {
    let angle = match mode {
        CounterSpin::Paper => psi,
        CounterSpin::Reversed => -psi,
        CounterSpin::Off => return p_bar,
    };
    if angle == 0.0 {
        return p_bar;
    }
    let (s, c) = angle.sin_cos();
    p_bar * c + n.cross(p_bar) * s
}

/// History transport to a new tangent plane (spec §5.2 E, DECISION §8 item 7): rotate `v` by
/// `q` (the minimal rotation n0→n1), remove any residual component along `n1` and restore the
/// old magnitude.
#[inline]
pub fn transport(v: DVec3, q: DQuat, n1: DVec3) -> DVec3 {
    let m = v.length();
    if m == 0.0 {
        return DVec3::ZERO;
    }
    let t = project(q * v, n1);
    let l = t.length();
    if l > 0.0 {
        t * (m / l)
    } else {
        DVec3::ZERO
    }
}
