//! Serde snapshots of [`TriboRapier`] (feature `serde-serialize`).
//!
//! The store is written as one plain record: settings, materials (sorted by collider handle),
//! pair table, per-contact states and plans, the hidden anchor body, diagnostics and the
//! realizability monitor's settings. The handle index is rebuilt from the states on reading.
//! Take the snapshot after [`TriboRapier::after_step`] (the per-step buffers are then empty;
//! they are saved anyway) and restore it together with the rapier world it was saved with.

use super::*;
use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// The serialized form of [`TriboRapier`].
#[derive(Serialize, Deserialize)]
struct Snapshot {
    settings: Settings,
    materials: Vec<(u64, FrictionMaterial)>,
    pair_table: PairTable,
    material_colliders: Vec<ColliderHandle>,
    material_epoch: u64,
    states: Vec<PairState>,
    plans: Vec<Plan>,
    /// The warm-start sums as f32 bits.
    warm: Vec<u32>,
    needs_anchor: bool,
    new_pairs: Vec<NewPair>,
    belts: Vec<(u32, Vector)>,
    new_info: Vec<NewPair>,
    anchor: Option<RigidBodyHandle>,
    diagnostics: Vec<Diagnostic>,
    reported: Vec<Diagnostic>,
    step: u64,
    prepared: bool,
    reported_unprepared: bool,
    adopted: bool,
    realizability: crate::diagnostics::Monitor,
    /// The hook flags tribo controls (sorted by collider handle).
    #[serde(default)]
    hook_control: Vec<(u64, settle::HookCtl)>,
    /// Angular impulses to give back at the next `before_step`.
    #[serde(default)]
    give_back: Vec<give_back::GiveBack>,
    /// Colliders whose bodies the next `before_step` wakes (a material changed).
    #[serde(default)]
    wake: Vec<ColliderHandle>,
    /// Bodies whose angular speed cap the next `before_step` lifts.
    #[serde(default)]
    lift_cap: Vec<RigidBodyHandle>,
    /// Torques added by the last `before_step`, taken back by the next.
    #[serde(default)]
    applied_torques: Vec<torques::Applied>,
}

/// Writes the whole store (see the module docs): materials keyed by full collider handle,
/// per-contact states (modes, deflections, curvatures, motor joint handles), plans, settings
/// and diagnostics. Take it after [`TriboRapier::after_step`], together with the rapier sets.
impl Serialize for TriboRapier {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut materials: Vec<(u64, FrictionMaterial)> =
            self.materials.by_collider.iter().map(|(k, m)| (*k, *m)).collect();
        materials.sort_by_key(|(k, _)| *k);
        let mut hook_control: Vec<(u64, settle::HookCtl)> =
            self.settle.ctl.iter().map(|(k, c)| (*k, *c)).collect();
        hook_control.sort_by_key(|(k, _)| *k);
        Snapshot {
            settings: self.settings,
            materials,
            pair_table: self.materials.pair_table.clone(),
            material_colliders: self.materials.colliders.clone(),
            material_epoch: self.materials.epoch,
            states: self.contacts.states.clone(),
            plans: self.contacts.plans.clone(),
            warm: self.contacts.warm.iter().map(|w| w.load(Ordering::Relaxed)).collect(),
            needs_anchor: self.motors.needs_anchor,
            new_pairs: locked_clone(&self.inbox.new_pairs),
            belts: locked_clone(&self.inbox.belts),
            new_info: self.new_info.clone(),
            anchor: self.motors.anchor,
            diagnostics: self.diagnostics.clone(),
            reported: self.reported.clone(),
            step: self.step,
            prepared: self.prepared,
            reported_unprepared: self.reported_unprepared,
            adopted: self.motors.adopted,
            realizability: self.realizability.clone(),
            hook_control,
            give_back: self.motors.give_back.clone(),
            wake: self.wake.clone(),
            lift_cap: self.lift_cap.clone(),
            applied_torques: self.torques.applied.clone(),
        }
        .serialize(serializer)
    }
}

/// Reads a store written by its `Serialize` impl. The result refers to the handles of the
/// world saved with it: restore that world too and step them together. A record whose
/// per-contact arrays disagree in length is an error. The realizability reports of the last
/// step are not saved (the next `after_step` computes them again).
impl<'de> Deserialize<'de> for TriboRapier {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let mut s = Snapshot::deserialize(deserializer)?;
        let n = s.states.len();
        if s.plans.len() != n || s.warm.len() != n {
            return Err(D::Error::custom(format!(
                "tribo snapshot: {} states, {} plans, {} warm-start sums",
                n,
                s.plans.len(),
                s.warm.len()
            )));
        }
        let mut index = FastMap::default();
        for st in &mut s.states {
            st.torques = st.material.has_torques();
        }
        for (i, st) in s.states.iter().enumerate() {
            if index.insert(key(st.c1, st.c2), i as u32).is_some() {
                return Err(D::Error::custom("tribo snapshot: two states for one collider pair"));
            }
        }
        Ok(TriboRapier {
            settings: s.settings.sanitized(),
            materials: Materials {
                by_collider: s.materials.into_iter().collect(),
                pair_table: s.pair_table,
                colliders: s.material_colliders,
                epoch: s.material_epoch,
            },
            contacts: Contacts {
                index,
                states: s.states,
                plans: s.plans,
                warm: s.warm.into_iter().map(AtomicU32::new).collect(),
            },
            motors: world::Motors {
                anchor: s.anchor,
                needs_anchor: s.needs_anchor,
                adopted: s.adopted,
                give_back: s.give_back,
            },
            user_joints: false,
            multibody_links: Vec::new(),
            inbox: HookInbox { new_pairs: Mutex::new(s.new_pairs), belts: Mutex::new(s.belts) },
            new_info: s.new_info,
            diagnostics: s.diagnostics,
            reported: s.reported,
            step: s.step,
            prepared: s.prepared,
            reported_unprepared: s.reported_unprepared,
            caches: super::pass::PassCache::one(),
            realizability: s.realizability,
            settle: settle::Settle::with_ctl(s.hook_control.into_iter().collect()),
            wake: s.wake,
            watch: Default::default(),
            // Set by every `before_step`.
            timing: Default::default(),
            lift_cap: s.lift_cap,
            torques: torques::Torques::with_applied(s.applied_torques),
        })
    }
}
