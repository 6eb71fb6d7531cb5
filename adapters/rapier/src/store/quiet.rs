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
//!   against what the last pass that looked at it saw; a change `update_hooks` made itself to
//!   the hook flags, or to the friction of a collider with a tracking material, does not
//!   count, see [`Watch::own_change`]), and an unchanged quiet contact keeps the settle
//!   verdict it had. A contact whose material epoch moved, that waits for a plan, or
//!   whose collider changed is checked in full again; one with a Contensou model never is quiet.
//! - `update_hooks` leaves the hook flag of a collider as it is when its contacts were the same
//!   quiet or parked ones in this pass and the last and the collider itself did not change.
//! - `after_step` clears `quiet` whenever it updates a contact. A contact that was idle and
//!   whose bodies still do not move ([`StillBodies`], each body looked up once per step)
//!   is kept as it is, without looking its pair up in the narrow phase (a pair that went away
//!   meanwhile is found, and its state swept, once a body wakes).
//!
//! A quiet contact whose colliders did not change and whose bodies are still (one of them
//! dynamic) is *parked* ([`Parked`]): neither pass visits it until one of its colliders or
//! bodies changes. Each pass instead looks at the parked contacts' colliders and bodies, each
//! once: `before_step` at the colliders (as above), `after_step` at the bodies (still, and as
//! dynamic as when listed: a body rapier woke in the step, or the user changed). A contact of
//! one that changed is unparked and goes through the checks above in the same pass; a material
//! change, new settings, a step without a valid time step, a clone or a restored snapshot
//! unpark them all. A parked contact keeps its settle verdict in its colliders' counts
//! (`Settle::contribute`), so `update_hooks` decides from the verdicts of all contacts. A world
//! at rest then costs tribo one look per collider and per body in each step, not one
//! per contact in each pass.
//!
//! So the passes do for a quiet or parked contact what the full checks would do, and the
//! simulation is the same to the bit (the pile's checksums, `pile_timing --checksum`, are
//! those of checking every contact in full).

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

/// One collider index's verdict: the pass that last looked at the collider, and whether in that
/// pass it was there and unchanged since the pass before it that looked.
#[derive(Clone, Copy, Default)]
struct Looked {
    pass: u64,
    same: bool,
    /// The pass in which tribo itself last changed the collider's hook flags or friction
    /// ([`Watch::own_change`]).
    own: u64,
}

/// The per-collider view of [`Watch::collider_same`], by collider index.
#[derive(Clone, Default)]
pub(super) struct Watch {
    /// By collider index: the verdict of the last pass that looked, and what it saw (apart: each
    /// contact of a pass reads the verdicts of its two colliders).
    looked: Vec<Looked>,
    seen: Vec<Option<Seen>>,
    /// The current pass (every `before_step` starts one).
    pass: u64,
    /// The parked contacts.
    pub(super) parked: Parked,
}

/// Parked contacts (see the module docs): quiet contacts neither pass visits, found through
/// their colliders and bodies when one of them changes.
#[derive(Clone, Default)]
pub(super) struct Parked {
    /// One bit per state slot.
    bits: Vec<u64>,
    /// How many contacts are parked.
    count: usize,
    /// The material epoch they were parked in.
    epoch: u64,
    /// The collider and body lists are out of date.
    dirty: bool,
    /// The colliders of the parked contacts, each once.
    colliders: Vec<ColliderHandle>,
    /// The bodies of the parked contacts, each once, with what they were when listed.
    bodies: Vec<(RigidBodyHandle, Still)>,
    /// Marks by collider and by body index: listed in a rebuild, or changed in a check (each
    /// rebuild and check has its own stamp).
    collider_stamp: Vec<u64>,
    body_stamp: Vec<u64>,
    stamp: u64,
}

/// Whether the bodies of idle contacts are still ([`StillBodies::get`]), each looked up once per
/// `after_step`: (the step, the body's generation, its [`Still`]) by body index.
#[derive(Clone, Default)]
pub(super) struct StillBodies(Vec<(u64, u32, Still)>);

impl StillBodies {
    /// Whether body `h` (none: the world) is still and whether it is dynamic, looked up once per
    /// `after_step` (`step`).
    #[inline]
    pub(super) fn get(&mut self, h: Option<RigidBodyHandle>, bodies: &RigidBodySet, step: u64) -> Still {
        let Some(h) = h else { return Still { still: true, dynamic: false } };
        let (i, generation) = h.into_raw_parts();
        let i = i as usize;
        if let Some(&(at, g, still)) = self.0.get(i) {
            if at == step && g == generation {
                return still;
            }
        }
        let still = Still::of(h, bodies);
        if i < HandleMap::<()>::DENSE {
            if i >= self.0.len() {
                self.0.resize(i + 1, (0, 0, Still::default()));
            }
            self.0[i] = (step, generation, still);
        }
        still
    }
}

/// What `after_step` asks of a body of an idle contact.
#[derive(Clone, Copy, Default, PartialEq)]
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
        match self.looked.get(h.into_raw_parts().0 as usize) {
            Some(e) if e.pass == self.pass => e.same,
            _ => self.look(h, c, colliders),
        }
    }

    /// The first look of a pass at collider `h` (see [`collider_same`](Self::collider_same)).
    #[inline(never)]
    fn look(&mut self, h: ColliderHandle, c: Option<&Collider>, colliders: &ColliderSet) -> bool {
        let i = h.into_raw_parts().0 as usize;
        if i >= HandleMap::<()>::DENSE {
            return false;
        }
        if i >= self.looked.len() {
            self.looked.resize(i + 1, Looked::default());
            self.seen.resize(i + 1, None);
        }
        let seen = c.or_else(|| colliders.get(h)).map(|c| Seen {
            key: handle_key(h),
            shape: shape_id(c),
            parent: c.parent(),
            friction: c.friction().to_bits(),
            rule: c.friction_combine_rule(),
            hooks: c.active_hooks().bits(),
        });
        let same = seen.is_some() && seen == self.seen[i];
        self.seen[i] = seen;
        self.looked[i] = Looked { pass: self.pass, same, ..self.looked[i] };
        same
    }

    /// Records that tribo itself changed collider `h`'s hook flags or friction (`update_hooks`,
    /// after the pass looked at it): the next pass does not count that as a change of the
    /// collider for its contacts, whose checks do not depend on the hook flags, nor on the
    /// friction of a collider with a tracking material (`material_friction`: its coefficient
    /// test takes the material's μs). `update_hooks` still looks at the collider in full in that
    /// pass. A changed friction of a collider without a tracking material counts as a change.
    pub(super) fn own_change(&mut self, h: ColliderHandle, c: &Collider, material_friction: bool) {
        let i = h.into_raw_parts().0 as usize;
        let Some(Some(seen)) = self.seen.get_mut(i).filter(|s| s.is_some_and(|s| s.key == handle_key(h)))
        else {
            return;
        };
        let friction = c.friction().to_bits();
        if friction != seen.friction && !material_friction {
            return;
        }
        seen.friction = friction;
        seen.hooks = c.active_hooks().bits();
        self.looked[i].own = self.pass;
    }

    /// The `friction` and combination rule [`collider_same`](Self::collider_same) saw of
    /// collider `h` in this pass (`None`: not looked at in this pass, or not there).
    #[inline]
    pub(super) fn friction_in_pass(&self, h: ColliderHandle) -> Option<(f32, CoefficientCombineRule)> {
        let i = h.into_raw_parts().0 as usize;
        let seen = self.seen.get(i).copied().flatten();
        let seen = seen.filter(|s| self.looked[i].pass == self.pass && s.key == handle_key(h))?;
        Some((f32::from_bits(seen.friction), seen.rule))
    }

    /// Whether [`collider_same`](Self::collider_same) found collider `h` there and unchanged in
    /// this pass.
    pub(super) fn unchanged_in_pass(&self, h: ColliderHandle) -> bool {
        let i = h.into_raw_parts().0 as usize;
        self.looked.get(i).is_some_and(|e| e.pass == self.pass && e.same && e.own + 1 < self.pass)
            && self.seen[i].is_some_and(|s| s.key == handle_key(h))
    }
}

impl Still {
    /// What body `h` is now.
    pub(super) fn of(h: RigidBodyHandle, bodies: &RigidBodySet) -> Still {
        let rb = bodies.get(h);
        Still {
            still: !is_moving_body(rb) && rb.is_none_or(|rb| rb.is_enabled()),
            dynamic: is_dynamic_body(rb),
        }
    }
}

/// The slots whose bits are set in `bits`.
fn slots(bits: &[u64]) -> impl Iterator<Item = usize> + '_ {
    bits.iter().enumerate().flat_map(|(k, &w)| {
        let mut w = w;
        std::iter::from_fn(move || {
            (w != 0).then(|| {
                let b = w.trailing_zeros() as usize;
                w &= w - 1;
                k * 64 + b
            })
        })
    })
}

/// Sets `v[i] = x`, growing `v` with defaults.
fn put<T: Default + Clone>(v: &mut Vec<T>, i: usize, x: T) {
    if i >= v.len() {
        v.resize(i + 1, T::default());
    }
    v[i] = x;
}

impl Parked {
    /// Whether the contact in slot `i` is parked.
    #[inline]
    pub(super) fn is(&self, i: usize) -> bool {
        self.bits.get(i / 64).is_some_and(|w| w & (1 << (i % 64)) != 0)
    }

    /// The first slot from `i` on (below `len`) that is not parked, or `len`.
    #[inline]
    pub(super) fn next_live(&self, mut i: usize, len: usize) -> usize {
        while i < len {
            let Some(&w) = self.bits.get(i / 64) else { return i };
            let free = !w >> (i % 64);
            if free != 0 {
                return (i + free.trailing_zeros() as usize).min(len);
            }
            i = (i / 64 + 1) * 64;
        }
        len
    }

    /// The material epoch of the parked contacts.
    pub(super) fn epoch(&self) -> u64 {
        self.epoch
    }

    /// Parks the contact in slot `i` (material `epoch`).
    pub(super) fn park(&mut self, i: usize, epoch: u64) {
        if self.is(i) {
            return;
        }
        self.set(i);
        self.count += 1;
        self.epoch = epoch;
        self.dirty = true;
    }

    fn set(&mut self, i: usize) {
        if i / 64 >= self.bits.len() {
            self.bits.resize(i / 64 + 1, 0);
        }
        self.bits[i / 64] |= 1 << (i % 64);
    }

    /// Unparks the contact in slot `i`.
    pub(super) fn unpark(&mut self, i: usize) {
        if !self.is(i) {
            return;
        }
        self.bits[i / 64] &= !(1 << (i % 64));
        self.count -= 1;
        self.dirty = true;
    }

    /// Unparks every contact.
    pub(super) fn unpark_all(&mut self) {
        if self.count == 0 {
            return;
        }
        self.bits.clear();
        self.count = 0;
        self.dirty = true;
    }

    /// Slot `last` (unparked or not) moved to slot `i`, which is not parked (a state's
    /// `swap_remove`).
    pub(super) fn moved(&mut self, last: usize, i: usize) {
        if i == last || !self.is(last) {
            return;
        }
        self.bits[last / 64] &= !(1 << (last % 64));
        self.set(i);
    }

    /// Lists the parked contacts' colliders and bodies again if they changed (after
    /// `before_step`'s contact loop).
    pub(super) fn relist(&mut self, states: &[PairState], bodies: &RigidBodySet) {
        if !self.dirty {
            return;
        }
        // A body the user changed since the last `after_step` without waking it (made fixed)
        // would be listed as it is now: its parked contacts are unparked first (`after_step`
        // finds the change as the full checks would).
        self.check_bodies(states, bodies);
        self.dirty = false;
        self.stamp += 1;
        let stamp = self.stamp;
        let (mut colliders, mut listed) =
            (std::mem::take(&mut self.colliders), std::mem::take(&mut self.bodies));
        colliders.clear();
        listed.clear();
        for i in slots(&self.bits) {
            let s = &states[i];
            for c in [s.c1, s.c2] {
                let k = c.into_raw_parts().0 as usize;
                if self.collider_stamp.get(k) != Some(&stamp) {
                    put(&mut self.collider_stamp, k, stamp);
                    colliders.push(c);
                }
            }
            for &b in s.parents.iter().flatten() {
                let k = b.into_raw_parts().0 as usize;
                if self.body_stamp.get(k) != Some(&stamp) {
                    put(&mut self.body_stamp, k, stamp);
                    listed.push((b, Still::of(b, bodies)));
                }
            }
        }
        self.colliders = colliders;
        self.bodies = listed;
    }

    /// Unparks the contacts of a listed body that is no longer what it was when listed (woken,
    /// disabled, removed, or its type changed). Returns whether any were.
    pub(super) fn check_bodies(&mut self, states: &[PairState], bodies: &RigidBodySet) -> bool {
        if self.count == 0 {
            return false;
        }
        self.stamp += 1;
        let stamp = self.stamp;
        let mut changed = false;
        for &(b, was) in &self.bodies {
            if Still::of(b, bodies) != was {
                put(&mut self.body_stamp, b.into_raw_parts().0 as usize, stamp);
                changed = true;
            }
        }
        if changed {
            self.unpark_marked(states, stamp);
        }
        changed
    }

    /// Unparks the contacts whose colliders or bodies carry `stamp`.
    fn unpark_marked(&mut self, states: &[PairState], stamp: u64) {
        let marked: Vec<usize> = slots(&self.bits)
            .filter(|&i| {
                let s = &states[i];
                let c = |h: ColliderHandle| {
                    self.collider_stamp.get(h.into_raw_parts().0 as usize) == Some(&stamp)
                };
                let b =
                    |h: &RigidBodyHandle| self.body_stamp.get(h.into_raw_parts().0 as usize) == Some(&stamp);
                c(s.c1) || c(s.c2) || s.parents.iter().flatten().any(b)
            })
            .collect();
        for i in marked {
            self.unpark(i);
        }
    }
}

impl Watch {
    /// Unparks the contacts of a parked contact's collider that changed since the last pass that
    /// looked at it, at the start of a `before_step` pass. (Their bodies are looked at by
    /// `after_step`, and before the lists are made again.)
    pub(super) fn check_parked(&mut self, states: &[PairState], colliders: &ColliderSet) {
        if self.parked.count == 0 {
            return;
        }
        let listed = std::mem::take(&mut self.parked.colliders);
        self.parked.stamp += 1;
        let stamp = self.parked.stamp;
        let mut changed = false;
        for &c in &listed {
            if !self.collider_same(c, None, colliders) {
                put(&mut self.parked.collider_stamp, c.into_raw_parts().0 as usize, stamp);
                changed = true;
            }
        }
        self.parked.colliders = listed;
        if changed {
            self.parked.unpark_marked(states, stamp);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The live slots `next_live` walks, with slots parked across word boundaries.
    fn live(p: &Parked, len: usize) -> Vec<usize> {
        let mut out = Vec::new();
        let mut i = 0;
        loop {
            i = p.next_live(i, len);
            if i >= len {
                return out;
            }
            out.push(i);
            i += 1;
        }
    }

    #[test]
    fn the_live_walk_skips_exactly_the_parked_slots() {
        let mut p = Parked::default();
        let parked = [0, 1, 63, 64, 65, 127, 128, 129, 130, 200];
        for i in parked {
            p.set(i);
        }
        // Every slot of the second and third words but 100 parked: whole words are skipped.
        for i in 66..200 {
            if i != 100 {
                p.set(i);
            }
        }
        let len = 203;
        let expected: Vec<usize> =
            (0..len).filter(|i| !(parked.contains(i) || ((66..200).contains(i) && *i != 100))).collect();
        assert_eq!(live(&p, len), expected);
        let parked_now: Vec<usize> = (0..len).filter(|i| !expected.contains(i)).collect();
        assert_eq!(slots(&p.bits).collect::<Vec<_>>(), parked_now);
        // Past the bits: live.
        assert_eq!(p.next_live(300, 310), 300);
        assert_eq!(p.next_live(199, 200), 200);
        for i in 0..len {
            assert_eq!(p.is(i), !expected.contains(&i), "slot {i}");
        }
    }

    #[test]
    fn a_parked_last_slot_moves_into_a_removed_one() {
        let mut p = Parked::default();
        p.set(130);
        p.moved(130, 5);
        assert!(p.is(5) && !p.is(130));
        assert_eq!(slots(&p.bits).collect::<Vec<_>>(), vec![5]);
        // A live last slot leaves the removed (live) one live.
        p.moved(131, 7);
        assert!(!p.is(7));
    }
}
