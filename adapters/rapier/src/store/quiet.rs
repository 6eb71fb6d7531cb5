//! Quiet contacts: the checks `before_step` and `after_step` skip for contacts that cannot have
//! changed since they were last made.
//!
//! A contact whose bodies are all asleep (or not dynamic) changes nothing between steps, but
//! both passes still have to find out that nothing changed; in a world that is mostly asleep
//! that is all of tribo's cost (rapier's own for a sleeping body is close to nothing).
//!
//! - `before_step` checks a contact in full (its colliders still there, their shapes, parents,
//!   friction and combination rules, its material, whether it keeps its colliders off the hook)
//!   and marks it *quiet* if its bodies did not move at the last `after_step` and it was not
//!   planned. A quiet contact's state does not change while it stays idle, so the next pass
//!   only asks whether its two colliders changed: each collider is looked at once per pass
//!   ([`Watch::collider_same`]: its shape, parent, friction, combination rule and hook flags
//!   against what the last pass that looked at it saw), and an unchanged quiet contact records
//!   the settle verdict it had. A contact whose material epoch moved, that waits for a plan, or
//!   whose collider changed is checked in full again; one with a Contensou model never is quiet.
//! - `update_hooks` leaves the hook flag of a collider as it is when its contacts were the same
//!   quiet ones in this pass and the last and the collider itself did not change.
//! - `after_step` clears `quiet` whenever it updates a contact. A contact that was idle and
//!   whose bodies still do not move ([`Watch::body_still`], each body looked up once per step)
//!   is kept as it is, without looking its pair up in the narrow phase (a pair that went away meanwhile is found, and its state swept, once a body wakes).
//!
//! So the passes do for a quiet contact what the full checks would do, and the simulation is
//! the same to the bit (the pile's checksums, `pile_timing --checksum`, are those of checking
//! every contact in full).

use super::*;

/// What the settle test and the shape and parent check read of a collider.
#[derive(Clone, Copy, PartialEq)]
struct Seen {
    /// The full handle (index and generation).
    key: u64,
    shape: usize,
    parent: Option<RigidBodyHandle>,
    /// `friction` (f32 bits) and its combination rule.
    friction: u32,
    rule: CoefficientCombineRule,
    /// The hook flags (bits).
    hooks: u32,
}

/// One collider index's entry.
#[derive(Clone, Copy)]
struct Entry {
    /// The pass that last looked at the collider.
    pass: u64,
    /// In that pass: the collider was there and unchanged since the pass before it that looked.
    same: bool,
    seen: Option<Seen>,
}

/// The per-collider view of [`Watch::collider_same`], by collider index, and the per-body one
/// of [`Watch::body_still`], by body index.
#[derive(Clone, Default)]
pub(super) struct Watch {
    colliders: Vec<Entry>,
    /// The current pass (every `before_step` starts one).
    pass: u64,
    /// (`after_step`'s step, the body's generation, its [`Still`]), by body index.
    bodies: Vec<(u64, u32, Still)>,
}

/// What `after_step` asks of a body of an idle contact.
#[derive(Clone, Copy, Default)]
pub(super) struct Still {
    /// Not moving (asleep, or not dynamic, or removed) and not disabled.
    pub(super) still: bool,
    /// Dynamic.
    pub(super) dynamic: bool,
}

impl Watch {
    /// Starts a `before_step` pass.
    pub(super) fn begin(&mut self) {
        self.pass += 1;
    }

    /// Whether collider `h` is there and unchanged (shape, parent, friction, combination rule,
    /// hook flags) since the last pass that looked at it; `c` is the collider if the caller has
    /// it. The first call of a pass decides for the whole pass, and a collider never looked at
    /// before counts as changed.
    #[inline]
    pub(super) fn collider_same(
        &mut self,
        h: ColliderHandle,
        c: Option<&Collider>,
        colliders: &ColliderSet,
    ) -> bool {
        let i = h.into_raw_parts().0 as usize;
        if i >= HandleMap::<()>::DENSE {
            return false;
        }
        if i >= self.colliders.len() {
            self.colliders.resize(i + 1, Entry { pass: 0, same: false, seen: None });
        }
        let e = &mut self.colliders[i];
        if e.pass == self.pass {
            return e.same;
        }
        let seen = c.or_else(|| colliders.get(h)).map(|c| Seen {
            key: handle_key(h),
            shape: shape_id(c),
            parent: c.parent(),
            friction: c.friction().to_bits(),
            rule: c.friction_combine_rule(),
            hooks: c.active_hooks().bits(),
        });
        e.same = seen.is_some() && seen == e.seen;
        e.seen = seen;
        e.pass = self.pass;
        e.same
    }

    /// Whether body `h` (none: the world) is still and whether it is dynamic, looked up once per
    /// `after_step` (`step`).
    #[inline]
    pub(super) fn body_still(
        &mut self,
        h: Option<RigidBodyHandle>,
        bodies: &RigidBodySet,
        step: u64,
    ) -> Still {
        let Some(h) = h else { return Still { still: true, dynamic: false } };
        let (i, generation) = h.into_raw_parts();
        let i = i as usize;
        if let Some(&(at, g, still)) = self.bodies.get(i) {
            if at == step && g == generation {
                return still;
            }
        }
        let rb = bodies.get(h);
        let still = Still {
            still: !is_moving_body(rb) && rb.is_none_or(|rb| rb.is_enabled()),
            dynamic: is_dynamic_body(rb),
        };
        if i < HandleMap::<()>::DENSE {
            if i >= self.bodies.len() {
                self.bodies.resize(i + 1, (0, 0, Still::default()));
            }
            self.bodies[i] = (step, generation, still);
        }
        still
    }

    /// Whether [`collider_same`](Self::collider_same) found collider `h` there and unchanged in
    /// this pass.
    pub(super) fn unchanged_in_pass(&self, h: ColliderHandle) -> bool {
        self.colliders
            .get(h.into_raw_parts().0 as usize)
            .is_some_and(|e| e.pass == self.pass && e.same && e.seen.is_some_and(|s| s.key == handle_key(h)))
    }
}
