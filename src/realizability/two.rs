//! Two contact points: realizability of two-point rolling (\[004\], docs/realizability.md §3).
//!
//! A rigid body touches fixed surfaces at `P⁺ = contacts[0]` and `P⁻ = contacts[1]`. At a
//! two-point rolling state (case RR, the set `Σ#`) the contact forces are indeterminate (an
//! internal force along the chord `P⁻P⁺` is free), so the static Coulomb inequalities cannot
//! be checked. Realizability (Definition 11 of \[004\]) uses only the slipping fields:
//!
//! 1. no limit direction of the two-point slipping field `F_SS` at `Σ#` is repelling;
//! 2. `Σ#` is an attracting sliding point of `F_RS` (`P⁺` rolls, `P⁻` slips);
//! 3. `Σ#` is an attracting sliding point of `F_SR` (`P⁻` rolls, `P⁺` slips).
//!
//! The contacts are unilateral (docs/realizability.md §3.11): a slip mode whose normal force
//! would be negative is not a mode of the body, and lift-off of either contact (the other
//! contact rolling, slipping or free) is a fourth transition, `LIFT+` / `LIFT-`.
//!
//! Computation (docs/realizability.md §3.8, with an engineering change in step 5): everything is expressed
//! through the 6×6 contact mobility (Delassus) matrix `W` in the contact frames and the
//! free contact-point accelerations `b`. The SS limit field depends on the slip direction
//! `d ∈ S²` (coordinates `(u1⁺, u1⁻, u_a)`) only through the two friction angles
//! `(θ⁺, θ⁻)` on a torus; after clearing the (positive) determinant `D` of the normal-force
//! system the two limit-direction conditions `g⁺ = g⁻ = 0` are trigonometric polynomials of
//! bidegree (2,1) and (1,2), whose coefficients are obtained exactly from a few evaluations.
//! Scan A takes slices in `θ⁻`, solves `g⁻ = 0` for `θ⁺` in closed form (a line meets the unit
//! circle: two branches joined at folds) and tracks the sign of `g⁺` along both branches;
//! scan B does the same with the roles exchanged. Slices are refined adaptively: a rigorous
//! bound on `|Δ''|` (`Δ` = discriminant of the line–circle intersection, degree 4), used with
//! the chord and with the exact slopes `Δ'` at the slices (Taylor bounds), excludes small
//! loops of the curve between slices and isolates single folds, which are located by a
//! safeguarded Newton iteration on `Δ`; fast branches are
//! subdivided; a midpoint test with golden-section search catches close root pairs. A close
//! pair on one curve caused by a turning point of the other curve is a fold path of the other
//! scan. Sign changes are refined by a safeguarded secant method and every candidate is
//! validated on the unreduced field. This replaces the 20 000-point sphere lattice of
//! docs/realizability.md §3.8 step 5 (≈ 1000× cheaper); the tests compare it against a dense lattice search
//! with Gauss–Newton refinement and against rotated / contact-swapped copies of thousands of
//! random bodies.

use super::linalg::{check_curvature, check_f, check_inertia, check_m, check_v, skew};
use super::RealizabilityError as E;
use glam::{DMat3, DVec3};
use nalgebra::{Matrix4, Matrix6, Vector4, Vector6};
use std::f64::consts::PI;
use std::fmt;

/// One contact point of a [`TwoContactProblem`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ContactSpec {
    /// Contact point (world) \[m\].
    pub point: DVec3,
    /// Normal of the fixed surface at the point, into the body (normalised internally).
    pub normal: DVec3,
    /// Friction coefficient at zero slip `μ₀` (≥ 0).
    pub mu: f64,
    /// Relative radius-of-curvature tensor `Q = (S_b + S_e)⁻¹` on the tangent plane (world,
    /// symmetric PSD; default zero; only used when the spin `Ω_a ≠ 0`).
    pub curvature_radius: DMat3,
}

impl ContactSpec {
    /// A contact with zero curvature radius tensor.
    pub fn new(point: DVec3, normal: DVec3, mu: f64) -> Self {
        ContactSpec { point, normal, mu, curvature_radius: DMat3::ZERO }
    }

    /// Sets the relative radius-of-curvature tensor `Q`.
    pub fn with_curvature_radius(mut self, q: DMat3) -> Self {
        self.curvature_radius = q;
        self
    }
}

/// Numerical options of the two-contact analysis.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Options {
    /// Number of `θ⁻` slices of the torus scan (default 24, minimum 16; slices are refined adaptively).
    pub scan_samples: usize,
    /// Relative tolerance for marginal decisions (× reference acceleration; default 1e-9).
    pub rel_tol: f64,
    /// Exclusion radius around the single-slip directions `±e_{u1±}` (default 1e-5).
    pub exclusion_tol: f64,
}

impl Default for Options {
    fn default() -> Self {
        Options { scan_samples: 24, rel_tol: 1e-9, exclusion_tol: 1e-5 }
    }
}

/// A rigid body with two contact points at a two-point rolling state.
#[derive(Clone, Debug, PartialEq)]
pub struct TwoContactProblem {
    /// Mass \[kg\] (> 0).
    pub mass: f64,
    /// Inertia tensor about the centre of mass, world axes \[kg m²\] (SPD).
    pub inertia_world: DMat3,
    /// Centre of mass \[m\].
    pub com: DVec3,
    /// `[P⁺, P⁻]`.
    pub contacts: [ContactSpec; 2],
    /// Applied force at the centre of mass, gravity included \[N\].
    pub applied_force: DVec3,
    /// Applied torque about the centre of mass \[N m\].
    pub applied_torque: DVec3,
    /// Spin `Ω_a` about the chord `a = (P⁺ − P⁻)/‖P⁺ − P⁻‖` \[rad/s\] (the only angular
    /// velocity compatible with two-point rolling).
    pub spin: f64,
    /// Numerical options.
    pub options: Options,
}

/// A transition out of two-point rolling.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Transition {
    /// `P⁺` keeps rolling, `P⁻` starts to slip.
    RS,
    /// `P⁻` keeps rolling, `P⁺` starts to slip.
    SR,
    /// Both contacts start to slip.
    SS,
    /// `P⁺` leaves its surface (lift-off); `P⁻` keeps contact (docs/realizability.md §3.11).
    LiftPlus,
    /// `P⁻` leaves its surface (lift-off); `P⁺` keeps contact.
    LiftMinus,
}

impl Transition {
    /// `"RS"`, `"SR"`, `"SS"`, `"LIFT+"` or `"LIFT-"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Transition::RS => "RS",
            Transition::SR => "SR",
            Transition::SS => "SS",
            Transition::LiftPlus => "LIFT+",
            Transition::LiftMinus => "LIFT-",
        }
    }
}

impl fmt::Display for Transition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Overall verdict.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// All three conditions of Definition 11 hold strictly.
    Realizable,
    /// At least one condition fails strictly.
    NotRealizable,
    /// A deciding quantity is within tolerance of zero (boundary of the region).
    Marginal,
    /// A system is singular (Painlevé-type, or the normal-force system of two-point slip
    /// degenerates for some direction): no verdict. Non-positive normal forces are not
    /// ill-posed: such slip modes are not modes of the body (unilateral contacts,
    /// docs/realizability.md §3.11).
    IllPosed,
}

/// Contact geometry (docs/realizability.md §3.1).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Geometry {
    /// Unit chord `a` from `P⁻` to `P⁺`.
    pub a: DVec3,
    /// `t1± = a × n± / ‖·‖`.
    pub t1: [DVec3; 2],
    /// `t2± = n± × t1±`.
    pub t2: [DVec3; 2],
    /// Unit normals `n±`.
    pub n: [DVec3; 2],
    /// `c± = 1/(t2±·a) ≥ 1`.
    pub c: [f64; 2],
    /// `r± = P± − C`.
    pub r: [DVec3; 2],
}

/// Two-point rolling solve (accelerations unique, forces up to the internal chord force).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RrInfo {
    /// Acceleration of the centre of mass [m/s²].
    pub acc_com: DVec3,
    /// Angular acceleration [rad/s²] (parallel to `a` when `Ω_a = 0`).
    pub ang_acc: DVec3,
    /// `a·ω̇`.
    pub spin_acc: f64,
    /// A particular solution `(F⁺₀, F⁻₀)`; the family is `F⁺₀ + τa`, `F⁻₀ − τa`.
    pub forces: [DVec3; 2],
    /// Residual of the rolling equations [m/s²].
    pub residual: f64,
    /// Interval of `τ` for which both forces lie in their Coulomb cones with `N > 0`
    /// (ends may be infinite), or `None` (rolling not *possible*).
    pub possible_interval: Option<(f64, f64)>,
    /// Wedge margin `max_τ min(μ⁺N⁺(τ) − ‖T⁺(τ)‖, μ⁻N⁻(τ) − ‖T⁻(τ)‖)` \[N\] (docs/realizability.md §3.10):
    /// `> 0` ⇔ strictly admissible rolling forces exist.
    pub wedge_margin: f64,
    /// Friction utilisation of `P⁻` with `t2⁻·F⁻ = 0` (docs/realizability.md §3.10: `RS_ok ⇔ η_RS < 1`).
    pub eta_rs: f64,
    /// Friction utilisation of `P⁺` with `t2⁺·F⁺ = 0` (`SR_ok ⇔ η_SR < 1`).
    pub eta_sr: f64,
}

/// One-point slip check (RS or SR, docs/realizability.md §3.6).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OneSlipCheck {
    /// Slip acceleration `t1·v̇` of the slipping contact for `σ = +1` and `σ = −1` [m/s²].
    pub slip_acc: [f64; 2],
    /// Normal force at the rolling contact for `σ = ±1` \[N\].
    pub normal_rolling: [f64; 2],
    /// Normal force at the slipping contact for `σ = ±1` \[N\].
    pub normal_slipping: [f64; 2],
    /// `slip_acc[0] < 0 < slip_acc[1]` (attracting sliding point).
    pub attracting: bool,
    /// `min(−slip_acc[0], slip_acc[1])` [m/s²] (> 0 ⇔ attracting).
    pub margin: f64,
    /// Signs `σ` with `σ s(σ) > 0` whose mode exists: slip can start along `σ t1` of the
    /// slipping contact.
    pub escape_sigma: [bool; 2],
    /// Whether the one-sided slip mode `σ = ±1` is a mode of the body: both normal forces
    /// `≥ 0` (within tolerance). A side with a negative normal force imposes no condition
    /// (unilateral contacts, docs/realizability.md §3.11).
    pub mode: [bool; 2],
}

/// What the kept contact does in a lift-off check (docs/realizability.md §3.11).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeptContact {
    /// The kept contact rolls (its static friction is admissible, `η < 1`).
    Rolls,
    /// The kept contact slips along its repelling limit direction (`η ≥ 1`).
    Slips,
    /// The kept contact is unloaded as well (free motion of the body).
    Free,
}

/// Lift-off check of one contact: the force system of the other (kept) contact with this one
/// released (docs/realizability.md §3.11).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LiftCheck {
    /// Normal acceleration of the released contact point away from its surface [m/s²]
    /// (`> 0`: the contact opens).
    pub separation_acc: f64,
    /// Mode of the kept contact used for the check.
    pub kept: KeptContact,
    /// Normal force at the kept contact in that mode \[N\] (`0` when free).
    pub kept_normal_force: f64,
    /// `−separation_acc` [m/s²] (`> 0`: no lift-off).
    pub margin: f64,
}

/// Angular type of a two-contact limit direction (docs/realizability.md §3.8 step 5, [E], diagnostic only):
/// from the eigenvalues of the Jacobian of the tangential field `h(d) = F* − (F*·d) d` on the
/// sphere of directions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AngularType {
    /// Both eigenvalues negative: neighbouring slip directions turn toward it.
    StableNode,
    /// Eigenvalues of opposite sign.
    Saddle,
    /// Both eigenvalues positive.
    UnstableNode,
    /// Complex pair with negative real part.
    StableFocus,
    /// Complex pair with positive real part.
    UnstableFocus,
    /// A zero eigenvalue or real part (within tolerance), or not computable.
    Degenerate,
}

/// A limit direction of the two-point slipping field at `Σ#`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SsLimitDirection {
    /// Unit direction in `(u1⁺, u1⁻, u_a)` coordinates.
    pub d: DVec3,
    /// `φ⁺ = atan2(d3, d1)` \[rad\].
    pub phi_plus: f64,
    /// `φ⁻ = atan2(d3, d2)` \[rad\].
    pub phi_minus: f64,
    /// Radial part `R = F*(d)·d` [m/s²]: `< 0` attracting.
    pub r: f64,
    /// `R < 0`.
    pub attracting: bool,
    /// Normal forces `(N⁺, N⁻)` in this limit \[N\].
    pub normal_forces: [f64; 2],
    /// Unit physical slip directions at `P⁺`, `P⁻` (world).
    pub slip_dirs: [DVec3; 2],
    /// Angular type (diagnostic).
    pub angular_type: AngularType,
}

/// The SS analysis (docs/realizability.md §3.5, step 5).
#[derive(Clone, Debug, PartialEq)]
pub struct SsInfo {
    /// Limit directions.
    pub directions: Vec<SsLimitDirection>,
    /// Roots that converged onto the excluded single-slip directions `±e_{u1±}`.
    pub boundary_roots: Vec<DVec3>,
    /// No limit direction exists (the SS condition then holds vacuously).
    pub no_limit_directions: bool,
    /// `−max R` over the directions (+∞ if none) [m/s²].
    pub margin: f64,
    /// `N⁺ > 0` and `N⁻ > 0` for every two-point slip direction (the bilateral analysis of
    /// \[004\] applies unchanged; always the case for the ball in the trough with `μ < 1`).
    pub all_pressed: bool,
    /// Limit directions of the two-point slipping field whose normal force `N⁺` or `N⁻` is
    /// negative: not modes of the body (unilateral contacts, docs/realizability.md §3.11), listed
    /// for information, not used by the verdict.
    pub excluded: Vec<SsLimitDirection>,
}

/// Result of [`TwoContactProblem::realizability`] (docs/realizability.md §3.9).
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    /// Geometry.
    pub geometry: Geometry,
    /// Every solve is regular (no singular system).
    pub well_posed: bool,
    /// Reasons when not well posed.
    pub ill_posed_reasons: Vec<String>,
    /// Two-point rolling solve.
    pub rr: RrInfo,
    /// `P⁺` rolls, `P⁻` slips.
    pub rs: OneSlipCheck,
    /// `P⁻` rolls, `P⁺` slips.
    pub sr: OneSlipCheck,
    /// Two-point slipping limit directions.
    pub ss: SsInfo,
    /// Lift-off checks: `[P⁺ leaves (P⁻ kept), P⁻ leaves (P⁺ kept)]` (docs/realizability.md §3.11).
    pub lift: [LiftCheck; 2],
    /// Transitions that can start (failed or marginal conditions).
    pub transitions: Vec<Transition>,
    /// Definition 11 verdict with unilateral contacts (strict; `false` when marginal or ill
    /// posed).
    pub realizable: bool,
    /// Signed margin `min(RS margin, SR margin, SS margin)` [m/s²], and the lift-off margins
    /// when a contact opens: `> 0` ⇔ realizable (when well posed); `0` when ill posed.
    pub margin: f64,
    /// Reference acceleration used for tolerances [m/s²].
    pub accel_ref: f64,
    /// Verdict.
    pub status: Status,
    /// `realizable == (η_RS < 1 ∧ η_SR < 1 ∧ possible)` (docs/realizability.md §3.10, conjectured closed form).
    pub force_based_agrees: bool,
}

#[derive(Clone, Debug)]
pub(crate) struct Prepared {
    pub geo: Geometry,
    pub mu: [f64; 2],
    /// Contact mobility in the local frames `(t1⁺, t2⁺, n⁺, t1⁻, t2⁻, n⁻)`.
    pub wl: [[f64; 6]; 6],
    /// Free contact-point accelerations in the local frames.
    pub bl: [f64; 6],
    /// World blocks `W_kj`.
    pub w: [[DMat3; 2]; 2],
    /// World free accelerations `b_k`.
    pub b: [DVec3; 2],
    pub jinv: DMat3,
    pub alpha0: DVec3,
    pub a_ref: f64,
}

/// Cleared SS evaluation at a torus point: `D`, `D N±`, `D (t1⁺, t2⁺, t1⁻, t2⁻)·v̇±`.
#[derive(Clone, Copy, Debug)]
struct SsEval {
    d: f64,
    dnp: f64,
    dnm: f64,
    dv: [f64; 4],
}

impl SsEval {
    fn gp(&self, cp: f64, sp: f64) -> f64 {
        -sp * self.dv[0] + cp * self.dv[1]
    }
    fn gm(&self, cm: f64, sm: f64) -> f64 {
        -sm * self.dv[2] + cm * self.dv[3]
    }
}

impl Prepared {
    #[inline]
    fn ss_eval(&self, cp: f64, sp: f64, cm: f64, sm: f64) -> SsEval {
        let wl = &self.wl;
        let (m0, m1) = (self.mu[0], self.mu[1]);
        let ep = [-m0 * cp, -m0 * sp];
        let em = [-m1 * cm, -m1 * sm];
        let mut wp = [0.0; 6];
        let mut wm = [0.0; 6];
        for i in 0..6 {
            wp[i] = wl[i][0] * ep[0] + wl[i][1] * ep[1] + wl[i][2];
            wm[i] = wl[i][3] * em[0] + wl[i][4] * em[1] + wl[i][5];
        }
        let (app, apm, amp, amm) = (wp[2], wm[2], wp[5], wm[5]);
        let (bp, bm) = (self.bl[2], self.bl[5]);
        let d = app * amm - apm * amp;
        let dnp = -bp * amm + apm * bm;
        let dnm = -bm * app + amp * bp;
        let dv = [
            d * self.bl[0] + wp[0] * dnp + wm[0] * dnm,
            d * self.bl[1] + wp[1] * dnp + wm[1] * dnm,
            d * self.bl[3] + wp[3] * dnp + wm[3] * dnm,
            d * self.bl[4] + wp[4] * dnp + wm[4] * dnm,
        ];
        SsEval { d, dnp, dnm, dv }
    }

    /// `F* = (u̇1⁺, u̇1⁻, u̇_a)` and `N±` at a torus point.
    fn field_at(&self, cp: f64, sp: f64, cm: f64, sm: f64) -> (DVec3, [f64; 2]) {
        let e = self.ss_eval(cp, sp, cm, sm);
        let f = DVec3::new(e.dv[0] / e.d, e.dv[2] / e.d, e.dv[1] / (e.d * self.geo.c[0]));
        (f, [e.dnp / e.d, e.dnm / e.d])
    }

    /// Torus angles (as cos/sin) of a direction `d` in `(u1⁺, u1⁻, u_a)`.
    fn torus_of(&self, d: DVec3) -> Option<(f64, f64, f64, f64)> {
        let [cpl, cmi] = self.geo.c;
        let lp = (d.x * d.x + (cpl * d.z).powi(2)).sqrt();
        let lm = (d.y * d.y + (cmi * d.z).powi(2)).sqrt();
        if lp == 0.0 || lm == 0.0 {
            return None;
        }
        Some((d.x / lp, cpl * d.z / lp, d.y / lm, cmi * d.z / lm))
    }
}

impl TwoContactProblem {
    /// A problem with default options and zero spin.
    pub fn new(
        mass: f64,
        inertia_world: DMat3,
        com: DVec3,
        contacts: [ContactSpec; 2],
        applied_force: DVec3,
        applied_torque: DVec3,
    ) -> Self {
        TwoContactProblem {
            mass,
            inertia_world,
            com,
            contacts,
            applied_force,
            applied_torque,
            spin: 0.0,
            options: Options::default(),
        }
    }

    /// Sets the spin `Ω_a` about the chord.
    pub fn with_spin(mut self, spin: f64) -> Self {
        self.spin = spin;
        self
    }

    /// Sets the numerical options.
    pub fn with_options(mut self, options: Options) -> Self {
        self.options = options;
        self
    }

    pub(crate) fn prepare(&self) -> Result<Prepared, E> {
        check_f(self.mass, "mass")?;
        if self.mass <= 0.0 {
            return Err(E::NonPositiveMass);
        }
        let jinv = check_inertia(self.inertia_world)?;
        check_v(self.com, "com")?;
        check_v(self.applied_force, "applied force")?;
        check_v(self.applied_torque, "applied torque")?;
        check_f(self.spin, "spin")?;
        let mut n = [DVec3::ZERO; 2];
        let mut r = [DVec3::ZERO; 2];
        for k in 0..2 {
            let c = &self.contacts[k];
            check_v(c.point, "contact point")?;
            check_v(c.normal, "contact normal")?;
            check_f(c.mu, "mu")?;
            check_m(c.curvature_radius, "curvature radius")?;
            if c.mu < 0.0 {
                return Err(E::NegativeFriction);
            }
            let l = c.normal.length();
            if !(l > 1e-12) {
                return Err(E::ZeroNormal);
            }
            n[k] = c.normal / l;
            check_curvature(c.curvature_radius, n[k])?;
            r[k] = c.point - self.com;
        }
        let chord = r[0] - r[1];
        let ell = r[0].length().max(r[1].length()).max(chord.length());
        if !(chord.length() > 1e-9 * ell) || ell == 0.0 {
            return Err(E::DegenerateGeometry("coincident contact points"));
        }
        let a = chord.normalize();
        let mut t1 = [DVec3::ZERO; 2];
        let mut t2 = [DVec3::ZERO; 2];
        let mut cc = [0.0; 2];
        for k in 0..2 {
            let x = a.cross(n[k]);
            if !(x.length() > 1e-6) {
                return Err(E::DegenerateGeometry("chord parallel to a contact normal"));
            }
            t1[k] = x.normalize();
            t2[k] = n[k].cross(t1[k]);
            cc[k] = 1.0 / t2[k].dot(a);
        }
        let m = self.mass;
        let omega = a * self.spin;
        let gyr = omega.cross(self.inertia_world * omega);
        let alpha0 = jinv * (self.applied_torque - gyr);
        let mut b = [DVec3::ZERO; 2];
        for k in 0..2 {
            let mut drift = self.contacts[k].curvature_radius * omega.cross(n[k]);
            drift -= n[k] * drift.dot(n[k]);
            let kappa = omega.cross(omega.cross(r[k])) + omega.cross(drift);
            b[k] = self.applied_force / m + alpha0.cross(r[k]) + kappa;
        }
        let mut w = [[DMat3::ZERO; 2]; 2];
        for k in 0..2 {
            for j in 0..2 {
                w[k][j] = DMat3::IDENTITY * (1.0 / m) - skew(r[k]) * jinv * skew(r[j]);
            }
        }
        let frames = [[t1[0], t2[0], n[0]], [t1[1], t2[1], n[1]]];
        let mut wl = [[0.0; 6]; 6];
        let mut bl = [0.0; 6];
        for k in 0..2 {
            for p in 0..3 {
                bl[3 * k + p] = frames[k][p].dot(b[k]);
                for j in 0..2 {
                    for q in 0..3 {
                        wl[3 * k + p][3 * j + q] = frames[k][p].dot(w[k][j] * frames[j][q]);
                    }
                }
            }
        }
        let a_ref = (self.applied_force.length() / m)
            .max(self.applied_torque.length() / (m * ell))
            .max(self.spin * self.spin * ell)
            .max(1e-300);
        Ok(Prepared {
            geo: Geometry { a, t1, t2, n, c: cc, r },
            mu: [self.contacts[0].mu, self.contacts[1].mu],
            wl,
            bl,
            w,
            b,
            jinv,
            alpha0,
            a_ref,
        })
    }

    /// The SS limit field `F*(d) = (u̇1⁺, u̇1⁻, u̇_a)` and normal forces `(N⁺, N⁻)` for a slip
    /// direction `d` in `(u1⁺, u1⁻, u_a)` coordinates (docs/realizability.md §3.8 step 4). `Ok(None)` for the
    /// excluded directions (`d` with a zero slip at one contact) or a singular system.
    pub fn ss_limit_field(&self, d: DVec3) -> Result<Option<(DVec3, [f64; 2])>, E> {
        let p = self.prepare()?;
        let Some((cp, sp, cm, sm)) = p.torus_of(d) else { return Ok(None) };
        let (f, n) = p.field_at(cp, sp, cm, sm);
        if f.is_finite() && n[0].is_finite() && n[1].is_finite() {
            Ok(Some((f, n)))
        } else {
            Ok(None)
        }
    }

    /// Runs the realizability analysis (Definition 11 of \[004\], docs/realizability.md §3.8–3.9).
    pub fn realizability(&self) -> Result<Report, E> {
        let p = self.prepare()?;
        let tol = self.options.rel_tol.max(0.0) * p.a_ref;
        let tol_n = 1e-12 * self.mass * p.a_ref;
        let mut reasons: Vec<String> = Vec::new();

        let rr = rr_solve(self, &p)?;
        let rs = one_slip(&p, 0, 1, tol, tol_n, &mut reasons)?;
        let sr = one_slip(&p, 1, 0, tol, tol_n, &mut reasons)?;
        let ss = ss_analysis(&p, &self.options, tol, tol_n, &mut reasons);
        let lift = [self.lift_check(&p, 1, 0, tol, tol_n), self.lift_check(&p, 0, 1, tol, tol_n)];

        let well_posed = reasons.is_empty();
        let mut transitions = Vec::new();
        if rs.margin <= tol {
            transitions.push(Transition::RS);
        }
        if sr.margin <= tol {
            transitions.push(Transition::SR);
        }
        if ss.margin <= tol {
            transitions.push(Transition::SS);
        }
        let mut margin_raw = rs.margin.min(sr.margin).min(ss.margin);
        for (l, t) in lift.iter().zip([Transition::LiftPlus, Transition::LiftMinus]) {
            // A closed contact's lift margin is reported in `lift`; it enters the overall
            // margin only when the contact opens (or is marginal).
            if l.margin <= tol {
                transitions.push(t);
                margin_raw = margin_raw.min(l.margin);
            }
        }
        if margin_raw == f64::INFINITY {
            // No slip mode of the body exists and no contact opens: the closest boundary is
            // the smaller separation margin.
            margin_raw = lift[0].margin.min(lift[1].margin);
        }
        let (status, realizable, margin) = if !well_posed {
            (Status::IllPosed, false, 0.0)
        } else if margin_raw.abs() <= tol {
            (Status::Marginal, false, margin_raw)
        } else if margin_raw > 0.0 {
            (Status::Realizable, true, margin_raw)
        } else {
            (Status::NotRealizable, false, margin_raw)
        };
        let force_based = rr.eta_rs < 1.0 && rr.eta_sr < 1.0 && rr.possible_interval.is_some();
        Ok(Report {
            geometry: p.geo,
            well_posed,
            ill_posed_reasons: reasons,
            rr,
            rs,
            sr,
            ss,
            lift,
            transitions,
            realizable,
            margin,
            accel_ref: p.a_ref,
            status,
            force_based_agrees: force_based == realizable,
        })
    }
}

impl TwoContactProblem {
    /// Lift-off of contact `rel` with contact `keep` holding (docs/realizability.md §3.11): the
    /// kept contact rolls if its static friction is admissible, else slips along its repelling
    /// limit direction (Theorem 4 of \[003\]); free motion if it is unloaded too. Returns the
    /// normal acceleration of the released contact point in that mode.
    fn lift_check(&self, p: &Prepared, keep: usize, rel: usize, tol: f64, tol_n: f64) -> LiftCheck {
        let g = &p.geo;
        let (nk, nj) = (g.n[keep], g.n[rel]);
        let (wkk, wjk) = (p.w[keep][keep], p.w[rel][keep]);
        let (bk, bj) = (p.b[keep], p.b[rel]);
        let free = |sep: f64| LiftCheck {
            separation_acc: sep,
            kept: KeptContact::Free,
            kept_normal_force: 0.0,
            margin: -sep,
        };
        // Kept contact unloaded even without the other one: free motion.
        if !(nk.dot(bk) < 0.0) {
            return free(nj.dot(bj));
        }
        // Rolling at the kept contact: F = −W_kk⁻¹ b_k (W_kk is SPD).
        let f = -(wkk.inverse() * bk);
        let nn = nk.dot(f);
        let ft = (f - nk * nn).length();
        let mu = p.mu[keep];
        if nn > tol_n && ft < mu * nn {
            let sep = nj.dot(bj + wjk * f);
            return LiftCheck {
                separation_acc: sep,
                kept: KeptContact::Rolls,
                kept_normal_force: nn,
                margin: -sep,
            };
        }
        // The kept contact slips. With friction `N g` (‖g‖ ≤ μ, tangent), N = −n·b/(n·W(n + g))
        // and sep·(n·W(n + g)) = A0 + A·g is affine in g: no direction can open the contact if
        // its maximum over the disc is ≤ 0 (exact screen, when n·W(n + g) > 0 on the disc).
        let wn = wkk * nk;
        let wn_t = wn - nk * wn.dot(nk);
        let den_min = nk.dot(wn) - mu * wn_t.length();
        let slip_sep = |gv: DVec3| -> Option<(f64, f64)> {
            let e = nk + gv;
            let den = nk.dot(wkk * e);
            if !(den > 0.0) {
                return None;
            }
            let n = -nk.dot(bk) / den;
            Some((nj.dot(bj + wjk * (e * n)), n))
        };
        if mu == 0.0 {
            // Frictionless kept contact: F = N n.
            let (sep, n) = slip_sep(DVec3::ZERO).unwrap_or((nj.dot(bj + wjk * f), nn));
            return LiftCheck {
                separation_acc: sep,
                kept: KeptContact::Slips,
                kept_normal_force: n,
                margin: -sep,
            };
        }
        if den_min > 0.0 {
            // A0 + A·g with A0 = (n_j·b_j)(n·Wn) − (n·b_k)(n_j·W_jk n), A_t from the g terms.
            let a0 = nj.dot(bj) * nk.dot(wn) - nk.dot(bk) * nj.dot(wjk * nk);
            let av = wkk.transpose() * nk * nj.dot(bj) - wjk.transpose() * nj * nk.dot(bk);
            let at = av - nk * av.dot(nk);
            let best = a0 + mu * at.length();
            let gv = if at.length() > 0.0 { at.normalize() * mu } else { DVec3::ZERO };
            // Clearly negative: the largest separation over all slip directions is the margin
            // (a bound; near zero the repelling direction itself decides, below).
            if let Some((sep, n)) = slip_sep(gv) {
                if best <= 0.0 && sep < -tol {
                    return LiftCheck {
                        separation_acc: sep,
                        kept: KeptContact::Slips,
                        kept_normal_force: n,
                        margin: -sep,
                    };
                }
            }
        }
        // Full single-contact analysis of the kept contact: its repelling slip direction.
        let c = &self.contacts[keep];
        let single = super::single::SingleContactProblem::new(
            self.mass,
            self.inertia_world,
            self.com,
            c.point,
            c.normal,
            c.mu,
        )
        .with_loads(self.applied_force, self.applied_torque)
        .with_omega(g.a * self.spin)
        .with_curvature_radius(c.curvature_radius);
        let esc = single.analyze().ok().and_then(|r| r.escape_direction);
        match esc.and_then(|lam| slip_sep(-lam * mu)) {
            Some((sep, n)) => LiftCheck {
                separation_acc: sep,
                kept: KeptContact::Slips,
                kept_normal_force: n,
                margin: -sep,
            },
            None if !(nn > tol_n) => free(nj.dot(bj)),
            // No repelling direction (boundary η = 1): the kept contact rolls.
            None => {
                let sep = nj.dot(bj + wjk * f);
                LiftCheck {
                    separation_acc: sep,
                    kept: KeptContact::Rolls,
                    kept_normal_force: nn,
                    margin: -sep,
                }
            }
        }
    }
}

fn rr_solve(pb: &TwoContactProblem, p: &Prepared) -> Result<RrInfo, E> {
    let a = p.geo.a;
    let mut wm = Matrix6::<f64>::zeros();
    let mut rhs = Vector6::<f64>::zeros();
    let u = [a, -a];
    let tr = (0..2).map(|k| p.w[k][k].x_axis.x + p.w[k][k].y_axis.y + p.w[k][k].z_axis.z).sum::<f64>() / 6.0;
    for k in 0..2 {
        for j in 0..2 {
            for i in 0..3 {
                for l in 0..3 {
                    wm[(3 * k + i, 3 * j + l)] = p.w[k][j].col(l)[i] + 0.5 * tr * u[k][i] * u[j][l];
                }
            }
        }
        for i in 0..3 {
            rhs[3 * k + i] = -p.b[k][i];
        }
    }
    let f = wm.lu().solve(&rhs).ok_or(E::SingularSystem("two-point rolling solve"))?;
    let fp = DVec3::new(f[0], f[1], f[2]);
    let fm = DVec3::new(f[3], f[4], f[5]);
    let mut residual = 0.0f64;
    for k in 0..2 {
        let v = p.b[k] + p.w[k][0] * fp + p.w[k][1] * fm;
        residual = residual.max(v.length());
    }
    let r = p.geo.r;
    let acc_com = (pb.applied_force + fp + fm) / pb.mass;
    let ang_acc = p.alpha0 + p.jinv * (r[0].cross(fp) + r[1].cross(fm));
    let g = &p.geo;
    // η_RS: member with t2⁻·F⁻ = 0 (F⁻(τ) = F⁻₀ − τa).
    let tau_rs = g.c[1] * g.t2[1].dot(fm);
    let fm_rs = fm - a * tau_rs;
    let eta_rs = ratio(g.t1[1].dot(fm_rs).abs(), p.mu[1] * g.n[1].dot(fm_rs));
    let tau_sr = -g.c[0] * g.t2[0].dot(fp);
    let fp_sr = fp + a * tau_sr;
    let eta_sr = ratio(g.t1[0].dot(fp_sr).abs(), p.mu[0] * g.n[0].dot(fp_sr));
    let ip = cone_interval(fp, a, g.n[0], p.mu[0]);
    let im = cone_interval(fm, -a, g.n[1], p.mu[1]);
    let possible_interval = match (ip, im) {
        (Some((a0, a1)), Some((b0, b1))) => {
            let lo = a0.max(b0);
            let hi = a1.min(b1);
            if lo <= hi {
                Some((lo, hi))
            } else {
                None
            }
        }
        _ => None,
    };
    // Wedge margin: maximise the concave function min(g⁺, g⁻) of τ by golden section.
    let gfun = |tau: f64| {
        let fpt = fp + a * tau;
        let fmt = fm - a * tau;
        let gk = |f: DVec3, k: usize| {
            let nn = g.n[k].dot(f);
            p.mu[k] * nn - (f - g.n[k] * nn).length()
        };
        gk(fpt, 0).min(gk(fmt, 1))
    };
    let span = 10.0 * (fp.length() + fm.length()).max(1e-300);
    // Stop at a bracket of 1e-14·span: the value error is then ≤ (1 + μ)·1e-13·(‖F⁺₀‖ + ‖F⁻₀‖)
    // (|dg/dτ| ≤ 1 + μ), far below the 1e-9 relative accuracy of the analysis; the former fixed
    // 90 iterations went below the f64 resolution of τ.
    let (_, f1, _, f2) =
        golden_min(|tau| -gfun(tau), -span, span, 90, |lo, hi, _, _| hi - lo <= 1e-14 * span);
    let wedge_margin = (-f1).max(-f2);
    Ok(RrInfo {
        wedge_margin,
        acc_com,
        ang_acc,
        spin_acc: ang_acc.dot(a),
        forces: [fp, fm],
        residual,
        possible_interval,
        eta_rs,
        eta_sr,
    })
}

fn ratio(num: f64, den: f64) -> f64 {
    if num == 0.0 && den > 0.0 {
        0.0
    } else if den > 0.0 {
        num / den
    } else {
        f64::INFINITY
    }
}

/// `{τ : F₀ + τ e ∈ Coulomb cone (μ, n), n·F > 0}` as an interval (ends may be infinite).
fn cone_interval(f0: DVec3, e: DVec3, n: DVec3, mu: f64) -> Option<(f64, f64)> {
    let n0 = n.dot(f0);
    let ne = n.dot(e);
    let t0 = f0 - n * n0;
    let te = e - n * ne;
    let qa = te.dot(te) - mu * mu * ne * ne;
    let qb = 2.0 * (t0.dot(te) - mu * mu * n0 * ne);
    let qc = t0.dot(t0) - mu * mu * n0 * n0;
    let scale = f0.length().max(1e-300);
    // Pieces where q ≤ 0.
    let mut pieces: Vec<(f64, f64)> = Vec::new();
    if qa.abs() <= 1e-14 {
        if qb.abs() <= 1e-14 * scale {
            if qc <= 0.0 {
                pieces.push((f64::NEG_INFINITY, f64::INFINITY));
            }
        } else if qb > 0.0 {
            pieces.push((f64::NEG_INFINITY, -qc / qb));
        } else {
            pieces.push((-qc / qb, f64::INFINITY));
        }
    } else {
        let disc = qb * qb - 4.0 * qa * qc;
        if disc < 0.0 {
            if qa < 0.0 {
                pieces.push((f64::NEG_INFINITY, f64::INFINITY));
            }
        } else {
            let sq = disc.sqrt();
            let (x1, x2) = {
                let a = (-qb - sq) / (2.0 * qa);
                let b = (-qb + sq) / (2.0 * qa);
                (a.min(b), a.max(b))
            };
            if qa > 0.0 {
                pieces.push((x1, x2));
            } else {
                pieces.push((f64::NEG_INFINITY, x1));
                pieces.push((x2, f64::INFINITY));
            }
        }
    }
    // Keep the positive-normal part.
    let mut out: Option<(f64, f64)> = None;
    for (lo, hi) in pieces {
        let (mut lo, mut hi) = (lo, hi);
        if ne > 0.0 {
            lo = lo.max(-n0 / ne);
        } else if ne < 0.0 {
            hi = hi.min(-n0 / ne);
        } else if n0 <= 0.0 {
            continue;
        }
        if lo > hi {
            continue;
        }
        let probe = if lo.is_finite() && hi.is_finite() {
            0.5 * (lo + hi)
        } else if lo.is_finite() {
            lo + 1.0 + lo.abs()
        } else if hi.is_finite() {
            hi - 1.0 - hi.abs()
        } else {
            0.0
        };
        if n0 + probe * ne > 0.0 || (lo == hi && n0 + lo * ne >= 0.0) {
            out = Some(match out {
                None => (lo, hi),
                Some((a, b)) => (a.min(lo), b.max(hi)),
            });
        }
    }
    out
}

/// RR → RS (roll = 0, slip = 1) or RR → SR (roll = 1, slip = 0) check.
fn one_slip(
    p: &Prepared,
    roll: usize,
    slip: usize,
    tol: f64,
    tol_n: f64,
    reasons: &mut Vec<String>,
) -> Result<OneSlipCheck, E> {
    let (ro, so) = (3 * roll, 3 * slip);
    let mu = p.mu[slip];
    let mut out = OneSlipCheck {
        slip_acc: [0.0; 2],
        normal_rolling: [0.0; 2],
        normal_slipping: [0.0; 2],
        attracting: false,
        margin: 0.0,
        escape_sigma: [false; 2],
        mode: [false; 2],
    };
    let name = if roll == 0 { "RS" } else { "SR" };
    for (si, sigma) in [1.0, -1.0].into_iter().enumerate() {
        let e = [-mu * sigma, 0.0, 1.0];
        let mut a = Matrix4::<f64>::zeros();
        let mut rhs = Vector4::<f64>::zeros();
        for i in 0..3 {
            for q in 0..3 {
                a[(i, q)] = p.wl[ro + i][ro + q];
            }
            a[(i, 3)] = (0..3).map(|q| p.wl[ro + i][so + q] * e[q]).sum();
            rhs[i] = -p.bl[ro + i];
        }
        for q in 0..3 {
            a[(3, q)] = p.wl[so + 2][ro + q];
        }
        a[(3, 3)] = (0..3).map(|q| p.wl[so + 2][so + q] * e[q]).sum();
        rhs[3] = -p.bl[so + 2];
        let x = a.lu().solve(&rhs).ok_or(E::SingularSystem("one-point slip solve"))?;
        let s = p.bl[so]
            + (0..3).map(|q| p.wl[so][ro + q] * x[q]).sum::<f64>()
            + x[3] * (0..3).map(|q| p.wl[so][so + q] * e[q]).sum::<f64>();
        out.slip_acc[si] = s;
        out.normal_rolling[si] = x[2];
        out.normal_slipping[si] = x[3];
        if !(s.is_finite() && x[2].is_finite() && x[3].is_finite()) {
            reasons.push(format!("{name} limit σ={sigma:+}: singular solve"));
        }
        // Unilateral contacts: a side whose normal force would be negative is not a mode.
        out.mode[si] = x[2] >= -tol_n && x[3] >= -tol_n;
        out.escape_sigma[si] = out.mode[si] && sigma * s > 0.0;
    }
    out.margin = f64::INFINITY;
    for (si, sigma) in [1.0, -1.0].into_iter().enumerate() {
        if out.mode[si] {
            out.margin = out.margin.min(-sigma * out.slip_acc[si]);
        }
    }
    out.attracting = out.margin > tol;
    Ok(out)
}

/// Degree-2 trigonometric polynomial `[a0, a1, b1, a2, b2]` evaluated from `(c, s)` of the angle.
#[inline]
fn tp(c: &[f64; 5], co: f64, si: f64) -> f64 {
    c[0] + c[1] * co + c[2] * si + c[3] * (co * co - si * si) + c[4] * (2.0 * co * si)
}

/// Derivative with respect to the angle of the trigonometric polynomial of [`tp`].
#[inline]
fn dtp(c: &[f64; 5], co: f64, si: f64) -> f64 {
    -c[1] * si + c[2] * co - 2.0 * c[3] * (2.0 * co * si) + 2.0 * c[4] * (co * co - si * si)
}

/// Coefficients of a degree-2 trigonometric polynomial from 5 equispaced samples.
fn dft5(f: &[f64; 5]) -> [f64; 5] {
    let mut c = [0.0; 5];
    for (i, &v) in f.iter().enumerate() {
        let (co, s) = (COS5[i], SIN5[i]);
        let (s2, c2) = (2.0 * s * co, co * co - s * s);
        c[0] += v / 5.0;
        c[1] += 0.4 * v * co;
        c[2] += 0.4 * v * s;
        c[3] += 0.4 * v * c2;
        c[4] += 0.4 * v * s2;
    }
    c
}

/// `cos(2πi/5)`, `sin(2πi/5)`.
const COS5: [f64; 5] =
    [1.0, 0.30901699437494745, -0.8090169943749473, -0.8090169943749476, 0.30901699437494723];
const SIN5: [f64; 5] = [0.0, 0.9510565162951535, 0.5877852522924732, -0.587785252292473, -0.9510565162951536];

/// Bound of `|Δ''|` for `Δ = P² + Q² − S²` (degree 4: exact harmonics from 9 samples;
/// `|Δ''| ≤ Σ k² |Δ_k|`).
fn delta_m2(s: &[f64; 5], pp: &[f64; 5], q: &[f64; 5]) -> f64 {
    let (s1, c1) = (2.0 * PI / 9.0).sin_cos();
    let mut acc = [(0.0, 0.0); 4];
    let (mut co, mut si) = (1.0, 0.0);
    for _ in 0..9 {
        let (pv, qv, sv) = (tp(pp, co, si), tp(q, co, si), tp(s, co, si));
        let dl = pv * pv + qv * qv - sv * sv;
        let (mut ck, mut sk) = (1.0, 0.0);
        for a in acc.iter_mut() {
            (ck, sk) = (ck * co - sk * si, sk * co + ck * si);
            a.0 += dl * ck * 2.0 / 9.0;
            a.1 += dl * sk * 2.0 / 9.0;
        }
        (co, si) = (co * c1 - si * s1, si * c1 + co * s1);
    }
    let m2: f64 = acc
        .iter()
        .enumerate()
        .map(|(k, a)| ((k + 1) * (k + 1)) as f64 * (a.0 * a.0 + a.1 * a.1).sqrt())
        .sum();
    m2 * (1.0 + 1e-9) + 1e-300
}

/// Exact polynomial structure of the cleared limit-direction conditions on the torus
/// `(θ⁺, θ⁻)` of friction angles:
/// `D g⁻ = S(θ⁻) + P(θ⁻) cos θ⁺ + Q(θ⁻) sin θ⁺`, `D g⁺ = U(θ⁺) + X(θ⁺) cos θ⁻ + Y(θ⁺) sin θ⁻`
/// with `S, P, Q, U, X, Y` trigonometric polynomials of degree 2.
struct TorusPolys {
    s: [f64; 5],
    p: [f64; 5],
    q: [f64; 5],
    u: [f64; 5],
    x: [f64; 5],
    y: [f64; 5],
    /// Bound of `|Δ''|` for `Δ = P² + Q² − S²` (a degree-4 trigonometric polynomial).
    m2: f64,
}

/// One `θ⁻` slice: the line `S + P c + Q s = 0` meets the unit circle iff `Δ ≥ 0`.
#[derive(Clone, Copy, Debug)]
struct Slice {
    th: f64,
    cm: f64,
    sm: f64,
    s: f64,
    pp: f64,
    qq: f64,
    delta: f64,
    /// `D g⁺` on branches `+1`, `−1` when `cached` (filled for scan slices with `Δ ≥ 0`).
    hv: [Option<f64>; 2],
    cached: bool,
}

impl Slice {
    /// Point `(cos θ⁺, sin θ⁺)` of branch `b = ±1` (Δ clamped at 0).
    #[inline]
    fn point(&self, b: f64) -> Option<(f64, f64)> {
        let rho2 = self.pp * self.pp + self.qq * self.qq;
        if !(rho2 > 0.0) {
            return None;
        }
        let dl = self.delta.max(0.0).sqrt();
        Some(((-self.pp * self.s - b * self.qq * dl) / rho2, (-self.qq * self.s + b * self.pp * dl) / rho2))
    }
}

impl TorusPolys {
    fn new(p: &Prepared) -> Self {
        let mut fs = [[0.0; 5]; 3];
        let mut fu = [[0.0; 5]; 3];
        for i in 0..5 {
            let (si, co) = (SIN5[i], COS5[i]);
            // θ⁻ = angle i: D g⁻ affine in (cos θ⁺, sin θ⁺) as free variables.
            let e0 = p.ss_eval(0.0, 0.0, co, si).gm(co, si);
            let e1 = p.ss_eval(1.0, 0.0, co, si).gm(co, si);
            let e2 = p.ss_eval(0.0, 1.0, co, si).gm(co, si);
            fs[0][i] = e0;
            fs[1][i] = e1 - e0;
            fs[2][i] = e2 - e0;
            // θ⁺ = angle i: D g⁺ affine in (cos θ⁻, sin θ⁻).
            let g0 = p.ss_eval(co, si, 0.0, 0.0).gp(co, si);
            let g1 = p.ss_eval(co, si, 1.0, 0.0).gp(co, si);
            let g2 = p.ss_eval(co, si, 0.0, 1.0).gp(co, si);
            fu[0][i] = g0;
            fu[1][i] = g1 - g0;
            fu[2][i] = g2 - g0;
        }
        let (s, pp, q) = (dft5(&fs[0]), dft5(&fs[1]), dft5(&fs[2]));
        TorusPolys {
            s,
            p: pp,
            q,
            u: dft5(&fu[0]),
            x: dft5(&fu[1]),
            y: dft5(&fu[2]),
            m2: delta_m2(&s, &pp, &q),
        }
    }

    /// The same torus with the roles of `θ⁺` and `θ⁻` exchanged: slices in `θ⁺`, the curve
    /// `g⁺ = 0` solved for `θ⁻`, `g⁻` tracked.
    fn swapped(&self) -> Self {
        TorusPolys {
            s: self.u,
            p: self.x,
            q: self.y,
            u: self.s,
            x: self.p,
            y: self.q,
            m2: delta_m2(&self.u, &self.x, &self.y),
        }
    }

    /// A slice with `(cos θ⁻, sin θ⁻)` given, and `h` cached on both branches when `Δ ≥ 0`
    /// (the scan evaluates `h` at each of its slices from up to three intervals).
    #[inline]
    fn slice_cs(&self, th: f64, cm: f64, sm: f64) -> Slice {
        let s = tp(&self.s, cm, sm);
        let pp = tp(&self.p, cm, sm);
        let qq = tp(&self.q, cm, sm);
        let mut sl =
            Slice { th, cm, sm, s, pp, qq, delta: pp * pp + qq * qq - s * s, hv: [None; 2], cached: false };
        if sl.delta >= 0.0 {
            // Both branch points with one square root and one division.
            let rho2 = pp * pp + qq * qq;
            if rho2 > 0.0 {
                let dl = sl.delta.sqrt();
                let inv = 1.0 / rho2;
                let (x0, y0) = (-pp * s * inv, -qq * s * inv);
                let (dx, dy) = (qq * dl * inv, pp * dl * inv);
                let g = self.gp_slice(cm, sm);
                sl.hv = [Some(tp(&g, x0 - dx, y0 + dy)), Some(tp(&g, x0 + dx, y0 - dy))];
            }
            sl.cached = true;
        }
        sl
    }

    /// Uncached slice at a point `(cos θ⁻, sin θ⁻)` of the circle labelled `th`.
    #[inline]
    fn slice_uc(&self, th: f64, cm: f64, sm: f64) -> Slice {
        let s = tp(&self.s, cm, sm);
        let pp = tp(&self.p, cm, sm);
        let qq = tp(&self.q, cm, sm);
        Slice { th, cm, sm, s, pp, qq, delta: pp * pp + qq * qq - s * s, hv: [None; 2], cached: false }
    }

    /// Uncached slice between two slices less than `π` apart, at the label `x` between their
    /// labels: the point of the circle on the ray through the chord point
    /// `(1 − t) e(a) + t e(b)`, `t = (x − a.th)/(b.th − a.th)` (a monotone, smooth
    /// parametrisation of the arc without `sin_cos`; the label is only used for ordering and
    /// bracket widths, every root is stored with its exact `(cos, sin)`).
    #[inline]
    fn slice_between(&self, a: &Slice, b: &Slice, x: f64) -> Slice {
        let t = (x - a.th) / (b.th - a.th);
        let (c, s) = (a.cm + t * (b.cm - a.cm), a.sm + t * (b.sm - a.sm));
        let l = (c * c + s * s).sqrt();
        self.slice_uc(x, c / l, s / l)
    }

    /// [`Self::slice_between`] and `dθ/dx`, the derivative of the true angle of the slice
    /// with respect to its label.
    #[inline]
    fn slice_between_d(&self, a: &Slice, b: &Slice, x: f64) -> (Slice, f64) {
        let t = (x - a.th) / (b.th - a.th);
        let (c, s) = (a.cm + t * (b.cm - a.cm), a.sm + t * (b.sm - a.sm));
        let l2 = c * c + s * s;
        let l = l2.sqrt();
        let cross = a.cm * b.sm - a.sm * b.cm;
        (self.slice_uc(x, c / l, s / l), cross / (l2 * (b.th - a.th)))
    }

    /// Scan slice at the midpoint of two slices less than `π` apart: `(cos, sin)` of the
    /// half angle from the normalised sum of the end vectors (no `sin_cos`).
    #[inline]
    fn slice_mid(&self, a: &Slice, b: &Slice) -> Slice {
        let (c, s) = (a.cm + b.cm, a.sm + b.sm);
        let l = (c * c + s * s).sqrt();
        self.slice_cs(0.5 * (a.th + b.th), c / l, s / l)
    }

    /// `dΔ/dθ` of a slice (exact: `Δ' = 2 (P P' + Q Q' − S S')`).
    #[inline]
    fn ddelta(&self, sl: &Slice) -> f64 {
        let (c, s) = (sl.cm, sl.sm);
        2.0 * (sl.pp * dtp(&self.p, c, s) + sl.qq * dtp(&self.q, c, s) - sl.s * dtp(&self.s, c, s))
    }

    /// Whether `Δ > 0` inside `[a, b]` (both ends `Δ ≥ 0`, exact angles) is proved by the
    /// Taylor lower bounds `Δ(a) + Δ'(a) t − m2 t²/2` and `Δ(b) − Δ'(b) u − m2 u²/2`
    /// (`|Δ''| ≤ m2`): each is positive on `(0, r)` with `r` its positive root, and the two
    /// ranges cover the interval. Sharper than the chord bound next to a fold at an end.
    fn no_dip_taylor(&self, a: &Slice, b: &Slice) -> bool {
        let m2 = self.m2;
        let (da, db) = (self.ddelta(a), -self.ddelta(b));
        let ra = (da + (da * da + 2.0 * m2 * a.delta).sqrt()) / m2;
        let rb = (db + (db * db + 2.0 * m2 * b.delta).sqrt()) / m2;
        // Half a percent of slack against rounding in Δ, Δ' and the roots.
        0.995 * (ra + rb) > b.th - a.th
    }

    /// `D g⁺` on the slice `(cos θ⁻, sin θ⁻)` as a trigonometric polynomial in `θ⁺`:
    /// `U + X cos θ⁻ + Y sin θ⁻` coefficient-wise.
    #[inline]
    fn gp_slice(&self, cm: f64, sm: f64) -> [f64; 5] {
        std::array::from_fn(|i| self.u[i] + self.x[i] * cm + self.y[i] * sm)
    }

    /// `D g⁺` at a torus point.
    #[inline]
    fn gp(&self, cp: f64, sp: f64, cm: f64, sm: f64) -> f64 {
        tp(&self.u, cp, sp) + tp(&self.x, cp, sp) * cm + tp(&self.y, cp, sp) * sm
    }

    #[inline]
    fn h(&self, sl: &Slice, b: f64) -> Option<f64> {
        if sl.cached {
            return sl.hv[if b > 0.0 { 0 } else { 1 }];
        }
        let (cp, sp) = sl.point(b)?;
        Some(self.gp(cp, sp, sl.cm, sl.sm))
    }
}

/// Safeguarded secant (Illinois + bisection) for a sign change of `f` on `[a, b]`.
fn refine_root(f: &dyn Fn(f64) -> Option<f64>, mut a: f64, mut b: f64, mut fa: f64, mut fb: f64) -> f64 {
    let mut side = 0;
    let f_tiny = 1e-14 * fa.abs().max(fb.abs());
    let mut w_check = (b - a).abs();
    for it in 0..100 {
        let w = (b - a).abs();
        if w <= 1e-13 * (1.0 + a.abs()) {
            break;
        }
        // Safeguard: bisect every fourth step unless the bracket at least halved since the
        // last check (Illinois alone converges superlinearly at a simple root).
        let bisect = it % 4 == 3 && {
            let slow = w > 0.5 * w_check;
            w_check = w;
            slow
        };
        let mut x = if bisect { 0.5 * (a + b) } else { (a * fb - b * fa) / (fb - fa) };
        if !(x > a.min(b) && x < a.max(b)) {
            x = 0.5 * (a + b);
        }
        let Some(fx) = f(x) else { return x };
        // At the rounding level of `f` the point is the root (Illinois would otherwise creep
        // towards it from the far end, halving the bracket per step).
        if fx.abs() <= f_tiny {
            return x;
        }
        if (fx < 0.0) == (fb < 0.0) {
            b = x;
            fb = fx;
            if side == -1 {
                fa *= 0.5;
            }
            side = -1;
        } else {
            a = x;
            fa = fx;
            if side == 1 {
                fb *= 0.5;
            }
            side = 1;
        }
    }
    if fa.abs() < fb.abs() {
        a
    } else {
        b
    }
}

const MAX_DEPTH: u32 = 24;
const MAX_JUMP: f64 = 0.5;

struct Scan<'a> {
    tp: &'a TorusPolys,
    /// Candidate roots `(cos θ⁻, sin θ⁻, branch)`.
    cands: Vec<(f64, f64, f64)>,
}

impl Scan<'_> {
    fn sign_change(&mut self, a: &Slice, b: &Slice, ha: Option<f64>, hb: Option<f64>, br: f64) {
        let (Some(ha), Some(hb)) = (ha, hb) else { return };
        if ha == 0.0 {
            self.cands.push((a.cm, a.sm, br));
        } else if hb != 0.0 && (ha < 0.0) != (hb < 0.0) {
            // Skip brackets that provably lie in the half of the torus with
            // sin θ⁺ sin θ⁻ < 0 (no slip direction maps there).
            if let (Some(pa), Some(pb)) = (a.point(br), b.point(br)) {
                let same = |x: f64, y: f64| (x > 0.0 && y > 0.0) || (x < 0.0 && y < 0.0);
                if same(a.sm, b.sm) && same(pa.1, pb.1) && a.sm * pa.1 < 0.0 {
                    return;
                }
            }
            let tp = self.tp;
            let t = refine_root(&|t| tp.h(&tp.slice_between(a, b, t), br), a.th, b.th, ha, hb);
            let s = tp.slice_between(a, b, t);
            self.cands.push((s.cm, s.sm, br));
        }
    }

    /// Two close roots on one branch inside `[a, b]` (no sign change at the samples): when the
    /// midpoint value is the smallest in magnitude, minimise `sign·H` by golden section and
    /// split the bracket at the minimum if it crosses zero. Returns whether it handled the
    /// interval.
    #[allow(clippy::too_many_arguments)]
    fn dip(
        &mut self,
        a: &Slice,
        b: &Slice,
        ha: Option<f64>,
        hm: Option<f64>,
        hb: Option<f64>,
        br: f64,
    ) -> bool {
        let tp = self.tp;
        let (Some(ha), Some(hm), Some(hb)) = (ha, hm, hb) else { return false };
        let sg = ha.signum();
        if !(hm.signum() == sg && hb.signum() == sg && hm.abs() < ha.abs() && hm.abs() < hb.abs()) {
            return false;
        }
        let f = |t: f64| tp.h(&tp.slice_between(a, b, t), br).map(|h| h * sg).unwrap_or(f64::INFINITY);
        let (x1, f1, x2, f2) =
            golden_min(f, a.th, b.th, 30, |lo, hi, f1, f2| f1 < 0.0 || f2 < 0.0 || hi - lo < 1e-13);
        let (xm, fm) = if f1 < f2 { (x1, f1) } else { (x2, f2) };
        if fm < 0.0 {
            let s = tp.slice_between(a, b, xm);
            let hs = tp.h(&s, br);
            self.sign_change(a, &s, Some(ha), hs, br);
            self.sign_change(&s, b, hs, Some(hb), br);
        } else if fm == 0.0 {
            let s = tp.slice_between(a, b, xm);
            self.cands.push((s.cm, s.sm, br));
        }
        true
    }

    fn process(&mut self, a: Slice, b: Slice, depth: u32) {
        let h = b.th - a.th;
        let ok_a = a.delta >= 0.0;
        let ok_b = b.delta >= 0.0;
        let split = |s: &mut Self| {
            let m = s.tp.slice_mid(&a, &b);
            s.process(a, m, depth + 1);
            s.process(m, b, depth + 1);
        };
        // |Δ''| ≤ m2 ⇒ Δ lies within m2 h²/8 of its chord on [a, b].
        let bend = 0.125 * self.tp.m2 * h * h;
        if !ok_a && !ok_b {
            // Rigorous exclusion of a small loop of g⁻ = 0 between the slices.
            if a.delta.max(b.delta) + bend < 0.0 || depth >= MAX_DEPTH || h < 1e-6 {
                return;
            }
            return split(self);
        }
        if ok_a && ok_b {
            let no_dip = a.delta.min(b.delta) - bend > 0.0 || self.tp.no_dip_taylor(&a, &b);
            let jump = [1.0, -1.0].iter().any(|&br| match (a.point(br), b.point(br)) {
                (Some(pa), Some(pb)) => (pa.0 - pb.0).powi(2) + (pa.1 - pb.1).powi(2) > MAX_JUMP * MAX_JUMP,
                _ => false,
            });
            if (jump || !no_dip) && depth < MAX_DEPTH && h > if jump { 1e-7 } else { 1e-4 } {
                return split(self);
            }
            let m = self.tp.slice_mid(&a, &b);
            for br in [1.0, -1.0] {
                let (ha, hm, hb) = (self.tp.h(&a, br), self.tp.h(&m, br), self.tp.h(&b, br));
                if !self.dip(&a, &b, ha, hm, hb, br) {
                    self.sign_change(&a, &m, ha, hm, br);
                    self.sign_change(&m, &b, hm, hb, br);
                }
            }
            return;
        }
        // Mixed signs: split until Δ is provably monotone (|Δ'| ≥ |chord slope| − m2 h > 0),
        // i.e. exactly one fold inside.
        let monotone = (b.delta - a.delta).abs() / h > self.tp.m2 * h;
        if !monotone && depth < MAX_DEPTH && h > 1e-5 {
            return split(self);
        }
        let (inside, outside) = if ok_a { (a, b) } else { (b, a) };
        // Safeguarded Newton on Δ (exact Δ'), keeping the last slice with Δ ≥ 0. Once the
        // Newton step is below the tolerance, one point past the root by that step closes the
        // bracket (Δ is monotone here: a simple fold).
        let tol = 1e-10 * (1.0 + inside.th.abs());
        let (mut ia, mut ob) = ((inside, 1.0), (outside, 1.0));
        let mut slow = false;
        for _ in 0..80 {
            let w = (ob.0.th - ia.0.th).abs();
            // `Δ = 0` exactly at the kept end (a fold on a slice, e.g. the equator of the
            // trough): that end is the fold.
            if w <= tol || ia.0.delta == 0.0 {
                break;
            }
            let e = if ia.0.delta.abs() <= ob.0.delta.abs() { ia } else { ob };
            let step = e.0.delta / (self.tp.ddelta(&e.0) * e.1);
            let lo = ia.0.th.min(ob.0.th);
            let hi = ia.0.th.max(ob.0.th);
            let mut x = e.0.th - step;
            // Bisect when Newton leaves the bracket or the last step did not halve |Δ|.
            if !(x > lo && x < hi) || slow {
                x = 0.5 * (lo + hi);
            }
            let sx = self.tp.slice_between_d(&inside, &outside, x);
            let mut close = None;
            if sx.0.delta != 0.0 {
                let st = sx.0.delta / (self.tp.ddelta(&sx.0) * sx.1);
                if st.abs() < 0.25 * tol {
                    let x2 = sx.0.th - 2.0 * st;
                    if x2 > lo && x2 < hi {
                        close = Some(self.tp.slice_between_d(&inside, &outside, x2));
                    }
                }
            }
            slow = sx.0.delta.abs() > 0.5 * e.0.delta.abs();
            for y in std::iter::once(sx).chain(close) {
                if y.0.delta >= 0.0 {
                    if (y.0.th - ob.0.th).abs() < (ia.0.th - ob.0.th).abs() {
                        ia = y;
                    }
                } else if (y.0.th - ia.0.th).abs() < (ob.0.th - ia.0.th).abs() {
                    ob = y;
                }
            }
        }
        let ia = ia.0;
        let fold = ia;
        // Path: branch + from `inside` to the fold, then branch − back to `inside`.
        for br in [1.0, -1.0] {
            let (hi, hf) = (self.tp.h(&inside, br), self.tp.h(&fold, br));
            self.sign_change(&inside, &fold, hi, hf, br);
        }
    }
}

/// The θ grid shared by both scans of [`ss_analysis`] (the default grid is computed once per
/// process).
fn with_theta_grid<R>(k: usize, f: impl FnOnce(&[(f64, f64, f64)]) -> R) -> R {
    let dth = 2.0 * PI / k as f64;
    let make_grid = || -> Vec<(f64, f64, f64)> {
        (0..=k)
            .map(|i| {
                let th = i as f64 * dth;
                let (s, c) = th.sin_cos();
                (th, c, s)
            })
            .collect()
    };
    static DEFAULT_GRID: std::sync::OnceLock<Vec<(f64, f64, f64)>> = std::sync::OnceLock::new();
    if k == Options::default().scan_samples {
        f(DEFAULT_GRID.get_or_init(make_grid))
    } else {
        f(&make_grid())
    }
}

fn ss_analysis(p: &Prepared, opt: &Options, tol: f64, tol_n: f64, reasons: &mut Vec<String>) -> SsInfo {
    let polys = TorusPolys::new(p);
    let k = opt.scan_samples.max(16);
    with_theta_grid(k, |grid| {
        let slices: Vec<Slice> = grid.iter().map(|&(th, c, s)| polys.slice_cs(th, c, s)).collect();
        let all_pressed = ss_well_posedness(p, &slices[..k], tol_n, reasons);
        let torus_cands = ss_torus_candidates(&polys, grid, &slices, k);
        let mut found =
            SsFound { p, excl: opt.exclusion_tol, dirs: Vec::with_capacity(8), boundary: Vec::new() };
        found.torus_roots(&torus_cands);
        found.frictionless(tol);
        found.equator_arcs(tol);
        let SsFound { mut dirs, boundary, .. } = found;
        let mut excluded = Vec::new();
        if !all_pressed {
            let (keep, drop): (Vec<_>, Vec<_>) =
                dirs.into_iter().partition(|d| d.normal_forces[0] >= -tol_n && d.normal_forces[1] >= -tol_n);
            dirs = keep;
            excluded = drop;
        }
        dirs.sort_by(|a, b| b.r.partial_cmp(&a.r).unwrap_or(std::cmp::Ordering::Equal));
        let margin = dirs.iter().map(|d| -d.r).fold(f64::INFINITY, f64::min);
        SsInfo {
            no_limit_directions: dirs.is_empty(),
            directions: dirs,
            boundary_roots: boundary,
            margin,
            all_pressed,
            excluded,
        }
    })
}

/// Well-posedness of the slip–slip normal forces over the domain sin θ⁺ sin θ⁻ ≥ 0; pushes the
/// Painlevé-type reason when the normal-force system is singular for some slip direction and
/// returns whether every slip direction has both normal forces positive.
fn ss_well_posedness(p: &Prepared, slices: &[Slice], tol_n: f64, reasons: &mut Vec<String>) -> bool {
    // N⁺D is affine in (cos θ⁻, sin θ⁻)
    // only, N⁻D in (cos θ⁺, sin θ⁺) only (exact minima), D bi-affine (sampled in θ⁻).
    let e00 = p.ss_eval(0.0, 0.0, 0.0, 0.0);
    let e10 = p.ss_eval(1.0, 0.0, 0.0, 0.0);
    let e20 = p.ss_eval(0.0, 1.0, 0.0, 0.0);
    let e01 = p.ss_eval(0.0, 0.0, 1.0, 0.0);
    let e02 = p.ss_eval(0.0, 0.0, 0.0, 1.0);
    let min_dnp = e00.dnp - (e01.dnp - e00.dnp).hypot(e02.dnp - e00.dnp);
    let min_dnm = e00.dnm - (e10.dnm - e00.dnm).hypot(e20.dnm - e00.dnm);
    // D is bi-affine in (cos θ⁺, sin θ⁺) × (cos θ⁻, sin θ⁻): 9 coefficients.
    let mut dc = [[0.0; 3]; 3];
    let basis = [(0.0, 0.0), (1.0, 0.0), (0.0, 1.0)];
    for (i, &(cp, sp)) in basis.iter().enumerate() {
        for (j, &(cm, sm)) in basis.iter().enumerate() {
            dc[i][j] = p.ss_eval(cp, sp, cm, sm).d;
        }
    }
    for i in 1..3 {
        for j in 1..3 {
            dc[i][j] = dc[i][j] - dc[i][0] - dc[0][j] + dc[0][0];
        }
    }
    for i in 1..3 {
        dc[i][0] -= dc[0][0];
        dc[0][i] -= dc[0][0];
    }
    let mut min_d = f64::INFINITY;
    for sl in slices {
        let (c0, c1, c2) = (
            dc[0][0] + dc[0][1] * sl.cm + dc[0][2] * sl.sm,
            dc[1][0] + dc[1][1] * sl.cm + dc[1][2] * sl.sm,
            dc[2][0] + dc[2][1] * sl.cm + dc[2][2] * sl.sm,
        );
        // min of c0 + c1 cos θ⁺ + c2 sin θ⁺ over the half circle with sin θ⁺ sin θ⁻ ≥ 0
        // (whole circle on the equator slice).
        let interior = if sl.sm > 1e-12 {
            c2 <= 0.0
        } else if sl.sm < -1e-12 {
            c2 >= 0.0
        } else {
            true
        };
        let m = if interior { c0 - (c1 * c1 + c2 * c2).sqrt() } else { c0 - c1.abs() };
        min_d = min_d.min(m);
    }
    let dscale = p.wl[2][2] * p.wl[5][5];
    if !(min_d > 1e-12 * dscale) {
        reasons.push("SS limit: normal-force system singular for some slip direction (Painlevé-type)".into());
    }
    // Some slip directions have a negative normal force: their limit directions are not
    // modes of the body (filtered by the caller). `min_dnp`, `min_dnm` only decide whether to
    // look.
    min_dnp > tol_n * dscale && min_dnm > tol_n * dscale
}

/// Candidate roots on the torus `(cos θ⁺, sin θ⁺, cos θ⁻, sin θ⁻)`. Scan A: θ⁻ slices along
/// g⁻ = 0; scan B: θ⁺ slices along g⁺ = 0. A close pair of roots on one curve (a turning point
/// of the other curve between two slices) is resolved by the other scan, where it lies on
/// either side of that turning point (a fold path).
fn ss_torus_candidates(
    polys: &TorusPolys,
    grid: &[(f64, f64, f64)],
    slices: &[Slice],
    k: usize,
) -> Vec<(f64, f64, f64, f64)> {
    let mut scan = Scan { tp: polys, cands: Vec::with_capacity(16) };
    for i in 0..k {
        scan.process(slices[i], slices[i + 1], 0);
    }
    let mut torus_cands: Vec<(f64, f64, f64, f64)> = Vec::with_capacity(scan.cands.len() + 8);
    for &(cm, sm, br) in &scan.cands {
        let sl = polys.slice_uc(0.0, cm, sm);
        if let Some((cp, sp)) = sl.point(br) {
            torus_cands.push((cp, sp, sl.cm, sl.sm));
        }
    }
    let polys_b = polys.swapped();
    let mut scan_b = Scan { tp: &polys_b, cands: Vec::with_capacity(16) };
    let mut prev = polys_b.slice_cs(grid[0].0, grid[0].1, grid[0].2);
    for i in 0..k {
        let (th, c, s) = grid[i + 1];
        let next = polys_b.slice_cs(th, c, s);
        scan_b.process(prev, next, 0);
        prev = next;
    }
    for &(cp, sp, br) in &scan_b.cands {
        let sl = polys_b.slice_uc(0.0, cp, sp);
        if let Some((cm, sm)) = sl.point(br) {
            torus_cands.push((sl.cm, sl.sm, cm, sm));
        }
    }
    torus_cands
}

/// The slip–slip limit directions found so far, and the roots at the excluded corners
/// (`d = ±e1, ±e2`).
struct SsFound<'a> {
    p: &'a Prepared,
    excl: f64,
    dirs: Vec<SsLimitDirection>,
    boundary: Vec<DVec3>,
}

impl SsFound<'_> {
    fn accept(&mut self, d: DVec3, f: DVec3, nn: [f64; 2]) {
        let e_pts = [DVec3::X, -DVec3::X, DVec3::Y, -DVec3::Y];
        if e_pts.iter().any(|e| (d - *e).length() < self.excl) {
            if !self.boundary.iter().any(|x| (*x - d).length() < 1e-6) {
                self.boundary.push(d);
            }
            return;
        }
        if self.dirs.iter().any(|x| (x.d - d).length() < 1e-6) {
            return;
        }
        let g = &self.p.geo;
        let r = f.dot(d);
        let vp = (g.t1[0] * d.x + g.t2[0] * (g.c[0] * d.z)).normalize_or_zero();
        let vm = (g.t1[1] * d.y + g.t2[1] * (g.c[1] * d.z)).normalize_or_zero();
        self.dirs.push(SsLimitDirection {
            d,
            phi_plus: d.z.atan2(d.x),
            phi_minus: d.z.atan2(d.y),
            r,
            attracting: r < 0.0,
            normal_forces: nn,
            slip_dirs: [vp, vm],
            angular_type: angular_type(self.p, d),
        });
    }

    /// The candidates of the torus scans where the field is radial (`h(d) = 0`).
    fn torus_roots(&mut self, torus_cands: &[(f64, f64, f64, f64)]) {
        let p = self.p;
        let g = &p.geo;
        let res_tol = 1e-7 * p.a_ref;
        for &(cp0, sp0, cm0, sm0) in torus_cands {
            let (np, nm) = ((cp0 * cp0 + sp0 * sp0).sqrt(), (cm0 * cm0 + sm0 * sm0).sqrt());
            let (cp, sp, cm, sm) = (cp0 / np, sp0 / np, cm0 / nm, sm0 / nm);
            if sp * sm < 0.0 {
                continue;
            }
            if sp.abs().max(sm.abs()) < 1e-10 {
                continue; // a corner of the torus = a whole quarter arc of the equator (below)
            }
            let sg = if sp + sm >= 0.0 { 1.0 } else { -1.0 };
            let d = (DVec3::new(g.c[0] * cp * sm, g.c[1] * cm * sp, sp * sm) * sg).normalize();
            let (f, nn) = p.field_at(cp, sp, cm, sm);
            if !f.is_finite() {
                continue;
            }
            let h = f - d * f.dot(d);
            if h.length() > res_tol.max(1e-9 * f.length()) {
                continue;
            }
            self.accept(d, f, nn);
        }
    }

    /// Frictionless at both contacts: F* does not depend on the direction (smooth field); the
    /// limit directions are ±F*/‖F*‖ (docs/realizability.md §3.5 definition, h(d) = 0).
    fn frictionless(&mut self, tol: f64) {
        let p = self.p;
        if p.mu[0] == 0.0 && p.mu[1] == 0.0 {
            let (f, nn) = p.field_at(1.0, 0.0, 1.0, 0.0);
            let fl = f.length();
            if f.is_finite() && fl > tol {
                self.accept(f / fl, f, nn);
                self.accept(-f / fl, f, nn);
            }
        }
    }

    /// Quarter arcs of the equator (docs/realizability.md §3.5, §6 B2): F* constant along each
    /// arc.
    fn equator_arcs(&mut self, tol: f64) {
        let p = self.p;
        for s1 in [1.0, -1.0] {
            for s2 in [1.0, -1.0] {
                let (f, nn) = p.field_at(s1, 0.0, s2, 0.0);
                if !f.is_finite() || f.z.abs() > tol.max(1e-12 * f.length()) {
                    continue;
                }
                let (q1, q2) = (s1 * f.x, s2 * f.y);
                let fl = f.x.hypot(f.y);
                if fl == 0.0 {
                    continue;
                }
                if q1 > 0.0 && q2 > 0.0 {
                    self.accept(DVec3::new(f.x / fl, f.y / fl, 0.0), DVec3::new(f.x, f.y, 0.0), nn);
                } else if q1 < 0.0 && q2 < 0.0 {
                    self.accept(DVec3::new(-f.x / fl, -f.y / fl, 0.0), DVec3::new(f.x, f.y, 0.0), nn);
                }
            }
        }
    }
}

/// Angular type from a central-difference Jacobian of `h` in the tangent plane at `d`.
fn angular_type(p: &Prepared, d: DVec3) -> AngularType {
    let b1 = if d.x.abs() < 0.6 { DVec3::X } else { DVec3::Y }.cross(d).normalize();
    let b2 = d.cross(b1);
    let hproj = |x: DVec3| -> Option<[f64; 2]> {
        let x = x.normalize();
        let (cp, sp, cm, sm) = p.torus_of(x)?;
        let (f, _) = p.field_at(cp, sp, cm, sm);
        // tangential field, transported to the tangent plane at d
        let h = f - x * f.dot(x);
        Some([h.dot(b1), h.dot(b2)])
    };
    let eps = 1e-6;
    let (Some(a1), Some(a2), Some(c1), Some(c2)) =
        (hproj(d + b1 * eps), hproj(d - b1 * eps), hproj(d + b2 * eps), hproj(d - b2 * eps))
    else {
        return AngularType::Degenerate;
    };
    let j = [
        [(a1[0] - a2[0]) / (2.0 * eps), (c1[0] - c2[0]) / (2.0 * eps)],
        [(a1[1] - a2[1]) / (2.0 * eps), (c1[1] - c2[1]) / (2.0 * eps)],
    ];
    let tr = j[0][0] + j[1][1];
    let det = j[0][0] * j[1][1] - j[0][1] * j[1][0];
    let scale = j.iter().flatten().fold(0.0f64, |m, x| m.max(x.abs())).max(1e-300);
    let tol = 1e-6 * scale;
    let disc = tr * tr - 4.0 * det;
    if !(tr.is_finite() && det.is_finite()) || det.abs() <= tol * scale {
        AngularType::Degenerate
    } else if det < 0.0 {
        AngularType::Saddle
    } else if disc >= 0.0 {
        if tr < 0.0 {
            AngularType::StableNode
        } else {
            AngularType::UnstableNode
        }
    } else if tr.abs() <= tol {
        AngularType::Degenerate
    } else if tr < 0.0 {
        AngularType::StableFocus
    } else {
        AngularType::UnstableFocus
    }
}

/// Golden-section search for a minimum of `f` on `[lo, hi]`: at most `iters` bracket
/// reductions, stopping early once `done(lo, hi, f1, f2)`. Returns the two interior points of
/// the final bracket and their values, `(x1, f1, x2, f2)` with `x1 < x2`.
fn golden_min(
    mut f: impl FnMut(f64) -> f64,
    mut lo: f64,
    mut hi: f64,
    iters: usize,
    done: impl Fn(f64, f64, f64, f64) -> bool,
) -> (f64, f64, f64, f64) {
    let gr = 0.5 * (5f64.sqrt() - 1.0);
    let (mut x1, mut x2) = (hi - gr * (hi - lo), lo + gr * (hi - lo));
    let (mut f1, mut f2) = (f(x1), f(x2));
    for _ in 0..iters {
        if done(lo, hi, f1, f2) {
            break;
        }
        if f1 < f2 {
            hi = x2;
            x2 = x1;
            f2 = f1;
            x1 = hi - gr * (hi - lo);
            f1 = f(x1);
        } else {
            lo = x1;
            x1 = x2;
            f1 = f2;
            x2 = lo + gr * (hi - lo);
            f2 = f(x2);
        }
    }
    (x1, f1, x2, f2)
}
