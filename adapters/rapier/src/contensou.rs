//! # Contensou contact model: coupled slide/spin friction of a finite contact patch
//!
//! A flat or Hertzian contact patch that slides and spins at once obeys the Contensou law
//! (docs/contensou.md, module [`tribo::contensou`]): spinning lowers the sliding resistance and
//! sliding lowers the spin torque. Both depend only on the slip–spin ratio
//! `ε = |u|/(a|ω_n|)` (`u` the slip velocity at the patch centre, `ω_n` the relative spin about
//! the normal, `a` the patch radius):
//!
//! ```text
//! sliding force ≤ μ N 𝒬(ε),      spin torque ≤ μ N κ 𝒯(ε)      (κ = 2a/3 uniform, 3πa/16 Hertz)
//! ```
//!
//! Give a collider a [`FrictionMaterial::Contensou`] (built with
//! [`FrictionMaterial::with_contensou`]) and tribo_rapier sets both limits together every step
//! from the contact's current ε, through the same solver-integrated mechanisms as the rest of
//! the crate:
//!
//! * **slide**: the manifold friction coefficient given to rapier in the contact hook is the
//!   effective coefficient `μ𝒬(ε)` (≤ μ);
//! * **spin**: the `AngX` (normal-axis) row of the contact's angular-motor joint gets the max
//!   torque `μNκ𝒯(ε)` (target relative spin 0), so rapier solves it implicitly with a bounded
//!   impulse.
//!
//! `μ` is μs while the patch sticks (all slip below [`Settings::slip_speed`](crate::Settings))
//! and μk while it slips. At stick (ε undefined) the limits are the pure-slide and pure-spin
//! capacities `μN`, `μNκ` (the bounding box of the limit surface, see
//! [`tribo::contensou::Patch::limits`]).
//!
//! ## Flat multi-point contacts (a puck on its face)
//!
//! rapier's default friction model adds its own "twist" friction to a manifold of several
//! points (limit `μ Σ N_i |r_i − c|`, i.e. `μNa` for a puck whose points sit on the rim, 1.5×
//! the exact pure-spin torque of a uniform disc, and independent of sliding). For a Contensou
//! contact tribo therefore replaces the manifold's solver contacts by **one contact at their
//! centroid** (the patch centre), which turns the twist row off and puts the friction force at
//! the patch centre where the Contensou resultant acts. The tipping support the removed points
//! gave is restored by the motor joint's two tangent rows (`AngY`, `AngZ`, target relative
//! angular velocity 0, or the slow rate that levels a slightly tilted face): their torque bound
//! is `N` times the extent of the contact points across each axis — the largest moment a rigid
//! flat face can carry — so the face still tips over when it should. Contacts with one point (a ball, a capsule end) are left as they are.
//! The collapse starts on a contact's third step (the normal force and the point spread are
//! taken from the previous step).
//!
//! ## Patch radius and pressure
//!
//! * [`PatchRadius::Given`]: a fixed radius, e.g. the radius of a puck's face. A rigid flat
//!   puck on a rigid plane is the flat-punch case: use [`Pressure::Uniform`] (docs/contensou.md §4.1, the
//!   disc problem with `κ = 2a/3`, `ε* = 0.653`).
//! * [`PatchRadius::Hertz`]: `a = (3 N R / (4 E*))^{1/3}` every step, with `1/R` the summed mean
//!   curvatures of the two surfaces at the contact ([`crate::curvature`]) and `E*` given or taken
//!   from the material's [`SpinModel::Hertz`](crate::SpinModel) modulus. Use [`Pressure::Hertz`]
//!   with it. Flat-on-flat contacts have no Hertz radius: the patch is then a point (Coulomb
//!   sliding with μ, no spin torque).
//!
//! The law is [`Model::Exact`] by default; [`Contensou::with_model`] selects an approximation
//! (linear, harmonic 1–6, Padé). The smooth regularised model is rejected: its stick phase
//! would make a resting contact frictionless here (the stick phase of this crate already gives
//! μs at rest).
//!
//! ## Known limits
//! * ε is taken from the velocities at the start of the step (explicit), the limits are then
//!   enforced implicitly by the solver. Per step, ε can lag by one step.
//! * Only circular axisymmetric patches (the closed forms of [`tribo::contensou`]).
//! * Two Contensou colliders in contact: collider 1's contact model is used (rapier's pair
//!   order); the [`Material`]s combine as usual.
//! * The tipping rows level a slightly tilted face slowly (rate 5/s at the default anchor
//!   gain, from the slope of the contact points' separations) and otherwise hold the tilt
//!   rate at zero; the first two steps of a new contact use rapier's own multi-point friction
//!   (a puck launched spinning loses a little spin there).
//! * A patch of no size on a flat face (a radius of nanometres, or the Hertz patch of a
//!   flat-on-flat contact) gives the face one collapsed contact point and nothing to level it:
//!   under rapier 0.36 a puck spinning on it rocks, its slide kicking to 0.1 m/s in about a
//!   quarter of the steps (under 0.35, and with patches of a centimetre, it stands still). Give
//!   a flat face its real radius.

use crate::compat::ManifoldParts;
use crate::rapier3d::prelude::*;
use crate::FrictionMaterial;
use tribo::tracking::{limits, Material, Mode, SpinModel};

pub use tribo::contensou::{ContensouError, Model, Pressure};

/// How the patch radius `a` of a Contensou contact is found.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde-serialize", derive(serde::Serialize, serde::Deserialize))]
pub enum PatchRadius {
    /// A fixed radius (m), e.g. the face radius of a puck.
    Given(f64),
    /// The Hertz radius `a = (3 N R/(4 E*))^{1/3}` from the normal force of the previous step,
    /// the contact's effective curvature radius `R` and the effective modulus `E*` (Pa):
    /// `Some(E*)`, or `None` to take it from the material's
    /// [`SpinModel::Hertz`].
    Hertz {
        /// `E*` in Pa, or `None` for the material's Hertz modulus.
        effective_modulus: Option<f64>,
    },
}

/// The Contensou contact model of a collider: patch radius, pressure law and friction law.
///
/// ```
/// use tribo_rapier::contensou::{Contensou, Model};
/// use tribo_rapier::FrictionMaterial;
/// // a puck of radius 5 cm, exact law, uniform pressure
/// let puck = FrictionMaterial::builder().friction(0.3, 0.3).contensou(Contensou::flat(0.05)?).build()?;
/// // a ball with a Hertz patch, harmonic N = 4 approximation
/// let ball = FrictionMaterial::builder()
///     .friction(0.5, 0.4)
///     .contensou(Contensou::hertz(Some(1.0e8))?.with_model(Model::Harmonic(4))?)
///     .build()?;
/// # Ok::<(), tribo_rapier::MaterialError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde-serialize", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde-serialize", serde(try_from = "ContensouRecord", into = "ContensouRecord"))]
pub struct Contensou {
    radius: PatchRadius,
    pressure: Pressure,
    model: Model,
}

/// The serialized form of [`Contensou`], read back through its validating constructors.
#[cfg(feature = "serde-serialize")]
#[derive(Clone, Copy, serde::Serialize, serde::Deserialize)]
struct ContensouRecord {
    radius: PatchRadius,
    pressure: Pressure,
    model: Model,
}

#[cfg(feature = "serde-serialize")]
impl From<Contensou> for ContensouRecord {
    fn from(c: Contensou) -> Self {
        ContensouRecord { radius: c.radius, pressure: c.pressure, model: c.model }
    }
}

#[cfg(feature = "serde-serialize")]
impl TryFrom<ContensouRecord> for Contensou {
    type Error = ContensouError;
    fn try_from(r: ContensouRecord) -> Result<Self, ContensouError> {
        Contensou::new(r.radius, r.pressure)?.with_model(r.model)
    }
}

fn check_radius(radius: PatchRadius) -> Result<PatchRadius, ContensouError> {
    match radius {
        // Bounded like the material's lengths and moduli (tribo::tracking::limits), so the
        // patch's force and torque stay finite.
        PatchRadius::Given(r) if !(r.is_finite() && r >= 0.0) => Err(ContensouError::InvalidRadius(r)),
        PatchRadius::Given(r) if r > limits::MAX_LENGTH => Err(ContensouError::InvalidParameter(
            "patch radius (m; at most tracking::limits::MAX_LENGTH = 1e3)",
            r,
        )),
        PatchRadius::Hertz { effective_modulus: Some(e) }
            if !(e.is_finite() && e > 0.0 && e <= 2.0 * limits::MAX_MODULUS) =>
        {
            Err(ContensouError::InvalidParameter("effective_modulus (Pa; > 0, at most 2e15)", e))
        }
        r => Ok(r),
    }
}

impl Contensou {
    /// A model with the given radius rule and pressure law, and the exact law. Errors: negative
    /// or non-finite radius, non-positive or non-finite modulus.
    pub fn new(radius: PatchRadius, pressure: Pressure) -> Result<Self, ContensouError> {
        Ok(Contensou { radius: check_radius(radius)?, pressure, model: Model::Exact })
    }

    /// A flat face of radius `radius` (m) on a flat surface: uniform pressure, exact law.
    pub fn flat(radius: f64) -> Result<Self, ContensouError> {
        Self::new(PatchRadius::Given(radius), Pressure::Uniform)
    }

    /// A Hertz patch (radius from the normal force and curvature, Hertz pressure, exact law);
    /// `effective_modulus: None` takes `E*` from the material's Hertz spin model.
    pub fn hertz(effective_modulus: Option<f64>) -> Result<Self, ContensouError> {
        Self::new(PatchRadius::Hertz { effective_modulus }, Pressure::Hertz)
    }

    /// Selects the friction law: exact (default), linear, harmonic 1–6 or Padé. Errors: invalid
    /// parameters, and [`Model::Smooth`] (see the module docs).
    pub fn with_model(mut self, model: Model) -> Result<Self, ContensouError> {
        model.validate()?;
        if let Model::Smooth(s) = model {
            return Err(ContensouError::InvalidParameter(
                "smooth model (eps_reg) not supported in rapier",
                s.eps_reg(),
            ));
        }
        self.model = model;
        Ok(self)
    }

    /// Sets the pressure law.
    pub fn with_pressure(mut self, pressure: Pressure) -> Self {
        self.pressure = pressure;
        self
    }

    /// Sets the patch radius rule (validated as in [`Contensou::new`]).
    pub fn with_radius(mut self, radius: PatchRadius) -> Result<Self, ContensouError> {
        self.radius = check_radius(radius)?;
        Ok(self)
    }

    /// The patch radius rule.
    pub fn radius(&self) -> PatchRadius {
        self.radius
    }

    /// The pressure law.
    pub fn pressure(&self) -> Pressure {
        self.pressure
    }

    /// The friction law.
    pub fn model(&self) -> Model {
        self.model
    }

    /// The patch radius for normal force `n` (N) and summed mean curvature `mean_curvature`
    /// (1/m) of the two surfaces, with `material` providing `E*` if needed. 0 when there is no
    /// Hertz radius (flat contact, no modulus, `n ≤ 0`).
    pub fn patch_radius(&self, material: &Material, n: f64, mean_curvature: f64) -> f64 {
        match self.radius {
            PatchRadius::Given(r) => r,
            PatchRadius::Hertz { effective_modulus } => {
                let e = effective_modulus.or(match material.spin() {
                    SpinModel::Hertz { effective_modulus } => Some(effective_modulus),
                    _ => None,
                });
                match e {
                    Some(e)
                        if n > 0.0
                            && mean_curvature > material.curvature_epsilon()
                            && mean_curvature.is_finite() =>
                    {
                        tribo::contensou::hertz_radius(n, 1.0 / mean_curvature, e).unwrap_or(0.0)
                    }
                    _ => 0.0,
                }
            }
        }
    }
}

impl FrictionMaterial {
    /// This material with the Contensou contact model `c` (coupled slide/spin limits, see
    /// [`crate::contensou`]). `Stock` stays `Stock`. Errors: `PatchRadius::Hertz` without a
    /// modulus on a material whose spin model is not Hertz.
    pub fn with_contensou(self, c: Contensou) -> Result<Self, crate::MaterialError> {
        let m = match self {
            FrictionMaterial::Stock => return Ok(self),
            FrictionMaterial::Tribo(m) | FrictionMaterial::Contensou(m, _) => m,
        };
        if let PatchRadius::Hertz { effective_modulus: None } = c.radius {
            if !matches!(m.spin(), SpinModel::Hertz { .. }) {
                return Err(crate::MaterialError::PatchNeedsHertzSpin { spin: m.spin() });
            }
        }
        Ok(FrictionMaterial::Contensou(m, c))
    }

    /// This material without a Contensou model (independent slide and spin limits).
    pub fn without_contensou(self) -> Self {
        match self {
            FrictionMaterial::Contensou(m, _) => FrictionMaterial::Tribo(m),
            x => x,
        }
    }

    /// The Contensou model, if any.
    pub fn contensou(&self) -> Option<&Contensou> {
        match self {
            FrictionMaterial::Contensou(_, c) => Some(c),
            _ => None,
        }
    }

    /// The Contensou model of a contact between colliders with materials `a` and `b`: none if
    /// either is `Stock`, else `a`'s, else `b`'s.
    pub fn combine_contensou(
        a: Option<&FrictionMaterial>,
        b: Option<&FrictionMaterial>,
    ) -> Option<Contensou> {
        if matches!(a, Some(FrictionMaterial::Stock)) || matches!(b, Some(FrictionMaterial::Stock)) {
            return None;
        }
        a.and_then(|m| m.contensou()).or_else(|| b.and_then(|m| m.contensou())).copied()
    }
}

/// Contensou state of one contact (inside the store's per-pair state; the hook reads
/// `collapse` through the contact's plan).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde-serialize", derive(serde::Serialize, serde::Deserialize))]
pub(crate) struct PairContensou {
    /// The contact has a Contensou model (set in `before_step`).
    pub enabled: bool,
    /// Collapse the solver contacts into one at their centroid in the hook.
    pub collapse: bool,
    /// Tangential offsets of the manifold's contact points from their centroid (world, last step).
    pub spread: [Vector; 4],
    /// Number of valid entries of `spread`.
    pub spread_len: u8,
    /// Patch centre at the end of the last step (centroid of the contact points on the moving
    /// body, at its current pose), if known.
    pub centre: Option<Vector>,
    /// Slope of the separation across the face (world tangent vector, rad): the face's tilt
    /// relative to the other surface, from the manifold points' distances.
    pub slope: Vector,
    /// Last slip–spin ratio (diagnostic).
    pub eps: f64,
    /// Last patch radius (diagnostic).
    pub radius: f64,
}

/// Read-only view of a Contensou contact ([`TriboRapier::contensou_info`](crate::TriboRapier::contensou_info)).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ContensouInfo {
    /// Slip–spin ratio `ε = |u|/(a|ω_n|)` the limits of the current step were set from (∞ for
    /// pure sliding, NaN at stick or when the law could not be evaluated).
    pub slip_spin_ratio: f64,
    /// Patch radius `a` used (m).
    pub patch_radius: f64,
    /// Whether the solver contacts are collapsed into one at the patch centre (flat face).
    pub collapsed: bool,
    /// Patch centre at the end of the last step (world), if known.
    pub centre: Option<Vector>,
}

impl ContensouInfo {
    pub(crate) fn of(s: &PairContensou) -> Option<Self> {
        s.enabled.then_some(ContensouInfo {
            slip_spin_ratio: s.eps,
            patch_radius: s.radius,
            collapsed: s.collapse,
            centre: s.centre,
        })
    }
}

/// Levelling rate of a tilted flat face (1/s) at the default anchor gain 0.5.
const LEVEL_RATE: f32 = 5.0;

/// Inputs of [`step_limits`], gathered by the store's `before_step`.
pub(crate) struct StepInput<'a> {
    pub contensou: &'a Contensou,
    pub material: &'a Material,
    pub n: f32,
    pub normal: Vector,
    pub point: Vector,
    pub slide: Mode,
    pub spin: Mode,
    pub rb1: Option<&'a RigidBody>,
    pub rb2: Option<&'a RigidBody>,
    pub mean_curvature: f64,
    pub slip_speed: f32,
    /// Roll axis of the motor (AngY), unit, tangent.
    pub axis_y: Vector,
    /// AngZ axis, `n × axis_y`.
    pub axis_z: Vector,
    /// Fraction of the face tilt removed per step by the tipping rows (the store's anchor gain).
    pub gain: f32,
    /// Time step (s).
    pub dt: f32,
}

/// Outputs of [`step_limits`].
pub(crate) struct StepOutput {
    /// Manifold friction coefficient `μ𝒬(ε)`.
    pub mu: f32,
    /// Spin motor bound `μNκ𝒯(ε)`.
    pub spin_cap: f32,
    /// Tipping-support bounds about AngY and AngZ (0 unless collapsing).
    pub tilt: [f32; 2],
    /// Target relative angular velocity of the tipping rows (levels a tilted face; zero
    /// unless collapsing).
    pub level: Vector,
}

/// Coupled slide/spin limits of one Contensou contact for the next step; updates `state`.
pub(crate) fn step_limits(inp: &StepInput, state: &mut PairContensou) -> StepOutput {
    let n = inp.normal;
    // The store's point is the midpoint of the two bodies' contact points, one of which lags a
    // step behind on a sliding contact: use the patch centre on the moving body instead.
    let point = state.centre.unwrap_or(inp.point);
    let vel = |rb: Option<&RigidBody>| rb.map_or(Vector::ZERO, |b| b.velocity_at_point(point));
    let dv = vel(inp.rb2) - vel(inp.rb1);
    let u = dv - n * dv.dot(n);
    let w = inp.rb2.map_or(Vector::ZERO, |b| b.angvel()) - inp.rb1.map_or(Vector::ZERO, |b| b.angvel());
    let spin = w.dot(n) as f64;
    let s = u.length() as f64;
    let nf = inp.n.max(0.0) as f64;
    let a = inp.contensou.patch_radius(inp.material, nf, inp.mean_curvature);
    let slipping = inp.slide == Mode::Kinetic
        || inp.spin == Mode::Kinetic
        || s.max(a * spin.abs()) > inp.slip_speed as f64;
    let mode = if slipping { Mode::Kinetic } else { Mode::Static };
    let mu = inp.material.mu(mode);
    let (s_in, w_in) = if slipping { (s, spin) } else { (0.0, 0.0) };
    let lim = tribo::contensou::Patch::new(a, mu, nf, inp.contensou.pressure)
        .and_then(|p| p.limits(&inp.contensou.model, s_in, w_in));
    let (mu_eff, spin_cap, eps) = match lim {
        Ok(l) => (l.slide_coefficient, l.torque, l.slip_spin_ratio),
        Err(_) => (mu, 0.0, f64::NAN),
    };
    state.enabled = true;
    state.eps = eps;
    state.radius = a;
    // Tipping support of a multi-point face: N × the spread of the points across each axis.
    let mut tilt = [0.0f32; 2];
    if state.spread_len > 1 && inp.n > 0.0 {
        let pts = &state.spread[..state.spread_len as usize];
        let across = |d: Vector| pts.iter().map(|p| p.dot(d).abs()).fold(0.0f32, f32::max);
        // moment about AngY needs the points' spread along AngZ, and vice versa
        tilt = [inp.n * across(inp.axis_z), inp.n * across(inp.axis_y)];
    }
    state.collapse = state.spread_len > 1 && inp.n > 0.0;
    // Level a tilted face: rotate so the raised side comes down, `ω = k n × slope` with
    // `k = LEVEL_RATE·gain/0.5` (1/s, dt-independent: the slope read from the penetrations
    // carries solver noise that a per-step gain would amplify at small dt).
    let level = if state.collapse && inp.dt > 0.0 {
        n.cross(state.slope) * (LEVEL_RATE * inp.gain / 0.5)
    } else {
        Vector::ZERO
    };
    let level = if level.is_finite() { level } else { Vector::ZERO };
    let clean = |x: f64| if x.is_finite() && x > 0.0 { x as f32 } else { 0.0 };
    StepOutput {
        mu: clean(mu_eff),
        spin_cap: clean(spin_cap),
        tilt: tilt.map(|t| if t.is_finite() { t } else { 0.0 }),
        level,
    }
}

/// Records the patch centre and the spread of the contact points of an enabled Contensou
/// contact (after a step).
pub(crate) fn observe(
    state: &mut PairContensou,
    pair: &ContactPair,
    bodies: &RigidBodySet,
    cols: [&Collider; 2],
    moving: [bool; 2],
    normal: Vector,
    prediction: f32,
) {
    if !state.enabled {
        return;
    }
    // Which side's points give the current patch position: the moving body's (both: midpoint).
    // The other side's anchor is where the contact was at the start of the step.
    let w = match moving {
        [true, false] => [1.0, 0.0],
        [false, true] => [0.0, 1.0],
        _ => [0.5, 0.5],
    };
    // Patch centre: centroid of the solver contacts the solver used (≤ 4; one once collapsed).
    let (mut c, mut n) = (Vector::ZERO, 0.0f32);
    for m in pair.solver_manifolds() {
        for sc in m.data.solver_contacts.iter().take(4) {
            let (a, b) = m.data.solver_contact_world_points(sc, bodies);
            c += a * w[0] + b * w[1];
            n += 1.0;
        }
    }
    if n == 0.0 || !(c / n).is_finite() {
        state.centre = None;
        state.spread_len = 0;
        return;
    }
    let c = c / n;
    state.centre = Some(c);
    // Spread: tangential offsets of the manifold's contact points from the centre, the four
    // farthest (manifolds may repeat a point, so no centroid of these is used).
    let mut off = [Vector::ZERO; 4];
    let mut len = 0usize;
    // Least-squares plane of the separations over the tangential offsets: dist ≈ a + slope·d.
    let (t1, t2) = normal.any_orthonormal_pair();
    let (mut sxx, mut sxy, mut syy, mut sx, mut sy, mut sd, mut sxd, mut syd, mut cnt) =
        (0.0f64, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0);
    for m in crate::compat::pair_manifolds(pair) {
        for p in &m.points {
            if p.dist > prediction {
                continue;
            }
            let l1 = m.subshape_pos1().map_or(p.local_p1, |sp| sp.transform_point(p.local_p1));
            let l2 = m.subshape_pos2().map_or(p.local_p2, |sp| sp.transform_point(p.local_p2));
            let q =
                cols[0].position().transform_point(l1) * w[0] + cols[1].position().transform_point(l2) * w[1];
            let d = q - c;
            let d = d - normal * d.dot(normal);
            if !d.is_finite() || !p.dist.is_finite() {
                continue;
            }
            let (x, y, z) = (d.dot(t1) as f64, d.dot(t2) as f64, p.dist as f64);
            sxx += x * x;
            sxy += x * y;
            syy += y * y;
            sx += x;
            sy += y;
            sd += z;
            sxd += x * z;
            syd += y * z;
            cnt += 1.0;
            if len < 4 {
                off[len] = d;
                len += 1;
            } else if let Some(min) = (0..4).min_by(|&i, &j| off[i].length().total_cmp(&off[j].length())) {
                if d.length() > off[min].length() {
                    off[min] = d;
                }
            }
        }
    }
    state.spread = off;
    state.spread_len = if len > 1 { len as u8 } else { 0 };
    state.slope = Vector::ZERO;
    if cnt >= 2.0 {
        // centred sums
        let (mx, my, md) = (sx / cnt, sy / cnt, sd / cnt);
        let (a, b, cc) = (sxx - cnt * mx * mx, sxy - cnt * mx * my, syy - cnt * my * my);
        let (u, v) = (sxd - cnt * mx * md, syd - cnt * my * md);
        let tr = a + cc;
        let det = a * cc - b * b;
        let (gx, gy) = if tr > 0.0 && det > 1e-6 * tr * tr {
            ((cc * u - b * v) / det, (a * v - b * u) / det)
        } else if tr > 0.0 {
            // collinear points: slope along their line only
            let k = (u * a + v * b) / (a * a + b * b).max(f64::MIN_POSITIVE);
            let k2 = (u * b + v * cc) / (b * b + cc * cc).max(f64::MIN_POSITIVE);
            if a >= cc {
                (k, 0.0)
            } else {
                (0.0, k2)
            }
        } else {
            (0.0, 0.0)
        };
        let g = t1 * gx as f32 + t2 * gy as f32;
        // small-angle slope, clamped (a face tilted beyond ~0.3 rad is not a face contact)
        let g = if g.length() > 0.3 { g * (0.3 / g.length()) } else { g };
        state.slope = if g.is_finite() { g } else { Vector::ZERO };
    }
}

/// Replaces the solver contacts of a manifold by one contact at the centroid of their
/// distinct positions (manifolds may repeat a point), keeping the lowest contact id so warm
/// starting stays on one manifold point.
pub(crate) fn collapse(parts: &mut ManifoldParts<'_>) {
    let cs = &mut *parts.solver_contacts;
    if cs.len() < 2 {
        return;
    }
    let first = cs[0].anchor1;
    let size = cs.iter().map(|c| (c.anchor1 - first).length()).fold(0.0f32, f32::max);
    let tol = 1e-3 * size;
    let (mut a1, mut a2, mut dist, mut k) = (Vector::ZERO, Vector::ZERO, 0.0f32, 0usize);
    for (i, c) in cs.iter().enumerate() {
        if cs[..i].iter().any(|p| (p.anchor1 - c.anchor1).length() <= tol) {
            continue; // a repeated point
        }
        a1 += c.anchor1;
        a2 += c.anchor2;
        dist += c.dist;
        k += 1;
    }
    let inv = 1.0 / k.max(1) as f32;
    let keep = (0..cs.len()).min_by_key(|&i| cs[i].contact_indices()[0]).unwrap_or(0);
    let mut c = cs[keep];
    c.anchor1 = a1 * inv;
    c.anchor2 = a2 * inv;
    c.dist = dist * inv;
    if !(c.anchor1.is_finite() && c.anchor2.is_finite() && c.dist.is_finite()) {
        return;
    }
    cs.clear();
    cs.push(c);
}
