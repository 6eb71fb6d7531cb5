//! Per-contact state store and the before/after-step entry points.

use std::collections::HashMap;
use std::fmt;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Mutex;

use crate::compat;
use crate::curvature::{collider_curvature, Curvature};
use crate::hooks::TriboHooks;
use crate::rapier3d::prelude::*;
use crate::{FrictionMaterial, PairTable};
use tribo::tracking::{Material, Mode};

#[cfg(feature = "serde-serialize")]
mod snapshot;

/// Marker of the objects tribo puts into a rapier world: stored in `GenericJoint::user_data` of
/// its motor joints and in `RigidBody::user_data` of its hidden anchor body. A new store removes
/// marked joints it does not own on its first [`TriboRapier::before_step`];
/// [`TriboRapier::remove_tribo_objects`] removes all of them.
pub const TRIBO_JOINT_USER_DATA: u128 = 0x7472_6962_6f5f_6d6f_746f_725f_6a6f_696e; // "tribo_motor_join"

/// Tuning of the rapier mechanism. The defaults suit SI scenes (metres, kilograms).
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde-serialize", derive(serde::Serialize, serde::Deserialize))]
pub struct Settings {
    /// Relative slip speed (m/s) below which a slipping contact sticks again (a sticking one
    /// slips when its accumulated slip exceeds the material's static threshold `μs N/K_E`).
    /// For roll and spin the angular speed is `slip_speed · κ̄` (κ̄ the contact's curvature:
    /// `slip_speed/R` for a ball on a plane). Default `1e-3`.
    pub slip_speed: f32,
    /// Fraction (0..=1) of the accumulated stick deflection (slide offset from the anchor,
    /// roll and spin angles) removed per step by the anchor pull-back, which never moves the
    /// contact faster than the slip-detection speed ([`slip_speed`](Self::slip_speed), angular
    /// `slip_speed · κ̄`): a faster pull-back makes the contacts of a body wedged in a pile
    /// fight each other and keeps it jittering. 0 disables it (the contact may then creep at
    /// the solver's tolerance). Default `0.5`.
    pub anchor_gain: f32,
    /// Damping factor of the motor rows (rapier `set_motor_velocity` factor); large means a rigid
    /// motor up to its torque bound. Default `1e6`.
    pub motor_damping: f32,
}

impl Settings {
    /// The settings clamped to sane ranges: `slip_speed > 0`, `anchor_gain ∈ [0, 1]`,
    /// `motor_damping > 0`; NaN or out-of-range values take the default.
    fn sanitized(self) -> Settings {
        let d = Settings::default();
        let pos = |x: f32, dflt: f32| if x.is_finite() && x > 0.0 { x } else { dflt };
        Settings {
            slip_speed: pos(self.slip_speed, d.slip_speed),
            anchor_gain: if self.anchor_gain.is_finite() {
                self.anchor_gain.clamp(0.0, 1.0)
            } else {
                d.anchor_gain
            },
            motor_damping: pos(self.motor_damping, d.motor_damping),
        }
    }
}

impl Default for Settings {
    fn default() -> Self {
        Settings { slip_speed: 1e-3, anchor_gain: 0.5, motor_damping: 1e6 }
    }
}

/// A problem tribo found in the scene. The affected contact falls back to stock rapier
/// friction; nothing non-finite enters the simulation.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde-serialize", derive(serde::Serialize, serde::Deserialize))]
pub enum Diagnostic {
    /// A dynamic body with zero, negative or non-finite mass touches a tribo collider (give it
    /// a collider with density or additional mass). Its contacts use stock friction.
    ZeroMassBody {
        /// The body.
        body: RigidBodyHandle,
    },
    /// [`TriboRapier::after_step`] ran after a step that [`TriboRapier::before_step`] did not
    /// prepare: materials given since the last prepared step are not active yet, removed
    /// colliders are not cleaned up and the normal forces of that step may be off. Call
    /// `before_step` right before every `PhysicsPipeline::step`. Reported once per store.
    StepNotPrepared {
        /// The store's step count (number of `after_step` calls) when it happened.
        step: u64,
    },
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Diagnostic::ZeroMassBody { body } => write!(
                f,
                "dynamic rigid body {body:?} has zero or non-finite mass; its contacts fall back to stock rapier friction"
            ),
            Diagnostic::StepNotPrepared { step } => write!(
                f,
                "tribo after_step (step {step}) ran without before_step before the physics step: call TriboRapier::before_step right before every PhysicsPipeline::step"
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

/// A collider handle as one number: index in the low half, generation in the high half.
fn handle_key(c: ColliderHandle) -> u64 {
    let (i, g) = c.into_raw_parts();
    ((g as u64) << 32) | i as u64
}

fn key(c1: ColliderHandle, c2: ColliderHandle) -> PairKey {
    let (i1, g1) = c1.into_raw_parts();
    let (i2, g2) = c2.into_raw_parts();
    PairKey(((i1 as u64) << 32) | i2 as u64, ((g1 as u64) << 32) | g2 as u64)
}

/// What the hook applies to one contact in the next step, kept apart from the bulky
/// [`PairState`] so the hook reads one small entry per contact.
#[derive(Clone, Copy, Debug)]
#[cfg_attr(feature = "serde-serialize", derive(serde::Serialize, serde::Deserialize))]
pub(crate) struct Plan {
    /// Manifold friction coefficient.
    pub mu: f32,
    /// Anchor pull-back of a sticking contact (zero otherwise).
    pub tangent_velocity: Vector,
    /// Stock rapier friction (zero-mass fallback): the hook leaves the contact alone.
    pub stock: bool,
    /// Contensou flat face: collapse the solver contacts into one.
    pub collapse: bool,
}

/// How the two surfaces moved relative to each other when a contact began (the velocities the
/// step starts from, seen by the hook).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Onset {
    /// The surfaces already slid past each other (the contact starts kinetic).
    pub sliding: bool,
    /// The bodies already turned relative to each other (rolling or spinning onto the contact).
    pub turning: bool,
}

/// A contact the hook saw for the first time.
#[derive(Clone, Copy, Debug)]
#[cfg_attr(feature = "serde-serialize", derive(serde::Serialize, serde::Deserialize))]
pub(crate) struct NewPair {
    c1: ColliderHandle,
    c2: ColliderHandle,
    /// The surfaces already slid past each other (the contact starts kinetic).
    sliding: bool,
    /// The bodies already turned relative to each other.
    turning: bool,
    /// The user's conveyor velocity on it (see [`TriboHooks`]).
    belt: Vector,
}

#[derive(Clone)]
#[cfg_attr(feature = "serde-serialize", derive(serde::Serialize, serde::Deserialize))]
struct PairState {
    c1: ColliderHandle,
    c2: ColliderHandle,
    /// What the contact's geometry was planned from: each collider's shape (address of its
    /// shared shape) and parent body. `before_step` compares them with the colliders' current
    /// ones and recomputes the curvatures (capacities) when a shape or a parent changed.
    /// Not saved in a snapshot: a restored state has `[0, 0]` ([`SHAPES_RESTORED`]) and takes
    /// the restored colliders' shapes as its own on the next `before_step`.
    #[cfg_attr(feature = "serde-serialize", serde(skip))]
    shapes: [usize; 2],
    parents: [Option<RigidBodyHandle>; 2],
    /// Index of the pair in the narrow phase's contact graph at the last `after_step`
    /// (checked before use).
    edge: u32,
    material: Material,
    material_epoch: u64,
    /// The Contensou model of the pair, if any (from the materials).
    contensou_model: Option<crate::contensou::Contensou>,
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
    /// The two surfaces' curvatures at the last plan (along its rolling direction), once known.
    curvature: Option<(Curvature, Curvature)>,
    /// Both shapes have direction-independent curvature (balls, flat shapes): `curvature` is
    /// computed once.
    kappa_const: bool,
    roll_cap: f32,
    spin_cap: f32,
    joint: Option<ImpulseJointHandle>,
    /// The next `before_step` must plan this contact (material changed, anchor body missing).
    pending: bool,
    contensou: crate::contensou::PairContensou,
    /// Onset hold of roll ([`HOLD_ROLL`]) and spin ([`HOLD_SPIN`]): see [`hold_step`].
    hold: u8,
    /// Deflections (roll, spin) after the contact's first step, while held.
    hold_onset: [f32; 2],
    /// Static roll threshold Θ^s of the last step (rad).
    roll_threshold: f32,
    /// Relative roll and spin speeds (rad/s) after the previous step.
    last_w: [f32; 2],
    /// How much the last step's kinetic torque took off those speeds (rad/s), 0 if none.
    kinetic_drop: [f32; 2],
}

/// [`PairState::shapes`] of a state restored from a snapshot (no shape lives at address 0).
const SHAPES_RESTORED: [usize; 2] = [0, 0];

/// [`PairState::hold`] bit of roll.
const HOLD_ROLL: u8 = 1;
/// [`PairState::hold`] bit of spin.
const HOLD_SPIN: u8 = 2;

/// The tribo friction store for one rapier world: per-collider materials and per-contact state.
///
/// Per step: [`before_step`](Self::before_step), `PhysicsPipeline::step` with
/// [`hooks`](Self::hooks), [`after_step`](Self::after_step). All entry points borrow the rapier
/// sets; nothing is owned, so the same store works under bevy_rapier.
///
/// The store puts motor joints and one hidden fixed anchor body into the user's sets, marked
/// with [`TRIBO_JOINT_USER_DATA`]. Snapshots: `Clone` the store together with the rapier sets,
/// or, with the `serde-serialize` feature, serialize it with them (after `after_step`) and
/// restore both together.
/// A world restored without its store is adopted by a new store (or one after
/// [`forget_world`](Self::forget_world)) on its first `before_step`: marked joints it does not
/// own are removed, a marked anchor body is reused. Dropping a store without
/// [`clear`](Self::clear) leaves its joints in the world until a new store adopts it or
/// [`remove_tribo_objects`](Self::remove_tribo_objects) removes them.
pub struct TriboRapier {
    settings: Settings,
    /// Materials keyed by the full collider handle (index and generation): a handle whose slot
    /// rapier reuses for a new collider never sees the old collider's material.
    materials: FastMap<u64, FrictionMaterial>,
    /// Per-pair material overrides.
    pair_table: PairTable,
    /// The colliders with a material, in the order they were given one (the deterministic
    /// order `before_step` visits them in).
    material_colliders: Vec<ColliderHandle>,
    material_epoch: u64,
    index: FastMap<PairKey, u32>,
    states: Vec<PairState>,
    /// The hook's plan of each contact, parallel to `states`.
    plans: Vec<Plan>,
    /// Σ warm-start normal impulse (f32 bits) the solver starts this step with, summed by the
    /// hook over each contact's solver manifolds; parallel to `states` (rapier 0.35 adds it to
    /// the reported impulse).
    warm: Vec<AtomicU32>,
    /// A plan waits for the hidden anchor body (created by the next `before_step`).
    needs_anchor: bool,
    /// Pairs the hook saw without state (new contacts), for the next `after_step`.
    new_pairs: Mutex<Vec<NewPair>>,
    /// Conveyor velocities the user's hook set this step, one (slot, velocity) per solver
    /// manifold: `after_step` measures those contacts' slip relative to the belt.
    belts: Mutex<Vec<(u32, Vector)>>,
    /// The `NewPair` of each state `after_step` created in this step (kept to reuse its
    /// allocation).
    new_info: Vec<NewPair>,
    anchor: Option<RigidBodyHandle>,
    diagnostics: Vec<Diagnostic>,
    reported: Vec<RigidBodyHandle>,
    step: u64,
    /// `before_step` ran since the last `after_step`.
    prepared: bool,
    /// [`Diagnostic::StepNotPrepared`] was reported.
    reported_unprepared: bool,
    /// The store has taken over the tribo objects of the world it steps: on the first
    /// `before_step` of a store that has not, motor joints carrying [`TRIBO_JOINT_USER_DATA`]
    /// that no contact of this store owns are removed (orphans of a dropped store or of a
    /// restored snapshot) and an existing anchor body is adopted.
    adopted: bool,
    pub(crate) realizability: crate::diagnostics::Monitor,
}

/// A copy of the store for an in-memory snapshot: clone the rapier sets (bodies, colliders,
/// joints, islands, broad and narrow phase) and the store together at the same point (after
/// `after_step`, before the next `before_step`); stepping the copies continues exactly like the
/// original. The copy refers to the handles of the copied world: it must step that world.
impl Clone for TriboRapier {
    fn clone(&self) -> Self {
        TriboRapier {
            settings: self.settings,
            materials: self.materials.clone(),
            pair_table: self.pair_table.clone(),
            material_colliders: self.material_colliders.clone(),
            material_epoch: self.material_epoch,
            index: self.index.clone(),
            states: self.states.clone(),
            plans: self.plans.clone(),
            warm: self.warm.iter().map(|w| AtomicU32::new(w.load(Ordering::Relaxed))).collect(),
            needs_anchor: self.needs_anchor,
            new_pairs: Mutex::new(locked_clone(&self.new_pairs)),
            belts: Mutex::new(locked_clone(&self.belts)),
            new_info: self.new_info.clone(),
            anchor: self.anchor,
            diagnostics: self.diagnostics.clone(),
            reported: self.reported.clone(),
            step: self.step,
            prepared: self.prepared,
            reported_unprepared: self.reported_unprepared,
            adopted: self.adopted,
            realizability: self.realizability.clone(),
        }
    }
}

fn locked_clone<T: Clone>(m: &Mutex<Vec<T>>) -> Vec<T> {
    match m.lock() {
        Ok(v) => v.clone(),
        Err(e) => e.into_inner().clone(),
    }
}

impl Default for TriboRapier {
    fn default() -> Self {
        Self::new()
    }
}

fn is_dynamic_body(rb: Option<&RigidBody>) -> bool {
    rb.is_some_and(|rb| rb.is_dynamic())
}

/// The identity of a collider's current shape: the address of its shared shape (`set_shape`
/// installs a new one).
fn shape_id(c: &Collider) -> usize {
    std::sync::Arc::as_ptr(&c.shared_shape().0) as *const () as usize
}

fn is_moving_body(rb: Option<&RigidBody>) -> bool {
    rb.is_some_and(|rb| rb.is_dynamic() && !rb.is_sleeping())
}

/// The output clamp of [`ContactInfo`]: NaN → 0, ±∞ → ±`f32::MAX` (the internal values are
/// finite already; this keeps the view finite whatever a material's extreme values give).
fn finite_or_max(x: f32) -> f32 {
    if x.is_nan() {
        0.0
    } else {
        x.clamp(-f32::MAX, f32::MAX)
    }
}

fn finite(v: Vector) -> bool {
    v.is_finite()
}

fn any_perp(n: Vector) -> Vector {
    let a = if n.x.abs() < 0.6 {
        Vector::X
    } else if n.y.abs() < 0.6 {
        Vector::Y
    } else {
        Vector::Z
    };
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
        let settings = settings.sanitized();
        TriboRapier {
            settings,
            materials: FastMap::default(),
            pair_table: PairTable::default(),
            material_colliders: Vec::new(),
            material_epoch: 0,
            index: FastMap::default(),
            states: Vec::new(),
            plans: Vec::new(),
            warm: Vec::new(),
            needs_anchor: false,
            new_pairs: Mutex::new(Vec::new()),
            belts: Mutex::new(Vec::new()),
            new_info: Vec::new(),
            anchor: None,
            diagnostics: Vec::new(),
            reported: Vec::new(),
            step: 0,
            prepared: false,
            reported_unprepared: false,
            adopted: false,
            realizability: Default::default(),
        }
    }

    /// The settings in use.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// Replaces the settings (clamped as in [`with_settings`](Self::with_settings)); they apply
    /// from the next step on. Contact states and materials are kept.
    pub fn set_settings(&mut self, settings: Settings) {
        self.settings = settings.sanitized();
    }

    /// Sets the friction material of a collider (replacing any previous one). tribo turns on
    /// `ActiveHooks::MODIFY_SOLVER_CONTACTS` on it at the next [`before_step`](Self::before_step).
    pub fn set_material(&mut self, collider: ColliderHandle, material: impl Into<FrictionMaterial>) {
        if self.materials.insert(handle_key(collider), material.into()).is_none() {
            self.material_colliders.push(collider);
        }
        self.material_epoch += 1;
    }

    /// Removes a collider's material (its contacts return to stock friction). Returns the old one.
    pub fn remove_material(&mut self, collider: ColliderHandle) -> Option<FrictionMaterial> {
        let m = self.materials.remove(&handle_key(collider))?;
        self.material_colliders.retain(|&c| c != collider);
        self.material_epoch += 1;
        Some(m)
    }

    /// The material of a collider, if set.
    pub fn material(&self, collider: ColliderHandle) -> Option<&FrictionMaterial> {
        if self.materials.is_empty() {
            return None;
        }
        self.materials.get(&handle_key(collider))
    }

    /// The combined material of a contact between two colliders with rapier's default combine
    /// rule (`Average`) on both sides and this store's pair table, or `None` for stock friction.
    /// The store's contacts also use the colliders' own `friction_combine_rule`
    /// ([`FrictionMaterial::combine_pair`]).
    pub fn pair_material(&self, c1: ColliderHandle, c2: ColliderHandle) -> Option<Material> {
        let fallback = (tribo::tracking::CombineRule::Average, tribo::tracking::CombineRule::Average);
        FrictionMaterial::combine_pair(self.material(c1), self.material(c2), fallback, Some(&self.pair_table))
            .map(|(m, _)| m)
    }

    /// The material and Contensou model of a contact between two colliders: the one place
    /// the store combines materials (rules: [`FrictionMaterial::combine_pair`], with each
    /// collider's rapier `friction_combine_rule` and the pair table).
    fn contact_material(
        &self,
        (c1, col1): (ColliderHandle, &Collider),
        (c2, col2): (ColliderHandle, &Collider),
    ) -> Option<(Material, Option<crate::contensou::Contensou>)> {
        let fallback = (
            crate::combine_rule_of(col1.friction_combine_rule()),
            crate::combine_rule_of(col2.friction_combine_rule()),
        );
        FrictionMaterial::combine_pair(self.material(c1), self.material(c2), fallback, Some(&self.pair_table))
    }

    /// Sets the material of every contact between colliders whose materials carry ids `a` and
    /// `b` ("ice on steel", either order), replacing their combination. Applies from the next
    /// step on, to existing contacts too.
    pub fn set_pair_material(
        &mut self,
        a: tribo::tracking::MaterialId,
        b: tribo::tracking::MaterialId,
        material: impl Into<FrictionMaterial>,
    ) {
        self.pair_table.insert(a, b, material);
        self.material_epoch += 1;
    }

    /// Removes the pair override of `a`–`b`.
    pub fn remove_pair_material(
        &mut self,
        a: tribo::tracking::MaterialId,
        b: tribo::tracking::MaterialId,
    ) -> Option<FrictionMaterial> {
        self.material_epoch += 1;
        self.pair_table.remove(a, b)
    }

    /// The per-pair overrides.
    pub fn pair_table(&self) -> &PairTable {
        &self.pair_table
    }

    /// Replaces the per-pair overrides.
    pub fn set_pair_table(&mut self, table: PairTable) {
        self.pair_table = table;
        self.material_epoch += 1;
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

    /// The plan of a contact with state (`slot` from [`slot`](Self::slot)).
    #[inline]
    pub(crate) fn plan(&self, slot: u32) -> &Plan {
        &self.plans[slot as usize]
    }

    /// Adds the warm-start normal impulse of one solver manifold of contact `slot`. Each pair is
    /// processed by one thread of the narrow phase, so a plain load and store suffice.
    #[inline]
    pub(crate) fn add_warmstart(&self, slot: u32, impulse: f32) {
        if compat::IMPULSE_INCLUDES_WARMSTART && impulse != 0.0 {
            let w = &self.warm[slot as usize];
            w.store((f32::from_bits(w.load(Ordering::Relaxed)) + impulse).to_bits(), Ordering::Relaxed);
        }
    }

    /// Records the user's conveyor velocity on one solver manifold of contact `slot`.
    pub(crate) fn add_belt(&self, slot: u32, tangent_velocity: Vector) {
        if let Ok(mut v) = self.belts.lock() {
            v.push((slot, tangent_velocity));
        }
    }

    /// Friction coefficient for a contact that appeared in this step's narrow phase (no state
    /// yet), or `None` for stock: static friction unless it already slides. The pair is
    /// recorded so that `after_step` creates its state.
    pub(crate) fn new_contact_friction(
        &self,
        c1: ColliderHandle,
        c2: ColliderHandle,
        belt: Vector,
        onset: impl FnOnce() -> Onset,
    ) -> Option<f32> {
        let m = self.pair_material(c1, c2)?;
        let Onset { sliding, turning } = onset();
        if let Ok(mut v) = self.new_pairs.lock() {
            v.push(NewPair { c1, c2, sliding, turning, belt });
        }
        Some(if sliding { m.mu_k() } else { m.mu_s() } as f32)
    }

    /// The Contensou state of the contact between two colliders (either order), if it has a
    /// Contensou model (see [`crate::contensou`]).
    pub fn contensou_info(
        &self,
        c1: ColliderHandle,
        c2: ColliderHandle,
    ) -> Option<crate::contensou::ContensouInfo> {
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

    fn info(s: &PairState, p: &Plan) -> ContactInfo {
        ContactInfo {
            collider1: s.c1,
            collider2: s.c2,
            normal_force: finite_or_max(s.n),
            normal: s.normal,
            point: s.point,
            slide: s.slide,
            roll: s.roll,
            spin: s.spin,
            friction: finite_or_max(p.mu),
            roll_capacity: finite_or_max(s.roll_cap),
            spin_capacity: finite_or_max(s.spin_cap),
            joint: s.joint,
            stock_fallback: p.stock,
        }
    }

    /// The state of the contact between two colliders (either order).
    pub fn contact(&self, c1: ColliderHandle, c2: ColliderHandle) -> Option<ContactInfo> {
        let i = self.index.get(&key(c1, c2)).or_else(|| self.index.get(&key(c2, c1)))?;
        Some(Self::info(&self.states[*i as usize], &self.plans[*i as usize]))
    }

    /// All contacts with tribo state.
    pub fn contacts(&self) -> impl Iterator<Item = ContactInfo> + '_ {
        self.states.iter().zip(&self.plans).map(|(s, p)| Self::info(s, p))
    }

    fn remove_state(&mut self, i: usize, joints: &mut ImpulseJointSet) {
        let s = self.states.swap_remove(i);
        self.plans.swap_remove(i);
        self.warm.swap_remove(i);
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
    /// switching a world back to stock friction). Materials are kept.
    pub fn clear(&mut self, joints: &mut ImpulseJointSet) {
        while !self.states.is_empty() {
            let last = self.states.len() - 1;
            self.remove_state(last, joints);
        }
    }

    /// Forgets every contact state **without touching the rapier sets**, for when the world
    /// this store stepped was replaced (a snapshot restored without this store's matching
    /// copy): the joint handles the store held mean nothing in the restored world. Materials
    /// are kept. At the next [`before_step`](Self::before_step) the store adopts the restored
    /// world like a new store does (removes tribo motor joints no contact owns, adopts the
    /// anchor body), so no orphan motor joint remains.
    pub fn forget_world(&mut self) {
        self.states.clear();
        self.plans.clear();
        self.warm.clear();
        self.index.clear();
        self.new_info.clear();
        self.new_pairs.get_mut().unwrap_or_else(|e| e.into_inner()).clear();
        self.belts.get_mut().unwrap_or_else(|e| e.into_inner()).clear();
        self.anchor = None;
        self.needs_anchor = false;
        self.adopted = false;
    }

    /// Removes every object tribo puts into a rapier world — the motor joints and the hidden
    /// anchor body, all carrying the marker [`TRIBO_JOINT_USER_DATA`] in their `user_data` —
    /// whichever store made them. Returns the number of joints and bodies removed.
    ///
    /// Use it to turn a world (for example one restored from a snapshot) back into a plain
    /// rapier world. A store that keeps stepping the world needs no such call: a new store, or
    /// one after [`forget_world`](Self::forget_world), cleans up the orphans by itself on its
    /// first [`before_step`](Self::before_step). Any store still attached to the world must
    /// [`forget_world`](Self::forget_world) afterwards.
    pub fn remove_tribo_objects(
        islands: &mut IslandManager,
        bodies: &mut RigidBodySet,
        colliders: &mut ColliderSet,
        impulse_joints: &mut ImpulseJointSet,
        multibody_joints: &mut MultibodyJointSet,
    ) -> (usize, usize) {
        let marked_joints: Vec<ImpulseJointHandle> = impulse_joints
            .iter()
            .filter(|(_, j)| j.data.user_data == TRIBO_JOINT_USER_DATA)
            .map(|(h, _)| h)
            .collect();
        for &h in &marked_joints {
            impulse_joints.remove(h, true);
        }
        let marked_bodies: Vec<RigidBodyHandle> = bodies
            .iter()
            .filter(|(_, b)| b.user_data == TRIBO_JOINT_USER_DATA && b.is_fixed() && b.colliders().is_empty())
            .map(|(h, _)| h)
            .collect();
        for &h in &marked_bodies {
            compat::remove_body(islands, bodies, colliders, impulse_joints, multibody_joints, h);
        }
        (marked_joints.len(), marked_bodies.len())
    }

    /// Takes over a world on this store's first `before_step`: removes the tribo motor joints
    /// no contact of this store owns and adopts an existing anchor body.
    fn adopt_world(&mut self, bodies: &RigidBodySet, joints: &mut ImpulseJointSet) {
        self.adopted = true;
        let owned: std::collections::HashSet<ImpulseJointHandle> =
            self.states.iter().filter_map(|s| s.joint).collect();
        let orphans: Vec<ImpulseJointHandle> = joints
            .iter()
            .filter(|(h, j)| j.data.user_data == TRIBO_JOINT_USER_DATA && !owned.contains(h))
            .map(|(h, _)| h)
            .collect();
        for h in orphans {
            joints.remove(h, true);
        }
        if self.anchor.is_none_or(|a| !bodies.contains(a)) {
            self.anchor = bodies
                .iter()
                .find(|(_, b)| {
                    b.user_data == TRIBO_JOINT_USER_DATA && b.is_fixed() && b.colliders().is_empty()
                })
                .map(|(h, _)| h);
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

    /// The hidden anchor body and its pose, if it exists.
    fn anchor_pose(&self, bodies: &RigidBodySet) -> Option<(RigidBodyHandle, Pose)> {
        self.anchor.and_then(|a| Some((a, *bodies.get(a)?.position())))
    }

    fn report_zero_mass(&mut self, body: RigidBodyHandle) {
        if !self.reported.contains(&body) {
            self.reported.push(body);
            self.diagnostics.push(Diagnostic::ZeroMassBody { body });
        }
    }

    /// Call right before `PhysicsPipeline::step`: drops the state and motor of contacts whose
    /// colliders or bodies were removed, re-combines materials changed since the last step,
    /// sets the hook flag of material colliders, and plans the Contensou contacts (their
    /// limits depend on the velocities the step starts from). The plan of every other contact
    /// (friction coefficient, anchor pull-back, motor bounds) was made by the last
    /// [`after_step`](Self::after_step) together with its stick/slip update.
    pub fn before_step(
        &mut self,
        params: &IntegrationParameters,
        bodies: &mut RigidBodySet,
        colliders: &mut ColliderSet,
        joints: &mut ImpulseJointSet,
    ) {
        self.prepared = true;
        if !self.adopted {
            self.adopt_world(bodies, joints);
        }
        // Materials of removed colliders go; live ones get the hook flag.
        let mut k = 0;
        while k < self.material_colliders.len() {
            let h = self.material_colliders[k];
            match colliders.get(h) {
                None => {
                    // Removed collider: its material goes (only its own: the full handle is the
                    // key, a new collider in the same slot keeps the material it was given).
                    self.materials.remove(&handle_key(h));
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
        // The hidden fixed body that motors of world sides (no body, or a fixed one) attach to,
        // once a motor needs it (`after_step` cannot insert bodies; the contacts that waited for
        // it are planned below).
        if self.needs_anchor {
            self.needs_anchor = false;
            self.anchor_or_create(bodies);
        }
        let anchor = self.anchor_pose(bodies);

        let dt = params.dt;
        let epoch = self.material_epoch;
        let mut i = 0;
        while i < self.states.len() {
            let (c1, c2) = (self.states[i].c1, self.states[i].c2);
            let (Some(col1), Some(col2)) = (colliders.get(c1), colliders.get(c2)) else {
                self.remove_state(i, joints);
                continue;
            };
            let (p1, p2) = (col1.parent(), col2.parent());
            let (rb1, rb2) = (p1.and_then(|b| bodies.get(b)), p2.and_then(|b| bodies.get(b)));
            if p1.is_some_and(|_| rb1.is_none()) || p2.is_some_and(|_| rb2.is_none()) {
                self.remove_state(i, joints);
                continue;
            }
            // A contact between two non-dynamic sides (a body made fixed or kinematic, its body
            // removed with the collider kept) has no tribo friction any more: released with its
            // motor.
            if !(is_dynamic_body(rb1) || is_dynamic_body(rb2)) {
                self.remove_state(i, joints);
                continue;
            }
            // A shape or parent changed (`set_shape`, `set_parent`): the curvatures, hence the
            // roll and spin capacities, are recomputed and the contact is planned again.
            let shapes = [shape_id(col1), shape_id(col2)];
            let s = &mut self.states[i];
            if s.shapes == SHAPES_RESTORED {
                // Restored from a snapshot together with its world: the shapes are the ones it
                // was planned from (at new addresses).
                s.shapes = shapes;
            }
            if s.shapes != shapes || s.parents != [p1, p2] {
                s.shapes = shapes;
                s.parents = [p1, p2];
                s.curvature = None;
                s.kappa_const =
                    [col1, col2].iter().all(|c| crate::curvature::direction_independent(c.shape()));
                s.pending = true;
            }
            if self.states[i].material_epoch != epoch {
                match self.contact_material((c1, col1), (c2, col2)) {
                    Some((m, cz)) => {
                        let s = &mut self.states[i];
                        s.material = m;
                        s.material_epoch = epoch;
                        s.contensou_model = cz;
                        s.pending = true;
                    }
                    None => {
                        self.remove_state(i, joints);
                        continue;
                    }
                }
            }
            let s = &self.states[i];
            if (s.pending || s.contensou_model.is_some())
                && dt > 0.0
                && dt.is_finite()
                && (is_moving_body(rb1) || is_moving_body(rb2))
            {
                self.plan_contact(i, [col1, col2], [p1, p2], [rb1, rb2], anchor, dt, joints);
            }
            i += 1;
        }
    }

    /// Plans contact `i` for the next step from its modes, deflections and last normal force:
    /// the hook's friction coefficient and anchor pull-back, and the roll/spin motor (created,
    /// updated in place or removed). Zero-mass dynamic bodies switch the contact to stock.
    #[allow(clippy::too_many_arguments)]
    fn plan_contact(
        &mut self,
        i: usize,
        cols: [&Collider; 2],
        parents: [Option<RigidBodyHandle>; 2],
        rbs: [Option<&RigidBody>; 2],
        anchor: Option<(RigidBodyHandle, Pose)>,
        dt: f32,
        joints: &mut ImpulseJointSet,
    ) {
        let gain = self.settings.anchor_gain;
        let damping = self.settings.motor_damping;
        let slip_speed = self.settings.slip_speed;
        let [col1, col2] = cols;
        let [rb1, rb2] = rbs;
        // Zero-mass dynamic bodies: stock fallback.
        for (h, rb) in parents.into_iter().zip(rbs) {
            if let (Some(h), Some(rb)) = (h, rb) {
                if rb.is_dynamic() && !(rb.mass() > 0.0 && rb.mass().is_finite()) {
                    self.report_zero_mass(h);
                    let s = &mut self.states[i];
                    s.pending = false;
                    self.plans[i].stock = true;
                    if let Some(j) = s.joint.take() {
                        joints.remove(j, false);
                    }
                    return;
                }
            }
        }
        let s = &mut self.states[i];
        let plan = &mut self.plans[i];
        plan.stock = false;
        s.pending = false;

        // Geometry and capacities.
        let n = s.normal;
        let point = s.point;
        let nf = s.n;
        // Roll axis: the stick deflection (static) or the rolling direction (relative angular
        // velocity), else the previous axis; always re-projected on the tangent plane.
        let w = rb2.map_or(Vector::ZERO, |b| b.angvel()) - rb1.map_or(Vector::ZERO, |b| b.angvel());
        let wt = w - n * w.dot(n);
        let cand = match s.roll {
            // Sticking: along the accumulated roll deflection (the direction the load turns the
            // body); rolling: along the rolling axis.
            // A deflection small against the static threshold (pulled back, or noise) keeps the
            // previous axis: its direction says nothing about the load, and a single roll row
            // off the load direction would leave the rest of the load unresisted.
            Mode::Static if s.roll_defl.length() > (0.5 * s.roll_threshold).max(1e-7) => {
                s.roll_defl - n * s.roll_defl.dot(n)
            }
            Mode::Static if s.roll_axis != Vector::ZERO => s.roll_axis - n * s.roll_axis.dot(n),
            _ if wt.length() > 1e-6 => wt,
            _ => s.roll_axis - n * s.roll_axis.dot(n),
        };
        let e = if cand.length() > 1e-6 && finite(cand) { cand.normalize() } else { any_perp(n) };
        let ez = n.cross(e);
        // Curvatures along the direction of motion of a body rolling about e (both balls or
        // flat shapes: independent of the direction, computed once).
        let (k1, k2) = match s.curvature {
            Some(k) if s.kappa_const => k,
            _ => {
                let k = (collider_curvature(col1, point, n, ez), collider_curvature(col2, point, -n, ez));
                s.curvature = Some(k);
                k
            }
        };
        let mat = &s.material;
        let roll_cap = mat.roll_torque_capacity(s.roll, nf as f64, k1.directional, k2.directional) as f32;
        let spin_cap = mat.spin_torque_capacity(s.spin, nf as f64, k1.mean, k2.mean) as f32;
        let mu = mat.mu(s.slide) as f32;
        // Contensou contact model: coupled slide/spin limits and flat-face tipping support.
        let (mu, spin_cap, (cz_tilt, cz_level)) = match &s.contensou_model {
            Some(cfg) => {
                let input = crate::contensou::StepInput {
                    contensou: cfg,
                    material: mat,
                    n: nf,
                    normal: n,
                    point,
                    slide: s.slide,
                    spin: s.spin,
                    rb1,
                    rb2,
                    mean_curvature: k1.mean + k2.mean,
                    slip_speed,
                    axis_y: e,
                    axis_z: ez,
                    gain,
                    dt,
                };
                let o = crate::contensou::step_limits(&input, &mut s.contensou);
                (o.mu, o.spin_cap, (o.tilt, o.level))
            }
            None => {
                s.contensou = Default::default();
                (mu, spin_cap, ([0.0; 2], Vector::ZERO))
            }
        };
        plan.collapse = s.contensou.collapse;
        // Anchor pull-back of a sticking contact: `gain` of the deflection per step, at most at
        // the slip-detection speed. Faster pull-back makes the several contacts of a body in a
        // pile fight each other (they cannot all return to their anchors) and keeps it jittering.
        let (roll_eps, spin_eps) = angular_slip_speeds(slip_speed, (k1, k2));
        let pull = |d: Vector, limit: f32| (-d * (gain / dt)).clamp_length_max(limit);
        let tv = if s.slide == Mode::Static && s.roll == Mode::Static && gain > 0.0 {
            pull(s.slide_defl - n * s.slide_defl.dot(n), slip_speed)
        } else {
            Vector::ZERO
        };
        // Motor targets: pull a sticking roll/spin back the same way.
        // A contact held after its onset (see `hold_step`) returns its first step's deflection
        // at the full gain: that deflection is an artefact of the missing first motor step, and
        // the body may fall asleep before a pull-back at the slip-detection speed ends.
        let (roll_lim, spin_lim) = (
            if s.hold & HOLD_ROLL != 0 { f32::MAX } else { roll_eps },
            if s.hold & HOLD_SPIN != 0 { f32::MAX } else { spin_eps },
        );
        let roll_target = if s.roll == Mode::Static { pull(s.roll_defl, roll_lim) } else { Vector::ZERO };
        let spin_target = if s.spin == Mode::Static {
            (-s.spin_defl * (gain / dt)).clamp(-spin_lim, spin_lim)
        } else {
            0.0
        };
        let geometry_ok = finite(n) && finite(point);
        // One roll row, along the axis chosen above: an isotropic (circular) roll limit.
        let (roll_y, roll_z) = (roll_cap.max(cz_tilt[0]), cz_tilt[1].max(0.0));
        let world1 = rb1.is_none_or(|b| b.is_fixed());
        let world2 = rb2.is_none_or(|b| b.is_fixed());
        let need_joint =
            (roll_y > 0.0 || roll_z > 0.0 || spin_cap > 0.0) && geometry_ok && !(world1 && world2);
        let roll_target = roll_target + cz_level;

        plan.mu = if mu.is_finite() { mu } else { 0.0 };
        plan.tangent_velocity = if finite(tv) { tv } else { Vector::ZERO };
        s.roll_axis = e;
        s.roll_cap = roll_cap;
        s.spin_cap = spin_cap;
        if !need_joint {
            // Nothing to resist: no motor rows (a joint without rows costs the solver little,
            // and keeping it avoids churn when the capacity comes back next step).
            let has_rows =
                s.joint.and_then(|h| joints.get(h)).is_some_and(|jj| !jj.data.motor_axes.is_empty());
            if has_rows {
                if let Some(jj) = s.joint.and_then(|h| joints.get_mut(h, false)) {
                    jj.data.motor_axes = JointAxesMask::empty();
                }
            }
            return;
        }
        // Motor frame: X = normal, Y = roll axis, Z = n × Y.
        let world_rot = Rotation::from_mat3(&Mat3::from_cols(n, e, ez)).normalize();
        // A side without a body or on a fixed body is attached to tribo's hidden fixed anchor
        // body: rapier scans the joints of a pair's first body for every contact pair (to honour
        // `contacts_enabled`), so hundreds of motors on one fixed floor body would make each of
        // its contact pairs walk them all.
        let apose = anchor.map_or(Pose::IDENTITY, |a| a.1);
        let pose1 = if world1 { apose } else { rb1.map_or(Pose::IDENTITY, |b| *b.position()) };
        let pose2 = if world2 { apose } else { rb2.map_or(Pose::IDENTITY, |b| *b.position()) };
        let frame1 =
            Pose::from_parts(pose1.inverse_transform_point(point), pose1.rotation.inverse() * world_rot);
        let frame2 =
            Pose::from_parts(pose2.inverse_transform_point(point), pose2.rotation.inverse() * world_rot);
        let targets = [spin_target, roll_target.dot(e), roll_target.dot(ez)];
        // The contact's first motor step also carries the static impulse its first step lacked
        // (no motor existed then, see `hold_step`): a body set down at rest within its static
        // capacity is stopped within this step instead of drifting while a single step's
        // capacity decelerates it.
        let onset = |bit: u8| if s.joint.is_none() && s.hold & bit != 0 { 2.0 } else { 1.0 };
        // A kinetic roll or spin whose remaining relative speed is less than what the kinetic
        // torque took off in the last step stops within this step: its motor carries only
        // that fraction of the torque, so the rotation ends at zero instead of overshooting
        // into a reverse motion that the stick phase would then have to pull back.
        let last_step = |k: usize, mode: Mode, speed: f32| {
            let drop = s.kinetic_drop[k];
            if mode == Mode::Kinetic && drop > 0.0 && speed < drop {
                speed / drop
            } else {
                1.0
            }
        };
        let (roll_f, spin_f) = (last_step(0, s.roll, wt.length()), last_step(1, s.spin, w.dot(n).abs()));
        let caps = [
            spin_cap * onset(HOLD_SPIN) * spin_f,
            roll_y * onset(HOLD_ROLL) * roll_f,
            roll_z * onset(HOLD_ROLL) * roll_f,
        ];
        let set = |d: &mut GenericJoint| {
            d.set_local_frame1(frame1);
            d.set_local_frame2(frame2);
            // Only axes with a torque bound get a motor row (a kinetic roll has no Z row).
            for (ax, (t, c)) in [JointAxis::AngX, JointAxis::AngY, JointAxis::AngZ]
                .into_iter()
                .zip(targets.into_iter().zip(caps))
            {
                if c.is_finite() && c > 0.0 {
                    d.set_motor_velocity(ax, if t.is_finite() { t } else { 0.0 }, damping);
                    d.set_motor_max_force(ax, c);
                } else {
                    d.motor_axes.remove(JointAxesMask::from(ax));
                }
            }
        };
        let [p1, p2] = parents;
        let side = |world: bool, p: Option<RigidBodyHandle>| if world { anchor.map(|a| a.0) } else { p };
        let (want1, want2) = (side(world1, p1), side(world2, p2));
        if let Some(h) = s.joint {
            if let Some(jj) = joints.get_mut(h, false) {
                if Some(jj.body1()) == want1 && Some(jj.body2()) == want2 {
                    set(&mut jj.data);
                    return;
                }
            }
            // Attached to other bodies (a body changed type) or removed by the user: re-attach.
            joints.remove(h, false);
            s.joint = None;
        }
        // New motor: attach it, world sides to the anchor body.
        let (Some(b1), Some(b2)) = (want1, want2) else {
            // No anchor body yet (created by the next before_step): plan the motor then.
            s.joint = None;
            s.pending = true;
            self.needs_anchor = true;
            return;
        };
        let mut j = GenericJoint::new(JointAxesMask::empty());
        j.user_data = TRIBO_JOINT_USER_DATA;
        set(&mut j);
        s.joint = Some(joints.insert(b1, b2, j, false));
    }

    /// Call right after `PhysicsPipeline::step`: reads each tribo contact's normal force from
    /// the solver's impulses, updates the static/kinetic modes and stick deflections from the
    /// relative velocities, plans the next step (friction coefficient, anchor pull-back, motor
    /// bounds; see [`before_step`](Self::before_step)), creates state for new contacts and
    /// removes the state and motor joint of contacts that ended.
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
        if !std::mem::take(&mut self.prepared) && !self.reported_unprepared {
            self.reported_unprepared = true;
            self.diagnostics.push(Diagnostic::StepNotPrepared { step });
        }
        let dt = params.dt;
        let plan_ok = dt > 0.0 && dt.is_finite();
        let slip_speed = self.settings.slip_speed;
        let epoch = self.material_epoch;
        let inv_dt = if plan_ok { 1.0 / dt } else { 0.0 };
        let anchor = self.anchor_pose(bodies);
        // New contacts the hook reported this step (usually few): a pair without state is only
        // looked at if it is among them.
        let mut new_pairs = std::mem::take(&mut *self.new_pairs.get_mut().unwrap_or_else(|e| e.into_inner()));
        // Conveyor velocities set by the user's hook (usually none), by slot.
        let mut belts = std::mem::take(&mut *self.belts.get_mut().unwrap_or_else(|e| e.into_inner()));
        // Canonical order: the narrow phase (rapier's `parallel` feature: several threads) calls
        // the hook in any order; sorting by slot and value makes the sums below and the states
        // created for new contacts independent of it, so runs are bit-identical.
        let vbits = |v: Vector| [v.x.to_bits(), v.y.to_bits(), v.z.to_bits()];
        belts.sort_unstable_by_key(|b| (b.0, vbits(b.1)));
        new_pairs.sort_unstable_by_key(|p| (handle_key(p.c1), handle_key(p.c2), p.sliding, vbits(p.belt)));
        let belt_of = |slot: usize| -> Vector {
            if belts.is_empty() {
                return Vector::ZERO;
            }
            let lo = belts.partition_point(|b| (b.0 as usize) < slot);
            let hi = belts.partition_point(|b| (b.0 as usize) <= slot);
            if hi == lo {
                return Vector::ZERO;
            }
            belts[lo..hi].iter().map(|b| b.1).sum::<Vector>() / (hi - lo) as f32
        };
        // The narrow phase's contact pairs by edge index: each state caches the index of its
        // pair (checked against the colliders; indices move when rapier removes pairs), so
        // after_step visits only the contacts it tracks, not every pair of overlapping AABBs.
        let edges = narrow_phase.contact_graph().raw_graph().raw_edges();
        let edge_of = |p: &ContactPair| -> u32 {
            let Some(e0) = edges.first() else { return u32::MAX };
            let i = (p as *const ContactPair as usize).wrapping_sub(edges.as_ptr() as usize)
                / std::mem::size_of_val(e0);
            if edges.get(i).is_some_and(|e| std::ptr::eq(&e.weight, p)) {
                i as u32
            } else {
                u32::MAX
            }
        };
        let pair_of = |c1: ColliderHandle, c2: ColliderHandle, cached: u32| -> Option<(&ContactPair, u32)> {
            match edges.get(cached as usize) {
                Some(e) if e.weight.collider1 == c1 && e.weight.collider2 == c2 => Some((&e.weight, cached)),
                _ => narrow_phase
                    .contact_pair(c1, c2)
                    .filter(|p| p.collider1 == c1 && p.collider2 == c2)
                    .map(|p| (p, edge_of(p))),
            }
        };
        // State for the new contacts the hook reported (a pair may be reported once per manifold).
        let first_new = self.states.len();
        let mut new_info = std::mem::take(&mut self.new_info);
        new_info.clear();
        for p in &new_pairs {
            let (c1, c2) = (p.c1, p.c2);
            let k = key(c1, c2);
            if self.index.contains_key(&k) {
                continue;
            }
            let Some((pair, edge)) = pair_of(c1, c2, u32::MAX) else { continue };
            let (Some(col1), Some(col2)) = (colliders.get(c1), colliders.get(c2)) else { continue };
            let moving = |c: &Collider| is_moving_body(c.parent().and_then(|b| bodies.get(b)));
            if !(moving(col1) || moving(col2)) || !pair.has_any_active_contact() {
                continue;
            }
            let Some((material, contensou_model)) = self.contact_material((c1, col1), (c2, col2)) else {
                continue;
            };
            let kappa_const = [col1, col2].iter().all(|c| crate::curvature::direction_independent(c.shape()));
            self.states.push(PairState {
                c1,
                c2,
                shapes: [shape_id(col1), shape_id(col2)],
                parents: [col1.parent(), col2.parent()],
                edge,
                material,
                material_epoch: epoch,
                contensou_model,
                seen: 0,
                n: 0.0,
                normal: Vector::Y,
                point: Vector::ZERO,
                slide: if p.sliding { Mode::Kinetic } else { Mode::Static },
                roll: Mode::Static,
                spin: Mode::Static,
                slide_defl: Vector::ZERO,
                roll_defl: Vector::ZERO,
                spin_defl: 0.0,
                roll_axis: Vector::ZERO,
                curvature: None,
                kappa_const,
                roll_cap: 0.0,
                spin_cap: 0.0,
                joint: None,
                pending: false,
                contensou: Default::default(),
                hold: if p.turning { 0 } else { HOLD_ROLL | HOLD_SPIN },
                hold_onset: [0.0; 2],
                roll_threshold: 0.0,
                last_w: [0.0; 2],
                kinetic_drop: [0.0; 2],
            });
            self.warm.push(AtomicU32::new(0));
            let mu = if p.sliding { material.mu_k() } else { material.mu_s() };
            self.plans.push(Plan {
                mu: mu as f32,
                tangent_velocity: Vector::ZERO,
                stock: false,
                collapse: false,
            });
            self.index.insert(k, (self.states.len() - 1) as u32);
            new_info.push(*p);
        }
        let mut pressing = crate::slip::Pressing::default();
        for idx in 0..self.states.len() {
            // The loop is bound by cache misses on rapier's pair, manifold, solver-contact,
            // collider and body data (scattered on the heap): start loading the data of the
            // contacts a few iterations ahead, one level of indirection per stage.
            if let Some(e) = self.states.get(idx + 2 * AHEAD).and_then(|s| edges.get(s.edge as usize)) {
                prefetch_lines(&e.weight, 2);
            }
            if let Some(s) = self.states.get(idx + AHEAD) {
                if let Some(e) = edges.get(s.edge as usize) {
                    for m in e.weight.solver_manifolds() {
                        prefetch_lines(m, 3);
                    }
                }
                if let Some(c) = colliders.get(s.c1) {
                    prefetch_lines(c, 1);
                }
                if let Some(c) = colliders.get(s.c2) {
                    prefetch_lines(c, 1);
                }
            }
            if let Some(s) = self.states.get(idx + AHEAD / 2) {
                if let Some(e) = edges.get(s.edge as usize) {
                    for m in e.weight.solver_manifolds() {
                        prefetch_lines(m.data.solver_contacts.as_ptr(), 1);
                        prefetch_lines(m.points.as_ptr(), 1);
                    }
                }
                for c in [s.c1, s.c2] {
                    if let Some(rb) = colliders.get(c).and_then(|c| c.parent()).and_then(|b| bodies.get(b)) {
                        prefetch_lines(rb, 6);
                    }
                }
            }
            let (c1, c2) = (self.states[idx].c1, self.states[idx].c2);
            let Some((pair, edge)) = pair_of(c1, c2, self.states[idx].edge) else { continue };
            self.states[idx].edge = edge;
            let new = idx.checked_sub(first_new).map(|j| new_info[j]);
            let (Some(col1), Some(col2)) = (colliders.get(c1), colliders.get(c2)) else { continue };
            let (par1, par2) = (col1.parent(), col2.parent());
            let (rb1, rb2) = (par1.and_then(|b| bodies.get(b)), par2.and_then(|b| bodies.get(b)));
            let (moving1, moving2) = (is_moving_body(rb1), is_moving_body(rb2));
            if !(moving1 || moving2) {
                // Asleep: keep everything. No dynamic side any more (a body made fixed or
                // kinematic): swept below with its motor.
                if is_dynamic_body(rb1) || is_dynamic_body(rb2) {
                    self.states[idx].seen = step;
                }
                continue;
            }
            // Normal force, normal and points from the solver's impulses. rapier 0.35 reports in
            // `impulse` the step's total plus the warm start it began with (the last substep
            // impulse of the previous step, which the hook summed in `warm`); 0.36
            // reports the plain total.
            let mut imp = 0.0f32;
            let mut nsum = Vector::ZERO;
            let (mut p1sum, mut p2sum) = (Vector::ZERO, Vector::ZERO);
            let (mut p1avg, mut p2avg) = (Vector::ZERO, Vector::ZERO);
            let mut count = 0.0f32;
            // A body-side anchor is the material point that touched at the start of the step, in
            // the body's CoM-centred local frame: after the step it has turned with the body (a
            // rolling ball's by ω·dt, up and away from the ground). The contact now touches the
            // material point at the same world offset from the centre of mass as then, so the
            // step's rotation is undone (once per body): the slip of a body rolling without slip
            // is then zero whatever its speed.
            let frame = |rb: &RigidBody| {
                (rb.center_of_mass(), Rotation::from_scaled_axis(-rb.angvel() * dt) * *rb.rotation())
            };
            let (frame1, frame2) = (rb1.map(frame), rb2.map(frame));
            for m in pair.solver_manifolds() {
                let world = |f: Option<(Vector, Rotation)>, anchor: Vector, world_attached: bool| match f
                    .filter(|_| !world_attached)
                {
                    Some((com, rot)) => com + rot * anchor,
                    None => anchor,
                };
                let (wa1, wa2) = (m.data.relative_dominance > 0, m.data.relative_dominance < 0);
                let (mf1, mf2) = (m.data.rigid_body1.and(frame1), m.data.rigid_body2.and(frame2));
                for c in &m.data.solver_contacts {
                    let id = c.contact_indices()[0] as usize;
                    let pi = m.points.get(id).map_or(0.0, |p| p.data.impulse.max(0.0));
                    let (a, b) = (world(mf1, c.anchor1, wa1), world(mf2, c.anchor2, wa2));
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
            let (p1, p2) =
                if imp > 0.0 { (p1sum / imp, p2sum / imp) } else { (p1avg / count, p2avg / count) };
            let point = (p1 + p2) * 0.5;
            if !finite(normal) || !finite(point) {
                continue;
            }
            let s = &mut self.states[idx];
            s.seen = step;
            let warm = f32::from_bits(*self.warm[idx].get_mut());
            let total = if compat::IMPULSE_INCLUDES_WARMSTART { imp - warm } else { imp };
            s.n = (total * inv_dt).max(0.0);
            s.normal = normal;
            s.point = point;
            crate::contensou::observe(
                &mut s.contensou,
                pair,
                bodies,
                [col1, col2],
                [moving1, moving2],
                normal,
                params.prediction_distance(),
            );
            if self.plans[idx].stock {
                // Zero-mass fallback: back to tribo once the masses are valid (re-checked by the plan).
                if plan_ok {
                    self.plan_contact(idx, [col1, col2], [par1, par2], [rb1, rb2], anchor, dt, joints);
                }
                continue;
            }
            // Relative kinematics after the step, each body at its own contact point (the
            // points the solver's friction rows use).
            let v1 = rb1.map_or(Vector::ZERO, |b| b.velocity_at_point(p1));
            let v2 = rb2.map_or(Vector::ZERO, |b| b.velocity_at_point(p2));
            // Slip relative to a conveyor surface the user's hook set (`tangent_velocity`).
            let dv = v2 - v1 - new.map_or_else(|| belt_of(idx), |p| p.belt);
            let slip = dv - normal * dv.dot(normal);
            let w1 = rb1.map_or(Vector::ZERO, |b| b.angvel());
            let w2 = rb2.map_or(Vector::ZERO, |b| b.angvel());
            let w = w2 - w1;
            let wn = w.dot(normal);
            let wt = w - normal * wn;
            // Thresholds. Stick → slip as in docs/tracking.md §2.2/§3.4/§4.2: when the deflection accumulated
            // while sticking (slide offset S, roll angle Θ, spin angle Ψ) exceeds the static
            // threshold of the material (μs N/K_E, Θ^s, 𝒮_s^ψ). Slip → stick when the relative
            // velocity falls below `slip_speed` (angular: `slip_speed·κ̄`).
            let (k1, k2) = *s.curvature.get_or_insert_with(|| {
                // New contact: curvatures along the current rolling direction.
                let dir = if wt.length() > 1e-6 { normal.cross(wt).normalize() } else { any_perp(normal) };
                (collider_curvature(col1, point, normal, dir), collider_curvature(col2, point, -normal, dir))
            });
            let d =
                s.material.derive(s.n as f64, k1.directional + k2.directional, 0.0, k1.mean + k2.mean, 0.0);
            let (roll_eps, spin_eps) = angular_slip_speeds(slip_speed, (k1, k2));
            let loaded = s.n > 0.0;
            // rapier's solver leaves a small apparent slip on fast rolling contacts (its lever
            // arms are frozen over the step): 1 % of the relative body speed is ignored.
            let vrel = rb2.map_or(Vector::ZERO, |b| b.linvel()) - rb1.map_or(Vector::ZERO, |b| b.linvel());
            let tol = 0.01 * vrel.length();
            let slide_eps = slip_speed + tol;
            // A body pressed into supports with different normals: the solver's approach
            // velocity into one reads as slip at the other. Measured without it, and within
            // the part of it that lies in this contact's tangent plane (`crate::slip`).
            let on_support = !(is_dynamic_body(rb1) && is_dynamic_body(rb2));
            let (slip, tol, slide_eps) =
                if on_support && crate::slip::may_be_pressing(slip, dv, normal, slide_eps, slip_speed) {
                    let (slip, extra) =
                        pressing.slip(dv, normal, [par1, par2], bodies, colliders, narrow_phase, dt);
                    (slip, tol + extra, slide_eps + extra)
                } else {
                    (slip, tol, slide_eps)
                };

            // Slide.
            advance_mode(
                &mut s.slide,
                &mut s.slide_defl,
                loaded,
                d.slide_static,
                slip.length() <= slide_eps,
                |defl| {
                    let sl = slip.length();
                    let excess = if sl > tol { slip * ((sl - tol) / sl) } else { Vector::ZERO };
                    let dd = defl + excess * dt;
                    let next = dd - normal * dd.dot(normal);
                    (next, next.length() as f64)
                },
            );
            let was_rolling = s.roll == Mode::Kinetic;
            // What the last step's kinetic torque took off the relative roll and spin speeds:
            // the next step's motor carries only the fraction that stops them (see
            // `plan_contact`).
            let speeds = [wt.length(), wn.abs()];
            for (k, mode) in [s.roll, s.spin].into_iter().enumerate() {
                s.kinetic_drop[k] = if mode == Mode::Kinetic && new.is_none() {
                    (s.last_w[k] - speeds[k]).max(0.0)
                } else {
                    0.0
                };
            }
            s.last_w = speeds;
            // Roll (off, or degenerate curvature: stays static with no deflection).
            let roll_on = d.roll_static > 0.0;
            s.roll_threshold = d.roll_static as f32;
            let roll_accumulate = |defl: Vector| {
                let dd = defl + wt * dt;
                let next = dd - normal * dd.dot(normal);
                (next, next.length() as f64)
            };
            if !hold_step(
                &mut s.hold,
                HOLD_ROLL,
                &mut s.hold_onset[0],
                new.is_some(),
                (&mut s.roll, &mut s.roll_defl),
                loaded && roll_on,
                d.roll_static,
                (wt.length(), roll_eps),
                roll_accumulate,
            ) {
                advance_mode(
                    &mut s.roll,
                    &mut s.roll_defl,
                    loaded && roll_on,
                    d.roll_static,
                    wt.length() <= roll_eps || !roll_on,
                    roll_accumulate,
                );
            }
            // A body that stops rolling sticks where it stopped: what the slide deflection
            // gathered while it rolled (the contact point moved on both surfaces, and any slip
            // then was the solver's tolerance) is no stick load, and pulling it back would move
            // the stopped body backwards.
            if was_rolling && s.roll == Mode::Static {
                s.slide_defl = Vector::ZERO;
            }
            // Spin.
            let spin_on = d.spin_static > 0.0;
            let spin_accumulate = |defl: f32| {
                let next = defl + wn * dt;
                (next, next.abs() as f64)
            };
            if !hold_step(
                &mut s.hold,
                HOLD_SPIN,
                &mut s.hold_onset[1],
                new.is_some(),
                (&mut s.spin, &mut s.spin_defl),
                loaded && spin_on,
                d.spin_static,
                (wn.abs(), spin_eps),
                spin_accumulate,
            ) {
                advance_mode(
                    &mut s.spin,
                    &mut s.spin_defl,
                    loaded && spin_on,
                    d.spin_static,
                    wn.abs() <= spin_eps || !spin_on,
                    spin_accumulate,
                );
            }
            if !s.slide_defl.is_finite() || !s.roll_defl.is_finite() || !s.spin_defl.is_finite() {
                s.slide_defl = Vector::ZERO;
                s.roll_defl = Vector::ZERO;
                s.spin_defl = 0.0;
            }
            // Plan the next step now, while this contact's bodies and colliders are at hand
            // (Contensou contacts are planned by before_step from the velocities the step starts
            // from).
            if plan_ok && s.contensou_model.is_none() {
                self.plan_contact(idx, [col1, col2], [par1, par2], [rb1, rb2], anchor, dt, joints);
            }
        }
        self.new_info = new_info;
        belts.clear();
        *self.belts.get_mut().unwrap_or_else(|e| e.into_inner()) = belts;
        new_pairs.clear();
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
        // The hook sums the next step's warm starts from zero.
        for w in &mut self.warm {
            *w.get_mut() = 0;
        }
        crate::diagnostics::after_step_monitor(self, bodies, colliders, narrow_phase, dt);
    }

    /// One step of a rapier [`PhysicsWorld`] with tribo friction: `before_step`,
    /// `world.step_with_events(&self.hooks(user_hooks), events)`, `after_step`.
    pub fn step_world<H: PhysicsHooks + ?Sized>(
        &mut self,
        world: &mut PhysicsWorld,
        user_hooks: &H,
        events: &dyn EventHandler,
    ) {
        self.before_step(
            &world.integration_parameters,
            &mut world.bodies,
            &mut world.colliders,
            &mut world.impulse_joints,
        );
        world.step_with_events(&self.hooks(user_hooks), events);
        self.after_step(
            &world.integration_parameters,
            &world.bodies,
            &world.colliders,
            &world.narrow_phase,
            &mut world.impulse_joints,
        );
    }
}

/// The relative angular speeds below which a roll and a spin count as settled:
/// `slip_speed · max(½(κ_i + κ_j), 10⁻³)` along the rolling direction and
/// `slip_speed · max(κ̄_i + κ̄_j, 10⁻³)` about the normal.
fn angular_slip_speeds(slip_speed: f32, (k1, k2): (Curvature, Curvature)) -> (f32, f32) {
    let roll = (0.5 * (k1.directional + k2.directional) as f32).max(1e-3);
    let spin = ((k1.mean + k2.mean) as f32).max(1e-3);
    (slip_speed * roll, slip_speed * spin)
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

/// The onset hold of a roll or spin mechanism (`bit` of `hold`). Roll and spin resistance act
/// through the contact's motor joint, which exists only from the contact's second step: in its
/// first step nothing resists the relative rotation, and a body set down at rest within its
/// static capacity (a ball on a gentle slope) starts to turn. While held, the mechanism stays
/// static and its deflection accumulates from the first step (so the anchor pull-back returns
/// the body to where it was set down), without the stick → slip test: the static motor
/// decelerates the rotation and pulls the deflection back. The hold ends
/// * in slip (kinetic) when the deflection grows past the first step's by more than the static
///   threshold: the static capacity cannot hold the load;
/// * in ordinary stick when the rotation has stopped and the deflection is back within the
///   static threshold;
/// * at once when the contact is unloaded or the mechanism is off.
///
/// Contacts that began with the bodies already turning relative to each other are not held.
/// Returns whether the hold handled this step (else [`advance_mode`] does).
#[allow(clippy::too_many_arguments)]
fn hold_step<D: Copy + Default>(
    hold: &mut u8,
    bit: u8,
    onset_size: &mut f32,
    first_step: bool,
    (mode, deflection): (&mut Mode, &mut D),
    loaded: bool,
    threshold: f64,
    (speed, settle_speed): (f32, f32),
    accumulate: impl FnOnce(D) -> (D, f64),
) -> bool {
    if *hold & bit == 0 {
        return false;
    }
    if !loaded {
        *hold &= !bit;
        return false;
    }
    let (next, size) = accumulate(*deflection);
    *deflection = next;
    if first_step {
        *onset_size = size as f32;
    } else if size > *onset_size as f64 + threshold {
        // Turned on past the first step's deflection by more than the static threshold.
        *hold &= !bit;
        *mode = Mode::Kinetic;
        *deflection = D::default();
    } else if speed <= settle_speed && size <= threshold {
        *hold &= !bit;
    }
    true
}

/// How many contacts ahead `after_step` starts loading rapier's data.
const AHEAD: usize = 8;

/// Asks the CPU to load the first `lines` cache lines of `*p` (a hint: never faults, changes
/// nothing, a no-op off x86-64).
#[inline(always)]
fn prefetch_lines<T>(p: *const T, lines: usize) {
    #[cfg(target_arch = "x86_64")]
    for k in 0..lines {
        // SAFETY: `_mm_prefetch` only hints the cache; it does not dereference the address and
        // cannot fault, whatever the pointer (SSE is part of the x86-64 baseline).
        unsafe {
            core::arch::x86_64::_mm_prefetch::<{ core::arch::x86_64::_MM_HINT_T0 }>(
                (p as *const i8).wrapping_add(64 * k),
            )
        };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (p, lines);
}
