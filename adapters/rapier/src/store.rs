//! Per-contact state store and the before/after-step entry points.

use std::collections::HashMap;
use std::fmt;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Mutex;

use crate::compat;
use crate::curvature::collider_curvature;
use crate::hooks::TriboHooks;
use crate::rapier3d::prelude::*;
use crate::FrictionMaterial;
use tribo::tracking::{Material, Mode};

/// Marker stored in `GenericJoint::user_data` of the motor joints tribo creates.
pub const TRIBO_JOINT_USER_DATA: u128 = 0x7472_6962_6f5f_6d6f_746f_725f_6a6f_696e; // "tribo_motor_join"

/// Tuning of the rapier mechanism. The defaults suit SI scenes (metres, kilograms).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Settings {
    /// Relative slip speed (m/s) below which a slipping contact sticks again (a sticking one
    /// slips when its accumulated slip exceeds the material's static threshold `μs N/K_E`).
    /// For roll and spin the angular speed is `slip_speed · κ̄` (κ̄ the contact's curvature:
    /// `slip_speed/R` for a ball on a plane). Default `1e-3`.
    pub slip_speed: f32,
    /// Fraction (0..=1) of the accumulated stick deflection (slide offset from the anchor,
    /// roll and spin angles) removed per step by the anchor pull-back. 0 disables it (the
    /// contact may then creep at the solver's tolerance). Default `0.5`.
    pub anchor_gain: f32,
    /// Damping factor of the motor rows (rapier `set_motor_velocity` factor); large means a rigid
    /// motor up to its torque bound. Default `1e6`.
    pub motor_damping: f32,
}

impl Default for Settings {
    fn default() -> Self {
        Settings { slip_speed: 1e-3, anchor_gain: 0.5, motor_damping: 1e6 }
    }
}

/// A problem tribo found in the scene. The affected contact falls back to stock rapier
/// friction; nothing non-finite enters the simulation.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Diagnostic {
    /// A dynamic body with zero, negative or non-finite mass touches a tribo collider (give it
    /// a collider with density or additional mass). Its contacts use stock friction.
    ZeroMassBody {
        /// The body.
        body: RigidBodyHandle,
    },
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Diagnostic::ZeroMassBody { body } => write!(
                f,
                "dynamic rigid body {body:?} has zero or non-finite mass; its contacts fall back to stock rapier friction"
            ),
        }
    }
}

impl std::error::Error for Diagnostic {}

/// A read-only view of one contact's tribo state (after the last [`TriboRapier::after_step`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ContactInfo {
    /// First collider (rapier's pair order).
    pub collider1: ColliderHandle,
    /// Second collider.
    pub collider2: ColliderHandle,
    /// Normal force N = Σ normal impulse / dt of the last step (N).
    pub normal_force: f32,
    /// World contact normal, pointing from collider 1 towards collider 2.
    pub normal: Vector,
    /// World contact point (impulse-weighted centroid of the solver contacts).
    pub point: Vector,
    /// Slide mode (static: μs, kinetic: μk).
    pub slide: Mode,
    /// Roll mode.
    pub roll: Mode,
    /// Spin mode.
    pub spin: Mode,
    /// Friction coefficient given to rapier for the next step.
    pub friction: f32,
    /// Roll torque bound of the motor for the next step (N·m).
    pub roll_capacity: f32,
    /// Spin torque bound of the motor for the next step (N·m).
    pub spin_capacity: f32,
    /// The motor joint, if one exists.
    pub joint: Option<ImpulseJointHandle>,
    /// Whether this contact fell back to stock friction (see [`Diagnostic`]).
    pub stock_fallback: bool,
}

#[derive(Default)]
struct PairHasher(u64);
impl Hasher for PairHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 = (self.0.rotate_left(5) ^ *b as u64).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
        }
    }
    fn write_u64(&mut self, i: u64) {
        self.0 = (self.0.rotate_left(5) ^ i).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}
type FastMap<K, V> = HashMap<K, V, BuildHasherDefault<PairHasher>>;

#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct PairKey(u64, u64);

fn key(c1: ColliderHandle, c2: ColliderHandle) -> PairKey {
    let (i1, g1) = c1.into_raw_parts();
    let (i2, g2) = c2.into_raw_parts();
    PairKey(((i1 as u64) << 32) | i2 as u64, ((g1 as u64) << 32) | g2 as u64)
}

// `repr(C)` with the fields the hook reads first (warm-start sum, μ, tangent velocity, stock
// flag, Contensou collapse flag), so the hook touches one cache line per contact.
#[repr(C)]
struct PairState {
    /// Σ warm-start normal impulse the solver starts this step with (f32 bits), summed by the
    /// hook over the pair's solver manifolds.
    warmstart: AtomicU32,
    mu: f32,
    tangent_velocity: Vector,
    stock: bool,
    contensou: crate::contensou::PairContensou,
    c1: ColliderHandle,
    c2: ColliderHandle,
    material: Material,
    material_epoch: u64,
    seen: u64,
    n: f32,
    normal: Vector,
    point: Vector,
    slide: Mode,
    roll: Mode,
    spin: Mode,
    slide_defl: Vector,
    roll_defl: Vector,
    spin_defl: f32,
    roll_axis: Vector,
    /// (κ_i + κ_j along the rolling direction, κ̄_i + κ̄_j), from the last before_step.
    kappa: (f64, f64),
    roll_cap: f32,
    spin_cap: f32,
    joint: Option<ImpulseJointHandle>,
}

/// The tribo friction store for one rapier world: per-collider materials and per-contact state.
///
/// Per step: [`before_step`](Self::before_step), `PhysicsPipeline::step` with
/// [`hooks`](Self::hooks), [`after_step`](Self::after_step). All entry points borrow the rapier
/// sets; nothing is owned, so the same store works under bevy_rapier.
pub struct TriboRapier {
    settings: Settings,
    materials: Vec<Option<(u32, FrictionMaterial)>>,
    material_colliders: Vec<ColliderHandle>,
    material_epoch: u64,
    index: FastMap<PairKey, u32>,
    states: Vec<PairState>,
    /// Pairs the hook saw without state (new contacts), for the next `after_step`.
    new_pairs: Mutex<Vec<(ColliderHandle, ColliderHandle)>>,
    /// `new_pairs` as a set during `after_step` (kept to reuse its allocation).
    fresh: FastMap<PairKey, ()>,
    /// Bit per collider index: collider of a pair in `fresh` (a cheap pre-filter, so the many
    /// pairs without state and without new contact skip the `fresh` lookup).
    fresh_colliders: Vec<u64>,
    anchor: Option<RigidBodyHandle>,
    diagnostics: Vec<Diagnostic>,
    reported: Vec<RigidBodyHandle>,
    step: u64,
    pub(crate) realizability: crate::diagnostics::Monitor,
}

impl Default for TriboRapier {
    fn default() -> Self {
        Self::new()
    }
}

fn is_moving_body(rb: Option<&RigidBody>) -> bool {
    rb.is_some_and(|rb| rb.is_dynamic() && !rb.is_sleeping())
}

fn finite(v: Vector) -> bool {
    v.is_finite()
}

fn any_perp(n: Vector) -> Vector {
    let a = if n.x.abs() < 0.6 { Vector::X } else if n.y.abs() < 0.6 { Vector::Y } else { Vector::Z };
    n.cross(a).normalize()
}

impl TriboRapier {
    /// An empty store with default [`Settings`].
    pub fn new() -> Self {
        Self::with_settings(Settings::default())
    }

    /// An empty store with the given settings (values are clamped to sane ranges:
    /// `slip_speed > 0`, `anchor_gain ∈ [0, 1]`, `motor_damping > 0`; NaN → default).
    pub fn with_settings(settings: Settings) -> Self {
        let d = Settings::default();
        let pos = |x: f32, dflt: f32| if x.is_finite() && x > 0.0 { x } else { dflt };
        let settings = Settings {
            slip_speed: pos(settings.slip_speed, d.slip_speed),
            anchor_gain: if settings.anchor_gain.is_finite() { settings.anchor_gain.clamp(0.0, 1.0) } else { d.anchor_gain },
            motor_damping: pos(settings.motor_damping, d.motor_damping),
        };
        TriboRapier {
            settings,
            materials: Vec::new(),
            material_colliders: Vec::new(),
            material_epoch: 0,
            index: FastMap::default(),
            states: Vec::new(),
            new_pairs: Mutex::new(Vec::new()),
            fresh: FastMap::default(),
            fresh_colliders: Vec::new(),
            anchor: None,
            diagnostics: Vec::new(),
            reported: Vec::new(),
            step: 0,
            realizability: Default::default(),
        }
    }

    /// The settings in use.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// Sets the friction material of a collider (replacing any previous one). tribo turns on
    /// `ActiveHooks::MODIFY_SOLVER_CONTACTS` on it at the next [`before_step`](Self::before_step).
    pub fn set_material(&mut self, collider: ColliderHandle, material: impl Into<FrictionMaterial>) {
        let (i, g) = collider.into_raw_parts();
        let i = i as usize;
        if self.materials.len() <= i {
            self.materials.resize(i + 1, None);
        }
        if self.materials[i].is_none_or(|(gen, _)| gen != g) {
            self.material_colliders.push(collider);
        }
        self.materials[i] = Some((g, material.into()));
        self.material_epoch += 1;
    }

    /// Removes a collider's material (its contacts return to stock friction). Returns the old one.
    pub fn remove_material(&mut self, collider: ColliderHandle) -> Option<FrictionMaterial> {
        let (i, g) = collider.into_raw_parts();
        let slot = self.materials.get_mut(i as usize)?;
        match *slot {
            Some((gen, m)) if gen == g => {
                *slot = None;
                self.material_colliders.retain(|&c| c != collider);
                self.material_epoch += 1;
                Some(m)
            }
            _ => None,
        }
    }

    /// The material of a collider, if set.
    pub fn material(&self, collider: ColliderHandle) -> Option<&FrictionMaterial> {
        let (i, g) = collider.into_raw_parts();
        match self.materials.get(i as usize)? {
            Some((gen, m)) if *gen == g => Some(m),
            _ => None,
        }
    }

    /// The combined material of a contact between two colliders, or `None` for stock friction
    /// (rules: [`FrictionMaterial::combine`]).
    pub fn pair_material(&self, c1: ColliderHandle, c2: ColliderHandle) -> Option<Material> {
        FrictionMaterial::combine(self.material(c1), self.material(c2))
    }

    /// The hooks to pass to `PhysicsPipeline::step`, wrapping the user's own hooks (use `&()`
    /// for none).
    pub fn hooks<'a, H: PhysicsHooks + ?Sized>(&'a self, user: &'a H) -> TriboHooks<'a, H> {
        TriboHooks { tribo: self, user }
    }

    /// The state slot of a contact (rapier's pair order), looked up once per hook call.
    #[inline]
    pub(crate) fn slot(&self, c1: ColliderHandle, c2: ColliderHandle) -> Option<u32> {
        if self.index.is_empty() {
            return None;
        }
        self.index.get(&key(c1, c2)).copied()
    }

    /// Friction coefficient and tangent velocity for the hook, or `None` for stock. `slot` is
    /// [`slot`](Self::slot) of the pair.
    pub(crate) fn hook_plan(
        &self,
        slot: Option<u32>,
        c1: ColliderHandle,
        c2: ColliderHandle,
        warmstart: impl FnOnce() -> f32,
        sliding: impl FnOnce() -> bool,
    ) -> Option<(f32, Vector)> {
        match slot {
            Some(i) => {
                let s = &self.states[i as usize];
                if compat::IMPULSE_INCLUDES_WARMSTART {
                    let add = warmstart();
                    if add != 0.0 {
                        let _ = s.warmstart.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |b| Some((f32::from_bits(b) + add).to_bits()));
                    }
                }
                if s.stock {
                    None
                } else {
                    Some((s.mu, s.tangent_velocity))
                }
            }
            // A contact that appeared in this step's narrow phase: static friction unless it
            // already slides; `after_step` creates its state.
            None => {
                let m = self.pair_material(c1, c2)?;
                if let Ok(mut v) = self.new_pairs.lock() {
                    v.push((c1, c2));
                }
                Some((if sliding() { m.mu_k() } else { m.mu_s() } as f32, Vector::ZERO))
            }
        }
    }

    /// Whether the hook collapses this contact's solver contacts (Contensou flat face); `slot`
    /// is [`slot`](Self::slot) of the pair.
    pub(crate) fn contensou_collapse(&self, slot: Option<u32>) -> bool {
        slot.is_some_and(|i| {
            let s = &self.states[i as usize];
            !s.stock && s.contensou.collapse
        })
    }

    /// The Contensou state of the contact between two colliders (either order), if it has a
    /// Contensou model (see [`crate::contensou`]).
    pub fn contensou_info(&self, c1: ColliderHandle, c2: ColliderHandle) -> Option<crate::contensou::ContensouInfo> {
        let i = self.index.get(&key(c1, c2)).or_else(|| self.index.get(&key(c2, c1)))?;
        crate::contensou::ContensouInfo::of(&self.states[*i as usize].contensou)
    }

    /// Number of contacts with tribo state.
    pub fn len(&self) -> usize {
        self.states.len()
    }

    /// Whether no contact has tribo state.
    pub fn is_empty(&self) -> bool {
        self.states.is_empty()
    }

    /// Number of motor joints tribo currently owns.
    pub fn joint_count(&self) -> usize {
        self.states.iter().filter(|s| s.joint.is_some()).count()
    }

    /// The hidden fixed body tribo attaches motors to for parentless colliders, if created.
    pub fn anchor_body(&self) -> Option<RigidBodyHandle> {
        self.anchor
    }

    /// Diagnostics collected so far (each problem reported once).
    pub fn diagnostics(&self) -> &[Diagnostic] {
        &self.diagnostics
    }

    /// Takes the collected diagnostics.
    pub fn take_diagnostics(&mut self) -> Vec<Diagnostic> {
        std::mem::take(&mut self.diagnostics)
    }

    fn info(s: &PairState) -> ContactInfo {
        ContactInfo {
            collider1: s.c1,
            collider2: s.c2,
            normal_force: s.n,
            normal: s.normal,
            point: s.point,
            slide: s.slide,
            roll: s.roll,
            spin: s.spin,
            friction: s.mu,
            roll_capacity: s.roll_cap,
            spin_capacity: s.spin_cap,
            joint: s.joint,
            stock_fallback: s.stock,
        }
    }

    /// The state of the contact between two colliders (either order).
    pub fn contact(&self, c1: ColliderHandle, c2: ColliderHandle) -> Option<ContactInfo> {
        let i = self.index.get(&key(c1, c2)).or_else(|| self.index.get(&key(c2, c1)))?;
        Some(Self::info(&self.states[*i as usize]))
    }

    /// All contacts with tribo state.
    pub fn contacts(&self) -> impl Iterator<Item = ContactInfo> + '_ {
        self.states.iter().map(Self::info)
    }

    fn remove_state(&mut self, i: usize, joints: &mut ImpulseJointSet) {
        let s = self.states.swap_remove(i);
        self.index.remove(&key(s.c1, s.c2));
        if let Some(j) = s.joint {
            joints.remove(j, false);
        }
        if i < self.states.len() {
            let m = &self.states[i];
            self.index.insert(key(m.c1, m.c2), i as u32);
        }
    }

    /// Removes every contact state and motor joint (e.g. before dropping the store or when
    /// switching a world back to stock friction).
    pub fn clear(&mut self, joints: &mut ImpulseJointSet) {
        while !self.states.is_empty() {
            let last = self.states.len() - 1;
            self.remove_state(last, joints);
        }
    }

    fn anchor_or_create(&mut self, bodies: &mut RigidBodySet) -> RigidBodyHandle {
        if let Some(a) = self.anchor.filter(|a| bodies.contains(*a)) {
            return a;
        }
        let a = bodies.insert(RigidBodyBuilder::fixed().user_data(TRIBO_JOINT_USER_DATA));
        self.anchor = Some(a);
        a
    }

    fn report_zero_mass(&mut self, body: RigidBodyHandle) {
        if !self.reported.contains(&body) {
            self.reported.push(body);
            self.diagnostics.push(Diagnostic::ZeroMassBody { body });
        }
    }

    /// Call right before `PhysicsPipeline::step`: drops state of removed colliders/bodies,
    /// sets the hook flags of material colliders, computes each contact's friction coefficient
    /// and anchor pull-back for the hook, and creates/refreshes the roll/spin motor joints
    /// from the last normal force and modes.
    pub fn before_step(
        &mut self,
        params: &IntegrationParameters,
        bodies: &mut RigidBodySet,
        colliders: &mut ColliderSet,
        joints: &mut ImpulseJointSet,
    ) {
        // Materials of removed colliders go; live ones get the hook flag.
        let mut k = 0;
        while k < self.material_colliders.len() {
            let h = self.material_colliders[k];
            match colliders.get(h) {
                None => {
                    let (i, _) = h.into_raw_parts();
                    self.materials[i as usize] = None;
                    self.material_colliders.swap_remove(k);
                    self.material_epoch += 1;
                    continue;
                }
                Some(c) if !c.active_hooks().contains(ActiveHooks::MODIFY_SOLVER_CONTACTS) => {
                    let flags = c.active_hooks() | ActiveHooks::MODIFY_SOLVER_CONTACTS;
                    if let Some(c) = colliders.get_mut(h) {
                        c.set_active_hooks(flags);
                    }
                }
                _ => {}
            }
            k += 1;
        }

        let dt = params.dt;
        if !(dt > 0.0 && dt.is_finite()) {
            return;
        }
        let gain = self.settings.anchor_gain;
        let damping = self.settings.motor_damping;
        let epoch = self.material_epoch;

        let mut i = 0;
        while i < self.states.len() {
            *self.states[i].warmstart.get_mut() = 0;
            let (c1, c2) = (self.states[i].c1, self.states[i].c2);
            let (Some(col1), Some(col2)) = (colliders.get(c1), colliders.get(c2)) else {
                self.remove_state(i, joints);
                continue;
            };
            let (p1, p2) = (col1.parent(), col2.parent());
            if p1.is_some_and(|b| !bodies.contains(b)) || p2.is_some_and(|b| !bodies.contains(b)) {
                self.remove_state(i, joints);
                continue;
            }
            if self.states[i].material_epoch != epoch {
                match self.pair_material(c1, c2) {
                    Some(m) => {
                        self.states[i].material = m;
                        self.states[i].material_epoch = epoch;
                    }
                    None => {
                        self.remove_state(i, joints);
                        continue;
                    }
                }
            }
            let (rb1, rb2) = (p1.and_then(|b| bodies.get(b)), p2.and_then(|b| bodies.get(b)));
            if !is_moving_body(rb1) && !is_moving_body(rb2) {
                // Asleep or nothing dynamic: keep the state and the joint as they are.
                i += 1;
                continue;
            }
            // Zero-mass dynamic bodies: stock fallback.
            let mut bad = None;
            for (h, rb) in [(p1, rb1), (p2, rb2)] {
                if let (Some(h), Some(rb)) = (h, rb) {
                    if rb.is_dynamic() && !(rb.mass() > 0.0 && rb.mass().is_finite()) {
                        bad = Some(h);
                    }
                }
            }
            if let Some(b) = bad {
                self.report_zero_mass(b);
                let s = &mut self.states[i];
                s.stock = true;
                if let Some(j) = s.joint.take() {
                    joints.remove(j, false);
                }
                i += 1;
                continue;
            }
            self.states[i].stock = false;

            // Geometry and capacities.
            let s = &self.states[i];
            let n = s.normal;
            let point = s.point;
            let nf = s.n;
            // Roll axis: the stick deflection (static) or the rolling direction (relative
            // angular velocity), else the previous axis; always re-projected on the tangent plane.
            let w1 = rb1.map_or(Vector::ZERO, |b| b.angvel());
            let w2 = rb2.map_or(Vector::ZERO, |b| b.angvel());
            let w = w2 - w1;
            let wt = w - n * w.dot(n);
            let cand = match s.roll {
                // Sticking: along the accumulated roll deflection (the direction the load turns
                // the body); rolling: along the rolling axis.
                Mode::Static if s.roll_defl.length() > 1e-7 => s.roll_defl - n * s.roll_defl.dot(n),
                _ if wt.length() > 1e-6 => wt,
                _ => s.roll_axis - n * s.roll_axis.dot(n),
            };
            let e = if cand.length() > 1e-6 && finite(cand) { cand.normalize() } else { any_perp(n) };
            let ez = n.cross(e);
            let dir = ez; // direction of motion of a body rolling about e
            let k1 = collider_curvature(col1, point, n, dir);
            let k2 = collider_curvature(col2, point, -n, dir);
            let kappa = (k1.directional + k2.directional, k1.mean + k2.mean);
            let mat = &s.material;
            let roll_cap = mat.roll_torque_capacity(s.roll, nf as f64, k1.directional, k2.directional) as f32;
            let spin_cap = mat.spin_torque_capacity(s.spin, nf as f64, k1.mean, k2.mean) as f32;
            let mu = mat.mu(s.slide) as f32;
            // Contensou contact model: coupled slide/spin limits and flat-face tipping support.
            let mut cz = s.contensou;
            let cz_cfg = FrictionMaterial::combine_contensou(self.material(c1), self.material(c2));
            let (mu, spin_cap, (cz_tilt, cz_level)) = match &cz_cfg {
                Some(cfg) => {
                    let input = crate::contensou::StepInput { contensou: cfg, material: mat, n: nf, normal: n, point, slide: s.slide, spin: s.spin, rb1, rb2, mean_curvature: k1.mean + k2.mean, slip_speed: self.settings.slip_speed, axis_y: e, axis_z: ez, gain, dt };
                    let o = crate::contensou::step_limits(&input, &mut cz);
                    (o.mu, o.spin_cap, (o.tilt, o.level))
                }
                None => {
                    cz = Default::default();
                    (mu, spin_cap, ([0.0; 2], Vector::ZERO))
                }
            };
            // Anchor pull-back for a contact at rest (sticking and not rolling).
            let tv = if s.slide == Mode::Static && s.roll == Mode::Static && gain > 0.0 {
                let d = s.slide_defl - n * s.slide_defl.dot(n);
                -d * (gain / dt)
            } else {
                Vector::ZERO
            };
            // Motor targets: pull a sticking roll/spin back by `gain` of its deflection.
            let roll_target = if s.roll == Mode::Static { -s.roll_defl * (gain / dt) } else { Vector::ZERO };
            let spin_target = if s.spin == Mode::Static { -s.spin_defl * (gain / dt) } else { 0.0 };
            let need_joint = (roll_cap > 0.0 || spin_cap > 0.0) && finite(n) && finite(point);
            // One roll row, along the axis chosen above: an isotropic (circular) roll limit.
            let (roll_y, roll_z) = (roll_cap, 0.0);
            let (roll_y, roll_z) = (roll_y.max(cz_tilt[0]), roll_z.max(cz_tilt[1]));
            let need_joint = need_joint || (cz_tilt[0].max(cz_tilt[1]) > 0.0 && finite(n) && finite(point));
            let roll_target = roll_target + cz_level;

            let s = &mut self.states[i];
            s.contensou = cz;
            s.mu = if mu.is_finite() { mu } else { 0.0 };
            s.tangent_velocity = if finite(tv) { tv } else { Vector::ZERO };
            s.roll_axis = e;
            s.kappa = kappa;
            s.roll_cap = roll_cap;
            s.spin_cap = spin_cap;
            if !need_joint && s.joint.is_none() {
                i += 1;
                continue;
            }
            // Build the motor joint: frame X = normal, Y = roll axis, Z = n × Y.
            let world_rot = Rotation::from_mat3(&Mat3::from_cols(n, e, ez)).normalize();
            let pose1 = rb1.map_or(Pose::IDENTITY, |b| *b.position());
            let pose2 = rb2.map_or(Pose::IDENTITY, |b| *b.position());
            let mut j = GenericJoint::new(JointAxesMask::empty());
            j.user_data = TRIBO_JOINT_USER_DATA;
            j.set_local_frame1(Pose::from_parts(pose1.inverse_transform_point(point), pose1.rotation.inverse() * world_rot));
            j.set_local_frame2(Pose::from_parts(pose2.inverse_transform_point(point), pose2.rotation.inverse() * world_rot));
            let targets = [spin_target, roll_target.dot(e), roll_target.dot(ez)];
            let caps = if need_joint { [spin_cap, roll_y, roll_z] } else { [0.0; 3] };
            // Only axes with a torque bound get a motor row (a kinetic roll has no Z row).
            for (ax, (t, c)) in [JointAxis::AngX, JointAxis::AngY, JointAxis::AngZ].into_iter().zip(targets.into_iter().zip(caps)) {
                if c.is_finite() && c > 0.0 {
                    j.set_motor_velocity(ax, if t.is_finite() { t } else { 0.0 }, damping);
                    j.set_motor_max_force(ax, c);
                }
            }
            let existing = s.joint.and_then(|h| joints.get_mut(h, false).map(|jj| (h, jj)));
            match existing {
                Some((_, jj)) => jj.data = j,
                None => {
                    let a = if p1.is_none() || p2.is_none() { Some(self.anchor_or_create(bodies)) } else { None };
                    let b1 = p1.or(a).unwrap();
                    let b2 = p2.or(a).unwrap();
                    let h = joints.insert(b1, b2, j, false);
                    self.states[i].joint = Some(h);
                }
            }
            i += 1;
        }
    }

    /// Call right after `PhysicsPipeline::step`: reads each tribo contact's normal force from
    /// the solver's impulses, updates the static/kinetic modes and stick deflections from the
    /// relative velocities, creates state for new contacts and removes the state and motor
    /// joint of contacts that ended.
    pub fn after_step(
        &mut self,
        params: &IntegrationParameters,
        bodies: &RigidBodySet,
        colliders: &ColliderSet,
        narrow_phase: &NarrowPhase,
        joints: &mut ImpulseJointSet,
    ) {
        self.step += 1;
        let step = self.step;
        let dt = params.dt;
        let slip_speed = self.settings.slip_speed;
        let epoch = self.material_epoch;
        let inv_dt = if dt > 0.0 && dt.is_finite() { 1.0 / dt } else { 0.0 };
        // New contacts the hook reported this step (usually few): a pair without state is only
        // looked at if it is among them.
        let mut new_pairs = std::mem::take(&mut *self.new_pairs.get_mut().unwrap_or_else(|e| e.into_inner()));
        let mut fresh = std::mem::take(&mut self.fresh);
        fresh.clear();
        fresh.extend(new_pairs.iter().map(|&(a, b)| (key(a, b), ())));
        let mut fresh_cols = std::mem::take(&mut self.fresh_colliders);
        let bit = |c: ColliderHandle| {
            let i = c.into_raw_parts().0 as usize;
            (i / 64, 1u64 << (i % 64))
        };
        for &(a, b) in &new_pairs {
            for c in [a, b] {
                let (w, m) = bit(c);
                if fresh_cols.len() <= w {
                    fresh_cols.resize(w + 1, 0);
                }
                fresh_cols[w] |= m;
            }
        }
        let maybe_fresh = |c: ColliderHandle| {
            let (w, m) = bit(c);
            fresh_cols.get(w).is_some_and(|x| x & m != 0)
        };
        for pair in narrow_phase.contact_pairs() {
            let (c1, c2) = (pair.collider1, pair.collider2);
            let k = key(c1, c2);
            let idx = match self.index.get(&k) {
                Some(&i) => Some(i as usize),
                None if !fresh.is_empty() && maybe_fresh(c1) && maybe_fresh(c2) && fresh.contains_key(&k) => None,
                None => continue,
            };
            let (Some(col1), Some(col2)) = (colliders.get(c1), colliders.get(c2)) else { continue };
            let (rb1, rb2) = (col1.parent().and_then(|b| bodies.get(b)), col2.parent().and_then(|b| bodies.get(b)));
            let active = is_moving_body(rb1) || is_moving_body(rb2);
            let idx = match idx {
                Some(i) => i,
                None => {
                    if !active || !pair.has_any_active_contact() {
                        continue;
                    }
                    let Some(material) = self.pair_material(c1, c2) else { continue };
                    self.states.push(PairState {
                        c1,
                        c2,
                        material,
                        material_epoch: epoch,
                        stock: false,
                        seen: 0,
                        n: 0.0,
                        warmstart: AtomicU32::new(0),
                        normal: Vector::Y,
                        point: Vector::ZERO,
                        slide: Mode::Static,
                        roll: Mode::Static,
                        spin: Mode::Static,
                        slide_defl: Vector::ZERO,
                        roll_defl: Vector::ZERO,
                        spin_defl: 0.0,
                        roll_axis: Vector::ZERO,
                        kappa: (-1.0, -1.0),
                        mu: material.mu_s() as f32,
                        tangent_velocity: Vector::ZERO,
                        roll_cap: 0.0,
                        spin_cap: 0.0,
                        joint: None,
                        contensou: Default::default(),
                    });
                    let i = self.states.len() - 1;
                    self.index.insert(k, i as u32);
                    i
                }
            };
            if !active {
                // Asleep: keep everything.
                self.states[idx].seen = step;
                continue;
            }
            // Normal force, normal and points from the solver's impulses. rapier 0.35 reports in
            // `impulse` the step's total plus the warm start it began with (the last substep
            // impulse of the previous step, counted twice); 0.36 reports the plain total.
            let mut imp = 0.0f32;
            let mut nsum = Vector::ZERO;
            let (mut p1sum, mut p2sum) = (Vector::ZERO, Vector::ZERO);
            let (mut p1avg, mut p2avg) = (Vector::ZERO, Vector::ZERO);
            let mut count = 0.0f32;
            for m in pair.solver_manifolds() {
                for c in &m.data.solver_contacts {
                    let id = c.contact_indices()[0] as usize;
                    let pi = m.points.get(id).map_or(0.0, |p| p.data.impulse).max(0.0);
                    let (a, b) = m.data.solver_contact_world_points(c, bodies);
                    imp += pi;
                    nsum += m.data.normal * pi;
                    p1sum += a * pi;
                    p2sum += b * pi;
                    p1avg += a;
                    p2avg += b;
                    count += 1.0;
                }
                if nsum == Vector::ZERO && !m.data.solver_contacts.is_empty() {
                    nsum = m.data.normal * 1e-12;
                }
            }
            if count == 0.0 {
                continue; // no active contact: swept below
            }
            let normal = if nsum.length() > 0.0 { nsum.normalize() } else { Vector::Y };
            let (p1, p2) = if imp > 0.0 { (p1sum / imp, p2sum / imp) } else { (p1avg / count, p2avg / count) };
            let point = (p1 + p2) * 0.5;
            if !finite(normal) || !finite(point) {
                continue;
            }
            let s = &mut self.states[idx];
            s.seen = step;
            let total = if compat::IMPULSE_INCLUDES_WARMSTART { imp - f32::from_bits(*s.warmstart.get_mut()) } else { imp };
            *s.warmstart.get_mut() = 0;
            s.n = (total * inv_dt).max(0.0);
            s.normal = normal;
            s.point = point;
            crate::contensou::observe(&mut s.contensou, pair, bodies, [col1, col2], [is_moving_body(rb1), is_moving_body(rb2)], normal, params.prediction_distance());
            if s.stock {
                continue;
            }
            // Relative kinematics after the step, each body at its own contact point (the
            // points the solver's friction rows use).
            let v1 = rb1.map_or(Vector::ZERO, |b| b.velocity_at_point(p1));
            let v2 = rb2.map_or(Vector::ZERO, |b| b.velocity_at_point(p2));
            let dv = v2 - v1;
            let slip = dv - normal * dv.dot(normal);
            let w1 = rb1.map_or(Vector::ZERO, |b| b.angvel());
            let w2 = rb2.map_or(Vector::ZERO, |b| b.angvel());
            let w = w2 - w1;
            let wn = w.dot(normal);
            let wt = w - normal * wn;
            // Thresholds. Stick → slip as in spec §2.2/§3.4/§4.2: when the deflection accumulated
            // while sticking (slide offset S, roll angle Θ, spin angle Ψ) exceeds the static
            // threshold of the material (μs N/K_E, Θ^s, 𝒮_s^ψ). Slip → stick when the relative
            // velocity falls below `slip_speed` (angular: `slip_speed·κ̄`).
            if s.kappa.0 < 0.0 {
                // New contact: curvatures not computed by before_step yet.
                let dir = if wt.length() > 1e-6 { normal.cross(wt).normalize() } else { any_perp(normal) };
                let k1 = collider_curvature(col1, point, normal, dir);
                let k2 = collider_curvature(col2, point, -normal, dir);
                s.kappa = (k1.directional + k2.directional, k1.mean + k2.mean);
            }
            let (ksum, kmean) = s.kappa;
            let d = s.material.derive(s.n as f64, ksum, 0.0, kmean, 0.0);
            let roll_eps = slip_speed * (0.5 * ksum as f32).max(1e-3);
            let spin_eps = slip_speed * (kmean as f32).max(1e-3);
            let loaded = s.n > 0.0;
            // rapier's solver leaves a small apparent slip on fast rolling contacts (its lever
            // arms are frozen over the step): 1 % of the relative body speed is ignored.
            let vrel = rb2.map_or(Vector::ZERO, |b| b.linvel()) - rb1.map_or(Vector::ZERO, |b| b.linvel());
            let tol = 0.01 * vrel.length();
            let slide_eps = slip_speed + tol;

            // Slide.
            advance_mode(&mut s.slide, &mut s.slide_defl, loaded, d.slide_static, slip.length() <= slide_eps, |defl| {
                let sl = slip.length();
                let excess = if sl > tol { slip * ((sl - tol) / sl) } else { Vector::ZERO };
                let dd = defl + excess * dt;
                let next = dd - normal * dd.dot(normal);
                (next, next.length() as f64)
            });
            // Roll (off, or degenerate curvature: stays static with no deflection).
            let roll_on = d.roll_static > 0.0;
            advance_mode(&mut s.roll, &mut s.roll_defl, loaded && roll_on, d.roll_static, wt.length() <= roll_eps || !roll_on, |defl| {
                let dd = defl + wt * dt;
                let next = dd - normal * dd.dot(normal);
                (next, next.length() as f64)
            });
            // Spin.
            let spin_on = d.spin_static > 0.0;
            advance_mode(&mut s.spin, &mut s.spin_defl, loaded && spin_on, d.spin_static, wn.abs() <= spin_eps || !spin_on, |defl| {
                let next = defl + wn * dt;
                (next, next.abs() as f64)
            });
            if !s.slide_defl.is_finite() || !s.roll_defl.is_finite() || !s.spin_defl.is_finite() {
                s.slide_defl = Vector::ZERO;
                s.roll_defl = Vector::ZERO;
                s.spin_defl = 0.0;
            }
        }
        for &(a, b) in &new_pairs {
            for c in [a, b] {
                let (w, _) = bit(c);
                fresh_cols[w] = 0;
            }
        }
        self.fresh_colliders = fresh_cols;
        new_pairs.clear();
        fresh.clear();
        self.fresh = fresh;
        *self.new_pairs.get_mut().unwrap_or_else(|e| e.into_inner()) = new_pairs;
        // Contacts not seen this step ended (or their colliders/bodies were removed).
        let mut i = 0;
        while i < self.states.len() {
            if self.states[i].seen != step {
                self.remove_state(i, joints);
            } else {
                i += 1;
            }
        }
        let _ = joints;
        crate::diagnostics::after_step_monitor(self, bodies, colliders, narrow_phase);
    }

    /// One step of a rapier [`PhysicsWorld`] with tribo friction: `before_step`,
    /// `world.step_with_events(&self.hooks(user_hooks), events)`, `after_step`.
    pub fn step_world<H: PhysicsHooks + ?Sized>(&mut self, world: &mut PhysicsWorld, user_hooks: &H, events: &dyn EventHandler) {
        self.before_step(&world.integration_parameters, &mut world.bodies, &mut world.colliders, &mut world.impulse_joints);
        world.step_with_events(&self.hooks(user_hooks), events);
        self.after_step(&world.integration_parameters, &world.bodies, &world.colliders, &world.narrow_phase, &mut world.impulse_joints);
    }
}

/// The adapter's one stick/slip detector, shared by slide, roll and spin. While `Static` and
/// `loaded`, the stick deflection advances by `accumulate(deflection) -> (new, size)`; when its
/// size exceeds `threshold` the mechanism turns `Kinetic`. A `Kinetic` mechanism returns to
/// `Static` once `settled` (its relative velocity is below the slip tolerance). The deflection is
/// reset on every switch and whenever a static mechanism is unloaded.
fn advance_mode<D: Copy + Default>(
    mode: &mut Mode,
    deflection: &mut D,
    loaded: bool,
    threshold: f64,
    settled: bool,
    accumulate: impl FnOnce(D) -> (D, f64),
) {
    match *mode {
        Mode::Static if loaded => {
            let (next, size) = accumulate(*deflection);
            *deflection = next;
            if size > threshold {
                *mode = Mode::Kinetic;
                *deflection = D::default();
            }
        }
        Mode::Static => *deflection = D::default(),
        Mode::Kinetic if settled => {
            *mode = Mode::Static;
            *deflection = D::default();
        }
        Mode::Kinetic => {}
    }
}
