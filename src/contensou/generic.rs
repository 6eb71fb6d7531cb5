//! Numerical Contensou integrals for an arbitrary pressure field on a circular or elliptical
//! patch (docs/contensou.md §2.7), the patch moments `c_{i,j,k}` of \[B\], and \[B\]'s generic-patch Padé
//! model of order n = 1 ((3.4)) built from them.
//!
//! The integrand is bounded but its direction jumps at the instantaneous centre of rotation
//! `(x_c, y_c) = (−u_y/ω, u_x/ω)`. The integration uses (mapped) polar coordinates about the
//! patch centre, `x = a ρ cosφ`, `y = b ρ sinφ`, with the angular range starting on the ray
//! through the centre of rotation and the radial range split at its radius, and adaptive
//! Gauss–Kronrod quadrature in both directions.

use super::quad::integrate;
use super::{ContensouError, PatchLoad, Smooth};
use std::f64::consts::PI;

/// An elliptical (or circular, `a = b`) patch with semi-axes `a` along x and `b` along y and
/// an arbitrary non-negative pressure field `p(x, y)` (Pa) on it.
pub struct GenericPatch<F: Fn(f64, f64) -> f64> {
    a: f64,
    b: f64,
    pressure: F,
    rel_tol: f64,
}

/// Pressure moments of a patch (SI): `P = ∬p`, first moments and the `r`-weighted ones.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Moments {
    /// Normal force `∬ p dA`.
    pub p: f64,
    /// `∬ p x dA`.
    pub px: f64,
    /// `∬ p y dA`.
    pub py: f64,
    /// `∬ p x/r dA`.
    pub px_over_r: f64,
    /// `∬ p y/r dA`.
    pub py_over_r: f64,
    /// `∬ p r dA` (= `P κ`).
    pub pr: f64,
}

impl Moments {
    /// Pressure-weighted mean radius `κ = ∬ p r dA / P` (\[A\] (39)).
    pub fn kappa(&self) -> f64 {
        self.pr / self.p
    }
}

impl<F: Fn(f64, f64) -> f64> GenericPatch<F> {
    /// Elliptical patch with semi-axes `a, b > 0` (m) and pressure field `pressure(x, y)` (Pa,
    /// evaluated only inside the ellipse; should be ≥ 0). Relative tolerance 1e-11.
    pub fn new(a: f64, b: f64, pressure: F) -> Result<Self, ContensouError> {
        if !(a > 0.0) || !a.is_finite() {
            return Err(ContensouError::InvalidRadius(a));
        }
        if !(b > 0.0) || !b.is_finite() {
            return Err(ContensouError::InvalidRadius(b));
        }
        Ok(GenericPatch { a, b, pressure, rel_tol: 1e-11 })
    }

    /// Sets the relative tolerance of the quadrature (default 1e-11, clamped to ≥ 1e-14).
    pub fn with_rel_tol(mut self, rel_tol: f64) -> Self {
        self.rel_tol = if rel_tol.is_finite() { rel_tol.max(1e-14) } else { 1e-11 };
        self
    }

    /// Integrates a vector integrand `g(x, y) -> [f64; 4]` over the ellipse, splitting at the
    /// point `(xc, yc)` (mapped polar coordinates).
    fn integrate4(&self, split: Option<(f64, f64)>, g: impl Fn(f64, f64) -> [f64; 4]) -> [f64; 4] {
        let (a, b) = (self.a, self.b);
        let (rho_c, phi_c) = match split {
            Some((xc, yc)) => ((xc / a).hypot(yc / b), (yc / b).atan2(xc / a)),
            None => (f64::INFINITY, 0.0),
        };
        let tol = self.rel_tol;
        let inner = |phi: f64| -> [f64; 4] {
            let (sp, cp) = phi.sin_cos();
            let brk = [rho_c];
            integrate(
                |rho: f64| {
                    let (x, y) = (a * rho * cp, b * rho * sp);
                    let w = a * b * rho;
                    let r = g(x, y);
                    [r[0] * w, r[1] * w, r[2] * w, r[3] * w]
                },
                0.0,
                1.0,
                &brk,
                1e-300,
                0.1 * tol,
                400,
            )
        };
        integrate(inner, phi_c, phi_c + 2.0 * PI, &[phi_c + PI], 1e-300, tol, 400)
    }

    /// Pressure moments by quadrature.
    pub fn moments(&self) -> Moments {
        let p = &self.pressure;
        let v1 = self.integrate4(None, |x, y| {
            let pp = p(x, y);
            [pp, pp * x, pp * y, pp * x.hypot(y)]
        });
        let v2 = self.integrate4(None, |x, y| {
            let pp = p(x, y);
            let r = x.hypot(y);
            if r == 0.0 {
                [0.0; 4]
            } else {
                [pp * x / r, pp * y / r, 0.0, 0.0]
            }
        });
        Moments { p: v1[0], px: v1[1], py: v1[2], pr: v1[3], px_over_r: v2[0], py_over_r: v2[1] }
    }

    /// The Contensou integrals (docs/contensou.md §1.2) for friction coefficient `mu`, slip `(u_x, u_y)`
    /// (m/s, velocity of the body point at the patch centre) and spin `ω` (rad/s): force and
    /// torque (about the centre) on the body, and the normal force `P`. Zero slip and spin is
    /// [`ContensouError::Stick`].
    pub fn resultant(&self, mu: f64, slip: [f64; 2], spin: f64) -> Result<(PatchLoad, f64), ContensouError> {
        if !(slip[0].is_finite() && slip[1].is_finite() && spin.is_finite()) {
            return Err(ContensouError::NonFiniteInput);
        }
        if !(mu >= 0.0) || !mu.is_finite() {
            return Err(ContensouError::InvalidMu(mu));
        }
        let (ux, uy, w) = (slip[0], slip[1], spin);
        if ux == 0.0 && uy == 0.0 && w == 0.0 {
            return Err(ContensouError::Stick);
        }
        let split = if w != 0.0 { Some((-uy / w, ux / w)) } else { None };
        let p = &self.pressure;
        let v = self.integrate4(split, |x, y| {
            let pp = p(x, y);
            let vx = ux - w * y;
            let vy = uy + w * x;
            let n = vx.hypot(vy);
            if n == 0.0 {
                [pp, 0.0, 0.0, 0.0]
            } else {
                [pp, pp * vx / n, pp * vy / n, pp * (x * vy - y * vx) / n]
            }
        });
        Ok((PatchLoad { force: [-mu * v[1], -mu * v[2]], torque: -mu * v[3] }, v[0]))
    }
}

/// \[B\]'s generic-patch Padé model of order n = 1 ((3.4)), from the patch [`Moments`]: force
/// and torque on the body for slip `(u_x, u_y)`, spin `ω`, friction coefficient `mu`,
/// exponent `m > 0` and spin weight `b > 0`. The spin enters as `â ω` with the length
/// `a_hat > 0` (e.g. the larger semi-axis). Reduces to [`super::Model::Pade`] for a circular
/// axisymmetric patch with `a_hat = R`.
pub fn pade_n1(
    moments: &Moments,
    mu: f64,
    m: f64,
    b: f64,
    a_hat: f64,
    slip: [f64; 2],
    spin: f64,
) -> PatchLoad {
    generic_n1(moments, mu, m, b, a_hat, slip, spin, None)
}

/// \[B\]'s smooth regularised generic-patch model of order n = 1 ((4.4)): every component of
/// [`pade_n1`] gets the factor `1/sqrt(L² + ε²) + η′ε³/(L² + ε²)²` instead of `1/L`, with
/// `ε = smooth.eps_reg()` and `η′ = smooth.eta_prime()` (the `b` of `smooth` is not used;
/// pass `b` explicitly). Defined everywhere, zero at rest.
#[allow(clippy::too_many_arguments)]
pub fn smooth_n1(
    moments: &Moments,
    mu: f64,
    m: f64,
    b: f64,
    a_hat: f64,
    smooth: &Smooth,
    slip: [f64; 2],
    spin: f64,
) -> PatchLoad {
    generic_n1(moments, mu, m, b, a_hat, slip, spin, Some(smooth))
}

#[allow(clippy::too_many_arguments)]
fn generic_n1(
    moments: &Moments,
    mu: f64,
    m: f64,
    b: f64,
    a_hat: f64,
    slip: [f64; 2],
    spin: f64,
    smooth: Option<&Smooth>,
) -> PatchLoad {
    let p = moments.p;
    if !(p > 0.0) {
        return PatchLoad::default();
    }
    let c011 = moments.py_over_r / p;
    let c101 = moments.px_over_r / p;
    let c00m1 = moments.pr / (p * a_hat);
    let c010 = moments.py / (p * a_hat);
    let c100 = moments.px / (p * a_hat);
    let ws = a_hat * spin;
    let (vx, vy) = (slip[0], slip[1]);
    let vs = vx.hypot(vy);
    let l = (vs.powf(m) + b.powf(m) * ws.abs().powf(m)).powf(1.0 / m);
    let lam = match smooth {
        None => {
            if !(l > 0.0) {
                return PatchLoad::default();
            }
            1.0 / l
        }
        Some(sm) => super::approx::smooth_factor(l * l, sm.eps_reg(), sm.eta_prime()),
    };
    let tsx = (vx - b * c011 * ws) * lam;
    let tsy = (vy + b * c101 * ws) * lam;
    let ms = (b * c00m1 * ws - c010 * vx + c100 * vy) * lam;
    PatchLoad { force: [-mu * p * tsx, -mu * p * tsy], torque: -mu * p * a_hat * ms }
}
