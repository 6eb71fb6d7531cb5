//! Per-contact state and the per-step friction update (docs/tracking.md §1.1, §5.2 A–J), producing the
//! friction wrench on each body (docs/tracking.md §0.1).

use super::geometry::{ArcMode, GeometryError, Surface};
use super::kinematics::{self, CounterSpin};
use super::material::{Damping, Derived, Material, Mode};
use super::slider::{Slider, SliderParams};
use glam::{DMat3, DQuat, DVec3};
use std::fmt;

/// Options of the kinematics that are not material properties (docs/tracking.md §5.2 "configuration").
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TrackingConfig {
    /// Counter-spin direction of `p̄_j` (default [`CounterSpin::Paper`]).
    pub counter_spin: CounterSpin,
    /// Arc measurement (default [`ArcMode::Geodesic`]).
    pub arc: ArcMode,
    /// Relative threshold `ε_p`: `p_b = 0` when `|P(C^1 − C^{0→1})| ≤ ε_p·‖s_b‖` (S-2).
    /// Default `1e-14`.
    pub p_epsilon: f64,
}

impl Default for TrackingConfig {
    fn default() -> Self {
        TrackingConfig { counter_spin: CounterSpin::Paper, arc: ArcMode::Geodesic, p_epsilon: 1e-14 }
    }
}

impl TrackingConfig {
    /// Sets the counter-spin mode.
    pub fn with_counter_spin(mut self, c: CounterSpin) -> Self {
        self.counter_spin = c;
        self
    }
    /// Sets the arc mode.
    pub fn with_arc(mut self, a: ArcMode) -> Self {
        self.arc = a;
        self
    }
    /// Sets `ε_p` (clamped to ≥ 0; NaN is treated as 0).
    pub fn with_p_epsilon(mut self, eps: f64) -> Self {
        self.p_epsilon = if eps > 0.0 { eps } else { 0.0 };
        self
    }
}

/// Fictitious mass and inertias used by the critical-damping defaults (eq. 1c, 3d, §3.2):
/// `K_D = 2√(m K_E)`, `D_R = 2√(I_roll K_R)`, `D_ψ = 2√(I_spin K_ψ)`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DampingInertia {
    /// Mass m_ij (kg).
    pub mass: f64,
    /// Moment of inertia about the rolling axis, I_ij (kg·m²).
    pub roll_inertia: f64,
    /// Moment of inertia about the contact normal (kg·m²).
    pub spin_inertia: f64,
}

impl DampingInertia {
    /// All three values (not validated here; the update rejects non-finite or negative ones).
    pub fn new(mass: f64, roll_inertia: f64, spin_inertia: f64) -> Self {
        DampingInertia { mass, roll_inertia, spin_inertia }
    }

    /// Smallest effective mass of one body for a tangential force at its contact point:
    /// `1/λ_max` of `Tᵀ(I/m − [r]× I⁻¹ [r]×)T`, `T` a tangent basis of `normal`, `r = lever`
    /// (contact point − centre of mass), `inv_inertia_world` the world inverse inertia tensor.
    ///
    /// Not the model notes' default (eq. 1c uses the plain mass), but useful when choosing
    /// [`Damping`]: the stick-phase dashpot is explicit, and critical damping `2√(m K_E)` with
    /// the plain mass becomes unstable when `K_D Δt/m_eff ≳ 2` — e.g. a flat-lying ellipsoid
    /// 0.02 × 0.02 × 0.05 m (m = 0.67 kg, m_eff ≈ 0.19 kg) at K_E = 5e6, Δt = 1e-4. A sphere
    /// rolling on its surface has `m_eff = m/3.5`. Returns 0 for non-finite or non-positive
    /// input.
    pub fn tangential_effective_mass(
        mass: f64,
        inv_inertia_world: DMat3,
        lever: DVec3,
        normal: DVec3,
    ) -> f64 {
        if !(mass.is_finite() && mass > 0.0 && lever.is_finite() && normal.is_finite()) {
            return 0.0;
        }
        let Some(n) = normal.try_normalize() else { return 0.0 };
        let (u, w) = kinematics::onset_frame(n);
        // Velocity change of the contact point per unit impulse along t: t/m + (I⁻¹(r×t))×r.
        let k =
            |a: DVec3, b: DVec3| a.dot(b) / mass + (inv_inertia_world * lever.cross(a)).dot(lever.cross(b));
        let (a, b, d) = (k(u, u), k(u, w), k(w, w));
        let lmax = 0.5 * (a + d) + (0.25 * (a - d) * (a - d) + b * b).sqrt();
        if lmax.is_finite() && lmax > 0.0 {
            1.0 / lmax
        } else {
            0.0
        }
    }

    /// The convention of (1c): the mean of the two bodies' values, or the moving body's own if
    /// the other is ground (`None`). Both `None` gives zeros (no damping).
    pub fn of_pair(i: Option<DampingInertia>, j: Option<DampingInertia>) -> DampingInertia {
        match (i, j) {
            (Some(a), Some(b)) => DampingInertia {
                mass: 0.5 * (a.mass + b.mass),
                roll_inertia: 0.5 * (a.roll_inertia + b.roll_inertia),
                spin_inertia: 0.5 * (a.spin_inertia + b.spin_inertia),
            },
            (Some(a), None) | (None, Some(a)) => a,
            (None, None) => DampingInertia::new(0.0, 0.0, 0.0),
        }
    }
}

/// Pose and surface of one body at the current time `t1`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ContactBody {
    /// Centre of mass (the origin of the body frame), global.
    pub position: DVec3,
    /// Rotation body → global (need not be exactly normalised; it is normalised).
    pub rotation: DQuat,
    /// Surface near the contact, in body-local coordinates.
    pub surface: Surface,
}

impl ContactBody {
    /// A body at `position` with `rotation` and `surface`.
    pub fn new(position: DVec3, rotation: DQuat, surface: Surface) -> Self {
        ContactBody { position, rotation, surface }
    }
    /// Fixed ground: identity pose, given surface (typically [`Surface::Plane`]).
    pub fn ground(surface: Surface) -> Self {
        ContactBody { position: DVec3::ZERO, rotation: DQuat::IDENTITY, surface }
    }
}

/// Everything the update needs at `t1` for one contact (plain types, no engine types).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ContactInput {
    /// Body i (the normal points into it).
    pub body_i: ContactBody,
    /// Body j.
    pub body_j: ContactBody,
    /// Contact point on body i, `C_i^1` (global).
    pub point_i: DVec3,
    /// Contact point on body j, `C_j^1` (global).
    pub point_j: DVec3,
    /// Contact normal, pointing into body i (normalised by the update).
    pub normal: DVec3,
    /// Normal force magnitude N at t1 (N). `N ≤ 0` gives zero loads (see [`ContactState::update`]).
    pub normal_force: f64,
    /// Step Δt > 0 (s).
    pub dt: f64,
    /// Fictitious mass/inertia for the critical-damping defaults.
    pub inertia: DampingInertia,
}

/// A force and a torque about a body's centre of mass (global).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Wrench {
    /// Force (N).
    pub force: DVec3,
    /// Torque about the centre of mass (N·m).
    pub torque: DVec3,
}

impl Wrench {
    /// Whether both parts are finite.
    pub fn is_finite(&self) -> bool {
        self.force.is_finite() && self.torque.is_finite()
    }
}

/// Result of one update: wrenches on both bodies and the intermediate quantities.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ContactOutput {
    /// Friction wrench on body i (slide force at `C_i^1` + roll + spin torques).
    pub wrench_i: Wrench,
    /// Friction wrench on body j.
    pub wrench_j: Wrench,
    /// Slide force `F_f` on body i (body j gets `−F_f`), eq. (1b) with stick-only damping.
    pub slide_force: DVec3,
    /// Roll torque on body i, `τ_i^R = 𝒯_i × n`.
    pub roll_torque_i: DVec3,
    /// Roll torque on body j, `τ_j^R = n × 𝒯_j`.
    pub roll_torque_j: DVec3,
    /// Scalar spin torque `𝒯^ψ` (body i gets `−𝒯^ψ n`, body j `+𝒯^ψ n`).
    pub spin_torque: f64,
    /// Spin increment ψ of this step (rad).
    pub psi: f64,
    /// Tangent vector `p_i`.
    pub p_i: DVec3,
    /// Tangent vector `p_j` (after counter-spin).
    pub p_j: DVec3,
    /// Directional curvature κ_i used this step.
    pub kappa_i: f64,
    /// Directional curvature κ_j used this step.
    pub kappa_j: f64,
    /// Derived parameters of this step (thresholds, stiffnesses).
    pub derived: Derived,
    /// Damping coefficients `(K_D, D_R, D_ψ)` of this step.
    pub damping: (f64, f64, f64),
    /// True on the onset step (no history yet: zero loads).
    pub onset: bool,
}

/// Error of one update. The stored state is left unchanged.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum UpdateError {
    /// An input is NaN or infinite.
    NonFinite {
        /// Which input.
        what: &'static str,
    },
    /// Δt is not > 0.
    BadTimeStep {
        /// The value.
        dt: f64,
    },
    /// The normal or a rotation quaternion has (near) zero length.
    Degenerate {
        /// Which input.
        what: &'static str,
    },
    /// A fictitious mass or inertia is negative.
    NegativeInertia {
        /// Which one.
        what: &'static str,
    },
    /// A surface has invalid dimensions.
    Geometry(GeometryError),
    /// The computation produced a non-finite value (e.g. overflow for astronomically large
    /// inputs); nothing was stored.
    NonFiniteResult,
}

impl fmt::Display for UpdateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UpdateError::NonFinite { what } => write!(f, "contact input `{what}` is NaN or infinite"),
            UpdateError::BadTimeStep { dt } => write!(f, "time step must be > 0, got {dt}"),
            UpdateError::Degenerate { what } => write!(f, "contact input `{what}` has zero length"),
            UpdateError::NegativeInertia { what } => write!(f, "fictitious `{what}` must be ≥ 0"),
            UpdateError::Geometry(e) => write!(f, "invalid contact surface: {e}"),
            UpdateError::NonFiniteResult => {
                write!(f, "friction update produced a non-finite value; state kept")
            }
        }
    }
}

impl std::error::Error for UpdateError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            UpdateError::Geometry(e) => Some(e),
            _ => None,
        }
    }
}

impl From<GeometryError> for UpdateError {
    fn from(e: GeometryError) -> Self {
        UpdateError::Geometry(e)
    }
}

/// Persistent state of one contact (docs/tracking.md §1.1). Store one per contact pair, starting from
/// [`ContactState::default()`] ("no state yet": the first update is the onset step), and
/// drop it when the contact disappears (re-contact starts from scratch, docs/tracking.md §1.2).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ContactState {
    started: bool,
    /// Continued frame `(u0, w0)` in body-i local coordinates.
    u_in_i: DVec3,
    w_in_i: DVec3,
    /// The same global frame in body-j local coordinates (re-aligned each step).
    u_in_j: DVec3,
    w_in_j: DVec3,
    n0: DVec3,
    c_i: DVec3,
    c_j: DVec3,
    slide: Slider<DVec3>,
    roll_i: Slider<DVec3>,
    roll_j: Slider<DVec3>,
    spin: Slider<f64>,
    /// Last critical-damping evaluations `(stiffness, inertia, coefficient)` for slide, roll
    /// and spin: reused while the inputs are unchanged (saves three roots per step).
    damping_cache: [(f64, f64, f64); 3],
}

/// A body rotation as a matrix, with a fast path for the identity (the ground, static bodies
/// at rest frame): the identity products are skipped, which is exact. Global → local uses the
/// rows of the same matrix (`Mᵀv` as three dot products, the same operations in the same
/// order as the product with the transposed matrix), so no transposed copy is built.
#[derive(Clone, Copy)]
struct Rot(Option<DMat3>);

impl Rot {
    #[inline]
    fn new(q: DQuat) -> Self {
        Rot(if q == DQuat::IDENTITY { None } else { Some(DMat3::from_quat(q)) })
    }
    /// Local → global.
    #[inline]
    fn g(&self, v: DVec3) -> DVec3 {
        match &self.0 {
            None => v,
            Some(m) => *m * v,
        }
    }
    /// Global → local.
    #[inline]
    fn l(&self, v: DVec3) -> DVec3 {
        match &self.0 {
            None => v,
            Some(m) => DVec3::new(m.x_axis.dot(v), m.y_axis.dot(v), m.z_axis.dot(v)),
        }
    }
}

/// Damping coefficient of `rule` for stiffness `k` and inertia `m`, memoised in `cache`.
/// The four sliders of a contact, borrowed for one step (G–I of docs/tracking.md §5.2).
struct Sliders<'a> {
    slide: &'a mut Slider<DVec3>,
    roll_i: &'a mut Slider<DVec3>,
    roll_j: &'a mut Slider<DVec3>,
    spin: &'a mut Slider<f64>,
}

impl Sliders<'_> {
    /// Increments, accumulate + cap with the previous mode, loads (steps G–I): the slide force
    /// and the roll torques of `i` and `j` (tangent vectors before the cross product with the
    /// normal) and the spin torque. A disabled roll or spin (zero stiffness) resets its
    /// histories; without normal force every load is exactly zero.
    fn step(
        self,
        d: &Derived,
        (k_d, d_r, d_psi): (f64, f64, f64),
        slide_increment: DVec3,
        (roll_increment_i, roll_increment_j): (DVec3, DVec3),
        psi: f64,
        dt: f64,
    ) -> (DVec3, DVec3, DVec3, f64) {
        let Sliders { slide, roll_i, roll_j, spin } = self;
        let slide_p = SliderParams {
            stiffness: d.slide_stiffness,
            damping: k_d,
            static_threshold: d.slide_static,
            kinetic_threshold: d.slide_kinetic,
        };
        let mut f_f = slide.step(slide_increment, &slide_p, dt);

        let roll_on = d.roll_stiffness > 0.0;
        let (mut t_i, mut t_j) = (DVec3::ZERO, DVec3::ZERO);
        if roll_on {
            let roll_p = SliderParams {
                stiffness: d.roll_stiffness,
                damping: d_r,
                static_threshold: d.roll_static,
                kinetic_threshold: d.roll_kinetic,
            };
            t_i = roll_i.step(roll_increment_i, &roll_p, dt);
            t_j = roll_j.step(roll_increment_j, &roll_p, dt);
        } else {
            roll_i.reset();
            roll_j.reset();
        }

        let mut t_psi = 0.0;
        if d.spin_stiffness > 0.0 {
            let spin_p = SliderParams {
                stiffness: d.spin_stiffness,
                damping: d_psi,
                static_threshold: d.spin_static,
                kinetic_threshold: d.spin_kinetic,
            };
            t_psi = spin.step(psi, &spin_p, dt);
        } else {
            spin.reset();
        }

        if d.n == 0.0 {
            // No normal force: thresholds were 0, so the histories are 0; force the loads to
            // exactly zero (damping in a just-reset static mode included).
            slide.clear_loads();
            roll_i.clear_loads();
            roll_j.clear_loads();
            spin.clear_loads();
            f_f = DVec3::ZERO;
            t_i = DVec3::ZERO;
            t_j = DVec3::ZERO;
            t_psi = 0.0;
        }
        (f_f, t_i, t_j, t_psi)
    }
}

/// Finiteness test of a step's results: the plain sum is finite iff every term is, unless
/// finite terms overflow it; only then the per-term test (x·0 is 0 for finite x, NaN
/// otherwise) runs.
fn all_finite(vectors: &[DVec3; 9], scalar: f64) -> bool {
    let mut sum = vectors[0];
    for v in &vectors[1..] {
        sum += *v;
    }
    sum += DVec3::splat(scalar);
    sum * 0.0 == DVec3::ZERO || {
        let mut probe = vectors[0] * 0.0;
        for v in &vectors[1..] {
            probe += *v * 0.0;
        }
        probe += DVec3::splat(scalar * 0.0);
        probe == DVec3::ZERO
    }
}

#[inline]
fn damping_coefficient(cache: &mut (f64, f64, f64), rule: Damping, k: f64, m: f64) -> f64 {
    match rule {
        Damping::Fixed(c) => c,
        Damping::Critical => {
            if cache.0 != k || cache.1 != m {
                *cache = (k, m, rule.coefficient(k, m));
            }
            cache.2
        }
    }
}

#[inline]
fn finite(v: DVec3, what: &'static str) -> Result<(), UpdateError> {
    if v.is_finite() {
        Ok(())
    } else {
        Err(UpdateError::NonFinite { what })
    }
}

#[inline]
fn unit_rotation(q: DQuat, what: &'static str) -> Result<DQuat, UpdateError> {
    let l2 = q.length_squared();
    if l2 < 1e-24 {
        return Err(UpdateError::Degenerate { what });
    }
    Ok(if (l2 - 1.0).abs() < 1e-14 { q } else { q * (1.0 / l2.sqrt()) })
}

impl ContactInput {
    /// Whether every floating-point input is finite (one branch-free probe: x·0 = 0 iff x is
    /// finite); the detailed checks below then only run to name the culprit.
    #[inline]
    fn all_finite(&self) -> bool {
        // The plain sum is finite iff every term is, unless finite terms overflow it: such a
        // false alarm only sends the input through the detailed checks, which then pass.
        let (qi, qj) = (self.body_i.rotation, self.body_j.rotation);
        let i = self.inertia;
        let v = self.body_i.position
            + self.body_j.position
            + self.point_i
            + self.point_j
            + self.normal
            + DVec3::new(qi.x, qi.y, qi.z)
            + DVec3::new(qj.x, qj.y, qj.z)
            + DVec3::new(qi.w, qj.w, self.dt)
            + DVec3::new(i.mass, i.roll_inertia, i.spin_inertia);
        v * 0.0 == DVec3::ZERO && !self.normal_force.is_nan()
    }

    fn check(&self) -> Result<(DVec3, DQuat, DQuat), UpdateError> {
        if self.all_finite() {
            return self.check_ranges();
        }
        finite(self.body_i.position, "body_i.position")?;
        finite(self.body_j.position, "body_j.position")?;
        finite(self.point_i, "point_i")?;
        finite(self.point_j, "point_j")?;
        finite(self.normal, "normal")?;
        if !self.body_i.rotation.is_finite() {
            return Err(UpdateError::NonFinite { what: "body_i.rotation" });
        }
        if !self.body_j.rotation.is_finite() {
            return Err(UpdateError::NonFinite { what: "body_j.rotation" });
        }
        if self.normal_force.is_nan() {
            return Err(UpdateError::NonFinite { what: "normal_force" });
        }
        if !self.dt.is_finite() {
            return Err(UpdateError::NonFinite { what: "dt" });
        }
        let DampingInertia { mass, roll_inertia, spin_inertia } = self.inertia;
        for (v, what) in [(mass, "mass"), (roll_inertia, "roll_inertia"), (spin_inertia, "spin_inertia")] {
            if !v.is_finite() {
                return Err(UpdateError::NonFinite { what });
            }
        }
        self.check_ranges()
    }

    /// Range checks of finite inputs.
    #[inline(always)]
    fn check_ranges(&self) -> Result<(DVec3, DQuat, DQuat), UpdateError> {
        let qi = unit_rotation(self.body_i.rotation, "body_i.rotation")?;
        let qj = unit_rotation(self.body_j.rotation, "body_j.rotation")?;
        if self.dt <= 0.0 {
            return Err(UpdateError::BadTimeStep { dt: self.dt });
        }
        let l2 = self.normal.length_squared();
        if l2 < 1e-24 {
            return Err(UpdateError::Degenerate { what: "normal" });
        }
        let DampingInertia { mass, roll_inertia, spin_inertia } = self.inertia;
        if mass < 0.0 {
            return Err(UpdateError::NegativeInertia { what: "mass" });
        }
        if roll_inertia < 0.0 {
            return Err(UpdateError::NegativeInertia { what: "roll_inertia" });
        }
        if spin_inertia < 0.0 {
            return Err(UpdateError::NegativeInertia { what: "spin_inertia" });
        }
        self.body_i.surface.validate()?;
        self.body_j.surface.validate()?;
        // Already unit (to rounding): use as is, saving a root and a division.
        let n = if (l2 - 1.0).abs() <= 4.0 * f64::EPSILON { self.normal } else { self.normal / l2.sqrt() };
        Ok((n, qi, qj))
    }
}

/// `(κ, 𝒦)`: curvature of `surface` at body-local point `local` along the global tangent `p`
/// (fallback: direction of `theta`, then the mean curvature; docs/tracking.md §1.6 "direction fallback")
/// and the mean curvature, from one surface evaluation. `rot` is the body's rotation.
#[inline(always)]
fn curvatures(surface: &Surface, rot: &Rot, local: DVec3, p: DVec3, theta: DVec3) -> (f64, f64) {
    let (mean, kappa) = surface.mean_and_directional_curvature(local, || {
        let dir = if p != DVec3::ZERO {
            p
        } else if theta != DVec3::ZERO {
            theta
        } else {
            return None;
        };
        Some(rot.l(dir).normalize())
    });
    (kappa, mean)
}

/// `p_b` (S-2) from the arc on `surface`. Fast path for a chord lying exactly in the tangent
/// plane (planes moving in the plane): `p = d`, which is what `d·(‖s‖/|d|)` gives when
/// `‖s‖ = |d|`, without the roots and the division.
#[inline(always)]
fn tangent_arc(
    surface: &Surface,
    config: &TrackingConfig,
    r: DVec3,
    q: DQuat,
    carried: DVec3,
    new: DVec3,
    n: DVec3,
) -> DVec3 {
    let chord = config.arc == ArcMode::Chord
        || !matches!(surface, Surface::Sphere { .. } | Surface::ConcaveSphere { .. });
    if chord {
        let d = new - carried;
        if d.dot(n) == 0.0 && config.p_epsilon < 1.0 {
            return d;
        }
    }
    let arc = surface.arc_length(config.arc, r, q, carried, new);
    kinematics::arc_vector(arc, carried, new, n, config.p_epsilon)
}

impl ContactState {
    /// "No state yet": the next update is the onset step.
    pub fn new() -> Self {
        Self::default()
    }
    /// Whether the onset step has happened.
    pub fn is_started(&self) -> bool {
        self.started
    }
    /// Slide history and modes (docs/tracking.md §2).
    pub fn slide(&self) -> &Slider<DVec3> {
        &self.slide
    }
    /// Roll history of body i (docs/tracking.md §3).
    pub fn roll_i(&self) -> &Slider<DVec3> {
        &self.roll_i
    }
    /// Roll history of body j.
    pub fn roll_j(&self) -> &Slider<DVec3> {
        &self.roll_j
    }
    /// Spin history (docs/tracking.md §4).
    pub fn spin(&self) -> &Slider<f64> {
        &self.spin
    }
    /// Contact normal stored at the last step (global).
    pub fn normal(&self) -> DVec3 {
        self.n0
    }
    /// The stored contact frame `(u, w, n)` of the last step, global, for body i's pose
    /// `rotation_i` at that step.
    pub fn frame(&self, rotation_i: DQuat) -> (DVec3, DVec3, DVec3) {
        (rotation_i * self.u_in_i, rotation_i * self.w_in_i, self.n0)
    }
    /// The modes `(slide, roll_i, roll_j, spin)`.
    pub fn modes(&self) -> (Mode, Mode, Mode, Mode) {
        (self.slide.mode(), self.roll_i.mode(), self.roll_j.mode(), self.spin.mode())
    }

    /// One friction update at t1 (docs/tracking.md §5.2 steps A–J, in that order).
    ///
    /// * First call (no state): onset (§1.2): stores the frame and contact points, all
    ///   histories 0 and modes `Static`; returns zero loads with `onset = true`.
    /// * Invalid input (NaN/inf, Δt ≤ 0, zero normal or quaternion, negative inertia, bad
    ///   surface) returns an error and leaves the state untouched.
    /// * `N ≤ 0` (or `−∞`): the contact keeps being tracked (frame, contact points, normal are
    ///   stored as usual, so the contact is not restarted), all thresholds are 0, so every
    ///   history is capped to exactly 0 (a spring cannot hold load without normal force) and the
    ///   modes follow the state machine (`Kinetic` where a nonzero deflection was released,
    ///   `Static` otherwise); all loads are exactly 0. `N = +∞` is clamped to 0 too.
    /// * Roll friction disabled (degenerate curvature `κ_i + κ_j ≤ ε_κ`, η_r = 0): both roll
    ///   histories are reset to 0/`Static`, zero roll torque. Spin disabled likewise.
    pub fn update(
        &mut self,
        material: &Material,
        config: &TrackingConfig,
        input: &ContactInput,
    ) -> Result<ContactOutput, UpdateError> {
        let (n1, qi, qj) = input.check()?;
        let ri = input.body_i.position;
        let rj = input.body_j.position;
        let ci1 = input.point_i;
        let cj1 = input.point_j;

        let ai = Rot::new(qi);
        let aj = Rot::new(qj);
        // New contact points in body-local coordinates (stored in step J).
        let li = ai.l(ci1 - ri);
        let lj = aj.l(cj1 - rj);

        // A. Onset.
        if !self.started {
            let (u0, w0) = kinematics::onset_frame(n1);
            let mut s = ContactState { started: true, n0: n1, c_i: li, c_j: lj, ..ContactState::default() };
            s.store_frame(u0, w0, &ai, &aj);
            *self = s;
            return Ok(ContactOutput { onset: true, ..ContactOutput::default() });
        }
        // B. Carried points and frames.
        let carried_i = ri + ai.g(self.c_i);
        let carried_j = rj + aj.g(self.c_j);
        let ui0 = ai.g(self.u_in_i);
        let wi0 = ai.g(self.w_in_i);
        let uj0 = aj.g(self.u_in_j);
        let wj0 = aj.g(self.w_in_j);

        // C. Continued frames and spin increment (S-1). Only the direction of ū1 matters.
        let (u1, w1) = kinematics::continue_frame(ui0, wi0, n1);
        let ub1 =
            kinematics::continued_direction(uj0, wj0, n1).unwrap_or_else(|| kinematics::onset_frame(n1).0);
        let psi = kinematics::spin_increment(ub1, u1, n1);

        // D. Arcs and p vectors (S-2), counter-spin (S-3).
        let si = &input.body_i.surface;
        let sj = &input.body_j.surface;
        let p_i = tangent_arc(si, config, ri, qi, carried_i, ci1, n1);
        let pbar_j = tangent_arc(sj, config, rj, qj, carried_j, cj1, n1);
        let p_j = kinematics::counter_spin(pbar_j, n1, psi, config.counter_spin);

        // The sliders and the damping memo are advanced in place; only they are saved here
        // (not the whole state) to be restored if the result is not finite. The frame, contact
        // points and normal are written after the finiteness test.
        let saved = (self.slide, self.roll_i, self.roll_j, self.spin, self.damping_cache);
        let n0 = self.n0;
        let ContactState { slide, roll_i, roll_j, spin, damping_cache: cache, .. } = self;

        // E. History transport to the new tangent plane.
        if n1 != n0 {
            let q = DQuat::from_rotation_arc(n0, n1);
            slide.set_history(kinematics::transport(slide.history(), q, n1));
            roll_i.set_history(kinematics::transport(roll_i.history(), q, n1));
            roll_j.set_history(kinematics::transport(roll_j.history(), q, n1));
        }

        // F. Parameters from N(t1) and the curvatures.
        let (kappa_i, mean_i) = curvatures(si, &ai, li, p_i, roll_i.history());
        let (kappa_j, mean_j) = curvatures(sj, &aj, lj, p_j, roll_j.history());
        let d = material.derive(input.normal_force, kappa_i, kappa_j, mean_i, mean_j);
        let inertia = input.inertia;
        let [c0, c1, c2] = cache;
        let k_d = damping_coefficient(c0, material.slide_damping(), d.slide_stiffness, inertia.mass);
        let d_r = damping_coefficient(c1, material.roll_damping(), d.roll_stiffness, inertia.roll_inertia);
        let d_psi = damping_coefficient(c2, material.spin_damping(), d.spin_stiffness, inertia.spin_inertia);
        // G–I. Increments, accumulate + cap with the previous mode, loads.
        let sliders =
            Sliders { slide: &mut *slide, roll_i: &mut *roll_i, roll_j: &mut *roll_j, spin: &mut *spin };
        let (f_f, t_i, t_j, t_psi) =
            sliders.step(&d, (k_d, d_r, d_psi), p_i - p_j, (p_i * kappa_i, p_j * kappa_j), psi, input.dt);

        // Wrenches (docs/tracking.md §0.1).
        let roll_torque_i = t_i.cross(n1);
        let roll_torque_j = n1.cross(t_j);
        let spin_vec = n1 * t_psi;
        let wrench_i = Wrench { force: f_f, torque: (ci1 - ri).cross(f_f) + roll_torque_i - spin_vec };
        let wrench_j = Wrench { force: -f_f, torque: (cj1 - rj).cross(-f_f) + roll_torque_j + spin_vec };

        let (sh, rih, rjh, psh) = (slide.history(), roll_i.history(), roll_j.history(), spin.history());
        let finite = all_finite(
            &[wrench_i.force, wrench_i.torque, wrench_j.force, wrench_j.torque, sh, rih, rjh, li, lj],
            psh,
        );
        if !finite {
            (self.slide, self.roll_i, self.roll_j, self.spin, self.damping_cache) = saved;
            return Err(UpdateError::NonFiniteResult);
        }

        // J. Store (re-alignment of j's frame onto i's).
        self.store_frame(u1, w1, &ai, &aj);
        self.c_i = li;
        self.c_j = lj;
        self.n0 = n1;
        Ok(ContactOutput {
            wrench_i,
            wrench_j,
            slide_force: f_f,
            roll_torque_i,
            roll_torque_j,
            spin_torque: t_psi,
            psi,
            p_i,
            p_j,
            kappa_i,
            kappa_j,
            derived: d,
            damping: (k_d, d_r, d_psi),
            onset: false,
        })
    }

    /// Stores the global frame `(u, w)` in both bodies' local coordinates (re-alignment).
    #[inline]
    fn store_frame(&mut self, u: DVec3, w: DVec3, ai: &Rot, aj: &Rot) {
        self.u_in_i = ai.l(u);
        self.w_in_i = ai.l(w);
        self.u_in_j = aj.l(u);
        self.w_in_j = aj.l(w);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn input(ri: DVec3, ci: DVec3, cj: DVec3, n: f64) -> ContactInput {
        ContactInput {
            body_i: ContactBody::new(ri, DQuat::IDENTITY, Surface::Plane),
            body_j: ContactBody::ground(Surface::Plane),
            point_i: ci,
            point_j: cj,
            normal: DVec3::Z,
            normal_force: n,
            dt: 1e-3,
            inertia: DampingInertia::new(1.0, 0.0, 0.0),
        }
    }

    #[test]
    fn finite_inputs_whose_sum_overflows_are_accepted() {
        // The fast finiteness probe sums the inputs: 1e308 + 1e308 overflows, which must only
        // send the input through the detailed checks (all pass: every input is finite).
        let m = Material::new(0.5, 0.4).unwrap();
        let big = DVec3::new(1e308, 0.0, 0.0);
        let mut s = ContactState::new();
        let out = s.update(&m, &TrackingConfig::default(), &input(big, big, big, 1.0)).unwrap();
        assert!(out.onset && s.is_started());
    }

    #[test]
    fn non_finite_result_keeps_the_state() {
        // Slip 1e9 m under N = 1e15 (the largest normal force the material uses,
        // `limits::MAX_NORMAL_FORCE`) stays below the static threshold μs N/K_E = 5e9 m, so the
        // force is K_E·1e9 = 1e14 plus damping (finite), but its torque about body i's centre,
        // lever 1e300 ⟂ force, overflows: NonFiniteResult, nothing stored.
        let m = Material::new(0.5, 0.4).unwrap();
        let cfg = TrackingConfig::default();
        let ri = DVec3::new(0.0, -1e300, 0.0);
        let mut s = ContactState::new();
        s.update(&m, &cfg, &input(ri, DVec3::ZERO, DVec3::ZERO, 1e15)).unwrap();
        s.update(&m, &cfg, &input(ri, DVec3::new(1e-3, 0.0, 0.0), DVec3::ZERO, 1e15)).unwrap();
        let before = s;
        let r = s.update(&m, &cfg, &input(ri, DVec3::new(1e9, 0.0, 0.0), DVec3::ZERO, 1e15));
        assert_eq!(r, Err(UpdateError::NonFiniteResult));
        assert_eq!(s, before);
    }
}
