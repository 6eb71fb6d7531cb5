//! Settled colliders off the hook ([`Settings::unhook_settled`]).
//!
//! rapier recycles the contacts of a pair whose relative pose barely moved since their last full
//! update (no parry re-clip, the solver contacts, lever arms and normal kept), but only for pairs
//! without an active hook: a pair is hooked when either collider has a hook flag. Hooked pairs go
//! through parry every step, and for two equal, aligned faces (a stack of boxes) the re-clipped
//! manifold changes features at some corners and drops their warm starts (docs/rapier.md §2).
//!
//! So `before_step` takes `ActiveHooks::MODIFY_SOLVER_CONTACTS` off a material collider on a
//! dynamic body while every one of its tribo contacts is settled (`after_step`: slide, roll and
//! spin static after the onset hold, the slide deflection within half its static threshold,
//! slip below [`SETTLE_SLIP`] slip speeds, no load, or a deflection still within half the
//! threshold after one more step at the slip; the two deflection tests skip a contact's first
//! loaded step, whose normal force and deflection are the averages over a step it touched only
//! in part; a curved contact's relative roll and spin below their slip speeds; no Contensou
//! model, no stock fallback), and puts it back on before the step
//! after one of its contacts stops being settled.
//!
//! A sliding contact (kinetic slide, roll and spin static) is settled too while rapier recycles
//! its pair: the hook's whole work for it is μk, and a recycled pair keeps the friction
//! coefficient of its last full update, which the hook wrote. rapier updates an unhooked pair in
//! full once its colliders' relative pose moved more than `contact_recycle_distance` since the
//! last full update (translation plus relative turn times the larger collider's extent) or a
//! body turned more than acos 0.98, and then takes the colliders' combined `friction` (μs).
//! `after_step` bounds both from the velocities (path lengths since the pair's last hooked step,
//! `PairState::off_motion`) and keeps the contact settled only within half of rapier's bounds.
//! Either way a contact goes off only while rapier's manifolds hold the coefficient of its mode
//! (`PairState::applied_mu`, read from the manifold after each step): a contact that changes
//! mode spends a step on the hook, which writes the new coefficient. (A contact that left the
//! hook as soon as it stopped sliding would keep the μk of its last sliding step in the recycled
//! pair, below its static capacity.) A collider gaining a contact with a hooked
//! collider is hooked through that pair, reported by the hook, and back on the hook for its
//! other pairs once the new contact's state exists (new contacts are not settled before their
//! first `after_step`).
//!
//! While off, rapier's own friction of the pair must be tribo's static coefficient: the
//! collider's `friction` is set to its material's μs (the user's value is restored when the
//! hook comes back), and a collider only goes off when rapier's combination of the two
//! colliders' values equals each contact's μs (pair-table overrides, differing combination
//! rules, a partner without a material and another friction keep it hooked). Colliders on
//! fixed or kinematic bodies or without a body stay hooked (their pairs with colliders without
//! a material are tribo contacts that only the hook reports), as do colliders whose hook flag
//! the user set.
//!
//! rapier recycles a pair's solver contacts as its last full update left them, the hook's
//! changes included. A settled contact is planned without the anchor pull-back, and its colliders
//! go off only after a step in which the hook left its solver contacts plain
//! ([`PairState::hook_plain`]): a recycled pull-back `tangent_velocity` would drive the body on.
//!
//! The stick/slip tracking of an unhooked contact goes on in `after_step`, and so do its plan
//! and its motor (roll and spin resistance are joints, not hook work). Only the slide anchor
//! pull-back is the hook's: an unhooked contact goes back on the hook when its deflection
//! reaches half the static threshold. Its normal force takes the warm start the solver began
//! the step with from the contact points' warm-start impulses at the last `after_step`
//! ([`PairState::warm_next`]): exact for a recycled pair, whose points rapier leaves untouched
//! between the steps (a pair re-clipped without the hook keeps the warm starts of the points
//! whose features persist).

use super::*;

/// The store's control of one material collider's hook flag.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde-serialize", derive(serde::Serialize, serde::Deserialize))]
pub(super) struct HookCtl {
    /// tribo turned the collider's `MODIFY_SOLVER_CONTACTS` flag on (it had none): only then may
    /// tribo take it off again.
    pub(super) tribo_flag: bool,
    /// Off the hook: the user's `friction` and the value tribo set in its place.
    pub(super) off: Option<(f32, f32)>,
    /// The flag is the user's ([`TriboRapier::set_hook_flag_owner`]): it stays on.
    #[cfg_attr(feature = "serde-serialize", serde(default))]
    pub(super) user_flag: bool,
    /// Other code says whose the flag is ([`TriboRapier::set_hook_flag_owner`]): a flag put on
    /// while the collider is off is the told owner's, and when the material goes the store
    /// leaves the flag to that code.
    #[cfg_attr(feature = "serde-serialize", serde(default))]
    pub(super) told: bool,
}

/// The slip (in [`Settings::slip_speed`]s) below which a sticking contact counts as settled.
pub(super) const SETTLE_SLIP: f32 = 10.0;

/// Per-collider bookkeeping of [`Settings::unhook_settled`].
#[derive(Clone, Default)]
pub(super) struct Settle {
    /// By full collider handle.
    pub(super) ctl: HandleMap<HookCtl>,
    /// What the contacts contribute to each collider, by collider index.
    live: Vec<Live>,
    /// The current `before_step` pass (starts at 1).
    pass: u64,
    /// Every collider goes back on the hook at the next `before_step` (contact states were
    /// dropped: their pairs must be reported by the hook again).
    pub(super) rehook_all: bool,
    /// A material was removed: the next `before_step` restores its collider.
    pub(super) orphans: bool,
    /// The next `update_hooks` looks at every material collider (a hook flag's owner was told).
    pub(super) all_again: bool,
}

/// The settle verdicts of one collider's contacts (see [`Contribution`]).
#[derive(Clone, Copy, Default)]
struct Live {
    /// Contacts that keep the collider off the hook, and that keep it on.
    settled: u32,
    unsettled: u32,
    /// Contacts checked in full for their verdict (not quiet, see `quiet`).
    checked: u32,
    /// When one of these last changed (a contact added, removed, or its verdict or check
    /// changed): the pass after the current one, so that a removal by `after_step` counts for
    /// the pass that follows it.
    changed: u64,
}

/// What one contact contributes to its colliders' [`Live`] counts: its settle verdict for the
/// coming `update_hooks` and whether that verdict was checked in full (`PairState::counted`:
/// 0 for none, else [`COUNTED`] with [`SETTLED`] and [`CHECKED`]).
pub(super) type Contribution = u8;
const COUNTED: Contribution = 1;
const SETTLED: Contribution = 2;
const CHECKED: Contribution = 4;

impl Settle {
    /// Restored from a snapshot with the given hook control.
    #[cfg(feature = "serde-serialize")]
    pub(super) fn with_ctl(ctl: HandleMap<HookCtl>) -> Settle {
        Settle { ctl, ..Default::default() }
    }

    /// Starts a `before_step` pass.
    pub(super) fn begin(&mut self) {
        self.pass += 1;
    }

    /// Sets what contact `s` contributes to its colliders' counts: its settle verdict (`None`:
    /// none, as for a removed contact or with [`Settings::unhook_settled`] off) and
    /// whether it was checked in full. The counts change only when the contribution does, so
    /// a contact whose verdict stays the same costs one comparison per step.
    #[inline]
    pub(super) fn contribute(&mut self, s: &mut PairState, verdict: Option<bool>, checked: bool) {
        let code =
            verdict.map_or(0, |v| COUNTED | if v { SETTLED } else { 0 } | if checked { CHECKED } else { 0 });
        if code != s.counted {
            let old = std::mem::replace(&mut s.counted, code);
            self.recount(s.c1, old, code);
            self.recount(s.c2, old, code);
        }
    }

    fn recount(&mut self, c: ColliderHandle, old: Contribution, new: Contribution) {
        let i = c.into_raw_parts().0 as usize;
        if i >= self.live.len() {
            self.live.resize(i + 1, Live::default());
        }
        let l = &mut self.live[i];
        for (code, add) in [(old, false), (new, true)] {
            if code & COUNTED == 0 {
                continue;
            }
            let step = |n: &mut u32| *n = if add { *n + 1 } else { n.saturating_sub(1) };
            step(if code & SETTLED != 0 { &mut l.settled } else { &mut l.unsettled });
            if code & CHECKED != 0 {
                step(&mut l.checked);
            }
        }
        l.changed = self.pass + 1;
    }

    /// Forgets every contribution (the contact states were dropped without removing them one
    /// by one).
    pub(super) fn forget_contributions(&mut self) {
        self.live.clear();
    }

    /// Whether every contact of `c` with a verdict was settled, and at least one was.
    fn all_settled(&self, c: ColliderHandle) -> bool {
        let l = self.live.get(c.into_raw_parts().0 as usize).copied().unwrap_or_default();
        l.unsettled == 0 && l.settled > 0
    }

    /// Whether `c`'s contacts in this pass and in the last one were the same quiet or parked
    /// contacts with the same verdicts: its hook flag's inputs from them did not change. (A
    /// quiet contact was checked in full before it became quiet, and adding or removing one,
    /// or a change of its verdict, stamps the counts; parking does not change a verdict.)
    fn same_quiet_contacts(&self, c: ColliderHandle) -> bool {
        let l = self.live.get(c.into_raw_parts().0 as usize).copied().unwrap_or_default();
        l.checked == 0 && l.changed + 1 < self.pass
    }
}

/// rapier's combination of two colliders' friction coefficients (`CoefficientCombineRule`: the
/// higher rule wins).
pub(super) fn rapier_combine(a: f32, b: f32, ra: CoefficientCombineRule, rb: CoefficientCombineRule) -> f32 {
    match ra.max(rb) {
        CoefficientCombineRule::Average => (a + b) / 2.0,
        CoefficientCombineRule::Min => a.min(b).abs(),
        CoefficientCombineRule::Multiply => a * b,
        CoefficientCombineRule::Max => a.max(b),
        CoefficientCombineRule::ClampedSum => (a + b).clamp(0.0, 1.0),
        CoefficientCombineRule::GeometricMean => (a.max(0.0) * b.max(0.0)).sqrt(),
    }
}

impl TriboRapier {
    /// The friction coefficient a collider has while off the hook: its material's μs, or its own
    /// `friction` if it has no tribo material.
    fn unhooked_friction(&self, h: ColliderHandle, c: &Collider) -> f32 {
        match self.material_mu_s(h) {
            Some(mu) => mu,
            None => c.friction(),
        }
    }

    /// The μs of a collider's own tribo material, if it has one.
    fn material_mu_s(&self, h: ColliderHandle) -> Option<f32> {
        self.material(h).and_then(|m| m.material()).map(|m| m.mu_s() as f32)
    }

    /// Whether contact `i` is settled, so its colliders may leave the hook: rapier's manifolds
    /// of the pair hold the coefficient of the contact's slide mode (the hook wrote it at the
    /// pair's last full update, [`PairState::applied_mu`]: a recycled pair keeps it), and
    /// rapier's own combination of the colliders' friction, which it takes at a full update off
    /// the hook, is the contact's μs (a sliding contact goes back on the hook before rapier
    /// would update it in full, see `after_step`).
    ///
    /// `friction`: each collider's `friction` and combination rule, from a caller that has the
    /// colliders (the combination is tested again and kept in [`PairState::combine_ok`]), or
    /// `None` from one that found both colliders unchanged since the last pass (the kept test
    /// stands; without one, the values the watch saw in this pass are used).
    #[inline(always)]
    pub(super) fn contact_settled(
        &mut self,
        i: usize,
        friction: Option<[(f32, CoefficientCombineRule); 2]>,
    ) -> bool {
        let s = &self.contacts.states[i];
        if !s.settled
            || !s.hook_plain
            || s.pending
            || s.contensou_model.is_some()
            || self.contacts.plans[i].stock
        {
            return false;
        }
        self.settled_coefficients(i, friction)
    }

    /// The coefficient tests of [`contact_settled`](Self::contact_settled), for a contact whose
    /// state is settled.
    #[inline(never)]
    fn settled_coefficients(
        &mut self,
        i: usize,
        friction: Option<[(f32, CoefficientCombineRule); 2]>,
    ) -> bool {
        let s = &self.contacts.states[i];
        let mu = s.material.mu(s.slide) as f32;
        if self.contacts.plans[i].mu != mu || !same_mu(s.applied_mu, mu) {
            return false;
        }
        // The colliders' material μs, looked up again only after a material changed.
        if s.unhook_mu_epoch != self.materials.epoch + 1 {
            let mu = [s.c1, s.c2].map(|h| self.material_mu_s(h).unwrap_or(f32::NAN));
            let s = &mut self.contacts.states[i];
            s.unhook_mu = mu;
            s.unhook_mu_epoch = self.materials.epoch + 1;
            s.combine_ok = None;
        }
        let s = &self.contacts.states[i];
        let friction = match (friction, s.combine_ok) {
            (Some(f), _) => f,
            (None, Some(ok)) => return ok,
            (None, None) => match (self.watch.friction_in_pass(s.c1), self.watch.friction_in_pass(s.c2)) {
                (Some(f1), Some(f2)) => [f1, f2],
                _ => return false,
            },
        };
        let off = |mu: f32, friction: f32| if mu.is_nan() { friction } else { mu };
        let [(f1, r1), (f2, r2)] = friction;
        let ok = same_mu(
            rapier_combine(off(s.unhook_mu[0], f1), off(s.unhook_mu[1], f2), r1, r2),
            s.material.mu_s() as f32,
        );
        self.contacts.states[i].combine_ok = Some(ok);
        ok
    }

    /// Sets the hook flag (and friction) of every material collider for the coming step, from
    /// its contacts' settle verdicts ([`Settle::contribute`]). Called by `before_step` after
    /// its contact loop.
    pub(super) fn update_hooks(&mut self, bodies: &RigidBodySet, colliders: &mut ColliderSet) {
        let on = self.settings.unhook_settled && !std::mem::take(&mut self.settle.rehook_all);
        if std::mem::take(&mut self.settle.orphans) {
            // Materials removed while their collider was off the hook: back to the user's state
            // (the flag too, unless the code that says whose it is manages it).
            let gone: Vec<u64> = self
                .settle
                .ctl
                .keys()
                .filter(|k| !self.materials.by_collider.contains_key(k))
                .copied()
                .collect();
            for k in gone {
                let Some(ctl) = self.settle.ctl.remove(&k) else { continue };
                let h = ColliderHandle::from_raw_parts(k as u32, (k >> 32) as u32);
                if let (Some(c), Some((user, set))) = (colliders.get_mut(h), ctl.off) {
                    if c.friction() == set {
                        c.set_friction(user);
                    }
                    if !ctl.told {
                        c.set_active_hooks(c.active_hooks() | ActiveHooks::MODIFY_SOLVER_CONTACTS);
                    }
                }
            }
        }
        let all = std::mem::take(&mut self.settle.all_again) || !on;
        for k in 0..self.materials.colliders.len() {
            let h = self.materials.colliders[k];
            // A collider whose contacts were the same quiet ones in this pass and the last, and
            // that did not change itself (flags and friction included) since the last pass,
            // keeps what the last pass gave it.
            if !all && self.settle.same_quiet_contacts(h) && self.watch.unchanged_in_pass(h) {
                continue;
            }
            let Some(c) = colliders.get(h) else { continue };
            let key = handle_key(h);
            let before = self.settle.ctl.get(&key).copied();
            let mut ctl = before.unwrap_or_default();
            let flagged = c.active_hooks().contains(ActiveHooks::MODIFY_SOLVER_CONTACTS);
            let mut friction = c.friction();
            match ctl.off {
                // The flag was put on while the collider was off: the user's now, unless its
                // owner was told (an adapter putting tribo's own flag back).
                Some((user, set)) if flagged => {
                    if friction == set {
                        friction = user;
                    }
                    ctl = if ctl.told {
                        HookCtl { off: None, ..ctl }
                    } else {
                        HookCtl { user_flag: true, ..HookCtl::default() }
                    };
                }
                // The user changed the friction while off: their new value stands.
                Some((_, set)) if friction != set => ctl.off = Some((friction, set)),
                _ => {}
            }
            let user_friction = ctl.off.map_or(friction, |(user, _)| user);
            let tracking = self.material(h).is_some_and(|m| m.material().is_some());
            let want_off = on
                && !ctl.user_flag
                && (ctl.tribo_flag || !flagged)
                && self.settle.all_settled(h)
                && tracking
                && on_dynamic_body(c, bodies);
            let (flag, new_friction) = if want_off {
                let mu = self.unhooked_friction(h, c);
                ctl.off = Some((user_friction, mu));
                ctl.tribo_flag = true;
                (false, mu)
            } else {
                // On: tribo's flag unless the user's is there.
                ctl.tribo_flag |= !flagged && !ctl.user_flag;
                ctl.off = None;
                (true, user_friction)
            };
            let hooks = if flag {
                c.active_hooks() | ActiveHooks::MODIFY_SOLVER_CONTACTS
            } else {
                c.active_hooks() - ActiveHooks::MODIFY_SOLVER_CONTACTS
            };
            if hooks != c.active_hooks() || new_friction != c.friction() {
                if let Some(c) = colliders.get_mut(h) {
                    if hooks != c.active_hooks() {
                        c.set_active_hooks(hooks);
                    }
                    if new_friction != c.friction() {
                        c.set_friction(new_friction);
                    }
                    self.watch.own_change(h, c, tracking);
                }
            }
            let keep = ctl.tribo_flag || ctl.user_flag || ctl.off.is_some();
            if keep && before != Some(ctl) {
                self.settle.ctl.insert(key, ctl);
            } else if !keep && before.is_some() {
                self.settle.ctl.remove(&key);
            }
        }
    }

    /// Says whose `MODIFY_SOLVER_CONTACTS` flag `collider` carries when the flag is set by
    /// other code than this store: `tribo = true` when it was set on tribo's behalf (as
    /// bevy_tribo does with the `ActiveHooks` component of a collider with a material), so that
    /// [`Settings::unhook_settled`] may take it off; `false` when it is the user's, which stays.
    /// Without this call a flag the collider has when the store first sees it counts as the
    /// user's, one the store sets itself as tribo's, and one put back on while tribo has the
    /// collider off the hook as the user's. After it, the flag is the told owner's (call it
    /// again whenever the owner changes), and removing the collider's material leaves the flag
    /// to the caller (the store puts back the user's friction only).
    pub fn set_hook_flag_owner(&mut self, collider: ColliderHandle, tribo: bool) {
        self.settle.all_again = true;
        let ctl = self.settle.ctl.get_or_insert_default(handle_key(collider));
        ctl.tribo_flag = tribo;
        ctl.user_flag = !tribo;
        ctl.told = true;
    }

    /// Whether `c` is a collider tribo took off the hook (see [`Settings::unhook_settled`]).
    pub fn is_unhooked(&self, c: ColliderHandle) -> bool {
        self.settle.ctl.get(&handle_key(c)).is_some_and(|ctl| ctl.off.is_some())
    }
}

/// Whether friction coefficient `a` (rapier's combination of two colliders' values) is `b` (the
/// material's combination): equal up to the last bits the two combinations may differ in.
fn same_mu(a: f32, b: f32) -> bool {
    (a - b).abs() <= 1e-6 * b.max(1.0)
}

/// Whether a collider is attached to a dynamic body (the only ones taken off the hook).
fn on_dynamic_body(c: &Collider, bodies: &RigidBodySet) -> bool {
    c.parent().and_then(|b| bodies.get(b)).is_some_and(|rb| rb.is_dynamic())
}
