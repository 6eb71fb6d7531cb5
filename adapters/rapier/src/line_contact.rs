//! Line contacts: a cylinder, cone or capsule touching along its curved side. parry keeps such
//! a contact's points (and, with the curved side first, its normal) on the material of the
//! surfaces between full contact updates; the hook puts them back where the surfaces touch now
//! (`hooks`, for plans with `Plan::line`).

use crate::rapier3d::prelude::*;

/// Shapes whose contact with a flat or convex surface can be a line segment (their curved
/// side), which parry keeps behind the rolling axis (see [`onto_touching_lines`]).
fn is_line_shape(t: ShapeType) -> bool {
    matches!(
        t,
        ShapeType::Cylinder
            | ShapeType::Cone
            | ShapeType::Capsule
            | ShapeType::RoundCylinder
            | ShapeType::RoundCone
    )
}

/// Whether a contact between these colliders may touch along a line (either is a
/// cylinder, cone or capsule): the hook then puts its points back on the touching line.
pub(crate) fn may_touch_along_a_line(cols: [&Collider; 2]) -> bool {
    cols.iter().any(|c| is_line_shape(c.shape().shape_type()))
}
/// The normal of a line contact between a collider with a curved side (a cylinder, cone or
/// capsule) and one without, from the second (the support): the outward normal of its touching
/// face, or else its manifold normal, turned to point from the first collider to the second
/// (`None`: leave the manifold's normal).
///
/// rapier's manifold normal is the first collider's (`local_n1` in its frame), and parry's
/// manifold of a pair with a curved side need not carry the support's face normal:
/// - Between two full contact updates parry keeps a convex pair's manifold (while the relative
///   pose turns by less than 1°, `ContactManifold::try_update_contacts`), so when the rolling
///   side is the first collider its normal turns with it: on a cylinder rolling on its side it
///   tilts by up to 1° about the axis, and the normal force, tilted with it, pushes the cylinder
///   along its roll. At dt = 1/240 (≈ 0.8° of roll per step at 3.5 rad/s) every second step is
///   such a step; the normal force then alternates between 160 and 330 N for a weight of 246 N.
/// - With the cylinder as the first collider, parry's polyhedral-feature contact now and then
///   returns a normal tilted by ≈ 10° from the face it touches (the ground's top face): the
///   tilted normal force kicks the cylinder about the vertical and onto its rim.
///
/// When the manifold's normal finds no such face, the contact's normal after the last step
/// (`last`, from the first collider to the second) is tried: parry's manifold in the
/// cylinder-first order now and then puts its point on the ground's top face under a normal
/// 60° off it, pointing into the ground, and that normal threw a cylinder rolling at 0.8 m/s back
/// and stopped it within one step.
pub(crate) fn support_normal(
    manifold: &ContactManifold,
    cols: [Option<&Collider>; 2],
    last: Vector,
) -> Option<Vector> {
    let [Some(c1), Some(c2)] = cols else { return None };
    let support = match [c1, c2].map(|c| is_line_shape(c.shape().shape_type())) {
        [true, false] => 1,
        [false, true] => 0,
        _ => return None,
    };
    let col = [c1, c2][support];
    // The support's manifold normal, and its last normal, outward from it (in its frame).
    let local = if support == 0 { manifold.local_n1 } else { manifold.local_n2 };
    let last = col.position().rotation.inverse() * if support == 0 { last } else { -last };
    let points = || manifold.points.iter().map(|p| if support == 0 { p.local_p1 } else { p.local_p2 });
    let face =
        face_normal(col.shape(), local, points()).or_else(|| face_normal(col.shape(), last, points()))?;
    let n = col.position().rotation * face;
    let n = if support == 0 { n } else { -n };
    (n.is_finite() && (n.length_squared() - 1.0).abs() < 1e-3).then_some(n)
}

/// The outward normal (in the shape's frame) of the face of a convex polyhedral `shape` that
/// supports it in direction `dir`, if the manifold's `points` on the shape all lie inside that
/// face (in its plane, off its border) and the face is within 60° of `dir` (`None`: no
/// polygonal features, a composite shape, the support feature is an edge or a vertex, or a point
/// lies elsewhere: on a cylinder rolling over the box's edge the points lie on the edge, and the
/// normal turns with the cylinder about it).
fn face_normal(shape: &dyn Shape, dir: Vector, mut points: impl Iterator<Item = Vector>) -> Option<Vector> {
    if shape.as_composite_shape().is_some() || is_line_shape(shape.shape_type()) {
        return None;
    }
    let (pfm, _) = shape.as_polygonal_feature_map()?;
    let mut f = crate::rapier3d::parry::shape::PolygonalFeature::default();
    pfm.local_support_feature(dir, &mut f);
    let k = f.num_vertices;
    if k < 3 {
        return None;
    }
    let v = &f.vertices[..k];
    let n = (v[1] - v[0]).cross(v[2] - v[0]).try_normalize()?;
    let n = if n.dot(dir) < 0.0 { -n } else { n };
    if n.dot(dir) < 0.5 * dir.length() {
        return None;
    }
    let centre = v.iter().copied().sum::<Vector>() / k as f32;
    let inside = |p: Vector| {
        let tol = 1e-4 + 1e-5 * p.length();
        (p - v[0]).dot(n).abs() <= tol
            && (0..k).all(|i| {
                let (a, b) = (v[i], v[(i + 1) % k]);
                let Some(m) = n.cross(b - a).try_normalize() else { return false };
                let m = if m.dot(centre - a) < 0.0 { -m } else { m };
                m.dot(p - a) > tol
            })
    };
    points.all(inside).then_some(n)
}

/// Puts the solver contacts of a line contact (a cylinder, cone or capsule on its side) back on
/// the line where the surfaces touch now.
///
/// parry keeps a convex pair's contact points while the relative pose turns by less than 1°
/// (`ContactManifold::try_update_contacts`): the points stay on the material of the surfaces,
/// so on a cylinder rolling on its side they ride backwards with its rotation, up to `R · 1°`
/// behind the axis (3.5 mm for R = 0.2 m). The normal force then acts behind the axis and its
/// moment drives the rolling: at low speed it cancels up to a quarter of the rolling resistance
/// and the roll-out comes 7–14 % late (stock rapier: a resistance-free cylinder speeds up). A
/// ball's contact is recomputed every step and a face's points lie on the face, so only a side
/// with a curved side (cylinder, cone, capsule and their rounded forms) whose support feature
/// towards the other side is a segment is moved: each point onto that segment (plus the shape's
/// border radius), the other side's point by the same tangential offset, the separation by the
/// normal one.
pub(crate) fn onto_touching_lines(
    solver_contacts: &mut [SolverContact],
    normal: Vector,
    cols: [Option<&Collider>; 2],
) {
    if solver_contacts.is_empty() || !normal.is_finite() {
        return;
    }
    for (side, col) in cols.into_iter().enumerate() {
        let Some(col) = col else { continue };
        let shape = col.shape();
        if !is_line_shape(shape.shape_type()) {
            continue;
        }
        let Some((pfm, border)) = shape.as_polygonal_feature_map() else { continue };
        let pose = col.position();
        // The side's outward direction towards the other side.
        let out = if side == 0 { normal } else { -normal };
        let dir = pose.rotation.inverse() * out;
        let mut feature = crate::rapier3d::parry::shape::PolygonalFeature::default();
        pfm.local_support_feature(dir, &mut feature);
        if feature.num_vertices != 2 {
            continue;
        }
        let (a, ab) = (feature.vertices[0], feature.vertices[1] - feature.vertices[0]);
        let len2 = ab.length_squared();
        if !(len2 > 0.0 && len2.is_finite()) {
            continue;
        }
        for c in solver_contacts.iter_mut() {
            let p = if side == 0 { c.anchor1 } else { c.anchor2 };
            let q = pose.inverse_transform_point(p);
            let t = ((q - a).dot(ab) / len2).clamp(0.0, 1.0);
            let on = pose.transform_point(a + ab * t + dir * border);
            let d = on - p;
            if !d.is_finite() {
                continue;
            }
            let dn = d.dot(normal);
            let tangential = d - normal * dn;
            if side == 0 {
                c.anchor1 = on;
                c.anchor2 += tangential;
                c.dist -= dn;
            } else {
                c.anchor2 = on;
                c.anchor1 += tangential;
                c.dist += dn;
            }
        }
    }
}
