//! The hook's inbox: what the hook reports during rapier's step for the next `after_step` (new
//! contacts, the user's conveyor velocities). The narrow phase may call the hook on several
//! threads: both lists are behind a lock, and `after_step` sorts them into a canonical order.

use super::*;

/// What the hook reports (see the module docs).
#[derive(Default)]
pub(crate) struct HookInbox {
    /// Pairs the hook saw without state (new contacts), for the next `after_step`.
    pub(super) new_pairs: Mutex<Vec<NewPair>>,
    /// Conveyor velocities the user's hook set this step, one (slot, velocity) per solver
    /// manifold: `after_step` measures those contacts' slip relative to the belt.
    pub(super) belts: Mutex<Vec<(u32, Vector)>>,
}

impl Clone for HookInbox {
    fn clone(&self) -> Self {
        HookInbox {
            new_pairs: Mutex::new(locked_clone(&self.new_pairs)),
            belts: Mutex::new(locked_clone(&self.belts)),
        }
    }
}

impl HookInbox {
    /// Records the user's conveyor velocity on one solver manifold of contact `slot`.
    pub(crate) fn add_belt(&self, slot: u32, tangent_velocity: Vector) {
        if let Ok(mut v) = self.belts.lock() {
            v.push((slot, tangent_velocity));
        }
    }

    /// Friction coefficient for a contact that appeared in this step's narrow phase (no state
    /// yet), or `None` for stock: static friction unless it already slides. The pair is
    /// recorded so that `after_step` creates its state; `materials` gives its material.
    pub(crate) fn new_contact_friction(
        &self,
        materials: &Materials,
        c1: ColliderHandle,
        c2: ColliderHandle,
        belt: Vector,
        onset: impl FnOnce() -> Onset,
    ) -> Option<f32> {
        let m = materials.pair_material(c1, c2)?;
        let Onset { sliding, turning, start, w0 } = onset();
        if let Ok(mut v) = self.new_pairs.lock() {
            v.push(NewPair { c1, c2, sliding, turning, belt, start, w0 });
        }
        Some(if sliding { m.mu_k() } else { m.mu_s() } as f32)
    }
}
