//! The contact store ([`TriboRapier`]): per-collider materials, per-contact state and the
//! before/after-step entry points.
//!
//! - the store's tables: `contacts` (the tracked contacts' states, plans and warm-start sums),
//!   `materials` (per collider and per pair), `inbox` (what the hook reports), `settle` (the
//!   hook flags tribo controls per collider), `world` (`Motors`: tribo's objects in the rapier
//!   world); the hook borrows `contacts`, `materials` and `inbox` only;
//! - `state`: the per-contact data (plan, stick/slip state) and its keys;
//! - `before` / `after`: the two entry points around rapier's step; `admit`: new contacts;
//! - `pass`: `after_step`'s contact pass and its performance machinery (with `prefetch`,
//!   `bodies`: each body read once per step, and `quiet`'s idle skipping);
//! - `pipeline`: one moving contact's update, stage by stage: `observe` (the solver's
//!   impulses, slip, turn, curvatures), `track` (the stick/slip machines; `modes`: the machine
//!   and the onset hold), `roll_stop` (stopped-roll and rolling-hold geometry),
//!   `settle_verdict` (settled or not), `plan` (the next step's coefficient, pull-back, motor);
//! - `effects`: what a contact's update changes in rapier's sets (`motor`: the motor joint's
//!   rows; `give_back`: the turn of a motor without contact points);
//! - `world`: the objects tribo puts into the rapier world (motors, anchor body);
//! - `settle`: settled colliders off the hook (rapier then recycles their contacts);
//! - `quiet`: the checks both passes skip for contacts of sleeping bodies that did not change;
//! - `angular_cap`: rapier's angular speed cap, lifted on the bodies tribo's materials touch;
//! - `settings`, `diagnostic`: the public tuning and problem reports; `snapshot`: serde.

use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Mutex;

use crate::compat;
use crate::curvature::Curvature;
use crate::rapier3d::prelude::*;
use crate::{FrictionMaterial, PairTable};
use tribo::tracking::{Derived, Material, Mode};

mod admit;
mod after;
mod angular_cap;
mod before;
mod bodies;
mod contacts;
mod diagnostic;
mod effects;
mod give_back;
mod inbox;
mod materials;
mod modes;
mod motor;
mod observe;
mod pass;
mod pipeline;
mod plan;
mod prefetch;
mod quiet;
mod roll_stop;
mod settings;
mod settle;
mod settle_verdict;
#[cfg(feature = "serde-serialize")]
mod snapshot;
mod state;
mod torques;
mod track;
mod world;

pub(crate) use contacts::Contacts;
pub use diagnostic::{Diagnostic, MIN_VALIDATED_DT};
pub(crate) use inbox::HookInbox;
pub(crate) use materials::Materials;
pub use settings::{RollSpin, Settings};
pub(crate) use state::Onset;
use state::*;

/// Marker of the objects tribo puts into a rapier world: stored in `GenericJoint::user_data` of
/// its motor joints and in `RigidBody::user_data` of its hidden anchor body. A new store removes
/// marked joints it does not own on its first [`TriboRapier::before_step`];
/// [`TriboRapier::remove_tribo_objects`] removes all of them.
pub const TRIBO_JOINT_USER_DATA: u128 = 0x7472_6962_6f5f_6d6f_746f_725f_6a6f_696e; // "tribo_motor_join"

/// A read-only view of one contact's tribo state (after the last [`TriboRapier::after_step`]).
///
/// Precision: the values are in rapier's `f32` (`Real`), the precision of everything they are
/// measured from (rapier's impulses, poses and velocities) and given to (the manifold's
/// friction, the motor's bounds); widened to `f64` they would show digits no step computed.
/// Materials are `f64` ([`FrictionMaterial`], the engine-agnostic `tribo` model, whose accepted
/// ranges span `f32`'s and more); each value a material gives rapier is that `f64` rounded to
/// the nearest `f32` (`friction` of a sliding contact is exactly `mu_k as f32`). The material
/// itself, in `f64`, is [`TriboRapier::material`] (or [`FrictionMaterial::combine_pair`] for a
/// pair's combination).
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
    /// The materials of colliders and pairs.
    materials: Materials,
    /// The tracked contacts: state, the hook's plan, the hook's warm-start sums.
    contacts: Contacts,
    /// The joint set holds joints that are not tribo's (counted by `before_step`: the user's
    /// joints do not change between it and `after_step`; see `plan_contact`).
    user_joints: bool,
    /// The bodies that are links of a multibody with joints, sorted by handle (see
    /// [`note_multibody_joints`](TriboRapier::note_multibody_joints)).
    multibody_links: Vec<MultibodyLink>,
    /// What the hook reports for the next `after_step` (new contacts, conveyor velocities).
    inbox: HookInbox,
    /// The `NewPair` of each state `after_step` created in this step (kept to reuse its
    /// allocation).
    new_info: Vec<NewPair>,
    /// tribo's objects in the rapier world (the anchor body, the motors' give-backs).
    motors: world::Motors,
    diagnostics: Vec<Diagnostic>,
    /// The diagnostics reported once (per body), to report them once.
    reported: Vec<Diagnostic>,
    step: u64,
    /// `before_step` ran since the last `after_step`.
    prepared: bool,
    /// [`Diagnostic::StepNotPrepared`] was reported.
    reported_unprepared: bool,
    /// The caches of `after_step`'s contact pass, one per thread (at least one; see `after`).
    caches: Vec<Mutex<pass::PassCache>>,
    pub(crate) realizability: crate::diagnostics::Monitor,
    /// The hook flags tribo controls (see [`Settings::unhook_settled`]).
    settle: settle::Settle,
    /// Colliders whose material was set, changed or removed since the last `before_step`,
    /// which wakes their sleeping bodies.
    wake: Vec<ColliderHandle>,
    /// What `before_step` last saw of the colliders of quiet contacts (see `quiet`).
    watch: quiet::Watch,
    /// The step the solver runs, for the rolling hold (set by `before_step`).
    timing: crate::rolling::StepTiming,
    /// Bodies whose angular speed cap the next `before_step` lifts (see `angular_cap`).
    lift_cap: Vec<RigidBodyHandle>,
    /// The forces and torques `before_step` added for [`RollSpin::Torques`] (see `torques`).
    torques: torques::Torques,
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
            contacts: self.contacts.clone(),
            user_joints: self.user_joints,
            multibody_links: self.multibody_links.clone(),
            inbox: self.inbox.clone(),
            new_info: self.new_info.clone(),
            motors: self.motors.clone(),
            diagnostics: self.diagnostics.clone(),
            reported: self.reported.clone(),
            step: self.step,
            prepared: self.prepared,
            reported_unprepared: self.reported_unprepared,
            caches: pass::PassCache::one(),
            realizability: self.realizability.clone(),
            settle: self.settle.clone(),
            wake: self.wake.clone(),
            // A cache: the copy checks its contacts in full once.
            watch: Default::default(),
            timing: self.timing,
            lift_cap: self.lift_cap.clone(),
            torques: self.torques.clone(),
        }
    }
}

/// A body that is a link of a multibody with joints.
#[derive(Clone, Copy, Debug, PartialEq)]
struct MultibodyLink {
    body: RigidBodyHandle,
    /// The axis the body turns about relative to its parent link, in the body's frame, if its
    /// joint is a revolute one (a single free axis, angular).
    axle: Option<Vector>,
}

/// The link of body `h` among the multibody `links` (sorted by handle).
fn find_link(links: &[MultibodyLink], h: RigidBodyHandle) -> Option<&MultibodyLink> {
    let i = links.binary_search_by_key(&h.into_raw_parts(), |l| l.body.into_raw_parts()).ok()?;
    links.get(i)
}

/// The dynamic bodies among `parents` (`rbs`) that are multibody `links`, with their links (see
/// [`TriboRapier::note_multibody_joints`]).
fn dynamic_links<'a>(
    links: &'a [MultibodyLink],
    parents: [Option<RigidBodyHandle>; 2],
    rbs: [Option<&'a RigidBody>; 2],
) -> impl Iterator<Item = (&'a MultibodyLink, &'a RigidBody)> {
    parents
        .into_iter()
        .zip(rbs)
        .filter_map(move |(p, rb)| Some((find_link(links, p?)?, rb.filter(|b| b.is_dynamic())?)))
}

/// Whether a dynamic body among `parents` (`rbs`) is one of the multibody `links`.
#[cold]
#[inline(never)]
fn dynamic_on_multibody(
    links: &[MultibodyLink],
    parents: [Option<RigidBodyHandle>; 2],
    rbs: [Option<&RigidBody>; 2],
) -> bool {
    dynamic_links(links, parents, rbs).next().is_some()
}

/// The world axle of the first dynamic body of `parents` (`rbs`) that is one of the multibody
/// `links` on a revolute joint.
#[inline]
fn multibody_axle(
    links: &[MultibodyLink],
    parents: [Option<RigidBodyHandle>; 2],
    rbs: [Option<&RigidBody>; 2],
) -> Option<Vector> {
    if links.is_empty() {
        return None;
    }
    multibody_axle_slow(links, parents, rbs)
}

#[cold]
#[inline(never)]
fn multibody_axle_slow(
    links: &[MultibodyLink],
    parents: [Option<RigidBodyHandle>; 2],
    rbs: [Option<&RigidBody>; 2],
) -> Option<Vector> {
    dynamic_links(links, parents, rbs).find_map(|(link, rb)| Some(*rb.rotation() * link.axle?))
}

/// Whether one of the bodies `parents` is among the multibody `links` (see
/// [`TriboRapier::note_multibody_joints`]).
#[inline]
fn any_on_multibody(links: &[MultibodyLink], parents: [Option<RigidBodyHandle>; 2]) -> bool {
    !links.is_empty() && on_multibody_slow(links, parents)
}

#[cold]
#[inline(never)]
fn on_multibody_slow(links: &[MultibodyLink], parents: [Option<RigidBodyHandle>; 2]) -> bool {
    parents.into_iter().flatten().any(|h| find_link(links, h).is_some())
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

/// Whether `j` is one of tribo's motor joints (it carries tribo's marker); any other joint is
/// the user's.
#[inline]
fn is_tribo_joint(j: &ImpulseJoint) -> bool {
    j.data.user_data == TRIBO_JOINT_USER_DATA
}

/// tribo's motor joint `h`, if `joints` holds it: a joint under that handle without tribo's
/// marker is the user's (the joint set was replaced, or the joint removed and its slot reused),
/// and tribo never touches it.
#[inline]
fn tribo_joint(joints: &ImpulseJointSet, h: ImpulseJointHandle) -> Option<&ImpulseJoint> {
    joints.get(h).filter(|jj| is_tribo_joint(jj))
}

/// Mutable [`tribo_joint`].
#[inline]
fn tribo_joint_mut(joints: &mut ImpulseJointSet, h: ImpulseJointHandle) -> Option<&mut ImpulseJoint> {
    joints.get_mut(h, false).filter(|jj| is_tribo_joint(jj))
}

/// Removes tribo's motor joint `h` (a user's joint under that handle stays, see [`tribo_joint`]).
#[inline]
fn remove_tribo_joint(joints: &mut ImpulseJointSet, h: ImpulseJointHandle) {
    if tribo_joint(joints, h).is_some() {
        joints.remove(h, false);
    }
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
            materials: Materials::default(),
            contacts: Contacts::default(),
            user_joints: false,
            multibody_links: Vec::new(),
            inbox: HookInbox::default(),
            new_info: Vec::new(),
            motors: world::Motors::default(),
            diagnostics: Vec::new(),
            reported: Vec::new(),
            step: 0,
            prepared: false,
            reported_unprepared: false,
            caches: pass::PassCache::one(),
            realizability: Default::default(),
            settle: Default::default(),
            wake: Vec::new(),
            watch: Default::default(),
            timing: Default::default(),
            lift_cap: Vec::new(),
            torques: torques::Torques::default(),
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
        // The settle verdicts depend on them: every contact is checked in full again.
        for s in &mut self.contacts.states {
            s.quiet = false;
        }
        self.watch.parked.unpark_all();
    }

    /// Sets the friction material of a collider (replacing any previous one). tribo turns on
    /// `ActiveHooks::MODIFY_SOLVER_CONTACTS` on it at the next [`before_step`](Self::before_step)
    /// (and off while its contacts all stick: [`Settings::unhook_settled`]). The contacts it
    /// changes take the new material from that step on; the collider's own body and the bodies
    /// of its tracked contacts wake up if they sleep (a body asleep on a collider that gets its
    /// first material, such as the ground, is not found: wake it, or set materials before).
    pub fn set_material(&mut self, collider: ColliderHandle, material: impl Into<FrictionMaterial>) {
        let material = material.into();
        let old = self.materials.by_collider.insert(handle_key(collider), material);
        if old.is_none() {
            self.materials.colliders.push(collider);
        }
        if old != Some(material) {
            self.wake.push(collider);
        }
        self.materials.epoch += 1;
    }

    /// Removes a collider's material (its contacts return to stock friction from the next
    /// [`before_step`](Self::before_step) on, their sleeping bodies woken). Returns the old one.
    pub fn remove_material(&mut self, collider: ColliderHandle) -> Option<FrictionMaterial> {
        let m = self.materials.by_collider.remove(&handle_key(collider))?;
        self.materials.colliders.retain(|&c| c != collider);
        self.wake.push(collider);
        self.materials.epoch += 1;
        self.settle.orphans = true;
        Some(m)
    }

    /// The material of a collider, if set.
    pub fn material(&self, collider: ColliderHandle) -> Option<&FrictionMaterial> {
        self.materials.material(collider)
    }

    /// The combined material of a contact between two colliders with rapier's default combine
    /// rule (`Average`) on both sides and this store's pair table, or `None` for stock friction.
    /// The store's contacts also use the colliders' own `friction_combine_rule`
    /// ([`FrictionMaterial::combine_pair`]).
    pub fn pair_material(&self, c1: ColliderHandle, c2: ColliderHandle) -> Option<Material> {
        self.materials.pair_material(c1, c2)
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
        self.materials.pair_table.insert(a, b, material);
        self.materials.epoch += 1;
    }

    /// Removes the pair override of `a`–`b`.
    pub fn remove_pair_material(
        &mut self,
        a: tribo::tracking::MaterialId,
        b: tribo::tracking::MaterialId,
    ) -> Option<FrictionMaterial> {
        self.materials.epoch += 1;
        self.materials.pair_table.remove(a, b)
    }

    /// The per-pair overrides.
    pub fn pair_table(&self) -> &PairTable {
        &self.materials.pair_table
    }

    /// Replaces the per-pair overrides.
    pub fn set_pair_table(&mut self, table: PairTable) {
        self.materials.pair_table = table;
        self.materials.epoch += 1;
    }

    /// What the hook borrows of the store: the contacts, the materials, the inbox it reports
    /// into, and the step the solver runs (see [`crate::rolling`]) as `before_step` saw it.
    pub(crate) fn hook_tables(&self) -> (&Contacts, &Materials, &HookInbox, crate::rolling::StepTiming) {
        (&self.contacts, &self.materials, &self.inbox, self.timing)
    }

    /// The Contensou state of the contact between two colliders (either order), if it has a
    /// Contensou model (see [`crate::contensou`]).
    pub fn contensou_info(
        &self,
        c1: ColliderHandle,
        c2: ColliderHandle,
    ) -> Option<crate::contensou::ContensouInfo> {
        let i = self.contacts.index.get(&key(c1, c2)).or_else(|| self.contacts.index.get(&key(c2, c1)))?;
        crate::contensou::ContensouInfo::of(&self.contacts.states[*i as usize].contensou)
    }

    /// Number of contacts with tribo state.
    pub fn len(&self) -> usize {
        self.contacts.states.len()
    }

    /// Whether no contact has tribo state.
    pub fn is_empty(&self) -> bool {
        self.contacts.states.is_empty()
    }

    /// Number of motor joints tribo currently owns.
    pub fn joint_count(&self) -> usize {
        self.contacts.states.iter().filter(|s| s.joint.is_some()).count()
    }

    /// The hidden fixed body tribo attaches motors to for parentless colliders, if created.
    pub fn anchor_body(&self) -> Option<RigidBodyHandle> {
        self.motors.anchor
    }

    /// Reports `d` unless it was reported before.
    fn report_once(&mut self, d: Diagnostic) {
        effects::report_once(&mut self.reported, &mut self.diagnostics, d);
    }

    /// Reports [`Diagnostic::StepTooShort`] for the first step shorter than [`MIN_VALIDATED_DT`].
    fn report_short_step(&mut self, dt: f32) {
        if !self.reported.iter().any(|d| matches!(d, Diagnostic::StepTooShort { .. })) {
            self.report_once(Diagnostic::StepTooShort { dt });
        }
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
        let i = self.contacts.index.get(&key(c1, c2)).or_else(|| self.contacts.index.get(&key(c2, c1)))?;
        Some(Self::info(&self.contacts.states[*i as usize], &self.contacts.plans[*i as usize]))
    }

    /// All contacts with tribo state (the contact of a body rolling or spinning on a support
    /// whose pair has had no active contact for up to three steps is kept, with `normal_force`
    /// 0).
    pub fn contacts(&self) -> impl Iterator<Item = ContactInfo> + '_ {
        self.contacts.states.iter().zip(&self.contacts.plans).map(|(s, p)| Self::info(s, p))
    }

    /// Tells the store which bodies are links of rapier's multibodies (reduced-coordinate
    /// joints, [`MultibodyJointSet`]). Call it before every
    /// [`before_step`](Self::before_step) of a world with multibody joints;
    /// [`step_world`](Self::step_world) and bevy_tribo do. The store treats a body on a
    /// multibody joint as one on the user's impulse joints: its contacts get no anchor
    /// pull-back (a wheel's contact cannot return the wheel alone; the pull-backs of a cart's
    /// four wheels fight through the chassis and keep it jittering, its wheels at up to
    /// 1e-3 rad/s at dt = 1/30).
    ///
    /// A link on a revolute joint (a wheel on its axle) turns about its axle only: while its
    /// contact's roll sticks with a deflection too small to say where the load turns it, the
    /// contact's roll row lies along the axle (otherwise along the axis the contact's first
    /// step gave it: a cart set down at rest kept its wheels' rows 17°–58° off their axles, and
    /// rapier's solver left the wheels turning at up to 1.03e-4 rad/s at dt = 1/30 while the
    /// chassis stood).
    pub fn note_multibody_joints(&mut self, multibody_joints: &MultibodyJointSet) {
        self.multibody_links.clear();
        for (_, _, mb, link) in multibody_joints.iter() {
            let data = &link.joint().data;
            let free = !data.locked_axes.bits() & JointAxesMask::all().bits();
            let axle = (free == JointAxesMask::ANG_X.bits()).then(|| data.local_frame2.rotation * Vector::X);
            self.multibody_links.push(MultibodyLink { body: link.rigid_body_handle(), axle });
            if let Some(parent) = link.parent_id().and_then(|p| mb.link(p)) {
                self.multibody_links.push(MultibodyLink { body: parent.rigid_body_handle(), axle: None });
            }
        }
        // One entry per body, the one with an axle first.
        self.multibody_links.sort_unstable_by_key(|l| (l.body.into_raw_parts(), l.axle.is_none()));
        self.multibody_links.dedup_by_key(|l| l.body);
    }

    /// Whether `joints` holds joints that are not tribo's motors (without
    /// [`TRIBO_JOINT_USER_DATA`]). One pass over the joint set, in its storage order.
    fn count_user_joints(&mut self, joints: &ImpulseJointSet) {
        self.user_joints = joints.iter().any(|(_, j)| !is_tribo_joint(j));
    }

    fn remove_state(&mut self, i: usize, joints: &mut ImpulseJointSet) {
        self.watch.parked.unpark(i);
        self.settle.contribute(&mut self.contacts.states[i], None, false);
        let last = self.contacts.states.len() - 1;
        self.watch.parked.moved(last, i);
        let s = self.contacts.states.swap_remove(i);
        self.contacts.plans.swap_remove(i);
        self.contacts.warm.swap_remove(i);
        self.contacts.index.remove(&key(s.c1, s.c2));
        if let Some(j) = s.joint {
            remove_tribo_joint(joints, j);
        }
        if i < self.contacts.states.len() {
            let m = &self.contacts.states[i];
            self.contacts.index.insert(key(m.c1, m.c2), i as u32);
        }
    }

    /// Removes every contact state and motor joint (e.g. before dropping the store or when
    /// switching a world back to stock friction). Materials are kept; colliders taken off the
    /// hook go back on at the next [`before_step`](Self::before_step).
    pub fn clear(&mut self, joints: &mut ImpulseJointSet) {
        self.settle.rehook_all = true;
        while !self.contacts.states.is_empty() {
            let last = self.contacts.states.len() - 1;
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
        self.watch = Default::default();
        self.settle.forget_contributions();
        self.contacts.states.clear();
        self.contacts.plans.clear();
        self.contacts.warm.clear();
        self.contacts.index.clear();
        self.new_info.clear();
        self.inbox.new_pairs.get_mut().unwrap_or_else(|e| e.into_inner()).clear();
        self.inbox.belts.get_mut().unwrap_or_else(|e| e.into_inner()).clear();
        self.motors.give_back.clear();
        self.motors.anchor = None;
        self.motors.needs_anchor = false;
        self.motors.adopted = false;
        self.settle.rehook_all = true;
    }

    /// One step of a rapier [`PhysicsWorld`] with tribo friction:
    /// [`note_multibody_joints`](Self::note_multibody_joints),
    /// [`set_gravity`](Self::set_gravity) (the world's, for the diagnostics), `before_step`,
    /// `world.step_with_events(&self.hooks(user_hooks), events)`, `after_step` (with the
    /// `parallel` feature, in the world's own thread pool if it has one, as rapier's step).
    pub fn step_world<H: PhysicsHooks + ?Sized>(
        &mut self,
        world: &mut PhysicsWorld,
        user_hooks: &H,
        events: &dyn EventHandler,
    ) {
        self.note_multibody_joints(&world.multibody_joints);
        self.set_gravity(world.gravity);
        self.before_step(
            &world.integration_parameters,
            &mut world.bodies,
            &mut world.colliders,
            &mut world.impulse_joints,
        );
        world.step_with_events(&self.hooks(user_hooks), events);
        #[cfg(feature = "parallel")]
        let pool = world_pool(world);
        let w = &mut *world;
        let mut after = || {
            self.after_step(
                &w.integration_parameters,
                &w.bodies,
                &w.colliders,
                &w.narrow_phase,
                &mut w.impulse_joints,
            )
        };
        #[cfg(feature = "parallel")]
        if let Some(pool) = pool {
            pool.install(after);
            return;
        }
        after();
    }
}

/// The thread pool a rapier world steps in, if it has its own.
#[cfg(feature = "parallel")]
fn world_pool(world: &PhysicsWorld) -> Option<std::sync::Arc<rayon::ThreadPool>> {
    world.thread_pool()
}
