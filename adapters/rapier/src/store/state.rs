//! The per-contact data: what the hook applies ([`Plan`]), what it saw of new contacts
//! ([`NewPair`]) and the stick/slip state ([`PairState`]), keyed by the full collider handles.

use super::*;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

#[derive(Default)]
pub(super) struct PairHasher(u64);
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
pub(super) type FastMap<K, V> = HashMap<K, V, BuildHasherDefault<PairHasher>>;

/// Per-collider data keyed by full collider handle ([`handle_key`]), stored densely by the
/// handle's index: a lookup is an index and a generation compare, no hashing (the store looks up
/// every material collider's hook control and material in each `before_step`). Handles with an
/// index past [`HandleMap::DENSE`] (never a live collider of a real world;
/// `ColliderHandle::invalid()` is one) go to a small hash map instead of growing the vector.
#[derive(Clone, Debug)]
pub(super) struct HandleMap<T> {
    dense: Vec<Option<(u64, T)>>,
    sparse: FastMap<u64, T>,
    len: usize,
}

impl<T> Default for HandleMap<T> {
    fn default() -> Self {
        HandleMap { dense: Vec::new(), sparse: FastMap::default(), len: 0 }
    }
}

impl<T> HandleMap<T> {
    /// Collider indices below this are stored in the vector.
    pub(super) const DENSE: usize = 1 << 22;

    #[inline]
    fn slot(key: u64) -> usize {
        (key & 0xffff_ffff) as usize
    }

    /// The value of `key`, if any.
    #[inline]
    pub(super) fn get(&self, key: &u64) -> Option<&T> {
        let i = Self::slot(*key);
        if i < Self::DENSE {
            match self.dense.get(i) {
                Some(Some((k, v))) if k == key => Some(v),
                _ => None,
            }
        } else {
            self.sparse.get(key)
        }
    }

    /// Whether `key` has a value.
    #[inline]
    pub(super) fn contains_key(&self, key: &u64) -> bool {
        self.get(key).is_some()
    }

    /// Sets the value of `key`; returns the one it replaces (a value of another generation in
    /// the same slot is dropped, not returned: it belonged to a removed collider).
    pub(super) fn insert(&mut self, key: u64, value: T) -> Option<T> {
        let i = Self::slot(key);
        let old = if i < Self::DENSE {
            if i >= self.dense.len() {
                self.dense.resize_with(i + 1, || None);
            }
            match self.dense[i].replace((key, value)) {
                Some((k, v)) if k == key => Some(v),
                Some(_) => {
                    self.len -= 1;
                    None
                }
                None => None,
            }
        } else {
            self.sparse.insert(key, value)
        };
        if old.is_none() {
            self.len += 1;
        }
        old
    }

    /// Removes the value of `key`.
    pub(super) fn remove(&mut self, key: &u64) -> Option<T> {
        let i = Self::slot(*key);
        let old = if i < Self::DENSE {
            match self.dense.get_mut(i) {
                Some(slot) if slot.as_ref().is_some_and(|(k, _)| k == key) => slot.take().map(|(_, v)| v),
                _ => None,
            }
        } else {
            self.sparse.remove(key)
        };
        if old.is_some() {
            self.len -= 1;
        }
        old
    }

    /// The value of `key`, inserted as `T::default()` if absent.
    pub(super) fn get_or_insert_default(&mut self, key: u64) -> &mut T
    where
        T: Default,
    {
        if !self.contains_key(&key) {
            self.insert(key, T::default());
        }
        let i = Self::slot(key);
        if i < Self::DENSE {
            &mut self.dense[i].as_mut().expect("inserted above").1
        } else {
            self.sparse.get_mut(&key).expect("inserted above")
        }
    }

    /// Whether the map is empty.
    #[inline]
    pub(super) fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Every key and value (dense slots by index, then the others in no set order).
    pub(super) fn iter(&self) -> impl Iterator<Item = (&u64, &T)> {
        self.dense.iter().flatten().map(|(k, v)| (k, v)).chain(self.sparse.iter())
    }

    /// Every key.
    pub(super) fn keys(&self) -> impl Iterator<Item = &u64> {
        self.iter().map(|(k, _)| k)
    }
}

impl<T> FromIterator<(u64, T)> for HandleMap<T> {
    fn from_iter<I: IntoIterator<Item = (u64, T)>>(iter: I) -> Self {
        let mut m = HandleMap::default();
        for (k, v) in iter {
            m.insert(k, v);
        }
        m
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub(super) struct PairKey(u64, u64);

/// A collider handle as one number: index in the low half, generation in the high half.
pub(super) fn handle_key(c: ColliderHandle) -> u64 {
    let (i, g) = c.into_raw_parts();
    ((g as u64) << 32) | i as u64
}

pub(super) fn key(c1: ColliderHandle, c2: ColliderHandle) -> PairKey {
    let (i1, g1) = c1.into_raw_parts();
    let (i2, g2) = c2.into_raw_parts();
    PairKey(((i1 as u64) << 32) | i2 as u64, ((g1 as u64) << 32) | g2 as u64)
}

/// What the hook applies to one contact in the next step, kept apart from the bulky
/// [`PairState`] so the hook reads one small entry per contact.
#[derive(Clone, Copy, Debug)]
#[cfg_attr(feature = "serde-serialize", derive(serde::Serialize, serde::Deserialize))]
pub(crate) struct Plan {
    /// The contact's colliders (rapier's pair order): the hook checks a slot hint against them.
    pub c1: ColliderHandle,
    /// Second collider.
    pub c2: ColliderHandle,
    /// Manifold friction coefficient.
    pub mu: f32,
    /// Anchor pull-back of a sticking contact (zero otherwise).
    pub tangent_velocity: Vector,
    /// Stock rapier friction (zero-mass fallback): the hook leaves the contact alone.
    pub stock: bool,
    /// Contensou flat face: collapse the solver contacts into one.
    pub collapse: bool,
    /// The roll stopped in the last step (kinetic → static), or stops in the next one (its last
    /// kinetic step, whose friction brakes the body): in the next step the contact's friction
    /// acts in its body's centre-of-mass plane (see `hooks::friction_in_com_plane`).
    #[cfg_attr(feature = "serde-serialize", serde(default))]
    pub roll_stopped: bool,
    /// With `roll_stopped`: the tangential offset that, with the shift along the normal, puts
    /// the solver contacts on the line of action of the contact's normal force and its friction
    /// across the rolling direction (see `hooks::friction_in_com_plane`).
    #[cfg_attr(feature = "serde-serialize", serde(default))]
    pub stop_offset: Vector,
    /// A side is a cylinder, cone or capsule (a possible line contact whose points the hook puts
    /// back on the touching line, see `line_contact::onto_touching_lines`).
    #[cfg_attr(feature = "serde-serialize", serde(default))]
    pub line: bool,
    /// A round body rolls on a side that does not move with the solver: its radius of
    /// curvature at the contact (m), and the hook holds the contact (see [`crate::rolling`]);
    /// `after_step` measures its slip at the solver's point. 0: not held.
    #[cfg_attr(feature = "serde-serialize", serde(default))]
    pub hold_radius: f32,
}

/// How the two surfaces moved relative to each other when a contact began (the velocities the
/// step starts from, seen by the hook).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Onset {
    /// The surfaces already slid past each other (the contact starts kinetic).
    pub sliding: bool,
    /// The bodies already turned relative to each other (rolling or spinning onto the contact).
    pub turning: bool,
    /// Each side's body's centre of mass and rotation when the step began (`None`: no body).
    pub start: [Option<(Vector, Rotation)>; 2],
    /// The relative angular velocity (second body's minus first's) when the step began.
    pub w0: Vector,
}

/// A contact the hook saw for the first time.
#[derive(Clone, Copy, Debug)]
#[cfg_attr(feature = "serde-serialize", derive(serde::Serialize, serde::Deserialize))]
pub(crate) struct NewPair {
    pub(super) c1: ColliderHandle,
    pub(super) c2: ColliderHandle,
    /// The surfaces already slid past each other (the contact starts kinetic).
    pub(super) sliding: bool,
    /// The bodies already turned relative to each other.
    pub(super) turning: bool,
    /// The user's conveyor velocity on it (see [`TriboHooks`]).
    pub(super) belt: Vector,
    /// Each side's body's centre of mass and rotation when the step began (`None`: no body):
    /// how far the touching material points moved in the contact's first step.
    #[cfg_attr(feature = "serde-serialize", serde(default))]
    pub(super) start: [Option<(Vector, Rotation)>; 2],
    /// The relative angular velocity when the step began (see [`Onset::w0`]).
    #[cfg_attr(feature = "serde-serialize", serde(default))]
    pub(super) w0: Vector,
}

/// One contact's stick/slip state. Laid out in declaration order (`repr(C)`): the fields every
/// step reads come first (the ones `before_step` and `after_step`'s prefetch stages read in the
/// first lines), the rarely used ones (Contensou state, the onset hold's anchors) last, from
/// [`PairState::COLD`] on: `after_step` loads only the lines before it ahead of use.
#[derive(Clone)]
#[cfg_attr(feature = "serde-serialize", derive(serde::Serialize, serde::Deserialize))]
#[repr(C)]
pub(super) struct PairState {
    pub(super) c1: ColliderHandle,
    pub(super) c2: ColliderHandle,
    pub(super) parents: [Option<RigidBodyHandle>; 2],
    /// Index of the pair in the narrow phase's contact graph at the last `after_step`
    /// (checked before use).
    pub(super) edge: u32,
    pub(super) seen: u64,
    /// Neither body moved (asleep, or not dynamic) at the last `after_step`: the contact is not
    /// prefetched in the next (see `prefetch`).
    #[cfg_attr(feature = "serde-serialize", serde(skip))]
    pub(super) idle: bool,
    /// Checked in full by the last `before_step` while idle, and not changed since: the next
    /// `before_step` only asks whether its colliders changed (see `quiet`).
    #[cfg_attr(feature = "serde-serialize", serde(skip))]
    pub(super) quiet: bool,
    /// The settle verdict of that full check ([`TriboRapier::contact_settled`]), if it made one.
    #[cfg_attr(feature = "serde-serialize", serde(skip))]
    pub(super) verdict: Option<bool>,
    /// What the contact contributes to its colliders' settle counts
    /// (`settle::Settle::contribute`), kept while it is parked.
    #[cfg_attr(feature = "serde-serialize", serde(skip))]
    pub(super) counted: super::settle::Contribution,
    /// The contact was settled at the last `after_step` (see [`Settings::unhook_settled`]).
    #[cfg_attr(feature = "serde-serialize", serde(default))]
    pub(super) settled: bool,
    /// The hook left this contact's solver contacts as rapier made them, but for the friction
    /// coefficient, in the last step (no anchor pull-back, no moved points): rapier keeps a
    /// pair's last solver contacts while it recycles them off the hook, so only then may its
    /// colliders leave the hook (see `settle`).
    #[cfg_attr(feature = "serde-serialize", serde(default))]
    pub(super) hook_plain: bool,
    /// The friction coefficient rapier's solver applied to the pair in its last step with active
    /// contacts, read from its manifold: the hook's, or rapier's combination of the colliders'
    /// `friction` at a full update off the hook, or what a recycled pair kept. A contact leaves
    /// the hook only while this is the coefficient of its mode (see `settle`).
    #[cfg_attr(feature = "serde-serialize", serde(default))]
    pub(super) applied_mu: f32,
    /// Bounds on how far the pair's relative pose (translation plus turn times the colliders'
    /// extent) and each body's rotation (rad) moved since the pair's last step on the hook: a
    /// sliding contact stays off the hook only while rapier recycles its pair (see `after_step`).
    #[cfg_attr(feature = "serde-serialize", serde(default))]
    pub(super) off_motion: [f32; 2],
    /// The larger collider's extent (the largest distance of its AABB's corners from its
    /// origin; 0: not known yet), for `off_motion`. Cleared when a shape changes.
    #[cfg_attr(feature = "serde-serialize", serde(skip))]
    pub(super) extent: f32,
    /// The next `before_step` must plan this contact (material changed, anchor body missing).
    pub(super) pending: bool,
    /// Steps in a row the pair had no active contact (kept for up to [`ABSENT_STEPS`], see
    /// `after_step`).
    #[cfg_attr(feature = "serde-serialize", serde(default))]
    pub(super) absent: u8,
    /// Onset hold of roll ([`HOLD_ROLL`]), spin ([`HOLD_SPIN`]) and slide ([`HOLD_SLIDE`]):
    /// see [`hold_step`].
    pub(super) hold: u8,
    /// Both shapes have direction-independent curvature (balls, flat shapes): `curvature` is
    /// computed once.
    pub(super) kappa_const: bool,
    pub(super) slide: Mode,
    pub(super) roll: Mode,
    pub(super) spin: Mode,
    pub(super) material_epoch: u64,
    #[cfg_attr(feature = "serde-serialize", serde(skip))]
    pub(super) unhook_mu_epoch: u64,
    /// Each collider's material μs (NaN: no material), as of material epoch
    /// `unhook_mu_epoch - 1` (0: not known): the settle test's friction off the hook, without a
    /// material lookup per step.
    #[cfg_attr(feature = "serde-serialize", serde(skip))]
    pub(super) unhook_mu: [f32; 2],
    /// Whether rapier's combination of the colliders' `friction` (as of the last full check of
    /// the contact, with `unhook_mu`) is the contact's μs (`None`: not tested since). Kept
    /// while the colliders do not change (see `TriboRapier::contact_settled`).
    #[cfg_attr(feature = "serde-serialize", serde(skip))]
    pub(super) combine_ok: Option<bool>,
    /// What the contact's geometry was planned from: each collider's shape (address of its
    /// shared shape) and parent body. `before_step` compares them with the colliders' current
    /// ones and recomputes the curvatures (capacities) when a shape or a parent changed.
    /// Not saved in a snapshot: a restored state has `[0, 0]` ([`SHAPES_RESTORED`]) and takes
    /// the restored colliders' shapes as its own on the next `before_step`.
    #[cfg_attr(feature = "serde-serialize", serde(skip))]
    pub(super) shapes: [usize; 2],
    /// The Contensou model of the pair, if any (from the materials).
    pub(super) contensou_model: Option<Box<crate::contensou::Contensou>>,
    pub(super) n: f32,
    pub(super) normal: Vector,
    pub(super) point: Vector,
    pub(super) slide_defl: Vector,
    pub(super) roll_defl: Vector,
    pub(super) spin_defl: f32,
    pub(super) roll_axis: Vector,
    pub(super) roll_cap: f32,
    pub(super) spin_cap: f32,
    /// Static roll threshold Θ^s of the last step (rad).
    pub(super) roll_threshold: f32,
    /// Σ warm-start normal impulse of the contact's solver contacts after the last step: the
    /// warm start of the next step if rapier recycles the pair (it is then off the hook, which
    /// does not sum it).
    #[cfg_attr(feature = "serde-serialize", serde(default))]
    pub(super) warm_next: f32,
    /// Relative roll and spin speeds (rad/s) after the previous step.
    pub(super) last_w: [f32; 2],
    /// How much the last step's kinetic torque took off those speeds (rad/s), 0 if none.
    pub(super) kinetic_drop: [f32; 2],
    /// Deflections (roll, spin) after the contact's first step, while held.
    pub(super) hold_onset: [f32; 2],
    /// Slide deflection after the contact's first step, while held (m).
    #[cfg_attr(feature = "serde-serialize", serde(default))]
    pub(super) slide_onset: f32,
    /// Relative slide (m/s) and spin (rad/s) speeds after the previous step, and whether each
    /// was at its bound and not slowing, kept for contacts of bodies on the user's joints (see
    /// `track::slipping`).
    #[cfg_attr(feature = "serde-serialize", serde(default))]
    pub(super) last_slip: ([f32; 2], [bool; 2]),
    pub(super) joint: Option<ImpulseJointHandle>,
    /// The two surfaces' curvatures at the last plan (along its rolling direction), once known.
    pub(super) curvature: Option<(Curvature, Curvature)>,
    /// The material's derived parameters per newton for these curvatures, once computed
    /// (`Some(None)`: a Hertz spin, which has no such form); cleared with the curvatures and
    /// the material (see [`PairState::derived`]).
    #[cfg_attr(feature = "serde-serialize", serde(skip))]
    pub(super) per_newton: Option<Option<tribo::tracking::PerNewton>>,
    pub(super) material: Material,
    /// `material.has_torques()`: the material may resist roll or spin (kept with the material).
    #[cfg_attr(feature = "serde-serialize", serde(skip))]
    pub(super) torques: bool,
    /// Enabled only while `contensou_model` is set (cleared with it).
    pub(super) contensou: crate::contensou::PairContensou,
    /// While the slide is held: the material points of each side that touched when the contact
    /// began, in the body's frame about its centre of mass (world point for a side without a
    /// body). The held deflection is their tangential offset, from the bodies' poses.
    #[cfg_attr(feature = "serde-serialize", serde(default))]
    pub(super) slide_anchor: [Vector; 2],
    /// Each side's rotation when the contact began (identity for a side without a moving body):
    /// a held spin deflection is the relative turn since, from the bodies' poses.
    #[cfg_attr(feature = "serde-serialize", serde(default))]
    pub(super) onset_rot: [Rotation; 2],
    /// The relative velocity a held rolling contact's friction is asked to hold in the next
    /// step (added to its `tangent_velocity`): the slip the roll motor left at the end of the
    /// last step, in the substeps where the friction had no grip, taken off in advance (see
    /// `after_step`).
    #[cfg_attr(feature = "serde-serialize", serde(default))]
    pub(super) roll_fix: Vector,
    /// With [`RollSpin::Torques`](super::RollSpin::Torques): the roll and spin torque on the
    /// second side for the next step (the first side takes its opposite), and what the
    /// observer keeps from the step it was planned in (see `torques`).
    #[cfg_attr(feature = "serde-serialize", serde(default))]
    pub(super) torque: super::torques::RowTorques,
}

impl PairState {
    /// The material's derived parameters for the normal force `n` and curvatures `k` (the
    /// contact's, [`PairState::curvature`]): for curvatures that do not depend on the direction,
    /// from the per-newton form kept in the state.
    #[inline]
    pub(super) fn derived(&mut self, n: f32, k: (Curvature, Curvature)) -> Derived {
        if !self.kappa_const {
            return super::plan::derive(&self.material, n, k);
        }
        match self.per_newton_for(k) {
            Some(p) => p.at(n as f64),
            None => super::plan::derive(&self.material, n, k),
        }
    }

    /// The contact's [`Material::per_newton`] for curvatures `k` that do not depend on the
    /// direction, computed once and kept.
    #[inline(always)]
    fn per_newton_for(&mut self, (k1, k2): (Curvature, Curvature)) -> &Option<tribo::tracking::PerNewton> {
        let material = &self.material;
        self.per_newton.get_or_insert_with(|| {
            material.per_newton(k1.directional + k2.directional, 0.0, k1.mean + k2.mean, 0.0)
        })
    }

    /// [`derived`](Self::derived) of a contact without roll or spin resistance
    /// ([`Material::has_torques`] false) whose curvatures do not depend on the direction: its
    /// slide parameters, every roll and spin parameter zero.
    #[inline(always)]
    pub(super) fn derived_slide(&mut self, n: f32, k: (Curvature, Curvature)) -> Derived {
        match self.per_newton_for(k) {
            Some(p) => p.at(n as f64).slide_only(),
            None => self.material.derive_slide(n as f64),
        }
    }

    /// Offset of the first field the common step does not read.
    pub(super) const COLD: usize = std::mem::offset_of!(PairState, contensou);
}

/// Steps without an active contact a contact's state is kept for (see `after_step`).
pub(super) const ABSENT_STEPS: u8 = 3;

/// [`TriboRapier::warm`] of a contact the hook has not seen in this step (NaN bits).
pub(super) const WARM_UNSET: u32 = u32::MAX;

/// [`PairState::shapes`] of a state restored from a snapshot (no shape lives at address 0).
pub(super) const SHAPES_RESTORED: [usize; 2] = [0, 0];

/// [`PairState::hold`] bit of roll.
pub(super) const HOLD_ROLL: u8 = 1;
/// [`PairState::hold`] bit of spin.
pub(super) const HOLD_SPIN: u8 = 2;
/// [`PairState::hold`] bit of slide.
pub(super) const HOLD_SLIDE: u8 = 4;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_handle_map_keeps_one_value_per_live_handle_and_never_grows_for_far_indices() {
        let key = |i: u32, g: u32| handle_key(ColliderHandle::from_raw_parts(i, g));
        let mut m = HandleMap::default();
        assert!(m.is_empty());
        assert_eq!(m.insert(key(3, 0), 1.0), None);
        assert_eq!(m.insert(key(3, 0), 2.0), Some(1.0));
        assert_eq!(m.get(&key(3, 0)), Some(&2.0));
        // The slot reused by a new collider: the old generation's value is not the new one's.
        assert_eq!(m.get(&key(3, 1)), None);
        assert_eq!(m.insert(key(3, 1), 5.0), None);
        assert_eq!(m.get(&key(3, 0)), None);
        assert_eq!(m.remove(&key(3, 0)), None);
        assert_eq!(m.iter().count(), 1);
        // An invalid handle (index u32::MAX) is kept aside, not by growing the vector.
        let invalid = handle_key(ColliderHandle::invalid());
        assert_eq!(m.insert(invalid, 7.0), None);
        assert!(m.dense.len() <= 4);
        assert_eq!(m.get(&invalid), Some(&7.0));
        *m.get_or_insert_default(key(0, 2)) += 1.5;
        let mut all: Vec<_> = m.iter().map(|(k, v)| (*k, *v)).collect();
        all.sort_by_key(|e| e.0);
        assert_eq!(all, vec![(key(3, 1), 5.0), (key(0, 2), 1.5), (invalid, 7.0)]);
        assert_eq!(m.remove(&key(3, 1)), Some(5.0));
        assert_eq!(m.remove(&invalid), Some(7.0));
        assert_eq!(m.remove(&key(0, 2)), Some(1.5));
        assert!(m.is_empty());
    }
}
