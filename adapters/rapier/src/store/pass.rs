//! The contact pass of `after_step`: every live contact slot, one after another or in chunks
//! on rayon's threads (`parallel`), each moving contact through the per-contact pipeline
//! (`pipeline`). The performance machinery lives here: prefetching the contacts ahead
//! (`prefetch`), the bodies read once per step (`bodies`), idle contacts of still bodies kept
//! without a look at their pair (`quiet`), and the choice of the pipeline's instance (steady,
//! slide only).

use super::bodies::{BodiesNow, BodyNow, DYNAMIC, ENABLED, MOVING, PRESENT};
use super::effects::{record_give_back, Direct, Effects, Slot, StoreView};
#[cfg(feature = "parallel")]
use super::effects::{Deferred, Op};
use super::observe::StepCtx;
use super::pipeline::update;
use super::prefetch::{prefetch, prefetch_ends, prefetch_lines, AHEAD};
use super::quiet::StillBodies;
use super::*;

impl TriboRapier {
    /// Updates every live contact (see [`visit`]): one after another, or (`parallel` feature,
    /// several threads in rayon's pool and enough contacts) in chunks of slots on the pool's
    /// threads, each recording its effects, which are then made in slot order (see `effects`):
    /// the same to the bit either way, at any number of threads.
    #[inline(never)]
    pub(super) fn contact_pass<'n, P, Q>(
        &mut self,
        x: &StepCtx<'n>,
        pass: &PassCtx<'_, P, Q>,
        joints: &mut ImpulseJointSet,
    ) where
        P: Fn(ColliderHandle, ColliderHandle, u32) -> Option<(&'n ContactPair, u32)> + Sync,
        Q: Fn(u32) -> Option<&'n ContactPair> + Sync,
    {
        let view = StoreView {
            settings: self.settings,
            user_joints: self.user_joints,
            multibody_links: &self.multibody_links,
            torques: &self.torques,
        };
        #[cfg(feature = "parallel")]
        {
            let threads = rayon::current_num_threads();
            if threads > 1 && self.contacts.states.len() >= PARALLEL_MIN {
                use rayon::prelude::*;
                if self.caches.len() < threads {
                    self.caches.resize_with(threads, Default::default);
                }
                let (caches, parked) = (&self.caches, &self.watch.parked);
                let shared: &ImpulseJointSet = joints;
                let ops: Vec<Vec<Op>> = self
                    .contacts
                    .states
                    .par_chunks_mut(CHUNK)
                    .zip(self.contacts.plans.par_chunks_mut(CHUNK))
                    .zip(self.contacts.warm.par_chunks(CHUNK))
                    .enumerate()
                    .map(|(k, ((states, plans), warm))| {
                        let t = rayon::current_thread_index().unwrap_or(0) % caches.len();
                        let mut cache = caches[t].lock().unwrap_or_else(|e| e.into_inner());
                        let mut fx = Deferred { joints: shared, ops: Vec::new() };
                        let slots = Slots { base: k * CHUNK, states, plans, warm, parked };
                        visit(slots, x, pass, &view, &mut cache, &mut fx);
                        fx.ops
                    })
                    .collect();
                self.apply(ops.into_iter().flatten(), joints);
                return;
            }
        }
        let cache = self.caches[0].get_mut().unwrap_or_else(|e| e.into_inner());
        let mut fx = Direct::new(joints, &mut self.motors, &mut self.reported, &mut self.diagnostics);
        let slots = Slots {
            base: 0,
            states: &mut self.contacts.states,
            plans: &mut self.contacts.plans,
            warm: &self.contacts.warm,
            parked: &self.watch.parked,
        };
        visit(slots, x, pass, &view, cache, &mut fx);
    }

    /// The bodies the last contact pass read at rapier's angular speed cap, by handle.
    pub(super) fn take_capped(&mut self) -> Vec<RigidBodyHandle> {
        let mut capped: Vec<RigidBodyHandle> = Vec::new();
        for c in &mut self.caches {
            capped.append(&mut c.get_mut().unwrap_or_else(|e| e.into_inner()).now.take_capped());
        }
        capped.sort_unstable_by_key(|h| h.into_raw_parts());
        capped.dedup();
        capped
    }
}

/// The fewest contacts a store must track for the contact pass to run on several threads.
#[cfg(feature = "parallel")]
const PARALLEL_MIN: usize = 256;
/// Contact slots per parallel task.
#[cfg(feature = "parallel")]
const CHUNK: usize = 128;

/// The caches one thread of the contact pass keeps from step to step: the bodies as read in this
/// step, and whether bodies of idle contacts are still. (Each entry is what rapier's body says,
/// read once per step: a thread's cache gives the same values as any other's.)
#[derive(Default)]
pub(super) struct PassCache {
    now: BodiesNow,
    still: StillBodies,
}

impl PassCache {
    /// The caches of a store: one (a serial pass; a parallel one adds one per thread).
    pub(super) fn one() -> Vec<Mutex<PassCache>> {
        vec![Mutex::new(PassCache::default())]
    }
}

/// What the contact pass reads of the step besides [`StepCtx`]: a contact's pair in the narrow
/// phase by its colliders and the edge index it had (`pair_of`: its pair and edge index now) and
/// by edge index (`pair_at`).
pub(super) struct PassCtx<'a, P, Q> {
    pub(super) pair_of: P,
    pub(super) pair_at: Q,
    /// The first slot of the contacts new in this step, and their records.
    pub(super) first_new: usize,
    pub(super) new_info: &'a [NewPair],
}

/// A run of contact slots (from slot `base` on) for [`visit`], and the parked-slot bits.
struct Slots<'a> {
    base: usize,
    states: &'a mut [PairState],
    plans: &'a mut [Plan],
    warm: &'a [AtomicU32],
    parked: &'a quiet::Parked,
}

/// The contact pass over the live (not parked) slots of `slots`: for each, whether it can be
/// kept as it is (idle, its bodies still), its pair in the narrow phase (none: its motor's turn
/// in the step is given back), its bodies as read in this step, and then its update (see
/// [`update`](super::pipeline::update)).
#[inline(never)]
fn visit<'n, E, P, Q>(
    slots: Slots<'_>,
    x: &StepCtx<'n>,
    pass: &PassCtx<'_, P, Q>,
    view: &StoreView<'_>,
    cache: &mut PassCache,
    fx: &mut E,
) where
    E: Effects,
    P: Fn(ColliderHandle, ColliderHandle, u32) -> Option<(&'n ContactPair, u32)>,
    Q: Fn(u32) -> Option<&'n ContactPair>,
{
    let Slots { base, states, plans, warm, parked } = slots;
    let PassCache { now, still } = cache;
    let (bodies, step, dt) = (x.bodies, x.step, x.dt);
    let (pair_of, pair_at) = (&pass.pair_of, &pass.pair_at);
    let mut pressing = crate::slip::Pressing::default();
    let end = base + states.len();
    let mut next = base;
    loop {
        let idx = parked.next_live(next, end);
        if idx >= end {
            break;
        }
        next = idx + 1;
        let local = idx - base;
        prefetch_ahead(states, local, pair_at, now, step);
        // The parents `before_step` checked (or `after_step` recorded for a new contact):
        // nothing changes the sets between the two.
        let (c1, c2, cached_edge, [par1, par2], was_idle) = {
            let s = &states[local];
            (s.c1, s.c2, s.edge, s.parents, s.idle)
        };
        if was_idle {
            // Idle at the last step and its bodies still asleep (or not dynamic, one of
            // them dynamic): kept as it is, without looking its pair up (see `quiet`).
            let b1 = still.get(par1, bodies, step);
            let b2 = still.get(par2, bodies, step);
            if b1.still && b2.still && (b1.dynamic || b2.dynamic) {
                states[local].seen = step;
                continue;
            }
        }
        let Some((pair, edge)) = pair_of(c1, c2, cached_edge) else {
            // The pair is gone (swept below with its motor): the motor acted in this step
            // without a contact.
            record_give_back(&states[local], x.params, bodies, fx);
            continue;
        };
        let new = idx.checked_sub(pass.first_new).and_then(|j| pass.new_info.get(j));
        // Each body read once per step (`now`); rapier's own body only where a rarer part of
        // the update needs it.
        let (b1, b2) = (now.get(par1, bodies, step, dt), now.get(par2, bodies, step, dt));
        let (b1, b2) = (b1.map_or(&BodyNow::WORLD, |i| now.at(i)), b2.map_or(&BodyNow::WORLD, |i| now.at(i)));
        let (moving1, moving2) = (b1.is(MOVING), b2.is(MOVING));
        let (dynamic1, dynamic2) = (b1.is(DYNAMIC), b2.is(DYNAMIC));
        // rapier disables (quarantines) a body whose state went non-finite in the step; the
        // solver left NaN in the warm start of the motor that acted on it.
        if let Some(j) = states[local].joint {
            let disabled = |b: &BodyNow| b.is(PRESENT) && !b.is(ENABLED);
            if disabled(b1) || disabled(b2) {
                fx.clear_nonfinite_motor_impulse(j);
            }
        }
        let st = &mut states[local];
        st.edge = edge;
        st.idle = !(moving1 || moving2);
        if moving1 || moving2 {
            st.quiet = false;
        }
        if !(moving1 || moving2) {
            // Asleep: keep everything. No dynamic side any more (a body made fixed or
            // kinematic): swept below with its motor.
            if dynamic1 || dynamic2 {
                st.seen = step;
            }
            continue;
        }
        let steady = {
            let (s, plan) = (&states[local], &plans[local]);
            new.is_none()
                && x.belts.is_empty()
                && s.hold == 0
                && s.absent == 0
                && s.contensou_model.is_none()
                && s.curvature.is_some()
                && !plan.stock
                && !plan.roll_stopped
                && !plan.collapse
        };
        // Slide only: a steady contact without roll or spin resistance (its roll and spin
        // static, no motor, curvatures that do not depend on the direction).
        let slide_only = steady && {
            let s = &states[local];
            !s.torques
                && s.roll == Mode::Static
                && s.spin == Mode::Static
                && s.joint.is_none()
                && s.kappa_const
        };
        let slot = Slot { i: idx, s: &mut states[local], plan: &mut plans[local], warm: &warm[local] };
        let contact = (slot, (pair, new), (b1, b2));
        match (steady, slide_only) {
            (true, true) => update::<true, true, E>(x, view, contact, &mut pressing, fx),
            (true, false) => update::<true, false, E>(x, view, contact, &mut pressing, fx),
            _ => update::<false, false, E>(x, view, contact, &mut pressing, fx),
        }
    }
}

/// Starts loading the data of the contacts after slot `local` of `states` (see the comment
/// inside), their pairs found through `pair_at` and their bodies through `now`.
#[inline(always)]
fn prefetch_ahead<'n>(
    states: &[PairState],
    local: usize,
    pair_at: &impl Fn(u32) -> Option<&'n ContactPair>,
    now: &BodiesNow,
    step: u64,
) {
    // The loop is bound by cache misses on rapier's pair, manifold, solver-contact and
    // body data (scattered on the heap): start loading the data of the contacts a few
    // iterations ahead, one level of indirection per stage. Contacts whose bodies were
    // asleep at the last `after_step` are not prefetched (most stay asleep; a body woken
    // since is only not loaded ahead). The store's own states are large (their fields for
    // every model): their first line two stages ahead (`PairState` is laid out for
    // this), and the part of the state the common step reads half a stage ahead.
    let ahead = |k: usize| states.get(local + k).filter(|s| !s.idle);
    if let Some(s) = states.get(local + 2 * AHEAD) {
        prefetch((s as *const PairState).cast::<u8>());
        if let Some(p) = pair_at(s.edge).filter(|_| !s.idle) {
            prefetch(p);
        }
    }
    if let Some(s) = ahead(AHEAD) {
        if let Some(p) = pair_at(s.edge) {
            for m in p.solver_manifolds() {
                // The solver contacts, points, bodies, normal, friction and dominance.
                prefetch_lines(m, MANIFOLD_READ);
            }
        }
        // A body is read from rapier once per step (its first contact), then from `now`.
        for &b in s.parents.iter().flatten() {
            now.prefetch(b, step);
        }
    }
    if let Some(s) = ahead(AHEAD / 2) {
        prefetch_lines(s, PairState::COLD);
        if let Some(p) = pair_at(s.edge) {
            for m in p.solver_manifolds() {
                prefetch_ends(&m.data.solver_contacts);
                prefetch_ends(&m.points);
            }
        }
    }
}

/// The bytes of a `ContactManifold` `after_step` reads: its points and its data up to the
/// relative dominance (rapier 0.35: 116 of 160).
const MANIFOLD_READ: usize = std::mem::offset_of!(ContactManifold, data) + 96;
