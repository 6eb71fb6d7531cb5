//! Contact kinematics (docs/tracking.md §1.2–1.5): onset frame, continued contact frame (App. B closed
//! form), spin increment ψ, tangent-plane vectors `p_b` and the counter-spin.
//!
//! All vectors are global. Normals are unit vectors pointing into body i.

use glam::{DQuat, DVec3};

/// Threshold below which the App. B vector `v` is treated as zero (docs/tracking.md §1.3 item 3).
pub const FRAME_EPSILON: f64 = 1e-12;

/// Direction of the counter-spin that carries `p̄_j` into body i's frame (docs/tracking.md §1.5, §8 item 6).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum CounterSpin {
    /// `p_j = Rot(n, +ψ) p̄_j`, following the paper's Fig. 3 (default, docs decision).
    #[default]
    Paper,
    /// `p_j = Rot(n, −ψ) p̄_j`, as in the author's prototype code.
    Reversed,
    /// `p_j = p̄_j`: no counter-spin (exactly symmetric under i↔j relabelling).
    Off,
}

/// Deterministic onset tangent (docs/tracking.md §1.2 DECISION): `u0 = normalize(e × n0)` with `e` the
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

/// Continued contact frame (docs/tracking.md §1.3 item 3, App. B): the orthonormal tangent pair `(u1, w1)`,
/// `w1 = n1 × u1`, that maximises `u0'·u + w0'·w` for the carried old frame `(u0', w0')`.
///
/// Closed form `u1 ∝ P(u0') + w0' × n1`. Fallbacks when that vector vanishes (a near-180° frame
/// flip in one step): `P(u0')`, then `w0' × n1`, then the onset construction.
#[inline]
pub fn continue_frame(u0: DVec3, w0: DVec3, n1: DVec3) -> (DVec3, DVec3) {
    match continued_direction(u0, w0, n1) {
        Some(v) => {
            let u1 = v.normalize();
            (u1, n1.cross(u1))
        }
        None => onset_frame(n1),
    }
}

/// The unnormalised direction of the continued tangent `u1` of [`continue_frame`] (closed
/// form, then the `P(u0')` and `w0' × n1` fallbacks), or `None` when all vanish. Enough for
/// the spin angle, which is scale invariant.
#[inline]
pub fn continued_direction(u0: DVec3, w0: DVec3, n1: DVec3) -> Option<DVec3> {
    const E2: f64 = FRAME_EPSILON * FRAME_EPSILON;
    let pu = project(u0, n1);
    let wn = w0.cross(n1);
    let v = pu + wn;
    if v.length_squared() > E2 {
        Some(v)
    } else if pu.length_squared() > E2 {
        Some(pu)
    } else if wn.length_squared() > E2 {
        Some(project(wn, n1))
    } else {
        None
    }
}

/// Spin increment ψ (S-1): the signed angle turning body j's continued tangent `u_bar` into
/// body i's `u`, positive counter-clockwise about `n` (right-hand rule):
/// `ψ = atan2((ū×u)·n, ū·u)`. Invariant under positive scaling of `u_bar` or `u`.
#[inline]
pub fn spin_increment(u_bar: DVec3, u: DVec3, n: DVec3) -> f64 {
    atan2_small(u_bar.cross(u).dot(n), u_bar.dot(u))
}

/// `y.atan2(x)`, with a short odd Taylor series of `atan(y/x)` when `x > 0` and
/// `|y| ≤ 1e-2·x` (the per-step angles of a simulation): the truncation error is below
/// `t⁹/9 ≈ 1e-19` relative, i.e. below double rounding, and it is several times faster than
/// libm's `atan2`.
#[inline]
pub fn atan2_small(y: f64, x: f64) -> f64 {
    if x > 0.0 && y.abs() <= 1e-2 * x {
        let t = y / x;
        let t2 = t * t;
        t * (1.0 - t2 * (1.0 / 3.0 - t2 * (1.0 / 5.0 - t2 * (1.0 / 7.0))))
    } else {
        y.atan2(x)
    }
}

/// `(sin a, cos a)`, with Taylor series for `|a| ≤ 1e-2` (error below `a⁸/8! ≈ 2.5e-21`).
#[inline]
pub fn sin_cos_small(a: f64) -> (f64, f64) {
    if a.abs() <= 1e-2 {
        let a2 = a * a;
        let s = a * (1.0 - a2 * (1.0 / 6.0 - a2 * (1.0 / 120.0 - a2 * (1.0 / 5040.0))));
        let c = 1.0 - a2 * (0.5 - a2 * (1.0 / 24.0 - a2 * (1.0 / 720.0)));
        (s, c)
    } else {
        a.sin_cos()
    }
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
    let (s, c) = sin_cos_small(angle);
    p_bar * c + n.cross(p_bar) * s
}

/// History transport to a new tangent plane (docs/tracking.md §5.2 E, DECISION §8 item 7): rotate `v` by
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
