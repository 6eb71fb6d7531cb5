//! The solver's pressing velocity of a body held by several supports (docs/rapier.md §7).
//!
//! rapier's solver ends a step with a velocity *into* a loaded contact while the position does
//! not move there: each substep tracks the separation at a contact point that rides with the
//! body, so on a rolling body the point rises off the support within the step, the solver
//! reads a gap and allows an approach velocity, and the next step's penetration correction
//! takes the position back. For a ball in a V-trough (dt = 1/30, 1 m/s) that is
//! `v·n ≈ −0.12 m/s` at each wall while the ball's centre moves < 0.01 m/s towards them.
//!
//! At one contact the normal part of the relative velocity is removed anyway. With several
//! supports whose normals differ, the approach velocity into one support is tangential to
//! another (in a right-angle trough it is entirely tangential to the other wall) and reads as
//! slip there: a ball rolling without slip would be reported sliding. [`pressing_velocity`]
//! returns that part of the body's velocity — the translation `f` in the span of its loaded
//! contacts' normals `n_k` with `n_k·f = e_k`, the approach speeds (least squares, normals
//! that do not approach left out) — so the slip is measured on `v − f`.

use crate::rapier3d::prelude::*;

/// Relative regularisation of the normal equations (`A + ε tr(A) I`): parallel normals (a box
/// face, several manifolds against one plane) make `A` singular; the bias is `ε` of the speed.
const REGULARISATION: f32 = 1e-3;

/// Where a body's material points were when the step began: its centre of mass and its
/// rotation with the step's rotation undone (`exp(-ω dt) · q`), which maps a body-local solver
/// anchor to the material point that touched then. The solver anchors of a contact are in this
/// frame's orientation after the step (`crate::store` after_step, [`pressing_velocity`], the
/// realizability monitor).
#[inline]
pub(crate) fn start_frame(rb: &RigidBody, dt: f32) -> (Vector, Rotation) {
    (rb.center_of_mass(), rotation_of(-rb.angvel() * dt) * *rb.rotation())
}

/// The rotation by the rotation vector `v` (`exp`, as `Rotation::from_scaled_axis`). A step's
/// turn is small: below 0.1 rad (half-angle `h` below 0.05) the half-angle's sine and cosine
/// are their Taylor polynomials, exact to f32 (the first terms left out are `h⁷/5040` and
/// `h⁸/40320`, below 1e-13), without the square root and the library's sine and cosine.
#[inline]
pub(crate) fn rotation_of(v: Vector) -> Rotation {
    let h2 = 0.25 * v.length_squared();
    if h2 < 0.05 * 0.05 {
        // sin(h)/h and cos(h) for h² = h2.
        let sinc = 1.0 - h2 * (1.0 / 6.0) * (1.0 - h2 * (1.0 / 20.0));
        let cos = 1.0 - h2 * 0.5 * (1.0 - h2 * (1.0 / 12.0) * (1.0 - h2 * (1.0 / 30.0)));
        let xyz = v * (0.5 * sinc);
        Rotation::from_xyzw(xyz.x, xyz.y, xyz.z, cos)
    } else {
        Rotation::from_scaled_axis(v)
    }
}

/// The contact pairs with an active contact between body `body`'s colliders (`rb`) and
/// colliders of other bodies or without a body: each pair, whether the body's collider is the
/// pair's first, and the other collider's body.
pub(crate) fn contacts_with_others<'a>(
    rb: &'a RigidBody,
    body: RigidBodyHandle,
    colliders: &'a ColliderSet,
    narrow_phase: &'a NarrowPhase,
) -> impl Iterator<Item = (&'a ContactPair, bool, Option<RigidBodyHandle>)> + 'a {
    rb.colliders().iter().flat_map(move |&own| {
        narrow_phase.contact_pairs_with(own).filter(|pair| pair.has_any_active_contact()).filter_map(
            move |pair| {
                let own_is_1 = pair.collider1 == own;
                let other = if own_is_1 { pair.collider2 } else { pair.collider1 };
                let other_body = colliders.get(other).and_then(|c| c.parent());
                (other_body != Some(body)).then_some((pair, own_is_1, other_body))
            },
        )
    })
}

/// The linear velocity the solver left pressing `body` into its loaded contacts (module
/// docs), in world coordinates; zero if there is none (or the data are not finite).
///
/// A contact counts when its support is not a dynamic body (fixed, kinematic or a collider
/// without body), its solver contacts carry a positive normal impulse this step and the
/// relative velocity of the body's material point there (the step's rotation undone, as in
/// `TriboRapier::after_step`) approaches the support. Two dynamic bodies share the approach
/// at their contact in proportions the solver does not report: a body touching another
/// dynamic body gets zero (its slip is measured as before; a sphere in a pile). `dt` is the
/// step.
pub(crate) fn pressing_velocity(
    body: RigidBodyHandle,
    bodies: &RigidBodySet,
    colliders: &ColliderSet,
    narrow_phase: &NarrowPhase,
    dt: f32,
) -> Vector {
    let Some(rb) = bodies.get(body) else { return Vector::ZERO };
    if !rb.is_dynamic() {
        return Vector::ZERO;
    }
    let frame = |b: &RigidBody| start_frame(b, dt);
    let own_frame = frame(rb);
    // (normal, approach) of the loaded approaching contacts, summed in a canonical order below
    // (the narrow phase's pair order may depend on threads with rapier's `parallel` feature).
    let mut terms: Vec<(Vector, f32)> = Vec::new();
    for (pair, own_is_1, other_body) in contacts_with_others(rb, body, colliders, narrow_phase) {
        let other_rb = other_body.and_then(|b| bodies.get(b));
        if other_rb.is_some_and(|o| o.is_dynamic()) {
            // Held by another dynamic body too: its share is unknown (see above).
            return Vector::ZERO;
        }
        let other_frame = other_rb.map(frame);
        for m in pair.solver_manifolds() {
            // Normal of the support, pointing into the body.
            let n = if own_is_1 { -m.data.normal } else { m.data.normal };
            let (own_wa, other_wa) = if own_is_1 {
                (m.data.relative_dominance > 0, m.data.relative_dominance < 0)
            } else {
                (m.data.relative_dominance < 0, m.data.relative_dominance > 0)
            };
            let (mut e, mut w) = (0.0f32, 0.0f32);
            for c in &m.data.solver_contacts {
                let id = c.contact_indices()[0] as usize;
                let imp = m.points.get(id).map_or(0.0, |p| p.data.impulse);
                if imp.is_nan() || imp <= 0.0 {
                    continue;
                }
                let (own_anchor, other_anchor) =
                    if own_is_1 { (c.anchor1, c.anchor2) } else { (c.anchor2, c.anchor1) };
                let world = |f: Option<(Vector, Rotation)>, anchor: Vector, wa: bool| match f.filter(|_| !wa)
                {
                    Some((com, rot)) => com + rot * anchor,
                    None => anchor,
                };
                let p_own = world(Some(own_frame), own_anchor, own_wa);
                let p_other = world(other_frame, other_anchor, other_wa);
                let v_other = other_rb.map_or(Vector::ZERO, |o| o.velocity_at_point(p_other));
                e += (rb.velocity_at_point(p_own) - v_other).dot(n) * imp;
                w += imp;
            }
            if w > 0.0 {
                let e = (e / w).min(0.0);
                if e < 0.0 && n.is_finite() && e.is_finite() {
                    terms.push((n, e));
                }
            }
        }
    }
    fit(&mut terms)
}

/// The translation `f` with `n_k·f = e_k` for the `(n_k, e_k)` of `terms` (least squares in the
/// span of the normals, regularised by [`REGULARISATION`]), summed in a canonical order; zero
/// for no terms or non-finite data.
fn fit(terms: &mut [(Vector, f32)]) -> Vector {
    let bits = |(n, e): &(Vector, f32)| [n.x.to_bits(), n.y.to_bits(), n.z.to_bits(), e.to_bits()];
    terms.sort_unstable_by_key(bits);
    let (mut a, mut rhs) = (Mat3::ZERO, Vector::ZERO);
    for &(n, e) in terms.iter() {
        a += Mat3::from_cols(n * n.x, n * n.y, n * n.z);
        rhs += n * e;
    }
    let trace = a.x_axis.x + a.y_axis.y + a.z_axis.z;
    if trace.is_nan() || trace <= 0.0 {
        return Vector::ZERO;
    }
    let f = (a + Mat3::IDENTITY * (REGULARISATION * trace)).inverse() * rhs;
    if f.is_finite() {
        f
    } else {
        Vector::ZERO
    }
}

/// Whether a contact's slip above its tolerance `eps` may be the solver's pressing velocity
/// (the only case that needs [`Pressing::slip`]; the caller checks that one side is not a
/// dynamic body, see [`pressing_velocity`]): the contact is itself pressed (its relative
/// velocity `dv` approaches along `normal` by more than `slip_speed`: the lifting anchor that
/// makes the approach acts on every rolling contact of the body), and the slip is within four
/// times that approach (the pressing velocity is made of such approaches; a faster slip is a
/// slide whatever the pressing).
pub(crate) fn may_be_pressing(slip: Vector, dv: Vector, normal: Vector, eps: f32, slip_speed: f32) -> bool {
    let approach = -dv.dot(normal);
    let s = slip.length();
    s > eps && approach > slip_speed && s <= eps + 4.0 * approach
}

/// [`pressing_velocity`] of the bodies of one step, each computed once (a body with several
/// slipping contacts is visited once).
#[derive(Default)]
pub(crate) struct Pressing {
    bodies: std::collections::HashMap<RigidBodyHandle, Vector>,
}

impl Pressing {
    /// The slip of a contact (relative velocity `dv = v₂ − v₁` of the material points, normal
    /// `normal`) with each dynamic side's [`pressing_velocity`] `f` removed, projected on the
    /// tangent plane; and the tangential size of `f₂ − f₁` there (m/s), the slip tolerance it
    /// calls for: the solver converts part of the approach velocity it allows into a real
    /// relative motion at the other contacts (a ball in a right-angle trough spins about the
    /// trough axis by up to 0.6 of it at dt = 1/30, 0.25 at 1/60), which is no slip of the
    /// material.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn slip(
        &mut self,
        dv: Vector,
        normal: Vector,
        parents: [Option<RigidBodyHandle>; 2],
        bodies: &RigidBodySet,
        colliders: &ColliderSet,
        narrow_phase: &NarrowPhase,
        dt: f32,
    ) -> (Vector, f32) {
        let mut f = |b: Option<RigidBodyHandle>| {
            b.map_or(Vector::ZERO, |b| {
                *self
                    .bodies
                    .entry(b)
                    .or_insert_with(|| pressing_velocity(b, bodies, colliders, narrow_phase, dt))
            })
        };
        let pressing = f(parents[1]) - f(parents[0]);
        let d = dv - pressing;
        let tangential = pressing - normal * pressing.dot(normal);
        (d - normal * d.dot(normal), tangential.length())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_small_rotation_is_the_exponential_to_f32() {
        // Below and above the polynomial's range, about every axis: the same rotation as
        // `from_scaled_axis` (to a few f32 spacings) and a unit quaternion.
        for angle in [0.0f32, 1e-6, 1e-3, 0.01, 0.05, 0.0999, 0.1001, 0.5, 2.0] {
            for axis in [Vector::X, Vector::Y, Vector::new(0.6, -0.64, 0.48)] {
                let (q, r) = (rotation_of(axis * angle), Rotation::from_scaled_axis(axis * angle));
                let d = (q.to_array().map(f64::from), r.to_array().map(f64::from));
                let err = (0..4).map(|k| (d.0[k] - d.1[k]).abs()).fold(0.0, f64::max);
                assert!(err <= 3.0 * f32::EPSILON as f64, "angle {angle}, axis {axis}: {q:?} vs {r:?}");
                assert!((q.length() - 1.0).abs() <= 2.0 * f32::EPSILON, "angle {angle}: |q| {}", q.length());
            }
        }
    }

    #[test]
    fn fit_reproduces_the_approach_speeds_in_the_span_of_the_normals() {
        // Right-angle trough: walls with normals (∓1, 1, 0)/√2, each approached at 0.12 m/s
        // (the ball's −0.17 m/s straight down, rapier at dt = 1/30): f = (0, −0.12·√2, 0).
        let s = std::f32::consts::FRAC_1_SQRT_2;
        let (n1, n2) = (Vector::new(-s, s, 0.0), Vector::new(s, s, 0.0));
        let f = fit(&mut [(n1, -0.12), (n2, -0.12)]);
        let want = Vector::new(0.0, -0.12 * std::f32::consts::SQRT_2, 0.0);
        // The regularisation biases by 1e-3 of the speed.
        assert!((f - want).length() < 2e-3 * want.length(), "{f:?}");
        // Tangential to wall 1, the approach into wall 2 is all there (0.12 m/s): what the
        // slip is corrected by.
        let t1 = f - n1 * f.dot(n1);
        assert!((t1.length() - 0.12).abs() < 3e-3 * 0.12, "{t1:?}");
        // One support direction (a box face: four contacts, one normal): f along it, nothing
        // tangential; and no terms or NaN data: zero.
        let f = fit(&mut [(Vector::Y, -0.05), (Vector::Y, -0.05), (Vector::Y, -0.07), (Vector::Y, -0.03)]);
        assert!((f - Vector::Y * -0.05).length() < 1e-4 && f.x == 0.0 && f.z == 0.0, "{f:?}");
        assert_eq!(fit(&mut []), Vector::ZERO);
        assert_eq!(fit(&mut [(Vector::Y, f32::NAN)]), Vector::ZERO);
        // The order of the terms does not change a bit of the result.
        let (a, b) = (fit(&mut [(n1, -0.1), (n2, -0.3)]), fit(&mut [(n2, -0.3), (n1, -0.1)]));
        assert_eq!(a.to_array().map(f32::to_bits), b.to_array().map(f32::to_bits));
    }
}
