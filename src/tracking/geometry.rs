//! Surface geometry of a body near a contact: directional and mean curvature (docs/tracking.md §1.6,
//! S-4, S-5) and the arc length of the contact point's path over one step (docs/tracking.md §1.4).

use glam::{DQuat, DVec3};
use std::fmt;

/// How the path length `‖s_b‖` of the contact point on a body's surface is measured
/// (docs/tracking.md §1.4 item 2).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum ArcMode {
    /// Exact geodesic where it is cheap: spheres (convex and concave) use the great-circle arc
    /// `|OA|·atan2(|OA×OB|, OA·OB)`; planes the (exact) chord; ellipsoids and
    /// [`Surface::Curvature`] the chord (docs/tracking.md §4.5: "no significant change").
    #[default]
    Geodesic,
    /// The chord `|C_b^1 − C_b^{0→1}|` for every surface.
    Chord,
}

/// Invalid surface geometry.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum GeometryError {
    /// A radius or semi-axis is NaN, infinite, zero or negative.
    BadDimension {
        /// Which dimension.
        name: &'static str,
        /// Its value.
        value: f64,
    },
    /// A curvature value is NaN or infinite.
    NonFiniteCurvature {
        /// Its value.
        value: f64,
    },
}

impl fmt::Display for GeometryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GeometryError::BadDimension { name, value } => {
                write!(f, "surface dimension `{name}` = {value} must be finite and > 0")
            }
            GeometryError::NonFiniteCurvature { value } => {
                write!(f, "surface curvature {value} must be finite")
            }
        }
    }
}

impl std::error::Error for GeometryError {}

/// The surface of one body near the contact, in the body's local frame (the frame of the pose
/// passed to the update). Curvature signs: `> 0` convex, `< 0` concave, `0` flat.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub enum Surface {
    /// A flat face (or the ground): curvature 0, arc = chord (exact). The default.
    #[default]
    Plane,
    /// Convex sphere of `radius`, centred at the body-frame origin: curvature `+1/R`.
    Sphere {
        /// Radius R > 0 (m).
        radius: f64,
    },
    /// The inside of a spherical cavity of `radius` whose centre is `center` (body-local):
    /// curvature `−1/R` (docs/tracking.md §1.6, Fig. 4).
    ConcaveSphere {
        /// Radius R > 0 (m).
        radius: f64,
        /// Centre of the cavity in body-local coordinates.
        center: DVec3,
    },
    /// Ellipsoid `x²/a² + y²/b² + z²/c² = 1`, centred at the body-frame origin, axes along the
    /// body axes: directional curvature (S-4), mean curvature (S-5), arc by chord.
    Ellipsoid {
        /// Semi-axis along local x (m).
        a: f64,
        /// Semi-axis along local y (m).
        b: f64,
        /// Semi-axis along local z (m).
        c: f64,
    },
    /// Only numbers known (e.g. from an engine's shape query): the normal curvature along the
    /// motion `kappa` and the mean curvature `mean` (1/m), direction independent; arc by chord.
    Curvature {
        /// Normal curvature along the motion (1/m; < 0 concave).
        kappa: f64,
        /// Mean curvature (1/m), used for spin parameters.
        mean: f64,
    },
}

fn dim(name: &'static str, value: f64) -> Result<f64, GeometryError> {
    if value.is_finite() && value > 0.0 {
        Ok(value)
    } else {
        Err(GeometryError::BadDimension { name, value })
    }
}

impl Surface {
    /// A convex sphere of radius `r` (validated).
    pub fn sphere(r: f64) -> Result<Self, GeometryError> {
        Ok(Surface::Sphere { radius: dim("radius", r)? })
    }
    /// A spherical cavity of radius `r` centred at `center` (body-local; validated).
    pub fn concave_sphere(r: f64, center: DVec3) -> Result<Self, GeometryError> {
        if !center.is_finite() {
            return Err(GeometryError::BadDimension { name: "center", value: f64::NAN });
        }
        Ok(Surface::ConcaveSphere { radius: dim("radius", r)?, center })
    }
    /// An ellipsoid with semi-axes `a`, `b`, `c` along the local x, y, z axes (validated).
    pub fn ellipsoid(a: f64, b: f64, c: f64) -> Result<Self, GeometryError> {
        Ok(Surface::Ellipsoid { a: dim("a", a)?, b: dim("b", b)?, c: dim("c", c)? })
    }
    /// A surface known only by its curvatures (validated finite).
    pub fn curvature(kappa: f64, mean: f64) -> Result<Self, GeometryError> {
        for v in [kappa, mean] {
            if !v.is_finite() {
                return Err(GeometryError::NonFiniteCurvature { value: v });
            }
        }
        Ok(Surface::Curvature { kappa, mean })
    }

    /// Checks the dimensions (for surfaces built with the enum literal).
    #[inline(always)]
    pub fn validate(&self) -> Result<(), GeometryError> {
        match *self {
            Surface::Plane => Ok(()),
            // Fast path of the common valid case (no Result built for the constructor).
            Surface::Sphere { radius } if radius.is_finite() && radius > 0.0 => Ok(()),
            Surface::Sphere { radius } => Surface::sphere(radius).map(|_| ()),
            Surface::ConcaveSphere { radius, center } => Surface::concave_sphere(radius, center).map(|_| ()),
            Surface::Ellipsoid { a, b, c } => Surface::ellipsoid(a, b, c).map(|_| ()),
            Surface::Curvature { kappa, mean } => Surface::curvature(kappa, mean).map(|_| ()),
        }
    }

    /// Whether the normal curvature depends on the direction (only ellipsoids).
    pub fn is_anisotropic(&self) -> bool {
        matches!(self, Surface::Ellipsoid { .. })
    }

    /// Normal curvature at body-local point `x` along body-local unit tangent `d`
    /// (docs/tracking.md §1.6). Ellipsoid: `κ(d) = dᵀGd/|Gx|` (S-4) with `x` first scaled radially onto the
    /// surface (contact points from detection may lie slightly inside or outside).
    pub fn normal_curvature(&self, x: DVec3, d: DVec3) -> f64 {
        match *self {
            Surface::Plane => 0.0,
            Surface::Sphere { radius } => 1.0 / radius,
            Surface::ConcaveSphere { radius, .. } => -1.0 / radius,
            Surface::Curvature { kappa, .. } => kappa,
            Surface::Ellipsoid { a, b, c } => {
                let (g, _, len) = ellipsoid_metric(a, b, c, x);
                ellipsoid_normal(g, len, d)
            }
        }
    }

    /// Mean curvature at body-local point `x` (S-5): average of the two principal curvatures.
    /// Ellipsoid: `(tr G − N̂ᵀGN̂)/(2|Gx|)`, `N̂ = Gx/|Gx|`.
    pub fn mean_curvature(&self, x: DVec3) -> f64 {
        match *self {
            Surface::Plane => 0.0,
            Surface::Sphere { radius } => 1.0 / radius,
            Surface::ConcaveSphere { radius, .. } => -1.0 / radius,
            Surface::Curvature { mean, .. } => mean,
            Surface::Ellipsoid { a, b, c } => {
                let (g, gx, len) = ellipsoid_metric(a, b, c, x);
                ellipsoid_mean(g, gx, len)
            }
        }
    }

    /// Mean curvature at `x` and the normal curvature along the body-local unit tangent
    /// `dir()` (`None`: the mean curvature; `dir` is called only for anisotropic surfaces),
    /// sharing one gradient evaluation: the contact update needs both each step. Same values
    /// as [`Surface::mean_curvature`] and [`Surface::normal_curvature`].
    #[inline(always)]
    pub(crate) fn mean_and_directional_curvature(
        &self,
        x: DVec3,
        dir: impl FnOnce() -> Option<DVec3>,
    ) -> (f64, f64) {
        match *self {
            Surface::Ellipsoid { a, b, c } => {
                let (g, gx, len) = ellipsoid_metric(a, b, c, x);
                let mean = ellipsoid_mean(g, gx, len);
                let kappa = dir().map_or(mean, |d| ellipsoid_normal(g, len, d));
                (mean, kappa)
            }
            // Isotropic surfaces: one curvature value (one division for spheres).
            Surface::Plane => (0.0, 0.0),
            Surface::Sphere { radius } => {
                let k = 1.0 / radius;
                (k, k)
            }
            Surface::ConcaveSphere { radius, .. } => {
                let k = -1.0 / radius;
                (k, k)
            }
            Surface::Curvature { kappa, mean } => (mean, kappa),
        }
    }

    /// Path length `‖s_b‖` on this surface from the carried old contact point `carried`
    /// (`C_b^{0→1}`, global) to the new one `new` (`C_b^1`, global), for a body at
    /// `position`/`rotation` (docs/tracking.md §1.4 item 2).
    #[inline(always)]
    pub fn arc_length(
        &self,
        mode: ArcMode,
        position: DVec3,
        rotation: DQuat,
        carried: DVec3,
        new: DVec3,
    ) -> f64 {
        let centre = match (mode, *self) {
            (ArcMode::Geodesic, Surface::Sphere { .. }) => position,
            (ArcMode::Geodesic, Surface::ConcaveSphere { center, .. }) => position + rotation * center,
            _ => return (new - carried).length(),
        };
        let oa = carried - centre;
        let ob = new - centre;
        oa.length() * super::kinematics::atan2_small(oa.cross(ob).length(), oa.dot(ob))
    }
}

/// `(G, G x, |G x|)` of the ellipsoid with semi-axes `a, b, c` at `x` (scaled radially onto
/// the surface).
#[inline]
fn ellipsoid_metric(a: f64, b: f64, c: f64, x: DVec3) -> (DVec3, DVec3, f64) {
    let g = DVec3::new(1.0 / (a * a), 1.0 / (b * b), 1.0 / (c * c));
    let gx = ellipsoid_gx(g, x);
    (g, gx, gx.length())
}

/// Normal curvature `dᵀGd/|Gx|` (S-4); 0 at a degenerate point.
#[inline]
fn ellipsoid_normal(g: DVec3, len: f64, d: DVec3) -> f64 {
    if len > 0.0 {
        (d * d).dot(g) / len
    } else {
        0.0
    }
}

/// Mean curvature `(tr G − N̂ᵀGN̂)/(2|Gx|)` (S-5); 0 at a degenerate point.
#[inline]
fn ellipsoid_mean(g: DVec3, gx: DVec3, len: f64) -> f64 {
    if len > 0.0 {
        let nh = gx / len;
        (g.x + g.y + g.z - (nh * nh).dot(g)) / (2.0 * len)
    } else {
        0.0
    }
}

/// `G x` for the point `x` scaled radially onto the ellipsoid `xᵀGx = 1`.
fn ellipsoid_gx(g: DVec3, x: DVec3) -> DVec3 {
    let q = (x * x).dot(g);
    let xs = if q > 0.0 { x / q.sqrt() } else { x };
    g * xs
}
