//! The contact table: one slot per tracked contact (its stick/slip state, the hook's plan and
//! the warm-start sum the hook adds up), and the index from collider pair to slot. The hook
//! reads it (plans, last normals) and adds to the warm-start sums; `after_step` writes it.

use super::*;

/// The tracked contacts (see the module docs).
#[derive(Default)]
pub(crate) struct Contacts {
    pub(super) index: FastMap<PairKey, u32>,
    pub(super) states: Vec<PairState>,
    /// The hook's plan of each contact, parallel to `states`.
    pub(super) plans: Vec<Plan>,
    /// Σ warm-start normal impulse (f32 bits) the solver starts this step with, summed by the
    /// hook over each contact's solver manifolds; parallel to `states` (rapier 0.35 adds it to
    /// the reported impulse). [`WARM_UNSET`] when the hook did not see the contact (a pair off
    /// the hook: `after_step` uses [`PairState::warm_next`]).
    pub(super) warm: Vec<AtomicU32>,
}

impl Clone for Contacts {
    fn clone(&self) -> Self {
        Contacts {
            index: self.index.clone(),
            states: self.states.clone(),
            plans: self.plans.clone(),
            warm: self.warm.iter().map(|w| AtomicU32::new(w.load(Ordering::Relaxed))).collect(),
        }
    }
}

impl Contacts {
    /// The state slot of a contact (rapier's pair order): `hint` (the slot the manifold carried
    /// from the last step) if it still holds this pair, else looked up.
    #[inline]
    pub(crate) fn slot(&self, c1: ColliderHandle, c2: ColliderHandle, hint: Option<u32>) -> Option<u32> {
        if let Some(p) = hint.and_then(|i| self.plans.get(i as usize)) {
            if p.c1 == c1 && p.c2 == c2 {
                return hint;
            }
        }
        if self.index.is_empty() {
            return None;
        }
        self.index.get(&key(c1, c2)).copied()
    }

    /// The plan in slot `slot` if it is the contact of `c1`, `c2` and only sets the friction
    /// coefficient and the pull-back (no stock fallback, no collapsed Contensou face, no line
    /// contact, no stopped roll): the hook's common case.
    #[inline(always)]
    pub(crate) fn plain_plan(&self, c1: ColliderHandle, c2: ColliderHandle, slot: u32) -> Option<&Plan> {
        self.plans.get(slot as usize).filter(|p| {
            p.c1 == c1
                && p.c2 == c2
                && !(p.stock | p.collapse | p.line | p.roll_stopped)
                && p.hold_radius == 0.0
        })
    }

    /// The normal of a contact with state after the last step (from its first collider to its
    /// second; +y before its first).
    #[inline]
    pub(crate) fn last_normal(&self, slot: u32) -> Vector {
        self.states[slot as usize].normal
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
        if compat::IMPULSE_INCLUDES_WARMSTART {
            let w = &self.warm[slot as usize];
            let sum = match w.load(Ordering::Relaxed) {
                WARM_UNSET => 0.0,
                bits => f32::from_bits(bits),
            };
            w.store((sum + impulse).to_bits(), Ordering::Relaxed);
        }
    }
}
