//! Small shared numerical helpers (input checks, skew matrices, dense solves).

use super::RealizabilityError as E;
use glam::{DMat3, DVec3};
use nalgebra::{DMatrix, DVector};

/// `[r]ₓ` with `[r]ₓ v = r × v`.
pub(crate) fn skew(r: DVec3) -> DMat3 {
    DMat3::from_cols(DVec3::new(0.0, r.z, -r.y), DVec3::new(-r.z, 0.0, r.x), DVec3::new(r.y, -r.x, 0.0))
}

pub(crate) fn check_f(x: f64, what: &'static str) -> Result<(), E> {
    if x.is_finite() {
        Ok(())
    } else {
        Err(E::NonFinite(what))
    }
}

pub(crate) fn check_v(v: DVec3, what: &'static str) -> Result<(), E> {
    if v.is_finite() {
        Ok(())
    } else {
        Err(E::NonFinite(what))
    }
}

pub(crate) fn check_m(m: DMat3, what: &'static str) -> Result<(), E> {
    if m.is_finite() {
        Ok(())
    } else {
        Err(E::NonFinite(what))
    }
}

fn max_abs(m: DMat3) -> f64 {
    m.to_cols_array().iter().fold(0.0f64, |a, b| a.max(b.abs()))
}

/// Checks that `j` is symmetric positive definite (relative tolerances) and returns `j⁻¹`.
pub(crate) fn check_inertia(j: DMat3) -> Result<DMat3, E> {
    check_m(j, "inertia")?;
    let s = max_abs(j);
    if s <= 0.0 {
        return Err(E::InertiaNotSpd);
    }
    if max_abs(j - j.transpose()) > 1e-9 * s {
        return Err(E::InertiaNotSpd);
    }
    // Sylvester's criterion on the symmetrised tensor, scale-aware.
    let js = (j + j.transpose()) * 0.5;
    let m1 = js.x_axis.x;
    let m2 = js.x_axis.x * js.y_axis.y - js.x_axis.y * js.y_axis.x;
    let m3 = js.determinant();
    if !(m1 > 1e-12 * s && m2 > 1e-12 * s * s && m3 > 1e-12 * s * s * s) {
        return Err(E::InertiaNotSpd);
    }
    let inv = js.inverse();
    if !inv.is_finite() {
        return Err(E::InertiaNotSpd);
    }
    Ok(inv)
}

/// Checks a radius-of-curvature tensor: symmetric and positive semi-definite on the plane
/// orthogonal to `n` (its normal part is ignored).
pub(crate) fn check_curvature(q: DMat3, n: DVec3) -> Result<(), E> {
    check_m(q, "curvature radius tensor")?;
    let s = max_abs(q);
    if s == 0.0 {
        return Ok(());
    }
    if max_abs(q - q.transpose()) > 1e-9 * s {
        return Err(E::BadCurvature);
    }
    let t1 = any_perpendicular(n);
    let t2 = n.cross(t1);
    let a = t1.dot(q * t1);
    let b = t1.dot(q * t2);
    let d = t2.dot(q * t2);
    let tol = 1e-12 * s;
    if a < -tol || d < -tol || a * d - b * b < -tol * s {
        return Err(E::BadCurvature);
    }
    Ok(())
}

/// A unit vector perpendicular to the unit vector `n`.
pub(crate) fn any_perpendicular(n: DVec3) -> DVec3 {
    let helper = if n.x.abs() < 0.6 { DVec3::X } else { DVec3::Y };
    helper.cross(n).normalize()
}

/// Dense LU solve with a crude conditioning guard; `None` if singular or non-finite.
pub(crate) fn solve_dense(a: DMatrix<f64>, b: DVector<f64>) -> Option<DVector<f64>> {
    let scale = a.iter().fold(0.0f64, |m, x| m.max(x.abs()));
    if !(scale > 0.0) || !scale.is_finite() {
        return None;
    }
    let lu = a.lu();
    let u = lu.u();
    let n = u.nrows();
    let mut dmin = f64::INFINITY;
    let mut dmax = 0.0f64;
    for i in 0..n {
        let d = u[(i, i)].abs();
        dmin = dmin.min(d);
        dmax = dmax.max(d);
    }
    if !(dmin > 1e-13 * dmax) {
        return None;
    }
    let x = lu.solve(&b)?;
    if x.iter().all(|v| v.is_finite()) {
        Some(x)
    } else {
        None
    }
}
