//! One contact point on a fixed surface (\[003\], docs/realizability.md §2).
//!
//! Near a rolling state the slip velocity `v_P = u1 t1 + u2 t2` obeys a discontinuous
//! (extended Filippov) vector field. Its directional limit `F*(φ)` at zero slip along the slip
//! angle `φ` splits into a radial part `R(φ)` and a circumferential part `V(φ)`. Roots of `V`
//! are the *limit directions* (slip directions along which trajectories reach or leave
//! rolling); `R < 0` attracting, `R > 0` repelling; `dV/dφ < 0` angularly stable.
//! Rolling is realizable iff every limit direction is attracting, which (Theorem 4 of \[003\])
//! coincides with the static Coulomb condition `‖f‖ < μN`.
//!
//! Two entry points:
//! * [`PlanarLimitField`] — the coefficient-level field `F*(φ) = M λ(φ) + C` of \[003\] §4
//!   (uncoupled case), e.g. the wheel of docs/realizability.md §5 in units `μg = 1`.
//! * [`SingleContactProblem`] — a general rigid body (mass, inertia, contact geometry,
//!   curvature, spin, loads, optional ideal bilateral constraints) solved by the linear-solve
//!   recipe of docs/realizability.md §1.7 and the `V/N`, `R/N` degree-2 method of docs/realizability.md §2.8, which is exact
//!   also with normal-force coupling.

use super::linalg::{
    any_perpendicular, check_curvature, check_f, check_inertia, check_m, check_v, skew, solve_dense,
};
use super::trigpoly::{TrigPoly2, TrigRoots};
use super::RealizabilityError as E;
use glam::{DMat3, DVec3};
use nalgebra::{DMatrix, DVector};
use std::f64::consts::PI;

/// The single-contact limit field over every slip angle (docs/realizability.md §2.8):
/// `V(φ) = V̂(φ) N(φ)`, `R(φ) = R̂(φ) N(φ)` with `1/N(φ)` a trigonometric polynomial.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SlipField {
    /// `V̂ = V/N`.
    pub v_hat: TrigPoly2,
    /// `R̂ = R/N`.
    pub r_hat: TrigPoly2,
    /// `1/N` \[1/N\].
    pub inv_n: TrigPoly2,
}

impl SlipField {
    /// `(R(φ), V(φ))` [m/s²]: the radial and circumferential parts of `F*(φ)`.
    pub fn eval(&self, phi: f64) -> (f64, f64) {
        let ip = self.inv_n.eval(phi);
        (self.r_hat.eval(phi) / ip, self.v_hat.eval(phi) / ip)
    }
}

/// Non-generic situations of the single-contact classification (docs/realizability.md §2.9).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NonGenericKind {
    /// A double root of `V` (fold of limit directions, on the astroid).
    Fold,
    /// A limit direction with `R ≈ 0` (on the ellipse: static friction saturated).
    Marginal,
    /// `V ≡ 0`: every direction is a limit direction.
    Continuum,
    /// No limit direction was found (possible only with normal-force coupling).
    NoLimitDirections,
    /// Any other root pattern.
    Other,
}

/// The four generic cases of \[003\] (docs/realizability.md §2.5) or a non-generic situation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Case {
    /// 2 attracting directions (1 angularly stable, 1 unstable): rolling realizable.
    I,
    /// 4 attracting directions (2 stable, 2 unstable): rolling realizable.
    II,
    /// 1 attracting + 1 repelling direction: rolling not realizable.
    III,
    /// 3 attracting + 1 repelling direction: rolling not realizable.
    IV,
    /// A non-generic (boundary) situation.
    NonGeneric(NonGenericKind),
}

/// One limit direction of the single-contact slip field.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LimitDirection {
    /// Slip angle from `t1` toward `t2` \[rad\], in `[0, 2π)`.
    pub phi: f64,
    /// Unit slip direction `cos φ t1 + sin φ t2` (world frame; for a [`PlanarLimitField`]
    /// the frame `t1 = X`, `t2 = Y`).
    pub slip_dir: DVec3,
    /// Radial part `R(φ)` [m/s²]: `< 0` attracting, `> 0` repelling.
    pub r: f64,
    /// `dV/dφ` at the root [m/s²]: `< 0` angularly stable.
    pub dv_dphi: f64,
    /// `R < 0`.
    pub attracting: bool,
    /// `dV/dφ < 0`.
    pub angularly_stable: bool,
}

/// Limit directions and their classification.
#[derive(Clone, Debug, PartialEq)]
pub struct LimitDirectionAnalysis {
    /// Limit directions, sorted by angle.
    pub directions: Vec<LimitDirection>,
    /// Generic case or non-generic kind.
    pub case: Case,
    /// Companion-matrix and sampling counts disagree, or a root has `|dV/dφ| ≈ 0`.
    pub near_fold: bool,
    /// No limit direction is repelling or marginal (and some exist or the set is empty).
    pub all_attracting: bool,
}

/// Coefficient-level limit field `F*(φ) = M λ(φ) + C`, `λ = (cos φ, sin φ)` (\[003\] (33)).
///
/// `m = [[A1, B1], [A2, B2]]` (row = slip component), `c = [C1, C2]`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlanarLimitField {
    /// `[[A1, B1], [A2, B2]]`.
    pub m: [[f64; 2]; 2],
    /// `[C1, C2]`.
    pub c: [f64; 2],
}

impl PlanarLimitField {
    /// Field already in principal form (`A2 = B1 = 0`).
    pub fn principal(a1: f64, b2: f64, c1: f64, c2: f64) -> Self {
        PlanarLimitField { m: [[a1, 0.0], [0.0, b2]], c: [c1, c2] }
    }

    /// `F*(φ)` as `(F1, F2)`.
    pub fn eval(&self, phi: f64) -> [f64; 2] {
        let (s, c) = phi.sin_cos();
        [self.m[0][0] * c + self.m[0][1] * s + self.c[0], self.m[1][0] * c + self.m[1][1] * s + self.c[1]]
    }

    /// `V(φ)` as a trigonometric polynomial (\[003\] (34)–(35), exact expansion).
    pub fn v_poly(&self) -> TrigPoly2 {
        let [[m00, m01], [m10, m11]] = self.m;
        TrigPoly2 {
            a0: 0.5 * (m10 - m01),
            a1: self.c[1],
            b1: -self.c[0],
            a2: 0.5 * (m10 + m01),
            b2: 0.5 * (m11 - m00),
        }
    }

    /// `R(φ)` as a trigonometric polynomial.
    pub fn r_poly(&self) -> TrigPoly2 {
        let [[m00, m01], [m10, m11]] = self.m;
        TrigPoly2 {
            a0: 0.5 * (m00 + m11),
            a1: self.c[0],
            b1: self.c[1],
            a2: 0.5 * (m00 - m11),
            b2: 0.5 * (m01 + m10),
        }
    }

    /// Limit directions and case.
    pub fn analyze(&self) -> LimitDirectionAnalysis {
        let scale = self.m.iter().flatten().chain(self.c.iter()).fold(0.0f64, |a, x| a.max(x.abs()));
        analyze_polys(&self.v_poly(), &self.r_poly(), &|_| 1.0, DVec3::X, DVec3::Y, scale)
    }

    /// `‖M⁻¹C‖²` (= `C1²/A1² + C2²/B2²` in the principal frame): `< 1` ⇔ rolling
    /// realizable (Theorem 3 of \[003\]).
    pub fn ellipse_value(&self) -> f64 {
        let [[a, b], [c, d]] = self.m;
        let det = a * d - b * c;
        let x = (d * self.c[0] - b * self.c[1]) / det;
        let y = (-c * self.c[0] + a * self.c[1]) / det;
        x * x + y * y
    }

    /// Principal-frame quantities of the (symmetric part of the) field.
    pub fn principal_form(&self) -> PrincipalForm {
        principal_form(self.m, self.c)
    }
}

/// Principal-frame form of an uncoupled limit field (\[003\] Prop. 3).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PrincipalForm {
    /// Rotation angle `δ` of the principal frame from `t1` \[rad\].
    pub delta: f64,
    /// `A1` in the principal frame.
    pub a1: f64,
    /// `B2` in the principal frame.
    pub b2: f64,
    /// `C1` in the principal frame.
    pub c1: f64,
    /// `C2` in the principal frame.
    pub c2: f64,
    /// `C1²/A1² + C2²/B2²` (\[003\] (48)); `< 1` ⇔ only attracting directions.
    pub ellipse_value: f64,
    /// `|C1|^{2/3} + |C2|^{2/3} − |A1 − B2|^{2/3}` (\[003\] (46)); `< 0` ⇔ 4 directions.
    pub astroid_value: f64,
}

fn principal_form(m: [[f64; 2]; 2], c: [f64; 2]) -> PrincipalForm {
    let m01 = 0.5 * (m[0][1] + m[1][0]);
    let delta = 0.5 * (2.0 * m01).atan2(m[0][0] - m[1][1]);
    let (s, co) = delta.sin_cos();
    let a1 = m[0][0] * co * co + 2.0 * m01 * s * co + m[1][1] * s * s;
    let b2 = m[0][0] * s * s - 2.0 * m01 * s * co + m[1][1] * co * co;
    let c1 = co * c[0] + s * c[1];
    let c2 = -s * c[0] + co * c[1];
    PrincipalForm {
        delta,
        a1,
        b2,
        c1,
        c2,
        ellipse_value: c1 * c1 / (a1 * a1) + c2 * c2 / (b2 * b2),
        astroid_value: c1.abs().powf(2.0 / 3.0) + c2.abs().powf(2.0 / 3.0) - (a1 - b2).abs().powf(2.0 / 3.0),
    }
}

/// Classification from `V̂ = V/N`, `R̂ = R/N` and `N(φ)` (docs/realizability.md §2.8).
fn analyze_polys(
    vhat: &TrigPoly2,
    rhat: &TrigPoly2,
    n_of: &dyn Fn(f64) -> f64,
    t1: DVec3,
    t2: DVec3,
    field_scale: f64,
) -> LimitDirectionAnalysis {
    let tol = 1e-9 * field_scale.max(1e-300);
    if vhat.scale() * n_of(0.0) <= 1e-12 * field_scale.max(1e-300) {
        return LimitDirectionAnalysis {
            directions: Vec::new(),
            case: Case::NonGeneric(NonGenericKind::Continuum),
            near_fold: false,
            all_attracting: false,
        };
    }
    let TrigRoots { roots, companion_count, sampled_count } = vhat.roots();
    let mut near_fold = companion_count != sampled_count;
    let mut directions = Vec::with_capacity(roots.len());
    let mut marginal = false;
    for &phi in &roots {
        let n = n_of(phi);
        let r = rhat.eval(phi) * n;
        let dv = vhat.deriv(phi) * n;
        if dv.abs() <= 1e-6 * field_scale {
            near_fold = true;
        }
        if r.abs() <= tol {
            marginal = true;
        }
        let (s, c) = phi.sin_cos();
        directions.push(LimitDirection {
            phi,
            slip_dir: t1 * c + t2 * s,
            r,
            dv_dphi: dv,
            attracting: r < 0.0,
            angularly_stable: dv < 0.0,
        });
    }
    let n_rep = directions.iter().filter(|d| d.r > tol).count();
    let case = if directions.is_empty() {
        Case::NonGeneric(NonGenericKind::NoLimitDirections)
    } else if marginal {
        Case::NonGeneric(NonGenericKind::Marginal)
    } else if near_fold || directions.len() == 3 {
        Case::NonGeneric(NonGenericKind::Fold)
    } else {
        match (directions.len(), n_rep) {
            (2, 0) => Case::I,
            (4, 0) => Case::II,
            (2, 1) => Case::III,
            (4, 1) => Case::IV,
            _ => Case::NonGeneric(NonGenericKind::Other),
        }
    };
    let all_attracting = directions.iter().all(|d| d.r < -tol);
    LimitDirectionAnalysis { directions, case, near_fold, all_attracting }
}

/// An ideal bilateral velocity constraint `lin·v_C + ang·ω = 0` kept by a workless
/// multiplier; at the acceleration level `lin·a_C + ang·ω̇ = rhs` (docs/realizability.md §1.7).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BilateralConstraint {
    /// Row acting on `a_C`.
    pub lin: DVec3,
    /// Row acting on `ω̇`.
    pub ang: DVec3,
    /// Right-hand side (velocity-product terms at this state).
    pub rhs: f64,
}

/// A rigid body touching a fixed surface at one point, at a rolling state (`v_P = 0`).
///
/// Build with [`SingleContactProblem::new`] and the `with_*` setters; run
/// [`SingleContactProblem::analyze`].
#[derive(Clone, Debug, PartialEq)]
pub struct SingleContactProblem {
    /// Mass \[kg\] (> 0).
    pub mass: f64,
    /// Inertia tensor about the centre of mass, world axes \[kg m²\] (SPD).
    pub inertia_world: DMat3,
    /// Centre of mass \[m\].
    pub com: DVec3,
    /// Contact point \[m\].
    pub contact_point: DVec3,
    /// Normal of the fixed surface at the contact, into the body (normalised internally).
    pub normal: DVec3,
    /// First tangent `t1` (projected onto the tangent plane); `None` = any.
    pub tangent: Option<DVec3>,
    /// Friction coefficient at zero slip `μ₀` (≥ 0).
    pub mu: f64,
    /// Angular velocity \[rad/s\].
    pub omega: DVec3,
    /// Relative radius-of-curvature tensor `Q = (S_b + S_e)⁻¹` on the tangent plane (world
    /// frame, symmetric PSD; default zero; only matters when `ω ≠ 0`).
    pub curvature_radius: DMat3,
    /// Applied force at the centre of mass (incl. gravity) \[N\].
    pub applied_force: DVec3,
    /// Applied torque about the centre of mass \[N m\].
    pub applied_torque: DVec3,
    /// Optional ideal bilateral constraints.
    pub constraints: Vec<BilateralConstraint>,
}

/// Result of [`SingleContactProblem::analyze`] (docs/realizability.md §2.9).
#[derive(Clone, Debug, PartialEq)]
pub struct SingleContactReport {
    /// All normal forces of all limit solves are positive and the solves are regular.
    pub well_posed: bool,
    /// Reasons when not well posed.
    pub ill_posed_reasons: Vec<String>,
    /// Tangent basis used (`t1`, `t2 = n × t1`, `n`).
    pub frame: [DVec3; 3],
    /// Normal force of the rolling solve \[N\].
    pub normal_force_rolling: f64,
    /// Static friction force of the rolling solve (tangential, world) \[N\].
    pub static_friction: DVec3,
    /// Friction utilisation `η = ‖f‖/(μ N)`.
    pub utilization: f64,
    /// `1 − η` (> 0 ⇔ the static Coulomb condition holds strictly).
    pub margin: f64,
    /// The normal force depends on the friction direction (`k ≠ 0`).
    pub coupled: bool,
    /// `M`, `C` in the `(t1, t2)` frame (`[[A1,B1],[A2,B2]]`, `[C1,C2]`) when uncoupled.
    pub uncoupled: Option<PlanarLimitField>,
    /// Principal-frame form when uncoupled.
    pub principal: Option<PrincipalForm>,
    /// Limit directions and case.
    pub limit: LimitDirectionAnalysis,
    /// The contact opens: the rolling normal force is `≤ 0` (the body leaves the surface;
    /// unilateral contact, docs/realizability.md §2.10). Rolling is then not realizable and
    /// the limit directions (computed with a non-positive normal force) are not modes.
    pub lift_off: bool,
    /// Rolling realizable: well posed, the contact pressed, and every limit direction strictly
    /// attracting.
    pub rolling_realizable: bool,
    /// Slip direction (world) along which slipping starts when rolling is not realizable
    /// (the repelling limit direction).
    pub escape_direction: Option<DVec3>,
    /// Rolling (Filippov sliding) accelerations: `(a_C, ω̇)`.
    pub rolling_acceleration: (DVec3, DVec3),
    /// `(η < 1) == rolling_realizable` (Theorem 4 of \[003\]; must hold when well posed).
    pub theorem4_consistent: bool,
    /// The limit field `R(φ)`, `V(φ)` over every slip angle (docs/realizability.md §2.8), for
    /// [`SingleContactReport::evolution`].
    pub field: SlipField,
}

struct Prepared {
    r: DVec3,
    n: DVec3,
    t1: DVec3,
    t2: DVec3,
    kappa: DVec3,
    torque_rhs: DVec3,
}

impl SingleContactProblem {
    /// A body at rest (ω = 0) with no loads; add loads with [`Self::with_loads`].
    pub fn new(
        mass: f64,
        inertia_world: DMat3,
        com: DVec3,
        contact_point: DVec3,
        normal: DVec3,
        mu: f64,
    ) -> Self {
        SingleContactProblem {
            mass,
            inertia_world,
            com,
            contact_point,
            normal,
            tangent: None,
            mu,
            omega: DVec3::ZERO,
            curvature_radius: DMat3::ZERO,
            applied_force: DVec3::ZERO,
            applied_torque: DVec3::ZERO,
            constraints: Vec::new(),
        }
    }

    /// Sets the applied force and torque at the centre of mass.
    pub fn with_loads(mut self, force: DVec3, torque: DVec3) -> Self {
        self.applied_force = force;
        self.applied_torque = torque;
        self
    }

    /// Sets the first tangent direction `t1`.
    pub fn with_tangent(mut self, t1: DVec3) -> Self {
        self.tangent = Some(t1);
        self
    }

    /// Sets the angular velocity.
    pub fn with_omega(mut self, omega: DVec3) -> Self {
        self.omega = omega;
        self
    }

    /// Sets the relative radius-of-curvature tensor `Q` (world frame).
    pub fn with_curvature_radius(mut self, q: DMat3) -> Self {
        self.curvature_radius = q;
        self
    }

    /// Adds an ideal bilateral constraint.
    pub fn with_constraint(mut self, c: BilateralConstraint) -> Self {
        self.constraints.push(c);
        self
    }

    fn prepare(&self) -> Result<Prepared, E> {
        check_f(self.mass, "mass")?;
        if self.mass <= 0.0 {
            return Err(E::NonPositiveMass);
        }
        check_inertia(self.inertia_world)?;
        check_v(self.com, "com")?;
        check_v(self.contact_point, "contact point")?;
        check_v(self.normal, "normal")?;
        check_f(self.mu, "mu")?;
        if self.mu < 0.0 {
            return Err(E::NegativeFriction);
        }
        check_v(self.omega, "omega")?;
        check_m(self.curvature_radius, "curvature radius")?;
        check_v(self.applied_force, "applied force")?;
        check_v(self.applied_torque, "applied torque")?;
        for c in &self.constraints {
            check_v(c.lin, "constraint")?;
            check_v(c.ang, "constraint")?;
            check_f(c.rhs, "constraint")?;
        }
        let nl = self.normal.length();
        if !(nl > 1e-12) {
            return Err(E::ZeroNormal);
        }
        let n = self.normal / nl;
        check_curvature(self.curvature_radius, n)?;
        let t1 = match self.tangent {
            Some(t) => {
                let p = t - n * t.dot(n);
                if !(p.length() > 1e-9 * t.length().max(1e-300)) {
                    return Err(E::DegenerateGeometry("tangent parallel to normal"));
                }
                p.normalize()
            }
            None => any_perpendicular(n),
        };
        let t2 = n.cross(t1);
        let r = self.contact_point - self.com;
        let w = self.omega;
        let wn = w.cross(n);
        let mut drift = self.curvature_radius * wn;
        drift -= n * drift.dot(n);
        let kappa = w.cross(w.cross(r)) + w.cross(drift);
        let torque_rhs = self.applied_torque - w.cross(self.inertia_world * w);
        Ok(Prepared { r, n, t1, t2, kappa, torque_rhs })
    }

    /// The `sz × sz` system with the Newton–Euler rows for `(a_C, ω̇)` (mass, inertia, applied
    /// force, torque with the gyroscopic term) and the bilateral constraints (rows and
    /// reaction columns `6…6+nc`) filled in; the caller adds the contact columns and rows.
    fn newton_euler_system(&self, p: &Prepared, sz: usize) -> (DMatrix<f64>, DVector<f64>) {
        let mut a = DMatrix::<f64>::zeros(sz, sz);
        let mut b = DVector::<f64>::zeros(sz);
        let jm = self.inertia_world;
        for i in 0..3 {
            a[(i, i)] = self.mass;
            for k in 0..3 {
                a[(3 + i, 3 + k)] = jm.col(k)[i];
            }
            b[i] = self.applied_force[i];
            b[3 + i] = p.torque_rhs[i];
        }
        for (ci, c) in self.constraints.iter().enumerate() {
            for i in 0..3 {
                a[(i, 6 + ci)] = -c.lin[i];
                a[(3 + i, 6 + ci)] = -c.ang[i];
                a[(6 + ci, i)] = c.lin[i];
                a[(6 + ci, 3 + i)] = c.ang[i];
            }
            b[6 + ci] = c.rhs;
        }
        (a, b)
    }

    /// Slip-limit solve (docs/realizability.md §1.7): prescribed friction `−μN λ`; returns `(v̇_P, N)`.
    fn slip_solve(&self, p: &Prepared, lambda: DVec3) -> Option<(DVec3, f64)> {
        let nc = self.constraints.len();
        let sz = 7 + nc;
        let e = p.n - lambda * self.mu;
        let re = p.r.cross(e);
        let rn = p.r.cross(p.n);
        let (mut a, mut b) = self.newton_euler_system(p, sz);
        let ncol = 6 + nc;
        for i in 0..3 {
            a[(i, ncol)] = -e[i];
            a[(3 + i, ncol)] = -re[i];
            a[(sz - 1, i)] = p.n[i];
            a[(sz - 1, 3 + i)] = rn[i];
        }
        b[sz - 1] = -p.n.dot(p.kappa);
        let x = solve_dense(a, b)?;
        let ac = DVec3::new(x[0], x[1], x[2]);
        let al = DVec3::new(x[3], x[4], x[5]);
        let vdot = ac + al.cross(p.r) + p.kappa;
        Some((vdot, x[ncol]))
    }

    /// Rolling solve: `(a_C, ω̇, F)` with `a_C + ω̇ × r = −κ`.
    fn rolling_solve(&self, p: &Prepared) -> Option<(DVec3, DVec3, DVec3)> {
        let nc = self.constraints.len();
        let sz = 9 + nc;
        let (mut a, mut b) = self.newton_euler_system(p, sz);
        let rx = skew(p.r);
        let fcol = 6 + nc;
        let krow = 6 + nc;
        for i in 0..3 {
            a[(i, fcol + i)] = -1.0;
            for k in 0..3 {
                a[(3 + i, fcol + k)] = -rx.col(k)[i];
                a[(krow + i, 3 + k)] = -rx.col(k)[i];
            }
            a[(krow + i, i)] = 1.0;
            b[krow + i] = -p.kappa[i];
        }
        let x = solve_dense(a, b)?;
        Some((
            DVec3::new(x[0], x[1], x[2]),
            DVec3::new(x[3], x[4], x[5]),
            DVec3::new(x[fcol], x[fcol + 1], x[fcol + 2]),
        ))
    }

    /// The limit field at slip angle `φ`: `(F1*, F2*, N)` (tangential slip accelerations in
    /// the `(t1, t2)` frame and the normal force), or `None` if the solve is singular.
    pub fn limit_field(&self, phi: f64) -> Result<Option<(f64, f64, f64)>, E> {
        let p = self.prepare()?;
        let (s, c) = phi.sin_cos();
        Ok(self.slip_solve(&p, p.t1 * c + p.t2 * s).map(|(v, n)| (v.dot(p.t1), v.dot(p.t2), n)))
    }

    /// Runs the analysis (docs/realizability.md §2.8–2.9).
    pub fn analyze(&self) -> Result<SingleContactReport, E> {
        let p = self.prepare()?;
        let mut reasons = Vec::new();
        let (acc, alpha, force) = match self.rolling_solve(&p) {
            Some(x) => x,
            None => return Err(E::SingularSystem("rolling solve")),
        };
        let ns = force.dot(p.n);
        let f = force - p.n * ns;
        if !ns.is_finite() {
            reasons.push("rolling solve: non-finite normal force".into());
        }
        // Unilateral contact: N ≤ 0 is lift-off (a verdict), not an ill-posed problem.
        let lift_off = !(ns > 0.0);
        let fl = f.length();
        let utilization = if fl == 0.0 { 0.0 } else { fl / (self.mu * ns) };
        let utilization = if utilization.is_nan() || lift_off { f64::INFINITY } else { utilization };
        // 8 samples of the slip-limit field (§2.8).
        let mut vh = [0.0; 8];
        let mut rh = [0.0; 8];
        let mut inv_n = [0.0; 8];
        let mut fs = [[0.0; 2]; 8];
        let mut scale = 0.0f64;
        for k in 0..8 {
            let phi = 2.0 * PI * k as f64 / 8.0;
            let (s, c) = phi.sin_cos();
            let (vd, n) = match self.slip_solve(&p, p.t1 * c + p.t2 * s) {
                Some(x) => x,
                None => return Err(E::SingularSystem("slip-limit solve")),
            };
            let f1 = vd.dot(p.t1);
            let f2 = vd.dot(p.t2);
            fs[k] = [f1, f2];
            scale = scale.max(f1.abs()).max(f2.abs());
            if !(n.is_finite() && n != 0.0) {
                if !lift_off {
                    reasons.push(format!("slip-limit normal force {n:.6e} singular at φ = {phi:.4}"));
                }
                inv_n[k] = 1.0;
                continue;
            }
            vh[k] = (-f1 * s + f2 * c) / n;
            rh[k] = (f1 * c + f2 * s) / n;
            inv_n[k] = 1.0 / n;
        }
        let vhat = TrigPoly2::from_samples8(&vh);
        let rhat = TrigPoly2::from_samples8(&rh);
        // 1/N is a degree-1 trigonometric polynomial (D₀ − μ k·λ)/E₀.
        let ip = TrigPoly2::from_samples8(&inv_n);
        let ip_amp = (ip.a1 * ip.a1 + ip.b1 * ip.b1).sqrt();
        // 1/N = (D₀ − μ k·λ)/E₀: a sign change over λ means D₀ − μ k·λ = 0 somewhere, a
        // singular slip solve (Painlevé-type). A uniformly negative N is lift-off.
        if reasons.is_empty() && !lift_off && !(ip.a0 - ip_amp > 0.0) {
            reasons.push("normal force changes sign over slip directions (Painlevé-type)".into());
        }
        let coupled = ip_amp > 1e-10 * ip.a0.abs();
        let well_posed = reasons.is_empty();
        let limit = analyze_polys(&vhat, &rhat, &|phi| 1.0 / ip.eval(phi), p.t1, p.t2, scale);
        let (uncoupled, principal) = if coupled {
            (None, None)
        } else {
            let h = |k: usize, i: usize| fs[k][i];
            let field = PlanarLimitField {
                m: [
                    [0.5 * (h(0, 0) - h(4, 0)), 0.5 * (h(2, 0) - h(6, 0))],
                    [0.5 * (h(0, 1) - h(4, 1)), 0.5 * (h(2, 1) - h(6, 1))],
                ],
                c: [0.5 * (h(0, 0) + h(4, 0)), 0.5 * (h(0, 1) + h(4, 1))],
            };
            (Some(field), Some(field.principal_form()))
        };
        let rolling_realizable = well_posed && !lift_off && limit.all_attracting;
        let escape_direction =
            if lift_off { None } else { limit.directions.iter().find(|d| d.r > 0.0).map(|d| d.slip_dir) };
        Ok(SingleContactReport {
            well_posed,
            ill_posed_reasons: reasons,
            frame: [p.t1, p.t2, p.n],
            normal_force_rolling: ns,
            static_friction: f,
            utilization,
            margin: 1.0 - utilization,
            coupled,
            uncoupled,
            principal,
            theorem4_consistent: lift_off || (utilization < 1.0) == rolling_realizable,
            limit,
            lift_off,
            rolling_realizable,
            escape_direction,
            rolling_acceleration: (acc, alpha),
            field: SlipField { v_hat: vhat, r_hat: rhat, inv_n: ip },
        })
    }
}

/// Sticking of a block pushed by a horizontal force `load` on a horizontal plane
/// (\[004\] §4.1, docs/realizability.md §7.1 S6): returns `(possible, realizable)` where *possible* is the
/// static Coulomb check `|L| ≤ μ_s m g` and *realizable* the one-sided-limit check
/// `lim_{u→0±} u u̇ ≤ 0` of the slipping dynamics `u̇ = L/m − μ_s g sgn u`.
pub fn block_sticking(load: f64, mass: f64, g: f64, mu_s: f64) -> (bool, bool) {
    let possible = load.abs() <= mu_s * mass * g;
    let up = load / mass - mu_s * g; // u → 0⁺
    let um = load / mass + mu_s * g; // u → 0⁻
    let realizable = up <= 0.0 && -um <= 0.0;
    (possible, realizable)
}
