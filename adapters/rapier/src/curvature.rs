//! Surface curvatures of rapier shapes at a contact (docs/tracking.md §1.6), used for the roll and
//! spin capacities.
//!
//! | shape | directional κ along the rolling direction d | mean κ |
//! |---|---|---|
//! | ball of radius r | 1/r | 1/r |
//! | capsule, on a hemispherical cap | 1/r | 1/r |
//! | capsule, on the cylindrical part (axis u) | (1 − (d·u)²)/r | 1/(2r) |
//! | cylinder / round cylinder, on the side | (1 − (d·u)²)/r | 1/(2r) |
//! | cylinder, on a flat face or a rim | 0 | 0 |
//! | cone, on the side (local radius ρ at the contact) | (1 − (d·u)²)·cos β/ρ | cos β/(2ρ) |
//! | cuboid, half-space, triangle, mesh, heightfield, convex polyhedron, compound, other | 0 (flat) | 0 |
//!
//! The fallback for shapes not listed is **flat** (0): two flat surfaces give the degenerate
//! curvature of docs/tracking.md §3.3, so roll friction is off for them (a brick does not roll) and spin
//! friction with geometric curvature is off too (rapier's own manifold friction still resists
//! twisting of multi-point contacts).

use crate::rapier3d::prelude::*;

/// Curvatures of one surface at a contact.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde-serialize", derive(serde::Serialize, serde::Deserialize))]
pub struct Curvature {
    /// Normal curvature along the rolling direction (1/m, ≥ 0 for the convex shapes handled).
    pub directional: f64,
    /// Mean curvature (1/m).
    pub mean: f64,
}

fn side(radius: f32, axis_dot_dir: f32) -> Curvature {
    if !(radius.is_finite() && radius > 0.0) {
        return Curvature::default();
    }
    let r = radius as f64;
    let c = (axis_dot_dir as f64).clamp(-1.0, 1.0);
    Curvature { directional: (1.0 - c * c) / r, mean: 0.5 / r }
}

fn sphere(radius: f32) -> Curvature {
    if !(radius.is_finite() && radius > 0.0) {
        return Curvature::default();
    }
    Curvature { directional: 1.0 / radius as f64, mean: 1.0 / radius as f64 }
}

/// Curvature of `shape` (collider-local) at the contact whose outward unit normal (from this
/// shape) is `local_normal`, for rolling in the unit direction `local_dir` (both collider-local).
/// `local_point` is the contact point in the collider frame (used by the cone).
pub fn shape_curvature(
    shape: &dyn Shape,
    local_point: Vector,
    local_normal: Vector,
    local_dir: Vector,
) -> Curvature {
    const SIDE: f32 = 0.05; // |n·axis| below this: on the curved side
    match shape.shape_type() {
        ShapeType::Ball
        | ShapeType::Capsule
        | ShapeType::Cylinder
        | ShapeType::RoundCylinder
        | ShapeType::Cone => {}
        _ => return Curvature::default(),
    }
    if let Some(b) = shape.as_ball() {
        return sphere(b.radius);
    }
    if let Some(c) = shape.as_capsule() {
        let axis = c.segment.b - c.segment.a;
        let len = axis.length();
        if len <= f32::EPSILON {
            return sphere(c.radius);
        }
        let u = axis / len;
        return if local_normal.dot(u).abs() < SIDE {
            side(c.radius, local_dir.dot(u))
        } else {
            sphere(c.radius)
        };
    }
    let cyl = shape.as_cylinder().copied().or_else(|| shape.as_round_cylinder().map(|r| r.inner_shape));
    if let Some(c) = cyl {
        let border = shape.as_round_cylinder().map(|r| r.border_radius).unwrap_or(0.0);
        return if local_normal.y.abs() < SIDE {
            side(c.radius + border, local_dir.y)
        } else {
            Curvature::default()
        };
    }
    if let Some(c) = shape.as_cone() {
        if c.half_height > 0.0
            && c.radius > 0.0
            && local_normal.y > -1.0 + SIDE
            && local_normal.y < 1.0 - SIDE
        {
            // Local radius of the cross-section at the contact height; apex at y = +h.
            let h = c.half_height;
            let rho = (c.radius * (h - local_point.y) / (2.0 * h)).max(1e-3 * c.radius);
            let cos_beta = (2.0 * h) / (4.0 * h * h + c.radius * c.radius).sqrt();
            let k = side(rho / cos_beta, local_dir.y);
            return k;
        }
        return Curvature::default();
    }
    Curvature::default()
}

/// Whether [`shape_curvature`] of `shape` is the same at every contact and in every direction
/// (balls, and the shapes treated as flat), so a contact's curvature can be computed once.
pub fn direction_independent(shape: &dyn Shape) -> bool {
    !matches!(
        shape.shape_type(),
        ShapeType::Capsule | ShapeType::Cylinder | ShapeType::RoundCylinder | ShapeType::Cone
    )
}

/// Curvature of a collider at a world-space contact point with outward world normal `normal`
/// (pointing away from this collider) and world rolling direction `dir`.
pub fn collider_curvature(collider: &Collider, point: Vector, normal: Vector, dir: Vector) -> Curvature {
    let pose = collider.position();
    let lp = pose.inverse_transform_point(point);
    let ln = pose.inverse_transform_vector(normal);
    let ld = pose.inverse_transform_vector(dir);
    shape_curvature(collider.shape(), lp, ln, ld)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ball_capsule_cylinder_cuboid() {
        let ball = Ball::new(0.5);
        let k = shape_curvature(&ball, Vector::ZERO, Vector::Y, Vector::X);
        assert!((k.directional - 2.0).abs() < 1e-12 && (k.mean - 2.0).abs() < 1e-12);
        // Capsule along Y lying on its side (normal −X): rolling across the axis (d = Z) sees
        // 1/r, sliding along the axis (d = Y) sees 0, mean 1/(2r).
        let cap = Capsule::new_y(1.0, 0.25);
        let across = shape_curvature(&cap, Vector::ZERO, -Vector::X, Vector::Z);
        let along = shape_curvature(&cap, Vector::ZERO, -Vector::X, Vector::Y);
        assert!((across.directional - 4.0).abs() < 1e-6 && along.directional.abs() < 1e-6);
        assert!((across.mean - 2.0).abs() < 1e-6);
        // Capsule standing on a cap: sphere of radius r.
        let tip = shape_curvature(&cap, Vector::ZERO, -Vector::Y, Vector::Z);
        assert!((tip.directional - 4.0).abs() < 1e-6);
        let cyl = Cylinder::new(0.5, 0.1);
        assert_eq!(shape_curvature(&cyl, Vector::ZERO, -Vector::Y, Vector::X), Curvature::default());
        assert!((shape_curvature(&cyl, Vector::ZERO, Vector::X, Vector::Z).directional - 10.0).abs() < 1e-5);
        let cub = Cuboid::new(Vector::splat(0.5));
        assert_eq!(shape_curvature(&cub, Vector::ZERO, Vector::Y, Vector::X), Curvature::default());
    }
}
